//! Demotion of a closed form that failed its step check (run by the driver after encoding):
//! the variable becomes havocked at the head of that abstracted loop.
//!
//! Input: a prepared body and the span of one abstracted loop. Output: the same body, with
//! `var` moved from that loop's `closed` to its `havocked` (nothing else changes).

use crate::ir::visit::VisitorMut;
use crate::ir::{Span, Stmt, StmtKind, VarId};

/// Moves `var` from the closed forms to the havocked variables of the abstracted loop at
/// `span` (after its closed form failed the step check).
pub fn demote_closed_form(stmts: &mut [Stmt], span: &Span, var: VarId) {
    struct Demote<'a> {
        span: &'a Span,
        var: VarId,
    }
    impl VisitorMut for Demote<'_> {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            if let StmtKind::AbstractLoop(l) = &mut s.kind
                && s.span == *self.span
                && l.closed.iter().any(|(v, _)| *v == self.var)
            {
                l.closed.retain(|(v, _)| *v != self.var);
                l.havocked.push(self.var);
            }
            self.super_stmt(s);
        }
    }
    Demote { span, var }.visit_block(stmts);
}
