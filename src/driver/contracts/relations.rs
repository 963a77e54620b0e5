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
use super::{Launch, Reverify};
use super::{Vocabulary, counterpart, reverify, same_sites, satisfiable};
use crate::ir::query::builtins_read;
use crate::ir::{BinOp, Builtin, Dim, Expr, Kernel, ParamKind, Space, Stmt, StmtKind, Ty, VarId};
use crate::verdict::{Finding, KernelResult};
use num_bigint::BigInt;
use std::collections::BTreeSet;

/// Most re-verifications one kernel's relations may cost (all relations together, the single
/// relations in the order of [`vocabulary`], then the helpful ones together).
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
/// `p` that reaches a guard or an index ([`parameter_dims`]) and that the launch does not fix
/// ([`crate::ir::query::entry_literals`]), `p % blockDim.x == 0` and
/// `p <= gridDim.x * blockDim.x` when it meets the x dimension there, then `p >= 1`; then, when
/// `blockDim.x` is symbolic and the kernel reads it or `threadIdx.x`, it being a power of two,
/// and `blockDim.x == C` for each distinct element count `C` (2 to 1024, CUDA's largest
/// block) of a `__shared__` array.
pub(super) fn vocabulary(k: &Kernel, geometry: &crate::ir::eval::Geometry) -> Vec<Relation> {
    let dims = parameter_dims(k);
    // A relation over a parameter the launch fixes to a literal is a fact of the launch, true
    // or false, not a contract a caller could meet.
    let fixed = crate::ir::query::entry_literals(k);
    let mut out = Vec::new();
    for p in &k.params {
        let ParamKind::Scalar(id) = p.kind else { continue };
        if fixed.contains_key(&id) {
            continue;
        }
        let ty = k.var(id).ty;
        let Some(meets) = dims.get(&id) else { continue };
        if !matches!(ty, Ty::Int { .. }) {
            continue;
        }
        let var = || Expr::Var { id, ty };
        let n = &p.name;
        // The x dimension only: the relations kernels are written for (`n % blockDim.x == 0`);
        // y and z ones cost a re-verification each and rarely exclude anything.
        if meets[Dim::X.index()] {
            let block = || Expr::Builtin(Builtin::BlockDim(Dim::X));
            let grid = || Expr::Builtin(Builtin::GridDim(Dim::X));
            out.push(Relation {
                text: format!("{n} % blockDim.x == 0"),
                negation: format!("{n} % blockDim.x != 0"),
                cond: binary(BinOp::Eq, binary(BinOp::Rem, var(), block()), int(0)),
                block_size: None,
            });
            out.push(Relation {
                text: format!("{n} <= gridDim.x * blockDim.x"),
                negation: format!("{n} > gridDim.x * blockDim.x"),
                cond: binary(BinOp::Le, var(), binary(BinOp::Mul, grid(), block())),
                block_size: None,
            });
        }
        out.push(Relation {
            text: format!("{n} >= 1"),
            negation: format!("{n} < 1"),
            cond: binary(BinOp::Ge, var(), int(1)),
            block_size: None,
        });
    }
    let reads = builtins_read(&k.body);
    let x_block = reads.contains(&Builtin::BlockDim(Dim::X)) || reads.contains(&Builtin::ThreadIdx(Dim::X));
    if geometry.block_dim[0].is_none() && x_block {
        out.push(power_of_two());
        let mut sizes = BTreeSet::new();
        for a in k.arrays.iter().filter(|a| a.space == Space::Shared) {
            if let Some(c) = a.elements().filter(|c| (2..=1024).contains(c)) {
                sizes.insert(c as u64);
            }
        }
        for c in sizes {
            out.push(Relation {
                text: format!("blockDim.x == {c}"),
                negation: format!("blockDim.x != {c}"),
                cond: binary(BinOp::Eq, Expr::Builtin(Builtin::BlockDim(Dim::X)), int(c as i64)),
                block_size: Some(c),
            });
        }
    }
    out
}

/// What a value depends on: the variables it is computed from (transitively through
/// assignments; parameters among them) and the launch dimensions whose builtins it reads.
#[derive(Clone, Default, PartialEq)]
struct Sources {
    vars: BTreeSet<VarId>,
    dims: [bool; 3],
}

impl Sources {
    fn add(&mut self, other: &Sources) {
        self.vars.extend(other.vars.iter().copied());
        for (mine, theirs) in self.dims.iter_mut().zip(other.dims) {
            *mine |= theirs;
        }
    }
}

/// The scalar parameters that reach a guard (an `if`, loop or `__assume` condition, one
/// conjunct or disjunct at a time) or an access's offset, each with the launch dimensions
/// (x, y, z) whose builtins reach that same guard or offset. Values read from memory count
/// as unknown data, not as what the offset they were read at depends on.
fn parameter_dims(k: &Kernel) -> std::collections::BTreeMap<VarId, [bool; 3]> {
    use crate::ir::visit::Visitor;
    use std::collections::BTreeMap;
    /// Sources of each variable (a fixpoint over the assignments), then the uses.
    struct Walk<'a> {
        defs: &'a BTreeMap<VarId, Sources>,
        assigns: Vec<(VarId, Sources)>,
        uses: Vec<Sources>,
    }
    impl Walk<'_> {
        fn sources(&self, e: &Expr) -> Sources {
            struct Reads<'b>(&'b BTreeMap<VarId, Sources>, Sources);
            impl Visitor for Reads<'_> {
                fn visit_var(&mut self, v: VarId, _ctx: crate::ir::visit::VarContext) {
                    self.1.vars.insert(v);
                    if let Some(s) = self.0.get(&v) {
                        self.1.add(s);
                    }
                }
                fn visit_builtin(&mut self, b: Builtin) {
                    if let Builtin::ThreadIdx(d) | Builtin::BlockIdx(d) | Builtin::BlockDim(d) | Builtin::GridDim(d) = b
                    {
                        self.1.dims[d.index()] = true;
                    }
                }
            }
            let mut r = Reads(self.defs, Sources::default());
            r.visit_expr(e);
            r.1
        }
        fn guard(&mut self, e: &Expr) {
            match e {
                Expr::Binary {
                    op: BinOp::LAnd | BinOp::LOr,
                    lhs,
                    rhs,
                    ..
                } => {
                    self.guard(lhs);
                    self.guard(rhs);
                }
                Expr::Unary { arg, .. } if e.ty() == Ty::Bool => self.guard(arg),
                _ => {
                    let s = self.sources(e);
                    self.uses.push(s);
                }
            }
        }
    }
    impl Visitor for Walk<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            match &s.kind {
                StmtKind::Assign { var, value } => {
                    let src = self.sources(value);
                    self.assigns.push((*var, src));
                }
                StmtKind::If { cond, .. } | StmtKind::Loop { cond, .. } | StmtKind::Assume { cond } => self.guard(cond),
                StmtKind::AbstractLoop(l) => self.guard(&l.cond),
                _ => {}
            }
            self.super_stmt(s);
        }
        fn visit_access(
            &mut self,
            _array: crate::ir::ArrayId,
            offset: &Expr,
            _ty: Ty,
            _ctx: crate::ir::visit::AccessContext,
        ) {
            let s = self.sources(offset);
            self.uses.push(s);
        }
    }
    let mut defs: BTreeMap<VarId, Sources> = BTreeMap::new();
    let uses = loop {
        let mut w = Walk {
            defs: &defs,
            assigns: Vec::new(),
            uses: Vec::new(),
        };
        w.visit_block(&k.body);
        let (assigns, uses) = (w.assigns, w.uses);
        let mut next = defs.clone();
        for (v, s) in assigns {
            next.entry(v).or_default().add(&s);
        }
        if next == defs {
            break uses;
        }
        defs = next;
    };
    let mut out: BTreeMap<VarId, [bool; 3]> = BTreeMap::new();
    for p in &k.params {
        let ParamKind::Scalar(id) = p.kind else { continue };
        for u in uses.iter().filter(|u| u.vars.contains(&id)) {
            let e = out.entry(id).or_default();
            for (meets, used) in e.iter_mut().zip(u.dims) {
                *meets |= used;
            }
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
        cond: binary(
            BinOp::Eq,
            binary(BinOp::BitAnd, block(), binary(BinOp::Sub, block(), int(1))),
            int(0),
        ),
        block_size: None,
    }
}

/// Whether `rel` holds for the parameter values and launch of `f`'s witness (`None`: not
/// known, e.g. the witness rests on an abstraction).
fn holds_in_witness(k: &Kernel, v: &Vocabulary, rel: &Relation, f: &Finding) -> Option<bool> {
    super::holds_in_witness(k, &v.geometry, &rel.cond, f)
}

/// The conditions of the relations of [`vocabulary`] that can hold together
/// ([`consistent`]), for [`super::preferences`].
pub(super) fn preferred(k: &Kernel, geometry: &crate::ir::eval::Geometry) -> Vec<Expr> {
    let all = vocabulary(k, geometry);
    consistent(&all.iter().collect::<Vec<_>>())
        .into_iter()
        .map(|r| r.cond.clone())
        .collect()
}

/// Verifies `k` again under the strongest standard assumptions of `v` with the relations of
/// the vocabulary assumed: first all of them at once (those that can hold together), which
/// tells which findings some relation may exclude (a finding that stays under all of them
/// stays under each, so a kernel racy whatever its parameters costs one re-verification);
/// then, for those findings, each relation alone. The first relation under which no finding
/// remains becomes `result`'s suggestion; when none does, the relations that excluded some
/// finding together, else all of them, when gpug checked that they verify the kernel. A
/// relation whose truth every witness in question already has is not asked (it cannot
/// exclude them). A finding that disappears under one relation gets its negation as
/// condition. At most [`MAX_CHECKS`] re-verifications. Errors: those of [`verify_under`].
pub(super) fn suggest(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    v: &Vocabulary,
    result: &mut KernelResult,
    answers: &mut Vec<String>,
) -> Result<(), Error> {
    if !result.inconclusive.is_empty() {
        // Some check is undecided: no relation can be shown to verify the kernel.
        return Ok(());
    }
    let mut launch = v.launch(v.strongest(), v.combined);
    launch.only = Some(result.findings.clone());
    // A relation is assumed in the kernel's body, which the passes may then simplify (a loop
    // unrolled, a barrier interval gone): the checks may differ, so each is asked.
    launch.refuted.clear();
    let launch = &launch;
    // Per finding, the witnesses at its sites found so far (its own first): a relation that
    // one of them satisfies cannot exclude the finding.
    let mut evidence: Vec<Vec<Finding>> = result.findings.iter().map(|f| vec![f.clone()]).collect();
    let satisfied = |evidence: &[Vec<Finding>], which: &[usize], rel: &Relation| {
        which.iter().all(|i| {
            evidence[*i]
                .iter()
                .any(|f| holds_in_witness(k, v, rel, f) == Some(true))
        })
    };
    let every: Vec<usize> = (0..result.findings.len()).collect();
    let relations: Vec<Relation> = vocabulary(k, &v.geometry)
        .into_iter()
        .filter(|r| !satisfied(&evidence, &every, r))
        .collect();
    let all = consistent(&relations.iter().collect::<Vec<_>>());
    if all.is_empty() {
        return Ok(());
    }
    // An undecided re-verification ends the search: the solver struggles with these
    // relations, and each further one would cost as much for as little.
    let Some(under_all) = check(k, opts, run, launch, &all, &result.findings, answers)? else {
        return Ok(());
    };
    let mut checks = 1;
    // The findings some relation may exclude.
    let open: Vec<usize> = (0..result.findings.len()).filter(|i| under_all[*i].is_none()).collect();
    if open.is_empty() {
        return Ok(());
    }
    let mut helpful: Vec<&Relation> = Vec::new();
    for rel in &relations {
        if checks == MAX_CHECKS {
            break;
        }
        if satisfied(&evidence, &open, rel) {
            continue;
        }
        checks += 1;
        let Some(remaining) = check(k, opts, run, launch, &[rel], &result.findings, answers)? else {
            break;
        };
        let verifies = remaining.iter().all(Option::is_none);
        let mut excluded_some = false;
        for (i, stays) in remaining.into_iter().enumerate() {
            match stays {
                Some(witness) => evidence[i].push(witness),
                None => {
                    excluded_some = true;
                    result.findings[i]
                        .condition
                        .get_or_insert_with(|| format!("only when {}", rel.negation));
                }
            }
        }
        if verifies {
            result.suggestions = vec![rel.text.clone()];
            return Ok(());
        }
        if excluded_some {
            helpful.push(rel);
        }
    }
    let mut together = consistent(&helpful);
    let verified = if together.len() >= 2 && checks < MAX_CHECKS {
        check(k, opts, run, launch, &together, &result.findings, answers)?
            .is_some_and(|r| r.iter().all(Option::is_none))
    } else {
        false
    };
    if !verified {
        if under_all.iter().any(Option::is_some) {
            return Ok(());
        }
        together = all;
    }
    let texts: Vec<String> = together.iter().map(|r| r.text.clone()).collect();
    for i in open {
        result.findings[i]
            .condition
            .get_or_insert_with(|| format!("only when not all of: {}", texts.join(", ")));
    }
    result.suggestions = texts;
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

/// For each of `findings`, its witness when it stays (a finding at the same sites, or its own
/// when the re-verification may not list its pair: [`counterpart`]) as `k` is
/// verified under `launch` with `rels` assumed at entry, else `None` (the outer `None`: the
/// re-verification was inconclusive).
fn check(
    k: &Kernel,
    opts: &dyn Reverify,
    run: &mut KernelRun,
    launch: &Launch,
    rels: &[&Relation],
    findings: &[Finding],
    answers: &mut Vec<String>,
) -> Result<Option<Vec<Option<Finding>>>, Error> {
    let mut assumed = k.clone();
    assumed.body = assumptions(k, rels).chain(k.body.iter().cloned()).collect();
    let r = reverify(&assumed, opts, run, launch, true)?;
    let text: Vec<&str> = rels.iter().map(|r| r.text.as_str()).collect();
    answers.extend(
        r.answers
            .iter()
            .map(|a| format!("--assume '{}': {a}", text.join("' --assume '"))),
    );
    // (verify_under hands the run's undecided queries over to its result.)
    if !r.inconclusive.is_empty() {
        return Ok(None);
    }
    let stays: Vec<Option<Finding>> = findings
        .iter()
        .map(|f| {
            // A pair the re-verification may not have listed stays with its own witness: one
            // of other sites is no evidence about its relations.
            counterpart(f, &r).map(|g| if same_sites(f, g) { g.clone() } else { f.clone() })
        })
        .collect();
    let named = format!("--assume '{}'", text.join("' --assume '"));
    if stays.iter().any(Option::is_none) {
        match satisfiable(k, opts, run, launch, assumptions(k, rels).collect(), &named, answers)? {
            Some(true) => {}
            // Vacuous: the relations contradict the kernel's own requirements (or the launch),
            // so excluding a finding under them means nothing; they exclude none.
            Some(false) => return Ok(Some(findings.iter().cloned().map(Some).collect())),
            None => return Ok(None),
        }
    }
    Ok(Some(stays))
}

/// `rels` as `__assume` statements at `k`'s entry (as `--assume` puts them).
fn assumptions<'a>(k: &'a Kernel, rels: &'a [&Relation]) -> impl Iterator<Item = Stmt> + 'a {
    rels.iter().map(|rel| Stmt {
        kind: StmtKind::Assume { cond: rel.cond.clone() },
        span: k.span.clone(),
    })
}

/// An `int` literal.
pub(super) fn int(v: i64) -> Expr {
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

/// `l op r`, the operands converted to their common type; of type `Bool` for a comparison,
/// else of that type.
pub(super) fn binary(op: BinOp, l: Expr, r: Expr) -> Expr {
    let common = common(l.ty(), r.ty());
    Expr::Binary {
        op,
        lhs: Box::new(convert(l, common)),
        rhs: Box::new(convert(r, common)),
        ty: if op.is_comparison() { Ty::Bool } else { common },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const U8: Ty = Ty::Int { bits: 8, signed: false };
    const U64: Ty = Ty::U64;

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
