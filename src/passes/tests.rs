use super::*;
use crate::ir::{ArrayDecl, BinOp, Builtin, Dim, Kernel, Space, Ty};
use std::sync::Arc;

fn sp(line: u32) -> Span {
    Span::point(Arc::from("t.cu"), line, 1)
}

fn st(kind: StmtKind, line: u32) -> Stmt {
    Stmt { kind, span: sp(line) }
}

fn var(id: VarId) -> Expr {
    Expr::Var { id, ty: Ty::U32 }
}

fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::Binary {
        op,
        lhs: Box::new(a),
        rhs: Box::new(b),
        ty,
    }
}

fn kernel() -> (Kernel, VarId) {
    let mut k = Kernel {
        name: "k".into(),
        span: sp(1),
        params: vec![],
        vars: vec![],
        arrays: vec![ArrayDecl {
            name: "s".into(),
            space: Space::Shared,
            elem: Ty::I32,
            dims: vec![256],
            span: sp(2),
        }],
        body: vec![],
        next_block: 0,
    };
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
        st(StmtKind::Barrier, 5),
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

fn count(stmts: &[Stmt], pred: &dyn Fn(&StmtKind) -> bool) -> usize {
    stmts
        .iter()
        .map(|s| {
            let inner = match &s.kind {
                StmtKind::If { then, els, .. } => count(then, pred) + count(els, pred),
                StmtKind::Block { body, .. } => count(body, pred),
                StmtKind::Loop { body, .. } => count(body, pred),
                _ => 0,
            };
            inner + pred(&s.kind) as usize
        })
        .sum()
}

#[test]
fn halving_loop_unrolls_for_concrete_block() {
    let (mut k, s) = kernel();
    halving_loop(&mut k, s);
    let g = Geometry {
        block_dim: [Some(256), Some(1), Some(1)],
        grid_dim: [Some(1); 3],
    };
    let p = prepare(&k, &g, &PassOptions::default());
    assert!(p.inconclusive.is_empty());
    assert_eq!(p.loops, vec![(sp(3), LoopTreatment::Unrolled(8))]);
    assert_eq!(count(&p.kernel.body, &|k| matches!(k, StmtKind::Barrier)), 8);
    assert_eq!(count(&p.kernel.body, &|k| matches!(k, StmtKind::Loop { .. })), 0);
}

#[test]
fn symbolic_trip_count_is_inconclusive() {
    let (mut k, s) = kernel();
    halving_loop(&mut k, s);
    let p = prepare(&k, &Geometry::default(), &PassOptions::default());
    assert_eq!(p.inconclusive.len(), 1);
    assert!(p.inconclusive[0].1.contains("line 3"), "{:?}", p.inconclusive);
}

#[test]
fn unroll_limit_is_respected() {
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
    );
    assert_eq!(p.inconclusive.len(), 1);
    assert!(p.inconclusive[0].1.contains("--unroll"));
}

#[test]
fn loop_without_memory_is_havocked() {
    let (mut k, s) = kernel();
    let n = k.new_var("n", Ty::U32);
    // while (s < n) s = s + 1;  with n unknown
    let body = vec![st(
        StmtKind::Assign {
            var: s,
            value: bin(BinOp::Add, var(s), Expr::int(1, Ty::U32), Ty::U32),
        },
        7,
    )];
    let l = StmtKind::Loop {
        cond_stmts: vec![],
        cond: bin(BinOp::Lt, var(s), var(n), Ty::Bool),
        body,
        step: vec![],
        do_while: false,
    };
    k.body = vec![st(StmtKind::Havoc { var: n }, 6), st(l, 7)];
    let p = prepare(&k, &Geometry::default(), &PassOptions::default());
    assert!(p.inconclusive.is_empty());
    assert_eq!(p.loops[0].1, LoopTreatment::Havocked);
    assert!(matches!(p.kernel.body[1].kind, StmtKind::Havoc { var } if var == s));
    assert!(matches!(
        p.kernel.body.last().map(|s| &s.kind),
        Some(StmtKind::Assume { .. })
    ));
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
    let p = prepare(&k, &Geometry::default(), &PassOptions::default());
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
            then: vec![st(StmtKind::Barrier, 2)],
            els: vec![st(StmtKind::Havoc { var: s }, 3)],
        },
        2,
    )];
    let g = Geometry {
        block_dim: [Some(32), Some(1), Some(1)],
        grid_dim: [Some(1); 3],
    };
    let p = prepare(&k, &g, &PassOptions::default());
    assert_eq!(p.kernel.body.len(), 1);
    assert!(matches!(p.kernel.body[0].kind, StmtKind::Havoc { .. }));
}
