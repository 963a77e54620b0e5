//! `gpug` (the default command): data races and barrier divergence in the pair model (PUG
//! paper, `003_…`; DESIGN.md "Thread models", "Properties as queries", "Loops").
//!
//! Per kernel: [`passes::prepare`] unrolls or abstracts the loops; derived closed forms are
//! checked first (step case), and a failing one is havocked and the kernel encoded again; then
//! every race and divergence check is one query ([`encode::encode_with`]). A possible defect
//! (one resting on a loop abstraction) is replayed at the geometry its witness chose with every
//! loop unrolled.
//!
//! Must not: print, build SMT terms (the encoder's job), or talk to a solver other than through
//! the pipeline's [`KernelRun`].

use super::Error;
use super::contracts::{Launch, Reverify};
use super::pipeline::{Command, KernelRun, Reply, reasons};
use crate::encode::nonlinear::Refinement;
use crate::encode::{self, Finding};
use crate::ir::query::builtins_read;
use crate::ir::{Builtin, Dim, Kernel, Program, Span, VarId};
use crate::passes::{self, LoopTreatment, Prepared};
use crate::solver::{self, Answer, Session};
use crate::verdict::{FileResult, FindingKind, KernelResult, Stage, Verdict};
use std::time::Duration;

/// What `gpug` needs besides the [`RunOptions`](super::RunOptions).
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Check only barrier divergence.
    pub only_divergence: bool,
    /// Leave out the barrier invariants' access checks
    /// ([`encode::EncodeOptions::barrier_access_checks`]).
    pub no_barrier_access_checks: bool,
    /// Ask each barrier invariant's *holds* check once per thread
    /// ([`encode::EncodeOptions::split_invariants`]; `--split-invariants`).
    pub split_invariants: bool,
    /// Only races between threads of one block (GPUVerify's `--only-intra-group`).
    pub only_intra_group: bool,
    /// List every loop with its treatment in [`KernelResult::loops`].
    pub explain: bool,
    /// PUG's `+O`: assume no integer overflow in `+`, `-`, `*`.
    pub no_overflow: bool,
    /// `--check-overflow`: report each source-level signed `+`, `-`, `*` that a thread can
    /// reach while it overflows ([`encode::EncodeOptions::check_overflow`]).
    pub check_overflow: bool,
    /// Report every finding as a defect: no launch contract ([`super::contracts`]).
    pub strict: bool,
    /// GPUVerify's benign write-write races (its default): a race whose two writes store the
    /// same value at the same place is listed in [`KernelResult::benign`], not a defect
    /// ([`encode::EncodeOptions::benign`]). [`encode::Benign::Off`] with `--no-benign` and
    /// `--strict`, [`encode::Benign::Equality`] with `--equality-abstraction`.
    pub benign: encode::Benign,
    /// `--warp-sync=N`: the lock-step warp model ([`encode::EncodeOptions::lockstep`]).
    pub warp_sync: Option<u32>,
    /// `--stage`: which properties are asked (paper 001 §3.3, staged verification).
    pub stage: Stage,
}

impl Command for VerifyOptions {
    type Kernel = KernelResult;
    type File = FileResult;

    fn kernel(&self, k: &Kernel, run: &mut KernelRun) -> Result<KernelResult, Error> {
        let mut r = verify_kernel(k, self, run)?;
        r.language = k.language;
        Ok(r)
    }

    fn file(&self, program: &Program, kernels: Vec<KernelResult>) -> FileResult {
        FileResult {
            file: program.file.clone(),
            kernels,
            includes: program.includes.clone(),
        }
    }

    fn at_launch(&self, r: &mut KernelResult, l: &crate::ir::HostLaunch) {
        r.launch = Some(crate::verdict::LaunchSite {
            callers: l.callers.clone(),
            site: l.site.clone(),
            config: l.config.clone(),
            assuming: l.described.clone(),
            same: l.same.clone(),
            in_loop: l.in_loop,
        });
    }

    fn stopped(&self, k: &Kernel, run: &mut KernelRun, why: String) -> KernelResult {
        KernelResult {
            language: k.language,
            stage: self.stage,
            queries: run.queries,
            ..KernelResult::undecided(&k.name, vec![why], run.elapsed())
        }
    }
}

fn verify_kernel(k: &Kernel, opts: &VerifyOptions, run: &mut KernelRun) -> Result<KernelResult, Error> {
    let geometry = run.options().geometry.clone();
    // Under a launch left symbolic, witnesses are first sought in the launches of the launch
    // contracts' vocabulary, so that the contracts need not re-verify for their findings.
    let prefer = if opts.strict {
        Vec::new()
    } else {
        super::contracts::preferences(k, &geometry, opts.no_overflow)
    };
    let launch = Launch {
        geometry,
        index_fits: None,
        signed: Vec::new(),
        only: None,
        prefer,
    };
    let mut result = verify_under(k, opts, run, &launch)?;
    if !opts.strict {
        super::contracts::apply(k, opts, run, &mut result)?;
    }
    Ok(result)
}

/// Re-verifications for the launch contracts: [`verify_under`] with these options.
impl Reverify for VerifyOptions {
    fn verify_under(&self, k: &Kernel, run: &mut KernelRun, launch: &Launch) -> Result<KernelResult, Error> {
        verify_under(k, self, run, launch)
    }

    fn no_overflow(&self) -> bool {
        self.no_overflow
    }
}

impl Launch {
    /// Whether a check of `property` is asked.
    fn asks(&self, kernel: &Kernel, property: &encode::Property) -> bool {
        let Some(only) = &self.only else { return true };
        only.iter().any(|f| match property {
            encode::Property::Race { array } | encode::Property::HarmfulRace { array } => {
                matches!(f.kind, FindingKind::Race { .. })
                    && f.array.as_deref() == Some(kernel.array(*array).name.as_str())
            }
            encode::Property::Divergence { .. } => f.kind == FindingKind::Divergence,
            encode::Property::Assertion { .. } => f.kind == FindingKind::Assertion,
            encode::Property::SignedOverflow { .. } => f.kind == FindingKind::SignedOverflow,
            encode::Property::BarrierInvariant { .. } => matches!(f.kind, FindingKind::BarrierInvariant { .. }),
            encode::Property::Invariant { .. } | encode::Property::ClosedForm { .. } => {
                matches!(f.kind, FindingKind::Invariant { .. })
            }
            // The premise of the races asked again.
            encode::Property::FlagWriters { .. } => true,
        })
    }
}

/// Races and divergence of `k` for the launches of `launch`: the kernel's result before any
/// launch contract.
pub(super) fn verify_under(
    k: &Kernel,
    opts: &VerifyOptions,
    run: &mut KernelRun,
    launch: &Launch,
) -> Result<KernelResult, Error> {
    let c = run.options();
    let prepared = run.prepare(k, &launch.geometry, &c.passes)?;
    // The front end's notes, and those of the passes (locks and flags taken or refused).
    let mut notes: Vec<String> = prepared.kernel.notes.clone();
    if opts.only_intra_group {
        notes.push(
            "--only-intra-group: only races between threads of one block are checked; races between blocks are not looked for".to_string(),
        );
    }
    match opts.stage {
        Stage::All => {}
        Stage::Races => notes.push(
            "--stage races: races and barrier divergence are checked, with the barrier and loop invariants they rest on; assertions and postconditions are not (--stage functional checks them)".into(),
        ),
        Stage::Functional => notes.push(
            "--stage functional: races are not checked; assertions, postconditions and invariants are verified assuming the kernel race-free, as --stage races must establish (paper 001, section 3.3, staged verification)".into(),
        ),
    }
    let loops = loop_treatments(&prepared, opts.explain, &mut notes);
    if !prepared.inconclusive.is_empty() {
        return Ok(KernelResult {
            notes,
            loops,
            ..KernelResult::undecided(&k.name, reasons(&prepared.inconclusive).collect(), run.elapsed())
        });
    }
    let (kernel, encoded, mut sessions) = encode_checking_closed_forms(prepared.kernel, opts, launch, run, &mut notes)?;
    notes.extend(encoded.notes.iter().cloned());
    for e in &c.frontend.assumptions {
        notes.push(format!(
            "assumes `{e}` on entry (--assume): a defect only in launches outside it is not reported"
        ));
    }
    if opts.no_overflow && opts.check_overflow {
        notes.push(
            "--check-overflow checks nothing under --no-overflow, which assumes that no operation overflows".into(),
        );
    }
    if opts.no_overflow {
        notes.push("assumes that no integer +, -, * wraps and no integer conversion changes a value (--no-overflow): an execution in which the kernel's arithmetic wraps anywhere, even after a defect, is not checked".into());
    }
    let mut findings: Vec<Finding> = Vec::new();
    let mut benign: Vec<Finding> = Vec::new();
    // The checks asked, in order: a harmful-race check is asked through the race check before
    // it.
    let asked = |check: &encode::Check| {
        !matches!(
            check.property,
            encode::Property::ClosedForm { .. } | encode::Property::HarmfulRace { .. }
        ) && (!opts.only_divergence || matches!(check.property, encode::Property::Divergence { .. }))
            && !matches!(
                (opts.stage, &check.property),
                (
                    Stage::Races,
                    encode::Property::Assertion { .. } | encode::Property::SignedOverflow { .. }
                ) | (
                    Stage::Functional,
                    encode::Property::Race { .. } | encode::Property::FlagWriters { .. }
                )
            )
            && launch.asks(&kernel, &check.property)
    };
    prefetch(&encoded, run, &mut sessions, &asked)?;
    // The properties a case of a split check found failing: their other cases are not asked.
    let mut failed_splits: Vec<usize> = Vec::new();
    for (i, check) in encoded.checks.iter().enumerate() {
        if !asked(check) || check.split.is_some_and(|s| failed_splits.contains(&s)) {
            continue;
        }
        let answer = sessions.ask(run, i, check)?;
        let Reply::Sat(values) = run.reply(&check.query.name, answer) else {
            continue;
        };
        if let encode::Property::FlagWriters { array } = check.property {
            run.inconclusive.push(format!(
                "message passing through `{}` needs each of its words written at most once, and two writes may store to one: the races its spin-waits were taken to order are not decided",
                kernel.array(array).name
            ));
            continue;
        }
        failed_splits.extend(check.split);
        let mut f = check.finding(&kernel, &values);
        // The check that found `f`.
        let mut from = i;
        if let Some(harmful) = harmful_variant(&encoded.checks, i, &values) {
            // Every pair of the model races benignly: is there a harmful race?
            let answer = sessions.ask(run, i + 1, harmful)?;
            match run.reply(&harmful.query.name, answer) {
                Reply::Sat(values) => {
                    f = harmful.finding(&kernel, &values);
                    from = i + 1;
                }
                Reply::Unsat => {
                    if !benign.contains(&f) {
                        benign.push(f);
                    }
                    continue;
                }
                // Undecided (its reason is kept): the race found stays a defect.
                Reply::Undecided => {}
            }
        }
        prefer_witness(&kernel, launch, &encoded.checks, from, &mut sessions, run, &mut f)?;
        if !findings.contains(&f) {
            findings.push(f);
        }
    }
    if findings.iter().any(|f| f.possible) {
        confirm_by_replay(k, opts, launch, run, &mut findings, &mut notes)?;
    }
    run.unchecked(k);
    Ok(KernelResult {
        name: k.name.clone(),
        verdict: Verdict::of(!findings.is_empty(), !run.inconclusive.is_empty()),
        findings,
        inconclusive: std::mem::take(&mut run.inconclusive),
        notes,
        loops,
        answered_by: sessions.answered_by(),
        answers: sessions.explain.take().unwrap_or_default(),
        queries: run.queries,
        time: run.elapsed(),
        contract: Vec::new(),
        excluded: Vec::new(),
        suggestions: Vec::new(),
        benign,
        language: k.language,
        stage: opts.stage,
        launch: None,
    })
}

/// With `--jobs` above 1, asks every check that `asked` accepts at once on several solver
/// processes ([`KernelRun::ask_parallel`]) and keeps the answers for [`Sessions::ask`], which
/// then returns them in source order. Only where the queries are asked exactly and nothing
/// depends on their order: a kernel without a linear relaxation (whose refinement rounds are
/// sequential), no `--dump-smt2` (whose file names follow the order of asking). Errors: a
/// solver cannot start.
fn prefetch(
    encoded: &encode::Encoded,
    run: &mut KernelRun,
    sessions: &mut Sessions,
    asked: &dyn Fn(&encode::Check) -> bool,
) -> Result<(), Error> {
    let o = run.options();
    if o.jobs < 2 || o.dump_dir.is_some() || sessions.relaxed.is_some() {
        return Ok(());
    }
    let ids: Vec<usize> = (0..encoded.checks.len())
        .filter(|&i| asked(&encoded.checks[i]))
        .collect();
    if ids.len() < 2 {
        return Ok(());
    }
    let queries: Vec<&solver::Query> = ids.iter().map(|&i| &encoded.checks[i].query).collect();
    let asked = run.ask_parallel(&o.solvers(), &encoded.script, &queries)?;
    sessions.prefetched = ids
        .into_iter()
        .zip(asked.answers)
        .map(|(i, a)| (i, (a.answer, a.first)))
        .collect();
    for (name, n) in asked.answered_by {
        *sessions.prefetched_by.entry(name).or_insert(0) += n;
    }
    Ok(())
}

/// Replaces `f`, the finding of check `i`, by a witness in the launches of [`Launch::prefer`] when its own launch or
/// parameters violate one of them and such a witness exists: the same check asked again with
/// the preferred conditions asserted ([`Sessions::ask_preferred`]). Nothing for a possible
/// finding (its witness rests on an abstraction) or when the answer is not `sat`; a model
/// that races only benignly is no witness of a harmful race. Errors: the solver cannot start.
fn prefer_witness(
    kernel: &Kernel,
    launch: &Launch,
    checks: &[encode::Check],
    i: usize,
    sessions: &mut Sessions,
    run: &mut KernelRun,
    f: &mut Finding,
) -> Result<(), Error> {
    if launch.prefer.is_empty()
        || f.possible
        || sessions.preferred_refuted
        || launch
            .prefer
            .iter()
            .all(|c| super::contracts::holds_in_witness(kernel, &launch.geometry, c, f) == Some(true))
    {
        return Ok(());
    }
    if let Answer::Sat(values) = sessions.ask_preferred(run, i, &checks[i])?
        && harmful_variant(checks, i, &values).is_none()
    {
        *f = checks[i].finding(kernel, &values);
    }
    Ok(())
}

/// The [`encode::Property::HarmfulRace`] check right after race check `i`, when the model
/// `values` of check `i` races only benignly ([`encode::Check::only_benign`]): that check then
/// decides whether the kernel has a harmful race.
fn harmful_variant<'c>(checks: &'c [encode::Check], i: usize, values: &[solver::Sexp]) -> Option<&'c encode::Check> {
    let next = checks.get(i + 1)?;
    (matches!(next.property, encode::Property::HarmfulRace { .. }) && checks[i].only_benign(values)).then_some(next)
}

/// One line per loop saying how it was treated (returned with `--explain`, else empty), and
/// a note for each abstraction the verdict then rests on.
fn loop_treatments(prepared: &Prepared, explain: bool, notes: &mut Vec<String>) -> Vec<String> {
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
        if explain {
            loops.push(text);
        }
    }
    loops
}

/// Encodes `kernel` in the pair model after checking its derived closed forms first (step
/// case): a failing one is havocked instead and the kernel encoded again, so a wrong derivation
/// cannot hide a defect. Returns the kernel as finally encoded, its encoding and sessions.
fn encode_checking_closed_forms(
    mut kernel: Kernel,
    opts: &VerifyOptions,
    launch: &Launch,
    run: &mut KernelRun,
    notes: &mut Vec<String>,
) -> Result<(Kernel, encode::Encoded, Sessions), Error> {
    loop {
        let encoded = encode::encode_with(&kernel, &launch.geometry, &pair_options(opts, launch))?;
        run.show_ssa(&kernel.name, "pair", &encoded.script);
        run.show_queries(
            &kernel.name,
            encoded.checks.iter().map(|c| (c.property.describe(&kernel), &c.query)),
        );
        let mut sessions = Sessions::new(&kernel, &encoded, run, opts.explain);
        let mut rejected: Vec<(Span, VarId)> = Vec::new();
        for (i, check) in encoded.checks.iter().enumerate() {
            if let encode::Property::ClosedForm { loop_span, var } = &check.property
                && !matches!(sessions.ask(run, i, check)?, Answer::Unsat)
            {
                rejected.push((loop_span.clone(), *var));
            }
        }
        if rejected.is_empty() {
            return Ok((kernel, encoded, sessions));
        }
        let before_demote = match run.options().passes.validate {
            true => crate::ir::validate::undefined_reads(&kernel),
            false => Default::default(),
        };
        for (span, var) in rejected {
            notes.push(format!(
                "the closed form derived for `{}` in the loop at line {} failed its step check: havocked instead",
                kernel.var(var).name,
                span.line
            ));
            passes::demote_closed_form(&mut kernel.body, &span, var);
        }
        if run.options().passes.validate {
            use crate::ir::validate::{Stage, validate};
            validate(&kernel, Stage::Prepared, "pass demote", &before_demote)?;
        }
    }
}

/// Replays each possible finding (one resting on a loop abstraction) at the geometry its
/// witness chose: when pinning the symbolic dimensions to those values makes every loop of the
/// kernel unrollable (within `--unroll`), the kernel is encoded again without any abstraction
/// and the same kind of defect (same array for races) asked for; a model at the same source
/// sites is a real defect of that launch and replaces the possible one (PUG §6 abstractions
/// only add behaviours, so the exact encoding is the judge). Findings whose replay is not exact, or finds nothing,
/// stay possible.
fn confirm_by_replay(
    k: &Kernel,
    opts: &VerifyOptions,
    launch: &Launch,
    run: &mut KernelRun,
    findings: &mut [Finding],
    notes: &mut Vec<String>,
) -> Result<(), Error> {
    for finding in findings.iter_mut() {
        if !finding.possible {
            continue;
        }
        let mut geometry = launch.geometry.clone();
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
        let prepared = run.prepare(k, &geometry, &run.options().passes)?;
        let exact = prepared.inconclusive.is_empty()
            && prepared
                .loops
                .iter()
                .all(|(_, t)| matches!(t, LoopTreatment::Unrolled(_)));
        if !exact {
            continue;
        }
        let encoded = encode::encode_with(&prepared.kernel, &geometry, &pair_options(opts, launch))?;
        // Exact queries only: the launch is concrete.
        let mut sessions = Sessions::new(&prepared.kernel, &encoded, run, opts.explain);
        sessions.relaxed = None;
        for (j, check) in encoded.checks.iter().enumerate() {
            let same = match &check.property {
                encode::Property::Race { array } => {
                    matches!(finding.kind, FindingKind::Race { .. })
                        && finding.array.as_deref() == Some(prepared.kernel.array(*array).name.as_str())
                }
                encode::Property::Divergence { .. } => finding.kind == FindingKind::Divergence,
                _ => false,
            };
            if !same {
                continue;
            }
            if let Answer::Sat(values) = sessions.ask(run, j, check)? {
                // A benign race does not confirm a race: its harmful variant must.
                let (check, values) = match harmful_variant(&encoded.checks, j, &values) {
                    Some(harmful) => match sessions.ask(run, j + 1, harmful)? {
                        Answer::Sat(values) => (harmful, values),
                        _ => continue,
                    },
                    None => (check, values),
                };
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
    Ok(())
}

/// The pair model with every check, under `--no-overflow` when given and the launch's no-wrap
/// contract, with benign races unless `--no-benign` or `--strict`.
fn pair_options(opts: &VerifyOptions, launch: &Launch) -> encode::EncodeOptions {
    encode::EncodeOptions {
        no_overflow: opts.no_overflow,
        index_fits: launch.index_fits,
        signed_no_overflow: launch.signed.clone(),
        check_overflow: opts.check_overflow,
        benign: opts.benign,
        preferred: launch.prefer.clone(),
        barrier_access_checks: !opts.no_barrier_access_checks,
        split_invariants: opts.split_invariants,
        only_intra_group: opts.only_intra_group,
        lockstep: opts.warp_sync,
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

/// Longest time the relaxed query of a check, with its refinements and their pinned witness
/// queries, may take before the exact one is asked (each of them also at most this long).
const RELAXED_LIMIT: Duration = Duration::from_secs(5);

/// Time after which no further refinement of a relaxed query starts (the exact query is asked
/// instead): a model that many refinements do not make exact is often one the exact query
/// finds faster. A time, unlike the launch contracts' budgets: it decides only which query
/// answers a check (the relaxation's refinements or the exact query), never the verdict;
/// a count alone (`MAX_REFINEMENTS`) made the overflow tests five times slower with z3.
const REFINE_BUDGET: Duration = Duration::from_secs(2);

/// Most refinements of one relaxed query before the exact query is asked.
const MAX_REFINEMENTS: usize = 16;

/// Relaxed queries that may run into their limit while the exact query then answers, before
/// the kernel's later checks skip the relaxation: z3's eager tactic bit-blasts the whole
/// formula anew for every relaxed query, which on a large script (GPUVerify's `scope` under
/// `--no-overflow`: 64 unrolled invariant checks, each a 5 s time-out in the relaxation and
/// 0.1 s in the exact session) costs more than the products it abstracts.
const RELAXED_TIMEOUTS: u32 = 2;

/// The solver sessions of one kernel: the exact formula, and, where the formula multiplies two
/// symbolic terms, its linear relaxation ([`encode::nonlinear`]), asked first. An
/// unsatisfiable relaxed query settles the check. A satisfiable one is checked against exact
/// arithmetic on its model: a spurious model is excluded by refinement lemmas and the relaxed
/// query asked again (at most [`MAX_REFINEMENTS`] times); an exact model is handed to the
/// exact query as pinned inputs (query `<name>.witness`), whose model gives the witness. Any
/// other answer defers to the exact query. Each process starts at its first query. With
/// `--dump-smt2` the exact query is written either way (with the status its relaxation
/// gave), so the dump holds every exact query.
struct Sessions {
    exact: Session,
    /// The exact formula again, for the pinned witness queries (limited like the relaxation).
    witness: Session,
    relaxed: Option<(Session, encode::nonlinear::Relaxed)>,
    /// [`encode::Encoded::preferred`], for [`Sessions::ask_preferred`].
    preferred: Option<solver::Sexp>,
    /// Whether the last [`Sessions::ask`] looked for a witness under the preferred conditions
    /// (with small launches) and the relaxation had none: asking again with them asserted
    /// would rarely find one.
    preferred_refuted: bool,
    /// With `--explain`: how each query was answered.
    explain: Option<Vec<String>>,
    /// Whether the last relaxed query ran into its limit.
    relaxed_timed_out: bool,
    /// Checks whose relaxed query ran into its limit and whose exact query answered; at
    /// [`RELAXED_TIMEOUTS`] the relaxation is dropped for the kernel's later checks.
    relaxed_timeouts: u32,
    /// Answers asked in advance on several processes ([`prefetch`]), by check index, and
    /// how many each solver gave.
    prefetched: std::collections::HashMap<usize, (Answer, bool)>,
    /// The exact formula, for [`Sessions::fresh_model`].
    script: solver::Script,
    prefetched_by: std::collections::BTreeMap<String, u32>,
}

impl Sessions {
    /// The sessions of `encoded`, the encoding of `kernel`.
    fn new(kernel: &Kernel, encoded: &encode::Encoded, run: &KernelRun, explain: bool) -> Sessions {
        let relaxed = encode::nonlinear::relax(encoded).map(|mut r| {
            let reads = builtins_read(&kernel.body);
            let read = |b: Builtin| reads.contains(&b);
            let [y, z] = [Dim::Y, Dim::Z];
            r.keep_read_dims(
                [read(Builtin::ThreadIdx(y)), read(Builtin::ThreadIdx(z))],
                [read(Builtin::BlockIdx(y)), read(Builtin::BlockIdx(z))],
            );
            let limit = run.timeout().min(RELAXED_LIMIT);
            (run.eager_session(&r.script, limit), r)
        });
        Sessions {
            exact: run.lazy_session(&encoded.script, run.timeout()),
            witness: run.lazy_session(&encoded.script, run.timeout().min(RELAXED_LIMIT)),
            relaxed,
            preferred: encoded.preferred.clone(),
            preferred_refuted: false,
            explain: explain.then(Vec::new),
            relaxed_timed_out: false,
            relaxed_timeouts: 0,
            prefetched: Default::default(),
            script: encoded.script.clone(),
            prefetched_by: Default::default(),
        }
    }

    /// The answer to check `i` of the encoding (one more query of `run`).
    fn ask(&mut self, run: &mut KernelRun, i: usize, check: &encode::Check) -> Result<Answer, Error> {
        self.ask_with(run, i, check, false)
    }

    /// The answer to check `i` with [`encode::Encoded::preferred`] asserted, for a witness in
    /// the preferred launches: `unknown` when there are no preferred conditions. Asked like
    /// [`Sessions::ask`], but never exactly when a relaxation exists (undecided there:
    /// `unknown`), else on the witness session (its shorter limit), and never dumped: an
    /// optional query, whose answer decides nothing but the witness.
    fn ask_preferred(&mut self, run: &mut KernelRun, i: usize, check: &encode::Check) -> Result<Answer, Error> {
        if self.preferred.is_none() {
            return Ok(Answer::Unknown("no preferred launch".into()));
        }
        self.ask_with(run, i, check, true)
    }

    /// Check `i` asked in three steps: the queries (the exact one, and with `prefer` the
    /// preferred conditions asserted in both); the relaxation with its refinement loop
    /// ([`Sessions::ask_relaxed`]); the exact query when the relaxation did not decide.
    fn ask_with(
        &mut self,
        run: &mut KernelRun,
        i: usize,
        check: &encode::Check,
        prefer: bool,
    ) -> Result<Answer, Error> {
        crate::memory::check(|| crate::memory::Activity::Querying)?;
        run.queries += 1;
        self.preferred_refuted = false;
        self.relaxed_timed_out = false;
        if !prefer && let Some((answer, first)) = self.prefetched.remove(&i) {
            self.note(format!(
                "query {}: asked exactly (on one of several processes)",
                check.query.name
            ));
            return self.fresh_model(run, &check.query, answer, first);
        }
        // Copied only to add the preferred conditions: a race query over many access pairs is
        // large.
        let mut exact_query = std::borrow::Cow::Borrowed(&check.query);
        let mut name = check.query.name.clone();
        if prefer {
            exact_query.to_mut().assertions.extend(self.preferred.clone());
            name = format!("{name} (preferred launch)");
        }
        let why = match self.ask_relaxed(run, i, check, &exact_query, &name, prefer)? {
            Ok(answer) => return Ok(answer),
            Err(why) => why,
        };
        if (run.relaxed_only || prefer) && self.relaxed.is_some() {
            self.note(format!("query {name}: undecided ({why}; not asked exactly)"));
            return Ok(Answer::Unknown(format!("{why}; not asked exactly")));
        }
        let answer = if prefer {
            self.witness.check_undumped(&exact_query)?
        } else {
            let answer = self.exact.check(&check.query)?;
            let first = self.exact.last_was_first();
            self.fresh_model(run, &check.query, answer, first)?
        };
        run.note_unreadable(&self.exact);
        if std::mem::take(&mut self.relaxed_timed_out) && matches!(answer, Answer::Sat(_) | Answer::Unsat) {
            self.relaxed_timeouts += 1;
            if self.relaxed_timeouts == RELAXED_TIMEOUTS && self.relaxed.take().is_some() {
                self.note(format!(
                    "the relaxation ran into its limit on {RELAXED_TIMEOUTS} queries the exact \
                     formula answered: the later queries are asked exactly"
                ));
            }
        }
        let by = match (self.exact.is_portfolio(), self.exact.last_answered_by()) {
            (true, Some(by)) => format!(", answered by {by}"),
            _ => String::new(),
        };
        if why.is_empty() {
            self.note(format!("query {name}: asked exactly{by}"));
        } else {
            self.note(format!("query {name}: asked exactly ({why}){by}"));
        }
        Ok(answer)
    }

    /// The relaxation's answer to check `i` (`Ok`), or why it has none (`Err`; empty when
    /// there is no relaxation). Each round asks the relaxed query under the current witness
    /// bounds ([`Tiers`]): `unsat` without bounds settles the check, `unsat` under bounds
    /// moves to the next tier; a model is checked against exact arithmetic
    /// ([`Probe::refine`](encode::nonlinear::Probe::refine)), and its inputs pinned in the
    /// exact query (`exact_query`, plus the preferred conditions while the bounds hold them)
    /// give the witness, else its lemmas refine the relaxation.
    fn ask_relaxed(
        &mut self,
        run: &KernelRun,
        i: usize,
        check: &encode::Check,
        exact_query: &solver::Query,
        name: &str,
        prefer: bool,
    ) -> Result<Result<Answer, String>, Error> {
        let Some((session, relaxed)) = &mut self.relaxed else {
            return Ok(Err(String::new()));
        };
        let plain = &relaxed.probes[i];
        // The probe of a query that asserts the preferred conditions.
        let preferring = relaxed.preferred.as_ref().map(|p| plain.preferring(p));
        let mut query = plain.query(&relaxed.queries[i]);
        if prefer {
            query
                .assertions
                .extend(relaxed.preferred.as_ref().map(|p| p.term.clone()));
        }
        // With preferred conditions not already asserted, each tier of small launches is
        // tried with them first.
        let mut tiers = Tiers {
            preferred: relaxed.preferred.as_ref().filter(|_| !prefer).map(|p| p.term.clone()),
            small: None,
            next: 0,
        };
        let started = std::time::Instant::now();
        for round in 0..=MAX_REFINEMENTS {
            if round > 0 && started.elapsed() >= run.timeout().min(REFINE_BUDGET) {
                return Ok(Err(format!("the relaxation's time ran out after {round} refinements")));
            }
            // The probe of the query as asked now.
            let probe = match &preferring {
                Some(p) if prefer || tiers.with_preferred() => p,
                _ => plain,
            };
            query.get_values = probe.get_values();
            let answer = if round == 0 && !prefer {
                session.check(&query)?
            } else {
                session.check_undumped(&query)?
            };
            match answer {
                Answer::Unsat if tiers.small.is_some() => {
                    // No witness within these bounds: the next tier's, or none; the lemmas stay.
                    self.preferred_refuted |= tiers.with_preferred();
                    tiers.advance(plain, &mut query);
                }
                Answer::Unsat => {
                    if !prefer {
                        self.exact.record(&check.query, &Answer::Unsat)?;
                    }
                    self.note(format!(
                        "query {name}: unsat in the relaxation after {round} refinements"
                    ));
                    return Ok(Ok(Answer::Unsat));
                }
                Answer::Sat(_) if round == MAX_REFINEMENTS => {
                    return Ok(Err(format!(
                        "no exact model of the relaxation after {round} refinements"
                    )));
                }
                Answer::Sat(values) => {
                    let (lemmas, pins, exact) = match probe.refine(&values) {
                        Refinement::Lemmas(lemmas, pins) => (lemmas, pins, false),
                        Refinement::Exact(pins) => (Vec::new(), pins, true),
                    };
                    // The exact query under the model's inputs (all of them for an exact
                    // model, the uniform ones for a spurious one): its model is the witness.
                    let mut witness = exact_query.clone();
                    witness.name = format!("{}.witness", check.query.name);
                    witness.assertions.extend(pins);
                    if tiers.with_preferred() {
                        witness.assertions.extend(self.preferred.clone());
                    }
                    let answer = self.witness.check_undumped(&witness)?;
                    if let Answer::Sat(_) = answer {
                        if !prefer {
                            self.exact.record(&check.query, &answer)?;
                        }
                        let how = if exact {
                            "an exact model"
                        } else {
                            "the launch of a model"
                        };
                        self.note(format!(
                            "query {name}: sat, {how} of the relaxation after {round} refinements"
                        ));
                        return Ok(Ok(answer));
                    }
                    if exact {
                        return Ok(Err(format!("the model of the relaxation, pinned, answered {answer:?}")));
                    }
                    tiers.refine(plain, &mut query, lemmas);
                }
                other => {
                    self.relaxed_timed_out = other == Answer::Timeout;
                    return Ok(Err(format!(
                        "the relaxation answered {other:?} after {round} refinements"
                    )));
                }
            }
        }
        Ok(Err(format!(
            "no exact model of the relaxation after {MAX_REFINEMENTS} refinements"
        )))
    }

    /// For a `sat` answer of the exact formula, the model of `query` asked again of a fresh
    /// solver process that holds the script and nothing else, which does not depend on the
    /// queries a session answered before: so the witness is the same whether the queries were
    /// asked one after another or on several processes (`--jobs`). The answer itself when it
    /// is not `sat`, when it was its session's `first` (a fresh process would be sent the same
    /// commands), or when the fresh process gives no model in time. Errors: the solver cannot
    /// start.
    fn fresh_model(
        &mut self,
        run: &KernelRun,
        query: &solver::Query,
        answer: Answer,
        first: bool,
    ) -> Result<Answer, Error> {
        if first || !matches!(answer, Answer::Sat(_)) {
            return Ok(answer);
        }
        // The exact session's options (its limit is also the solver's own soft timeout), so
        // that the commands are those of a first query.
        let opts = solver::SessionOptions {
            dump_dir: None,
            ..run.session_options(run.timeout())
        };
        let mut fresh = Session::portfolio(&run.options().solvers(), &self.script, opts);
        Ok(match fresh.check_undumped(query)? {
            model @ Answer::Sat(_) => model,
            _ => answer,
        })
    }

    /// How many queries each solver answered, over the sessions.
    fn answered_by(&self) -> std::collections::BTreeMap<String, u32> {
        let mut all = self.prefetched_by.clone();
        let sessions = [
            Some(&self.exact),
            Some(&self.witness),
            self.relaxed.as_ref().map(|(s, _)| s),
        ];
        for s in sessions.into_iter().flatten() {
            for (name, n) in s.answered_by() {
                *all.entry(name.clone()).or_insert(0) += n;
            }
        }
        all
    }

    fn note(&mut self, line: String) {
        if let Some(lines) = &mut self.explain {
            lines.push(line);
        }
    }
}

/// The bounds of the witness search a relaxed query asserts last
/// ([`Probe::small`](encode::nonlinear::Probe::small): tier 0 a small 1-D launch, tier 1 a
/// small launch); with preferred conditions each tier is tried with them first (tiers 0 and
/// 2 assert them, 1 and 3 do not).
struct Tiers {
    /// The relaxed preferred conditions, when the search prefers them.
    preferred: Option<solver::Sexp>,
    /// The bounds asserted now, if any.
    small: Option<Vec<solver::Sexp>>,
    /// The tier that comes next.
    next: usize,
}

impl Tiers {
    /// The bounds of `tier`, `None` past the last.
    fn bounds(&self, probe: &encode::nonlinear::Probe, tier: usize) -> Option<Vec<solver::Sexp>> {
        match &self.preferred {
            None => probe.small(tier),
            Some(p) => probe.small(tier / 2).map(|mut b| {
                if tier.is_multiple_of(2) {
                    b.push(p.clone());
                }
                b
            }),
        }
    }

    /// Whether the bounds asserted now include the preferred conditions.
    fn with_preferred(&self) -> bool {
        self.preferred.is_some() && self.small.is_some() && self.next % 2 == 1
    }

    /// Removes the bounds asserted now from the end of `query`, returning them.
    fn take(&mut self, query: &mut solver::Query) -> Vec<solver::Sexp> {
        let bounds = self.small.take().unwrap_or_default();
        query.assertions.truncate(query.assertions.len() - bounds.len());
        bounds
    }

    /// Asserts the bounds of `tier` (none past the last).
    fn assert(&mut self, probe: &encode::nonlinear::Probe, query: &mut solver::Query, tier: usize) {
        if let Some(next) = self.bounds(probe, tier) {
            query.assertions.extend(next.iter().cloned());
            self.small = Some(next);
            self.next = tier + 1;
        }
    }

    /// After `unsat` under the bounds: the next tier's bounds instead, or none.
    fn advance(&mut self, probe: &encode::nonlinear::Probe, query: &mut solver::Query) {
        self.take(query);
        self.assert(probe, query, self.next);
    }

    /// After a spurious model: its `lemmas`, then the same bounds again (the bounds stay
    /// last), or, after the first one, the first tier's.
    fn refine(&mut self, probe: &encode::nonlinear::Probe, query: &mut solver::Query, lemmas: Vec<solver::Sexp>) {
        let bounds = self.take(query);
        query.assertions.extend(lemmas);
        if bounds.is_empty() && self.next == 0 {
            // Look for a witness among small launches first.
            self.assert(probe, query, 0);
        } else if !bounds.is_empty() {
            query.assertions.extend(bounds.iter().cloned());
            self.small = Some(bounds);
        }
    }
}
