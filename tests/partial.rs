//! Kernels read one by one: in a file of several kernels, one that gpug cannot read (a
//! construct it does not model, clang's error in a device function it may call, a template
//! instantiation clang refuses) is reported inconclusive with its reason, and the file's other
//! kernels are verified (issue 55: files refused). `__shared__ alignas(…)`, which clang
//! refuses and nvcc accepts, is read. Each file of `tests/kernels/partial` against the
//! verdicts on its first line, with z3, cvc5 and yices. A file whose every kernel cannot be
//! read is still refused, exit 2 (`tests/cli.rs`).

mod common;

use common::{example_flags, gpug, names_and_verdicts, root};
use serde_json::Value;

/// `(file, exit code, kernel verdicts in report order, text the report must hold)`.
const CASES: [(&str, i32, &[&str], &str); 6] = [
    (
        "new_beside.cu",
        3,
        &["fill verified", "make inconclusive"],
        "new_beside.cu:12:27: not read: unsupported: new/delete",
    ),
    (
        "clang_error_beside.cu",
        1,
        &["broken inconclusive", "racy defect", "fine verified"],
        "not read: clang's error in `helper`, which it may call: use of undeclared identifier 'undeclared_in_this_file'",
    ),
    (
        "template_error.cu",
        3,
        &["plain verified", "counted inconclusive"],
        "template_error.cu:12:24: not read: clang's error: initialization is not supported for __shared__ variables",
    ),
    (
        "table_error.cu",
        3,
        &["via_table inconclusive", "plain verified"],
        "not read: clang's error in `bad_op`, which it may call",
    ),
    (
        "virtual_call.cu",
        3,
        &["via_base inconclusive", "direct verified"],
        "not read: unsupported: virtual call to `grow` through a pointer or reference",
    ),
    (
        "shared_alignas.cu",
        1,
        &["shift defect"],
        r#""array":"t","geometry":{},"index":"t["#,
    ),
];

#[test]
fn kernels_not_read_leave_the_others_verified() {
    let mut problems = Vec::new();
    for (file, code, verdicts, text) in CASES {
        let rel = format!("tests/kernels/partial/{file}");
        for solver in ["z3", "cvc5", "yices"] {
            let mut args: Vec<String> = vec!["--json".into(), "--solver".into(), solver.into()];
            args.extend(example_flags(&root().join(&rel)));
            args.push(rel.clone());
            let out = gpug(&args);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let v: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
            let got = names_and_verdicts(&v);
            if out.status.code() != Some(code) || got != verdicts || !stdout.contains(text) {
                problems.push(format!(
                    "{file} [{solver}]: exit {:?}, {got:?}\n{stdout}{}",
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
