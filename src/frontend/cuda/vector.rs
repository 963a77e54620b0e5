//! CUDA's vector types (`char1` … `double4`, `uint3`, `dim3`) as values: `make_*`
//! constructors, `dim3`'s constructor, and `threadIdx`/`blockDim`… converted to `uint3`/`dim3`.
//!
//! A vector is a plain struct of scalars (from the prelude's stubs or NVIDIA's
//! `vector_types.h`): fields, copies, loads and stores are those of any struct
//! (`place.rs`), byte-accurate through the record layout of [`crate::frontend::types`]. This
//! file only gives meaning, by name, to what the headers declare without a body gpug reads.

use crate::frontend::ast::Node;
use crate::frontend::cuda::builtin_from;
use crate::frontend::lower::{Lower, R, Val, unsupported};
use crate::frontend::types::CType;
use crate::ir::build::cast;
use crate::ir::*;

impl Lower<'_, '_> {
    /// `make_float4(x, y, z, w)` and its siblings, a call `n`: the struct of the call's type with
    /// the arguments as its fields, in order. `None`, with nothing evaluated, when the call is
    /// not of that shape (not one scalar per field: another overload, such as
    /// `make_float4(float3, float)` of the CUDA samples' `helper_math.h`).
    pub(in crate::frontend) fn make_vector(&mut self, n: &Node, args: &[&Node], out: &mut Vec<Stmt>) -> R<Option<Val>> {
        let fields = match self.ctype(n) {
            CType::Record(r) => self.g.types.records.get(&r).cloned(),
            _ => None,
        };
        let Some(fields) = fields.filter(|f| {
            f.len() == args.len()
                && f.iter().all(|(_, ft)| ft.scalar().is_some())
                && args.iter().all(|a| matches!(self.ctype(a), CType::Scalar(_)))
        }) else {
            return Ok(None);
        };
        let mut vs = Vec::new();
        for ((f, ft), a) in fields.into_iter().zip(args) {
            let v = self.rvalue(a, out)?;
            let e = self.expect_scalar(v, a)?;
            let ty = ft.scalar().unwrap_or(e.ty());
            vs.push((f, Val::Scalar(cast(e, ty))));
        }
        Ok(Some(Val::Struct(vs)))
    }

    /// A constructor call with several arguments, `e` (a `CXXConstructExpr`): `dim3(x, y, z)`,
    /// whose omitted arguments are 1 (as in `vector_types.h`). Any other constructor is an
    /// error.
    pub(in crate::frontend) fn construct(&mut self, e: &Node, args: &[&Node], out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(e);
        let cty = self.ctype(e);
        let is_dim3 = matches!(&cty, CType::Record(r) if r == "dim3");
        let fields = self.g.types.records.get("dim3").cloned().unwrap_or_default();
        if !is_dim3 || args.len() > fields.len() {
            return unsupported(span, "constructor call with arguments");
        }
        let mut vs = Vec::new();
        for (i, (f, ft)) in fields.into_iter().enumerate() {
            let Some(ty) = ft.scalar() else {
                return unsupported(span, format!("`dim3` field `{f}` that is not a scalar"));
            };
            let e = match args.get(i) {
                Some(a) if a.kind != "CXXDefaultArgExpr" => {
                    let v = self.rvalue(a, out)?;
                    cast(self.expect_scalar(v, a)?, ty)
                }
                _ => Expr::int(1, ty),
            };
            vs.push((f, Val::Scalar(e)));
        }
        Ok(Val::Struct(vs))
    }

    /// `threadIdx`, `blockIdx`, `blockDim` or `gridDim` (`var`) as a `uint3`/`dim3` value (its
    /// conversion operators).
    pub(in crate::frontend) fn builtin_vector(&self, var: &str, span: &Span) -> R<Val> {
        let mut vs = Vec::new();
        for f in ["x", "y", "z"] {
            let Some(b) = builtin_from(var, f) else {
                return unsupported(span.clone(), format!("`{var}` as a value"));
            };
            vs.push((f.to_string(), Val::Scalar(Expr::Builtin(b))));
        }
        Ok(Val::Struct(vs))
    }
}
