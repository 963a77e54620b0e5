//! The kernel language: PUG's Kernel C (PUG (Li and Gopalakrishnan, FSE 2010), Fig. 2) with
//! explicit types.
//!
//! A [`Program`] holds the `__global__` kernels of one file, each lowered by the front end to a
//! [`Kernel`]: typed, side-effect-free expressions ([`Expr`]) inside statements ([`Stmt`]) that
//! carry their source [`Span`]. Memory is only touched by the [`StmtKind::Load`],
//! [`StmtKind::Store`] and [`StmtKind::Atomic`] statements, so every access has its own span and
//! path condition. Device functions are already inlined ([`StmtKind::Block`] with
//! [`StmtKind::Exit`] for their `return`s) and pointers are already resolved to an array and a byte
//! offset (ARCHITECTURE.md "The kernel language"). This module does no analysis: the one walk over
//! statements and expressions is [`visit`], and the questions passes and encoders ask about a list
//! of statements (assigned variables, written arrays, exits) are in [`query`].

pub mod build;
pub mod eval;
mod ops;
pub mod print;
mod program;
pub mod query;
mod signed;
#[cfg(test)]
pub(crate) mod testing;
pub mod validate;
pub mod visit;

pub use program::{HostLaunch, Program};
pub use signed::{SignedKind, SignedOp, is_index_arith, is_narrowing_conversion, is_signed_arith};

pub use ops::{BinOp, UnOp};

use num_bigint::BigInt;
use std::fmt;
use std::sync::Arc;

/// A source position: file, 1-based line and column of the first character, and the 1-based
/// column of the last character when the construct ends on the same line (used for carets).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The file as given to clang (or as clang names an included file).
    pub file: Arc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (bytes).
    pub col: u32,
    /// 1-based column of the last character on `line`, if the construct ends on that line.
    pub end_col: Option<u32>,
}

impl Span {
    /// A span with no extent, for synthesized statements.
    pub fn point(file: Arc<str>, line: u32, col: u32) -> Span {
        Span {
            file,
            line,
            col,
            end_col: None,
        }
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// A scalar type. Pointers never appear: they are resolved to (array, byte offset) by lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// C++ `bool`, encoded as an SMT `Bool`.
    Bool,
    /// An integer of `bits` (8, 16, 32 or 64) bits; `signed` picks signed comparison, division
    /// and right shift.
    Int { bits: u32, signed: bool },
    /// A floating-point value of `bits` (16, 32 or 64) bits, opaque: arithmetic on it is an
    /// uninterpreted function of its operands.
    Float { bits: u32 },
}

impl Ty {
    /// `int`.
    pub const I32: Ty = Ty::Int { bits: 32, signed: true };
    /// `unsigned int`, the type of `threadIdx.x` and friends.
    pub const U32: Ty = Ty::Int {
        bits: 32,
        signed: false,
    };
    /// `long long`, the type of byte offsets.
    pub const I64: Ty = Ty::Int { bits: 64, signed: true };
    /// `unsigned long long`.
    pub const U64: Ty = Ty::Int {
        bits: 64,
        signed: false,
    };

    /// Width in bits when stored in memory (`bool` takes 8).
    pub fn bits(self) -> u32 {
        match self {
            Ty::Bool => 8,
            Ty::Int { bits, .. } | Ty::Float { bits } => bits,
        }
    }

    /// Width in bytes when stored in memory.
    pub fn bytes(self) -> u32 {
        self.bits() / 8
    }

    /// Whether comparisons, division and right shift are signed.
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::Int { signed: true, .. } | Ty::Float { .. })
    }
}

/// Where an array lives (CUDA memory spaces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// Per-thread memory (local arrays, local scalars whose address is taken). Never races.
    Local,
    /// `__shared__`: one copy per block; races between threads of one block.
    Shared,
    /// Global memory (pointer parameters, `__device__` variables): races between any threads.
    Global,
    /// `__constant__`: read-only for kernels.
    Constant,
}

/// Index into [`Kernel::arrays`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayId(pub usize);

/// Index into [`Kernel::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub usize);

/// Label of a [`StmtKind::Block`], target of [`StmtKind::Exit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub usize);

/// An array: a memory region addressed by byte offsets from its start.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDecl {
    /// Source name (`sdata`, or `p` for a pointer parameter).
    pub name: String,
    pub space: Space,
    /// Element type as declared (for pointers: the pointee type).
    pub elem: Ty,
    /// Dimensions in elements, outermost first (`int a[4][8]` gives `[4, 8]`); empty when the
    /// size is unknown (pointer parameters, `extern __shared__`).
    pub dims: Vec<u64>,
    pub span: Span,
}

impl ArrayDecl {
    /// The number of elements (the product of `dims`, saturating), `None` when the size is
    /// unknown.
    pub fn elements(&self) -> Option<u128> {
        (!self.dims.is_empty()).then(|| self.dims.iter().fold(1u128, |n, &d| n.saturating_mul(u128::from(d))))
    }
}

/// A scalar variable (a local, a kernel scalar parameter, or a temporary made by lowering).
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// Source name; temporaries start with `$`.
    pub name: String,
    pub ty: Ty,
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
}

/// A scalar parameter is a variable holding a uniform symbolic value at entry; a pointer
/// parameter is a distinct global array.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    Scalar(VarId),
    Array(ArrayId),
}

/// The dimension of a builtin vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dim {
    X,
    Y,
    Z,
}

impl Dim {
    /// `[X, Y, Z]`.
    pub const ALL: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];
    /// 0, 1 or 2.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// CUDA's builtin variables; all of type `unsigned int` (`warpSize`: `int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    ThreadIdx(Dim),
    BlockIdx(Dim),
    BlockDim(Dim),
    GridDim(Dim),
    WarpSize,
}

/// A pure expression. Every node knows its type.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// An integer constant (two's complement value in range of `ty`), a `Bool` (0 or 1), or a
    /// float's bit pattern.
    Const {
        value: BigInt,
        ty: Ty,
    },
    Var {
        id: VarId,
        ty: Ty,
    },
    Builtin(Builtin),
    Unary {
        op: UnOp,
        arg: Box<Expr>,
        ty: Ty,
    },
    /// Operand types: see [`BinOp`]; comparisons compare by the signedness of `lhs`'s type.
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        ty: Ty,
    },
    /// Conversion: int to int (sign- or zero-extends by the source's signedness, or truncates),
    /// to `Bool` (`!= 0`), from `Bool` (0/1), and to or from floats (opaque).
    Cast {
        arg: Box<Expr>,
        ty: Ty,
    },
    /// `c ? a : b` with pure arms.
    Select {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
        ty: Ty,
    },
    /// A pure function we do not model (`sqrtf`, float arithmetic): an uninterpreted function
    /// of its arguments, so equal arguments give equal results.
    Opaque {
        name: String,
        args: Vec<Expr>,
        ty: Ty,
    },
    /// GPUVerify's `__other_int(e)` / `__other_bool(e)`: the value of `e` in the other thread of
    /// the pair (Donaldson's ENS Lyon lecture 1 "just two threads will do"; Donaldson's ENS Lyon
    /// lecture 2, where every expression `e` has the copies `e$1` and `e$2`, and `__other` of `e$1`
    /// is `e$2`). Its type is `e`'s. Only inside annotation conditions (the front end refuses it
    /// elsewhere). The pair model reads the other thread's state at the same program point; a model
    /// without a designated other thread checks a condition for every other thread, or, where it
    /// cannot, takes an arbitrary value (see `encode::engine::expr`).
    Other(Box<Expr>),
    /// GPUVerify's `__enabled()`: this thread executes here (the predicate of predicated execution,
    /// Donaldson's ENS Lyon lecture 2 "Translating statements with predicates"); `Bool`.
    Enabled,
}

impl Expr {
    /// The type of the value.
    pub fn ty(&self) -> Ty {
        match self {
            Expr::Const { ty, .. }
            | Expr::Var { ty, .. }
            | Expr::Unary { ty, .. }
            | Expr::Binary { ty, .. }
            | Expr::Cast { ty, .. }
            | Expr::Select { ty, .. }
            | Expr::Opaque { ty, .. } => *ty,
            Expr::Builtin(Builtin::WarpSize) => Ty::I32,
            Expr::Builtin(_) => Ty::U32,
            Expr::Other(e) => e.ty(),
            Expr::Enabled => Ty::Bool,
        }
    }

    /// An integer constant of type `ty`.
    pub fn int(value: impl Into<BigInt>, ty: Ty) -> Expr {
        Expr::Const {
            value: value.into(),
            ty,
        }
    }

    /// A `Bool` constant.
    pub fn bool(b: bool) -> Expr {
        Expr::Const {
            value: BigInt::from(b as u8),
            ty: Ty::Bool,
        }
    }
}

/// The read-modify-write operation of an atomic (CUDA's `atomic*` functions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Exch,
    Min,
    Max,
    Inc,
    Dec,
    Cas,
    And,
    Or,
    Xor,
    /// `atomicAdd` of CUDA's 16-bit floats on their bits (`__half`, `__nv_bfloat16` and their
    /// pairs, `cuda_fp16.hpp`/`cuda_bf16.hpp`, written there as inline asm): an uninterpreted
    /// function of the old bits and the operand's, named by the type (`"half2"`), in every
    /// float mode: nothing is assumed of 16-bit float arithmetic.
    Fp16Add(&'static str),
}

/// The threads an atomic is atomic with respect to (CUDA C++ Programming Guide, "Atomic
/// Functions"; PTX ISA, "Memory Consistency Model", scopes `.cta`, `.gpu`, `.sys`): two atomic
/// accesses to one location do not race only when each thread lies in the other's scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicScope {
    /// The threads of the block (`atomicAdd_block`, `cuda::thread_scope_block`).
    Block,
    /// Every thread of the grid (`atomicAdd`, `cuda::thread_scope_device`).
    Device,
    /// Every thread of the system, host included (`atomicAdd_system`): for a kernel's threads
    /// the same as [`AtomicScope::Device`].
    System,
}

impl AtomicScope {
    /// The suffix of CUDA's function names: `_block`, ``, `_system`.
    pub fn suffix(self) -> &'static str {
        match self {
            AtomicScope::Block => "_block",
            AtomicScope::Device => "",
            AtomicScope::System => "_system",
        }
    }
}

impl AtomicOp {
    /// CUDA's name of the device-scope function: `atomicAdd`, `atomicCAS`.
    pub fn cuda_name(self) -> String {
        match self {
            AtomicOp::Cas => "atomicCAS".into(),
            op => format!("atomic{op:?}"),
        }
    }
}

/// A statement with its source span.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[cfg(test)]
impl Stmt {
    /// `kind` at `t.cu:line:1`, for unit tests.
    pub(crate) fn test(kind: StmtKind, line: u32) -> Stmt {
        Stmt {
            kind,
            span: Span::point(Arc::from("t.cu"), line, 1),
        }
    }
}

/// The threads a [`StmtKind::Barrier`] waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierScope {
    /// Every thread of the block (`__syncthreads()`): orders the accesses of one block.
    Block,
    /// Every thread of the grid (cooperative groups' `grid_group::sync()`, valid in a
    /// cooperative launch): also a block barrier, and orders the accesses of different blocks.
    Grid,
}

/// The memory whose accesses a [`StmtKind::Barrier`] orders between the threads it waits for
/// (OpenCL's fence flags, `barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)`, OpenCL 1.2
/// section 6.12.8). Every barrier synchronises (divergence is checked whatever its flags); an
/// access to memory a barrier does not fence is not ordered by it, as in GPUVerify, whose
/// barrier resets the access logs of local memory only under `CLK_LOCAL_MEM_FENCE` and of
/// global memory only under `CLK_GLOBAL_MEM_FENCE` (its test suite,
/// `testsuite/OpenCL/inter_group_and_barrier_flag_tests`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fences {
    /// Orders accesses to [`Space::Shared`] memory (OpenCL's `__local`; `CLK_LOCAL_MEM_FENCE`).
    pub local: bool,
    /// Orders accesses to [`Space::Global`] memory (`CLK_GLOBAL_MEM_FENCE`).
    pub global: bool,
}

impl Fences {
    /// Both: CUDA's barriers, and OpenCL's with both flags.
    pub const ALL: Fences = Fences {
        local: true,
        global: true,
    };

    /// Whether accesses to memory of `space` are ordered (private and constant memory never
    /// race, so they count as ordered).
    pub fn orders(self, space: Space) -> bool {
        match space {
            Space::Shared => self.local,
            Space::Global => self.global,
            Space::Local | Space::Constant => true,
        }
    }
}

/// The threads a warp barrier ([`StmtKind::WarpBarrier`]) synchronises, as groups of a block's
/// linear thread ids (`x + y*blockDim.x + z*blockDim.x*blockDim.y`; a lane is that id mod 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WarpLanes {
    /// Each aligned run of `n` consecutive linear ids (`n` a power of two, 2 to 32) is a
    /// group: `Tile(32)` is `__syncwarp()` with the full mask (a whole warp), `Tile(n)` the
    /// `sync()` of a `tiled_partition<n>` tile.
    Tile(u32),
    /// The lanes of one warp whose bit is set in the mask (not every bit): `__syncwarp(mask)`
    /// with a literal mask. A thread outside the mask that calls it is a finding (CUDA: the
    /// caller's own bit must be set).
    Mask(u32),
}

/// Which lane a shuffle ([`StmtKind::Shuffle`]) reads, as CUDA's `__shfl*_sync` forms define
/// it for a caller of lane `l` (its linear thread id mod 32) in a segment of `width` lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShuffleMode {
    /// `__shfl_sync`: lane `lane mod width` of the caller's segment.
    Idx,
    /// `__shfl_up_sync`: `l - delta`, or `l` itself when that leaves the segment.
    Up,
    /// `__shfl_down_sync`: `l + delta`, or `l` itself when that leaves the segment.
    Down,
    /// `__shfl_xor_sync`: `l ^ mask`, or `l` itself when that lies in a later segment.
    Xor,
}

/// What a vote ([`StmtKind::Vote`]) computes over its participants: the lanes of the caller's
/// warp that make the call and that its mask names (every lane that makes it for the legacy
/// `__ballot` and for `__activemask`), or for the block forms every thread of the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoteOp {
    /// `__ballot_sync`: bit `l` set for each participant of lane `l` whose argument is nonzero.
    Ballot,
    /// `__any_sync`: 1 when some participant's argument is nonzero, else 0.
    Any,
    /// `__all_sync`: 1 when every participant's argument is nonzero, else 0.
    All,
    /// `__uni_sync`: 1 when the participants' arguments are all zero or all nonzero, else 0.
    Uni,
    /// `__activemask`: bit `l` set for each lane `l` of the warp that makes the call.
    ActiveMask,
    /// `__match_any_sync`: the lanes of the participants whose argument equals the caller's.
    MatchAny,
    /// `__reduce_{add,min,max,and,or,xor}_sync`: the participants' arguments combined by the
    /// operator (`Min` and `Max` by the argument's signedness).
    Reduce(ReduceOp),
    /// `cg::reduce(tile, value, op)` over a `thread_block_tile<N>`: the participants'
    /// arguments combined by an operator gpug does not evaluate (any value), the same for
    /// every participant of one call (the lanes of the caller's tile, which `mask` names).
    Uniform,
    /// `__syncthreads_count`: how many threads of the block have a nonzero argument.
    BlockCount,
    /// `__syncthreads_and`: 1 when every thread of the block has a nonzero argument, else 0.
    BlockAnd,
    /// `__syncthreads_or`: 1 when some thread of the block has a nonzero argument, else 0.
    BlockOr,
}

/// The operator of a warp reduction ([`VoteOp::Reduce`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// What a [`StmtKind::Sync`] marks. Made by `passes::sync`, which checks the idiom's shape
/// (see there); the offsets are byte offsets (`Ty::I64`) of the lock or flag word.
#[derive(Clone, Debug, PartialEq)]
pub enum SyncEvent {
    /// Just after a spin lock's acquire loop (`while (atomicCAS(&l, c, n) != c);` or
    /// `while (atomicExch(&l, n) != c);`): from here until the matching
    /// [`SyncEvent::Unlock`] the thread holds the lock word `array[offset]`. `scope` is the
    /// narrowest scope of the lock's atomics.
    Lock {
        array: ArrayId,
        offset: Expr,
        scope: AtomicScope,
    },
    /// Just before the release (`atomicExch(&l, c)`) of the innermost [`SyncEvent::Lock`].
    Unlock,
    /// Just after a spin-wait loop on an atomic read of the flag word `array[offset]`
    /// (`while (atomicAdd(&f, 0) == 0);`) whose exit means that the value read was not 0;
    /// `scope` is the read's.
    Observed {
        array: ArrayId,
        offset: Expr,
        scope: AtomicScope,
    },
    /// Just before the accesses of an OpenCL `async_work_group_copy` (a load of the source and a
    /// store to `dst` at one arbitrary index below the count, OpenCL 1.2 section 6.12.10), up
    /// to [`SyncEvent::CopyEnd`]: they are the work-group's copy `site`, whose event is
    /// `event` (`U32`). In the pair model the copy's accesses lie anywhere from here to the
    /// [`SyncEvent::CopyWait`] that waits for its event (to the end of the kernel without one),
    /// two threads of one group share it (no race between their instances), and `dst` is
    /// renewed after it. Elsewhere it is nothing: every thread then copies an element of its
    /// own, which may only add races.
    ///
    /// Not `collective`: the thread's own copy (CUDA's `__pipeline_memcpy_async`), whose
    /// accesses likewise lie anywhere up to the wait that covers it
    /// ([`SyncEvent::CopyWaitPrior`]), and whose instances in two threads are two copies.
    /// CUDA's `cooperative_groups::memcpy_async` and `cuda::memcpy_async` with a group are
    /// `collective` copies of the thread block; `cooperative_groups::memcpy_async` on a
    /// `thread_block_tile<N>` is the tile's (`tile`: `Some(N)`, a power of two: threads whose
    /// linear ids in the block agree but for the last `log2 N` bits share it).
    ///
    /// `commit`: the event is the thread's commit group (the count of groups it had
    /// committed, `U32`), which only [`SyncEvent::CopyWaitPrior`] waits for; otherwise an
    /// event (an OpenCL event, a `cuda::barrier`'s identity) which only
    /// [`SyncEvent::CopyWait`] waits for.
    CopyStart {
        site: u32,
        event: Expr,
        dst: ArrayId,
        collective: bool,
        tile: Option<u32>,
        commit: bool,
    },
    /// The end of the accesses of the [`SyncEvent::CopyStart`] before it.
    CopyEnd,
    /// `wait_group_events(n, list)`: the copies whose event is one of `events` (`U32`) are
    /// complete.
    CopyWait { events: Vec<Expr> },
    /// CUDA's `__pipeline_wait_prior(prior)`: of the thread's copies, those whose event
    /// (`U32`, the number of commit groups the thread had committed before the copy) is below
    /// `committed - prior` are complete (`committed`: the commit groups committed so far; both
    /// `U32`).
    CopyWaitPrior { committed: Expr, prior: Expr },
}

/// A barrier invariant (Chong et al. (OOPSLA 2013) §3; GPUVerify's `__barrier_invariant_N` and
/// `__barrier_invariant_binary_N`, whose spelling and instantiation semantics §3.3 and GPUVerify's
/// `UnaryBarrierInvariantDescriptor`/`BinaryBarrierInvariantDescriptor` give).
///
/// `body` computes the values `cond` reads (loads of shared or global memory into temporaries,
/// assignments, branches for `&&`, `__implies` and `__ite` whose operands read memory); it
/// stores nothing. `cond` is `Bool`; in a binary invariant `Expr::Other` is the second thread
/// of the pair. Each instance is one instantiation (`I64`): `[e]` for a unary invariant (the
/// invariant with `get_local_id(0)`/`threadIdx.x` replaced by `e`), `[e1, e2]` for a binary one
/// (`threadIdx.x` by `e1`, and the other thread's by `e2`).
#[derive(Clone, Debug, PartialEq)]
pub struct BarrierInvariant {
    /// A binary invariant (instances are pairs).
    pub binary: bool,
    /// The statements computing `cond`'s values.
    pub body: Vec<Stmt>,
    /// The invariant.
    pub cond: Expr,
    /// The instantiation expressions, one `Vec` per instance (1 or 2 expressions, `I64`).
    pub instances: Vec<Vec<Expr>>,
}

/// Statement kinds. Offsets are byte offsets from the array's start, of type `long long`
/// (`Ty::I64`); an access touches `ty.bytes()` bytes from there.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `var = value`.
    Assign {
        var: VarId,
        value: Expr,
    },
    /// `var` gets an arbitrary value of its type (used by abstractions).
    Havoc {
        var: VarId,
    },
    /// `dst = array[offset .. offset + ty.bytes()]` read as `ty`.
    Load {
        dst: VarId,
        array: ArrayId,
        offset: Expr,
        ty: Ty,
    },
    /// `array[offset .. offset + ty.bytes()] = value` written as `ty` (`value.ty() == ty`).
    Store {
        array: ArrayId,
        offset: Expr,
        value: Expr,
        ty: Ty,
    },
    /// One atomic read-modify-write of `array` at `offset`; `dst` gets the old value.
    /// `operands` are the value (and for `Cas` the compare value first, then the new value).
    /// Atomic with respect to the threads of `scope`.
    Atomic {
        op: AtomicOp,
        scope: AtomicScope,
        dst: Option<VarId>,
        array: ArrayId,
        offset: Expr,
        operands: Vec<Expr>,
        ty: Ty,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// A loop: evaluate `cond_stmts` then `cond`; if true run `body` then `step` and repeat.
    /// `do_while` runs `body` and `step` once before the first test. `Break` leaves the loop,
    /// `Continue` goes to `step`. `for` loops put their init before the loop.
    Loop {
        cond_stmts: Vec<Stmt>,
        cond: Expr,
        body: Vec<Stmt>,
        step: Vec<Stmt>,
        do_while: bool,
    },
    Break,
    Continue,
    /// A warp barrier: `__syncwarp(mask)` with a literal mask, or a tile's `sync()`. Orders the
    /// accesses that the threads of one of its groups ([`WarpLanes`]) make before it and after
    /// it; threads of different groups stay unordered. Not a block barrier: the passes do not
    /// count it.
    WarpBarrier(WarpLanes),
    /// `dst = __shfl*_sync(mask, value, lane, width)`: the `value` that the source lane (from
    /// `mode`, `lane` and `width`, all `U32` but `value`) computes at this call; undefined
    /// (any value) when that lane does not call it. `mask` (`U32`) names the lanes that must
    /// call it; `None` for the legacy forms without `_sync`, which name none.
    Shuffle {
        dst: VarId,
        mode: ShuffleMode,
        mask: Option<Expr>,
        value: Expr,
        lane: Expr,
        width: Expr,
    },
    /// `dst = vote(mask, arg)`: the [`VoteOp`] of the participants' `arg`s at this call
    /// (`mask`, `U32`, names the lanes that must call it; `None` for `__activemask`, the
    /// legacy `__ballot` and the block forms, which come just before their barrier).
    Vote {
        dst: VarId,
        op: VoteOp,
        mask: Option<Expr>,
        arg: Expr,
    },
    /// A memory fence: `__threadfence_block()` ([`AtomicScope::Block`]), `__threadfence()`
    /// (`Device`), `__threadfence_system()` (`System`); PTX's `fence.cta`, `.gpu`, `.sys`
    /// (PTX ISA, "Memory Consistency Model"). On its own it orders nothing; between an access
    /// and a release, or between an acquire and an access, it makes them a release or acquire
    /// pattern for the threads of its scope ([`StmtKind::Sync`]).
    Fence(AtomicScope),
    /// A synchronisation idiom that `passes::sync` recognised around a spin loop: a lock's
    /// acquisition and release, or a flag observed. Only the pair model reads it (the release and
    /// acquire patterns of docs/modelling.md "Fences, flags and locks"); elsewhere it is nothing.
    Sync(SyncEvent),
    /// A barrier: `__syncthreads()` and a thread block's `sync()` ([`BarrierScope::Block`]), or
    /// a grid group's `sync()` ([`BarrierScope::Grid`], all threads of a cooperative launch),
    /// ordering the accesses to the memory its [`Fences`] name (CUDA's: all of it; OpenCL's
    /// `barrier(flags)`: what its flags name).
    Barrier(BarrierScope, Fences),
    /// `assert(cond)` / `__assert(cond)`.
    Assert {
        cond: Expr,
    },
    /// `__assume(cond)` / `__requires(cond)`.
    Assume {
        cond: Expr,
    },
    /// `__ensures(cond)`: a postcondition over the final memory (PUG paper §7, `guarantee`).
    /// `body` holds the statements that compute `cond` (loads into temporaries); the concrete
    /// model runs them for every thread after all threads have finished, against the final
    /// memory, with the thread's final variables (uninitialised locals stay arbitrary, so
    /// they act as universally quantified free variables). The pair model ignores it.
    Ensures {
        body: Vec<Stmt>,
        cond: Expr,
    },
    /// GPUVerify's `__barrier_invariant_N(e, i1, …)` / `__barrier_invariant_binary_N(e, i1, j1, …)`
    /// just before a barrier ("Barrier Invariants", Chong et al. (OOPSLA 2013) §3): checked when
    /// the next barrier is reached, assumed over the fresh shared state after it (see
    /// [`BarrierInvariant`]). Only the pair model reads it.
    BarrierInvariant(Box<BarrierInvariant>),
    /// A region that [`StmtKind::Exit`] with its id leaves (an inlined function body).
    Block {
        id: BlockId,
        body: Vec<Stmt>,
    },
    /// Leave the enclosing block `id` (a `return` in an inlined function, after assigning the
    /// result variable).
    Exit(BlockId),
    /// `return` from the kernel: the thread is done.
    Return,
    /// `__invariant(e)` as the first statement of a loop body or in a `for` header: a loop
    /// invariant, checked (base case and step) and then assumed at the loop head (PUG §6).
    /// Where a loop is unrolled it is checked as an assertion at each iteration's head.
    ///
    /// `body` computes the values `cond` reads (loads into temporaries, branches for `&&`,
    /// `__implies` and `__ite` whose operands read memory), as for [`BarrierInvariant`]: its
    /// loads read memory where the invariant is evaluated and are not the thread's accesses
    /// (GPUVerify's annotations wrap `__invariant` in `__non_temporal_loads_begin/end`, whose
    /// loads are not logged, hence never race-checked).
    Invariant {
        body: Vec<Stmt>,
        cond: Expr,
    },
    /// GPUVerify's `__array_snapshot(dst, src)` (Chong et al. (OOPSLA 2013) §5's ghost arrays):
    /// every byte of `dst` gets the value of the same byte of `src`, in one step. Neither array is
    /// accessed: no race is checked on it and no access log records it (GPUVerify writes `$$dst :=
    /// $$src`, a map assignment outside its race instrumentation); `dst` counts as written (its
    /// memory is renewed at barriers and at the heads of loops that snapshot).
    ArraySnapshot {
        dst: ArrayId,
        src: ArrayId,
    },
    /// A loop that is abstracted instead of unrolled (made by `passes`, never by the front
    /// end); see [`AbstractLoop`].
    AbstractLoop(Box<AbstractLoop>),
    /// A call to `call`, a function without a body, given a pointer into `array` whose pointee
    /// is not `const`: the thread may write any bytes of `array` with any values. For races it
    /// is a write of one byte at an arbitrary offset; the encoders read every value of
    /// `array` as arbitrary (adversarial), before and after the call.
    Clobber {
        array: ArrayId,
        call: String,
    },
}

/// How a loop-carried variable evolves with the iteration count `it` (0 at the first loop
/// head), derived syntactically (PUG §6.1, §6.2). All are exact in bit-vector arithmetic.
#[derive(Clone, Debug, PartialEq)]
pub enum ClosedForm {
    /// `v = v0 + it * k`, from `v += k` (or `v -= k` with `k` negated) executed once per
    /// iteration; `k` mentions no variable assigned in the loop.
    Linear(Expr),
    /// `v = v0 >> it`, from `v >>= 1` (or `v /= 2` on an unsigned `v`).
    Halving,
    /// `v = v0 << it`, from `v <<= 1` (or `v *= 2`).
    Doubling,
}

/// A loop whose iterations are summarized by one arbitrary iteration (PUG §6, ARCHITECTURE.md
/// "Loops"): at the head, variables with a [`ClosedForm`] are exact functions of a fresh iteration
/// count, other loop-carried variables and the arrays the loop writes are havocked, and the user's
/// invariants are assumed. `Break`/`Continue` in `body` are already `Exit(brk)`/`Exit(cont)`, with
/// `body` meant to run inside `Block { id: cont }`.
#[derive(Clone, Debug, PartialEq)]
pub struct AbstractLoop {
    pub cond_stmts: Vec<Stmt>,
    pub cond: Expr,
    pub body: Vec<Stmt>,
    pub step: Vec<Stmt>,
    pub do_while: bool,
    /// Target of `break`.
    pub brk: BlockId,
    /// Target of `continue`.
    pub cont: BlockId,
    /// Loop-carried variables with a closed form.
    pub closed: Vec<(VarId, ClosedForm)>,
    /// Other variables the loop assigns: arbitrary at the head.
    pub havocked: Vec<VarId>,
    /// Arrays the loop writes (stores, atomics): arbitrary at the head.
    pub written: Vec<ArrayId>,
    /// Barriers per iteration when every barrier of the body runs unconditionally once per
    /// iteration; `None` when some barrier is conditional (then barrier counts are havocked).
    pub barriers: Option<u32>,
    /// User invariants (`__invariant`), over the head state.
    pub invariants: Vec<LoopInvariant>,
}

/// A user's loop invariant (`__invariant(e)` at a loop head, PUG §6): `cond` (`Bool`) after
/// `body`, which computes the values it reads (see [`StmtKind::Invariant`]: its loads read the
/// memory at the head and are not accesses).
#[derive(Clone, Debug, PartialEq)]
pub struct LoopInvariant {
    /// The statements computing `cond`'s values (loads into temporaries, branches).
    pub body: Vec<Stmt>,
    /// The invariant.
    pub cond: Expr,
    /// The `__invariant` call.
    pub span: Span,
}

impl LoopInvariant {
    /// Whether the invariant reads the other thread of the pair (`__other_int`, in its
    /// condition or in an address it loads from): a relational ("two-thread") invariant.
    pub fn reads_other_thread(&self) -> bool {
        query::reads_other_thread(&self.cond) || query::stmts_read_other_thread(&self.body)
    }
}

/// A `__global__` function, lowered.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub span: Span,
    pub params: Vec<Param>,
    pub vars: Vec<VarDecl>,
    pub arrays: Vec<ArrayDecl>,
    pub body: Vec<Stmt>,
    /// The next unused [`BlockId`].
    pub next_block: usize,
    /// Annotations the front end could not lower (GPUVerify's two-thread annotations inside
    /// `__invariant`, say): they are not checked, so the verdict cannot be "verified".
    pub unchecked: Vec<(Span, String)>,
    /// The names of the [`Expr::Opaque`] functions that stand for calls to functions without
    /// a body (each once): a defect that depends on their values is possible, not certain.
    pub uninterpreted: Vec<String>,
    /// Those of [`Kernel::uninterpreted`] that the program declares itself without defining
    /// (another translation unit's, linked with `-rdc`): nothing says their value is a function
    /// of their arguments (a clock or a random generator is not), so a write of a value that
    /// may come from one is never benign ([`crate::encode::EncodeOptions::benign`]). The
    /// toolkit's functions without a body in gpug's view (conversions such as bf16's `operator
    /// float`, math functions) are deterministic, and are not listed.
    pub impure: Vec<String>,
    /// What the front end assumed or left out, for the report (a call treated as
    /// uninterpreted, an ignored `printf`), each once.
    pub notes: Vec<String>,
    /// The language the kernel was written in: only the report's words depend on it
    /// (work-item and `get_local_id(0)` for OpenCL, thread and `threadIdx.x` for CUDA), and
    /// which launch limits apply (CUDA's; OpenCL leaves them to the device).
    pub language: Language,
    /// The source-level signed arithmetic of the kernel (issue 43, item 4): each `+`, `-`, `*`
    /// (binary, compound assignment, `++`/`--`) that the source computes in a signed type of
    /// at least 32 bits after C's integer promotions, whose overflow is undefined behaviour
    /// (C11 6.5p5, C++ [expr.pre]/4, OpenCL C 6.3). Recorded by the front end where it lowers
    /// the operator, never for its own arithmetic (byte offsets, built-in functions'
    /// expansions), in the order they are lowered; the encoders find an operation here by its
    /// [`SignedOp::matches`]. Passes copy statements without rewriting their expressions, so
    /// the prepared kernel still holds these expressions.
    ///
    /// Also each unsigned `+`, `*` of at least 32 bits computed in a subscript's index
    /// ([`is_index_arith`], issue 53 item 4): its wrap is defined, but computes an index past
    /// its type (an array of 2^32 elements, an offset within a few of 2^32); the launch
    /// contracts' same standard assumption excludes it, and a finding that needs it is listed
    /// apart with that condition (`--strict` reports it). `--check-overflow` checks only the signed ones ([`SignedOp::is_signed`]).
    ///
    /// Also each source-level conversion to a signed integer of at least 32 bits from a type
    /// whose values it cannot all hold ([`is_narrowing_conversion`]: `int idx = (blockIdx.x *
    /// blockDim.x + threadIdx.x) * sizeof(float4)`, a `size_t` product stored into an `int`):
    /// a value that does not fit changes (implementation-defined before C++20, modular since),
    /// an index computed past its type, excluded by the same standard assumption and listed
    /// apart the same way ([`SignedOp::is_conversion`]).
    pub signed_ops: Vec<SignedOp>,
}

/// The source language of a [`Kernel`] (issue 13: OpenCL C next to CUDA).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// CUDA C++ (`.cu`).
    #[default]
    Cuda,
    /// OpenCL C (`.cl`).
    OpenCl,
}

impl Kernel {
    /// The declaration of `id`.
    pub fn var(&self, id: VarId) -> &VarDecl {
        &self.vars[id.0]
    }

    /// The declaration of `id`.
    pub fn array(&self, id: ArrayId) -> &ArrayDecl {
        &self.arrays[id.0]
    }

    /// Declare a fresh variable and return its id.
    pub fn new_var(&mut self, name: impl Into<String>, ty: Ty) -> VarId {
        self.vars.push(VarDecl { name: name.into(), ty });
        VarId(self.vars.len() - 1)
    }

    /// A fresh block label.
    pub fn new_block(&mut self) -> BlockId {
        self.next_block += 1;
        BlockId(self.next_block - 1)
    }
}
