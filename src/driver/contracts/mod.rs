//! Launch contracts (ARCHITECTURE.md "Launch contracts", issue 11): the conditions of the findings
//! made under a launch that is not fully concrete, found by verifying the kernel again under a
//! fixed vocabulary of assumptions, one pass over a kernel's findings after
//! [`Reverify::verify_under`], which the verifier gives.
//!
//! The vocabulary has two parts:
//! - **standard launch assumptions**, each added only where the launch leaves it open: a
//!   dimension the kernel never reads has extent 1 (`blockDim.y = 1` when `threadIdx.y` is
//!   never read, `gridDim.y = 1` when `blockIdx.y` is never read; likewise z, and x when some y
//!   or z dimension the kernel reads keeps more than one thread or block, as in a kernel
//!   indexed by `blockIdx.y` only: pinning every dimension would leave a launch of one thread,
//!   which has no pair of threads, so the pair model would verify it vacuously); and the
//!   linear thread index of each dimension the kernel reads does not wrap:
//!   `gridDim.d * blockDim.d <= 2^32` (an `unsigned` index), else `<= 2^31` (an `int` one);
//!   and, tried last for a kernel that reads the indices of two dimensions or more, neither
//!   does the whole launch's: `gridDim.x * gridDim.y * … * blockDim.z <= 2^32` (else
//!   `2^31`), which a hand-linearised grid (`(blockIdx.y * gridDim.x + blockIdx.x) *
//!   blockDim.x + threadIdx.x`) needs: CUDA launches may have up to 2^55 threads, and such an
//!   index wraps in a launch of more than 2^32 although each dimension's count fits; and no signed `+`, `-`, `*` of the source overflows
//!   ([`crate::ir::Kernel::signed_ops`]: undefined behaviour in C++ and OpenCL C, issue 43
//!   item 4), asked last, for the findings that the launch assumptions keep ([`signed`]); a
//!   finding it excludes is named with the operations whose overflow it needs;
//! - **parameter relations** ([`relations`]): `n % blockDim.x == 0`, `n <= gridDim.x *
//!   blockDim.x`, `n >= 1`, `blockDim.x` a power of two, `blockDim.x == C` for a `__shared__`
//!   array of `C` elements.
//!
//! When every finding disappears under the standard assumptions, the kernel is verified *for
//! launches where* they hold: [`KernelResult::contract`] lists them and each finding moves to
//! [`KernelResult::excluded`] with the condition of the launches it needs (PUG §8 counts such
//! "subtle undocumented assumptions" among what it found by hand). When some stay, the kernel
//! is a defect with the findings of the standard launches, and those of the other launches are
//! still listed in `excluded` with their conditions. Parameter relations are never assumed: a
//! relation under which the kernel verifies is a suggestion ([`KernelResult::suggestions`]),
//! and a finding one relation excludes carries that relation's negation as its condition.
//! `--strict` skips this pass.
//!
//! Cost: a finding whose witness (an exact model: issue 21) already lies in the strongest
//! standard launch is kept by every contract, so no re-verification is asked for it; when all
//! findings are such, the standard assumptions cost no query at all. Likewise the signed
//! assumption is not asked when every finding's model has no signed overflow where its threads
//! compute ([`crate::verdict::Finding::signed_ok`], the probe [`crate::encode::SIGNED_OK`]):
//! that model satisfies the assumed encoding too.
//!
//! Soundness: a re-verification is the pair model itself with the geometry narrowed (unused
//! dimensions pinned to 1) and the no-wrap assumptions' per-thread consequences asserted
//! ([`crate::encode::EncodeOptions::index_fits`], implied by the contract); a verdict under
//! them holds for every launch the contract allows. The signed assumption asserts, where a
//! thread evaluates a source-level signed operation, that its exact result fits its type
//! ([`crate::encode::EncodeOptions::signed_no_overflow`]): for a signed operation it leaves
//! out exactly the executions with undefined behaviour, which C++ gives no meaning; other
//! unsigned arithmetic and the front end's own arithmetic are never assumed. The index
//! assumptions (an unsigned index `+`, `*` does not wrap, a narrowing conversion to a signed
//! type keeps its value) leave out defined executions that need an index computed past its
//! type; the findings they exclude are listed apart with that condition, and `--strict`
//! reports them. A re-verification that is inconclusive excludes nothing, so its first
//! undecided check ends it ([`reverify_as`]).
//!
//! Must not: print, build SMT terms, or assume parameter relations (those are suggested only).

mod relations;
mod signed;
mod vocabulary;

use vocabulary::Vocabulary;

use signed::signed;

use super::Error;
use super::pipeline::KernelRun;
use crate::encode::IndexFits;
use crate::ir::eval::Geometry;
use crate::ir::query::builtins_read;
use crate::ir::{Builtin, Dim, Expr, Kernel, Stmt, StmtKind, Ty};
use crate::verdict::{Excluded, Finding, FindingKind, KernelResult, Verdict};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// The launches a verification covers: the geometry (a `None` dimension is symbolic) and,
/// under a launch contract, the no-wrap assumption of the linear thread index
/// ([`crate::encode::EncodeOptions::index_fits`]); and which checks it asks. The contracts'
/// vocabulary: a re-verification is asked for one ([`Reverify::verify_under`]).
#[derive(Clone, Debug)]
pub(in crate::driver) struct Launch {
    pub geometry: Geometry,
    pub index_fits: Option<IndexFits>,
    /// The standard assumption that the kernel's signed arithmetic does not overflow: the
    /// indices into [`Kernel::signed_ops`] of the operations assumed
    /// ([`crate::encode::EncodeOptions::signed_no_overflow`]); empty: none.
    pub signed: Vec<usize>,
    /// Ask only the checks of these findings' kinds (and arrays, for races): a re-verification
    /// under more assumptions, after a decided verification in which every other check was
    /// unsatisfiable, which more assumptions keep so. `None`: every check.
    pub only: Option<Vec<Finding>>,
    /// Uniform entry conditions a witness should satisfy when it can
    /// ([`crate::encode::EncodeOptions::preferred`]): a finding whose witness violates one is
    /// asked for again with all of them asserted, and replaced by that witness when there is
    /// one. They restrict no verdict.
    pub prefer: Vec<Expr>,
    /// Checks not asked, by query name: those the kernel's own verification found
    /// unsatisfiable ([`KernelRun::refuted`]), which a re-verification of the same prepared
    /// kernel (the same geometry and body: only encoder assumptions added) would find
    /// unsatisfiable again. Empty: every check is asked.
    pub refuted: BTreeSet<String>,
}

/// The one thing the launch contracts ask of the driver: the kernel's result under another
/// [`Launch`] (a re-verification), and the verification option their vocabulary depends on.
/// `verify.rs` implements it and calls [`apply`] with it, so the contracts consume
/// verification results without naming the verifier (no import circle).
pub(in crate::driver) trait Reverify {
    /// The result of verifying `k` under `launch`, its queries asked through `run` (under the
    /// limits [`reverify`] sets).
    ///
    /// Errors: a solver that cannot start, a broken IR, the memory bound.
    fn verify_under(&self, k: &Kernel, run: &mut KernelRun, launch: &Launch) -> Result<KernelResult, Error>;

    /// `--no-overflow`: whether integer arithmetic is assumed not to wrap.
    fn no_overflow(&self) -> bool;
}

/// Applies the launch contracts to `result`, the verdict of `k` under the launch as given:
/// nothing when it has no finding, or the launch is concrete and no signed operation may
/// overflow. Errors: those of
/// [`Reverify::verify_under`] (a solver that cannot start).
pub(in crate::driver) fn apply(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    result: &mut KernelResult,
) -> Result<(), Error> {
    if result.findings.is_empty() || result.verdict != Verdict::Defect {
        return Ok(());
    }
    let geometry = run.options().geometry.clone();
    let concrete = geometry.block_dim.iter().chain(&geometry.grid_dim).all(Option::is_some);
    let mut v = Vocabulary::of(k, geometry, opts.no_overflow());
    // A concrete launch leaves only the signed assumption open.
    if concrete && v.signed.is_empty() {
        return Ok(());
    }
    // After a decided verification every check without a finding was unsatisfiable, and stays
    // so under more assumptions: re-verifications ask only the others.
    if result.inconclusive.is_empty() {
        v.only = Some(result.findings.clone());
    }
    // Likewise each check it refuted, by name (re-verifications add none: theirs hold only
    // under their assumptions).
    v.refuted = std::mem::take(&mut run.refuted);
    let saved = (std::mem::take(&mut run.inconclusive), run.queries);
    run.dump = false;
    run.gave_up = false;
    let mut answers = Vec::new();
    bounded_by_launch(k, opts, run, &mut v, &mut answers)?;
    let mut outcome = standard(k, opts, run, &v, result, &mut answers).and_then(|bits| {
        signed(k, opts, run, &v, bits, result, &mut answers).map(|assumed| v.signed_assumed = assumed)
    });
    if outcome.is_ok() && result.verdict == Verdict::Defect && !concrete {
        outcome = relations::suggest(k, opts, run, &v, result, &mut answers);
    }
    run.inconclusive = saved.0;
    run.dump = true;
    result.answers.append(&mut answers);
    result.queries += run.queries - saved.1;
    result.time = run.elapsed();
    outcome
}

/// Closes the no-wrap assumptions of `v` when the kernel's own leading assumptions (those of
/// a host launch: `gridDim.x = 8 * cuda_num_SMs`, `0 <= cuda_num_SMs <= 1024`, `blockDim.x =
/// 128`) already bound every wrapping dimension's thread count, and the whole launch's when
/// `v` would bound it, within 2^31: re-verifying under those assumptions would then ask the
/// same queries again and find the same findings. Decided by one small query, the leading
/// assumptions with some bound broken ([`satisfiable`]); nothing changes when it is
/// satisfiable or undecided, or when the kernel has no leading assumption. Errors: the solver
/// cannot start.
fn bounded_by_launch(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    v: &mut Vocabulary,
    answers: &mut Vec<String>,
) -> Result<(), Error> {
    let assumes = k
        .body
        .iter()
        .take_while(|s| matches!(s.kind, StmtKind::Assume { .. } | StmtKind::Havoc { .. }))
        .any(|s| matches!(s.kind, StmtKind::Assume { .. }));
    if !v.wraps() || !assumes {
        return Ok(());
    }
    let Some(all) = v
        .no_wrap(v.combined)
        .into_iter()
        .reduce(|l, r| relations::binary(crate::ir::BinOp::LAnd, l, r))
    else {
        return Ok(());
    };
    let broken = Stmt {
        kind: StmtKind::Assume {
            cond: Expr::Unary {
                op: crate::ir::UnOp::Not,
                arg: Box::new(all),
                ty: Ty::Bool,
            },
        },
        span: k.span.clone(),
    };
    let launch = Launch {
        geometry: v.geometry.clone(),
        index_fits: None,
        signed: Vec::new(),
        only: None,
        prefer: Vec::new(),
        refuted: BTreeSet::new(),
    };
    if satisfiable(
        k,
        opts,
        run,
        &launch,
        vec![broken],
        "no wrap implied by the launch",
        answers,
    )? == Some(false)
    {
        v.wrap = [false; 3];
        v.combined = false;
    }
    Ok(())
}

/// The conditions of the contracts' vocabulary, all at once, for a launch with `geometry`
/// (empty when it is concrete): the open standard assumptions ([`Vocabulary::conditions`])
/// and the parameter relations that can hold together ([`relations::preferred`]). A witness
/// that satisfies them all is kept by every contract and every relation, so the first
/// verification looks for such witnesses first ([`Launch::prefer`]).
pub(in crate::driver) fn preferences(k: &Kernel, geometry: &Geometry, no_overflow: bool) -> Vec<Expr> {
    if geometry.block_dim.iter().chain(&geometry.grid_dim).all(Option::is_some) {
        return Vec::new();
    }
    let mut conds = Vocabulary::of(k, geometry.clone(), no_overflow).conditions();
    conds.extend(relations::preferred(k, geometry));
    conds
}

/// Whether the uniform entry condition `cond` holds for the parameter values and launch of
/// `f`'s witness, the dimensions `given` concrete taken from there (`None`: not known, e.g.
/// the witness rests on an abstraction or lacks a value).
pub(in crate::driver) fn holds_in_witness(k: &Kernel, given: &Geometry, cond: &Expr, f: &Finding) -> Option<bool> {
    if f.possible {
        return None;
    }
    let mut env = crate::ir::eval::Env::default();
    for p in &k.params {
        if let crate::ir::ParamKind::Scalar(id) = p.kind
            && let Some((_, text)) = f.params.iter().find(|(n, _)| *n == p.name)
            && let Ok(value) = text.parse::<BigInt>()
        {
            env.set(id, value);
        }
    }
    crate::ir::eval::eval(cond, &env, &witness_geometry(given, f)).map(|b| b != BigInt::from(0))
}

/// The value of geometry dimension `kind.d` (`blockDim`, 1) in `f`'s witness launch: as
/// `given`, else the witness's.
fn dim_value(given: &Geometry, f: &Finding, block: bool, i: usize) -> Option<u64> {
    let (kind, given) = if block {
        ("blockDim", given.block_dim[i])
    } else {
        ("gridDim", given.grid_dim[i])
    };
    let name = format!("{kind}.{}", DIMS[i]);
    given
        .map(u64::from)
        .or_else(|| f.geometry.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
}

/// `f`'s witness launch: the `given` dimensions and the witness's values of the others
/// (`None` in a dimension the witness does not give or that does not fit 32 bits).
fn witness_geometry(given: &Geometry, f: &Finding) -> Geometry {
    let dim = |block: bool, i: usize| dim_value(given, f, block, i).and_then(|v| u32::try_from(v).ok());
    Geometry {
        block_dim: [dim(true, 0), dim(true, 1), dim(true, 2)],
        grid_dim: [dim(false, 0), dim(false, 1), dim(false, 2)],
    }
}

const DIMS: [&str; 3] = ["x", "y", "z"];

/// The standard assumptions: re-verifies `k` under them (the index bounded at 2^32, then at
/// 2^31) unless every finding's witness already lies in their launches; turns `result` into a
/// verdict with a contract when one excludes every finding, else moves the findings that the
/// strongest one excludes to [`KernelResult::excluded`] and keeps those of its launches. The
/// signed assumption is not among them here ([`signed`] follows). Returns the index bound of
/// the launch whose findings `result` now holds (`None` inside: no bound), or `None` when no
/// re-verification was decided or the assumptions are vacuous.
fn standard(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    v: &Vocabulary,
    result: &mut KernelResult,
    answers: &mut Vec<String>,
) -> Result<Option<(Option<u32>, bool)>, Error> {
    if !v.open() || result.findings.iter().all(|f| v.admits(f, v.strongest(), v.combined)) {
        return Ok(Some((v.strongest(), v.combined)));
    }
    // When every witness fits in 2^31 threads, no finding needs the index to wrap: the unused
    // dimensions alone are tried first, so the contract names no bound it does not need.
    let fitting = result
        .findings
        .iter()
        .all(|f| v.fitting_witness(f, 31, false) == Some(true));
    // Each candidate: the bound's bits and whether it bounds the whole launch (tried last,
    // when the kernel combines dimensions and the per-dimension bounds leave findings).
    let mut candidates: Vec<(Option<u32>, bool)> = match (v.wraps(), v.unused.is_empty()) {
        (false, _) => vec![(None, false)],
        (true, false) if fitting => vec![(None, false), (Some(32), false), (Some(31), false)],
        (true, _) => vec![(Some(32), false), (Some(31), false)],
    };
    if v.combined {
        candidates.extend([(Some(32), true), (Some(31), true)]);
    }
    // The last decided re-verification: its bound and its result; and that of the unused
    // dimensions alone, when it was asked.
    let mut last: Option<((Option<u32>, bool), KernelResult)> = None;
    let mut dims_only: Option<KernelResult> = None;
    for (bits, total) in candidates {
        // A weaker bound's findings whose witnesses fit the stronger one stay under it too:
        // when all of them do, the stronger bound has the same findings.
        if let Some((_, r)) = &last
            && r.findings.iter().all(|f| v.admits(f, bits, total))
        {
            last = last.map(|(_, r)| ((bits, total), r));
            continue;
        }
        let launch = v.launch(bits, total);
        let r = reverify(k, opts, run, &launch, false)?;
        answers.extend(r.answers.iter().map(|a| format!("{} {a}", label(&launch))));
        // (verify_under hands the run's undecided queries over to its result.)
        if !r.inconclusive.is_empty() {
            continue;
        }
        let verified = r.verdict == Verdict::Verified;
        if bits.is_none() && v.wraps() {
            dims_only = Some(r.clone());
        }
        last = Some(((bits, total), r));
        if verified {
            break;
        }
    }
    let Some(((bits, total), under)) = last else {
        undecided(
            v,
            result,
            "no re-verification under the standard assumptions was decided",
        );
        return Ok(None);
    };
    // Vacuity before verdicts: assumptions that contradict the kernel's own requirements
    // (`__requires(blockDim.y == 2)` with `blockDim.y = 1`) exclude every finding and mean
    // nothing; then there is no contract.
    let launch = v.launch(bits, total);
    let excludes = |f: &Finding| counterpart(f, &under).is_none();
    if result.findings.iter().any(excludes) {
        let named = label(&launch);
        let note = match satisfiable(k, opts, run, &launch, Vec::new(), named.trim_end_matches(':'), answers)? {
            Some(true) => None,
            Some(false) => {
                Some("the standard launch assumptions contradict the kernel's requirements: no launch contract")
            }
            None => {
                undecided(
                    v,
                    result,
                    "whether the standard launch assumptions admit any launch of the kernel is undecided",
                );
                return Ok(None);
            }
        };
        if let Some(note) = note {
            result.notes.push(note.into());
            return Ok(None);
        }
    }
    let (gone, kept): (Vec<Finding>, Vec<Finding>) = std::mem::take(&mut result.findings)
        .into_iter()
        .partition(|f| excludes(f));
    let conditions = conditions(k, opts, run, v, (bits, total), &gone, dims_only.as_ref(), answers)?;
    result.excluded = gone
        .into_iter()
        .zip(conditions)
        .map(|(finding, condition)| Excluded {
            finding,
            condition: format!("only when {condition}"),
        })
        .collect();
    if under.verdict == Verdict::Verified {
        let mut contract: Vec<String> = v.unused.iter().map(|(n, _, _)| format!("{n} = 1")).collect();
        match bits {
            // The whole launch's bound implies each dimension's.
            Some(bits) if total => contract.push(format!("{} <= 2^{bits}", v.extents().join(" * "))),
            Some(bits) => {
                for i in (0..3).filter(|i| v.wrap[*i]) {
                    let d = DIMS[i];
                    contract.push(format!("gridDim.{d} * blockDim.{d} <= 2^{bits}"));
                }
            }
            None => {}
        }
        settle_unchecked(k, result);
        let n = result.excluded.len();
        result.notes.push(format!(
            "the launch contract is the standard assumptions; --strict reports the {} excluded finding{} as defect{}",
            n,
            if n == 1 { "" } else { "s" },
            if n == 1 { "" } else { "s" },
        ));
        result.contract = contract;
    } else {
        // The defects of the standard launches, with their witnesses there: the first
        // verification's own when it already lies in them (it was sought in the preferred
        // launches first, and lists the small launch a reader checks by hand), else the
        // re-verification's. A racing pair that needs a launch outside them (listed as
        // excluded) must not cost the others their witnesses.
        result.findings = under
            .findings
            .into_iter()
            .map(|g| {
                kept.iter()
                    .find(|f| same_sites(f, &g) && v.admits(f, bits, total))
                    .cloned()
                    .unwrap_or(g)
            })
            .collect();
        if !result.excluded.is_empty() {
            result.notes.push(
                "the findings listed as excluded need launches outside the standard assumptions; --strict reports them as defects".into(),
            );
        }
    }
    Ok(Some((bits, total)))
}

/// The condition of the launches each finding of `gone` needs: which kind of standard
/// assumption alone excludes it (unused dimensions of extent 1, no wrap at 2^`bits` of each
/// dimension's index, or of the whole launch's when `bound.1`). A kind
/// that the finding's witness satisfies cannot exclude it alone; the others are asked by one
/// re-verification each, only when some finding needs the answer (the unused dimensions'
/// one is `dims_only` when the contract search already asked it).
#[allow(clippy::too_many_arguments)]
fn conditions(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    v: &Vocabulary,
    bound: (Option<u32>, bool),
    gone: &[Finding],
    dims_only: Option<&KernelResult>,
    answers: &mut Vec<String>,
) -> Result<Vec<String>, Error> {
    let (bits, total) = bound;
    let n = gone.len();
    // Per finding: `None` when that kind is not in the contract, else whether it alone
    // excludes the finding.
    let (mut by_dims, mut by_wrap): (Vec<Option<bool>>, Vec<Option<bool>>) = match bits {
        None => (vec![Some(true); n], vec![None; n]),
        Some(_) if v.unused.is_empty() => (vec![None; n], vec![Some(true); n]),
        Some(b) => (
            gone.iter()
                .map(|f| v.flat_witness(f).filter(|w| *w).map(|_| false))
                .collect(),
            gone.iter()
                .map(|f| v.fitting_witness(f, b, total).filter(|w| *w).map(|_| false))
                .collect(),
        ),
    };
    let mut alone = |run: &mut KernelRun,
                     launch: Launch,
                     known: Option<&KernelResult>,
                     out: &mut Vec<Option<bool>>|
     -> Result<(), Error> {
        if out.iter().all(Option::is_some) {
            return Ok(());
        }
        let asked;
        let r = match known {
            Some(r) => r,
            None => {
                asked = reverify(k, opts, run, &launch, false)?;
                answers.extend(asked.answers.iter().map(|a| format!("{} {a}", label(&launch))));
                &asked
            }
        };
        let decided = r.inconclusive.is_empty();
        for (f, slot) in gone.iter().zip(out.iter_mut()) {
            if slot.is_none() {
                *slot = Some(decided && counterpart(f, r).is_none());
            }
        }
        Ok(())
    };
    if let (Some(b), false) = (bits, v.unused.is_empty()) {
        let dims = Launch {
            geometry: v.flat(),
            index_fits: None,
            signed: Vec::new(),
            only: v.only.clone(),
            prefer: Vec::new(),
            refuted: BTreeSet::new(),
        };
        alone(run, dims, dims_only, &mut by_dims)?;
        let wraps = Launch {
            geometry: v.geometry.clone(),
            index_fits: Some(v.fits(b, total)),
            signed: Vec::new(),
            only: v.only.clone(),
            prefer: Vec::new(),
            refuted: BTreeSet::new(),
        };
        alone(run, wraps, None, &mut by_wrap)?;
    }
    let dims_condition = |f: &Finding| -> String {
        let wide: Vec<String> = f
            .geometry
            .iter()
            .filter(|(n, val)| *val > 1 && v.unused.iter().any(|(u, _, _)| u == n))
            .map(|(n, val)| format!("{n} = {val}"))
            .collect();
        let shown = if wide.is_empty() {
            String::new()
        } else {
            format!(" (its witness: {})", wide.join(", "))
        };
        format!("a launch dimension the kernel never reads is above 1{shown}")
    };
    let wrap_condition = |f: &Finding| -> String {
        let b = bits.unwrap_or(32);
        let what = f
            .array
            .as_deref()
            .map(|a| format!("races on {a}"))
            .unwrap_or_else(|| "has this defect".into());
        let threads = if total {
            format!(
                "a launch of more than 2^{b} threads in all ({})",
                v.extents().join(" * ")
            )
        } else {
            format!("a launch of more than 2^{b} threads in a dimension")
        };
        format!("the linear thread index wraps: {threads} {what}")
    };
    Ok(gone
        .iter()
        .zip(by_dims.iter().zip(&by_wrap))
        .map(|(f, (d, w))| match (d, w) {
            (Some(true), Some(true)) => format!("{} and {}", dims_condition(f), wrap_condition(f)),
            (Some(true), _) => dims_condition(f),
            (_, Some(true)) => wrap_condition(f),
            _ => format!("{}, or {}", dims_condition(f), wrap_condition(f)),
        })
        .collect())
}

/// The findings of `result` whose witness does not lie in the launches of every standard
/// assumption, after the re-verification that would decide them was undecided (issue 53
/// item 3): they may need a launch outside the assumptions or not, so they are neither
/// defects nor excluded. They are listed apart with that condition, and the verdict is
/// inconclusive unless a finding whose witness lies there keeps it a defect. A timeout can so
/// make a result inconclusive, never turn a verdict into another.
fn undecided(v: &Vocabulary, result: &mut KernelResult, why: &str) {
    let strongest = v.strongest();
    let (kept, open): (Vec<Finding>, Vec<Finding>) = std::mem::take(&mut result.findings)
        .into_iter()
        .partition(|f| v.admits(f, strongest, v.combined));
    result.findings = kept;
    open_findings(result, open, why);
}

/// As [`undecided`] for the signed assumption: every finding but the signed overflows
/// (which it never excludes) is open.
fn undecided_signed(result: &mut KernelResult, why: &str) {
    let (kept, open): (Vec<Finding>, Vec<Finding>) = std::mem::take(&mut result.findings)
        .into_iter()
        .partition(|f| f.kind == FindingKind::SignedOverflow);
    result.findings = kept;
    open_findings(result, open, why);
}

/// Reports `open` in `result` as defects, with a note that their exclusion under the standard
/// assumptions is undecided (`why`).
fn open_findings(result: &mut KernelResult, open: Vec<Finding>, why: &str) {
    if open.is_empty() {
        return;
    }
    // Kept as defects: a finding whose exclusion is unknown is reported, never hidden nor
    // turned into an inconclusive verdict (a real race that a slow re-verification could not
    // place stays reported), with a note saying so.
    result.notes.push(format!(
        "{why}: whether {} of the findings need a launch outside the standard assumptions is unknown, so they are reported",
        open.len()
    ));
    result.findings.extend(open);
}

/// [`Reverify::verify_under`] for a re-verification of the launch contracts: each query under
/// the run's own limit (`--timeout`), a query with a linear relaxation answered by it only
/// (`relaxed_only`: no exact query when the relaxation does not settle it), or also exactly.
///
/// No clock of its own decides anything (issue 53, item 3): its re-verifications are few (the
/// standard assumptions' bounds, the signed assumption once, at most
/// `relations::MAX_CHECKS` for the relations), each asked as the first verification is; once a
/// query of one runs into `--timeout` no later re-verification is asked
/// ([`KernelRun::gave_up`]), and a finding whose exclusion that leaves undecided makes the
/// verdict inconclusive ([`undecided`]), never keeps it a defect. So the same file gives the
/// same report at any load unless a query's time is near `--timeout`, as for any query.
fn reverify(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    launch: &Launch,
    relaxed_only: bool,
) -> Result<KernelResult, Error> {
    reverify_as(k, opts, run, launch, relaxed_only, true)
}

/// [`reverify`], where `discards_undecided` tells that the caller uses an undecided result for
/// nothing but its being undecided (every caller but the vacuity probe, which keeps an
/// assertion found beside an undecided check): its first undecided check then ends it
/// ([`KernelRun::stop_when_undecided`]), with the same outcome for the contract, and the
/// queries after it are not asked.
fn reverify_as(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    launch: &Launch,
    relaxed_only: bool,
    discards_undecided: bool,
) -> Result<KernelResult, Error> {
    run.inconclusive.clear();
    if run.gave_up {
        const WHY: &str = "an earlier re-verification of the launch contracts ran into its limit";
        return Ok(KernelResult {
            answers: vec![format!("not asked: {WHY}")],
            ..KernelResult::undecided(&k.name, vec![WHY.into()], run.elapsed())
        });
    }
    let timeouts = run.timeouts;
    run.relaxed_only = relaxed_only;
    run.stop_when_undecided = discards_undecided;
    let r = opts.verify_under(k, run, launch);
    run.relaxed_only = false;
    run.stop_when_undecided = false;
    run.gave_up = run.timeouts > timeouts;
    // The parts of the kernel that are never checked (a launch from device code) make every
    // verification inconclusive whatever the launch; a re-verification is judged on what it
    // checks, and the kernel's result keeps them ([`settle_unchecked`]).
    r.map(|mut r| {
        let fixed: Vec<String> = super::pipeline::reasons(&k.unchecked).collect();
        if !fixed.is_empty() {
            r.inconclusive.retain(|w| !fixed.contains(w));
            r.verdict = Verdict::of(!r.findings.is_empty(), !r.inconclusive.is_empty());
        }
        r
    })
}

/// A result whose findings a launch contract all excluded: verified under it, or, when parts
/// of `k` are never checked ([`Kernel::unchecked`]), inconclusive for those alone.
pub(super) fn settle_unchecked(k: &Kernel, result: &mut KernelResult) {
    result.inconclusive = super::pipeline::reasons(&k.unchecked).collect();
    result.verdict = Verdict::of(false, !result.inconclusive.is_empty());
}

/// Vacuity before verdicts (STYLE.md): whether the kernel's entry can be reached under
/// `launch` with the statements `assumed` and the kernel's leading `__requires`/`__assume`s
/// all holding (with the assignments among them), asked as an `assert(false)` right after
/// them (a failing assertion is a model); `None` when undecided. `named` names the
/// assumptions for `--explain`.
fn satisfiable(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    launch: &Launch,
    assumed: Vec<Stmt>,
    named: &str,
    answers: &mut Vec<String>,
) -> Result<Option<bool>, Error> {
    let mut probe = k.clone();
    let leading = k.body.iter().take_while(|s| {
        matches!(
            s.kind,
            StmtKind::Assume { .. } | StmtKind::Assign { .. } | StmtKind::Havoc { .. }
        )
    });
    let fail = Stmt {
        kind: StmtKind::Assert {
            cond: Expr::Const {
                value: BigInt::from(0),
                ty: Ty::Bool,
            },
        },
        span: k.span.clone(),
    };
    probe.body = assumed.into_iter().chain(leading.cloned()).chain([fail]).collect();
    // The probe's checks are its own: none was refuted before.
    let launch = Launch {
        only: None,
        prefer: Vec::new(),
        refuted: BTreeSet::new(),
        ..launch.clone()
    };
    let r = reverify_as(&probe, opts, run, &launch, false, false)?;
    answers.extend(r.answers.iter().map(|a| format!("{named} (vacuity): {a}")));
    let found = r.findings.iter().any(|f| f.kind == FindingKind::Assertion);
    Ok((found || r.inconclusive.is_empty()).then_some(found))
}

/// How `--explain` names a re-verification: `contract (blockDim.y = 1, …; index < 2^32):`.
fn label(launch: &Launch) -> String {
    let mut parts = Vec::new();
    for (kind, dims) in [
        ("blockDim", &launch.geometry.block_dim),
        ("gridDim", &launch.geometry.grid_dim),
    ] {
        for (i, d) in dims.iter().enumerate() {
            if let Some(v) = d {
                parts.push(format!("{kind}.{} = {v}", DIMS[i]));
            }
        }
    }
    if let Some(fits) = launch.index_fits {
        parts.push(format!("linear index < 2^{}", fits.bits));
        if fits.launch {
            parts.push(format!("at most 2^{} threads in all", fits.bits));
        }
    }
    match launch.signed.len() {
        0 => {}
        1 => parts.push(format!("signed operation {} does not overflow", launch.signed[0])),
        _ => parts.push("no signed overflow".into()),
    }
    format!("contract ({}):", parts.join(", "))
}

/// The finding of `r`, a re-verification's result, that stands for `f` there, `None` when `f`
/// is excluded: one at the same sites; else, when `r` may not list every racing pair of `f`'s
/// array ([`KernelResult::unlisted_pairs`]: its listing stopped at `--race-pairs` or at an
/// undecided query), one of the same check, since `f`'s pair may race there unlisted. With
/// every pair listed (the default), a pair missing from `r` races in none of its launches.
fn counterpart<'r>(f: &Finding, r: &'r KernelResult) -> Option<&'r Finding> {
    let listed = |a: &Option<String>| a.as_ref().is_none_or(|a| !r.unlisted_pairs.contains(a));
    r.findings
        .iter()
        .find(|g| same_sites(f, g))
        .or_else(|| match listed(&f.array) {
            true => None,
            false => r.findings.iter().find(|g| same_check(f, g)),
        })
}

/// Found by the same check: a race on the same array (one check asks for any pair of its
/// accesses, and a re-verification may answer it with another pair: the pair found first is
/// then not shown to need the assumption), else the same kind at the same sites.
fn same_check(a: &Finding, b: &Finding) -> bool {
    match (a.kind, b.kind) {
        (FindingKind::Race { .. }, FindingKind::Race { .. }) => a.array == b.array,
        _ => same_sites(a, b),
    }
}

/// Same kind of defect (same array) at the same source sites.
fn same_sites(a: &Finding, b: &Finding) -> bool {
    let sites = |f: &Finding| {
        let mut v: Vec<String> = f.accesses.iter().map(|x| x.span.to_string()).collect();
        v.sort();
        v
    };
    // Two signed operations may start at one place (`row * w` and `row * w + col`): their
    // reasons name them.
    let op = |f: &Finding| (f.kind == FindingKind::SignedOverflow).then(|| f.reason.clone());
    a.kind == b.kind && a.array == b.array && sites(a) == sites(b) && op(a) == op(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Span;
    use crate::verdict::{AccessKind, WitnessAccess};

    /// A race on `array` between the accesses at columns `a` and `b` of line 1.
    fn race(array: &str, a: u32, b: u32) -> Finding {
        let access = |col: u32| WitnessAccess {
            span: Span {
                file: "k.cu".into(),
                line: 1,
                col,
                end_col: None,
            },
            access: AccessKind::Write,
            block: [0; 3],
            thread: [col as u64, 0, 0],
            reaches: None,
        };
        Finding {
            signed_ok: None,
            kind: FindingKind::Race { write_write: true },
            array: Some(array.into()),
            accesses: vec![access(a), access(b)],
            params: Vec::new(),
            geometry: Vec::new(),
            index: None,
            possible: false,
            abstractions: Vec::new(),
            condition: None,
            reason: None,
        }
    }

    /// Issue 53 item 5: a racing pair missing from a re-verification that listed every pair of
    /// its array is excluded; one missing from a listing that stopped short (the limit, an
    /// undecided query, `--race-pairs 1`) is not, since it may race there unlisted.
    #[test]
    fn a_pair_is_excluded_only_by_a_complete_listing() {
        let mut r = KernelResult::undecided("k", Vec::new(), std::time::Duration::ZERO);
        r.findings = vec![race("s", 5, 9)];
        let same = race("s", 9, 5);
        let other = race("s", 5, 5);
        let elsewhere = race("t", 5, 7);
        assert_eq!(counterpart(&same, &r), Some(&r.findings[0]));
        assert_eq!(counterpart(&other, &r), None);
        assert_eq!(counterpart(&elsewhere, &r), None);
        r.unlisted_pairs = vec!["s".into()];
        assert_eq!(counterpart(&other, &r), Some(&r.findings[0]));
        assert_eq!(counterpart(&elsewhere, &r), None);
    }
}
