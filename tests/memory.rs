//! The memory bound (`--max-memory`, issue 46): a kernel whose analysis outgrows it ends
//! inconclusive (exit 3) with the reason, within its bound and in seconds; kernels that fit
//! are not affected; solver processes get the limit too.
//!
//! `tests/kernels/memory/ode_solver.cu` has the shape of a cell-model ODE solver kernel of
//! HPC suites (written by `scripts/gen-ode-kernel.py`): 26 inlined calls of a right-hand side
//! of ~400 straight-line float statements, loops over parameter arrays unrolled. Its race
//! check of `ytmp` has 16 million access pairs; without the bound gpug grew past 8 GiB on it.

mod common;

use common::{gpug, root};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The largest resident set (`VmHWM`, bytes) of process `pid` so far, if it can be read.
fn peak(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line["VmHWM:".len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Runs gpug with `args`, sampling its peak resident set until it exits (killed after
/// `limit`): exit code, standard output, standard error, wall time and the last peak read.
fn run_sampled(args: &[&str], limit: Duration) -> (Option<i32>, String, String, Duration, u64) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpug"))
        .current_dir(root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gpug");
    let mut highest = 0;
    loop {
        if let Some(p) = peak(child.id()) {
            highest = highest.max(p);
        }
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        start.elapsed(),
        highest,
    )
}

/// The ODE-shaped kernel under `--max-memory 200M` is inconclusive with the bound as its
/// reason, in seconds, never far above 200 MiB (the monitor samples every 50 ms; the stages
/// poll its flag); the file's next kernel is then verified. (Its whole analysis peaked past
/// 400 MiB until scripts were shared by their sessions and atoms stored inline; it now peaks
/// near 360 MiB, so the bound that stops it is lower.)
#[test]
fn ode_solver_shape_stops_at_its_memory_bound() {
    const MIB: u64 = 1 << 20;
    let (code, out, err, took, high) = run_sampled(
        &[
            "--json",
            "--solver",
            "z3",
            "--max-memory",
            "200M",
            "--blockDim=64",
            "--gridDim=4",
            "tests/kernels/memory/ode_solver.cu",
        ],
        Duration::from_secs(120),
    );
    assert_eq!(code, Some(3), "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    let kernel = &json["kernels"][0];
    assert_eq!(kernel["verdict"], "inconclusive", "{out}");
    let reasons = kernel["inconclusive"].to_string();
    assert!(
        reasons.contains("memory limit of 200 MiB exceeded") && reasons.contains("raise it with --max-memory"),
        "{reasons}"
    );
    // The next kernel starts from what is resident once the first one's data is gone.
    assert_eq!(json["kernels"][1]["name"], "scale", "{out}");
    assert_eq!(json["kernels"][1]["verdict"], "verified", "{out}");
    assert!(took < Duration::from_secs(60), "took {took:?}");
    assert!(high < 400 * MIB, "peak resident set {} MiB", high / MIB);
}

/// A kernel that fits is verified as without the bound; `none` lifts it.
#[test]
fn a_kernel_within_the_bound_is_verified() {
    for bound in ["400M", "none"] {
        let out = gpug(&[
            "--solver".into(),
            "z3".into(),
            "--max-memory".into(),
            bound.into(),
            "--blockDim=256".into(),
            "--gridDim=64".into(),
            "examples/reduce.cu".into(),
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{bound}: {text}");
        assert!(text.contains("reduce: verified"), "{text}");
    }
}

/// A size gpug cannot read, or one too small for a solver to start, is a usage error
/// (exit 2) naming it.
#[test]
fn a_bad_size_is_a_usage_error() {
    for (size, why) in [("8X", "`8X` is not a size"), ("10M", "`10M` is below 64 MiB")] {
        let out = gpug(&["--max-memory".into(), size.into(), "examples/reduce.cu".into()]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{err}");
    }
}

/// Each solver process is started with its data segment limited to the bound (`ulimit -d`,
/// in KiB): a fake solver reports its own limit as the error of its query.
#[test]
fn solvers_get_the_bound_as_their_data_limit() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("limit.sh");
    std::fs::write(
        &script,
        "while IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) echo \"(error \\\"data limit $(ulimit -d)\\\")\";;\n    *) echo success;;\n  esac\ndone\n",
    )
    .unwrap();
    let cmd = format!("/bin/sh {}", script.display());
    for (bound, expect) in [("300M", "data limit 307200"), ("none", "data limit unlimited")] {
        let out = gpug(&[
            "--solver-cmd".into(),
            cmd.clone(),
            "--max-memory".into(),
            bound.into(),
            "--blockDim=256".into(),
            "--gridDim=64".into(),
            "examples/reduce.cu".into(),
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(3), "{bound}: {text}");
        assert!(text.contains(expect), "{bound}: {text}");
    }
}

/// Under `ulimit -v` (the process's `RLIMIT_AS`) and no `--max-memory`, the ODE-shaped kernel
/// ends inconclusive naming the address-space limit, and the file's next kernel is verified:
/// an allocation past `RLIMIT_AS` would abort the process (SIGABRT, no report), so the monitor
/// stops the stage while the allocator still has room (issue 56, item 4).
#[test]
fn the_address_space_limit_ends_the_kernel_inconclusive() {
    let out = Command::new("/bin/sh")
        .current_dir(root())
        .args([
            "-c",
            "ulimit -v 3000000 && exec \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_gpug"),
            "--json",
            "--solver",
            "z3",
            "--max-memory",
            "none",
            // The pairwise race query, whose encoding grows past the bound where the monitor
            // polls it. The linear one's encoding fits, and a later stage (the session's script
            // of 95 MB) then outgrows 3 GB between two samples: a known gap (issue 56).
            "--race-encoding",
            "pairwise",
            "--blockDim=64",
            "--gridDim=4",
            "tests/kernels/memory/ode_solver.cu",
        ])
        .output()
        .expect("run gpug under ulimit -v");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{text}{err}");
    let json: serde_json::Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}{err}"));
    let reasons = json["kernels"][0]["inconclusive"].to_string();
    assert!(
        reasons.contains("address-space limit of 2.86 GiB (ulimit -v) nearly reached")
            && reasons.contains("raise it with ulimit -v"),
        "{reasons}"
    );
    assert_eq!(json["kernels"][1]["name"], "scale", "{text}");
    assert_eq!(json["kernels"][1]["verdict"], "verified", "{text}");
}
