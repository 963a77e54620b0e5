//! Collectives' values (issue 53 item 6): the result of `cg::reduce` over a tile and of
//! `__reduce_*_sync` is the same in every lane of its group at one call, so lanes storing it
//! to one place race benignly, while lanes of different groups (other warps, other tiles of
//! one warp) or lanes that change it race; each with z3, cvc5 and yices. A tile's shuffle of a
//! struct (cuda-samples' shfl_scan) is a value not modelled, its argument read. A generic
//! `thread_group` parameter is the group passed to it (cuda-samples' simpleCooperativeGroups).

mod common;

use common::check_kernel_dir;

#[test]
fn collective_results_are_shared_by_their_group() {
    check_kernel_dir("tests/kernels/collectives", 13);
}

/// Through a `cg::thread_group` parameter, ranks, size and `sync()` are those of the group
/// passed (a `thread_block_tile<16>`), so the race between tiles sharing one workspace is
/// certain, with the tiles' threads in the witness: not "possible", as it was when the generic
/// group was taken for a coalesced group whose ranks are unknown.
#[test]
fn a_thread_group_parameter_is_the_group_passed() {
    let args = [
        "--json",
        "--solver",
        "z3",
        "--blockDim=64",
        "--gridDim=1",
        "tests/kernels/collectives/thread_group_param_race.cu",
    ]
    .map(String::from);
    let out = common::gpug(&args);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let findings = v["kernels"][0]["findings"].as_array().expect("findings");
    assert!(!findings.is_empty(), "{v}");
    for f in findings {
        assert_eq!(f["kind"], "race", "{v}");
        assert_eq!(f["array"], "workspace", "{v}");
        assert_eq!(f["possible"], false, "{v}");
        let t: Vec<u64> = f["accesses"]
            .as_array()
            .expect("accesses")
            .iter()
            .map(|a| a["thread"][0].as_u64().expect("x"))
            .collect();
        assert_ne!(t[0] / 16, t[1] / 16, "the two threads are of different tiles: {v}");
    }
    let notes = v["kernels"][0]["notes"].to_string();
    assert!(!notes.contains("coalesced group"), "{notes}");
}
