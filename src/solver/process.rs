//! One running solver process, spoken to through easy-smt, and the conversions between our
//! [`Sexp`] and easy-smt's arena-allocated `SExpr`.
//!
//! easy-smt spawns the solver and keeps its `Child` private, so the solver is started through
//! a POSIX `sh` shim ([`SHIM`]) that writes its own pid to a fresh file ([`PidFile`]) and
//! `exec`s the solver in the same process: the pid read back from that file after the start
//! is the solver's, whichever thread started it and whatever other threads spawn at the same
//! time. The shim also sends the solver's standard error to a fresh file kept by [`Proc`], whose
//! last line is quoted when the solver dies. Responses are parsed by easy-smt, not here ([`error_text`] only finds an error message
//! in a replay's raw output).

use super::{Answer, Command, Query, Sexp, SolverError, SolverSpec, find_program};
use easy_smt::{Context, ContextBuilder, SExpr, SExprData};
use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

/// How many commands are written before their `success` acknowledgements are read back.
///
/// Each acknowledgement is 8 bytes; a pipe holds at least 64 KiB, so 1024 outstanding
/// acknowledgements cannot fill it and deadlock the writer.
const BATCH: usize = 1024;

/// At most this many characters of a command are quoted in an error.
const QUOTE_LIMIT: usize = 300;

/// The shell that runs [`SHIM`].
const SHELL: &str = "/bin/sh";

/// The start shim, run as `sh -c SHIM PID_FILE STDERR_FILE DATA_KIB PROGRAM ARGS…`: the shell
/// writes its own pid (`$$`) to the file named by `$0`, limits its data segment to `$2` KiB
/// (`ulimit -d`, inherited by the solver; `-` for no limit: `--max-memory`, so that a solver
/// that needs more fails its query with an out-of-memory error instead of taking the machine's
/// memory), then replaces itself by the solver (`exec "$@"`), which keeps that pid, with the
/// solver's standard error redirected to the file named by `$1` (so that the last line of a
/// solver that dies can be quoted). No `--` after `exec`: dash's `exec` would run a program
/// called `--`.
///
/// Where util-linux's `setpriv` is installed (Linux), the solver is exec'ed through
/// `setpriv --pdeathsig KILL`, which sets `prctl(PR_SET_PDEATHSIG, SIGKILL)` and execs it in
/// the same process: the kernel kills the solver when gpug dies, even by SIGKILL, which no
/// handler sees. The signal follows the death of the *thread* that started the shim, so every
/// solver is started on one thread that lives as long as gpug ([`on_starter_thread`]).
/// easy-smt builds the `Command`, so `pre_exec` is not available to do this in-process.
const SHIM: &str = r#"echo $$ > "$0"; e=$1; m=$2; shift 2; if [ "$m" != - ]; then ulimit -d "$m" 2>/dev/null; fi; if command -v setpriv >/dev/null 2>&1; then exec setpriv --pdeathsig KILL "$@" 2>"$e"; fi; exec "$@" 2>"$e""#;

/// At most this many bytes at the end of the solver's standard error are read for its last line.
const STDERR_TAIL: u64 = 16 * 1024;

/// A started solver: the easy-smt context that owns the child process, the child's pid so
/// that a watchdog on another thread can kill it, and the file its standard error goes to.
pub(crate) struct Proc {
    // Dropped first: kills and reaps the process before its stderr file is removed.
    pub(crate) ctx: Context,
    pub(crate) pid: u32,
    /// The solver's standard error (a fresh temporary file, removed when dropped).
    stderr: tempfile::TempPath,
    /// z3's tactic for the logic, used as `(check-sat-using TACTIC)` (see [`check_tactic`]).
    tactic: Option<&'static str>,
    /// Whether a `sat` answer's model is checked ([`Proc::model_refuted`]): not in an eager
    /// session, whose queries are `encode::nonlinear`'s relaxations: gpug evaluates their
    /// models on exact arithmetic itself, and a witness is only built from an exact query's.
    check_models: bool,
    /// A process for one query ([`one_shot`]): started without the solver's incremental mode,
    /// asked its query with no `(push)`/`(pop)`, and dropped after it.
    pub(crate) one_shot: bool,
}

/// The pids of the solver processes alive now (each [`Proc`]'s, from its start to its drop),
/// for [`kill_all`] when gpug is interrupted.
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

impl Drop for Proc {
    fn drop(&mut self) {
        // Before `ctx` is dropped (which kills and reaps the process): a pid in `LIVE` is
        // never one that was reaped.
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        live.retain(|&p| p != self.pid);
    }
}

/// Kills every live solver process and its descendants (SIGKILL): for a signal handler, when
/// gpug stops without dropping its sessions. Holds the registry's lock, so no process is
/// reaped meanwhile.
pub(crate) fn kill_all() {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    for &pid in live.iter() {
        kill_tree(pid);
    }
}

/// Sends SIGKILL to `pid`'s descendants, then to `pid`: a wrapper (`sh -c '…'`) may hold the
/// solver's pipes through a child of its own.
pub(crate) fn kill_tree(pid: u32) {
    for child in descendants(pid) {
        kill_pid(child);
    }
    kill_pid(pid);
}

/// A fresh, empty file in the temporary directory (the `tempfile` crate: exclusive creation,
/// a unique name) for [`SHIM`] to write the solver's pid to; removed when dropped (after
/// reading, and on every error path).
pub(crate) struct PidFile {
    pub(crate) path: tempfile::TempPath,
}

impl PidFile {
    /// Creates `gpug-solver-XXXXXX.pid`, closed, for the shell to write.
    pub(crate) fn create() -> io::Result<PidFile> {
        Ok(PidFile {
            path: temp_path(".pid")?,
        })
    }
}

/// The pid the start shim wrote to `path`.
pub(crate) fn read_pid(path: &std::path::Path) -> io::Result<u32> {
    let text = std::fs::read_to_string(path)?;
    text.trim().parse().map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("no pid in {}: {:?}", path.display(), text),
        )
    })
}

/// A fresh, empty temporary file `gpug-solver-XXXXXX.SUFFIX` (the `tempfile` crate: exclusive
/// creation, a unique name), closed, for the shell to write; removed when the path is dropped.
fn temp_path(suffix: &str) -> io::Result<tempfile::TempPath> {
    Ok(tempfile::Builder::new()
        .prefix("gpug-solver-")
        .suffix(suffix)
        .tempfile()?
        .into_temp_path())
}

/// The last non-empty line of the file at `path` (its last [`STDERR_TAIL`] bytes), trimmed and
/// quoted to [`QUOTE_LIMIT`] characters; `None` if there is none or it cannot be read.
pub(crate) fn last_line(path: &std::path::Path) -> Option<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(STDERR_TAIL))).ok()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let line = text.lines().map(str::trim).rfind(|l| !l.is_empty())?;
    Some(quote(line.to_string()))
}

/// Spawns `program` (an executable file) with `args` through [`SHIM`] and waits for its
/// acknowledgement of easy-smt's first commands; returns the context, the solver's pid and the
/// file its standard error goes to. A failed start quotes the last line of that file, if any.
fn spawn(
    program: PathBuf,
    args: &[String],
    pid_file: &std::path::Path,
) -> io::Result<(Context, u32, tempfile::TempPath)> {
    let stderr = temp_path(".err")?;
    let mut shim_args: Vec<OsString> = vec![
        "-c".into(),
        SHIM.into(),
        pid_file.into(),
        stderr.to_path_buf().into(),
        crate::memory::solver_limit()
            .map_or("-".to_string(), |b| b.div_ceil(1024).to_string())
            .into(),
        program.into(),
    ];
    shim_args.extend(args.iter().map(OsString::from));
    let ctx = ContextBuilder::new()
        .solver(SHELL)
        .solver_args(shim_args)
        .build()
        .map_err(|e| match last_line(&stderr) {
            Some(line) => io::Error::new(e.kind(), format!("{e} ({line})")),
            None => e,
        })?;
    // The solver answered, so the shell wrote the file before it `exec`ed the solver. On an
    // error `ctx` is dropped, which kills and reaps the process.
    let pid = read_pid(pid_file)?;
    Ok((ctx, pid, stderr))
}

/// Runs `f` (which starts a child process) on the one thread of gpug that starts every solver,
/// made on first use and alive until gpug exits, and returns its result.
///
/// Linux sends a process's parent-death signal (`PR_SET_PDEATHSIG`, which [`SHIM`] and
/// [`die_with_parent`] set so that a solver dies with gpug, even by SIGKILL) when the *thread*
/// that started it exits, not the process: a solver started on a short-lived thread (a
/// worker, a test's thread) would be killed with that thread. Starting on this thread ties
/// every solver to gpug's lifetime. Starts are serialized; each is bounded by its
/// [`Watchdog`]. Where the thread cannot be made, `f` runs on the caller's thread.
fn on_starter_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    type Job = Box<dyn FnOnce() + Send>;
    static STARTER: std::sync::OnceLock<Option<mpsc::Sender<Job>>> = std::sync::OnceLock::new();
    let starter = STARTER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("gpug-starter".to_string())
            .spawn(move || rx.into_iter().for_each(|job| job()))
            .ok()
            .map(|_| tx)
    });
    let (tx, rx) = mpsc::channel();
    let job: Job = Box::new(move || {
        let _ = tx.send(f());
    });
    match starter {
        Some(starter) => {
            if let Err(mpsc::SendError(job)) = starter.send(job) {
                job();
            }
        }
        None => job(),
    }
    rx.recv().expect("the starter thread runs every job it receives")
}

/// How long a solver may take over the prologue (easy-smt's `:print-success` and
/// `:produce-models`, the soft timeout, `set-logic`): an SMT-LIB solver answers in
/// milliseconds; a program that reads its input and never answers is killed past it.
pub(crate) const PROLOGUE_LIMIT: Duration = Duration::from_secs(10);

/// A solver whose prologue is past its limit but still uses CPU time (starting on a loaded
/// machine) may take this many times the limit more ([`Watchdog`]).
const START_GRACE: u32 = 10;

/// How often an expired [`Watchdog`] looks again for a pid its shim has not written yet.
const PID_POLL: Duration = Duration::from_millis(10);

/// Kills the process whose pid the start shim writes to a [`PidFile`] unless disarmed within
/// a limit: bounds the prologue, whose reads (easy-smt's, in `ContextBuilder::build`) have no
/// deadline of their own. The limit counts from [`Watchdog::arm`], not from the spawn: a start
/// queued on the starter thread behind another one (which can take the whole limit when that
/// solver does not answer) is killed as soon as its pid is known once the limit has passed,
/// instead of running unbounded (the `--jobs 2` hang of issue 46). Past the limit, a solver
/// that is runnable or whose CPU time still grows (starting on a loaded machine) gets up to
/// [`START_GRACE`] times the limit more, a second at a time: a start is not failed because
/// the machine is busy; a program waiting on its input is killed at the limit.
struct Watchdog {
    state: Arc<Mutex<Dog>>,
    /// Dropped by [`Watchdog::disarm`], which wakes the thread at once.
    wake: mpsc::Sender<()>,
}

#[derive(Clone, Copy, PartialEq)]
enum Dog {
    Armed,
    Disarmed,
    Fired,
}

impl Watchdog {
    fn arm(pid_file: PathBuf, limit: Duration) -> Watchdog {
        let state = Arc::new(Mutex::new(Dog::Armed));
        let shared = Arc::clone(&state);
        let (wake, woken) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            let mut wait = limit;
            // The solver's CPU time when last looked at, and how long the limit has been
            // extended: a solver still starting on a loaded machine (its CPU time grows) gets
            // more time, up to [`START_GRACE`] times the limit; one that waits on its input
            // (a program that is not a solver) uses none and is killed at the limit.
            let mut last_cpu: Option<Duration> = None;
            let mut extended = Duration::ZERO;
            loop {
                if woken.recv_timeout(wait) != Err(mpsc::RecvTimeoutError::Timeout) {
                    return;
                }
                let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
                if *s != Dog::Armed {
                    return;
                }
                if let Ok(pid) = read_pid(&pid_file) {
                    let cpu = cpu_time(pid);
                    let runnable = matches!(run_state(pid), Some('R' | 'D'));
                    let progressed = runnable || (last_cpu.is_some() && cpu > last_cpu);
                    if progressed && extended < limit * START_GRACE {
                        last_cpu = cpu;
                        wait = limit.min(Duration::from_secs(1));
                        extended += wait;
                        continue;
                    }
                    // The process is not reaped while armed: the `Proc` that owns it is
                    // dropped only after `disarm` (on success) or by an error path that ends
                    // the prologue, which a kill does not outrun but at the limit itself.
                    kill_tree(pid);
                    *s = Dog::Fired;
                    return;
                }
                // No pid yet: the start still waits for the starter thread, behind another
                // solver's start (`--jobs 2`, a portfolio). The limit has passed, so the
                // process is killed as soon as the shim writes its pid.
                wait = PID_POLL;
            }
        });
        Watchdog { state, wake }
    }

    /// Disarms the watchdog; whether it had fired.
    fn disarm(self) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let fired = *s == Dog::Fired;
        *s = Dog::Disarmed;
        drop(s);
        drop(self.wake);
        fired
    }
}

/// The processes descended from `pid` (Linux: from `/proc/*/stat`); empty elsewhere.
fn descendants(pid: u32) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    // (pid, parent) of every process; the parent is the field after the `(comm)`.
    let parents: Vec<(u32, u32)> = dir
        .filter_map(|e| {
            let e = e.ok()?;
            let p: u32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let ppid = stat[stat.rfind(')')? + 1..].split_whitespace().nth(1)?.parse().ok()?;
            Some((p, ppid))
        })
        .collect();
    let mut out = Vec::new();
    let mut frontier = vec![pid];
    while let Some(q) = frontier.pop() {
        for &(p, parent) in &parents {
            if parent == q && !out.contains(&p) {
                out.push(p);
                frontier.push(p);
            }
        }
    }
    out
}

/// The state of the process `pid` (field 3 of `/proc/PID/stat`: `R` running or runnable, `D`
/// in uninterruptible wait, `S` sleeping, …); `None` where it cannot be read.
fn run_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 1..].split_whitespace().next()?.chars().next()
}

/// The CPU time (user and system, all its threads) the process `pid` has used since it
/// started, from fields 14 and 15 of `/proc/PID/stat` (in clock ticks of `sysconf(_SC_CLK_TCK)`,
/// 10 ms on Linux); `None` when it cannot be read (not Linux, or the process is gone).
///
/// This is what a query's limit counts (issue 53 item 3): a solver's CPU time for one query
/// hardly depends on what else the machine runs, where its wall-clock time grows with the
/// load, so the same query runs into its limit, or answers, alike at any load.
#[cfg(target_os = "linux")]
pub(crate) fn cpu_time(pid: u32) -> Option<Duration> {
    stat_cpu_time(&format!("/proc/{pid}/stat"))
}

/// The CPU time the thread `tid` of gpug's own process has used (`/proc/self/task/TID/stat`,
/// as [`cpu_time`]); `None` for 0, a thread gone, or not Linux.
#[cfg(target_os = "linux")]
pub(crate) fn thread_cpu_time(tid: u32) -> Option<Duration> {
    (tid != 0).then_some(())?;
    stat_cpu_time(&format!("/proc/self/task/{tid}/stat"))
}

/// The id of the calling thread (the `TID` of `/proc/thread-self`), 0 when it cannot be read.
#[cfg(target_os = "linux")]
pub(crate) fn current_thread_id() -> u32 {
    std::fs::read_link("/proc/thread-self")
        .ok()
        .and_then(|p| p.file_name()?.to_str()?.parse().ok())
        .unwrap_or(0)
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn thread_cpu_time(_tid: u32) -> Option<Duration> {
    None
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn current_thread_id() -> u32 {
    0
}

/// Utime plus stime of the `stat` file at `path` ([`cpu_time`]).
#[cfg(target_os = "linux")]
fn stat_cpu_time(path: &str) -> Option<Duration> {
    unsafe extern "C" {
        fn sysconf(name: i32) -> i64;
    }
    const SC_CLK_TCK: i32 = 2;
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    // SAFETY: sysconf(3) has no memory-safety preconditions.
    let hz = *TICKS.get_or_init(|| u64::try_from(unsafe { sysconf(SC_CLK_TCK) }).unwrap_or(100).max(1));
    let stat = std::fs::read_to_string(path).ok()?;
    // Fields after the command name (in parentheses, which may hold spaces): the state is
    // field 3, so utime (14) and stime (15) are the 12th and 13th.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    let ticks = utime + stime;
    Some(Duration::from_secs(ticks / hz) + Duration::from_nanos((ticks % hz) * 1_000_000_000 / hz))
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn cpu_time(_pid: u32) -> Option<Duration> {
    None
}

/// Sends SIGKILL to `pid`. Only called while the `Child` that owns `pid` (the shim's, which
/// became the solver by `exec`) is alive and not yet waited for, so the pid cannot have been
/// reused.
#[cfg(unix)]
pub(crate) fn kill_pid(pid: u32) {
    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) has no memory-safety preconditions.
        unsafe {
            kill(pid, SIGKILL);
        }
    }
}

#[cfg(not(unix))]
pub(crate) fn kill_pid(_pid: u32) {}

/// Converts one of our terms into easy-smt's arena (`ctx.atom` / `ctx.list`).
pub(crate) fn to_sexpr(ctx: &Context, s: &Sexp) -> SExpr {
    match s {
        Sexp::Atom(a) => ctx.atom(a.as_str()),
        Sexp::List(items) => ctx.list(items.iter().map(|i| to_sexpr(ctx, i)).collect()),
    }
}

/// Converts an easy-smt term back; string literals become atoms with their quotes.
pub(crate) fn from_sexpr(ctx: &Context, e: SExpr) -> Sexp {
    match ctx.get(e) {
        SExprData::Atom(a) => Sexp::atom(a),
        SExprData::String(s) => Sexp::atom(format!("\"{}\"", s.replace('"', "\"\""))),
        SExprData::List(items) => Sexp::List(items.iter().map(|&i| from_sexpr(ctx, i)).collect()),
    }
}

/// A command as an easy-smt term, built without cloning the command's terms.
fn command_sexpr(ctx: &Context, c: &Command) -> SExpr {
    match c {
        Command::DeclareConst { name, sort } => ctx.list(vec![
            ctx.atom("declare-const"),
            ctx.atom(name.as_str()),
            to_sexpr(ctx, sort),
        ]),
        Command::DeclareFun { name, args, ret } => ctx.list(vec![
            ctx.atom("declare-fun"),
            ctx.atom(name.as_str()),
            ctx.list(args.iter().map(|a| to_sexpr(ctx, a)).collect()),
            to_sexpr(ctx, ret),
        ]),
        Command::DefineConst { name, sort, value } => ctx.list(vec![
            ctx.atom("define-fun"),
            ctx.atom(name.as_str()),
            ctx.list(vec![]),
            to_sexpr(ctx, sort),
            to_sexpr(ctx, value),
        ]),
        Command::Assert(t) => ctx.list(vec![ctx.atom("assert"), to_sexpr(ctx, t)]),
    }
}

/// `text`, cut to [`QUOTE_LIMIT`] characters (with `…`) if longer.
pub(crate) fn quote(text: String) -> String {
    if text.chars().count() <= QUOTE_LIMIT {
        text
    } else {
        let mut s: String = text.chars().take(QUOTE_LIMIT).collect();
        s.push('…');
        s
    }
}

/// The message of `(error "msg")`, if `e` is one.
fn error_message(ctx: &Context, e: SExpr) -> Option<String> {
    let items = ctx.get_list(e)?;
    if items.first().and_then(|&h| ctx.get_atom(h)) != Some("error") {
        return None;
    }
    Some(
        items[1..]
            .iter()
            .map(|&i| match ctx.get(i) {
                SExprData::String(s) => s.to_string(),
                _ => ctx.display(i).to_string(),
            })
            .collect::<Vec<_>>()
            .join(" "),
    )
}

impl Proc {
    /// Starts the solver with `:print-success` and `:produce-models` (easy-smt sends both),
    /// the solver's own soft timeout when it has a cheap one, and `(set-logic logic)` unless
    /// `logic` is empty, all within `limit` (at most [`PROLOGUE_LIMIT`]). Errors:
    /// [`SolverError::NotFound`]; [`SolverError::Unresponsive`] past the limit (the process and
    /// its descendants are killed); [`SolverError::NotASolver`] for a program that answers
    /// otherwise than `success`; [`SolverError::Solver`] when it refuses the logic.
    pub(crate) fn start(
        spec: &SolverSpec,
        logic: &str,
        soft_timeout_ms: Option<u64>,
        (eager, one_shot): (bool, bool),
        limit: Option<Duration>,
    ) -> Result<Proc, SolverError> {
        let limit = limit.map_or(PROLOGUE_LIMIT, |l| l.min(PROLOGUE_LIMIT));
        let program = find_program(&spec.program).ok_or_else(|| SolverError::NotFound {
            program: spec.program.clone(),
        })?;
        let start = |source| SolverError::Start {
            program: spec.program.clone(),
            source,
        };
        let pid_file = PidFile::create().map_err(start)?;
        let dog = Watchdog::arm(pid_file.path.to_path_buf(), limit);
        let r = Self::prologue(spec, program, logic, soft_timeout_ms, (eager, one_shot), &pid_file);
        if dog.disarm() {
            return Err(SolverError::Unresponsive {
                program: spec.program.clone(),
                limit_s: limit.as_secs_f64(),
            });
        }
        // easy-smt's handshake: an answer other than `success` (a program that exits at once
        // stays a failed start, with its standard error).
        const HANDSHAKE: &str = "Unexpected result from solver: ";
        r.map_err(|e| match e {
            SolverError::Start { program, source } if source.to_string().starts_with(HANDSHAKE) => {
                SolverError::NotASolver {
                    program,
                    detail: format!(
                        "to (set-option :print-success true) it answered {}",
                        &source.to_string()[HANDSHAKE.len()..]
                    ),
                }
            }
            SolverError::Unexpected { response, .. } => SolverError::NotASolver {
                program: spec.program.clone(),
                detail: format!("it answered {response}"),
            },
            e => e,
        })
    }

    /// [`Proc::start`]'s exchange, bounded by its watchdog.
    fn prologue(
        spec: &SolverSpec,
        program: PathBuf,
        logic: &str,
        soft_timeout_ms: Option<u64>,
        (eager, one_shot): (bool, bool),
        pid_file: &PidFile,
    ) -> Result<Proc, SolverError> {
        let one_shot = one_shot && yices(spec);
        let args: Vec<String> = match one_shot {
            true => spec.args.iter().filter(|a| *a != "--incremental").cloned().collect(),
            false => spec.args.clone(),
        };
        let path = pid_file.path.to_path_buf();
        let (ctx, pid, stderr) =
            on_starter_thread(move || spawn(program, &args, &path)).map_err(|source| SolverError::Start {
                program: spec.program.clone(),
                source,
            })?;
        LIVE.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
        let mut p = Proc {
            ctx,
            pid,
            stderr,
            tactic: check_tactic(spec, logic).filter(|_| eager),
            check_models: !eager,
            one_shot,
        };
        if let (Some(ms), Some(option)) = (soft_timeout_ms, soft_timeout_option(spec)) {
            // Tolerated if refused: the watchdog is what enforces the limit.
            let cmd = p.ctx.list(vec![
                p.ctx.atom("set-option"),
                p.ctx.atom(option),
                p.ctx.atom(ms.to_string()),
            ]);
            p.send(cmd)?;
            match p.recv(cmd) {
                Ok(_) | Err(SolverError::Solver { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        if !logic.is_empty() {
            let cmd = p.ctx.list(vec![p.ctx.atom("set-logic"), p.ctx.atom(logic)]);
            p.ack(cmd)?;
        }
        Ok(p)
    }

    /// The last non-empty line the solver wrote on its standard error so far, if any.
    pub(crate) fn last_stderr_line(&self) -> Option<String> {
        last_line(&self.stderr)
    }

    fn send(&mut self, cmd: SExpr) -> Result<(), SolverError> {
        self.ctx.raw_send(cmd).map_err(|source| SolverError::Io {
            context: format!("sending {}", quote(self.ctx.display(cmd).to_string())),
            source,
        })
    }

    /// Reads one response to `cmd`; a solver `(error …)` becomes [`SolverError::Solver`].
    fn recv(&mut self, cmd: SExpr) -> Result<SExpr, SolverError> {
        // easy-smt reports both end of output and unparsable output (e.g. cvc5's multi-line
        // error messages, after which cvc5 exits) as an I/O error.
        let resp = self.ctx.raw_recv().map_err(|_| SolverError::Exited {
            command: quote(self.ctx.display(cmd).to_string()),
        })?;
        if let Some(message) = error_message(&self.ctx, resp) {
            return Err(SolverError::Solver {
                command: quote(self.ctx.display(cmd).to_string()),
                message,
            });
        }
        Ok(resp)
    }

    /// Sends `cmd` and expects `success`.
    fn ack(&mut self, cmd: SExpr) -> Result<(), SolverError> {
        self.send(cmd)?;
        self.expect_success(cmd)
    }

    fn expect_success(&mut self, cmd: SExpr) -> Result<(), SolverError> {
        let resp = self.recv(cmd)?;
        if self.ctx.get_atom(resp) == Some("success") {
            Ok(())
        } else {
            Err(self.unexpected(cmd, resp))
        }
    }

    fn unexpected(&self, cmd: SExpr, resp: SExpr) -> SolverError {
        SolverError::Unexpected {
            command: quote(self.ctx.display(cmd).to_string()),
            response: quote(self.ctx.display(resp).to_string()),
        }
    }

    /// Sends the script's commands, streaming: writes a batch, then reads its
    /// acknowledgements.
    pub(crate) fn send_commands(&mut self, commands: &[Command]) -> Result<(), SolverError> {
        for chunk in commands.chunks(BATCH) {
            let mut sent = Vec::with_capacity(chunk.len());
            for c in chunk {
                let e = command_sexpr(&self.ctx, c);
                if let Err(err) = self.send(e) {
                    // The solver may have exited on an earlier command of this batch: its
                    // error message, if any, is the better report.
                    for &s in &sent {
                        self.expect_success(s)?;
                    }
                    return Err(err);
                }
                sent.push(e);
            }
            for &s in &sent {
                self.expect_success(s)?;
            }
        }
        Ok(())
    }

    /// `(push 1)`, the assertions, `(check-sat)`, `(get-value …)` when sat,
    /// `(get-info :reason-unknown)` when unknown, `(pop 1)`.
    pub(crate) fn run_query(&mut self, q: &Query) -> Result<Answer, SolverError> {
        self.run_query_noting(q, &AtomicBool::new(false))
    }

    /// [`Proc::run_query`], setting `answered_sat` once the solver has answered `sat` (what
    /// follows is its model): a limit that passes then is the model's, not the search's.
    pub(crate) fn run_query_noting(&mut self, q: &Query, answered_sat: &AtomicBool) -> Result<Answer, SolverError> {
        let ctx = &self.ctx;
        let push = ctx.list(vec![ctx.atom("push"), ctx.atom("1")]);
        let pop = ctx.list(vec![ctx.atom("pop"), ctx.atom("1")]);
        let check = match self.tactic {
            Some(t) => ctx.list(vec![ctx.atom("check-sat-using"), ctx.atom(t)]),
            None => ctx.list(vec![ctx.atom("check-sat")]),
        };
        let asserts: Vec<SExpr> = q
            .assertions
            .iter()
            .map(|a| ctx.list(vec![ctx.atom("assert"), to_sexpr(ctx, a)]))
            .collect();
        if !self.one_shot {
            self.ack(push)?;
        }
        for &a in &asserts {
            self.ack(a)?;
        }
        self.send(check)?;
        let resp = self.recv(check)?;
        let answer = match self.ctx.get_atom(resp) {
            Some("sat") => {
                answered_sat.store(true, Ordering::Release);
                let values = self.get_values(&q.get_values)?;
                match self.model_refuted(&q.get_values, q.unpinned, &values)? {
                    Some(detail) => Answer::InvalidModel(detail),
                    None => Answer::Sat(values),
                }
            }
            Some("unsat") => Answer::Unsat,
            Some("unknown") => Answer::Unknown(self.reason_unknown()?),
            _ => return Err(self.unexpected(check, resp)),
        };
        if !self.one_shot {
            self.ack(pop)?;
        }
        Ok(answer)
    }

    /// Checks a `sat` answer before it becomes a defect: asserts `(= term value)` for each value
    /// the model gave but the last `unpinned` ([`Query::unpinned`]) (inside the query's `push`, so the `pop` removes them) and asks again.
    /// The query with its witness fixed must stay satisfiable; `Some(why)` when the solver now
    /// answers `unsat` (its model does not satisfy the query), `None` when it answers `sat`,
    /// or `unknown` (not refuted). Costs one more `check-sat` per `sat` answer, on a query whose
    /// witness is fixed.
    fn model_refuted(
        &mut self,
        terms: &[Sexp],
        unpinned: usize,
        values: &[Sexp],
    ) -> Result<Option<String>, SolverError> {
        if terms.len() <= unpinned || !self.check_models {
            return Ok(None);
        }
        let ctx = &self.ctx;
        let check = ctx.list(vec![ctx.atom("check-sat")]);
        let pinned = terms.len().saturating_sub(unpinned);
        let fixed: Vec<SExpr> = terms[..pinned]
            .iter()
            .zip(values)
            .map(|(t, v)| {
                let eq = ctx.list(vec![ctx.atom("="), to_sexpr(ctx, t), to_sexpr(ctx, v)]);
                ctx.list(vec![ctx.atom("assert"), eq])
            })
            .collect();
        for &f in &fixed {
            self.ack(f)?;
        }
        self.send(check)?;
        let resp = self.recv(check)?;
        Ok(match self.ctx.get_atom(resp) {
            Some("unsat") => Some(format!(
                "with the {} values of its model asserted, the query is unsat",
                pinned
            )),
            Some("sat" | "unknown") => None,
            _ => return Err(self.unexpected(check, resp)),
        })
    }

    fn get_values(&mut self, terms: &[Sexp]) -> Result<Vec<Sexp>, SolverError> {
        if terms.is_empty() {
            return Ok(vec![]);
        }
        let ctx = &self.ctx;
        let cmd = ctx.list(vec![
            ctx.atom("get-value"),
            ctx.list(terms.iter().map(|t| to_sexpr(ctx, t)).collect()),
        ]);
        self.send(cmd)?;
        let resp = self.recv(cmd)?;
        // `((term value) …)` in the order asked; the solver may print the term rewritten
        // (cvc5 does), so values are matched by position.
        let pairs = match self.ctx.get_list(resp) {
            Some(p) if p.len() == terms.len() => p.to_vec(),
            _ => return Err(self.unexpected(cmd, resp)),
        };
        let mut values = Vec::with_capacity(pairs.len());
        for p in pairs {
            match self.ctx.get_list(p) {
                Some([_, v]) => values.push(from_sexpr(&self.ctx, *v)),
                _ => return Err(self.unexpected(cmd, resp)),
            }
        }
        Ok(values)
    }

    /// The solver's `:reason-unknown`, or `""` when it has none or refuses the command.
    fn reason_unknown(&mut self) -> Result<String, SolverError> {
        let ctx = &self.ctx;
        let cmd = ctx.list(vec![ctx.atom("get-info"), ctx.atom(":reason-unknown")]);
        self.send(cmd)?;
        let resp = match self.recv(cmd) {
            Ok(r) => r,
            Err(SolverError::Solver { .. }) => return Ok(String::new()),
            Err(e) => return Err(e),
        };
        // `(:reason-unknown incomplete)` or `(:reason-unknown "timeout")`; `unsupported`
        // otherwise.
        Ok(match self.ctx.get_list(resp) {
            Some([k, v]) if self.ctx.get_atom(*k) == Some(":reason-unknown") => match self.ctx.get(*v) {
                SExprData::String(s) | SExprData::Atom(s) => s.to_string(),
                SExprData::List(_) => self.ctx.display(*v).to_string(),
            },
            _ => String::new(),
        })
    }
}

/// The `set-option` keyword of the solver's own per-check timeout in milliseconds, for the
/// solvers where it is known to work interactively (z3 `:timeout`, cvc5 `:tlimit-per`).
fn soft_timeout_option(spec: &SolverSpec) -> Option<&'static str> {
    let base = std::path::Path::new(&spec.program).file_name()?.to_str()?.to_string();
    if base.starts_with("z3") {
        Some(":timeout")
    } else if base.starts_with("cvc5") {
        Some(":tlimit-per")
    } else {
        None
    }
}

/// For z3 on a bit-vector logic without floats, the logic's own tactic (`qfaufbv`), which
/// `(check-sat-using …)` runs on the current assertions (used for sessions with
/// [`SessionOptions::eager`](super::SessionOptions)). After a `(push)` z3's `(check-sat)`
/// switches to its incremental core, which does not bit-blast eagerly: on queries with
/// uninterpreted products (the relaxation of `encode::nonlinear`) that solver took 12 s where
/// the tactic takes 0.04 s; on exact queries with wide multipliers the core can be the faster
/// one, so exact sessions keep it. `None` for other solvers and logics.
fn check_tactic(spec: &SolverSpec, logic: &str) -> Option<&'static str> {
    let base = std::path::Path::new(&spec.program).file_name()?.to_str()?;
    let bv = matches!(logic, "QF_AUFBV" | "QF_ABV" | "QF_UFBV" | "QF_BV");
    (base.starts_with("z3") && bv).then_some("qfaufbv")
}

/// Whether `spec` is yices, whose one-shot mode a `one_shot` session uses
/// ([`SessionOptions::one_shot`](super::SessionOptions)): its `--incremental` mode (which
/// `(push)` needs) leaves out the preprocessing of the one-shot mode. On the relaxation of a
/// race query of llm.c's `crossentropy_softmax_backward` (three divisions by literals and
/// their lemmas) yices answered `unsat` in 1.4 s one-shot and did not answer in 60 s
/// incrementally. The script is sent anew to each query's process, which costs: on every
/// relaxation, llm.c's `matmul_backward_bias.cu` took 3.5 times as long, so only relaxations
/// with division chains ask so.
fn yices(spec: &SolverSpec) -> bool {
    let base = std::path::Path::new(&spec.program)
        .file_name()
        .and_then(|b| b.to_str())
        .unwrap_or_default();
    base.starts_with("yices")
}

/// Whether `spec`'s solver gets a soft timeout (see [`Proc::start`]).
pub(crate) fn has_soft_timeout(spec: &SolverSpec) -> bool {
    soft_timeout_option(spec).is_some()
}

/// Runs `input` (a whole script ending in `(exit)`) through a fresh, non-interactive process of
/// `spec` for at most `limit` and returns the text of the first `(error "…")` it prints.
/// Used to recover the message of a solver that exited on an error.
pub(crate) fn diagnose(spec: &SolverSpec, input: String, limit: Duration) -> Option<String> {
    let (out, _) = run_bounded(std::path::Path::new(&spec.program), &spec.args, input, limit).ok()?;
    error_text(&out?)
}

/// Runs `program` with `args` once, `input` on its standard input, for at most `limit`;
/// returns its standard output and standard error, each `None` if the process had not closed
/// it by then (it is then killed, with its descendants). The process gets
/// `PR_SET_PDEATHSIG` (Linux), so it dies with gpug. Errors: the process cannot be started.
pub(crate) fn run_bounded(
    program: &std::path::Path,
    args: &[String],
    input: String,
    limit: Duration,
) -> io::Result<(Option<String>, Option<String>)> {
    use std::io::{Read, Write};
    use std::process::{Command as Cmd, Stdio};
    let mut cmd = Cmd::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    die_with_parent(&mut cmd);
    limit_data(&mut cmd);
    let mut child = on_starter_thread(move || cmd.spawn())?;
    let mut stdin = child.stdin.take();
    let outputs = [
        child.stdout.take().map(|s| Box::new(s) as Box<dyn Read + Send>),
        child.stderr.take().map(|s| Box::new(s) as Box<dyn Read + Send>),
    ];
    std::thread::spawn(move || {
        if let Some(stdin) = stdin.as_mut() {
            let _ = stdin.write_all(input.as_bytes());
        }
    });
    let receivers: Vec<_> = outputs
        .into_iter()
        .map(|stream| {
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                if let Some(mut s) = stream {
                    let _ = s.read_to_end(&mut bytes);
                }
                let _ = tx.send(String::from_utf8_lossy(&bytes).into_owned());
            });
            rx
        })
        .collect();
    let deadline = std::time::Instant::now() + limit;
    let mut texts = receivers.iter().map(|rx| {
        rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
            .ok()
    });
    let (out, err) = (texts.next().flatten(), texts.next().flatten());
    kill_tree(child.id());
    let _ = child.wait();
    Ok((out, err))
}

/// Makes the process `cmd` starts receive SIGKILL when the thread that starts it dies
/// (`prctl(PR_SET_PDEATHSIG)`, Linux); elsewhere nothing.
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    unsafe extern "C" {
        fn prctl(option: i32, ...) -> i32;
    }
    const PR_SET_PDEATHSIG: i32 = 1;
    const SIGKILL: u64 = 9;
    // SAFETY: prctl(2) is async-signal-safe and touches no memory of ours.
    unsafe {
        cmd.pre_exec(|| {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut std::process::Command) {}

/// Limits the data segment of the process `cmd` starts to [`crate::memory::solver_limit`]
/// (`setrlimit(RLIMIT_DATA)`, Linux), as [`SHIM`] does for solver sessions; elsewhere, or
/// without a limit, nothing.
#[cfg(target_os = "linux")]
fn limit_data(cmd: &mut std::process::Command) {
    use crate::memory::rlimit::{RLIMIT_DATA, Rlimit, getrlimit, setrlimit};
    use std::ffi::c_ulong;
    use std::os::unix::process::CommandExt;
    let Some(bytes) = crate::memory::solver_limit() else {
        return;
    };
    let bytes = c_ulong::try_from(bytes).unwrap_or(c_ulong::MAX);
    // SAFETY: getrlimit(2) and setrlimit(2) are async-signal-safe and write only `r`, a local.
    unsafe {
        cmd.pre_exec(move || {
            let mut r = Rlimit { cur: 0, max: 0 };
            if getrlimit(RLIMIT_DATA, &mut r) == 0 {
                r.cur = bytes.min(r.max);
                setrlimit(RLIMIT_DATA, &r);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn limit_data(_cmd: &mut std::process::Command) {}

/// The string of the first `(error "…")` in a solver's output (`""` inside is a quote).
pub(crate) fn error_text(out: &str) -> Option<String> {
    let start = out.find("(error \"")? + "(error \"".len();
    let mut msg = String::new();
    let mut chars = out[start..].chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            if chars.peek() == Some(&'"') {
                chars.next();
            } else {
                return Some(msg.trim().to_string());
            }
        }
        msg.push(c);
    }
    Some(msg.trim().to_string())
}
