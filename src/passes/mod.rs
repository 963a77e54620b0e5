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

use crate::ir::{BlockId, ClosedForm, Expr, Kernel, Span, Stmt, StmtKind, Ty, VarId};
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
    /// `--loop-unwind N` (GPUVerify's spelling): every loop is unrolled N times and then cut
    /// by assuming its test false, whatever its trip count. Bounded, hence unsound for longer
    /// executions; the report says so.
    pub loop_unwind: Option<u32>,
}

impl Default for PassOptions {
    fn default() -> Self {
        PassOptions {
            unroll: 64,
            max_statements: 200_000,
            loop_unwind: None,
        }
    }
}

/// How a loop was treated, for the report (`--explain`).
#[derive(Clone, Debug, PartialEq)]
pub enum LoopTreatment {
    /// Unrolled this many iterations (trip count concrete for the geometry).
    Unrolled(u64),
    /// Abstracted by one arbitrary iteration (PUG §6): the variables with a closed form in
    /// the iteration count (normalized `i = lb + it * stride`, halving, doubling), the
    /// havocked loop-carried variables, and the number of user invariants.
    Abstracted {
        closed: Vec<String>,
        havocked: Vec<String>,
        invariants: usize,
    },
    /// Cut after this many iterations (`--loop-unwind`): the verdict holds only for
    /// executions in which the loop runs at most that often.
    Unwound(u32),
    /// Not handled: the verdict of the kernel is inconclusive.
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
            | StmtKind::Ensures { .. }
            | StmtKind::AbstractLoop(_) => out.push(s.clone()),
            // Outside the head of an abstracted loop an invariant is checked where it stands.
            StmtKind::Invariant { cond } => out.push(Stmt {
                kind: StmtKind::Assert { cond: cond.clone() },
                span: s.span.clone(),
            }),
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
        if let Some(n) = self.opts.loop_unwind {
            let stmts = self.unwind(s, l, env, n);
            self.record_loop(&s.span, LoopTreatment::Unwound(n));
            out.extend(stmts);
            return;
        }
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
                // Not concrete (`why`): abstract it instead.
                let _ = why;
                let (stmt, treatment) = self.abstract_loop(s, l, env);
                self.record_loop(&s.span, treatment);
                out.push(stmt);
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

    /// `n` guarded copies of the iteration, nested, then the test assumed false.
    fn unwind(&mut self, s: &Stmt, l: &LoopParts<'_>, env: &mut Env, n: u32) -> Vec<Stmt> {
        let mut assigned = BTreeSet::new();
        for part in [l.cond_stmts, l.body, l.step] {
            assigned_vars(part, &mut assigned);
        }
        for v in &assigned {
            env.kill(*v);
        }
        let brk = self.kernel.new_block();
        let mut tail: Vec<Stmt> = self.block(l.cond_stmts, &mut env.clone());
        let not = Expr::Unary {
            op: crate::ir::UnOp::Not,
            arg: Box::new(l.cond.clone()),
            ty: Ty::Bool,
        };
        tail.push(Stmt {
            kind: StmtKind::Assume { cond: not },
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

    /// Builds the abstraction of a loop that is not unrolled (PUG §6): nested loops are
    /// prepared first, `break`/`continue` become exits, and the loop-carried variables are
    /// classified into closed forms and havocked ones.
    fn abstract_loop(&mut self, s: &Stmt, l: &LoopParts<'_>, env: &mut Env) -> (Stmt, LoopTreatment) {
        let mut assigned = BTreeSet::new();
        for part in [l.cond_stmts, l.body, l.step] {
            assigned_vars(part, &mut assigned);
        }
        // Nothing assigned in the loop is known at its head or after it.
        for v in &assigned {
            env.kill(*v);
        }
        let brk = self.kernel.new_block();
        let cont = self.kernel.new_block();
        let mut invariants = Vec::new();
        let mut head_env = env.clone();
        self.loop_targets.push((brk, cont));
        let cond_stmts = self.head(l.cond_stmts, &mut head_env, &mut invariants);
        let mut body = self.head(l.body, &mut head_env, &mut invariants);
        let step = self.block(l.step, &mut head_env);
        self.loop_targets.pop();
        self.exits.remove(&brk);
        self.exits.remove(&cont);
        // `while (c) { if (d) break; … }` is `while (c && !d) { … }`: the test then bounds the
        // iterations (normalization needs the exit condition in the test).
        let mut cond = l.cond.clone();
        if !l.do_while && cond_stmts.is_empty() {
            while let Some(StmtKind::If { cond: d, then, els }) = body.first().map(|s| &s.kind) {
                if !(els.is_empty() && then.len() == 1 && then[0].kind == StmtKind::Exit(brk)) {
                    break;
                }
                let not_d = Expr::Unary {
                    op: crate::ir::UnOp::Not,
                    arg: Box::new(d.clone()),
                    ty: Ty::Bool,
                };
                cond = match &cond {
                    Expr::Const { ty: Ty::Bool, value } if *value == 1.into() => not_d,
                    _ => Expr::Binary {
                        op: crate::ir::BinOp::LAnd,
                        lhs: Box::new(cond),
                        rhs: Box::new(not_d),
                        ty: Ty::Bool,
                    },
                };
                body.remove(0);
            }
        }
        let mut closed = Vec::new();
        let mut havocked = Vec::new();
        for v in &assigned {
            match closed_form(*v, &body, &step, &assigned, cont) {
                Some(cf) => closed.push((*v, cf)),
                None => havocked.push(*v),
            }
        }
        let mut written = BTreeSet::new();
        for part in [&cond_stmts, &body, &step] {
            written_arrays(part, &mut written);
        }
        let barriers = barrier_count(&body)
            .filter(|_| !has_exit(&body) && barrier_count(&cond_stmts) == Some(0) && barrier_count(&step) == Some(0));
        let name = |v: &VarId| self.kernel.var(*v).name.clone();
        let treatment = LoopTreatment::Abstracted {
            closed: closed.iter().map(|(v, _)| name(v)).collect(),
            havocked: havocked
                .iter()
                .filter(|v| !self.kernel.var(**v).name.starts_with('$'))
                .map(name)
                .collect(),
            invariants: invariants.len(),
        };
        let abs = crate::ir::AbstractLoop {
            cond_stmts,
            cond,
            body,
            step,
            do_while: l.do_while,
            brk,
            cont,
            closed,
            havocked,
            written: written.into_iter().collect(),
            barriers,
            invariants,
        };
        (
            Stmt {
                kind: StmtKind::AbstractLoop(Box::new(abs)),
                span: s.span.clone(),
            },
            treatment,
        )
    }

    /// Prepares the statements at a loop head, taking the `__invariant`s at their start out.
    fn head(&mut self, stmts: &[Stmt], env: &mut Env, invariants: &mut Vec<(Expr, Span)>) -> Vec<Stmt> {
        let mut rest = stmts;
        while let Some((first, tail)) = rest.split_first() {
            match &first.kind {
                StmtKind::Invariant { cond } => {
                    invariants.push((cond.clone(), first.span.clone()));
                    rest = tail;
                }
                _ => break,
            }
        }
        self.block(rest, env)
    }
}

/// Moves `var` from the closed forms to the havocked variables of the abstracted loop at
/// `span` (after its closed form failed the step check).
pub fn demote_closed_form(stmts: &mut [Stmt], span: &Span, var: VarId) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::AbstractLoop(l) => {
                if s.span == *span && l.closed.iter().any(|(v, _)| *v == var) {
                    l.closed.retain(|(v, _)| *v != var);
                    l.havocked.push(var);
                }
                demote_closed_form(&mut l.cond_stmts, span, var);
                demote_closed_form(&mut l.body, span, var);
                demote_closed_form(&mut l.step, span, var);
            }
            StmtKind::If { then, els, .. } => {
                demote_closed_form(then, span, var);
                demote_closed_form(els, span, var);
            }
            StmtKind::Block { body, .. } => demote_closed_form(body, span, var),
            _ => {}
        }
    }
}

/// Statements nested in `s` (branches, blocks, loop parts).
fn children(s: &Stmt) -> Vec<&[Stmt]> {
    match &s.kind {
        StmtKind::If { then, els, .. } => vec![then, els],
        StmtKind::Block { body, .. } => vec![body],
        StmtKind::Loop {
            cond_stmts, body, step, ..
        } => vec![cond_stmts, body, step],
        StmtKind::AbstractLoop(l) => vec![&l.cond_stmts, &l.body, &l.step],
        _ => vec![],
    }
}

/// Variables assigned anywhere in `stmts`.
pub(crate) fn assigned_vars(stmts: &[Stmt], out: &mut BTreeSet<VarId>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { var, .. } | StmtKind::Havoc { var } | StmtKind::Load { dst: var, .. } => {
                out.insert(*var);
            }
            StmtKind::Atomic { dst: Some(var), .. } => {
                out.insert(*var);
            }
            _ => {}
        }
        for c in children(s) {
            assigned_vars(c, out);
        }
    }
}

/// Arrays written (stores, atomics) anywhere in `stmts`.
fn written_arrays(stmts: &[Stmt], out: &mut BTreeSet<crate::ir::ArrayId>) {
    for s in stmts {
        if let StmtKind::Store { array, .. } | StmtKind::Atomic { array, .. } = &s.kind {
            out.insert(*array);
        }
        for c in children(s) {
            written_arrays(c, out);
        }
    }
}

/// The number of barriers `stmts` run, when every one runs unconditionally (at the top level
/// or in blocks); `None` when some barrier is under a condition or in a loop.
fn barrier_count(stmts: &[Stmt]) -> Option<u32> {
    let mut n = 0;
    for s in stmts {
        match &s.kind {
            StmtKind::Barrier => n += 1,
            StmtKind::Block { body, .. } => n += barrier_count(body)?,
            _ => {
                for c in children(s) {
                    if barrier_count(c)? > 0 {
                        return None;
                    }
                }
            }
        }
    }
    Some(n)
}

/// Whether `stmts` contain `Exit(id)`.
fn exits_to(stmts: &[Stmt], id: BlockId) -> bool {
    stmts
        .iter()
        .any(|s| s.kind == StmtKind::Exit(id) || children(s).into_iter().any(|c| exits_to(c, id)))
}

/// Whether `stmts` can leave early (`return`, an exit of a block, `break`, `continue`).
fn has_exit(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| {
        matches!(
            s.kind,
            StmtKind::Return | StmtKind::Exit(_) | StmtKind::Break | StmtKind::Continue
        ) || children(s).into_iter().any(has_exit)
    })
}

/// The closed form of `v` if it is assigned exactly once per iteration, by one of the
/// recognised updates (PUG §6.1 normalization, §6.2 halving/doubling), at the top level of
/// `step`, or at the top level of a `body` without `continue` (a `break` or `return` only ends
/// the iterations, so the form still holds at every head reached).
fn closed_form(
    v: VarId,
    body: &[Stmt],
    step: &[Stmt],
    assigned: &BTreeSet<VarId>,
    cont: BlockId,
) -> Option<ClosedForm> {
    if count_assignments(v, body) + count_assignments(v, step) != 1 {
        return None;
    }
    let top = |stmts: &[Stmt]| {
        stmts.iter().find_map(|s| match &s.kind {
            StmtKind::Assign { var, value } if *var == v => Some(value.clone()),
            _ => None,
        })
    };
    let value = match top(step) {
        Some(e) => e,
        None if !exits_to(body, cont) => top(body)?,
        None => return None,
    };
    update_form(v, &value, assigned)
}

/// How many statements assign `v` in `stmts` (an assignment in a nested loop counts twice).
fn count_assignments(v: VarId, stmts: &[Stmt]) -> u32 {
    let mut n = 0;
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { var, .. } | StmtKind::Havoc { var } | StmtKind::Load { dst: var, .. } if *var == v => {
                n += 1
            }
            StmtKind::Atomic { dst: Some(var), .. } if *var == v => n += 1,
            StmtKind::Loop { .. } | StmtKind::AbstractLoop(_) => {
                n += 2 * children(s).into_iter().map(|c| count_assignments(v, c)).sum::<u32>()
            }
            _ => n += children(s).into_iter().map(|c| count_assignments(v, c)).sum::<u32>(),
        }
    }
    n
}

/// Recognises `v + k`, `k + v`, `v - k`, `v >> 1`, `v / 2` (unsigned), `v << 1`, `v * 2`, with
/// `k` free of variables assigned in the loop; a cast to `v`'s own type is looked through.
pub(crate) fn update_form(v: VarId, e: &Expr, assigned: &BTreeSet<VarId>) -> Option<ClosedForm> {
    use crate::ir::BinOp;
    // Casts between types of one width keep the bits (`i += blockDim.x` on an `int` is done in
    // `unsigned` and converted back): look through them.
    fn same_width(e: &Expr) -> &Expr {
        match e {
            Expr::Cast { arg, ty } if arg.ty().bits() == ty.bits() && *ty != Ty::Bool && arg.ty() != Ty::Bool => {
                same_width(arg)
            }
            _ => e,
        }
    }
    let Expr::Binary { op, lhs, rhs, ty } = same_width(e) else {
        return None;
    };
    if ty.bits() != e.ty().bits() || matches!(ty, Ty::Float { .. }) {
        return None;
    }
    let is_v = |x: &Expr| matches!(same_width(x), Expr::Var { id, .. } if *id == v);
    let invariant = |x: &Expr| !mentions(x, assigned);
    let is = |x: &Expr, n: i64| matches!(x, Expr::Const { value, .. } if *value == n.into());
    match op {
        BinOp::Add if is_v(lhs) && invariant(rhs) => Some(ClosedForm::Linear((**rhs).clone())),
        BinOp::Add if is_v(rhs) && invariant(lhs) => Some(ClosedForm::Linear((**lhs).clone())),
        BinOp::Sub if is_v(lhs) && invariant(rhs) => Some(ClosedForm::Linear(Expr::Unary {
            op: crate::ir::UnOp::Neg,
            arg: rhs.clone(),
            ty: rhs.ty(),
        })),
        BinOp::Shr if is_v(lhs) && is(rhs, 1) && ty.is_signed() == e.ty().is_signed() => Some(ClosedForm::Halving),
        BinOp::Div if is_v(lhs) && is(rhs, 2) && !ty.is_signed() && !e.ty().is_signed() => Some(ClosedForm::Halving),
        BinOp::Shl if is_v(lhs) && is(rhs, 1) => Some(ClosedForm::Doubling),
        BinOp::Mul if (is_v(lhs) && is(rhs, 2)) || (is_v(rhs) && is(lhs, 2)) => Some(ClosedForm::Doubling),
        _ => None,
    }
}

/// Whether `e` reads one of `vars`.
fn mentions(e: &Expr, vars: &BTreeSet<VarId>) -> bool {
    match e {
        Expr::Var { id, .. } => vars.contains(id),
        Expr::Const { .. } | Expr::Builtin(_) => false,
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => mentions(arg, vars),
        Expr::Binary { lhs, rhs, .. } => mentions(lhs, vars) || mentions(rhs, vars),
        Expr::Select { cond, then, els, .. } => mentions(cond, vars) || mentions(then, vars) || mentions(els, vars),
        Expr::Opaque { args, .. } => args.iter().any(|a| mentions(a, vars)),
    }
}

struct LoopParts<'a> {
    cond_stmts: &'a [Stmt],
    cond: &'a Expr,
    body: &'a [Stmt],
    step: &'a [Stmt],
    do_while: bool,
}

#[cfg(test)]
mod tests;
