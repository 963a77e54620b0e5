//! Case splits made by the front end, end to end with z3, cvc5 and yices: calls through
//! function pointers (`tests/kernels/fnptr/`), pointers that may point to several arrays
//! (`tests/kernels/ptrsplit/`), arrays of pointers in struct parameters, one pointer per
//! element (`tests/kernels/ptrarray/`), forward `goto`s lowered to blocks and their exits
//! (`tests/kernels/goto/`), and `memcpy`/`memset` lowered to byte accesses and loops
//! (`tests/kernels/memcpy/`).
//!
//! Each kernel starts with `// expect: verified | race | race on NAME | assertion | divergence
//! | unsupported | unsupported at L:C` and a `// --flags` line: `verified` is exit 0 with every
//! kernel verified; `race` is exit 1 with a race finding (`race on NAME`: and every race is on
//! the array `NAME`); `assertion` is exit 1 with an assertion finding and no race (a call
//! through a pointer that may be null or point to no known function fails at the call);
//! `divergence` is exit 1 with a barrier divergence finding; `unsupported` is exit 2 with an
//! `unsupported:` message (`at L:C`: the message names the file at line `L`, column `C`).

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

fn check_dir(dir: &str, min: usize) {
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
        for solver in SOLVERS {
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

#[test]
fn function_pointer_calls() {
    check_dir("tests/kernels/fnptr", 8);
}

#[test]
fn pointers_to_several_arrays() {
    check_dir("tests/kernels/ptrsplit", 4);
}

#[test]
fn arrays_of_pointers_in_struct_parameters() {
    check_dir("tests/kernels/ptrarray", 3);
}

#[test]
fn forward_gotos() {
    check_dir("tests/kernels/goto", 12);
}

#[test]
fn memcpy_and_memset() {
    check_dir("tests/kernels/memcpy", 20);
}

/// A null pointer given to `memcpy` is reported as what it is, at the call.
#[test]
fn memcpy_null_pointer_is_named() {
    let file = "tests/kernels/memcpy/null_dst.cu";
    let mut args = example_flags(&root().join(file));
    args.push(file.into());
    let out = gpug(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("null_dst.cu:5:3: fails by thread"), "{text}");
    assert!(
        text.contains("`memcpy` (tests/kernels/memcpy/null_dst.cu:5:3) null pointer passed as destination"),
        "{text}"
    );
}
