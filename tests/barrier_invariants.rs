//! Barrier invariants (issue 14, Chong et al. (OOPSLA 2013) §3): checked at their barrier (a
//! failing one is a finding), assumed after it at each instantiation; the access check of unknown
//! locations and `--no-barrier-access-checks`; variables that cannot be instantiated; CUDA's and
//! OpenCL's spellings, unary and binary.

mod common;

use common::gpug;
use serde_json::Value;

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = gpug(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

fn kinds(args: &[&str]) -> Vec<String> {
    let mut a = args.to_vec();
    a.push("--json");
    let out = gpug(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v["kernels"][0]["findings"]
        .as_array()
        .map(|fs| {
            fs.iter()
                .map(|f| f["kind"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

const DIR: &str = "tests/kernels/barrier_invariants";

#[test]
fn an_invariant_carries_a_permutation_across_the_barrier() {
    let f = format!("{DIR}/permutation.cu");
    let (code, out) = run(&["--blockDim=64", "--gridDim=4", &f]);
    assert_eq!(code, Some(0), "{out}");
    // Without it the shared array is forgotten at the barrier: `B[A[t]]` may race.
    let (code, out) = run(&["--blockDim=64", "--gridDim=4", "-DNO_INVARIANT", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("race on B"), "{out}");
}

#[test]
fn an_invariant_that_does_not_hold_is_a_finding() {
    let f = format!("{DIR}/fails.cu");
    let (code, out) = run(&["--blockDim=128", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("barrier invariant may not hold at its barrier"), "{out}");
    assert!(out.contains("fails.cu:5:3"), "{out}");
    assert_eq!(kinds(&["--blockDim=128", &f]), ["barrier_invariant"]);
}

#[test]
fn reading_a_location_no_thread_of_the_pair_accessed_needs_permission() {
    let f = format!("{DIR}/unknown.cl");
    let (code, out) = run(&["--local_size=128", "--num_groups=4", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("did not access"), "{out}");
    let (code, out) = run(&["--local_size=128", "--num_groups=4", "-DPERMISSION", &f]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = run(&["--local_size=128", "--num_groups=4", "-DPERMISSION_UNTYPED", &f]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = run(&["--local_size=128", "--num_groups=4", "--no-barrier-access-checks", &f]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_thread_variable_cannot_be_instantiated_at_other_threads() {
    let f = format!("{DIR}/not_uniform.cu");
    let (code, out) = run(&["--blockDim=128", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("it reads `t`, which may differ between threads"), "{out}");
}

#[test]
fn a_binary_invariant_relates_the_two_threads() {
    let f = format!("{DIR}/all_different.cl");
    let (code, out) = run(&["--local_size=128", "--num_groups=8", &f]);
    assert_eq!(code, Some(0), "{out}");
    // Without the invariants the final assertion is not provable.
    let src = std::fs::read_to_string(common::root().join(&f)).expect("read");
    let stripped: String = src
        .lines()
        .filter(|l| {
            !l.contains("__barrier_invariant_binary_1") && !l.trim_start().starts_with("get_local_id(0), __other")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let g = dir.path().join("k.cl");
    std::fs::write(&g, stripped).expect("write");
    let (code, out) = run(&["--local_size=128", "--num_groups=8", &g.to_string_lossy()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("assertion may fail"), "{out}");
}

/// Kinds of the findings and the `stage` of the first kernel of `gpug --json ARGS`.
fn staged(args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let mut a = args.to_vec();
    a.push("--json");
    let out = gpug(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let k = &v["kernels"][0];
    let mut kinds: Vec<String> = k["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| f["kind"].as_str().unwrap_or("").to_string())
        .collect();
    kinds.sort();
    (out.status.code(), kinds, k["stage"].as_str().unwrap_or("").to_string())
}

#[test]
fn each_stage_asks_its_own_properties() {
    let f = format!("{DIR}/stages.cu");
    let launch = ["--blockDim=64", "--gridDim=2"];
    let with = |stage: &[&str]| staged(&[&launch[..], stage, &[f.as_str()]].concat());
    assert_eq!(
        with(&[]),
        (Some(1), vec!["assertion".into(), "race".into()], "all".into())
    );
    assert_eq!(
        with(&["--stage", "races"]),
        (Some(1), vec!["race".into()], "races".into())
    );
    assert_eq!(
        with(&["--stage", "functional"]),
        (Some(1), vec!["assertion".into()], "functional".into())
    );
    // The permutation's invariant is checked in both stages, and holds.
    let p = format!("{DIR}/permutation.cu");
    for stage in ["races", "functional"] {
        let (code, kinds, got) = staged(&["--blockDim=64", "--gridDim=4", "--stage", stage, &p]);
        assert_eq!((code, kinds, got.as_str()), (Some(0), vec![], stage));
    }
    // Without its invariant, the permutation's race is found by the races stage only.
    let (code, kinds, _) = staged(&[
        "--blockDim=64",
        "--gridDim=4",
        "-DNO_INVARIANT",
        "--stage",
        "functional",
        &p,
    ]);
    assert_eq!((code, kinds), (Some(0), vec![]));
}

#[test]
fn an_input_no_thread_writes_and_the_threads_own_variables_may_be_read() {
    let f = format!("{DIR}/own_and_input.cu");
    let (code, out) = run(&["--blockDim=64", "--gridDim=1", &f]);
    assert_eq!(code, Some(0), "{out}");
    // Once some thread writes `in`, its unaccessed locations are unknown again.
    let (code, out) = run(&["--blockDim=64", "--gridDim=1", "-DWRITTEN", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("did not access"), "{out}");
    // A wrong invariant over the private `v` is still checked.
    let (code, out) = run(&["--blockDim=64", "--gridDim=1", "-DWRONG", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("own_and_input.cu:23:3"), "{out}");
}

#[test]
fn split_invariants_give_the_same_verdicts_once_per_failing_invariant() {
    let f = format!("{DIR}/own_and_input.cu");
    let split = ["--blockDim=64", "--gridDim=1", "--split-invariants"];
    let (code, out) = run(&[&split[..], &[f.as_str()]].concat());
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = run(&[&split[..], &["-DWRONG", f.as_str()]].concat());
    assert_eq!(code, Some(1), "{out}");
    // One finding for the invariant (its first failing thread), not one per thread.
    assert_eq!(out.matches("barrier invariant may not hold").count(), 1, "{out}");
    assert_eq!(
        kinds(&[&split[..], &["-DWRONG", f.as_str()]].concat()),
        ["barrier_invariant"]
    );
    // The access check is split too: a location the odd threads did not access, found once.
    let f = format!("{DIR}/unknown.cl");
    let split = ["--local_size=128", "--num_groups=4", "--split-invariants"];
    let (code, out) = run(&[&split[..], &[f.as_str()]].concat());
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(out.matches("did not access").count(), 1, "{out}");
    let (code, out) = run(&[&split[..], &["-DPERMISSION", f.as_str()]].concat());
    assert_eq!(code, Some(0), "{out}");
    // The Kogge-Stone example's invariants (sums over ranges that depend on the thread), per
    // thread.
    let ks = "examples/barrier_invariants/kogge_stone.cu";
    let (code, out) = run(&[
        "--blockDim=8",
        "--gridDim=1",
        "-DN=8",
        "-DINVARIANTS",
        "--split-invariants",
        "--solver",
        "yices",
        ks,
    ]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_ghost_array_snapshot_relates_memory_to_its_earlier_values() {
    let f = format!("{DIR}/ghost.cu");
    let (code, out) = run(&["--blockDim=64", "--gridDim=4", &f]);
    assert_eq!(code, Some(0), "{out}");
    // Without the snapshot the ghost array holds anything: the invariant fails on entry.
    let (code, out) = run(&["--blockDim=64", "--gridDim=4", "-DNO_SNAPSHOT", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("loop invariant may not hold on entry"), "{out}");
    assert!(out.contains("ghost.cu:22:19"), "{out}");
    let (code, out) = run(&["--blockDim=64", "--gridDim=4", "-DWRONG", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("loop invariant may not hold on entry"), "{out}");
    // A snapshot in the body copies the new values: the invariant is not preserved.
    let (code, out) = run(&["--blockDim=64", "--gridDim=4", "-DSNAPSHOT_AFTER", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("loop invariant may not be preserved by an iteration"),
        "{out}"
    );
}

#[test]
fn a_loop_invariant_may_read_memory_and_the_other_thread() {
    let f = format!("{DIR}/all_different_loop.cu");
    // Its reads of the other thread's element are the invariant's, not the thread's: no race
    // with the other thread's increment; the barrier invariant after the loop reads the
    // element the last iteration wrote, a known location.
    let (code, out) = run(&["--blockDim=64", "--gridDim=4", &f]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = run(&["--blockDim=64", "--gridDim=4", "-DSAME", &f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("loop invariant may not hold on entry"), "{out}");
    assert!(out.contains("all_different_loop.cu:15:19"), "{out}");
}
