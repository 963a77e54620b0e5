//! Reading a solver's model back into a [`Finding`]: threads, parameters, index.

use super::property::{Check, Layout, Property};
use crate::ir::{ArrayDecl, ArrayId, Kernel, Span, Ty};
use crate::solver::Sexp;
use num_bigint::{BigInt, BigUint};

pub use crate::verdict::{AccessKind, Finding, FindingKind, WitnessAccess};

fn num(v: Option<&Sexp>) -> u64 {
    v.and_then(Sexp::as_bv).and_then(|b| u64::try_from(b).ok()).unwrap_or(0)
}

/// A model value of type `ty` as a C literal.
pub fn format_value(v: &Sexp, ty: Ty) -> String {
    match ty {
        Ty::Bool => v.as_bool().map(|b| b.to_string()).unwrap_or_else(|| v.to_string()),
        Ty::Int { bits, signed } => match v.as_bv() {
            Some(u) => {
                if signed && u >= (BigUint::from(1u8) << (bits - 1)) {
                    (BigInt::from(u) - (BigInt::from(1u8) << bits)).to_string()
                } else {
                    u.to_string()
                }
            }
            None => v.to_string(),
        },
        Ty::Float { bits } => match v.as_bv().and_then(|u| u64::try_from(u).ok()) {
            Some(b) if bits == 32 => format!("{:?}", f32::from_bits(b as u32)),
            Some(b) if bits == 64 => format!("{:?}", f64::from_bits(b)),
            Some(b) => format!("0x{b:x}"),
            None => v.to_string(),
        },
    }
}

impl Check {
    /// Builds the finding from the values a `sat` answer gave for `self.query.get_values`.
    /// The query's unpinned values ([`crate::solver::Query::unpinned`]) are the probe
    /// [`super::SIGNED_OK`]'s, read into [`Finding::signed_ok`].
    pub fn finding(&self, kernel: &Kernel, values: &[Sexp]) -> Finding {
        let (values, probes) = values.split_at(values.len().saturating_sub(self.query.unpinned));
        let mut f = self.finding_of(kernel, values);
        f.signed_ok = probes.first().and_then(Sexp::as_bool);
        if f.possible && f.abstractions.is_empty() {
            f.abstractions = self.abstractions.clone();
        }
        f
    }

    /// [`Check::finding`] before it names what a possible finding rests on (a race's own
    /// abstractions, those before its later access, are named here).
    fn finding_of(&self, kernel: &Kernel, values: &[Sexp]) -> Finding {
        let w = Witness::read(&self.layout, values);
        match &self.property {
            Property::Race { array } | Property::HarmfulRace { array } => self.race_finding(kernel, &w, *array),
            Property::Divergence { span, reason } => {
                let r1 = w.rest.first().and_then(Sexp::as_bool);
                let r2 = w.rest.get(1).and_then(Sexp::as_bool);
                let accesses = vec![
                    w.who(0, span, AccessKind::Barrier, r1),
                    w.who(1, span, AccessKind::Barrier, r2),
                ];
                w.finding(
                    FindingKind::Divergence,
                    accesses,
                    self.possible,
                    reason.map(str::to_string),
                )
            }
            Property::Assertion { span }
            | Property::Invariant { span, .. }
            | Property::BarrierInvariant { span, .. } => {
                let (kind, reason) = condition_failure(&self.property);
                w.finding(
                    kind,
                    vec![w.who(0, span, AccessKind::Assert, None)],
                    self.possible,
                    reason,
                )
            }
            Property::SignedOverflow { op, span } => {
                let reason = kernel.signed_ops.get(*op).map(|o| {
                    let places = kernel.signed_places(*op);
                    // Another source operation with the same expression is this one.
                    let also = match places.split_once(", ") {
                        Some((_, rest)) => format!(" (one expression with {rest})"),
                        None => String::new(),
                    };
                    format!("`{}`{also} overflows {}: undefined behaviour", o.text, o.type_name())
                });
                let accesses = vec![w.who(0, span, AccessKind::Assert, None)];
                w.finding(FindingKind::SignedOverflow, accesses, self.possible, reason)
            }
            // Not a defect (the driver makes the verdict inconclusive): the array's
            // declaration stands for where.
            Property::FlagWriters { array } => Finding {
                array: Some(kernel.array(*array).name.clone()),
                ..w.finding(
                    FindingKind::Race { write_write: true },
                    vec![w.who(0, &kernel.array(*array).span, AccessKind::Atomic, None)],
                    true,
                    Some("two writes may store to one word of a flag".into()),
                )
            },
            Property::ClosedForm { loop_span, .. } => w.finding(
                FindingKind::Invariant { base: false },
                vec![w.who(0, loop_span, AccessKind::Assert, None)],
                true,
                None,
            ),
        }
    }

    /// The finding of a race on `array`: the first pair whose condition the model makes true,
    /// the element both threads touch, and why their order does not help (scopes, locks, flags).
    fn race_finding(&self, kernel: &Kernel, w: &Witness, array: ArrayId) -> Finding {
        let decl = kernel.array(array);
        let rest = w.rest;
        // The pair the model chose, and both byte offsets (two's complement 64-bit: an index
        // before the array is negative).
        let (a, b, off1, off2, hit) = match &self.sides {
            Some(sides) => {
                let harmful = self.benign || matches!(self.property, Property::HarmfulRace { .. });
                let (a, b) = sides.chosen(rest, harmful);
                (a, b, num(rest.first()) as i64, num(rest.get(1)) as i64, None)
            }
            None => {
                let hit = (0..self.pairs.len())
                    .find(|p| rest.get(3 * p).and_then(Sexp::as_bool) == Some(true))
                    .unwrap_or(0);
                let (a, b) = &self.pairs[hit];
                let off = |k: usize| num(rest.get(3 * hit + k)) as i64;
                (&**a, &**b, off(1), off(2), Some(hit))
            }
        };
        let write_write = a.kind != AccessKind::Read && b.kind != AccessKind::Read;
        // The first byte both touch: the later start.
        let index = element(decl, off1.max(off2));
        let (wa, wb) = (w.who(0, &a.span, a.kind, None), w.who(1, &b.span, b.kind, None));
        let hint = hit
            .and_then(|hit| self.hints.get(hit))
            .and_then(|h| match wa.block == wb.block {
                true => h.same_block.clone(),
                false => h.cross_block.clone(),
            });
        let reason = scope_reason(a, b, &wa, &wb)
            .or(hint)
            .or_else(|| copy_reason(a, b, wa.block == wb.block));
        let rests_on = a.abstracted.max(b.abstracted).min(self.abstractions.len());
        Finding {
            array: Some(decl.name.clone()),
            index: Some(index),
            abstractions: self.abstractions[..rests_on].to_vec(),
            ..w.finding(
                FindingKind::Race { write_write },
                vec![wa, wb],
                a.abstracted.max(b.abstracted) > 0,
                reason,
            )
        }
    }
}

/// The element of `decl` at byte offset `byte`: `a[i]`, `a[i][j]`, or a byte of it when the
/// offset is not at an element's start.
fn element(decl: &ArrayDecl, byte: i64) -> String {
    let elem = decl.elem.bytes().max(1) as i64;
    if byte.rem_euclid(elem) != 0 {
        format!("byte {} of {}", byte, decl.name)
    } else if byte < 0 || decl.dims.len() < 2 {
        format!("{}[{}]", decl.name, byte.div_euclid(elem))
    } else {
        let mut idx = byte / elem;
        let mut parts = Vec::new();
        for d in decl.dims.iter().skip(1).rev() {
            let d = (*d).max(1) as i64;
            parts.push(idx % d);
            idx /= d;
        }
        parts.push(idx);
        parts.reverse();
        let s: String = parts.iter().map(|p| format!("[{p}]")).collect();
        format!("{}{}", decl.name, s)
    }
}

/// The common witness values of a model ([`Layout`]): the threads' coordinates, the scalar
/// parameters and the geometry, then the check's own values (`rest`).
struct Witness<'v> {
    values: &'v [Sexp],
    params: Vec<(String, String)>,
    geometry: Vec<(String, u64)>,
    rest: &'v [Sexp],
}

impl<'v> Witness<'v> {
    /// Reads `values` (a `sat` answer's, for a query's `get_values`) as `layout` says.
    fn read(layout: &Layout, values: &'v [Sexp]) -> Witness<'v> {
        let mut i = layout.coords.len();
        let mut params = Vec::new();
        for (name, ty, _) in &layout.params {
            params.push((
                name.clone(),
                values.get(i).map(|v| format_value(v, *ty)).unwrap_or_default(),
            ));
            i += 1;
        }
        let mut geometry = Vec::new();
        for (name, _) in &layout.geometry {
            geometry.push((name.clone(), num(values.get(i))));
            i += 1;
        }
        let rest = &values[layout.len().min(values.len())..];
        Witness {
            values,
            params,
            geometry,
            rest,
        }
    }

    /// Thread `th`'s (0 or 1) block or thread index (`which` 0 or 1).
    fn coord(&self, th: usize, which: usize) -> [u64; 3] {
        let base = th * 6 + which * 3;
        [
            num(self.values.get(base)),
            num(self.values.get(base + 1)),
            num(self.values.get(base + 2)),
        ]
    }

    /// Thread `th`'s access at `span`.
    fn who(&self, th: usize, span: &Span, access: AccessKind, reaches: Option<bool>) -> WitnessAccess {
        WitnessAccess {
            span: span.clone(),
            access,
            block: self.coord(th, 0),
            thread: self.coord(th, 1),
            reaches,
        }
    }

    /// A finding of `kind` with this witness's parameters and geometry, no array, index nor
    /// condition.
    fn finding(
        &self,
        kind: FindingKind,
        accesses: Vec<WitnessAccess>,
        possible: bool,
        reason: Option<String>,
    ) -> Finding {
        Finding {
            signed_ok: None,
            kind,
            array: None,
            accesses,
            params: self.params.clone(),
            geometry: self.geometry.clone(),
            index: None,
            possible,
            abstractions: Vec::new(),
            condition: None,
            reason,
        }
    }
}

/// For a race of two atomics (only across the scope of one of them: different blocks), what
/// names it: `atomicAdd_block by blocks (0, 0, 0) and (3, 0, 0): block scope does not order
/// threads of different blocks`.
fn scope_reason(a: &super::Access, b: &super::Access, wa: &WitnessAccess, wb: &WitnessAccess) -> Option<String> {
    let (Some((op_a, scope_a)), Some((op_b, scope_b))) = (a.atomic, b.atomic) else {
        return None;
    };
    let name = |op: crate::ir::AtomicOp, scope: crate::ir::AtomicScope| format!("{}{}", op.cuda_name(), scope.suffix());
    let (na, nb) = (name(op_a, scope_a), name(op_b, scope_b));
    let names = if na == nb { na } else { format!("{na} and {nb}") };
    let coords = |v: [u64; 3]| format!("({}, {}, {})", v[0], v[1], v[2]);
    Some(format!(
        "{names} by blocks {} and {}: block scope does not order threads of different blocks",
        coords(wa.block),
        coords(wb.block)
    ))
}

/// The kind of finding, and its reason when the kind alone does not say it, of a failing condition:
/// an assertion, a loop invariant or a barrier invariant (Chong et al. (OOPSLA 2013) §3).
fn condition_failure(p: &Property) -> (FindingKind, Option<String>) {
    use super::property::InvariantCheck;
    use crate::verdict::BarrierInvariantFailure as F;
    let failure = |failure| FindingKind::BarrierInvariant { failure };
    match p {
        Property::Invariant { base, .. } => (FindingKind::Invariant { base: *base }, None),
        Property::BarrierInvariant { check, .. } => match check {
            InvariantCheck::Holds => (failure(F::Holds), None),
            InvariantCheck::Access => (
                failure(F::Access),
                Some("it reads a location that neither thread accessed since the last barrier, whose value another thread may have changed (add `__read_permission`, or --no-barrier-access-checks)".to_string()),
            ),
            InvariantCheck::Uniform(var) => (
                failure(F::Uniform),
                Some(format!(
                    "it reads `{var}`, which may differ between threads of one block, so it cannot be instantiated at other threads (use the thread's coordinates, such as `get_local_id(0)` or `threadIdx.x`, directly)"
                )),
            ),
        },
        _ => (FindingKind::Assertion, None),
    }
}

/// Why an asynchronous copy's access (`Access::copy`, `encode/engine/copies.rs`) is not
/// ordered with the other access of a race: in flight until the wait that covers it, which
/// orders nothing across blocks; `None` when neither access is a copy's.
fn copy_reason(a: &super::Access, b: &super::Access, same_block: bool) -> Option<String> {
    let (x, y) = [(a, b), (b, a)].into_iter().find(|(x, _)| x.copy.is_some())?;
    let what = |z: &super::Access| match z.kind {
        super::AccessKind::Write => "write",
        _ => "read",
    };
    if !same_block {
        return Some(format!(
            "the {} at line {} is an asynchronous copy's: neither its wait nor a barrier orders threads of different blocks",
            what(x),
            x.span.line
        ));
    }
    let other = match y.copy.is_some() {
        true => format!("the copy's {} at line {}", what(y), y.span.line),
        false => format!("the {} at line {}", what(y), y.span.line),
    };
    Some(format!(
        "the {} at line {} is an asynchronous copy's, in flight until the wait that covers it (`__pipeline_wait_prior`, `cg::wait`, `arrive_and_wait`, `consumer_wait`, `wait_group_events`): no such wait, then a barrier, orders it before {other}",
        what(x),
        x.span.line
    ))
}
