//! gpug's SMT-LIB benchmarks follow SMT-LIB's submission rules (the README of
//! `SMT-LIB/benchmark-submission`, which its `quick-check.sh` checks; that script carries no
//! licence, so it is not vendored and is run by hand): the header in its order with
//! `:source`, the CC BY 4.0 licence, `:category "industrial"` and one `:status`; exactly one
//! `(check-sat)`, no `push`/`pop`, `(exit)` last; the declared logic the smallest the file's
//! symbols need. Checked on `smt-lib/` (committed) and on two small instances that
//! `scripts/gen-corpus.sh` generates here (easy queries: the statuses are asked of the
//! solvers, but any of `sat`, `unsat`, `unknown` passes), whose paths must follow
//! `non-incremental/<LOGIC>/<YYYYMMDD>-gpug-<family>/…`.

mod common;

use common::root;
use std::path::{Path, PathBuf};

/// Every `.smt2` file under `dir`, sorted.
fn smt2_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "smt2") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// What is wrong with `text` as a non-incremental SMT-LIB benchmark; `None` when nothing.
/// Returns the declared logic on success.
fn submission_problems(text: &str) -> Result<String, String> {
    let lines: Vec<&str> = text.lines().collect();
    if lines.first() != Some(&"(set-info :smt-lib-version 2.6)") {
        return Err("first line is not (set-info :smt-lib-version 2.6)".into());
    }
    let logic = lines
        .get(1)
        .and_then(|l| l.strip_prefix("(set-logic "))
        .and_then(|l| l.strip_suffix(')'))
        .ok_or("second line is not (set-logic …)")?
        .to_string();
    if lines.get(2) != Some(&"(set-info :source |") {
        return Err("third line does not open (set-info :source |".into());
    }
    let end = lines
        .iter()
        .position(|l| *l == "|)")
        .ok_or("the source is not closed by a line `|)`")?;
    let source = &lines[3..end];
    for field in ["Generator: gpug ", "Application: ", "Publications: ", "Query: "] {
        if !source.iter().any(|l| l.starts_with(field)) {
            return Err(format!("the source has no `{field}` line"));
        }
    }
    if source.iter().any(|l| l.contains('|') || l.contains('\\')) {
        return Err("the source holds a `|` or `\\`".into());
    }
    let rest = &lines[end + 1..];
    let expected = [
        "(set-info :license \"https://creativecommons.org/licenses/by/4.0/\")",
        "(set-info :category \"industrial\")",
    ];
    if rest.len() < 3 || rest[..2] != expected {
        return Err(format!(
            "licence and category lines are not after the source: {:?}",
            &rest[..rest.len().min(2)]
        ));
    }
    if ![
        "(set-info :status sat)",
        "(set-info :status unsat)",
        "(set-info :status unknown)",
    ]
    .contains(&rest[2])
    {
        return Err(format!("no valid status after the category: {}", rest[2]));
    }
    let count = |needle: &str| lines.iter().filter(|l| l.starts_with(needle)).count();
    for (needle, n) in [
        ("(set-info :status", 1),
        ("(check-sat", 1),
        ("(exit)", 1),
        ("(set-logic", 1),
    ] {
        if count(needle) != n {
            return Err(format!("{} lines start with {needle}, not {n}", count(needle)));
        }
    }
    if lines.last() != Some(&"(exit)") {
        return Err("the last line is not (exit)".into());
    }
    for banned in [
        "(push",
        "(pop",
        "(get-value",
        "(get-model",
        "(check-sat-assuming",
        "(forall",
        "(exists",
    ] {
        if text.contains(banned) {
            return Err(format!("holds {banned}"));
        }
    }
    // The smallest logic: arrays, functions with arguments, floats exactly when used.
    let arrays = text.contains("(Array ");
    let functions = lines
        .iter()
        .any(|l| l.starts_with("(declare-fun ") && !l.contains(" () "));
    let floats = text.contains("(_ FloatingPoint ") || text.contains("(fp.") || text.contains("(_ to_fp ");
    let has = |part: &str| logic.strip_prefix("QF_").is_some_and(|l| l.contains(part));
    if has("A") != arrays || has("UF") != functions || has("FP") != floats || !has("BV") {
        return Err(format!(
            "logic {logic}, but arrays {arrays}, functions {functions}, floats {floats}"
        ));
    }
    Ok(logic)
}

#[test]
fn smt_lib_queries_carry_the_submission_header() {
    let files = smt2_files(&root().join("smt-lib"));
    assert!(files.len() > 100, "smt-lib/ holds {} queries", files.len());
    let mut bad = Vec::new();
    let mut logics = std::collections::BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read");
        match submission_problems(&text) {
            Ok(l) => {
                logics.insert(l);
            }
            Err(why) => bad.push(format!("{}: {why}", f.display())),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Not everything is the encoder's QF_AUFBV: most race queries need no function.
    assert!(logics.contains("QF_ABV") && logics.contains("QF_AUFBV"), "{logics:?}");
}

#[test]
fn the_checks_catch_a_broken_benchmark() {
    let good = std::fs::read_to_string(root().join("smt-lib/vector_add/vector_add.race.c.seg0.L9.smt2")).expect("read");
    assert!(submission_problems(&good).is_ok(), "{:?}", submission_problems(&good));
    let broken = [
        good.replacen("(check-sat)\n", "(check-sat)\n(check-sat)\n", 1),
        good.replacen("(set-info :category \"industrial\")\n", "", 1),
        good.replacen("(set-info :status ", "(set-info :status maybe", 1),
        good.replacen("(exit)\n", "", 1),
        good.replacen("(set-logic QF_AUFBV)", "(set-logic QF_ABV)", 1),
        good.replacen("Query: ", "Query: a|b ", 1),
    ];
    for b in broken {
        assert!(submission_problems(&b).is_err(), "{b}");
    }
}

#[test]
fn gen_corpus_lays_out_submission_folders() {
    let out = tempfile::tempdir().expect("temp dir");
    let status = std::process::Command::new("bash")
        .current_dir(root())
        .env("GPUG", env!("CARGO_BIN_EXE_gpug"))
        .args([
            "scripts/gen-corpus.sh",
            "-l",
            "5",
            "-f",
            "check-reduce:n4,check-float-sum:n2",
        ])
        .arg(out.path())
        .output()
        .expect("run gen-corpus.sh");
    let log = String::from_utf8_lossy(&status.stdout).into_owned() + &String::from_utf8_lossy(&status.stderr);
    assert!(status.status.success(), "{log}");
    let files = smt2_files(out.path());
    // reduce at 4 threads: 4 race queries and 1 assertion; the float sum of 2: 1 assertion.
    assert_eq!(files.len(), 6, "{files:?}\n{log}");
    let mut logics = std::collections::BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(out.path()).expect("under out");
        let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let text = std::fs::read_to_string(f).expect("read");
        let logic = submission_problems(&text).unwrap_or_else(|why| panic!("{}: {why}", rel.display()));
        assert_eq!(parts[0], "non-incremental", "{}", rel.display());
        assert_eq!(parts[1], logic, "{}", rel.display());
        let set = &parts[2];
        assert!(
            set.len() > 14 && set[..8].bytes().all(|b| b.is_ascii_digit()) && &set[8..14] == "-gpug-",
            "{set}"
        );
        assert!(text.contains("\nGenerated on: "), "{}", rel.display());
        assert!(text.contains("\nFamily: "), "{}", rel.display());
        assert!(text.contains("\nStatus: "), "{}", rel.display());
        logics.insert(logic);
    }
    assert!(logics.contains("QF_ABVFP"), "{logics:?}");
    assert!(out.path().join("gpug-corpus.txt").exists());
}
