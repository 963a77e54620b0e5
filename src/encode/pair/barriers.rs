//! Barriers: each thread's barrier count (`bc`, with the jump to the next iteration in an
//! abstracted loop with a fixed barrier count), the divergence check (two threads of one block
//! at equal counts, one reaching the barrier and one not), and the top-level segments.
//!
//! Does not decide what shared memory looks like after a barrier (`abstraction`) nor build race
//! queries (`races`).

use super::{Encoder, Property, TState};
use crate::encode::terms::{and, app, atom, bvn, not, sym, t};
use crate::ir::Stmt;
use crate::solver::Sexp;

impl Encoder<'_> {
    /// A barrier reached by every thread of `st` under its path condition.
    pub(super) fn barrier(&mut self, s: &Stmt, st: &mut [TState]) {
        self.barrier_count += 1;
        // Divergence: two threads of one block disagree on reaching this barrier.
        if self.checks && self.n == 2 && !(st[0].pc == t() && st[1].pc == t()) {
            self.divergence_check(s, st);
        }
        let fresh = self.fresh_at_barrier();
        // The last barrier of an iteration of an abstracted loop jumps to the next iteration.
        let jump = self.iteration_jump();
        for (th, ts) in st.iter_mut().enumerate() {
            let inc = match &jump {
                Some(targets) => targets[th].clone(),
                None => app("bvadd", vec![ts.bc.clone(), bvn(1, 64)]),
            };
            let bc = if ts.pc == t() {
                inc
            } else {
                app("ite", vec![ts.pc.clone(), inc, ts.bc.clone()])
            };
            ts.bc = self.define(&format!("t{}.bc", th + 1), Sexp::bv_sort(64), bc);
            self.renew_shared(ts, th, &fresh);
        }
        if self.depth == 0 {
            self.segment += 1;
        }
    }

    /// The divergence check of the barrier `s`: two threads of one block that have passed the
    /// same number of barriers, one reaching `s` and the other not.
    fn divergence_check(&mut self, s: &Stmt, st: &[TState]) {
        // Threads that have passed the same number of barriers (the first divergent
        // barrier of any execution is such a point; in abstracted loops this puts both
        // threads in the same iteration).
        let same_count = if st[0].bc == st[1].bc {
            t()
        } else {
            app("=", vec![st[0].bc.clone(), st[1].bc.clone()])
        };
        let both_assumed = and(st[0].assumed.clone(), st[1].assumed.clone());
        let div = and(
            and(and(atom("same_block"), same_count), both_assumed),
            not(app("=", vec![st[0].pc.clone(), st[1].pc.clone()])),
        );
        let property = Property::Divergence { span: s.span.clone() };
        let name = format!("{}.divergence.L{}", sym(&self.k.name), s.span.line);
        let own = vec![st[0].pc.clone(), st[1].pc.clone()];
        self.push_check(property, name, div, own, self.seen_abstract);
    }

    /// Per thread, the barrier count after the last barrier of an iteration of the innermost
    /// abstracted loop with a fixed barrier count: the next iteration's base. `None` for any
    /// other barrier (the count then goes up by one).
    fn iteration_jump(&mut self) -> Option<Vec<Sexp>> {
        self.frames.last_mut().and_then(|fr| {
            fr.seen += 1;
            (fr.seen == fr.barriers).then(|| {
                fr.base
                    .iter()
                    .map(|(bc0, it)| {
                        let next = app("bvadd", vec![it.clone(), bvn(1, 64)]);
                        app(
                            "bvadd",
                            vec![bc0.clone(), app("bvshl", vec![next, bvn(fr.shift as u64, 64)])],
                        )
                    })
                    .collect::<Vec<_>>()
            })
        })
    }
}
