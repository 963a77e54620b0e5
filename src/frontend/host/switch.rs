//! A `switch` whose cases each end in `break` or `return` (issue 53 item 2): a known condition
//! takes its case; an unknown one walks each case from the state before the `switch`, knowing
//! the case's value (`switch (block_size) { case 32: return launch(…32…); case 64: … }`, llm.c's
//! `dispatch_launch`), and joins the cases that end in `break` (and the state where no case
//! matches, without a `default`). Any other `switch` (a fall-through, a `break` nested in an
//! `if`, a label inside a nested statement) is read as before: as a loop that changes what its
//! body assigns ([`Host::loop_stmt`]).

use super::facts::pure;
use super::unroll::jumps;
use super::*;

/// One `case` (or several labels on one statement, or `default`) and the statements up to the
/// next label.
struct Case<'a> {
    /// The labels' values (`ConstantExpr`s); empty for `default` alone.
    values: Vec<&'a Node>,
    default: bool,
    /// The statements, the label's own first; the final `break` left out.
    stmts: Vec<&'a Node>,
    /// Whether the case ends in `break` (else in `return`, or the `switch` ends).
    breaks: bool,
}

impl<'a> Host<'a, '_> {
    /// A `switch` read case by case, or `None` (nothing done) when its cases are not each one
    /// straight run ended by `break` or `return`.
    pub(super) fn switch_stmt(&mut self, s: &'a Node, env: &mut Env) -> Option<Flow> {
        if s.has_init || s.has_var || s.inner.len() != 2 {
            return None;
        }
        let (cond, body) = (&s.inner[0], &s.inner[1]);
        let cases = cases(body)?;
        if !pure(cond) {
            return None;
        }
        self.scan(cond, env);
        let known = match self.eval(cond, env) {
            Some(Val::Int(Expr::Const { value, .. })) => Some(value),
            _ => None,
        };
        if let Some(value) = known {
            let taken = cases
                .iter()
                .position(|c| c.values.iter().any(|v| const_value(v).as_ref() == Some(&value)))
                .or_else(|| cases.iter().position(|c| c.default));
            for (_, c) in cases.iter().enumerate().filter(|(i, _)| Some(*i) != taken) {
                self.skipped.extend(c.stmts.iter().map(|s| s.id.clone()));
            }
            let Some(t) = taken else { return Some(Flow::Next) };
            for st in &cases[t].stmts {
                if let f @ Flow::Return(_) = self.stmt(st, env) {
                    return Some(f);
                }
            }
            return Some(Flow::Next);
        }
        let from = self.generation;
        let mut ends: Vec<Env> = Vec::new();
        for c in &cases {
            let mut e = env.clone();
            self.branch_from(from, &mut e);
            if let [v] = c.values[..]
                && !c.default
            {
                self.bind(cond, v, &mut e);
            }
            let mut returned = false;
            for st in &c.stmts {
                let f = self.stmt(st, &mut e);
                if matches!(f, Flow::Return(_)) {
                    self.note_return(&f);
                    returned = true;
                    break;
                }
            }
            if !returned && (c.breaks || std::ptr::eq(c, cases.last()?)) {
                ends.push(e);
            }
        }
        if !cases.iter().any(|c| c.default) {
            let mut e = env.clone();
            self.branch_from(from, &mut e);
            ends.push(e);
        }
        self.new_generation();
        let Some((first, rest)) = ends.split_first() else {
            // Every case returns: what follows the `switch` is not reached.
            return Some(Flow::Return(None));
        };
        let mut joined = first.clone();
        for other in rest {
            let a = joined.clone();
            self.join(&mut joined, &a, other);
        }
        // What a case knew of its value holds no longer.
        joined.facts = env.facts.clone();
        *env = joined;
        Some(Flow::Next)
    }
}

/// The cases of a `switch`'s body, when each is one straight run of statements that ends in
/// `break` or `return` (the last may end with the `switch`) and no statement jumps elsewhere.
fn cases(body: &Node) -> Option<Vec<Case<'_>>> {
    if body.kind != "CompoundStmt" {
        return None;
    }
    let mut out: Vec<Case> = Vec::new();
    for child in &body.inner {
        if matches!(child.kind.as_str(), "CaseStmt" | "DefaultStmt") {
            let mut c = Case {
                values: Vec::new(),
                default: false,
                stmts: Vec::new(),
                breaks: false,
            };
            let mut n = child;
            loop {
                match n.kind.as_str() {
                    // `case v: stmt` (a GNU range `case a ... b:` has three children).
                    "CaseStmt" if n.inner.len() == 2 => c.values.push(&n.inner[0]),
                    "DefaultStmt" if n.inner.len() == 1 => c.default = true,
                    "CaseStmt" | "DefaultStmt" => return None,
                    _ => break,
                }
                n = n.inner.last()?;
            }
            if let Some(prev) = out.last()
                && !prev.breaks
                && !ends_in_return(prev)
            {
                // The previous case falls through into this one.
                return None;
            }
            out.push(c);
            if n.kind == "BreakStmt" {
                out.last_mut()?.breaks = true;
            } else {
                out.last_mut()?.stmts.push(n);
            }
            continue;
        }
        // A statement before the first label is never run; one after a `break` neither.
        let c = out.last_mut()?;
        if c.breaks || ends_in_return(c) {
            return None;
        }
        if child.kind == "BreakStmt" {
            c.breaks = true;
        } else {
            c.stmts.push(child);
        }
    }
    let straight = out.iter().flat_map(|c| &c.stmts).all(|s| {
        !jumps(s, false, false) && !has_kind(s, "CaseStmt") && !has_kind(s, "DefaultStmt") && !has_kind(s, "LabelStmt")
    });
    (straight && !out.is_empty()).then_some(out)
}

/// Whether the case's last statement is a `return`.
fn ends_in_return(c: &Case) -> bool {
    c.stmts.last().is_some_and(|s| s.kind == "ReturnStmt")
}
