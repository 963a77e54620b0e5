//! A portfolio of solvers (issue 15): each check is raced by one session per solver, on
//! threads of the standard library, and decided as soon as the answers allow.
//!
//! - `sat` (with a model the session read and checked, see [`Answer::InvalidModel`]) decides
//!   at once: a witness is checked against the query, and a wrong one can only be a false
//!   alarm, never hide a defect.
//! - `unsat` decides when a second solver also answers `unsat`, when every other solver has
//!   finished without a definitive answer, or when no other solver has answered within the
//!   confirmation window ([`confirmation_window`]: three times what the first took, at least
//!   one second) after it (a single solver is trusted, as it is without a portfolio). Waiting
//!   for a second answer is what lets a portfolio catch a solver that answers `unsat` wrongly
//!   while an honest one is not much slower: racing for the first answer alone would trust the
//!   fastest liar; waiting for every solver would make each `unsat` as slow as the slowest.
//! - `sat` from one solver and `unsat` from another is a [`Answer::Disagreement`]: neither is
//!   trusted, and the verdict becomes inconclusive.
//!
//! The members still running when the check is decided are killed (their sessions restart them
//! at the next check), so no process outlives the decision.

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
        // Until when a lone `unsat` waits for a second opinion.
        let mut confirm_by: Option<Instant> = None;
        let mut cancelled_all = false;
        loop {
            let received = match (decided.is_some(), confirm_by) {
                (false, Some(t)) => rx.recv_timeout(t.saturating_duration_since(Instant::now())),
                _ => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            };
            match received {
                Ok((i, answer)) => {
                    if confirm_by.is_none() && matches!(answer, Answer::Unsat) {
                        confirm_by = Some(Instant::now() + confirmation_window(started.elapsed()));
                    }
                    answers[i] = Some(answer);
                    if decided.is_none() {
                        decided = decide(&answers, &names);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    // No second opinion in time: the lone `unsat` stands.
                    let u = answers.iter().position(|a| matches!(a, Some(Answer::Unsat)));
                    decided = u.map(|u| (Answer::Unsat, Some(names[u].clone())));
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

/// How long a lone `unsat`, answered `first` after the query was sent, waits for a second
/// solver's answer: three times `first`, at least one second.
fn confirmation_window(first: Duration) -> Duration {
    (first * 3).max(Duration::from_secs(1))
}

/// The decision the answers so far allow, if any (module documentation).
fn decide(answers: &[Option<Answer>], names: &[String]) -> Option<(Answer, Option<String>)> {
    let sat = answers.iter().position(|a| matches!(a, Some(Answer::Sat(_))));
    let unsat: Vec<usize> = (0..answers.len())
        .filter(|&i| matches!(answers[i], Some(Answer::Unsat)))
        .collect();
    if let (Some(s), Some(&u)) = (sat, unsat.first()) {
        return Some((
            Answer::Disagreement {
                sat: names[s].clone(),
                unsat: names[u].clone(),
                file: None,
            },
            None,
        ));
    }
    if let Some(s) = sat {
        return answers[s].clone().map(|a| (a, Some(names[s].clone())));
    }
    let finished = answers.iter().all(Option::is_some);
    match unsat.as_slice() {
        [first, second, ..] => Some((Answer::Unsat, Some(format!("{}+{}", names[*first], names[*second])))),
        [only] if finished => Some((Answer::Unsat, Some(names[*only].clone()))),
        _ => None,
    }
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
