//! Passes over [`crate::ir`] before encoding: constant propagation with the launch geometry,
//! folding of branches whose condition is constant, and the treatment of every loop (PUG (Li and
//! Gopalakrishnan, FSE 2010), §6): unrolled when its trip count is concrete once the geometry is
//! known, cut after N iterations under `--loop-unwind N`, abstracted by one arbitrary iteration
//! otherwise.
//!
//! Inlining and pointer-alias resolution are done while lowering in [`crate::frontend`]: both need
//! clang's declarations (parameters, pointee types), which the IR deliberately does not carry. The
//! IR that reaches this module is already free of calls and pointers.
//!
//! Entry point: [`prepare`], the pass manager. It walks the kernel once with the constant
//! environment (`propagate`: propagation and branch folding) and hands each loop, with that
//! environment, to one of `unroll`, `unwind` or `abstraction` (whose loop-carried
//! variables `closed_form` classifies). After encoding, the driver may call
//! [`demote_closed_form`] when a closed form fails its step check. Expression evaluation and
//! the geometry are the floor below the passes, [`crate::ir::eval`].
//!
//! The passes, in order, each with the name `--show=passes` prints and an invalid kernel's
//! error names: `bounds` (`--check-array-bounds` only), `sync` (lock and flag markers), and
//! `loops` (the one walk: propagation, branch folding, and each loop unrolled, unwound or
//! abstracted with its closed forms). After each, [`prepare_observed`] hands the kernel to its
//! observer and, with [`PassOptions::validate`], checks it with [`crate::ir::validate`]: a
//! broken invariant is an [`Invalid`] naming the pass, never a verdict.
//!
//! Input: a lowered kernel. Output ([`Prepared::kernel`]), when [`Prepared::inconclusive`] is
//! empty: no `Loop`, `Break`, `Continue` or `Invariant` statements outside `__ensures` bodies
//! (which are kept as they are): each loop is a `Block` of its iterations or an `AbstractLoop`
//! (which holds the invariants of its head), and any other invariant is an `Assert`.

mod abstraction;
mod bounds;
mod closed_form;
mod demote;
mod propagate;
mod sync;
mod unroll;
mod unwind;

use crate::ir::eval::{Env, Geometry};
use crate::ir::query::assigned_vars;
use crate::ir::validate::{Invalid, Stage, undefined_reads, validate};
use crate::ir::{BlockId, Expr, Kernel, Span, Stmt, Ty, UnOp, VarId};
/// Constant evaluation: for the launch contracts' witnesses and the front end's tests of its
/// built-ins.
pub use demote::demote_closed_form;
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
    /// `--no-infer` (GPUVerify's spelling): an abstracted loop keeps only the invariants its
    /// source gives (`__invariant`); no closed forms are derived for its loop-carried
    /// variables (PUG §6's syntactic invariants), which are all havocked.
    pub no_infer: bool,
    /// `--check-array-bounds` (GPUVerify's spelling): every access to an array of known size
    /// is asserted to stay within it (`bounds`).
    pub check_array_bounds: bool,
    /// Check the kernel with [`crate::ir::validate`] after every pass (`--validate`; always
    /// in debug builds and unit tests).
    pub validate: bool,
}

impl Default for PassOptions {
    fn default() -> Self {
        PassOptions {
            unroll: 64,
            max_statements: 200_000,
            loop_unwind: None,
            no_infer: false,
            check_array_bounds: false,
            validate: cfg!(debug_assertions) || cfg!(test),
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

/// Runs the passes on `kernel` for `geometry`: [`prepare_observed`] without an observer.
///
/// Errors: a pass left the kernel not well formed (only checked with
/// [`PassOptions::validate`]).
pub fn prepare(kernel: &Kernel, geometry: &Geometry, opts: &PassOptions) -> Result<Prepared, Box<Invalid>> {
    prepare_observed(kernel, geometry, opts, &mut |_, _| {})
}

/// Runs the passes on `kernel` for `geometry` (array bounds checks, sync markers, then
/// constant propagation, branch folding and the loops), calling `after` with each pass's name
/// and the kernel it left, and validating that kernel with [`PassOptions::validate`].
///
/// A loop that cannot be unrolled is kept as it is and reported in
/// [`Prepared::inconclusive`] (then the encoder must not be asked for a conclusive verdict);
/// so is gpug's memory passing `--max-memory` ([`crate::memory`]), after which the walk stops.
///
/// Errors: a pass left the kernel not well formed ([`Invalid`], naming the pass).
pub fn prepare_observed(
    kernel: &Kernel,
    geometry: &Geometry,
    opts: &PassOptions,
    after: &mut dyn FnMut(&str, &Kernel),
) -> Result<Prepared, Box<Invalid>> {
    // What the source reads uninitialised (arbitrary values): no pass may add to it.
    let may_be_undefined = match opts.validate {
        true => undefined_reads(kernel),
        false => Default::default(),
    };
    let mut checkpoint = |pass: &str, k: &Kernel, stage: Stage| {
        after(pass, k);
        match opts.validate {
            true => validate(k, stage, &format!("pass {pass}"), &may_be_undefined),
            false => Ok(()),
        }
    };
    let mut k = kernel.clone();
    if opts.check_array_bounds {
        bounds::insert_checks(&mut k);
        checkpoint("bounds", &k, Stage::Marked)?;
    }
    sync::mark(&mut k);
    checkpoint("sync", &k, Stage::Marked)?;
    let body = std::mem::take(&mut k.body);
    let mut u = Preparer {
        kernel: &mut k,
        geometry,
        opts,
        loops: Vec::new(),
        inconclusive: Vec::new(),
        exits: HashMap::new(),
        loop_targets: Vec::new(),
        emitted: 0,
        stopped: None,
    };
    let mut env = Env::default();
    let out = u.block(&body, &mut env);
    let loops = u.loops;
    let mut inconclusive = u.inconclusive;
    if let Some((span, e)) = u.stopped {
        inconclusive.push((span, e.to_string()));
    }
    k.body = out;
    // A loop that could not be handled stays: such a kernel is not encoded.
    let stage = match inconclusive.is_empty() {
        true => Stage::Prepared,
        false => Stage::Marked,
    };
    checkpoint("loops", &k, stage)?;
    Ok(Prepared {
        kernel: k,
        loops,
        inconclusive,
    })
}

/// The state of one [`prepare`] run, shared by the passes it drives.
struct Preparer<'a> {
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
    /// Where the walk stopped because gpug's memory passed `--max-memory`, and why: kept
    /// apart from `inconclusive`, which a failed attempt to unroll truncates.
    stopped: Option<(Span, crate::memory::Exceeded)>,
}

impl Preparer<'_> {
    /// Whether the walk stops before `s`: gpug's memory passed `--max-memory`, now (recorded
    /// at `s`) or earlier.
    fn stop_at_memory_bound(&mut self, s: &Stmt) -> bool {
        if self.stopped.is_none() && crate::memory::over() {
            let e = crate::memory::exceeded(crate::memory::Activity::Unrolling);
            self.stopped = Some((s.span.clone(), e));
        }
        self.stopped.is_some()
    }

    fn record_loop(&mut self, span: &Span, t: LoopTreatment) {
        if !self.loops.iter().any(|(s, _)| s == span) {
            if let LoopTreatment::Unsupported(why) = &t {
                self.inconclusive.push((span.clone(), why.clone()));
            }
            self.loops.push((span.clone(), t));
        }
    }

    /// Chooses the treatment of the loop `s`: cut under `--loop-unwind`, else unrolled when
    /// that succeeds, else abstracted (with the state from before the attempt to unroll).
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
}

/// The parts of a `Loop` statement.
struct LoopParts<'a> {
    cond_stmts: &'a [Stmt],
    cond: &'a Expr,
    body: &'a [Stmt],
    step: &'a [Stmt],
    do_while: bool,
}

impl LoopParts<'_> {
    /// Forgets in `env` every variable the loop assigns (nothing assigned in a loop that is
    /// not unrolled is known at its head or after it), and returns them.
    fn forget_assigned(&self, env: &mut Env) -> BTreeSet<VarId> {
        let mut assigned = BTreeSet::new();
        for part in [self.cond_stmts, self.body, self.step] {
            assigned_vars(part, &mut assigned);
        }
        for v in &assigned {
            env.kill(*v);
        }
        assigned
    }
}

/// `!e`.
fn not(e: Expr) -> Expr {
    Expr::Unary {
        op: UnOp::Not,
        arg: Box::new(e),
        ty: Ty::Bool,
    }
}

#[cfg(test)]
mod tests;
