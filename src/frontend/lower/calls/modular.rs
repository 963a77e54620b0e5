//! Device functions checked on their own (`--modular`; GPUVerify's `--no-inline`).
//!
//! GPUVerify verifies every procedure of a kernel file modularly: a device function is checked for
//! every caller its precondition admits, and a call is summarised by the callee's contract (Chong
//! et al. (OOPSLA 2013) §3.3, "Modular and staged verification"). gpug inlines calls, which is more
//! precise at each call but checks a function only where a kernel calls it, and only with the
//! arguments those calls pass. With `--modular` it also checks, each as an entry point of its own,
//! the device functions of the kernel's file that
//! - have a contract (`__requires`, `__ensures` and their `__global_` forms): the contract is a
//!   promise to every caller, not only to today's, or
//! - no kernel calls: they would otherwise not be checked at all.
//!
//! Calls from kernels are still inlined; the functions' own checks come on top.
//!
//! The entry calls the function once in every thread, each thread passing arguments of its own:
//! - a scalar is an arbitrary value, and the two threads of the pair may pass different ones;
//! - a pointer points into an array of its address space (OpenCL's qualifier: `__local`,
//!   `__global`, `__constant`, private when unqualified; CUDA: global memory, the space whose
//!   races are the most), at an arbitrary offset of its own in each thread, non-negative, below
//!   2^40 bytes and a multiple of the pointee's size;
//!
//! its `__requires` are assumed there (they constrain these arguments: `__uniform_int(x)` makes
//! `x` the same in both threads), and its `__ensures` are checked at its exits, as at every
//! inlined call. A parameter of another type (a struct, a reference, a pointer to pointers) is
//! refused by name, and the run says the function was not checked.

use crate::frontend::ast::Node;
use crate::frontend::lower::decl::param_space;
use crate::frontend::lower::globals::{Globals, body_of};
use crate::frontend::lower::{Lower, PtrVal, R, Val, unsupported};
use crate::frontend::types::CType;
use crate::ir::build::bin;
use crate::ir::*;
use std::collections::HashSet;

/// GPUVerify's contract annotations of a device function.
const CONTRACTS: &[&str] = &["__requires", "__ensures", "__global_requires", "__global_ensures"];

/// The bound on a pointer argument's byte offset: 2^40 (1 TiB), more than any GPU's memory, so
/// that offsets computed from it do not wrap.
const MAX_OFFSET: i64 = 1 << 40;

/// The device functions of the kernels' file that `--modular` checks on their own (see the
/// module docs), in source order: not a kernel, not a method or template instance, device code
/// (CUDA: `__device__`), with a body, and either with a contract or called by none of `roots`
/// (directly or through other functions).
pub(in crate::frontend) fn functions<'a>(g: &Globals<'a>, roots: &[&'a Node]) -> Vec<&'a Node> {
    let files: HashSet<&str> = roots.iter().filter_map(|k| k.pos.as_ref()).map(|p| &*p.file).collect();
    let called = reachable(g, roots);
    let mut out: Vec<&Node> = g
        .funcs_by_id
        .values()
        .copied()
        .filter(|f| {
            f.kind == "FunctionDecl"
                && !f.has_attr("CUDAGlobalAttr")
                && (g.language == Language::OpenCl || f.has_attr("CUDADeviceAttr"))
                && !f.inner.iter().any(|c| c.kind == "TemplateArgument")
                // Not a name reserved to the implementation (C11 7.1.3): the preludes' functions,
                // `__axiom`'s `__gpug_axiom_N` among them.
                && f.name.as_deref().is_some_and(|n| !n.starts_with("__"))
                && f.pos.as_ref().is_some_and(|p| files.contains(&*p.file))
                && (!called.contains(&f.id) || body_of(f).is_some_and(has_contract))
        })
        .collect();
    out.sort_by_key(|f| f.pos.as_ref().map(|p| (p.line, p.col)));
    out
}

/// The ids of the functions with a body that `roots` call, directly or through others.
fn reachable<'a>(g: &Globals<'a>, roots: &[&'a Node]) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut work: Vec<&Node> = roots.to_vec();
    while let Some(f) = work.pop() {
        let mut refs = Vec::new();
        function_refs(f, &mut refs);
        for id in refs {
            if let Some(def) = g.funcs_by_id.get(&id)
                && seen.insert(id)
            {
                work.push(def);
            }
        }
    }
    seen
}

/// The declaration ids of the functions `n` names (calls, and functions taken as values).
fn function_refs(n: &Node, out: &mut Vec<String>) {
    if n.kind == "DeclRefExpr"
        && let Some(d) = &n.referenced_decl
        && d.kind == "FunctionDecl"
    {
        out.push(d.id.clone());
    }
    for c in &n.inner {
        function_refs(c, out);
    }
}

/// Whether `body` states a contract ([`CONTRACTS`]).
fn has_contract(body: &Node) -> bool {
    (body.kind == "DeclRefExpr"
        && body
            .referenced_decl
            .as_ref()
            .is_some_and(|d| CONTRACTS.contains(&d.name.as_str())))
        || body.inner.iter().any(has_contract)
}

impl Lower<'_, '_> {
    /// The body of the entry checking the device function `f` on its own: `f` inlined with
    /// arbitrary arguments of each thread's own ([`Self::arbitrary_arg`]), its `__requires`
    /// assumed.
    ///
    /// # Errors
    /// [`crate::frontend::FrontendError::Unsupported`] for a parameter of a type not modelled
    /// here, or anything the body has that is not modelled.
    pub(in crate::frontend) fn modular_entry(&mut self, f: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let name = f.name.clone().unwrap_or_default();
        let span = self.kspan.clone();
        let params: Vec<&Node> = f.inner.iter().filter(|p| p.kind == "ParmVarDecl").collect();
        let mut vals = Vec::new();
        for (i, p) in params.iter().enumerate() {
            vals.push(self.arbitrary_arg(p, i, out)?);
        }
        self.k.notes.push(format!(
            "device function `{name}` checked on its own (--modular): called by every thread, each passing arguments of its own that satisfy its `__requires` (a pointer: at an offset below 2^40 bytes)"
        ));
        self.entry_depth = 2;
        self.inline(f, &name, params, vals, &span, out)?;
        Ok(())
    }

    /// An arbitrary argument for the parameter `p` (the `i`-th), each thread's own: see the
    /// module docs.
    fn arbitrary_arg(&mut self, p: &Node, i: usize, out: &mut Vec<Stmt>) -> R<Val> {
        let name = p.name.clone().unwrap_or_else(|| format!("$arg{i}"));
        let span = self.span(p);
        let havoc = |var: VarId, out: &mut Vec<Stmt>| {
            out.push(Stmt {
                kind: StmtKind::Havoc { var },
                span: span.clone(),
            })
        };
        match self.ctype(p) {
            CType::Scalar(ty) => {
                let v = self.k.new_var(&name, ty);
                havoc(v, out);
                Ok(Val::Scalar(Expr::Var { id: v, ty }))
            }
            CType::Ptr(pointee) if !matches!(*pointee, CType::Ptr(_)) => {
                let array = self.new_array(
                    &name,
                    param_space(p),
                    &CType::Array(pointee.clone(), None),
                    span.clone(),
                )?;
                let size = match *pointee {
                    CType::Void => 1,
                    ref t => self.size_of(t, &span)?.max(1),
                };
                // The offset as an element index times the pointee's size: aligned without a
                // remainder, which solvers find hard on 64 bits.
                let elem = self.k.new_var(format!("{name}$elem"), Ty::I64);
                havoc(elem, out);
                let e = Expr::Var { id: elem, ty: Ty::I64 };
                let cond = bin(
                    BinOp::LAnd,
                    bin(BinOp::Ge, e.clone(), Expr::int(0, Ty::I64), Ty::Bool),
                    bin(
                        BinOp::Lt,
                        e.clone(),
                        Expr::int(MAX_OFFSET / size as i64, Ty::I64),
                        Ty::Bool,
                    ),
                    Ty::Bool,
                );
                out.push(Stmt {
                    kind: StmtKind::Assume { cond },
                    span: span.clone(),
                });
                // A shift for a power-of-two size, which solvers read as bits (their incremental
                // cores prove the alignment of a product far more slowly).
                let o = match size.is_power_of_two() {
                    true => bin(BinOp::Shl, e, Expr::int(size.trailing_zeros(), Ty::I64), Ty::I64),
                    false => bin(BinOp::Mul, e, Expr::int(size, Ty::I64), Ty::I64),
                };
                Ok(Val::Ptr(PtrVal {
                    array,
                    off: o,
                    pointee: *pointee,
                }))
            }
            other => unsupported(
                span,
                format!(
                    "parameter `{name}` of type `{}` (a function checked on its own takes scalars and pointers)",
                    other.describe()
                ),
            ),
        }
    }
}
