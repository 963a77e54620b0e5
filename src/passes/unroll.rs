//! Loop unrolling: a loop whose test is a constant in every iteration, given the geometry and
//! the constants known before it, becomes its iterations (PUG §6: loops with a concrete bound).
//!
//! Input: a `Loop` and the environment before it. Output: one `Block` (the `break` target)
//! holding, per iteration, the test's statements, a `Block` (the `continue` target) with the
//! body, and the step; `Break`/`Continue` of this loop are `Exit`s of those blocks. Fails (the
//! caller then abstracts the loop) when a test is not constant, past `--unroll` iterations or
//! the statement limit, or when a nested loop could not be unrolled.

use super::{LoopParts, Preparer};
use crate::ir::eval::{Env, eval};
use crate::ir::{Stmt, StmtKind};

impl Preparer<'_> {
    /// Unrolls a loop whose condition is a constant in every iteration.
    pub(super) fn try_unroll(
        &mut self,
        s: &Stmt,
        l: &LoopParts<'_>,
        env: &mut Env,
    ) -> Result<(Vec<Stmt>, u64), String> {
        let brk = self.kernel.new_block();
        let mut inner = Vec::new();
        let mut iterations = 0u64;
        let mut first = true;
        loop {
            if env.is_unreachable() {
                break;
            }
            if !(first && l.do_while) {
                let cs = self.block(l.cond_stmts, env);
                inner.extend(cs);
                match eval(l.cond, env, self.geometry) {
                    Some(c) if c == 0.into() => break,
                    Some(_) => {}
                    None => {
                        return Err(format!(
                            "loop at line {}: trip count is not concrete for this geometry (loop abstraction is not implemented yet)",
                            s.span.line
                        ));
                    }
                }
            }
            first = false;
            iterations += 1;
            if iterations > self.opts.unroll as u64 {
                return Err(format!(
                    "loop at line {}: more than {} iterations (raise --unroll)",
                    s.span.line, self.opts.unroll
                ));
            }
            if self.emitted > self.opts.max_statements {
                return Err(format!(
                    "loop at line {}: unrolled kernel exceeds {} statements",
                    s.span.line, self.opts.max_statements
                ));
            }
            let cont = self.kernel.new_block();
            let nested_before = self.inconclusive.len();
            self.loop_targets.push((brk, cont));
            let body = self.block(l.body, env);
            self.loop_targets.pop();
            for e in self.exits.remove(&cont).unwrap_or_default() {
                env.join(&e);
            }
            if self.inconclusive.len() > nested_before {
                // A nested loop could not be unrolled: neither can this one.
                let why = self.inconclusive.last().map(|(_, w)| w.clone()).unwrap_or_default();
                return Err(why);
            }
            inner.push(Stmt {
                kind: StmtKind::Block { id: cont, body },
                span: s.span.clone(),
            });
            let step = self.block(l.step, env);
            inner.extend(step);
        }
        for e in self.exits.remove(&brk).unwrap_or_default() {
            env.join(&e);
        }
        Ok((
            vec![Stmt {
                kind: StmtKind::Block { id: brk, body: inner },
                span: s.span.clone(),
            }],
            iterations,
        ))
    }
}
