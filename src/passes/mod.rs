//! Passes over [`crate::ir`] before encoding: constant propagation with the launch geometry,
//! folding of branches whose condition is constant, and unrolling of loops whose trip count is
//! concrete once the geometry is known (PUG paper, `003_…`, §6: loops with a concrete bound are
//! unrolled; loop abstraction is a separate issue).
//!
//! Inlining and pointer-alias resolution, which DESIGN.md places here, are done while lowering
//! in [`crate::frontend`]: both need clang's declarations (parameters, pointee types), which the
//! IR deliberately does not carry. The IR that reaches this module is already free of calls and
//! pointers.
//!
//! Entry point: [`prepare`].

mod consts;

use crate::ir::{BlockId, Expr, Kernel, Span, Stmt, StmtKind, VarId};
pub use consts::Geometry;
use consts::{Env, eval};
use std::collections::{BTreeSet, HashMap};

/// Options of [`prepare`].
#[derive(Clone, Debug)]
pub struct PassOptions {
    /// Most iterations a loop is unrolled to (`--unroll`, default 64).
    pub unroll: u32,
    /// Most statements the unrolled kernel may have before unrolling gives up.
    pub max_statements: usize,
}

impl Default for PassOptions {
    fn default() -> Self {
        PassOptions {
            unroll: 64,
            max_statements: 200_000,
        }
    }
}

/// How a loop was treated, for the report.
#[derive(Clone, Debug, PartialEq)]
pub enum LoopTreatment {
    /// Unrolled this many iterations (trip count concrete for the geometry).
    Unrolled(u64),
    /// Loop without memory accesses, barriers, assertions or exits: the variables it assigns
    /// are havocked (an over-approximation, sound for race and divergence checking).
    Havocked,
    /// Neither: the verdict of the kernel is inconclusive.
    Unsupported(String),
}

/// The kernel after the passes, with what the report needs to know about loops.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The kernel without `Loop`, `Break` and `Continue` statements when `inconclusive` is
    /// empty.
    pub kernel: Kernel,
    /// Each loop's source span (first occurrence) and treatment.
    pub loops: Vec<(Span, LoopTreatment)>,
    /// Why the verdict cannot be conclusive (a loop we cannot unroll), with its span.
    pub inconclusive: Vec<(Span, String)>,
}

/// Runs constant propagation, branch folding and loop unrolling on `kernel` for `geometry`.
///
/// Never fails: a loop that cannot be unrolled is kept as it is and reported in
/// [`Prepared::inconclusive`] (then the encoder must not be asked for a conclusive verdict).
pub fn prepare(kernel: &Kernel, geometry: &Geometry, opts: &PassOptions) -> Prepared {
    let mut k = kernel.clone();
    let body = std::mem::take(&mut k.body);
    let mut u = Unroller {
        kernel: &mut k,
        geometry,
        opts,
        loops: Vec::new(),
        inconclusive: Vec::new(),
        exits: HashMap::new(),
        loop_targets: Vec::new(),
        emitted: 0,
    };
    let mut env = Env::default();
    let out = u.block(&body, &mut env);
    let loops = u.loops;
    let inconclusive = u.inconclusive;
    k.body = out;
    Prepared {
        kernel: k,
        loops,
        inconclusive,
    }
}

struct Unroller<'a> {
    kernel: &'a mut Kernel,
    geometry: &'a Geometry,
    opts: &'a PassOptions,
    loops: Vec<(Span, LoopTreatment)>,
    inconclusive: Vec<(Span, String)>,
    /// Environments recorded at `Exit`s of the blocks being walked.
    exits: HashMap<BlockId, Vec<Env>>,
    /// (break target, continue target) of the loops being unrolled, innermost last.
    loop_targets: Vec<(BlockId, BlockId)>,
    emitted: usize,
}

impl Unroller<'_> {
    fn block(&mut self, stmts: &[Stmt], env: &mut Env) -> Vec<Stmt> {
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            self.stmt(s, env, &mut out);
        }
        out
    }

    fn record_loop(&mut self, span: &Span, t: LoopTreatment) {
        if !self.loops.iter().any(|(s, _)| s == span) {
            if let LoopTreatment::Unsupported(why) = &t {
                self.inconclusive.push((span.clone(), why.clone()));
            }
            self.loops.push((span.clone(), t));
        }
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
            StmtKind::Havoc { var } | StmtKind::Load { dst: var, .. } => {
                env.kill(*var);
                out.push(s.clone());
            }
            StmtKind::Atomic { dst, .. } => {
                if let Some(d) = dst {
                    env.kill(*d);
                }
                out.push(s.clone());
            }
            StmtKind::Store { .. }
            | StmtKind::Barrier
            | StmtKind::Assert { .. }
            | StmtKind::Assume { .. }
            | StmtKind::Ensures { .. } => out.push(s.clone()),
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
        }
    }

    fn lower_loop(&mut self, s: &Stmt, l: &LoopParts<'_>, env: &mut Env, out: &mut Vec<Stmt>) {
        let saved_env = env.clone();
        let saved_emitted = self.emitted;
        let saved_next_block = self.kernel.next_block;
        let saved_inconclusive = self.inconclusive.len();
        match self.try_unroll(s, l, env) {
            Ok((stmts, n)) => {
                self.record_loop(&s.span, LoopTreatment::Unrolled(n));
                out.extend(stmts);
            }
            Err(why) => {
                *env = saved_env;
                self.emitted = saved_emitted;
                self.kernel.next_block = saved_next_block;
                self.inconclusive.truncate(saved_inconclusive);
                if let Some(stmts) = self.havoc_loop(s, l, env) {
                    self.record_loop(&s.span, LoopTreatment::Havocked);
                    out.extend(stmts);
                } else {
                    self.record_loop(&s.span, LoopTreatment::Unsupported(why));
                    out.push(s.clone());
                }
            }
        }
    }

    /// Unrolls a loop whose condition is a constant in every iteration.
    fn try_unroll(&mut self, s: &Stmt, l: &LoopParts<'_>, env: &mut Env) -> Result<(Vec<Stmt>, u64), String> {
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

    /// A loop that touches no memory and has no barrier, assertion or exit other than its own
    /// `break`/`continue` is replaced by havocs of the variables it assigns, followed by the
    /// negated condition when it has no `break`.
    fn havoc_loop(&mut self, s: &Stmt, l: &LoopParts<'_>, env: &mut Env) -> Option<Vec<Stmt>> {
        let mut assigned = BTreeSet::new();
        let mut has_break = false;
        for part in [l.cond_stmts, l.body, l.step] {
            if !havocable(part, &mut assigned, &mut has_break, 0) {
                return None;
            }
        }
        let mut out: Vec<Stmt> = assigned
            .iter()
            .map(|v| Stmt {
                kind: StmtKind::Havoc { var: *v },
                span: s.span.clone(),
            })
            .collect();
        for v in &assigned {
            env.kill(*v);
        }
        if !has_break {
            out.extend(l.cond_stmts.iter().cloned());
            let not = Expr::Unary {
                op: crate::ir::UnOp::Not,
                arg: Box::new(l.cond.clone()),
                ty: crate::ir::Ty::Bool,
            };
            out.push(Stmt {
                kind: StmtKind::Assume { cond: not },
                span: s.span.clone(),
            });
        }
        Some(out)
    }
}

struct LoopParts<'a> {
    cond_stmts: &'a [Stmt],
    cond: &'a Expr,
    body: &'a [Stmt],
    step: &'a [Stmt],
    do_while: bool,
}

/// Whether `stmts` only compute on scalars; collects the variables they assign. `depth` counts
/// nested loops, whose `break`s are their own.
fn havocable(stmts: &[Stmt], assigned: &mut BTreeSet<VarId>, has_break: &mut bool, depth: u32) -> bool {
    stmts.iter().all(|s| match &s.kind {
        StmtKind::Assign { var, .. } | StmtKind::Havoc { var } => {
            assigned.insert(*var);
            true
        }
        StmtKind::If { then, els, .. } => {
            havocable(then, assigned, has_break, depth) && havocable(els, assigned, has_break, depth)
        }
        StmtKind::Loop {
            cond_stmts, body, step, ..
        } => {
            havocable(cond_stmts, assigned, has_break, depth + 1)
                && havocable(body, assigned, has_break, depth + 1)
                && havocable(step, assigned, has_break, depth + 1)
        }
        StmtKind::Break => {
            if depth == 0 {
                *has_break = true;
            }
            true
        }
        StmtKind::Continue => true,
        StmtKind::Block { body, .. } => havocable(body, assigned, has_break, depth),
        _ => false,
    })
}

#[cfg(test)]
mod tests;
