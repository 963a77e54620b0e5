//! `gpug check`: assertion checking for a fixed launch in the concrete model (PUG (Li and
//! Gopalakrishnan, FSE 2010), §7; ARCHITECTURE.md "Thread models", "Schedule IDs").
//!
//! Per kernel: [`passes::prepare`] unrolls the loops; then, unless schedule IDs are asked for
//! (`--all-schedules`), the pair model's race and divergence checks run first, because the
//! canonical serialization the concrete model uses is exact only for race-free kernels (PUG §5,
//! serializability theorem); a race or divergence is reported as the kernel's defect and the
//! assertions are not checked. A kernel with atomics on shared or global memory is checked with
//! schedule IDs even without `--all-schedules`: the serializability argument orders barrier
//! intervals, not the atomics inside one, whose return values depend on their order. Then every
//! `assert` and `__ensures` is one query of the concrete model ([`encode_concrete`]).
//!
//! Must not: print, build SMT terms (the encoder's job), or talk to a solver other than through
//! the pipeline's [`KernelRun`].

use super::Error;
use super::pipeline::{Command, KernelRun, Reply, RunOptions};
use crate::encode::concrete::{ConcreteError, ConcreteOptions, encode_concrete};
use crate::encode::{self, Property};
use crate::ir::query::accessed_arrays;
use crate::ir::visit::AccessContext;
use crate::ir::{Kernel, Program, Space, Span, Stmt};
use crate::passes::{LoopTreatment, PassOptions, Prepared};
use crate::solver;
use crate::verdict::{AssertionFailure, CheckResult, KernelCheck, Ordering, Verdict};
use std::time::Duration;

/// What `gpug check` needs besides the [`RunOptions`] (whose geometry must be concrete).
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Schedule IDs (`--all-schedules`), floats (`--float ieee`), fixed parameters.
    pub concrete: ConcreteOptions,
    /// `--unroll N` given: a loop whose trip count is not concrete for the launch, or exceeds
    /// N, is cut after N iterations (the test then assumed false), and the result holds only
    /// for executions in which every loop runs at most N times. `None`: such a loop makes the
    /// kernel inconclusive.
    pub bound: Option<u32>,
}

impl Command for CheckOptions {
    type Kernel = KernelCheck;
    type File = CheckResult;

    /// The launch must be concrete in every dimension.
    fn validate(&self, common: &RunOptions) -> Result<(), Error> {
        let g = &common.geometry;
        if g.block_dim.iter().chain(&g.grid_dim).any(Option::is_none) {
            return Err(ConcreteError::SymbolicGeometry.into());
        }
        Ok(())
    }

    fn kernel(&self, k: &Kernel, run: &mut KernelRun) -> Result<KernelCheck, Error> {
        check_kernel(k, self, run)
    }

    fn file(&self, program: &Program, kernels: Vec<KernelCheck>) -> CheckResult {
        CheckResult {
            file: program.file.clone(),
            kernels,
            includes: program.includes.clone(),
        }
    }

    fn stopped(&self, k: &Kernel, run: &mut KernelRun, why: String) -> KernelCheck {
        let g = &run.options().geometry;
        let dims = |d: [Option<u32>; 3]| d.iter().map(|x| x.unwrap_or(1) as usize).product::<usize>();
        let (tpb, blocks) = (dims(g.block_dim), dims(g.grid_dim));
        KernelCheck {
            name: k.name.clone(),
            verdict: Verdict::Inconclusive,
            threads: tpb * blocks,
            blocks,
            ordering: match self.concrete.schedules {
                true => Ordering::AllSchedules,
                false => Ordering::Canonical,
            },
            assertions: 0,
            races: Vec::new(),
            failures: Vec::new(),
            inconclusive: vec![why],
            notes: k.notes.clone(),
            time: run.elapsed(),
        }
    }
}

/// Whether an atomic of `stmts` (outside `__ensures` bodies) touches a shared or global array.
fn has_shared_atomics(k: &Kernel, stmts: &[Stmt]) -> bool {
    let mut arrays = Vec::new();
    accessed_arrays(stmts, |c| matches!(c, AccessContext::Atomic(_)), &mut arrays);
    arrays.iter().any(|a| k.array(*a).space != Space::Local)
}

/// The kernel with every loop unrolled for the launch. A loop that cannot be (its trip count
/// is not concrete, or exceeds the bound) is cut after N iterations with `--unroll N` (then
/// `Some(N)` is returned), and without it makes the kernel inconclusive.
///
/// Errors: a pass left the kernel not well formed.
fn prepare(k: &Kernel, opts: &CheckOptions, run: &mut KernelRun) -> Result<(Prepared, Option<u32>), Error> {
    let c = run.options();
    let mut prepared = run.prepare(k, &c.geometry, &c.passes)?;
    let not_unrolled: Vec<u32> = prepared
        .loops
        .iter()
        .filter(|(_, t)| !matches!(t, LoopTreatment::Unrolled(_)))
        .map(|(s, _)| s.line)
        .collect();
    if not_unrolled.is_empty() {
        return Ok((prepared, None));
    }
    match opts.bound {
        Some(n) => {
            let p = PassOptions {
                loop_unwind: Some(n),
                ..c.passes.clone()
            };
            Ok((run.prepare(k, &c.geometry, &p)?, Some(n)))
        }
        None => {
            prepared.inconclusive = not_unrolled
                .iter()
                .map(|l| {
                    (
                        k.span.clone(),
                        format!(
                            "loop at line {l}: its trip count is not concrete for this launch (or exceeds the default bound); the concrete model unrolls every loop: give --unroll N to check executions in which loops run at most N times"
                        ),
                    )
                })
                .collect();
            Ok((prepared, None))
        }
    }
}

fn check_kernel(k: &Kernel, opts: &CheckOptions, run: &mut KernelRun) -> Result<KernelCheck, Error> {
    let c = run.options();
    let g = &c.geometry;
    let dims = |d: [Option<u32>; 3]| d.iter().map(|x| x.unwrap_or(1) as usize).product::<usize>();
    let (tpb, blocks) = (dims(g.block_dim), dims(g.grid_dim));
    let (prepared, bounded) = prepare(k, opts, run)?;
    let atomics = has_shared_atomics(k, &k.body);
    let mut concrete = opts.concrete.clone();
    let mut notes: Vec<String> = k.notes.clone();
    notes.extend(
        c.frontend
            .assumptions
            .iter()
            .map(|e| format!("assumes `{e}` on entry (--assume): a failure only outside it is not reported")),
    );
    // Schedule IDs order every access at a barrier: with them, a barrier that leaves memory
    // unordered is refused (without them, the pair model's race check, run first, reads the
    // fence flags, and the canonical serialization is exact for race-free kernels).
    if atomics || concrete.schedules {
        partial_fences(k)?;
    }
    if atomics && !concrete.schedules {
        concrete.schedules = true;
        notes.push(
            "the kernel uses atomics: its assertions are checked under every schedule (schedule IDs), after the race check"
                .to_string(),
        );
    }
    if let Some(n) = bounded {
        notes.insert(
            0,
            format!(
                "BOUNDED: loops are cut after {n} iterations (--unroll {n}): the result holds only for executions in which every loop runs at most {n} times"
            ),
        );
    }
    let mut result = KernelCheck {
        name: k.name.clone(),
        verdict: Verdict::Verified,
        threads: tpb * blocks,
        blocks,
        ordering: if concrete.schedules {
            Ordering::AllSchedules
        } else {
            Ordering::Canonical
        },
        assertions: 0,
        races: Vec::new(),
        failures: Vec::new(),
        inconclusive: Vec::new(),
        notes,
        time: Duration::ZERO,
    };
    if !prepared.inconclusive.is_empty() {
        result.verdict = Verdict::Inconclusive;
        result.inconclusive = prepared
            .inconclusive
            .iter()
            .map(|(s, why)| {
                if s == &k.span {
                    why.clone()
                } else {
                    format!("{s}: {why}")
                }
            })
            .collect();
        result.time = run.elapsed();
        return Ok(result);
    }
    // 1. Races and divergence in the pair model (unless every schedule is explored anyway).
    let settled = !opts.concrete.schedules && race_check(&prepared.kernel, run, &mut result)?;
    if !settled {
        // 2. Assertions in the concrete model.
        check_assertions(&prepared.kernel, &concrete, run, &mut result)?;
        run.unchecked(k);
        result.verdict = Verdict::of(!result.failures.is_empty(), !run.inconclusive.is_empty());
    }
    result.inconclusive = std::mem::take(&mut run.inconclusive);
    result.time = run.elapsed();
    Ok(result)
}

/// Races and divergence in the pair model: the canonical serialization the concrete model uses
/// is exact only for race-free kernels. Returns whether they settle the kernel's verdict (a
/// race or divergence found, or the check inconclusive): then the assertions are not checked.
fn race_check(kernel: &Kernel, run: &mut KernelRun, result: &mut KernelCheck) -> Result<bool, Error> {
    let c = run.options();
    // Every race, benign ones included: the canonical serialization is argued for race-free
    // kernels only.
    let strict = encode::EncodeOptions {
        benign: encode::Benign::Off,
        ..Default::default()
    };
    let pair = encode::encode_with(kernel, &c.geometry, &strict)?;
    run.show_ssa(&kernel.name, "pair", &pair.script);
    run.show_queries(
        &kernel.name,
        pair.checks
            .iter()
            .filter(|c| !matches!(c.property, Property::Assertion { .. }))
            .map(|c| (c.property.describe(kernel), &c.query)),
    );
    let mut session = run.session(&c.solvers(), &pair.script)?;
    for check in &pair.checks {
        if matches!(check.property, Property::Assertion { .. }) {
            continue;
        }
        if let Reply::Sat(values) = run.ask(&mut session, &check.query)? {
            let f = check.finding(kernel, &values);
            if !result.races.contains(&f) {
                result.races.push(f);
            }
        }
    }
    if !result.races.is_empty() {
        result.verdict = Verdict::Defect;
        result.notes.push(
            "assertions were not checked: the canonical serialization is exact only for race-free kernels (use --all-schedules to check them under every interleaving)"
                .to_string(),
        );
        return Ok(true);
    }
    if !run.inconclusive.is_empty() {
        result.verdict = Verdict::Inconclusive;
        result
            .notes
            .push("assertions were not checked: the race check was inconclusive (use --all-schedules)".to_string());
        return Ok(true);
    }
    Ok(false)
}

/// Every `assert` and `__ensures` as queries of the concrete model, one failing thread per
/// assertion.
/// How many `assert`s (distinct source spans) `kernel` has, anywhere.
fn assertion_count(kernel: &Kernel) -> usize {
    use crate::ir::visit::Visitor;
    struct Count(Vec<Span>);
    impl Visitor for Count {
        fn visit_stmt(&mut self, s: &crate::ir::Stmt) {
            if matches!(s.kind, crate::ir::StmtKind::Assert { .. }) && !self.0.contains(&s.span) {
                self.0.push(s.span.clone());
            }
            self.super_stmt(s);
        }
    }
    let mut c = Count(Vec::new());
    c.visit_block(&kernel.body);
    c.0.len()
}

fn check_assertions(
    kernel: &Kernel,
    concrete: &ConcreteOptions,
    run: &mut KernelRun,
    result: &mut KernelCheck,
) -> Result<(), Error> {
    let enc = encode_concrete(kernel, &run.options().geometry, concrete)?;
    run.show_ssa(&kernel.name, "concrete", &enc.script);
    run.show_queries(
        &kernel.name,
        enc.checks
            .iter()
            .map(|c| (format!("assertion at {}", c.span), &c.query)),
    );
    // z3 answers queries after `(push 1)` with its incremental core, which is slow on these
    // bit-vector formulas; past one second it falls back to its bit-blasting solver.
    let mut specs = run.options().solvers();
    for spec in specs.iter_mut().filter(|s| s.name == "z3") {
        spec.args.push("combined_solver.solver2_timeout=1000".to_string());
    }
    result.notes.extend(enc.notes.iter().cloned());
    let mut spans: Vec<&Span> = enc.checks.iter().map(|c| &c.span).collect();
    spans.dedup();
    result.assertions = spans.len();
    if enc.checks.is_empty() {
        let written = assertion_count(kernel);
        result.assertions = written;
        result.notes.push(match written {
            0 => "the kernel has no assertions".to_string(),
            n => format!(
                "{n} assertion(s), each true for every thread when evaluated with the launch's values (or never reached): no query was needed"
            ),
        });
        return Ok(());
    }
    // With --jobs, every query is asked at once on several processes (answers kept in order);
    // else one after another on one, skipping an assertion's other threads once one fails.
    let parallel = run.options().jobs > 1 && run.options().dump_dir.is_none() && enc.checks.len() > 1;
    let mut answers = match parallel {
        true => {
            let queries: Vec<&solver::Query> = enc.checks.iter().map(|c| &c.query).collect();
            run.ask_parallel(&specs, &enc.script, &queries)?
                .answers
                .into_iter()
                .map(|a| Some(a.answer))
                .collect()
        }
        false => Vec::new(),
    };
    let mut session = match parallel {
        true => None,
        false => Some(run.session(&specs, &enc.script)?),
    };
    let mut done: Vec<&Span> = Vec::new();
    for (k, c) in enc.checks.iter().enumerate() {
        // One failing thread per assertion is enough.
        if done.contains(&&c.span) {
            continue;
        }
        let reply = match (answers.get_mut(k).and_then(Option::take), session.as_mut()) {
            (Some(answer), _) => {
                run.queries += 1;
                run.reply(&c.query.name, answer)
            }
            (None, Some(session)) => run.ask(session, &c.query)?,
            (None, None) => continue,
        };
        match reply {
            Reply::Sat(_) if c.float_dependent => {
                done.push(&c.span);
                run.inconclusive.push(format!(
                    "{}: the assertion depends on float values, which are opaque: it may fail only in the abstraction (use --float ieee)",
                    c.span
                ));
            }
            Reply::Sat(_) if c.call_dependent => {
                done.push(&c.span);
                run.inconclusive.push(format!(
                    "{}: the assertion may depend on a call without a body, which is uninterpreted: it may fail only in the abstraction",
                    c.span
                ));
            }
            Reply::Sat(values) => {
                done.push(&c.span);
                result.failures.push(AssertionFailure {
                    span: c.span.clone(),
                    postcondition: c.postcondition,
                    witness: c.witness(&values),
                })
            }
            Reply::Unsat | Reply::Undecided => {}
        }
    }
    Ok(())
}

/// Refuses a kernel with an OpenCL barrier that leaves memory the kernel accesses unordered
/// (`barrier(CLK_LOCAL_MEM_FENCE)` and a global array) when schedule IDs are used: they order
/// every access at every barrier, which would hide the races such a barrier allows.
fn partial_fences(k: &Kernel) -> Result<(), Error> {
    for (space, words) in [(Space::Shared, "local"), (Space::Global, "global")] {
        if !k.arrays.iter().any(|a| a.space == space) {
            continue;
        }
        if let Some(span) = crate::ir::query::unfenced_barrier(&k.body, space) {
            return Err(ConcreteError::PartialFence(span, words).into());
        }
    }
    Ok(())
}
