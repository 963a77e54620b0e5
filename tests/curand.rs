//! cuRAND's device API (issue 10), end to end with z3, cvc5 and yices: the kernels of
//! `tests/kernels/curand/`, NVIDIA's real headers (`scripts/install-deps.sh`) being installed.
//!
//! Each kernel starts with `// expect: verified | race on NAME | divergence` and a
//! `// --flags` line: `verified` is exit 0; `race on NAME` is exit 1 with race findings, every
//! one on the array `NAME`; `divergence` is exit 1 with a barrier-divergence finding.
//! `layouts.cu` also holds the `static_assert`s that clang checks against NVIDIA's headers and
//! a unit test of `frontend::types` against gpug's layouts.

mod common;

use common::{example_flags, gpug, root};
use serde_json::Value;

const SOLVERS: [&str; 3] = ["z3", "cvc5", "yices"];

/// (kind, array) of every finding.
fn findings(json: &Value) -> Vec<(String, String)> {
    json["kernels"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|k| k["findings"].as_array().cloned().unwrap_or_default())
        .map(|f| {
            let s = |v: &Value| v.as_str().unwrap_or("").to_string();
            (s(&f["kind"]), s(&f["array"]))
        })
        .collect()
}

#[test]
fn curand_kernels_have_their_expected_verdicts() {
    let dir = "tests/kernels/curand";
    let mut files: Vec<String> = std::fs::read_dir(root().join(dir))
        .expect("tests/kernels/curand")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .map(|p| format!("{dir}/{}", p.file_name().expect("name").to_string_lossy()))
        .collect();
    files.sort();
    assert!(files.len() >= 12, "{files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(root().join(file)).expect("read");
        let expect = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("// expect:")
            .trim();
        for solver in SOLVERS {
            let mut args: Vec<String> = vec!["--json".into(), "--solver".into(), solver.into()];
            args.extend(example_flags(&root().join(file)));
            args.push(file.clone());
            let out = gpug(&args);
            let json: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
            let code = out.status.code();
            let f = findings(&json);
            let ok = match expect {
                "verified" => code == Some(0),
                "divergence" => code == Some(1) && f.iter().any(|(k, _)| k == "divergence"),
                e if e.starts_with("race on ") => {
                    let races: Vec<&String> = f.iter().filter(|(k, _)| k == "race").map(|(_, a)| a).collect();
                    code == Some(1) && !races.is_empty() && races.iter().all(|a| **a == e["race on ".len()..])
                }
                other => panic!("{file}: unknown expectation {other:?}"),
            };
            if !ok {
                problems.push(format!(
                    "{file} with {solver}: expected {expect}, got exit {code:?} findings {f:?}\n{}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The notes name each modelled call once, with the model.
#[test]
fn notes_say_how_calls_are_treated() {
    let out = gpug(&[
        "--solver".into(),
        "z3".into(),
        "--blockDim=128".into(),
        "--gridDim=4".into(),
        "tests/kernels/curand/xorwow_own_state.cu".into(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    for name in [
        "curand_init",
        "curand",
        "curand_uniform",
        "curand_normal2",
        "skipahead",
        "curand_normal",
    ] {
        let head = format!("note: `{name}` (");
        assert_eq!(text.matches(&head).count(), 1, "{name}: {text}");
    }
    assert!(text.contains("the 48 bytes of `curandStateXORWOW`"), "{text}");
    let out = gpug(&[
        "--solver".into(),
        "z3".into(),
        "--blockDim=[16,16]".into(),
        "--gridDim=4".into(),
        "tests/kernels/curand/mtgp32_per_block.cu".into(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("s[t mod 256]"), "{text}");
}
