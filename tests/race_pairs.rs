//! Race queries end to end (issue 56 item 1, issue 53 item 5): the linear encoding (the
//! default) and PUG's pairwise one (`--race-encoding pairwise`) give the same verdicts on the
//! kernels of `tests/kernels/races/`, and the linear one lists every racing pair of source
//! locations of an array, up to 8, each with a witness that the kernel's code makes true.

mod common;

use common::{example_flags, gpug, root};
use serde_json::Value;
use std::collections::BTreeSet;

const SOLVERS: [&str; 3] = ["z3", "cvc5", "yices"];

/// The one kernel's JSON result for `file` (its line-2 flags) with `solver` and `extra` flags.
fn run(file: &str, solver: &str, extra: &[&str]) -> Value {
    let path = root().join("tests/kernels/races").join(file);
    let mut args: Vec<String> = vec![
        "--solver".into(),
        solver.into(),
        "--json".into(),
        "--race-pairs".into(),
        "8".into(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(example_flags(&path));
    args.push(path.to_string_lossy().into_owned());
    let out = gpug(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "{file} ({solver}): {e}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    json["kernels"][0].clone()
}

/// The races on `array` of a result: per finding, (line of thread 1's access, its thread
/// x, line of thread 2's, its thread x, the element index).
fn races(k: &Value, array: &str) -> Vec<(u64, u64, u64, u64, String)> {
    let findings = k["findings"].as_array().cloned().unwrap_or_default();
    findings
        .iter()
        .filter(|f| f["kind"] == "race" && f["array"] == array)
        .map(|f| {
            let a = &f["accesses"];
            let line = |i: usize| a[i]["line"].as_u64().expect("line");
            let tx = |i: usize| a[i]["thread"][0].as_u64().expect("thread");
            (
                line(0),
                tx(0),
                line(1),
                tx(1),
                f["index"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The unordered pairs of lines of `races`.
fn line_pairs(races: &[(u64, u64, u64, u64, String)]) -> BTreeSet<(u64, u64)> {
    races.iter().map(|r| (r.0.min(r.2), r.0.max(r.2))).collect()
}

#[test]
fn three_racing_pairs_each_with_its_own_witness() {
    for solver in SOLVERS {
        let k = run("three_pairs.cu", solver, &[]);
        assert_eq!(k["verdict"], "defect", "{solver}: {k}");
        let rs = races(&k, "s");
        assert_eq!(
            line_pairs(&rs),
            BTreeSet::from([(12, 13), (12, 14), (14, 14)]),
            "{solver}: {rs:?}"
        );
        assert_eq!(rs.len(), 3, "{solver}: each pair once: {rs:?}");
        // Each witness is one the code makes: `s[t] = t` (line 12) by thread t writes s[t];
        // `x = s[t + 1]` (line 13) by thread t reads s[t + 1]; `s[0] = x` (line 14) writes s[0].
        for (l1, t1, l2, t2, index) in &rs {
            let element = |line: u64, t: u64| match line {
                12 => t,
                13 => t + 1,
                _ => 0,
            };
            assert_eq!(element(*l1, *t1), element(*l2, *t2), "{solver}: {rs:?}");
            assert_eq!(*index, format!("s[{}]", element(*l1, *t1)), "{solver}: {rs:?}");
            assert_ne!(t1, t2, "{solver}: two threads of one block: {rs:?}");
        }
    }
}

#[test]
fn the_pairwise_encoding_agrees_and_lists_one_pair() {
    for solver in ["z3", "yices"] {
        let k = run("three_pairs.cu", solver, &["--race-encoding", "pairwise"]);
        assert_eq!(k["verdict"], "defect", "{solver}: {k}");
        assert_eq!(races(&k, "s").len(), 1, "{solver}: {k}");
        for file in ["three_pairs_fixed.cu", "ten_writers.cu"] {
            let linear = run(file, solver, &[]);
            let pairwise = run(file, solver, &["--race-encoding", "pairwise"]);
            assert_eq!(linear["verdict"], pairwise["verdict"], "{file} ({solver})");
        }
    }
}

#[test]
fn a_race_free_kernel_is_verified_in_both_encodings() {
    for solver in SOLVERS {
        for encoding in ["linear", "pairwise"] {
            let k = run("three_pairs_fixed.cu", solver, &["--race-encoding", encoding]);
            assert_eq!(k["verdict"], "verified", "{solver}, {encoding}: {k}");
        }
    }
}

#[test]
fn at_most_eight_pairs_are_listed_with_a_note_for_the_rest() {
    for solver in ["z3", "yices"] {
        let k = run("ten_writers.cu", solver, &[]);
        let rs = races(&k, "s");
        assert_eq!(rs.len(), 8, "{solver}: {rs:?}");
        assert_eq!(line_pairs(&rs).len(), 8, "{solver}: distinct pairs: {rs:?}");
        for (_, t1, _, t2, index) in &rs {
            assert_eq!(index, "s[0]", "{solver}: {rs:?}");
            assert_ne!(t1, t2, "{solver}: {rs:?}");
        }
        let notes = k["notes"].to_string();
        assert!(
            notes.contains("more racing pairs on `s` than the 8 listed"),
            "{solver}: {notes}"
        );
    }
}

/// The block and thread x of a witness access, as one linear cell index (`--blockDim=64`).
fn cell(access: &Value) -> u64 {
    let x = |v: &Value| v[0].as_u64().expect("coordinate");
    x(&access["block"]) * 64 + x(&access["thread"])
}

/// Per-thread slices written and read by unrolled loops (`slices.cu`, the shape of the ODE
/// solver's `k` in `tests/kernels/memory/ode_solver.cu`): each side's offsets are a few shapes
/// (`base + c`, `4*base + c`) with chosen literals, not one term per access (`linear`'s
/// templates). The fixed kernel is verified; the racy one, whose last stage reads and writes
/// one element past its slices, races on `k` and on `y`, each between neighbouring cells.
/// With yices, the default solver: z3 and cvc5 take tens of seconds on the fixed kernel's `k`
/// query (no mixed-radix lemma yet relates `4*sext(base + c)` to `4*sext(base) + c`), so
/// asking them here would be a timed test.
#[test]
fn unrolled_slices_are_told_apart_by_their_templates() {
    let k = run("slices.cu", "yices", &[]);
    assert_eq!(k["verdict"], "verified", "{k}");
    let k = run("slices_race.cu", "yices", &[]);
    assert_eq!(k["verdict"], "defect", "{k}");
    for (array, lines) in [("k", (14, 25)), ("y", (14, 26))] {
        let found: Vec<&Value> = k["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["kind"] == "race" && f["array"] == array)
            .collect();
        assert!(!found.is_empty(), "{array}: {k}");
        for f in found {
            let a = &f["accesses"];
            let line = |i: usize| a[i]["line"].as_u64().expect("line");
            assert_eq!((line(0).min(line(1)), line(0).max(line(1))), lines, "{array}: {f}");
            // The stage's write or read at line 14 is one past its own slice: the cell that
            // owns that element is the next one.
            let (past, owner) = match line(0) == 14 {
                true => (cell(&a[0]), cell(&a[1])),
                false => (cell(&a[1]), cell(&a[0])),
            };
            assert_eq!(owner, past + 1, "{array}: {f}");
        }
    }
}
