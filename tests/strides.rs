//! Grid-stride loops and rows (issue 56): a linear loop variable counting up to a bound is
//! injective in its entry value and count when the entry value is below the stride
//! (`encode/engine/trip.rs`, `stride_lemmas`), and a byte offset `S*row + rest` meets another
//! row's only when the rows are equal (`encode/nonlinear/lemmas.rs`, `row_overlap_lemma`).
//! Both are valid facts the encoder states so that the race queries need not bit-blast the
//! products: llm.c's `layernorm_backward_kernel3` and `fused_residual_forward_kernel6`, whose
//! race queries yices did not decide within the per-query limit without them. The launches are
//! the host's, with the grid from the device's `multiProcessorCount` (a ghost of the launch),
//! the other values literals. The racy variants still race.

mod common;

use common::gpug;
use serde_json::Value;

const DIR: &str = "tests/kernels/strides";

fn run(file: &str, args: &[&str]) -> (Option<i32>, String) {
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.push(format!("{DIR}/{file}"));
    let out = gpug(&all);
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn verdict(file: &str, solver: &str) -> (Option<i32>, Value, String) {
    let (code, json) = run(file, &["--solver", solver, "--json"]);
    let v: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
    (code, v["kernels"][0].clone(), json)
}

#[test]
fn warp_rows_of_a_grid_stride_loop_verify() {
    verifies("warp_rows.cu");
    // The launch's literals are the parameters' values in the terms, although the grid is a
    // ghost havocked ahead of them: `idx / T` divides by the literal.
    let (_, ssa) = run("warp_rows.cu", &["--solver", "yices", "--show=ssa"]);
    assert!(ssa.contains("(bvsdiv t1.idx@8 #x00000400)"), "{ssa}");
    // Each thread's row is at least its first, and two threads' rows are equal only at equal
    // first rows and counts (the stride `gridDim.x * warps` is one term for both).
    assert!(
        ssa.lines()
            .any(|l| l.starts_with("(assert (=> ") && l.ends_with("(bvsge t2.idx@99 t2.base@4)))")),
        "{ssa}"
    );
    assert!(
        ssa.lines().any(|l| l.starts_with("(assert (=> (and ")
            && l.contains("(bvslt t1.base@3 (bvmul gridDim.x t1.warps@2))")
            && l.ends_with("(= t1.idx@8 t2.idx@18)) (and (= t1.base@3 t2.base@4) (= t1.it.L11@7 t2.it.L11@17))))")),
        "{ssa}"
    );
}

/// `file` verifies with yices and with z3.
fn verifies(file: &str) {
    for solver in ["yices", "z3"] {
        let (code, k, json) = verdict(file, solver);
        assert_eq!(code, Some(0), "{solver}: {json}");
        assert_eq!(k["verdict"], "verified", "{solver}: {json}");
    }
}

/// `file` is a defect with yices, with a race on `out`.
fn races_on_out(file: &str) {
    races_on(file, "out");
}

/// `file` is a defect with yices, with a race on `array`.
fn races_on(file: &str, array: &str) {
    let (code, k, json) = verdict(file, "yices");
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(k["verdict"], "defect", "{json}");
    let findings = k["findings"].as_array().expect("findings");
    assert!(findings.iter().any(|f| f["array"] == array), "{json}");
}

#[test]
fn warp_rows_with_overlapping_lanes_race() {
    races_on_out("warp_rows_race.cu");
}

#[test]
fn vector_rows_verify() {
    verifies("vector_rows.cu");
    // The race query states that two 4-byte pieces of the rows' vectors overlap only in one
    // row and at one column.
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path().display().to_string();
    let (code, _) = run("vector_rows.cu", &["--solver", "yices", "--dump-smt2", &at]);
    assert_eq!(code, Some(0));
    let query = std::fs::read_to_string(dir.path().join("vector_rows.race.out.seg0.L12.smt2")).unwrap();
    assert!(
        query.lines().any(|l| l.starts_with("(assert (=> (and (and (bvsle #x00000000 t1.t@7) (bvsle t1.t@7 #x002aaaaa))")
            && l.contains("(bvsle (bvadd (bvmul ((_ sign_extend 32) t1.c@23) #x0000000000000002) #x0000000000000004) #x0000000000000600)")
            && l.ends_with("(and (= t1.t@7 t2.t@13) (= (bvmul ((_ sign_extend 32) t1.c@23) #x0000000000000002) (bvmul ((_ sign_extend 32) t2.c@27) #x0000000000000002)))))")),
        "{query}"
    );
}

#[test]
fn vector_rows_with_overlapping_vectors_race() {
    races_on_out("vector_rows_race.cu");
}

/// Rows after a literal: each block's slab starts 128 bytes past a multiple of the row
/// (`scratch += 32`, llm.c's `layernorm_backward_kernel10`). The rows' lemma reads the offsets
/// from their least value beside the row: the linear race query's chosen access is among
/// `128 + …` and `6528 + …`, and its rest is taken from 128 (`#xffffffffffffff80` added), so
/// that it lies within one row.
#[test]
fn rows_after_a_literal_verify() {
    verifies("partial_rows.cu");
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path().display().to_string();
    let (code, _) = run("partial_rows.cu", &["--solver", "yices", "--dump-smt2", &at]);
    assert_eq!(code, Some(0));
    let query = std::fs::read_to_string(dir.path().join("partial_rows.race.scratch.seg0.L13.smt2")).unwrap();
    assert!(
        query.lines().any(|l| l
            .starts_with("(assert (=> (and (and (bvsle #x00000000 t1.blockIdx.x) (bvsle t1.blockIdx.x #x000a3d70))")
            && l.contains("#x0000000000000004)) #xffffffffffffff80)) (bvsle (bvadd (bvadd (bvadd race.t1.off0.0@")
            && l.contains("(and (= t1.blockIdx.x t2.blockIdx.x)")),
        "{query}"
    );
}

#[test]
fn rows_after_a_literal_one_slab_apart_race() {
    races_on("partial_rows_race.cu", "scratch");
}
