//! Helpers shared by the integration tests.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The flags on line 2 of an example (`// --blockDim=… --gridDim=…`).
pub fn example_flags(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let line2 = text.lines().nth(1).unwrap_or("");
    line2
        .trim_start_matches("//")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// Runs gpug from the repository root with `args`.
pub fn gpug(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpug"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run gpug")
}

/// Runs gpug on `examples/<name>` with its line-2 flags, z3, and `extra` arguments.
pub fn run_example(name: &str, extra: &[&str]) -> Output {
    let rel = format!("examples/{name}");
    let mut args: Vec<String> = vec!["--solver".into(), "z3".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(example_flags(&root().join(&rel)));
    args.push(rel);
    gpug(&args)
}

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

/// Runs every `.cu` kernel of `dir` (at least `min` of them) with z3, cvc5 and yices against
/// the expectation on its first line, with the flags of its second:
///
/// `// expect: verified | race | race on NAME | assertion | divergence | inconclusive |
/// unsupported | unsupported at L:C`. `verified` is exit 0; `inconclusive` is exit 3; `race` is exit 1 with a race finding (`race on
/// NAME`: and every race is on the array `NAME`); `assertion` is exit 1 with an assertion
/// finding and no race; `divergence` is exit 1 with a barrier divergence finding;
/// `unsupported` is exit 2 with an `unsupported:` message (`at L:C`: naming the file at line
/// `L`, column `C`). Panics with every mismatch.
pub fn check_kernel_dir(dir: &str, min: usize) {
    let mut files: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .map(|p| format!("{dir}/{}", p.file_name().expect("name").to_string_lossy()))
        .collect();
    files.sort();
    assert!(files.len() >= min, "{dir}: {files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(root().join(file)).expect("read");
        let expect = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("// expect:")
            .trim()
            .to_string();
        for solver in ["z3", "cvc5", "yices"] {
            let mut args: Vec<String> = vec!["--json".into(), "--solver".into(), solver.into()];
            args.extend(example_flags(&root().join(file)));
            args.push(file.clone());
            let out = gpug(&args);
            let json: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
            let code = out.status.code();
            let f = findings(&json);
            let k: Vec<&String> = f.iter().map(|(kind, _)| kind).collect();
            let races_on: Vec<&String> = f.iter().filter(|(kind, _)| kind == "race").map(|(_, a)| a).collect();
            let ok = match expect.as_str() {
                "verified" => code == Some(0),
                "race" => code == Some(1) && k.iter().any(|x| *x == "race"),
                e if e.starts_with("race on ") => {
                    code == Some(1) && !races_on.is_empty() && races_on.iter().all(|a| **a == e["race on ".len()..])
                }
                "assertion" => {
                    code == Some(1) && k.iter().any(|x| *x == "assertion") && !k.iter().any(|x| *x == "race")
                }
                "divergence" => code == Some(1) && k.iter().any(|x| *x == "divergence"),
                "inconclusive" => code == Some(3),
                "unsupported" => code == Some(2) && String::from_utf8_lossy(&out.stderr).contains("unsupported: "),
                e if e.starts_with("unsupported at ") => {
                    let at = format!("{file}:{}: unsupported: ", &e["unsupported at ".len()..]);
                    code == Some(2) && String::from_utf8_lossy(&out.stderr).starts_with(&at)
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

/// `name verdict` of each kernel result of gpug's JSON report `v`, in order.
pub fn names_and_verdicts(v: &Value) -> Vec<String> {
    v["kernels"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|k| {
            format!(
                "{} {}",
                k["name"].as_str().unwrap_or(""),
                k["verdict"].as_str().unwrap_or("")
            )
        })
        .collect()
}
