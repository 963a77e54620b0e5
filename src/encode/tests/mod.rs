//! Encoder tests on hand-built IR, answered by z3 through a plain pipe (independent of the
//! solver module): the helpers here, the tests by part: `races` (races, benign races,
//! divergence, atomics), `loops` (abstracted loops and closed forms), `assumptions` (preferred
//! conditions, `--no-overflow`, signed overflow).

mod assumptions;
mod loops;
mod races;

use super::engine::Encoder;
use super::terms::{app, atom, bvn};
use super::*;
use crate::ir::eval::Geometry;
use crate::ir::testing::{bin, kernel_with_array, sp, st};
use crate::ir::{ArrayId, AtomicOp, BarrierScope, BinOp, Builtin, Dim, Expr, Kernel, Param, Space, Stmt, StmtKind, Ty};
use crate::solver::{Command, Query, Script, Sexp};
use std::io::Write;
use std::process::{Command as Proc, Stdio};

/// [`super::encode`]: no memory bound runs in unit tests.
fn encode(k: &crate::ir::Kernel, g: &Geometry) -> Encoded {
    super::encode(k, g).expect("no memory bound in unit tests")
}

/// [`super::encode_with`]: no memory bound runs in unit tests.
fn encode_with(k: &crate::ir::Kernel, g: &Geometry, opts: &EncodeOptions) -> Encoded {
    super::encode_with(k, g, opts).expect("no memory bound in unit tests")
}

fn tid() -> Expr {
    Expr::Builtin(Builtin::ThreadIdx(Dim::X))
}

/// `a[0] = 1` (an `int`) at line `line`.
fn store_one_at_zero(line: u32) -> Stmt {
    st(
        StmtKind::Store {
            array: ArrayId(0),
            offset: Expr::int(0, Ty::I64),
            value: Expr::int(1, Ty::I32),
            ty: Ty::I32,
        },
        line,
    )
}

/// `v = a[tid + 1]` (an `int`) at line `line`.
fn load_next(v: crate::ir::VarId, line: u32) -> Stmt {
    let next = bin(BinOp::Add, tid(), Expr::int(1, Ty::U32), Ty::U32);
    st(
        StmtKind::Load {
            dst: v,
            array: ArrayId(0),
            offset: off(next),
            ty: Ty::I32,
        },
        line,
    )
}

/// Byte offset of element `i` (an unsigned int) of an int array.
fn off(i: Expr) -> Expr {
    bin(
        BinOp::Mul,
        Expr::Cast {
            arg: Box::new(i),
            ty: Ty::I64,
        },
        Expr::int(4, Ty::I64),
        Ty::I64,
    )
}

fn kernel(space: Space, body: impl FnOnce(&mut Kernel) -> Vec<Stmt>) -> Kernel {
    let mut k = kernel_with_array("a", space, 64);
    k.body = body(&mut k);
    k
}

fn render(e: &Encoded, q: &Query) -> String {
    let mut s = format!("(set-logic {})\n", e.script.logic);
    for c in &e.script.commands {
        let line = match c {
            Command::DeclareConst { name, sort } => format!("(declare-const {name} {sort})"),
            Command::DeclareFun { name, args, ret } => {
                format!(
                    "(declare-fun {name} ({}) {ret})",
                    args.iter().map(|a| a.to_string()).collect::<Vec<_>>().join(" ")
                )
            }
            Command::DefineConst { name, sort, value } => format!("(define-fun {name} () {sort} {value})"),
            Command::Assert(t) => format!("(assert {t})"),
        };
        s.push_str(&line);
        s.push('\n');
    }
    for a in &q.assertions {
        s.push_str(&format!("(assert {a})\n"));
    }
    s.push_str("(check-sat)\n");
    s
}

/// The z3 answers of every check, in order (`true` = sat).
fn answers(k: &Kernel, g: &Geometry) -> Vec<(String, bool)> {
    let e = encode(k, g);
    e.checks
        .iter()
        .map(|c| {
            let text = render(&e, &c.query);
            let out = z3_says(&text);
            assert!(
                out.starts_with("sat") || out.starts_with("unsat"),
                "z3 said {out} for\n{text}"
            );
            (c.query.name.clone(), out.starts_with("sat"))
        })
        .collect()
}

fn block64() -> Geometry {
    Geometry {
        block_dim: [Some(64), Some(1), Some(1)],
        grid_dim: [Some(4), Some(1), Some(1)],
    }
}

/// z3's answer to a whole script, through a plain pipe, trimmed.
pub(super) fn z3_says(text: &str) -> String {
    let mut child = Proc::new("z3")
        .args(["-in", "-smt2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("z3 on PATH");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("z3 output");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// z3's model of `text` (a script without `check-sat`): the values of `terms`, in order.
fn z3_model(text: &str, terms: &[Sexp]) -> Vec<Sexp> {
    let asked = format!("{text}(check-sat)\n(get-value {})\n", Sexp::List(terms.to_vec()));
    let out = z3_says(&asked);
    let model = out.strip_prefix("sat").expect("sat");
    match parse_sexp(model) {
        Sexp::List(pairs) => pairs
            .into_iter()
            .map(|p| match p {
                Sexp::List(mut kv) if kv.len() == 2 => kv.pop().expect("value"),
                other => panic!("not a (term value) pair: {other}"),
            })
            .collect(),
        other => panic!("not a model: {other}"),
    }
}

pub(super) fn parse_sexp(s: &str) -> Sexp {
    fn go(toks: &mut std::iter::Peekable<std::vec::IntoIter<String>>) -> Sexp {
        let t = toks.next().expect("token");
        if t != "(" {
            return Sexp::atom(t);
        }
        let mut items = Vec::new();
        while toks.peek().map(String::as_str) != Some(")") {
            items.push(go(toks));
        }
        toks.next();
        Sexp::List(items)
    }
    let toks: Vec<String> = s
        .replace('(', " ( ")
        .replace(')', " ) ")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    go(&mut toks.into_iter().peekable())
}

pub(super) fn script_text(cmds: &[Command], extra: &[Sexp]) -> String {
    let mut s = String::from("(set-logic QF_UFBV)\n");
    for c in cmds {
        s.push_str(&format!("{c}\n"));
    }
    for e in extra {
        s.push_str(&format!("(assert {e})\n"));
    }
    s.push_str("(check-sat)\n");
    s
}
