//! Race queries: for each array, the conflicting access pairs of one barrier segment (and, for
//! global arrays, of different segments across blocks) as one query each, with the
//! mixed-radix lemmas of their offsets ([`crate::encode::nonlinear`]). Accesses of one block
//! race only at equal barrier counts; accesses of different blocks (global arrays) only at
//! equal grid-barrier counts (always equal in a kernel without grid barriers).
//!
//! Does not record accesses (`memory`) nor read witnesses (`super::super::witness`).

use super::{Access, Check, Encoder, Property};
use crate::encode::AccessKind;
use crate::encode::nonlinear;
use crate::encode::terms::{and, app, atom, bvn, f, not, or, sym, t};
use crate::ir::{ArrayId, Space};
use crate::solver::{Query, Sexp};
use std::collections::BTreeMap;

impl Encoder<'_> {
    /// One query per (array, segment) for accesses in one segment, and one per global array
    /// for accesses of different segments (different blocks only).
    pub(super) fn race_checks(&mut self) {
        let facts = nonlinear::Facts::new(&[self.decls.clone(), self.cmds.clone()].concat());
        let mut by_array: BTreeMap<ArrayId, Vec<Access>> = BTreeMap::new();
        for a in &self.accesses {
            by_array.entry(a.array).or_default().push(a.clone());
        }
        for (array, accs) in by_array {
            let global = self.k.array(array).space == Space::Global;
            let mut groups: BTreeMap<u32, Vec<(Access, Access)>> = BTreeMap::new();
            let mut cross: Vec<(Access, Access)> = Vec::new();
            for i in 0..accs.len() {
                for j in i..accs.len() {
                    let (a, b) = (&accs[i], &accs[j]);
                    if !conflicting(a.kind, b.kind) {
                        continue;
                    }
                    if a.per_thread[0].0 == f() || b.per_thread[1].0 == f() {
                        continue;
                    }
                    if a.segment == b.segment {
                        groups.entry(a.segment).or_default().push((a.clone(), b.clone()));
                    } else if global {
                        cross.push((a.clone(), b.clone()));
                    }
                }
            }
            let name = sym(&self.k.array(array).name);
            for (seg, pairs) in groups {
                self.push_race(
                    &facts,
                    array,
                    &format!("{}.race.{}.seg{}", sym(&self.k.name), name, seg),
                    pairs,
                    global,
                    true,
                );
            }
            if !cross.is_empty() {
                self.push_race(
                    &facts,
                    array,
                    &format!("{}.race.{}.cross", sym(&self.k.name), name),
                    cross,
                    global,
                    false,
                );
            }
        }
    }

    /// One race query over `pairs`, with the mixed-radix lemmas of each pair's offsets
    /// ([`nonlinear`]) as further assertions.
    pub(super) fn push_race(
        &mut self,
        facts: &nonlinear::Facts,
        array: ArrayId,
        name: &str,
        pairs: Vec<(Access, Access)>,
        global: bool,
        same_segment: bool,
    ) {
        let mut disj = Vec::new();
        let mut lemmas = Vec::new();
        let layout = self.layout.clone();
        let mut gv = layout.common();
        for (a, b) in &pairs {
            let (pa, oa, ba) = &a.per_thread[0];
            let (pb, ob, bb) = &b.per_thread[1];
            facts.offset_lemmas(oa, a.width, ob, b.width, &mut lemmas);
            // Signed comparisons: within that range `o + width` cannot wrap.
            let overlap = and(
                and(a.valid[0].clone(), b.valid[1].clone()),
                and(
                    app(
                        "bvslt",
                        vec![oa.clone(), app("bvadd", vec![ob.clone(), bvn(b.width as u64, 64)])],
                    ),
                    app(
                        "bvslt",
                        vec![ob.clone(), app("bvadd", vec![oa.clone(), bvn(a.width as u64, 64)])],
                    ),
                ),
            );
            let equal = |x: &Sexp, y: &Sexp| {
                if x == y {
                    t()
                } else {
                    app("=", vec![x.clone(), y.clone()])
                }
            };
            let same_interval = equal(ba, bb);
            let same_grid_interval = equal(&a.grid[0], &b.grid[1]);
            let order = match (global, same_segment) {
                (false, _) => and(atom("same_block"), same_interval),
                // `ite(same_block, same_interval, same_grid_interval)`, simplified.
                (true, true) if same_grid_interval == t() => or(not(atom("same_block")), same_interval),
                (true, true) => app("ite", vec![atom("same_block"), same_interval, same_grid_interval]),
                (true, false) => and(not(atom("same_block")), same_grid_interval),
            };
            let c = and(and(pa.clone(), pb.clone()), and(overlap, order));
            gv.push(c.clone());
            gv.push(oa.clone());
            gv.push(ob.clone());
            disj.push(c);
        }
        let line = pairs.first().map(|(a, _)| a.span.line).unwrap_or(0);
        let assertion = if disj.len() == 1 {
            disj.pop().unwrap_or_else(f)
        } else {
            app("or", disj)
        };
        self.check_list.push(Check {
            property: Property::Race { array },
            query: Query {
                name: format!("{name}.L{line}"),
                assertions: [vec![assertion], lemmas].concat(),
                get_values: gv,
            },
            pairs,
            layout,
            possible: false,
        });
    }
}

/// Whether two accesses of these kinds conflict (not both reads, not both atomics).
pub(super) fn conflicting(a: AccessKind, b: AccessKind) -> bool {
    use AccessKind::*;
    !matches!((a, b), (Read, Read) | (Atomic, Atomic))
}
