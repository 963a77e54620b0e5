//! Solver tests: sessions, deadlines, dumps and error recovery with z3, cvc5 and yices, and the
//! pid of each session's own process (a timed-out session kills exactly its process).

use super::*;
use num_bigint::BigUint;
use std::time::{Duration, Instant};

fn a(s: &str) -> Sexp {
    Sexp::atom(s)
}

fn app(op: &str, args: Vec<Sexp>) -> Sexp {
    Sexp::app(op, args)
}

fn bv(v: u64, w: u32) -> Sexp {
    Sexp::bv(&BigUint::from(v), w)
}

fn big(v: u64) -> BigUint {
    BigUint::from(v)
}

/// z3, cvc5 and yices where installed; the others are reported as skipped.
fn solvers() -> Vec<SolverSpec> {
    let mut v = vec![];
    for name in ["z3", "cvc5", "yices"] {
        match by_name(name) {
            Ok(s) => v.push(s),
            Err(e) => eprintln!("skipped {name}: {e}"),
        }
    }
    v
}

fn query(name: &str, assertions: Vec<Sexp>, get_values: Vec<Sexp>) -> Query {
    Query {
        unpinned: 0,
        name: name.to_string(),
        assertions,
        get_values,
    }
}

fn bv32_script() -> Script {
    Script {
        probes: Vec::new(),
        logic: "QF_AUFBV".to_string(),
        commands: vec![
            Command::DeclareConst {
                name: "x".to_string(),
                sort: Sexp::bv_sort(32),
            },
            Command::DefineConst {
                name: "one".to_string(),
                sort: Sexp::bv_sort(32),
                value: bv(1, 32),
            },
            Command::Assert(app("bvult", vec![a("x"), bv(0x10, 32)])),
        ],
    }
}

fn session(spec: &SolverSpec, script: &Script, timeout: Option<Duration>) -> Session {
    Session::new(
        spec,
        &std::sync::Arc::new(script.clone()),
        SessionOptions {
            timeout,
            dump_dir: None,
            dump_source: None,
            watch: None,
            eager: false,
            one_shot: false,
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e}", spec.name))
}

fn eq(l: Sexp, r: Sexp) -> Sexp {
    app("=", vec![l, r])
}

#[test]
fn sat_returns_values_in_order() {
    for spec in solvers() {
        let mut s = session(&spec, &bv32_script(), Some(Duration::from_secs(10)));
        // `((_ extract 2 0) x)`: a list whose head is itself a list.
        let extract = Sexp::list(vec![Sexp::list(vec![a("_"), a("extract"), a("2"), a("0")]), a("x")]);
        let q = query(
            "sat",
            vec![eq(app("bvadd", vec![a("x"), a("one")]), bv(5, 32))],
            vec![app("bvult", vec![a("x"), bv(2, 32)]), a("x"), extract],
        );
        let ans = s.check(&q).unwrap();
        let Answer::Sat(vals) = ans else {
            panic!("{}: {ans:?}", spec.name)
        };
        assert_eq!(vals.len(), 3, "{}", spec.name);
        assert_eq!(vals[0].as_bool(), Some(false), "{}: {vals:?}", spec.name);
        assert_eq!(vals[1].as_bv(), Some(big(4)), "{}: {vals:?}", spec.name);
        assert_eq!(vals[2].as_bv(), Some(big(4)), "{}: {vals:?}", spec.name);
    }
}

#[test]
fn unsat_and_push_pop_isolation() {
    for spec in solvers() {
        let mut s = session(&spec, &bv32_script(), Some(Duration::from_secs(10)));
        // Contradicts the script's `x < 16`.
        let q = query("unsat", vec![eq(a("x"), bv(0x20, 32))], vec![a("x")]);
        assert_eq!(s.check(&q).unwrap(), Answer::Unsat, "{}", spec.name);
        // Each query's assertions are popped: x = 1, then x = 2, then x = 1 again.
        for v in [1u64, 2, 1] {
            let q = query("iso", vec![eq(a("x"), bv(v, 32))], vec![a("x")]);
            match s.check(&q).unwrap() {
                Answer::Sat(vals) => assert_eq!(vals[0].as_bv(), Some(big(v)), "{}", spec.name),
                other => panic!("{}: {other:?}", spec.name),
            }
        }
        // A query without get-values.
        let q = query("novals", vec![eq(a("x"), bv(3, 32))], vec![]);
        assert_eq!(s.check(&q).unwrap(), Answer::Sat(vec![]), "{}", spec.name);
    }
}

#[test]
fn array_query() {
    let mem = Sexp::list(vec![a("Array"), Sexp::bv_sort(64), Sexp::bv_sort(8)]);
    let script = Script {
        probes: Vec::new(),
        logic: "QF_AUFBV".to_string(),
        commands: vec![
            Command::DeclareConst {
                name: "m".to_string(),
                sort: mem,
            },
            Command::DeclareConst {
                name: "i".to_string(),
                sort: Sexp::bv_sort(64),
            },
            Command::DefineConst {
                name: "c".to_string(),
                sort: Sexp::bv_sort(64),
                value: bv(0x10, 64),
            },
            Command::DeclareFun {
                name: "f".to_string(),
                args: vec![Sexp::bv_sort(64)],
                ret: Sexp::bv_sort(8),
            },
            Command::Assert(eq(app("f", vec![a("i")]), bv(7, 8))),
        ],
    };
    for spec in solvers() {
        let mut s = session(&spec, &script, Some(Duration::from_secs(10)));
        let stored = app("store", vec![a("m"), a("c"), bv(0x2a, 8)]);
        let q = query(
            "array",
            vec![
                eq(app("select", vec![stored.clone(), a("i")]), bv(0x2a, 8)),
                app("distinct", vec![a("i"), a("c")]),
                eq(app("select", vec![a("m"), bv(0x10, 64)]), bv(0x99, 8)),
            ],
            vec![
                app("select", vec![a("m"), a("i")]),
                a("i"),
                app("f", vec![a("i")]),
                app("select", vec![stored, a("c")]),
            ],
        );
        let Answer::Sat(vals) = s.check(&q).unwrap() else {
            panic!("{}", spec.name)
        };
        assert_eq!(vals[0].as_bv(), Some(big(0x2a)), "{}: {vals:?}", spec.name);
        assert_ne!(vals[1].as_bv(), Some(big(0x10)), "{}: {vals:?}", spec.name);
        assert!(vals[1].as_bv().is_some(), "{}: {vals:?}", spec.name);
        assert_eq!(vals[2].as_bv(), Some(big(7)), "{}: {vals:?}", spec.name);
        assert_eq!(vals[3].as_bv(), Some(big(0x2a)), "{}: {vals:?}", spec.name);
        // The script alone forces nothing about m[c].
        let q = query(
            "array2",
            vec![eq(app("select", vec![a("m"), a("c")]), bv(1, 8))],
            vec![],
        );
        assert_eq!(s.check(&q).unwrap(), Answer::Sat(vec![]), "{}", spec.name);
    }
}

/// 64-bit factoring of the semiprime 0xd2e6b439 * 0xa170b339 with 32-bit factors: takes
/// more than 10 s with z3 4.8.12, cvc5 1.0.3 and yices 2.6.5.
fn factoring_script() -> Script {
    let decl = |n: &str| Command::DeclareConst {
        name: n.to_string(),
        sort: Sexp::bv_sort(64),
    };
    Script {
        probes: Vec::new(),
        logic: "QF_BV".to_string(),
        commands: vec![decl("p"), decl("q"), decl("x")],
    }
}

fn factoring_query() -> Query {
    query(
        "factor",
        vec![
            eq(app("bvmul", vec![a("p"), a("q")]), bv(0x84ffefecf751fbb1, 64)),
            app("bvugt", vec![a("p"), bv(1, 64)]),
            app("bvugt", vec![a("q"), bv(1, 64)]),
            app("bvult", vec![a("p"), bv(1 << 32, 64)]),
            app("bvult", vec![a("q"), bv(1 << 32, 64)]),
        ],
        vec![a("p"), a("q")],
    )
}

fn check_timeout_then_recover(spec: &SolverSpec, soft: bool) {
    let mut s = session(spec, &factoring_script(), Some(Duration::from_secs(1)));
    if !soft {
        // Exercise the kill path for every solver: a fresh process without a soft timeout,
        // started by a first query so that the start is not timed below.
        s.soft_timeout = false;
        s.proc = None;
        let warm = query("warm", vec![], vec![]);
        assert_eq!(s.check(&warm).unwrap(), Answer::Sat(vec![]), "{}", spec.name);
    }
    let pid = s.proc.as_ref().map(|p| p.pid);
    let t = Instant::now();
    let ans = s.check(&factoring_query()).unwrap();
    let took = t.elapsed();
    eprintln!("{} (soft timeout {soft}): {ans:?} after {took:?}", spec.name);
    assert_eq!(ans, Answer::Timeout, "{}", spec.name);
    // The limit is the solver's CPU time: at least a second passes; at most the wall-clock
    // backstop of a 1 s limit, whatever the load.
    assert!(took >= Duration::from_millis(950), "{}: {took:?}", spec.name);
    assert!(
        took < super::limit::backstop(Duration::from_secs(1)),
        "{}: {took:?}",
        spec.name
    );
    if let (false, Some(pid)) = (soft, pid) {
        // Without a soft timeout only the kill ends the query: the process must be dead.
        let t = Instant::now();
        while !is_dead(pid) && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        if !is_dead(pid) {
            process::kill_pid(pid); // leave nothing running behind a failed test
            panic!("{}: timed-out solver {pid} still runs", spec.name);
        }
    }
    // The session still works (restarted if the process was killed).
    let q = query("after", vec![eq(a("x"), bv(42, 64))], vec![a("x")]);
    let t = Instant::now();
    let ans = s.check(&q).unwrap();
    eprintln!("{}: next query {:?}", spec.name, t.elapsed());
    let Answer::Sat(v) = ans else {
        panic!("{}: {ans:?}", spec.name)
    };
    assert_eq!(v[0].as_bv(), Some(big(42)), "{}", spec.name);
}

#[test]
fn timeout_with_soft_limit() {
    for spec in solvers() {
        check_timeout_then_recover(&spec, true);
    }
}

#[test]
fn timeout_by_kill() {
    for spec in solvers() {
        check_timeout_then_recover(&spec, false);
    }
}

#[test]
fn solver_error_fails_the_query_and_session_recovers() {
    for spec in solvers() {
        let mut s = session(&spec, &bv32_script(), Some(Duration::from_secs(10)));
        // Ill-sorted: 32-bit x against an 8-bit literal.
        let bad = query("bad", vec![eq(a("x"), bv(1, 8))], vec![]);
        match s.check(&bad) {
            Ok(Answer::Failed(line)) => {
                eprintln!("{}: last line: {line}", spec.name);
                assert!(line.starts_with("(error \""), "{}: {line}", spec.name);
                assert!(!line.contains('\n'), "{}: {line}", spec.name);
            }
            other => panic!("{}: {other:?}", spec.name),
        }
        let q = query("good", vec![eq(a("x"), bv(9, 32))], vec![a("x")]);
        let Answer::Sat(v) = s.check(&q).unwrap() else {
            panic!("{}", spec.name)
        };
        assert_eq!(v[0].as_bv(), Some(big(9)), "{}", spec.name);
    }
}

/// A fake solver, `/bin/sh DIR/NAME.sh` (run by the shell, so the script file is never
/// executed while another test thread may hold it open for writing): `before` runs first; then
/// it answers `success` to every command, as a solver with `:print-success` does, and runs
/// `at_check` on `(check-sat)`.
fn fake_solver(dir: &std::path::Path, name: &str, before: &str, at_check: &str) -> SolverSpec {
    let path = dir.join(format!("{name}.sh"));
    let text = format!(
        "{before}\nwhile IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) {at_check};;\n    *) echo success;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    SolverSpec {
        name: name.to_string(),
        program: "/bin/sh".to_string(),
        args: vec![path.display().to_string()],
    }
}

/// A solver that dies at `(check-sat)` (exit status 134 after a line on stderr, killed by a
/// signal, silently, or by answering `(error …)`) fails the query with its last line, with or
/// without a time limit; the next query restarts it (fails again here, but is not an error).
#[test]
fn solver_that_dies_during_a_query_fails_it() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "oom",
            "echo 'fatal: out of memory' >&2; exit 134",
            "fatal: out of memory",
        ),
        (
            "abort",
            "echo 'warning: early' >&2; echo 'cadical: fatal internal error' >&2; kill -ABRT $$",
            "cadical: fatal internal error",
        ),
        (
            "canceled",
            "echo '(error \"push canceled\")'",
            "(error \"push canceled\")",
        ),
        (
            "silent",
            "exit 1",
            "solver exited or printed unparsable output after (check-sat)",
        ),
        (
            "garbage",
            "echo ')'; exit 3",
            "solver exited or printed unparsable output after (check-sat)",
        ),
    ];
    for (name, at_check, line) in cases {
        let spec = fake_solver(dir.path(), name, "", at_check);
        for timeout in [None, Some(Duration::from_secs(10))] {
            let mut s = session(&spec, &bv32_script(), timeout);
            let q = query("q", vec![eq(a("x"), bv(9, 32))], vec![a("x")]);
            for _ in 0..2 {
                assert_eq!(
                    s.check(&q).unwrap(),
                    Answer::Failed(line.to_string()),
                    "{name} {timeout:?}"
                );
            }
        }
    }
}

/// A restarted process gets the script within the query's limit: a solver that takes longer
/// to read it (z3 4.8.12 can take minutes over a large script) times the query out and is
/// killed, instead of holding gpug past `--timeout`.
#[test]
fn reading_the_script_counts_against_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    // Answers every command at once, except the script's `slow_to_read`: never.
    let spec = fake_solver(dir.path(), "slow_reader", "", "echo unsat");
    let text = std::fs::read_to_string(&spec.args[0]).unwrap();
    let text = text.replace("*check-sat*)", "*slow_to_read*) exec sleep 30;;\n    *check-sat*)");
    std::fs::write(&spec.args[0], text).unwrap();
    let script = Script {
        probes: Vec::new(),
        logic: "QF_BV".to_string(),
        commands: vec![Command::DeclareConst {
            name: "slow_to_read".to_string(),
            sort: app("_", vec![a("BitVec"), a("32")]),
        }],
    };
    let mut s = Session::lazy(
        &spec,
        &std::sync::Arc::new(script.clone()),
        SessionOptions {
            timeout: Some(Duration::from_secs(1)),
            dump_dir: None,
            dump_source: None,
            watch: None,
            eager: false,
            one_shot: false,
        },
    );
    let t = Instant::now();
    assert_eq!(s.check(&query("q", vec![], vec![])).unwrap(), Answer::Unread);
    let took = t.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert!(s.proc.is_none());
    // The next check would only time out the same way: not asked.
    let t = Instant::now();
    assert_eq!(s.check(&query("q2", vec![], vec![])).unwrap(), Answer::Unread);
    assert!(t.elapsed() < Duration::from_millis(500));
}

/// A solver that fails at its start stays an error, which quotes its standard error.
#[test]
fn solver_that_fails_to_start_quotes_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let spec = fake_solver(
        dir.path(),
        "badopt",
        "echo 'error: unknown option --frob' >&2; exit 2",
        "",
    );
    match Session::new(&spec, &std::sync::Arc::new(bv32_script()), SessionOptions::default()) {
        Err(e @ SolverError::Start { .. }) => {
            assert!(e.to_string().contains("(error: unknown option --frob)"), "{e}")
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("started"),
    }
}

#[test]
fn script_error_fails_new() {
    for spec in solvers() {
        let script = Script {
            probes: Vec::new(),
            logic: "QF_BV".to_string(),
            commands: vec![Command::Assert(a("undeclared_symbol"))],
        };
        match Session::new(&spec, &std::sync::Arc::new(script.clone()), SessionOptions::default()) {
            Err(SolverError::Solver { command, .. }) => {
                assert!(command.contains("undeclared_symbol"), "{}: {command}", spec.name)
            }
            Err(e) => panic!("{}: {e}", spec.name),
            Ok(_) => panic!("{}: accepted", spec.name),
        }
    }
}

#[test]
fn large_script_is_streamed() {
    // 6000 declarations and 6000 assertions: more acknowledgements than a pipe buffers.
    let n = 6000;
    let mut commands = vec![];
    for i in 0..n {
        commands.push(Command::DeclareConst {
            name: format!("v{i}"),
            sort: Sexp::bv_sort(32),
        });
        let prev = if i == 0 { bv(0, 32) } else { a(&format!("v{}", i - 1)) };
        commands.push(Command::Assert(eq(
            a(&format!("v{i}")),
            app("bvadd", vec![prev, bv(1, 32)]),
        )));
    }
    let script = Script {
        probes: Vec::new(),
        logic: "QF_BV".to_string(),
        commands,
    };
    for spec in solvers() {
        let t = Instant::now();
        let mut s = session(&spec, &script, Some(Duration::from_secs(30)));
        let started = t.elapsed();
        let last = a(&format!("v{}", n - 1));
        let q = query("chain", vec![], vec![last]);
        let Answer::Sat(v) = s.check(&q).unwrap() else {
            panic!("{}", spec.name)
        };
        assert_eq!(v[0].as_bv(), Some(big(n)), "{}", spec.name);
        eprintln!(
            "{}: {} commands sent in {started:?}, total {:?}",
            spec.name,
            2 * n,
            t.elapsed()
        );
    }
}

#[test]
fn timeout_reasons() {
    assert!(is_timeout_reason("timeout"));
    assert!(is_timeout_reason("canceled"));
    assert!(!is_timeout_reason("incomplete"));
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpug-solver-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn dump_files_are_exact() {
    let Some(spec) = solvers().into_iter().next() else {
        return;
    };
    let dir = temp_dir("dump");
    let script = Script {
        probes: Vec::new(),
        logic: "QF_ABV".to_string(),
        commands: vec![
            Command::DeclareConst {
                name: "x".to_string(),
                sort: Sexp::bv_sort(8),
            },
            Command::DefineConst {
                name: "k".to_string(),
                sort: Sexp::bv_sort(8),
                value: bv(3, 8),
            },
            Command::Assert(app("bvult", vec![a("x"), a("k")])),
        ],
    };
    let mut s = Session::new(
        &spec,
        &std::sync::Arc::new(script.clone()),
        SessionOptions {
            timeout: Some(Duration::from_secs(10)),
            dump_dir: Some(dir.clone()),
            dump_source: Some("Command: gpug k.cu --blockDim=2\nLaunch: blockDim=[2,1,1] gridDim=[1,1,1]\n".into()),
            watch: None,
            eager: false,
            one_shot: false,
        },
    )
    .unwrap();
    let q1 = query("k.race.L1", vec![eq(a("x"), bv(2, 8))], vec![a("x")]);
    let q2 = query("k.race.L1", vec![eq(a("x"), bv(5, 8))], vec![a("x")]);
    assert!(matches!(s.check(&q1).unwrap(), Answer::Sat(_)));
    assert_eq!(s.check(&q2).unwrap(), Answer::Unsat);
    let header = |status: &str| {
        format!(
            "(set-info :smt-lib-version 2.6)\n(set-logic QF_BV)\n(set-info :source |\n{}\
             Command: gpug k.cu --blockDim=2\nLaunch: blockDim=[2,1,1] gridDim=[1,1,1]\n\
             Query: k.race.L1\n|)\n\
             (set-info :license \"https://creativecommons.org/licenses/by/4.0/\")\n\
             (set-info :category \"industrial\")\n(set-info :status {status})\n",
            gpug_source_lines()
        )
    };
    let body = "(declare-const x (_ BitVec 8))\n\
                (define-fun k () (_ BitVec 8) #x03)\n\
                (assert (bvult x k))\n";
    let one = std::fs::read_to_string(dir.join("k.race.L1.smt2")).unwrap();
    assert_eq!(
        one,
        format!("{}{body}(assert (= x #x02))\n(check-sat)\n(exit)\n", header("sat"))
    );
    let two = std::fs::read_to_string(dir.join("k.race.L1-2.smt2")).unwrap();
    assert_eq!(
        two,
        format!("{}{body}(assert (= x #x05))\n(check-sat)\n(exit)\n", header("unsat"))
    );
    // The dump is a valid standalone script.
    let out = std::process::Command::new(&spec.program)
        .args(if spec.name == "z3" { vec!["-smt2"] } else { vec![] })
        .arg(dir.join("k.race.L1-2.smt2"))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unsat", "{}", spec.name);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_header_says_status_once_and_quotes_source() {
    let h = |a: Option<&Answer>| dump_header("QF_ABV", Some("Command: gpug --assume=a||b k.cu"), "q", a);
    assert_eq!(h(None), h(None));
    assert!(h(None).contains("(set-info :status unknown)\n"));
    assert!(h(Some(&Answer::Unsat)).ends_with("(set-info :status unsat)\n"));
    assert!(h(Some(&Answer::Sat(vec![]))).ends_with("(set-info :status sat)\n"));
    assert!(h(Some(&Answer::Timeout)).ends_with("(set-info :status unknown)\n"));
    let failed = Answer::Failed("fatal: out of memory".to_string());
    assert!(h(Some(&failed)).ends_with("(set-info :status unknown)\n"));
    assert_eq!(h(None).matches(":status").count(), 1);
    // The source is one quoted symbol: no `|` inside it but its two delimiters.
    let text = h(None);
    let source = text
        .split_once("(set-info :source |")
        .unwrap()
        .1
        .split_once("|)")
        .unwrap()
        .0;
    assert!(
        source.contains("Command: gpug --assume=a\u{a6}\u{a6}b k.cu\nQuery: q\n"),
        "{source}"
    );
    assert!(text.starts_with("(set-info :smt-lib-version 2.6)\n(set-logic QF_ABV)\n"));
}

#[test]
fn dump_logic_is_the_smallest_the_terms_need() {
    use super::logic::Theories;
    let bvs = Script {
        probes: Vec::new(),
        logic: "QF_AUFBV".into(),
        commands: vec![Command::DeclareConst {
            name: "x".into(),
            sort: Sexp::bv_sort(8),
        }],
    };
    let q = query("q", vec![app("bvult", vec![a("x"), bv(1, 8)])], vec![]);
    assert_eq!(Theories::of_script(&bvs).with_query(&q).logic(), "QF_BV");
    let mut arrays = bvs.clone();
    arrays.commands.push(Command::DeclareConst {
        name: "m".into(),
        sort: Sexp::list(vec![a("Array"), Sexp::bv_sort(64), Sexp::bv_sort(8)]),
    });
    assert_eq!(Theories::of_script(&arrays).logic(), "QF_ABV");
    let mut uf = arrays.clone();
    uf.commands.push(Command::DeclareFun {
        name: "f".into(),
        args: vec![Sexp::bv_sort(8)],
        ret: Sexp::bv_sort(8),
    });
    assert_eq!(Theories::of_script(&uf).logic(), "QF_AUFBV");
    // A nullary declare-fun is a constant, not a function.
    let mut nullary = bvs.clone();
    nullary.commands.push(Command::DeclareFun {
        name: "c".into(),
        args: vec![],
        ret: Sexp::bv_sort(8),
    });
    assert_eq!(Theories::of_script(&nullary).logic(), "QF_BV");
    let fp = query(
        "f",
        vec![app(
            "fp.eq",
            vec![app("fp.add", vec![a("RNE"), a("y"), a("y")]), a("y")],
        )],
        vec![],
    );
    assert_eq!(Theories::of_script(&bvs).with_query(&fp).logic(), "QF_BVFP");
    assert_eq!(Theories::of_script(&arrays).with_query(&fp).logic(), "QF_ABVFP");
    // A user symbol that starts with `bv` is not a bit-vector operator.
    let empty = Script::default();
    let named = query("n", vec![a("bvflag")], vec![]);
    assert_eq!(Theories::of_script(&empty).with_query(&named).logic(), "QF_UF");
}

#[test]
fn from_command_splits_on_whitespace() {
    let s = from_command("  /opt/z3/bin/z3   -in\t-smt2 ").unwrap();
    assert_eq!(
        s,
        SolverSpec {
            name: "z3".to_string(),
            program: "/opt/z3/bin/z3".to_string(),
            args: vec!["-in".to_string(), "-smt2".to_string()],
        }
    );
    let s = from_command("cvc5").unwrap();
    assert_eq!(s.name, "cvc5");
    assert!(s.args.is_empty());
    assert!(matches!(from_command("   "), Err(SolverError::EmptyCommand)));
}

#[test]
fn from_command_runs_a_session() {
    let Some(spec) = solvers().into_iter().next() else {
        return;
    };
    let cmd = format!("{} {}", spec.program, spec.args.join(" "));
    let mut s = session(&from_command(&cmd).unwrap(), &bv32_script(), None);
    let q = query("c", vec![eq(a("x"), bv(7, 32))], vec![a("x")]);
    assert!(matches!(s.check(&q).unwrap(), Answer::Sat(_)));
}

#[test]
fn missing_solvers_are_errors() {
    assert!(matches!(
        by_name("no-such-solver"),
        Err(SolverError::UnknownName { .. })
    ));
    if find_program("bitwuzla").is_none() {
        let e = by_name("bitwuzla").unwrap_err();
        assert!(matches!(e, SolverError::NotFound { .. }), "{e}");
        assert_eq!(e.to_string(), "solver `bitwuzla` not found on PATH");
    } else {
        eprintln!("bitwuzla is installed; NotFound checked with a path instead");
    }
    let spec = from_command("/nonexistent/gpug-solver --foo").unwrap();
    match Session::new(&spec, &std::sync::Arc::new(bv32_script()), SessionOptions::default()) {
        Err(SolverError::NotFound { program }) => assert_eq!(program, "/nonexistent/gpug-solver"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("started"),
    }
    let avail = available();
    assert_eq!(avail.len(), registry().len());
    for (spec, v) in avail {
        eprintln!("{}: {v:?}", spec.name);
        assert_eq!(v.is_ok(), find_program(&spec.program).is_some(), "{}", spec.name);
    }
}

#[test]
fn default_solver_is_yices_then_z3_then_cvc5() {
    let installed = |name: &str| by_name(name).ok();
    let expect = ["yices", "z3", "cvc5"].into_iter().find_map(installed);
    match default_solver(false) {
        Ok(s) => assert_eq!(Some(s), expect),
        Err(e) => assert!(expect.is_none(), "{e}"),
    }
    // FloatingPoint: never yices.
    let expect = ["z3", "cvc5"].into_iter().find_map(installed);
    match default_solver(true) {
        Ok(s) => assert_eq!(Some(s), expect),
        Err(e) => assert!(expect.is_none(), "{e}"),
    }
}

#[test]
fn bv_value_forms_round_trip() {
    assert_eq!(bv(4, 32).as_bv(), Some(big(4)));
    assert_eq!(a("#b100").as_bv(), Some(big(4)));
    let ctx = easy_smt::ContextBuilder::new().build().unwrap();
    let t = Sexp::list(vec![a("_"), a("bv4"), a("32")]);
    let back = process::from_sexpr(&ctx, process::to_sexpr(&ctx, &t));
    assert_eq!(back, t);
    assert_eq!(back.as_bv(), Some(big(4)));
}

#[test]
fn session_is_send() {
    fn send<T: Send>() {}
    send::<Session>();
}

/// The state letter (`R`, `S`, `Z`, …) and parent pid of process `pid` from `/proc/<pid>/stat`;
/// `None` once it is gone.
fn proc_state(pid: u32) -> Option<(char, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid …`, where comm may hold spaces and parentheses.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    Some((state, ppid))
}

/// Whether our child `pid` is dead: a zombie (killed, not yet reaped) or gone (reaped, or its
/// pid now another process's).
fn is_dead(pid: u32) -> bool {
    match proc_state(pid) {
        None => true,
        Some((state, ppid)) => state == 'Z' || state == 'X' || ppid != std::process::id(),
    }
}

/// A z3 session on the factoring script with a 1 s limit enforced only by killing, started
/// on the calling thread.
fn killable_session(spec: &SolverSpec) -> Session {
    let opts = SessionOptions {
        timeout: Some(Duration::from_secs(1)),
        dump_dir: None,
        dump_source: None,
        watch: None,
        eager: false,
        one_shot: false,
    };
    let mut s = Session::lazy(spec, &std::sync::Arc::new(factoring_script()), opts);
    s.soft_timeout = false;
    s.proc = Some(s.start().unwrap_or_else(|e| panic!("{e}")));
    s
}

#[test]
fn timeout_kills_exactly_its_own_process() {
    let Ok(spec) = by_name("z3") else {
        eprintln!("skipped: z3 not installed");
        return;
    };
    // Two sessions started on two threads at once.
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let starters: Vec<_> = (0..2)
        .map(|_| {
            let (spec, barrier) = (spec.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                killable_session(&spec)
            })
        })
        .collect();
    let mut sessions: Vec<Session> = starters.into_iter().map(|t| t.join().unwrap()).collect();
    let mut kept = sessions.pop().unwrap();
    let timed = sessions.pop().unwrap();
    let pid_of = |s: &Session| s.proc.as_ref().map(|p| p.pid).unwrap();
    let (timed_pid, kept_pid) = (pid_of(&timed), pid_of(&kept));
    assert_ne!(timed_pid, kept_pid);
    for pid in [timed_pid, kept_pid] {
        // The pid is the solver's (the shim `exec`ed it), and our child.
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap();
        assert_eq!(comm.trim(), "z3", "{pid}");
        assert_eq!(proc_state(pid).map(|s| s.1), Some(std::process::id()), "{pid}");
    }
    // A third thread times out on a query that takes z3 far longer than the limit (see
    // `factoring_script`), while this thread keeps asking `kept` and starts other sessions.
    let waiter = std::thread::spawn(move || {
        let mut s = timed;
        let answer = s.check(&factoring_query());
        (answer, s)
    });
    let easy = |v: u64| query("easy", vec![eq(a("x"), bv(v, 64))], vec![a("x")]);
    let mut v = 0;
    while !waiter.is_finished() {
        v += 1;
        assert_eq!(kept.check(&easy(v)).unwrap(), Answer::Sat(vec![bv(v, 64)]));
        let mut other = killable_session(&spec);
        assert_eq!(other.check(&easy(v)).unwrap(), Answer::Sat(vec![bv(v, 64)]));
    }
    let (answer, timed) = waiter.join().unwrap();
    assert_eq!(answer.unwrap(), Answer::Timeout);
    assert!(timed.proc.is_none());
    // SIGKILL is delivered asynchronously: give it a moment.
    let t = Instant::now();
    while !is_dead(timed_pid) && t.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    if !is_dead(timed_pid) {
        // Not left running past the test: still our unreaped child (the worker holds it).
        let state = proc_state(timed_pid);
        process::kill_pid(timed_pid);
        panic!("timed-out solver still runs: {state:?}");
    }
    assert!(!is_dead(kept_pid), "the other solver died: {:?}", proc_state(kept_pid));
    // The other session's process still answers (no restart: same pid).
    assert_eq!(kept.check(&easy(42)).unwrap(), Answer::Sat(vec![bv(42, 64)]));
    assert_eq!(pid_of(&kept), kept_pid);
    assert!(!is_dead(kept_pid));
    eprintln!("{v} queries and session starts on the side during the timed-out check");
}

#[test]
fn pid_files_are_fresh_and_removed() {
    let (f1, f2) = (process::PidFile::create().unwrap(), process::PidFile::create().unwrap());
    assert_ne!(f1.path.to_path_buf(), f2.path.to_path_buf());
    assert_eq!(std::fs::read_to_string(&f1.path).unwrap(), "");
    std::fs::write(&f1.path, "1234\n").unwrap();
    assert_eq!(process::read_pid(&f1.path).unwrap(), 1234);
    std::fs::write(&f2.path, "garbage").unwrap();
    assert_eq!(
        process::read_pid(&f2.path).unwrap_err().kind(),
        std::io::ErrorKind::InvalidData
    );
    let (p1, p2) = (f1.path.to_path_buf(), f2.path.to_path_buf());
    drop((f1, f2));
    assert!(!p1.exists() && !p2.exists());
}

/// A one-shot solver run (`--version` for `gpug solvers`, a replay for an error message) is
/// bounded: a program that never closes its output is killed, with its children, at the
/// limit, and both outputs are reported missing; one that answers is read whole.
#[test]
fn one_shot_runs_are_bounded() {
    let marker = format!("sleep 98.{}", std::process::id());
    let t = Instant::now();
    let (out, err) = process::run_bounded(
        Path::new("/bin/sh"),
        &["-c".to_string(), format!("echo started; {marker}")],
        String::new(),
        Duration::from_millis(500),
    )
    .expect("sh starts");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!((out, err), (None, None));
    let running = || {
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .any(|c| String::from_utf8_lossy(&c).replace('\0', " ").contains(&marker))
    };
    let killed = Instant::now();
    while running() && killed.elapsed() < Duration::from_secs(2) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!running(), "`{marker}` was left running");
    let (out, err) = process::run_bounded(
        Path::new("/bin/sh"),
        &["-c".to_string(), "cat; echo oops >&2".to_string()],
        "(exit)\n".to_string(),
        Duration::from_secs(5),
    )
    .expect("sh starts");
    assert_eq!(out.as_deref(), Some("(exit)\n"));
    assert_eq!(err.as_deref(), Some("oops\n"));
}

/// A `sat` answer is checked before a witness is built from it: the values of the model are
/// asserted back and the query must stay satisfiable. A fake solver whose model does not
/// satisfy the query (it answers `sat`, gives `x = 7`, then `unsat` with `x = 7` asserted)
/// gives [`Answer::InvalidModel`], with and without a limit; a real solver's model passes.
#[test]
fn a_model_that_does_not_satisfy_the_query_is_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("liar.sh");
    let text = "n=0\nwhile IFS= read -r line; do\n  case \"$line\" in\n    *check-sat*) n=$((n+1)); if [ $((n % 2)) = 1 ]; then echo sat; else echo unsat; fi;;\n    *get-value*) echo '((x #x00000007))';;\n    *) echo success;;\n  esac\ndone\n";
    std::fs::write(&path, text).unwrap();
    let liar = SolverSpec {
        name: "liar".to_string(),
        program: "/bin/sh".to_string(),
        args: vec![path.display().to_string()],
    };
    let q = query("q", vec![eq(a("x"), bv(9, 32))], vec![a("x")]);
    for timeout in [None, Some(Duration::from_secs(10))] {
        let mut s = session(&liar, &bv32_script(), timeout);
        assert_eq!(
            s.check(&q).unwrap(),
            Answer::InvalidModel("with the 1 values of its model asserted, the query is unsat".to_string()),
            "{timeout:?}"
        );
    }
    for spec in solvers() {
        let mut s = session(&spec, &bv32_script(), Some(Duration::from_secs(10)));
        let ans = s.check(&q).unwrap();
        let Answer::Sat(vals) = &ans else {
            panic!("{}: {ans:?}", spec.name)
        };
        assert_eq!(vals[0].as_bv(), Some(big(9)), "{}", spec.name);
    }
}

/// The CPU-time limit (issue 53 item 3): a solver that computes runs until it has used its
/// limit however slowly time passes for it; a query that makes no progress at all (neither
/// the solver nor gpug's thread uses CPU time) for a whole limit stops.
#[test]
fn cpu_limit_counts_cpu_time_and_stops_a_stalled_query() {
    let ms = Duration::from_millis;
    let limit = ms(2000);
    // Progress just seen: it waits for what is left of the limit.
    assert_eq!(super::limit::cpu_limit_wait(ms(200), ms(0), limit), Some(ms(1800)));
    // A loaded machine: a third of the limit used, some progress a while ago.
    assert_eq!(super::limit::cpu_limit_wait(ms(700), ms(1500), limit), Some(ms(500)));
    // The limit used: out, at any load.
    assert_eq!(super::limit::cpu_limit_wait(ms(2000), ms(0), limit), None);
    // No progress for the whole limit: out.
    assert_eq!(super::limit::cpu_limit_wait(ms(50), ms(2000), limit), None);
    // A limit under a second still waits a second for progress.
    assert_eq!(super::limit::cpu_limit_wait(ms(0), ms(600), ms(500)), Some(ms(400)));
    assert_eq!(super::limit::cpu_limit_wait(ms(0), ms(1000), ms(500)), None);
}

/// [`process::cpu_time`] reads a busy process's CPU time, which grows, and an idle one's,
/// which does not.
#[cfg(target_os = "linux")]
#[test]
fn cpu_time_of_a_process() {
    let mut busy = std::process::Command::new("/bin/sh")
        .args(["-c", "while :; do :; done"])
        .spawn()
        .unwrap();
    let mut idle = std::process::Command::new("/bin/sh")
        .args(["-c", "sleep 5"])
        .spawn()
        .unwrap();
    let (b0, i0) = (
        process::cpu_time(busy.id()).unwrap(),
        process::cpu_time(idle.id()).unwrap(),
    );
    let t = Instant::now();
    let mut b1 = b0;
    // Until the busy one has used 0.2 s more (however long the machine's load makes that).
    while b1 < b0 + Duration::from_millis(200) && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
        b1 = process::cpu_time(busy.id()).unwrap();
    }
    let i1 = process::cpu_time(idle.id()).unwrap();
    let _ = (busy.kill(), idle.kill(), busy.wait(), idle.wait());
    // This thread's own CPU time reads too.
    assert!(process::thread_cpu_time(process::current_thread_id()).is_some());
    assert_eq!(process::thread_cpu_time(0), None);
    assert!(b1 >= b0 + Duration::from_millis(200), "{b0:?} -> {b1:?}");
    assert!(i1 <= i0 + Duration::from_millis(20), "{i0:?} -> {i1:?}");
    assert_eq!(process::cpu_time(u32::MAX), None);
}
