//! Calls to functions without a body that the built-in table does not know (user functions
//! declared but not defined, math and intrinsics of the CUDA headers, `curand_*`): they are
//! uninterpreted.
//!
//! - The result is a pure function of the scalar arguments (struct arguments by their scalar
//!   fields): an [`Expr::Opaque`] named after the function (and its type, when it takes
//!   structs), so two threads calling `f(x)` with equal `x` get equal results. A struct result
//!   is one such function per scalar field.
//! - A pointer argument whose pointee is not `const` (or a pointer in a struct argument) may be
//!   written anywhere by the call: a [`StmtKind::Clobber`] of its array (the encoders then
//!   read every value of that array as arbitrary). With any pointer argument the result may
//!   depend on memory, so it is a fresh arbitrary value at each call instead.
//! - `void` without pointer arguments: no effect (the arguments are still evaluated, so their
//!   reads count).
//!
//! Each such function is named once in [`Kernel::notes`]; the names of the opaque functions
//! are listed in [`Kernel::uninterpreted`], so a defect that depends on them is reported as
//! possible. A pointer result, or an array or pointer field in a struct result, is an error.

use crate::frontend::ast::Node;
use crate::frontend::lower::{CallSite, LVal, Lower, R, Val, unsupported};
use crate::frontend::types::CType;
use crate::ir::*;

/// What the arguments of a call without a body give it.
#[derive(Default)]
struct Args {
    /// The scalar values, struct fields flattened, in order.
    scalars: Vec<Expr>,
    /// The arrays it may write through a pointer, each once.
    clobbered: Vec<ArrayId>,
    /// Whether any argument is a pointer (or holds one).
    pointers: bool,
}

impl Lower<'_, '_> {
    /// A call `n` to `name`, a function without a body, with the argument nodes `args`.
    pub(in crate::frontend) fn opaque_call(&mut self, call: &CallSite, out: &mut Vec<Stmt>) -> R<Val> {
        let (n, name, args, span) = call.parts();
        let mut a = Args::default();
        let mut structs = false;
        // A member function's implicit object is its first argument (`(float)x` of a bf16 `x`
        // calls `x.operator float()`): without it every call would share one value.
        if let Some((object, arrow)) = implicit_object(n) {
            // A program's own method that is not `const` may write its object (the toolkit's
            // methods without a body here are conversions and accessors).
            let writes_object = !self.declared_by_library(n)
                && !n
                    .inner
                    .first()
                    .map(crate::frontend::ast::strip_parens)
                    .and_then(|c| c.referenced_member_decl.as_ref())
                    .is_some_and(|id| self.g.const_methods.contains(id));
            let mut object_places = Vec::new();
            let v = match arrow {
                // `p->f()`: the pointer, so the result is arbitrary at each call (it may read
                // the object through it).
                true => self.rvalue(object, out)?,
                false => {
                    let lv = self.lvalue(object, out)?;
                    object_places.push(lv.clone());
                    self.read(lv, object, out)?
                }
            };
            structs |= matches!(v, Val::Struct(_));
            // `p->f()` may write through the pointer; `x.f()` the object's place.
            self.flatten(v, arrow && writes_object, &mut a, span)?;
            while let Some(place) = object_places.pop().filter(|_| writes_object) {
                match place {
                    LVal::Mem { array, .. } => {
                        if self.k.array(array).space != Space::Constant && !a.clobbered.contains(&array) {
                            a.clobbered.push(array);
                        }
                    }
                    LVal::Cond { then, els, .. } => object_places.extend([*then, *els]),
                    LVal::Bound(_) => {
                        return unsupported(
                            span.clone(),
                            format!(
                                "call to the method `{name}` without a body on a local object (it may change the object)"
                            ),
                        );
                    }
                }
            }
        }
        for arg in args {
            let v = self.rvalue(arg, out)?;
            structs |= matches!(v, Val::Struct(_));
            self.flatten(v, !pointee_is_const(arg.type_str()), &mut a, span)?;
        }
        for array in &a.clobbered {
            out.push(Stmt {
                kind: StmtKind::Clobber {
                    array: *array,
                    call: name.to_string(),
                },
                span: span.clone(),
            });
        }
        // One function per name and signature: the scalar types are in the SMT function's name
        // (`encode`); struct arguments add the callee's type.
        let fname = match (structs, n.inner.first().and_then(|c| callee_type(c))) {
            (true, Some(t)) => format!("{name} {t}"),
            _ => name.to_string(),
        };
        let ret = self.ctype(n);
        let writes = !a.clobbered.is_empty();
        let what = match (&ret, a.pointers, writes) {
            (CType::Void, false, _) => "no effect: it returns nothing and takes no pointer",
            (_, false, _) => "a pure function of its arguments (equal arguments give equal results)",
            (CType::Void, true, false) => "no effect: it returns nothing and writes through no pointer",
            (CType::Void, true, true) => "it may write anything through its pointer arguments",
            (_, true, false) => {
                "its result is arbitrary at each call (it may read memory through its pointer arguments)"
            }
            (_, true, true) => {
                "its result is arbitrary at each call, and it may write anything through its pointer arguments"
            }
        };
        self.note_once(name, span, &format!("has no body: treated as uninterpreted, {what}"));
        if !self.declared_by_library(n) && !self.k.impure.contains(&fname) {
            self.k.impure.push(fname.clone());
        }
        self.opaque_value(&ret, &fname, &a, span, out)
    }

    /// Whether the function that the call `n` calls is declared by the toolkit's or a system
    /// library's headers (it comes from the precompiled header, so the AST lacks it, or its
    /// declaration lies in a library folder: [`crate::frontend::lower::globals::in_library`]),
    /// not by the program itself ([`Globals::program_fns`](crate::frontend::lower::globals::Globals)).
    fn declared_by_library(&self, n: &Node) -> bool {
        let callee = n.inner.first().map(crate::frontend::ast::strip_parens);
        // A plain call names its callee by `referencedDecl`, a member call by the member
        // expression's `referencedMemberDecl`.
        let Some(id) = callee.and_then(|c| {
            c.referenced_decl
                .as_ref()
                .map(|d| d.id.as_str())
                .or(c.referenced_member_decl.as_deref())
        }) else {
            return false;
        };
        self.g.program_fns.get(id) != Some(&true)
    }

    /// Adds "`name` (span) text" to the kernel's notes unless one about `name` is there.
    pub(in crate::frontend) fn note_once(&mut self, name: &str, span: &Span, text: &str) {
        let head = format!("`{name}` (");
        if !self.k.notes.iter().any(|x| x.starts_with(&head)) {
            self.k.notes.push(format!("`{name}` ({span}) {text}"));
        }
    }

    /// The value of type `t` that the call returns: `name`'s opaque function of the scalar
    /// arguments, or a fresh value when the call takes pointers; a struct field by field.
    fn opaque_value(&mut self, t: &CType, name: &str, a: &Args, span: &Span, out: &mut Vec<Stmt>) -> R<Val> {
        match t {
            CType::Void => Ok(Val::Void),
            CType::Scalar(ty) if a.pointers => {
                let v = self.temp(*ty);
                out.push(Stmt {
                    kind: StmtKind::Havoc { var: v },
                    span: span.clone(),
                });
                Ok(Val::Scalar(Expr::Var { id: v, ty: *ty }))
            }
            CType::Scalar(ty) => {
                if !self.k.uninterpreted.iter().any(|u| u == name) {
                    self.k.uninterpreted.push(name.to_string());
                }
                Ok(Val::Scalar(Expr::Opaque {
                    name: name.to_string(),
                    args: a.scalars.clone(),
                    ty: *ty,
                }))
            }
            CType::Record(r) => {
                let Some(fields) = self.g.types.fields(r) else {
                    return unsupported(span.clone(), format!("struct `{r}` without a known layout"));
                };
                let mut vs = Vec::new();
                for (f, _, ft) in fields {
                    let v = self.opaque_value(&ft, &format!("{name}.{f}"), a, span, out)?;
                    vs.push((f, v));
                }
                Ok(Val::Struct(vs))
            }
            other => unsupported(
                span.clone(),
                format!(
                    "call to function without a body `{}` returning `{}`",
                    name.split(['.', ' ']).next().unwrap_or(name),
                    other.describe()
                ),
            ),
        }
    }

    /// Adds the value `v` of an argument to `a`: scalars in order, the arrays of pointers (when
    /// `writable`, and always for pointers inside structs) as clobbered.
    ///
    /// Errors: the address of a local variable (the callee could write it, which is not
    /// modelled).
    fn flatten(&self, v: Val, writable: bool, a: &mut Args, span: &Span) -> R<()> {
        match v {
            Val::Scalar(e) => a.scalars.push(e),
            Val::Ptr(p) => {
                a.pointers = true;
                let read_only = self.k.array(p.array).space == Space::Constant;
                if writable && !read_only && !a.clobbered.contains(&p.array) {
                    a.clobbered.push(p.array);
                }
            }
            Val::Struct(fs) => {
                for (_, f) in fs {
                    self.flatten(f, true, a, span)?;
                }
            }
            Val::Array(vs) => {
                for f in vs {
                    self.flatten(f, true, a, span)?;
                }
            }
            // A pointer into one of several arrays: each may be written.
            Val::PtrCond(_, p, q) => {
                self.flatten(*p, writable, a, span)?;
                self.flatten(*q, writable, a, span)?;
            }
            Val::Addr(_) => {
                return unsupported(
                    span.clone(),
                    "address of a local variable passed to a function without a body",
                );
            }
            Val::Void => {}
        }
        Ok(())
    }
}

/// Whether the pointer type `t` (as clang spells it) points to `const` data: `const int *`,
/// `int const *`, `const T *const`; not `int *const` nor `const int **`.
fn pointee_is_const(t: &str) -> bool {
    let Some(star) = t.rfind('*') else {
        return false;
    };
    let pointee = t[..star].trim();
    match pointee.rfind('*') {
        // `T *const *`: the pointee is a pointer; const if qualified after its star.
        Some(i) => pointee[i + 1..].split_whitespace().any(|w| w == "const"),
        None => pointee.split_whitespace().any(|w| w == "const"),
    }
}

/// The type of the function a callee expression names (`int (struct s)`), past implicit casts.
fn callee_type(c: &Node) -> Option<&str> {
    if let Some(d) = &c.referenced_decl {
        return Some(d.ty.qual_type.as_str());
    }
    c.inner.first().and_then(callee_type)
}

/// The implicit object of the member call `n` (`x.f()`, `p->f()`: `x` or `p`, and whether it is
/// reached through a pointer), if `n` is one.
fn implicit_object(n: &Node) -> Option<(&Node, bool)> {
    if n.kind != "CXXMemberCallExpr" {
        return None;
    }
    let callee = crate::frontend::ast::strip_parens(n.inner.first()?);
    if callee.kind != "MemberExpr" {
        return None;
    }
    Some((callee.inner.first()?, callee.is_arrow))
}

#[cfg(test)]
mod tests {
    use super::pointee_is_const;

    #[test]
    fn const_pointees() {
        assert!(pointee_is_const("const int *"));
        assert!(pointee_is_const("int const *"));
        assert!(pointee_is_const("const float *const"));
        assert!(pointee_is_const("const char *__restrict"));
        assert!(!pointee_is_const("int *"));
        assert!(!pointee_is_const("int *const"));
        assert!(!pointee_is_const("const int **"));
        assert!(pointee_is_const("int *const *"));
        assert!(!pointee_is_const("int"));
    }
}
