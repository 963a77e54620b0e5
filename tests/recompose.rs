//! A digit decomposition added back (issue 56): llm.c's `out[b*T*C + t*C + c]` with
//! `b = idx/C/T`, `t = idx/C%T`, `c = idx%C` is encoded as `out[idx]`
//! (`encode/engine/recompose.rs`), so the race query does not bit-blast the divisions; the same
//! digits added back without `b` still race.

mod common;

use common::gpug;
use serde_json::Value;

const DIR: &str = "tests/kernels/recompose";
const LAUNCH: [&str; 4] = ["--blockDim=128", "--gridDim=96", "--kernel-args", "B=4,T=64,C=48"];

fn run(file: &str, solver: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut args: Vec<String> = vec!["--solver".into(), solver.into()];
    args.extend(LAUNCH.iter().chain(extra).map(|s| s.to_string()));
    args.push(format!("{DIR}/{file}"));
    let out = gpug(&args);
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn digits_added_back_are_the_index() {
    for solver in ["z3", "yices"] {
        let (code, json) = run("digits.cu", solver, &["--json"]);
        let v: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        assert_eq!(code, Some(0), "{solver}: {json}");
        assert_eq!(v["kernels"][0]["verdict"], "verified", "{solver}: {json}");
    }
    // The store's byte offset is defined as 4·idx, the load's as 4·(idx/C).
    let (_, ssa) = run("digits.cu", "z3", &["--show=ssa"]);
    assert!(
        ssa.contains("(bvmul ((_ sign_extend 32) t1.idx@1) #x0000000000000004)"),
        "{ssa}"
    );
    assert!(
        ssa.contains("(bvmul ((_ sign_extend 32) (bvsdiv t1.idx@1 #x00000030)) #x0000000000000004)"),
        "{ssa}"
    );
}

#[test]
fn digits_added_back_without_the_batch_race() {
    for solver in ["z3", "yices"] {
        let (code, json) = run("digits_race.cu", solver, &["--json"]);
        let v: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        let k = &v["kernels"][0];
        assert_eq!(code, Some(1), "{solver}: {json}");
        assert_eq!(k["verdict"], "defect", "{solver}: {json}");
        let findings = k["findings"].as_array().expect("findings");
        assert!(findings.iter().any(|f| f["array"] == "out"), "{solver}: {json}");
    }
}
