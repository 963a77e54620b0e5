//! Bounded unwinding (`--loop-unwind N`, GPUVerify's spelling): every loop runs at most N
//! iterations, whatever its trip count; executions that would run longer are cut by assuming
//! the test false. Unsound for longer executions: the report says so.
//!
//! Input: a `Loop` and the environment before it. Output: one `Block` (the `break` target)
//! holding N nested guarded copies of the iteration (`if (cond) { { body } step … }`, the
//! first one unguarded for a `do … while`), the innermost followed by `assume(!cond)`. Nothing
//! the loop assigns is a known constant inside or after it.

use super::{LoopParts, Preparer, not};
use crate::ir::eval::Env;
use crate::ir::{Stmt, StmtKind};

impl Preparer<'_> {
    /// `n` guarded copies of the iteration, nested, then the test assumed false.
    pub(super) fn unwind(&mut self, s: &Stmt, l: &LoopParts<'_>, env: &mut Env, n: u32) -> Vec<Stmt> {
        l.forget_assigned(env);
        let brk = self.kernel.new_block();
        let mut tail: Vec<Stmt> = self.block(l.cond_stmts, &mut env.clone());
        tail.push(Stmt {
            kind: StmtKind::Assume {
                cond: not(l.cond.clone()),
            },
            span: s.span.clone(),
        });
        for k in (0..n).rev() {
            let cont = self.kernel.new_block();
            let mut e = env.clone();
            self.loop_targets.push((brk, cont));
            let body = self.block(l.body, &mut e);
            self.loop_targets.pop();
            self.exits.remove(&cont);
            let mut iteration = vec![Stmt {
                kind: StmtKind::Block { id: cont, body },
                span: s.span.clone(),
            }];
            iteration.extend(self.block(l.step, &mut e));
            iteration.extend(tail);
            let first_untested = k == 0 && l.do_while;
            tail = if first_untested {
                iteration
            } else {
                let mut t = self.block(l.cond_stmts, &mut env.clone());
                t.push(Stmt {
                    kind: StmtKind::If {
                        cond: l.cond.clone(),
                        then: iteration,
                        els: vec![],
                    },
                    span: s.span.clone(),
                });
                t
            };
        }
        self.exits.remove(&brk);
        vec![Stmt {
            kind: StmtKind::Block { id: brk, body: tail },
            span: s.span.clone(),
        }]
    }
}
