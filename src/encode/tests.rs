//! Encoder tests on hand-built IR, answered by z3 through a plain pipe (independent of the
//! solver module).
use super::ssa::Encoder;
use super::terms::{app, atom, bvn};
use super::*;
use crate::ir::{
    ArrayDecl, ArrayId, AtomicOp, BarrierScope, BinOp, Builtin, Dim, Expr, Kernel, Param, Space, Span, Stmt, StmtKind,
    Ty,
};
use crate::passes::Geometry;
use crate::solver::{Command, Query, Script, Sexp};
use std::io::Write;
use std::process::{Command as Proc, Stdio};
use std::sync::Arc;

/// [`super::encode`]: no memory bound runs in unit tests.
fn encode(k: &crate::ir::Kernel, g: &Geometry) -> Encoded {
    super::encode(k, g).expect("no memory bound in unit tests")
}

/// [`super::encode_with`]: no memory bound runs in unit tests.
fn encode_with(k: &crate::ir::Kernel, g: &Geometry, opts: &EncodeOptions) -> Encoded {
    super::encode_with(k, g, opts).expect("no memory bound in unit tests")
}

fn sp(line: u32) -> Span {
    Span::point(Arc::from("t.cu"), line, 1)
}

fn st(kind: StmtKind, line: u32) -> Stmt {
    Stmt { kind, span: sp(line) }
}

fn tid() -> Expr {
    Expr::Builtin(Builtin::ThreadIdx(Dim::X))
}

fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::Binary {
        op,
        lhs: Box::new(a),
        rhs: Box::new(b),
        ty,
    }
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
    let mut k = Kernel {
        name: "k".into(),
        span: sp(1),
        params: vec![],
        vars: vec![],
        arrays: vec![ArrayDecl {
            name: "a".into(),
            space,
            elem: Ty::I32,
            dims: vec![64],
            span: sp(2),
        }],
        body: vec![],
        next_block: 0,
        unchecked: Vec::new(),
        language: Default::default(),
        signed_ops: Vec::new(),
        uninterpreted: Vec::new(),
        notes: Vec::new(),
    };
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

#[test]
fn disjoint_writes_verify() {
    // a[tid] = 0
    let k = kernel(Space::Shared, |_| {
        vec![st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: off(tid()),
                value: Expr::int(0, Ty::I32),
                ty: Ty::I32,
            },
            3,
        )]
    });
    let r = answers(&k, &block64());
    // The race check and its harmful variant (both threads write 0).
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r.iter().all(|x| !x.1), "{r:?}");
}

/// `a[0] = value` by every thread.
fn store_zero_index(value: Expr) -> Kernel {
    kernel(Space::Shared, |_| {
        vec![st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: off(Expr::int(0, Ty::U32)),
                value,
                ty: Ty::I32,
            },
            3,
        )]
    })
}

#[test]
fn same_value_writes_race_only_benignly() {
    // a[0] = 1: a race, no harmful one.
    let k = store_zero_index(Expr::int(1, Ty::I32));
    let e = encode(&k, &block64());
    assert!(matches!(e.checks[0].property, Property::Race { .. }) && e.checks[0].benign);
    assert!(matches!(e.checks[1].property, Property::HarmfulRace { .. }));
    let r = answers(&k, &block64());
    assert_eq!(
        r,
        [
            ("k.race.a.seg0.L3".to_string(), true),
            ("k.race.a.seg0.L3.harmful".to_string(), false)
        ]
    );
    // a[0] = tid & 1: threads of different parity write different values.
    let parity = bin(BinOp::BitAnd, tid(), Expr::int(1, Ty::U32), Ty::U32);
    let k = store_zero_index(Expr::Cast {
        arg: Box::new(parity),
        ty: Ty::I32,
    });
    assert_eq!(answers(&k, &block64()).iter().filter(|x| x.1).count(), 2);
    // Without benign races, or in a kernel that calls a function without a body, there is
    // no harmful variant.
    let k = store_zero_index(Expr::int(1, Ty::I32));
    let strict = EncodeOptions {
        benign: Benign::Off,
        ..EncodeOptions::pair()
    };
    let e = encode_with(&k, &block64(), &strict);
    assert_eq!(e.checks.len(), 1);
    assert!(!e.checks[0].benign);
    let mut k = store_zero_index(Expr::Opaque {
        name: "clock".into(),
        args: vec![],
        ty: Ty::I32,
    });
    k.uninterpreted.push("clock".into());
    assert_eq!(encode(&k, &block64()).checks.len(), 1);
}

#[test]
fn copied_value_is_benign_only_under_the_equality_abstraction() {
    // v = a[1]; a[0] = v: both threads copy one location, so they write one value, which
    // GPUVerify's default (adversarial) abstraction does not know.
    let k = kernel(Space::Shared, |k| {
        let v = k.new_var("v", Ty::I32);
        vec![
            st(
                StmtKind::Load {
                    dst: v,
                    array: ArrayId(0),
                    offset: off(Expr::int(1, Ty::U32)),
                    ty: Ty::I32,
                },
                3,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(Expr::int(0, Ty::U32)),
                    value: Expr::Var { id: v, ty: Ty::I32 },
                    ty: Ty::I32,
                },
                4,
            ),
        ]
    });
    let e = encode(&k, &block64());
    assert_eq!(e.checks.len(), 1, "no harmful variant: the value is read");
    let equality = EncodeOptions {
        benign: Benign::Equality,
        ..EncodeOptions::pair()
    };
    let e = encode_with(&k, &block64(), &equality);
    assert_eq!(e.checks.len(), 2);
    assert!(matches!(e.checks[1].property, Property::HarmfulRace { .. }));
    let harmful = z3_says(&render(&e, &e.checks[1].query));
    assert!(harmful.starts_with("unsat"), "{harmful}");
}

#[test]
fn atomic_and_plain_write_race_is_never_benign() {
    // atomicExch(&a[0], 1) and a[0] = 1: what an atomic writes is not compared.
    let k = kernel(Space::Shared, |_| {
        vec![
            st(
                StmtKind::Atomic {
                    op: AtomicOp::Exch,
                    scope: crate::ir::AtomicScope::Device,
                    dst: None,
                    array: ArrayId(0),
                    offset: off(Expr::int(0, Ty::U32)),
                    operands: vec![Expr::int(1, Ty::I32)],
                    ty: Ty::I32,
                },
                3,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(Expr::int(0, Ty::U32)),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                4,
            ),
        ]
    });
    let e = encode(&k, &block64());
    // The plain write races with itself benignly, and with the atomic harmfully.
    let r = answers(&k, &block64());
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r.iter().all(|x| x.1), "{r:?}");
    assert!(matches!(e.checks[1].property, Property::HarmfulRace { .. }));
}

#[test]
fn neighbour_read_races_without_barrier_and_not_with_it() {
    for with_barrier in [false, true] {
        let k = kernel(Space::Shared, |k| {
            let v = k.new_var("v", Ty::I32);
            let mut b = vec![st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(tid()),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                3,
            )];
            if with_barrier {
                b.push(st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 4));
            }
            let next = bin(BinOp::Add, tid(), Expr::int(1, Ty::U32), Ty::U32);
            b.push(st(
                StmtKind::Load {
                    dst: v,
                    array: ArrayId(0),
                    offset: off(next),
                    ty: Ty::I32,
                },
                5,
            ));
            b
        });
        let r = answers(&k, &block64());
        assert_eq!(r.iter().any(|x| x.1), !with_barrier, "{r:?}");
    }
}

#[test]
fn global_array_races_across_blocks_despite_barrier() {
    // a[tid] = 1; __syncthreads(); v = a[tid + 1];  global: blocks are not ordered.
    let k = kernel(Space::Global, |k| {
        let v = k.new_var("v", Ty::I32);
        let next = bin(BinOp::Add, tid(), Expr::int(1, Ty::U32), Ty::U32);
        vec![
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(tid()),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                3,
            ),
            st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 4),
            st(
                StmtKind::Load {
                    dst: v,
                    array: ArrayId(0),
                    offset: off(next),
                    ty: Ty::I32,
                },
                5,
            ),
        ]
    });
    let r = answers(&k, &block64());
    assert!(r.iter().any(|x| x.0.contains("cross") && x.1), "{r:?}");
    // With one block the barrier orders them.
    let one = Geometry {
        block_dim: [Some(64), Some(1), Some(1)],
        grid_dim: [Some(1); 3],
    };
    assert!(answers(&k, &one).iter().all(|x| !x.1));
}

#[test]
fn barrier_under_thread_dependent_condition_diverges() {
    for (cond, diverges) in [
        (bin(BinOp::Lt, tid(), Expr::int(16, Ty::U32), Ty::Bool), true),
        (
            bin(
                BinOp::Lt,
                Expr::Builtin(Builtin::BlockIdx(Dim::X)),
                Expr::int(2, Ty::U32),
                Ty::Bool,
            ),
            false,
        ),
    ] {
        let k = kernel(Space::Shared, |_| {
            vec![st(
                StmtKind::If {
                    cond,
                    then: vec![st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 4)],
                    els: vec![],
                },
                3,
            )]
        });
        let r = answers(&k, &block64());
        assert_eq!(r, vec![("k.divergence.L4".to_string(), diverges)]);
    }
}

#[test]
fn char_view_overlaps_int_view() {
    // ((int*)a)[tid] = 0 and ((char*)a)[tid] = 0: thread 0's int covers bytes 0..3 = thread 1's char.
    let k = kernel(Space::Shared, |_| {
        let byte_off = Expr::Cast {
            arg: Box::new(tid()),
            ty: Ty::I64,
        };
        let c8 = Ty::Int { bits: 8, signed: true };
        vec![
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(tid()),
                    value: Expr::int(0, Ty::I32),
                    ty: Ty::I32,
                },
                3,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: byte_off,
                    value: Expr::int(0, c8),
                    ty: c8,
                },
                4,
            ),
        ]
    });
    assert!(answers(&k, &block64()).iter().any(|x| x.1));
}

#[test]
fn early_return_guards_later_accesses() {
    // if (tid != 0) return; a[0] = 1;  only thread 0 writes: no race.
    let k = kernel(Space::Shared, |_| {
        vec![
            st(
                StmtKind::If {
                    cond: bin(BinOp::Ne, tid(), Expr::int(0, Ty::U32), Ty::Bool),
                    then: vec![st(StmtKind::Return, 3)],
                    els: vec![],
                },
                3,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: Expr::int(0, Ty::I64),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                4,
            ),
        ]
    });
    assert!(answers(&k, &block64()).iter().all(|x| !x.1));
}

#[test]
fn scalar_parameter_is_uniform() {
    // a[tid + n] = 0 with n a parameter: both threads see the same n, so no race.
    let mut k = kernel(Space::Shared, |_| vec![]);
    let n = k.new_var("n", Ty::U32);
    k.params.push(Param {
        name: "n".into(),
        kind: crate::ir::ParamKind::Scalar(n),
    });
    let idx = bin(BinOp::Add, tid(), Expr::Var { id: n, ty: Ty::U32 }, Ty::U32);
    k.body = vec![st(
        StmtKind::Store {
            array: ArrayId(0),
            offset: off(idx),
            value: Expr::int(0, Ty::I32),
            ty: Ty::I32,
        },
        3,
    )];
    assert!(answers(&k, &block64()).iter().all(|x| !x.1));
}

#[test]
fn atomics_do_not_race_with_each_other() {
    let k = kernel(Space::Shared, |_| {
        vec![st(
            StmtKind::Atomic {
                op: AtomicOp::Add,
                scope: crate::ir::AtomicScope::Device,
                dst: None,
                array: ArrayId(0),
                offset: Expr::int(0, Ty::I64),
                operands: vec![Expr::int(1, Ty::I32)],
                ty: Ty::I32,
            },
            3,
        )]
    });
    let e = encode(&k, &block64());
    assert!(e.checks.is_empty());
    assert_eq!(e.notes.len(), 1);
}

/// Issue 22: `atomicAdd_block(&a[0], 1)` by every thread. Block scope orders only the threads
/// of one block: on a global array two blocks race (and the witness's blocks differ), within
/// one block they do not; a `__shared__` array is one block's, so it never races; device scope
/// never races.
#[test]
fn block_scope_atomics_race_across_blocks_only() {
    use crate::ir::AtomicScope;
    let bump = |space: Space, scope: AtomicScope| {
        kernel(space, |_| {
            vec![st(
                StmtKind::Atomic {
                    op: AtomicOp::Add,
                    scope,
                    dst: None,
                    array: ArrayId(0),
                    offset: Expr::int(0, Ty::I64),
                    operands: vec![Expr::int(1, Ty::I32)],
                    ty: Ty::I32,
                },
                3,
            )]
        })
    };
    let one_block = Geometry {
        block_dim: [Some(64), Some(1), Some(1)],
        grid_dim: [Some(1), Some(1), Some(1)],
    };
    let global = bump(Space::Global, AtomicScope::Block);
    assert_eq!(answers(&global, &block64()), [("k.race.a.seg0.L3".to_string(), true)]);
    assert_eq!(answers(&global, &one_block), [("k.race.a.seg0.L3".to_string(), false)]);
    // The witness: two blocks, and the scope named.
    let e = encode(&global, &block64());
    let text = render(&e, &e.checks[0].query).replace("(check-sat)\n", "");
    let model = z3_model(&text, &e.checks[0].query.get_values);
    let f = e.checks[0].finding(&global, &model);
    assert_ne!(f.accesses[0].block, f.accesses[1].block, "{f:?}");
    let reason = f.reason.expect("a reason");
    assert!(
        reason.starts_with("atomicAdd_block by blocks")
            && reason.ends_with("block scope does not order threads of different blocks"),
        "{reason}"
    );
    assert!(
        encode(&bump(Space::Shared, AtomicScope::Block), &block64())
            .checks
            .is_empty()
    );
    assert!(
        encode(&bump(Space::Global, AtomicScope::Device), &block64())
            .checks
            .is_empty()
    );
    assert!(
        encode(&bump(Space::Global, AtomicScope::System), &block64())
            .checks
            .is_empty()
    );
}

/// `while (i < n) { a[i] = 0; i += 2; }` abstracted with the closed form `claimed` for `i`.
fn loop_with_closed_form(claimed: crate::ir::ClosedForm) -> Kernel {
    let mut k = kernel(Space::Global, |_| vec![]);
    let i = k.new_var("i", Ty::U32);
    let n = k.new_var("n", Ty::U32);
    let brk = k.new_block();
    let cont = k.new_block();
    let iv = Expr::Var { id: i, ty: Ty::U32 };
    let abs = crate::ir::AbstractLoop {
        cond_stmts: vec![],
        cond: bin(BinOp::Lt, iv.clone(), Expr::Var { id: n, ty: Ty::U32 }, Ty::Bool),
        body: vec![
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(iv.clone()),
                    value: Expr::int(0, Ty::I32),
                    ty: Ty::I32,
                },
                5,
            ),
            st(
                StmtKind::Assign {
                    var: i,
                    value: bin(BinOp::Add, iv, Expr::int(2, Ty::U32), Ty::U32),
                },
                6,
            ),
        ],
        step: vec![],
        do_while: false,
        brk,
        cont,
        closed: vec![(i, claimed)],
        havocked: vec![],
        written: vec![ArrayId(0)],
        barriers: Some(0),
        invariants: vec![],
    };
    k.body = vec![
        st(StmtKind::Havoc { var: n }, 3),
        st(StmtKind::Assign { var: i, value: tid() }, 4),
        st(StmtKind::AbstractLoop(Box::new(abs)), 4),
    ];
    k
}

#[test]
fn closed_form_step_check_accepts_the_right_stride() {
    let k = loop_with_closed_form(crate::ir::ClosedForm::Linear(Expr::int(2, Ty::U32)));
    let r = answers(&k, &block64());
    let step: Vec<_> = r.iter().filter(|(n, _)| n.contains(".loop.")).collect();
    assert_eq!(step, vec![&("k.loop.L4.i".to_string(), false)]);
}

#[test]
fn closed_form_step_check_rejects_a_wrong_rule() {
    // Claiming `i = i0 + it` for `i += 2` fails the step check (sat), so the driver havocs `i`.
    let k = loop_with_closed_form(crate::ir::ClosedForm::Linear(Expr::int(1, Ty::U32)));
    let r = answers(&k, &block64());
    assert!(r.contains(&("k.loop.L4.i".to_string(), true)), "{r:?}");
}

#[test]
fn threads_in_different_iterations_race_without_a_barrier() {
    // With stride 1 instead of 2 the threads' ranges interleave: i = t1 + a = t2 + b.
    let mut k = loop_with_closed_form(crate::ir::ClosedForm::Linear(Expr::int(1, Ty::U32)));
    let StmtKind::AbstractLoop(l) = &mut k.body[2].kind else {
        panic!("loop")
    };
    let iv = Expr::Var {
        id: l.closed[0].0,
        ty: Ty::U32,
    };
    l.body[1].kind = StmtKind::Assign {
        var: l.closed[0].0,
        value: bin(BinOp::Add, iv, Expr::int(1, Ty::U32), Ty::U32),
    };
    let r = answers(&k, &block64());
    assert!(r.iter().any(|(n, sat)| n.starts_with("k.race.a") && *sat), "{r:?}");
    // Stride 2 races too: thread 0's second element is thread 2's first.
    let k2 = loop_with_closed_form(crate::ir::ClosedForm::Linear(Expr::int(2, Ty::U32)));
    assert!(
        answers(&k2, &block64())
            .iter()
            .any(|(n, sat)| n.starts_with("k.race.a") && *sat)
    );
}

#[test]
fn a_later_assumption_cannot_hide_an_earlier_race() {
    // a[0] = tid; __assume(false);  the race happens before the assumption blocks the path.
    let k = kernel(Space::Shared, |_| {
        vec![
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: Expr::int(0, Ty::I64),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                3,
            ),
            st(
                StmtKind::Assume {
                    cond: Expr::bool(false),
                },
                4,
            ),
        ]
    });
    assert!(answers(&k, &block64()).iter().any(|x| x.1));
    // An assumption before the access does restrict it: only thread 0 writes.
    let k = kernel(Space::Shared, |_| {
        vec![
            st(
                StmtKind::Assume {
                    cond: bin(BinOp::Eq, tid(), Expr::int(0, Ty::U32), Ty::Bool),
                },
                3,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: Expr::int(0, Ty::I64),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                4,
            ),
        ]
    });
    assert!(answers(&k, &block64()).iter().all(|x| !x.1));
}

// ---- nonlinear: mixed-radix lemmas and the relaxation ----

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

/// The step checks compare the body's effect with one step of the rule from the value at `it`
/// (`Encoder::one_step`) rather than with the closed form at `it + 1`; the two are the same
/// term for every rule, width and signedness, for any entry value, stride and `it < 2^48`.
#[test]
fn closed_form_next_is_one_step() {
    use crate::ir::ClosedForm;
    for (bits, signed) in [(8, false), (8, true), (32, false), (32, true), (64, false), (64, true)] {
        let ty = Ty::Int { bits, signed };
        let w = ty.bits();
        let mut k = kernel(Space::Global, |_| vec![]);
        let v = k.new_var("v", ty);
        let stride = k.new_var("k", ty);
        let g = block64();
        for cf in [
            ClosedForm::Linear(Expr::Var { id: stride, ty }),
            ClosedForm::Halving,
            ClosedForm::Doubling,
        ] {
            let mut e = Encoder::new(&k, &g, &EncodeOptions::pair());
            let mut ts = e.initial_states().remove(0);
            e.havoc(stride, &mut ts, 0);
            let v0 = atom("v0");
            let it = atom("it");
            let next = app("bvadd", vec![it.clone(), bvn(1, 64)]);
            let at_it = e.closed_value(v, &cf, v0.clone(), &it, &mut ts, 0);
            let at_next = e.closed_value(v, &cf, v0, &next, &mut ts, 0);
            let step = e.one_step(v, &cf, at_it, &mut ts, 0);
            let mut text = String::from("(set-logic QF_ABV)\n");
            for c in e.decls.iter().chain(e.cmds.iter()) {
                if !matches!(c, Command::Assert(_)) {
                    text.push_str(&format!("{c}\n"));
                }
            }
            text.push_str(&format!(
                "(declare-const v0 (_ BitVec {w}))\n(declare-const it (_ BitVec 64))\n\
                 (assert (bvult it #x0001000000000000))\n(assert (not (= {at_next} {step})))\n(check-sat)\n"
            ));
            assert_eq!(z3_says(&text), "unsat", "{ty:?} {cf:?}\n{text}");
        }
    }
}

/// [`EncodeOptions::preferred`] changes no answer: the script and every check are those of
/// the encoding without it (its definitions come last), and the term, asserted, means the
/// condition. Relaxed, its products stay out of the script ([`nonlinear::Preferred`]).
#[test]
fn preferred_conditions_are_a_term_apart() {
    let bid = || Expr::Builtin(Builtin::BlockIdx(Dim::X));
    let bdim = || Expr::Builtin(Builtin::BlockDim(Dim::X));
    let gdim = || Expr::Builtin(Builtin::GridDim(Dim::X));
    // a[blockIdx.x * blockDim.x + threadIdx.x] = 0, global.
    let k = kernel(Space::Global, |_| {
        let i = bin(BinOp::Add, bin(BinOp::Mul, bid(), bdim(), Ty::U32), tid(), Ty::U32);
        vec![st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: off(i),
                value: Expr::int(0, Ty::I32),
                ty: Ty::I32,
            },
            3,
        )]
    });
    let symbolic = Geometry {
        block_dim: [None, Some(1), Some(1)],
        grid_dim: [None, Some(1), Some(1)],
    };
    let wide = |e: Expr| Expr::Cast {
        arg: Box::new(e),
        ty: Ty::Int {
            bits: 64,
            signed: false,
        },
    };
    let u64 = Ty::Int {
        bits: 64,
        signed: false,
    };
    // blockDim.x is a power of two, and gridDim.x * blockDim.x <= 2^31 without wrapping.
    let pow2 = bin(
        BinOp::Eq,
        bin(
            BinOp::BitAnd,
            bdim(),
            bin(BinOp::Sub, bdim(), Expr::int(1, Ty::U32), Ty::U32),
            Ty::U32,
        ),
        Expr::int(0, Ty::U32),
        Ty::Bool,
    );
    let fits = bin(
        BinOp::Le,
        bin(BinOp::Mul, wide(gdim()), wide(bdim()), u64),
        Expr::int(1 << 31, u64),
        Ty::Bool,
    );
    let plain = encode(&k, &symbolic);
    let opts = EncodeOptions {
        preferred: vec![pow2, fits],
        barrier_access_checks: true,
        only_intra_group: false,
        ..EncodeOptions::pair()
    };
    let with = encode_with(&k, &symbolic, &opts);
    assert!(plain.preferred.is_none());
    let term = with.preferred.clone().expect("a preferred term");
    assert_eq!(
        plain.script.commands,
        with.script.commands[..plain.script.commands.len()]
    );
    assert!(
        with.script.commands[plain.script.commands.len()..]
            .iter()
            .all(|c| !matches!(c, Command::Assert(_))),
        "only definitions follow"
    );
    let queries = |e: &Encoded| e.checks.iter().map(|c| c.query.assertions.clone()).collect::<Vec<_>>();
    assert_eq!(queries(&plain), queries(&with));
    // Not asserted by the script: blockDim.x = 3 is a launch; under the term it is not.
    let three = Query {
        name: "three".into(),
        assertions: vec![app("=", vec![atom("blockDim.x"), bvn(3, 32)])],
        get_values: Vec::new(),
    };
    assert!(z3_says(&render(&with, &three)).starts_with("sat"));
    let mut preferred = three.clone();
    preferred.assertions.push(term);
    assert!(z3_says(&render(&with, &preferred)).starts_with("unsat"));
    // The relaxation: the same script assertions; the 64-bit product of the term is its own.
    let (rp, rw) = (
        nonlinear::relax(&plain).expect("products"),
        nonlinear::relax(&with).expect("products"),
    );
    let asserts = |s: &Script| {
        s.commands
            .iter()
            .filter(|c| matches!(c, Command::Assert(_)))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(asserts(&rp.script), asserts(&rw.script));
    let p = rw.preferred.expect("relaxed preferred term");
    assert!(p.term.to_string().contains("nl.mul64"), "{}", p.term);
    assert!(rp.preferred.is_none());
}

#[test]
fn no_overflow_conditions_of_the_program_are_asserted_where_the_thread_is() {
    // a[tid * 3 + 2 * 3] = 0 under --no-overflow.
    let u = Ty::U32;
    let index = bin(
        BinOp::Add,
        bin(BinOp::Mul, tid(), Expr::int(3, u), u),
        bin(BinOp::Mul, Expr::int(2, u), Expr::int(3, u), u),
        u,
    );
    let k = kernel(Space::Shared, |_| {
        vec![st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: off(index),
                value: Expr::int(0, Ty::I32),
                ty: Ty::I32,
            },
            3,
        )]
    });
    let opts = EncodeOptions {
        no_overflow: true,
        ..EncodeOptions::pair()
    };
    let e = encode_with(&k, &block64(), &opts);
    // No chain of assumptions: each condition is asserted, guarded by the thread's path.
    let defined: Vec<&str> = e
        .script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::DefineConst { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert!(!defined.iter().any(|n| n.contains("assumed")), "{defined:?}");
    let guarded: Vec<String> = e
        .script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Assert(t) => Some(t.to_string()),
            _ => None,
        })
        .filter(|t| t.contains("#x00000003") || t.contains("#x55555555"))
        .collect();
    for th in ["t1", "t2"] {
        let mine: Vec<&String> = guarded
            .iter()
            .filter(|t| t.contains(&format!("{th}.threadIdx.x")))
            .collect();
        // `tid * 3` and the sum, each once (the thread is always here: no guard); the literal
        // product folds to 6, and the byte offset of a widened index cannot wrap.
        assert_eq!(mine.len(), 2, "{th}: {guarded:#?}");
        assert!(mine[0].starts_with("(bvule "), "{th}: {guarded:#?}");
    }
    assert!(!guarded.iter().any(|t| t.contains("#x00000002")), "{guarded:#?}");
    // The conditions only leave out wrapping threads: the disjoint writes still verify.
    for c in &e.checks {
        let out = z3_says(&render(&e, &c.query));
        assert!(out.starts_with("unsat"), "{}: {out}", c.query.name);
    }
}

/// `a[tid] = x < 100 ? x * K : 0` with `x = (int)tid` and `K` a literal, the product recorded as
/// the kernel's one source-level signed operation, and an unsigned `tid * 7` that is not one.
fn select_of_a_signed_product(k_value: i64) -> crate::ir::Kernel {
    let i = Ty::I32;
    kernel(Space::Shared, |k| {
        let x = k.new_var("x", i);
        let xv = Expr::Var { id: x, ty: i };
        let product = bin(BinOp::Mul, xv.clone(), Expr::int(k_value, i), i);
        k.signed_ops.push(crate::ir::SignedOp {
            expr: product.clone(),
            span: sp(3),
            text: "x * K".into(),
        });
        let value = Expr::Select {
            cond: Box::new(bin(BinOp::Lt, xv, Expr::int(100, i), Ty::Bool)),
            then: Box::new(product),
            els: Box::new(Expr::int(0, i)),
            ty: i,
        };
        let unsigned = bin(BinOp::Mul, tid(), Expr::int(7, Ty::U32), Ty::U32);
        vec![
            st(
                StmtKind::Assign {
                    var: x,
                    value: Expr::Cast {
                        arg: Box::new(tid()),
                        ty: i,
                    },
                },
                2,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(bin(BinOp::Rem, unsigned, Expr::int(64, Ty::U32), Ty::U32)),
                    value,
                    ty: i,
                },
                3,
            ),
        ]
    })
}

#[test]
fn signed_no_overflow_is_asserted_for_source_operations_where_they_are_evaluated() {
    let k = select_of_a_signed_product(1000);
    let opts = EncodeOptions {
        signed_no_overflow: vec![0],
        ..EncodeOptions::pair()
    };
    let e = encode_with(&k, &block64(), &opts);
    let asserted: Vec<String> = e
        .script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Assert(t) => Some(t.to_string()),
            _ => None,
        })
        .collect();
    // One condition per thread, on the product by the literal 1000: `x` within
    // ±2147483647 / 1000 (#x0020c49b), conditioned on the select's arm (`x < 100`,
    // #x00000064); none on the unsigned `tid * 7`.
    let product: Vec<&String> = asserted.iter().filter(|t| t.contains("#x0020c49b")).collect();
    assert_eq!(product.len(), 2, "{asserted:#?}");
    for t in &product {
        assert!(t.starts_with("(=> (bvslt ") && t.contains("#x00000064"), "{t}");
    }
    assert!(!asserted.iter().any(|t| t.contains("#x00000007")), "{asserted:#?}");
    // Without the option the script asserts nothing of the product.
    let plain = encode_with(&k, &block64(), &EncodeOptions::pair());
    assert!(
        !plain
            .script
            .commands
            .iter()
            .any(|c| matches!(c, Command::Assert(t) if t.to_string().contains("#x0020c49b"))),
    );
}

#[test]
fn check_overflow_asks_one_query_per_source_operation() {
    let opts = EncodeOptions {
        check_overflow: true,
        ..EncodeOptions::pair()
    };
    let overflow_checks = |e: &Encoded| -> Vec<String> {
        e.checks
            .iter()
            .filter(|c| matches!(c.property, Property::SignedOverflow { op: 0, .. }))
            .map(|c| z3_says(&render(e, &c.query)))
            .collect()
    };
    // x < 64 and x < 100: x * 1000 fits.
    let fits = encode_with(&select_of_a_signed_product(1000), &block64(), &opts);
    let answers = overflow_checks(&fits);
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(answers[0].starts_with("unsat"), "{answers:?}");
    // x * 100000000 overflows for x >= 22, which the arm x < 100 allows.
    let wraps = encode_with(&select_of_a_signed_product(100_000_000), &block64(), &opts);
    let answers = overflow_checks(&wraps);
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(answers[0].starts_with("sat"), "{answers:?}");
}
