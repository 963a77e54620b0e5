//! What an assertion's condition read, per thread: the witness's "values it read" in the
//! concrete model (`gpug check`), recorded by the statement interpreter at each `assert`.

use super::{Encoder, TState};
use crate::ir::visit::{VarContext, Visitor};
use crate::ir::{ArrayId, Expr, Ty, VarId};
use crate::solver::Sexp;

/// What an assertion's condition read, per thread (the witness's "values it read").
#[derive(Clone, Debug)]
pub struct AssertInfo {
    pub cond: Expr,
    /// Per thread: the variables of the condition with their terms.
    pub reads: Vec<Vec<ReadTerm>>,
}

/// A variable of an assertion's condition: a source variable, or a temporary loaded from an
/// array at a byte offset (BV64).
#[derive(Clone, Debug)]
pub struct ReadTerm {
    pub name: String,
    pub origin: Option<(ArrayId, Sexp)>,
    pub ty: Ty,
    pub value: Sexp,
}

impl Encoder<'_> {
    /// The variables `cond` reads, for thread `th`.
    pub(in crate::encode) fn assert_reads(&mut self, cond: &Expr, ts: &mut TState, th: usize) -> Vec<ReadTerm> {
        let mut vars = Vec::new();
        expr_vars(cond, &mut vars);
        let mut out = Vec::new();
        for v in vars {
            let origin = self.load_origin.get(&(th, v)).cloned();
            let name = self.k.var(v).name.clone();
            if origin.is_none() && name.starts_with('$') {
                continue;
            }
            let value = self.read_var(v, ts, th);
            out.push(ReadTerm {
                name,
                origin,
                ty: self.k.var(v).ty,
                value,
            });
        }
        out
    }
}

/// Appends to `out` the variables `e` reads, in order, each once.
pub(in crate::encode) fn expr_vars(e: &Expr, out: &mut Vec<VarId>) {
    ReadVars(out).visit_expr(e);
}

/// Collects the variables read, in order of reading, without repetitions.
pub(in crate::encode) struct ReadVars<'a>(pub(in crate::encode) &'a mut Vec<VarId>);

impl Visitor for ReadVars<'_> {
    // What another thread's side of the condition reads is not this thread's.
    fn visit_expr(&mut self, e: &Expr) {
        if !matches!(e, Expr::Other(_)) {
            self.super_expr(e);
        }
    }

    fn visit_var(&mut self, var: VarId, ctx: VarContext) {
        if ctx == VarContext::Read && !self.0.contains(&var) {
            self.0.push(var);
        }
    }
}
