//! CUDA's built-in functions, the ones the prelude (`cuda/prelude.h`) declares: atomics,
//! barriers and fences, integer helpers, float math, and GPUVerify's annotation functions.
//!
//! Data only: one line per function. What each [`Lowering`] means is documented on it.

use super::Lowering::{self, *};
use super::{
    Check, IntFn, LogKind, LogQuery, LogWhat, Table, abs, add_noovfl, all, distinct, exclusive, implies, max, min,
    mul24, other, same_group, uniform,
};
use crate::ir::AtomicOp;

/// CUDA's built-in functions by name.
pub const BUILTINS: Table = Table(TABLE);

/// The entry of an access-log annotation.
const fn log(kind: LogKind, what: LogWhat) -> Lowering {
    AccessLog(LogQuery { kind, what })
}

const TABLE: &[(&str, Lowering)] = &[
    // Atomics: the old value of `*p`, updated by the operation.
    ("atomicAdd", Atomic(AtomicOp::Add)),
    ("atomicSub", Atomic(AtomicOp::Sub)),
    ("atomicExch", Atomic(AtomicOp::Exch)),
    ("atomicMin", Atomic(AtomicOp::Min)),
    ("atomicMax", Atomic(AtomicOp::Max)),
    ("atomicInc", Atomic(AtomicOp::Inc)),
    ("atomicDec", Atomic(AtomicOp::Dec)),
    ("atomicCAS", Atomic(AtomicOp::Cas)),
    ("atomicAnd", Atomic(AtomicOp::And)),
    ("atomicOr", Atomic(AtomicOp::Or)),
    ("atomicXor", Atomic(AtomicOp::Xor)),
    // Synchronisation: `__syncthreads` is a barrier; fences, `__syncwarp` and `printf` are ignored.
    ("__syncthreads", Barrier),
    ("__syncwarp", Ignored),
    ("__threadfence", Ignored),
    ("__threadfence_block", Ignored),
    ("__threadfence_system", Ignored),
    ("printf", Ignored),
    // Integer helpers (on floats: uninterpreted).
    (
        "min",
        Int(IntFn {
            build: min,
            float: Some("fminf"),
        }),
    ),
    (
        "max",
        Int(IntFn {
            build: max,
            float: Some("fmaxf"),
        }),
    ),
    (
        "abs",
        Int(IntFn {
            build: abs,
            float: None,
        }),
    ),
    (
        "llabs",
        Int(IntFn {
            build: abs,
            float: None,
        }),
    ),
    (
        "__mul24",
        Int(IntFn {
            build: mul24,
            float: None,
        }),
    ),
    (
        "__umul24",
        Int(IntFn {
            build: mul24,
            float: None,
        }),
    ),
    // Float math: uninterpreted functions.
    ("sqrtf", Uninterpreted),
    ("expf", Uninterpreted),
    ("exp2f", Uninterpreted),
    ("logf", Uninterpreted),
    ("log2f", Uninterpreted),
    ("log10f", Uninterpreted),
    ("fabsf", Uninterpreted),
    ("sinf", Uninterpreted),
    ("cosf", Uninterpreted),
    ("tanf", Uninterpreted),
    ("floorf", Uninterpreted),
    ("ceilf", Uninterpreted),
    ("rsqrtf", Uninterpreted),
    ("truncf", Uninterpreted),
    ("roundf", Uninterpreted),
    ("__expf", Uninterpreted),
    ("__logf", Uninterpreted),
    ("__sinf", Uninterpreted),
    ("__cosf", Uninterpreted),
    ("tanhf", Uninterpreted),
    ("atanf", Uninterpreted),
    ("asinf", Uninterpreted),
    ("acosf", Uninterpreted),
    ("__saturatef", Uninterpreted),
    ("sqrt", Uninterpreted),
    ("exp", Uninterpreted),
    ("log", Uninterpreted),
    ("fabs", Uninterpreted),
    ("sin", Uninterpreted),
    ("cos", Uninterpreted),
    ("floor", Uninterpreted),
    ("ceil", Uninterpreted),
    ("rsqrt", Uninterpreted),
    ("tanh", Uninterpreted),
    ("log2", Uninterpreted),
    ("exp2", Uninterpreted),
    ("trunc", Uninterpreted),
    ("round", Uninterpreted),
    ("fminf", Uninterpreted),
    ("fmaxf", Uninterpreted),
    ("powf", Uninterpreted),
    ("atan2f", Uninterpreted),
    ("fmodf", Uninterpreted),
    ("__fdividef", Uninterpreted),
    ("__fmul_rn", Uninterpreted),
    ("__fadd_rn", Uninterpreted),
    ("fmaf", Uninterpreted),
    ("fmin", Uninterpreted),
    ("fmax", Uninterpreted),
    ("pow", Uninterpreted),
    ("fma", Uninterpreted),
    ("fmod", Uninterpreted),
    ("atan2", Uninterpreted),
    ("__float2int_rn", Uninterpreted),
    ("__int2float_rn", Uninterpreted),
    ("__float_as_int", Uninterpreted),
    ("__int_as_float", Uninterpreted),
    // GPUVerify's annotations: conditions.
    ("__assert", Condition(Check::Assert)),
    ("__global_assert", Condition(Check::Assert)),
    ("__assume", Condition(Check::Assume)),
    ("__requires", Condition(Check::Precondition)),
    ("__global_requires", Condition(Check::Precondition)),
    ("__ensures", Condition(Check::Ensures)),
    ("__global_ensures", Condition(Check::Ensures)),
    ("__invariant", Condition(Check::Invariant)),
    ("__global_invariant", Condition(Check::Invariant)),
    ("__implies", Connective(implies)),
    // Every pointer parameter is already a distinct array in this model; function-wide
    // invariants are ignored. `__axiom(e)` is a prelude macro (a function the front end
    // assumes on entry to every kernel).
    ("__enabled", Enabled),
    ("__requires_fresh_array", True),
    ("__function_wide_invariant", Ignored),
    // GPUVerify's access logs: what this thread read, wrote or updated atomically in the
    // current barrier interval.
    ("__read", log(LogKind::Read, LogWhat::Occurred)),
    ("__write", log(LogKind::Write, LogWhat::Occurred)),
    ("__atomic", log(LogKind::Atomic, LogWhat::Occurred)),
    ("__no_read", log(LogKind::Read, LogWhat::None)),
    ("__no_write", log(LogKind::Write, LogWhat::None)),
    ("__read_implies", log(LogKind::Read, LogWhat::Implies)),
    ("__write_implies", log(LogKind::Write, LogWhat::Implies)),
    ("__read_offset_bytes", log(LogKind::Read, LogWhat::Offset)),
    ("__write_offset_bytes", log(LogKind::Write, LogWhat::Offset)),
    ("__ptr_offset_bytes", PtrOffset),
    // GPUVerify's inter-thread predicates.
    ("__other_int", TwoThread(other)),
    ("__other_bool", TwoThread(other)),
    ("__uniform_int", TwoThread(uniform)),
    ("__uniform_bool", TwoThread(uniform)),
    ("__distinct_int", TwoThread(distinct)),
    ("__distinct_bool", TwoThread(distinct)),
    ("__all", TwoThread(all)),
    ("__exclusive", TwoThread(exclusive)),
    ("__same_group", TwoThread(same_group)),
    ("__same_block", TwoThread(same_group)),
    (
        "__add_noovfl",
        Int(IntFn {
            build: add_noovfl,
            float: None,
        }),
    ),
    // GPUVerify's annotations that are not modelled: an error naming them.
    ("__ptr_base", Unmodelled),
    ("__return_val_int", ReturnValue),
    ("__return_val_bool", ReturnValue),
    ("__return_val_ptr", ReturnValue),
    ("__old_int", Unmodelled),
];
