//! Runs the pipeline for one file: front end, passes, encoding, solver, verdicts.

pub mod bank;
pub mod check;

use crate::encode::{self, Finding};
use crate::frontend::{self, FrontendError, FrontendOptions};
use crate::ir::Program;
use crate::passes::{self, Geometry, LoopTreatment, PassOptions};
use crate::solver::{self, Answer, Session, SessionOptions, SolverError, SolverSpec};
use crate::verdict::{FileResult, KernelResult, Verdict};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Everything [`verify`] needs.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    pub frontend: FrontendOptions,
    pub geometry: Geometry,
    pub passes: PassOptions,
    pub solver: SolverSpec,
    /// Wall-clock limit per query.
    pub timeout: Duration,
    /// Where to write each query as a standalone `.smt2` script.
    pub dump_dir: Option<PathBuf>,
    /// Check only barrier divergence.
    pub only_divergence: bool,
    /// List every loop with its treatment in [`KernelResult::loops`].
    pub explain: bool,
    /// PUG's `+O`: assume no integer overflow in `+`, `-`, `*`.
    pub no_overflow: bool,
}

/// Errors that stop verification of a file (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    #[error(transparent)]
    Frontend(#[from] FrontendError),
    #[error("solver: {0}")]
    Solver(#[from] SolverError),
}

/// Verifies every kernel of `file` (or the one `--kernel` names).
///
/// Errors: the front end's (clang missing or failing, unsupported construct) and a solver that
/// cannot be started. Timeouts and `unknown` answers are not errors: they make the kernel's
/// verdict inconclusive.
pub fn verify(file: &Path, opts: &VerifyOptions) -> Result<FileResult, DriverError> {
    let program: Program = frontend::load(file, &opts.frontend)?;
    let mut kernels = Vec::new();
    for k in &program.kernels {
        kernels.push(verify_kernel(k, opts)?);
    }
    Ok(FileResult {
        file: program.file.clone(),
        kernels,
    })
}

fn verify_kernel(k: &crate::ir::Kernel, opts: &VerifyOptions) -> Result<KernelResult, DriverError> {
    let start = Instant::now();
    let prepared = passes::prepare(k, &opts.geometry, &opts.passes);
    let mut notes: Vec<String> = Vec::new();
    let mut loops = Vec::new();
    for (span, t) in &prepared.loops {
        let line = span.line;
        let text = match t {
            LoopTreatment::Unrolled(n) => format!("line {line}: unrolled ({n} iterations)"),
            LoopTreatment::Abstracted {
                closed,
                havocked,
                invariants,
            } => {
                notes.push(format!(
                    "loop at line {line} is abstracted by an arbitrary iteration: a defect that depends on it is reported as possible"
                ));
                let list = |v: &[String]| if v.is_empty() { "none".to_string() } else { v.join(", ") };
                format!(
                    "line {line}: abstracted; closed forms in the iteration count: {}; havocked: {}; invariants given: {invariants}",
                    list(closed),
                    list(havocked)
                )
            }
            LoopTreatment::Unwound(n) => {
                notes.push(format!(
                    "loop at line {line} is unwound {n} times and cut (--loop-unwind): the verdict holds only for executions where it runs at most {n} iterations"
                ));
                format!("line {line}: unwound {n} times, then assumed to exit")
            }
            LoopTreatment::Unsupported(why) => format!("line {line}: not handled: {why}"),
        };
        if opts.explain {
            loops.push(text);
        }
    }
    if !prepared.inconclusive.is_empty() {
        return Ok(KernelResult {
            name: k.name.clone(),
            verdict: Verdict::Inconclusive,
            findings: Vec::new(),
            inconclusive: prepared
                .inconclusive
                .iter()
                .map(|(s, why)| format!("{s}: {why}"))
                .collect(),
            notes,
            loops,
            queries: 0,
            time: start.elapsed(),
        });
    }
    let mut kernel = prepared.kernel;
    let mut queries = 0;
    // Derived closed forms are checked first (step case); a failing one is havocked instead
    // and the kernel encoded again, so a wrong derivation cannot hide a defect.
    let (encoded, mut session) = loop {
        let encoded = encode::encode_with(&kernel, &opts.geometry, &pair_options(opts));
        let mut session = Sessions::new(&encoded, opts);
        let mut rejected = Vec::new();
        for (i, check) in encoded.checks.iter().enumerate() {
            if let encode::Property::ClosedForm { loop_span, var } = &check.property {
                queries += 1;
                if !matches!(session.ask(i, check)?, Answer::Unsat) {
                    rejected.push((loop_span.clone(), *var));
                }
            }
        }
        if rejected.is_empty() {
            break (encoded, session);
        }
        for (span, var) in rejected {
            notes.push(format!(
                "the closed form derived for `{}` in the loop at line {} failed its step check: havocked instead",
                kernel.var(var).name,
                span.line
            ));
            passes::demote_closed_form(&mut kernel.body, &span, var);
        }
    };
    notes.extend(encoded.notes.iter().cloned());
    for e in &opts.frontend.assumptions {
        notes.push(format!(
            "assumes `{e}` on entry (--assume): a defect only in launches outside it is not reported"
        ));
    }
    if opts.no_overflow {
        notes.push("assumes that no integer +, -, * overflows (--no-overflow): a defect that needs an overflow is not reported".into());
    }
    let mut findings: Vec<Finding> = Vec::new();
    let mut inconclusive = Vec::new();
    for (i, check) in encoded.checks.iter().enumerate() {
        if matches!(check.property, encode::Property::ClosedForm { .. }) {
            continue;
        }
        if opts.only_divergence && !matches!(check.property, encode::Property::Divergence { .. }) {
            continue;
        }
        queries += 1;
        match session.ask(i, check)? {
            Answer::Sat(values) => {
                let f = check.finding(&kernel, &values);
                if !findings.contains(&f) {
                    findings.push(f);
                }
            }
            Answer::Unsat => {}
            Answer::Unknown(why) => {
                inconclusive.push(format!("query {}: solver answered unknown ({why})", check.query.name))
            }
            Answer::Timeout => inconclusive.push(format!(
                "query {}: no answer within {} s (--timeout)",
                check.query.name,
                opts.timeout.as_secs_f64()
            )),
        }
    }
    if findings.iter().any(|f| f.possible) {
        queries += confirm_by_replay(k, opts, &mut findings, &mut notes)?;
    }
    for (span, why) in &k.unchecked {
        inconclusive.push(format!("{span}: {why}"));
    }
    let verdict = if !findings.is_empty() {
        Verdict::Defect
    } else if !inconclusive.is_empty() {
        Verdict::Inconclusive
    } else {
        Verdict::Verified
    };
    Ok(KernelResult {
        name: k.name.clone(),
        verdict,
        findings,
        inconclusive,
        notes,
        loops,
        queries,
        time: start.elapsed(),
    })
}

/// Replays each possible finding (one resting on a loop abstraction) at the geometry its
/// witness chose: when pinning the symbolic dimensions to those values makes every loop of the
/// kernel unrollable (within `--unroll`), the kernel is encoded again without any abstraction
/// and the same kind of defect (same array for races) asked for; a model at the same source
/// sites is a real defect of that launch and replaces the possible one (PUG §6 abstractions
/// only add behaviours, so the exact encoding is the judge). Findings whose replay is not exact, or finds nothing,
/// stay possible. Returns the number of queries asked.
fn confirm_by_replay(
    k: &crate::ir::Kernel,
    opts: &VerifyOptions,
    findings: &mut [Finding],
    notes: &mut Vec<String>,
) -> Result<usize, DriverError> {
    let mut queries = 0;
    for finding in findings.iter_mut() {
        if !finding.possible {
            continue;
        }
        let mut geometry = opts.geometry.clone();
        let mut pinned = false;
        for (name, value) in &finding.geometry {
            let slot = match name.split_once('.') {
                Some(("blockDim", d)) => geometry.block_dim.get_mut(dim_index(d)),
                Some(("gridDim", d)) => geometry.grid_dim.get_mut(dim_index(d)),
                _ => None,
            };
            if let (Some(slot @ None), Ok(v)) = (slot, u32::try_from(*value)) {
                *slot = Some(v);
                pinned = true;
            }
        }
        if !pinned {
            continue;
        }
        let prepared = passes::prepare(k, &geometry, &opts.passes);
        let exact = prepared.inconclusive.is_empty()
            && prepared
                .loops
                .iter()
                .all(|(_, t)| matches!(t, LoopTreatment::Unrolled(_)));
        if !exact {
            continue;
        }
        let encoded = encode::encode_with(&prepared.kernel, &geometry, &pair_options(opts));
        let mut session = Sessions::new(&encoded, opts);
        for (j, check) in encoded.checks.iter().enumerate() {
            let same = match &check.property {
                encode::Property::Race { array } => {
                    matches!(finding.kind, encode::FindingKind::Race { .. })
                        && finding.array.as_deref() == Some(prepared.kernel.array(*array).name.as_str())
                }
                encode::Property::Divergence { .. } => finding.kind == encode::FindingKind::Divergence,
                _ => false,
            };
            if !same {
                continue;
            }
            queries += 1;
            if let Answer::Sat(values) = session.ask(j, check)? {
                let mut f = check.finding(&prepared.kernel, &values);
                let sites = |f: &Finding| {
                    let mut v: Vec<String> = f.accesses.iter().map(|a| a.span.to_string()).collect();
                    v.sort();
                    v
                };
                // Confirmed only when the exact model races at the same two sites.
                if !f.possible && sites(&f) == sites(finding) {
                    // The replay's geometry is concrete: the witness names the pinned values.
                    f.geometry = finding.geometry.clone();
                    notes.push(format!(
                        "a possible {} was confirmed by replaying its launch ({}) with every loop unrolled",
                        if f.array.is_some() { "race" } else { "defect" },
                        f.geometry
                            .iter()
                            .map(|(n, v)| format!("{n} = {v}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    *finding = f;
                    break;
                }
            }
        }
    }
    Ok(queries)
}

/// The pair model with every check, under `--no-overflow` when given.
fn pair_options(opts: &VerifyOptions) -> encode::EncodeOptions {
    encode::EncodeOptions {
        no_overflow: opts.no_overflow,
        ..encode::EncodeOptions::pair()
    }
}

fn dim_index(d: &str) -> usize {
    match d {
        "x" => 0,
        "y" => 1,
        _ => 2,
    }
}

/// Longest time the relaxed query of a check may take before the exact one is asked.
const RELAXED_LIMIT: Duration = Duration::from_secs(5);

/// The solver sessions of one kernel: the exact formula, and, where the formula multiplies two
/// symbolic terms, its linear relaxation ([`encode::nonlinear`]), asked first: an
/// unsatisfiable relaxed query settles the check, any other answer defers to the exact query
/// (whose model gives the witness). Each process starts at its first query. With
/// `--dump-smt2` the exact query is written either way (as unsatisfiable when its relaxation
/// is), so the dump holds every exact query.
struct Sessions {
    exact: Session,
    relaxed: Option<(Session, Vec<solver::Query>)>,
}

impl Sessions {
    fn new(encoded: &encode::Encoded, opts: &VerifyOptions) -> Sessions {
        let session_opts = |limit: Duration| SessionOptions {
            timeout: Some(limit),
            dump_dir: opts.dump_dir.clone(),
        };
        let relaxed = encode::nonlinear::relax(encoded).map(|r| {
            let limit = opts.timeout.min(RELAXED_LIMIT);
            (Session::lazy(&opts.solver, &r.script, session_opts(limit)), r.queries)
        });
        Sessions {
            exact: Session::lazy(&opts.solver, &encoded.script, session_opts(opts.timeout)),
            relaxed,
        }
    }

    /// The answer to check `i` of the encoding.
    fn ask(&mut self, i: usize, check: &encode::Check) -> Result<Answer, SolverError> {
        if let Some((session, queries)) = &mut self.relaxed
            && session.check(&queries[i])? == Answer::Unsat
        {
            self.exact.record(&check.query, &Answer::Unsat)?;
            return Ok(Answer::Unsat);
        }
        self.exact.check(&check.query)
    }
}
