//! `--format sarif` and `--sarif FILE`: every log gpug writes for the examples is valid against
//! OASIS's JSON schema of SARIF 2.1.0 (`tests/sarif/sarif-schema-2.1.0.json`, see the README
//! there), checked with the `jsonschema` crate; its results say what the examples expect; and
//! one snapshot (insta) of a race's log.
//!
//! The examples run as `tests/examples.rs` runs them, with yices (the fastest) where their
//! `// solvers:` line allows it: every file of `examples/*.cu`, `examples/opencl/*.cl` and
//! `examples/barrier_invariants/*.cu` with its first header's flags in one `gpug FILE…` run
//! (one log), and each further header whose expectation is not `verified` as its own run (a
//! verified run's log holds no result; those runs are the slow ones).

mod common;

use common::{gpug, root, run_example};
use serde_json::Value;
use std::path::Path;
use std::process::Output;
use std::sync::OnceLock;

/// OASIS's schema, compiled once (draft 4, as its `$schema` says; formats checked).
fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let path = root().join("tests/sarif/sarif-schema-2.1.0.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the schema compiles")
    })
}

/// The schema's complaints about `log`, one line each (empty: valid).
fn schema_errors(log: &Value) -> Vec<String> {
    validator()
        .iter_errors(log)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// gpug's stdout as a SARIF log, checked against the schema; panics naming `what`.
fn valid_log(what: &str, out: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let log: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{what}: stdout is not JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let errors = schema_errors(&log);
    assert!(
        errors.is_empty(),
        "{what}: not valid SARIF 2.1.0:\n{}",
        errors.join("\n")
    );
    log
}

/// The results of the log's one run.
fn results(log: &Value) -> &[Value] {
    log["runs"][0]["results"].as_array().map_or(&[], Vec::as_slice)
}

/// `(ruleId, kind, level, uri of the first location)` of each result.
fn summary(log: &Value) -> Vec<(String, String, String, String)> {
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    results(log)
        .iter()
        .map(|r| {
            (
                s(&r["ruleId"]),
                s(&r["kind"]),
                s(&r["level"]),
                s(&r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]),
            )
        })
        .collect()
}

/// One run of an example: its file (relative to the repository), expectation, flags, solver.
struct Run {
    file: String,
    expect: String,
    flags: Vec<String>,
    solver: String,
}

/// Every run of the examples as `tests/examples.rs` reads them: pairs of `// expect: …` and
/// `// --flags` lines at the top, each maybe followed by `// solvers: …`.
fn example_runs() -> Vec<Vec<Run>> {
    let mut files = Vec::new();
    for (dir, ext) in [
        ("examples", "cu"),
        ("examples/opencl", "cl"),
        ("examples/barrier_invariants", "cu"),
    ] {
        let mut here: Vec<String> = std::fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .map(|p| format!("{dir}/{}", p.file_name().expect("name").to_string_lossy()))
            .collect();
        here.sort();
        files.extend(here);
    }
    assert!(files.len() >= 60, "examples: {files:?}");
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(root().join(&file)).expect("read");
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            let mut runs = Vec::new();
            let mut i = 0;
            while let Some(expect) = lines.get(i).and_then(|l| l.strip_prefix("// expect:")) {
                let flags = lines[i + 1]
                    .trim_start_matches("//")
                    .split_whitespace()
                    .map(String::from)
                    .collect();
                let solvers: Option<Vec<&str>> = lines
                    .get(i + 2)
                    .and_then(|l| l.strip_prefix("// solvers:"))
                    .map(|l| l.split_whitespace().collect());
                let solver = match &solvers {
                    Some(s) if !s.contains(&"yices") => s[0].to_string(),
                    _ => "yices".to_string(),
                };
                runs.push(Run {
                    file: file.clone(),
                    expect: expect.trim().to_string(),
                    flags,
                    solver,
                });
                i += if solvers.is_some() { 3 } else { 2 };
            }
            assert!(!runs.is_empty(), "{file}: no `// expect:` header");
            runs
        })
        .collect()
}

/// The rule whose `fail` result an expectation asks for (`None`: no such result).
fn rule_of(expect: &str) -> Option<&'static str> {
    match expect {
        "verified" => None,
        "race" => Some("data-race"),
        "divergence" => Some("barrier-divergence"),
        "assertion" => Some("assertion"),
        "barrier_invariant" => Some("barrier-invariant"),
        other => panic!("unknown expectation `{other}`"),
    }
}

/// Whether `log` has the result `expect` asks of `file`: a `fail` result of its rule at the
/// file (error or warning), or none of level error or warning for `verified`.
fn meets(log: &Value, file: &str, expect: &str) -> bool {
    let defects: Vec<String> = summary(log)
        .into_iter()
        .filter(|(_, kind, level, uri)| kind == "fail" && (level == "error" || level == "warning") && uri == file)
        .map(|(rule, ..)| rule)
        .collect();
    match rule_of(expect) {
        None => defects.is_empty(),
        Some(rule) => defects.iter().any(|r| r == rule),
    }
}

/// The validator is in force: a log the schema allows, and the same with a region's
/// `startLine` of 0 (the schema's minimum is 1) and an unknown `level`, which it rejects.
#[test]
fn the_schema_rejects_what_sarif_forbids() {
    let mut log = serde_json::json!({
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "gpug"}},
            "results": [{
                "message": {"text": "x"},
                "level": "error",
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": "a.cu"},
                    "region": {"startLine": 1}
                }}]
            }]
        }]
    });
    assert_eq!(schema_errors(&log), Vec::<String>::new());
    let result = &mut log["runs"][0]["results"][0];
    result["locations"][0]["physicalLocation"]["region"]["startLine"] = 0.into();
    result["level"] = "fatal".into();
    assert_eq!(schema_errors(&log).len(), 2, "{:?}", schema_errors(&log));
}

/// `gpug --format sarif --solver yices` over every example file in one run (each file's first
/// header) is one valid log with every kernel in it and the results the headers expect; then
/// each further header that expects a defect, as its own run.
#[test]
fn every_example_gives_a_valid_sarif_log() {
    let runs = example_runs();
    let mut args: Vec<String> = ["--format", "sarif", "--solver", "yices"].map(String::from).to_vec();
    args.extend(runs.iter().map(|r| r[0].file.clone()));
    let out = gpug(&args);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let log = valid_log("every example", &out);
    let run = &log["runs"][0];
    assert_eq!(log["runs"].as_array().map(Vec::len), Some(1));
    assert_eq!(run["invocations"][0]["exitCode"], 1);
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    let kernel_files: Vec<&str> = run["properties"]["kernels"]
        .as_array()
        .expect("kernels")
        .iter()
        .filter_map(|k| k["file"].as_str())
        .collect();
    let mut problems = Vec::new();
    for r in runs.iter().map(|r| &r[0]) {
        if !kernel_files.contains(&r.file.as_str()) {
            problems.push(format!("{}: no kernel in properties.kernels", r.file));
        }
        if r.solver == "yices" && !meets(&log, &r.file, &r.expect) {
            problems.push(format!("{}: expected {}", r.file, r.expect));
        }
    }
    let further: Vec<&Run> = runs
        .iter()
        .flat_map(|r| &r[1..])
        .filter(|r| r.expect != "verified")
        .collect();
    assert!(further.len() >= 20, "{} further runs", further.len());
    for r in further {
        let mut args: Vec<String> = vec!["--format".into(), "sarif".into(), "--solver".into(), r.solver.clone()];
        args.extend(r.flags.iter().cloned());
        args.push(r.file.clone());
        let what = format!("{} {}", r.file, r.flags.join(" "));
        let out = gpug(&args);
        let log = valid_log(&what, &out);
        if out.status.code() != Some(1) || !meets(&log, &r.file, &r.expect) {
            problems.push(format!("{what}: expected {}, exit {:?}", r.expect, out.status.code()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The log of a file gpug cannot model (exit 2) says why in a notification of the invocation,
/// at the construct; one of an inconclusive kernel (exit 3) has an open result.
#[test]
fn errors_and_inconclusive_kernels_in_sarif() {
    let file = "tests/kernels/goto/computed.cu";
    let out = gpug(&["--format".into(), "sarif".into(), file.into()]);
    assert_eq!(out.status.code(), Some(2));
    let log = valid_log(file, &out);
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert_eq!(invocation["exitCode"], 2);
    let n = &invocation["toolExecutionNotifications"][0];
    assert_eq!(n["level"], "error");
    assert!(
        n["message"]["text"].as_str().is_some_and(|t| t.contains("unsupported")),
        "{n}"
    );
    let place = &n["locations"][0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], file);
    assert!(place["region"]["startLine"].as_u64().is_some_and(|l| l > 1), "{n}");
    assert!(results(&log).is_empty());

    let file = "tests/kernels/sync/flag_two_writers.cu";
    let mut args: Vec<String> = vec!["--format".into(), "sarif".into(), "--solver".into(), "yices".into()];
    args.extend(common::example_flags(&root().join(file)));
    args.push(file.into());
    let out = gpug(&args);
    assert_eq!(out.status.code(), Some(3));
    let log = valid_log(file, &out);
    let s = summary(&log);
    assert!(
        s.iter().any(|(rule, kind, level, uri)| (rule, kind, level, uri)
            == (&"inconclusive".into(), &"open".into(), &"none".into(), &file.into())),
        "{s:?}"
    );
}

/// `gpug check` and `gpug bank` write SARIF too: a failing assertion, a race of the pre-check,
/// an inconclusive kernel, and bank conflicts (warnings) on every bank example.
#[test]
fn check_and_bank_in_sarif() {
    let check = |file: &str, flags: &str| {
        let mut args: Vec<String> = ["check", "--format", "sarif", "--solver", "z3", "--gridDim=1", file]
            .map(String::from)
            .to_vec();
        args.extend(flags.split_whitespace().map(String::from));
        let out = gpug(&args);
        (out.status.code(), valid_log(&format!("check {file} {flags}"), &out))
    };
    let (code, log) = check("examples/check/bitonic.cu", "--blockDim=6 -DN=6");
    assert_eq!(code, Some(1));
    let r = &results(&log)[0];
    assert_eq!(
        (r["ruleId"].as_str(), r["level"].as_str()),
        (Some("assertion"), Some("error"))
    );
    let text = r["message"]["text"].as_str().unwrap_or("");
    assert!(
        text.starts_with("Assertion `assert(s[i] <= s[i + 1])` in kernel bitonic: fails for thread ("),
        "{text}"
    );
    assert!(r["properties"]["thread"].is_array(), "{r}");
    let (code, log) = check("examples/check/racy_counter.cu", "--blockDim=2");
    assert_eq!(code, Some(1));
    assert_eq!(results(&log)[0]["ruleId"], "data-race");
    assert!(results(&log)[0]["relatedLocations"][0]["id"] == 1);
    let (code, log) = check("examples/check/float_scale.cu", "--blockDim=4");
    assert_eq!(code, Some(3));
    assert_eq!(results(&log)[0]["kind"], "open");

    let mut conflicts = 0;
    for entry in std::fs::read_dir(root().join("examples/bank")).expect("examples/bank") {
        let path = entry.expect("entry").path();
        let rel = format!("examples/bank/{}", path.file_name().expect("name").to_string_lossy());
        let mut args: Vec<String> = ["bank", "--format", "sarif", "--solver", "yices"]
            .map(String::from)
            .to_vec();
        args.extend(common::example_flags(&path));
        args.push(rel.clone());
        let out = gpug(&args);
        let log = valid_log(&rel, &out);
        let s = summary(&log);
        assert!(s.iter().all(|(rule, ..)| rule == "bank-conflict"), "{rel}: {s:?}");
        assert_eq!(out.status.code() == Some(1), !s.is_empty(), "{rel}: {s:?}");
        conflicts += s.len();
    }
    assert!(conflicts >= 5, "{conflicts} bank conflicts");
}

/// `--sarif FILE` writes the log beside the text report, whose exit code stays the same.
#[test]
fn sarif_file_beside_the_text_report() {
    let dir = std::env::temp_dir().join(format!("gpug-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("race.sarif");
    let out = run_example("reduce_nobarrier.cu", &["--sarif", file.to_str().expect("utf-8 path")]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("reduce: 1 defect\n"), "{stdout}");
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&file).expect("the SARIF file")).expect("JSON");
    assert!(schema_errors(&log).is_empty());
    assert_eq!(results(&log)[0]["ruleId"], "data-race");
    let _ = std::fs::remove_dir_all(&dir);
    // `--json` and `--format json` are one thing; `--json --format sarif` is a usage error.
    let a = run_example("vector_add.cu", &["--json"]);
    let b = run_example("vector_add.cu", &["--format", "json"]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let c = run_example("vector_add.cu", &["--json", "--format", "sarif"]);
    assert_eq!(c.status.code(), Some(2));
}

/// The log of `examples/reduce_nobarrier.cu` (z3, as the text snapshot), with what varies
/// between machines replaced: the version, the working directory, the program's path.
#[test]
fn sarif_reduce_nobarrier() {
    let out = run_example("reduce_nobarrier.cu", &["--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let mut log = valid_log("reduce_nobarrier.cu", &out);
    let run = &mut log["runs"][0];
    for v in ["version", "semanticVersion", "fullName"] {
        run["tool"]["driver"][v] = Value::from(format!("[{v}]"));
    }
    let invocation = &mut run["invocations"][0];
    invocation["workingDirectory"]["uri"] = Value::from("file:///[cwd]/");
    let command = invocation["commandLine"].as_str().unwrap_or("").to_string();
    let program = env!("CARGO_BIN_EXE_gpug");
    assert!(command.starts_with(program), "{command}");
    invocation["commandLine"] = Value::from(command.replacen(program, "gpug", 1));
    run["originalUriBaseIds"]["%SRCROOT%"]["uri"] = Value::from("file:///[cwd]/");
    assert!(Path::new(program).is_absolute());
    insta::assert_snapshot!(serde_json::to_string_pretty(&log).expect("JSON"));
}
