//! A portfolio of solvers (issue 15): each check is raced by one session per solver, on
//! threads of the standard library, and decided as soon as the answers allow.
//!
//! - A definitive answer (`sat` with a model the session read and checked, see
//!   [`Answer::InvalidModel`], or `unsat`) stands when a second solver gives the same one,
//!   when every other solver has finished without a definitive answer, or when no other
//!   solver has answered within the confirmation window ([`confirmation_window`]: three times
//!   what the first took, at least [`MIN_CONFIRMATION`]) after it: a single solver is then
//!   trusted, as it is without a portfolio. Waiting for a second answer is what lets a
//!   portfolio catch a solver that answers wrongly while an honest one is not much slower:
//!   racing for the first answer alone would trust the fastest liar; waiting for every solver
//!   would make each answer as slow as the slowest solver.
//! - `sat` from one solver and `unsat` from another is a [`Answer::Disagreement`]: neither is
//!   trusted, and the verdict becomes inconclusive.
//!
//! The members still running when the check is decided are killed with their children (their
//! sessions restart them at the next check), so no process outlives the decision.

use super::{Answer, Query, Session, process};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Races `query` on `members` (at least two); the answer and the name of the solver it comes
/// from (`None` when no solver answered definitively).
pub(super) fn race(members: &mut [Session], query: &Query) -> (Answer, Option<String>) {
    let names: Vec<String> = members.iter().map(|m| m.spec.name.clone()).collect();
    let controls: Vec<_> = members
        .iter()
        .map(|m| (std::sync::Arc::clone(&m.running), std::sync::Arc::clone(&m.cancelled)))
        .collect();
    let n = members.len();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        for (i, m) in members.iter_mut().enumerate() {
            let tx = tx.clone();
            scope.spawn(move || {
                let answer = m.check_one(query).unwrap_or_else(|e| Answer::Failed(e.to_string()));
                let _ = tx.send((i, answer));
            });
        }
        drop(tx);
        let mut answers: Vec<Option<Answer>> = vec![None; n];
        let mut decided: Option<(Answer, Option<String>)> = None;
        let started = Instant::now();
        // Until when a lone definitive answer waits for a second opinion.
        let mut confirm_by: Option<Instant> = None;
        let mut cancelled_all = false;
        loop {
            let received = match (decided.is_some(), confirm_by) {
                (false, Some(t)) => rx.recv_timeout(t.saturating_duration_since(Instant::now())),
                _ => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            };
            match received {
                Ok((i, answer)) => {
                    if confirm_by.is_none() && matches!(answer, Answer::Sat(_) | Answer::Unsat) {
                        confirm_by = Some(Instant::now() + confirmation_window(started.elapsed()));
                    }
                    answers[i] = Some(answer);
                    if decided.is_none() {
                        decided = decide(&answers, &names);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    // No second opinion in time: the lone answer stands.
                    decided = lone(&answers, &names);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if decided.is_some() && !cancelled_all {
                cancelled_all = true;
                // Stop the others: their answers are not needed.
                for (j, (running, cancelled)) in controls.iter().enumerate() {
                    if answers[j].is_none() {
                        cancelled.store(true, Ordering::Release);
                        let pid = running.load(Ordering::Acquire);
                        if pid != 0 {
                            process::kill_tree(pid);
                        }
                    }
                }
            }
        }
        decided.unwrap_or_else(|| (undecided(answers), None))
    })
}

/// The least time a lone definitive answer waits for a second opinion: a solver that answers at once
/// (or lies at once) must not beat an honest one that is still starting and reading the
/// script, also on a loaded machine.
const MIN_CONFIRMATION: Duration = Duration::from_secs(5);

/// How long a lone definitive answer, given `first` after the query was sent, waits for a second
/// solver's answer: three times `first`, at least [`MIN_CONFIRMATION`].
fn confirmation_window(first: Duration) -> Duration {
    (first * 3).max(MIN_CONFIRMATION)
}

/// The decision the answers so far allow, if any (module documentation).
fn decide(answers: &[Option<Answer>], names: &[String]) -> Option<(Answer, Option<String>)> {
    let of = |sat: bool| -> Vec<usize> {
        (0..answers.len())
            .filter(|&i| match &answers[i] {
                Some(Answer::Sat(_)) => sat,
                Some(Answer::Unsat) => !sat,
                _ => false,
            })
            .collect()
    };
    let (sat, unsat) = (of(true), of(false));
    if let (Some(&s), Some(&u)) = (sat.first(), unsat.first()) {
        let disagreement = Answer::Disagreement {
            sat: names[s].clone(),
            unsat: names[u].clone(),
            file: None,
        };
        return Some((disagreement, None));
    }
    let finished = answers.iter().all(Option::is_some);
    let agreed = match (sat.as_slice(), unsat.as_slice()) {
        ([a, b, ..], _) | (_, [a, b, ..]) => Some(format!("{}+{}", names[*a], names[*b])),
        ([a], _) | (_, [a]) if finished => Some(names[*a].clone()),
        _ => None,
    }?;
    let first = sat.first().or(unsat.first())?;
    answers[*first].clone().map(|a| (a, Some(agreed)))
}

/// The lone definitive answer when its confirmation window passed (module documentation).
fn lone(answers: &[Option<Answer>], names: &[String]) -> Option<(Answer, Option<String>)> {
    let i = answers
        .iter()
        .position(|a| matches!(a, Some(Answer::Sat(_) | Answer::Unsat)))?;
    answers[i].clone().map(|a| (a, Some(names[i].clone())))
}

/// The answer of a check no solver decided: a timeout if one ran out of time, else the first
/// solver's answer (an `unknown` with its reason, a failure).
fn undecided(answers: Vec<Option<Answer>>) -> Answer {
    let answers: Vec<Answer> = answers.into_iter().flatten().collect();
    if answers.iter().any(|a| matches!(a, Answer::Timeout)) {
        return Answer::Timeout;
    }
    answers
        .into_iter()
        .next()
        .unwrap_or_else(|| Answer::Failed("no solver in the portfolio".into()))
}
