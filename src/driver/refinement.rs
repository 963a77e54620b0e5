//! The refinement loop of a kernel's queries (`gpug verify`): its solver [`Sessions`], the
//! exact formula and, where the formula multiplies two symbolic terms, its linear relaxation
//! ([`encode::nonlinear`]), asked first and refined with lemmas until its model is exact or the
//! exact query decides; the witness queries pinned to a relaxed model, the preferred
//! conditions of launch contracts, and the answers prefetched on several processes.
//!
//! Must not: print, build SMT terms (the encoder's job), or talk to a solver other than through
//! the pipeline's [`KernelRun`].

use super::Error;
use super::pipeline::KernelRun;
use crate::encode;
use crate::encode::nonlinear::Refinement;
use crate::ir::query::builtins_read;
use crate::ir::{Builtin, Dim, Kernel};
use crate::solver::{self, Answer, Session};
use std::time::Duration;

/// Longest time the relaxed query of a check, with its refinements and their pinned witness
/// queries, may take before the exact one is asked (each of them also at most this long).
const RELAXED_LIMIT: Duration = Duration::from_secs(5);

/// Most refinements of one relaxed query before the exact query is asked: a count, never a
/// clock (issue 53 item 3), since which query answers a check (the relaxation's refinements
/// or the exact query) decides which model the witness is read from, and so the report.
const MAX_REFINEMENTS: usize = 8;

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
pub(super) struct Sessions {
    pub(super) exact: Session,
    /// The exact formula again, for the pinned witness queries (limited like the relaxation).
    pub(super) witness: Session,
    pub(super) relaxed: Option<(Session, encode::nonlinear::Relaxed)>,
    /// [`encode::Encoded::preferred`], for [`Sessions::ask_preferred`].
    pub(super) preferred: Option<solver::Sexp>,
    /// Whether the last [`Sessions::ask`] looked for a witness under the preferred conditions
    /// (with small launches) and the relaxation had none: asking again with them asserted
    /// would rarely find one.
    pub(super) preferred_refuted: bool,
    /// With `--explain`: how each query was answered.
    pub(super) explain: Option<Vec<String>>,
    /// Whether the last relaxed query ran into its limit.
    pub(super) relaxed_timed_out: bool,
    /// Checks whose relaxed query ran into its limit and whose exact query answered; at
    /// [`RELAXED_TIMEOUTS`] the relaxation is dropped for the kernel's later checks.
    pub(super) relaxed_timeouts: u32,
    /// Answers asked in advance on several processes ([`prefetch`]), by check index, and
    /// how many each solver gave.
    pub(super) prefetched: std::collections::HashMap<usize, (Answer, bool, std::time::Duration)>,
    /// The exact formula, for [`Sessions::fresh_model`].
    pub(super) script: std::sync::Arc<solver::Script>,
    pub(super) prefetched_by: std::collections::BTreeMap<String, u32>,
    /// The time a prefetched answer took on its process, for the profile of the check that
    /// takes it ([`Sessions::ask_with`]).
    prefetched_took: Option<std::time::Duration>,
}

/// What [`Sessions::ask_relaxed`] is asked for.
#[derive(Clone, Copy, Debug)]
pub(super) enum Asking<'a> {
    /// The check's own answer: recorded and dumped.
    Own,
    /// A witness in the preferred launches ([`encode::Encoded::preferred`] asserted).
    Preferred,
    /// Another racing pair: these assertions (over the selectors only) added to both the
    /// relaxed and the exact query.
    /// With `prefer`, in the preferred launches as [`Asking::Preferred`].
    Excluding(&'a [solver::Sexp], bool),
}

impl Sessions {
    /// The sessions of `encoded`, the encoding of `kernel`.
    pub(super) fn new(kernel: &Kernel, encoded: &encode::Encoded, run: &KernelRun, explain: bool) -> Sessions {
        let relaxed = encode::nonlinear::relax(encoded).map(|mut r| {
            let reads = builtins_read(&kernel.body);
            let read = |b: Builtin| reads.contains(&b);
            let [y, z] = [Dim::Y, Dim::Z];
            r.keep_read_dims(
                [read(Builtin::ThreadIdx(y)), read(Builtin::ThreadIdx(z))],
                [read(Builtin::BlockIdx(y)), read(Builtin::BlockIdx(z))],
            );
            let limit = run.timeout().min(RELAXED_LIMIT);
            (run.eager_session(&r.script, limit, r.chained), r)
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
            prefetched_took: None,
        }
    }

    /// The answer to check `i` of the encoding (one more query of `run`).
    pub(super) fn ask(&mut self, run: &mut KernelRun, i: usize, check: &encode::Check) -> Result<Answer, Error> {
        self.ask_with(run, i, check, false)
    }

    /// The answer to `query`, race check `i`'s query with the pairs already found excluded
    /// ([`encode::Check::excluding`]): one more query of `run`, never dumped nor recorded,
    /// since it decides nothing but whether the report lists one more racing pair. Through
    /// the relaxation when the kernel has one (the exclusions added to its query), else asked
    /// exactly on the check's own session.
    pub(super) fn ask_more(
        &mut self,
        run: &mut KernelRun,
        i: usize,
        check: &encode::Check,
        query: &solver::Query,
    ) -> Result<Answer, Error> {
        // First in the preferred launches, as the check's own witness was sought
        // (`verify::prefer_witness`), so that a pair needs no launch contract when it can.
        if let Some(preferred) = self.preferred.clone() {
            let mut with = query.clone();
            with.assertions.push(preferred);
            let answer = self.ask_more_once(run, i, check, &with, query.assertions.len(), true)?;
            if let Answer::Sat(_) = answer {
                return Ok(answer);
            }
        }
        self.ask_more_once(run, i, check, query, query.assertions.len(), false)
    }

    /// [`Sessions::ask_more`]'s query `query`, whose assertions after the check's own up to
    /// `end` are the exclusions, with the preferred conditions after them when `prefer`.
    fn ask_more_once(
        &mut self,
        run: &mut KernelRun,
        i: usize,
        check: &encode::Check,
        query: &solver::Query,
        end: usize,
        prefer: bool,
    ) -> Result<Answer, Error> {
        crate::memory::check(|| crate::memory::Activity::Querying)?;
        run.queries += 1;
        let started = std::time::Instant::now();
        // The exclusions: over the selectors only, so the relaxation takes them as they are.
        let extra = &query.assertions[check.query.assertions.len().min(end)..end];
        let answer = if self.relaxed.is_some() {
            match self.ask_relaxed(i, check, query, &query.name, Asking::Excluding(extra, prefer))? {
                Ok(answer) => answer,
                // Undecided by the relaxation: asked exactly, as a check's own query is
                // (`ask_timed`), but for the preferred launches (only a better witness).
                Err(why) if prefer || run.relaxed_only => Answer::Unknown(why),
                Err(why) => {
                    let answer = self.exact.check_undumped(query)?;
                    self.note(format!(
                        "query {}: asked exactly ({why}), for another racing pair",
                        query.name
                    ));
                    answer
                }
            }
        } else {
            let answer = self.exact.check_undumped(query)?;
            self.note(format!("query {}: asked exactly, for another racing pair", query.name));
            answer
        };
        run.asked(&query.name, started, &answer);
        Ok(answer)
    }

    /// The answer to check `i` with [`encode::Encoded::preferred`] asserted, for a witness in
    /// the preferred launches: `unknown` when there are no preferred conditions. Asked like
    /// [`Sessions::ask`], but never exactly when a relaxation exists (undecided there:
    /// `unknown`), else on the witness session (its shorter limit), and never dumped: an
    /// optional query, whose answer decides nothing but the witness.
    pub(super) fn ask_preferred(
        &mut self,
        run: &mut KernelRun,
        i: usize,
        check: &encode::Check,
    ) -> Result<Answer, Error> {
        if self.preferred.is_none() {
            return Ok(Answer::Unknown("no preferred launch".into()));
        }
        self.ask_with(run, i, check, true)
    }

    /// Check `i` asked in three steps: the queries (the exact one, and with `prefer` the
    /// preferred conditions asserted in both); the relaxation with its refinement loop
    /// ([`Sessions::ask_relaxed`]); the exact query when the relaxation did not decide.
    pub(super) fn ask_with(
        &mut self,
        run: &mut KernelRun,
        i: usize,
        check: &encode::Check,
        prefer: bool,
    ) -> Result<Answer, Error> {
        let started = std::time::Instant::now();
        self.prefetched_took = None;
        let answer = self.ask_timed(run, i, check, prefer)?;
        let name = match prefer {
            true => format!("{} (preferred launch)", check.query.name),
            false => check.query.name.clone(),
        };
        let took = started.elapsed() + self.prefetched_took.take().unwrap_or_default();
        run.took(&name, took, &answer);
        Ok(answer)
    }

    /// [`Sessions::ask_with`] before its time is recorded.
    fn ask_timed(
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
        if !prefer && let Some((answer, first, took)) = self.prefetched.remove(&i) {
            self.prefetched_took = Some(took);
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
        let asking = if prefer { Asking::Preferred } else { Asking::Own };
        let why = match self.ask_relaxed(i, check, &exact_query, &name, asking)? {
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
    pub(super) fn ask_relaxed(
        &mut self,
        i: usize,
        check: &encode::Check,
        exact_query: &solver::Query,
        name: &str,
        asking: Asking<'_>,
    ) -> Result<Result<Answer, String>, Error> {
        let (prefer, extra) = match asking {
            Asking::Own => (false, &[][..]),
            Asking::Preferred => (true, &[][..]),
            Asking::Excluding(extra, prefer) => (prefer, extra),
        };
        // Asked for the check's own answer: recorded and dumped.
        let own = matches!(asking, Asking::Own);
        let Some((session, relaxed)) = &mut self.relaxed else {
            return Ok(Err(String::new()));
        };
        let plain = &relaxed.probes[i];
        // The probe of a query that asserts the preferred conditions.
        let preferring = relaxed.preferred.as_ref().map(|p| plain.preferring(p));
        let mut query = plain.query(&relaxed.queries[i]);
        query.assertions.extend(extra.iter().cloned());
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
        for round in 0..=MAX_REFINEMENTS {
            // The probe of the query as asked now.
            let probe = match &preferring {
                Some(p) if prefer || tiers.with_preferred() => p,
                _ => plain,
            };
            query.get_values = probe.get_values();
            let answer = if round == 0 && own {
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
                    if own {
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
                        if own {
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
                    // A pinned witness query that runs into its limit: the exact formula
                    // under one spurious model's launch is hard, and the next refinement's
                    // launch is as likely to be (llm.c's softmax_autoregressive_backward_kernel1:
                    // seven 5 s time-outs in a row, where the exact query answered `sat` in
                    // 0.1 s). The exact query is asked at once.
                    if answer == Answer::Timeout {
                        return Ok(Err(format!(
                            "the exact query under a model's launch ran out of time after {round} refinements"
                        )));
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
    pub(super) fn fresh_model(
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
    pub(super) fn answered_by(&self) -> std::collections::BTreeMap<String, u32> {
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

    pub(super) fn note(&mut self, line: String) {
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
