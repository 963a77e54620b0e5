//! Encoder tests on hand-built IR, answered by z3 through a plain pipe (independent of the
//! solver module).
use super::*;
use crate::ir::{ArrayDecl, Dim, Kernel, Param, Space, Ty};
use std::io::Write;
use std::process::{Command as Proc, Stdio};
use std::sync::Arc;

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
            let out = String::from_utf8_lossy(&out.stdout).to_string();
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
    assert_eq!(r.len(), 1);
    assert!(!r[0].1, "{r:?}");
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
                b.push(st(StmtKind::Barrier, 4));
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
            st(StmtKind::Barrier, 4),
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
                    then: vec![st(StmtKind::Barrier, 4)],
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
