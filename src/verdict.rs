//! The results of gpug as plain data: verdicts, findings with their witnesses, and the per-kernel
//! and per-file results of the three commands (`gpug`, `gpug check`, `gpug bank`).
//!
//! Owns: the types the driver fills and the report prints, with the small summaries that are
//! functions of the data alone (the worst verdict of a file, PUG's HI/LO bank summary).
//! Must not: depend on any pipeline stage (front end, passes, encoder, solver, driver) or print
//! anything; source positions are [`crate::ir::Span`], itself plain data.
//!
//! The encoder reads witnesses out of solver models into these types (re-exported from
//! `encode` under their old paths); the driver decides verdicts; `report` renders them.

use crate::ir::Span;
use std::time::Duration;

/// A kernel's (or a file's) verdict, ordered from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Every property holds.
    Verified,
    /// No defect found, but some property could not be decided.
    Inconclusive,
    /// A defect was found.
    Defect,
}

impl Verdict {
    /// Defect if any is one, else inconclusive if any is, else verified (also when empty).
    pub fn worst(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
        verdicts.into_iter().max().unwrap_or(Verdict::Verified)
    }

    /// Defect when something was found, else inconclusive when something was undecided, else
    /// verified.
    pub fn of(defect: bool, inconclusive: bool) -> Verdict {
        if defect {
            Verdict::Defect
        } else if inconclusive {
            Verdict::Inconclusive
        } else {
            Verdict::Verified
        }
    }

    /// `verified`, `defect`, `inconclusive`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Defect => "defect",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

/// A command's result for one file: something with an overall verdict.
pub trait Outcome {
    /// Defect if any kernel has one, else inconclusive if any is, else verified.
    fn overall(&self) -> Verdict;
}

/// A command's result for one kernel: something with a verdict.
pub trait KernelOutcome {
    /// The kernel's verdict.
    fn verdict(&self) -> Verdict;
}

/// A command's result for one file: one result per kernel (`K`: [`KernelResult`] for `gpug`,
/// [`KernelCheck`] for `gpug check`).
#[derive(Clone, Debug)]
pub struct FileResult<K = KernelResult> {
    /// The file as the front end named it.
    pub file: String,
    /// One result per kernel, in source order.
    pub kernels: Vec<K>,
    /// The other files of the translation unit (its own headers, as clang names them), whose
    /// kernels and device functions were verified with it ([`crate::ir::Program::includes`]).
    pub includes: Vec<String>,
}

impl<K: KernelOutcome> Outcome for FileResult<K> {
    fn overall(&self) -> Verdict {
        Verdict::worst(self.kernels.iter().map(K::verdict))
    }
}

// ---------------------------------------------------------------------------------------------
// Findings and their witnesses (pair model).

/// The kind of a memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// A plain load.
    Read,
    /// A plain store.
    Write,
    /// An atomic read-modify-write (races with plain accesses, not with other atomics).
    Atomic,
    /// Not an access: a thread reaching a barrier (divergence witnesses).
    Barrier,
    /// Not an access: a failing assertion (assertion witnesses).
    Assert,
}

impl AccessKind {
    /// `read`, `write`, `atomic`, `barrier`, `assert`.
    pub fn as_str(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
            AccessKind::Barrier => "barrier",
            AccessKind::Assert => "assert",
        }
    }
}

/// What was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// A data race; `write_write` when both accesses write.
    Race {
        /// Both accesses write.
        write_write: bool,
    },
    /// Barrier divergence: two threads of one block (of any blocks, for a grid barrier), one
    /// reaches the barrier, one does not.
    Divergence,
    /// An assertion that fails for some thread (pair model).
    Assertion,
    /// `--check-overflow`: a source-level signed `+`, `-` or `*` that some thread reaches
    /// with operands whose exact result does not fit its type: undefined behaviour in C, C++
    /// and OpenCL C (UBSan's `signed-integer-overflow`). The finding's reason names the
    /// operation; its one access is where it is.
    SignedOverflow,
    /// A user loop invariant that may not hold on entry (`base`) or may not be preserved.
    Invariant {
        /// It may not hold on entry (else: may not be preserved by an iteration).
        base: bool,
    },
    /// A barrier invariant (Chong et al. (OOPSLA 2013) §3) that fails at its barrier as `failure`
    /// says.
    BarrierInvariant {
        /// How it fails.
        failure: BarrierInvariantFailure,
    },
}

/// How a barrier invariant fails ([`FindingKind::BarrierInvariant`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierInvariantFailure {
    /// It may be false when the barrier is reached.
    Holds,
    /// It may read a location that neither thread of the pair accessed since the last
    /// barrier (an unknown location, whose value a third thread may have changed).
    Access,
    /// It reads a variable that may differ between two threads of one block (named in the
    /// finding's reason), so it cannot be instantiated at other threads.
    Uniform,
}

/// One thread's part of a witness.
#[derive(Clone, Debug, PartialEq)]
pub struct WitnessAccess {
    /// The access (or barrier, or assertion) in the source.
    pub span: Span,
    /// What the thread does there.
    pub access: AccessKind,
    /// `blockIdx` (x, y, z).
    pub block: [u64; 3],
    /// `threadIdx` (x, y, z).
    pub thread: [u64; 3],
    /// For divergence: whether this thread reaches the barrier.
    pub reaches: Option<bool>,
}

/// A defect with its witness, all values read from the solver's model. Two findings are equal
/// when all but [`Finding::signed_ok`] are (a fact about the model, not the defect).
#[derive(Clone, Debug)]
pub struct Finding {
    /// Race, divergence, assertion or invariant.
    pub kind: FindingKind,
    /// The array of a race.
    pub array: Option<String>,
    /// The two threads' accesses (races), or the barrier as each thread sees it (divergence).
    pub accesses: Vec<WitnessAccess>,
    /// Scalar parameter values, in declaration order, as C literals.
    pub params: Vec<(String, String)>,
    /// Values of the symbolic geometry dimensions (`blockDim.x` …) the model chose.
    pub geometry: Vec<(String, u64)>,
    /// The racing element, e.g. `sdata[133]` (or `sdata + 5 bytes` when not aligned).
    pub index: Option<String>,
    /// The witness rests on a loop abstraction (values havocked at a loop head) and may not
    /// be feasible: a possible defect.
    pub possible: bool,
    /// What a possible finding rests on, in encoding order, each as the report names it:
    /// `the loop at line 89 (`k`, `Csub` arbitrary at its head)`, `the result of `foo`, a
    /// call without a body` (issue 53 item 5). Empty for a finding that is not possible, or
    /// whose abstraction has no name.
    pub abstractions: Vec<String>,
    /// The parameter values it needs, when a relation of the launch contracts' vocabulary
    /// excludes it (`only when n % blockDim.x != 0`); `None` when none was found or asked.
    pub condition: Option<String>,
    /// Why the two accesses are not ordered when that is not plain (`atomicAdd_block by
    /// blocks (0, 0, 0) and (3, 0, 0): block scope does not order threads of different
    /// blocks`); `None` for plain accesses.
    pub reason: Option<String>,
    /// Whether the model the witness was read from has no source-level signed operation
    /// overflow, nor an unsigned index computation wrap, where its threads evaluate one
    /// (`crate::encode::SIGNED_OK`): then the launch contracts' assumption of no signed
    /// overflow, which adds exactly those facts to the same encoding, keeps the finding.
    /// `None`: not asked (no such operation, or the assumption was made).
    pub signed_ok: Option<bool>,
}

impl PartialEq for Finding {
    fn eq(&self, other: &Finding) -> bool {
        // Destructured, so that a new field must be placed here.
        let Finding {
            kind,
            array,
            accesses,
            params,
            geometry,
            index,
            possible,
            abstractions,
            condition,
            reason,
            signed_ok: _,
        } = self;
        *kind == other.kind
            && *array == other.array
            && *accesses == other.accesses
            && *params == other.params
            && *geometry == other.geometry
            && *index == other.index
            && *possible == other.possible
            && *abstractions == other.abstractions
            && *condition == other.condition
            && *reason == other.reason
    }
}

// ---------------------------------------------------------------------------------------------
// `gpug`: races and divergence.

/// The result for one kernel.
#[derive(Clone, Debug)]
pub struct KernelResult {
    /// The kernel's name (with template arguments for an instantiation).
    pub name: String,
    /// Defect when `findings` is not empty, else inconclusive when `inconclusive` is not
    /// (whatever `benign` holds).
    pub verdict: Verdict,
    /// Defects with their witnesses.
    pub findings: Vec<Finding>,
    /// The arrays on which more racing pairs of source locations may race than `findings`
    /// lists (issue 53 item 5): the listing stopped at `--race-pairs`, at an undecided query,
    /// or was not asked (a possible finding, a race check without linear sides). The launch
    /// contracts read it: a pair that a re-verification does not list on such an array may
    /// still race there. Not reported (the notes say when the limit left pairs out).
    pub unlisted_pairs: Vec<String>,
    /// Why the verdict is inconclusive (timeouts, unknowns, loops).
    pub inconclusive: Vec<String>,
    /// Abstractions the verdict rests on.
    pub notes: Vec<String>,
    /// With `--explain`: each loop and how it was treated.
    pub loops: Vec<String>,
    /// With `--explain`: how each query of the pair model was answered (its linear relaxation
    /// and how many refinements it took, or the exact query).
    pub answers: Vec<String>,
    /// How many queries each solver answered (`sat` or `unsat`), by name; a portfolio's
    /// `unsat` confirmed by a second solver counts under both names joined by `+`.
    pub answered_by: std::collections::BTreeMap<String, u32>,
    /// Queries asked.
    pub queries: usize,
    /// Wall-clock time spent on the kernel.
    pub time: Duration,
    /// The launch contract the verdict holds under (ARCHITECTURE.md "Launch contracts"), e.g.
    /// `blockDim.y = 1` or `gridDim.x * blockDim.x <= 2^32`; empty when it holds for every launch
    /// checked (or there is no verified verdict).
    pub contract: Vec<String>,
    /// Findings that only launches outside the standard assumptions have, each with the
    /// condition of the launches it needs: those the contract excludes (a verified verdict), or,
    /// for a defect, those that disappear under the standard assumptions while others stay.
    pub excluded: Vec<Excluded>,
    /// `--assume` expressions (C, over parameters and the launch) under each of which the
    /// kernel was verified again and found free of defects (under the standard assumptions):
    /// suggested, never assumed.
    pub suggestions: Vec<String>,
    /// Benign write-write races (GPUVerify's default, ARCHITECTURE.md "Launch contracts"): two
    /// threads write one location in one barrier interval, but both store the same value there, in
    /// every execution where they race. Not defects, so the verdict ignores them; `--no-benign` and
    /// `--strict` report them as races, in `findings`.
    pub benign: Vec<Finding>,
    /// The kernel's source language: the report's words follow it (work-item, work-group and
    /// `get_local_id(0)` for OpenCL).
    pub language: crate::ir::Language,
    /// Which properties the verdict covers (`--stage`, Chong et al. (OOPSLA 2013) §3.3 staged
    /// verification).
    pub stage: Stage,
    /// The launch of the file's host code this result is for (issue 43); `None`: every launch
    /// the command line allows (no host code launches the kernel, or `--launch symbolic`).
    pub launch: Option<LaunchSite>,
    /// With `--profile`: where the kernel's time went.
    pub profile: Option<Profile>,
}

/// Where one kernel's time went (`--profile`; issue 56 item 2): wall-clock seconds of each
/// stage, and of each query asked, with its answer. Times only: nothing here decides a verdict.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// The passes (loop unrolling and abstraction, inlining's clean-up), every time they ran.
    pub passes: Duration,
    /// Building the SMT-LIB queries, every encoding.
    pub encoding: Duration,
    /// The launch contracts' re-verifications, their own passes, encodings and queries
    /// included.
    pub contracts: Duration,
    /// Each query asked, in order: its name, its seconds (solver restarts and the relaxation's
    /// refinement rounds included) and its answer (`sat`, `unsat`, `unknown`, `timeout`, …).
    pub queries: Vec<(String, Duration, String)>,
}

/// A launch read from the file's host code, as a result names it ([`KernelResult::launch`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchSite {
    /// The host functions from the outermost interpreted one to the one holding the launch
    /// (`main`, `main → run`).
    pub callers: Vec<String>,
    /// Where the launch is written.
    pub site: crate::ir::Span,
    /// The configuration as written (`<<<(n + 255) / 256, 256>>>`).
    pub config: String,
    /// What the verification assumed of the launch, as C (`blockDim = (256, 1, 1)`,
    /// `n = 1000`, `gridDim.x = (n + 255) / 256`).
    pub assuming: Vec<String>,
    /// Other sites with the same launch.
    pub same: Vec<crate::ir::Span>,
    /// The launch is in a host loop: its symbolic values stand for every iteration's.
    pub in_loop: bool,
}

impl LaunchSite {
    /// `at the launch in main, file.cu:42: <<<(n + 255) / 256, 256>>>`.
    pub fn title(&self) -> String {
        let callers = if self.callers.is_empty() {
            String::new()
        } else {
            format!(" in {}", self.callers.join(" → "))
        };
        format!(
            "at the launch{callers}, {}:{}: {}",
            self.site.file, self.site.line, self.config
        )
    }
}

/// The stage of a staged verification (Chong et al. (OOPSLA 2013) §3.3, "Modular and staged
/// verification"): race freedom first, then the functional specification with race checking
/// disabled, which is sound once race freedom is proven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// Every property at once.
    #[default]
    All,
    /// Races and barrier divergence, with the barrier and loop invariants they rest on checked;
    /// assertions and postconditions (the functional specification) are not asked.
    Races,
    /// Assertions, postconditions, barrier and loop invariants and barrier divergence; races are
    /// not asked: the verdict assumes the kernel race-free, as `--stage races` establishes.
    Functional,
}

impl Stage {
    /// The JSON spelling: `all`, `races`, `functional`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::All => "all",
            Stage::Races => "races",
            Stage::Functional => "functional",
        }
    }
}

/// A finding that only launches outside the standard assumptions have
/// ([`KernelResult::contract`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Excluded {
    pub finding: Finding,
    /// The launches it needs, e.g. `only when blockDim.y > 1`.
    pub condition: String,
}

impl KernelResult {
    /// An inconclusive result for kernel `name` with its `reasons`, no finding, and `time`.
    pub fn undecided(name: &str, reasons: Vec<String>, time: Duration) -> KernelResult {
        KernelResult {
            name: name.to_string(),
            verdict: Verdict::Inconclusive,
            findings: Vec::new(),
            unlisted_pairs: Vec::new(),
            inconclusive: reasons,
            notes: Vec::new(),
            loops: Vec::new(),
            answers: Vec::new(),
            answered_by: Default::default(),
            queries: 0,
            time,
            contract: Vec::new(),
            excluded: Vec::new(),
            suggestions: Vec::new(),
            benign: Vec::new(),
            language: Default::default(),
            stage: Stage::All,
            launch: None,
            profile: None,
        }
    }
}

impl KernelOutcome for KernelResult {
    fn verdict(&self) -> Verdict {
        self.verdict
    }
}

// ---------------------------------------------------------------------------------------------
// `gpug check`: assertions in the concrete model.

/// How shared accesses were ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    /// Canonical serialization by barrier interval (after the race check).
    Canonical,
    /// Schedule IDs: every interleaving.
    AllSchedules,
}

impl Ordering {
    /// `canonical`, `all-schedules`.
    pub fn as_str(self) -> &'static str {
        match self {
            Ordering::Canonical => "canonical",
            Ordering::AllSchedules => "all-schedules",
        }
    }
}

/// One array's values at the accessed elements: `(index, value)` sorted by index.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayValues {
    /// The array's source name.
    pub name: String,
    /// `(element index, value as a C literal)`, by increasing index.
    pub elems: Vec<(i64, String)>,
}

/// One step of a witness schedule: an enabled shared or global access, in SID order.
#[derive(Clone, Debug, PartialEq)]
pub struct ScheduleStep {
    /// The schedule ID the model chose.
    pub sid: u64,
    /// 0-based thread of the launch.
    pub thread: usize,
    /// `blockIdx` of the thread.
    pub block: [u64; 3],
    /// `threadIdx` of the thread.
    pub thread_idx: [u64; 3],
    /// The access in the source.
    pub span: Span,
    /// Read, write or atomic.
    pub access: AccessKind,
    /// The element, e.g. `c[0]`.
    pub location: String,
    /// The value read (reads), written (writes), or `old -> new` (atomics).
    pub value: String,
}

/// A failing assertion's witness, read from the solver's model.
#[derive(Clone, Debug, PartialEq)]
pub struct AssertionWitness {
    /// The first thread (0-based, block-major) for which the assertion fails.
    pub thread: usize,
    /// `blockIdx` of that thread.
    pub block: [u64; 3],
    /// `threadIdx` of that thread.
    pub thread_idx: [u64; 3],
    /// Scalar parameters, as C literals.
    pub params: Vec<(String, String)>,
    /// What the condition read in that thread: `s[3] = 7`, `i = 3`.
    pub reads: Vec<(String, String)>,
    /// Initial contents of global arrays at the elements the kernel accesses.
    pub inputs: Vec<ArrayValues>,
    /// Final contents of shared and global arrays at the elements the kernel accesses.
    pub finals: Vec<ArrayValues>,
    /// With schedule IDs: the enabled accesses in schedule order.
    pub schedule: Vec<ScheduleStep>,
}

/// A failing assertion or postcondition with its witness.
#[derive(Clone, Debug)]
pub struct AssertionFailure {
    /// The `assert` or `__ensures`.
    pub span: Span,
    /// From `__ensures`.
    pub postcondition: bool,
    /// The failing thread and the values that make it fail.
    pub witness: AssertionWitness,
}

/// The result of checking one kernel.
#[derive(Clone, Debug)]
pub struct KernelCheck {
    /// The kernel's name.
    pub name: String,
    /// Verified: every assertion holds; Defect: a race, divergence or failing assertion;
    /// Inconclusive: see `inconclusive`.
    pub verdict: Verdict,
    /// Threads of the launch.
    pub threads: usize,
    /// Blocks of the launch.
    pub blocks: usize,
    /// How shared accesses were ordered.
    pub ordering: Ordering,
    /// Assertions and postconditions checked.
    pub assertions: usize,
    /// Races and divergence found by the pre-check (then no assertion was checked).
    pub races: Vec<Finding>,
    /// Failing assertions and postconditions, one per source assertion.
    pub failures: Vec<AssertionFailure>,
    /// Why the verdict is inconclusive.
    pub inconclusive: Vec<String>,
    /// Abstractions and bounds the verdict rests on.
    pub notes: Vec<String>,
    /// Wall-clock time spent on the kernel.
    pub time: Duration,
}

impl KernelOutcome for KernelCheck {
    fn verdict(&self) -> Verdict {
        self.verdict
    }
}

/// The result of `gpug check` for one file.
pub type CheckResult = FileResult<KernelCheck>;

// ---------------------------------------------------------------------------------------------
// `gpug bank`: shared-memory bank conflicts.

/// The shared-memory bank layout of a device (PUG paper §7; ARCHITECTURE.md "Properties as
/// queries"). Default: today's hardware, 32 banks of 4 bytes, warps of 32 threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankModel {
    /// Number of banks (`--banks`, default 32).
    pub banks: u32,
    /// Bytes per bank word (`--bank-width`, default 4).
    pub bank_width: u32,
    /// Threads per warp: consecutive linear thread ids, `x` fastest (default 32).
    pub warp_size: u32,
}

impl Default for BankModel {
    fn default() -> Self {
        BankModel {
            banks: 32,
            bank_width: 4,
            warp_size: 32,
        }
    }
}

impl BankModel {
    /// The most bank words an access of `width` bytes can touch (at any alignment):
    /// `(width − 1) / bank_width + 2` when `bank_width > 1`, else `width`.
    pub fn max_words(&self, width: u32) -> u32 {
        let w = width.max(1);
        if self.bank_width <= 1 {
            w
        } else {
            (w - 1) / self.bank_width + 2
        }
    }

    /// Whether one thread's access of `width` bytes can never touch two words of one bank
    /// (its words are consecutive, so this holds when they are at most `banks`). The queries
    /// pick one word per thread and rely on it.
    pub fn supports(&self, width: u32) -> bool {
        self.banks >= 1 && self.bank_width >= 1 && self.max_words(width) <= self.banks
    }
}

/// A conflict witness read from a model: one dynamic occurrence of the access, the warp, the
/// k threads and the bank they hit with pairwise different words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankWitness {
    /// Index of the occurrence among the accesses of the kernel's encoding.
    pub access: usize,
    /// `blockIdx` (x, y, z) of the warp's block.
    pub block: [u64; 3],
    /// Warp index within the block: linear thread id / warp size.
    pub warp: u64,
    /// Linear thread ids (`x + y·bdx + z·bdx·bdy`) of the k threads, increasing.
    pub threads: Vec<u64>,
    /// `threadIdx` (x, y, z) of each of those threads.
    pub thread_idx: Vec<[u64; 3]>,
    /// The bank (0-based, below [`BankModel::banks`]).
    pub bank: u64,
}

/// PUG's per-kernel summary (paper §7, Table 1 column "B.C.").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Summary {
    /// At least 50% of the barrier intervals with shared accesses contain a bank conflict.
    Hi,
    /// Some, but fewer than 50%.
    Lo,
    /// No interval contains a bank conflict.
    None,
}

impl Summary {
    /// `HI`, `LO`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            Summary::Hi => "HI",
            Summary::Lo => "LO",
            Summary::None => "none",
        }
    }
}

/// The result for one access site of a shared array.
#[derive(Clone, Debug)]
pub struct SiteResult {
    /// The array's source name.
    pub array: String,
    /// The access in the source.
    pub span: Span,
    /// Read, write or atomic.
    pub kind: AccessKind,
    /// Bytes one thread touches.
    pub width: u32,
    /// Whether two lanes of one warp can conflict (pair model, any parameter values); `None`
    /// when a query was inconclusive and none was satisfiable.
    pub possible: Option<bool>,
    /// The largest number of distinct words of one bank one warp touches in one occurrence
    /// (1: conflict-free). A lower bound when `exact` is false.
    pub degree: u32,
    /// Whether every query of the search was answered.
    pub exact: bool,
    /// Dynamic occurrences of the site (unrolled loop iterations).
    pub occurrences: usize,
    /// The witness of the highest satisfiable degree query.
    pub witness: Option<SiteWitness>,
}

/// A witness with the place of its occurrence.
#[derive(Clone, Debug)]
pub struct SiteWitness {
    /// The warp, threads and bank.
    pub witness: BankWitness,
    /// 0-based index of the occurrence among the site's occurrences (loop iteration order).
    pub occurrence: usize,
    /// The barrier interval (0-based top-level segment) of the occurrence.
    pub interval: u32,
}

/// One barrier interval (0-based, counted over the unrolled kernel's top-level barriers) that
/// contains shared accesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntervalResult {
    /// The interval's index.
    pub index: u32,
    /// Access sites that occur in the interval.
    pub accesses: usize,
    /// Of those, the sites with a possible bank conflict in this interval.
    pub conflicting: usize,
    /// Sites whose query in this interval was inconclusive.
    pub undecided: usize,
}

/// The bank-conflict result for one kernel.
#[derive(Clone, Debug)]
pub struct BankKernelResult {
    /// The kernel's name.
    pub name: String,
    /// One result per access site of a shared array, in program order.
    pub sites: Vec<SiteResult>,
    /// The barrier intervals with shared accesses, by index.
    pub intervals: Vec<IntervalResult>,
    /// Why some result is not exact (timeouts, unknowns, loops that could not be unrolled).
    pub inconclusive: Vec<String>,
    /// Abstractions the result rests on.
    pub notes: Vec<String>,
    /// Queries asked.
    pub queries: usize,
    /// Wall-clock time spent on the kernel.
    pub time: Duration,
}

impl BankKernelResult {
    /// Access sites with degree > 1.
    pub fn conflicting_sites(&self) -> usize {
        self.sites.iter().filter(|s| s.degree > 1).count()
    }

    /// Intervals with a conflict.
    pub fn conflicting_intervals(&self) -> usize {
        self.intervals.iter().filter(|i| i.conflicting > 0).count()
    }

    /// HI (≥ 50% of the intervals conflict), LO (some), none.
    pub fn summary(&self) -> Summary {
        let c = self.conflicting_intervals();
        if c == 0 {
            Summary::None
        } else if 2 * c >= self.intervals.len() {
            Summary::Hi
        } else {
            Summary::Lo
        }
    }
}

impl KernelOutcome for BankKernelResult {
    /// Defect when some site conflicts, else inconclusive when something is, else verified.
    fn verdict(&self) -> Verdict {
        Verdict::of(self.conflicting_sites() > 0, !self.inconclusive.is_empty())
    }
}

/// The result of `gpug bank` for one file.
#[derive(Clone, Debug)]
pub struct BankFileResult {
    /// The file as the front end named it.
    pub file: String,
    /// The bank layout analysed.
    pub model: BankModel,
    /// One result per kernel, in source order.
    pub kernels: Vec<BankKernelResult>,
}

impl Outcome for BankFileResult {
    fn overall(&self) -> Verdict {
        Verdict::worst(self.kernels.iter().map(KernelOutcome::verdict))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worst_verdict_orders_defect_over_inconclusive_over_verified() {
        use Verdict::*;
        assert_eq!(Verdict::worst([]), Verified);
        assert_eq!(Verdict::worst([Verified, Inconclusive]), Inconclusive);
        assert_eq!(Verdict::worst([Inconclusive, Defect, Verified]), Defect);
        assert_eq!(Verdict::of(true, true), Defect);
        assert_eq!(Verdict::of(false, true), Inconclusive);
        assert_eq!(Verdict::of(false, false), Verified);
    }
}

// ---------------------------------------------------------------------------------------------
// Runs over many files.

/// One file of a run over many files (`gpug FILE… | DIR`): its kernels' verdicts, or why it
/// has none, with the time it took and the solver that answered.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRow {
    /// The file as given or found.
    pub file: String,
    /// `(kernel, verdict)` in source order; `Err` the one-line reason the file has no
    /// verdict (an input error: clang, an unsupported construct, a bad header flag).
    pub kernels: Result<Vec<(String, Verdict)>, String>,
    /// Wall-clock seconds for the file (front end, encoding and solver).
    pub seconds: f64,
    /// The solver's name (`z3`, or the program of `--solver-cmd`).
    pub solver: String,
    /// The file that `#include`s this one and was verified, when this one could not be
    /// verified alone (a kernel fragment of a program split over files): its kernels were
    /// verified there, and this row is no error.
    pub included_by: Option<String>,
}
