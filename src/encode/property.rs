//! What the encoding produces and the queries ask, for every model: the properties
//! ([`Property`]), one query per property instance ([`Check`], with the [`Layout`] of its
//! witness values), the accesses the engine records ([`Access`]) and the result of an encoding
//! ([`Encoded`]). Types only: the engine (`engine`) builds them, `witness` reads a solver's
//! model back through them.

#[cfg(doc)]
use super::{EncodeOptions, encode_with};
use crate::ir::{ArrayId, Kernel, Span, Ty, VarId};
use crate::solver::{Query, Script, Sexp};
pub use crate::verdict::AccessKind;

/// What one [`Check`] asks.
#[derive(Clone, Debug)]
pub enum Property {
    /// A data race on `array` between some pair of [`Check::pairs`], harmful or benign (see
    /// [`Property::HarmfulRace`]).
    Race { array: ArrayId },
    /// The race check just before it restricted to harmful races: a read-write pair, or a
    /// write-write pair whose writes differ in offset, width or value (GPUVerify's benign
    /// races are the others: both threads store the same value at the same place). Made only
    /// when [`EncodeOptions::benign`] is on and that check has a write-write pair whose values
    /// are known ([`Access::written`]); to be asked only when that check is satisfiable with a
    /// model whose racing pairs are all benign ([`Check::only_benign`]). Sound: see
    /// [`EncodeOptions::benign`].
    HarmfulRace { array: ArrayId },
    /// Barrier divergence at the barrier (block, grid or warp) at `span`, or a warp
    /// collective there whose threads do not meet as CUDA requires: `reason` says how when it
    /// is not a barrier reached by one thread and not by another (a `__syncwarp(mask)` called
    /// from outside its mask, a shuffle whose mask names a lane that does not call it).
    Divergence { span: Span, reason: Option<&'static str> },
    /// `assert` at `span` failing for thread 1 (pair model: shared values abstracted).
    Assertion { span: Span },
    /// `--check-overflow` (issue 43, item 4): the source-level signed operation
    /// `kernel.signed_ops[op]` (at `span`) overflowing its type where a thread evaluates it
    /// (pair model: thread 1 stands for both), undefined behaviour in C, C++ and OpenCL C
    /// (UBSan's `signed-integer-overflow`). One check per operation, however often it is
    /// evaluated ([`EncodeOptions::check_overflow`]).
    SignedOverflow { op: usize, span: Span },
    /// A user loop invariant that may not hold on entry (`base`) or not be preserved.
    Invariant { span: Span, base: bool },
    /// The premise of message passing through the flag array `array` (`sync`): two writes
    /// (of two threads, or two sites of one) may store to one word. Never a defect of the
    /// kernel: `sat` makes the verdict inconclusive, since the races that the flag was taken
    /// to order are then not decided.
    FlagWriters { array: ArrayId },
    /// A barrier invariant (Chong et al. (OOPSLA 2013) §3) at `span` failing as `check` says, at
    /// the barrier after it.
    BarrierInvariant { span: Span, check: InvariantCheck },
    /// The step check of a derived closed form of `var` in the loop at `loop_span`: when
    /// satisfiable the derivation was wrong and must not be used (the driver then havocs
    /// `var` instead). Never a defect of the kernel.
    ClosedForm { loop_span: Span, var: VarId },
}

impl Property {
    /// A short description for `--show=queries`: `race on sdata`, `barrier divergence at
    /// t.cu:12:5`, with `kernel`'s names.
    pub fn describe(&self, kernel: &Kernel) -> String {
        match self {
            Property::Race { array } => format!("race on {}", kernel.array(*array).name),
            Property::HarmfulRace { array } => format!("harmful race on {}", kernel.array(*array).name),
            Property::Divergence { span, reason } => match reason {
                Some(why) => format!("divergence at {span} ({why})"),
                None => format!("barrier divergence at {span}"),
            },
            Property::Assertion { span } => format!("assertion at {span}"),
            Property::SignedOverflow { op, span } => match kernel.signed_ops.get(*op) {
                Some(o) => format!("signed overflow of `{}` at {span}", o.text),
                None => format!("signed overflow at {span}"),
            },
            Property::Invariant { span, base: true } => format!("loop invariant on entry at {span}"),
            Property::Invariant { span, base: false } => format!("loop invariant preserved at {span}"),
            Property::FlagWriters { array } => format!("two writers of flag {}", kernel.array(*array).name),
            Property::BarrierInvariant { span, check } => format!("barrier invariant ({check:?}) at {span}"),
            Property::ClosedForm { loop_span, var } => {
                format!("closed form of {} in the loop at {loop_span}", kernel.var(*var).name)
            }
        }
    }
}

/// One property instance: the query and how to read its model back.
#[derive(Clone, Debug)]
pub struct Check {
    /// What the query asks.
    pub property: Property,
    /// The query: satisfiable when the property fails (or, for a closed form, the
    /// derivation is wrong).
    pub query: Query,
    /// For races, the access pairs (t1's access, t2's access) whose disjunction the query
    /// asks; the values of `query.get_values` hold, after the common witness values, for each
    /// pair: its condition, t1's byte offset and t2's byte offset.
    pub pairs: Vec<(std::sync::Arc<Access>, std::sync::Arc<Access>)>,
    /// For a linear race query (`engine::linear`; `pairs` then empty): the accesses each
    /// thread chooses among. The values of `query.get_values` hold, after the common ones,
    /// thread 1's and thread 2's chosen byte offsets, the harmful condition when
    /// [`Check::benign`] (or for a [`Property::HarmfulRace`] check), then the selector of
    /// each side with more than one candidate (a BV32 index into it).
    pub sides: Option<std::sync::Arc<RaceSides>>,
    /// The layout of the common witness values at the front of `query.get_values`.
    pub(crate) layout: Layout,
    /// The answer rests on a loop abstraction: a witness may be infeasible (a "possible"
    /// defect).
    pub possible: bool,
    /// What a possible finding rests on, each as the report names it (`the loop at line 89
    /// (`k` arbitrary at its head)`), in encoding order: for a race check every abstraction
    /// encoded (a finding names those before the later of its two accesses,
    /// [`Access::abstracted`]), for any other check those before it; empty when none.
    pub abstractions: Vec<String>,
    /// A race check whose next check is its [`Property::HarmfulRace`] variant: its
    /// `query.get_values` end, after each pair's three values, with one `Bool` per pair: the
    /// pair races and is not benign ([`Check::only_benign`] reads them).
    pub benign: bool,
    /// For races, per pair: why the lock or flag around it does not order it, for a witness
    /// whose threads are of one block and for one whose threads are of different blocks
    /// (`sync::SyncHint`); empty for other checks.
    pub hints: Vec<SyncHint>,
    /// One case of a check split by thread (`--split-invariants`): the checks with the same
    /// `split` (the index of the first case) are the cases of one check, whose disjunction is
    /// its query; once one is satisfiable the others are not asked.
    pub split: Option<usize>,
}

impl Check {
    /// For a [`Check::benign`] race check, whether the model whose `values` a `sat` answer gave
    /// races only benignly (every pair whose condition holds writes the same value at the same
    /// place in both threads): then its [`Property::HarmfulRace`] variant decides. `false` for
    /// any other check.
    pub fn only_benign(&self, values: &[Sexp]) -> bool {
        if !self.benign {
            return false;
        }
        if self.sides.is_some() {
            return values.get(self.layout.len() + 2).and_then(Sexp::as_bool) == Some(false);
        }
        let start = self.layout.common().len() + 3 * self.pairs.len();
        (0..self.pairs.len()).all(|p| values.get(start + p).and_then(Sexp::as_bool) == Some(false))
    }
}

/// The candidates of a linear race query (`engine::linear`): thread 1 chooses one access of
/// `first`, thread 2 one of `second`.
#[derive(Clone, Debug, Default)]
pub struct RaceSides {
    pub first: Vec<std::sync::Arc<Access>>,
    pub second: Vec<std::sync::Arc<Access>>,
}

impl RaceSides {
    /// The pair a model chose: `rest` are its values after the common ones (as
    /// [`Check::sides`] lays them out, `harmful` saying whether the harmful condition is among
    /// them). A selector out of range (it cannot be, in a model of the query) reads as 0.
    pub fn chosen(&self, rest: &[Sexp], harmful: bool) -> (&Access, &Access) {
        let mut at = 2 + usize::from(harmful);
        let mut pick = |side: &'_ [std::sync::Arc<Access>]| -> usize {
            if side.len() < 2 {
                return 0;
            }
            let i = rest
                .get(at)
                .and_then(Sexp::as_bv)
                .and_then(|b| usize::try_from(b).ok())
                .filter(|&i| i < side.len())
                .unwrap_or(0);
            at += 1;
            i
        };
        let i = pick(&self.first);
        let j = pick(&self.second);
        (&self.first[i], &self.second[j])
    }
}

impl Check {
    /// For a linear race check ([`Check::sides`]): its query with each pair of source
    /// locations of `found` excluded, in either thread's order, so that a model names another
    /// pair (issue 53, item 5: every racing pair, each with its own witness). `None` for any
    /// other check.
    pub fn excluding(&self, found: &[(Span, Span)]) -> Option<Query> {
        use super::terms::{and, bvn, equal, f, not, or, t};
        let sides = self.sides.as_ref()?;
        // The condition that a side's selector (the `k`-th of the values asked, after the
        // offsets and the harmful condition) chooses an access at `span`.
        let harmful = usize::from(self.benign || matches!(self.property, Property::HarmfulRace { .. }));
        let base = self.layout.len() + 2 + harmful;
        let first_sel = self.query.get_values.get(base).cloned();
        let second_sel = match sides.first.len() > 1 {
            true => self.query.get_values.get(base + 1).cloned(),
            false => first_sel.clone(),
        };
        let at = |side: &[std::sync::Arc<Access>], sel: &Option<Sexp>, span: &Span| -> Sexp {
            if side.len() < 2 {
                return if side.first().is_some_and(|a| a.span == *span) {
                    t()
                } else {
                    f()
                };
            }
            let Some(sel) = sel else { return t() };
            side.iter()
                .enumerate()
                .filter(|(_, a)| a.span == *span)
                .map(|(i, _)| equal(sel, &bvn(i as u64, 32)))
                .reduce(or)
                .unwrap_or_else(f)
        };
        let mut query = self.query.clone();
        for (x, y) in found {
            for (p, q) in [(x, y), (y, x)] {
                let chosen = and(at(&sides.first, &first_sel, p), at(&sides.second, &second_sel, q));
                if chosen != f() {
                    query.assertions.push(not(chosen));
                }
            }
        }
        query.name = format!("{}.pair{}", self.query.name, found.len() + 1);
        Some(query)
    }
}

/// One memory access site as executed by both threads.
#[derive(Clone, Debug)]
pub struct Access {
    /// The array accessed.
    pub array: ArrayId,
    /// The access in the source.
    pub span: Span,
    /// Read, write or atomic.
    pub kind: AccessKind,
    /// For an atomic: its operation and scope.
    pub atomic: Option<(crate::ir::AtomicOp, crate::ir::AtomicScope)>,
    /// Bytes touched.
    pub width: u32,
    /// Top-level barrier segment: accesses of different segments are ordered for one block.
    pub segment: u32,
    /// Made inside or after an abstracted loop (or a call without a body): how many of the
    /// encoder's abstractions ([`Check::abstractions`] of a race check) came before it; 0 when
    /// none did.
    pub abstracted: usize,
    /// A possible write by a call without a body ([`crate::ir::StmtKind::Clobber`]) at an
    /// arbitrary offset: it races like a write, but is not one memory access (bank conflicts
    /// leave it out).
    pub clobber: bool,
    /// Per thread: the offset is a real address (see `Encoder::offset`).
    pub valid: Vec<Sexp>,
    /// Per thread: path condition, byte offset (BV64), barrier count (BV64).
    pub per_thread: Vec<(Sexp, Sexp, Sexp)>,
    /// Per thread: grid-barrier count (BV64); accesses of different blocks meet only at equal
    /// counts.
    pub grid: Vec<Sexp>,
    /// Per thread: warp-barrier counts (BV64, 16 bits per grouping of warp barriers); accesses
    /// of one group meet only at equal counts for its grouping.
    pub warp: Vec<Sexp>,
    /// Where the access lies among fences, locks and flags (`sync`).
    pub sync: SyncPoint,
    /// The OpenCL work-group copy this access is part of (its site): two threads of one group
    /// do not race on one copy's accesses (`copies`).
    pub copy: Option<u32>,
    /// Per thread: the bits a plain store writes (its `t{th}.val`, `width` bytes); empty for
    /// reads, atomics (what they write depends on the memory) and clobbers. Benign races
    /// compare them ([`Property::HarmfulRace`]).
    pub written: Vec<Sexp>,
}

/// Why a lock or a flag does not order a racing pair, by where the witness's threads are: of
/// one block, of different blocks (`None`: nothing to say).
#[derive(Clone, Debug, Default)]
pub struct SyncHint {
    pub same_block: Option<String>,
    pub cross_block: Option<String>,
}

/// Where an access lies among its thread's fences, held locks and observed flags (docs/modelling.md
/// "Fences, flags and locks"; `sync`).
#[derive(Clone, Debug, Default)]
pub struct SyncPoint {
    /// Its program-order position among the accesses, fences and markers (the same for both
    /// threads, which the encoder runs in lock step).
    pub pos: u32,
    /// Per thread: the positions of its last fence of any scope and of device scope before
    /// the access (BV32; see `TState::fence`).
    pub fences: Vec<(Sexp, Sexp)>,
    /// The lock instances held here (`sync::SyncState::locks`), outermost first.
    pub locks: Vec<usize>,
    /// An atomic that writes a new value (not an atomic read such as `atomicAdd(p, 0)`): on
    /// a flag's array, a release write's candidate.
    pub writes: bool,
}

/// The result of [`encode_with`] (and of the pair model's [`super::encode`]).
#[derive(Clone, Debug)]
pub struct Encoded {
    /// The kernel's transition formula: declarations, SSA definitions, geometry and thread
    /// constraints. Shared: each solver session of the kernel holds it, not a copy.
    pub script: std::sync::Arc<Script>,
    /// One check per property instance, in source order.
    pub checks: Vec<Check>,
    /// Over-approximations the verdict rests on, for the report (e.g. adversarial arrays).
    pub notes: Vec<String>,
    /// Every access to a shared or global array, in program order, with each thread's path
    /// condition, byte offset and barrier count (for checks built outside, e.g. bank
    /// conflicts).
    pub accesses: Vec<Access>,
    /// The conjunction of [`EncodeOptions::preferred`] as a term over the script's symbols
    /// (`None` when there are none): an assertion a query may add to ask for a witness that
    /// satisfies them.
    pub preferred: Option<Sexp>,
}

/// What one barrier-invariant query asks ([`Property::BarrierInvariant`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvariantCheck {
    /// The invariant may not hold when the barrier is reached.
    Holds,
    /// The invariant may read a location neither thread of the pair accessed since the last barrier
    /// (an unknown location, Chong et al. (OOPSLA 2013) §3.2).
    Access,
    /// The invariant reads this variable, which may differ between two threads of one block:
    /// it cannot be instantiated at other threads.
    Uniform(String),
}

/// Which terms come first in every query's `get-value` list.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layout {
    /// t1 blockIdx xyz, t1 threadIdx xyz, t2 blockIdx xyz, t2 threadIdx xyz.
    pub coords: Vec<Sexp>,
    pub params: Vec<(String, Ty, Sexp)>,
    pub geometry: Vec<(String, Sexp)>,
}

impl Layout {
    pub fn common(&self) -> Vec<Sexp> {
        let mut v = self.coords.clone();
        v.extend(self.params.iter().map(|p| p.2.clone()));
        v.extend(self.geometry.iter().map(|g| g.1.clone()));
        v
    }

    pub(crate) fn len(&self) -> usize {
        self.coords.len() + self.params.len() + self.geometry.len()
    }
}
