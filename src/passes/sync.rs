//! Spin locks and flags: recognises the synchronisation idioms built from atomics and marks them
//! with [`StmtKind::Sync`] for the pair model (docs/modelling.md "Fences, flags and locks"; issue
//! 22; PTX ISA, "Memory Consistency Model": release and acquire patterns).
//!
//! - A **lock**: a spin loop whose test is one atomic on the lock word, `while (atomicCAS(&l,
//!   c, n) != c);` or `while (atomicExch(&l, n) != c);` (`c != n` literals, a body with
//!   nothing but fences), later in the same statement list an `atomicExch(&l, c)` on the same
//!   offset (whose variables nothing between assigns): `Sync(Lock)` after the loop,
//!   `Sync(Unlock)` before the release. An array is a lock only if every statement that
//!   writes it is such an acquire or release with one `c`: then no thread acquires a word that
//!   another holds (mutual exclusion, whatever the word's value at launch).
//! - A **flag observed**: a spin loop whose test is one atomic that leaves the word as it is
//!   (`atomicAdd(&f, 0)`, `atomicOr(&f, 0)`, `atomicCAS(&f, k, k)`, …) and which exits only on
//!   a value other than 0 (`== 0`, `!= k` with `k != 0`, `!x`): `Sync(Observed)` after it. The
//!   flag's array must be written only by atomics outside loops; the rest of the premise (one
//!   write per word, 0 at launch) is the encoder's.
//!
//! Anything else is no lock and no flag: the accesses they would order are checked as
//! unordered (a possible race, never a silent "verified"), and a note says why when an array
//! looked like one.

use crate::ir::query::{atomic_read_only, int_constant};
use crate::ir::visit::Visitor;
use crate::ir::{
    ArrayId, AtomicOp, AtomicScope, BarrierScope, BinOp, Expr, Kernel, Space, Stmt, StmtKind, SyncEvent, Ty, UnOp,
    VarId,
};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};

/// Marks the locks and observed flags of `k` ([`SyncEvent`]), and adds a note to `k.notes` for
/// each array whose idiom is refused.
pub(super) fn mark(k: &mut Kernel) {
    let mut body = std::mem::take(&mut k.body);
    let mut found = Found::default();
    mark_block(&mut body, &mut found);
    let mut writes = BTreeMap::new();
    count_writes(&body, false, &mut writes);
    // An array is a lock when its every write is a recognised acquire or release of one `c`.
    let mut bad_locks = BTreeSet::new();
    for (array, lock) in &found.locks {
        let mut total = writes.get(array).map_or(0, |w: &Writes| w.count);
        if k.array(*array).space == Space::Shared {
            total -= initialised_before_barrier(&body, *array);
        }
        if lock.sites != total || lock.released.len() != 1 {
            bad_locks.insert(*array);
            note(
                k,
                format!(
                    "`{}` is not taken as a spin lock: it is written other than by its lock's acquire loop and `atomicExch` release of one value, so the accesses between them are not ordered by it",
                    k.array(*array).name
                ),
            );
        }
    }
    for array in found.locks.keys().filter(|a| !bad_locks.contains(a)) {
        note(
            k,
            format!(
                "`{}` is a spin lock: two critical sections of one lock word are ordered when the lock's atomics and a fence after the acquire and before the release have scopes that hold both threads",
                k.array(*array).name
            ),
        );
    }
    let mut bad_flags = BTreeSet::new();
    for array in &found.flags {
        let w = writes.get(array).cloned().unwrap_or_default();
        if w.plain || w.in_loop || found.locks.contains_key(array) {
            bad_flags.insert(*array);
            note(
                k,
                format!(
                    "`{}` is not taken as a flag: it is written {}, so a spin-wait on it orders nothing",
                    k.array(*array).name,
                    if w.plain { "by a plain store" } else { "inside a loop" }
                ),
            );
        } else {
            note(
                k,
                format!(
                    "message passing through `{}`: assumes each of its words is 0 when the kernel starts",
                    k.array(*array).name
                ),
            );
        }
    }
    if !bad_locks.is_empty() || !bad_flags.is_empty() {
        unmark(&mut body, &bad_locks, &bad_flags);
    }
    k.body = body;
}

/// The writes of the `__shared__` lock array `array` that a block barrier at the top level of
/// the kernel separates from every use of the lock (its initialisation, `if (threadIdx.x == 0)
/// lock = 0; __syncthreads();`): the barrier orders them before every acquisition of the
/// block, so they cannot break mutual exclusion.
fn initialised_before_barrier(body: &[Stmt], array: ArrayId) -> usize {
    let locks = |s: &Stmt| {
        let mut found = false;
        walk_locks(std::slice::from_ref(s), &mut |a| found |= a == array);
        found
    };
    let Some(first) = body.iter().position(locks) else {
        return 0;
    };
    let Some(barrier) = body[..first]
        .iter()
        .rposition(|s| matches!(s.kind, StmtKind::Barrier(BarrierScope::Block, _)))
    else {
        return 0;
    };
    let mut writes = BTreeMap::new();
    count_writes(&body[..barrier], false, &mut writes);
    writes.get(&array).map_or(0, |w| w.count)
}

/// Calls `f` with the array of every `Sync(Lock)` marker in `stmts`, nested ones included.
fn walk_locks(stmts: &[Stmt], f: &mut impl FnMut(ArrayId)) {
    /// Meets the markers.
    struct Locks<'f, F>(&'f mut F);
    impl<F: FnMut(ArrayId)> Visitor for Locks<'_, F> {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Sync(SyncEvent::Lock { array, .. }) = &s.kind {
                (self.0)(*array);
            }
            self.super_stmt(s);
        }
    }
    Locks(f).visit_block(stmts);
}

fn note(k: &mut Kernel, s: String) {
    if !k.notes.contains(&s) {
        k.notes.push(s);
    }
}

/// What [`mark_block`] found.
#[derive(Default)]
struct Found {
    /// Per lock array: the acquire and release sites recognised, and the released values.
    locks: BTreeMap<ArrayId, LockSites>,
    /// Arrays with an observed flag.
    flags: BTreeSet<ArrayId>,
}

#[derive(Default)]
struct LockSites {
    sites: usize,
    released: BTreeSet<BigInt>,
}

/// The statements that write each array: how many, whether one is not an atomic (a store, a
/// call without a body), whether one lies in a loop.
#[derive(Clone, Default)]
struct Writes {
    count: usize,
    plain: bool,
    in_loop: bool,
}

fn count_writes(stmts: &[Stmt], in_loop: bool, out: &mut BTreeMap<ArrayId, Writes>) {
    for s in stmts {
        let mut add = |array: ArrayId, plain: bool| {
            let w = out.entry(array).or_default();
            w.count += 1;
            w.plain |= plain;
            w.in_loop |= in_loop;
        };
        match &s.kind {
            StmtKind::Store { array, .. } | StmtKind::Clobber { array, .. } => add(*array, true),
            StmtKind::Atomic {
                op, array, operands, ..
            } if !atomic_read_only(*op, operands) => add(*array, false),
            StmtKind::If { then, els, .. } => {
                count_writes(then, in_loop, out);
                count_writes(els, in_loop, out);
            }
            StmtKind::Loop {
                cond_stmts, body, step, ..
            } => {
                for b in [cond_stmts, body, step] {
                    count_writes(b, true, out);
                }
            }
            StmtKind::Block { body, .. } => count_writes(body, in_loop, out),
            StmtKind::AbstractLoop(l) => {
                for b in [&l.cond_stmts, &l.body, &l.step] {
                    count_writes(b, true, out);
                }
            }
            _ => {}
        }
    }
}

/// `e` is the variable `v`, through casts that keep its value (to a type at least as wide).
fn is_var(e: &Expr, v: VarId) -> bool {
    match e {
        Expr::Var { id, .. } => *id == v,
        Expr::Cast { arg, ty } => *ty != Ty::Bool && ty.bits() >= arg.ty().bits() && is_var(arg, v),
        _ => false,
    }
}

/// What leaving a loop whose test is `cond` says of the variable `v`: that it equals the
/// literal (`true`) or differs from it (`false`).
fn exit_fact(cond: &Expr, v: VarId) -> Option<(bool, BigInt)> {
    match cond {
        Expr::Binary {
            op: op @ (BinOp::Eq | BinOp::Ne),
            lhs,
            rhs,
            ..
        } => {
            let (x, k) = match (int_constant(lhs), int_constant(rhs)) {
                (None, Some(k)) => (lhs, k),
                (Some(k), None) => (rhs, k),
                _ => return None,
            };
            is_var(x, v).then_some((*op == BinOp::Ne, k))
        }
        // `while (x)`: leaves with x == 0.
        Expr::Cast { arg, ty: Ty::Bool } if is_var(arg, v) => Some((true, BigInt::from(0))),
        // `while (!x)`: leaves with x != 0.
        Expr::Unary { op: UnOp::Not, arg, .. } => {
            let (eq, k) = exit_fact(arg, v)?;
            Some((!eq, k))
        }
        _ => None,
    }
}

/// The atomic of a spin loop and what leaving the loop says of its result.
struct Spin<'a> {
    op: AtomicOp,
    scope: AtomicScope,
    array: ArrayId,
    offset: &'a Expr,
    operands: &'a [Expr],
    /// The loop leaves when the result equals `value` (`true`) or differs from it.
    equal: bool,
    value: BigInt,
}

/// A spin loop: a loop whose test evaluates one atomic into a temporary and whose body and
/// step do nothing but fences.
fn spin(s: &Stmt) -> Option<Spin<'_>> {
    let StmtKind::Loop {
        cond_stmts,
        cond,
        body,
        step,
        ..
    } = &s.kind
    else {
        return None;
    };
    let idle = |b: &[Stmt]| b.iter().all(|s| matches!(s.kind, StmtKind::Fence(_)));
    if !idle(body) || !idle(step) {
        return None;
    }
    let [
        Stmt {
            kind:
                StmtKind::Atomic {
                    op,
                    scope,
                    dst: Some(t),
                    array,
                    offset,
                    operands,
                    ..
                },
            ..
        },
    ] = cond_stmts.as_slice()
    else {
        return None;
    };
    // The marker after the loop reads the offset again: it must not depend on the result.
    if crate::ir::query::mentions(offset, &BTreeSet::from([*t])) {
        return None;
    }
    let (equal, value) = exit_fact(cond, *t)?;
    Some(Spin {
        op: *op,
        scope: *scope,
        array: *array,
        offset,
        operands,
        equal,
        value,
    })
}

/// The narrower of two scopes.
fn narrower(a: AtomicScope, b: AtomicScope) -> AtomicScope {
    match (a, b) {
        (AtomicScope::Block, _) | (_, AtomicScope::Block) => AtomicScope::Block,
        (AtomicScope::Device, _) | (_, AtomicScope::Device) => AtomicScope::Device,
        _ => AtomicScope::System,
    }
}

fn mark_block(stmts: &mut Vec<Stmt>, found: &mut Found) {
    for s in stmts.iter_mut() {
        match &mut s.kind {
            StmtKind::If { then, els, .. } => {
                mark_block(then, found);
                mark_block(els, found);
            }
            StmtKind::Loop { body, .. } => mark_block(body, found),
            StmtKind::Block { body, .. } => mark_block(body, found),
            _ => {}
        }
    }
    let mut i = 0;
    while i < stmts.len() {
        let Some(Spin {
            op,
            scope,
            array,
            offset,
            operands,
            equal,
            value: k,
        }) = spin(&stmts[i])
        else {
            i += 1;
            continue;
        };
        let lits: Vec<Option<BigInt>> = operands.iter().map(int_constant).collect();
        // Acquire: the loop leaves when the old value was `c`, having written `n != c`.
        let acquired = match (op, lits.as_slice()) {
            (AtomicOp::Cas, [Some(c), Some(n)]) if equal && *c == k && c != n => Some(c.clone()),
            (AtomicOp::Exch, [Some(n)]) if equal && *n != k => Some(k.clone()),
            _ => None,
        };
        if let Some(c) = acquired {
            let offset = offset.clone();
            if let Some(j) = release(stmts, i + 1, array, &offset, &c) {
                let StmtKind::Atomic { scope: rscope, .. } = stmts[j].kind else {
                    unreachable!("release() returns an atomic")
                };
                let span = stmts[i].span.clone();
                let rspan = stmts[j].span.clone();
                stmts.insert(
                    j,
                    Stmt {
                        kind: StmtKind::Sync(SyncEvent::Unlock),
                        span: rspan,
                    },
                );
                stmts.insert(
                    i + 1,
                    Stmt {
                        kind: StmtKind::Sync(SyncEvent::Lock {
                            array,
                            offset,
                            scope: narrower(scope, rscope),
                        }),
                        span,
                    },
                );
                let l = found.locks.entry(array).or_default();
                l.sites += 2;
                l.released.insert(c);
                i += 2;
                continue;
            }
        } else if atomic_read_only(op, operands)
            && ((!equal && k == BigInt::from(0)) || (equal && k != BigInt::from(0)))
        {
            let marker = Stmt {
                kind: StmtKind::Sync(SyncEvent::Observed {
                    array,
                    offset: offset.clone(),
                    scope,
                }),
                span: stmts[i].span.clone(),
            };
            stmts.insert(i + 1, marker);
            found.flags.insert(array);
            i += 2;
            continue;
        }
        i += 1;
    }
}

/// The index of the release of the lock word `array[offset]` acquired just before `from` in
/// `stmts`: an `atomicExch(&array[offset], c)` at the top of the list, with no assignment on
/// the way to a variable that `offset` reads.
fn release(stmts: &[Stmt], from: usize, array: ArrayId, offset: &Expr, c: &BigInt) -> Option<usize> {
    for (j, s) in stmts.iter().enumerate().skip(from) {
        if let StmtKind::Atomic {
            op: AtomicOp::Exch,
            array: a,
            offset: o,
            operands,
            ..
        } = &s.kind
            && *a == array
            && o == offset
            && operands.len() == 1
            && int_constant(&operands[0]).as_ref() == Some(c)
        {
            return Some(j);
        }
        let mut assigned = BTreeSet::new();
        crate::ir::query::assigned_vars(std::slice::from_ref(s), &mut assigned);
        if crate::ir::query::mentions(offset, &assigned) {
            return None;
        }
    }
    None
}

/// Removes the markers of the refused lock and flag arrays.
fn unmark(stmts: &mut Vec<Stmt>, locks: &BTreeSet<ArrayId>, flags: &BTreeSet<ArrayId>) {
    // Unlock markers carry no array: drop those that close a dropped lock, by nesting.
    let mut open: Vec<bool> = Vec::new();
    stmts.retain(|s| match &s.kind {
        StmtKind::Sync(SyncEvent::Lock { array, .. }) => {
            let drop = locks.contains(array);
            open.push(drop);
            !drop
        }
        StmtKind::Sync(SyncEvent::Unlock) => !open.pop().unwrap_or(false),
        StmtKind::Sync(SyncEvent::Observed { array, .. }) => !flags.contains(array),
        _ => true,
    });
    for s in stmts.iter_mut() {
        match &mut s.kind {
            StmtKind::If { then, els, .. } => {
                unmark(then, locks, flags);
                unmark(els, locks, flags);
            }
            StmtKind::Loop { body, .. } | StmtKind::Block { body, .. } => unmark(body, locks, flags),
            _ => {}
        }
    }
}
