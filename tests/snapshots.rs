//! Snapshots (insta) of the text report of three examples and of the SMT-LIB that gpug emits
//! for two small kernels. Review changes with `cargo insta review`.

mod common;

use common::run_example;

fn report(name: &str) -> String {
    let out = run_example(name, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{name}: exit {:?}, stderr: {stderr}",
        out.status.code()
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn report_reduce_nobarrier() {
    insta::assert_snapshot!(report("reduce_nobarrier.cu"));
}

#[test]
fn report_divergent_barrier() {
    insta::assert_snapshot!(report("divergent_barrier.cu"));
}

#[test]
fn report_vector_add() {
    insta::assert_snapshot!(report("vector_add.cu"));
}

/// The dumped queries of an example, concatenated in file-name order.
fn emitted(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("gpug-snap-{}-{}", std::process::id(), name));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_string_lossy().into_owned();
    let out = run_example(name, &["--dump-smt2", &d]);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("dump dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut text = String::new();
    for f in files {
        text.push_str(&format!(
            ";; ===== {}\n",
            f.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()
        ));
        text.push_str(&std::fs::read_to_string(&f).expect("dump file"));
    }
    let _ = std::fs::remove_dir_all(&dir);
    text
}

#[test]
fn smt_vector_add() {
    insta::assert_snapshot!(emitted("vector_add.cu"));
}

#[test]
fn smt_write_write_race() {
    insta::assert_snapshot!(emitted("write_write_race.cu"));
}
