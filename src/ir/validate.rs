//! The IR validator (Cranelift's `verifier/`, rustc's MIR validation): checks that a kernel is
//! well formed between stages, so that a pass that breaks the IR is named at once instead of
//! showing up as a wrong verdict three stages later.
//!
//! [`validate`] checks, for the [`Stage`] the kernel is at:
//!
//! - [`Rule::UnknownId`]: every variable and array id names a declaration, every block label
//!   is below [`Kernel::next_block`] and is not declared again inside a block of the same
//!   label (copies of one block side by side, as unrolling makes them, are fine: each exit
//!   still names one enclosing block).
//! - [`Rule::Undefined`]: every variable is defined before it is read, on every path: a
//!   scalar parameter at entry; `Assign`, `Havoc`, `Load`, `Atomic` (its `dst`), `Shuffle` and
//!   `Vote`; the closed and havocked variables of an `AbstractLoop` at its head. Paths through
//!   branches, loops (a loop may run no iteration), `Exit`, `Break`, `Continue` and `Return`
//!   are followed. An `__ensures` body reads the final state, where every variable counts as
//!   defined (an uninitialised one is arbitrary there, [`StmtKind::Ensures`]). The source may
//!   read a variable that no path defines (C's uninitialised locals, such as the fields of a
//!   `float4` declared without a value, and GPUVerify's access-log offsets before the first
//!   access): such a read is an arbitrary value, as the encoders model it, so those variables
//!   ([`undefined_reads`] of the lowered kernel) are exempt; a pass must not add others.
//! - [`Rule::Type`]: operand types agree: a variable's uses have its declared type; the
//!   operands of a binary operator share a type (shifts: both integers), comparisons and
//!   `&&`/`||` give `Bool`, arithmetic gives its operands' type; conditions (`if`, loops,
//!   `assert`, `assume`, invariants, `?:`) are `Bool`; an assignment's value has its variable's
//!   type; a load, store or atomic has the type of the variable or value it moves and a byte
//!   offset of type `I64`.
//! - [`Rule::Nesting`]: `Break` and `Continue` only inside a `Loop`; an OpenCL copy's
//!   `CopyStart` closed by a `CopyEnd` later in the same list, with no other copy between.
//! - [`Rule::Label`]: an `Exit` only leaves a block that encloses it (or an enclosing
//!   `AbstractLoop`'s break or continue target).
//! - [`Rule::Stage`]: no statement kind that the stage's consumers do not handle: the front
//!   end makes no `AbstractLoop` and no lock or flag markers (those are made by passes); after
//!   the loop pass (a [`Stage::Prepared`] kernel) there is no `Loop`, `Break`, `Continue` or
//!   `Invariant` outside `__ensures` bodies, which is what the encoders read.
//!
//! A broken invariant is an [`Invalid`]: an internal error with the pass that left the kernel
//! so, the rule, and the statement in its text form ([`super::print`]); never a verdict.
//!
//! Must not: change the IR, or reject what a user can write (those are the front end's
//! errors): every rule here is a promise one stage makes to the next.

use super::{
    AbstractLoop, ArrayId, AtomicOp, BarrierInvariant, BinOp, BlockId, Expr, Kernel, ParamKind, Span, Stmt, StmtKind,
    SyncEvent, Ty, UnOp, VarId,
};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::fmt;

/// Where in the pipeline a kernel is: what it may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// As the front end made it: loops, no `AbstractLoop`, no lock or flag markers.
    Lowered,
    /// After a pass that keeps loops (`bounds`, `sync`), or after the loop pass when some loop
    /// could not be handled (the kernel is then inconclusive and not encoded).
    Marked,
    /// After the loop pass: no `Loop`, `Break`, `Continue` or `Invariant` outside `__ensures`.
    Prepared,
}

/// Which invariant a kernel breaks (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// An id without a declaration, or a block label declared twice or not below `next_block`.
    UnknownId,
    /// A variable read where it is not defined on every path.
    Undefined,
    /// Operand types that do not agree.
    Type,
    /// `Break`/`Continue` outside a loop, or copy markers that do not pair up.
    Nesting,
    /// An `Exit` from a block that does not enclose it.
    Label,
    /// A statement kind the stage must not contain.
    Stage,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::UnknownId => "unknown id",
            Rule::Undefined => "use before definition",
            Rule::Type => "type mismatch",
            Rule::Nesting => "bad nesting",
            Rule::Label => "unresolved label",
            Rule::Stage => "statement kind not allowed at this stage",
        })
    }
}

/// A broken invariant: an internal error of gpug, never a verdict on the kernel.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "internal error: the IR of kernel `{kernel}` after {pass} is not well formed ({rule}: {detail})\n  at {span}: {stmt}"
)]
pub struct Invalid {
    /// The kernel.
    pub kernel: String,
    /// The pass (or stage) after which the kernel was checked: `lowering`, `pass bounds`, ….
    pub pass: String,
    /// The rule broken.
    pub rule: Rule,
    /// What exactly is wrong.
    pub detail: String,
    /// The statement's source span.
    pub span: Span,
    /// The statement in its text form (its first line for a compound statement).
    pub stmt: String,
}

/// Checks `kernel` at `stage` (see the module doc); `pass` names what made it, for the error.
///
/// Errors: the first broken invariant, in program order.
///
/// `may_be_undefined` are the variables exempt from [`Rule::Undefined`]: those the source reads
/// where they may be undefined ([`undefined_reads`] of the lowered kernel).
pub fn validate(
    kernel: &Kernel,
    stage: Stage,
    pass: &str,
    may_be_undefined: &BTreeSet<VarId>,
) -> Result<(), Box<Invalid>> {
    let mut c = Checker::new(kernel, stage, may_be_undefined);
    let mut state = c.entry();
    c.block(&kernel.body, &mut state).map_err(|(s, rule, detail)| {
        Box::new(Invalid {
            kernel: kernel.name.clone(),
            pass: pass.to_string(),
            rule,
            detail,
            span: s.span.clone(),
            stmt: stmt_text(kernel, s),
        })
    })
}

/// The variables `kernel` reads somewhere where they may be undefined on some path (their
/// value there is arbitrary): what the source itself reads uninitialised, for
/// [`validate`]'s `may_be_undefined`. A kernel that breaks another rule gives those found
/// before it.
pub fn undefined_reads(kernel: &Kernel) -> BTreeSet<VarId> {
    let none = BTreeSet::new();
    let mut c = Checker::new(kernel, Stage::Marked, &none);
    c.collected = RefCell::new(Some(BTreeSet::new()));
    let mut state = c.entry();
    // Only what was collected matters here; another rule's failure ends the walk.
    let _ = c.block(&kernel.body, &mut state);
    c.collected.into_inner().unwrap_or_default()
}

/// The first line of `s` as the kernel prints it, without its span comment.
fn stmt_text(k: &Kernel, s: &Stmt) -> String {
    let one = Kernel {
        body: vec![s.clone()],
        params: Vec::new(),
        ..k.clone()
    };
    let text = one.to_string();
    let first = text.lines().skip_while(|l| *l != "{").nth(1).unwrap_or("");
    first.split("//").next().unwrap_or("").trim().to_string()
}

/// The variables defined on every path to a point; `None` where no path reaches it.
type Defs = Option<Vec<bool>>;

/// The meet of two points' definitions: defined on both.
fn meet(a: Defs, b: &Defs) -> Defs {
    match (a, b) {
        (None, b) => b.clone(),
        (a, None) => a,
        (Some(mut a), Some(b)) => {
            for (x, y) in a.iter_mut().zip(b) {
                *x = *x && *y;
            }
            Some(a)
        }
    }
}

/// An error before it knows its statement.
type Fail = (Rule, String);
/// An error at a statement.
type Failure<'s> = (&'s Stmt, Rule, String);

/// The break and continue points of a loop being checked.
#[derive(Default)]
struct LoopCtx {
    breaks: Defs,
    conts: Defs,
}

struct Checker<'k> {
    k: &'k Kernel,
    stage: Stage,
    /// Exempt from [`Rule::Undefined`].
    may_be_undefined: &'k BTreeSet<VarId>,
    /// When collecting ([`undefined_reads`]): the variables read where they may be undefined.
    collected: RefCell<Option<BTreeSet<VarId>>>,
    /// Labels that an `Exit` may leave here, innermost last.
    open: Vec<BlockId>,
    /// Per open label, the meet of the definitions at its exits.
    exits: HashMap<BlockId, Defs>,
    loops: Vec<LoopCtx>,
    in_ensures: bool,
}

impl<'k> Checker<'k> {
    fn new(k: &'k Kernel, stage: Stage, may_be_undefined: &'k BTreeSet<VarId>) -> Checker<'k> {
        Checker {
            k,
            stage,
            may_be_undefined,
            collected: RefCell::new(None),
            open: Vec::new(),
            exits: HashMap::new(),
            loops: Vec::new(),
            in_ensures: false,
        }
    }

    /// The definitions at entry: the scalar parameters.
    fn entry(&self) -> Defs {
        let mut defs = vec![false; self.k.vars.len()];
        for p in &self.k.params {
            if let ParamKind::Scalar(v) = p.kind
                && let Some(d) = defs.get_mut(v.0)
            {
                *d = true;
            }
        }
        Some(defs)
    }

    fn block<'s>(&mut self, stmts: &'s [Stmt], d: &mut Defs) -> Result<(), Failure<'s>> {
        let mut copy_open = false;
        for s in stmts {
            match &s.kind {
                StmtKind::Sync(SyncEvent::CopyStart { .. }) if copy_open => {
                    return Err((s, Rule::Nesting, "a copy starts before the previous one ended".into()));
                }
                StmtKind::Sync(SyncEvent::CopyStart { .. }) => copy_open = true,
                StmtKind::Sync(SyncEvent::CopyEnd) if !copy_open => {
                    return Err((s, Rule::Nesting, "a copy ends that did not start in this list".into()));
                }
                StmtKind::Sync(SyncEvent::CopyEnd) => copy_open = false,
                _ => {}
            }
            self.stmt(s, d).map_err(|e| match e {
                Inner::Here(rule, why) => (s, rule, why),
                Inner::Nested(s, rule, why) => (s, rule, why),
            })?;
        }
        if copy_open && let Some(s) = stmts.last() {
            return Err((
                s,
                Rule::Nesting,
                "a copy that starts in this list does not end in it".into(),
            ));
        }
        Ok(())
    }

    /// A nested list: its failure keeps its own statement.
    fn nested<'s>(&mut self, stmts: &'s [Stmt], d: &mut Defs) -> Result<(), Inner<'s>> {
        self.block(stmts, d).map_err(|(s, r, w)| Inner::Nested(s, r, w))
    }

    fn var_ty(&self, v: VarId) -> Result<Ty, Fail> {
        match self.k.vars.get(v.0) {
            Some(d) => Ok(d.ty),
            None => Err((Rule::UnknownId, format!("variable %{} is not declared", v.0))),
        }
    }

    fn array(&self, a: ArrayId) -> Result<(), Fail> {
        match self.k.arrays.get(a.0) {
            Some(_) => Ok(()),
            None => Err((Rule::UnknownId, format!("array @{} is not declared", a.0))),
        }
    }

    /// `v` given a value here.
    fn define(&self, v: VarId, d: &mut Defs) -> Result<Ty, Fail> {
        let ty = self.var_ty(v)?;
        if let Some(d) = d {
            d[v.0] = true;
        }
        Ok(ty)
    }

    fn same(what: &str, want: Ty, got: Ty) -> Result<(), Fail> {
        match want == got {
            true => Ok(()),
            false => Err((Rule::Type, format!("{what} has type {got}, expected {want}"))),
        }
    }

    /// Checks `e` read at a point with definitions `d` and returns its type.
    fn expr(&self, e: &Expr, d: &Defs) -> Result<Ty, Fail> {
        let ty = match e {
            Expr::Const { ty, .. } => *ty,
            Expr::Var { id, ty } => {
                let decl = self.var_ty(*id)?;
                Self::same(&format!("a use of {}", self.var_name(*id)), decl, *ty)?;
                if let Some(d) = d
                    && !d[id.0]
                    && !self.may_be_undefined.contains(id)
                {
                    if let Some(c) = self.collected.borrow_mut().as_mut() {
                        c.insert(*id);
                        return Ok(*ty);
                    }
                    return Err((
                        Rule::Undefined,
                        format!("{} is read where it is not defined on every path", self.var_name(*id)),
                    ));
                }
                *ty
            }
            Expr::Builtin(_) | Expr::Enabled => e.ty(),
            Expr::Unary { op, arg, ty } => {
                let a = self.expr(arg, d)?;
                match op {
                    UnOp::Not => {
                        Self::same("the operand of `!`", Ty::Bool, a)?;
                        Self::same("`!`", Ty::Bool, *ty)?;
                    }
                    _ => Self::same(&format!("the result of {op:?}"), a, *ty)?,
                }
                *ty
            }
            Expr::Binary { op, lhs, rhs, ty } => {
                let (l, r) = (self.expr(lhs, d)?, self.expr(rhs, d)?);
                match op {
                    BinOp::Shl | BinOp::Shr => {
                        if !matches!((l, r), (Ty::Int { .. }, Ty::Int { .. })) {
                            return Err((Rule::Type, format!("a shift of {l} by {r}")));
                        }
                        Self::same("a shift's result", l, *ty)?;
                    }
                    BinOp::LAnd | BinOp::LOr => {
                        Self::same("the left operand of `&&`/`||`", Ty::Bool, l)?;
                        Self::same("the right operand of `&&`/`||`", Ty::Bool, r)?;
                        Self::same("`&&`/`||`", Ty::Bool, *ty)?;
                    }
                    op if op.is_comparison() => {
                        Self::same("the right operand of a comparison", l, r)?;
                        Self::same("a comparison", Ty::Bool, *ty)?;
                    }
                    _ => {
                        Self::same(&format!("the right operand of {op:?}"), l, r)?;
                        Self::same(&format!("the result of {op:?}"), l, *ty)?;
                    }
                }
                *ty
            }
            Expr::Cast { arg, ty } => {
                self.expr(arg, d)?;
                *ty
            }
            Expr::Select { cond, then, els, ty } => {
                Self::same("the condition of `?:`", Ty::Bool, self.expr(cond, d)?)?;
                Self::same("the first arm of `?:`", *ty, self.expr(then, d)?)?;
                Self::same("the second arm of `?:`", *ty, self.expr(els, d)?)?;
                *ty
            }
            Expr::Opaque { args, ty, .. } => {
                for a in args {
                    self.expr(a, d)?;
                }
                *ty
            }
            Expr::Other(inner) => self.expr(inner, d)?,
        };
        Ok(ty)
    }

    fn var_name(&self, v: VarId) -> String {
        self.k
            .vars
            .get(v.0)
            .map_or(format!("%{}", v.0), |d| format!("{}.{}", d.name, v.0))
    }

    fn cond(&self, what: &str, e: &Expr, d: &Defs) -> Result<(), Fail> {
        Self::same(what, Ty::Bool, self.expr(e, d)?)
    }

    fn offset(&self, a: ArrayId, off: &Expr, d: &Defs) -> Result<(), Fail> {
        self.array(a)?;
        Self::same("a byte offset", Ty::I64, self.expr(off, d)?)
    }

    fn label(&mut self, id: BlockId) -> Result<(), Fail> {
        if id.0 >= self.k.next_block {
            return Err((
                Rule::UnknownId,
                format!("block b{} is not below next_block {}", id.0, self.k.next_block),
            ));
        }
        if self.open.contains(&id) {
            return Err((
                Rule::UnknownId,
                format!("block b{} is declared inside a block of the same label", id.0),
            ));
        }
        Ok(())
    }

    /// Runs `body` with `id` open (exits to it allowed) and returns the meet of its exits.
    fn with_label<'s>(&mut self, id: BlockId, body: &'s [Stmt], d: &mut Defs) -> Result<Defs, Inner<'s>> {
        self.open.push(id);
        self.exits.insert(id, None);
        let r = self.nested(body, d);
        self.open.pop();
        let exits = self.exits.remove(&id).flatten();
        r?;
        Ok(exits)
    }

    fn stmt<'s>(&mut self, s: &'s Stmt, d: &mut Defs) -> Result<(), Inner<'s>> {
        match &s.kind {
            StmtKind::Assign { var, value } => {
                let ty = self.expr(value, d)?;
                let want = self.define(*var, d)?;
                Self::same(&format!("the value assigned to {}", self.var_name(*var)), want, ty)?;
            }
            StmtKind::Havoc { var } => {
                self.define(*var, d)?;
            }
            StmtKind::Load { dst, array, offset, ty } => {
                self.offset(*array, offset, d)?;
                let want = self.define(*dst, d)?;
                Self::same("the loaded value", want, *ty)?;
            }
            StmtKind::Store {
                array,
                offset,
                value,
                ty,
            } => {
                self.offset(*array, offset, d)?;
                Self::same("the stored value", *ty, self.expr(value, d)?)?;
            }
            StmtKind::Atomic {
                op,
                dst: old,
                array,
                offset: at,
                operands,
                ty,
                ..
            } => self.atomic(*op, *old, *array, at, operands, *ty, d)?,
            StmtKind::If { cond, then, els } => {
                self.cond("the condition of `if`", cond, d)?;
                let mut t = d.clone();
                self.nested(then, &mut t)?;
                self.nested(els, d)?;
                *d = meet(t, d);
            }
            StmtKind::Loop {
                cond_stmts: pre,
                cond,
                body,
                step: next,
                do_while,
            } => {
                if self.stage == Stage::Prepared && !self.in_ensures {
                    return Err(Inner::Here(Rule::Stage, "a loop after the loop pass".into()));
                }
                self.loops.push(LoopCtx::default());
                let r = self.loop_body(pre, cond, body, next, *do_while, d);
                let ctx = self.loops.pop().unwrap_or_default();
                let after_test = r?;
                *d = meet(after_test, &ctx.breaks);
            }
            StmtKind::Break | StmtKind::Continue => self.jump(matches!(s.kind, StmtKind::Break), d)?,
            StmtKind::WarpBarrier(_) | StmtKind::Fence(_) | StmtKind::Barrier(..) | StmtKind::Return => {
                if matches!(s.kind, StmtKind::Return) {
                    *d = None;
                }
            }
            StmtKind::Shuffle {
                dst,
                mask,
                value,
                lane,
                width,
                ..
            } => {
                if let Some(m) = mask {
                    self.expr(m, d)?;
                }
                let ty = self.expr(value, d)?;
                self.expr(lane, d)?;
                self.expr(width, d)?;
                let want = self.define(*dst, d)?;
                Self::same("a shuffle's value", want, ty)?;
            }
            StmtKind::Vote { dst, mask, arg, .. } => {
                if let Some(m) = mask {
                    self.expr(m, d)?;
                }
                self.expr(arg, d)?;
                self.define(*dst, d)?;
            }
            StmtKind::Sync(ev) => self.sync_event(ev, d)?,
            StmtKind::Assert { cond } => self.cond("an assertion", cond, d)?,
            StmtKind::Assume { cond } => self.cond("an assumption", cond, d)?,
            StmtKind::Ensures { body, cond } => self.ensures(body, cond)?,
            StmtKind::BarrierInvariant(bi) => self.barrier_invariant(bi, d)?,
            StmtKind::Block { id, body } => {
                self.label(*id)?;
                let exits = self.with_label(*id, body, d)?;
                *d = meet(std::mem::take(d), &exits);
            }
            StmtKind::Exit(id) => self.exit(*id, d)?,
            StmtKind::Invariant { body, cond } => {
                if self.stage == Stage::Prepared && !self.in_ensures {
                    return Err(Inner::Here(Rule::Stage, "a loop invariant after the loop pass".into()));
                }
                let mut here = d.clone();
                self.nested(body, &mut here)?;
                self.cond("a loop invariant", cond, &here)?;
            }
            StmtKind::ArraySnapshot { dst, src } => {
                self.array(*dst)?;
                self.array(*src)?;
            }
            StmtKind::AbstractLoop(l) => {
                if self.stage == Stage::Lowered {
                    return Err(Inner::Here(
                        Rule::Stage,
                        "an abstracted loop before the loop pass".into(),
                    ));
                }
                self.abstract_loop(l, d)?;
            }
            StmtKind::Clobber { array, .. } => self.array(*array)?,
        }
        Ok(())
    }

    /// An atomic `op` on `array` at `at` with `operands`, its old value (of type `ty`) into
    /// `old` when kept.
    #[allow(clippy::too_many_arguments)]
    fn atomic<'s>(
        &mut self,
        op: AtomicOp,
        old: Option<VarId>,
        array: ArrayId,
        at: &'s Expr,
        operands: &'s [Expr],
        ty: Ty,
        d: &mut Defs,
    ) -> Result<(), Inner<'s>> {
        self.offset(array, at, d)?;
        let want = if op == AtomicOp::Cas { 2 } else { 1 };
        if operands.len() != want {
            return Err(Inner::Here(
                Rule::Type,
                format!("{} takes {want} operands, not {}", op.cuda_name(), operands.len()),
            ));
        }
        for o in operands {
            Self::same("an atomic's operand", ty, self.expr(o, d)?)?;
        }
        if let Some(v) = old {
            let got = self.define(v, d)?;
            Self::same("an atomic's old value", ty, got)?;
        }
        Ok(())
    }

    /// A `break` (`brk`) or `continue` of the innermost loop: its definitions join the loop's.
    fn jump<'s>(&mut self, brk: bool, d: &mut Defs) -> Result<(), Inner<'s>> {
        if self.stage == Stage::Prepared && !self.in_ensures {
            return Err(Inner::Here(
                Rule::Stage,
                "a break or continue after the loop pass".into(),
            ));
        }
        let Some(l) = self.loops.last_mut() else {
            return Err(Inner::Here(Rule::Nesting, "a break or continue outside a loop".into()));
        };
        let slot = if brk { &mut l.breaks } else { &mut l.conts };
        *slot = meet(std::mem::take(slot), d);
        *d = None;
        Ok(())
    }

    /// A lock, flag or work-group copy marker ([`StmtKind::Sync`]).
    fn sync_event<'s>(&mut self, ev: &'s SyncEvent, d: &mut Defs) -> Result<(), Inner<'s>> {
        match ev {
            SyncEvent::Lock { array, offset, .. } | SyncEvent::Observed { array, offset, .. } => {
                if self.stage == Stage::Lowered {
                    return Err(Inner::Here(
                        Rule::Stage,
                        "a lock or flag marker before the sync pass".into(),
                    ));
                }
                self.offset(*array, offset, d)?;
            }
            SyncEvent::Unlock => {
                if self.stage == Stage::Lowered {
                    return Err(Inner::Here(Rule::Stage, "an unlock marker before the sync pass".into()));
                }
            }
            SyncEvent::CopyStart { event, dst, .. } => {
                self.array(*dst)?;
                self.expr(event, d)?;
            }
            SyncEvent::CopyEnd => {}
            SyncEvent::CopyWait { events } => {
                for e in events {
                    self.expr(e, d)?;
                }
            }
            SyncEvent::CopyWaitPrior { committed, prior } => {
                self.expr(committed, d)?;
                self.expr(prior, d)?;
            }
        }
        Ok(())
    }

    /// A postcondition, read in the final state: every variable is defined (arbitrary when
    /// never assigned).
    fn ensures<'s>(&mut self, body: &'s [Stmt], cond: &'s Expr) -> Result<(), Inner<'s>> {
        let mut fin = Some(vec![true; self.k.vars.len()]);
        let outer = std::mem::replace(&mut self.in_ensures, true);
        let r = self.nested(body, &mut fin);
        self.in_ensures = outer;
        r?;
        self.cond("a postcondition", cond, &Some(vec![true; self.k.vars.len()]))?;
        Ok(())
    }

    /// A barrier invariant: its statements and condition, and its instantiations (`I64`).
    fn barrier_invariant<'s>(&mut self, bi: &'s BarrierInvariant, d: &mut Defs) -> Result<(), Inner<'s>> {
        let mut here = d.clone();
        self.nested(&bi.body, &mut here)?;
        self.cond("a barrier invariant", &bi.cond, &here)?;
        for inst in &bi.instances {
            for e in inst {
                Self::same("an instantiation", Ty::I64, self.expr(e, d)?)?;
            }
        }
        Ok(())
    }

    /// An exit from block `id`, which must enclose it: its definitions join the block's exits.
    fn exit<'s>(&mut self, id: BlockId, d: &mut Defs) -> Result<(), Inner<'s>> {
        if !self.open.contains(&id) {
            return Err(Inner::Here(
                Rule::Label,
                format!("exit from b{}, which does not enclose it", id.0),
            ));
        }
        let slot = self.exits.entry(id).or_default();
        *slot = meet(std::mem::take(slot), d);
        *d = None;
        Ok(())
    }

    /// A `Loop`'s parts; returns the definitions where its test first fails.
    fn loop_body<'s>(
        &mut self,
        cond_stmts: &'s [Stmt],
        cond: &Expr,
        body: &'s [Stmt],
        step: &'s [Stmt],
        do_while: bool,
        d: &mut Defs,
    ) -> Result<Defs, Inner<'s>> {
        let mut here = d.clone();
        if do_while {
            self.iteration(body, step, &mut here)?;
        }
        self.nested(cond_stmts, &mut here)?;
        self.cond("a loop's test", cond, &here)?;
        let after_test = here.clone();
        if !do_while {
            self.iteration(body, step, &mut here)?;
        }
        Ok(after_test)
    }

    /// One iteration: `body`, then `step` from where the body ends or continues.
    fn iteration<'s>(&mut self, body: &'s [Stmt], step: &'s [Stmt], d: &mut Defs) -> Result<(), Inner<'s>> {
        self.nested(body, d)?;
        let conts = self.loops.last_mut().and_then(|l| std::mem::take(&mut l.conts));
        *d = meet(std::mem::take(d), &conts);
        self.nested(step, d)
    }

    fn abstract_loop<'s>(&mut self, l: &'s AbstractLoop, d: &mut Defs) -> Result<(), Inner<'s>> {
        for id in [l.brk, l.cont] {
            self.label(id)?;
        }
        for (v, _) in &l.closed {
            self.define(*v, d)?;
        }
        for v in &l.havocked {
            self.define(*v, d)?;
        }
        for a in &l.written {
            self.array(*a)?;
        }
        for inv in &l.invariants {
            let mut here = d.clone();
            self.nested(&inv.body, &mut here)?;
            self.cond("a loop invariant", &inv.cond, &here)?;
        }
        self.open.push(l.brk);
        self.exits.insert(l.brk, None);
        let mut here = d.clone();
        let r = (|| -> Result<Defs, Inner<'s>> {
            if l.do_while {
                let conts = self.with_label(l.cont, &l.body, &mut here)?;
                here = meet(here.take(), &conts);
                self.nested(&l.step, &mut here)?;
            }
            self.nested(&l.cond_stmts, &mut here)?;
            self.cond("a loop's test", &l.cond, &here)?;
            let after_test = here.clone();
            if !l.do_while {
                let conts = self.with_label(l.cont, &l.body, &mut here)?;
                here = meet(here.take(), &conts);
                self.nested(&l.step, &mut here)?;
            }
            Ok(after_test)
        })();
        self.open.pop();
        let breaks = self.exits.remove(&l.brk).flatten();
        *d = meet(r?, &breaks);
        Ok(())
    }
}

/// A failure inside [`Checker::stmt`]: at the statement itself, or at a nested one.
enum Inner<'s> {
    Here(Rule, String),
    Nested(&'s Stmt, Rule, String),
}

impl From<Fail> for Inner<'_> {
    fn from((rule, why): Fail) -> Self {
        Inner::Here(rule, why)
    }
}

#[cfg(test)]
mod tests;
