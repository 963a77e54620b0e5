//! The memory bound (`--max-memory`): gpug's own resident memory, sampled as the run goes, and
//! the limit each solver process is started under.
//!
//! A monitor thread ([`start`]) reads the process's resident set (`VmRSS` of
//! `/proc/self/status`, Linux) every [`PERIOD`] and raises a flag while it is above the limit.
//! The stages whose memory grows with the kernel (lowering, unrolling, the encoder's walk over
//! the statements and its race pairs) poll the flag ([`over`], one relaxed atomic load) in
//! their loops, stop, and return an [`Exceeded`] naming what they were doing; the driver makes
//! that kernel inconclusive with it as the reason, lets the memory go ([`settle`]) and goes on
//! with the next kernel. Rust code cannot be interrupted from another thread, so a stage that
//! does not poll (clang's AST being read, a script being handed to a solver) is bounded by the
//! last resort: resident memory above [`RUNAWAY`] times the limit for [`GRACE`] calls the
//! caller's `runaway` function, which ends the process (the command line prints the reason,
//! kills the solvers and exits with code 3).
//!
//! Solver processes are started with their data segment limited to the same size
//! ([`solver_limit`], `RLIMIT_DATA`): a solver that needs more fails its query (inconclusive)
//! instead of taking the machine's memory.
//!
//! The process's own resource limits bound it too (issue 56, item 4): under `ulimit -v`
//! (`RLIMIT_AS`) or `ulimit -d` (`RLIMIT_DATA`) an allocation past the limit fails, and Rust
//! aborts the process on a failed allocation (SIGABRT, no report). So the monitor also samples
//! the address space (`VmSize`) and the data segment (`VmData`) and raises the same flag when
//! one passes [`RLIMIT_SHARE`] of its limit, with or without `--max-memory`: the kernel then
//! ends inconclusive, naming the limit, while the allocator still has room.
//!
//! Owns: the limit, the monitor, the flag, [`Exceeded`] and [`Activity`] (what a stage was
//! doing). Must not: print, exit, or know about kernels beyond the words of an [`Activity`].

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The default bound when physical memory is not known: also the most it ever is.
pub const DEFAULT_CAP: u64 = 8 << 30;
/// The smallest bound `--max-memory` takes: below it z3 cannot even start (16 MiB is too
/// little for it to read its first command).
pub const MIN_LIMIT: u64 = 64 << 20;
/// How often the monitor samples the resident set.
pub const PERIOD: Duration = Duration::from_millis(50);
/// The share of `RLIMIT_AS` (`RLIMIT_DATA`) that the address space (data segment) may take
/// before the flag is raised: the stages that poll stop within one [`PERIOD`] or one loop
/// iteration, and what they allocate meanwhile must still fit below the hard limit.
pub const RLIMIT_SHARE: f64 = 0.75;
/// The last resort acts past this multiple of the limit ...
pub const RUNAWAY: f64 = 1.25;
/// ... held this long (stages that poll have stopped well before).
pub const GRACE: Duration = Duration::from_secs(2);

/// The limit in bytes; 0 while no monitor runs (no limit).
static LIMIT: AtomicU64 = AtomicU64::new(0);
/// Resident memory above the limit at the last sample.
static OVER: AtomicBool = AtomicBool::new(false);
/// The last sample, in bytes.
static RESIDENT: AtomicU64 = AtomicU64::new(0);
/// The monitor, started once.
static MONITOR: OnceLock<()> = OnceLock::new();
/// `RLIMIT_AS` and `RLIMIT_DATA` of this process at [`start`], in bytes; 0: unlimited.
static RLIMITS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
/// The [`Bound`] passed at the last sample (its index), when [`OVER`].
static PASSED: AtomicU64 = AtomicU64::new(0);
/// The measure of the bound passed at the last sample, in bytes.
static MEASURE: AtomicU64 = AtomicU64::new(0);

/// Which bound a stage stopped at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// `--max-memory` (or its default), measured on the resident set.
    Resident,
    /// The process's `RLIMIT_AS` (`ulimit -v`), measured on its address space (`VmSize`).
    AddressSpace,
    /// The process's `RLIMIT_DATA` (`ulimit -d`), measured on its data segment (`VmData`).
    DataSegment,
}

impl Bound {
    const ALL: [Bound; 3] = [Bound::Resident, Bound::AddressSpace, Bound::DataSegment];
}

/// What a stage was doing when it stopped at the bound: the reason's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Lowering clang's AST into the IR (device functions inlined).
    Lowering,
    /// Unrolling and abstracting the loops (`passes`).
    Unrolling,
    /// Encoding the kernel's statements as SMT terms.
    Encoding,
    /// Reading the kernel's formula for the lemmas of the race checks (a copy of its
    /// definitions).
    Lemmas,
    /// Building the race check of one array: `pairs` conflicting access pairs so far.
    RaceCheck {
        /// The array, as the source names it.
        array: String,
        /// Pairs enumerated when it stopped.
        pairs: u64,
    },
    /// About to ask a solver (the kernel's formula and queries built).
    Querying,
    /// Unknown: memory stayed above [`RUNAWAY`] times the limit for [`GRACE`] (the last
    /// resort, which ends the run).
    Runaway,
}

impl fmt::Display for Activity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Activity::Lowering => write!(f, "lowering the kernel (device functions inlined)"),
            Activity::Unrolling => write!(f, "unrolling its loops"),
            Activity::Encoding => write!(f, "encoding its statements"),
            Activity::Lemmas => write!(f, "reading its formula for the race checks' lemmas"),
            Activity::RaceCheck { array, pairs } => write!(
                f,
                "encoding the race check of `{array}` ({pairs} conflicting access pairs so far: a query has one term per pair of accesses of one barrier interval, so unrolled straight-line code grows it quadratically)"
            ),
            Activity::Querying => write!(f, "asking the solver"),
            Activity::Runaway => write!(
                f,
                "in a stage that does not stop at the limit (above {RUNAWAY} times it for {} s): the run was stopped",
                GRACE.as_secs()
            ),
        }
    }
}

/// A stage stopped because gpug's resident memory passed `--max-memory`, or its address space
/// or data segment neared the process's resource limit ([`Bound`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct Exceeded {
    /// The limit, in bytes (of `--max-memory`, or the resource limit itself).
    pub limit: u64,
    /// What was measured against it at the last sample, in bytes: the resident set, the
    /// address space or the data segment.
    pub resident: u64,
    /// What the stage was doing.
    pub during: Activity,
    /// The bound it passed.
    pub bound: Bound,
}

impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (limit, measured, during) = (human(self.limit), human(self.resident), &self.during);
        match self.bound {
            Bound::Resident => write!(
                f,
                "memory limit of {limit} exceeded ({measured} resident) while {during}; raise it with --max-memory"
            ),
            Bound::AddressSpace => write!(
                f,
                "address-space limit of {limit} (ulimit -v) nearly reached ({measured} mapped) while {during}; raise it with ulimit -v"
            ),
            Bound::DataSegment => write!(
                f,
                "data-segment limit of {limit} (ulimit -d) nearly reached ({measured} of data) while {during}; raise it with ulimit -d"
            ),
        }
    }
}

/// Whether resident memory was above the limit at the last sample (always `false` without a
/// monitor). Cheap: poll it in loops whose memory grows.
#[inline]
pub fn over() -> bool {
    OVER.load(Ordering::Relaxed)
}

/// `Err` when resident memory is above the limit ([`over`]), saying it was `during`.
pub fn check(during: impl FnOnce() -> Activity) -> Result<(), Exceeded> {
    match over() {
        true => Err(exceeded(during())),
        false => Ok(()),
    }
}

/// The [`Exceeded`] of a stage that saw [`over`] while doing `during`.
pub fn exceeded(during: Activity) -> Exceeded {
    let bound = Bound::ALL[PASSED.load(Ordering::Relaxed) as usize % Bound::ALL.len()];
    let (limit, resident) = match bound {
        Bound::Resident => (LIMIT.load(Ordering::Relaxed), RESIDENT.load(Ordering::Relaxed)),
        Bound::AddressSpace | Bound::DataSegment => (
            RLIMITS[bound as usize - 1].load(Ordering::Relaxed),
            MEASURE.load(Ordering::Relaxed),
        ),
    };
    Exceeded {
        limit,
        resident,
        during,
        bound,
    }
}

/// The limit in bytes, `None` when there is none (no monitor started, or `--max-memory none`).
pub fn limit() -> Option<u64> {
    Some(LIMIT.load(Ordering::Relaxed)).filter(|&l| l > 0)
}

/// The data-segment limit for solver processes: the same as gpug's.
pub fn solver_limit() -> Option<u64> {
    limit()
}

/// Starts the monitor with `limit` bytes of resident memory (`None`: no such limit), which
/// also watches the process's `RLIMIT_AS` and `RLIMIT_DATA` when they are finite; nothing is
/// started when there is neither. Once per process; a later call changes nothing. `runaway`
/// is called on the monitor's thread when resident memory stays above [`RUNAWAY`] times the
/// limit for [`GRACE`]; it should end the process (the monitor stops sampling after calling
/// it).
///
/// Where the resident set cannot be read (not Linux), nothing is started: the limit then
/// applies only to solver processes.
pub fn start(limit: Option<u64>, runaway: impl Fn(Exceeded) + Send + 'static) {
    let limit = limit.filter(|&l| l > 0).unwrap_or(0);
    let (address_space, data) = own_rlimits();
    if limit == 0 && address_space.is_none() && data.is_none() {
        return;
    }
    if resident().is_none() {
        LIMIT.store(limit, Ordering::Relaxed);
        return;
    }
    MONITOR.get_or_init(|| {
        LIMIT.store(limit, Ordering::Relaxed);
        RLIMITS[0].store(address_space.unwrap_or(0), Ordering::Relaxed);
        RLIMITS[1].store(data.unwrap_or(0), Ordering::Relaxed);
        // Without a thread there is no sampling; the solvers are still limited.
        let _ = std::thread::Builder::new()
            .name("gpug-memory".into())
            .spawn(move || monitor(limit, runaway));
    });
}

fn monitor(limit: u64, runaway: impl Fn(Exceeded)) {
    let mut above_since: Option<Instant> = None;
    loop {
        sample(limit);
        let rss = RESIDENT.load(Ordering::Relaxed);
        if limit > 0 && rss as f64 > RUNAWAY * limit as f64 {
            let since = *above_since.get_or_insert_with(Instant::now);
            if since.elapsed() >= GRACE {
                runaway(exceeded(Activity::Runaway));
                return;
            }
        } else {
            above_since = None;
        }
        std::thread::sleep(PERIOD);
    }
}

/// Takes a sample: the resident set and whether it is above `limit` (0: none), or the address
/// space or data segment above [`RLIMIT_SHARE`] of their resource limits.
fn sample(limit: u64) {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return;
    };
    let Some(rss) = kib_field(&status, "VmRSS:") else {
        return;
    };
    RESIDENT.store(rss, Ordering::Relaxed);
    let near = |bound: Bound, field: &str| {
        let rlimit = RLIMITS[bound as usize - 1].load(Ordering::Relaxed);
        let measured = kib_field(&status, field).unwrap_or(0);
        (rlimit > 0 && measured as f64 > RLIMIT_SHARE * rlimit as f64).then_some((bound, measured))
    };
    let passed = if limit > 0 && rss > limit {
        Some((Bound::Resident, rss))
    } else {
        near(Bound::AddressSpace, "VmSize:").or_else(|| near(Bound::DataSegment, "VmData:"))
    };
    if let Some((bound, measured)) = passed {
        PASSED.store(bound as u64, Ordering::Relaxed);
        MEASURE.store(measured, Ordering::Relaxed);
    }
    OVER.store(passed.is_some(), Ordering::Relaxed);
}

/// `getrlimit(2)`/`setrlimit(2)` and the resources gpug reads or sets (Linux): the monitor's
/// own limits ([`own_rlimits`]) and the solver processes' data segment
/// (`solver/process.rs`).
#[cfg(target_os = "linux")]
pub(crate) mod rlimit {
    use std::ffi::c_ulong;

    /// `struct rlimit`: the soft and hard limits.
    #[repr(C)]
    pub struct Rlimit {
        pub cur: c_ulong,
        pub max: c_ulong,
    }

    unsafe extern "C" {
        pub fn getrlimit(resource: i32, rlim: *mut Rlimit) -> i32;
        pub fn setrlimit(resource: i32, rlim: *const Rlimit) -> i32;
    }

    /// The data segment.
    pub const RLIMIT_DATA: i32 = 2;
    /// The address space.
    pub const RLIMIT_AS: i32 = 9;
}

/// This process's soft `RLIMIT_AS` and `RLIMIT_DATA` in bytes, `None` for each that is
/// unlimited or cannot be read.
#[cfg(target_os = "linux")]
fn own_rlimits() -> (Option<u64>, Option<u64>) {
    use rlimit::{RLIMIT_AS, RLIMIT_DATA, Rlimit, getrlimit};
    use std::ffi::c_ulong;
    let read = |resource: i32| {
        let mut r = Rlimit { cur: 0, max: 0 };
        // SAFETY: getrlimit(2) writes only `r`, a local.
        let ok = unsafe { getrlimit(resource, &mut r) } == 0;
        // RLIM_INFINITY is all ones. `c_ulong` is `u64` here but not on every Linux target.
        #[allow(clippy::useless_conversion)]
        (ok && r.cur != c_ulong::MAX).then(|| u64::from(r.cur))
    };
    (read(RLIMIT_AS), read(RLIMIT_DATA))
}

#[cfg(not(target_os = "linux"))]
fn own_rlimits() -> (Option<u64>, Option<u64>) {
    (None, None)
}

/// After a kernel stopped at the bound and its data was dropped: returns freed memory to the
/// system where the allocator keeps it (glibc's `malloc_trim`), and samples again at once, so
/// that the next kernel starts from what is resident now.
pub fn settle() {
    trim();
    if MONITOR.get().is_some() {
        sample(LIMIT.load(Ordering::Relaxed));
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    unsafe extern "C" {
        fn malloc_trim(pad: usize) -> i32;
    }
    // SAFETY: malloc_trim(3) only returns free heap pages to the system.
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}

/// This process's resident set in bytes (`VmRSS` of `/proc/self/status`), `None` where it
/// cannot be read.
pub fn resident() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    kib_field(&status, "VmRSS:")
}

/// The value of a `NAME:   1234 kB` line of a `/proc` file, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// The default bound: half of the memory this process may use (physical memory, or the
/// cgroup's `memory.max` when lower), at most [`DEFAULT_CAP`]. Half, because a solver process
/// runs beside gpug with the same limit; at most 8 GiB, because a kernel whose encoding needs
/// more has queries that no solver answers within a minute.
pub fn default_limit() -> u64 {
    let physical = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| kib_field(&m, "MemTotal:"));
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    match physical.into_iter().chain(cgroup).min() {
        Some(m) => (m / 2).min(DEFAULT_CAP),
        None => DEFAULT_CAP,
    }
}

/// Reads a size: a number of bytes with an optional unit `K`, `M`, `G`, `T` (powers of 1024;
/// `KB`, `KiB`, … also), case-insensitive, fractions allowed (`1.5G`); `0` or `none`: no
/// limit (`None`).
pub fn parse_size(text: &str) -> Result<Option<u64>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    let lower = t.to_ascii_lowercase();
    let number_end = lower
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(lower.len());
    let (number, unit) = lower.split_at(number_end);
    let shift = match unit.trim() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(format!("`{text}` is not a size (e.g. 8G, 512M, or none)")),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size (e.g. 8G, 512M, or none)"))?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("`{text}` is too large"));
    }
    Ok(Some(bytes as u64).filter(|&b| b > 0))
}

/// `bytes` for a reader: `512 MiB`, `8 GiB`, `1.5 GiB`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 || v.fract() == 0.0 {
        format!("{v} {}", UNITS[u])
    } else if v < 10.0 {
        format!("{v:.2} {}", UNITS[u])
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("8G"), Ok(Some(8 << 30)));
        assert_eq!(parse_size("512M"), Ok(Some(512 << 20)));
        assert_eq!(parse_size("512mib"), Ok(Some(512 << 20)));
        assert_eq!(parse_size("1.5G"), Ok(Some(3 << 29)));
        assert_eq!(parse_size("4096"), Ok(Some(4096)));
        assert_eq!(parse_size("0"), Ok(None));
        assert_eq!(parse_size("none"), Ok(None));
        assert!(parse_size("8X").is_err());
        assert!(parse_size("G").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human(512 << 20), "512 MiB");
        assert_eq!(human(8 << 30), "8 GiB");
        assert_eq!(human(3 << 29), "1.50 GiB");
        assert_eq!(human((1 << 30) + (30 << 20)), "1.03 GiB");
        assert_eq!(human(300 << 20), "300 MiB");
        assert_eq!(human((300 << 20) + (300 << 10)), "300.3 MiB");
        assert_eq!(human(100), "100 B");
    }

    #[test]
    fn default_is_at_most_the_cap() {
        let d = default_limit();
        assert!(d > 0 && d <= DEFAULT_CAP);
    }

    #[test]
    fn kib_fields() {
        let status = "Name:\tgpug\nVmRSS:\t  123456 kB\n";
        assert_eq!(kib_field(status, "VmRSS:"), Some(123456 * 1024));
        assert_eq!(kib_field(status, "VmHWM:"), None);
    }
}
