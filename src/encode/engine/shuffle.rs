//! Warp collectives (issue 12). Shuffles (`__shfl*_sync`): the value a lane receives is its
//! source lane's value at the same call, when the encoder follows that lane, and otherwise any
//! value.
//!
//! - Concrete model ([`MemoryModel::Serialized`], every thread explicit, loops unrolled): exact.
//!   The source lane is one of the threads of the caller's warp (known from the pinned
//!   coordinates); a source lane outside the launch, one that does not make the call, or one
//!   the caller's mask leaves out gives any value (CUDA leaves it undefined).
//! - Pair model, outside abstracted loops: the caller's own value when the source is its own
//!   lane, the other thread's when the source is the other thread's lane (same warp, and that
//!   thread makes the call: each thread executes a statement outside a loop at most once, so
//!   both are at the same call), else a fresh value: the lanes the pair model does not follow
//!   may hold anything, so what follows is "possible". Inside an abstracted loop the two
//!   threads may be at different iterations: only the own-lane case is kept.
//! - A literal `mask` naming a lane of the caller's warp that has not exited and does not make
//!   the call is a finding (CUDA: every non-exited thread named in the mask must execute the
//!   same intrinsic), asked in the pair model outside abstracted loops, as a divergence.
//!
//! Source lanes follow the CUDA C++ Programming Guide ("Warp Shuffle Functions") for a caller
//! of lane `l` in segments of `width` lanes ([`ShuffleMode`]).
//!
//! Votes (`__ballot_sync`, `__any_sync`, `__all_sync`, `__uni_sync`, `__activemask`,
//! `__match_any_sync`, `__reduce_*_sync`, and the block's `__syncthreads_count/_and/_or`) are
//! exact in the concrete model, over the threads of the warp (block) that take part, and any
//! value in the pair model, which follows two threads only, but the same value for both
//! threads when they make the same call in one group (issue 53 item 6: `same_group_call`).
//! `cg::reduce` over a tile ([`VoteOp::Uniform`]) is any value in both models, likewise shared
//! by its tile in the pair model.

use super::{Encoder, Property, TState};
use crate::encode::terms::{and, app, atom, bvn, f, not, or, sort_of, sym, t};
use crate::ir::{Expr, ReduceOp, ShuffleMode, Stmt, Ty, VarId, VoteOp};
use crate::solver::Sexp;
use num_bigint::BigUint;

/// One thread's operands of a shuffle: its value (as the result's type), its source lane, its
/// own lane and its mask (BV32; the mask `None` for the legacy forms).
struct Operands {
    value: Sexp,
    source: Sexp,
    lane: Sexp,
    mask: Option<Sexp>,
}

impl Encoder<'_> {
    /// `dst = shuffle(mask, value, lane, width)` of `mode` for every thread of `st`.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::encode) fn shuffle(
        &mut self,
        s: &Stmt,
        dst: VarId,
        mode: ShuffleMode,
        mask: Option<&Expr>,
        (value, lane, width): (&Expr, &Expr, &Expr),
        st: &mut [TState],
    ) {
        let ty = self.k.var(dst).ty;
        // Every thread's operands before any result: `dst` may be one of them.
        let mut ops = Vec::new();
        for (th, ts) in st.iter_mut().enumerate() {
            let v = self.expr(value, ts, th);
            let v = self.coerce(v, value.ty(), ty);
            let l = self.expr(lane, ts, th);
            let l = self.coerce(l, lane.ty(), Ty::U32);
            let w = self.expr(width, ts, th);
            let w = self.coerce(w, width.ty(), Ty::U32);
            let own = self.lane_of(th);
            let source = source_lane(mode, &own, &l, &w);
            let m = mask.map(|m| self.expr(m, ts, th));
            ops.push(Operands {
                value: self.define(&format!("t{}.shfl.val", th + 1), sort_of(ty), v),
                source: self.define(&format!("t{}.shfl.src", th + 1), Sexp::bv_sort(32), source),
                lane: own,
                mask: m,
            });
        }
        self.inactive_lane_check(s, mask, &ops, st);
        if !self.model.pinned() {
            // Lanes the model does not follow may be the source.
            self.rests_on(format!(
                "the shuffle at line {}, whose source lane the pair model may not follow",
                s.span.line
            ));
        }
        for th in 0..st.len() {
            let name = self.fresh_name(&format!("t{}.shfl.other", th + 1));
            let mut v = self.declare(&name, sort_of(ty));
            for (o, same_warp) in self.shuffle_sources(th, st.len()) {
                // Lane `o` is the source, makes the call, and the caller's mask names it (from
                // a lane outside the mask the value is undefined).
                let mut from_o = and(
                    and(same_warp, app("=", vec![ops[th].source.clone(), ops[o].lane.clone()])),
                    st[o].pc.clone(),
                );
                if let Some(m) = &ops[th].mask {
                    from_o = and(from_o, names(m, &ops[o].lane));
                }
                v = app("ite", vec![from_o, ops[o].value.clone(), v]);
            }
            let own = app("=", vec![ops[th].source.clone(), ops[th].lane.clone()]);
            let v = app("ite", vec![own, ops[th].value.clone(), v]);
            self.assign(dst, v, &mut st[th], th);
        }
    }

    /// Thread `th`'s lane: its linear thread id mod 32 (BV32); a literal in the concrete model.
    fn lane_of(&self, th: usize) -> Sexp {
        match self.concrete_linear_id(th) {
            Some(lin) => bvn(lin % 32, 32),
            None => app("bvand", vec![Self::linear_tid(th), bvn(31, 32)]),
        }
    }

    /// Thread `th`'s block and warp (its linear thread id / 32), when the model pins it
    /// (concrete model).
    fn concrete_warp(&self, th: usize) -> Option<([u64; 3], u64)> {
        Some((self.concrete.pinned.get(th)?.0, self.concrete_linear_id(th)? / 32))
    }

    /// Thread `th`'s linear thread id in its block, when the model pins it (concrete model).
    fn concrete_linear_id(&self, th: usize) -> Option<u64> {
        let (_, tid) = self.concrete.pinned.get(th)?;
        let bx = u64::from(self.g.block_dim[0]?);
        let by = u64::from(self.g.block_dim[1]?);
        Some(tid[0] + bx * (tid[1] + by * tid[2]))
    }

    /// The other threads that may be thread `th`'s source lane, each with the condition that
    /// it is of `th`'s warp: in the concrete model the other threads of its warp (condition
    /// true), in the pair model outside abstracted loops the other thread, else none.
    fn shuffle_sources(&mut self, th: usize, n: usize) -> Vec<(usize, Sexp)> {
        if self.model.pinned() {
            let mine = self.concrete_warp(th);
            return (0..n)
                .filter(|o| *o != th && mine.is_some() && self.concrete_warp(*o) == mine)
                .map(|o| (o, t()))
                .collect();
        }
        if self.model.pair() && self.abstract_depth == 0 {
            return vec![(1 - th, self.same_warp())];
        }
        Vec::new()
    }

    /// The check that a `mask` that is a literal names no lane of the caller's warp that has
    /// not exited and does not make the call (pair model, outside abstracted loops, with
    /// checks): thread `th` makes it, the other is of its warp, named by the mask, not making
    /// it and not exited. Skipped after a `return` inside an abstracted loop (which thread
    /// exited there is not tracked): a finding missed, never a false one.
    fn inactive_lane_check(&mut self, s: &Stmt, mask: Option<&Expr>, ops: &[Operands], st: &[TState]) {
        let Some(Expr::Const { value: mask, .. }) = mask else {
            return;
        };
        let Ok(mask) = u32::try_from(mask) else {
            return;
        };
        if !self.make_checks || !self.model.pair() || self.abstract_depth > 0 || self.returned_in_loop {
            return;
        }
        let same_warp = self.same_warp();
        let named = |o: usize| names(&bvn(u64::from(mask), 32), &ops[o].lane);
        let cond = (0..2).fold(f(), |acc, th| {
            let o = 1 - th;
            let missing = and(and(named(o), not(st[o].pc.clone())), not(self.returned[o].clone()));
            or(acc, and(and(st[th].pc.clone(), same_warp.clone()), missing))
        });
        let both_assumed = and(st[0].assumed.clone(), st[1].assumed.clone());
        let property = Property::Divergence {
            span: s.span.clone(),
            reason: Some(
                "the call's mask names a lane of the warp that has not exited and does not make the call (CUDA leaves the result undefined)",
            ),
        };
        let name = format!("{}.inactive_lane.L{}", sym(&self.k.name), s.span.line);
        let own = vec![st[0].pc.clone(), st[1].pc.clone()];
        self.push_check(property, name, and(cond, both_assumed), own, self.seen_abstract());
    }

    /// `same_warp`: the two threads are of one block and one warp of 32, defined once.
    pub(in crate::encode) fn same_warp(&mut self) -> Sexp {
        if let Some(w) = &self.pair.same_warp {
            return w.clone();
        }
        let w = self.one_warp("same_warp", 5);
        self.pair.same_warp = Some(w.clone());
        w
    }

    /// A `return` by the threads of `st` under their path conditions: remembered per thread
    /// (outside abstracted loops; inside one, only that some thread may have returned there).
    pub(in crate::encode) fn note_return(&mut self, st: &[TState]) {
        if self.abstract_depth > 0 {
            self.returned_in_loop = true;
            return;
        }
        for (th, ts) in st.iter().enumerate() {
            if let Some(r) = self.returned.get_mut(th) {
                *r = or(r.clone(), ts.pc.clone());
            }
        }
    }
}

/// `mask` (BV32) has the bit of `lane` (BV32) set.
pub(in crate::encode) fn names(mask: &Sexp, lane: &Sexp) -> Sexp {
    let bit = app(
        "bvand",
        vec![app("bvlshr", vec![mask.clone(), lane.clone()]), bvn(1, 32)],
    );
    app("=", vec![bit, bvn(1, 32)])
}

/// The source lane of a caller of lane `own` (BV32) for `mode`, with lane argument `l` (the
/// source lane, delta or lane mask) and segment `width` `w` (BV32; CUDA asks a power of two
/// up to 32): `Idx` lane `l mod w` of the caller's segment; `Up` `own - l` unless that leaves
/// the segment (then `own`); `Down` `own + l` likewise; `Xor` `own ^ l` unless it lies past
/// the segment's last lane (then `own`).
fn source_lane(mode: ShuffleMode, own: &Sexp, l: &Sexp, w: &Sexp) -> Sexp {
    let base = app("bvand", vec![own.clone(), app("bvneg", vec![w.clone()])]);
    let pos = app("bvsub", vec![own.clone(), base.clone()]);
    let one = bvn(1, 32);
    match mode {
        ShuffleMode::Idx => app(
            "bvadd",
            vec![base, app("bvand", vec![l.clone(), app("bvsub", vec![w.clone(), one])])],
        ),
        ShuffleMode::Up => app(
            "ite",
            vec![
                app("bvuge", vec![pos, l.clone()]),
                app("bvsub", vec![own.clone(), l.clone()]),
                own.clone(),
            ],
        ),
        ShuffleMode::Down => app(
            "ite",
            vec![
                app("bvult", vec![l.clone(), app("bvsub", vec![w.clone(), pos])]),
                app("bvadd", vec![own.clone(), l.clone()]),
                own.clone(),
            ],
        ),
        ShuffleMode::Xor => {
            let j = app("bvxor", vec![own.clone(), l.clone()]);
            let last = app("bvor", vec![base, app("bvsub", vec![w.clone(), one])]);
            app("ite", vec![app("bvule", vec![j.clone(), last]), j, own.clone()])
        }
    }
}

impl Encoder<'_> {
    /// `dst = vote(mask, arg)` of `op` for every thread of `st`: exact in the concrete model
    /// (every participant is a modelled thread; when the mask names a lane of the warp that
    /// has not exited and does not make the call, any value, as CUDA leaves it undefined),
    /// any value elsewhere (the pair model does not follow the other lanes: what follows is
    /// "possible"). A literal mask is checked as for shuffles.
    pub(in crate::encode) fn vote(
        &mut self,
        s: &Stmt,
        dst: VarId,
        op: VoteOp,
        mask: Option<&Expr>,
        arg: &Expr,
        st: &mut [TState],
    ) {
        let ty = self.k.var(dst).ty;
        let mut ops = Vec::new();
        for (th, ts) in st.iter_mut().enumerate() {
            let v = self.expr(arg, ts, th);
            let v = self.define(&format!("t{}.vote.arg", th + 1), sort_of(arg.ty()), v);
            let m = mask.map(|m| self.expr(m, ts, th));
            let lane = self.lane_of(th);
            ops.push(Operands {
                value: v,
                source: lane.clone(),
                lane,
                mask: m,
            });
        }
        self.inactive_lane_check(s, mask, &ops, st);
        let exact = self.model.pinned() && op != VoteOp::Uniform;
        if !exact {
            self.rests_on(format!(
                "the warp vote at line {}, whose other participants the pair model does not follow",
                s.span.line
            ));
        }
        // The pair model's condition that both threads take part in this one call of one
        // group, whose result every participant shares.
        let shared = self.same_group_call(op, &ops, st);
        let mut first: Option<Sexp> = None;
        for th in 0..st.len() {
            let name = self.fresh_name(&format!("t{}.vote.any", th + 1));
            let fresh = self.declare(&name, sort_of(ty));
            let v = match exact {
                true => self
                    .vote_value(th, op, arg.ty(), ty, &ops, st)
                    .map_or(fresh.clone(), |v| match self.undefined_vote(th, op, &ops, st) {
                        Some(undefined) => app("ite", vec![undefined, fresh, v]),
                        None => v,
                    }),
                false => match (&shared, &first) {
                    (Some(same), Some(v0)) => app("ite", vec![same.clone(), v0.clone(), fresh]),
                    _ => fresh,
                },
            };
            let v = match (&shared, th) {
                (Some(_), 0) => {
                    let v = self.define(&format!("t{}.vote.val", th + 1), sort_of(ty), v);
                    first = Some(v.clone());
                    v
                }
                _ => v,
            };
            self.assign(dst, v, &mut st[th], th);
        }
    }

    /// Pair model, outside abstracted loops, for a vote whose result is the same for every
    /// participant of one call (issue 53 item 6: reductions, `any`/`all`/`uni`/`ballot` under
    /// a mask, the block votes, `cg::reduce` over a tile): the condition that both threads make
    /// this call (outside abstracted loops each thread executes a statement at most once, so
    /// both are at the same call) in one group: one block for the block votes, else one warp
    /// with equal masks (one tile of it for `cg::reduce`, whose mask names the tile). `None`
    /// elsewhere, and for the votes that differ per lane (`match_any`) or whose participants
    /// are the lanes that happen to be active (`__activemask`, the legacy `__ballot`).
    fn same_group_call(&mut self, op: VoteOp, ops: &[Operands], st: &[TState]) -> Option<Sexp> {
        if !self.model.pair() || self.abstract_depth > 0 || st.len() != 2 {
            return None;
        }
        let both = and(st[0].pc.clone(), st[1].pc.clone());
        match op {
            VoteOp::BlockCount | VoteOp::BlockAnd | VoteOp::BlockOr => Some(and(atom("same_block"), both)),
            VoteOp::MatchAny | VoteOp::ActiveMask => None,
            VoteOp::Ballot | VoteOp::Any | VoteOp::All | VoteOp::Uni | VoteOp::Reduce(_) | VoteOp::Uniform => {
                let (Some(m0), Some(m1)) = (&ops[0].mask, &ops[1].mask) else {
                    return None;
                };
                let same_mask = app("=", vec![m0.clone(), m1.clone()]);
                Some(and(and(self.same_warp(), same_mask), both))
            }
        }
    }

    /// The participants of thread `th`'s vote `op` (concrete model): itself and the other
    /// threads of its warp (of its block for the block forms), each with whether it takes part
    /// (makes the call and, with a mask, is named by `th`'s).
    fn participants(&self, th: usize, op: VoteOp, ops: &[Operands], st: &[TState]) -> Vec<(usize, Sexp)> {
        let block_wide = matches!(op, VoteOp::BlockCount | VoteOp::BlockAnd | VoteOp::BlockOr);
        (0..st.len())
            .filter(|o| match block_wide {
                true => self.concrete.pinned[*o].0 == self.concrete.pinned[th].0,
                false => self.concrete_warp(*o).is_some() && self.concrete_warp(*o) == self.concrete_warp(th),
            })
            .map(|o| {
                let named = ops[th].mask.as_ref().map_or(t(), |m| names(m, &ops[o].lane));
                (o, and(st[o].pc.clone(), named))
            })
            .collect()
    }

    /// When thread `th`'s vote is undefined (concrete model, a mask): a lane of its warp that
    /// the mask names has not exited and does not make the call.
    fn undefined_vote(&self, th: usize, op: VoteOp, ops: &[Operands], st: &[TState]) -> Option<Sexp> {
        let m = ops[th].mask.as_ref()?;
        let missing = self
            .participants(th, op, ops, st)
            .into_iter()
            .map(|(o, _)| {
                and(
                    names(m, &ops[o].lane),
                    and(not(st[o].pc.clone()), not(self.returned[o].clone())),
                )
            })
            .fold(f(), or);
        Some(missing)
    }

    /// Thread `th`'s exact vote `op` over its participants (concrete model), of type `ty`
    /// from arguments of type `arg_ty`; `None` for a reduction of a type that is not an
    /// integer.
    fn vote_value(
        &mut self,
        th: usize,
        op: VoteOp,
        arg_ty: Ty,
        ty: Ty,
        ops: &[Operands],
        st: &[TState],
    ) -> Option<Sexp> {
        let parts = self.participants(th, op, ops, st);
        let nonzero = |v: &Sexp| match arg_ty {
            Ty::Bool => v.clone(),
            _ => not(app("=", vec![v.clone(), zero(arg_ty)])),
        };
        let bit = |lane: &Sexp| app("bvshl", vec![bvn(1, 32), lane.clone()]);
        let lanes = |cond: &dyn Fn(usize) -> Sexp| {
            parts.iter().fold(bvn(0, 32), |acc, (o, takes)| {
                let set = and(takes.clone(), cond(*o));
                app("bvor", vec![acc, app("ite", vec![set, bit(&ops[*o].lane), bvn(0, 32)])])
            })
        };
        let flag = |b: Sexp| app("ite", vec![b, bvn(1, 32), bvn(0, 32)]);
        let v32 = match op {
            VoteOp::Uniform => return None,
            VoteOp::Ballot => lanes(&|o| nonzero(&ops[o].value)),
            VoteOp::ActiveMask => lanes(&|_| t()),
            VoteOp::MatchAny => lanes(&|o| app("=", vec![ops[o].value.clone(), ops[th].value.clone()])),
            VoteOp::Any | VoteOp::BlockOr => flag(parts.iter().fold(f(), |acc, (o, takes)| {
                or(acc, and(takes.clone(), nonzero(&ops[*o].value)))
            })),
            VoteOp::All | VoteOp::BlockAnd => flag(parts.iter().fold(t(), |acc, (o, takes)| {
                and(acc, or(not(takes.clone()), nonzero(&ops[*o].value)))
            })),
            VoteOp::Uni => flag(parts.iter().fold(t(), |acc, (o, takes)| {
                let same = app("=", vec![nonzero(&ops[*o].value), nonzero(&ops[th].value)]);
                and(acc, or(not(takes.clone()), same))
            })),
            VoteOp::BlockCount => parts.iter().fold(bvn(0, 32), |acc, (o, takes)| {
                let one = app(
                    "ite",
                    vec![and(takes.clone(), nonzero(&ops[*o].value)), bvn(1, 32), bvn(0, 32)],
                );
                app("bvadd", vec![acc, one])
            }),
            VoteOp::Reduce(r) => {
                let Ty::Int { bits, signed } = ty else {
                    return None;
                };
                let identity = match (r, signed) {
                    (ReduceOp::Add | ReduceOp::Or | ReduceOp::Xor, _) | (ReduceOp::Max, false) => BigUint::from(0u8),
                    (ReduceOp::And, _) | (ReduceOp::Min, false) => (BigUint::from(1u8) << bits) - 1u8,
                    (ReduceOp::Min, true) => (BigUint::from(1u8) << (bits - 1)) - 1u8,
                    (ReduceOp::Max, true) => BigUint::from(1u8) << (bits - 1),
                };
                let mut acc = Sexp::bv(&identity, bits);
                for (o, takes) in &parts {
                    let v = ops[*o].value.clone();
                    let less =
                        |a: &Sexp, b: &Sexp| app(if signed { "bvslt" } else { "bvult" }, vec![a.clone(), b.clone()]);
                    let next = match r {
                        ReduceOp::Add => app("bvadd", vec![acc.clone(), v]),
                        ReduceOp::And => app("bvand", vec![acc.clone(), v]),
                        ReduceOp::Or => app("bvor", vec![acc.clone(), v]),
                        ReduceOp::Xor => app("bvxor", vec![acc.clone(), v]),
                        ReduceOp::Min => app("ite", vec![less(&v, &acc), v.clone(), acc.clone()]),
                        ReduceOp::Max => app("ite", vec![less(&acc, &v), v.clone(), acc.clone()]),
                    };
                    // Named at each step: the accumulator occurs more than once in the next.
                    let step = app("ite", vec![takes.clone(), next, acc]);
                    acc = self.define(&format!("t{}.vote.acc", th + 1), Sexp::bv_sort(bits), step);
                }
                return Some(acc);
            }
        };
        Some(self.coerce(v32, Ty::U32, ty))
    }
}

/// The zero of an integer or float type's sort (a float's bits are compared as zero).
fn zero(ty: Ty) -> Sexp {
    bvn(0, ty.bits())
}
