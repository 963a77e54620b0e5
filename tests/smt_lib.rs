//! `smt-lib/` holds the queries of every example as standalone scripts (made by
//! `scripts/regen-smt-lib.sh`). This test dumps them again and fails when any differs, is
//! missing or is left over: then run the script and commit. A file's `:status` is the answer
//! z3 gave within gpug's limit when it was dumped, so a loaded machine may dump `unknown` where
//! the committed file says `sat` or `unsat` (or the reverse): that is not staleness, but two
//! different known answers are.

mod common;

use common::{example_flags, gpug, root};
use std::collections::BTreeMap;
use std::path::Path;

fn read_dir(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "smt2") {
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                out.insert(name, std::fs::read_to_string(&p).expect("read"));
            }
        }
    }
    out
}

/// Whether two dumps of one query are the same, their `:status` lines apart when one of them is
/// `unknown` (an answer that depends on the machine's load, not on the query).
fn same_query(a: &str, b: &str) -> bool {
    let status = |l: &str| {
        l.strip_prefix("(set-info :status ")
            .map(|s| s.trim_end_matches(')').to_string())
    };
    a.lines().count() == b.lines().count()
        && a.lines().zip(b.lines()).all(|(x, y)| match (status(x), status(y)) {
            (Some(s), Some(t)) => s == t || s == "unknown" || t == "unknown",
            _ => x == y,
        })
}

#[test]
fn same_query_ignores_an_unknown_status_only() {
    let q = |s: &str| format!("(set-logic QF_ABV)\n(set-info :status {s})\n(check-sat)\n");
    assert!(same_query(&q("sat"), &q("unknown")));
    assert!(same_query(&q("unknown"), &q("unsat")));
    assert!(!same_query(&q("sat"), &q("unsat")));
    assert!(!same_query(&q("sat"), &q("sat").replace("QF_ABV", "QF_AUFBV")));
}

#[test]
fn smt_lib_is_up_to_date() {
    let mut stale = Vec::new();
    let mut examples: Vec<_> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .collect();
    examples.sort();
    for ex in examples {
        let stem = ex
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = std::env::temp_dir().join(format!("gpug-smtlib-{}-{stem}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let mut args: Vec<String> = vec!["--solver".into(), "z3".into(), "--dump-smt2".into()];
        args.push(tmp.to_string_lossy().into_owned());
        args.extend(example_flags(&ex));
        args.push(format!("examples/{stem}.cu"));
        let out = gpug(&args);
        assert!(
            matches!(out.status.code(), Some(0 | 1 | 3)),
            "{stem}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let fresh = read_dir(&tmp);
        let committed = read_dir(&root().join("smt-lib").join(&stem));
        let same = |a: Option<&String>, b: Option<&String>| match (a, b) {
            (Some(a), Some(b)) => same_query(a, b),
            (a, b) => a == b,
        };
        if fresh.keys().ne(committed.keys()) || fresh.iter().any(|(k, v)| !same(Some(v), committed.get(k))) {
            let differing: Vec<_> = fresh
                .keys()
                .chain(committed.keys())
                .filter(|k| !same(fresh.get(*k), committed.get(*k)))
                .cloned()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            stale.push(format!("{stem}: {}", differing.join(", ")));
        }
        let _ = std::fs::remove_dir_all(&tmp);
    }
    assert!(
        stale.is_empty(),
        "smt-lib/ is stale (run scripts/regen-smt-lib.sh):\n{}",
        stale.join("\n")
    );
}
