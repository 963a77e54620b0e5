//! OpenCL's vector types (clang's `ext_vector_type`: `int4`, `float2`, `uchar16`, …; OpenCL 1.2
//! sections 6.1.2, 6.1.6, 6.1.7) as values: component access and swizzles (`v.x`, `v.s3`,
//! `v.hi`, `v.zyx`), vector literals (`(int4)(1, 2, 3, 4)`, `(float4)(v.xy, 0, 1)`, `(int4)(7)`),
//! a scalar converted to a vector (splat), and the operators, component by component.
//!
//! A vector is a record of scalar components `s0`, `s1`, … ([`crate::frontend::types::
//! opencl_vector_records`]): loads, stores and copies are those of any struct (`place.rs`),
//! byte-accurate through its layout (a 3-component vector takes 4 components' room).

use crate::frontend::ast::Node;
use crate::frontend::lower::{CallSite, LVal, Lower, R, Val, unsupported};
use crate::frontend::types::{CType, ext_vector_of};
use crate::ir::build::cast;
use crate::ir::*;

/// The components an accessor names on a vector of `n` components, in order: `x`, `y`, `z`,
/// `w` (and `r`, `g`, `b`, `a`); `s` (or `S`) and hexadecimal digits; `lo`, `hi`, `even`, `odd`
/// (halves of a 3-component vector as of a 4-component one). `None` for anything else, or a
/// component past the vector's.
pub(in crate::frontend) fn components(acc: &str, n: usize) -> Option<Vec<usize>> {
    let m = if n == 3 { 4 } else { n };
    let idx: Vec<usize> = match acc {
        "lo" => (0..m / 2).collect(),
        "hi" => (m / 2..m).collect(),
        "even" => (0..m).step_by(2).collect(),
        "odd" => (1..m).step_by(2).collect(),
        _ if acc.len() > 1 && (acc.starts_with('s') || acc.starts_with('S')) => acc[1..]
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as usize))
            .collect::<Option<_>>()?,
        _ => acc
            .chars()
            .map(|c| "xyzw".find(c).or_else(|| "rgba".find(c)))
            .collect::<Option<_>>()?,
    };
    (!idx.is_empty() && idx.iter().all(|&i| i < n)).then_some(idx)
}

/// The component name of index `i`.
fn comp(i: usize) -> String {
    format!("s{i}")
}

impl Lower<'_, '_> {
    /// The component type and count of `cty` when it is an OpenCL vector.
    pub(in crate::frontend) fn vector_type(&self, cty: &CType) -> Option<(Ty, usize)> {
        match cty {
            CType::Record(r) => ext_vector_of(r),
            _ => None,
        }
    }

    /// The base of the access `n` (`v` of `v.xy`), its component count, and the components `n`
    /// names.
    fn accessed<'n>(&self, n: &'n Node) -> R<(&'n Node, Vec<usize>)> {
        let span = self.span(n);
        let Some(base) = n.inner.first() else {
            return unsupported(span, "malformed vector component access");
        };
        let count = self.vector_type(&self.ctype(base)).map(|(_, c)| c);
        let acc = n.name.as_deref().unwrap_or("");
        match count.and_then(|c| components(acc, c)) {
            Some(idx) => Ok((base, idx)),
            None => unsupported(span, format!("vector component access `.{acc}`")),
        }
    }

    /// The place of a one-component access `n` (`v.x = 1`, `p[i].s2 += 3`). Several
    /// components as a place (`v.xy = w`) are refused.
    pub(in crate::frontend) fn vector_element_place(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (base, idx) = self.accessed(n)?;
        let [i] = idx[..] else {
            return unsupported(span, "assignment to several vector components at once");
        };
        let lv = self.lvalue(base, out)?;
        self.member_of(lv, &comp(i), &span)
    }

    /// `n = v` for a component access `n` (`v.x = 1`, `v.xy = w.yx`): each component named
    /// gets its part of `v`, in order; the place of the base vector is the result (an
    /// assignment to several components is not itself used as a value in OpenCL code).
    pub(in crate::frontend) fn assign_components(&mut self, n: &Node, v: Val, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (base, idx) = self.accessed(n)?;
        let lv = self.lvalue(base, out)?;
        let parts = match (v, idx.len()) {
            (v @ Val::Scalar(_), 1) => vec![v],
            (Val::Struct(fs), k) if fs.len() == k => fs.into_iter().map(|(_, v)| v).collect(),
            _ => return unsupported(span, "assignment to vector components of a value of another length"),
        };
        for (i, part) in idx.into_iter().zip(parts) {
            let place = self.member_of(lv.clone(), &comp(i), &span)?;
            self.assign(&place, part, n, &span, out)?;
        }
        match n.inner.first() {
            Some(_) if self.vector_type(&self.ctype(n)).is_none() => {
                // One component: its own place.
                self.vector_element_place(n, out)
            }
            _ => Ok(lv),
        }
    }

    /// The value of a component access `n`: a scalar for one component, a vector of the
    /// components in order for several.
    pub(in crate::frontend) fn vector_element_value(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let (base, idx) = self.accessed(n)?;
        if let [i] = idx[..]
            && base.is_glvalue()
        {
            let lv = self.lvalue(base, out)?;
            let lv = self.member_of(lv, &comp(i), &span)?;
            return self.read(lv, n, out);
        }
        let Val::Struct(fields) = self.rvalue(base, out)? else {
            return unsupported(span, "vector component access on a non-vector value");
        };
        let pick = |i: usize| fields.get(i).map(|(_, v)| v.clone());
        match idx[..] {
            [i] => pick(i).ok_or_else(|| crate::frontend::FrontendError::Unsupported {
                span: span.clone(),
                what: "vector component out of range".into(),
            }),
            _ => {
                let mut vs = Vec::new();
                for (k, i) in idx.into_iter().enumerate() {
                    match pick(i) {
                        Some(v) => vs.push((comp(k), v)),
                        None => return unsupported(span, "vector component out of range"),
                    }
                }
                Ok(Val::Struct(vs))
            }
        }
    }

    /// A scalar converted to the vector type of the cast `n` (`VectorSplat`): every component
    /// the scalar, converted to the component type.
    pub(in crate::frontend) fn splat(&mut self, n: &Node, c: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some((ty, count)) = self.vector_type(&self.ctype(n)) else {
            return unsupported(span, "scalar converted to a non-vector type");
        };
        let v = self.rvalue(c, out)?;
        let e = cast(self.expect_scalar(v, c)?, ty);
        Ok(Val::Struct(
            (0..count).map(|i| (comp(i), Val::Scalar(e.clone()))).collect(),
        ))
    }

    /// A vector literal: the initializer list `n` of a vector type, its items scalars (one
    /// component each) or vectors (all their components, in order); one scalar alone fills
    /// every component (`(int4)(7)`).
    pub(in crate::frontend) fn vector_literal(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some((ty, count)) = self.vector_type(&self.ctype(n)) else {
            return unsupported(span, "initializer list of a non-vector type in an expression");
        };
        let mut comps = Vec::new();
        let items: Vec<&Node> = n.code_children().collect();
        for it in &items {
            match self.rvalue(it, out)? {
                Val::Scalar(e) => comps.push(cast(e, ty)),
                Val::Struct(fs) => {
                    for (_, v) in fs {
                        comps.push(cast(self.expect_scalar(v, it)?, ty));
                    }
                }
                _ => return unsupported(span, "vector literal item that is neither a scalar nor a vector"),
            }
        }
        if comps.len() == 1 && count > 1 {
            comps = vec![comps[0].clone(); count];
        }
        if comps.len() != count {
            return unsupported(
                span,
                format!("vector literal of {} components for a vector of {count}", comps.len()),
            );
        }
        Ok(Val::Struct(
            comps
                .into_iter()
                .enumerate()
                .map(|(i, e)| (comp(i), Val::Scalar(e)))
                .collect(),
        ))
    }

    /// The element `offset * k + i` of the array `p` points to, as a place (`vload`, `vstore`).
    fn packed_element(&mut self, p: &Val, offset: &Expr, k: usize, i: usize, at: &Node) -> R<LVal> {
        let idx = Expr::Binary {
            op: BinOp::Add,
            lhs: Box::new(Expr::Binary {
                op: BinOp::Mul,
                lhs: Box::new(cast(offset.clone(), Ty::I64)),
                rhs: Box::new(Expr::int(k as i64, Ty::I64)),
                ty: Ty::I64,
            }),
            rhs: Box::new(Expr::int(i as i64, Ty::I64)),
            ty: Ty::I64,
        };
        self.index(p.clone(), Some(idx), at)
    }

    /// `vloadK(offset, p)`, the call `n` to `name`: the vector of `p[offset * K + i]`.
    ///
    /// # Errors
    /// Arguments that are not an offset and a pointer; a call whose type is not a vector of `K`.
    pub(in crate::frontend) fn vload(&mut self, call: &CallSite, k: usize, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let ([off, p], Some((ty, count))) = (args, self.vector_type(&self.ctype(n))) else {
            return unsupported(span.clone(), format!("`{name}` with these arguments"));
        };
        if count != k {
            return unsupported(span.clone(), format!("`{name}` of a vector of {count} components"));
        }
        let ov = self.rvalue(off, out)?;
        let offset = self.expect_scalar(ov, off)?;
        let pv = self.rvalue(p, out)?;
        let mut comps = Vec::new();
        for i in 0..k {
            let place = self.packed_element(&pv, &offset, k, i, p)?;
            let v = self.read(place, p, out)?;
            comps.push((comp(i), Val::Scalar(cast(self.expect_scalar(v, p)?, ty))));
        }
        Ok(Val::Struct(comps))
    }

    /// `vstoreK(data, offset, p)`: `p[offset * K + i]` gets component `i` of `data`.
    ///
    /// # Errors
    /// Arguments that are not a vector of `K`, an offset and a pointer.
    pub(in crate::frontend) fn vstore(&mut self, call: &CallSite, k: usize, out: &mut Vec<Stmt>) -> R<Val> {
        let (_, name, args, span) = call.parts();
        let [data, off, p] = args else {
            return unsupported(span.clone(), format!("`{name}` with these arguments"));
        };
        let Val::Struct(fields) = self.rvalue(data, out)? else {
            return unsupported(span.clone(), format!("`{name}` of a value that is not a vector"));
        };
        if fields.len() != k {
            return unsupported(
                span.clone(),
                format!("`{name}` of a vector of {} components", fields.len()),
            );
        }
        let ov = self.rvalue(off, out)?;
        let offset = self.expect_scalar(ov, off)?;
        let pv = self.rvalue(p, out)?;
        for (i, (_, v)) in fields.into_iter().enumerate() {
            let place = self.packed_element(&pv, &offset, k, i, p)?;
            self.assign(&place, v, p, span, out)?;
        }
        Ok(Val::Void)
    }

    /// OpenCL's `as_float(x)` and friends (`AsTypeExpr` `n`, OpenCL 1.2 section 6.2.4.2): the
    /// same bits as another scalar type of the same size (between floats and integers an
    /// uninterpreted bit cast, as clang's `BitCast`).
    ///
    /// # Errors
    /// Between vectors or types of different sizes.
    pub(in crate::frontend) fn as_type(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let span = self.span(n);
        let Some(c) = n.code_children().next() else {
            return unsupported(span, "empty `as_type`");
        };
        let v = self.rvalue(c, out)?;
        match (v, self.ctype(n)) {
            (Val::Scalar(e), CType::Scalar(t)) if e.ty() == t => Ok(Val::Scalar(e)),
            (Val::Scalar(e), CType::Scalar(t)) if e.ty().bits() == t.bits() => match (e.ty(), t) {
                (Ty::Int { .. }, Ty::Int { .. }) => Ok(Val::Scalar(cast(e, t))),
                _ => Ok(Val::Scalar(Expr::Opaque {
                    name: format!("bitcast{}", t.bits()),
                    args: vec![e],
                    ty: t,
                })),
            },
            _ => unsupported(span, "`as_type` between vectors or of another size"),
        }
    }

    /// `a op b` on two vectors of the operator `n`'s type, component by component (OpenCL 1.2
    /// section 6.3): a comparison gives -1 (all bits set) for true and 0 for false in each
    /// component of its integer vector.
    pub(in crate::frontend) fn vector_binop(
        &mut self,
        n: &Node,
        op: &str,
        a: Vec<(String, Val)>,
        b: Vec<(String, Val)>,
    ) -> R<Val> {
        let span = self.span(n);
        let Some((ty, count)) = self.vector_type(&self.ctype(n)) else {
            return unsupported(span, format!("operator `{op}` on non-scalars"));
        };
        if a.len() != count || b.len() != count {
            return unsupported(span, format!("operator `{op}` on vectors of different lengths"));
        }
        let cmp = matches!(op, "<" | ">" | "<=" | ">=" | "==" | "!=");
        let mut out = Vec::new();
        for (i, ((_, x), (_, y))) in a.into_iter().zip(b).enumerate() {
            let (Val::Scalar(x), Val::Scalar(y)) = (x, y) else {
                return unsupported(span, format!("operator `{op}` on vectors of non-scalars"));
            };
            let e = if cmp {
                let c = self.binop(op, x, y, Ty::Bool, &span)?;
                Expr::Select {
                    cond: Box::new(c),
                    then: Box::new(Expr::int(-1, ty)),
                    els: Box::new(Expr::int(0, ty)),
                    ty,
                }
            } else {
                let xt = if x.ty() == ty { x } else { cast(x, ty) };
                let yt = match op {
                    // A shift's count keeps its own type.
                    "<<" | ">>" => y,
                    _ => cast(y, ty),
                };
                self.binop(op, xt, yt, ty, &span)?
            };
            out.push((comp(i), Val::Scalar(e)));
        }
        Ok(Val::Struct(out))
    }
}

#[cfg(test)]
mod tests {
    use super::components;

    #[test]
    fn accessors_name_components() {
        assert_eq!(components("x", 4), Some(vec![0]));
        assert_eq!(components("zyx", 4), Some(vec![2, 1, 0]));
        assert_eq!(components("s01", 4), Some(vec![0, 1]));
        assert_eq!(components("sF", 16), Some(vec![15]));
        assert_eq!(components("hi", 8), Some(vec![4, 5, 6, 7]));
        assert_eq!(components("lo", 3), Some(vec![0, 1]));
        assert_eq!(components("odd", 4), Some(vec![1, 3]));
        assert_eq!(components("w", 2), None);
        assert_eq!(components("hi", 3), None);
        assert_eq!(components("q", 4), None);
    }
}
