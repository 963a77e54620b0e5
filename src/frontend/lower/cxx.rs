//! C++ places: references (parameters, locals, returned references), `this` and the objects of
//! inlined methods, conditional operators as lvalues, pointers to pointers that resolve
//! statically, and string literals.
//!
//! A reference is the place it is bound to, fixed at the binding: an offset that is not a
//! constant is copied into a variable of its own there, so later changes of the index do not
//! move the reference. A method is inlined with its object as the place `this` points to; the
//! object need not be in memory (a struct parameter's fields are variables). A conditional
//! lvalue `(c ? a : b)` is [`LVal::Cond`] and a pointer into one of two arrays `(c ? p : q)` is
//! [`Val::PtrCond`]: each access through them is a case split on `c`, fixed when the place is
//! formed. Pointers to pointers are [`Val::Addr`]/[`Binding::Addr`]: the pointed-to pointer
//! variable itself, so `*pp` and `pp[0]` are that variable; a pointer to pointer that is
//! reassigned, loaded from memory or indexed by a non-zero index is an error.
//!
//! String literals are read-only data: one local array per literal holding its bytes and the
//! terminating zero, written once at the start of the kernel, so reads see the real characters
//! and can never race.

use super::{Binding, LVal, Lower, PtrOff, PtrVal, R, Val, add_off, branch, set, unsupported};
use crate::frontend::ast::{Node, strip_parens};
use crate::frontend::types::CType;
use crate::ir::*;

/// An argument of an inlined call: a value, or the place a reference parameter binds to.
pub(in crate::frontend) enum Arg {
    /// Passed by value (or a temporary bound to a `const T &`).
    Val(Val),
    /// An lvalue bound to a reference parameter, already pinned ([`Lower::pin`]).
    Place(LVal),
}

impl Lower<'_, '_> {
    /// `lv` fixed where it is formed: a non-constant offset or condition is copied into a fresh
    /// variable, and pointer variables it names that still have a fixed offset get an offset
    /// variable (so that a callee may reassign them through the reference).
    pub(in crate::frontend) fn pin(&mut self, lv: LVal, span: &Span, out: &mut Vec<Stmt>) -> LVal {
        match lv {
            LVal::Mem { array, off, cty } => {
                let off = self.pin_expr(off, Ty::I64, span, out);
                LVal::Mem { array, off, cty }
            }
            LVal::Cond { cond, then, els } => {
                let cond = self.pin_expr(cond, Ty::Bool, span, out);
                let then = Box::new(self.pin(*then, span, out));
                let els = Box::new(self.pin(*els, span, out));
                LVal::Cond { cond, then, els }
            }
            LVal::Bound(b) => {
                self.materialize(&b, span, out);
                LVal::Bound(b)
            }
        }
    }

    fn pin_expr(&mut self, e: Expr, ty: Ty, span: &Span, out: &mut Vec<Stmt>) -> Expr {
        if matches!(e, Expr::Const { .. }) {
            return e;
        }
        let t = self.temp(ty);
        out.push(set(t, e, span.clone()));
        Expr::Var { id: t, ty }
    }

    /// Give every pointer variable of `b` whose offset is still fixed an offset variable,
    /// assigned here.
    fn materialize(&mut self, b: &Binding, span: &Span, out: &mut Vec<Stmt>) {
        match b {
            Binding::Ptr(i) => {
                if let PtrOff::Fixed(e) = self.ptrs[*i].off.clone() {
                    let v = self.k.new_var(format!("{}$off", self.ptrs[*i].name), Ty::I64);
                    out.push(set(v, e, span.clone()));
                    self.ptrs[*i].off = PtrOff::Var(v);
                }
                // A tag fixed at the definition (`target.rs`) likewise.
                if self.ptrs[*i].tag.is_some() {
                    self.tag_var(*i, span, out);
                }
            }
            Binding::Struct(fs) => {
                for (_, f) in fs.clone() {
                    self.materialize(&f, span, out);
                }
            }
            Binding::Ref(lv) | Binding::Addr(lv) => {
                if let LVal::Bound(b) = &**lv {
                    self.materialize(&b.clone(), span, out);
                }
            }
            _ => {}
        }
    }

    /// The argument `a` for a parameter of type `pty`: the pinned place of an lvalue for a
    /// reference parameter, else its value.
    pub(in crate::frontend) fn arg(&mut self, a: &Node, pty: &CType, out: &mut Vec<Stmt>) -> R<Arg> {
        let inner = strip_parens(a);
        if matches!(pty, CType::Ref(_)) && inner.is_glvalue() && inner.kind != "MaterializeTemporaryExpr" {
            let span = self.span(a);
            let lv = self.lvalue(inner, out)?;
            return Ok(Arg::Place(self.pin(lv, &span, out)));
        }
        Ok(Arg::Val(self.rvalue(a, out)?))
    }

    /// Bind the reference parameter or local `id` (named `name`, referring to `to`) to `arg`:
    /// a variable is aliased, a memory place is a [`Binding::Ref`], a value (a temporary bound
    /// to a `const T &`) is copied into a fresh local.
    pub(in crate::frontend) fn bind_ref(
        &mut self,
        id: &str,
        name: &str,
        to: &CType,
        arg: Arg,
        at: &Node,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let span = self.span(at);
        let b = match arg {
            Arg::Place(LVal::Bound(b)) => b,
            Arg::Place(lv) => Binding::Ref(Box::new(lv)),
            Arg::Val(v) => {
                let b = self.local_binding(name, to, "", &span)?;
                let lv = match &b {
                    Binding::Mem(a, c) => LVal::Mem {
                        array: *a,
                        off: Expr::int(0, Ty::I64),
                        cty: c.clone(),
                    },
                    b => LVal::Bound(b.clone()),
                };
                self.assign(&lv, v, at, &span, out)?;
                b
            }
        };
        self.frame_mut().env.insert(id.to_string(), b);
        Ok(())
    }

    /// A local reference `T &r = init;` (or `const T &r = temporary;`).
    pub(in crate::frontend) fn ref_local(&mut self, d: &Node, to: &CType, out: &mut Vec<Stmt>) -> R<()> {
        let name = d.name.clone().unwrap_or_default();
        let Some(init) = d.code_children().last().filter(|_| d.init.is_some()) else {
            return unsupported(self.span(d), format!("reference `{name}` without an initializer"));
        };
        let arg = self.arg(init, &CType::Ref(Box::new(to.clone())), out)?;
        self.bind_ref(&d.id, &name, to, arg, d, out)
    }

    /// A local pointer to pointer initialised with the address of a pointer variable and never
    /// reassigned (`int **pp = &q;`): that variable. `None`: any other pointer to pointer,
    /// lowered as a pointer (whose loads of pointers are errors).
    pub(in crate::frontend) fn ptr_to_ptr_local(&mut self, d: &Node, out: &mut Vec<Stmt>) -> R<Option<Binding>> {
        let Some(init) = d.code_children().last().filter(|_| d.init.is_some()) else {
            return Ok(None);
        };
        if !matches!(strip_parens(init).kind.as_str(), "UnaryOperator" | "CXXThisExpr") {
            return Ok(None);
        }
        match self.rvalue(init, out)? {
            Val::Addr(lv) if !self.frame().modified.contains(&d.id) => Ok(Some(Binding::Addr(lv))),
            Val::Addr(_) => unsupported(
                self.span(d),
                format!("pointer to pointer `{}` reassigned", d.name.as_deref().unwrap_or("")),
            ),
            v => {
                let name = d.name.clone().unwrap_or_default();
                let span = self.span(d);
                let b = self.local_binding(&name, &self.ctype(d), &d.id, &span)?;
                self.assign(&LVal::Bound(b.clone()), v, init, &span, out)?;
                Ok(Some(b))
            }
        }
    }

    /// The object a method call `b.f()` / `p->f()` / `f()` (inside a method) works on. A
    /// temporary object (`make().f()`) is evaluated into a fresh local.
    pub(in crate::frontend) fn object_place(&mut self, b: &Node, arrow: bool, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(b);
        let inner = strip_parens(b);
        if inner.kind == "CXXThisExpr" {
            return self.this_place(inner);
        }
        if arrow {
            let pv = self.rvalue(b, out)?;
            let lv = self.deref(pv, b)?;
            return Ok(self.pin(lv, &span, out));
        }
        if inner.is_glvalue() && inner.kind != "MaterializeTemporaryExpr" {
            let lv = self.lvalue(inner, out)?;
            return Ok(self.pin(lv, &span, out));
        }
        let cty = self.ctype(inner);
        let v = self.rvalue(b, out)?;
        self.temps += 1;
        let name = format!("$obj{}", self.temps - 1);
        let bnd = self.local_binding(&name, &cty, "", &span)?;
        let lv = match bnd {
            Binding::Mem(a, c) => LVal::Mem {
                array: a,
                off: Expr::int(0, Ty::I64),
                cty: c,
            },
            b => LVal::Bound(b),
        };
        if !matches!(v, Val::Void) {
            self.assign(&lv, v, b, &span, out)?;
        }
        Ok(lv)
    }

    /// The object `this` points to in the current method.
    pub(in crate::frontend) fn this_place(&self, n: &Node) -> R<LVal> {
        match &self.frame().this_obj {
            Some(lv) => Ok(lv.clone()),
            None => unsupported(self.span(n), "`this` outside a method"),
        }
    }

    /// `this` as a pointer value: only when the object is in memory.
    pub(in crate::frontend) fn this_value(&self, n: &Node) -> R<Val> {
        match self.this_place(n)? {
            LVal::Mem { array, off, cty } => Ok(Val::Ptr(PtrVal {
                array,
                off,
                pointee: cty,
            })),
            lv => Ok(Val::Addr(Box::new(lv))),
        }
    }

    /// The place a pointer value points to (`*p`, `p->f`, `p[0]`), case split for
    /// [`Val::PtrCond`].
    pub(in crate::frontend) fn deref(&mut self, pv: Val, at: &Node) -> R<LVal> {
        self.index(pv, None, at)
    }

    /// The place `p[i]` (`i = None`: `*p`), case split for [`Val::PtrCond`]; a pointer to a
    /// pointer variable only at index 0.
    pub(in crate::frontend) fn index(&mut self, pv: Val, i: Option<Expr>, at: &Node) -> R<LVal> {
        match pv {
            Val::PtrCond(cond, a, b) => Ok(LVal::Cond {
                cond,
                then: Box::new(self.index(*a, i.clone(), at)?),
                els: Box::new(self.index(*b, i, at)?),
            }),
            Val::Addr(lv) if is_view(&lv) => self.view_element(*lv, i, at),
            Val::Addr(lv) => match &i {
                None => Ok(*lv),
                Some(Expr::Const { value, .. }) if *value == 0.into() => Ok(*lv),
                Some(_) => unsupported(self.span(at), "pointer to pointer indexed by a non-zero index"),
            },
            v => {
                let p = self.expect_ptr(v, at)?;
                let off = match i {
                    None => p.off,
                    Some(i) => {
                        let size = self.size_of(&p.pointee, &self.span(at))?;
                        add_off(p.off, super::scale(i, size))
                    }
                };
                Ok(LVal::Mem {
                    array: p.array,
                    off,
                    cty: p.pointee,
                })
            }
        }
    }

    /// `&lv`: a pointer into memory, a case split of two, or the address of a variable that is
    /// not in memory (a pointer to a pointer variable, `&s` of a struct whose fields are
    /// variables).
    pub(in crate::frontend) fn address_of(&mut self, lv: LVal, span: &Span, out: &mut Vec<Stmt>) -> R<Val> {
        match lv {
            LVal::Mem { array, off, cty } => Ok(Val::Ptr(PtrVal {
                array,
                off,
                pointee: cty,
            })),
            LVal::Cond { cond, then, els } => {
                let a = self.address_of(*then, span, out)?;
                let b = self.address_of(*els, span, out)?;
                Ok(Val::PtrCond(cond, Box::new(a), Box::new(b)))
            }
            LVal::Bound(Binding::Const(_)) => unsupported(span.clone(), "address of a constant"),
            lv => Ok(Val::Addr(Box::new(self.pin(lv, span, out)))),
        }
    }

    /// An array place decayed to a pointer to its first element.
    pub(in crate::frontend) fn decay(&mut self, lv: LVal, span: &Span) -> R<Val> {
        match lv {
            LVal::Mem {
                array,
                off,
                cty: CType::Array(elem, _),
            } => Ok(Val::Ptr(PtrVal {
                array,
                off,
                pointee: *elem,
            })),
            LVal::Cond { cond, then, els } => {
                let a = self.decay(*then, span)?;
                let b = self.decay(*els, span)?;
                Ok(Val::PtrCond(cond, Box::new(a), Box::new(b)))
            }
            _ => unsupported(span.clone(), "array decay of a non-array"),
        }
    }

    /// `(c ? a : b)` as an lvalue: both places, the condition fixed in a variable.
    pub(in crate::frontend) fn cond_lvalue(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<LVal> {
        let span = self.span(n);
        let (Some(c), Some(a), Some(b)) = (n.inner.first(), n.inner.get(1), n.inner.get(2)) else {
            return unsupported(span, "malformed conditional");
        };
        let cond = self.cond(c, out)?;
        let cond = self.pin_expr(cond, Ty::Bool, &span, out);
        let mut sa = Vec::new();
        let la = self.lvalue(a, &mut sa)?;
        let la = self.pin(la, &span, &mut sa);
        let mut sb = Vec::new();
        let lb = self.lvalue(b, &mut sb)?;
        let lb = self.pin(lb, &span, &mut sb);
        if !sa.is_empty() || !sb.is_empty() {
            out.push(branch(cond.clone(), sa, sb, span));
        }
        Ok(LVal::Cond {
            cond,
            then: Box::new(la),
            els: Box::new(lb),
        })
    }

    /// `std::min(a, b)` and `std::max(a, b)` of the C++ library, which return a reference to
    /// one of their arguments (`const int &m = std::min(x, y);`), as that place: `b < a ? b :
    /// a` for `min`, `a < b ? b : a` for `max` (libstdc++'s and libc++'s bodies), both
    /// arguments' places evaluated once. `None` for any other call `n`, CUDA's `min(int,
    /// int)` (a value, not a reference) and a program's own `min` included.
    ///
    /// # Errors
    /// A comparison function or an initializer list; arguments that are not places
    /// (a temporary's).
    pub(in crate::frontend) fn minmax_place(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Option<LVal>> {
        if n.kind != "CallExpr" || !n.is_glvalue() {
            return Ok(None);
        }
        let Some(d) = n.inner.first().and_then(|c| strip_parens(c).referenced_decl.as_ref()) else {
            return Ok(None);
        };
        let min = match d.name.as_str() {
            "min" => true,
            "max" => false,
            _ => return Ok(None),
        };
        if self.g.is_program_fn(&d.id) {
            return Ok(None);
        }
        let span = self.span(n);
        let args: Vec<&Node> = n.inner[1..].iter().filter(|c| !c.kind.ends_with("Attr")).collect();
        let [a, b] = args[..] else {
            return unsupported(
                span,
                format!("`std::{}` with a comparison function or an initializer list", d.name),
            );
        };
        let la = self.lvalue(a, out)?;
        let la = self.pin(la, &span, out);
        let lb = self.lvalue(b, out)?;
        let lb = self.pin(lb, &span, out);
        let va = self.read(la.clone(), a, out)?;
        let va = self.expect_scalar(va, a)?;
        let vb = self.read(lb.clone(), b, out)?;
        let vb = self.expect_scalar(vb, b)?;
        let cond = match min {
            true => crate::ir::build::bin(BinOp::Lt, vb, va, Ty::Bool),
            false => crate::ir::build::bin(BinOp::Lt, va, vb, Ty::Bool),
        };
        let cond = self.pin_expr(cond, Ty::Bool, &span, out);
        Ok(Some(LVal::Cond {
            cond,
            then: Box::new(lb),
            els: Box::new(la),
        }))
    }

    /// Read one of two places: each read under its branch, the value joined.
    pub(in crate::frontend) fn read_cond(
        &mut self,
        cond: Expr,
        a: LVal,
        b: LVal,
        at: &Node,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let mut sa = Vec::new();
        let va = self.read(a, at, &mut sa)?;
        let mut sb = Vec::new();
        let vb = self.read(b, at, &mut sb)?;
        self.join(cond, (va, sa), (vb, sb), at, out)
    }

    /// `cond ? va : vb` for values computed by the statements `sa` and `sb`: scalars and
    /// pointers into one array through a variable set in each arm, pointers into two arrays as
    /// [`Val::PtrCond`].
    pub(in crate::frontend) fn join(
        &mut self,
        cond: Expr,
        (va, mut sa): (Val, Vec<Stmt>),
        (vb, mut sb): (Val, Vec<Stmt>),
        at: &Node,
        out: &mut Vec<Stmt>,
    ) -> R<Val> {
        let span = self.span(at);
        let v = match (va, vb) {
            (Val::Void, Val::Void) => Val::Void,
            (Val::Scalar(x), Val::Scalar(y)) => {
                let ty = x.ty();
                let t = self.temp(ty);
                sa.push(set(t, x, span.clone()));
                sb.push(set(t, crate::ir::build::cast(y, ty), span.clone()));
                Val::Scalar(Expr::Var { id: t, ty })
            }
            (Val::Ptr(p), Val::Ptr(q)) if p.array == q.array => {
                let t = self.temp(Ty::I64);
                sa.push(set(t, p.off, span.clone()));
                sb.push(set(t, q.off, span.clone()));
                Val::Ptr(PtrVal {
                    off: Expr::Var { id: t, ty: Ty::I64 },
                    ..p
                })
            }
            (a @ (Val::Ptr(_) | Val::PtrCond(..)), b @ (Val::Ptr(_) | Val::PtrCond(..))) => {
                let cond = self.pin_expr(cond.clone(), Ty::Bool, &span, out);
                let a = self.pin_ptr(a, &span, &mut sa);
                let b = self.pin_ptr(b, &span, &mut sb);
                if !sa.is_empty() || !sb.is_empty() {
                    out.push(branch(cond.clone(), sa, sb, span));
                }
                return Ok(Val::PtrCond(cond, Box::new(a), Box::new(b)));
            }
            (x @ Val::Struct(_), y @ Val::Struct(_)) => {
                // A struct read through a pointer into one of two arrays (an `int4` copied
                // from `A` or `B`): a temporary assigned in each arm.
                let cty = self.ctype(at);
                self.temps += 1;
                let t = self.local_binding(&format!("$t{}", self.temps - 1), &cty, "", &span)?;
                self.assign(&LVal::Bound(t.clone()), x, at, &span, &mut sa)?;
                self.assign(&LVal::Bound(t.clone()), y, at, &span, &mut sb)?;
                out.push(branch(cond, sa, sb, span));
                return self.read_binding(&t, at, out);
            }
            _ => return unsupported(span, "conditional choosing between values of different kinds"),
        };
        out.push(branch(cond, sa, sb, span));
        Ok(v)
    }

    fn pin_ptr(&mut self, v: Val, span: &Span, out: &mut Vec<Stmt>) -> Val {
        match v {
            Val::Ptr(p) => {
                let off = self.pin_expr(p.off, Ty::I64, span, out);
                Val::Ptr(PtrVal { off, ..p })
            }
            Val::PtrCond(c, a, b) => {
                let c = self.pin_expr(c, Ty::Bool, span, out);
                let a = self.pin_ptr(*a, span, out);
                let b = self.pin_ptr(*b, span, out);
                Val::PtrCond(c, Box::new(a), Box::new(b))
            }
            v => v,
        }
    }

    /// Write `v` to one of two places: each write under its branch.
    pub(in crate::frontend) fn assign_cond(
        &mut self,
        (cond, a, b): (&Expr, &LVal, &LVal),
        v: Val,
        at: &Node,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let mut sa = Vec::new();
        self.assign(a, v.clone(), at, span, &mut sa)?;
        let mut sb = Vec::new();
        self.assign(b, v, at, span, &mut sb)?;
        out.push(branch(cond.clone(), sa, sb, span.clone()));
        Ok(())
    }

    /// Record the place a `return` of a reference-returning function gives: the first return
    /// fixes the array (or variable) and an offset variable, later ones must return a place
    /// of the same array (or the same variable).
    pub(in crate::frontend) fn return_place(&mut self, e: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let span = self.span(e);
        let lv = self.lvalue(strip_parens(e), out)?;
        let prev = self.frame().ret_ref.clone();
        let merged = match (prev, lv) {
            (None, LVal::Mem { array, off, cty }) => {
                let v = self.temp(Ty::I64);
                out.push(set(v, off, span.clone()));
                LVal::Mem {
                    array,
                    off: Expr::Var { id: v, ty: Ty::I64 },
                    cty,
                }
            }
            (None, lv) => self.pin(lv, &span, out),
            (
                Some(LVal::Mem {
                    array,
                    off: off @ Expr::Var { .. },
                    cty,
                }),
                LVal::Mem { array: a2, off: o2, .. },
            ) if a2 == array => {
                if let Expr::Var { id, .. } = &off {
                    out.push(set(*id, o2, span.clone()));
                }
                LVal::Mem { array, off, cty }
            }
            (Some(LVal::Bound(x)), LVal::Bound(y)) if same_binding(&x, &y) => LVal::Bound(x),
            _ => {
                return unsupported(span, "function returning references to different variables or arrays");
            }
        };
        self.frame_mut().ret_ref = Some(merged);
        Ok(())
    }

    /// A string literal's place: its own local array of `char`s, filled in the prologue.
    pub(in crate::frontend) fn string_literal(&mut self, n: &Node) -> R<LVal> {
        let span = self.span(n);
        let cty = self.ctype(n);
        let CType::Array(elem, _) = &cty else {
            return unsupported(span, "string literal of an unknown type");
        };
        if elem.scalar().map(|t| t.bytes()) != Some(1) {
            return unsupported(span, "wide string literal");
        }
        if let Some(a) = self.literals.get(&n.id) {
            return Ok(lit_place(*a, cty));
        }
        let text = match &n.value {
            Some(serde_json::Value::String(s)) => s.clone(),
            _ => return unsupported(span, "string literal without its text"),
        };
        let Some(mut bytes) = unescape(&text) else {
            return unsupported(span, format!("string literal {text} (its escapes are not read)"));
        };
        bytes.push(0);
        let ty = elem.scalar().unwrap_or(Ty::Int { bits: 8, signed: true });
        let arr = CType::Array(elem.clone(), Some(bytes.len() as u64));
        let a = self.new_array(
            &format!("$str{}", self.literals.len()),
            Space::Local,
            &arr,
            span.clone(),
        )?;
        for (i, b) in bytes.into_iter().enumerate() {
            self.prologue.push(Stmt {
                kind: StmtKind::Store {
                    array: a,
                    offset: Expr::int(i as u64, Ty::I64),
                    value: Expr::int(super::wrap_ty((b as i64).into(), ty), ty),
                    ty,
                },
                span: span.clone(),
            });
        }
        self.literals.insert(n.id.clone(), a);
        Ok(lit_place(a, arr))
    }
}

/// The prefix of the fields of a view of a struct's fields as an array ([`Lower::field_view`]).
const VIEW: char = '#';

/// Whether `lv` is a view of a struct's fields as an array.
fn is_view(lv: &LVal) -> bool {
    matches!(lv, LVal::Bound(Binding::Struct(fs)) if fs.first().is_some_and(|(f, _)| f.starts_with(VIEW)))
}

impl Lower<'_, '_> {
    /// `(T *)&s` of a struct `s` whose fields are variables, all of type `T` (a `float4` seen
    /// as `float[4]`): a view of its fields as an array, indexed by [`Self::index`].
    pub(in crate::frontend) fn field_view(&mut self, lv: LVal, to: &CType, span: &Span) -> R<Val> {
        let LVal::Bound(Binding::Struct(fs)) = &lv else {
            return unsupported(span.clone(), "cast of the address of a variable that is not in memory");
        };
        let Some(ty) = to.scalar() else {
            return unsupported(
                span.clone(),
                format!("cast of a struct's address to `{} *`", to.describe()),
            );
        };
        let uniform = !fs.is_empty() && fs.iter().all(|(_, b)| matches!(b, Binding::Scalar(_, t) if *t == ty));
        if !uniform && !is_view(&lv) {
            return unsupported(
                span.clone(),
                format!(
                    "cast of a struct's address to `{} *` whose fields are not all of that type",
                    to.describe()
                ),
            );
        }
        let fields = fs
            .iter()
            .enumerate()
            .map(|(k, (_, b))| (format!("{VIEW}{k}"), b.clone()))
            .collect();
        Ok(Val::Addr(Box::new(LVal::Bound(Binding::Struct(fields)))))
    }

    /// Element `i` (`None`: the first) of a view of a struct's fields: a case split on the
    /// index when it is not a constant (an index past the fields is the last field).
    fn view_element(&mut self, view: LVal, i: Option<Expr>, at: &Node) -> R<LVal> {
        let LVal::Bound(Binding::Struct(fs)) = view else {
            return unsupported(self.span(at), "malformed view of a struct's fields");
        };
        let i = i.unwrap_or(Expr::int(0, Ty::I64));
        if let Some(k) = crate::ir::query::int_constant(&i) {
            return match usize::try_from(k).ok().and_then(|k| fs.get(k)) {
                Some((_, b)) => Ok(LVal::Bound(b.clone())),
                None => unsupported(self.span(at), "index past the fields of a struct seen as an array"),
            };
        }
        let i = super::to_i64(i);
        let mut place = match fs.last() {
            Some((_, b)) => LVal::Bound(b.clone()),
            None => return unsupported(self.span(at), "view of a struct without fields"),
        };
        for (k, (_, b)) in fs.iter().enumerate().rev().skip(1) {
            let cond = crate::ir::build::bin(BinOp::Eq, i.clone(), Expr::int(k as u64, Ty::I64), Ty::Bool);
            place = LVal::Cond {
                cond,
                then: Box::new(LVal::Bound(b.clone())),
                els: Box::new(place),
            };
        }
        Ok(place)
    }
}

fn lit_place(array: ArrayId, cty: CType) -> LVal {
    LVal::Mem {
        array,
        off: Expr::int(0, Ty::I64),
        cty,
    }
}

/// Whether two bindings are the same variable (or pointer, or struct of them).
fn same_binding(a: &Binding, b: &Binding) -> bool {
    match (a, b) {
        (Binding::Scalar(x, _), Binding::Scalar(y, _)) => x == y,
        (Binding::Ptr(x), Binding::Ptr(y)) => x == y,
        (Binding::Mem(x, _), Binding::Mem(y, _)) => x == y,
        (Binding::Struct(x), Binding::Struct(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((_, p), (_, q))| same_binding(p, q))
        }
        _ => false,
    }
}

/// The bytes of a C string literal as clang prints it (`"a\n"`, quotes included): simple,
/// octal and hex escapes; `None` for a prefixed (wide, UTF) literal or an unknown escape.
fn unescape(s: &str) -> Option<Vec<u8>> {
    let body = s.strip_prefix('"')?.strip_suffix('"')?;
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = *b.get(i)?;
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' | b'\'' | b'"' | b'?' => c,
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                u8::try_from(v).ok()?
            }
            b'x' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                u8::from_str_radix(std::str::from_utf8(&b[start..i]).ok()?, 16).ok()?
            }
            _ => return None,
        };
        out.push(v);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn unescapes_c_literals() {
        assert_eq!(unescape(r#""ab\n\0\x41\101\"""#), Some(b"ab\n\0AA\"".to_vec()));
        assert_eq!(unescape(r#""\q""#), None);
        assert_eq!(unescape("L\"w\""), None);
    }
}
