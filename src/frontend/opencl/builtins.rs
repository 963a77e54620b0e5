//! OpenCL C's built-in functions (issue 13), the ones clang declares for `-x cl` with its
//! default header: work-item functions, barriers and fences, atomics in their OpenCL 1.x
//! spellings (`atomic_*`, and the extensions' `atom_*`), integer helpers (`mad24`, `mul24`,
//! `clamp`, `select`, …), conversions, float math (uninterpreted).
//!
//! A name not listed here is looked up in CUDA's table ([`crate::frontend::cuda::builtins::BUILTINS`]), which holds
//! what both languages share: GPUVerify's annotation functions, `min`/`max`/`abs`, float math
//! (`sqrt`, `exp`, …), `printf`.
//!
//! Data only: one line per function. What each [`Lowering`] means is documented on it.

use crate::frontend::lower::builtin::int::{mul24, umul24};
use crate::frontend::lower::builtin::table::Lowering::{self, *};
use crate::frontend::lower::builtin::table::{IntFn, Table, WorkItem, max, min};
use crate::ir::{AtomicOp, AtomicScope, BinOp, Expr, Ty};

/// OpenCL C's built-in functions by name.
pub const BUILTINS: Table = Table(TABLE);

/// An integer built-in; on floats, an uninterpreted function under its own name.
const fn int(build: fn(&[Expr], Ty) -> Option<Expr>) -> Lowering {
    Int(IntFn { build, float: None })
}

/// Why image access is refused.
const IMAGE: &str = "image access (image memory objects are not modelled)";

/// An atomic of OpenCL (device scope: OpenCL 1.x atomics are atomic for every work-item that
/// can reach the memory).
const fn atomic(op: AtomicOp) -> Lowering {
    Atomic(op, AtomicScope::Device)
}

const TABLE: &[(&str, Lowering)] = &[
    // Work-item functions (OpenCL 1.2 section 6.12.1).
    ("get_work_dim", WorkItemFn(WorkItem::WorkDim)),
    ("get_global_size", WorkItemFn(WorkItem::GlobalSize)),
    ("get_global_id", WorkItemFn(WorkItem::GlobalId)),
    ("get_local_size", WorkItemFn(WorkItem::LocalSize)),
    ("get_enqueued_local_size", WorkItemFn(WorkItem::LocalSize)),
    ("get_local_id", WorkItemFn(WorkItem::LocalId)),
    ("get_num_groups", WorkItemFn(WorkItem::NumGroups)),
    ("get_group_id", WorkItemFn(WorkItem::GroupId)),
    ("get_global_offset", WorkItemFn(WorkItem::GlobalOffset)),
    // Synchronisation (section 6.12.8): a barrier orders the memory its flags name; the fences
    // alone order nothing between work-items.
    ("barrier", FencedBarrier),
    ("work_group_barrier", FencedBarrier),
    ("mem_fence", Ignored),
    ("read_mem_fence", Ignored),
    ("write_mem_fence", Ignored),
    // Atomics (sections 6.12.11, 9.5, 9.6): the old value; `atomic_inc`/`atomic_dec` add or
    // subtract 1.
    ("atomic_add", atomic(AtomicOp::Add)),
    ("atomic_sub", atomic(AtomicOp::Sub)),
    ("atomic_xchg", atomic(AtomicOp::Exch)),
    ("atomic_min", atomic(AtomicOp::Min)),
    ("atomic_max", atomic(AtomicOp::Max)),
    ("atomic_and", atomic(AtomicOp::And)),
    ("atomic_or", atomic(AtomicOp::Or)),
    ("atomic_xor", atomic(AtomicOp::Xor)),
    ("atomic_cmpxchg", atomic(AtomicOp::Cas)),
    ("atomic_inc", AtomicStep(AtomicOp::Add)),
    ("atomic_dec", AtomicStep(AtomicOp::Sub)),
    ("atom_add", atomic(AtomicOp::Add)),
    ("atom_sub", atomic(AtomicOp::Sub)),
    ("atom_xchg", atomic(AtomicOp::Exch)),
    ("atom_min", atomic(AtomicOp::Min)),
    ("atom_max", atomic(AtomicOp::Max)),
    ("atom_and", atomic(AtomicOp::And)),
    ("atom_or", atomic(AtomicOp::Or)),
    ("atom_xor", atomic(AtomicOp::Xor)),
    ("atom_cmpxchg", atomic(AtomicOp::Cas)),
    ("atom_inc", AtomicStep(AtomicOp::Add)),
    ("atom_dec", AtomicStep(AtomicOp::Sub)),
    // Integer helpers (section 6.12.3), exact; on floats uninterpreted.
    ("mul24", int(mul24_cl)),
    ("mad24", int(mad24)),
    ("clamp", int(clamp)),
    ("select", int(select)),
    ("mad_sat", Uninterpreted),
    ("add_sat", Uninterpreted),
    ("sub_sat", Uninterpreted),
    ("mul_hi", Uninterpreted),
    ("mad_hi", Uninterpreted),
    ("rotate", Uninterpreted),
    ("hadd", Uninterpreted),
    ("rhadd", Uninterpreted),
    ("abs_diff", Uninterpreted),
    ("upsample", Uninterpreted),
    ("popcount", Uninterpreted),
    ("clz", Uninterpreted),
    // Float math (sections 6.12.2, 6.12.4): uninterpreted functions.
    ("fmin", Uninterpreted),
    ("fmax", Uninterpreted),
    ("mad", Uninterpreted),
    ("mix", Uninterpreted),
    ("step", Uninterpreted),
    ("smoothstep", Uninterpreted),
    ("sign", Uninterpreted),
    ("degrees", Uninterpreted),
    ("radians", Uninterpreted),
    ("hypot", Uninterpreted),
    ("exp10", Uninterpreted),
    ("log10", Uninterpreted),
    ("log1p", Uninterpreted),
    ("expm1", Uninterpreted),
    ("cbrt", Uninterpreted),
    ("rint", Uninterpreted),
    ("asin", Uninterpreted),
    ("acos", Uninterpreted),
    ("atan", Uninterpreted),
    ("sinh", Uninterpreted),
    ("cosh", Uninterpreted),
    ("tan", Uninterpreted),
    ("erf", Uninterpreted),
    ("erfc", Uninterpreted),
    ("copysign", Uninterpreted),
    ("fdim", Uninterpreted),
    ("native_sqrt", Uninterpreted),
    ("native_rsqrt", Uninterpreted),
    ("native_exp", Uninterpreted),
    ("native_exp2", Uninterpreted),
    ("native_exp10", Uninterpreted),
    ("native_log", Uninterpreted),
    ("native_log2", Uninterpreted),
    ("native_log10", Uninterpreted),
    ("native_sin", Uninterpreted),
    ("native_cos", Uninterpreted),
    ("native_tan", Uninterpreted),
    ("native_divide", Uninterpreted),
    ("native_recip", Uninterpreted),
    ("native_powr", Uninterpreted),
    ("half_sqrt", Uninterpreted),
    ("half_rsqrt", Uninterpreted),
    ("half_exp", Uninterpreted),
    ("half_log", Uninterpreted),
    ("half_sin", Uninterpreted),
    ("half_cos", Uninterpreted),
    ("half_divide", Uninterpreted),
    ("half_recip", Uninterpreted),
    ("powr", Uninterpreted),
    ("pown", Uninterpreted),
    ("rootn", Uninterpreted),
    ("isnan", Uninterpreted),
    ("isinf", Uninterpreted),
    ("isfinite", Uninterpreted),
    ("signbit", Uninterpreted),
    ("dot", Uninterpreted),
    ("length", Uninterpreted),
    ("distance", Uninterpreted),
    ("normalize", Uninterpreted),
    ("cross", Uninterpreted),
    // Copies by the whole work-group, ordered by waiting for their events (section 6.12.10).
    ("async_work_group_copy", GroupCopy(false)),
    ("async_work_group_strided_copy", GroupCopy(true)),
    ("wait_group_events", WaitEvents),
    // Vector loads and stores from and to arrays of scalars (section 6.12.7).
    ("vload2", VLoad(2)),
    ("vload3", VLoad(3)),
    ("vload4", VLoad(4)),
    ("vload8", VLoad(8)),
    ("vload16", VLoad(16)),
    ("vstore2", VStore(2)),
    ("vstore3", VStore(3)),
    ("vstore4", VStore(4)),
    ("vstore8", VStore(8)),
    ("vstore16", VStore(16)),
    // Images: refused by name.
    ("prefetch", Ignored),
    ("read_imagef", Unsupported(IMAGE)),
    ("read_imagei", Unsupported(IMAGE)),
    ("read_imageui", Unsupported(IMAGE)),
    ("write_imagef", Unsupported(IMAGE)),
    ("write_imagei", Unsupported(IMAGE)),
    ("write_imageui", Unsupported(IMAGE)),
];

/// `mul24(a, b)`: the product of the low 24 bits of `a` and `b` (signed for `int`, unsigned for
/// `uint`; OpenCL leaves arguments outside 24 bits undefined, gpug takes PTX's `mul24.lo`).
fn mul24_cl(args: &[Expr], ty: Ty) -> Option<Expr> {
    if ty.is_signed() {
        mul24(args, ty)
    } else {
        umul24(args, ty)
    }
}

/// `mad24(a, b, c)`: `mul24(a, b) + c`.
fn mad24(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b, c] = args else { return None };
    let p = mul24_cl(&[a.clone(), b.clone()], ty)?;
    Some(Expr::Binary {
        op: BinOp::Add,
        lhs: Box::new(p),
        rhs: Box::new(crate::frontend::lower::builtin::table::to(c, ty)),
        ty,
    })
}

/// `clamp(x, lo, hi)`: `min(max(x, lo), hi)`.
fn clamp(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [x, lo, hi] = args else { return None };
    let up = max(&[x.clone(), lo.clone()], ty)?;
    min(&[up, hi.clone()], ty)
}

/// `select(a, b, c)` on scalars: `c != 0 ? b : a`.
fn select(args: &[Expr], ty: Ty) -> Option<Expr> {
    let [a, b, c] = args else { return None };
    let cond = crate::ir::build::to_bool(c.clone());
    Some(Expr::Select {
        cond: Box::new(cond),
        then: Box::new(crate::frontend::lower::builtin::table::to(b, ty)),
        els: Box::new(crate::frontend::lower::builtin::table::to(a, ty)),
        ty,
    })
}
