//! A query's limit in CPU time (issue 53 item 3): how long [`super::Session::check`] waits
//! for its worker thread, counted in the solver process's CPU time so that a query answers or
//! runs out alike at any load, and when a query that makes no progress stops.

use super::process;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How many times a query's limit (solver CPU time, [`super::SessionOptions::timeout`]) z3 and cvc5
/// get as their own soft timeout, which counts wall-clock time ([`super::Session::check`]): far
/// enough that the CPU-time limit ([`wait_cpu`]) comes first but on a swamped machine.
const WALL_BACKSTOP: u32 = 10;

/// The solvers' own soft timeout for a query limited to `limit` of CPU time ([`WALL_BACKSTOP`]).
pub(super) fn backstop(limit: Duration) -> Duration {
    limit.saturating_mul(WALL_BACKSTOP)
}

/// The least time without any progress (no CPU time used by the solver process or by gpug's
/// thread that talks to it) after which a query stops although its limit is not used: a
/// solver that waits for input after a malformed answer, a stopped process.
const MIN_STALL: Duration = Duration::from_secs(1);

/// [`wait_cpu`]'s rule: `None` when a query whose solver has used `used` of CPU time, and whose
/// solver and gpug's thread have made no progress (used no CPU time) for `stalled`, is out of
/// its `limit`: it used the limit, or has stalled for the limit (at least [`MIN_STALL`]); else
/// how long to wait before asking again, the earliest either can happen (one solver thread
/// uses CPU time at most as fast as time passes), at least 10 ms.
pub(super) fn cpu_limit_wait(used: Duration, stalled: Duration, limit: Duration) -> Option<Duration> {
    let window = limit.max(MIN_STALL);
    if used >= limit || stalled >= window {
        return None;
    }
    Some((limit - used).min(window - stalled).max(Duration::from_millis(10)))
}

/// Waits for the worker's message on `rx` until the solver process `pid` has used `limit` of
/// CPU time since the call ([`process::cpu_time`]), or until neither it nor the worker thread
/// (`worker`: its thread id once it has started, 0 before; [`process::thread_cpu_time`]) has
/// used any CPU time for as long as the limit (at least [`MIN_STALL`]): they wait on each
/// other, or on nothing; then `Err(Timeout)`. Where the CPU time cannot be read (not Linux),
/// the wall-clock time counts against `limit` instead.
///
/// The limit is CPU time, not wall-clock time, so that a query answers or runs out alike on an
/// idle machine and on one whose cores are all busy (issue 53 item 3: the same report at any
/// load). A starved solver and a worker slow to send the script or to read a model still make
/// progress, so only a query that makes none for a whole limit stops early.
pub(super) fn wait_cpu<T>(
    rx: &mpsc::Receiver<T>,
    pid: u32,
    worker: &AtomicU32,
    limit: Duration,
) -> Result<T, mpsc::RecvTimeoutError> {
    let started = Instant::now();
    let cpu_at_start = process::cpu_time(pid);
    let worker_cpu = || process::thread_cpu_time(worker.load(Ordering::Acquire)).unwrap_or_default();
    let (mut progress, mut since) = (Duration::ZERO, Instant::now());
    loop {
        let used = match (cpu_at_start, process::cpu_time(pid)) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => started.elapsed(),
        };
        let now = used + worker_cpu();
        if now > progress {
            (progress, since) = (now, Instant::now());
        }
        let Some(wait) = cpu_limit_wait(used, since.elapsed(), limit) else {
            return Err(mpsc::RecvTimeoutError::Timeout);
        };
        match rx.recv_timeout(wait) {
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            r => return r,
        }
    }
}
