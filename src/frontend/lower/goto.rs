//! Forward `goto`s: a `goto L` whose label `L` labels a later statement of an enclosing
//! statement list (a compound statement, or the statements of one `switch` case).
//!
//! The statements of that list from the first one containing a `goto L` up to (not including)
//! the statement `L` labels become one [`StmtKind::Block`], and each `goto L` an
//! [`StmtKind::Exit`] of it: the region-and-exit an inlined function's `return` uses. A thread
//! that jumps is inactive for the rest of the region (its path condition is false there), so
//! a barrier it skips while another thread reaches it is barrier divergence, and the accesses
//! it skips are not its; loops the jump leaves are left as by `break`. A label inside a loop
//! body is reached afresh on each iteration (the block is inside the body).
//!
//! Several labels of one list give nested blocks: a region that starts inside an earlier
//! label's region and ends after it is widened to start where that one starts (the extra
//! statements it covers are ones no thread jumps over). Scalar locals declared (at the list's
//! level) between the jump and the label are given arbitrary values at the region's start, so
//! a thread that jumps over their declaration sees them unspecified, as C++ has them.
//!
//! Out of reach, each an exit 2 naming the `goto`: a backward `goto` (its label precedes it in
//! an enclosing list, or encloses it), a `goto` into a block, a loop or another `switch` case,
//! a computed `goto *p` (`stmt.rs`), and taking a label's address `&&L` (`expr.rs`).

use super::{Lower, R, unsupported};
use crate::frontend::ast::Node;
use crate::ir::*;
use std::mem::take;

/// Items `start..end` of a statement list, in one block that the `goto`s to `labels` (the
/// label declaration ids of item `end`) leave.
struct Region {
    start: usize,
    end: usize,
    labels: Vec<String>,
}

/// An open region while a list is lowered: its block, start, end, labels, and the statements lowered
/// before it opened.
struct Open {
    id: BlockId,
    start: usize,
    end: usize,
    labels: Vec<String>,
    before: Vec<Stmt>,
}

impl Lower<'_, '_> {
    /// Lower a statement list, with the forward `goto`s to its labels as blocks and exits.
    pub(in crate::frontend) fn stmt_list(&mut self, items: &[&Node], out: &mut Vec<Stmt>) -> R<()> {
        let regions = self.regions(items)?;
        if regions.is_empty() {
            for c in items {
                self.stmt(c, out)?;
            }
            return Ok(());
        }
        let mut stack: Vec<Open> = Vec::new();
        let result = self.lower_regions(items, &regions, &mut stack, out);
        // On an error, forget the labels of the regions left open.
        for o in stack {
            for l in o.labels {
                self.goto_targets.remove(&l);
            }
        }
        result
    }

    /// Lower `items` into `out`, each region's items in its block; `stack` holds the regions
    /// open (left there on an error).
    fn lower_regions(
        &mut self,
        items: &[&Node],
        regions: &[Region],
        stack: &mut Vec<Open>,
        out: &mut Vec<Stmt>,
    ) -> R<()> {
        let mut cur: Vec<Stmt> = Vec::new();
        for (p, item) in items.iter().enumerate() {
            // Close the regions ending here, innermost first.
            while stack.last().is_some_and(|o| o.end == p) {
                let Some(o) = stack.pop() else { break };
                for l in &o.labels {
                    self.goto_targets.remove(l);
                }
                let mut body = self.skipped_decls(&items[o.start..p])?;
                body.extend(std::mem::replace(&mut cur, o.before));
                cur.push(Stmt {
                    kind: StmtKind::Block { id: o.id, body },
                    span: self.span(items[o.start]),
                });
            }
            // Open the regions starting here, outermost (latest end) first.
            let mut starting: Vec<&Region> = regions.iter().filter(|r| r.start == p).collect();
            starting.sort_by_key(|r| std::cmp::Reverse(r.end));
            for r in starting {
                let id = self.k.new_block();
                for l in &r.labels {
                    self.goto_targets.insert(l.clone(), id);
                }
                stack.push(Open {
                    id,
                    start: r.start,
                    end: r.end,
                    labels: r.labels.clone(),
                    before: take(&mut cur),
                });
            }
            self.stmt(item, &mut cur)?;
        }
        out.extend(cur);
        Ok(())
    }

    /// The regions of `items`, nested (each two either disjoint or one inside the other),
    /// by increasing end; an error for a backward `goto` to one of its labels.
    fn regions(&self, items: &[&Node]) -> R<Vec<Region>> {
        let mut regions: Vec<Region> = Vec::new();
        for (i, it) in items.iter().enumerate() {
            let labels = label_chain(it);
            if labels.is_empty() {
                continue;
            }
            for (id, name) in &labels {
                if let Some(g) = items[i..].iter().find_map(|x| find_goto(x, id)) {
                    return unsupported(self.span(g), format!("backward goto (to label `{name}`)"));
                }
            }
            let start = items[..i]
                .iter()
                .position(|x| labels.iter().any(|(id, _)| find_goto(x, id).is_some()));
            if let Some(start) = start {
                regions.push(Region {
                    start,
                    end: i,
                    labels: labels.into_iter().map(|(id, _)| id).collect(),
                });
            }
        }
        // Widen a region that starts inside an earlier one and ends after it.
        loop {
            let mut changed = false;
            for m in 0..regions.len() {
                for k in 0..m {
                    let (ks, ke) = (regions[k].start, regions[k].end);
                    if ks < regions[m].start && regions[m].start < ke {
                        regions[m].start = ks;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Ok(regions)
    }

    /// Arbitrary values for the scalar locals declared by the declaration statements of
    /// `items` (already lowered): a thread that jumps over a declaration sees its variable
    /// unspecified. `static`, `extern` and `__shared__` ones keep their values.
    fn skipped_decls(&mut self, items: &[&Node]) -> R<Vec<Stmt>> {
        let mut out = Vec::new();
        for it in items.iter().filter(|n| n.kind == "DeclStmt") {
            for d in it.inner.iter().filter(|d| d.kind == "VarDecl") {
                if d.storage_class.is_some() || d.has_attr("CUDASharedAttr") || d.has_attr("CUDAConstantAttr") {
                    continue;
                }
                if let Some(b) = self.frame().env.get(&d.id).cloned() {
                    let span = self.span(d);
                    self.havoc(&b, &span, &mut out)?;
                }
            }
        }
        Ok(out)
    }

    /// `goto L`: an exit of the block of `L`'s region, when one is open.
    pub(in crate::frontend) fn goto_stmt(&mut self, n: &Node, span: Span, out: &mut Vec<Stmt>) -> R<()> {
        let target = n.target_label_decl_id.as_deref().unwrap_or("");
        match self.goto_targets.get(target) {
            Some(&b) => {
                out.push(Stmt {
                    kind: StmtKind::Exit(b),
                    span,
                });
                Ok(())
            }
            None => unsupported(
                span,
                "goto into a block, a loop or another switch case (only a goto forward to a label of an enclosing block is modelled)",
            ),
        }
    }

    /// `L: s` outside a list's regions' bookkeeping: `s` (a `goto L` inside `s` is backward).
    pub(in crate::frontend) fn label_stmt(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        if let Some(id) = &n.decl_id
            && let Some(g) = n.inner.iter().find_map(|x| find_goto(x, id))
        {
            let name = n.name.as_deref().unwrap_or("?");
            return unsupported(self.span(g), format!("backward goto (to label `{name}`)"));
        }
        for c in &n.inner {
            self.stmt(c, out)?;
        }
        Ok(())
    }
}

/// The labels (declaration id, name) of `n`, a chain `L1: L2: … s`; empty when `n` is not a
/// label statement.
fn label_chain(n: &Node) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut n = n;
    while n.kind == "LabelStmt" {
        if let Some(id) = &n.decl_id {
            out.push((id.clone(), n.name.clone().unwrap_or_default()));
        }
        match n.inner.first() {
            Some(c) => n = c,
            None => break,
        }
    }
    out
}

/// The first `goto` to the label `id` in `n`.
fn find_goto<'n>(n: &'n Node, id: &str) -> Option<&'n Node> {
    if n.kind == "GotoStmt" && n.target_label_decl_id.as_deref() == Some(id) {
        return Some(n);
    }
    n.inner.iter().find_map(|c| find_goto(c, id))
}
