//! The standard assumption that no source-level signed `+`, `-`, `*` overflows, no unsigned
//! `+`, `*` computing a subscript's index wraps, and no narrowing conversion to a signed type
//! changes a value (issue 53 item 4: an index or offset computed past its type, which needs an
//! array of 2^32 elements, an offset within a few of 2^32, or a grid of 2^30 blocks),
//! asked after the launch assumptions
//! ([`signed`]): one part of the launch contracts (the module docs of [`super`]). Both kinds
//! are [`Kernel::signed_ops`]; a finding excluded by an unsigned one says so.

use super::*;
use crate::ir::SignedKind;

/// At most this many signed operations are asked about one at a time to name those whose
/// overflow an excluded finding needs ([`signed`]); with more, the condition lists a few.
const MAX_NAMED: usize = 8;

/// The standard assumption that no source-level signed `+`, `-`, `*` overflows (undefined
/// behaviour: C++ [expr.pre]/4, C11 6.5p5, OpenCL C 6.3), after [`standard`] left `result` a
/// defect in the launches of the index bound `bits` (`None`: no decided launch, nothing is
/// asked): re-verifies `k` there with every signed operation assumed not to overflow. Each
/// finding that disappears moves to [`KernelResult::excluded`], its condition naming the
/// operations whose overflow it needs, found by one re-verification per operation with only
/// that one assumed (at most [`MAX_NAMED`], until every such finding has one); when none
/// remains the kernel is verified, the assumption in its contract. A `--check-overflow`
/// finding is never excluded by it (the assumption rules out what it reports). Returns
/// whether it excluded a finding.
pub(super) fn signed(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    v: &Vocabulary,
    bits: Option<(Option<u32>, bool)>,
    result: &mut KernelResult,
    answers: &mut Vec<String>,
) -> Result<bool, Error> {
    let Some((bits, total)) = bits else { return Ok(false) };
    let overflow = |f: &Finding| f.kind == FindingKind::SignedOverflow;
    if v.signed.is_empty() || result.verdict != Verdict::Defect || result.findings.iter().all(overflow) {
        return Ok(false);
    }
    // Each finding's model has no signed overflow (nor index wrap) where its threads evaluate
    // an operation (`Finding::signed_ok`). The findings are those of the launch re-verified
    // here (`standard` returns its bound), or exact ones whose witness lies in it, and the
    // assumption adds to that encoding only facts such a model satisfies: it stays a model,
    // so the re-verification would keep every finding, and is not asked.
    if result
        .findings
        .iter()
        .filter(|f| !overflow(f))
        .all(|f| f.signed_ok == Some(true))
    {
        return Ok(false);
    }
    let mut launch = v.launch(bits, total);
    launch.signed = v.signed.clone();
    let under = reverify(k, opts, run, &launch, false)?;
    answers.extend(under.answers.iter().map(|a| format!("{} {a}", label(&launch))));
    if !under.inconclusive.is_empty() {
        undecided_signed(result, "the re-verification with no signed overflow was undecided");
        return Ok(false);
    }
    let excludes = |f: &Finding| !overflow(f) && counterpart(f, &under).is_none();
    if !result.findings.iter().any(excludes) {
        return Ok(false);
    }
    let named = label(&launch);
    match satisfiable(k, opts, run, &launch, Vec::new(), named.trim_end_matches(':'), answers)? {
        Some(true) => {}
        Some(false) => {
            result
                .notes
                .push("no signed overflow contradicts the kernel's requirements: no finding is excluded by it".into());
            return Ok(false);
        }
        None => {
            undecided_signed(
                result,
                "whether no signed overflow is consistent with the kernel's requirements is undecided",
            );
            return Ok(false);
        }
    }
    let (gone, kept): (Vec<Finding>, Vec<Finding>) =
        std::mem::take(&mut result.findings).into_iter().partition(excludes);
    let needs = needs_of(k, opts, run, v, &launch, &gone, answers)?;
    let conditions: Vec<String> = needs.iter().map(|n| condition(k, v, n)).collect();
    result
        .excluded
        .extend(gone.into_iter().zip(conditions).map(|(finding, condition)| Excluded {
            finding,
            condition: format!("only when {condition}"),
        }));
    // The defects with no overflow, with their witnesses there, and the overflows reported.
    result.findings = under.findings;
    for f in kept.into_iter().filter(overflow) {
        if !result.findings.contains(&f) {
            result.findings.push(f);
        }
    }
    const OUTSIDE: &str = "the findings listed as excluded need launches outside the standard assumptions; --strict reports them as defects";
    result.notes.retain(|n| n != OUTSIDE);
    if result.findings.is_empty() {
        let mut contract: Vec<String> = v.unused.iter().map(|(n, _, _)| format!("{n} = 1")).collect();
        if let Some(bits) = bits {
            for i in (0..3).filter(|i| v.wrap[*i]) {
                let d = DIMS[i];
                contract.push(format!("gridDim.{d} * blockDim.{d} <= 2^{bits}"));
            }
        }
        // The kinds of operation the excluded findings need (all of them where a finding's
        // were not found alone).
        let used: Vec<usize> = match needs.iter().any(Vec::is_empty) {
            true => v.signed.clone(),
            false => needs.concat(),
        };
        let used = kinds(k, &used);
        contract.extend(used.iter().map(|kind| {
            match kind {
                SignedKind::Overflow => "no signed +, -, * overflows (undefined behaviour)",
                SignedKind::IndexWrap => "no unsigned +, * computing an index wraps",
                SignedKind::Conversion => "no conversion to a signed type changes a value",
            }
            .to_string()
        }));
        let unsigned = used.iter().any(|kind| *kind != SignedKind::Overflow);
        super::settle_unchecked(k, result);
        let n = result.excluded.len();
        result.notes.push(format!(
            "the launch contract is the standard assumptions, no signed overflow{} among them (--check-overflow reports each signed one); --strict reports the {} excluded finding{} as defect{}",
            if unsigned { " and no index computed past its type" } else { "" },
            n,
            if n == 1 { "" } else { "s" },
            if n == 1 { "" } else { "s" },
        ));
        result.contract = contract;
    } else {
        result.notes.push(
            "the findings listed as excluded need launches outside the standard assumptions or a signed overflow (undefined behaviour); --strict reports them as defects".into(),
        );
    }
    Ok(true)
}

/// For each finding of `gone` (excluded under every operation of `v.signed` assumed not to
/// overflow, in `launch`), the operations found alone to exclude it: one re-verification per
/// operation with only it assumed (at most [`MAX_NAMED`] operations, until every finding has
/// one); none found leaves the finding's list empty. Errors: those of [`reverify`].
fn needs_of(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    v: &Vocabulary,
    launch: &Launch,
    gone: &[Finding],
    answers: &mut Vec<String>,
) -> Result<Vec<Vec<usize>>, Error> {
    let mut needs: Vec<Vec<usize>> = vec![Vec::new(); gone.len()];
    if let [op] = v.signed[..] {
        // The one operation: the re-verification above asked it alone.
        needs.iter_mut().for_each(|n| n.push(op));
    } else if v.signed.len() <= MAX_NAMED {
        for &op in &v.signed {
            if needs.iter().all(|n| !n.is_empty()) {
                break;
            }
            let mut one = launch.clone();
            one.signed = vec![op];
            let r = reverify(k, opts, run, &one, false)?;
            answers.extend(r.answers.iter().map(|a| format!("{} {a}", label(&one))));
            if !r.inconclusive.is_empty() {
                continue;
            }
            for (f, n) in gone.iter().zip(needs.iter_mut()) {
                if counterpart(f, &r).is_none() {
                    n.push(op);
                }
            }
        }
    }
    Ok(needs)
}

/// The condition of an excluded finding that needs the operations `needs` (indices into
/// [`Kernel::signed_ops`]) to overflow or wrap: each named with its place, or, when none was
/// found alone, a few of `v.signed`; and why the program cannot meet it (undefined behaviour
/// for a signed overflow, an index computed past its type for an unsigned wrap).
fn condition(k: &Kernel, v: &Vocabulary, needs: &[usize]) -> String {
    let site = |op: usize| format!("`{}` ({})", k.signed_ops[op].text, k.signed_places(op));
    // What makes the condition one the program cannot meet: undefined behaviour for a signed
    // overflow, an array of more elements than the index type counts for an unsigned wrap.
    let why = |ops: &[usize]| {
        let signed = ops.iter().any(|&op| k.signed_ops[op].is_signed());
        let unsigned = ops.iter().any(|&op| !k.signed_ops[op].is_signed());
        match (signed, unsigned) {
            (true, true) => "undefined behaviour, or an index computed past its type",
            (false, true) => "an index computed past its type",
            _ => "undefined behaviour",
        }
    };
    match needs {
        [] => {
            let mut some: Vec<String> = v.signed.iter().take(3).map(|&op| site(op)).collect();
            if v.signed.len() > 3 {
                some.push("…".into());
            }
            // The kinds of operation the kernel has, named in the order of the contract.
            let kinds: Vec<&str> = kinds(k, &v.signed)
                .into_iter()
                .map(|kind| match kind {
                    SignedKind::Overflow => "a signed operation overflows",
                    SignedKind::IndexWrap => "an unsigned index computation wraps",
                    SignedKind::Conversion => "a conversion to a signed type changes a value",
                })
                .collect();
            let what = match kinds.as_slice() {
                [] => String::new(),
                [one] => one.to_string(),
                [init @ .., last] => format!("{}, or {last}", init.join(", ")),
            };
            format!("{what} (one of {}): {}", some.join(", "), why(&v.signed))
        }
        ops => {
            let each: Vec<String> = ops
                .iter()
                .map(|&op| match k.signed_ops[op].is_signed() {
                    true => format!("{} overflows {}", site(op), k.signed_ops[op].type_name()),
                    false if k.signed_ops[op].is_conversion() => format!(
                        "{} does not fit in the {} it is converted to",
                        site(op),
                        k.signed_ops[op].type_name()
                    ),
                    false => format!(
                        "{} wraps past 2^{} ({} index arithmetic)",
                        site(op),
                        k.signed_ops[op].expr.ty().bits(),
                        k.signed_ops[op].type_name(),
                    ),
                })
                .collect();
            format!("{}: {}", each.join(" and "), why(ops))
        }
    }
}

/// The kinds of the operations `ops` (indices into [`Kernel::signed_ops`]), each once, in the
/// order the contract names them.
fn kinds(k: &Kernel, ops: &[usize]) -> Vec<SignedKind> {
    let mut kinds: Vec<SignedKind> = ops.iter().map(|&op| k.signed_ops[op].kind()).collect();
    kinds.sort();
    kinds.dedup();
    kinds
}
