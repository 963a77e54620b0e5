//! `gpug bank` against a brute-force enumeration done here, independently of gpug.
//!
//! For every example of `examples/bank/` the test restates each shared access site's index
//! expression in Rust ([`Site::addr`]: byte offset of one thread in one loop iteration, or
//! `None` when the thread is inactive there), enumerates every warp of the block and every
//! iteration, and computes each lane's bank words (word = byte / bank width, bank = word mod
//! banks, an element touching every word it spans). The degree of a site is the largest number
//! of distinct words of one bank one warp touches in one iteration. gpug's `--json` degrees,
//! `possible` flags, per-interval conflict counts, summaries and exit codes must agree, with
//! z3, cvc5 and yices (a missing solver is an error, not a skip).

mod common;

use common::{example_flags, gpug, root};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const SOLVERS: [&str; 3] = ["z3", "cvc5", "yices"];

/// A thread of the block: `threadIdx` and linear id.
#[derive(Clone, Copy, Debug)]
struct Thread {
    x: u64,
    y: u64,
    lin: u64,
}

/// One access site as the test understands it.
struct Site {
    line: u32,
    /// The access's source text on `line` (the first occurrence gives the column).
    text: &'static str,
    access: &'static str,
    width: u64,
    iters: u32,
    /// Byte offset of `t`'s access in iteration `i`, or `None` when `t` does not execute it.
    addr: fn(Thread, u32) -> Option<u64>,
    /// The barrier interval of iteration `i`.
    interval: fn(u32) -> u32,
}

struct Example {
    file: &'static str,
    sites: Vec<Site>,
}

fn always0(_: u32) -> u32 {
    0
}
fn always1(_: u32) -> u32 {
    1
}
fn next(i: u32) -> u32 {
    i + 1
}

fn examples() -> Vec<Example> {
    let s = |line, text, access, width, iters, addr, interval| Site {
        line,
        text,
        access,
        width,
        iters,
        addr,
        interval,
    };
    vec![
        Example {
            file: "transpose_naive.cu",
            sites: vec![
                s(
                    9,
                    "tile[threadIdx.y][threadIdx.x]",
                    "write",
                    4,
                    1,
                    |t, _| Some((t.y * 32 + t.x) * 4),
                    always0,
                ),
                s(
                    12,
                    "tile[threadIdx.x][threadIdx.y]",
                    "read",
                    4,
                    1,
                    |t, _| Some((t.x * 32 + t.y) * 4),
                    always1,
                ),
            ],
        },
        Example {
            file: "transpose_padded.cu",
            sites: vec![
                s(
                    9,
                    "tile[threadIdx.y][threadIdx.x]",
                    "write",
                    4,
                    1,
                    |t, _| Some((t.y * 33 + t.x) * 4),
                    always0,
                ),
                s(
                    12,
                    "tile[threadIdx.x][threadIdx.y]",
                    "read",
                    4,
                    1,
                    |t, _| Some((t.x * 33 + t.y) * 4),
                    always1,
                ),
            ],
        },
        Example {
            file: "reduce_interleaved.cu",
            sites: vec![
                s(8, "sdata[tid]", "write", 4, 1, |t, _| Some(t.x * 4), always0),
                s(
                    12,
                    "sdata[index]",
                    "read",
                    4,
                    8,
                    |t, i| interleaved(t, i).map(|ix| ix * 4),
                    next,
                ),
                s(
                    12,
                    "sdata[index + s]",
                    "read",
                    4,
                    8,
                    |t, i| interleaved(t, i).map(|ix| (ix + (1 << i)) * 4),
                    next,
                ),
                s(
                    12,
                    "sdata[index]",
                    "write",
                    4,
                    8,
                    |t, i| interleaved(t, i).map(|ix| ix * 4),
                    next,
                ),
                s(15, "sdata[0]", "read", 4, 1, |t, _| (t.x == 0).then_some(0), |_| 9),
            ],
        },
        Example {
            file: "reduce_sequential.cu",
            sites: vec![
                s(8, "sdata[tid]", "write", 4, 1, |t, _| Some(t.x * 4), always0),
                s(
                    11,
                    "sdata[tid]",
                    "read",
                    4,
                    8,
                    |t, i| (t.x < 128 >> i).then_some(t.x * 4),
                    next,
                ),
                s(
                    11,
                    "sdata[tid + s]",
                    "read",
                    4,
                    8,
                    |t, i| (t.x < 128 >> i).then_some((t.x + (128 >> i)) * 4),
                    next,
                ),
                s(
                    11,
                    "sdata[tid]",
                    "write",
                    4,
                    8,
                    |t, i| (t.x < 128 >> i).then_some(t.x * 4),
                    next,
                ),
                s(14, "sdata[0]", "read", 4, 1, |t, _| (t.x == 0).then_some(0), |_| 9),
            ],
        },
        Example {
            file: "strides.cu",
            sites: vec![
                s(7, "buf[2 * tid]", "read", 4, 1, |t, _| Some(2 * t.x * 4), always0),
                s(8, "buf[3 * tid]", "read", 4, 1, |t, _| Some(3 * t.x * 4), always0),
                s(9, "buf[32 * tid]", "read", 4, 1, |t, _| Some(32 * t.x * 4), always0),
            ],
        },
        Example {
            file: "doubles.cu",
            sites: vec![
                s(7, "d[tid]", "write", 8, 1, |t, _| Some(t.x * 8), always0),
                s(9, "d[63 - tid]", "read", 8, 1, |t, _| Some((63 - t.x) * 8), always1),
            ],
        },
        Example {
            file: "late_conflict.cu",
            sites: vec![s(
                10,
                "buf[tid * stride]",
                "read",
                4,
                4,
                |t, i| Some(t.x * if i < 3 { 1 } else { 2 } * 4),
                always0,
            )],
        },
    ]
}

/// `index = 2 * s * tid` of iteration `i` (s = 2^i), when `index < 256`.
fn interleaved(t: Thread, i: u32) -> Option<u64> {
    let ix = 2 * (1u64 << i) * t.x;
    (ix < 256).then_some(ix)
}

/// The bank layout the brute force uses.
#[derive(Clone, Copy)]
struct Model {
    banks: u64,
    width: u64,
    warp: u64,
}

const TODAY: Model = Model {
    banks: 32,
    width: 4,
    warp: 32,
};

/// `--blockDim` from the example's flags (line 2).
fn block_dim(flags: &[String]) -> [u64; 3] {
    let f = flags
        .iter()
        .find_map(|f| f.strip_prefix("--blockDim="))
        .expect("--blockDim on line 2");
    let mut d = [1u64; 3];
    for (i, p) in f.trim_matches(['[', ']']).split(',').enumerate() {
        d[i] = p.trim().parse().expect("dimension");
    }
    d
}

/// Brute-force degree of `site` over the iterations `iters` (and, when given, only those in
/// barrier interval `only_interval`): the most distinct words of one bank one warp touches.
fn degree(site: &Site, bd: [u64; 3], m: Model, iters: std::ops::Range<u32>, only_interval: Option<u32>) -> usize {
    let n = bd[0] * bd[1] * bd[2];
    let mut best = 1;
    for i in iters {
        if only_interval.is_some_and(|b| (site.interval)(i) != b) {
            continue;
        }
        for warp in 0..n.div_ceil(m.warp) {
            let mut banks: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
            for lin in warp * m.warp..((warp + 1) * m.warp).min(n) {
                let t = Thread {
                    x: lin % bd[0],
                    y: lin / bd[0] % bd[1],
                    lin,
                };
                assert_eq!(t.lin, lin);
                if let Some(off) = (site.addr)(t, i) {
                    for word in off / m.width..=(off + site.width - 1) / m.width {
                        banks.entry(word % m.banks).or_default().insert(word);
                    }
                }
            }
            best = best.max(banks.values().map(BTreeSet::len).max().unwrap_or(1));
        }
    }
    best
}

/// The 1-based column of `site.text` on its line of `file`.
fn column(file: &str, site: &Site) -> u64 {
    let text = std::fs::read_to_string(root().join("examples/bank").join(file)).expect("example");
    let line = text.lines().nth(site.line as usize - 1).expect("line");
    line.find(site.text)
        .unwrap_or_else(|| panic!("{file}:{}: `{}` not found", site.line, site.text)) as u64
        + 1
}

fn run_bank(file: &str, solver: &str, extra: &[&str]) -> (i32, Value) {
    let rel = format!("examples/bank/{file}");
    let mut args: Vec<String> = vec!["bank".into(), "--json".into(), "--solver".into(), solver.into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(example_flags(&root().join(&rel)));
    args.push(rel);
    let out = gpug(&args);
    let code = out.status.code().unwrap_or(-1);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{file} ({solver}): not JSON ({e}); exit {code}; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, json)
}

/// Compares gpug's JSON for one example with the brute force; returns the mismatches.
fn compare(ex: &Example, solver: &str, m: Model, extra: &[&str]) -> Vec<String> {
    let flags = example_flags(&root().join("examples/bank").join(ex.file));
    let bd = block_dim(&flags);
    let (code, json) = run_bank(ex.file, solver, extra);
    let tag = format!("{} ({solver} {})", ex.file, extra.join(" "));
    let mut bad = Vec::new();
    let kernel = &json["kernels"][0];
    let accesses = kernel["accesses"].as_array().cloned().unwrap_or_default();
    if accesses.len() != ex.sites.len() {
        bad.push(format!(
            "{tag}: {} access sites reported, {} expected",
            accesses.len(),
            ex.sites.len()
        ));
    }
    let mut any_conflict = false;
    let mut interval_conflicts: BTreeMap<u32, usize> = BTreeMap::new();
    for site in &ex.sites {
        let col = column(ex.file, site);
        let want = degree(site, bd, m, 0..site.iters, None);
        any_conflict |= want > 1;
        let got = accesses
            .iter()
            .find(|a| a["line"] == site.line && a["col"] == col && a["access"] == site.access);
        let Some(got) = got else {
            bad.push(format!("{tag}: no {} at {}:{col}", site.access, site.line));
            continue;
        };
        if got["degree"] != want || got["exact"] != true {
            bad.push(format!(
                "{tag}: {} `{}` at {}:{col}: degree {} (exact {}), brute force {want}",
                site.access, site.text, site.line, got["degree"], got["exact"]
            ));
        }
        if got["possible"] != (want > 1) {
            bad.push(format!("{tag}: {} possible = {}", site.text, got["possible"]));
        }
        for i in 0..site.iters {
            let b = (site.interval)(i);
            let e = interval_conflicts.entry(b).or_default();
            if i == 0 || (site.interval)(i - 1) != b {
                *e += usize::from(degree(site, bd, m, 0..site.iters, Some(b)) > 1);
            }
        }
    }
    let got_intervals: BTreeMap<u32, usize> = kernel["intervals"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|i| {
            (
                i["index"].as_u64().unwrap_or(99) as u32,
                i["conflicting"].as_u64().unwrap_or(99) as usize,
            )
        })
        .collect();
    if got_intervals != interval_conflicts {
        bad.push(format!(
            "{tag}: interval conflicts {got_intervals:?}, brute force {interval_conflicts:?}"
        ));
    }
    let c = interval_conflicts.values().filter(|&&n| n > 0).count();
    let summary = if c == 0 {
        "none"
    } else if 2 * c >= interval_conflicts.len() {
        "HI"
    } else {
        "LO"
    };
    if kernel["summary"] != summary {
        bad.push(format!("{tag}: summary {}, brute force {summary}", kernel["summary"]));
    }
    let want_code = if any_conflict { 1 } else { 0 };
    if code != want_code {
        bad.push(format!("{tag}: exit {code}, expected {want_code}"));
    }
    bad
}

#[test]
fn degrees_match_brute_force_with_every_solver() {
    let exs = examples();
    let bad: Vec<String> = std::thread::scope(|sc| {
        let handles: Vec<_> = SOLVERS
            .iter()
            .map(|solver| {
                let exs = &exs;
                sc.spawn(move || {
                    exs.iter()
                        .flat_map(|ex| compare(ex, solver, TODAY, &[]))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("thread")).collect()
    });
    assert!(bad.is_empty(), "mismatches:\n{}", bad.join("\n"));
}

#[test]
fn other_bank_models_match_brute_force() {
    let exs = examples();
    let find = |f: &str| exs.iter().find(|e| e.file == f).expect("example");
    let sixteen = Model { banks: 16, ..TODAY };
    let wide = Model { width: 8, ..TODAY };
    let mut bad = compare(find("strides.cu"), "z3", sixteen, &["--banks", "16"]);
    bad.extend(compare(find("doubles.cu"), "z3", wide, &["--bank-width", "8"]));
    bad.extend(compare(find("transpose_padded.cu"), "z3", sixteen, &["--banks", "16"]));
    assert!(bad.is_empty(), "mismatches:\n{}", bad.join("\n"));
}

#[test]
fn only_the_last_iteration_conflicts_and_is_reported() {
    let exs = examples();
    let ex = exs.iter().find(|e| e.file == "late_conflict.cu").expect("example");
    let site = &ex.sites[0];
    let bd = [32, 1, 1];
    // The brute force itself shows the premise: iterations 0..3 are conflict-free, 3 is not.
    assert_eq!(degree(site, bd, TODAY, 0..3, None), 1);
    assert_eq!(degree(site, bd, TODAY, 3..4, None), 2);
    let (code, json) = run_bank(ex.file, "z3", &[]);
    assert_eq!(code, 1);
    let a = &json["kernels"][0]["accesses"][0];
    assert_eq!(a["degree"], 2, "{a}");
    assert_eq!(a["occurrences"], 4, "{a}");
    // The witness is the last iteration: two lanes 16 apart hitting one bank.
    let w = &a["witness"];
    assert_eq!(w["occurrence"], 3, "{a}");
    let lanes: Vec<u64> = w["lanes"]
        .as_array()
        .expect("lanes")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(lanes.len(), 2);
    assert_eq!(lanes[1] - lanes[0], 16, "{a}");
    assert_eq!((lanes[0] * 2) % 32, w["bank"].as_u64().expect("bank"), "{a}");
}

#[test]
fn witness_names_warp_lanes_and_bank_of_the_transpose_read() {
    let (code, json) = run_bank("transpose_naive.cu", "z3", &[]);
    assert_eq!(code, 1);
    let a = json["kernels"][0]["accesses"]
        .as_array()
        .expect("accesses")
        .iter()
        .find(|a| a["access"] == "read")
        .cloned()
        .expect("the read");
    let w = &a["witness"];
    let threads: Vec<u64> = w["threads"]
        .as_array()
        .expect("threads")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(threads.len(), 32, "{a}");
    let warp = w["warp"].as_u64().expect("warp");
    // Every thread of the warp: tile[x][y] is word 32x + y, bank y = warp (blockDim.x = 32).
    assert_eq!(threads, (warp * 32..warp * 32 + 32).collect::<Vec<_>>());
    assert_eq!(w["bank"], warp, "{a}");
}

#[test]
fn text_report_names_degree_and_summary() {
    let out = gpug(&[
        "bank".into(),
        "--solver".into(),
        "z3".into(),
        "--blockDim=[32,32]".into(),
        "--gridDim=[4,4]".into(),
        "examples/bank/transpose_naive.cu".into(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let read = text.lines().find(|l| l.contains("  read  ")).expect("read line");
    assert!(
        read.contains("tile[threadIdx.x][threadIdx.y]") && read.contains("32-way"),
        "{text}"
    );
    let write = text.lines().find(|l| l.contains("  write ")).expect("write line");
    assert!(write.contains("conflict-free"), "{text}");
    assert!(
        text.contains("1 of 2 shared accesses conflict; 1 of 2 barrier intervals (50%): HI"),
        "{text}"
    );
}

#[test]
fn missing_block_dim_is_a_usage_error() {
    let out = gpug(&[
        "bank".into(),
        "--solver".into(),
        "z3".into(),
        "examples/bank/strides.cu".into(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--blockDim"), "{err}");
}

#[test]
fn a_bank_model_that_cannot_hold_an_element_is_an_input_error() {
    let out = gpug(&[
        "bank".into(),
        "--solver".into(),
        "z3".into(),
        "--banks".into(),
        "1".into(),
        "--blockDim=64".into(),
        "examples/bank/doubles.cu".into(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}
