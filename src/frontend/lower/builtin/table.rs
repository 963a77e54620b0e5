//! Built-in functions as tables keyed by name: what a call to each becomes in the IR.
//!
//! A language's [`Table`] lists every built-in function once, with its [`Lowering`]: adding an
//! intrinsic is one line in the table ([`crate::frontend::cuda::builtins::BUILTINS`] for CUDA). The small IR constructors
//! of pure built-ins ([`min`], [`max`], [`abs`], [`implies`], [`add_noovfl`]; the integer
//! intrinsics in [`int`]) and of GPUVerify's two-thread annotations ([`other`], [`uniform`],
//! [`distinct`], [`all`], [`exclusive`], [`same_group`]) live here, shared by the languages'
//! tables.
//!
//! Owns names and IR shapes only: evaluating a call's arguments and emitting its statements is
//! the lowering's job ([`super`], which also looks a name up in the tables), and clang's AST is not read here.

use crate::ir::build::{bin, to_bool};
use crate::ir::{AtomicOp, AtomicScope, BinOp, Builtin, Dim, Expr, Ty, UnOp};

/// What a call to a built-in function becomes.
#[derive(Clone, Copy, Debug)]
pub enum Lowering {
    /// An atomic read-modify-write on the location the first argument points to (an error
    /// without arguments); the other arguments are its operands, converted to the location's
    /// type, and the call's value is the location's old content. Atomic with respect to the
    /// threads of its scope.
    Atomic(AtomicOp, AtomicScope),
    /// A barrier statement (`__syncthreads`); the arguments are not evaluated.
    Barrier,
    /// A warp collective (`__shfl_sync` and its forms, votes, `__match_any_sync`,
    /// `__reduce_add_sync`, `__activemask`): its scalar arguments are evaluated (default
    /// arguments skipped), it orders nothing, and its value is arbitrary for each thread: what
    /// another lane holds is not modelled (an over-approximation for races; a branch on it
    /// may be a false alarm of divergence).
    WarpValue,
    /// A shuffle (`__shfl_sync` and its `_up`, `_down`, `_xor` forms; without a mask argument
    /// for the legacy forms when the flag is false): the source lane's value
    /// ([`crate::ir::StmtKind::Shuffle`]); `width` defaults to 32.
    Shuffle(crate::ir::ShuffleMode, bool),
    /// A vote (`__ballot_sync`, `__any_sync`, …, `__reduce_*_sync`; `__activemask` and the
    /// legacy `__ballot` without a mask argument when the flag is false): the
    /// [`crate::ir::StmtKind::Vote`] of the lanes that make the call.
    Vote(crate::ir::VoteOp, bool),
    /// A block barrier that also returns a value computed from every thread's predicate
    /// (`__syncthreads_count`, `_and`, `_or`): the block's vote ([`crate::ir::StmtKind::Vote`]
    /// of the op), then the barrier.
    BarrierValue(crate::ir::VoteOp),
    /// `__syncwarp(mask)`: a warp barrier of the lanes a literal mask names (all of them when
    /// the mask is absent); with a mask that is not a nonzero literal, nothing, with a note
    /// (such a call orders no access here).
    WarpBarrier,
    /// A memory fence of the scope ([`crate::ir::StmtKind::Fence`]): `__threadfence_block`,
    /// `__threadfence`, `__threadfence_system`.
    Fence(crate::ir::AtomicScope),
    /// Nothing: no effect on what is verified (`__nanosleep`); the arguments are not
    /// evaluated.
    Ignored,
    /// Output (`printf`): ignored like [`Lowering::Ignored`], and the report says so once.
    Output,
    /// Freeing device memory from device code (`cudaFree` of the device runtime, declared in
    /// `cuda_device_runtime_api.h`): the arguments are evaluated (the pointer read), the
    /// release itself has no effect on what is verified, and the report says once that a use
    /// after free or a double free is not checked.
    Release,
    /// A stream of the device runtime made or released in device code
    /// (`cudaStreamCreateWithFlags(&s, flags)`, `cudaStreamDestroy(s)`): the handle is the
    /// thread's own and only names where a launch from device code is queued, which is not
    /// modelled (`cuda/device_launch.rs`); the arguments are not evaluated (the handle stays
    /// unwritten), the `cudaError_t` result is any value.
    DeviceStream,
    /// A call that is reached only when an assertion fails (`__assert_fail`, which `assert`
    /// calls in the system headers): an assertion of `false`; the arguments are not
    /// evaluated.
    Fail,
    /// The constant `true`; the arguments are not evaluated.
    True,
    /// A statement on the condition given as the first argument (an error without one).
    Condition(Check),
    /// A pure function of the scalar arguments, typed by the call.
    Int(IntFn),
    /// A boolean connective of exactly two scalar arguments.
    Connective(fn(Expr, Expr) -> Expr),
    /// An uninterpreted function of the scalar arguments, under the built-in's name, when the
    /// call's result is a scalar; otherwise the call is not taken as a built-in (math).
    Uninterpreted,
    /// One of GPUVerify's two-thread annotations (its "inter-thread predicates", Donaldson's ENS
    /// Lyon lectures 1 and 2): a pure function of the scalar arguments that reads the other thread
    /// of the pair ([`Expr::Other`]); `None` when the arguments do not fit. Only inside the
    /// condition of an annotation (`__assert`, `__invariant`, `__requires`, …).
    TwoThread(fn(&[Expr]) -> Option<Expr>),
    /// `__enabled()`: whether this thread executes here ([`Expr::Enabled`]).
    Enabled,
    /// What the access log of the array the first argument points to says (GPUVerify's
    /// `READ_HAS_OCCURRED_A`/`READ_OFFSET_A` instrumentation, Donaldson's ENS Lyon lecture 2).
    AccessLog(LogQuery),
    /// `__ptr_offset_bytes(p)`: the byte offset of `p` in its array.
    PtrOffset,
    /// `__return_val_int()` and friends: the result of the device function whose
    /// postcondition (`__ensures`) is being lowered.
    ReturnValue,
    /// An annotation that is not modelled: a call is an error naming it.
    Unmodelled,
    /// A clock reading (`clock()`, `clock64()`): any value at each call of each thread.
    Timer,
    /// A vector constructor (`make_float4(x, y, z, w)`): the struct value of the call's result
    /// type (a record of scalar fields), each field the argument in its position converted to
    /// the field's type, when there is one scalar argument per field; any other call (an
    /// overload such as `make_float4(float3, float)`) is not taken as a built-in.
    Vector,
    /// A read from texture memory (`tex1Dfetch`, `tex2D`, …): read-only for the kernel's whole
    /// run, so it cannot race and the same texture at the same coordinates gives the same value.
    /// The value is an uninterpreted function of the texture and the coordinates (see
    /// `cuda/texture.rs`).
    Texture,
    /// A read or write of surface memory by surface object (`surf2Dread`, `surf2Dwrite`, …):
    /// an ordinary access of one array that stands for all surfaces (two surface objects may
    /// name the same CUDA array), at an offset made of the coordinates (see
    /// `cuda/texture.rs`).
    Surface,
    /// `sincosf(x, &s, &c)` and its siblings: `*s` and `*c` get the uninterpreted functions
    /// `NAME.sin` and `NAME.cos` of `x` (floats are opaque), written through the pointers
    /// (a store when they point to memory).
    SinCos,
    /// The value of the first argument, the others evaluated (`__builtin_assume_aligned(p, 16)`
    /// is `p`; `__builtin_expect(x, c)` is `x`): a hint to the compiler, nothing to the
    /// semantics gpug checks.
    First,
    /// A load through a pointer with a cache hint (`__ldg(p)`, `__ldcg(p)`, …): a read of `*p`,
    /// an ordinary memory access (it races with another thread's write of the same bytes).
    Load,
    /// A store through a pointer with a cache hint (`__stcg(p, v)`, …): the write `*p = v`.
    Store,
    /// `memcpy(dst, src, len)` (`false`) or `memset(dst, c, len)` (`true`): byte loads and
    /// stores of the bytes `[0, len)`, a null pointer constant argument an assertion that `len`
    /// is 0 (see `lower/calls/memory_calls.rs`); the value is `dst`.
    Memory(bool),
    /// cuRAND's device API on a state the first pointer argument of a cuRAND state type points
    /// to (`curand_init`, `curand`, `curand_uniform`, …; see `cuda/curand.rs`): the call reads
    /// and writes the state, its result is a fresh value. A call on anything else is not taken
    /// as a built-in (it is a call without a body).
    Curand,
    /// CUDA 12.8's atomics with a memory order and a thread scope (`__nv_atomic_fetch_add(p,
    /// v, order, scope)`, `__nv_atomic_load_n`, …; see `cuda/nv_atomic.rs`): atomics of
    /// their scope, the order ignored.
    NvAtomic(crate::frontend::cuda::nv_atomic::NvAtomic),
    /// CUDA's asynchronous copies (`__pipeline_memcpy_async`, `__pipeline_commit`,
    /// `__pipeline_wait_prior`; see `cuda/pipeline.rs`): each thread's copy in flight until
    /// the wait that covers its commit group.
    Pipeline(crate::frontend::cuda::pipeline::Pipeline),
    /// A built-in gpug does not model: a call is an error naming it, with the reason.
    Unsupported(&'static str),
    /// GPUVerify's `__barrier_invariant_N(e, i1, …)` (`false`) and
    /// `__barrier_invariant_binary_N(e, i1, j1, …)` (`true`): a
    /// [`crate::ir::StmtKind::BarrierInvariant`] of the condition `e` and the instances.
    BarrierInvariant(bool),
    /// GPUVerify's `__add_noovfl_int(a, b)`, `__add_noovfl_unsigned_int(a, b)` (Chong et al.
    /// (OOPSLA 2013) §5's non-overflowing addition): `a + b`, assuming it does not overflow the
    /// operands' type ([`add_noovfl`]).
    AddNoOverflow,
    /// GPUVerify's `__array_snapshot(dst, src)` (Chong et al. (OOPSLA 2013) §5, ghost arrays): a
    /// [`crate::ir::StmtKind::ArraySnapshot`] of the two whole arrays the arguments point to.
    ArraySnapshot,
    /// The arguments are evaluated (their loads are the thread's reads) and nothing else:
    /// `__read_permission(T, x)` (a prelude macro over `__gpug_read_permission(x)`).
    Evaluate,
    /// An OpenCL work-item function (`get_local_id(d)`, …): the launch geometry's value for
    /// the constant dimension `d` (a dimension that is not an integer constant is an error
    /// naming the call).
    WorkItemFn(WorkItem),
    /// OpenCL's `barrier(flags)` and `work_group_barrier(flags)`: a barrier of the work-group
    /// that orders the accesses to the memory its fence flags name
    /// ([`crate::ir::StmtKind::Barrier`] with [`crate::ir::Fences`]); flags that are not an
    /// integer constant order no memory (the barrier still synchronises, and divergence is
    /// checked).
    FencedBarrier,
    /// An atomic with the implicit operand 1 (OpenCL's `atomic_inc` as `Add`, `atomic_dec` as
    /// `Sub`), device scope; otherwise as [`Lowering::Atomic`].
    AtomicStep(AtomicOp),
    /// OpenCL's `async_work_group_copy(dst, src, n, event)` (`false`) and
    /// `async_work_group_strided_copy(dst, src, n, stride, event)` (`true`): a copy by the
    /// whole work-group (`opencl/group_copy.rs`); the value is the copy's event.
    GroupCopy(bool),
    /// OpenCL's `wait_group_events(n, list)`: the copies of the `n` events of `list` are
    /// complete (`n` an integer constant).
    WaitEvents,
    /// OpenCL's `vloadN(offset, p)` (section 6.12.7): the vector of the `N` scalars
    /// `p[offset * N + i]` (packed: `vload3` reads 3).
    VLoad(u8),
    /// OpenCL's `vstoreN(data, offset, p)`: the components of `data` stored to
    /// `p[offset * N + i]`.
    VStore(u8),
}

/// The OpenCL work-item functions of [`Lowering::WorkItemFn`] (OpenCL 1.2 section 6.12.1), in
/// CUDA's terms: work-item = thread, work-group = block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkItem {
    /// `get_local_id(d)`: `threadIdx.d`.
    LocalId,
    /// `get_group_id(d)`: `blockIdx.d`.
    GroupId,
    /// `get_global_id(d)`: `blockIdx.d * blockDim.d + threadIdx.d + offset(d)`.
    GlobalId,
    /// `get_local_size(d)`: `blockDim.d`.
    LocalSize,
    /// `get_num_groups(d)`: `gridDim.d`.
    NumGroups,
    /// `get_global_size(d)`: `gridDim.d * blockDim.d`.
    GlobalSize,
    /// `get_global_offset(d)`: `--global_offset`'s value, 0 when it is not given (as GPUVerify).
    GlobalOffset,
    /// `get_work_dim()`: the dimensions `--local_size` gives, else unknown (uniform).
    WorkDim,
}

/// Which accesses an access log records: a thread's reads, writes or atomics of one array
/// since the last barrier (GPUVerify's `__read`, `__write` and `__atomic`; atomics are neither
/// reads nor writes there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LogKind {
    Read,
    Write,
    Atomic,
}

/// A question to an access log ([`Lowering::AccessLog`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogQuery {
    /// The accesses asked about.
    pub kind: LogKind,
    /// What is asked.
    pub what: LogWhat,
}

/// What [`LogQuery`] asks of a log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogWhat {
    /// Some access was logged (`__read(p)`).
    Occurred,
    /// None was (`__no_read(p)`, GPUVerify's `!__read(p)`).
    None,
    /// The byte offset of the logged access (`__read_offset_bytes(p)`), meaningful where one
    /// was logged.
    Offset,
    /// The second argument holds where an access was logged (`__read_implies(p, e)`).
    Implies,
}

/// The statement a [`Lowering::Condition`] built-in makes of its condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// `assert`: checked, then assumed.
    Assert,
    /// `assume`.
    Assume,
    /// A precondition (`__requires`): assumed in a kernel; in a device function, which is
    /// inlined, checked at the call and then assumed (GPUVerify checks a callee's
    /// precondition at every call and assumes it in the callee).
    Precondition,
    /// A loop invariant. One that cannot be lowered is not assumed and is reported as not
    /// checked (sound, only less precise).
    Invariant,
    /// A postcondition, whose loads read the final memory. One whose condition is not modelled
    /// is reported as not checked.
    Ensures,
}

/// A pure built-in of [`Lowering::Int`].
#[derive(Clone, Copy, Debug)]
pub struct IntFn {
    /// The value from the scalar arguments and the call's result type; `None` when the
    /// arguments do not fit (their number is the built-in's arity).
    pub build: fn(&[Expr], Ty) -> Option<Expr>,
    /// A call whose result is a float is an uninterpreted function of all its arguments named
    /// this (`None`: the built-in's own name).
    pub float: Option<&'static str>,
}

/// A language's built-in functions: (name, lowering), each name once.
pub struct Table(pub &'static [(&'static str, Lowering)]);

impl Table {
    /// The lowering of the built-in function `name`, if it is one.
    pub fn get(&self, name: &str) -> Option<Lowering> {
        self.0.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
    }
}

/// `min(a, b)` on integers: `a < b ? a : b`, both converted to the result type first (CUDA's
/// mixed `min(int, unsigned)` compares as unsigned).
pub fn min(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b] = args else { return None };
    Some(pick(BinOp::Lt, &to(a, ty), &to(b, ty), ty))
}

/// `max(a, b)` on integers: `a > b ? a : b`, both converted to the result type first.
pub fn max(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b] = args else { return None };
    Some(pick(BinOp::Gt, &to(a, ty), &to(b, ty), ty))
}

/// `e` converted to `ty` (itself when it has that type).
pub(in crate::frontend) fn to(e: &Expr, ty: Ty) -> Expr {
    if e.ty() == ty {
        return e.clone();
    }
    Expr::Cast {
        arg: Box::new(e.clone()),
        ty,
    }
}

/// GPUVerify's `__ite(c, a, b)`: `c ? a : b` (pure arms).
pub fn ite(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [c, a, b] = args else { return None };
    Some(Expr::Select {
        cond: Box::new(crate::ir::build::to_bool(c.clone())),
        then: Box::new(to(a, ty)),
        els: Box::new(to(b, ty)),
        ty,
    })
}

/// GPUVerify's `__mod_pow2(x, y)`: `x % y` for `y` a power of two, as `x & (y - 1)`.
pub fn mod_pow2(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [x, y] = args else { return None };
    Some(bin(
        BinOp::BitAnd,
        to(x, ty),
        bin(BinOp::Sub, to(y, ty), Expr::int(1, ty), ty),
        ty,
    ))
}

/// `a op b ? a : b`.
fn pick(op: BinOp, a: &Expr, b: &Expr, ty: Ty) -> Expr {
    let c = Expr::Binary {
        op,
        lhs: Box::new(a.clone()),
        rhs: Box::new(b.clone()),
        ty: Ty::Bool,
    };
    Expr::Select {
        cond: Box::new(c),
        then: Box::new(a.clone()),
        els: Box::new(b.clone()),
        ty,
    }
}

/// `abs(a)` on integers: `a < 0 ? -a : a` (`abs(INT_MIN)` is `INT_MIN`, as on the device).
pub fn abs(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a] = args else { return None };
    let a = &to(a, ty);
    let c = Expr::Binary {
        op: BinOp::Lt,
        lhs: Box::new(a.clone()),
        rhs: Box::new(Expr::int(0, ty)),
        ty: Ty::Bool,
    };
    let neg = Expr::Unary {
        op: UnOp::Neg,
        arg: Box::new(a.clone()),
        ty,
    };
    Some(Expr::Select {
        cond: Box::new(c),
        then: Box::new(neg),
        els: Box::new(a.clone()),
        ty,
    })
}

/// `__other_int(x)`: `x` in the other thread.
pub fn other(args: &[Expr]) -> Option<Expr> {
    let [x] = args else { return None };
    Some(Expr::Other(Box::new(x.clone())))
}

/// `x op __other(x)` for a comparison `op` (GPUVerify's `__uniform_int` is `==`,
/// `__distinct_int` is `!=`).
fn with_other(op: BinOp, args: &[Expr]) -> Option<Expr> {
    let [x] = args else { return None };
    Some(Expr::Binary {
        op,
        lhs: Box::new(x.clone()),
        rhs: Box::new(Expr::Other(Box::new(x.clone()))),
        ty: Ty::Bool,
    })
}

/// `__uniform_int(x)`: `x == __other_int(x)`.
pub fn uniform(args: &[Expr]) -> Option<Expr> {
    with_other(BinOp::Eq, args)
}

/// `__distinct_int(x)`: `x != __other_int(x)`.
pub fn distinct(args: &[Expr]) -> Option<Expr> {
    with_other(BinOp::Ne, args)
}

/// `__all(b)`: `b & __other_bool(b)`.
pub fn all(args: &[Expr]) -> Option<Expr> {
    let [b] = args else { return None };
    let b = to_bool(b.clone());
    Some(Expr::Binary {
        op: BinOp::LAnd,
        lhs: Box::new(b.clone()),
        rhs: Box::new(Expr::Other(Box::new(b))),
        ty: Ty::Bool,
    })
}

/// `__exclusive(b)`: `!__all(b)`.
pub fn exclusive(args: &[Expr]) -> Option<Expr> {
    Some(Expr::Unary {
        op: UnOp::Not,
        arg: Box::new(all(args)?),
        ty: Ty::Bool,
    })
}

/// `__same_group()` (CUDA spelling `__same_block()`): the two threads' `blockIdx` agree in
/// every dimension.
pub fn same_group(args: &[Expr]) -> Option<Expr> {
    if !args.is_empty() {
        return None;
    }
    Dim::ALL
        .iter()
        .map(|d| {
            let b = Expr::Builtin(Builtin::BlockIdx(*d));
            Expr::Binary {
                op: BinOp::Eq,
                lhs: Box::new(b.clone()),
                rhs: Box::new(Expr::Other(Box::new(b))),
                ty: Ty::Bool,
            }
        })
        .reduce(|a, b| Expr::Binary {
            op: BinOp::LAnd,
            lhs: Box::new(a),
            rhs: Box::new(b),
            ty: Ty::Bool,
        })
}

/// `__add_noovfl(a, b, …)`: `a + b + …` does not overflow the operands' type (signed or
/// unsigned): redone in 64 bits it gives the same value. `None` for 64-bit operands, fewer
/// than two, or operands of different types.
pub fn add_noovfl(args: &[Expr], _ty: Ty) -> Option<Expr> {
    let (first, _) = args.split_first()?;
    let t = first.ty();
    let Ty::Int { bits, signed } = t else { return None };
    if bits >= 64 || args.len() < 2 || args.iter().any(|a| a.ty() != t) {
        return None;
    }
    let wide = Ty::Int { bits: 64, signed };
    let ext = |x: Expr| Expr::Cast {
        arg: Box::new(x),
        ty: wide,
    };
    let sum = |xs: Vec<Expr>, ty: Ty| {
        xs.into_iter().reduce(|x, y| Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(x),
            rhs: Box::new(y),
            ty,
        })
    };
    Some(Expr::Binary {
        op: BinOp::Eq,
        lhs: Box::new(ext(sum(args.to_vec(), t)?)),
        rhs: Box::new(sum(args.iter().cloned().map(ext).collect(), wide)?),
        ty: Ty::Bool,
    })
}

/// `a ⇒ b` as `!a || b`.
pub fn implies(a: Expr, b: Expr) -> Expr {
    let na = Expr::Unary {
        op: UnOp::Not,
        arg: Box::new(to_bool(a)),
        ty: Ty::Bool,
    };
    Expr::Binary {
        op: BinOp::LOr,
        lhs: Box::new(na),
        rhs: Box::new(to_bool(b)),
        ty: Ty::Bool,
    }
}
