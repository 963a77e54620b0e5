//! Sizes the program cannot have (issue 53 item 4): a finding that needs an index or offset
//! computation to exceed its type (the linear thread index wrapping past 2^32, a launch of
//! more than 2^32 threads in all, an `int` offset past 2^31) is listed apart with its
//! condition, and the kernel verified for launches where it does not happen; `--strict`
//! reports it as a defect. A race of every launch stays a defect. With z3.

mod common;

use common::gpug;
use serde_json::Value;

const DIR: &str = "tests/kernels/sizes";

/// gpug's exit code and JSON on `DIR/file` with z3, and `extra` arguments.
fn run(file: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args: Vec<String> = vec!["--json".into(), "--solver".into(), "z3".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(format!("{DIR}/{file}"));
    let out = gpug(&args);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), json)
}

/// Asserts that `file` is verified with its findings on `array` listed apart, one condition
/// containing `condition`, and that `--strict` reports a race on `array`.
fn apart(file: &str, array: &str, condition: &str) {
    let (code, json) = run(file, &[]);
    let k = &json["kernels"][0];
    assert_eq!(code, Some(0), "{file}: {json}");
    assert_eq!(k["verdict"], "verified", "{file}: {json}");
    assert!(k["findings"].as_array().is_none_or(Vec::is_empty), "{file}: {json}");
    // Every racing pair of `array` is listed (issue 53 item 5), each apart with its condition.
    let excluded = k["excluded"].as_array().expect("excluded");
    assert!(!excluded.is_empty(), "{file}: {json}");
    for e in excluded {
        assert_eq!(e["array"], array, "{file}: {json}");
        let cond = e["condition"].as_str().unwrap_or("");
        assert!(cond.starts_with("only when"), "{file}: {cond}");
    }
    assert!(
        excluded
            .iter()
            .any(|e| e["condition"].as_str().unwrap_or("").contains(condition)),
        "{file}: {json}"
    );
    assert!(
        !k["contract"].as_array().expect("contract").is_empty(),
        "{file}: {json}"
    );

    let (code, json) = run(file, &["--strict"]);
    let k = &json["kernels"][0];
    assert_eq!(code, Some(1), "{file} --strict: {json}");
    assert_eq!(k["verdict"], "defect", "{file} --strict: {json}");
    assert!(
        k["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .any(|f| f["array"] == array),
        "{file} --strict: {json}"
    );
}

#[test]
fn a_race_that_needs_the_linear_index_to_wrap_is_listed_apart() {
    apart("wrap_1d.cu", "a", "the linear thread index wraps");
}

#[test]
fn a_race_that_needs_more_than_2_to_the_32_threads_in_all_is_listed_apart() {
    apart("wrap_2d_grid.cu", "a", "more than 2^32 threads in all");
}

#[test]
fn a_race_that_needs_an_int_offset_to_overflow_is_listed_apart() {
    apart("int_offset.cu", "a", "`row * n`");
}

#[test]
fn a_race_of_every_launch_stays_a_defect() {
    let (code, json) = run("real_race.cu", &[]);
    let k = &json["kernels"][0];
    assert_eq!(code, Some(1), "{json}");
    assert_eq!(k["verdict"], "defect", "{json}");
    assert!(k["excluded"].as_array().is_none_or(Vec::is_empty), "{json}");
    assert!(k["contract"].as_array().is_none_or(Vec::is_empty), "{json}");
}
