//! GPUVerify's annotation language in its CUDA spelling (issue 10, item 8): every kernel of
//! `tests/kernels/annotations/` against its expected verdict, with each of the three solvers.
//!
//! Each kernel starts with two comment lines:
//!
//! ```text
//! // expect: verified | race | assertion | invariant | unsupported
//! // --blockDim=64 --gridDim=1
//! ```
//!
//! `verified`: exit 0, every kernel verified. `race`, `assertion`, `invariant`: exit 1 and a
//! finding of that kind (an invariant that fails on entry or is not preserved). `unsupported`:
//! exit 2 with a message naming the annotation and its `file:line:col`.

mod common;

use common::{example_flags, gpug, root};
use serde_json::Value;

const SOLVERS: [&str; 3] = ["z3", "cvc5", "yices"];

/// The kernels of `tests/kernels/annotations/`, sorted.
fn kernels() -> Vec<String> {
    let dir = root().join("tests/kernels/annotations");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/kernels/annotations")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .map(|p| {
            format!(
                "tests/kernels/annotations/{}",
                p.file_name().expect("name").to_string_lossy()
            )
        })
        .collect();
    files.sort();
    files
}

/// What is wrong with `file`'s verdict under `solver`, if anything.
fn mismatch(file: &str, solver: &str) -> Option<String> {
    let text = std::fs::read_to_string(root().join(file)).expect("read");
    let expect = text
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .trim_start_matches("// expect: ")
        .to_string();
    let mut args: Vec<String> = vec!["--solver".into(), solver.into(), "--json".into()];
    args.extend(example_flags(&root().join(file)));
    args.push(file.to_string());
    let out = gpug(&args);
    let code = out.status.code();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if expect == "unsupported" {
        let named = stderr.contains(&format!("{file}:")) && stderr.contains("unsupported");
        return (code != Some(2) || !named).then(|| format!("{file} [{solver}]: exit {code:?}, stderr {stderr}"));
    }
    let v: Value = match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(e) => return Some(format!("{file} [{solver}]: {e}: {stderr}")),
    };
    let kernels = v["kernels"].as_array().cloned().unwrap_or_default();
    let ok = match expect.as_str() {
        "verified" => code == Some(0) && !kernels.is_empty() && kernels.iter().all(|k| k["verdict"] == "verified"),
        kind => {
            code == Some(1)
                && kernels.iter().any(|k| {
                    k["findings"]
                        .as_array()
                        .is_some_and(|fs| fs.iter().any(|f| f["kind"] == kind))
                })
        }
    };
    (!ok).then(|| format!("{file} [{solver}]: expected {expect}, exit {code:?}: {v}"))
}

#[test]
fn gpuverify_annotations_with_every_solver() {
    let files = kernels();
    assert!(files.len() >= 15, "{files:?}");
    let mut problems = Vec::new();
    for solver in SOLVERS {
        for file in &files {
            problems.extend(mismatch(file, solver));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The relational invariant is what makes the loop race-free, and the uniformity analysis
/// infers it: the same kernel without the invariant is verified too (each file's `expect`
/// line), while `uniform_int_not_preserved.cu` (an invariant that does not hold) stays refuted.
#[test]
fn uniform_int_invariant_is_inferred() {
    let with = "tests/kernels/annotations/uniform_offset_barrier_loop.cu";
    let without = "tests/kernels/annotations/uniform_offset_barrier_loop_no_invariant.cu";
    let a = std::fs::read_to_string(root().join(with)).expect("read");
    let b = std::fs::read_to_string(root().join(without)).expect("read");
    let strip = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.trim_start().starts_with("//") || l.starts_with("// --"))
            .filter(|l| !l.contains("__uniform_int"))
            .map(String::from)
            .collect()
    };
    assert_eq!(strip(&a), strip(&b), "the two kernels differ only by the invariant");
    assert!(mismatch(with, "z3").is_none());
    assert!(mismatch(without, "z3").is_none());
}

/// `gpug check` (the concrete model, every thread explicit) asks a two-thread annotation of
/// every pair of threads: it agrees with the pair model on small launches, and refuses
/// launches with too many pairs by name.
#[test]
fn concrete_model_checks_every_pair() {
    let run = |file: &str, launch: &[&str]| {
        let mut args: Vec<String> = vec!["check".into(), format!("tests/kernels/annotations/{file}")];
        args.extend(launch.iter().map(|s| s.to_string()));
        args.extend(["--solver".into(), "z3".into()]);
        let out = gpug(&args);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };
    let (code, text) = run("two_thread_asserts.cu", &["--blockDim=8", "--gridDim=2"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run("enabled_uniform_divergent.cu", &["--blockDim=40", "--gridDim=1"]);
    assert!(
        code == Some(1) && text.contains("__uniform_bool(__enabled())"),
        "{text}"
    );
    let (code, text) = run("other_int_assert_fails.cu", &["--blockDim=8", "--gridDim=1"]);
    assert!(
        code == Some(1) && text.contains("other_int_assert_fails.cu:5:3"),
        "{text}"
    );
    let (code, text) = run("two_thread_asserts.cu", &["--blockDim=256", "--gridDim=1"]);
    assert!(code == Some(2) && text.contains("every pair of threads"), "{text}");
}
