//! Memory as byte maps: byte offsets and whether they are real addresses, loads and stores of
//! `width` bytes (little-endian), the values atomics write, and the record of every shared or
//! global access (`Access`) that race and bank queries are built from.
//!
//! Does not decide when a thread's view of shared memory is renewed (`pair/equality.rs`) nor build
//! queries (`races`).

use super::{Access, Encoder, MemKey, TState};
use crate::encode::AccessKind;
use crate::encode::terms::{and, app, atom, bvn, extend, mem_sort, not, sym, t, to_unsigned};
use crate::ir::{ArrayId, AtomicOp, BinOp, Expr, Space, Span, Ty};
use crate::solver::Sexp;
use num_bigint::{BigInt, BigUint};

impl Encoder<'_> {
    /// The byte offset `e` (BV64) and whether it is a real address: its pointer arithmetic
    /// (the `long long` additions and multiplications), done without wrapping in 128 bits,
    /// stays within ±2^47 bytes. Offsets outside that are out of any device's memory, and
    /// overflowing pointer arithmetic is undefined in C, so such accesses cannot race.
    pub(in crate::encode) fn offset(&mut self, e: &Expr, st: &mut TState, th: usize) -> (Sexp, Sexp) {
        let o = self.expr(e, st, th);
        let o = match e.ty() {
            Ty::Int { bits, signed } => extend(o, bits, 64, signed),
            _ => o,
        };
        let off = self.define(&format!("t{}.off", th + 1), Sexp::bv_sort(64), o);
        let wide = self.wide_offset(e, st, th);
        let valid = and(
            app(
                "bvsge",
                vec![
                    wide.clone(),
                    Sexp::bv(&to_unsigned(&-(BigInt::from(1u8) << 47u32), 128), 128),
                ],
            ),
            app("bvslt", vec![wide, Sexp::bv(&(BigUint::from(1u8) << 47), 128)]),
        );
        let valid = self.define(&format!("t{}.valid", th + 1), atom("Bool"), valid);
        (off, valid)
    }

    /// `e` in 128-bit arithmetic: 64-bit additions, subtractions and multiplications are
    /// redone without wrapping; anything else is taken at its value, extended by its
    /// signedness.
    pub(in crate::encode) fn wide_offset(&mut self, e: &Expr, st: &mut TState, th: usize) -> Sexp {
        match e {
            Expr::Binary {
                op: op @ (BinOp::Add | BinOp::Sub | BinOp::Mul),
                lhs,
                rhs,
                ty,
            } if ty.bits() == 64 => {
                let a = self.wide_offset(lhs, st, th);
                let b = self.wide_offset(rhs, st, th);
                let name = match op {
                    BinOp::Add => "bvadd",
                    BinOp::Sub => "bvsub",
                    _ => "bvmul",
                };
                app(name, vec![a, b])
            }
            _ => {
                let v = self.expr(e, st, th);
                match e.ty() {
                    Ty::Int { bits, signed } => extend(v, bits, 128, signed),
                    _ => extend(v, e.ty().bits(), 128, false),
                }
            }
        }
    }

    /// The `width` bytes of `mem` at `off`, concatenated little-endian.
    pub(in crate::encode) fn load_bytes(mem: &Sexp, off: &Sexp, width: u32) -> Sexp {
        Self::bytes_at(off, width, |addr| app("select", vec![mem.clone(), addr]))
    }

    /// The `width` bytes from `off`, each `byte(its address)` (BV8), concatenated little-endian.
    pub(in crate::encode) fn bytes_at(off: &Sexp, width: u32, mut byte: impl FnMut(Sexp) -> Sexp) -> Sexp {
        let bytes: Vec<Sexp> = (0..width)
            .rev()
            .map(|i| {
                let addr = if i == 0 {
                    off.clone()
                } else {
                    app("bvadd", vec![off.clone(), bvn(i as u64, 64)])
                };
                byte(addr)
            })
            .collect();
        bytes
            .into_iter()
            .reduce(|hi, lo| app("concat", vec![hi, lo]))
            .unwrap_or_else(|| bvn(0, 8))
    }

    /// `mem` with the `width` bytes of `value` stored at `off`, little-endian.
    pub(in crate::encode) fn store_bytes(mem: Sexp, off: &Sexp, value: &Sexp, width: u32) -> Sexp {
        let mut m = mem;
        for i in 0..width {
            let addr = if i == 0 {
                off.clone()
            } else {
                app("bvadd", vec![off.clone(), bvn(i as u64, 64)])
            };
            let byte = Sexp::list(vec![
                app(
                    "_",
                    vec![
                        atom("extract"),
                        atom((8 * i + 7).to_string()),
                        atom((8 * i).to_string()),
                    ],
                ),
                value.clone(),
            ]);
            m = app("store", vec![m, addr, byte]);
        }
        m
    }

    /// The bits stored for a value of type `ty` (a `bool` is one byte 0 or 1).
    pub(in crate::encode) fn encode_stored(v: Sexp, ty: Ty) -> Sexp {
        match ty {
            Ty::Bool => app("ite", vec![v, bvn(1, 8), bvn(0, 8)]),
            _ => v,
        }
    }

    /// The value of type `ty` from the bits loaded (a `bool` is any non-zero byte).
    pub(in crate::encode) fn decode_loaded(v: Sexp, ty: Ty) -> Sexp {
        match ty {
            Ty::Bool => not(app("=", vec![v, bvn(0, 8)])),
            _ => v,
        }
    }

    /// Records an access to a shared or global array (accesses to local and constant arrays
    /// cannot race and are not recorded). `grid`, `warp`: each thread's grid- and warp-barrier count.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::encode) fn record(
        &mut self,
        array: ArrayId,
        span: &Span,
        kind: AccessKind,
        width: u32,
        per: Vec<(Sexp, Sexp, Sexp)>,
        grid: Vec<Sexp>,
        warp: Vec<Sexp>,
        valid: Vec<Sexp>,
    ) {
        let space = self.k.array(array).space;
        if matches!(space, Space::Local | Space::Constant) {
            return;
        }
        let abstracted = self.abstractions.len();
        self.accesses.push(Access {
            abstracted,
            clobber: false,
            atomic: None,
            array,
            span: span.clone(),
            kind,
            width,
            segment: self.segment,
            per_thread: per,
            grid,
            warp,
            valid,
            written: Vec::new(),
            sync: Default::default(),
            copy: self.copies.open.as_ref().map(|(site, _)| *site),
        });
    }

    /// The key of `array`'s serialized memory for thread `ts`: its block's for a `__shared__`
    /// array, block 0 otherwise.
    pub(in crate::encode) fn mem_key(&self, ts: &TState, array: ArrayId) -> MemKey {
        match self.k.array(array).space {
            Space::Shared => (array, ts.block),
            _ => (array, 0),
        }
    }

    /// The current memory of `array` as thread `ts` sees it.
    pub(in crate::encode) fn mem_get(&self, ts: &TState, array: ArrayId) -> Sexp {
        match self.global.get(&self.mem_key(ts, array)) {
            Some(m) => m.clone(),
            None => ts.mem[&array].clone(),
        }
    }

    /// Makes `m` the current memory of `array` as thread `ts` sees it (its serialized memory
    /// when it has one, [`Self::mem_get`]).
    pub(in crate::encode) fn mem_set(&mut self, ts: &mut TState, array: ArrayId, m: Sexp) {
        let key = self.mem_key(ts, array);
        match self.global.get_mut(&key) {
            Some(g) => *g = m,
            None => {
                ts.mem.insert(array, m);
            }
        }
    }

    /// Writes `bits` (`width` bytes) at `off` into `array` under the thread's path condition.
    pub(in crate::encode) fn store(
        &mut self,
        ts: &mut TState,
        th: usize,
        array: ArrayId,
        off: &Sexp,
        bits: &Sexp,
        width: u32,
    ) {
        if self.overlay_store(ts, array, off, bits, width) {
            return;
        }
        let mem = self.mem_get(ts, array);
        let stored = Self::store_bytes(mem.clone(), off, bits, width);
        let guarded = if ts.pc == t() {
            stored
        } else {
            app("ite", vec![ts.pc.clone(), stored, mem])
        };
        let name = format!("t{}.mem.{}", th + 1, sym(&self.k.array(array).name));
        let m = self.define(&name, mem_sort(), guarded);
        self.mem_set(ts, array, m);
    }

    /// The value an atomic writes, from the old value and its operands (CUDA semantics).
    pub(in crate::encode) fn atomic_value(&mut self, op: AtomicOp, old: Sexp, ops: &[Sexp], ty: Ty) -> Sexp {
        let v = ops.first().cloned().unwrap_or_else(|| old.clone());
        let w = ty.bits();
        if let AtomicOp::Fp16Add(kind) = op {
            self.has_opaque_float = true;
            let name = self.uf(&format!("atomicAdd.{kind}"), &[ty, ty], ty);
            return app(&name, vec![old, v]);
        }
        if let Ty::Float { bits } = ty {
            let ieee = match op {
                AtomicOp::Add => "fadd",
                AtomicOp::Sub => "fsub",
                AtomicOp::Min => "fminf",
                AtomicOp::Max => "fmaxf",
                AtomicOp::Exch => return v,
                _ => "",
            };
            if self.concrete.float_ieee
                && !ieee.is_empty()
                && let Some(x) = self.ieee_opaque(&format!("{ieee}{bits}"), &[old.clone(), v.clone()], &[ty, ty], ty)
            {
                return x;
            }
            self.has_opaque_float = true;
            let name = self.uf(&format!("atomic{op:?}"), &[ty, ty], ty);
            return app(&name, vec![old, v]);
        }
        let signed = ty.is_signed();
        let pick = |c: &str, a: Sexp, b: Sexp| app("ite", vec![app(c, vec![a.clone(), b.clone()]), a, b]);
        match op {
            AtomicOp::Add => app("bvadd", vec![old, v]),
            AtomicOp::Sub => app("bvsub", vec![old, v]),
            AtomicOp::Exch => v,
            AtomicOp::Min => pick(if signed { "bvslt" } else { "bvult" }, old, v),
            AtomicOp::Max => pick(if signed { "bvsgt" } else { "bvugt" }, old, v),
            AtomicOp::Inc => app(
                "ite",
                vec![
                    app("bvuge", vec![old.clone(), v]),
                    bvn(0, w),
                    app("bvadd", vec![old, bvn(1, w)]),
                ],
            ),
            AtomicOp::Dec => app(
                "ite",
                vec![
                    app(
                        "or",
                        vec![
                            app("=", vec![old.clone(), bvn(0, w)]),
                            app("bvugt", vec![old.clone(), v.clone()]),
                        ],
                    ),
                    v,
                    app("bvsub", vec![old, bvn(1, w)]),
                ],
            ),
            AtomicOp::Cas => {
                let new = ops.get(1).cloned().unwrap_or_else(|| old.clone());
                app("ite", vec![app("=", vec![old.clone(), v]), new, old])
            }
            AtomicOp::And => app("bvand", vec![old, v]),
            AtomicOp::Or => app("bvor", vec![old, v]),
            AtomicOp::Xor => app("bvxor", vec![old, v]),
            AtomicOp::Fp16Add(_) => unreachable!("handled above"),
        }
    }
}
