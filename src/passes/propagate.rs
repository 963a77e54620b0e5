//! Constant propagation and branch folding: the walk of [`super::prepare`] over the
//! statements, with the constant environment ([`crate::ir::eval::Env`]) flowing through them.
//!
//! Input: statements of a lowered kernel. Output: the same statements, except that an `If`
//! whose condition is constant is replaced by the arm taken, an `Invariant` outside a loop head
//! becomes an `Assert`, a `Break`/`Continue` of a loop being unrolled becomes an `Exit` of that
//! loop's block, and each `Loop` is handed to [`super::Preparer::lower_loop`]. This walk changes
//! no expression: it only decides which statements remain.

use super::{LoopParts, Preparer};
use crate::ir::eval::{Env, eval};
use crate::ir::query::own_def;
use crate::ir::{Stmt, StmtKind};

impl Preparer<'_> {
    /// Prepares `stmts`, updating `env` to the environment after them.
    pub(super) fn block(&mut self, stmts: &[Stmt], env: &mut Env) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            if self.stop_at_memory_bound(s) {
                break;
            }
            self.stmt(s, env, &mut out);
        }
        out
    }

    fn stmt(&mut self, s: &Stmt, env: &mut Env, out: &mut Vec<Stmt>) {
        self.emitted += 1;
        match &s.kind {
            StmtKind::Assign { var, value } => {
                match eval(value, env, self.geometry) {
                    Some(v) => env.set(*var, v),
                    None => env.kill(*var),
                }
                out.push(s.clone());
            }
            // Outside the head of an abstracted loop an invariant is checked where it stands,
            // as an assertion after the statements computing its values (whose loads are then
            // reads of the thread, as an `__assert`'s are).
            StmtKind::Invariant { body, cond } => {
                let body = self.block(body, env);
                out.extend(body);
                out.push(Stmt {
                    kind: StmtKind::Assert { cond: cond.clone() },
                    span: s.span.clone(),
                });
            }
            StmtKind::Return => {
                // Nothing after it runs: no environment flows on.
                *env = Env::unreachable();
                out.push(s.clone());
            }
            StmtKind::Exit(id) => {
                self.exits.entry(*id).or_default().push(env.clone());
                *env = Env::unreachable();
                out.push(s.clone());
            }
            StmtKind::Break | StmtKind::Continue => {
                let Some(&(brk, cont)) = self.loop_targets.last() else {
                    // Outside any loop being unrolled: keep (the enclosing loop is unsupported).
                    out.push(s.clone());
                    return;
                };
                let id = if matches!(s.kind, StmtKind::Break) { brk } else { cont };
                self.exits.entry(id).or_default().push(env.clone());
                *env = Env::unreachable();
                out.push(Stmt {
                    kind: StmtKind::Exit(id),
                    span: s.span.clone(),
                });
            }
            StmtKind::If { cond, then, els } => match eval(cond, env, self.geometry) {
                Some(c) => {
                    let arm = if c != 0.into() { then } else { els };
                    let folded = self.block(arm, env);
                    out.extend(folded);
                }
                None => {
                    let mut env_else = env.clone();
                    let then2 = self.block(then, env);
                    let els2 = self.block(els, &mut env_else);
                    env.join(&env_else);
                    out.push(Stmt {
                        kind: StmtKind::If {
                            cond: cond.clone(),
                            then: then2,
                            els: els2,
                        },
                        span: s.span.clone(),
                    });
                }
            },
            StmtKind::Block { id, body } => {
                let body2 = self.block(body, env);
                for e in self.exits.remove(id).unwrap_or_default() {
                    env.join(&e);
                }
                out.push(Stmt {
                    kind: StmtKind::Block { id: *id, body: body2 },
                    span: s.span.clone(),
                });
            }
            StmtKind::Loop {
                cond_stmts,
                cond,
                body,
                step,
                do_while,
            } => {
                let parts = LoopParts {
                    cond_stmts,
                    cond,
                    body,
                    step,
                    do_while: *do_while,
                };
                self.lower_loop(s, &parts, env, out);
            }
            // Any other statement is kept as it is; what it gives a value (a havoc, a load, an
            // atomic's result) is no longer a known constant.
            _ => {
                if let Some(v) = own_def(s) {
                    env.kill(v);
                }
                out.push(s.clone());
            }
        }
    }
}
