//! The SSA engine every thread model runs: `n` threads executed in lock step over a prepared
//! kernel, each with its own state and path condition, building one SMT-LIB2 script (its
//! transition formula) and the checks of the model's properties. The pair model
//! ([`super::pair`]: two symbolic threads, equality abstraction), the bank model
//! ([`super::bank`]: k threads, [`encode_with`]) and the concrete model ([`super::concrete`]:
//! every thread of a launch under [`MemoryModel::Serialized`]) are its users; none of them
//! imports another.
//!
//! Sources: PUG paper (`003_…`) §2 for SSA over bit-vectors (`v_next = Γ(e)`, arrays by
//! `store`, joins by `ite`), §3–§5 for barrier intervals and the serializability argument that
//! lets two threads stand for all; GPUVerify lecture notes (`002_…`) for the two-thread
//! reduction and the equality abstraction of shared state. ARCHITECTURE.md "Soundness".
//!
//! Every array is a byte map `(Array (_ BitVec 64) (_ BitVec 8))`. Equality abstraction
//! ([`MemoryModel::EqualityAbstraction`]): at a barrier each non-local array becomes a fresh
//! array seen by both threads; between barriers each thread sees that array plus its own writes
//! (exact for the pair up to its first race). Arrays touched by an atomic are adversarial: every
//! read from them is fresh. Each thread counts the barriers it passes (`bc`); two accesses of
//! one block are in the same barrier interval when their counts agree. Grid barriers
//! (cooperative groups) are counted apart as well (`gc`): two accesses of different blocks can
//! race only when those agree. A `__shared__` array is one per block: the second thread sees
//! another fresh one when the two are of different blocks.
//!
//! Files: `state` (thread state, SSA definitions, the prologue, merges), `expr` (expressions),
//! `relational` (GPUVerify's two-thread annotations: the other thread's values, relational loop
//! invariants), `memory` (byte maps, offsets, loads, stores, atomics, access records),
//! `abstraction` (the equality abstraction at barriers, adversarial arrays of atomics), `loops`
//! (abstracted loops, closed forms, step checks, invariants), `barriers` (barrier counts,
//! divergence), `shuffle` (warp shuffles' values), `races` (race queries), `stmt` (the statement
//! interpreter); the concrete model's hooks: `fold` (constant folding, the memory overlay),
//! [`schedule`] (schedule IDs), `reads` (what an assertion read, for its witness).
//!
//! Does not run a solver nor read its answers (`super::witness` does that).
//!
//! Entry point: [`encode_with`]; a solver's values become a [`super::Finding`] through
//! [`Check::finding`].

mod abstraction;
mod barriers;
mod copies;
mod expr;
pub(in crate::encode) mod fold;
mod invariants;
mod launch;
mod loops;
mod memory;
mod races;
mod reads;
mod relational;
pub mod schedule;
mod shuffle;
mod state;
mod stmt;
mod sync;
mod uniform;

pub use invariants::InvariantCheck;
pub use reads::AssertInfo;
pub(in crate::encode) use reads::{ReadVars, expr_vars};
pub(in crate::encode) use state::TState;

use super::witness::{self, AccessKind};
use crate::ir::{ArrayId, BlockId, Expr, Kernel, Span, VarId, WarpLanes};
use crate::passes::Geometry;
use crate::solver::{Command, Query, Script, Sexp};
use abstraction::adversarial_arrays;
use loops::LoopFrame;
use std::collections::{BTreeMap, HashMap, HashSet};

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
    /// A barrier invariant (paper `001_…` §3) at `span` failing as `check` says, at the
    /// barrier after it.
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
    /// The layout of the common witness values at the front of `query.get_values`.
    pub(crate) layout: witness::Layout,
    /// The answer rests on a loop abstraction: a witness may be infeasible (a "possible"
    /// defect).
    pub possible: bool,
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
        let start = self.layout.common().len() + 3 * self.pairs.len();
        (0..self.pairs.len()).all(|p| values.get(start + p).and_then(Sexp::as_bool) == Some(false))
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
    /// Made inside or after an abstracted loop (or a call without a body).
    pub abstracted: bool,
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

/// Where an access lies among its thread's fences, held locks and observed flags
/// (DESIGN.md "Fences, flags and locks"; `sync`).
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
    /// constraints.
    pub script: Script,
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

/// How shared and global memory is modelled across the threads of the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryModel {
    /// Equality abstraction (pair model): each thread sees the interval's fresh array plus its
    /// own writes; arrays become fresh at every barrier; arrays touched by atomics are
    /// adversarial.
    EqualityAbstraction,
    /// One memory for all threads, updated in lock-step order (thread 0's statement, thread
    /// 1's, …): a serialization of each barrier interval, exact once the kernel is race-free
    /// (PUG paper §5, serializability). Atomics are real read-modify-writes.
    Serialized,
}

/// A launch contract's no-wrap assumptions ([`EncodeOptions::index_fits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexFits {
    /// 31 (an `int` index) or 32 (an `unsigned` one).
    pub bits: u32,
    /// The dimensions `d` with `gridDim.d * blockDim.d <= 2^bits`.
    pub dims: [bool; 3],
    /// The whole launch too: `gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y *
    /// blockDim.z <= 2^bits`, for indices that combine dimensions (`blockIdx.y * gridDim.x +
    /// blockIdx.x`).
    pub launch: bool,
}

/// What [`encode_with`] builds.
#[derive(Clone, Debug)]
pub struct EncodeOptions {
    /// Threads executed symbolically (2 for the pair model). Thread `i` (0-based) has the
    /// symbols `t{i+1}.threadIdx.x` … `t{i+1}.blockIdx.z`, all within the geometry and
    /// pairwise distinct.
    pub threads: usize,
    /// How shared and global memory is seen across the threads.
    pub memory: MemoryModel,
    /// Make the pair model's race and divergence checks (needs `threads == 2`) and the
    /// assertion checks.
    pub checks: bool,
    /// PUG's `+O`: assume that no integer `+`, `-`, `*` overflows its type (signed or
    /// unsigned), as a side condition on the path where it is evaluated.
    pub no_overflow: bool,
    /// A launch contract's "no wrap of the linear thread index" (`driver::contracts`):
    /// assumes, for each dimension `d` with `dims[d]`, what `gridDim.d * blockDim.d <=
    /// 2^bits` implies for each thread: `blockIdx.d * blockDim.d` does not wrap 32 bits and is
    /// at most `2^bits - blockDim.d` (so that adding `threadIdx.d` stays below `2^bits`); with
    /// [`IndexFits::launch`], what a launch of at most `2^bits` threads in all implies for the
    /// script's products and sums of launch values (`launch.rs`). Weaker than the contract, so
    /// a query unsatisfiable under it is unsatisfiable for every launch the contract allows.
    pub index_fits: Option<IndexFits>,
    /// Which write-write races are benign ([`Benign`]): under any but [`Benign::Off`], each
    /// race check with a write-write pair whose written values are known is followed by its
    /// [`Property::HarmfulRace`] variant, which leaves out the pairs where both threads store
    /// the same value at the same offset with the same width.
    ///
    /// Sound for the verdict, under the equality abstraction (DESIGN.md "Shared state in the
    /// pair model"; GPUVerify lecture notes `002_…`): take any execution and its first harmful
    /// race, between threads i and j. Up to it, every race is write-write of one value, and no
    /// thread reads a location another one writes in the same barrier interval (that would be
    /// a harmful read-write race before it), so each thread reads only the memory at the
    /// start of the interval (the fresh array both threads of the pair share) or its own
    /// writes: the pair (i, j) computes exactly the values and offsets of the execution, and
    /// the harmful query is satisfiable with them (the argument for the two-thread reduction,
    /// paper `000_…` §2.3, with "first race" read as "first harmful race").
    /// [`Benign::Adversarial`] compares fewer values, so it is sound too. Values the model does not know exactly
    /// differ conservatively: reads of adversarial arrays, havocked and loop-carried values are
    /// fresh per thread. Calls without a body are uninterpreted functions, equal for equal
    /// arguments, which `clock()` or a random generator are not: in a kernel that calls one
    /// ([`Kernel::uninterpreted`]) no write-write race is benign.
    pub benign: Benign,
    /// `--warp-sync=N`: the lock-step warp model of paper `000_…` §3 for code written before
    /// CUDA 9. The `N` consecutive linear thread ids of a warp (`N` a power of two) execute
    /// each statement together, all its reads before its writes; divergent branches one after
    /// the other. So two accesses of threads of one warp are ordered unless they are one
    /// statement (one IR access: the same source span, taken conservatively as the same
    /// statement), and at one statement only two writes race. The paper's two passes (warps
    /// in lock-step, then threads of different warps as without it) are one disjunction per
    /// access pair here. Values communicated inside a warp without a barrier are not what the
    /// equality abstraction's serialization gives, so, as the paper refines that abstraction
    /// for warps, an array is forgotten after every statement that writes it: both threads
    /// then see one fresh memory of it ([`Encoder::warp_havoc`]); arrays touched by atomics
    /// stay adversarial.
    pub lockstep: Option<u32>,
    /// Conditions on the launch and the scalar parameters (uniform, over the kernel's entry
    /// state; type `Bool`) that a witness should satisfy when it can: encoded apart as
    /// [`Encoded::preferred`], never asserted by the script or a check, so they change no
    /// answer. The launch contracts' vocabulary (`driver::contracts`), asked first for a
    /// witness so that a finding whose witness satisfies it needs no re-verification.
    pub preferred: Vec<Expr>,
    /// Check that a barrier invariant reads only locations one of the two threads accessed
    /// since the last barrier (paper `001_…` §3.2's known locations; GPUVerify's default,
    /// which `--no-barrier-access-checks` turns off). See `invariants`.
    pub barrier_access_checks: bool,
    /// Ask a barrier invariant's *holds* check once per value of thread 1's `threadIdx.x`,
    /// and its *access* check once per range of it, when `blockDim.x` is concrete
    /// (`--split-invariants`): [`Check::split`] checks, of
    /// which the driver asks until one is satisfiable. Also folds constant terms as the
    /// concrete model does: the offsets of unrolled loops become literals,
    /// so an index such as `offset * (2 * t + 1)` stays linear and needs no relaxation.
    pub split_invariants: bool,
    /// Only two threads of one block form a pair (GPUVerify's `--only-intra-group`): races
    /// between blocks are not asked about, and the report says so.
    pub only_intra_group: bool,
    /// A launch contract's "signed arithmetic does not overflow" (`driver::contracts`; issue
    /// 43, item 4): the indices into [`Kernel::signed_ops`] of the source operations assumed
    /// not to overflow, each as `--no-overflow` assumes its operations (asserted where the
    /// thread evaluates it: [`Encoder::assume_no_wrap`]). Signed overflow is undefined
    /// behaviour in C, C++ and OpenCL C, so an execution in which one overflows is no
    /// execution of the program. Unsigned arithmetic and the front end's own arithmetic (byte
    /// offsets) are never among them. Empty: no such assumption.
    pub signed_no_overflow: Vec<usize>,
    /// `--check-overflow`: one [`Property::SignedOverflow`] check per operation of
    /// [`Kernel::signed_ops`] that the threads evaluate (with `checks`): satisfiable when
    /// thread 1 can reach it with operands whose exact result does not fit its type.
    pub check_overflow: bool,
}

/// Which write-write races are benign ([`EncodeOptions::benign`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Benign {
    /// None: every race is a race (`--no-benign`, `--strict`; the bank and concrete models).
    Off,
    /// Writes of the same value, where that value does not depend on anything the thread read
    /// from memory: GPUVerify's default, whose adversarial abstraction gives each thread its
    /// own arbitrary values on every read (so a copy `out[0] = in[0]` by every thread is a
    /// race there, though both threads write what they read from one location).
    Adversarial,
    /// Writes of the same value, values read from memory included, as the equality
    /// abstraction has both threads read them (GPUVerify's `--equality-abstraction`).
    Equality,
}

/// Encodes `kernel` for `opts.threads` symbolic threads under `geometry`.
///
/// Errors: gpug's memory passed `--max-memory` while encoding ([`crate::memory`]).
pub fn encode_with(
    kernel: &Kernel,
    geometry: &Geometry,
    opts: &EncodeOptions,
) -> Result<Encoded, crate::memory::Exceeded> {
    let mut e = Encoder::new(kernel, geometry, opts);
    e.prologue();
    let mut st = e.initial_states();
    let entry = if opts.preferred.is_empty() {
        Vec::new()
    } else {
        st.clone()
    };
    e.block(&kernel.body, &mut st);
    e.counter_values_differ();
    e.overflow_checks();
    if e.checks && e.n == 2 && e.stopped.is_none() {
        e.race_checks();
    }
    if let Some(e) = e.stopped.take() {
        return Err(e);
    }
    if let Some(fits) = opts.index_fits {
        e.launch_fits(fits);
    }
    // Last, so that the kernel's own names are those of an encoding without them.
    let preferred = e.preferred(&opts.preferred, &entry);
    let mut notes = Vec::new();
    e.abstraction_notes(&mut notes);
    if e.has_opaque_float {
        notes.push("float values are opaque: arithmetic on them is uninterpreted".to_string());
    }
    let script = Script {
        logic: "QF_AUFBV".into(),
        commands: [e.decls, e.cmds].concat(),
    };
    Ok(Encoded {
        script,
        checks: e.check_list,
        notes,
        accesses: e.accesses,
        preferred,
    })
}

/// Which serialized memory an access uses: the array and, for a `__shared__` array, the
/// accessing thread's 0-based block (0 for every other array, and in the pair model).
pub(in crate::encode) type MemKey = (ArrayId, usize);

/// The SSA encoder: `n` threads run in lock step over a prepared kernel, building one script
/// (declarations, definitions, assertions) and the checks of the model's properties.
pub(in crate::encode) struct Encoder<'k> {
    /// The kernel being encoded.
    pub(in crate::encode) k: &'k Kernel,
    /// The launch geometry (dimensions given or symbolic).
    g: &'k Geometry,
    /// Number of threads.
    pub(in crate::encode) n: usize,
    /// How shared and global memory is seen across the threads.
    memory: MemoryModel,
    /// Whether to make the property checks (`EncodeOptions::checks`).
    checks: bool,
    /// The one memory of non-local arrays under [`MemoryModel::Serialized`], by [`MemKey`]: a
    /// `__shared__` array has one per block, any other one memory (block 0).
    pub(in crate::encode) global: BTreeMap<MemKey, Sexp>,
    /// Declarations, emitted first.
    pub(in crate::encode) decls: Vec<Command>,
    /// Definitions and assertions, in program order.
    pub(in crate::encode) cmds: Vec<Command>,
    /// Functions and once-only constants already declared.
    declared_funs: HashSet<String>,
    /// The counter of fresh names (`name@k`).
    counter: usize,
    /// Every shared or global access, in program order.
    pub(in crate::encode) accesses: Vec<Access>,
    /// Set when gpug's memory passed `--max-memory` ([`crate::memory::over`]), saying what
    /// the encoder was doing. The walk and the race checks stop; the encoding is incomplete
    /// and must not be asked ([`encode_with`] returns the error instead).
    pub(in crate::encode) stopped: Option<crate::memory::Exceeded>,
    /// The checks made so far, in source order.
    pub(in crate::encode) check_list: Vec<Check>,
    /// Per block being encoded, the thread states at each of its exits.
    exits: HashMap<BlockId, Vec<Vec<TState>>>,
    /// Nesting depth of conditionals and abstracted loops (0: top level).
    depth: u32,
    /// The top-level barrier segment being encoded.
    segment: u32,
    /// Arrays touched by atomics (pair model) or written by calls without a body: their
    /// values are adversarial.
    adversarial: Vec<ArrayId>,
    /// Arrays written by calls without a body ([`crate::ir::StmtKind::Clobber`]).
    clobbered: Vec<ArrayId>,
    /// The adversarial arrays that are counters ([`abstraction::counter_arrays`]), and each
    /// call on them whose old value a thread keeps: (array, thread, path condition, byte
    /// offset, old value).
    counters: Vec<(ArrayId, bool)>,
    counter_calls: Vec<(ArrayId, usize, Sexp, Sexp, Sexp)>,
    /// The variables the kernel reads (an atomic's old value matters only when read).
    read_vars: HashSet<VarId>,
    /// The groupings of the warp barriers met so far (at most [`barriers::MAX_WARP_GROUPINGS`]), each
    /// with its `warp.g<k>` (the two threads are of one group of it, both members), defined
    /// at its first barrier. Grouping `k` counts in bits `16k..16k+16` of each thread's `wc`.
    warp_groups: Vec<(WarpLanes, Sexp)>,
    /// `same_warp` (the two threads are of one block and one warp of 32), defined at the
    /// first shuffle that needs it.
    same_warp: Option<Sexp>,
    /// Per thread: it has executed a `return` (outside abstracted loops), and whether a
    /// `return` was met inside one (shuffles' inactive-lane check).
    returned: Vec<Sexp>,
    returned_in_loop: bool,
    /// [`EncodeOptions::lockstep`], and `lockstep_warp` (the two threads are of one warp of
    /// that size) once defined.
    lockstep: Option<u32>,
    lockstep_warp: Option<Sexp>,
    /// Whether an opaque (uninterpreted) float operation was emitted.
    pub(in crate::encode) has_opaque_float: bool,
    /// The common witness values of every query.
    pub(in crate::encode) layout: witness::Layout,
    /// Barriers encoded so far (numbers the fresh memories and the barrier SIDs).
    pub(in crate::encode) barrier_count: u32,
    /// Concrete model (`concrete`): encode float operations in SMT-LIB's FloatingPoint theory.
    pub(in crate::encode) float_ieee: bool,
    /// `EncodeOptions::no_overflow`.
    no_overflow: bool,
    /// Whether the expressions being encoded are the program's own computation on a thread's
    /// path (an assignment, an access's offset and value, a branch condition), whose
    /// `--no-overflow` side conditions are asserted where the thread is
    /// ([`Encoder::assume_no_wrap`]); elsewhere (annotations, the hypothetical states of loop
    /// abstractions) they condition the thread's later steps like an assumption.
    pub(super) on_trace: bool,
    /// The `--no-overflow` facts asserted so far (each is asserted once).
    no_wrap_asserted: HashSet<Sexp>,
    /// `EncodeOptions::index_fits`.
    index_fits: Option<IndexFits>,
    /// `EncodeOptions::signed_no_overflow`.
    signed_no_overflow: Vec<usize>,
    /// `EncodeOptions::check_overflow`.
    check_overflow: bool,
    /// Under `check_overflow`, per index into [`Kernel::signed_ops`]: the conditions under
    /// which each evaluation of it by the checked thread overflows, and whether one of them
    /// rests on an abstraction (the finding is then possible).
    overflow_fails: BTreeMap<usize, (Vec<Sexp>, bool)>,
    /// While an expression is encoded: the conditions under which the part being encoded is
    /// evaluated at all (an arm of a select, the right operand of `&&`/`||`), innermost last;
    /// read only for the signed operations of `signed_no_overflow` and `check_overflow`.
    evaluated_if: Vec<Sexp>,
    /// `EncodeOptions::benign`.
    benign: Benign,
    /// Under [`Benign::Adversarial`], while the race checks are made: the defined names whose
    /// value reads memory (a `select`), directly or through the names it uses.
    reads_memory: HashSet<String>,
    /// The arrays the kernel writes anywhere (stores, atomics, clobbers), computed at the
    /// first barrier: the others keep their memory across barriers (`abstraction`).
    written: Option<std::collections::BTreeSet<ArrayId>>,
    /// Whether a FloatingPoint term was emitted.
    pub(in crate::encode) fp_used: bool,
    /// Concrete model: fold constant terms, pin builtins to `pinned`, keep memory as an overlay
    /// (`fold`). The pair model folds constant terms under `--split-invariants` only.
    pub(in crate::encode) fold: bool,
    /// Concrete model: each thread's (blockIdx, threadIdx).
    pub(in crate::encode) pinned: Vec<([u64; 3], [u64; 3])>,
    /// Concrete model: bytes written at literal offsets, on top of `global`.
    pub(in crate::encode) overlay: BTreeMap<MemKey, BTreeMap<u128, (u32, Sexp)>>,
    /// Concrete model: each thread's 0-based block (block-major); empty in the pair model, whose
    /// threads all keep block 0 in [`MemKey`]s.
    pub(in crate::encode) thread_blocks: Vec<usize>,
    /// Concrete model with schedule IDs (`schedule`): shared and global accesses become events
    /// of the timeline instead of reading and writing `global`.
    pub(in crate::encode) schedule: Option<schedule::Timeline>,
    /// The timeline once `finish_schedule` has built its constraints.
    pub(in crate::encode) timeline: Option<schedule::Timeline>,
    /// Concrete model: per assertion check, what its condition read (for the witness).
    pub(in crate::encode) assert_info: Vec<AssertInfo>,
    /// The array and byte offset each thread's variable was last loaded from.
    pub(in crate::encode) load_origin: HashMap<(usize, VarId), (ArrayId, Sexp)>,
    /// Nesting depth of abstracted loops being encoded.
    abstract_depth: u32,
    /// Whether an abstracted loop has been encoded (values after it are over-approximated).
    seen_abstract: bool,
    /// Abstracted loops with a fixed barrier count being encoded, innermost last.
    frames: Vec<LoopFrame>,
    /// Whether an expression of the kernel reads another thread ([`crate::ir::Expr::Other`]).
    reads_other: bool,
    /// Every thread's state before the statement being encoded, while one of its expressions
    /// reads another thread (`expr`'s `Expr::Other`); empty otherwise.
    pub(in crate::encode) peers: Vec<TState>,
    /// The thread `Expr::Other` reads while a condition is asked of every other thread in turn
    /// (more than two threads); `None`: the other one of two threads.
    pub(in crate::encode) other_thread: Option<usize>,
    /// While the other thread's side of an `Expr::Other` is encoded: its path condition.
    peer_guard: Option<Sexp>,
    /// Program-order positions, locks held and flags observed (`sync`).
    sync: sync::SyncState,
    /// OpenCL's work-group copies (`copies`).
    copies: copies::CopyState,
    /// Barrier invariants pending and the accesses of the interval (`invariants`).
    invariants: invariants::InvariantState,
    /// `EncodeOptions::barrier_access_checks`.
    barrier_access_checks: bool,
    /// `EncodeOptions::split_invariants`.
    split_invariants: bool,
    /// `EncodeOptions::only_intra_group`.
    only_intra_group: bool,
}

impl<'k> Encoder<'k> {
    /// Adds a check of `property` without access pairs (anything but a race): the query `name`
    /// asserting `assertion`, reading back the common witness values of `self.layout` and then
    /// `own`.
    fn push_check(&mut self, property: Property, name: String, assertion: Sexp, own: Vec<Sexp>, possible: bool) {
        let layout = self.layout.clone();
        let mut get_values = layout.common();
        get_values.extend(own);
        let query = Query {
            name,
            assertions: vec![assertion],
            get_values,
        };
        self.check_list.push(Check {
            property,
            query,
            pairs: Vec::new(),
            layout,
            possible,
            benign: false,
            hints: Vec::new(),
            split: None,
        });
    }

    /// The checks of `--check-overflow` ([`Property::SignedOverflow`]): one per signed
    /// operation that the checked thread evaluates, satisfiable when one of its evaluations
    /// overflows.
    fn overflow_checks(&mut self) {
        for (op, (fails, possible)) in std::mem::take(&mut self.overflow_fails) {
            let span = self.k.signed_ops[op].span.clone();
            let fail = fails
                .iter()
                .cloned()
                .reduce(crate::encode::terms::or)
                .unwrap_or_else(crate::encode::terms::f);
            let name = format!(
                "{}.overflow.L{}.{op}",
                crate::encode::terms::sym(&self.k.name),
                span.line
            );
            self.push_check(Property::SignedOverflow { op, span }, name, fail, Vec::new(), possible);
        }
    }

    /// The conjunction of the uniform entry conditions `conds` as one term (`None` when
    /// empty), read in thread 0's entry state `st[0]`: no `--no-overflow` side condition
    /// becomes an assumption, so nothing the script asserts changes (the definitions it may
    /// emit are only names).
    fn preferred(&mut self, conds: &[Expr], st: &[TState]) -> Option<Sexp> {
        let first = st.first()?;
        let no_overflow = std::mem::replace(&mut self.no_overflow, false);
        let terms: Vec<Sexp> = conds
            .iter()
            .map(|c| {
                let mut entry = first.clone();
                self.expr(c, &mut entry, 0)
            })
            .collect();
        self.no_overflow = no_overflow;
        match terms.len() {
            0 => None,
            1 => terms.into_iter().next(),
            _ => Some(Sexp::app("and", terms)),
        }
    }

    /// An encoder of `kernel` under `geometry` with `opts`, with nothing emitted yet.
    pub(super) fn new(k: &'k Kernel, g: &'k Geometry, opts: &EncodeOptions) -> Self {
        let adversarial = adversarial_arrays(k, opts.memory);
        Encoder {
            k,
            g,
            n: opts.threads,
            memory: opts.memory,
            checks: opts.checks,
            global: BTreeMap::new(),
            decls: Vec::new(),
            cmds: Vec::new(),
            declared_funs: HashSet::new(),
            counter: 0,
            accesses: Vec::new(),
            stopped: None,
            check_list: Vec::new(),
            exits: HashMap::new(),
            depth: 0,
            segment: 0,
            adversarial,
            clobbered: abstraction::clobbered_arrays(k).into_iter().map(|(a, _)| a).collect(),
            counters: match opts.memory {
                MemoryModel::EqualityAbstraction => abstraction::counter_arrays(k),
                MemoryModel::Serialized => Vec::new(),
            },
            counter_calls: Vec::new(),
            warp_groups: Vec::new(),
            same_warp: None,
            returned: vec![crate::encode::terms::f(); opts.threads],
            returned_in_loop: false,
            lockstep: opts.lockstep,
            lockstep_warp: None,
            read_vars: {
                let mut read = HashSet::new();
                crate::ir::query::read_vars(&k.body, &mut read);
                read
            },
            has_opaque_float: false,
            layout: witness::Layout::default(),
            barrier_count: 0,
            float_ieee: false,
            fp_used: false,
            fold: opts.split_invariants,
            no_overflow: opts.no_overflow,
            on_trace: false,
            no_wrap_asserted: HashSet::new(),
            index_fits: opts.index_fits,
            signed_no_overflow: opts.signed_no_overflow.clone(),
            check_overflow: opts.check_overflow && opts.checks,
            overflow_fails: BTreeMap::new(),
            evaluated_if: Vec::new(),
            benign: opts.benign,
            reads_memory: HashSet::new(),
            written: None,
            pinned: Vec::new(),
            overlay: BTreeMap::new(),
            thread_blocks: Vec::new(),
            schedule: None,
            timeline: None,
            assert_info: Vec::new(),
            load_origin: HashMap::new(),
            abstract_depth: 0,
            seen_abstract: false,
            frames: Vec::new(),
            reads_other: crate::ir::query::stmts_read_other_thread(&k.body),
            peers: Vec::new(),
            other_thread: None,
            peer_guard: None,
            sync: sync::SyncState::default(),
            copies: copies::CopyState::default(),
            invariants: invariants::InvariantState::default(),
            barrier_access_checks: opts.barrier_access_checks,
            split_invariants: opts.split_invariants,
            only_intra_group: opts.only_intra_group && opts.memory == MemoryModel::EqualityAbstraction,
        }
    }
}
