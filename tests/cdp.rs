//! Dynamic parallelism (issue 55 item 4): kernel launches in device code. clang's device
//! compilation refuses them, so the file is read as its host compilation sees it; a kernel
//! launched from device code is verified for every launch, and a kernel that launches one is
//! never verified (the race of its child grids with it is not checked): inconclusive, or a
//! defect of its own. Device-side `cudaFree` is no access, with a note; a device-side stream's
//! creation and release are read.

mod common;

use serde_json::Value;

#[test]
fn a_launch_from_device_code_is_read_and_left_unchecked() {
    let args = ["--json", "--solver", "z3", "tests/kernels/cdp/tree.cu"].map(String::from);
    let out = common::gpug(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(out.status.code(), Some(1), "{v}\n{err}");
    let kernels = v["kernels"].as_array().expect("kernels");
    assert_eq!(
        common::names_and_verdicts(&v),
        [
            "child verified",
            "scale inconclusive",
            "racy defect",
            "uid inconclusive",
            "release verified",
            "streamed inconclusive"
        ],
        "{v}\n{err}"
    );
    // The child is verified for every launch: no host launch is kept for it.
    assert!(kernels[0]["launch"].is_null(), "{v}");
    let unchecked = |k: &Value| k["inconclusive"].to_string();
    assert!(
        unchecked(&kernels[1]).contains("tree.cu:19:25: `child` launched from device code (dynamic parallelism)"),
        "{v}"
    );
    assert!(
        unchecked(&kernels[2]).contains("tree.cu:24:25: `child` launched from device code"),
        "{v}"
    );
    let racy = &kernels[2]["findings"];
    assert_eq!(racy[0]["kind"], "race", "{v}");
    assert_eq!(racy[0]["array"], "flag", "{v}");
    // Every finding of `uid` is excluded by the launch contract (blockDim.y > 1), yet the
    // launch from device code keeps it from being verified.
    assert!(kernels[3]["launch"].is_null(), "{v}");
    assert!(!kernels[3]["contract"].as_array().expect("contract").is_empty(), "{v}");
    assert_eq!(kernels[3]["excluded"][0]["array"], "s", "{v}");
    assert!(
        unchecked(&kernels[3]).contains("tree.cu:33:38: `uid` launched from device code"),
        "{v}"
    );
    assert!(kernels[4]["notes"].to_string().contains("`cudaFree`"), "{v}");
    // A stream created and destroyed in device code is read; the launch into it is not checked.
    assert!(
        unchecked(&kernels[5]).contains("`child` launched from device code"),
        "{v}"
    );
    assert!(
        err.contains("device code launches kernels (dynamic parallelism)")
            && err.contains("`child` is launched from device code"),
        "{err}"
    );
}
