//! OpenCL C next to CUDA (issue 13), end to end: the language chosen by the extension or by
//! `-x cl`, GPUVerify's OpenCL launch flags, the work-item functions, barriers' fence flags,
//! work-group copies, null pointers, the report's OpenCL words, and `gpug check` and `gpug bank`
//! on OpenCL examples. The examples' verdicts with every solver are in `tests/examples.rs`.

mod common;

use common::gpug;
use serde_json::Value;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = gpug(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn work_item_functions_follow_the_launch() {
    let f = "tests/kernels/opencl/work_items.cl";
    let (code, out, err) = run(&["--local_size=[8,4]", "--num_groups=[4,2]", "--global_offset=8", f]);
    assert_eq!(code, Some(0), "{out}{err}");
    // Without the offset, `get_global_offset(0) == 8` fails.
    let (code, out, _) = run(&["--local_size=[8,4]", "--num_groups=[4,2]", f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("work_items.cl:6:"), "{out}");
}

#[test]
fn global_size_gives_the_work_groups_and_must_be_a_multiple() {
    let f = "tests/kernels/opencl/work_items.cl";
    let (code, out, err) = run(&["--local_size=[8,4]", "--global_size=[32,8]", "--global_offset=8", f]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, _, err) = run(&["--local_size=[8,4]", "--global_size=[30,8]", f]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a multiple"), "{err}");
    let (code, _, err) = run(&["--local_size=8", "--global_size=32", "--num_groups=4", f]);
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn the_language_comes_from_the_extension_or_the_flag() {
    // A `.cu` file read as OpenCL C: clang's OpenCL mode knows `__kernel`.
    let dir = tempfile::tempdir().expect("tempdir");
    let cu = dir.path().join("k.cu");
    std::fs::copy(common::root().join("examples/opencl/inter_group_race.cl"), &cu).expect("copy");
    let cu = cu.to_string_lossy().into_owned();
    let (code, _, err) = run(&["--local_size=64", "--num_groups=4", &cu]);
    assert_eq!(code, Some(2), "read as CUDA, `__kernel` is unknown: {err}");
    for flag in [["-x", "cl"].as_slice(), ["--opencl"].as_slice()] {
        let mut args = vec!["--local_size=64", "--num_groups=4"];
        args.extend(flag);
        args.push(&cu);
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(1), "{flag:?}: {out}{err}");
    }
}

#[test]
fn a_barrier_orders_only_the_memory_its_flags_name() {
    let f = "examples/opencl/barrier_flags.cl";
    let (code, out, _) = run(&["--local_size=64", "--num_groups=1", "--json", f]);
    assert_eq!(code, Some(1));
    let j = json(&out);
    assert_eq!(j["kernels"][0]["findings"][0]["array"], "p");
    let (code, out, _) = run(&["--local_size=64", "--num_groups=1", "-DGLOBAL_FENCE", f]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_work_group_copy_is_in_flight_until_its_wait() {
    let f = "tests/kernels/opencl/copy_wait.cl";
    let (code, out, err) = run(&["--local_size=64", "--num_groups=8", f]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, _) = run(&["--local_size=64", "--num_groups=8", "-DEARLY_READ", "--json", f]);
    assert_eq!(code, Some(1), "{out}");
    let j = json(&out);
    let arrays: Vec<&str> = j["kernels"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["array"].as_str())
        .collect();
    assert!(arrays.contains(&"tile"), "{out}");
}

#[test]
fn a_null_pointer_access_is_a_defect_where_it_happens() {
    let f = "tests/kernels/opencl/null_store.cl";
    let (code, out, _) = run(&["--local_size=64", "--num_groups=2", f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("null_store.cl:7:"), "{out}");
    assert!(out.contains("null pointer"), "{out}");
    // With one work-group the pointer is never null.
    let (code, out, _) = run(&["--local_size=64", "--num_groups=1", f]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn the_report_speaks_opencl() {
    let f = "examples/opencl/inter_group_race.cl";
    let (code, out, _) = run(&["--local_size=64", "--num_groups=4", f]);
    assert_eq!(code, Some(1));
    assert!(out.contains("write by work-item ("), "{out}");
    assert!(out.contains(" of work-group ("), "{out}");
    assert!(!out.contains("thread"), "{out}");
    let (_, out, _) = run(&["--local_size=64", "--num_groups=4", "--json", f]);
    let j = json(&out);
    let k = &j["kernels"][0];
    assert_eq!(k["language"], "opencl");
    let a = &k["findings"][0]["accesses"][0];
    assert!(a["local_id"].is_array() && a["group_id"].is_array(), "{a}");
    assert!(a.get("thread").is_none(), "{a}");
    // A symbolic launch's geometry in OpenCL's names.
    let (_, out, _) = run(&[f]);
    assert!(out.contains("get_local_size(0) = "), "{out}");
}

#[test]
fn check_reads_opencl() {
    let f = "examples/opencl/local_reduction.cl";
    let (code, out, err) = run(&["check", "--local_size=128", "--num_groups=2", f]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("race-free"), "{out}");
    let (code, out, _) = run(&["check", "--local_size=128", "--num_groups=2", "-DNO_BARRIER", f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("race on sdata"), "{out}");
}

#[test]
fn bank_reads_opencl() {
    // The 16x17 tile: a warp of 32 work-items spans two rows, 17 words apart, so work-items
    // 32 and 63 of the second warp share a bank (a 2-way conflict on both accesses).
    let f = "examples/opencl/transpose_local.cl";
    let (code, out, err) = run(&["bank", "--local_size=[16,16]", "--json", f]);
    assert_eq!(code, Some(1), "{out}{err}");
    let j = json(&out);
    let accesses = j["kernels"][0]["accesses"].as_array().expect("accesses");
    assert_eq!(accesses.len(), 2, "{out}");
    for a in accesses {
        assert_eq!(a["degree"], 2, "{a}");
    }
}

#[test]
fn a_shared_counter_is_per_block() {
    let (code, out, _) = run(&["--blockDim=64", "--gridDim=4", "tests/kernels/opencl/shared_counter.cu"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("write-write race on out["), "{out}");
    let (code, out, _) = run(&["--blockDim=64", "--gridDim=1", "tests/kernels/opencl/shared_counter.cu"]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_constant_table_has_its_initializers_values() {
    let (code, out, err) = run(&[
        "--local_size=64",
        "--num_groups=1",
        "tests/kernels/opencl/constant_table.cl",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    // A table that is not a permutation: two work-items write one slot.
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("table.cl");
    let text = std::fs::read_to_string(common::root().join("tests/kernels/opencl/constant_table.cl")).expect("read");
    std::fs::write(&f, text.replace("{3, 2, 1, 0}", "{3, 2, 1, 1}")).expect("write");
    let (code, out, _) = run(&["--local_size=64", "--num_groups=1", &f.to_string_lossy()]);
    assert_eq!(code, Some(1), "{out}");
}

#[test]
fn vload_and_vstore_touch_packed_elements() {
    let f = "tests/kernels/opencl/vload_store.cl";
    let (code, out, err) = run(&["--local_size=64", "--num_groups=4", f]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, _) = run(&["--local_size=64", "--num_groups=4", "-DOVERLAP", "--json", f]);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(json(&out)["kernels"][0]["findings"][0]["array"], "out", "{out}");
}

#[test]
fn quoted_source_keeps_its_names() {
    // Only gpug's words change: an identifier containing a CUDA word stays as written.
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("blocks.cl");
    std::fs::write(
        &f,
        "__kernel void k(__global int *out, int num_blocks) {\n  out[get_local_id(0) + num_blocks] = get_group_id(0);\n}\n",
    )
    .expect("write");
    let (code, out, _) = run(&["--local_size=64", "--num_groups=4", &f.to_string_lossy()]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("get_local_id(0) + num_blocks]"), "{out}");
    assert!(out.contains("num_blocks = "), "{out}");
}

#[test]
fn kernel_args_fix_scalar_parameters() {
    let f = "tests/kernels/opencl/kernel_args.cl";
    let (code, out, err) = run(&["--local_size=8", "--num_groups=1", "--kernel-args=foo,0x3", f]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, _) = run(&["--local_size=8", "--num_groups=1", "--kernel-args=foo,4", f]);
    assert_eq!(code, Some(1), "{out}");
    // `*` leaves the parameter free; a value that is not a number is an input error.
    let (code, out, _) = run(&["--local_size=8", "--num_groups=1", "--kernel-args=foo,*", f]);
    assert_eq!(code, Some(1), "{out}");
    let (code, _, err) = run(&["--local_size=8", "--num_groups=1", "--kernel-args=foo,three", f]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is not an integer"), "{err}");
}

#[test]
fn only_intra_group_leaves_races_between_groups_out() {
    let f = "tests/kernels/opencl/intra_group.cl";
    let (code, out, _) = run(&["--local_size=64", "--num_groups=8", f]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("race on p"), "{out}");
    let (code, out, err) = run(&["--local_size=64", "--num_groups=8", "--only-intra-group", f]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("--only-intra-group"),
        "the report says what was left out: {out}"
    );
}
