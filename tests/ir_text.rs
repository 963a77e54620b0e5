//! Snapshots (insta) of the IR's text form and of `--show` at each stage, for a handful of
//! kernels: the kernel after lowering (`device_function.cu`: an inlined call as a block with
//! its exit), after each pass (`reduce.cu`: a loop unrolled; `spin_lock.cu`: lock markers of
//! the sync pass and a loop abstracted; `halving_doubling.cu`: closed forms), the encoder's SSA
//! and the queries (`vector_add.cu`). Review changes with `cargo insta review`.

mod common;

use common::run_example;

/// What `--show=STAGES` prints for an example, without the report (`--json`'s last line).
fn show(name: &str, stages: &str) -> String {
    let out = run_example(name, &[&format!("--show={stages}"), "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1 | 3)),
        "{name}: exit {:?}, stderr: {stderr}",
        out.status.code()
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines.last().is_some_and(|l| l.starts_with("{\"")),
        "{name}: the report is not last: {stdout}"
    );
    lines.pop();
    lines.join("\n")
}

#[test]
fn lowered_device_function() {
    insta::assert_snapshot!(show("device_function.cu", "lowered"));
}

#[test]
fn lowered_and_passes_while_break() {
    insta::assert_snapshot!(show("while_break.cu", "lowered,passes"));
}

#[test]
fn passes_reduce() {
    insta::assert_snapshot!(show("reduce.cu", "passes"));
}

#[test]
fn passes_spin_lock() {
    insta::assert_snapshot!(show("spin_lock.cu", "passes"));
}

#[test]
fn passes_halving_doubling() {
    insta::assert_snapshot!(show("halving_doubling.cu", "passes"));
}

#[test]
fn ssa_and_queries_vector_add() {
    insta::assert_snapshot!(show("vector_add.cu", "ssa,queries"));
}

#[test]
fn queries_reduce_nobarrier() {
    insta::assert_snapshot!(show("reduce_nobarrier.cu", "queries"));
}

/// Every test's gpug validates the IR after lowering and after every pass: the repository's
/// `.cargo/config.toml` sets `GPUG_VALIDATE=1` (gpug's `--validate`) for what cargo runs.
#[test]
fn the_tests_run_gpug_with_the_validator_on() {
    assert_eq!(std::env::var("GPUG_VALIDATE").as_deref(), Ok("1"));
}

/// `--show` prints each stage it is asked for and nothing else, and changes no verdict.
#[test]
fn show_prints_the_stages_asked_and_keeps_the_verdict() {
    let plain = run_example("reduce_nobarrier.cu", &[]);
    let shown = run_example("reduce_nobarrier.cu", &["--show=lowered"]);
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(shown.status.code(), plain.status.code());
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.contains(": after lowering\nkernel "), "{text}");
    assert!(!text.contains("after pass"), "{text}");
    let plain_text = String::from_utf8_lossy(&plain.stdout);
    assert!(
        text.ends_with(plain_text.as_ref()),
        "the report follows the stages unchanged"
    );
}
