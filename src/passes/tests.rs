//! Pass tests on hand-built IR: propagation, unrolling, unwinding, loop abstraction and closed
//! forms, counted with the IR walker. The kernels are well formed as the front end makes them
//! (every variable defined before it is read: an uninitialised one is havocked), since
//! [`prepare`] validates what each pass leaves in unit tests.

use super::*;
use crate::ir::testing::{bin, kernel_with_array, sp, st};
use crate::ir::visit::Visitor;
use crate::ir::{BarrierScope, BinOp, Builtin, ClosedForm, Dim, Kernel, Space, StmtKind, Ty};

fn var(id: VarId) -> Expr {
    Expr::Var { id, ty: Ty::U32 }
}

fn kernel() -> (Kernel, VarId) {
    let mut k = kernel_with_array("s", Space::Shared, 256);
    let s = k.new_var("s", Ty::U32);
    (k, s)
}

/// `for (s = blockDim.x / 2; s > 0; s >>= 1) { s_arr[0] = 0; __syncthreads(); }`
fn halving_loop(k: &mut Kernel, s: VarId) {
    let init = st(
        StmtKind::Assign {
            var: s,
            value: bin(
                BinOp::Div,
                Expr::Builtin(Builtin::BlockDim(Dim::X)),
                Expr::int(2, Ty::U32),
                Ty::U32,
            ),
        },
        3,
    );
    let body = vec![
        st(
            StmtKind::Store {
                array: crate::ir::ArrayId(0),
                offset: Expr::int(0, Ty::I64),
                value: Expr::int(0, Ty::I32),
                ty: Ty::I32,
            },
            4,
        ),
        st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 5),
    ];
    let step = vec![st(
        StmtKind::Assign {
            var: s,
            value: bin(BinOp::Shr, var(s), Expr::int(1, Ty::I32), Ty::U32),
        },
        3,
    )];
    let l = StmtKind::Loop {
        cond_stmts: vec![],
        cond: bin(BinOp::Gt, var(s), Expr::int(0, Ty::U32), Ty::Bool),
        body,
        step,
        do_while: false,
    };
    k.body = vec![init, st(l, 3)];
}

/// How many statements of `stmts`, at any depth, satisfy `pred`.
fn count(stmts: &[Stmt], pred: &dyn Fn(&StmtKind) -> bool) -> usize {
    struct Count<'a>(&'a dyn Fn(&StmtKind) -> bool, usize);
    impl Visitor for Count<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            self.1 += (self.0)(&s.kind) as usize;
            self.super_stmt(s);
        }
    }
    let mut c = Count(pred, 0);
    c.visit_block(stmts);
    c.1
}

#[test]
fn halving_loop_unrolls_for_concrete_block() {
    let (mut k, s) = kernel();
    halving_loop(&mut k, s);
    let g = Geometry {
        block_dim: [Some(256), Some(1), Some(1)],
        grid_dim: [Some(1); 3],
    };
    let p = prepare(&k, &g, &PassOptions::default()).expect("well formed");
    assert!(p.inconclusive.is_empty());
    assert_eq!(p.loops, vec![(sp(3), LoopTreatment::Unrolled(8))]);
    assert_eq!(count(&p.kernel.body, &|k| matches!(k, StmtKind::Barrier(..))), 8);
    assert_eq!(count(&p.kernel.body, &|k| matches!(k, StmtKind::Loop { .. })), 0);
}

/// The abstracted loop of a prepared kernel's body (the first one at the top level).
fn abstracted(p: &Prepared) -> &crate::ir::AbstractLoop {
    p.kernel
        .body
        .iter()
        .find_map(|s| match &s.kind {
            StmtKind::AbstractLoop(l) => Some(&**l),
            _ => None,
        })
        .expect("an abstracted loop")
}

fn assign(v: VarId, value: Expr, line: u32) -> Stmt {
    st(StmtKind::Assign { var: v, value }, line)
}

fn while_loop(cond: Expr, body: Vec<Stmt>, step: Vec<Stmt>, line: u32) -> Stmt {
    st(
        StmtKind::Loop {
            cond_stmts: vec![],
            cond,
            body,
            step,
            do_while: false,
        },
        line,
    )
}

#[test]
fn symbolic_trip_count_is_abstracted_with_a_halving_index() {
    let (mut k, s) = kernel();
    halving_loop(&mut k, s);
    let p = prepare(&k, &Geometry::default(), &PassOptions::default()).expect("well formed");
    assert!(p.inconclusive.is_empty());
    let l = abstracted(&p);
    assert_eq!(l.closed, vec![(s, ClosedForm::Halving)]);
    assert!(l.havocked.is_empty());
    assert_eq!(l.barriers, Some(1));
    assert_eq!(l.written, vec![crate::ir::ArrayId(0)]);
    assert!(matches!(&p.loops[0].1, LoopTreatment::Abstracted { closed, .. } if closed == &["s".to_string()]));
}

#[test]
fn loop_over_the_unroll_limit_is_abstracted() {
    let (mut k, s) = kernel();
    halving_loop(&mut k, s);
    let g = Geometry {
        block_dim: [Some(256), Some(1), Some(1)],
        grid_dim: [Some(1); 3],
    };
    let p = prepare(
        &k,
        &g,
        &PassOptions {
            unroll: 4,
            ..PassOptions::default()
        },
    )
    .expect("well formed");
    assert!(p.inconclusive.is_empty());
    assert!(matches!(p.loops[0].1, LoopTreatment::Abstracted { .. }));
}

#[test]
fn unit_stride_and_partner_are_linear() {
    // for (i = tid; i < n; i += blockDim.x) { j += 4; }
    let (mut k, i) = kernel();
    let n = k.new_var("n", Ty::U32);
    let j = k.new_var("j", Ty::U32);
    let bd = Expr::Builtin(Builtin::BlockDim(Dim::X));
    let body = vec![assign(j, bin(BinOp::Add, var(j), Expr::int(4, Ty::U32), Ty::U32), 5)];
    let step = vec![assign(i, bin(BinOp::Add, var(i), bd.clone(), Ty::U32), 4)];
    k.body = vec![
        st(StmtKind::Havoc { var: n }, 3),
        st(StmtKind::Havoc { var: j }, 3),
        assign(i, Expr::Builtin(Builtin::ThreadIdx(Dim::X)), 4),
        while_loop(bin(BinOp::Lt, var(i), var(n), Ty::Bool), body, step, 4),
    ];
    let p = prepare(&k, &Geometry::default(), &PassOptions::default()).expect("well formed");
    let l = abstracted(&p);
    assert_eq!(
        l.closed,
        vec![
            (i, ClosedForm::Linear(bd)),
            (j, ClosedForm::Linear(Expr::int(4, Ty::U32)))
        ]
    );
    assert_eq!(l.barriers, Some(0));
}

#[test]
fn decrement_and_doubling_forms() {
    let (mut k, i) = kernel();
    let j = k.new_var("j", Ty::U32);
    let body = vec![assign(j, bin(BinOp::Mul, var(j), Expr::int(2, Ty::U32), Ty::U32), 5)];
    let step = vec![assign(i, bin(BinOp::Sub, var(i), Expr::int(3, Ty::U32), Ty::U32), 4)];
    k.body = vec![
        st(StmtKind::Havoc { var: i }, 3),
        st(StmtKind::Havoc { var: j }, 3),
        while_loop(bin(BinOp::Gt, var(i), Expr::int(0, Ty::U32), Ty::Bool), body, step, 4),
    ];
    let p = prepare(&k, &Geometry::default(), &PassOptions::default()).expect("well formed");
    let l = abstracted(&p);
    let neg3 = Expr::Unary {
        op: crate::ir::UnOp::Neg,
        arg: Box::new(Expr::int(3, Ty::U32)),
        ty: Ty::U32,
    };
    assert_eq!(l.closed, vec![(i, ClosedForm::Linear(neg3)), (j, ClosedForm::Doubling)]);
}

#[test]
fn conditional_or_varying_updates_are_havocked() {
    // while (i < n) { if (tid == 0) j += 1; k += i; i += 1; }  j is conditional, k's stride varies.
    let (mut kern, i) = kernel();
    let n = kern.new_var("n", Ty::U32);
    let j = kern.new_var("j", Ty::U32);
    let kk = kern.new_var("k", Ty::U32);
    let tid = Expr::Builtin(Builtin::ThreadIdx(Dim::X));
    let body = vec![
        st(
            StmtKind::If {
                cond: bin(BinOp::Eq, tid, Expr::int(0, Ty::U32), Ty::Bool),
                then: vec![assign(j, bin(BinOp::Add, var(j), Expr::int(1, Ty::U32), Ty::U32), 6)],
                els: vec![],
            },
            6,
        ),
        assign(kk, bin(BinOp::Add, var(kk), var(i), Ty::U32), 7),
        assign(i, bin(BinOp::Add, var(i), Expr::int(1, Ty::U32), Ty::U32), 8),
    ];
    kern.body = vec![
        st(StmtKind::Havoc { var: n }, 3),
        st(StmtKind::Havoc { var: i }, 3),
        st(StmtKind::Havoc { var: j }, 3),
        st(StmtKind::Havoc { var: kk }, 3),
        while_loop(bin(BinOp::Lt, var(i), var(n), Ty::Bool), body, vec![], 5),
    ];
    let p = prepare(&kern, &Geometry::default(), &PassOptions::default()).expect("well formed");
    let l = abstracted(&p);
    assert_eq!(l.closed, vec![(i, ClosedForm::Linear(Expr::int(1, Ty::U32)))]);
    assert_eq!(l.havocked, vec![j, kk]);
}

#[test]
fn invariants_at_the_head_are_collected() {
    let (mut k, i) = kernel();
    let n = k.new_var("n", Ty::U32);
    let inv = bin(BinOp::Le, var(i), var(n), Ty::Bool);
    let body = vec![
        st(
            StmtKind::Invariant {
                body: vec![],
                cond: inv.clone(),
            },
            5,
        ),
        assign(i, bin(BinOp::Add, var(i), Expr::int(1, Ty::U32), Ty::U32), 6),
    ];
    k.body = vec![
        st(StmtKind::Havoc { var: n }, 3),
        assign(i, Expr::int(0, Ty::U32), 4),
        while_loop(bin(BinOp::Lt, var(i), var(n), Ty::Bool), body, vec![], 4),
    ];
    let p = prepare(&k, &Geometry::default(), &PassOptions::default()).expect("well formed");
    let l = abstracted(&p);
    assert_eq!(
        l.invariants,
        vec![crate::ir::LoopInvariant {
            body: vec![],
            cond: inv,
            span: sp(5)
        }]
    );
    assert_eq!(l.body.len(), 1);
}

#[test]
fn conditional_barrier_has_no_fixed_count() {
    let (mut k, i) = kernel();
    let n = k.new_var("n", Ty::U32);
    let tid = Expr::Builtin(Builtin::ThreadIdx(Dim::X));
    let body = vec![
        st(
            StmtKind::If {
                cond: bin(BinOp::Lt, tid, Expr::int(4, Ty::U32), Ty::Bool),
                then: vec![st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 6)],
                els: vec![],
            },
            6,
        ),
        assign(i, bin(BinOp::Add, var(i), Expr::int(1, Ty::U32), Ty::U32), 7),
    ];
    k.body = vec![
        st(StmtKind::Havoc { var: n }, 3),
        st(StmtKind::Havoc { var: i }, 3),
        while_loop(bin(BinOp::Lt, var(i), var(n), Ty::Bool), body, vec![], 5),
    ];
    let p = prepare(&k, &Geometry::default(), &PassOptions::default()).expect("well formed");
    assert_eq!(abstracted(&p).barriers, None);
}

#[test]
fn break_becomes_exit_of_the_loop_block() {
    let (mut k, s) = kernel();
    // for (s = 0; s < 4; s++) { if (threadIdx.x == s) break; }
    let cond = bin(BinOp::Eq, Expr::Builtin(Builtin::ThreadIdx(Dim::X)), var(s), Ty::Bool);
    let body = vec![st(
        StmtKind::If {
            cond,
            then: vec![st(StmtKind::Break, 9)],
            els: vec![],
        },
        9,
    )];
    let step = vec![st(
        StmtKind::Assign {
            var: s,
            value: bin(BinOp::Add, var(s), Expr::int(1, Ty::U32), Ty::U32),
        },
        8,
    )];
    let l = StmtKind::Loop {
        cond_stmts: vec![],
        cond: bin(BinOp::Lt, var(s), Expr::int(4, Ty::U32), Ty::Bool),
        body,
        step,
        do_while: false,
    };
    k.body = vec![
        st(
            StmtKind::Assign {
                var: s,
                value: Expr::int(0, Ty::U32),
            },
            8,
        ),
        st(l, 8),
    ];
    let p = prepare(&k, &Geometry::default(), &PassOptions::default()).expect("well formed");
    assert!(p.inconclusive.is_empty(), "{:?}", p.inconclusive);
    assert_eq!(p.loops[0].1, LoopTreatment::Unrolled(4));
    let StmtKind::Block { id, .. } = &p.kernel.body[1].kind else {
        panic!("expected the loop block")
    };
    assert_eq!(count(&p.kernel.body, &|k| matches!(k, StmtKind::Exit(e) if e == id)), 4);
    assert_eq!(count(&p.kernel.body, &|k| matches!(k, StmtKind::Break)), 0);
}

#[test]
fn constant_branch_is_folded() {
    let (mut k, s) = kernel();
    let cond = bin(
        BinOp::Gt,
        Expr::Builtin(Builtin::GridDim(Dim::X)),
        Expr::int(1, Ty::U32),
        Ty::Bool,
    );
    k.body = vec![st(
        StmtKind::If {
            cond,
            then: vec![st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 2)],
            els: vec![st(StmtKind::Havoc { var: s }, 3)],
        },
        2,
    )];
    let g = Geometry {
        block_dim: [Some(32), Some(1), Some(1)],
        grid_dim: [Some(1); 3],
    };
    let p = prepare(&k, &g, &PassOptions::default()).expect("well formed");
    assert_eq!(p.kernel.body.len(), 1);
    assert!(matches!(p.kernel.body[0].kind, StmtKind::Havoc { .. }));
}
