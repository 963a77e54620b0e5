//! One hand-broken kernel per invariant of the validator, and the well-formed kernels it
//! accepts.

use super::*;
use crate::ir::{ArrayDecl, BarrierScope, Fences, Param, Space, StmtKind};
use std::collections::BTreeSet;

fn st(kind: StmtKind, line: u32) -> Stmt {
    Stmt::test(kind, line)
}

/// A kernel with a scalar parameter `n.0: i32`, a local `x.1: i32`, a `bool` `b.2` and a
/// shared array `@s.0` of 64 ints.
fn kernel(body: Vec<Stmt>) -> Kernel {
    let mut k = Kernel {
        name: "k".into(),
        span: Span::point("t.cu".into(), 1, 1),
        params: Vec::new(),
        vars: Vec::new(),
        arrays: vec![ArrayDecl {
            name: "s".into(),
            space: Space::Shared,
            elem: Ty::I32,
            dims: vec![64],
            span: Span::point("t.cu".into(), 2, 1),
        }],
        body,
        next_block: 4,
        unchecked: Vec::new(),
        uninterpreted: Vec::new(),
        impure: Vec::new(),
        notes: Vec::new(),
        language: Default::default(),
        signed_ops: Vec::new(),
    };
    let n = k.new_var("n", Ty::I32);
    k.params.push(Param {
        name: "n".into(),
        kind: ParamKind::Scalar(n),
    });
    k.new_var("x", Ty::I32);
    k.new_var("b", Ty::Bool);
    k
}

const N: VarId = VarId(0);
const X: VarId = VarId(1);

fn var(id: VarId) -> Expr {
    Expr::Var { id, ty: Ty::I32 }
}

fn assign(v: VarId, e: Expr, line: u32) -> Stmt {
    st(StmtKind::Assign { var: v, value: e }, line)
}

fn lt(a: Expr, b: Expr) -> Expr {
    Expr::Binary {
        op: BinOp::Lt,
        lhs: Box::new(a),
        rhs: Box::new(b),
        ty: Ty::Bool,
    }
}

fn barrier(line: u32) -> Stmt {
    st(StmtKind::Barrier(BarrierScope::Block, Fences::ALL), line)
}

fn broken(k: &Kernel, stage: Stage) -> Invalid {
    match validate(k, stage, "pass test", &BTreeSet::new()) {
        Err(e) => *e,
        Ok(()) => panic!("accepted:\n{k}"),
    }
}

#[test]
fn a_well_formed_kernel_is_accepted_at_every_stage_it_may_be_at() {
    // if (n < 0) { x = n; } else { x = 0; } s[x] = x; loop { test x < n; body { x = x + 1 } }
    let k = kernel(vec![
        st(
            StmtKind::If {
                cond: lt(var(N), Expr::int(0, Ty::I32)),
                then: vec![assign(X, var(N), 3)],
                els: vec![assign(X, Expr::int(0, Ty::I32), 4)],
            },
            2,
        ),
        st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: Expr::Cast {
                    arg: Box::new(var(X)),
                    ty: Ty::I64,
                },
                value: var(X),
                ty: Ty::I32,
            },
            5,
        ),
        st(
            StmtKind::Loop {
                cond_stmts: Vec::new(),
                cond: lt(var(X), var(N)),
                body: vec![assign(X, var(X), 7), st(StmtKind::Break, 8)],
                step: Vec::new(),
                do_while: false,
            },
            6,
        ),
        barrier(9),
    ]);
    assert_eq!(validate(&k, Stage::Lowered, "lowering", &BTreeSet::new()), Ok(()));
    assert_eq!(validate(&k, Stage::Marked, "pass sync", &BTreeSet::new()), Ok(()));
}

#[test]
fn an_unknown_variable_is_named() {
    let k = kernel(vec![assign(VarId(9), Expr::int(1, Ty::I32), 3)]);
    let e = broken(&k, Stage::Lowered);
    assert_eq!(e.rule, Rule::UnknownId);
    assert!(e.detail.contains("%9"), "{e}");
}

#[test]
fn a_variable_read_where_one_branch_leaves_it_undefined_is_a_use_before_definition() {
    // if (n < 0) x = n;  s[0] = x;
    let k = kernel(vec![
        st(
            StmtKind::If {
                cond: lt(var(N), Expr::int(0, Ty::I32)),
                then: vec![assign(X, var(N), 3)],
                els: Vec::new(),
            },
            2,
        ),
        st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: Expr::int(0, Ty::I64),
                value: var(X),
                ty: Ty::I32,
            },
            4,
        ),
    ]);
    let e = broken(&k, Stage::Lowered);
    assert_eq!(e.rule, Rule::Undefined);
    assert_eq!(e.span.line, 4);
    assert!(e.stmt.starts_with("store.i32 @s.0[0i64] = x.1;"), "{}", e.stmt);
    assert_eq!(e.pass, "pass test");
}

#[test]
fn a_variable_defined_only_inside_a_loop_is_undefined_after_it() {
    let k = kernel(vec![
        st(
            StmtKind::Loop {
                cond_stmts: Vec::new(),
                cond: lt(var(N), Expr::int(0, Ty::I32)),
                body: vec![assign(X, var(N), 3)],
                step: Vec::new(),
                do_while: false,
            },
            2,
        ),
        assign(N, var(X), 5),
    ]);
    let e = broken(&k, Stage::Lowered);
    assert_eq!((e.rule, e.span.line), (Rule::Undefined, 5));
}

#[test]
fn operands_of_different_types_are_a_type_mismatch() {
    let k = kernel(vec![assign(
        X,
        Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(var(N)),
            rhs: Box::new(Expr::int(1, Ty::I64)),
            ty: Ty::I32,
        },
        3,
    )]);
    let e = broken(&k, Stage::Lowered);
    assert_eq!(e.rule, Rule::Type);
    assert!(e.detail.contains("i64") && e.detail.contains("i32"), "{e}");
}

#[test]
fn a_condition_that_is_not_bool_is_a_type_mismatch() {
    let k = kernel(vec![st(StmtKind::Assert { cond: var(N) }, 3)]);
    assert_eq!(broken(&k, Stage::Lowered).rule, Rule::Type);
}

#[test]
fn a_break_outside_a_loop_is_bad_nesting() {
    let k = kernel(vec![st(StmtKind::Break, 3)]);
    assert_eq!(broken(&k, Stage::Lowered).rule, Rule::Nesting);
}

#[test]
fn a_copy_that_never_ends_is_bad_nesting() {
    let k = kernel(vec![st(
        StmtKind::Sync(SyncEvent::CopyStart {
            site: 0,
            event: Expr::int(0, Ty::U32),
            dst: ArrayId(0),
            collective: true,
            tile: None,
            commit: false,
        }),
        3,
    )]);
    assert_eq!(broken(&k, Stage::Lowered).rule, Rule::Nesting);
}

#[test]
fn an_exit_from_a_block_that_does_not_enclose_it_is_an_unresolved_label() {
    let k = kernel(vec![
        st(
            StmtKind::Block {
                id: BlockId(1),
                body: Vec::new(),
            },
            2,
        ),
        st(StmtKind::Exit(BlockId(1)), 3),
    ]);
    let e = broken(&k, Stage::Lowered);
    assert_eq!((e.rule, e.span.line), (Rule::Label, 3));
}

#[test]
fn a_block_declared_inside_a_block_of_the_same_label_is_an_unknown_id() {
    let inner = st(
        StmtKind::Block {
            id: BlockId(1),
            body: Vec::new(),
        },
        3,
    );
    let outer = st(
        StmtKind::Block {
            id: BlockId(1),
            body: vec![inner.clone()],
        },
        2,
    );
    let e = broken(&kernel(vec![outer]), Stage::Lowered);
    assert_eq!((e.rule, e.span.line), (Rule::UnknownId, 3));
    // Copies side by side (unrolled iterations of a loop around an inlined call) are fine.
    let k = kernel(vec![inner.clone(), inner]);
    assert_eq!(validate(&k, Stage::Lowered, "pass loops", &BTreeSet::new()), Ok(()));
}

#[test]
fn a_label_at_or_past_next_block_is_an_unknown_id() {
    let k = kernel(vec![st(
        StmtKind::Block {
            id: BlockId(4),
            body: Vec::new(),
        },
        2,
    )]);
    assert_eq!(broken(&k, Stage::Lowered).rule, Rule::UnknownId);
}

#[test]
fn what_the_source_reads_uninitialised_is_exempt_but_a_pass_may_not_add_more() {
    // x = x + 1 with x never defined: C's uninitialised local, an arbitrary value.
    let k = kernel(vec![assign(
        X,
        Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(var(X)),
            rhs: Box::new(Expr::int(1, Ty::I32)),
            ty: Ty::I32,
        },
        3,
    )]);
    let lowered = undefined_reads(&k);
    assert_eq!(lowered, BTreeSet::from([X]));
    assert_eq!(validate(&k, Stage::Lowered, "lowering", &lowered), Ok(()));
    // A pass that drops the definition of n's copy into x reads x undefined: not exempt.
    let defined = kernel(vec![assign(X, var(N), 2), assign(N, var(X), 3)]);
    assert!(undefined_reads(&defined).is_empty());
    let dropped = kernel(vec![assign(N, var(X), 3)]);
    let e = validate(&dropped, Stage::Marked, "pass test", &undefined_reads(&defined)).expect_err("x is undefined");
    assert_eq!(e.rule, Rule::Undefined);
}

#[test]
fn a_loop_left_after_the_loop_pass_is_a_stage_error() {
    let k = kernel(vec![st(
        StmtKind::Loop {
            cond_stmts: Vec::new(),
            cond: Expr::bool(false),
            body: Vec::new(),
            step: Vec::new(),
            do_while: false,
        },
        3,
    )]);
    assert_eq!(validate(&k, Stage::Marked, "pass sync", &BTreeSet::new()), Ok(()));
    let e = broken(&k, Stage::Prepared);
    assert_eq!(e.rule, Rule::Stage);
    assert!(e.to_string().contains("after pass test"), "{e}");
}

#[test]
fn a_lock_marker_straight_from_the_front_end_is_a_stage_error() {
    let k = kernel(vec![st(StmtKind::Sync(SyncEvent::Unlock), 3)]);
    assert_eq!(broken(&k, Stage::Lowered).rule, Rule::Stage);
    assert_eq!(validate(&k, Stage::Marked, "pass sync", &BTreeSet::new()), Ok(()));
}

#[test]
fn a_return_ends_the_paths_that_would_leave_a_variable_undefined() {
    // if (n < 0) return; else x = n;  s[0] = x;
    let k = kernel(vec![
        st(
            StmtKind::If {
                cond: lt(var(N), Expr::int(0, Ty::I32)),
                then: vec![st(StmtKind::Return, 3)],
                els: vec![assign(X, var(N), 4)],
            },
            2,
        ),
        assign(N, var(X), 5),
    ]);
    assert_eq!(validate(&k, Stage::Lowered, "lowering", &BTreeSet::new()), Ok(()));
}
