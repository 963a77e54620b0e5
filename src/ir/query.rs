//! Questions about a list of statements, each answered once with the walker of
//! [`super::visit`]: which variables it assigns, which arrays it writes, whether it exits a
//! block, whether it can leave early, whether it contains a barrier, whether an expression
//! mentions a variable, whether one reads the other thread of the pair.
//!
//! All of them see the statements the kernel executes, at any depth (branches, blocks, loop
//! parts, abstracted loops), and none of them looks inside `__ensures` bodies: those run only
//! after every thread has finished ([`StmtKind::Ensures`]). Uses are those of statements, not
//! of an [`super::AbstractLoop`]'s summaries (the `LoopHead` contexts).

use super::visit::{AccessContext, LabelContext, VarContext, Visitor};
use super::{ArrayId, AtomicOp, BarrierScope, BlockId, Expr, Space, Span, Stmt, StmtKind, Ty, VarId};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// What the shared walk reports.
enum Event<'a> {
    Stmt(&'a Stmt),
    Var(VarId, VarContext),
    Array(ArrayId, AccessContext),
    Label(BlockId, LabelContext),
}

/// The walk every query shares: calls `f` on each executed statement (outer first) and on
/// each use inside it, skipping `__ensures` bodies.
struct Executed<F>(F);

impl<F: FnMut(Event<'_>)> Visitor for Executed<F> {
    fn visit_stmt(&mut self, s: &Stmt) {
        (self.0)(Event::Stmt(s));
        if !matches!(s.kind, StmtKind::Ensures { .. }) {
            self.super_stmt(s);
        }
    }

    fn visit_var(&mut self, var: VarId, ctx: VarContext) {
        (self.0)(Event::Var(var, ctx));
    }

    fn visit_array(&mut self, array: ArrayId, ctx: AccessContext) {
        (self.0)(Event::Array(array, ctx));
    }

    fn visit_label(&mut self, id: BlockId, ctx: LabelContext) {
        (self.0)(Event::Label(id, ctx));
    }
}

/// Whether `pred` holds for some event of the walk over `stmts`.
fn any_event(stmts: &[Stmt], mut pred: impl FnMut(Event<'_>) -> bool) -> bool {
    let mut found = false;
    Executed(|e: Event<'_>| found = found || pred(e)).visit_block(stmts);
    found
}

/// Adds to `out` the variables given a value anywhere in `stmts` by a statement whose context
/// `keep` accepts (`VarContext::is_def` for all of them).
pub fn defined_vars(stmts: &[Stmt], keep: impl Fn(VarContext) -> bool, out: &mut impl Extend<VarId>) {
    Executed(|e: Event<'_>| {
        if let Event::Var(v, ctx) = e
            && ctx.is_def()
            && keep(ctx)
        {
            out.extend([v]);
        }
    })
    .visit_block(stmts);
}

/// Adds to `out` the variables that expressions anywhere in `stmts` read ([`VarContext::Read`]).
pub fn read_vars(stmts: &[Stmt], out: &mut impl Extend<VarId>) {
    Executed(|e: Event<'_>| {
        if let Event::Var(v, VarContext::Read) = e {
            out.extend([v]);
        }
    })
    .visit_block(stmts);
}

/// Adds to `out` the variables assigned anywhere in `stmts`: by `Assign`, `Havoc`, `Load` or
/// the result of an `Atomic`.
pub fn assigned_vars(stmts: &[Stmt], out: &mut impl Extend<VarId>) {
    defined_vars(stmts, VarContext::is_def, out);
}

/// The variable that `s` itself gives a value (`Assign`, `Havoc`, `Load`, an `Atomic` with a
/// result), not counting statements nested in it.
pub fn own_def(s: &Stmt) -> Option<VarId> {
    /// Sees the uses of one statement, not of its nested blocks.
    struct Own(Option<VarId>);
    impl Visitor for Own {
        fn visit_block(&mut self, _stmts: &[Stmt]) {}
        fn visit_var(&mut self, var: VarId, ctx: VarContext) {
            if ctx.is_def() {
                self.0 = Some(var);
            }
        }
    }
    let mut own = Own(None);
    own.visit_stmt(s);
    own.0
}

/// Adds to `out` the arrays accessed anywhere in `stmts` by a statement whose context `keep`
/// accepts (`AccessContext::is_write` for stores and atomics).
pub fn accessed_arrays(stmts: &[Stmt], keep: impl Fn(AccessContext) -> bool, out: &mut impl Extend<ArrayId>) {
    Executed(|e: Event<'_>| {
        if let Event::Array(a, ctx) = e
            && ctx != AccessContext::LoopHead
            && keep(ctx)
        {
            out.extend([a]);
        }
    })
    .visit_block(stmts);
}

/// Adds to `out` the arrays written (stores, atomics) anywhere in `stmts`.
pub fn written_arrays(stmts: &[Stmt], out: &mut BTreeSet<ArrayId>) {
    accessed_arrays(stmts, AccessContext::is_write, out);
}

/// Whether `stmts` contain `Exit(id)`.
pub fn exits_to(stmts: &[Stmt], id: BlockId) -> bool {
    any_event(stmts, |e| matches!(e, Event::Label(x, LabelContext::Exit) if x == id))
}

/// Whether `stmts` can leave early (`return`, an exit of a block, `break`, `continue`).
pub fn has_exit(stmts: &[Stmt]) -> bool {
    any_event(stmts, |e| {
        matches!(e, Event::Stmt(s) if matches!(
            s.kind,
            StmtKind::Return | StmtKind::Exit(_) | StmtKind::Break | StmtKind::Continue
        ))
    })
}

/// Whether `stmts` can leave early other than to the end of a block of their own: a
/// `return`, `break` or `continue`, or an exit of a block around them (an exit of a
/// [`StmtKind::Block`] or of an abstracted loop's labels declared inside `stmts` stays inside).
pub fn leaves(stmts: &[Stmt]) -> bool {
    let mut inner = BTreeSet::new();
    let mut exits = Vec::new();
    let mut early = false;
    Executed(|e: Event<'_>| match e {
        Event::Label(id, LabelContext::Exit) => exits.push(id),
        Event::Label(id, _) => {
            inner.insert(id);
        }
        Event::Stmt(s) if matches!(s.kind, StmtKind::Return | StmtKind::Break | StmtKind::Continue) => early = true,
        _ => {}
    })
    .visit_block(stmts);
    early || exits.iter().any(|x| !inner.contains(x))
}

/// Whether `stmts` contain a barrier (of any scope).
pub fn contains_barrier(stmts: &[Stmt]) -> bool {
    any_event(
        stmts,
        |e| matches!(e, Event::Stmt(s) if matches!(s.kind, StmtKind::Barrier(..))),
    )
}

/// Whether every barrier of `stmts` orders the accesses to memory of `space` ([`Fences::orders`]):
/// always for CUDA; for OpenCL, unless some `barrier(flags)` leaves that memory out.
pub fn barriers_order(stmts: &[Stmt], space: Space) -> bool {
    unfenced_barrier(stmts, space).is_none()
}

/// Where the first barrier of `stmts` (in program order, at any depth) that leaves memory of
/// `space` unordered is ([`Fences::orders`]); `None` when every one orders it.
pub fn unfenced_barrier(stmts: &[Stmt], space: Space) -> Option<Span> {
    let mut at = None;
    any_event(stmts, |e| {
        if let Event::Stmt(s) = e
            && let StmtKind::Barrier(_, f) = s.kind
            && !f.orders(space)
        {
            at = Some(s.span.clone());
            return true;
        }
        false
    });
    at
}

/// How many grid barriers ([`BarrierScope::Grid`]) `stmts` hold, at any depth (each counted once
/// however often it runs).
pub fn grid_barriers(stmts: &[Stmt]) -> u32 {
    let mut n = 0;
    any_event(stmts, |e| {
        if matches!(e, Event::Stmt(s) if matches!(s.kind, StmtKind::Barrier(BarrierScope::Grid, _))) {
            n += 1;
        }
        false
    });
    n
}

/// The barrier statements (of any scope) in `stmts`, each counted once wherever it is.
pub fn barrier_statements(stmts: &[Stmt]) -> u32 {
    let mut n = 0;
    any_event(stmts, |e| {
        if matches!(e, Event::Stmt(s) if matches!(s.kind, StmtKind::Barrier(..))) {
            n += 1;
        }
        false
    });
    n
}

/// Whether `e` reads one of `vars`.
pub fn mentions(e: &Expr, vars: &BTreeSet<VarId>) -> bool {
    let mut found = false;
    Executed(|ev: Event<'_>| {
        found = found || matches!(ev, Event::Var(v, VarContext::Read) if vars.contains(&v));
    })
    .visit_expr(e);
    found
}

/// Whether `e` reads the other thread of the pair ([`Expr::Other`]): a two-thread
/// ("relational") condition.
pub fn reads_other_thread(e: &Expr) -> bool {
    struct Finder(bool);
    impl Visitor for Finder {
        fn visit_expr(&mut self, e: &Expr) {
            self.0 = self.0 || matches!(e, Expr::Other(_));
            if !self.0 {
                self.super_expr(e);
            }
        }
    }
    let mut f = Finder(false);
    f.visit_expr(e);
    f.0
}

/// Whether an expression of `stmts` (outside `__ensures` bodies, which are part of their
/// statement here) reads the other thread of the pair.
pub fn stmts_read_other_thread(stmts: &[Stmt]) -> bool {
    struct Finder(bool);
    impl Visitor for Finder {
        fn visit_expr(&mut self, e: &Expr) {
            self.0 = self.0 || reads_other_thread(e);
        }
    }
    let mut f = Finder(false);
    f.visit_block(stmts);
    f.0
}

/// The builtin variables (`threadIdx.y`, `blockDim.x`, …) that expressions of `stmts` read, at
/// any depth, `__ensures` bodies included.
pub fn builtins_read(stmts: &[Stmt]) -> Vec<super::Builtin> {
    struct Reads(Vec<super::Builtin>);
    impl Visitor for Reads {
        fn visit_builtin(&mut self, b: super::Builtin) {
            if !self.0.contains(&b) {
                self.0.push(b);
            }
        }
    }
    let mut r = Reads(Vec::new());
    r.visit_block(stmts);
    r.0
}

/// Whether an atomic leaves the word as it was (an atomic read): `+ 0`, `- 0`, `| 0`, `^ 0`,
/// `& ~0`, a compare-and-swap that writes back the value it compares with.
pub fn atomic_read_only(op: AtomicOp, operands: &[Expr]) -> bool {
    let lits: Vec<Option<BigInt>> = operands.iter().map(int_constant).collect();
    match (op, lits.as_slice()) {
        (AtomicOp::Add | AtomicOp::Sub | AtomicOp::Or | AtomicOp::Xor, [Some(v)]) => *v == BigInt::from(0),
        (AtomicOp::And, [Some(v)]) => *v == BigInt::from(-1) || all_ones(v, operands[0].ty()),
        (AtomicOp::Cas, [Some(c), Some(n)]) => c == n,
        _ => false,
    }
}

fn all_ones(v: &BigInt, ty: Ty) -> bool {
    *v == (BigInt::from(1) << ty.bits()) - 1
}

/// The value of `e` when it is an integer constant expression (`sizeof(int) + 1` converted to
/// `size_t`, `(unsigned)-1`): constants, integer conversions, `+`, `-` and `*`, wrapped to
/// each type.
pub fn int_constant(e: &Expr) -> Option<BigInt> {
    match e {
        Expr::Const {
            value,
            ty: Ty::Int { .. },
        } => Some(value.clone()),
        Expr::Cast {
            arg,
            ty: Ty::Int { bits, signed },
        } if matches!(arg.ty(), Ty::Int { .. }) => Some(wrap(int_constant(arg)?, *bits, *signed)),
        Expr::Binary {
            op,
            lhs,
            rhs,
            ty: Ty::Int { bits, signed },
        } => {
            let (a, b) = (int_constant(lhs)?, int_constant(rhs)?);
            let v = match op {
                super::BinOp::Add => a + b,
                super::BinOp::Sub => a - b,
                super::BinOp::Mul => a * b,
                super::BinOp::BitOr => a | b,
                super::BinOp::BitAnd => a & b,
                super::BinOp::BitXor => a ^ b,
                _ => return None,
            };
            Some(wrap(v, *bits, *signed))
        }
        _ => None,
    }
}

/// `v` reduced into the range of an integer of `bits` bits (two's complement when `signed`).
pub fn wrap(v: BigInt, bits: u32, signed: bool) -> BigInt {
    let m = BigInt::from(1) << bits;
    let mut r = ((v % &m) + &m) % &m;
    if signed && r >= (&m >> 1) {
        r -= &m;
    }
    r
}

/// Appends to `out` the variables `e` reads, in order, each once (not those of another
/// thread's side, [`Expr::Other`]).
pub fn expr_vars(e: &Expr, out: &mut Vec<VarId>) {
    ReadVars(out).visit_expr(e);
}

/// Collects the variables read, in order of reading, without repetitions, leaving out what
/// another thread's side of an annotation reads ([`Expr::Other`]).
pub struct ReadVars<'a>(pub &'a mut Vec<VarId>);

impl Visitor for ReadVars<'_> {
    // What another thread's side of the condition reads is not this thread's.
    fn visit_expr(&mut self, e: &Expr) {
        if !matches!(e, Expr::Other(_)) {
            self.super_expr(e);
        }
    }

    fn visit_var(&mut self, var: VarId, ctx: VarContext) {
        if ctx == VarContext::Read && !self.0.contains(&var) {
            self.0.push(var);
        }
    }
}

/// The scalar parameters that the kernel's first statements assume equal to a literal of
/// their type (`assume (n == 4096)`: the values of a host launch, `--kernel-args`), each with
/// that literal and its type, the first such assumption of each. The leading statements are
/// assumptions and the havocs of a launch's ghosts (device properties no argument passes,
/// which are not parameters); the first other statement ends them.
pub fn entry_literals(k: &super::Kernel) -> std::collections::BTreeMap<VarId, (BigInt, super::Ty)> {
    use super::{BinOp, ParamKind};
    let params: Vec<VarId> = k
        .params
        .iter()
        .filter_map(|p| match p.kind {
            ParamKind::Scalar(v) => Some(v),
            _ => None,
        })
        .collect();
    let mut out = std::collections::BTreeMap::new();
    for s in &k.body {
        let cond = match &s.kind {
            StmtKind::Assume { cond } => cond,
            StmtKind::Havoc { var } if !params.contains(var) => continue,
            _ => break,
        };
        let Expr::Binary {
            op: BinOp::Eq,
            lhs,
            rhs,
            ..
        } = cond
        else {
            continue;
        };
        match (&**lhs, &**rhs) {
            (Expr::Var { id, ty }, Expr::Const { value, ty: cty })
            | (Expr::Const { value, ty: cty }, Expr::Var { id, ty })
                if ty == cty && params.contains(id) =>
            {
                out.entry(*id).or_insert_with(|| (value.clone(), *ty));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Ty;

    fn st(kind: StmtKind) -> Stmt {
        Stmt::test(kind, 1)
    }

    fn havoc(i: usize) -> Stmt {
        st(StmtKind::Havoc { var: VarId(i) })
    }

    /// `havoc v0; { if (c) { havoc v1; exit 7; } }; __ensures { havoc v2; return; }`
    fn sample() -> Vec<Stmt> {
        vec![
            havoc(0),
            st(StmtKind::Block {
                id: BlockId(3),
                body: vec![st(StmtKind::If {
                    cond: Expr::bool(true),
                    then: vec![havoc(1), st(StmtKind::Exit(BlockId(7)))],
                    els: vec![],
                })],
            }),
            st(StmtKind::Ensures {
                body: vec![
                    havoc(2),
                    st(StmtKind::Return),
                    st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL)),
                ],
                cond: Expr::Var {
                    id: VarId(2),
                    ty: Ty::Bool,
                },
            }),
        ]
    }

    #[test]
    fn queries_look_at_any_depth_but_not_into_ensures() {
        let stmts = sample();
        let mut vars = BTreeSet::new();
        assigned_vars(&stmts, &mut vars);
        assert_eq!(vars, BTreeSet::from([VarId(0), VarId(1)]));
        let mut none = BTreeSet::new();
        defined_vars(&stmts, |c| c != VarContext::Havoc, &mut none);
        assert!(none.is_empty());
        assert!(exits_to(&stmts, BlockId(7)));
        assert!(!exits_to(&stmts, BlockId(3)));
        assert!(has_exit(&stmts));
        assert!(!has_exit(&stmts[2..]));
        assert!(!contains_barrier(&stmts));
        assert_eq!(own_def(&stmts[0]), Some(VarId(0)));
        assert_eq!(own_def(&stmts[1]), None);
    }

    #[test]
    fn accessed_arrays_keeps_the_asked_contexts() {
        let zero = || Expr::int(0, Ty::I64);
        let stmts = vec![
            st(StmtKind::Store {
                array: ArrayId(1),
                offset: zero(),
                value: Expr::int(0, Ty::I32),
                ty: Ty::I32,
            }),
            st(StmtKind::If {
                cond: Expr::bool(true),
                then: vec![st(StmtKind::Atomic {
                    op: crate::ir::AtomicOp::Add,
                    scope: crate::ir::AtomicScope::Device,
                    dst: None,
                    array: ArrayId(2),
                    offset: zero(),
                    operands: vec![Expr::int(1, Ty::I32)],
                    ty: Ty::I32,
                })],
                els: vec![],
            }),
        ];
        let mut atomic = Vec::new();
        accessed_arrays(&stmts, |c| matches!(c, AccessContext::Atomic(_)), &mut atomic);
        assert_eq!(atomic, [ArrayId(2)]);
        let mut written = BTreeSet::new();
        written_arrays(&stmts, &mut written);
        assert_eq!(written, BTreeSet::from([ArrayId(1), ArrayId(2)]));
    }

    #[test]
    fn mentions_sees_reads() {
        let e = Expr::Var {
            id: VarId(4),
            ty: Ty::I32,
        };
        assert!(mentions(&e, &BTreeSet::from([VarId(4)])));
        assert!(!mentions(&e, &BTreeSet::from([VarId(5)])));
    }
}
