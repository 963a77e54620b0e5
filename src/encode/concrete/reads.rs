//! What an assertion's condition read, per thread: the witness's "values it read" in the
//! concrete model (`gpug check`), recorded by the statement interpreter at each `assert`.

use super::state::ReadTerm;
use crate::encode::engine::{Encoder, TState};
use crate::ir::Expr;
use crate::ir::query::expr_vars;

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
