//! SMT solver processes, spoken to in SMT-LIB 2.6 text over pipes through easy-smt.
//!
//! A [`Session`] starts one solver process for one [`Script`] (the formula shared by a
//! kernel's queries), sends the script once, and answers [`Query`]s with
//! `(push 1) … (check-sat) [(get-value …)] (pop 1)`. Each query has a limit in the solver's
//! CPU time, so that it runs out alike at any load, enforced by killing the process (see
//! [`Session::check`]). This module knows nothing
//! about kernels.
//!
//! easy-smt owns the child process and does not expose it, so the solver is started through a
//! POSIX `sh` shim that writes its own pid to a fresh temporary file and `exec`s the solver in
//! the same process: every session knows its process's pid from the start, on any thread and
//! whatever other threads start at the same time, and a timed-out check kills exactly that
//! process with `kill(2)` (see `process`).

mod limit;
pub mod logic;
mod portfolio;
mod process;
pub mod sexp;
#[cfg(test)]
mod tests;

pub use sexp::*;

use limit::{backstop, wait_cpu};
use process::Proc;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// How a solver is started: a program (looked up on `PATH` unless it contains a `/`) and
/// the arguments that make it read SMT-LIB 2 interactively from standard input.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverSpec {
    /// Short name, e.g. `z3`; for [`from_command`] the program's file name.
    pub name: String,
    /// The executable: a name looked up on `PATH`, or a path.
    pub program: String,
    /// Arguments for interactive SMT-LIB 2 on standard input and output.
    pub args: Vec<String>,
}

impl SolverSpec {
    fn new(name: &str, program: &str, args: &[&str]) -> SolverSpec {
        SolverSpec {
            name: name.to_string(),
            program: program.to_string(),
            args: args.iter().map(|a| a.to_string()).collect(),
        }
    }
}

/// Errors of solver processes.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    /// The program is not on `PATH` (or not an executable file), or the name is not one of
    /// [`registry`].
    #[error("solver `{program}` not found on PATH")]
    NotFound { program: String },
    /// [`by_name`] was given a name the registry does not have.
    #[error("unknown solver `{name}` (known: z3, cvc5, yices, bitwuzla)")]
    UnknownName { name: String },
    /// `--solver-cmd` was empty.
    #[error("empty solver command")]
    EmptyCommand,
    /// `--solver-cmd` could not be split into words (an unterminated quote).
    #[error("cannot split the solver command `{command}` into words: {reason}")]
    BadCommand { command: String, reason: String },
    /// The process could not be started (or its pid not read back from the start shim) or
    /// refused the first commands.
    #[error("failed to start solver `{program}`: {source}")]
    Start { program: String, source: std::io::Error },
    /// Reading or writing the pipes failed, e.g. because the solver exited.
    #[error("solver I/O error while {context}: {source}")]
    Io { context: String, source: std::io::Error },
    /// The solver's output ended (it exited or crashed) or could not be parsed; no error
    /// text could be recovered.
    #[error("solver exited or printed unparsable output after {command}")]
    Exited { command: String },
    /// The solver answered a command with `(error "…")` (for solvers that exit on errors,
    /// such as cvc5, the text is recovered by replaying the input to a fresh process).
    #[error("solver error on {command}: {message}")]
    Solver { command: String, message: String },
    /// The program did not answer the SMT-LIB prologue within the query's limit, at most
    /// 10 s (it was killed, with its descendants).
    #[error(
        "solver `{program}` did not answer the SMT-LIB prologue ((set-option :print-success true)) within {limit_s} s: is it an SMT-LIB 2 solver reading standard input?"
    )]
    Unresponsive { program: String, limit_s: f64 },
    /// The program answered the prologue, but not as an SMT-LIB 2 solver does (`success`).
    #[error("`{program}` is not an SMT-LIB 2 solver reading standard input: {detail}")]
    NotASolver { program: String, detail: String },
    /// The solver answered something this module does not understand.
    #[error("unexpected solver response to {command}: {response}")]
    Unexpected { command: String, response: String },
    /// Writing a dump file failed.
    #[error("cannot write {path}: {source}")]
    Dump { path: PathBuf, source: std::io::Error },
}

/// The known solvers with their interactive flags: z3 (`-in -smt2`), cvc5
/// (`--incremental --lang=smt2 --quiet`), yices (program `yices-smt2`, `--incremental`),
/// bitwuzla (`--lang smt2`).
pub fn registry() -> Vec<SolverSpec> {
    vec![
        SolverSpec::new("z3", "z3", &["-in", "-smt2"]),
        SolverSpec::new("cvc5", "cvc5", &["--incremental", "--lang=smt2", "--quiet"]),
        SolverSpec::new("yices", "yices-smt2", &["--incremental"]),
        SolverSpec::new("bitwuzla", "bitwuzla", &["--lang", "smt2"]),
    ]
}

/// The registry entry called `name` (`z3`, `cvc5`, `yices` or `bitwuzla`; `yices-smt2` is
/// accepted for `yices`); an error if the name is unknown or its program is not on `PATH`.
pub fn by_name(name: &str) -> Result<SolverSpec, SolverError> {
    let spec = registry()
        .into_iter()
        .find(|s| s.name == name || s.program == name)
        .ok_or_else(|| SolverError::UnknownName { name: name.to_string() })?;
    find_program(&spec.program).ok_or_else(|| SolverError::NotFound {
        program: spec.program.clone(),
    })?;
    Ok(spec)
}

/// Every registry solver whose program is on `PATH`, in registry order (a portfolio's
/// members; empty when none is).
pub fn installed() -> Vec<SolverSpec> {
    registry()
        .into_iter()
        .filter(|s| find_program(&s.program).is_some())
        .collect()
}

/// The solvers a run without `--solver` tries, in order: yices first, as it decided as many
/// kernels as z3 and cvc5 on GPUVerify's CUDA and OpenCL suites and on `examples/`, fastest
/// (issue 46's measurement, `scripts/bench-suite.sh` with `SOLVERS`: the CUDA suite's 183
/// kernels in 10.5 s of CPU against z3 4.8.12's 23.3 s and cvc5's 15.7 s, `examples/` in
/// 42 s of wall time against z3's 187 s); then z3 and cvc5. Yices has no FloatingPoint theory,
/// so a run that needs it (`gpug check --float ieee`) starts at z3.
const DEFAULT_ORDER: [&str; 3] = ["yices", "z3", "cvc5"];

/// The first solver of [`DEFAULT_ORDER`] found on `PATH` (yices-smt2, then z3, then cvc5);
/// with `floats`, the first that has SMT-LIB's FloatingPoint theory (z3, then cvc5).
/// Errors: [`SolverError::NotFound`] when none is installed.
pub fn default_solver(floats: bool) -> Result<SolverSpec, SolverError> {
    let reg = registry();
    DEFAULT_ORDER
        .iter()
        .filter(|name| !(floats && **name == "yices"))
        .filter_map(|name| reg.iter().find(|s| s.name == *name))
        .find(|s| find_program(&s.program).is_some())
        .cloned()
        .ok_or_else(|| SolverError::NotFound {
            program: if floats { "z3 or cvc5" } else { "yices-smt2, z3 or cvc5" }.to_string(),
        })
}

/// The solvers (program and arguments) that broke the protocol in this run, with why: their
/// later checks answer [`Answer::Failed`] without asking, so a solver that answers `sat` and
/// then no readable model costs one limit, not one per query.
static MISBEHAVED: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

fn solver_key(spec: &SolverSpec) -> String {
    format!("{} {}", spec.program, spec.args.join(" "))
}

/// Why the solver of `spec` broke the protocol in this run, if it did.
fn misbehaved(spec: &SolverSpec) -> Option<String> {
    let key = solver_key(spec);
    let all = MISBEHAVED.lock().unwrap_or_else(|e| e.into_inner());
    all.iter().find(|(k, _)| *k == key).map(|(_, why)| why.clone())
}

/// Records that the solver of `spec` broke the protocol (the first reason is kept).
fn note_misbehaved(spec: &SolverSpec, why: &str) {
    let key = solver_key(spec);
    let mut all = MISBEHAVED.lock().unwrap_or_else(|e| e.into_inner());
    if !all.iter().any(|(k, _)| *k == key) {
        all.push((key, why.to_string()));
    }
}

/// Kills every solver process gpug started that is still running, with its children (before
/// the process exits on its own terms, e.g. at the memory bound's last resort).
pub fn kill_all() {
    process::kill_all();
}

/// On SIGINT, SIGTERM and SIGHUP (the `ctrlc` crate), kills every solver process gpug
/// started, with its descendants, and exits with 130: no solver outlives an interrupted run.
/// A second call keeps the first handler.
pub fn kill_solvers_on_signals() {
    let _ = ctrlc::set_handler(|| {
        process::kill_all();
        std::process::exit(130);
    });
}

/// A solver given as `--solver-cmd "PROGRAM ARGS…"`: split into words by the shell's rules
/// (quotes and backslashes; the `shell-words` crate), not run through a shell; the name is
/// the program's file name. Errors: [`SolverError::EmptyCommand`], and
/// [`SolverError::BadCommand`] for an unterminated quote. The program must read SMT-LIB 2 from
/// standard input and answer `:print-success`. An interpreter's command (`sh liar.sh`) is named
/// after the script it runs. Not checked against `PATH` here:
/// [`Session::new`] reports a missing program.
pub fn from_command(cmd: &str) -> Result<SolverSpec, SolverError> {
    let words = shell_words::split(cmd).map_err(|e| SolverError::BadCommand {
        command: cmd.to_string(),
        reason: e.to_string(),
    })?;
    let file_name = |w: &str| {
        Path::new(w)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| w.to_string())
    };
    let mut words = words.into_iter();
    let program = words.next().ok_or(SolverError::EmptyCommand)?;
    let args: Vec<String> = words.collect();
    // An interpreter running a script is known by the script (`sh liar.sh`: `liar.sh`).
    const INTERPRETERS: &[&str] = &["sh", "bash", "dash", "zsh", "python", "python3", "perl", "env"];
    let name = match args.first() {
        Some(script) if INTERPRETERS.contains(&file_name(&program).as_str()) && !script.starts_with('-') => {
            file_name(script)
        }
        _ => file_name(&program),
    };
    Ok(SolverSpec { name, program, args })
}

/// Each registry entry with the first line its program prints for `--version`, or why that
/// failed (for `gpug solvers`).
pub fn available() -> Vec<(SolverSpec, Result<String, SolverError>)> {
    registry()
        .into_iter()
        .map(|spec| {
            let v = version_line(&spec);
            (spec, v)
        })
        .collect()
}

/// How long `PROGRAM --version` may take in `gpug solvers`.
const VERSION_LIMIT: Duration = Duration::from_secs(5);

/// The first non-empty line `spec`'s program prints for `--version`, within [`VERSION_LIMIT`].
/// Errors: [`SolverError::NotFound`], [`SolverError::Start`], and [`SolverError::Unexpected`]
/// quoting its standard error when it prints nothing in time.
fn version_line(spec: &SolverSpec) -> Result<String, SolverError> {
    let path = find_program(&spec.program).ok_or_else(|| SolverError::NotFound {
        program: spec.program.clone(),
    })?;
    let (out, err) =
        process::run_bounded(&path, &["--version".to_string()], String::new(), VERSION_LIMIT).map_err(|source| {
            SolverError::Start {
                program: spec.program.clone(),
                source,
            }
        })?;
    out.as_deref()
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
        .ok_or_else(|| SolverError::Unexpected {
            command: format!("{} --version", spec.program),
            response: match (out, err) {
                (None, _) => format!("no answer within {} s", VERSION_LIMIT.as_secs()),
                (_, err) => err.unwrap_or_default().trim().to_string(),
            },
        })
}

/// The executable file `program` names: itself if it contains a `/`, else the first match
/// in `PATH`.
fn find_program(program: &str) -> Option<PathBuf> {
    fn executable(p: &Path) -> bool {
        match std::fs::metadata(p) {
            #[cfg(unix)]
            Ok(m) => {
                use std::os::unix::fs::PermissionsExt;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            }
            #[cfg(not(unix))]
            Ok(m) => m.is_file(),
            Err(_) => false,
        }
    }
    if program.contains('/') {
        let p = PathBuf::from(program);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| executable(p))
}

/// Told the name of each query a [`Session`] is about to ask (`kernel.race.out.seg0.L115`),
/// before it is asked: a terminal's progress line (issue 56 item 3). It must not block.
#[derive(Clone)]
pub struct Watch(pub Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watch")
    }
}

/// Options of a [`Session`].
#[derive(Clone, Debug, Default)]
pub struct SessionOptions {
    /// Limit of one [`Session::check`] in the solver process's CPU time (user and system):
    /// from `(push 1)` to `(pop 1)`, plus reading the script when the check (re)starts the
    /// process (a solver can take minutes to read a large script: z3 4.8 does). CPU time, so
    /// that a check decides alike at any load; a check that makes no progress for as long
    /// (neither the solver nor gpug's thread uses CPU time) stops too ([`wait_cpu`]). `None`: no
    /// limit.
    pub timeout: Option<Duration>,
    /// Where to write each checked query as a standalone `<query.name>.smt2` script.
    pub dump_dir: Option<PathBuf>,
    /// What a dump's `(set-info :source |…|)` says of where its query comes from (the
    /// command, the kernel, the launch), one `Field: value` line each, after gpug's own
    /// lines ([`dump_header`]); `None`: gpug's lines only.
    pub dump_source: Option<Arc<str>>,
    /// Answer each query with the logic's eager tactic where the solver has one (z3:
    /// `(check-sat-using qfaufbv)`, which bit-blasts the whole formula anew) instead of its
    /// incremental core: for formulas with uninterpreted products, see `process::check_tactic`.
    pub eager: bool,
    /// Answer each query with a solver process of its own where that is faster (yices: its
    /// one-shot mode, whose preprocessing its `--incremental` mode leaves out), sending the
    /// script anew each time: for relaxations whose queries need that preprocessing (division
    /// chains by literals, `encode::nonlinear`). With [`SessionOptions::eager`] only.
    pub one_shot: bool,
    /// Told each query's name before [`Session::check`] asks it; `None`: nobody.
    pub watch: Option<Watch>,
}

/// Longest replay run to recover an error message.
const DIAGNOSE_LIMIT: Duration = Duration::from_secs(10);

/// Stack of the thread that talks to the solver during a query (deep terms are converted
/// recursively).
const WORKER_STACK: usize = 64 << 20;

/// How a check's exchange on the worker thread failed: while a restarted process read the
/// script (an encoding the solver refuses: an error of gpug's), or during the query (the
/// solver died: an inconclusive answer).
enum Failure {
    Script(SolverError),
    Query(SolverError),
}

/// One solver process holding one [`Script`]; answers [`Query`]s one at a time.
pub struct Session {
    spec: SolverSpec,
    /// Shared with the worker thread that sends it to a restarted process.
    script: Arc<Script>,
    opts: SessionOptions,
    /// `None` after a timeout or an error: restarted (and the script re-sent) on the next
    /// check.
    proc: Option<Proc>,
    /// The script's commands as text, one a line, with the session's logic in front (for a
    /// replay), rendered once.
    dump_prefix: Option<String>,
    /// The theories of the script's commands, for a dump's logic, found once.
    dump_theories: Option<logic::Theories>,
    /// How many dumps each query name has had.
    dump_names: HashMap<String, u32>,
    /// Whether the solver gets the limit as its own soft timeout (z3, cvc5).
    soft_timeout: bool,
    /// Set when a restarted process did not finish reading the script within the limit:
    /// every later check would only time out the same way, so it is not asked.
    unreadable: bool,
    /// The pid of the process while a check runs (0 otherwise): a portfolio kills a member
    /// whose answer is no longer needed.
    running: Arc<AtomicU32>,
    /// Set by a portfolio that killed this member's process: the check's failure is that,
    /// not the solver's, so it is not diagnosed.
    cancelled: Arc<AtomicBool>,
    /// A portfolio ([`Session::portfolio`]): one session per solver, raced on each check;
    /// empty for a single solver.
    members: Vec<Session>,
    /// How many checks each solver answered definitively (`sat` or `unsat`), by name.
    answered_by: std::collections::BTreeMap<String, u32>,
    /// Who answered the last check definitively (`None`: no solver did).
    last_by: Option<String>,
    /// How many checks the session has been asked.
    asked: u32,
}

impl Session {
    /// Starts the process, sends `(set-logic …)` and the script's commands once. The session
    /// shares `script` (its sessions and the encoding hold one copy between them).
    pub fn new(spec: &SolverSpec, script: &Arc<Script>, opts: SessionOptions) -> Result<Session, SolverError> {
        let mut s = Session::lazy(spec, script, opts);
        s.proc = Some(s.start()?);
        Ok(s)
    }

    /// A session whose process starts at its first [`Session::check`] (so errors starting it
    /// come from there), for a formula that may not be asked at all.
    pub fn lazy(spec: &SolverSpec, script: &Arc<Script>, opts: SessionOptions) -> Session {
        Session {
            spec: spec.clone(),
            script: Arc::clone(script),
            opts,
            proc: None,
            dump_prefix: None,
            dump_theories: None,
            dump_names: HashMap::new(),
            soft_timeout: process::has_soft_timeout(spec),
            unreadable: false,
            running: Arc::new(AtomicU32::new(0)),
            cancelled: Arc::new(AtomicBool::new(false)),
            members: Vec::new(),
            answered_by: Default::default(),
            last_by: None,
            asked: 0,
        }
    }

    /// A portfolio of `specs` (at least one) over `script`, each solver's process started at
    /// its first check: each check is raced by all of them ([`portfolio`]). One spec gives a
    /// plain [`Session::lazy`].
    pub fn portfolio(specs: &[SolverSpec], script: &Arc<Script>, opts: SessionOptions) -> Session {
        let Some(first) = specs.first() else {
            return Session::lazy(&SolverSpec::new("none", "none", &[]), script, opts);
        };
        let mut s = Session::lazy(first, script, opts.clone());
        if specs.len() > 1 {
            let member_opts = SessionOptions { dump_dir: None, ..opts };
            s.members = specs
                .iter()
                .map(|spec| Session::lazy(spec, script, member_opts.clone()))
                .collect();
        }
        s
    }

    /// How many checks each solver answered with `sat` or `unsat`, by name (one entry for a
    /// single solver).
    pub fn answered_by(&self) -> &std::collections::BTreeMap<String, u32> {
        &self.answered_by
    }

    /// Who answered the last check with `sat` or `unsat`: a solver's name, two `+`-joined
    /// when a portfolio's `unsat` was confirmed by a second one; `None` when none did.
    pub fn last_answered_by(&self) -> Option<&str> {
        self.last_by.as_deref()
    }

    /// Whether the last check was the session's first: its solver then answered from the script
    /// alone, as a fresh process would (the same commands, in the same order).
    pub fn last_was_first(&self) -> bool {
        self.asked == 1
    }

    /// Whether this is a portfolio of several solvers.
    pub fn is_portfolio(&self) -> bool {
        !self.members.is_empty()
    }

    /// The solvers' names, `+`-joined for a portfolio (`z3+yices`).
    pub fn solver_name(&self) -> String {
        match self.members.is_empty() {
            true => self.spec.name.clone(),
            false => self
                .members
                .iter()
                .map(|m| m.spec.name.as_str())
                .collect::<Vec<_>>()
                .join("+"),
        }
    }

    /// Whether a restarted process failed to read the script within the limit; the session
    /// then answers every check `unknown` without asking.
    pub fn unreadable(&self) -> bool {
        match self.members.is_empty() {
            true => self.unreadable,
            false => self.members.iter().all(|m| m.unreadable),
        }
    }

    /// Answers every check `unknown` without asking, as after a failed read of the script:
    /// for a script at least as large as one the solver could not read within the limit.
    pub fn assume_unreadable(&mut self) {
        self.unreadable = true;
        for m in &mut self.members {
            m.unreadable = true;
        }
    }

    /// The number of commands of the script.
    pub fn script_len(&self) -> usize {
        self.script.commands.len()
    }

    /// With [`SessionOptions::dump_dir`], writes `query` as a standalone script with `answer`
    /// as its status, without asking the solver: for a query whose answer is known otherwise
    /// (an exact query whose relaxation is unsatisfiable). Nothing without a dump directory.
    pub fn record(&mut self, query: &Query, answer: &Answer) -> Result<(), SolverError> {
        if let Some(dir) = self.opts.dump_dir.clone() {
            let path = self.dump_path(&dir, &query.name);
            self.write_dump(&path, query, Some(answer))?;
        }
        Ok(())
    }

    /// Starts the process and sends the script; an [`SolverError::Exited`] becomes a
    /// [`SolverError::Solver`] when a replay recovers the solver's message.
    fn start(&mut self) -> Result<Proc, SolverError> {
        let mut p = self.spawn()?;
        p.send_commands(&self.script.commands)
            .and_then(|()| p.send_commands(&self.script.probes))
            .map_err(|e| self.explain(e, None))?;
        Ok(p)
    }

    /// Replays the script (and `query`) to a fresh process to find the error message the
    /// solver printed before exiting (cvc5 exits on sort errors and prints them over several
    /// lines, which easy-smt cannot parse).
    fn explain(&mut self, e: SolverError, query: Option<&Query>) -> SolverError {
        let SolverError::Exited { command } = e else {
            return e;
        };
        let mut input = String::from("(set-option :produce-models true)\n");
        input.push_str(self.dump_prefix());
        for c in &self.script.probes {
            input.push_str(&format!("{c}\n"));
        }
        if let Some(q) = query {
            input.push_str("(push 1)\n");
            for a in &q.assertions {
                input.push_str(&format!("(assert {a})\n"));
            }
            input.push_str("(check-sat)\n");
            if !q.get_values.is_empty() {
                input.push_str(&format!("(get-value {})\n", Sexp::List(q.get_values.clone())));
            }
        }
        input.push_str("(exit)\n");
        let limit = self.opts.timeout.unwrap_or(DIAGNOSE_LIMIT).min(DIAGNOSE_LIMIT);
        match process::diagnose(&self.spec, input, limit) {
            Some(message) => SolverError::Solver { command, message },
            None => SolverError::Exited { command },
        }
    }

    fn dump_prefix(&mut self) -> &str {
        self.dump_prefix.get_or_insert_with(|| dump_prefix(&self.script))
    }

    /// Starts the process with its options and logic, without the script.
    fn spawn(&mut self) -> Result<Proc, SolverError> {
        // The solver's own limit is wall-clock time (z3's `:timeout`, cvc5's `:tlimit-per`),
        // so it gets the backstop: the CPU-time limit is gpug's ([`wait_cpu`]).
        let soft = self
            .opts
            .timeout
            .filter(|_| self.soft_timeout)
            .map(|t| u64::try_from(backstop(t).as_millis()).unwrap_or(u64::MAX).max(1));
        Proc::start(
            &self.spec,
            &self.script.logic,
            soft,
            (self.opts.eager, self.opts.one_shot),
            self.opts.timeout,
        )
        .map_err(|e| self.explain(e, None))
    }

    /// `(push 1)`, asserts the query's assertions, `(check-sat)`, `(get-value …)` if sat,
    /// `(get-info :reason-unknown)` if unknown, `(pop 1)`.
    ///
    /// With [`SessionOptions::timeout`], the exchange runs on a worker thread while this
    /// thread waits until the solver process has used the limit in CPU time, or the exchange
    /// has made no progress for as long ([`wait_cpu`]; z3 and cvc5 get ten times the limit as
    /// their own soft timeout, in wall-clock time); then the solver process is killed and [`Answer::Timeout`] returned. The next check restarts the process and re-sends the
    /// script. A solver `unknown` whose reason is a timeout is also [`Answer::Timeout`]
    /// (the process is then kept). A solver that fails during the query (exits, crashes,
    /// closes its pipe, prints unparsable output or answers `(error …)`) gives
    /// [`Answer::Failed`] with its last line, and its process is discarded the same way.
    ///
    /// Errors: the solver cannot be found or started, or refuses the script when (re)started
    /// (an encoding gpug got wrong), a dump cannot be written.
    pub fn check(&mut self, query: &Query) -> Result<Answer, SolverError> {
        if let Some(w) = &self.opts.watch {
            (w.0)(&query.name);
        }
        let dump = self.opts.dump_dir.clone().map(|dir| self.dump_path(&dir, &query.name));
        if let Some(path) = &dump {
            self.write_dump(path, query, None)?;
        }
        let answer = self.check_inner(query)?;
        if let Some(path) = &dump {
            self.write_dump(path, query, Some(&answer))?;
        }
        Ok(answer)
    }

    /// [`Session::check`] without writing a dump: for the auxiliary queries of a check (a
    /// refinement round, a pinned witness query) whose number depends on models and time,
    /// so that a dump directory holds the same files on every run.
    pub fn check_undumped(&mut self, query: &Query) -> Result<Answer, SolverError> {
        self.check_inner(query)
    }

    fn check_inner(&mut self, query: &Query) -> Result<Answer, SolverError> {
        self.asked += 1;
        let answer = match self.members.is_empty() {
            true => self.check_one(query)?,
            false => {
                let (answer, by) = portfolio::race(&mut self.members, query);
                let answer = match answer {
                    Answer::Disagreement { sat, unsat, .. } => {
                        let file = self.disagreement_file(query);
                        Answer::Disagreement { sat, unsat, file }
                    }
                    a => a,
                };
                if let Some(by) = &by {
                    *self.answered_by.entry(by.clone()).or_insert(0) += 1;
                }
                self.last_by = by;
                return Ok(answer);
            }
        };
        self.last_by = None;
        if matches!(answer, Answer::Sat(_) | Answer::Unsat) {
            *self.answered_by.entry(self.spec.name.clone()).or_insert(0) += 1;
            self.last_by = Some(self.spec.name.clone());
        }
        Ok(answer)
    }

    /// Writes `query`, on which a portfolio's solvers disagreed, as a standalone script: into
    /// the dump directory when there is one, else into `gpug-disagreements/` of the
    /// temporary directory. `None` when it cannot be written.
    fn disagreement_file(&mut self, query: &Query) -> Option<PathBuf> {
        let dir = match &self.opts.dump_dir {
            Some(d) => d.clone(),
            None => std::env::temp_dir().join("gpug-disagreements"),
        };
        let path = self.dump_path(&dir, &format!("{}.disagreement", query.name));
        self.write_dump(&path, query, None).ok().map(|()| path)
    }

    /// [`Session::check_inner`] of one solver.
    fn check_one(&mut self, query: &Query) -> Result<Answer, SolverError> {
        self.cancelled.store(false, Ordering::Release);
        let Some(limit) = self.opts.timeout else {
            let mut proc = match self.proc.take() {
                Some(p) => p,
                None => self.start()?,
            };
            self.running.store(proc.pid, Ordering::Release);
            let _running = ClearOnDrop(Arc::clone(&self.running));
            return Ok(match proc.run_query(query) {
                Ok(answer) => {
                    // A one-shot process is spent: the next query starts another.
                    if !proc.one_shot {
                        self.proc = Some(proc);
                    }
                    answer
                }
                Err(e) => self.failed(proc, e, query),
            });
        };
        if self.unreadable {
            return Ok(Answer::Unread);
        }
        if let Some(reason) = misbehaved(&self.spec) {
            return Ok(Answer::Failed(format!("{reason} (not asked again)")));
        }
        // A fresh process gets the script on the worker thread, within the limit.
        let (mut proc, script) = match self.proc.take() {
            Some(p) => (p, None),
            None => (self.spawn()?, Some(Arc::clone(&self.script))),
        };
        let pid = proc.pid;
        self.running.store(pid, Ordering::Release);
        let _running = ClearOnDrop(Arc::clone(&self.running));
        let (tx, rx) = mpsc::channel();
        let q = query.clone();
        let started = Instant::now();
        let script_read = Arc::new(AtomicBool::new(script.is_none()));
        let read = Arc::clone(&script_read);
        let answered_sat = Arc::new(AtomicBool::new(false));
        let sat = Arc::clone(&answered_sat);
        // The worker's thread id, for its CPU time ([`wait_cpu`]).
        let worker = Arc::new(AtomicU32::new(0));
        let tid = Arc::clone(&worker);
        std::thread::Builder::new()
            .name("gpug-solver".to_string())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                tid.store(process::current_thread_id(), Ordering::Release);
                let r = match script {
                    Some(s) => proc
                        .send_commands(&s.commands)
                        .and_then(|()| proc.send_commands(&s.probes))
                        .map_err(Failure::Script),
                    None => Ok(()),
                }
                .and_then(|()| {
                    read.store(true, Ordering::Release);
                    proc.run_query_noting(&q, &sat).map_err(Failure::Query)
                });
                // If the receiver gave up, `proc` is dropped here, which kills and reaps the
                // process.
                let _ = tx.send((proc, r));
            })
            .map_err(|source| SolverError::Io {
                context: "starting the solver thread".to_string(),
                source,
            })?;
        match wait_cpu(&rx, pid, &worker, limit) {
            Ok((proc, Ok(answer))) => {
                // A one-shot process is spent: the next query starts another.
                if !proc.one_shot {
                    self.proc = Some(proc);
                }
                Ok(match answer {
                    Answer::Unknown(reason) if is_timeout_reason(&reason) && started.elapsed() >= limit / 2 => {
                        Answer::Timeout
                    }
                    a => a,
                })
            }
            Ok((proc, Err(Failure::Query(e)))) => Ok(self.failed(proc, e, query)),
            Ok((proc, Err(Failure::Script(_)))) if self.cancelled.load(Ordering::Acquire) => {
                drop(proc);
                Ok(Answer::Failed(CANCELLED.to_string()))
            }
            Ok((proc, Err(Failure::Script(e)))) => {
                drop(proc);
                Err(self.explain(e, None))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // The worker still owns the `Child` (or it sits in the channel), not yet
                // waited for, so `pid` is still this process's child. Its descendants first:
                // a wrapper's child (`sh script` running `sleep`) would outlive it, orphaned.
                process::kill_tree(pid);
                drop(rx);
                self.unreadable = !script_read.load(Ordering::Acquire);
                Ok(if self.unreadable {
                    Answer::Unread
                } else if answered_sat.load(Ordering::Acquire) {
                    // Not a hard query: a solver that does not follow the protocol. Its
                    // later checks, in any session, are not asked.
                    let reason = format!(
                        "the solver answered sat, then no readable model within {} s",
                        limit.as_secs_f64()
                    );
                    note_misbehaved(&self.spec, &reason);
                    Answer::Failed(reason)
                } else {
                    Answer::Timeout
                })
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(SolverError::Unexpected {
                command: "check-sat".to_string(),
                response: "the solver thread panicked".to_string(),
            }),
        }
    }

    /// [`Answer::Failed`] for a query on which `proc` failed with `e`, quoting the solver's last
    /// line: its `(error …)` answer, else the last line of its standard error, else the error
    /// message a replay recovers, else `e` itself. `proc` is dropped: the process is killed;
    /// the next check restarts it.
    fn failed(&mut self, proc: Proc, e: SolverError, query: &Query) -> Answer {
        let stderr = proc.last_stderr_line();
        drop(proc);
        if self.cancelled.load(Ordering::Acquire) {
            return Answer::Failed(CANCELLED.to_string());
        }
        let line = match (e, stderr) {
            (SolverError::Solver { message, .. }, _) => solver_error_line(&message),
            (_, Some(line)) => line,
            (e, None) => match self.explain(e, Some(query)) {
                SolverError::Solver { message, .. } => solver_error_line(&message),
                e => e.to_string(),
            },
        };
        Answer::Failed(line)
    }

    /// `<dir>/<name>.smt2`, or `<name>-2.smt2`, `-3`, … for repeated names in this session.
    fn dump_path(&mut self, dir: &Path, name: &str) -> PathBuf {
        let safe: String = name
            .chars()
            .map(|c| if c == '/' || c == '\\' || c == '\0' { '_' } else { c })
            .collect();
        let n = self.dump_names.entry(safe.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            dir.join(format!("{safe}.smt2"))
        } else {
            dir.join(format!("{safe}-{n}.smt2"))
        }
    }

    fn write_dump(&mut self, path: &Path, query: &Query, answer: Option<&Answer>) -> Result<(), SolverError> {
        let theories = *self
            .dump_theories
            .get_or_insert_with(|| logic::Theories::of_script(&self.script));
        let logic = theories.with_query(query).logic();
        let header = dump_header(&logic, self.opts.dump_source.as_deref(), &query.name, answer);
        let text = dump_text(&header, commands_text(self.dump_prefix()), query);
        let err = |source| SolverError::Dump {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(err)?;
        }
        std::fs::write(path, text).map_err(err)
    }
}

/// Why a portfolio member's check ended: the portfolio killed it once another solver answered.
const CANCELLED: &str = "cancelled: another solver of the portfolio answered";

/// Sets the pid it holds to 0 when dropped: the end of a check, however it ends.
struct ClearOnDrop(Arc<AtomicU32>);

impl Drop for ClearOnDrop {
    fn drop(&mut self) {
        self.0.store(0, Ordering::Release);
    }
}

/// A solver's `(error "message")` answer as it printed it (`"` doubled inside), on one line
/// (runs of white space become one space) and quoted to at most 300 characters.
fn solver_error_line(message: &str) -> String {
    let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    process::quote(format!("(error \"{}\")", one_line.replace('"', "\"\"")))
}

/// Whether a `:reason-unknown` says the solver's own time limit ran out.
fn is_timeout_reason(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    r.contains("timeout") || r.contains("canceled") || r.contains("cancelled")
}

/// `(set-info :smt-lib-version 2.6)`, `(set-logic …)` and the script's commands, one a line.
fn dump_prefix(script: &Script) -> String {
    use std::fmt::Write;
    let mut s = String::from("(set-info :smt-lib-version 2.6)\n");
    if !script.logic.is_empty() {
        let _ = writeln!(s, "(set-logic {})", script.logic);
    }
    for c in &script.commands {
        let _ = writeln!(s, "{c}");
    }
    s
}

/// The commands of a [`dump_prefix`], without its first two lines (version and logic).
fn commands_text(prefix: &str) -> &str {
    let mut rest = prefix;
    for _ in 0..2 {
        if rest.starts_with("(set-") {
            rest = rest.split_once('\n').map_or("", |(_, r)| r);
        }
    }
    rest
}

/// The licence of every dump, as SMT-LIB's benchmark library asks it to be written.
pub const DUMP_LICENSE: &str = "https://creativecommons.org/licenses/by/4.0/";

/// What gpug says of itself in every dump's `:source`: SMT-LIB's structured fields
/// (`Generator`, `Application`, `Target solver`, `Publications`) and a line on how queries
/// are named.
fn gpug_source_lines() -> String {
    format!(
        "Generator: gpug {} (SMT-based verifier of CUDA and OpenCL kernels)\n\
         Application: verification of GPU kernels: data races, barrier divergence, assertions, \
         barrier invariants, shared-memory bank conflicts\n\
         Target solver: z3, cvc5, yices\n\
         Publications: G. Li, G. Gopalakrishnan, \"Scalable SMT-based verification of GPU kernel \
         functions\", FSE 2010 (PUG); A. Betts, N. Chong, A. F. Donaldson, S. Qadeer, P. Thomson, \
         \"GPUVerify: a verifier for GPU kernels\", OOPSLA 2012; N. Chong, A. F. Donaldson, \
         P. H. J. Kelly, J. Ketema, S. Qadeer, \"Barrier invariants: a shared state abstraction \
         for the analysis of data-dependent GPU kernels\", OOPSLA 2013\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// SMT-LIB's benchmark header for a dump: `:smt-lib-version`, `(set-logic logic)`,
/// `:source` (gpug's lines, then `source`, then the query's name), `:license` (CC BY 4.0),
/// `:category "industrial"` and `:status` (the answer's `sat` or `unsat`, else `unknown`,
/// also before the query is answered). A `|` or `\` in `source` (a quoted symbol cannot hold
/// them) becomes `¦` or `/`.
pub fn dump_header(logic: &str, source: Option<&str>, query: &str, answer: Option<&Answer>) -> String {
    use std::fmt::Write;
    let mut s = String::from("(set-info :smt-lib-version 2.6)\n");
    let _ = writeln!(s, "(set-logic {logic})");
    let mut text = gpug_source_lines();
    if let Some(src) = source {
        text.push_str(src.trim_end());
        text.push('\n');
    }
    let _ = writeln!(text, "Query: {query}");
    let text = text.replace('|', "\u{a6}").replace('\\', "/");
    let _ = writeln!(s, "(set-info :source |\n{text}|)");
    let _ = writeln!(s, "(set-info :license \"{DUMP_LICENSE}\")");
    s.push_str("(set-info :category \"industrial\")\n");
    let status = match answer {
        Some(Answer::Sat(_)) => "sat",
        Some(Answer::Unsat) => "unsat",
        Some(
            Answer::Unknown(_)
            | Answer::Timeout
            | Answer::Unread
            | Answer::Failed(_)
            | Answer::InvalidModel(_)
            | Answer::Disagreement { .. },
        )
        | None => "unknown",
    };
    let _ = writeln!(s, "(set-info :status {status})");
    s
}

/// A standalone non-incremental benchmark for one query: the `header` ([`dump_header`]), the
/// script's `commands` (text, one a line), the assertions, `(check-sat)`, `(exit)`.
fn dump_text(header: &str, commands: &str, query: &Query) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(header.len() + commands.len() + 256);
    s.push_str(header);
    s.push_str(commands);
    for a in &query.assertions {
        let _ = writeln!(s, "(assert {a})");
    }
    s.push_str("(check-sat)\n(exit)\n");
    s
}
