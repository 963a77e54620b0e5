//! The concrete model's own state in the engine ([`ConcreteState`]): the threads' coordinates,
//! the memory overlay, the schedule's events, what each assertion read. Types only: the
//! engine holds one, the files beside this one (`overlay`, `schedule`, `reads`) fill it in.

use crate::encode::AccessKind;
use crate::ir::{ArrayId, Expr, Span, Ty};
use crate::solver::Sexp;
use std::collections::BTreeMap;

/// The concrete model's part of the engine's state (empty in the other models).
#[derive(Default)]
pub(in crate::encode) struct ConcreteState {
    /// Encode float operations in SMT-LIB's FloatingPoint theory.
    pub(in crate::encode) float_ieee: bool,
    /// Each thread's (blockIdx, threadIdx).
    pub(in crate::encode) pinned: Vec<([u64; 3], [u64; 3])>,
    /// Bytes written at literal offsets, on top of the engine's `global` (`overlay`), by the
    /// engine's `MemKey` (array, block).
    pub(in crate::encode) overlay: BTreeMap<(ArrayId, usize), BTreeMap<u128, (u32, Sexp)>>,
    /// Each thread's 0-based block (block-major); empty in the other models, whose threads all
    /// keep block 0 in the engine's `MemKey`s.
    pub(in crate::encode) thread_blocks: Vec<usize>,
    /// With schedule IDs (`schedule`): shared and global accesses become events of the
    /// timeline instead of reading and writing the engine's `global`.
    pub(in crate::encode) schedule: Option<Timeline>,
    /// The timeline once `finish_schedule` has built its constraints.
    pub(in crate::encode) timeline: Option<Timeline>,
    /// Per assertion check, what its condition read (for the witness).
    pub(in crate::encode) assert_info: Vec<AssertInfo>,
}

/// One shared or global access of one thread (an atomic is one event).
#[derive(Clone, Debug)]
pub struct Event {
    /// 0-based thread of the launch (block-major, x fastest).
    pub thread: usize,
    pub array: ArrayId,
    /// Which of the array's memories the access uses: the thread's 0-based block for a
    /// `__shared__` array (each block has its own), 0 otherwise.
    pub block: usize,
    /// Byte offset (BV64).
    pub off: Sexp,
    /// The access type (its width is `ty.bytes()`).
    pub ty: Ty,
    /// Path condition: whether the access happens.
    pub pc: Sexp,
    /// Barriers the thread has passed before the access (BV32).
    pub bc: Sexp,
    pub kind: AccessKind,
    /// The bytes read (a fresh BV of `8 * width` bits), for reads and atomics.
    pub read: Option<Sexp>,
    /// The bytes written, for writes and atomics.
    pub write: Option<Sexp>,
    pub span: Span,
    /// The SID variable.
    pub sid: Sexp,
}

/// The events of a concrete encoding with schedule IDs, in encoding order.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    pub events: Vec<Event>,
    /// Width of SIDs in bits (set by `finish_schedule`).
    pub sid_bits: u32,
}

/// What an assertion's condition read, per thread (the witness's "values it read").
#[derive(Clone, Debug)]
pub struct AssertInfo {
    pub cond: Expr,
    /// Per thread: the variables of the condition with their terms.
    pub reads: Vec<Vec<ReadTerm>>,
}

/// A variable of an assertion's condition: a source variable, or a temporary loaded from an
/// array at a byte offset (BV64).
#[derive(Clone, Debug)]
pub struct ReadTerm {
    pub name: String,
    pub origin: Option<(ArrayId, Sexp)>,
    pub ty: Ty,
    pub value: Sexp,
}
