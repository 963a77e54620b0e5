//! The command line's contract: exit codes, one-line errors, the enforced timeout, GPUVerify
//! flags, `gpug solvers`.

mod common;

use common::gpug;
use std::time::{Duration, Instant};

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = gpug(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn malformed_source_exits_2_with_clang_diagnostics() {
    let (code, _, err) = run(&["--solver", "z3", "tests/kernels/syntax_error.cu"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("syntax_error.cu:4:23: error: expected ';'"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn unsupported_construct_exits_2_with_one_line() {
    let (code, out, err) = run(&["--solver", "z3", "tests/kernels/unsupported_goto.cu"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.starts_with("tests/kernels/unsupported_goto.cu:4:"), "{err}");
    assert!(err.contains("unsupported: backward goto (to label `again`)"), "{err}");
}

#[test]
fn missing_file_and_unknown_flag_exit_2() {
    let (code, _, err) = run(&["--solver", "z3", "tests/kernels/no_such_file.cu"]);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = run(&["--frobnicate", "examples/vector_add.cu"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--frobnicate"), "{err}");
}

/// The limit is enforced by killing the solver: the run must end, inconclusive, well before the
/// solver would (it needs to factor a 64-bit semiprime). The bound is generous on purpose; it
/// checks that the timeout works, not how fast gpug is.
#[test]
fn timeout_makes_the_verdict_inconclusive() {
    for solver in ["z3", "cvc5", "yices"] {
        let start = Instant::now();
        let (code, out, err) = run(&[
            "--solver",
            solver,
            "--timeout",
            "1",
            "--blockDim=64",
            "--gridDim=1",
            "tests/kernels/hard_query.cu",
        ]);
        let took = start.elapsed();
        assert_eq!(code, Some(3), "{solver}: {out}{err}");
        assert!(
            out.contains("factor: inconclusive") && out.contains("no answer within 1 s"),
            "{out}"
        );
        assert!(took < Duration::from_secs(10), "{solver}: took {took:?}");
    }
}

/// A fake solver for `--solver-cmd "/bin/sh SCRIPT"` (the script is read by the shell, never
/// executed itself, so no other test thread can hold it open for writing while it starts): it
/// answers `success` to every command, as a solver with `:print-success` does, and runs
/// `at_check` on `(check-sat)`.
fn fake_solver(dir: &std::path::Path, name: &str, at_check: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let text = format!(
        "while IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) {at_check};;\n    *) echo success;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    format!("/bin/sh {}", path.display())
}

/// Whether a process whose command line (words joined by spaces) contains `text` is running
/// (Linux: `/proc/*/cmdline`).
fn running(text: &str) -> bool {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .any(|c| String::from_utf8_lossy(&c).replace('\0', " ").contains(text))
}

/// How many processes have a command line containing `text` ([`running`]).
fn count_running(text: &str) -> usize {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|c| String::from_utf8_lossy(c).replace('\0', " ").contains(text))
        .count()
}

/// Hostile input ends with exit 2 and a reason on standard error, never a panic or a hang:
/// empty, binary and non-UTF-8 files, a directory, 3,000 nested parentheses, recursion past
/// the depth followed with a struct result, a
/// `__shared__` array of 2^30 ints, `--dump-smt2` onto an existing file.
#[test]
fn hostile_input_is_exit_2_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    };
    let binary: Vec<u8> = (0..=255u8).cycle().take(2048).collect();
    let parens = format!(
        "__global__ void k(int *a) {{ a[0] = {}1{}; }}\n",
        "(".repeat(3000),
        ")".repeat(3000)
    );
    let directory = dir.path().join("dir.cu");
    std::fs::create_dir(&directory).unwrap();
    let cases = [
        (write("empty.cu", b""), "no kernel (__global__ function) found"),
        (write("binary.cu", &binary), "error: expected unqualified-id"),
        (
            write("latin1.cu", b"__global__ void k(int *a) { a[0] = \xe9; }\n"),
            "error: source file is not valid UTF-8",
        ),
        // A directory is searched for `.cu` and `.cl` files (a run over many files): none here.
        (directory.display().to_string(), "no .cu or .cl file under"),
        (write("parens.cu", parens.as_bytes()), "bracket nesting level exceeded"),
        (
            write(
                "recursion.cu",
                b"struct P { int a; };\n__device__ P f(int n) { P p; p.a = 0; if (n > 0) { p = f(n - 1); p.a++; } return p; }\n__global__ void k(int *a) { a[threadIdx.x] = f(threadIdx.x).a; }\n",
            ),
            "unsupported: recursive call to `f` returning a struct",
        ),
        (
            write(
                "huge.cu",
                b"__global__ void k(int *a) {\n  __shared__ int s[1 << 30];\n  s[threadIdx.x] = 1;\n  a[threadIdx.x] = s[threadIdx.x];\n}\n",
            ),
            "huge.cu:2:18: the kernel's __shared__ arrays take 4294967296 bytes with `s`, more than any CUDA GPU gives a block",
        ),
    ];
    for (file, reason) in &cases {
        let (code, out, err) = run(&["--solver", "z3", "--blockDim=64", "--gridDim=1", file]);
        assert_eq!(code, Some(2), "{file}: {out}{err}");
        assert!(err.contains(reason), "{file}: {err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
    }
    let existing = write("existing.smt2", b"");
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--blockDim=64",
        "--gridDim=1",
        "--dump-smt2",
        &existing,
        "examples/vector_add.cu",
    ]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("cannot write"), "{err}");
}

/// Whether no process whose command line contains `text` runs within 2 s: gpug sends SIGKILL
/// before it exits, and a killed process may take a moment to go.
fn gone(text: &str) -> bool {
    let t = Instant::now();
    while running(text) {
        if t.elapsed() > Duration::from_secs(2) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// A program that is not an SMT-LIB solver ends the run with exit 2 and a reason naming it:
/// one that answers otherwise than `success`, at once; one that reads its input and never
/// answers, within the query's limit, killed with the child that holds its pipes (none is
/// left running); and a command line with an unterminated quote (`--solver-cmd` is split by
/// the shell's rules, so `sh -c '…'` is one program and two words).
#[test]
fn a_program_that_is_not_a_solver_is_reported_as_such() {
    let launch = ["--blockDim=64", "--gridDim=1", "examples/vector_add.cu"];
    let with = |cmd: &str, timeout: &str| {
        let mut args = vec!["--solver-cmd", cmd, "--timeout", timeout];
        args.extend(launch);
        run(&args)
    };
    let (code, out, err) = with("cat", "5");
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("`cat` is not an SMT-LIB 2 solver"), "{err}");
    let marker = format!("sleep 97.{}", std::process::id());
    let (code, out, err) = with(&format!("sh -c '{marker}'"), "1");
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(
        err.contains("solver `sh` did not answer the SMT-LIB prologue ((set-option :print-success true)) within 1 s"),
        "{err}"
    );
    assert!(gone(&marker), "`{marker}` was left running");
    let (code, out, err) = with("sh -c 'exec z3", "5");
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("cannot split the solver command"), "{err}");
    assert!(err.contains("missing closing quote"), "{err}");
    // Quoted words reach the program as one argument each.
    let (code, out, err) = with("sh -c 'exec z3 -in'", "5");
    assert_eq!(code, Some(0), "{out}{err}");
}

/// Issue 46: a program that never answers the SMT-LIB prologue (one that sleeps, and a script
/// that answers `unsat` to `check-sat` and nothing else) ends the run within the limit with
/// exit 2, whatever `--jobs` is, and leaves no process behind. With `--jobs 2` the second
/// solver's start used to wait behind the first on the one thread that starts solvers, past
/// its watchdog, and then ran with no limit at all: gpug hung. The bound on the wall time is
/// the limit plus 1 s for clang and the start, and 2 s more for a loaded machine: the test is
/// of the hang, not of gpug's speed.
#[test]
fn a_silent_solver_ends_the_run_within_the_limit_for_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("unsat_only.sh");
    std::fs::write(
        &script,
        "while IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) echo unsat;;\n  esac\ndone\n",
    )
    .unwrap();
    let sleeper = format!("sleep 94.{}", std::process::id());
    let commands = [
        (format!("sh -c 'exec {sleeper}'"), sleeper.clone()),
        (format!("/bin/sh {}", script.display()), script.display().to_string()),
    ];
    for (cmd, marker) in &commands {
        for jobs in ["1", "2", "4"] {
            let t = Instant::now();
            let (code, out, err) = run(&[
                "--solver-cmd",
                cmd,
                "--timeout",
                "2",
                "--jobs",
                jobs,
                "--blockDim=256",
                "--gridDim=64",
                "examples/reduce_nobarrier.cu",
            ]);
            let took = t.elapsed();
            assert_eq!(code, Some(2), "{cmd}, --jobs {jobs}: {out}{err}");
            assert!(
                err.contains("did not answer the SMT-LIB prologue"),
                "{cmd}, --jobs {jobs}: {err}"
            );
            assert!(took < Duration::from_secs(5), "{cmd}, --jobs {jobs}: took {took:?}");
            assert!(gone(marker), "{cmd}, --jobs {jobs}: `{marker}` was left running");
        }
    }
}

/// A solver that answers `sat` and then a model it never finishes: that query is
/// inconclusive (exit 3) with the reason, and the run's other queries are not asked, so the
/// run costs one `--timeout`, not one per query (`reduce_nobarrier` has three; `--jobs 1`: one
/// process asks them in turn).
#[test]
fn a_solver_that_gives_no_readable_model_is_not_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbage.sh");
    std::fs::write(
        &path,
        "while IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) echo sat;;\n    *get-value*) echo '((x #b1 garbage';;\n    *) echo success;;\n  esac\ndone\n",
    )
    .unwrap();
    let cmd = format!("/bin/sh {}", path.display());
    let t = Instant::now();
    let (code, out, err) = run(&[
        "--solver-cmd",
        &cmd,
        "--timeout",
        "2",
        "--jobs",
        "1",
        "--blockDim=256",
        "--gridDim=64",
        "examples/reduce_nobarrier.cu",
    ]);
    let took = t.elapsed();
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(
        out.contains("the solver answered sat, then no readable model within 2 s"),
        "{out}"
    );
    assert_eq!(out.matches("(not asked again)").count(), 2, "{out}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

/// gpug on `files` (`examples/vector_add.cu` when empty) with the solver `cmd`, returned once a
/// process whose command line contains `marker` (what the fake solver runs at `check-sat`) is
/// running.
fn gpug_asking(cmd: &str, marker: &str, files: &[&str]) -> std::process::Child {
    let files = if files.is_empty() {
        &["examples/vector_add.cu"][..]
    } else {
        files
    };
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_gpug"))
        .current_dir(common::root())
        .args(["--solver-cmd", cmd, "--blockDim=64", "--gridDim=1"])
        .args(files)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start gpug");
    let t = Instant::now();
    while !running(marker) {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "`{marker}`: the solver never got a query"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

/// SIGINT, SIGTERM or SIGHUP while a solver is answering: gpug exits with 130 and leaves no
/// solver process behind (the fake solver's `sleep`, a child of its shell, included).
#[test]
fn a_signal_leaves_no_solver_behind() {
    let dir = tempfile::tempdir().unwrap();
    for (i, sig) in ["INT", "TERM", "HUP"].iter().enumerate() {
        let marker = format!("sleep 96.{}{i}", std::process::id());
        let cmd = fake_solver(dir.path(), &format!("slow{i}"), &marker);
        let mut child = gpug_asking(&cmd, &marker, &[]);
        let killed = std::process::Command::new("kill")
            .args([format!("-{sig}"), child.id().to_string()])
            .status()
            .expect("kill");
        assert!(killed.success());
        let status = child.wait().expect("gpug ends");
        assert_eq!(status.code(), Some(130), "{sig}");
        assert!(gone(&marker), "{sig}: `{marker}` was left running");
    }
}

/// A run over many files with two at once: SIGINT leaves neither file's solver behind.
#[test]
fn a_signal_during_a_parallel_run_leaves_no_solver_behind() {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("sleep 95.{}", std::process::id());
    let cmd = fake_solver(dir.path(), "slow_jobs", &marker);
    let files = ["--jobs", "2", "examples/vector_add.cu", "examples/reduce.cu"];
    let mut child = gpug_asking(&cmd, &marker, &files);
    // Both workers reach their solver's check-sat.
    let t = Instant::now();
    while count_running(&marker) < 2 && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(count_running(&marker), 2, "two files at once");
    let killed = std::process::Command::new("kill")
        .args(["-INT".to_string(), child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = child.wait().expect("gpug ends");
    assert_eq!(status.code(), Some(130));
    assert!(gone(&marker), "`{marker}` was left running");
}

/// SIGKILL of gpug, which no handler sees, takes its solver with it: the solver is started
/// with `PR_SET_PDEATHSIG` (through `setpriv`, where util-linux has it). The fake solver
/// `exec`s `sleep` at its first `check-sat`, in its own process.
#[test]
fn sigkill_of_gpug_leaves_no_solver_behind() {
    if !std::path::Path::new("/usr/bin/setpriv").exists() && !std::path::Path::new("/bin/setpriv").exists() {
        eprintln!("skipped: no setpriv (util-linux) on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("sleep 98.{}", std::process::id());
    let cmd = fake_solver(dir.path(), "slowkill", &format!("exec {marker}"));
    let mut child = gpug_asking(&cmd, &marker, &[]);
    child.kill().expect("SIGKILL gpug");
    child.wait().expect("gpug ends");
    assert!(gone(&marker), "`{marker}` was left running after SIGKILL of gpug");
}

/// A solver that dies during a query (here: a line on stderr, then exit 134, or killed by a
/// signal) makes the verdict inconclusive, exit 3, quoting its last line; it is not an error.
#[test]
fn solver_that_dies_makes_the_verdict_inconclusive() {
    let dir = tempfile::tempdir().unwrap();
    for at_check in [
        "echo 'fatal: out of memory' >&2; exit 134",
        "echo 'fatal: out of memory' >&2; kill -ABRT $$",
    ] {
        let cmd = fake_solver(dir.path(), "dies", at_check);
        let (code, out, err) = run(&[
            "--solver-cmd",
            &cmd,
            "--blockDim=64",
            "--gridDim=1",
            "examples/vector_add.cu",
        ]);
        assert_eq!(code, Some(3), "{at_check}: {out}{err}");
        assert!(out.starts_with("vector_add: inconclusive"), "{out}");
        assert!(
            out.contains("the solver failed during the query: fatal: out of memory"),
            "{out}"
        );
        assert!(err.is_empty(), "{err}");
    }
}

/// A solver that answers `(error …)` at `(check-sat)` (z3's `push canceled` after a timeout)
/// makes the verdict inconclusive, exit 3, quoting the error.
#[test]
fn solver_error_answer_makes_the_verdict_inconclusive() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = fake_solver(dir.path(), "canceled", "echo '(error \"push canceled\")'");
    let (code, out, err) = run(&[
        "--solver-cmd",
        &cmd,
        "--json",
        "--blockDim=64",
        "--gridDim=1",
        "examples/vector_add.cu",
    ]);
    assert_eq!(code, Some(3), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let k = &v["kernels"][0];
    assert_eq!(k["verdict"], "inconclusive", "{out}");
    let reasons: Vec<&str> = k["inconclusive"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r.as_str())
        .collect();
    assert!(!reasons.is_empty(), "{out}");
    assert!(
        reasons
            .iter()
            .all(|r| r.ends_with("the solver failed during the query: (error \"push canceled\")")),
        "{reasons:?}"
    );
}

#[test]
fn gpuverify_flags_are_accepted_with_a_note() {
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--blockDim=256",
        "--gridDim=64",
        "--no-inline",
        "--boogie-file=x.bpl",
        "examples/vector_add.cu",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("vector_add: verified"), "{out}");
    // `--no-inline` is gpug's `--modular` (the file has no device function to check on its own).
    assert!(!err.contains("--no-inline"), "{err}");
    assert!(!out.contains("checked on its own"), "{out}");
    assert!(err.contains("ignoring GPUVerify flag `--boogie-file=x.bpl`"), "{err}");
}

#[test]
fn racy_reduction_names_both_lines_threads_and_index() {
    let (code, out, _) = run(&[
        "--solver",
        "z3",
        "--json",
        "--blockDim=256",
        "--gridDim=64",
        "examples/reduce_nobarrier.cu",
    ]);
    assert_eq!(code, Some(1));
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let f = &v["kernels"][0]["findings"][0];
    assert_eq!(f["kind"], "race");
    assert_eq!(f["array"], "sdata");
    let acc = f["accesses"].as_array().expect("accesses");
    assert_eq!(acc.len(), 2);
    let mut kinds: Vec<&str> = acc.iter().map(|a| a["access"].as_str().unwrap_or("")).collect();
    kinds.sort();
    assert_eq!(kinds, ["read", "write"]);
    for a in acc {
        assert_eq!(a["line"], 15);
        assert_eq!(a["block"], acc[0]["block"], "shared memory races are within one block");
    }
    assert_ne!(acc[0]["thread"], acc[1]["thread"]);
    // The index both touch is consistent with the two threads: the writer writes
    // sdata[tid_w] and the reader reads sdata[tid_r + s] for a power of two s.
    let (w, r) = if acc[0]["access"] == "write" {
        (&acc[0], &acc[1])
    } else {
        (&acc[1], &acc[0])
    };
    let tw = w["thread"][0].as_u64().expect("thread");
    let tr = r["thread"][0].as_u64().expect("thread");
    assert_eq!(f["index"], format!("sdata[{tw}]"));
    assert!(tw > tr && (tw - tr).is_power_of_two(), "{f}");
}

#[test]
fn solvers_lists_the_registry() {
    let (code, out, _) = run(&["solvers"]);
    assert_eq!(code, Some(0));
    for name in ["z3", "cvc5", "yices", "bitwuzla"] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{out}");
    }
}

#[test]
fn loop_unwind_bounds_the_loop_and_says_so() {
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--loop-unwind=2",
        "--blockDim=64",
        "--gridDim=4",
        "examples/inter_iteration_race.cu",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("race on acc["), "{out}");
    assert!(out.contains("unwound 2 times and cut (--loop-unwind)"), "{out}");
    // Within one iteration there is no race to find.
    let (code, out, _) = run(&[
        "--solver",
        "z3",
        "--loop-unwind=1",
        "--blockDim=64",
        "--gridDim=4",
        "examples/inter_iteration_race.cu",
    ]);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn no_overflow_assumes_arithmetic_does_not_wrap() {
    let args = [
        "--solver",
        "z3",
        "--blockDim=64",
        "--gridDim=1",
        "tests/kernels/overflow.cu",
    ];
    // The race needs `n + 1` to wrap: listed apart with that condition (issue 53 item 4), a
    // defect under --strict.
    let (code, out, _) = run(&args);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("excluded by the launch contract (only when")
            && out.contains("`n + 1` (tests/kernels/overflow.cu:7:22)")
            && out.contains("write-write race on a[0]"),
        "{out}"
    );
    let mut strict = vec!["--strict"];
    strict.extend(args);
    let (code, out, _) = run(&strict);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("write-write race on a[0]"), "{out}");
    let mut with = vec!["--no-overflow"];
    with.extend(args);
    let (code, out, _) = run(&with);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("--no-overflow"), "{out}");
}

#[test]
fn assume_is_a_c_condition_checked_by_clang_in_the_kernel() {
    let file = "tests/kernels/assume_offset.cu";
    let launch = ["--solver", "z3", "--blockDim=256", "--gridDim=1", file];
    // Without the assumption thread t + n reads what thread t writes.
    let (code, out, _) = run(&launch);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("read-write race on a["), "{out}");
    // `n >= blockDim.x` alone still lets `threadIdx.x + n` wrap around 2^32: the race is
    // listed apart with that condition (issue 53 item 4), a defect under --strict.
    let with = |assume: &[&str]| {
        let mut args: Vec<&str> = launch.to_vec();
        for a in assume {
            args.extend(["--assume", a]);
        }
        run(&args)
    };
    let (code, out, _) = with(&["n >= blockDim.x"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("(only when `threadIdx.x + n` (tests/kernels/assume_offset.cu:6:7) wraps past 2^32"),
        "positions are the original file's: {out}"
    );
    let mut strict = vec!["--strict", "--assume", "n >= blockDim.x"];
    strict.extend(launch);
    let (code, out, _) = run(&strict);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("read-write race on a["), "{out}");
    let (code, out, err) = with(&["n >= blockDim.x", "n < 1000000"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("shift_copy: verified"), "{out}");
    // A name the kernel does not have is clang's error, at the original file.
    let (code, out, err) = with(&["m > 0"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("tests/kernels/assume_offset.cu:5:"), "{err}");
    assert!(err.contains("undeclared identifier 'm'"), "{err}");
    assert!(!err.contains("gpug-assume"), "{err}");
}

#[test]
fn write_to_constant_memory_is_a_defect_where_it_is_reached() {
    for s in ["z3", "cvc5", "yices"] {
        let (code, out, err) = run(&[
            "--solver",
            s,
            "--blockDim",
            "64",
            "--gridDim",
            "1",
            "tests/kernels/constant_write.cu",
        ]);
        assert_eq!(code, Some(1), "{s}: {out}{err}");
        assert!(out.contains("assertion may fail"), "{s}: {out}");
        // The write of `coeff` (line 13) is reached; that of `scale` (line 10) never is.
        assert!(
            out.contains("constant_write.cu:13:5: fails by thread (3, 0, 0)"),
            "{s}: {out}"
        );
        assert!(!out.contains("constant_write.cu:10:5: fails"), "{s}: {out}");
        assert!(out.contains("write to __constant__ `coeff`"), "{s}: {out}");
        assert!(!out.contains("race"), "{s}: {out}");
    }
}

#[test]
fn no_infer_keeps_only_the_given_invariants() {
    for s in ["z3", "cvc5", "yices"] {
        let base = ["--solver", s, "--blockDim", "64", "--gridDim", "1"];
        let (code, out, err) = run(&[&base[..], &["tests/kernels/no_infer.cu"]].concat());
        assert_eq!(code, Some(0), "{s}: {out}{err}");
        assert!(out.contains("triangle: verified"), "{s}: {out}");
        let (code, out, err) = run(&[&base[..], &["--no-infer", "tests/kernels/no_infer.cu"]].concat());
        assert_eq!(code, Some(1), "{s}: {out}{err}");
        assert!(
            out.contains(
                "possible loop invariant may not be preserved by an iteration\n    \
                 rests on the loop at line 7 (`x`, `y` arbitrary at its head)\n    \
                 tests/kernels/no_infer.cu:7:10: fails"
            ),
            "{s}: {out}"
        );
        assert!(!err.contains("ignoring GPUVerify flag"), "{s}: {err}");
    }
}

/// Issue 11: saxpy under a symbolic launch is verified for launches where the unused
/// dimensions are 1 and the x index does not wrap; the race of the other launches is listed
/// with its condition; `--strict` reports it. A kernel racy in every launch stays a defect.
#[test]
fn launch_contract_excludes_only_races_of_launches_outside_it() {
    let (code, out, err) = run(&["--solver", "z3", "--json", "examples/saxpy_contract.cu"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["verdict"], "verified", "{out}");
    let contract: Vec<&str> = k["contract"]
        .as_array()
        .expect("contract")
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    for c in [
        "blockDim.y = 1",
        "blockDim.z = 1",
        "gridDim.y = 1",
        "gridDim.z = 1",
        "gridDim.x * blockDim.x <= 2^32",
    ] {
        assert!(contract.contains(&c), "{c} missing from {contract:?}");
    }
    assert!(
        !contract
            .iter()
            .any(|c| c.starts_with("blockDim.x") || c.starts_with("gridDim.x =")),
        "{contract:?}"
    );
    // Every racing pair of `y` (issue 53 item 5: the write against the read of line 16, and
    // the write against itself), each excluded with its condition.
    let excluded = k["excluded"].as_array().expect("excluded");
    let mut columns = std::collections::BTreeSet::new();
    for e in excluded {
        assert_eq!(e["array"], "y", "{out}");
        assert!(e["condition"].as_str().unwrap_or("").starts_with("only when"), "{out}");
        let col = |i: usize| e["accesses"][i]["col"].as_u64().expect("col");
        columns.insert((col(0).min(col(1)), col(0).max(col(1))));
    }
    assert_eq!(excluded.len(), 2, "{out}");
    assert_eq!(columns, std::collections::BTreeSet::from([(9, 9), (9, 27)]), "{out}");

    let (code, out, _) = run(&["--solver", "z3", "--strict", "examples/saxpy_contract.cu"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("read-write race on y["), "{out}");

    let (code, out, _) = run(&["--solver", "z3", "--json", "examples/pairs_race_symbolic.cu"]);
    assert_eq!(code, Some(1), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["kernels"][0]["contract"].as_array().map(Vec::len), Some(0), "{out}");
}

/// Issue 11, parameter relations: a kernel racy only when `n` is not a multiple of
/// `blockDim.x` stays a defect (relations are never assumed), its race carries the condition,
/// and the report suggests the `--assume` that gpug checked verifies it; with that `--assume`
/// the kernel is verified. A finding racy in every launch gets no suggestion.
#[test]
fn launch_contract_suggests_a_checked_parameter_relation() {
    let (code, out, err) = run(&["--solver", "z3", "--json", "examples/tail_multiple.cu"]);
    assert_eq!(code, Some(1), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["verdict"], "defect", "{out}");
    assert_eq!(k["suggestions"], serde_json::json!(["n % blockDim.x == 0"]), "{out}");
    assert_eq!(k["findings"][0]["condition"], "only when n % blockDim.x != 0", "{out}");
    assert_eq!(k["contract"].as_array().map(Vec::len), Some(0), "{out}");

    let (code, out, _) = run(&["--solver", "z3", "examples/tail_multiple.cu"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("suggestion: verified with --assume 'n % blockDim.x == 0'"),
        "{out}"
    );

    let (code, out, _) = run(&[
        "--solver",
        "z3",
        "--assume",
        "n % blockDim.x == 0",
        "examples/tail_multiple.cu",
    ]);
    assert_eq!(code, Some(0), "{out}");

    let (_, out, _) = run(&["--solver", "z3", "--json", "examples/pairs_race_symbolic.cu"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["kernels"][0]["suggestions"], serde_json::json!([]), "{out}");
    assert!(v["kernels"][0]["findings"][0].get("condition").is_none(), "{out}");
}

/// Issue 11: in a kernel with a race of every launch and a race of 2-D launches only, the
/// first is the defect and the second is listed apart with the launches it needs; `--strict`
/// reports both.
#[test]
fn launch_contract_lists_races_of_other_launches_beside_a_defect() {
    let (code, out, err) = run(&["--solver", "z3", "--json", "examples/mixed_contract.cu"]);
    assert_eq!(code, Some(1), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let k = &v["kernels"][0];
    let arrays = |key: &str| -> Vec<String> {
        k[key]
            .as_array()
            .expect(key)
            .iter()
            .map(|f| f["array"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(arrays("findings"), ["out"], "{out}");
    assert_eq!(arrays("excluded"), ["counts"], "{out}");
    let condition = k["excluded"][0]["condition"].as_str().unwrap_or("");
    assert!(
        condition.contains("a launch dimension the kernel never reads is above 1"),
        "{condition}"
    );

    let (code, out, _) = run(&["--solver", "z3", "--json", "--strict", "examples/mixed_contract.cu"]);
    assert_eq!(code, Some(1), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let mut found: Vec<&str> = v["kernels"][0]["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["array"].as_str())
        .collect();
    found.sort();
    assert_eq!(found, ["counts", "out"], "{out}");
}

/// Issue 11: the parameter relations asked are those of parameters that meet the x dimension
/// in a guard or an index: in `m[col * width + row]` guarded by `col < width && row < height`,
/// `width` meets x (through `col`) and `height` only y, so `width % blockDim.x == 0` may be
/// asked (`--explain` lists it when the witness does not already satisfy it) and
/// `height % blockDim.x == 0` never is. The race stays, with no suggestion.
#[test]
fn launch_contract_relations_follow_the_dimensions_parameters_meet() {
    let (code, out, err) = run(&[
        "--solver",
        "yices",
        "--explain",
        "--no-overflow",
        "--blockDim=[*,*,1]",
        "--gridDim=[*,*,1]",
        "examples/matrix_2d_symbolic_transposed.cu",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(!out.contains("height % blockDim"), "{out}");
    assert!(!out.contains("height <= gridDim"), "{out}");
    assert!(!out.contains("suggestion:"), "{out}");
}

/// GPUVerify's benign write-write races: every thread writing `flag[0] = 1` is a note, not a
/// defect; `--no-benign` and `--strict` report it as a race; a value copied from memory is
/// benign only with `--equality-abstraction`; writes of different values (two branches, or a
/// value that depends on the thread) stay races.
#[test]
fn benign_write_write_race_is_a_note_unless_no_benign_or_strict() {
    let launch = ["--solver", "z3", "--blockDim=64", "--gridDim=4"];
    let with = |extra: &[&str], file: &str| {
        let mut args = launch.to_vec();
        args.extend_from_slice(extra);
        args.push(file);
        run(&args)
    };
    let (code, out, err) = with(&[], "examples/benign_flag.cu");
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.starts_with("scale_and_flag: verified\n"), "{out}");
    assert!(
        out.contains("  note: benign write-write race on flag[0]: threads (")
            && out.contains(
                "both write the same value at examples/benign_flag.cu:16:5 (--no-benign reports it as a race)"
            ),
        "{out}"
    );
    assert!(!err.contains("ignoring GPUVerify flag"), "{err}");

    let (code, out, _) = with(&["--json"], "examples/benign_flag.cu");
    assert_eq!(code, Some(0), "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["verdict"], "verified", "{out}");
    assert_eq!(k["findings"].as_array().map(Vec::len), Some(0), "{out}");
    let benign = k["benign"].as_array().expect("benign");
    assert_eq!(benign.len(), 1, "{out}");
    assert_eq!(benign[0]["kind"], "race");
    assert_eq!(benign[0]["race"], "write-write");
    assert_eq!(benign[0]["index"], "flag[0]");
    assert_eq!(benign[0]["accesses"][0]["line"], 16);

    for flag in ["--no-benign", "--strict"] {
        let (code, out, err) = with(&[flag], "examples/benign_flag.cu");
        assert_eq!(code, Some(1), "{flag}: {out}{err}");
        assert!(out.contains("write-write race on flag[0]"), "{flag}: {out}");
        assert!(!out.contains("note: benign"), "{flag}: {out}");
        assert!(!err.contains("ignoring GPUVerify flag"), "{flag}: {err}");
    }

    // A value read from memory: benign only with --equality-abstraction.
    let (code, out, _) = with(&[], "tests/kernels/benign_copy.cu");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("write-write race on out[0]"), "{out}");
    let (code, out, err) = with(&["--equality-abstraction"], "tests/kernels/benign_copy.cu");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("note: benign write-write race on out[0]"), "{out}");
    assert!(!err.contains("ignoring GPUVerify flag"), "{err}");

    for (file, lines) in [
        ("tests/kernels/benign_two_values.cu", [7, 9]),
        ("tests/kernels/benign_parity.cu", [5, 5]),
    ] {
        let (code, out, _) = with(&["--json"], file);
        assert_eq!(code, Some(1), "{file}: {out}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let k = &v["kernels"][0];
        assert_eq!(k["benign"].as_array().map(Vec::len), Some(0), "{file}: {out}");
        let f = &k["findings"][0];
        assert_eq!(f["race"], "write-write", "{file}: {out}");
        let mut got: Vec<u64> = f["accesses"]
            .as_array()
            .expect("accesses")
            .iter()
            .filter_map(|a| a["line"].as_u64())
            .collect();
        got.sort();
        assert_eq!(got, lines, "{file}: {out}");
    }
}

/// Vacuity before verdicts: relations that contradict the kernel's `__requires` (here
/// `blockDim.x == 64` and "a power of two" against `blockDim.x == 100`) would verify anything;
/// gpug checks that the relations it suggests can hold with the kernel's requirements, so the
/// race stays a defect with no condition and no suggestion.
#[test]
fn launch_contract_never_suggests_relations_that_contradict_the_kernel() {
    let (code, out, err) = run(&["--solver", "z3", "--json", "tests/kernels/relation_vacuous.cu"]);
    assert_eq!(code, Some(1), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["suggestions"], serde_json::json!([]), "{out}");
    let s_race = k["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["array"] == "s")
        .unwrap_or_else(|| panic!("no race on s: {out}"));
    assert!(s_race.get("condition").is_none(), "{out}");
}

/// Vacuity before verdicts, for the standard launch assumptions: `blockDim.y = 1` contradicts
/// the kernel's `__requires(blockDim.y == 2)`, so it must not yield "verified for launches
/// where blockDim.y = 1" for a kernel that races in every launch it allows.
#[test]
fn launch_contract_is_never_vacuous() {
    let (code, out, err) = run(&["--solver", "z3", "--json", "tests/kernels/contract_vacuous.cu"]);
    assert_eq!(code, Some(1), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let k = &v["kernels"][0];
    assert_eq!(k["verdict"], "defect", "{out}");
    assert_eq!(k["contract"], serde_json::json!([]), "{out}");
    assert_eq!(k["findings"][0]["array"], "out", "{out}");
}

/// Issue 21 with issue 11: under a launch left symbolic, the witness is first sought in the
/// launches of the contracts' vocabulary (the standard assumptions and the parameter
/// relations), so a race that has one there costs the contracts no re-verification: the
/// transposed 2-D kernel's witness has `width % blockDim.x == 0`, and no query is asked
/// under a contract or an `--assume`.
#[test]
fn symbolic_witness_lies_in_the_preferred_launches() {
    for solver in ["z3", "yices"] {
        let (code, out, err) = run(&[
            "--solver",
            solver,
            "--json",
            "--explain",
            "--no-overflow",
            "--blockDim=[*,*,1]",
            "--gridDim=[*,*,1]",
            "examples/matrix_2d_symbolic_transposed.cu",
        ]);
        assert_eq!(code, Some(1), "{out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let k = &v["kernels"][0];
        let f = &k["findings"][0];
        let num = |x: &serde_json::Value| -> i64 {
            x.as_str()
                .map_or_else(|| x.as_i64().expect("a number"), |s| s.parse().expect("a number"))
        };
        let (width, height) = (num(&f["params"]["width"]), num(&f["params"]["height"]));
        let block = num(&f["geometry"]["blockDim.x"]);
        assert_eq!(width % block, 0, "{out}");
        assert!(width >= 1 && height >= 1, "{out}");
        let answers = k["answers"].as_array().expect("answers");
        assert!(
            answers.iter().all(|a| a
                .as_str()
                .is_some_and(|a| !a.starts_with("contract") && !a.starts_with("--assume"))),
            "{out}"
        );
        assert_eq!(k["suggestions"], serde_json::json!([]), "{out}");
    }
}

/// Issue 22 item 4: a fixed launch beyond CUDA's limits is a usage error naming the limit,
/// for every command.
#[test]
fn launches_beyond_cuda_limits_are_refused() {
    for (flag, limit) in [
        (
            "--blockDim=2048",
            "blockDim.x = 2048 is above CUDA's limit of 1024 threads per block in x",
        ),
        (
            "--blockDim=[32,32,2]",
            "a block of 2048 threads is above CUDA's limit of 1024 threads per block",
        ),
        (
            "--blockDim=[1,1,128]",
            "blockDim.z = 128 is above CUDA's limit of 64 threads per block in z",
        ),
        (
            "--gridDim=[1,70000,1]",
            "gridDim.y = 70000 is above CUDA's limit of 65535 blocks in y",
        ),
        (
            "--blockDim=[*,64,32]",
            "a block of 2048 threads is above CUDA's limit of 1024 threads per block",
        ),
    ] {
        let (code, out, err) = run(&["--solver", "z3", flag, "examples/reduce.cu"]);
        assert_eq!(code, Some(2), "{flag}: {out}{err}");
        assert!(err.contains(limit), "{flag}: {err}");
    }
    let (code, _, err) = run(&["check", "--blockDim=2048", "--gridDim=1", "examples/reduce.cu"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("above CUDA's limit"), "{err}");
    let (code, _, err) = run(&["bank", "--blockDim=[64,64]", "examples/reduce.cu"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a block of 4096 threads"), "{err}");
    // At the limits, a launch is accepted.
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--blockDim=1024",
        "--gridDim=2147483647",
        "examples/reduce.cu",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
}

/// Issue 12: a full-mask `__syncwarp()` that some lanes of a warp skip is barrier divergence
/// (the lanes of one warp only: threads 16 and 0), and it orders nothing for the other warp.
#[test]
fn syncwarp_reached_by_part_of_a_warp_is_divergence() {
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--json",
        "--blockDim=64",
        "--gridDim=1",
        "tests/kernels/syncwarp_divergence.cu",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let findings = v["kernels"][0]["findings"].as_array().expect("findings");
    let div = findings.iter().find(|f| f["kind"] == "divergence").expect("divergence");
    let lanes: Vec<u64> = div["accesses"]
        .as_array()
        .expect("accesses")
        .iter()
        .map(|a| a["thread"][0].as_u64().expect("x"))
        .collect();
    assert!(lanes.iter().all(|t| *t < 32), "one warp: {out}");
    assert!(lanes.iter().any(|t| *t < 16) && lanes.iter().any(|t| *t >= 16), "{out}");
}

/// Issue 12 item 1: `__syncthreads_count`, `_or` and `_and` are block barriers (with a value
/// the pair model does not model, said in a note; `gpug check` computes it): the kernel reads
/// neighbours' writes only across them.
#[test]
fn syncthreads_with_a_value_is_a_barrier() {
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--blockDim=64",
        "--gridDim=1",
        "tests/kernels/syncthreads_value.cu",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("`__syncthreads_count`") && out.contains("is a block barrier"),
        "{out}"
    );
}

/// Issue 12 item 1: cooperative groups named through a namespace alias (a reference
/// parameter's `const cg::thread_block &` is not desugared by clang), and tiles of 32: the
/// tile's `sync()` orders its lanes, and its ranks are exact.
#[test]
fn cooperative_group_tiles_of_a_warp_synchronise() {
    let (code, out, err) = run(&[
        "--solver",
        "z3",
        "--blockDim=256",
        "--gridDim=1",
        "tests/kernels/cg_tiles.cu",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("tiles: verified"), "{out}");
}

/// `gpug DIR`: every `.cu` file in name order with its header's flags, each report, then the
/// table; the exit code is 1 when a kernel has a defect, else 2 for a file in error, else 3
/// or 0. `--shard I/N` takes every N-th file from the I-th; `--json` prints an object a file.
#[test]
fn a_directory_is_verified_file_by_file_with_a_table() {
    let dir = "tests/kernels/batch";
    let (code, out, err) = run(&["--solver", "z3", dir]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("scale: verified"), "{out}");
    assert!(out.contains("read-write race on a["), "{out}");
    let table: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("file ")).collect();
    assert_eq!(table.len(), 5, "{out}");
    let cells = |l: &str| l.split_whitespace().take(3).map(String::from).collect::<Vec<_>>();
    assert_eq!(
        cells(table[1]),
        [format!("{dir}/a_verified.cu"), "scale".into(), "verified".into()]
    );
    assert_eq!(
        cells(table[2]),
        [format!("{dir}/b_race.cu"), "shift".into(), "defect".into()]
    );
    assert_eq!(
        cells(table[3]),
        [format!("{dir}/c_bad_flag.cu"), "-".into(), "error".into()]
    );
    assert!(table[3].contains("--frobnicate"), "{out}");
    assert!(
        table[4].starts_with("3 files, 2 kernels: 1 verified, 1 defect, 0 inconclusive; 1 files with an error"),
        "{out}"
    );
    assert!(err.contains("c_bad_flag.cu: error: "), "{err}");
    // Shards: the first file alone verifies; the third alone is an input error.
    for (shard, want) in [("1/3", 0), ("2/3", 1), ("3/3", 2)] {
        let (code, out, err) = run(&["--solver", "z3", "--shard", shard, dir]);
        assert_eq!(code, Some(want), "{shard}: {out}{err}");
        assert!(out.contains("1 files, "), "{shard}: {out}");
    }
    // The command line's flags win over the header's: without the shift there is no race.
    let (code, out, err) = run(&["--solver", "z3", "-DSHIFT=0", "--shard", "2/3", dir]);
    assert_eq!(code, Some(0), "{out}{err}");
    // JSON lines: one object a file, with its time and solver, or its error.
    let (code, out, err) = run(&["--solver", "z3", "--json", dir]);
    assert_eq!(code, Some(1), "{out}{err}");
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(objects.len(), 3, "{out}");
    assert_eq!(objects[0]["kernels"][0]["verdict"], "verified");
    assert_eq!(objects[0]["solver"], "z3");
    assert!(objects[0]["seconds"].as_f64().is_some(), "{out}");
    assert_eq!(objects[1]["kernels"][0]["verdict"], "defect");
    assert!(
        objects[2]["error"].as_str().is_some_and(|e| e.contains("--frobnicate")),
        "{out}"
    );
}

/// `--jobs 2` verifies two files at once, and prints the same reports in the same order as
/// `--jobs 1`: every example's verdicts and witnesses, and the table's verdicts. With yices,
/// which answers every example in seconds, far within `--timeout`: a query that z3 4.8.12
/// answers near the limit on a loaded machine could be undecided in one run and not in the
/// other, and a report that depends on the machine's load is not what this test is about
/// (issue 46; no budget of gpug's own is a time since issue 53, item 3).
#[test]
fn parallel_and_sequential_runs_report_the_same() {
    let (code1, out1, err1) = run(&["--solver", "yices", "--jobs", "1", "examples"]);
    let (code2, out2, err2) = run(&["--solver", "yices", "--jobs", "2", "examples"]);
    assert_eq!(code1, Some(1), "{err1}");
    assert_eq!(code1, code2, "{err2}");
    let split = |out: &str| {
        let (reports, table) = out.split_at(out.find("\nfile ").expect("a table"));
        // The table without its times (the last line's total and each row's time).
        let rows: Vec<Vec<String>> = table
            .lines()
            .map(|l| {
                l.split_whitespace()
                    .filter(|w| w.strip_suffix('s').is_none_or(|n| n.parse::<f64>().is_err()))
                    .map(String::from)
                    .collect()
            })
            .collect();
        (reports.to_string(), rows)
    };
    let (r1, t1) = split(&out1);
    let (r2, t2) = split(&out2);
    assert!(r1.contains("reduce: verified"), "{r1}");
    assert_eq!(r1, r2);
    assert_eq!(t1, t2);
}

/// One file's queries on two solver processes (`--jobs 2`) give the same report as on one
/// (`--jobs 1`): every example's verdicts, witnesses and notes (a witness is the model of a
/// fresh process, whatever the session answered before). With yices, for the reason
/// [`parallel_and_sequential_runs_report_the_same`] gives.
#[test]
fn a_kernels_queries_on_several_processes_report_the_same() {
    let mut examples: Vec<std::path::PathBuf> = std::fs::read_dir(common::root().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    examples.sort();
    assert!(examples.len() >= 40);
    for path in examples {
        let file = format!("examples/{}", path.file_name().unwrap().to_string_lossy());
        let mut args: Vec<String> = common::example_flags(&path);
        args.extend(["--solver".into(), "yices".into(), file.clone()]);
        let with = |jobs: &str| {
            let mut a = args.clone();
            a.extend(["--jobs".into(), jobs.into()]);
            let out = gpug(&a);
            (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
        };
        let (c1, o1) = with("1");
        let (c2, o2) = with("2");
        assert_eq!((c1, &o1), (c2, &o2), "{file}");
    }
}

/// A portfolio with a solver that answers `unsat` to everything (a liar) and an honest one:
/// on a racy kernel the two disagree, so the verdict is inconclusive (exit 3), naming both,
/// with the query written as a script; the liar alone would have called the kernel verified.
#[test]
fn a_lying_solver_in_a_portfolio_makes_a_race_inconclusive() {
    let dir = tempfile::tempdir().unwrap();
    let liar = fake_solver(dir.path(), "liar", "echo unsat");
    let dump = dir.path().join("dump");
    let racy = ["--blockDim=64", "--gridDim=1", "examples/write_write_race.cu"];
    let (code, out, err) = run(&[&["--solver-cmd", &liar][..], &racy].concat());
    assert_eq!(code, Some(0), "the liar alone verifies a racy kernel: {out}{err}");
    let dump_arg = dump.display().to_string();
    let args = [
        &["--solver", "z3", "--solver-cmd", &liar, "--dump-smt2", &dump_arg][..],
        &racy,
    ]
    .concat();
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(
        out.contains("the solvers disagree (z3 answered sat, liar.sh unsat)"),
        "{out}"
    );
    let written: Vec<String> = std::fs::read_dir(&dump)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(written.iter().any(|f| f.ends_with(".disagreement.smt2")), "{written:?}");
}

/// A portfolio of z3 and a solver that never answers: z3's answer stands when no second
/// opinion comes within the confirmation window (5 s), so each run ends long before the other
/// solver's 94 s or the 60 s limit: a defect on a racy kernel, verified on a race-free one. No
/// process of the slow solver outlives gpug.
#[test]
fn a_portfolio_kills_the_solvers_it_no_longer_needs() {
    let dir = tempfile::tempdir().unwrap();
    // A marker of its own: the tests of this binary run at once, and another one's sleeper
    // (`sleep 94.…`) may still be running when this one looks.
    let marker = format!("sleep 93.{}", std::process::id());
    let slow = fake_solver(dir.path(), "slow_portfolio", &marker);
    for (file, exit, says) in [
        ("examples/write_write_race.cu", 1, "write-write race"),
        ("examples/vector_add.cu", 0, "verified"),
    ] {
        let start = Instant::now();
        let args = [
            "--solver",
            "z3",
            "--solver-cmd",
            &slow,
            "--blockDim=64",
            "--gridDim=1",
            file,
        ];
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(exit), "{file}: {out}{err}");
        assert!(out.contains(says), "{out}");
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{file}: {:?}",
            start.elapsed()
        );
        assert!(gone(&marker), "{file}: `{marker}` was left running");
    }
}

/// `--solver z3,cvc5,yices` races the three: the verdicts are those of one solver, and the
/// report and JSON say which solvers answered.
#[test]
fn a_portfolio_names_the_solvers_that_answered() {
    let (code, out, err) = run(&[
        "--solver",
        "z3,cvc5,yices",
        "--blockDim=64",
        "--gridDim=1",
        "examples/write_write_race.cu",
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("answered by: "), "{out}");
    let (code, out, err) = run(&[
        "--solver",
        "z3,cvc5,yices",
        "--json",
        "--blockDim=256",
        "--gridDim=64",
        "examples/reduce.cu",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let by = v["kernels"][0]["answered_by"].as_object().expect("answered_by");
    assert!(!by.is_empty(), "{out}");
    assert!(
        by.keys()
            .all(|k| k.split('+').all(|s| ["z3", "cvc5", "yices"].contains(&s))),
        "{out}"
    );
}

/// SIGINT while a portfolio's solvers are all answering: gpug exits with 130 and leaves no
/// member behind.
#[test]
fn a_signal_leaves_no_portfolio_member_behind() {
    let dir = tempfile::tempdir().unwrap();
    let markers = [0, 1].map(|i| format!("sleep 92.{}{i}", std::process::id()));
    let cmds: Vec<String> = markers
        .iter()
        .enumerate()
        .map(|(i, m)| fake_solver(dir.path(), &format!("member{i}"), m))
        .collect();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gpug"))
        .current_dir(common::root())
        .args(["--solver-cmd", &cmds[0], "--solver-cmd", &cmds[1]])
        .args(["--blockDim=64", "--gridDim=1", "examples/vector_add.cu"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start gpug");
    let t = Instant::now();
    while !markers.iter().all(|m| running(m)) {
        assert!(t.elapsed() < Duration::from_secs(20), "the members never got a query");
        std::thread::sleep(Duration::from_millis(50));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT".to_string(), child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    assert_eq!(child.wait().expect("gpug ends").code(), Some(130));
    for m in &markers {
        assert!(gone(m), "`{m}` was left running");
    }
}

/// A query out of its limit kills the solver with its descendants: a wrapper's child (here
/// the `sleep` a script runs on `(check-sat)`) is not left running, orphaned. It was, once the
/// limit began to count a solver that uses no CPU time as stalled (stop 64's CI: the portfolio
/// test above found a member's `sleep` alive after the signal).
#[test]
fn a_query_out_of_its_limit_leaves_no_child_of_the_solver_behind() {
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("sleep 91.{}", std::process::id());
    let cmd = fake_solver(dir.path(), "sleeper", &marker);
    let (code, out, err) = run(&[
        "--solver-cmd",
        &cmd,
        "--timeout",
        "1",
        "--blockDim=64",
        "--gridDim=1",
        "examples/vector_add.cu",
    ]);
    assert_eq!(code, Some(3), "{out}{err}");
    assert!(out.contains("no answer within 1 s"), "{out}");
    assert!(gone(&marker), "`{marker}` was left running");
}

/// `--profile` (issue 56 item 2): the JSON names every query asked, with its seconds and its
/// answer, and the stages' seconds; the text report has the profile line with the slowest
/// queries. Without the flag there is no profile.
#[test]
fn profile_names_each_query_with_its_answer() {
    let args = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = ["--solver", "z3", "--blockDim=64", "--gridDim=4"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a.push("examples/reduce.cu".into());
        a
    };
    let out = gpug(&args(&["--profile", "--json"]));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let k = &json["kernels"][0];
    let queries = k["profile"]["queries"].as_array().cloned().unwrap_or_default();
    assert!(!queries.is_empty(), "{k}");
    for q in &queries {
        assert!(q["name"].as_str().is_some_and(|n| n.starts_with("reduce.")), "{q}");
        assert!(q["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{q}");
        assert!(matches!(q["answer"].as_str(), Some("sat" | "unsat")), "{q}");
    }
    assert!(k["profile"]["encoding_s"].as_f64().is_some(), "{k}");
    let text = String::from_utf8_lossy(&gpug(&args(&["--profile"])).stdout).into_owned();
    assert!(text.contains("  profile: passes "), "{text}");
    let plain = String::from_utf8_lossy(&gpug(&args(&["--json"])).stdout).into_owned();
    assert!(!plain.contains("\"profile\""), "{plain}");
}

/// On a terminal (here a pseudo-terminal from util-linux's `script`), a spinner on stderr
/// names the kernel and the query being asked, and each kernel's report is printed as soon as
/// it is decided: the reports are the same text as the report printed to a pipe (issue 56
/// item 3).
#[test]
fn a_terminal_shows_the_query_asked_and_each_report_as_it_comes() {
    let file = "examples/reduce.cu";
    let piped = gpug(&["--jobs".into(), "1".into(), "--solver".into(), "z3".into(), file.into()]);
    let piped = String::from_utf8_lossy(&piped.stdout).to_string();
    let bin = env!("CARGO_BIN_EXE_gpug");
    let out = std::process::Command::new("script")
        .args(["-qec", &format!("{bin} --jobs 1 --solver z3 {file}"), "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("util-linux's script runs");
    let raw = String::from_utf8_lossy(&out.stdout).to_string();
    // The terminal's text: escape sequences out, each line as its last carriage return left it.
    let mut clean = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            clean.push(c);
        }
    }
    let lines: Vec<&str> = clean
        .split('\n')
        .map(|l| l.rsplit('\r').find(|p| !p.is_empty()).unwrap_or(""))
        .collect();
    let spinner = |l: &str| l.contains("] reduce: ");
    assert!(
        clean.contains("] reduce: race.sdata"),
        "no progress line naming the kernel and its query:\n{clean}"
    );
    let report: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !spinner(l) && !l.trim().is_empty())
        .map(str::trim_end)
        .collect();
    let expected: Vec<&str> = piped
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::trim_end)
        .collect();
    assert_eq!(report, expected, "terminal:\n{clean}");
}
