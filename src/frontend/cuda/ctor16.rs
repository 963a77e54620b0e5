//! Constructor calls that [`crate::frontend::lower::ctor`] leaves (CUDA's own records, named with `__`: the
//! 16-bit float types `__nv_bfloat16(f)`, `__nv_bfloat162(a, b)`): a constructor
//! with a body is inlined as a method whose object (`this`) is a fresh local: its member
//! initializers (`: x(a), y(b)`) first, in order, then its body; the call's value is the object
//! read back.
//!
//! A constructor without a body (an implicit copy or move, `= default`) is no call: a
//! one-argument one copies its argument and a default one leaves the object as it is
//! (`expr.rs`, `decl.rs`). So are the copy and move constructors of CUDA's 16-bit float types
//! ([`is_fp16_record`]), which CUDA 11's headers write as a store through
//! `reinterpret_cast<unsigned int *>(this)` and which copy the bits (CUDA 12 defaults them);
//! their assignment operators likewise (`place.rs`). Their conversions from and to a record of
//! the same scalars (`__nv_bfloat162(const __nv_bfloat162_raw &)`, `operator __half_raw()`,
//! punned the same way) are bit copies ([`Lower::bit_copy`]). A member initializer that clang fills from the field's default
//! (`CXXDefaultInitExpr`) leaves the field unconstrained (an over-approximation); one of a base
//! class is an error.

use crate::frontend::ast::Node;
use crate::frontend::lower::ctor::is_copy;
use crate::frontend::lower::place::place_of;
use crate::frontend::lower::{Lower, R, Val, unsupported};
use crate::frontend::types::{CType, is_fp16_record};
use crate::ir::*;

impl Lower<'_, '_> {
    /// The value of the constructor call `n` (a `CXXConstructExpr`) with the argument nodes
    /// `args`, when its constructor has a body; `None` when it has none.
    ///
    /// Errors: a recursive constructor, a call whose arguments do not match its parameters, and
    /// what inlining the constructor meets.
    pub(in crate::frontend) fn construct_call(
        &mut self,
        n: &Node,
        args: &[&Node],
        out: &mut Vec<Stmt>,
    ) -> R<Option<Val>> {
        let cty = self.ctype(n);
        let (CType::Record(r), Some(t)) = (&cty, n.ctor_type.as_ref()) else {
            return Ok(None);
        };
        let Some(def) = self.g.ctors.get(&(r.clone(), t.qual_type.clone())).copied() else {
            return Ok(None);
        };
        if is_fp16_record(r) && is_copy(&self.g.types, def, r) {
            return Ok(None);
        }
        if let ([a], Some(from)) = (args, self.bit_source(def, r)) {
            let v = self.rvalue(a, out)?;
            return self.bit_copy(v, &from, &cty, &self.span(n)).map(Some);
        }
        let span = self.span(n);
        let name = def.name.clone().unwrap_or_default();
        if self.frames.iter().any(|f| f.func_id == def.id) {
            return unsupported(span, format!("recursive call to the constructor `{name}`"));
        }
        let params: Vec<&Node> = def.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
        if params.len() != args.len() {
            return unsupported(
                span,
                format!(
                    "call to the constructor `{name}` with {} arguments for {} parameters",
                    args.len(),
                    params.len()
                ),
            );
        }
        let mut vals = Vec::new();
        for (a, p) in args.iter().zip(&params) {
            let pty = self.ctype(p);
            vals.push(self.arg(a, &pty, out)?);
        }
        self.temps += 1;
        let obj = format!("$obj{}", self.temps - 1);
        let place = place_of(self.local_binding(&obj, &cty, "", &span)?);
        self.inline_call(
            def,
            &name,
            params,
            vals,
            Some(place.clone()),
            Default::default(),
            &span,
            out,
        )?;
        Ok(Some(self.read(place, n, out)?))
    }
}

impl Lower<'_, '_> {
    /// For a constructor or `operator=` `f` of one of CUDA's 16-bit float types `r` whose one
    /// parameter is a reference to another record of the same scalars (its `_raw` form): that
    /// record's name.
    pub(in crate::frontend) fn bit_source(&self, f: &Node, r: &str) -> Option<String> {
        if !is_fp16_record(r) {
            return None;
        }
        let params: Vec<&Node> = f.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
        let [p] = params.as_slice() else {
            return None;
        };
        let CType::Ref(to) = self.g.types.parse(p.type_str()) else {
            return None;
        };
        match &*to {
            CType::Record(x) if x != r && self.same_scalars(x, r) => Some(x.clone()),
            _ => None,
        }
    }

    /// Whether the records `a` and `b` hold the same scalar types at the same offsets.
    pub(in crate::frontend) fn same_scalars(&self, a: &str, b: &str) -> bool {
        let flat = |r: &str| {
            let mut out = Vec::new();
            self.scalar_layout(&CType::Record(r.to_string()), 0, &mut out)
                .then_some(out)
        };
        matches!((flat(a), flat(b)), (Some(x), Some(y)) if x == y)
    }

    /// Appends the (byte offset, type) of each scalar of `t` at `base`; false for a type with a
    /// pointer, an array or an unknown layout.
    fn scalar_layout(&self, t: &CType, base: u64, out: &mut Vec<(u64, Ty)>) -> bool {
        match t {
            CType::Scalar(ty) => {
                out.push((base, *ty));
                true
            }
            CType::Record(r) => match self.g.types.fields(r) {
                Some(fs) => fs.iter().all(|(_, o, ft)| self.scalar_layout(ft, base + o, out)),
                None => false,
            },
            _ => false,
        }
    }

    /// The value `v` of the record type `from` as a value of the record type `to` of the same
    /// scalars ([`Lower::same_scalars`]): its scalars in order, regrouped.
    ///
    /// Errors: `v` is not a struct of those scalars.
    pub(in crate::frontend) fn bit_copy(&self, v: Val, from: &str, to: &CType, span: &Span) -> R<Val> {
        fn flatten(v: Val, out: &mut Vec<Expr>) -> bool {
            match v {
                Val::Scalar(e) => {
                    out.push(e);
                    true
                }
                Val::Struct(fs) => fs.into_iter().all(|(_, f)| flatten(f, out)),
                _ => false,
            }
        }
        let mut scalars = Vec::new();
        if !flatten(v, &mut scalars) {
            return unsupported(
                span.clone(),
                format!("conversion of `{from}` that is not a struct value"),
            );
        }
        let mut it = scalars.into_iter();
        match self.regroup(to, &mut it) {
            Some(v) if it.next().is_none() => Ok(v),
            _ => unsupported(
                span.clone(),
                format!("conversion of `{from}` to `{}` of other scalars", to.describe()),
            ),
        }
    }

    /// A value of type `t` from the scalars `it` in order.
    fn regroup(&self, t: &CType, it: &mut std::vec::IntoIter<Expr>) -> Option<Val> {
        match t {
            CType::Scalar(ty) => it.next().filter(|e| e.ty() == *ty).map(Val::Scalar),
            CType::Record(r) => {
                let mut vs = Vec::new();
                for (f, _, ft) in self.g.types.fields(r)? {
                    vs.push((f, self.regroup(&ft, it)?));
                }
                Some(Val::Struct(vs))
            }
            _ => None,
        }
    }
}
