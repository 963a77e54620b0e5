//! Constructors and aggregates in expressions. A user-written constructor (`S s(i);`,
//! `S(1.0f, 2.0f)` as a value, `Packed{bits}`) is inlined like a method: its object, the
//! place being initialised, is what `this` points to, and its member initializers (`: k(3)`)
//! run before its body. An initializer list in an expression (`f({a, 1.0f})`,
//! `return P{n, m};`) is the value of a temporary initialised from it.
//!
//! Implicit constructors (copies, moves) copy the value (`decl.rs`), and so do the
//! constructors of CUDA's own types (`dim3`, the vector types, `__half` and the others named
//! with `__`), which their own modules model.

use super::{Binding, LVal, Lower, R, Val, unsupported};
use crate::frontend::ast::Node;
use crate::frontend::lower::calls::default_arg;
use crate::frontend::types::{CType, TypeEnv};
use crate::ir::*;

impl<'a> Lower<'a, '_> {
    /// The user-written constructor with a body that the `CXXConstructExpr` `e` calls, if any
    /// (found in its record by the constructor's type).
    pub(in crate::frontend) fn user_constructor(&self, e: &Node) -> Option<&'a Node> {
        let cty = self.ctype(e);
        let CType::Record(r) = &cty else {
            return None;
        };
        if r.starts_with("__") || r == "dim3" || self.vector_type(&cty).is_some() {
            return None;
        }
        let want = e.ctor_type.as_ref()?.qual_type.as_str();
        let rec = self.g.record_nodes.get(r)?;
        rec.inner.iter().find(|m| {
            m.kind == "CXXConstructorDecl"
                && !m.is_implicit
                && m.ty.as_ref().is_some_and(|t| t.qual_type == want)
                && super::globals::body_of(m).is_some()
        })
    }

    /// Initialise `lv` with the constructor `ctor`, as the `CXXConstructExpr` `e` calls it.
    pub(in crate::frontend) fn construct_into(
        &mut self,
        ctor: &'a Node,
        e: &Node,
        lv: LVal,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let span = self.span(e);
        let name = ctor.name.clone().unwrap_or_default();
        let params: Vec<&Node> = ctor.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
        let args: Vec<&Node> = e.code_children().collect();
        if args.len() != params.len() {
            return unsupported(
                span,
                format!("call of the constructor of `{name}` with {} arguments", args.len()),
            );
        }
        let mut vals = Vec::new();
        for (a, p) in args.into_iter().zip(&params) {
            let a = default_arg(a, p, &span)?;
            let pty = self.ctype(p);
            vals.push(self.arg(a, &pty, out)?);
        }
        let this = self.pin(lv, &span, out);
        self.inline_call(ctor, &name, params, vals, Some(this), Default::default(), &span, out)?;
        Ok(())
    }

    /// The member initializers of the constructor `ctor` being inlined (its object is the
    /// frame's), in their order.
    ///
    /// Errors: an initializer of a base class; a default member initializer
    /// (`CXXDefaultInitExpr`, whose value clang's JSON leaves out) except in CUDA's 16-bit
    /// float types, whose constructors run on a fresh object ([`crate::frontend::cuda::ctor16`]) that the
    /// field may then leave unconstrained; what lowering an initializer meets.
    pub(in crate::frontend) fn member_inits(&mut self, ctor: &Node, out: &mut Vec<Stmt>) -> R<()> {
        for i in ctor.inner.iter().filter(|c| c.kind == "CXXCtorInitializer") {
            let span = self.span(i.inner.first().unwrap_or(ctor));
            if i.base_init.is_some() {
                return unsupported(span, "constructor initializing a base class");
            }
            let Some(f) = &i.any_init else {
                return unsupported(span, "base class initializer in a constructor");
            };
            let Some(e) = i.code_children().last() else {
                return unsupported(span, format!("initializer of the member `{}` without a value", f.name));
            };
            if e.kind == "CXXDefaultInitExpr" {
                let fp16 = ctor.name.as_deref().is_some_and(crate::frontend::types::is_fp16_record);
                if fp16 {
                    continue;
                }
                return unsupported(
                    span,
                    format!("default member initializer of `{}` in a constructor", f.name),
                );
            }
            let Some(this) = self.frame().this_obj.clone() else {
                return unsupported(span, "member initializer outside a constructor");
            };
            let sub = self.member_of(this, &f.name, &span)?;
            let ft = self.g.types.parse(f.ty.best());
            self.init(sub, &ft, e, &span, out)?;
        }
        Ok(())
    }

    /// A temporary of `e`'s record type, initialised by `fill`, as a value.
    fn temporary(
        &mut self,
        e: &Node,
        out: &mut Vec<Stmt>,
        fill: impl FnOnce(&mut Self, LVal, &mut Vec<Stmt>) -> R<()>,
    ) -> R<Val> {
        let cty = self.ctype(e);
        let span = self.span(e);
        self.temps += 1;
        let name = format!("$obj{}", self.temps - 1);
        let lv = match self.local_binding(&name, &cty, "", &span)? {
            Binding::Mem(array, cty) => LVal::Mem {
                array,
                off: Expr::int(0, Ty::I64),
                cty,
            },
            b => LVal::Bound(b),
        };
        fill(self, lv.clone(), out)?;
        self.read(lv, e, out)
    }

    /// The object the constructor `ctor` makes for the `CXXConstructExpr` `e`, as a value.
    pub(in crate::frontend) fn constructed(&mut self, ctor: &'a Node, e: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        self.temporary(e, out, |l, lv, out| l.construct_into(ctor, e, lv, out))
    }

    /// The struct value of the initializer list `n` (of a record type) in an expression.
    pub(in crate::frontend) fn aggregate(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Val> {
        let cty = self.ctype(n);
        let span = self.span(n);
        self.temporary(n, out, |l, lv, out| l.init(lv, &cty, n, &span, out))
    }
}

/// Whether `f` (a constructor or `operator=` of the record `r`) is a copy or a move: one
/// parameter, a reference to `r`.
pub(in crate::frontend) fn is_copy(types: &TypeEnv, f: &Node, r: &str) -> bool {
    let params: Vec<&Node> = f.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
    match params.as_slice() {
        [p] => matches!(types.parse(p.type_str()), CType::Ref(to) if matches!(&*to, CType::Record(x) if x == r)),
        _ => false,
    }
}
