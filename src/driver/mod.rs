//! Runs the pipeline for one file: front end, passes, encoding, solver, verdicts.

pub mod bank;

use crate::encode::{self, Finding};
use crate::frontend::{self, FrontendError, FrontendOptions};
use crate::ir::Program;
use crate::passes::{self, Geometry, LoopTreatment, PassOptions};
use crate::solver::{self, Answer, Session, SessionOptions, SolverError, SolverSpec};
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
}

/// A kernel's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Verified,
    Inconclusive,
    Defect,
}

impl Verdict {
    /// `verified`, `defect`, `inconclusive`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Defect => "defect",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

/// The result for one kernel.
#[derive(Clone, Debug)]
pub struct KernelResult {
    pub name: String,
    pub verdict: Verdict,
    pub findings: Vec<Finding>,
    /// Why the verdict is inconclusive (timeouts, unknowns, loops).
    pub inconclusive: Vec<String>,
    /// Abstractions the verdict rests on.
    pub notes: Vec<String>,
    /// Queries asked.
    pub queries: usize,
    pub time: Duration,
}

/// The result for one file.
#[derive(Clone, Debug)]
pub struct FileResult {
    pub file: String,
    pub kernels: Vec<KernelResult>,
}

impl FileResult {
    /// Defect if any kernel has one, else inconclusive if any is, else verified.
    pub fn overall(&self) -> Verdict {
        self.kernels
            .iter()
            .map(|k| k.verdict)
            .max()
            .unwrap_or(Verdict::Verified)
    }
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
    let mut notes: Vec<String> = prepared
        .loops
        .iter()
        .filter(|(_, t)| *t == LoopTreatment::Havocked)
        .map(|(s, _)| {
            format!(
                "loop at line {} touches no memory: the variables it assigns are abstracted (havocked)",
                s.line
            )
        })
        .collect();
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
            queries: 0,
            time: start.elapsed(),
        });
    }
    let encoded = encode::encode(&prepared.kernel, &opts.geometry);
    notes.extend(encoded.notes.iter().cloned());
    let mut session = Session::new(
        &opts.solver,
        &encoded.script,
        SessionOptions {
            timeout: Some(opts.timeout),
            dump_dir: opts.dump_dir.clone(),
        },
    )?;
    let mut findings: Vec<Finding> = Vec::new();
    let mut inconclusive = Vec::new();
    let mut queries = 0;
    for check in &encoded.checks {
        if opts.only_divergence && !matches!(check.property, encode::Property::Divergence { .. }) {
            continue;
        }
        queries += 1;
        match session.check(&check.query)? {
            Answer::Sat(values) => {
                let f = check.finding(&prepared.kernel, &values);
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
        queries,
        time: start.elapsed(),
    })
}

#[allow(unused)]
fn _solver_used(_: &solver::Script) {}
