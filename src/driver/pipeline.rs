//! The one pipeline every command runs: read and lower the file once, then per kernel let the
//! command build its models and ask its queries, through solver sessions set up here, with
//! answers turned into replies (and undecided ones into inconclusive reasons) here.
//!
//! Owns: [`RunOptions`] (what every command needs), [`Command`] (what differs per command),
//! [`run`] (the loop over the kernels of a file) and [`KernelRun`] (per kernel: the clock,
//! the solver sessions, the count of queries and the inconclusive reasons). Parallel queries, a
//! portfolio of solvers or several files per run belong here, once for all commands.
//! Must not: print, or know which properties a command checks.

use super::Error;
use super::show::Show;
use crate::frontend::{self, FrontendOptions};
use crate::ir::eval::Geometry;
use crate::ir::validate::{Stage, undefined_reads, validate};
use crate::ir::{HostLaunch, Kernel, Program, Span};
use crate::passes::{PassOptions, Prepared};
use crate::solver::{Answer, Query, Script, Session, SessionOptions, Sexp, SolverError, SolverSpec};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What every command needs: the front end, the launch, the passes and the solver.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// clang, macros, include directories, `--kernel`, `--assume`.
    pub frontend: FrontendOptions,
    /// `--profile`: each kernel's result says where its time went
    /// ([`crate::verdict::KernelResult::profile`]).
    pub profile: bool,
    /// The launch geometry (concrete or symbolic per dimension).
    pub geometry: Geometry,
    /// Unrolling bounds.
    pub passes: PassOptions,
    /// The solver program (the first of a portfolio).
    pub solver: SolverSpec,
    /// A portfolio's solvers, `solver` first ([`Session::portfolio`]); empty for one solver.
    pub portfolio: Vec<SolverSpec>,
    /// How many solver sessions may answer one kernel's queries at once (`--jobs`; at least
    /// 1): [`KernelRun::ask_parallel`].
    pub jobs: usize,
    /// Limit per query, in the solver's CPU time (`solver::SessionOptions::timeout`).
    pub timeout: Duration,
    /// Where to write each query as a standalone `.smt2` script.
    pub dump_dir: Option<PathBuf>,
    /// What each dump's `:source` says of the run (`Command: …`, `Launch: …` lines):
    /// [`crate::solver::SessionOptions::dump_source`].
    pub dump_source: Option<Arc<str>>,
    /// The stages `--show` prints, and where.
    pub show: Show,
    /// Verify each kernel at the launches the file's host code makes
    /// ([`crate::ir::Program::launches`]; `--launch host`, the default of `gpug` when the
    /// command line gives no launch), instead of every launch [`RunOptions::geometry`] allows.
    pub host_launches: bool,
    /// Told the name of each query before it is asked ([`crate::solver::SessionOptions::watch`]):
    /// the CLI's progress line on a terminal.
    pub progress: Option<crate::solver::Watch>,
}

/// One answer of [`KernelRun::ask_parallel`], and whether it was its session's first query
/// ([`Session::last_was_first`]).
pub struct Asked {
    pub answer: Answer,
    pub first: bool,
    /// The time its process took to answer (for `--profile`: the wait for a prefetched
    /// answer is not its cost).
    pub took: Duration,
}

/// What [`KernelRun::ask_parallel`] returns: the answers in the queries' order, and how many
/// each solver gave.
pub struct AskedAll {
    pub answers: Vec<Asked>,
    pub answered_by: BTreeMap<String, u32>,
}

impl RunOptions {
    /// The solvers every query is asked of: the portfolio, else the one solver.
    pub fn solvers(&self) -> Vec<SolverSpec> {
        match self.portfolio.is_empty() {
            true => vec![self.solver.clone()],
            false => self.portfolio.clone(),
        }
    }

    /// The solvers' names, `+`-joined (`z3+yices`).
    pub fn solver_label(&self) -> String {
        self.solvers()
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join("+")
    }
}

/// One command of gpug (`gpug`, `gpug check`, `gpug bank`) with the options only it has: what
/// it does with each kernel, and how its results make a file's result. [`run`] does the rest.
pub trait Command {
    /// The result for one kernel.
    type Kernel: Clone;
    /// The result for one file.
    type File;

    /// Input errors found before the file is read (a launch the command cannot analyse).
    fn validate(&self, _common: &RunOptions) -> Result<(), Error> {
        Ok(())
    }

    /// Analyses one lowered kernel: builds its models, asks its queries through `run`, and
    /// turns the answers into the kernel's result.
    fn kernel(&self, kernel: &Kernel, run: &mut KernelRun) -> Result<Self::Kernel, Error>;

    /// The file's result from the kernels' results, in source order.
    fn file(&self, program: &Program, kernels: Vec<Self::Kernel>) -> Self::File;

    /// The result for a kernel whose analysis stopped at the memory bound (`--max-memory`),
    /// `why` saying where: inconclusive, with `why` as its reason.
    fn stopped(&self, kernel: &Kernel, run: &mut KernelRun, why: String) -> Self::Kernel;

    /// Marks `result` as the kernel's result at the host code's `launch` (issue 43).
    fn at_launch(&self, _result: &mut Self::Kernel, _launch: &HostLaunch) {}

    /// Whether `result` is inconclusive (no verdict), for the retry at a launch without its
    /// nonlinear relations (`without_nonlinear_relations`). Commands without a verdict: never.
    fn undecided(&self, _result: &Self::Kernel) -> bool {
        false
    }

    /// Whether `result` is verified (no defect, nothing undecided).
    fn verified(&self, _result: &Self::Kernel) -> bool {
        false
    }

    /// Adds a note to `result`'s report.
    fn note(&self, _result: &mut Self::Kernel, _note: String) {}
}

/// Runs `command` on every kernel of `file` (or the one `--kernel` names) with the options
/// every command shares.
///
/// Errors: the command's input errors, the front end's (clang missing or failing,
/// unsupported construct), a solver that cannot be started or refuses the script, gpug's
/// memory passing `--max-memory` before the kernels were read. Timeouts, `unknown` answers
/// and a solver that dies during a query are not errors: they make the kernel's result
/// inconclusive; so does the memory bound reached during a kernel's analysis
/// ([`Command::stopped`]), after which its data is let go ([`crate::memory::settle`]) and the
/// next kernel starts.
pub fn run<C: Command>(file: &Path, common: &RunOptions, command: &C) -> Result<C::File, Error> {
    run_reporting(file, common, command, &mut |_| {})
}

/// [`run`], handing `decided` each kernel's result (all its launches' at once, for a kernel
/// verified at its host launches) as soon as it is decided, in the order of the file's result, as a file
/// result of that kernel alone ([`Command::file`]): a terminal prints each kernel's report as
/// it goes (issue 56 item 3), and the file's report is these reports one after another.
///
/// Errors: those of [`run`].
pub fn run_reporting<C: Command>(
    file: &Path,
    common: &RunOptions,
    command: &C,
    decided: &mut dyn FnMut(C::File),
) -> Result<C::File, Error> {
    command.validate(common)?;
    let program = frontend::load(file, &common.frontend)?;
    for n in &program.notes {
        eprintln!("{n}");
    }
    let mut kernels = Vec::new();
    for (index, k) in program.kernels.iter().enumerate() {
        if common.passes.validate {
            // What the source reads uninitialised is an arbitrary value, not a broken IR.
            validate(k, Stage::Lowered, "lowering", &undefined_reads(k))?;
        }
        common.show.lowered(k);
        let launches: Vec<&HostLaunch> = match common.host_launches {
            true => program.launches.iter().filter(|l| l.kernel == index).collect(),
            false => Vec::new(),
        };
        if launches.is_empty()
            && common.host_launches
            && common.frontend.kernel.is_none()
            && let Some(main) = unreferenced_in_program(&program, k)
        {
            eprintln!(
                "note: {}: `{}` is never launched: {main}, and nothing in the program names this one; not verified (--kernel {} verifies it for every launch)",
                k.span, k.name, k.name
            );
            continue;
        }
        if launches.is_empty()
            && common.host_launches
            && common.frontend.kernel.is_none()
            && let Some((_, why)) = program.unlaunched.iter().find(|(i, _)| *i == index)
        {
            eprintln!(
                "note: {}: `{}` is never launched: {why}; not verified (--kernel {} verifies it for every launch)",
                k.span, k.name, k.name
            );
            continue;
        }
        if launches.is_empty() {
            let result = run_kernel(command, k, common)?;
            decided(command.file(&program, vec![result.clone()]));
            kernels.push(result);
            continue;
        }
        // Each distinct launch of the host code: its geometry, and its values assumed on entry.
        // Reported together once all are decided, so that a report merges the launches whose
        // results are alike (`report::merged_launches_text`).
        let mut at_launches = Vec::new();
        for l in launches {
            let opts = RunOptions {
                geometry: Geometry {
                    block_dim: l.block_dim,
                    grid_dim: l.grid_dim,
                },
                ..common.clone()
            };
            let mut result = run_kernel(command, &assuming(k, l, l.assumptions.iter()), &opts)?;
            if command.undecided(&result) {
                result = without_nonlinear_relations(command, k, l, &opts)?.unwrap_or(result);
            }
            command.at_launch(&mut result, l);
            at_launches.push(result);
        }
        decided(command.file(&program, at_launches.clone()));
        kernels.extend(at_launches);
    }
    Ok(command.file(&program, kernels))
}

/// `k` with `assumptions` of the launch `l` assumed on entry.
fn assuming<'e>(k: &Kernel, l: &HostLaunch, assumptions: impl Iterator<Item = &'e crate::ir::Expr>) -> Kernel {
    let mut at = k.clone();
    // The launch's ghosts (device properties no argument passes): arbitrary at entry, bounded
    // by the assumptions.
    let base = at.vars.len();
    at.vars.extend(l.ghosts.iter().cloned());
    let havoc = (0..l.ghosts.len()).map(|i| crate::ir::Stmt {
        kind: crate::ir::StmtKind::Havoc {
            var: crate::ir::VarId(base + i),
        },
        span: l.site.clone(),
    });
    let assumed = assumptions.map(|cond| crate::ir::Stmt {
        kind: crate::ir::StmtKind::Assume { cond: cond.clone() },
        span: l.site.clone(),
    });
    let entry: Vec<crate::ir::Stmt> = havoc.chain(assumed).collect();
    at.body.splice(0..0, entry);
    at
}

/// For a launch whose verification was inconclusive: the verification without the launch's
/// nonlinear relations (`gridDim.x = (n + blockDim.x - 1) / blockDim.x` with the block size an
/// out-parameter of `cudaOccupancyMaxPotentialBlockSize`: a division by a symbolic value that
/// solvers may not decide), when it verifies. Dropping an assumption covers more launches, so
/// "verified" still holds at this one; a note says which relations were left out. `None` when
/// the launch has no such relation or the wider check does not verify (the inconclusive result
/// stands: a defect there may need a launch the relation excludes).
fn without_nonlinear_relations<C: Command>(
    command: &C,
    k: &Kernel,
    l: &HostLaunch,
    opts: &RunOptions,
) -> Result<Option<C::Kernel>, Error> {
    let (nonlinear, linear): (Vec<&crate::ir::Expr>, Vec<&crate::ir::Expr>) =
        l.assumptions.iter().partition(|a| is_nonlinear(a));
    if nonlinear.is_empty() {
        return Ok(None);
    }
    let mut result = run_kernel(command, &assuming(k, l, linear.into_iter()), opts)?;
    if !command.verified(&result) {
        return Ok(None);
    }
    let left: Vec<&str> = l
        .described
        .iter()
        .map(String::as_str)
        .filter(|d| d.contains('/') || d.contains('%') || d.contains('*'))
        .collect();
    command.note(
        &mut result,
        format!(
            "verified without the launch's nonlinear relation{} ({}), which no query decided within the limit: \
             the verdict covers this launch and others",
            if nonlinear.len() == 1 { "" } else { "s" },
            if left.is_empty() {
                format!("{} of them", nonlinear.len())
            } else {
                left.join(", ")
            }
        ),
    );
    Ok(Some(result))
}

/// Whether `e` multiplies, divides or takes the remainder of two values neither of which is a
/// constant (a relation the bit-vector solvers find hard).
fn is_nonlinear(e: &crate::ir::Expr) -> bool {
    use crate::ir::{BinOp, Expr};
    let constant = |e: &Expr| matches!(e, Expr::Const { .. });
    match e {
        Expr::Binary { op, lhs, rhs, .. } => {
            (matches!(op, BinOp::Mul | BinOp::Div | BinOp::Rem) && !constant(lhs) && !constant(rhs))
                || is_nonlinear(lhs)
                || is_nonlinear(rhs)
        }
        Expr::Unary { arg, .. } => is_nonlinear(arg),
        Expr::Cast { arg, .. } => is_nonlinear(arg),
        Expr::Select { cond, then, els, .. } => is_nonlinear(cond) || is_nonlinear(then) || is_nonlinear(els),
        _ => false,
    }
}

/// Whether kernel `k`, which the host code does not launch, is dead code of a whole program:
/// `main` launches kernels (the note names the caller, `main (line 24)`), or the program's
/// other files read define `main` ([`Program::main`]: the file's folder was searched for every
/// file naming its functions, so a launch in it would be read), and `k`'s
/// name occurs once in the program's text (the file and the files it includes: its own
/// definition; and the program's other files read for launches, with theirs), so that no
/// launch, function pointer, table, driver-API string or macro of the program can reach it. A
/// kernel whose name occurs anywhere else (a launch gpug cannot read, a comment) is verified
/// for every launch as before; so is every kernel of a program without `main` (a library, or
/// a kernel launched from a file not read). `None`: not dead code.
fn unreferenced_in_program(program: &Program, k: &Kernel) -> Option<String> {
    let main = program
        .launches
        .iter()
        .filter_map(|l| l.callers.first())
        .find(|c| *c == "main" || c.starts_with("main ("))
        .map(|c| format!("the program's host code ({c}) launches other kernels"))
        // `main` in the program's other files read (the file's folder searched for every file
        // that names its functions, `frontend/program.rs`); a file's own `main` that launches
        // nothing may be a stub beside callers gpug did not read.
        .or_else(|| {
            (!program.other_files.is_empty())
                .then_some(program.main.as_ref())
                .flatten()
                .map(|at| format!("the program defines `main` ({at})"))
        })?;
    let name = k.name.split('<').next().unwrap_or(&k.name);
    if name.is_empty() {
        return None;
    }
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut count = 0;
    for file in std::iter::once(&program.file)
        .chain(&program.includes)
        .chain(&program.other_files)
    {
        let text = std::fs::read_to_string(file).ok()?;
        for (at, _) in text.match_indices(name) {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            if !before.is_some_and(word) && !after.is_some_and(word) {
                count += 1;
            }
        }
    }
    (count == 1).then_some(main)
}

/// `command` on kernel `k` under `opts`; a run stopped at the memory bound is the command's
/// inconclusive result ([`Command::stopped`]), after which memory is let go.
fn run_kernel<C: Command>(command: &C, k: &Kernel, opts: &RunOptions) -> Result<C::Kernel, Error> {
    let mut run = KernelRun::new(opts);
    let result = match command.kernel(k, &mut run) {
        Ok(r) => r,
        Err(e) => {
            let Some(why) = e.memory().map(ToString::to_string) else {
                return Err(e);
            };
            command.stopped(k, &mut run, why)
        }
    };
    // A kernel stopped at the bound (here, or by the passes as an inconclusive reason):
    // its data is gone, and the next kernel starts from what is resident now.
    if crate::memory::over() {
        crate::memory::settle();
    }
    Ok(result)
}

/// A solver's answer as commands use it: the model's values, a proof of absence, or no answer
/// (whose reason [`KernelRun`] keeps).
#[derive(Clone, Debug, PartialEq)]
pub enum Reply<T = Vec<Sexp>> {
    /// Satisfiable, with the values of the query's `get_values` (or what was read from them).
    Sat(T),
    /// Unsatisfiable.
    Unsat,
    /// `unknown`, a timeout, or a solver that failed during the query.
    Undecided,
}

/// The state of one kernel's analysis that every command shares.
pub struct KernelRun<'a> {
    opts: &'a RunOptions,
    start: Instant,
    /// Queries asked so far.
    pub queries: usize,
    /// Why the result is not conclusive, in the order found.
    pub inconclusive: Vec<String>,
    /// Sessions write `--dump-smt2` files (off while a launch contract re-verifies the
    /// kernel, whose queries have the same names as the kernel's own).
    pub dump: bool,
    /// How many queries of this kernel ran into their limit (or were not read in time).
    pub timeouts: usize,
    /// A query of a launch-contract re-verification ran into its limit: the pass asks no
    /// further re-verification (`driver/contracts`).
    pub gave_up: bool,
    /// A query with a linear relaxation that the relaxation does not settle stays undecided
    /// instead of being asked exactly (optional re-verifications, where a slow exact query
    /// would cost more than its answer is worth).
    pub relaxed_only: bool,
    /// A check left undecided ends the verification: its caller discards an undecided result
    /// whatever the other checks answer (a launch contract's re-verification, `driver/contracts`),
    /// so asking them would only spend their limits.
    pub stop_when_undecided: bool,
    /// The command count of the smallest script the solver could not read within
    /// `--timeout` ([`Session::unreadable`]): a later session of this kernel with a script
    /// at least as large (a re-encoding after a closed form failed, a re-verification) is not
    /// asked, so that a solver too slow to read the kernel costs one limit, not one per
    /// session.
    pub unreadable: Option<usize>,
    /// Where the time went (`--profile`), kept whether or not it is asked for.
    pub profile: crate::verdict::Profile,
    /// The query names of the checks a verification's main pass found unsatisfiable, each
    /// check of that name asked and refuted (`verify::verify_under`), since the run began or
    /// the launch contracts took them (`contracts::Launch::refuted`).
    pub refuted: std::collections::BTreeSet<String>,
}

impl<'a> KernelRun<'a> {
    fn new(opts: &'a RunOptions) -> KernelRun<'a> {
        KernelRun {
            opts,
            start: Instant::now(),
            queries: 0,
            inconclusive: Vec::new(),
            dump: true,
            relaxed_only: false,
            stop_when_undecided: false,
            timeouts: 0,
            gave_up: false,
            unreadable: None,
            profile: Default::default(),
            refuted: Default::default(),
        }
    }

    /// The options every command shares.
    pub fn options(&self) -> &'a RunOptions {
        self.opts
    }

    /// `kernel` after the passes ([`crate::passes::prepare_observed`]) for `geometry` under
    /// `passes`, each pass's result shown by `--show=passes` (not while a launch contract
    /// re-verifies the kernel: [`KernelRun::dump`] is off then).
    ///
    /// Errors: a pass left the kernel not well formed ([`Error::Internal`]).
    pub fn prepare(&mut self, kernel: &Kernel, geometry: &Geometry, passes: &PassOptions) -> Result<Prepared, Error> {
        let started = Instant::now();
        let show = &self.opts.show;
        let shown = self.dump;
        let prepared = crate::passes::prepare_observed(kernel, geometry, passes, &mut |pass, k| {
            if shown {
                show.pass(pass, k);
            }
        });
        self.profile.passes += started.elapsed();
        Ok(prepared?)
    }

    /// Records query `name`, asked since `started` and answered `answer` ([`crate::verdict::Profile`]).
    pub fn asked(&mut self, name: &str, started: Instant, answer: &crate::solver::Answer) {
        self.took(name, started.elapsed(), answer);
    }

    /// Records query `name`, which took `took` and was answered `answer`.
    pub fn took(&mut self, name: &str, took: Duration, answer: &crate::solver::Answer) {
        let how = match answer {
            crate::solver::Answer::Sat(_) => "sat".to_string(),
            crate::solver::Answer::Unsat => "unsat".to_string(),
            crate::solver::Answer::Timeout => "timeout".to_string(),
            other => format!("{other:?}").split('(').next().unwrap_or("").to_lowercase(),
        };
        self.profile.queries.push((name.to_string(), took, how));
    }

    /// `--show=ssa`: the script of one encoding of `kernel` under `model` (not while a
    /// launch contract re-verifies the kernel).
    pub fn show_ssa(&self, kernel: &str, model: &str, script: &Script) {
        if self.dump {
            self.opts.show.ssa(kernel, model, script);
        }
    }

    /// `--show=queries`: `queries` with their properties (not while a launch contract
    /// re-verifies the kernel).
    pub fn show_queries<'q>(&self, kernel: &str, queries: impl IntoIterator<Item = (String, &'q Query)>) {
        if self.dump {
            self.opts.show.queries(kernel, queries);
        }
    }

    /// Time since the kernel's analysis began.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The per-query limit (`--timeout`).
    pub fn timeout(&self) -> Duration {
        self.opts.timeout
    }

    /// Session options with a per-query `limit` and `--dump-smt2`.
    pub fn session_options(&self, limit: Duration) -> SessionOptions {
        SessionOptions {
            timeout: Some(limit),
            dump_dir: self.opts.dump_dir.clone().filter(|_| self.dump),
            dump_source: self.opts.dump_source.clone(),
            eager: false,
            one_shot: false,
            watch: self.opts.progress.clone(),
        }
    }

    /// A solver process for `script` under `specs` (one solver, started now; or a portfolio,
    /// started at its first query), with the `--timeout` limit.
    pub fn session(&self, specs: &[SolverSpec], script: &Arc<Script>) -> Result<Session, Error> {
        let opts = self.session_options(self.timeout());
        Ok(match specs {
            [one] => Session::new(one, script, opts)?,
            many => Session::portfolio(many, script, opts),
        })
    }

    /// A solver session for `script` whose process starts at its first query, with a per-query
    /// `limit`: for a formula that may not be asked at all.
    pub fn lazy_session(&self, script: &Arc<Script>, limit: Duration) -> Session {
        self.unless_unreadable(Session::portfolio(
            &self.opts.solvers(),
            script,
            self.session_options(limit),
        ))
    }

    /// `session`, marked unreadable when its script is at least as large as one the solver
    /// could not read ([`KernelRun::unreadable`]).
    fn unless_unreadable(&self, mut session: Session) -> Session {
        if self.unreadable.is_some_and(|n| session.script_len() >= n) {
            session.assume_unreadable();
        }
        session
    }

    /// Records that `session` could not read its script within the limit, when so.
    pub fn note_unreadable(&mut self, session: &Session) {
        if session.unreadable() {
            let n = session.script_len();
            self.unreadable = Some(self.unreadable.map_or(n, |m| m.min(n)));
        }
    }

    /// [`KernelRun::lazy_session`] answered with the solver's eager tactic
    /// ([`SessionOptions::eager`]): for the linear relaxation of `encode::nonlinear`.
    ///
    /// `one_shot`: yices answers each query in a process of its own, without its incremental
    /// mode ([`SessionOptions::one_shot`]): for a relaxation with division chains.
    pub fn eager_session(&self, script: &Arc<Script>, limit: Duration, one_shot: bool) -> Session {
        let opts = SessionOptions {
            eager: true,
            one_shot,
            ..self.session_options(limit)
        };
        self.unless_unreadable(Session::portfolio(&self.opts.solvers(), script, opts))
    }

    /// The answers to `queries`, in their order, from up to [`RunOptions::jobs`] solver
    /// sessions of `script` at once (each `specs`, one solver or a portfolio, started at its
    /// first query, with the `--timeout` limit): workers on the standard library's threads take
    /// the queries in turn, each session holding the script once and asking its queries with
    /// push and pop. Each answer comes with whether it was its session's first (answered from
    /// the script alone, [`Session::last_was_first`]). Also how many queries each solver
    /// answered. Not counted in [`KernelRun::queries`] (the caller counts what it uses).
    ///
    /// Errors: a solver cannot be started or refuses the script (the first such error); gpug's
    /// memory is past `--max-memory`.
    pub fn ask_parallel(
        &mut self,
        specs: &[SolverSpec],
        script: &Arc<Script>,
        queries: &[&Query],
    ) -> Result<AskedAll, Error> {
        crate::memory::check(|| crate::memory::Activity::Querying)?;
        let jobs = self.opts.jobs.clamp(1, queries.len().max(1));
        let opts = self.session_options(self.timeout());
        let next = AtomicUsize::new(0);
        let answers: Mutex<Vec<Option<Result<Asked, SolverError>>>> =
            Mutex::new(queries.iter().map(|_| None).collect());
        let sessions: Mutex<Vec<Session>> = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                let mut session = self.unless_unreadable(Session::portfolio(specs, script, opts.clone()));
                let (next, answers, sessions) = (&next, &answers, &sessions);
                scope.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(q) = queries.get(i) else { break };
                        let started = Instant::now();
                        let a = session.check(q).map(|answer| Asked {
                            answer,
                            first: session.last_was_first(),
                            took: started.elapsed(),
                        });
                        let failed = a.is_err();
                        answers.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(a);
                        if failed {
                            break;
                        }
                    }
                    sessions.lock().unwrap_or_else(|e| e.into_inner()).push(session);
                });
            }
        });
        let mut by = BTreeMap::new();
        for s in sessions.into_inner().unwrap_or_else(|e| e.into_inner()) {
            self.note_unreadable(&s);
            for (name, n) in s.answered_by() {
                *by.entry(name.clone()).or_insert(0) += n;
            }
        }
        let mut out = Vec::with_capacity(queries.len());
        for a in answers.into_inner().unwrap_or_else(|e| e.into_inner()) {
            match a {
                Some(Ok(a)) => out.push(a),
                Some(Err(e)) => return Err(e.into()),
                // A worker stopped at an error: that error is returned above.
                None => out.push(Asked {
                    answer: Answer::Failed("not asked: another query's solver failed".into()),
                    first: false,
                    took: Duration::ZERO,
                }),
            }
        }
        Ok(AskedAll {
            answers: out,
            answered_by: by,
        })
    }

    /// Asks `query` on `session`: one more query, its [`Reply`].
    ///
    /// Errors: the solver cannot start; gpug's memory is past `--max-memory`.
    pub fn ask(&mut self, session: &mut Session, query: &Query) -> Result<Reply, Error> {
        crate::memory::check(|| crate::memory::Activity::Querying)?;
        let answer = session.check(query)?;
        self.queries += 1;
        Ok(self.reply(&query.name, answer))
    }

    /// The reply for an `answer` to the query `name`: an undecided one adds its reason.
    pub fn reply(&mut self, name: &str, answer: Answer) -> Reply {
        match answer {
            Answer::Sat(values) => Reply::Sat(values),
            Answer::Unsat => Reply::Unsat,
            Answer::Unknown(why) => {
                self.inconclusive
                    .push(format!("query {name}: solver answered unknown ({why})"));
                Reply::Undecided
            }
            Answer::Timeout => {
                self.timeouts += 1;
                self.inconclusive.push(format!(
                    "query {name}: no answer within {} s (--timeout)",
                    self.timeout().as_secs_f64()
                ));
                Reply::Undecided
            }
            Answer::Unread => {
                self.timeouts += 1;
                // Said once: every later query of a script as large is not asked either.
                const UNREAD: &str = "the solver did not finish reading the kernel's SMT script within";
                if !self.inconclusive.iter().any(|r| r.contains(UNREAD)) {
                    self.inconclusive.push(format!(
                        "query {name}: {UNREAD} {} s (--timeout); later queries of scripts as large were not asked (z3 4.8 can take minutes over a large script; another solver, or a newer z3, may read it at once)",
                        self.timeout().as_secs_f64()
                    ));
                }
                Reply::Undecided
            }
            Answer::InvalidModel(why) => {
                self.inconclusive
                    .push(format!("query {name}: solver returned an invalid model ({why})"));
                Reply::Undecided
            }
            Answer::Disagreement { sat, unsat, file } => {
                self.inconclusive.push(format!(
                    "query {name}: the solvers disagree ({sat} answered sat, {unsat} unsat), so neither answer is trusted{}",
                    file.map(|f| format!("; the query is in {}", f.display())).unwrap_or_default()
                ));
                Reply::Undecided
            }
            Answer::Failed(line) => {
                let lower = line.to_ascii_lowercase();
                let bound = match crate::memory::solver_limit() {
                    Some(l) if lower.contains("out of memory") || lower.contains("bad_alloc") => format!(
                        " (each solver process may allocate at most {}: raise it with --max-memory)",
                        crate::memory::human(l)
                    ),
                    _ => String::new(),
                };
                self.inconclusive.push(format!(
                    "query {name}: the solver failed during the query: {line}{bound}"
                ));
                Reply::Undecided
            }
        }
    }

    /// Adds the annotations of `kernel` that could not be checked as inconclusive reasons.
    pub fn unchecked(&mut self, kernel: &Kernel) {
        self.inconclusive.extend(reasons(&kernel.unchecked));
    }
}

/// `file:line:col: why` for each reason the passes or the front end gave.
pub fn reasons(list: &[(Span, String)]) -> impl Iterator<Item = String> + '_ {
    list.iter().map(|(s, why)| format!("{s}: {why}"))
}

#[cfg(test)]
mod tests {
    use super::is_nonlinear;
    use crate::ir::{BinOp, Builtin, Dim, Expr, Ty, VarId};

    fn bin(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
            ty: Ty::U32,
        }
    }

    /// A relation is nonlinear when it multiplies, divides or takes a remainder of two
    /// non-constant values: `(n + 255) / 256` is linear, `(n + blockDim.x - 1) / blockDim.x` is
    /// not, nor is a product of two unknowns under an equality.
    #[test]
    fn a_division_by_a_symbolic_value_is_nonlinear() {
        let n = Expr::Var {
            id: VarId(0),
            ty: Ty::U32,
        };
        let block = Expr::Builtin(Builtin::BlockDim(Dim::X));
        let grid = Expr::Builtin(Builtin::GridDim(Dim::X));
        let c = |v: u32| Expr::int(num_bigint::BigInt::from(v), Ty::U32);
        let linear = bin(BinOp::Div, bin(BinOp::Add, n.clone(), c(255)), c(256));
        assert!(!is_nonlinear(&bin(BinOp::Eq, grid.clone(), linear)));
        let by_block = bin(BinOp::Div, bin(BinOp::Add, n.clone(), block.clone()), block.clone());
        assert!(is_nonlinear(&bin(BinOp::Eq, grid.clone(), by_block)));
        assert!(is_nonlinear(&bin(BinOp::Eq, bin(BinOp::Mul, grid, block), n)));
    }
}
