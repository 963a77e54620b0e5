//! `gpug check`: assertion checking for a fixed launch in the concrete model (PUG paper,
//! `003_…`, §7; DESIGN.md "Thread models", "Schedule IDs").
//!
//! Per kernel: [`passes::prepare`] unrolls the loops; then, unless schedule IDs are asked for
//! (`--all-schedules`), the pair model's race and divergence checks run first, because the
//! canonical serialization the concrete model uses is exact only for race-free kernels (PUG §5,
//! serializability theorem); a race or divergence is reported as the kernel's defect and the
//! assertions are not checked. A kernel with atomics on shared or global memory is checked with
//! schedule IDs even without `--all-schedules`: the serializability argument orders barrier
//! intervals, not the atomics inside one, whose return values depend on their order. Then every
//! `assert` and `__ensures` is one query of the concrete model ([`encode_concrete`]).

use super::{DriverError, Verdict, VerifyOptions};
use crate::encode::concrete::{ConcreteError, ConcreteOptions, encode_concrete};
use crate::encode::{self, Property};
use crate::frontend;
use crate::ir::{Kernel, Space, Span, Stmt, StmtKind};
use crate::passes::{self, LoopTreatment};
use crate::solver::{Answer, Session, SessionOptions};
use crate::verdict::{AssertionFailure, CheckResult, KernelCheck, Ordering};
use std::path::Path;
use std::time::{Duration, Instant};

/// Everything [`check`] needs.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Front end, geometry (must be concrete), passes (`--unroll`), solver, timeout, dumps.
    pub verify: VerifyOptions,
    /// Schedule IDs (`--all-schedules`), floats (`--float ieee`), fixed parameters.
    pub concrete: ConcreteOptions,
    /// `--unroll N` given: a loop whose trip count is not concrete for the launch, or exceeds
    /// N, is cut after N iterations (the test then assumed false), and the result holds only
    /// for executions in which every loop runs at most N times. `None`: such a loop makes the
    /// kernel inconclusive.
    pub bound: Option<u32>,
}

/// Errors of `gpug check` (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Driver(#[from] DriverError),
    #[error("{0}")]
    Concrete(#[from] ConcreteError),
}

/// Checks the assertions of every kernel of `file` (or the one `--kernel` names) for the
/// concrete launch in `opts`.
pub fn check(file: &Path, opts: &CheckOptions) -> Result<CheckResult, CheckError> {
    let g = &opts.verify.geometry;
    if g.block_dim.iter().chain(&g.grid_dim).any(Option::is_none) {
        return Err(ConcreteError::SymbolicGeometry.into());
    }
    let program = frontend::load(file, &opts.verify.frontend).map_err(DriverError::from)?;
    let mut kernels = Vec::new();
    for k in &program.kernels {
        kernels.push(check_kernel(k, opts)?);
    }
    Ok(CheckResult {
        file: program.file.clone(),
        kernels,
    })
}

fn has_shared_atomics(k: &Kernel, stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Atomic { array, .. } => k.array(*array).space != Space::Local,
        StmtKind::If { then, els, .. } => has_shared_atomics(k, then) || has_shared_atomics(k, els),
        StmtKind::Block { body, .. } => has_shared_atomics(k, body),
        StmtKind::Loop {
            cond_stmts, body, step, ..
        } => has_shared_atomics(k, cond_stmts) || has_shared_atomics(k, body) || has_shared_atomics(k, step),
        _ => false,
    })
}

fn answer_problem(answer: &Answer, query: &str, timeout: Duration) -> Option<String> {
    match answer {
        Answer::Unknown(why) => Some(format!("query {query}: solver answered unknown ({why})")),
        Answer::Timeout => Some(format!(
            "query {query}: no answer within {} s (--timeout)",
            timeout.as_secs_f64()
        )),
        _ => None,
    }
}

fn check_kernel(k: &Kernel, opts: &CheckOptions) -> Result<KernelCheck, CheckError> {
    let start = Instant::now();
    let v = &opts.verify;
    let dims = |d: [Option<u32>; 3]| d.iter().map(|x| x.unwrap_or(1) as usize).product::<usize>();
    let (tpb, blocks) = (dims(v.geometry.block_dim), dims(v.geometry.grid_dim));
    let mut prepared = passes::prepare(k, &v.geometry, &v.passes);
    let mut bounded = None;
    let not_unrolled: Vec<u32> = prepared
        .loops
        .iter()
        .filter(|(_, t)| !matches!(t, LoopTreatment::Unrolled(_)))
        .map(|(s, _)| s.line)
        .collect();
    if !not_unrolled.is_empty() {
        match opts.bound {
            Some(n) => {
                let mut p = v.passes.clone();
                p.loop_unwind = Some(n);
                prepared = passes::prepare(k, &v.geometry, &p);
                bounded = Some(n);
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
            }
        }
    }
    let atomics = has_shared_atomics(k, &k.body);
    let mut concrete = opts.concrete.clone();
    let mut notes: Vec<String> = opts
        .verify
        .frontend
        .assumptions
        .iter()
        .map(|e| format!("assumes `{e}` on entry (--assume): a failure only outside it is not reported"))
        .collect();
    if atomics && !concrete.schedules {
        concrete.schedules = true;
        notes.push(
            "the kernel uses atomics: its assertions are checked under every schedule (schedule IDs), after the race check"
                .to_string(),
        );
    }
    let ordering = if concrete.schedules {
        Ordering::AllSchedules
    } else {
        Ordering::Canonical
    };
    let mut result = KernelCheck {
        name: k.name.clone(),
        verdict: Verdict::Verified,
        threads: tpb * blocks,
        blocks,
        ordering,
        assertions: 0,
        races: Vec::new(),
        failures: Vec::new(),
        inconclusive: Vec::new(),
        notes,
        time: Duration::ZERO,
    };
    if let Some(n) = bounded {
        result.notes.insert(
            0,
            format!(
                "BOUNDED: loops are cut after {n} iterations (--unroll {n}): the result holds only for executions in which every loop runs at most {n} times"
            ),
        );
    }
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
        result.time = start.elapsed();
        return Ok(result);
    }
    let session_opts = SessionOptions {
        timeout: Some(v.timeout),
        dump_dir: v.dump_dir.clone(),
    };
    // 1. Races and divergence in the pair model (unless every schedule is explored anyway).
    if !opts.concrete.schedules {
        let pair = encode::encode(&prepared.kernel, &v.geometry);
        let mut session = Session::new(&v.solver, &pair.script, session_opts.clone()).map_err(DriverError::from)?;
        for c in &pair.checks {
            if matches!(c.property, Property::Assertion { .. }) {
                continue;
            }
            let answer = session.check(&c.query).map_err(DriverError::from)?;
            if let Answer::Sat(values) = &answer {
                let f = c.finding(&prepared.kernel, values);
                if !result.races.contains(&f) {
                    result.races.push(f);
                }
            } else if let Some(p) = answer_problem(&answer, &c.query.name, v.timeout) {
                result.inconclusive.push(p);
            }
        }
        if !result.races.is_empty() {
            result.verdict = Verdict::Defect;
            result.notes.push(
                "assertions were not checked: the canonical serialization is exact only for race-free kernels (use --all-schedules to check them under every interleaving)"
                    .to_string(),
            );
            result.time = start.elapsed();
            return Ok(result);
        }
        if !result.inconclusive.is_empty() {
            result.verdict = Verdict::Inconclusive;
            result
                .notes
                .push("assertions were not checked: the race check was inconclusive (use --all-schedules)".to_string());
            result.time = start.elapsed();
            return Ok(result);
        }
    }
    // 2. Assertions in the concrete model.
    let enc = encode_concrete(&prepared.kernel, &v.geometry, &concrete)?;
    // z3 answers queries after `(push 1)` with its incremental core, which is slow on these
    // bit-vector formulas; past one second it falls back to its bit-blasting solver.
    let mut spec = v.solver.clone();
    if spec.name == "z3" {
        spec.args.push("combined_solver.solver2_timeout=1000".to_string());
    }
    result.notes.extend(enc.notes.iter().cloned());
    let mut spans: Vec<&Span> = enc.checks.iter().map(|c| &c.span).collect();
    spans.dedup();
    result.assertions = spans.len();
    if enc.checks.is_empty() {
        result.notes.push("the kernel has no assertions".to_string());
    } else {
        let mut session = Session::new(&spec, &enc.script, session_opts).map_err(DriverError::from)?;
        let mut done: Vec<&Span> = Vec::new();
        for c in &enc.checks {
            // One failing thread per assertion is enough.
            if done.contains(&&c.span) {
                continue;
            }
            let answer = session.check(&c.query).map_err(DriverError::from)?;
            match &answer {
                Answer::Sat(values) if c.float_dependent => {
                    let _ = values;
                    result.inconclusive.push(format!(
                        "{}: the assertion depends on float values, which are opaque: it may fail only in the abstraction (use --float ieee)",
                        c.span
                    ));
                }
                Answer::Sat(values) => {
                    done.push(&c.span);
                    result.failures.push(AssertionFailure {
                        span: c.span.clone(),
                        postcondition: c.postcondition,
                        witness: c.witness(values),
                    })
                }
                Answer::Unsat => {}
                other => {
                    if let Some(p) = answer_problem(other, &c.query.name, v.timeout) {
                        result.inconclusive.push(p);
                    }
                }
            }
        }
    }
    for (span, why) in &k.unchecked {
        result.inconclusive.push(format!("{span}: {why}"));
    }
    result.verdict = if !result.failures.is_empty() {
        Verdict::Defect
    } else if !result.inconclusive.is_empty() {
        Verdict::Inconclusive
    } else {
        Verdict::Verified
    };
    result.time = start.elapsed();
    Ok(result)
}
