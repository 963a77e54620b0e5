//! What an encoding is asked to build ([`EncodeOptions`]): the threads and memory model, which
//! checks to make, and the assumptions and abstractions the encoding may use. Its
//! [`Default`] is the pair model with all checks ([`EncodeOptions::pair`]).

#[cfg(doc)]
use super::{Check, Encoded, Property, encode_with};
use crate::ir::Expr;
#[cfg(doc)]
use crate::ir::Kernel;

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
    pub make_checks: bool,
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
    /// Sound for the verdict, under the equality abstraction (ARCHITECTURE.md "Shared state in the
    /// pair model"; Donaldson's ENS Lyon lecture 1): take any execution and its first harmful race,
    /// between threads i and j. Up to it, every race is write-write of one value, and no thread
    /// reads a location another one writes in the same barrier interval (that would be a harmful
    /// read-write race before it), so each thread reads only the memory at the start of the
    /// interval (the fresh array both threads of the pair share) or its own writes: the pair (i, j)
    /// computes exactly the values and offsets of the execution, and the harmful query is
    /// satisfiable with them (the argument for the two-thread reduction, Bardsley and Donaldson
    /// (NFM 2014) §2.3, with "first race" read as "first harmful race"). [`Benign::Adversarial`]
    /// compares fewer values, so it is sound too. Values the model does not know exactly differ
    /// conservatively: reads of adversarial arrays, havocked and loop-carried values are fresh per
    /// thread. Calls without a body are uninterpreted functions, equal for equal arguments, which
    /// a clock or a random generator of another translation unit need not be: in a kernel that
    /// calls such a function ([`Kernel::impure`]: declared by the program itself without a body)
    /// no write-write race is benign. The toolkit's functions (conversions, math) are
    /// deterministic.
    pub benign: Benign,
    /// `--warp-sync=N`: the lock-step warp model of Bardsley and Donaldson (NFM 2014) §3 for code
    /// written before CUDA 9. The `N` consecutive linear thread ids of a warp (`N` a power of two)
    /// execute each statement together, all its reads before its writes; divergent branches one
    /// after the other. So two accesses of threads of one warp are ordered unless they are one
    /// statement (one IR access: the same source span, taken conservatively as the same statement),
    /// and at one statement only two writes race. The paper's two passes (warps in lock-step, then
    /// threads of different warps as without it) are one disjunction per access pair here. Values
    /// communicated inside a warp without a barrier are not what the equality abstraction's
    /// serialization gives, so, as the paper refines that abstraction for warps, an array is
    /// forgotten after every statement that writes it: both threads then see one fresh memory of it
    /// (`Encoder::warp_havoc`); arrays touched by atomics stay adversarial.
    pub lockstep: Option<u32>,
    /// Conditions on the launch and the scalar parameters (uniform, over the kernel's entry
    /// state; type `Bool`) that a witness should satisfy when it can: encoded apart as
    /// [`Encoded::preferred`], never asserted by the script or a check, so they change no
    /// answer. The launch contracts' vocabulary (`driver::contracts`), asked first for a
    /// witness so that a finding whose witness satisfies it needs no re-verification.
    pub preferred: Vec<Expr>,
    /// Check that a barrier invariant reads only locations one of the two threads accessed since
    /// the last barrier (Chong et al. (OOPSLA 2013) §3.2's known locations; GPUVerify's default,
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
    /// thread evaluates it: `Encoder::assume_no_wrap`). Signed overflow is undefined
    /// behaviour in C, C++ and OpenCL C, so an execution in which one overflows is no
    /// execution of the program. Unsigned arithmetic and the front end's own arithmetic (byte
    /// offsets) are never among them. Empty: no such assumption.
    pub signed_no_overflow: Vec<usize>,
    /// `--check-overflow`: one [`Property::SignedOverflow`] check per operation of
    /// [`Kernel::signed_ops`] that the threads evaluate (with `checks`): satisfiable when
    /// thread 1 can reach it with operands whose exact result does not fit its type.
    pub check_overflow: bool,
    /// PUG's pairwise race queries (`--race-encoding pairwise`): one disjunct per conflicting
    /// pair of accesses, quadratic in the accesses. Off (the default): the linear queries of
    /// `engine::linear`, one selector per thread, which agree with them on every verdict.
    /// Kernels with locks or flags always get pairwise queries.
    pub pairwise_races: bool,
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

impl Default for EncodeOptions {
    /// The pair model with all checks: two symbolic threads under the equality abstraction,
    /// GPUVerify's benign races, barrier invariants' access checks, no assumption.
    fn default() -> EncodeOptions {
        EncodeOptions {
            threads: 2,
            memory: MemoryModel::EqualityAbstraction,
            make_checks: true,
            no_overflow: false,
            index_fits: None,
            benign: Benign::Adversarial,
            preferred: Vec::new(),
            lockstep: None,
            barrier_access_checks: true,
            split_invariants: false,
            only_intra_group: false,
            signed_no_overflow: Vec::new(),
            check_overflow: false,
            pairwise_races: false,
        }
    }
}
