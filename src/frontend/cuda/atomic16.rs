//! `atomicAdd` on CUDA's 16-bit floats: `__half`, `__half2`, `__nv_bfloat16` and
//! `__nv_bfloat162` (`cuda_fp16.hpp`, `cuda_bf16.hpp`). The headers write them as inline asm
//! with a `"memory"` clobber (`atom.add.noftz.f16x2`), which the asm reader refuses; their
//! meaning is CUDA's ("Atomic Functions": an atomic read-modify-write of the 2 or 4 bytes at the
//! address, returning the old value). So each is an [`StmtKind::Atomic`] of device scope on the
//! record's bits ([`AtomicOp::Fp16Add`]: the new bits an uninterpreted function of the old
//! ones and the operand's), and its value is the old bits read back as the record.
//!
//! Reached only for the toolkit's declaration of `atomicAdd` (the table's, by declaration: a
//! program's own `atomicAdd` overload is lowered from its body).

use crate::frontend::ast::Node;
use crate::frontend::lower::{CallSite, Lower, PtrVal, R, Val, unsupported};
use crate::frontend::types::{CType, is_fp16_record};
use crate::ir::build::{bin, cast};
use crate::ir::*;

impl Lower<'_, '_> {
    /// The record a call's first argument points to, when it is one of CUDA's 16-bit float
    /// types (`atomicAdd(__half2 *, __half2)`).
    pub(in crate::frontend) fn fp16_atomic_target(&self, args: &[&Node]) -> Option<String> {
        match self.ctype(args.first()?) {
            CType::Ptr(t) => match *t {
                CType::Record(r) => {
                    // The typedefs `half`, `half2`, `nv_bfloat16`, `nv_bfloat162`.
                    let r = if r.starts_with("__") { r } else { format!("__{r}") };
                    is_fp16_record(&r).then_some(r)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `atomicAdd(p, v)` with `p` a pointer to the 16-bit float record `record` (see the
    /// module docs); `scope` is the table's.
    ///
    /// Errors: a call without two arguments, a record of unexpected size, a pointer that is
    /// not into one array.
    pub(in crate::frontend) fn fp16_atomic(
        &mut self,
        call: &CallSite,
        record: &str,
        scope: AtomicScope,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let [p, v] = args else {
            return unsupported(span.clone(), format!("`{name}` on `{record}` without two arguments"));
        };
        let rty = CType::Record(record.to_string());
        let bits = match self.size_of(&rty, span)? {
            2 => 16,
            4 => 32,
            n => return unsupported(span.clone(), format!("`{name}` on `{record}` of {n} bytes")),
        };
        let ty = Ty::Int { bits, signed: false };
        let pv = match self.rvalue(p, out)? {
            Val::Ptr(pv) => pv,
            _ => {
                return unsupported(
                    span.clone(),
                    format!("`{name}` on `{record}` through a pointer into several arrays"),
                );
            }
        };
        let val = self.rvalue(v, out)?;
        let operand = self.record_bits(&rty, val, span)?;
        let kind = match record.trim_start_matches("__") {
            "nv_bfloat16" | "nv_bfloat16_raw" => "bf16",
            "nv_bfloat162" | "nv_bfloat162_raw" => "bf162",
            "half2" | "half2_raw" => "half2",
            _ => "half",
        };
        let t = self.temp(ty);
        self.atomic_on(
            Val::Ptr(PtrVal {
                pointee: CType::Scalar(ty),
                ..pv
            }),
            ((AtomicOp::Fp16Add(kind), scope), name, ty, t),
            &[cast(operand, ty)],
            span,
            out,
        )?;
        self.record_of_bits(&rty, Expr::Var { id: t, ty }, 0, span)
    }

    /// The bits of the value `v` of the record type `cty` (its fields' bits, the first field
    /// lowest: little-endian), as an unsigned integer of the record's size.
    fn record_bits(&self, cty: &CType, v: Val, span: &Span) -> R<Expr> {
        let bits = 8 * self.size_of(cty, span)? as u32;
        let ty = Ty::Int { bits, signed: false };
        match (cty, v) {
            (CType::Scalar(_), Val::Scalar(e)) => Ok(cast(bitcast_int(e), ty)),
            (CType::Record(r), Val::Struct(vals)) => {
                let Some(fields) = self.g.types.fields(r) else {
                    return unsupported(span.clone(), format!("the bits of `{r}`"));
                };
                let mut acc = Expr::int(0, ty);
                for (f, off, fty) in fields {
                    let Some((_, fv)) = vals.iter().find(|(n, _)| *n == f) else {
                        return unsupported(span.clone(), format!("the bits of `{r}` without its field `{f}`"));
                    };
                    let fb = cast(self.record_bits(&fty, fv.clone(), span)?, ty);
                    let shifted = bin(BinOp::Shl, fb, Expr::int(8 * off, ty), ty);
                    acc = bin(BinOp::BitOr, acc, shifted, ty);
                }
                Ok(acc)
            }
            _ => unsupported(span.clone(), "the bits of a 16-bit float value"),
        }
    }

    /// The value of the record type `cty` whose bits are `bits` from bit `8 * base` on (the
    /// inverse of [`Lower::record_bits`]).
    fn record_of_bits(&self, cty: &CType, bits: Expr, base: u64, span: &Span) -> R<Val> {
        let wide = bits.ty();
        match cty {
            CType::Scalar(t @ Ty::Int { .. }) => {
                let shifted = bin(BinOp::Shr, bits, Expr::int(8 * base, wide), wide);
                Ok(Val::Scalar(cast(shifted, *t)))
            }
            CType::Record(r) => {
                let Some(fields) = self.g.types.fields(r) else {
                    return unsupported(span.clone(), format!("the fields of `{r}`"));
                };
                let mut vals = Vec::new();
                for (f, off, fty) in fields {
                    vals.push((f, self.record_of_bits(&fty, bits.clone(), base + off, span)?));
                }
                Ok(Val::Struct(vals))
            }
            _ => unsupported(span.clone(), "a 16-bit float value from bits"),
        }
    }
}

/// An integer's own value; a float's bits as an unsigned integer of its width.
fn bitcast_int(e: Expr) -> Expr {
    match e.ty() {
        Ty::Float { bits } => Expr::Opaque {
            name: format!("bitcast{bits}"),
            args: vec![e],
            ty: Ty::Int { bits, signed: false },
        },
        _ => e,
    }
}
