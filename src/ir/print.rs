//! The text form of the IR: `Display` for [`Kernel`], [`Stmt`] and [`Expr`] (Cranelift's
//! `write.rs`, rustc's `-Zdump-mir`), for `--show` and for snapshot tests.
//!
//! One line per statement, indented by nesting, with its source span as a trailing comment
//! (`// line:col` when the span is in the kernel's file, `// file:line:col` otherwise).
//! Variables print as `name.id`, arrays as `@name.id`, block labels as `bN`; constants carry
//! their type as a suffix (`4u32`, `-1i64`, `true`). Inside a kernel the names come from its
//! declarations; a statement or expression printed on its own has no declarations to read and
//! prints `%id` for variables and `@id` for arrays. The form is stable (no addresses, no
//! hashing order), so two dumps diff line by line. There is no parser back.
//!
//! Must not: decide anything or change the IR; it only reads.

use super::{
    AbstractLoop, ArrayId, AtomicScope, BarrierInvariant, BarrierScope, BinOp, Builtin, ClosedForm, Expr, Fences,
    Kernel, LoopInvariant, ParamKind, ShuffleMode, Space, Span, Stmt, StmtKind, SyncEvent, Ty, UnOp, VarId, VoteOp,
    WarpLanes,
};
use std::fmt::{self, Display, Formatter, Write};

/// The column at which a statement's span comment starts (when its text is shorter).
const COMMENT_COLUMN: usize = 64;

/// Names and the kernel's file, when printing inside a kernel.
#[derive(Clone, Copy)]
struct Printer<'a> {
    kernel: Option<&'a Kernel>,
}

impl Display for Ty {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => f.write_str("bool"),
            Ty::Int { bits, signed: true } => write!(f, "i{bits}"),
            Ty::Int { bits, signed: false } => write!(f, "u{bits}"),
            Ty::Float { bits } => write!(f, "f{bits}"),
        }
    }
}

impl Display for Space {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Space::Local => "local",
            Space::Shared => "shared",
            Space::Global => "global",
            Space::Constant => "constant",
        })
    }
}

impl Display for Builtin {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (name, d) = match self {
            Builtin::ThreadIdx(d) => ("threadIdx", d),
            Builtin::BlockIdx(d) => ("blockIdx", d),
            Builtin::BlockDim(d) => ("blockDim", d),
            Builtin::GridDim(d) => ("gridDim", d),
            Builtin::WarpSize => return f.write_str("warpSize"),
        };
        write!(f, "{name}.{}", ["x", "y", "z"][d.index()])
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        Printer { kernel: None }.expr(self, f)
    }
}

impl Display for Stmt {
    /// The statement and the statements nested in it, one per line, without indentation at
    /// its own level.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        Printer { kernel: None }.stmt(self, 0, &mut out)?;
        f.write_str(out.trim_end_matches('\n'))
    }
}

impl Display for Kernel {
    /// The kernel's header (parameters, arrays, variables) and its body.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let p = Printer { kernel: Some(self) };
        let mut out = String::new();
        line(&mut out, 0, &format!("kernel {}", self.name), &self.span.to_string());
        for param in &self.params {
            let what = match &param.kind {
                ParamKind::Scalar(v) => format!("param {}: {}", p.var(*v), self.var(*v).ty),
                ParamKind::Array(a) => format!("param {}: {}", param.name, p.array(*a)),
            };
            line(&mut out, 1, &what, "");
        }
        for (i, a) in self.arrays.iter().enumerate() {
            let dims: String = a.dims.iter().map(|d| format!("[{d}]")).collect();
            let dims = if dims.is_empty() { "[]".to_string() } else { dims };
            let what = format!("array {}: {} {}{dims}", p.array(ArrayId(i)), a.space, a.elem);
            line(&mut out, 1, &what, &p.span(&a.span));
        }
        for (i, v) in self.vars.iter().enumerate() {
            line(&mut out, 1, &format!("var {}: {}", p.var(VarId(i)), v.ty), "");
        }
        for (span, why) in &self.unchecked {
            line(
                &mut out,
                1,
                &format!("unchecked \"{}\"", why.escape_default()),
                &p.span(span),
            );
        }
        out.push_str("{\n");
        p.stmts(&self.body, 1, &mut out)?;
        out.push_str("}\n");
        f.write_str(&out)
    }
}

/// Appends `text` at `indent` (two spaces a level) with `comment` (if any) as a trailing
/// `//` comment, and a newline.
fn line(out: &mut String, indent: usize, text: &str, comment: &str) {
    let start = out.len();
    for _ in 0..indent {
        out.push_str("  ");
    }
    out.push_str(text);
    if !comment.is_empty() {
        let width = out.len() - start;
        let pad = COMMENT_COLUMN.saturating_sub(width).max(2);
        out.extend(std::iter::repeat_n(' ', pad));
        out.push_str("// ");
        out.push_str(comment);
    }
    out.push('\n');
}

fn binop(op: BinOp) -> &'static str {
    op.spelling()
}

fn scope(s: AtomicScope) -> &'static str {
    match s {
        AtomicScope::Block => "block",
        AtomicScope::Device => "device",
        AtomicScope::System => "system",
    }
}

fn fences(f: Fences) -> &'static str {
    match (f.local, f.global) {
        (true, true) => "local+global",
        (true, false) => "local",
        (false, true) => "global",
        (false, false) => "none",
    }
}

impl Printer<'_> {
    fn var(&self, v: VarId) -> String {
        match self.kernel.and_then(|k| k.vars.get(v.0)) {
            Some(d) => format!("{}.{}", d.name, v.0),
            None => format!("%{}", v.0),
        }
    }

    fn array(&self, a: ArrayId) -> String {
        match self.kernel.and_then(|k| k.arrays.get(a.0)) {
            Some(d) => format!("@{}.{}", d.name, a.0),
            None => format!("@{}", a.0),
        }
    }

    /// `line:col` in the kernel's own file, else `file:line:col`.
    fn span(&self, s: &Span) -> String {
        match self.kernel {
            Some(k) if k.span.file == s.file => format!("{}:{}", s.line, s.col),
            _ => s.to_string(),
        }
    }

    fn e(&self, e: &Expr) -> String {
        let mut s = String::new();
        // Writing into a `String` cannot fail.
        let _ = self.expr(e, &mut s);
        s
    }

    fn list(&self, es: &[Expr]) -> String {
        es.iter().map(|e| self.e(e)).collect::<Vec<_>>().join(", ")
    }

    fn expr(&self, e: &Expr, f: &mut dyn Write) -> fmt::Result {
        match e {
            Expr::Const { value, ty } => match ty {
                Ty::Bool => f.write_str(if value.sign() == num_bigint::Sign::NoSign {
                    "false"
                } else {
                    "true"
                }),
                ty => write!(f, "{value}{ty}"),
            },
            Expr::Var { id, .. } => f.write_str(&self.var(*id)),
            Expr::Builtin(b) => write!(f, "{b}"),
            Expr::Unary { op, arg, .. } => {
                let a = self.e(arg);
                match op {
                    UnOp::Neg => write!(f, "-{a}"),
                    UnOp::BitNot => write!(f, "~{a}"),
                    UnOp::Not => write!(f, "!{a}"),
                    UnOp::Clz => write!(f, "clz({a})"),
                    UnOp::Ffs => write!(f, "ffs({a})"),
                    UnOp::Popc => write!(f, "popc({a})"),
                    UnOp::Brev => write!(f, "brev({a})"),
                }
            }
            Expr::Binary { op, lhs, rhs, .. } => write!(f, "({} {} {})", self.e(lhs), binop(*op), self.e(rhs)),
            Expr::Cast { arg, ty } => write!(f, "({ty}){}", self.e(arg)),
            Expr::Select { cond, then, els, .. } => {
                write!(f, "({} ? {} : {})", self.e(cond), self.e(then), self.e(els))
            }
            Expr::Opaque { name, args, ty } => write!(f, "{name}:{ty}({})", self.list(args)),
            Expr::Other(e) => write!(f, "__other({})", self.e(e)),
            Expr::Enabled => f.write_str("__enabled()"),
        }
    }

    fn stmts(&self, stmts: &[Stmt], indent: usize, out: &mut String) -> fmt::Result {
        for s in stmts {
            self.stmt(s, indent, out)?;
        }
        Ok(())
    }

    /// `head {`, the statements of `body` one level deeper, and `}` (`{}` when empty).
    fn nested(&self, head: &str, span: &str, body: &[Stmt], indent: usize, out: &mut String) -> fmt::Result {
        if body.is_empty() {
            line(out, indent, &format!("{head} {{}}"), span);
            return Ok(());
        }
        line(out, indent, &format!("{head} {{"), span);
        self.stmts(body, indent + 1, out)?;
        line(out, indent, "}", "");
        Ok(())
    }

    fn stmt(&self, s: &Stmt, indent: usize, out: &mut String) -> fmt::Result {
        let span = self.span(&s.span);
        let one = |out: &mut String, text: String| line(out, indent, &text, &span);
        match &s.kind {
            StmtKind::Assign { var, value } => one(out, format!("{} = {};", self.var(*var), self.e(value))),
            StmtKind::Havoc { var } => one(out, format!("havoc {};", self.var(*var))),
            StmtKind::Load { dst, array, offset, ty } => one(
                out,
                format!(
                    "{} = load.{ty} {}[{}];",
                    self.var(*dst),
                    self.array(*array),
                    self.e(offset)
                ),
            ),
            StmtKind::Store {
                array,
                offset,
                value,
                ty,
            } => one(
                out,
                format!(
                    "store.{ty} {}[{}] = {};",
                    self.array(*array),
                    self.e(offset),
                    self.e(value)
                ),
            ),
            StmtKind::Atomic {
                op,
                scope: sc,
                dst,
                array,
                offset,
                operands,
                ty,
            } => {
                let dst = dst.map(|d| format!("{} = ", self.var(d))).unwrap_or_default();
                let ops = self.list(operands);
                let call = format!("{}.{}.{ty}", op.cuda_name(), scope(*sc));
                one(
                    out,
                    format!("{dst}{call}({}[{}], {ops});", self.array(*array), self.e(offset)),
                )
            }
            StmtKind::If { cond, then, els } => {
                line(out, indent, &format!("if {} {{", self.e(cond)), &span);
                self.stmts(then, indent + 1, out)?;
                if !els.is_empty() {
                    line(out, indent, "} else {", "");
                    self.stmts(els, indent + 1, out)?;
                }
                line(out, indent, "}", "");
            }
            StmtKind::Loop {
                cond_stmts: pre,
                cond: test,
                body: each,
                step: next,
                do_while: first,
            } => {
                let head = if *first { "loop do-while {" } else { "loop {" };
                line(out, indent, head, &span);
                self.loop_parts(pre, test, each, next, indent + 1, out)?;
                line(out, indent, "}", "");
            }
            StmtKind::Break => one(out, "break;".into()),
            StmtKind::Continue => one(out, "continue;".into()),
            StmtKind::WarpBarrier(lanes) => one(
                out,
                match lanes {
                    WarpLanes::Tile(n) => format!("warp_barrier tile {n};"),
                    WarpLanes::Mask(m) => format!("warp_barrier mask {m:#010x};"),
                },
            ),
            StmtKind::Shuffle {
                dst,
                mode,
                mask,
                value: v,
                lane: from,
                width: w,
            } => {
                let mode = match mode {
                    ShuffleMode::Idx => "idx",
                    ShuffleMode::Up => "up",
                    ShuffleMode::Down => "down",
                    ShuffleMode::Xor => "xor",
                };
                let mask = mask.as_ref().map_or("none".to_string(), |m| self.e(m));
                one(
                    out,
                    format!(
                        "{} = shfl.{mode}(mask {mask}, value {}, lane {}, width {});",
                        self.var(*dst),
                        self.e(v),
                        self.e(from),
                        self.e(w)
                    ),
                )
            }
            StmtKind::Vote { dst, op, mask, arg } => {
                let mask = mask.as_ref().map_or("none".to_string(), |m| self.e(m));
                let op = match op {
                    VoteOp::Reduce(r) => format!("reduce_{}", format!("{r:?}").to_lowercase()),
                    op => format!("{op:?}").to_lowercase(),
                };
                one(
                    out,
                    format!("{} = vote.{op}(mask {mask}, {});", self.var(*dst), self.e(arg)),
                )
            }
            StmtKind::Fence(sc) => one(out, format!("fence.{};", scope(*sc))),
            StmtKind::Sync(ev) => one(out, self.sync_event(ev)),
            StmtKind::Barrier(sc, fl) => {
                let sc = match sc {
                    BarrierScope::Block => "block",
                    BarrierScope::Grid => "grid",
                };
                one(out, format!("barrier.{sc} {};", fences(*fl)))
            }
            StmtKind::Assert { cond } => one(out, format!("assert {};", self.e(cond))),
            StmtKind::Assume { cond } => one(out, format!("assume {};", self.e(cond))),
            StmtKind::Ensures { body, cond } => {
                self.nested("ensures", &span, body, indent, out)?;
                line(out, indent + 1, &format!("=> {};", self.e(cond)), "");
            }
            StmtKind::BarrierInvariant(bi) => self.barrier_invariant(bi, &span, indent, out)?,
            StmtKind::Block { id, body } => self.nested(&format!("b{}:", id.0), &span, body, indent, out)?,
            StmtKind::Exit(id) => one(out, format!("exit b{};", id.0)),
            StmtKind::Return => one(out, "return;".into()),
            StmtKind::Invariant { body, cond } => {
                self.nested("invariant", &span, body, indent, out)?;
                line(out, indent + 1, &format!("=> {};", self.e(cond)), "");
            }
            StmtKind::ArraySnapshot { dst, src } => {
                one(out, format!("{} = snapshot {};", self.array(*dst), self.array(*src)))
            }
            StmtKind::AbstractLoop(l) => self.abstract_loop(l, &span, indent, out)?,
            StmtKind::Clobber { array, call } => one(out, format!("clobber {} by {call};", self.array(*array))),
        }
        Ok(())
    }

    fn loop_parts(
        &self,
        cond_stmts: &[Stmt],
        cond: &Expr,
        body: &[Stmt],
        step: &[Stmt],
        indent: usize,
        out: &mut String,
    ) -> fmt::Result {
        if !cond_stmts.is_empty() {
            self.nested("cond", "", cond_stmts, indent, out)?;
        }
        line(out, indent, &format!("test {};", self.e(cond)), "");
        self.nested("body", "", body, indent, out)?;
        if !step.is_empty() {
            self.nested("step", "", step, indent, out)?;
        }
        Ok(())
    }

    fn sync_event(&self, ev: &SyncEvent) -> String {
        match ev {
            SyncEvent::Lock {
                array,
                offset,
                scope: sc,
            } => {
                format!("sync.lock.{} {}[{}];", scope(*sc), self.array(*array), self.e(offset))
            }
            SyncEvent::Unlock => "sync.unlock;".into(),
            SyncEvent::Observed {
                array,
                offset,
                scope: sc,
            } => {
                format!(
                    "sync.observed.{} {}[{}];",
                    scope(*sc),
                    self.array(*array),
                    self.e(offset)
                )
            }
            SyncEvent::CopyStart {
                site,
                event,
                dst,
                collective,
                tile,
                commit,
            } => {
                format!(
                    "sync.copy_start {site}{}{}{} event {} to {};",
                    if *collective { "" } else { " per-thread" },
                    match tile {
                        Some(n) => format!(" tile {n}"),
                        None => String::new(),
                    },
                    if *commit { " commit" } else { "" },
                    self.e(event),
                    self.array(*dst)
                )
            }
            SyncEvent::CopyEnd => "sync.copy_end;".into(),
            SyncEvent::CopyWait { events } => format!("sync.copy_wait {};", self.list(events)),
            SyncEvent::CopyWaitPrior { committed, prior } => {
                format!("sync.copy_wait_prior {} of {};", self.e(prior), self.e(committed))
            }
        }
    }

    fn barrier_invariant(&self, bi: &BarrierInvariant, span: &str, indent: usize, out: &mut String) -> fmt::Result {
        let head = if bi.binary {
            "barrier_invariant binary"
        } else {
            "barrier_invariant"
        };
        self.nested(head, span, &bi.body, indent, out)?;
        line(out, indent + 1, &format!("=> {};", self.e(&bi.cond)), "");
        for inst in &bi.instances {
            line(out, indent + 1, &format!("instance ({});", self.list(inst)), "");
        }
        Ok(())
    }

    fn invariant(&self, inv: &LoopInvariant, indent: usize, out: &mut String) -> fmt::Result {
        let span = self.span(&inv.span);
        self.nested("invariant", &span, &inv.body, indent, out)?;
        line(out, indent + 1, &format!("=> {};", self.e(&inv.cond)), "");
        Ok(())
    }

    fn abstract_loop(&self, l: &AbstractLoop, span: &str, indent: usize, out: &mut String) -> fmt::Result {
        let barriers = l.barriers.map_or("unknown".to_string(), |n| n.to_string());
        let head = format!(
            "abstract_loop{} break b{} continue b{} barriers {barriers} {{",
            if l.do_while { " do-while" } else { "" },
            l.brk.0,
            l.cont.0
        );
        line(out, indent, &head, span);
        let inner = indent + 1;
        for (v, cf) in &l.closed {
            let v = self.var(*v);
            let form = match cf {
                ClosedForm::Linear(k) => format!("{v}@0 + it * {}", self.e(k)),
                ClosedForm::Halving => format!("{v}@0 >> it"),
                ClosedForm::Doubling => format!("{v}@0 << it"),
            };
            line(out, inner, &format!("closed {v} = {form};"), "");
        }
        if !l.havocked.is_empty() {
            let vs: Vec<String> = l.havocked.iter().map(|v| self.var(*v)).collect();
            line(out, inner, &format!("havocked {};", vs.join(", ")), "");
        }
        if !l.written.is_empty() {
            let arrays: Vec<String> = l.written.iter().map(|a| self.array(*a)).collect();
            line(out, inner, &format!("written {};", arrays.join(", ")), "");
        }
        for inv in &l.invariants {
            self.invariant(inv, inner, out)?;
        }
        self.loop_parts(&l.cond_stmts, &l.cond, &l.body, &l.step, inner, out)?;
        line(out, indent, "}", "");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BlockId, Dim};

    #[test]
    fn an_expression_prints_with_types_on_constants_and_casts() {
        let e = Expr::Binary {
            op: BinOp::Lt,
            lhs: Box::new(Expr::Cast {
                arg: Box::new(Expr::Builtin(Builtin::ThreadIdx(Dim::X))),
                ty: Ty::I64,
            }),
            rhs: Box::new(Expr::int(-4, Ty::I64)),
            ty: Ty::Bool,
        };
        assert_eq!(e.to_string(), "((i64)threadIdx.x < -4i64)");
        assert_eq!(Expr::bool(true).to_string(), "true");
    }

    #[test]
    fn a_statement_alone_prints_ids_and_its_nested_statements() {
        let s = Stmt::test(
            StmtKind::Block {
                id: BlockId(2),
                body: vec![
                    Stmt::test(
                        StmtKind::Load {
                            dst: VarId(1),
                            array: ArrayId(0),
                            offset: Expr::int(8, Ty::I64),
                            ty: Ty::U32,
                        },
                        4,
                    ),
                    Stmt::test(StmtKind::Exit(BlockId(2)), 5),
                ],
            },
            3,
        );
        let text = s.to_string();
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(
            lines[0].starts_with("b2: {") && lines[0].ends_with("// t.cu:3:1"),
            "{text}"
        );
        assert!(lines[1].starts_with("  %1 = load.u32 @0[8i64];"), "{text}");
        assert!(
            lines[2].starts_with("  exit b2;") && lines[2].ends_with("// t.cu:5:1"),
            "{text}"
        );
        assert_eq!(lines[3], "}");
    }
}
