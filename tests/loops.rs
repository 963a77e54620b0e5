//! Soundness of the loop abstraction: every kernel of `tests/kernels/loops/` has loops with
//! small concrete trip counts, so it can be verified both by full unrolling (exact) and with
//! `--unroll=0`, which forces every loop to be abstracted (PUG §6). The unrolled verdict must be
//! the expected one (line 1); the abstracted verdict must equal it, or be a race that the
//! report marks "possible" (an over-approximation may add races, never hide one).

mod common;

use common::{example_flags, gpug, root};
use serde_json::Value;

fn run(file: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args: Vec<String> = vec!["--solver".into(), "z3".into(), "--json".into(), "--explain".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(example_flags(&root().join(file)));
    args.push(file.to_string());
    let out = gpug(&args);
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{file}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), v)
}

fn loops_of(v: &Value) -> Vec<String> {
    v["kernels"][0]["loops"]
        .as_array()
        .map(|a| a.iter().filter_map(|l| l.as_str().map(String::from)).collect())
        .unwrap_or_default()
}

#[test]
fn abstraction_agrees_with_unrolling() {
    let dir = root().join("tests/kernels/loops");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/kernels/loops")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .map(|p| format!("tests/kernels/loops/{}", p.file_name().expect("name").to_string_lossy()))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(root().join(file)).expect("read");
        let racy = text.starts_with("// expect: race");
        let (u_code, u) = run(file, &[]);
        let (a_code, a) = run(file, &["--unroll=0"]);
        if !loops_of(&u).iter().all(|l| l.contains("unrolled")) {
            problems.push(format!("{file}: not every loop unrolled: {:?}", loops_of(&u)));
        }
        if !loops_of(&a).iter().all(|l| l.contains("abstracted")) {
            problems.push(format!("{file}: not every loop abstracted: {:?}", loops_of(&a)));
        }
        let expected = if racy { Some(1) } else { Some(0) };
        if u_code != expected {
            problems.push(format!("{file}: unrolled exit {u_code:?}, expected {expected:?}"));
        }
        let findings = a["kernels"][0]["findings"].as_array().cloned().unwrap_or_default();
        let agrees =
            a_code == expected || (a_code == Some(1) && findings.iter().all(|f| f["possible"] == Value::Bool(true)));
        if !agrees {
            problems.push(format!(
                "{file}: abstracted exit {a_code:?} ({findings:?}), unrolled {u_code:?}"
            ));
        }
        if racy && a_code != Some(1) {
            problems.push(format!("{file}: the abstraction hides the race"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Thread-count independence: with a symbolic block size (`[*,1,1]`) the grid-stride loop's
/// index `g + it * blockDim.x * gridDim.x` and the thread's `blockIdx.x * blockDim.x +
/// threadIdx.x` multiply symbolic terms; the relaxed query with the mixed-radix lemmas must
/// still prove the example race-free with every solver, and a variant striding by the block
/// only must still race (found by the exact query; cvc5 1.0 does not find that model within
/// 30 s, so it is left out there).
#[test]
fn symbolic_block_size_grid_stride() {
    for solver in ["z3", "cvc5", "yices"] {
        for (file, code, expect) in [
            ("examples/grid_stride.cu", 0, "saxpy: verified"),
            ("tests/kernels/grid_stride_block.cu", 1, " race on y["),
        ] {
            if solver == "cvc5" && code == 1 {
                continue;
            }
            let out = gpug(
                &[
                    "--solver",
                    solver,
                    "--timeout",
                    "30",
                    "--unroll=0",
                    "--blockDim=[*,1,1]",
                    "--gridDim=64",
                    file,
                ]
                .map(String::from),
            );
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(code), "{solver} {file}: {text}");
            assert!(text.contains(expect), "{solver} {file}: {text}");
            assert_eq!(code == 1, text.contains("possible "), "{solver} {file}: {text}");
        }
    }
}

/// Without a launch the tree reduction's loop is abstracted, so its races are first found as
/// possible; replaying each witness's geometry with every loop unrolled confirms them (the
/// exact encoding races at the same sites), so none stays possible and the report says so.
/// (`--strict`: the races of 2-D launches are findings too, not listed apart by the launch
/// contract.)
#[test]
fn possible_races_are_confirmed_by_replaying_their_launch() {
    let out = gpug(&["--solver", "z3", "--strict", "--json", "examples/reduce_nobarrier.cu"].map(String::from));
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    let k = &v["kernels"][0];
    let findings = k["findings"].as_array().expect("findings");
    assert!(findings.len() >= 2, "{k}");
    for f in findings {
        assert_eq!(f["possible"], Value::Bool(false), "{f}");
    }
    let notes = k["notes"].to_string();
    assert!(notes.contains("confirmed by replaying its launch"), "{notes}");
    // The race inside the loop is among them, with both accesses on line 15.
    assert!(
        findings.iter().any(|f| f["accesses"]
            .as_array()
            .is_some_and(|a| a.iter().all(|x| x["line"] == 15))),
        "{k}"
    );
}

/// Asserts that `file` is verified with each solver under `flags`.
fn verified_with_every_solver(file: &str, flags: &[&str]) {
    for solver in ["z3", "cvc5", "yices"] {
        let mut args: Vec<String> = vec!["--solver".into(), solver.into(), "--json".into()];
        args.extend(flags.iter().map(|f| f.to_string()));
        args.push(file.into());
        let out = gpug(&args);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(out.status.code(), Some(0), "{solver}: {v}");
        assert_eq!(v["kernels"][0]["verdict"], "verified", "{solver}: {v}");
    }
}

/// A loop whose leading `if (d) break;` is folded into its test (`i < TR && !d`, llm.c's
/// `attention_forward_kernel2`): each conjunct of the test held on the previous iteration, so
/// the abstraction keeps the trip bound of `i < TR` and `i` cannot wrap to a negative row.
/// Abstracted (`--unroll=0`), the kernel is verified with every solver, as unrolled.
#[test]
fn a_folded_break_keeps_the_trip_bound() {
    verified_with_every_solver(
        "tests/kernels/loops/break_bound.cu",
        &["--unroll=0", "--blockDim=32", "--gridDim=[8,12]"],
    );
}

/// A loop whose test calls a helper (`i < ceil_div(V, 8)`, llm.c's `fused_classifier_kernel4`):
/// the inlined statements give the same value in every iteration and run once before the
/// abstracted loop, which keeps its trip bound; verified with every solver, where the
/// counter could wrap before.
#[test]
fn a_test_computed_by_a_call_keeps_the_trip_bound() {
    verified_with_every_solver(
        "tests/kernels/loop_bounds/call_in_test.cu",
        &["--blockDim=32", "--gridDim=8"],
    );
}

/// A doubling counter (`for (s = 1; s < blockDim.x; s *= 2)`, cuda-samples' `reduce1`) under a
/// symbolic block size: the abstracted iteration keeps the trip bound `s << (it - 1) <
/// blockDim.x`, so `s` never stands for a value past its wrap to 0 (where every thread's
/// `index = 2 * s * tid` would be 0): verified with every solver, where a possible race was
/// reported. Without the loop's barrier the race stays (z3 and yices; cvc5 1.0 takes minutes
/// for that model).
#[test]
fn a_doubling_counter_keeps_its_trip_bound() {
    let flags = ["--blockDim=[*,1,1]", "--gridDim=4"];
    verified_with_every_solver("tests/kernels/loop_bounds/doubling.cu", &flags);
    for solver in ["z3", "yices"] {
        let mut args: Vec<String> = vec!["--solver".into(), solver.into(), "--json".into()];
        args.extend(flags.iter().map(|f| f.to_string()));
        args.push("tests/kernels/loop_bounds/doubling_race.cu".into());
        let out = gpug(&args);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(out.status.code(), Some(1), "{solver}: {v}");
        let f = &v["kernels"][0]["findings"][0];
        assert_eq!(f["kind"], "race", "{solver}: {v}");
        assert_eq!(f["array"], "sdata", "{solver}: {v}");
    }
}

/// Nested loops around barriers whose trip counts depend on the block index only (llm.c's
/// `softmax_autoregressive_backward_kernel6`): the outer loop runs no fixed number of barriers
/// per iteration, yet two threads of a block pass them in step (`encode/pair/uniform.rs`,
/// block-uniform barriers). Each kernel of `tests/kernels/uniform/` says on line 1 what it
/// must give with every loop abstracted: `verified`, `race` (a race and no divergence), or
/// `divergence` (the same loops with a barrier or a trip count that depends on the thread, or
/// run by some threads only, must still be barrier divergence).
#[test]
fn block_uniform_loops_pass_their_barriers_in_step() {
    let dir = root().join("tests/kernels/uniform");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/kernels/uniform")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .map(|p| {
            format!(
                "tests/kernels/uniform/{}",
                p.file_name().expect("name").to_string_lossy()
            )
        })
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(root().join(file)).expect("read");
        let expect = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("// expect: ")
            .to_string();
        let (code, v) = run(file, &["--unroll=0"]);
        let kinds: Vec<String> = v["kernels"][0]["findings"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|f| f["kind"].as_str().unwrap_or("").to_string())
            .collect();
        let ok = match expect.as_str() {
            "verified" => code == Some(0) && kinds.is_empty(),
            "race" => code == Some(1) && kinds.iter().any(|k| k == "race") && !kinds.iter().any(|k| k == "divergence"),
            "divergence" => code == Some(1) && kinds.iter().any(|k| k == "divergence"),
            other => panic!("{file}: unknown expectation {other:?}"),
        };
        if !ok {
            problems.push(format!("{file}: expected {expect}, got exit {code:?} with {kinds:?}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A possible finding names the abstraction it rests on (issue 53 item 5): the loop whose
/// havocked variable its access reads, with that variable, and not a loop that comes after
/// both accesses. Asked with z3 and yices: the text is the encoder's, not the solver's.
#[test]
fn a_possible_race_names_the_loop_it_rests_on() {
    let file = "tests/kernels/possible/rests_on_first_loop.cu";
    for solver in ["z3", "yices"] {
        let mut args: Vec<String> = vec!["--solver".into(), solver.into(), "--json".into()];
        args.extend(example_flags(&root().join(file)));
        args.push(file.into());
        let out = gpug(&args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{solver}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        let findings = v["kernels"][0]["findings"].as_array().cloned().unwrap_or_default();
        assert_eq!(findings.len(), 1, "{solver}: {findings:?}");
        assert_eq!(findings[0]["possible"], Value::Bool(true), "{solver}");
        assert_eq!(
            findings[0]["rests_on"],
            serde_json::json!(["the loop at line 9 (`k` arbitrary at its head)"]),
            "{solver}"
        );
        args.retain(|a| a != "--json");
        let text = String::from_utf8_lossy(&gpug(&args).stdout).to_string();
        assert!(
            text.contains("  possible write-write race on a[")
                && text.contains("\n    rests on the loop at line 9 (`k` arbitrary at its head)\n"),
            "{solver}: {text}"
        );
    }
}

/// A grid-stride loop over a cooperative group's grid (`i += grid.size()`, 64 bits wide, into
/// an `int`: C's `i = (int)((long long)i + grid.size())`) keeps its closed form: truncation
/// distributes over `+`, so the update is `i + (int)grid.size()`. Before, the counter was
/// arbitrary at the loop's head and conjugateGradientMultiBlockCG's loops raced with
/// themselves. Striding by half the grid still races.
#[test]
fn a_grid_group_stride_keeps_its_closed_form() {
    let flags = ["--blockDim=64", "--gridDim=4"];
    verified_with_every_solver("tests/kernels/grid_group/grid_group_stride.cu", &flags);
    for solver in ["z3", "cvc5", "yices"] {
        let mut args: Vec<String> = vec!["--solver".into(), solver.into(), "--json".into()];
        args.extend(flags.iter().map(|f| f.to_string()));
        args.push("tests/kernels/grid_group/grid_group_half_stride.cu".into());
        let out = gpug(&args);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(out.status.code(), Some(1), "{solver}: {v}");
        let findings = v["kernels"][0]["findings"].as_array().cloned().unwrap_or_default();
        assert!(findings.iter().any(|f| f["kind"] == "race"), "{solver}: {v}");
    }
}

/// The text report of `file` (its line-2 flags) with `--explain`, one query at a time
/// (`--jobs 1`: no query asked ahead), under `solver`; the run must find a defect.
fn explained_defect(file: &str, solver: &str) -> String {
    let mut args: Vec<String> = ["--solver", solver, "--jobs", "1", "--explain"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(example_flags(&root().join(file)));
    args.push(file.into());
    let out = gpug(&args);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(1), "{solver}: {text}");
    text
}

/// A barrier in an unrolled loop has a divergence check per copy, all of one name: once one
/// copy is found divergent by an exact finding, the others are not asked (one finding a
/// barrier). Before, each of the four copies was asked, in the verification and again in
/// the launch contract's.
#[test]
fn a_barrier_divergent_in_every_iteration_is_asked_once() {
    let file = "tests/kernels/loops_barriers/skipped_in_each_iteration.cu";
    for solver in ["z3", "yices"] {
        let text = explained_defect(file, solver);
        assert_eq!(text.matches("  barrier divergence\n").count(), 1, "{solver}: {text}");
        assert!(
            text.contains("skipped_in_each_iteration.cu:7:13: barrier not reached by thread"),
            "{solver}: {text}"
        );
        // Once in the verification; the launch contracts ask nothing again: the finding is
        // exact, its launch the one given, and its model has no signed overflow (the probe),
        // so the signed assumption could not exclude it.
        let asked = |prefix: &str| {
            text.lines()
                .filter(|l| l.starts_with(prefix) && l.contains("query skipped_in_each_iteration.divergence.L7:"))
                .count()
        };
        assert_eq!((asked("  query"), asked("  contract")), (1, 0), "{solver}: {text}");
    }
}

/// The closed forms of the loops at lines 12 and 16 pass their step checks in the kernel's own
/// verification; the no-wrap contract's re-verifications, of the same prepared kernel under
/// one more assumption (the grid is read from `argv`, y and z are 1 at the launch), do not
/// check them again (before, they asked both), while they ask the race check of its possible
/// finding.
#[test]
fn a_contract_does_not_check_accepted_closed_forms_again() {
    let file = "tests/kernels/possible/rests_on_first_loop_launched.cu";
    for solver in ["z3", "yices"] {
        let text = explained_defect(file, solver);
        let asked = |prefix: &str, name: &str| {
            text.lines()
                .any(|l| l.starts_with(prefix) && l.contains(&format!("query rests_on_first_loop.{name}:")))
        };
        for name in ["loop.L12.i", "loop.L16.j"] {
            assert!(
                asked("  query", name) && !asked("  contract", name),
                "{solver} {name}: {text}"
            );
        }
        assert!(asked("  contract", "race.a.seg0.L14"), "{solver}: {text}");
    }
}
