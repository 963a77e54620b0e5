//! `--modular` (GPUVerify's `--no-inline`): device functions with a contract, and those no
//! kernel calls, checked on their own for every caller (`src/frontend/lower/modular.rs`).
//! Without the flag only kernels are checked, calls inlined.

mod common;

use common::gpug;
use serde_json::Value;

const DIR: &str = "tests/kernels/modular";

/// Exit code and JSON report of `gpug --json ARGS`.
fn run(args: &[&str]) -> (Option<i32>, Value) {
    let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    a.push("--json".into());
    let out = gpug(&a);
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), v)
}

/// `(name, verdict)` of each kernel of the report, in order.
fn verdicts(v: &Value) -> Vec<(String, String)> {
    v["kernels"]
        .as_array()
        .expect("kernels")
        .iter()
        .map(|k| {
            (
                k["name"].as_str().unwrap_or("").to_string(),
                k["verdict"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn a_contract_too_weak_for_some_caller_is_a_defect_only_when_checked_on_its_own() {
    let f = format!("{DIR}/contract_too_weak.cu");
    let (code, v) = run(&["--blockDim=64", "--gridDim=2", &f]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(verdicts(&v), pairs(&[("k", "verified")]));
    for flag in ["--modular", "--no-inline"] {
        let (code, v) = run(&["--blockDim=64", "--gridDim=2", flag, &f]);
        assert_eq!(code, Some(1), "{v}");
        assert_eq!(verdicts(&v), pairs(&[("k", "verified"), ("half", "defect")]));
        let finding = &v["kernels"][1]["findings"][0];
        assert_eq!(finding["kind"], "assertion", "{v}");
        assert_eq!(finding["accesses"][0]["line"], 6, "{v}");
    }
}

#[test]
fn a_contract_that_holds_for_every_caller_is_verified() {
    let f = format!("{DIR}/contract_holds.cu");
    let (code, v) = run(&["--blockDim=64", "--gridDim=2", "--modular", &f]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(verdicts(&v), pairs(&[("k", "verified"), ("twice", "verified")]));
    let notes = v["kernels"][1]["notes"].to_string();
    assert!(notes.contains("checked on its own"), "{notes}");
}

#[test]
fn an_uncalled_function_gets_thread_dependent_pointers() {
    let f = format!("{DIR}/uncalled_stride.cl");
    let (code, v) = run(&["--local_size=64", "--num_groups=2", &f]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(verdicts(&v), pairs(&[("foo", "verified")]));
    let (code, v) = run(&["--local_size=64", "--num_groups=2", "--modular", &f]);
    assert_eq!(code, Some(1), "{v}");
    assert_eq!(verdicts(&v), pairs(&[("foo", "verified"), ("number", "defect")]));
    let finding = &v["kernels"][1]["findings"][0];
    assert_eq!(finding["kind"], "race", "{v}");
    assert_eq!(finding["array"], "dst", "{v}");
}

#[test]
fn an_uncalled_function_on_private_memory_is_race_free() {
    let f = format!("{DIR}/uncalled_private.cl");
    let (code, v) = run(&["--local_size=64", "--num_groups=2", "--modular", &f]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(verdicts(&v), pairs(&[("foo", "verified"), ("fill", "verified")]));
}

#[test]
fn with_one_kernel_selected_no_function_is_checked_on_its_own() {
    let f = format!("{DIR}/contract_too_weak.cu");
    let (code, v) = run(&["--blockDim=64", "--gridDim=2", "--modular", "--kernel", "k", &f]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(verdicts(&v), pairs(&[("k", "verified")]));
}
