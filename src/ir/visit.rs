//! The one walk over the IR, in the style of rustc's MIR visitor: [`Visitor`] reads a kernel,
//! [`VisitorMut`] may rewrite it in place.
//!
//! Every `visit_*` method defaults to a `super_*` method that walks the children, so an
//! analysis overrides only the cases it cares about (calling `super_*` to keep walking). The
//! `super_*` methods match exhaustively on [`StmtKind`], [`Expr`], [`AbstractLoop`] and
//! [`ClosedForm`]: a new kind of statement or expression is a compile error here, and only
//! here. Both traits come from one macro body, so they cannot drift apart.
//!
//! Uses carry a context: a variable is read by an expression or given a value by a statement
//! ([`VarContext`]), an array is loaded, stored or updated atomically ([`AccessContext`]), and a
//! block label is declared or targeted ([`LabelContext`]). The summaries of an
//! [`AbstractLoop`] (closed forms, havocked variables, written arrays) are visited with the
//! `LoopHead` contexts, so a rewrite reaches them while a query for what statements do can
//! leave them out.
//!
//! This module walks; it decides nothing. Queries built on it live in [`super::query`].

use super::{
    AbstractLoop, ArrayId, AtomicOp, BlockId, Builtin, ClosedForm, Expr, LoopInvariant, Stmt, StmtKind, SyncEvent, Ty,
    VarId,
};

/// How a variable is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarContext {
    /// Read by an expression.
    Read,
    /// Given a value by [`StmtKind::Assign`].
    Assign,
    /// Given an arbitrary value by [`StmtKind::Havoc`].
    Havoc,
    /// Given the value read by [`StmtKind::Load`].
    Load,
    /// Given the old value by [`StmtKind::Atomic`].
    Atomic,
    /// Given the value of another lane (or its own) by [`StmtKind::Shuffle`], or of a vote
    /// by [`StmtKind::Vote`].
    Shuffle,
    /// Named by an [`AbstractLoop`]'s summary (`closed` or `havocked`): set at the loop head.
    LoopHead,
}

impl VarContext {
    /// Whether a statement gives the variable a value here (`Assign`, `Havoc`, `Load`,
    /// `Atomic`, `Shuffle`); a read or a loop summary does not.
    pub fn is_def(self) -> bool {
        matches!(
            self,
            VarContext::Assign | VarContext::Havoc | VarContext::Load | VarContext::Atomic | VarContext::Shuffle
        )
    }
}

/// How an array is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessContext {
    /// Read by [`StmtKind::Load`].
    Load,
    /// Written by [`StmtKind::Store`].
    Store,
    /// Read and written by [`StmtKind::Atomic`].
    Atomic(AtomicOp),
    /// Named in an [`AbstractLoop`]'s `written` summary: arbitrary at the loop head.
    LoopHead,
    /// Possibly written anywhere by a call without a body ([`StmtKind::Clobber`]).
    Clobber,
    /// Every byte written by [`StmtKind::ArraySnapshot`] (its `dst`): not an access.
    SnapshotTo,
    /// Every byte read by [`StmtKind::ArraySnapshot`] (its `src`): not an access.
    SnapshotFrom,
}

impl AccessContext {
    /// Whether a statement writes the array here (stores, atomics, clobbers, snapshots).
    pub fn is_write(self) -> bool {
        matches!(
            self,
            AccessContext::Store | AccessContext::Atomic(_) | AccessContext::Clobber | AccessContext::SnapshotTo
        )
    }
}

/// How a block label is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelContext {
    /// Declared by [`StmtKind::Block`].
    Block,
    /// Targeted by [`StmtKind::Exit`].
    Exit,
    /// An [`AbstractLoop`]'s `brk`.
    Break,
    /// An [`AbstractLoop`]'s `cont`.
    Continue,
}

macro_rules! make_visitor {
    ($(#[$attr:meta])* $name:ident, $($mutability:ident)?) => {
        $(#[$attr])*
        pub trait $name {
            /// Visits the statements of a block (a branch, a loop part, a block's body).
            fn visit_block(&mut self, stmts: & $($mutability)? [Stmt]) {
                self.super_block(stmts);
            }

            /// Visits a statement.
            fn visit_stmt(&mut self, s: & $($mutability)? Stmt) {
                self.super_stmt(s);
            }

            /// Visits an expression (each subexpression again).
            fn visit_expr(&mut self, e: & $($mutability)? Expr) {
                self.super_expr(e);
            }

            /// Visits a use of a variable.
            fn visit_var(&mut self, _var: $(& $mutability)? VarId, _ctx: VarContext) {}

            /// Visits a builtin variable read by an expression.
            fn visit_builtin(&mut self, _builtin: $(& $mutability)? Builtin) {}

            /// Visits a memory access: `ty.bytes()` bytes of `array` from byte `offset`.
            fn visit_access(
                &mut self,
                array: $(& $mutability)? ArrayId,
                offset: & $($mutability)? Expr,
                ty: Ty,
                ctx: AccessContext,
            ) {
                self.super_access(array, offset, ty, ctx);
            }

            /// Visits a use of an array (from an access, or a loop summary).
            fn visit_array(&mut self, _array: $(& $mutability)? ArrayId, _ctx: AccessContext) {}

            /// Visits a use of a block label.
            fn visit_label(&mut self, _id: $(& $mutability)? BlockId, _ctx: LabelContext) {}

            /// Visits each statement in order.
            fn super_block(&mut self, stmts: & $($mutability)? [Stmt]) {
                for s in stmts {
                    self.visit_stmt(s);
                }
            }

            /// Visits the parts of `s` in evaluation order: the operands before the variable
            /// a statement gives a value, the blocks in the order they run.
            fn super_stmt(&mut self, s: & $($mutability)? Stmt) {
                match & $($mutability)? s.kind {
                    StmtKind::Assign { var, value } => {
                        self.visit_expr(value);
                        self.visit_var($(& $mutability)? *var, VarContext::Assign);
                    }
                    StmtKind::Havoc { var } => self.visit_var($(& $mutability)? *var, VarContext::Havoc),
                    StmtKind::Load { dst, array, offset, ty } => {
                        self.visit_access($(& $mutability)? *array, offset, *ty, AccessContext::Load);
                        self.visit_var($(& $mutability)? *dst, VarContext::Load);
                    }
                    StmtKind::Store { array, offset, value, ty } => {
                        self.visit_access($(& $mutability)? *array, offset, *ty, AccessContext::Store);
                        self.visit_expr(value);
                    }
                    StmtKind::Atomic { op, scope: _, dst, array, offset, operands, ty } => {
                        self.visit_access($(& $mutability)? *array, offset, *ty, AccessContext::Atomic(*op));
                        for e in operands {
                            self.visit_expr(e);
                        }
                        if let Some(d) = dst {
                            self.visit_var($(& $mutability)? *d, VarContext::Atomic);
                        }
                    }
                    StmtKind::Shuffle { dst, mode: _, mask, value, lane, width } => {
                        if let Some(m) = mask {
                            self.visit_expr(m);
                        }
                        self.visit_expr(value);
                        self.visit_expr(lane);
                        self.visit_expr(width);
                        self.visit_var($(& $mutability)? *dst, VarContext::Shuffle);
                    }
                    StmtKind::Vote { dst, op: _, mask, arg } => {
                        if let Some(m) = mask {
                            self.visit_expr(m);
                        }
                        self.visit_expr(arg);
                        self.visit_var($(& $mutability)? *dst, VarContext::Shuffle);
                    }
                    StmtKind::If { cond, then, els } => {
                        self.visit_expr(cond);
                        self.visit_block(then);
                        self.visit_block(els);
                    }
                    StmtKind::Loop { cond_stmts, cond, body, step, do_while: _ } => {
                        self.visit_block(cond_stmts);
                        self.visit_expr(cond);
                        self.visit_block(body);
                        self.visit_block(step);
                    }
                    StmtKind::Break
                    | StmtKind::Continue
                    | StmtKind::Barrier(..)
                    | StmtKind::WarpBarrier(_)
                    | StmtKind::Fence(_)
                    | StmtKind::Sync(SyncEvent::Unlock | SyncEvent::CopyEnd)
                    | StmtKind::Return => {}
                    StmtKind::Sync(SyncEvent::CopyStart { event, .. }) => self.visit_expr(event),
                    StmtKind::Sync(SyncEvent::CopyWait { events }) => {
                        for e in events {
                            self.visit_expr(e);
                        }
                    }
                    StmtKind::Sync(SyncEvent::CopyWaitPrior { committed, prior }) => {
                        self.visit_expr(committed);
                        self.visit_expr(prior);
                    }
                    StmtKind::Sync(SyncEvent::Lock { offset, .. } | SyncEvent::Observed { offset, .. }) => {
                        self.visit_expr(offset);
                    }
                    StmtKind::Assert { cond } | StmtKind::Assume { cond } => self.visit_expr(cond),
                    StmtKind::Invariant { body, cond } => {
                        self.visit_block(body);
                        self.visit_expr(cond);
                    }
                    StmtKind::ArraySnapshot { dst, src } => {
                        self.visit_array($(& $mutability)? *src, AccessContext::SnapshotFrom);
                        self.visit_array($(& $mutability)? *dst, AccessContext::SnapshotTo);
                    }
                    StmtKind::Ensures { body, cond } => {
                        self.visit_block(body);
                        self.visit_expr(cond);
                    }
                    StmtKind::BarrierInvariant(bi) => {
                        self.visit_block(& $($mutability)? bi.body);
                        self.visit_expr(& $($mutability)? bi.cond);
                        for inst in & $($mutability)? bi.instances {
                            for e in inst {
                                self.visit_expr(e);
                            }
                        }
                    }
                    StmtKind::Block { id, body } => {
                        self.visit_label($(& $mutability)? *id, LabelContext::Block);
                        self.visit_block(body);
                    }
                    StmtKind::Exit(id) => self.visit_label($(& $mutability)? *id, LabelContext::Exit),
                    StmtKind::AbstractLoop(l) => self.super_abstract_loop(l),
                    StmtKind::Clobber { array, call: _ } => {
                        self.visit_array($(& $mutability)? *array, AccessContext::Clobber);
                    }
                }
            }

            /// Visits an abstracted loop: its labels, its parts as [`StmtKind::Loop`]'s, then
            /// its summaries (`LoopHead` contexts) and the user's invariants.
            fn super_abstract_loop(&mut self, l: & $($mutability)? AbstractLoop) {
                let AbstractLoop {
                    cond_stmts,
                    cond,
                    body,
                    step,
                    do_while: _,
                    brk,
                    cont,
                    closed,
                    havocked,
                    written,
                    barriers: _,
                    invariants,
                } = l;
                self.visit_label($(& $mutability)? *brk, LabelContext::Break);
                self.visit_label($(& $mutability)? *cont, LabelContext::Continue);
                self.visit_block(cond_stmts);
                self.visit_expr(cond);
                self.visit_block(body);
                self.visit_block(step);
                for (var, form) in closed {
                    self.visit_var($(& $mutability)? *var, VarContext::LoopHead);
                    match form {
                        ClosedForm::Linear(stride) => self.visit_expr(stride),
                        ClosedForm::Halving | ClosedForm::Doubling => {}
                    }
                }
                for var in havocked {
                    self.visit_var($(& $mutability)? *var, VarContext::LoopHead);
                }
                for array in written {
                    self.visit_array($(& $mutability)? *array, AccessContext::LoopHead);
                }
                for LoopInvariant { body, cond, span: _ } in invariants {
                    self.visit_block(body);
                    self.visit_expr(cond);
                }
            }

            /// Visits the array, then the offset.
            fn super_access(
                &mut self,
                array: $(& $mutability)? ArrayId,
                offset: & $($mutability)? Expr,
                _ty: Ty,
                ctx: AccessContext,
            ) {
                self.visit_array(array, ctx);
                self.visit_expr(offset);
            }

            /// Visits the operands of `e`, left to right.
            fn super_expr(&mut self, e: & $($mutability)? Expr) {
                match e {
                    Expr::Const { value: _, ty: _ } => {}
                    Expr::Var { id, ty: _ } => self.visit_var($(& $mutability)? *id, VarContext::Read),
                    Expr::Builtin(b) => self.visit_builtin($(& $mutability)? *b),
                    Expr::Unary { op: _, arg, ty: _ } | Expr::Cast { arg, ty: _ } => self.visit_expr(arg),
                    Expr::Binary { op: _, lhs, rhs, ty: _ } => {
                        self.visit_expr(lhs);
                        self.visit_expr(rhs);
                    }
                    Expr::Select { cond, then, els, ty: _ } => {
                        self.visit_expr(cond);
                        self.visit_expr(then);
                        self.visit_expr(els);
                    }
                    Expr::Opaque { name: _, args, ty: _ } => {
                        for a in args {
                            self.visit_expr(a);
                        }
                    }
                    Expr::Other(arg) => self.visit_expr(arg),
                    Expr::Enabled => {}
                }
            }
        }
    };
}

make_visitor!(
    /// A read-only walk over statements and expressions; override the `visit_*` methods of
    /// interest and call the matching `super_*` to go on into the children.
    Visitor,
);

make_visitor!(
    /// A walk that may rewrite statements, expressions, variables, arrays and labels in place;
    /// the same methods as [`Visitor`], on `&mut`.
    VisitorMut,
    mut
);

/// Inserts, before every load, store and atomic of `stmts` (nested statement lists included:
/// branches, loops, blocks), the statement `before` gives for it, if any; returns how many were
/// inserted. A rewrite shared by the passes that guard accesses with assertions
/// (`passes::bounds`, the front end's null pointers).
pub fn insert_before_accesses(stmts: &mut Vec<Stmt>, before: &mut dyn FnMut(&Stmt) -> Option<Stmt>) -> usize {
    let mut n = 0;
    let mut out = Vec::with_capacity(stmts.len());
    for mut s in std::mem::take(stmts) {
        match &mut s.kind {
            StmtKind::Load { .. } | StmtKind::Store { .. } | StmtKind::Atomic { .. } => {
                if let Some(guard) = before(&s) {
                    out.push(guard);
                    n += 1;
                }
            }
            StmtKind::If { then, els, .. } => {
                n += insert_before_accesses(then, before) + insert_before_accesses(els, before)
            }
            StmtKind::Loop {
                cond_stmts, body, step, ..
            } => {
                n += insert_before_accesses(cond_stmts, before)
                    + insert_before_accesses(body, before)
                    + insert_before_accesses(step, before)
            }
            StmtKind::Block { body, .. } => n += insert_before_accesses(body, before),
            _ => {}
        }
        out.push(s);
    }
    *stmts = out;
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(i: usize) -> Expr {
        Expr::Var {
            id: VarId(i),
            ty: Ty::I32,
        }
    }

    /// `v1 = v0; if (v0) { s[v1] = v2; }`
    fn sample() -> Vec<Stmt> {
        vec![
            Stmt::test(
                StmtKind::Assign {
                    var: VarId(1),
                    value: var(0),
                },
                1,
            ),
            Stmt::test(
                StmtKind::If {
                    cond: var(0),
                    then: vec![Stmt::test(
                        StmtKind::Store {
                            array: ArrayId(0),
                            offset: var(1),
                            value: var(2),
                            ty: Ty::I32,
                        },
                        1,
                    )],
                    els: vec![],
                },
                1,
            ),
        ]
    }

    #[derive(Default)]
    struct Uses(Vec<(VarId, VarContext)>, Vec<(ArrayId, AccessContext)>);

    impl Visitor for Uses {
        fn visit_var(&mut self, var: VarId, ctx: VarContext) {
            self.0.push((var, ctx));
        }
        fn visit_array(&mut self, array: ArrayId, ctx: AccessContext) {
            self.1.push((array, ctx));
        }
    }

    #[test]
    fn uses_come_in_evaluation_order_with_their_context() {
        let mut u = Uses::default();
        u.visit_block(&sample());
        use VarContext::{Assign, Read};
        assert_eq!(
            u.0,
            [
                (VarId(0), Read),
                (VarId(1), Assign),
                (VarId(0), Read),
                (VarId(1), Read),
                (VarId(2), Read)
            ]
        );
        assert_eq!(u.1, [(ArrayId(0), AccessContext::Store)]);
    }

    struct Rename;

    impl VisitorMut for Rename {
        fn visit_var(&mut self, var: &mut VarId, _ctx: VarContext) {
            var.0 += 10;
        }
    }

    #[test]
    fn the_mutable_walk_reaches_every_variable() {
        let mut stmts = sample();
        Rename.visit_block(&mut stmts);
        let mut u = Uses::default();
        u.visit_block(&stmts);
        assert!(u.0.iter().all(|(v, _)| v.0 >= 10));
    }
}
