//! Declarations: kernel parameters (scalars, pointers as arrays, structs field by field), local
//! variables, `__shared__`, `__constant__` and file-scope arrays, initializers, and name lookup.
//!
//! Decides what a declaration denotes ([`Binding`]); statements and expressions are lowered
//! elsewhere.

use super::globals::const_value;
use super::{Binding, LVal, Lower, PtrBind, PtrOff, R, Val, add_off, pos_span, set, unsupported};
use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::types::CType;
use crate::ir::*;

impl Lower<'_, '_> {
    pub(super) fn kernel_param(&mut self, p: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let name = p.name.clone().unwrap_or_else(|| format!("$arg{}", self.k.params.len()));
        let cty = self.ctype(p);
        let span = p.pos.as_ref().map(pos_span).unwrap_or_else(|| self.kspan.clone());
        let b = self.param_binding(&name, &cty, &p.id, &span, out)?;
        self.frame_mut().env.insert(p.id.clone(), b);
        Ok(())
    }

    pub(super) fn param_binding(
        &mut self,
        name: &str,
        cty: &CType,
        id: &str,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<Binding> {
        match cty {
            CType::Scalar(ty) => {
                let v = self.k.new_var(name, *ty);
                self.k.params.push(Param {
                    name: name.to_string(),
                    kind: ParamKind::Scalar(v),
                });
                Ok(Binding::Scalar(v, *ty))
            }
            CType::Ptr(pointee) => {
                // An array of pointers is kept as 8-byte words: reading a pointer from it is
                // refused where it happens ("pointer loaded from memory").
                let elem = match **pointee {
                    CType::Ptr(_) => CType::Scalar(Ty::Int {
                        bits: 64,
                        signed: false,
                    }),
                    _ => (**pointee).clone(),
                };
                let arr_ty = CType::Array(Box::new(elem), None);
                let a = self.new_array(name, Space::Global, &arr_ty, span.clone())?;
                self.k.params.push(Param {
                    name: name.to_string(),
                    kind: ParamKind::Array(a),
                });
                let off = if self.mutable(id) {
                    let v = self.k.new_var(format!("{name}$off"), Ty::I64);
                    out.push(set(v, Expr::int(0, Ty::I64), span.clone()));
                    PtrOff::Var(v)
                } else {
                    PtrOff::Fixed(Expr::int(0, Ty::I64))
                };
                let i = self.push_ptr(PtrBind::var(name, vec![a], off, (**pointee).clone()));
                if let Some(tag) = self.ptrs[i].tag {
                    // It may later point elsewhere: its own array is the first.
                    out.push(set(tag, Expr::int(0, Ty::I32), span.clone()));
                }
                Ok(Binding::Ptr(i))
            }
            CType::Record(r) => {
                let fields = self.g.types.records.get(r).cloned().unwrap_or_default();
                let mut bs = Vec::new();
                for (f, ft) in fields {
                    let b = self.param_binding(&format!("{name}.{f}"), &ft, "", span, out)?;
                    bs.push((f, b));
                }
                Ok(Binding::Struct(bs))
            }
            other => unsupported(
                span.clone(),
                format!("kernel parameter `{name}` of type `{}`", other.describe()),
            ),
        }
    }

    /// A fresh local binding for a declaration of type `cty` (no initialisation).
    pub(super) fn local_binding(&mut self, name: &str, cty: &CType, id: &str, span: &Span) -> R<Binding> {
        let addr = self.frame().addr_taken.contains(id);
        match cty {
            CType::Scalar(ty) if addr => {
                let a = self.new_array(
                    name,
                    Space::Local,
                    &CType::Array(Box::new(cty.clone()), Some(1)),
                    span.clone(),
                )?;
                let _ = ty;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Scalar(ty) => Ok(Binding::Scalar(self.k.new_var(name, *ty), *ty)),
            CType::Array(..) => {
                let a = self.new_array(name, Space::Local, cty, span.clone())?;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Ptr(pointee) => {
                let v = self.k.new_var(format!("{name}$off"), Ty::I64);
                let i = self.push_ptr(PtrBind::var(name, Vec::new(), PtrOff::Var(v), (**pointee).clone()));
                Ok(Binding::Ptr(i))
            }
            CType::Record(r) if addr => {
                let a = self.new_array(
                    name,
                    Space::Local,
                    &CType::Array(Box::new(CType::Record(r.clone())), Some(1)),
                    span.clone(),
                )?;
                Ok(Binding::Mem(a, cty.clone()))
            }
            CType::Record(r) => {
                let Some(fields) = self.g.types.records.get(r).cloned() else {
                    return unsupported(span.clone(), format!("local `{name}` of incomplete type `{r}`"));
                };
                let mut bs = Vec::new();
                for (f, ft) in fields {
                    let b = self.local_binding(&format!("{name}.{f}"), &ft, "", span)?;
                    bs.push((f, b));
                }
                Ok(Binding::Struct(bs))
            }
            CType::Ref(_) => unsupported(span.clone(), format!("reference variable `{name}`")),
            other => unsupported(span.clone(), format!("local `{name}` of type `{}`", other.describe())),
        }
    }

    pub(super) fn var_decl(&mut self, d: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let name = d.name.clone().unwrap_or_default();
        let span = self.span(d);
        let cty = self.ctype(d);
        if d.has_attr("CUDASharedAttr") || d.storage_class.as_deref() == Some("static") {
            if !d.has_attr("CUDASharedAttr") {
                return unsupported(span, format!("static local variable `{name}`"));
            }
            self.static_binding(d)?;
            return Ok(());
        }
        if d.storage_class.as_deref() == Some("extern") {
            return unsupported(span, format!("extern local variable `{name}`"));
        }
        let b = self.local_binding(&name, &cty, &d.id, &span)?;
        // A never-reassigned pointer with a constant offset keeps it fixed (clearer IR).
        let init = d.code_children().last().filter(|_| d.init.is_some());
        if let (Binding::Ptr(i), Some(e)) = (&b, init)
            && !self.mutable(&d.id)
        {
            let v = self.rvalue(e, out)?;
            if let Val::PtrRef(r) = v {
                // `T **pp = &p;`: `*pp` is `p`.
                self.frame_mut().env.insert(d.id.clone(), Binding::PtrRef(r));
                return Ok(());
            }
            let pv = self.expect_ptr(v, e)?;
            if matches!(pv.off, Expr::Const { .. }) {
                let p = &mut self.ptrs[*i];
                p.fixed = Some(pv.array);
                p.arrays.clear();
                p.tag = None;
                p.off = PtrOff::Fixed(pv.off);
                self.frame_mut().env.insert(d.id.clone(), b);
                return Ok(());
            }
            self.frame_mut().env.insert(d.id.clone(), b.clone());
            self.assign(&LVal::Bound(b), Val::Ptr(pv), e, &span, out)?;
            return Ok(());
        }
        self.frame_mut().env.insert(d.id.clone(), b.clone());
        match init {
            None => self.havoc(&b, &span, out),
            Some(e) => self.init(LVal::Bound(b), &cty, e, &span, out),
        }
    }

    pub(super) fn havoc(&mut self, b: &Binding, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        match b {
            Binding::Scalar(v, _) => out.push(Stmt {
                kind: StmtKind::Havoc { var: *v },
                span: span.clone(),
            }),
            Binding::Struct(fs) => {
                for (_, f) in fs {
                    self.havoc(f, span, out)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Initialise `lv` (of type `cty`) from the initializer `e`.
    pub(super) fn init(&mut self, lv: LVal, cty: &CType, e: &Node, span: &Span, out: &mut Vec<Stmt>) -> R<()> {
        let e = strip_parens(e);
        // A local array (or address-taken local) is initialised in its memory.
        let lv = match lv {
            LVal::Bound(Binding::Mem(array, cty)) => LVal::Mem {
                array: array.into(),
                off: Expr::int(0, Ty::I64),
                cty,
            },
            lv => lv,
        };
        match e.kind.as_str() {
            "InitListExpr" => {
                let items: Vec<&Node> = e.code_children().collect();
                match cty {
                    CType::Array(elem, _) => {
                        let LVal::Mem { array, off, .. } = lv.clone() else {
                            return unsupported(self.span(e), "initializer list for this variable");
                        };
                        let size = self.size_of(elem, span)?;
                        for (i, it) in items.iter().enumerate() {
                            if it.kind == "ImplicitValueInitExpr" || it.kind == "ArrayInitLoopExpr" {
                                continue;
                            }
                            let sub = LVal::Mem {
                                array: array.clone(),
                                off: add_off(off.clone(), Expr::int(i as u64 * size, Ty::I64)),
                                cty: (**elem).clone(),
                            };
                            self.init(sub, elem, it, span, out)?;
                        }
                        Ok(())
                    }
                    CType::Record(r) => {
                        let fields = self.g.types.records.get(r).cloned().unwrap_or_default();
                        for ((fname, ft), it) in fields.iter().zip(items.iter()) {
                            if it.kind == "ImplicitValueInitExpr" {
                                continue;
                            }
                            let sub = self.member_of(lv.clone(), fname, span)?;
                            self.init(sub, ft, it, span, out)?;
                        }
                        Ok(())
                    }
                    _ => match items.first() {
                        Some(it) => self.init(lv, cty, it, span, out),
                        None => {
                            let v = self.zero(cty, span)?;
                            self.assign(&lv, v, e, span, out)
                        }
                    },
                }
            }
            "CXXConstructExpr" => {
                let args: Vec<&Node> = e.code_children().collect();
                match args.as_slice() {
                    [] => Ok(()),
                    [a] => {
                        let v = self.rvalue(a, out)?;
                        self.assign(&lv, v, e, span, out)
                    }
                    _ => unsupported(self.span(e), "constructor call with arguments"),
                }
            }
            "ImplicitValueInitExpr" => {
                let v = self.zero(cty, span)?;
                self.assign(&lv, v, e, span, out)
            }
            _ => {
                let v = self.rvalue(e, out)?;
                self.assign(&lv, v, e, span, out)
            }
        }
    }

    pub(super) fn zero(&self, cty: &CType, span: &Span) -> R<Val> {
        match cty {
            CType::Scalar(t) => Ok(Val::Scalar(Expr::int(0, *t))),
            other => unsupported(span.clone(), format!("zero initialisation of `{}`", other.describe())),
        }
    }

    /// Binding of a `__shared__`/file-scope declaration (one array per declaration per kernel).
    pub(super) fn static_binding(&mut self, d: &Node) -> R<Binding> {
        if let Some(b) = self.static_arrays.get(&d.id) {
            return Ok(b.clone());
        }
        let name = d.name.clone().unwrap_or_default();
        let span = d.pos.as_ref().map(pos_span).unwrap_or_else(|| self.kspan.clone());
        let cty = self.ctype(d);
        let space = if d.has_attr("CUDASharedAttr") {
            Space::Shared
        } else if d.has_attr("CUDAConstantAttr") {
            Space::Constant
        } else if d.has_attr("CUDADeviceAttr") {
            Space::Global
        } else {
            return unsupported(span, format!("host variable `{name}` used in device code"));
        };
        let b = match &cty {
            CType::Array(..) => Binding::Mem(self.new_array(&name, space, &cty, span)?, cty.clone()),
            CType::Scalar(_) | CType::Record(_) => {
                let a = self.new_array(&name, space, &CType::Array(Box::new(cty.clone()), Some(1)), span)?;
                Binding::Mem(a, cty.clone())
            }
            other => {
                return unsupported(
                    span,
                    format!("`{name}` of type `{}` in {space:?} memory", other.describe()),
                );
            }
        };
        self.static_arrays.insert(d.id.clone(), b.clone());
        Ok(b)
    }

    pub(super) fn lookup(&mut self, n: &Node) -> R<Binding> {
        let Some(d) = &n.referenced_decl else {
            return unsupported(self.span(n), "reference without a declaration");
        };
        if let Some(b) = self.frame().env.get(&d.id) {
            return Ok(b.clone());
        }
        if d.name == "warpSize" && d.kind == "VarDecl" {
            return Ok(Binding::Const(Expr::Builtin(Builtin::WarpSize)));
        }
        if let Some(b) = self.static_arrays.get(&d.id) {
            return Ok(b.clone());
        }
        if let Some(v) = self.g.enum_consts.get(&d.id) {
            let ty = self.scalar_ty(n).unwrap_or(Ty::I32);
            return Ok(Binding::Const(Expr::int(v.clone(), ty)));
        }
        if let Some(decl) = self.g.vars.get(&d.id).copied() {
            // `const` integers with a constant initializer are constants.
            let cty = self.ctype(decl);
            if decl.type_str().starts_with("const ")
                && let (CType::Scalar(ty @ Ty::Int { .. }), Some(v)) =
                    (&cty, decl.code_children().last().and_then(const_value))
            {
                return Ok(Binding::Const(Expr::int(v, *ty)));
            }
            return self.static_binding(decl);
        }
        match d.kind.as_str() {
            "FunctionDecl" => Ok(Binding::Const(self.fn_code(d))),
            "CXXMethodDecl" => unsupported(self.span(n), format!("pointer to member function `{}`", d.name)),
            "NonTypeTemplateParmDecl" => {
                unsupported(self.span(n), format!("dependent template parameter `{}`", d.name))
            }
            "VarDecl" if d.name == "warpSize" => Ok(Binding::Const(Expr::Builtin(Builtin::WarpSize))),
            _ => unsupported(self.span(n), format!("reference to `{}` ({})", d.name, d.kind)),
        }
    }
}
