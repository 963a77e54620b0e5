//! Which arrays the equality abstraction sets apart, found once per kernel before encoding:
//! adversarial arrays (touched by an atomic, or written by a call without a body: every read from
//! them fresh), the clobbered ones, and the counters among the adversarial ones (Bardsley and
//! Donaldson (NFM 2014) §4.2). Kernel analyses only; the abstraction itself is `equality`.

use crate::ir::visit::{AccessContext, Visitor};
use crate::ir::{ArrayId, Kernel, Space, Stmt, StmtKind};

/// The arrays whose values are adversarial (sorted, once each): under the equality
/// abstraction (`equality_abstraction`), those an atomic of `k` touches; in every model, those a call without
/// a body may write ([`clobbered_arrays`]). (Under the lock-step warp model the others are
/// forgotten after each write instead, `Encoder::warp_havoc`.)
pub(in crate::encode) fn adversarial_arrays(k: &Kernel, equality_abstraction: bool) -> Vec<ArrayId> {
    let mut adversarial = Vec::new();
    if equality_abstraction {
        collect_atomic_arrays(&k.body, &mut adversarial);
    }
    adversarial.extend(clobbered_arrays(k).into_iter().map(|(a, _)| a));
    adversarial.sort();
    adversarial.dedup();
    adversarial
}

/// The arrays of `k`'s [`StmtKind::Clobber`]s, each once with the first call that may write
/// it, anywhere in the kernel (in loops and `__ensures` bodies too).
pub(in crate::encode) fn clobbered_arrays(k: &Kernel) -> Vec<(ArrayId, String)> {
    struct Calls(Vec<(ArrayId, String)>);
    impl Visitor for Calls {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Clobber { array, call } = &s.kind
                && !self.0.iter().any(|(a, _)| a == array)
            {
                self.0.push((*array, call.clone()));
            }
            self.super_stmt(s);
        }
    }
    let mut c = Calls(Vec::new());
    c.visit_block(&k.body);
    c.0
}

/// Whether an `atomicCAS` appears anywhere in `k` (in loops too).
pub(in crate::encode) fn has_compare_and_swap(k: &Kernel) -> bool {
    /// The arrays of compare-and-swaps, and those of recognised locks.
    #[derive(Default)]
    struct Cas(Vec<ArrayId>, Vec<ArrayId>);
    impl Visitor for Cas {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Sync(crate::ir::SyncEvent::Lock { array, .. }) = &s.kind {
                self.1.push(*array);
            }
            self.super_stmt(s);
        }
        fn visit_array(&mut self, array: ArrayId, ctx: AccessContext) {
            if ctx == AccessContext::Atomic(crate::ir::AtomicOp::Cas) {
                self.0.push(array);
            }
        }
    }
    let mut c = Cas::default();
    c.visit_block(&k.body);
    c.0.iter().any(|a| !c.1.contains(a))
}

/// The arrays that an atomic of `stmts` touches (with repetitions), appended to `out`. Not
/// those of atomics inside an abstracted loop or an `__ensures` body, which are not walked.
fn collect_atomic_arrays(stmts: &[Stmt], out: &mut Vec<ArrayId>) {
    struct Atomics<'a>(&'a mut Vec<ArrayId>);
    impl Visitor for Atomics<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            if !matches!(s.kind, StmtKind::AbstractLoop(_) | StmtKind::Ensures { .. }) {
                self.super_stmt(s);
            }
        }
        fn visit_array(&mut self, array: ArrayId, ctx: AccessContext) {
            if let AccessContext::Atomic(_) = ctx {
                self.0.push(array);
            }
        }
    }
    Atomics(out).visit_block(stmts);
}

/// The counters of `k` (Bardsley and Donaldson (NFM 2014) §4.2, "repetition-free" atomics): the
/// arrays that the kernel touches only with atomic additions of positive literals, or only with
/// atomic subtractions of positive literals, all of one type, and nowhere else (no plain load or
/// store, no other atomic, no call without a body). Each such call moves its location strictly one
/// way, so the values two calls return from one location differ (as long as the counter does not
/// wrap around, which the paper, and gpug with it, sets aside). Each with whether that holds only
/// for two threads of one block: a global array some of whose atomics have block scope (two blocks'
/// calls are not atomic with respect to each other).
pub(in crate::encode) fn counter_arrays(k: &Kernel) -> Vec<(ArrayId, bool)> {
    use crate::ir::{AtomicOp, Expr, Ty};
    use std::collections::BTreeMap;
    /// Per array: the one (operation, type) of its atomics so far; `None` once disqualified.
    struct Uses<'k>(BTreeMap<ArrayId, Option<(AtomicOp, Ty)>>, &'k Kernel, Vec<ArrayId>);
    fn positive(e: &Expr) -> bool {
        match e {
            Expr::Const { value, ty } => !matches!(ty, Ty::Float { .. } | Ty::Bool) && *value > 0.into(),
            Expr::Cast { arg, ty } => {
                // A literal converted without changing its value.
                matches!(ty, Ty::Int { .. })
                    && positive(arg)
                    && matches!(&**arg, Expr::Const { value, .. } if *value < (num_bigint::BigInt::from(1) << (ty.bits() - 1)))
            }
            _ => false,
        }
    }
    impl Visitor for Uses<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Atomic {
                op,
                scope,
                array,
                operands,
                ty,
                ..
            } = &s.kind
            {
                // A block-scope atomic is atomic for its own block only: on a global array two
                // blocks' calls may return one value.
                if *scope == crate::ir::AtomicScope::Block && self.1.array(*array).space != Space::Shared {
                    self.2.push(*array);
                }
                let ok = matches!(op, AtomicOp::Add | AtomicOp::Sub) && operands.len() == 1 && positive(&operands[0]);
                let entry = self.0.entry(*array).or_insert(Some((*op, *ty)));
                if !ok || *entry != Some((*op, *ty)) {
                    *entry = None;
                }
            }
            self.super_stmt(s);
        }
        fn visit_array(&mut self, array: ArrayId, ctx: AccessContext) {
            if matches!(ctx, AccessContext::Load | AccessContext::Store | AccessContext::Clobber) {
                self.0.insert(array, None);
            }
        }
    }
    let mut uses = Uses(BTreeMap::new(), k, Vec::new());
    uses.visit_block(&k.body);
    uses.0
        .into_iter()
        .filter(|(a, u)| u.is_some() && k.array(*a).space != Space::Local)
        .map(|(a, _)| (a, uses.2.contains(&a)))
        .collect()
}
