//! `gpug` (the default command): data races and barrier divergence in the pair model (PUG (Li and
//! Gopalakrishnan, FSE 2010); ARCHITECTURE.md "Thread models", "Properties as queries", "Loops").
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
use super::refinement::Sessions;
use crate::encode::{self, Finding};
use crate::ir::{Kernel, Program, Span, VarId};
use crate::passes::{self, LoopTreatment, Prepared};
use crate::solver::{self, Answer};
use crate::verdict::{FileResult, FindingKind, KernelResult, Stage, Verdict};

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
    /// `--race-encoding pairwise` ([`encode::EncodeOptions::pairwise_races`]).
    pub pairwise_races: bool,
    /// `--race-pairs N`: how many racing pairs of source locations a race check lists (1 to 8).
    pub race_pairs: usize,
    /// `--stage`: which properties are asked (Chong et al. (OOPSLA 2013) §3.3, staged
    /// verification).
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

    fn undecided(&self, r: &KernelResult) -> bool {
        r.verdict == crate::verdict::Verdict::Inconclusive
    }

    fn verified(&self, r: &KernelResult) -> bool {
        r.verdict == crate::verdict::Verdict::Verified
    }

    fn note(&self, r: &mut KernelResult, note: String) {
        r.notes.push(note);
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
    // The checks the launch contracts skip are this verification's refuted ones only.
    run.refuted.clear();
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
        refuted: Default::default(),
    };
    let mut result = verify_under(k, opts, run, &launch)?;
    if !opts.strict {
        let started = std::time::Instant::now();
        super::contracts::apply(k, opts, run, &mut result)?;
        run.profile.contracts += started.elapsed();
    }
    if run.options().profile {
        result.profile = Some(run.profile.clone());
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
    scope_notes(opts, &mut notes);
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
    assumption_notes(opts, &c.frontend.assumptions, &mut notes);
    let mut findings: Vec<Finding> = Vec::new();
    // The arrays whose racing pairs may not all be listed ([`KernelResult::unlisted_pairs`]).
    let mut unlisted_pairs: Vec<String> = Vec::new();
    let mut benign: Vec<Finding> = Vec::new();
    // The checks asked, in order: a harmful-race check is asked through the race check before
    // it.
    let asked = |check: &encode::Check| asks(opts, launch, &kernel, check);
    // Per query name, whether every check of that name was asked and refuted so far.
    let mut refuted: std::collections::BTreeMap<&str, bool> = Default::default();
    prefetch(&encoded, run, &mut sessions, &asked)?;
    let mut found = Found::default();
    // A check left undecided from here ends a verification whose caller discards an undecided
    // result ([`KernelRun::stop_when_undecided`]).
    let undecided_before = run.inconclusive.len();
    let stopped = |run: &KernelRun| run.stop_when_undecided && run.inconclusive.len() > undecided_before;
    for (i, check) in encoded.checks.iter().enumerate() {
        if !asked(check) {
            continue;
        }
        if stopped(run) {
            break;
        }
        if found.settles(check) {
            refuted.insert(&check.query.name, false);
            continue;
        }
        let answer = sessions.ask(run, i, check)?;
        let reply = run.reply(&check.query.name, answer);
        let was = refuted.entry(&check.query.name).or_insert(true);
        *was &= reply == Reply::Unsat;
        let Reply::Sat(values) = reply else {
            continue;
        };
        if let encode::Property::FlagWriters { array } = check.property {
            run.inconclusive.push(format!(
                "message passing through `{}` needs each of its words written at most once, and two writes may store to one: the races its spin-waits were taken to order are not decided",
                kernel.array(array).name
            ));
            continue;
        }
        let mut f = check.finding(&kernel, &values);
        found.record(check, &f);
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
        let (more, every) = match f.possible || opts.race_pairs < 2 {
            false => more_racing_pairs(
                &kernel,
                &encoded.checks,
                i,
                &f,
                opts.race_pairs,
                &mut sessions,
                run,
                &mut notes,
            )?,
            true => (Vec::new(), false),
        };
        if let (FindingKind::Race { .. }, Some(array), false) = (f.kind, &f.array, every)
            && !unlisted_pairs.contains(array)
        {
            unlisted_pairs.push(array.clone());
        }
        for f in std::iter::once(f).chain(more) {
            if !findings.contains(&f) {
                findings.push(f);
            }
        }
    }
    run.refuted.extend(
        refuted
            .into_iter()
            .filter(|(_, all)| *all)
            .map(|(name, _)| name.to_string()),
    );
    if findings.iter().any(|f| f.possible) && !stopped(run) {
        confirm_by_replay(k, opts, launch, run, &mut findings, &mut notes)?;
    }
    run.unchecked(k);
    Ok(KernelResult {
        name: k.name.clone(),
        verdict: Verdict::of(!findings.is_empty(), !run.inconclusive.is_empty()),
        findings,
        unlisted_pairs,
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
        profile: None,
    })
}

/// What the checks asked so far found, for the checks that need not be asked after it: the
/// other cases of a split check once one case fails, and a barrier's other copies (one per
/// iteration of an unrolled loop around it, each its own check of the same name) once one is
/// found divergent, unless they could give an exact finding where a possible one was found.
/// One finding is reported per split property and per barrier.
#[derive(Default)]
struct Found<'c> {
    /// The split properties (the index of their first case) a case found failing.
    failed_splits: Vec<usize>,
    /// The barriers found divergent, by query name, and whether by an exact finding.
    diverged: std::collections::BTreeMap<&'c str, bool>,
}

impl<'c> Found<'c> {
    /// Whether what was found already settles `check`, which is then not asked.
    fn settles(&self, check: &encode::Check) -> bool {
        check.split.is_some_and(|s| self.failed_splits.contains(&s))
            || (matches!(check.property, encode::Property::Divergence { .. })
                && self
                    .diverged
                    .get(check.query.name.as_str())
                    .is_some_and(|exact| *exact || check.possible))
    }

    /// Records `f`, the finding of `check`.
    fn record(&mut self, check: &'c encode::Check, f: &Finding) {
        self.failed_splits.extend(check.split);
        if let encode::Property::Divergence { .. } = check.property {
            *self.diverged.entry(&check.query.name).or_default() |= !f.possible;
        }
    }
}

/// The notes of the assumptions the verdict rests on: each `--assume`, and `--no-overflow`
/// (with `--check-overflow`, that it then checks nothing).
fn assumption_notes(opts: &VerifyOptions, assumptions: &[String], notes: &mut Vec<String>) {
    for e in assumptions {
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
}

/// The notes of the options that narrow what is checked: `--only-intra-group` and `--stage`.
fn scope_notes(opts: &VerifyOptions, notes: &mut Vec<String>) {
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
            "--stage functional: races are not checked; assertions, postconditions and invariants are verified assuming the kernel race-free, as --stage races must establish (Chong et al., OOPSLA 2013, section 3.3, staged verification)".into(),
        ),
    }
}

/// Whether [`verify_under`] asks `check` of `kernel` itself: not a closed form's or a
/// harmful-race check (asked through others), only the properties `--only-divergence` and
/// `--stage` keep, those `launch` asks, and not one a verification under the same prepared
/// kernel refuted ([`Launch::refuted`]).
fn asks(opts: &VerifyOptions, launch: &Launch, kernel: &Kernel, check: &encode::Check) -> bool {
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
        && launch.asks(kernel, &check.property)
        && !launch.refuted.contains(&check.query.name)
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
        .map(|(i, a)| (i, (a.answer, a.first, a.took)))
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

/// The most racing pairs of source locations listed per race check (issue 53, item 5).
const PAIRS_PER_ARRAY: usize = 8;

/// The racing pairs of race check `i` besides `first`'s (its finding), each of other source
/// locations than those before it and with its own witness, up to [`PAIRS_PER_ARRAY`] in all:
/// its harmful variant's query when it has one (benign pairs are not defects), else its own,
/// asked again with the pairs found excluded ([`encode::Check::excluding`]) until it is not
/// `sat`. With a note when the limit leaves pairs out. Nothing for a check without linear
/// sides or a possible finding (whose witness a replay must confirm). Also whether every
/// racing pair of the check is listed: its last query answered `unsat`. Errors: the solver
/// cannot start.
#[allow(clippy::too_many_arguments)]
fn more_racing_pairs(
    kernel: &Kernel,
    checks: &[encode::Check],
    i: usize,
    first: &Finding,
    limit: usize,
    sessions: &mut Sessions,
    run: &mut KernelRun,
    notes: &mut Vec<String>,
) -> Result<(Vec<Finding>, bool), Error> {
    let at = match checks.get(i + 1) {
        Some(next) if matches!(next.property, encode::Property::HarmfulRace { .. }) => i + 1,
        _ => i,
    };
    let check = &checks[at];
    let (encode::Property::Race { .. } | encode::Property::HarmfulRace { .. }) = check.property else {
        return Ok((Vec::new(), false));
    };
    let pair = |f: &Finding| match f.accesses.as_slice() {
        [a, b] => Some((a.span.clone(), b.span.clone())),
        _ => None,
    };
    let Some(p) = pair(first) else {
        return Ok((Vec::new(), false));
    };
    let mut found = vec![p];
    let mut more = Vec::new();
    while let Some(query) = check.excluding(&found) {
        let answer = sessions.ask_more(run, at, check, &query)?;
        let Answer::Sat(values) = answer else {
            return Ok((more, answer == Answer::Unsat));
        };
        if found.len() >= limit.min(PAIRS_PER_ARRAY) {
            notes.push(format!(
                "more racing pairs on `{}` than the {} listed",
                first.array.as_deref().unwrap_or("?"),
                found.len()
            ));
            break;
        }
        let f = check.finding(kernel, &values);
        let Some(p) = pair(&f) else { break };
        if found.contains(&p) {
            break;
        }
        found.push(p);
        more.push(f);
    }
    Ok((more, false))
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
        let started = std::time::Instant::now();
        let encoded = encode::encode_with(&kernel, &launch.geometry, &pair_options(opts, launch));
        run.profile.encoding += started.elapsed();
        let encoded = encoded?;
        run.show_ssa(&kernel.name, "pair", &encoded.script);
        run.show_queries(
            &kernel.name,
            encoded.checks.iter().map(|c| (c.property.describe(&kernel), &c.query)),
        );
        let mut sessions = Sessions::new(&kernel, &encoded, run, opts.explain);
        let mut rejected: Vec<(Span, VarId)> = Vec::new();
        let mut accepted: Vec<&str> = Vec::new();
        for (i, check) in encoded.checks.iter().enumerate() {
            let encode::Property::ClosedForm { loop_span, var } = &check.property else {
                continue;
            };
            // Accepted by the kernel's own verification, whose prepared kernel this
            // re-verification shares: more assumptions keep its step check unsatisfiable.
            if launch.refuted.contains(&check.query.name) {
                continue;
            }
            match sessions.ask(run, i, check)? {
                Answer::Unsat => accepted.push(&check.query.name),
                _ => rejected.push((loop_span.clone(), *var)),
            }
        }
        if rejected.is_empty() {
            run.refuted.extend(accepted.into_iter().map(str::to_string));
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
        let started = std::time::Instant::now();
        let encoded = encode::encode_with(&prepared.kernel, &geometry, &pair_options(opts, launch));
        run.profile.encoding += started.elapsed();
        let encoded = encoded?;
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
        pairwise_races: opts.pairwise_races,
        ..Default::default()
    }
}

fn dim_index(d: &str) -> usize {
    match d {
        "x" => 0,
        "y" => 1,
        _ => 2,
    }
}
