//! Parameter relations, the last kind of the launch contracts' vocabulary (issue 11 item 1):
//! the relations kernels are written for, between a scalar parameter the kernel reads and the
//! launch (`n % blockDim.x == 0`, `n <= gridDim.x * blockDim.x`, `n >= 1`), and of the block
//! size alone (`blockDim.x` a power of two, `blockDim.x == C` for a `__shared__` array of `C`
//! elements). Each is kept twice: as the `--assume` text a user would write, and as the IR
//! condition that text means under C's usual arithmetic conversions (the same conversions
//! clang inserts for `--assume`), so a suggestion checks what the user's run will check.
//!
//! A relation is never assumed for a verdict: [`suggest`] verifies the kernel again with it
//! assumed at entry (as `__requires` would be) and reports it as a suggestion when no finding
//! remains; a finding that disappears under it carries its negation as its condition.
//!
//! Must not: build SMT terms or print.

use super::super::Error;
use super::super::pipeline::KernelRun;
use super::super::verify::{Launch, VerifyOptions, verify_under};
use super::same_sites;
use crate::ir::query::read_vars;
use crate::ir::{BinOp, Builtin, Dim, Expr, Kernel, ParamKind, Space, Stmt, StmtKind, Ty};
use crate::verdict::{Finding, KernelResult};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// Most re-verifications one kernel's relations may cost (the single relations in the order
/// of [`vocabulary`], then their conjunction).
const MAX_CHECKS: usize = 8;

/// One relation of the vocabulary.
#[derive(Clone, Debug)]
pub(super) struct Relation {
    /// As `--assume` takes it: `n % blockDim.x == 0`.
    pub text: String,
    /// Its negation, for a finding's condition: `n % blockDim.x != 0`.
    pub negation: String,
    /// The condition `text` means (type `Bool`), over the kernel's entry state.
    pub cond: Expr,
    /// For `blockDim.x == C`: `C` (two such relations contradict each other, and one with a
    /// `C` that is not a power of two contradicts [`power_of_two`]).
    pub block_size: Option<u64>,
}

/// The relations worth asking for `k` under a launch with `geometry` (which says which
/// dimensions are symbolic), in the order they are tried: for each integer scalar parameter
/// the kernel reads, `p % blockDim.x == 0`, `p <= gridDim.x * blockDim.x` and `p >= 1`; then,
/// when `blockDim.x` is symbolic, it being a power of two, and `blockDim.x == C` for each
/// distinct element count `C` (2 to 1024, CUDA's largest block) of a `__shared__` array.
pub(super) fn vocabulary(k: &Kernel, geometry: &crate::passes::Geometry) -> Vec<Relation> {
    let mut read = BTreeSet::new();
    read_vars(&k.body, &mut read);
    let block = || Expr::Builtin(Builtin::BlockDim(Dim::X));
    let grid = || Expr::Builtin(Builtin::GridDim(Dim::X));
    let mut out = Vec::new();
    for p in &k.params {
        let ParamKind::Scalar(id) = p.kind else { continue };
        let ty = k.var(id).ty;
        if !matches!(ty, Ty::Int { .. }) || !read.contains(&id) {
            continue;
        }
        let var = || Expr::Var { id, ty };
        let n = &p.name;
        out.push(Relation {
            text: format!("{n} % blockDim.x == 0"),
            negation: format!("{n} % blockDim.x != 0"),
            cond: compare(BinOp::Eq, arith(BinOp::Rem, var(), block()), int(0)),
            block_size: None,
        });
        out.push(Relation {
            text: format!("{n} <= gridDim.x * blockDim.x"),
            negation: format!("{n} > gridDim.x * blockDim.x"),
            cond: compare(BinOp::Le, var(), arith(BinOp::Mul, grid(), block())),
            block_size: None,
        });
        out.push(Relation {
            text: format!("{n} >= 1"),
            negation: format!("{n} < 1"),
            cond: compare(BinOp::Ge, var(), int(1)),
            block_size: None,
        });
    }
    if geometry.block_dim[0].is_none() {
        out.push(power_of_two());
        let mut sizes = BTreeSet::new();
        for a in k
            .arrays
            .iter()
            .filter(|a| a.space == Space::Shared && !a.dims.is_empty())
        {
            let c: u64 = a.dims.iter().product();
            if (2..=1024).contains(&c) {
                sizes.insert(c);
            }
        }
        for c in sizes {
            out.push(Relation {
                text: format!("blockDim.x == {c}"),
                negation: format!("blockDim.x != {c}"),
                cond: compare(BinOp::Eq, block(), int(c as i64)),
                block_size: Some(c),
            });
        }
    }
    out
}

/// `(blockDim.x & (blockDim.x - 1)) == 0`: the block's x extent is a power of two.
fn power_of_two() -> Relation {
    let block = || Expr::Builtin(Builtin::BlockDim(Dim::X));
    Relation {
        text: "(blockDim.x & (blockDim.x - 1)) == 0".into(),
        negation: "blockDim.x is not a power of two".into(),
        cond: compare(
            BinOp::Eq,
            arith(BinOp::BitAnd, block(), arith(BinOp::Sub, block(), int(1))),
            int(0),
        ),
        block_size: None,
    }
}

/// Verifies `k` again under `launch` (the strongest standard assumptions) with each relation
/// of the vocabulary assumed in turn: the first under which no finding remains becomes
/// `result`'s suggestion; when none does, the conjunction of those that excluded some finding
/// is tried. A finding that disappears under a relation gets its negation as condition.
/// At most [`MAX_CHECKS`] re-verifications. Errors: those of [`verify_under`].
pub(super) fn suggest(
    k: &Kernel,
    opts: &VerifyOptions,
    run: &mut KernelRun,
    launch: &Launch,
    result: &mut KernelResult,
    answers: &mut Vec<String>,
) -> Result<(), Error> {
    let relations = vocabulary(k, &run.options().geometry);
    let mut helpful: Vec<&Relation> = Vec::new();
    let mut checks = 0;
    for rel in &relations {
        if checks == MAX_CHECKS {
            break;
        }
        checks += 1;
        let Some(remaining) = check(k, opts, run, launch, &[rel], &result.findings, answers)? else {
            continue;
        };
        let mut excluded_some = false;
        for (f, stays) in result.findings.iter_mut().zip(&remaining) {
            if !stays {
                excluded_some = true;
                f.condition.get_or_insert_with(|| format!("only when {}", rel.negation));
            }
        }
        if !remaining.contains(&true) {
            result.suggestions = vec![rel.text.clone()];
            return Ok(());
        }
        if excluded_some {
            helpful.push(rel);
        }
    }
    let together = consistent(&helpful);
    if together.len() >= 2
        && checks < MAX_CHECKS
        && let Some(remaining) = check(k, opts, run, launch, &together, &result.findings, answers)?
        && !remaining.contains(&true)
    {
        result.suggestions = together.iter().map(|r| r.text.clone()).collect();
    }
    Ok(())
}

/// The relations of `rels` that can hold together: at most one `blockDim.x == C`, and none
/// whose `C` is not a power of two beside [`power_of_two`].
fn consistent<'a>(rels: &[&'a Relation]) -> Vec<&'a Relation> {
    let pow2 = rels.iter().any(|r| r.text == power_of_two().text);
    let mut size = None;
    rels.iter()
        .copied()
        .filter(|r| match r.block_size {
            None => true,
            Some(c) if size.is_none() && (!pow2 || c.is_power_of_two()) => {
                size = Some(c);
                true
            }
            Some(_) => false,
        })
        .collect()
}

/// Whether each of `findings` stays when `k` is verified under `launch` with `rels` assumed
/// at entry (`None`: the re-verification was inconclusive).
fn check(
    k: &Kernel,
    opts: &VerifyOptions,
    run: &mut KernelRun,
    launch: &Launch,
    rels: &[&Relation],
    findings: &[Finding],
    answers: &mut Vec<String>,
) -> Result<Option<Vec<bool>>, Error> {
    let mut assumed = k.clone();
    for rel in rels.iter().rev() {
        assumed.body.insert(
            0,
            Stmt {
                kind: StmtKind::Assume { cond: rel.cond.clone() },
                span: k.span.clone(),
            },
        );
    }
    run.inconclusive.clear();
    let r = verify_under(&assumed, opts, run, launch)?;
    let text: Vec<&str> = rels.iter().map(|r| r.text.as_str()).collect();
    answers.extend(
        r.answers
            .iter()
            .map(|a| format!("--assume '{}': {a}", text.join("' --assume '"))),
    );
    if !run.inconclusive.is_empty() {
        return Ok(None);
    }
    Ok(Some(
        findings
            .iter()
            .map(|f| r.findings.iter().any(|g| same_sites(f, g)))
            .collect(),
    ))
}

/// An `int` literal.
fn int(v: i64) -> Expr {
    Expr::Const {
        value: BigInt::from(v),
        ty: Ty::I32,
    }
}

/// C's integer promotion: types narrower than `int` become `int`.
fn promote(t: Ty) -> Ty {
    match t {
        Ty::Int { bits, .. } if bits < 32 => Ty::I32,
        t => t,
    }
}

/// The type of C's usual arithmetic conversions of two integer operands.
fn common(a: Ty, b: Ty) -> Ty {
    let (a, b) = (promote(a), promote(b));
    match (a, b) {
        (Ty::Int { bits: x, signed: sx }, Ty::Int { bits: y, signed: sy }) if sx == sy => {
            if x >= y {
                a
            } else {
                b
            }
        }
        (Ty::Int { bits: x, signed: false }, Ty::Int { bits: y, .. }) => {
            if x >= y {
                a
            } else {
                b
            }
        }
        (Ty::Int { bits: x, .. }, Ty::Int { bits: y, .. }) => {
            if y >= x {
                b
            } else {
                a
            }
        }
        _ => a,
    }
}

fn convert(e: Expr, ty: Ty) -> Expr {
    if e.ty() == ty {
        e
    } else {
        Expr::Cast { arg: Box::new(e), ty }
    }
}

/// `l op r` for an arithmetic or bitwise `op`, in the operands' common type.
fn arith(op: BinOp, l: Expr, r: Expr) -> Expr {
    let ty = common(l.ty(), r.ty());
    Expr::Binary {
        op,
        lhs: Box::new(convert(l, ty)),
        rhs: Box::new(convert(r, ty)),
        ty,
    }
}

/// `l op r` for a comparison `op`, compared in the operands' common type.
fn compare(op: BinOp, l: Expr, r: Expr) -> Expr {
    let ty = common(l.ty(), r.ty());
    Expr::Binary {
        op,
        lhs: Box::new(convert(l, ty)),
        rhs: Box::new(convert(r, ty)),
        ty: Ty::Bool,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const U8: Ty = Ty::Int { bits: 8, signed: false };
    const U64: Ty = Ty::Int {
        bits: 64,
        signed: false,
    };

    /// C11 6.3.1.8: promotion first, then the wider type; at equal width the unsigned one; a
    /// wider signed type holds every value of a narrower unsigned one.
    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(common(Ty::I32, Ty::U32), Ty::U32);
        assert_eq!(common(Ty::U32, Ty::I32), Ty::U32);
        assert_eq!(common(Ty::I64, Ty::U32), Ty::I64);
        assert_eq!(common(Ty::U32, Ty::I64), Ty::I64);
        assert_eq!(common(U64, Ty::I32), U64);
        assert_eq!(common(U8, U8), Ty::I32);
        assert_eq!(common(U8, Ty::U32), Ty::U32);
    }
}
