//! Calls without a body and integer intrinsics, end to end with z3, cvc5 and yices: every kernel
//! of `tests/kernels/calls/` against the expectation on its first line.
//!
//! ```text
//! // expect: verified | race | race (possible) | divergence (possible)   (gpug)
//! // expect: holds | fails | inconclusive                                (gpug check)
//! // --blockDim=… --gridDim=…
//! ```
//!
//! A "(possible)" defect must be reported with `"possible": true` (it rests on a call gpug does
//! not know); a plain `race` must not be (the intrinsics are exact). Every kernel that calls a
//! function without a body must name it once in its notes as "treated as uninterpreted", and a
//! `printf` must be named as ignored.

mod common;

use common::{example_flags, gpug, root};
use serde_json::Value;

const SOLVERS: [&str; 3] = ["z3", "cvc5", "yices"];

/// The kernels of `tests/kernels/calls/`, as paths from the repository root.
fn kernels() -> Vec<String> {
    let dir = root().join("tests/kernels/calls");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/kernels/calls")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .map(|p| format!("tests/kernels/calls/{}", p.file_name().expect("name").to_string_lossy()))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    files
}

/// Runs gpug (`check` for assertion expectations) on `file` with `solver`: exit code, JSON of
/// the one kernel, and the output for messages.
fn run(file: &str, expect: &str, solver: &str) -> (Option<i32>, Value, String) {
    let mut args: Vec<String> = Vec::new();
    if matches!(expect, "holds" | "fails" | "inconclusive") {
        args.push("check".into());
    }
    args.extend(["--solver".into(), solver.into(), "--json".into()]);
    args.extend(example_flags(&root().join(file)));
    args.push(file.to_string());
    let out = gpug(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let text = format!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    (out.status.code(), json["kernels"][0].clone(), text)
}

/// What is wrong with a result against `expect`, if anything.
fn mismatch(expect: &str, code: Option<i32>, k: &Value) -> Option<String> {
    let findings = k["findings"].as_array().cloned().unwrap_or_default();
    let kinds: Vec<&str> = findings.iter().filter_map(|f| f["kind"].as_str()).collect();
    // A possible finding names what it rests on (issue 53 item 5): a call, a loop.
    let all_possible = findings
        .iter()
        .all(|f| f["possible"] == Value::Bool(true) && f["rests_on"].as_array().is_some_and(|r| !r.is_empty()));
    let none_possible = findings.iter().all(|f| f["possible"] == Value::Bool(false));
    let failures = kinds.iter().filter(|k| **k == "assertion").count();
    let ok = match expect {
        "verified" | "holds" => code == Some(0),
        "race" => code == Some(1) && kinds.contains(&"race") && none_possible,
        "race (possible)" => code == Some(1) && kinds.contains(&"race") && all_possible,
        "divergence (possible)" => code == Some(1) && kinds.contains(&"divergence") && all_possible,
        "fails" => code == Some(1) && failures > 0,
        "inconclusive" => code == Some(3),
        other => return Some(format!("unknown expectation `{other}`")),
    };
    (!ok).then(|| format!("exit {code:?}, findings {kinds:?}, failures {failures}"))
}

#[test]
fn calls_and_intrinsics_with_every_solver() {
    let mut problems = Vec::new();
    for file in kernels() {
        let text = std::fs::read_to_string(root().join(&file)).expect("read");
        let expect = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// expect: "))
            .unwrap_or("?")
            .trim()
            .to_string();
        let bodiless: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("__device__") && l.trim_end().ends_with(");"))
            .filter_map(|l| l.split('(').next()?.split_whitespace().last())
            .collect();
        for solver in SOLVERS {
            let (code, k, out) = run(&file, &expect, solver);
            if let Some(why) = mismatch(&expect, code, &k) {
                problems.push(format!("{file} [{solver}]: expected {expect}, got {why}\n{out}"));
                continue;
            }
            let notes: Vec<&str> = k["notes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            for f in &bodiless {
                let named = notes
                    .iter()
                    .filter(|n| n.starts_with(&format!("`{f}` (")) && n.contains("treated as uninterpreted"))
                    .count();
                if named != 1 {
                    problems.push(format!("{file} [{solver}]: `{f}` named {named} times in {notes:?}"));
                }
            }
            if text.contains("printf(")
                && !notes
                    .iter()
                    .any(|n| n.starts_with("`printf` (") && n.contains("ignored"))
            {
                problems.push(format!("{file} [{solver}]: printf not noted in {notes:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A recursive function is followed `RECURSION_DEPTH` (3) calls deep and cut there
/// (`tests/kernels/recursion/`, with z3, cvc5 and yices): a race within the calls followed is
/// a certain defect; without one the kernel is inconclusive (exit 3), never verified, and the
/// report names the recursive call. Before, recursion was refused (exit 2).
#[test]
fn recursion_is_followed_then_cut() {
    for (file, race) in [
        ("walk_race.cu", true),
        ("walk_apart.cu", false),
        ("count_down.cu", false),
    ] {
        let file = format!("tests/kernels/recursion/{file}");
        for solver in SOLVERS {
            let (code, k, out) = run(&file, "race", solver);
            let expect = if race { "race" } else { "verified" };
            let why = mismatch(expect, code, &k);
            if race {
                assert_eq!(why, None, "{file} [{solver}]: {out}");
            } else {
                assert_eq!(code, Some(3), "{file} [{solver}]: {out}");
            }
            assert!(
                out.contains("is followed 3 calls deep; executions that recurse deeper are not checked"),
                "{file} [{solver}]: {out}"
            );
        }
    }
}
