//! Launch contracts (DESIGN.md "Launch contracts", issue 11): the conditions of a finding made
//! under a launch that is not fully concrete, found by verifying the kernel again under the
//! standard launch assumptions.
//!
//! The standard assumptions, each added only where the launch leaves it open:
//! - a y or z dimension the kernel never reads has extent 1 (`blockDim.y = 1` when
//!   `threadIdx.y` is never read, `gridDim.y = 1` when `blockIdx.y` is never read; likewise z).
//!   Never x: pinning every dimension would leave a launch of one thread, which has no pair
//!   of threads, so the pair model would verify it vacuously;
//! - the linear thread index of each dimension the kernel reads does not wrap:
//!   `gridDim.d * blockDim.d <= 2^32` (an `unsigned` index), else `<= 2^31` (an `int` one).
//!
//! When every finding disappears under them, the kernel is verified *for launches where* they
//! hold: [`KernelResult::contract`] lists them and each finding moves to
//! [`KernelResult::excluded`] with the condition of the launches it needs (PUG §8 counts such
//! "subtle undocumented assumptions" among what it found by hand). A finding that stays under
//! them stays a defect, and so do all the others (the contract is all or nothing). `--strict`
//! skips this pass.
//!
//! Soundness: the re-verification is the pair model itself with the geometry narrowed (unused
//! dimensions pinned to 1) and the no-wrap assumption's per-thread consequences asserted
//! ([`crate::encode::EncodeOptions::index_fits`], implied by the contract); a verdict under
//! them holds for every launch the contract allows. A re-verification that is inconclusive
//! leaves the findings as they were.
//!
//! Must not: print, build SMT terms, or assume parameter relations (those are suggested only).

use super::Error;
use super::pipeline::KernelRun;
use super::verify::{Launch, VerifyOptions, verify_under};
use crate::ir::query::builtins_read;
use crate::ir::{Builtin, Dim, Kernel};
use crate::verdict::{Excluded, Finding, KernelResult, Verdict};

/// Re-verifies `k` under the standard launch assumptions when `result` has findings and the
/// launch is not concrete, and turns `result` into a verdict with a contract when they
/// exclude every finding. Errors: those of [`verify_under`] (a solver that cannot start).
pub(super) fn apply(
    k: &Kernel,
    opts: &VerifyOptions,
    run: &mut KernelRun,
    result: &mut KernelResult,
) -> Result<(), Error> {
    if result.findings.is_empty() || result.verdict != Verdict::Defect {
        return Ok(());
    }
    let geometry = &run.options().geometry;
    let reads = builtins_read(&k.body);
    let read = |b: Builtin| reads.contains(&b);
    // Unused dimensions left symbolic: (name, block?, dimension index).
    let mut unused: Vec<(String, bool, usize)> = Vec::new();
    let mut wrap = [false; 3];
    for d in Dim::ALL {
        let i = d.index();
        let name = ["x", "y", "z"][i];
        // Never x: a launch of one thread has no pair of threads, and the pair model would
        // verify it vacuously (an assertion that fails in every thread included).
        if i > 0 && geometry.block_dim[i].is_none() && !read(Builtin::ThreadIdx(d)) {
            unused.push((format!("blockDim.{name}"), true, i));
        }
        if i > 0 && geometry.grid_dim[i].is_none() && !read(Builtin::BlockIdx(d)) {
            unused.push((format!("gridDim.{name}"), false, i));
        }
        let symbolic = geometry.block_dim[i].is_none() || geometry.grid_dim[i].is_none();
        wrap[i] = symbolic && (read(Builtin::ThreadIdx(d)) || read(Builtin::BlockIdx(d)));
    }
    if unused.is_empty() && !wrap.contains(&true) {
        return Ok(());
    }
    let mut flat = geometry.clone();
    for (_, block, i) in &unused {
        let slot = if *block {
            &mut flat.block_dim[*i]
        } else {
            &mut flat.grid_dim[*i]
        };
        *slot = Some(1);
    }
    let saved = (std::mem::take(&mut run.inconclusive), run.queries);
    let mut answers = Vec::new();
    run.dump = false;
    let vocabulary = Vocabulary {
        geometry: geometry.clone(),
        flat,
        wrap,
        has_unused: !unused.is_empty(),
    };
    let outcome = choose(k, opts, run, &vocabulary, result, &mut answers);
    run.inconclusive = saved.0;
    run.dump = true;
    let extra = run.queries - saved.1;
    result.answers.append(&mut answers);
    let Some((bits, conditions)) = outcome? else {
        return Ok(());
    };
    let mut contract: Vec<String> = unused.iter().map(|(n, _, _)| format!("{n} = 1")).collect();
    if let Some(bits) = bits {
        for (i, _) in wrap.iter().enumerate().filter(|(_, w)| **w) {
            let d = ["x", "y", "z"][i];
            contract.push(format!("gridDim.{d} * blockDim.{d} <= 2^{bits}"));
        }
    }
    result.excluded = std::mem::take(&mut result.findings)
        .into_iter()
        .zip(conditions)
        .map(|(finding, condition)| Excluded {
            finding,
            condition: format!("only when {condition}"),
        })
        .collect();
    result.verdict = Verdict::Verified;
    result.inconclusive.clear();
    let n = result.excluded.len();
    result.notes.push(format!(
        "the launch contract is the standard assumptions; --strict reports the {} excluded finding{} as defect{}",
        n,
        if n == 1 { "" } else { "s" },
        if n == 1 { "" } else { "s" },
    ));
    result.contract = contract;
    result.queries += extra;
    result.time = run.elapsed();
    Ok(())
}

/// The standard assumptions open for a launch: the geometry as given, the geometry with the
/// unused dimensions pinned to 1 (`flat`), the dimensions whose index may wrap, and whether any
/// dimension is unused.
struct Vocabulary {
    geometry: crate::passes::Geometry,
    flat: crate::passes::Geometry,
    wrap: [bool; 3],
    has_unused: bool,
}

/// The bits of the no-wrap bound (`None`: no dimension to bound) and each finding's condition.
type Chosen = (Option<u32>, Vec<String>);

/// The weakest contract that verifies `k`: the unused dimensions pinned (`flat`) and no wrap of
/// the index at 2^32, else at 2^31 (`None` bits: no dimension to bound). Returns the bits and,
/// per finding of `before`, the condition of the launches it needs; `None` when no contract
/// verifies the kernel.
fn choose(
    k: &Kernel,
    opts: &VerifyOptions,
    run: &mut KernelRun,
    v: &Vocabulary,
    before: &KernelResult,
    answers: &mut Vec<String>,
) -> Result<Option<Chosen>, Error> {
    let (before_geometry, flat, wrap, has_unused) = (&v.geometry, &v.flat, v.wrap, v.has_unused);
    let candidates: Vec<Option<u32>> = if wrap.contains(&true) {
        vec![Some(32), Some(31)]
    } else {
        vec![None]
    };
    let mut chosen = None;
    for bits in candidates {
        let launch = Launch {
            geometry: flat.clone(),
            index_fits: bits.map(|b| (b, wrap)),
        };
        run.inconclusive.clear();
        let r = verify_under(k, opts, run, &launch)?;
        answers.extend(r.answers.iter().map(|a| format!("{} {a}", label(&launch))));
        if r.verdict == Verdict::Verified && run.inconclusive.is_empty() {
            chosen = Some(bits);
            break;
        }
    }
    let Some(bits) = chosen else { return Ok(None) };
    let dims_condition = |f: &Finding| -> String {
        let wide: Vec<String> = f
            .geometry
            .iter()
            .filter(|(n, v)| *v > 1 && is_pinned(n, flat))
            .map(|(n, v)| format!("{n} = {v}"))
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
        format!("the linear thread index wraps: a launch of more than 2^{b} threads in a dimension {what}")
    };
    // Which findings each kind of assumption alone excludes: `None` when that kind is not
    // in the contract, else whether it excludes the finding (an undecided run excludes none).
    let alone = |run: &mut KernelRun, launch: Launch, answers: &mut Vec<String>| -> Result<Vec<Option<bool>>, Error> {
        run.inconclusive.clear();
        let r = verify_under(k, opts, run, &launch)?;
        answers.extend(r.answers.iter().map(|a| format!("{} {a}", label(&launch))));
        let decided = run.inconclusive.is_empty();
        Ok(before
            .findings
            .iter()
            .map(|f| Some(decided && !r.findings.iter().any(|g| same_sites(f, g))))
            .collect())
    };
    let n = before.findings.len();
    let (by_dims, by_wrap) = match bits {
        None => (vec![Some(true); n], vec![None; n]),
        Some(_) if !has_unused => (vec![None; n], vec![Some(true); n]),
        Some(b) => {
            let dims = alone(
                run,
                Launch {
                    geometry: flat.clone(),
                    index_fits: None,
                },
                answers,
            )?;
            let wraps = alone(
                run,
                Launch {
                    geometry: before_geometry.clone(),
                    index_fits: Some((b, wrap)),
                },
                answers,
            )?;
            (dims, wraps)
        }
    };
    let conditions = before
        .findings
        .iter()
        .zip(by_dims.iter().zip(&by_wrap))
        .map(|(f, (d, w))| match (d, w) {
            (Some(true), Some(true)) => format!("{} and {}", dims_condition(f), wrap_condition(f)),
            (Some(true), _) => dims_condition(f),
            (_, Some(true)) => wrap_condition(f),
            _ => format!("{}, or {}", dims_condition(f), wrap_condition(f)),
        })
        .collect();
    Ok(Some((bits, conditions)))
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
                parts.push(format!("{kind}.{} = {v}", ["x", "y", "z"][i]));
            }
        }
    }
    if let Some((bits, _)) = launch.index_fits {
        parts.push(format!("linear index < 2^{bits}"));
    }
    format!("contract ({}):", parts.join(", "))
}

/// Whether geometry name `n` (`blockDim.y`) is a dimension the contract pins to 1.
fn is_pinned(n: &str, flat: &crate::passes::Geometry) -> bool {
    let Some((kind, d)) = n.split_once('.') else {
        return false;
    };
    let i = match d {
        "x" => 0,
        "y" => 1,
        _ => 2,
    };
    match kind {
        "blockDim" => flat.block_dim[i] == Some(1),
        "gridDim" => flat.grid_dim[i] == Some(1),
        _ => false,
    }
}

/// Same kind of defect (same array) at the same source sites.
fn same_sites(a: &Finding, b: &Finding) -> bool {
    let sites = |f: &Finding| {
        let mut v: Vec<String> = f.accesses.iter().map(|x| x.span.to_string()).collect();
        v.sort();
        v
    };
    a.kind == b.kind && a.array == b.array && sites(a) == sites(b)
}
