//! Differential soundness test (issue 16, item 5): random kernels from a small grammar, each
//! checked by gpug at a small concrete launch and by an exact reference, whose verdicts must
//! agree exactly (race, barrier divergence, or clean).
//!
//! The grammar (`Stmt`, rendered as CUDA by `render`): stores, loads and `atomicAdd`s on
//! shared and global arrays of `int` and `char` (and `char` views of `int` arrays), at
//! affine, divided, xor-ed, reversed and modular indices over `threadIdx.x`, `blockIdx.x` and
//! loop counters;
//! `__syncthreads()` in uniform and non-uniform places; `if`/`else` on thread ids, block ids
//! and a scalar parameter `n`; `return`, `break` and `continue` in a conditional; `atomicAdd` and `atomicAdd_block`;
//! `for` loops of 1 to 3 iterations and tree-reduction loops (`i = blockDim.x / 2; i > 0;
//! i >>= 1`), whose counters appear in indices and conditions. No control flow or address
//! depends on a value read from memory.
//!
//! The reference (`oracle`) is an interpreter of gpug's `ir` (what the front end lowered, before
//! any pass), kept small and here in `tests/`: it runs every thread of the launch to its end,
//! records each thread's accesses (array, byte interval, read/write/atomic, barrier interval:
//! the number of `__syncthreads()` passed before it) and the barriers it reached, then lists
//! - **barrier divergence**: two threads of one block whose sequences of reached barriers
//!   differ (a barrier reached by only some threads of the block, or reached a different number
//!   of times);
//! - **races** (only where no block diverges): two accesses of different threads to
//!   overlapping bytes of one array, at least one a write, not both atomic, in one barrier
//!   interval of one block (shared and global arrays), or in different blocks (global arrays,
//!   any interval). `--no-benign` is given to gpug, so a race of equal values is a race.
//!
//! The parameter `n` is only compared with thread and block ids below 16, so its behaviour is
//! covered by `n` in {-1, 0, …, 17, 2^20}; the reference runs each and takes the union. gpug is
//! run with `--no-benign --blockDim=B --gridDim=G` (B ≤ 8, G ≤ 2) and its JSON verdict read:
//! a divergence finding means divergence, else a race finding a race, else `verified` clean;
//! anything else (inconclusive, a possible finding with no abstraction involved) disagrees.
//!
//! `cargo test --release --test differential` runs `GPUG_DIFF_CASES` cases (default 150 in each of two
//! tests of different seeds); `scripts/differential.sh N` runs N. A disagreement is shrunk by
//! proptest to a small kernel, printed with both verdicts.

mod common;

use gpug::frontend::{self, FrontendOptions};
use gpug::ir::{self, BinOp, Builtin, Dim, Expr, Kernel, ParamKind, Space, StmtKind, Ty, UnOp};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::collections::HashMap;
use std::fmt::Write as _;

// ---------------------------------------------------------------------------------------------
// The grammar.

/// An array the kernel touches.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Arr {
    /// `__shared__ int s[16]`.
    Shared,
    /// `__shared__ char sc[16]`.
    SharedChar,
    /// `((char *)s)`: a byte view of `s` (64 bytes).
    SharedBytes,
    /// `int *g` (a parameter).
    Global,
    /// `((char *)g)`: a byte view of `g`.
    GlobalBytes,
    /// `char *gc` (a parameter).
    GlobalChar,
}

impl Arr {
    fn is_int(self) -> bool {
        matches!(self, Arr::Shared | Arr::Global)
    }
    fn is_shared(self) -> bool {
        matches!(self, Arr::Shared | Arr::SharedChar | Arr::SharedBytes)
    }
    /// The number of elements of a shared array (indices are reduced modulo it).
    fn len(self) -> u32 {
        if self == Arr::SharedBytes { 64 } else { 16 }
    }
    fn name(self) -> &'static str {
        match self {
            Arr::Shared => "s",
            Arr::SharedChar => "sc",
            Arr::SharedBytes => "((char *)s)",
            Arr::Global => "g",
            Arr::GlobalBytes => "((char *)g)",
            Arr::GlobalChar => "gc",
        }
    }
}

/// `(BASE [+ i_d]) [% m]`, unsigned, where BASE is by `form`: 0 `a * threadIdx.x + b *
/// blockIdx.x + c`, 1 `threadIdx.x / (a + 1) + c`, 2 `(threadIdx.x ^ c)`, 3 `blockDim.x - 1 -
/// threadIdx.x`, 4 `threadIdx.x + blockIdx.x * blockDim.x`. A shared array's index is always
/// reduced modulo its length.
#[derive(Clone, Debug)]
struct Idx {
    form: u32,
    a: u32,
    b: u32,
    c: u32,
    /// Adds the counter of the innermost enclosing loop, if any.
    counter: bool,
    m: Option<u32>,
}

#[derive(Clone, Debug)]
enum Cond {
    /// `threadIdx.x < c`
    TidLt(u32),
    /// `threadIdx.x % m == r`
    TidMod(u32, u32),
    /// `blockIdx.x == c`
    BidEq(u32),
    /// `threadIdx.x < n` (unsigned comparison: a negative `n` is large)
    TidLtN,
    /// `(int)threadIdx.x >= n`
    TidGeNSigned,
    /// `n == c`
    NEq(u32),
    /// `threadIdx.x < i_d`, the innermost loop's counter (`threadIdx.x < 1` outside loops)
    TidLtCounter,
}

#[derive(Clone, Debug)]
enum Stmt {
    Store(Arr, Idx),
    Load(Arr, Idx),
    /// `atomicAdd` (or `atomicAdd_block`, atomic only among the threads of a block, when the
    /// flag is set) on an `int` array.
    Atomic(Arr, Idx, bool),
    /// `return;`: the thread is done (a barrier after it is divergence for the others).
    Return,
    /// `break;` (`true`) or `continue;` inside a loop; nothing outside one.
    Jump(bool),
    Sync,
    If(Cond, Vec<Stmt>, Vec<Stmt>),
    For(u32, Vec<Stmt>),
    /// `for (unsigned i_d = blockDim.x / 2; i_d > 0; i_d >>= 1)`: a tree reduction's loop.
    Halving(Vec<Stmt>),
}

fn arr() -> impl Strategy<Value = Arr> {
    prop_oneof![
        Just(Arr::Shared),
        Just(Arr::SharedChar),
        Just(Arr::SharedBytes),
        Just(Arr::Global),
        Just(Arr::GlobalBytes),
        Just(Arr::GlobalChar),
    ]
}

fn idx() -> impl Strategy<Value = Idx> {
    (
        prop_oneof![3 => Just(0u32), 1 => 1u32..5],
        0u32..3,
        0u32..3,
        0u32..4,
        any::<bool>(),
        prop_oneof![Just(None), (2u32..17).prop_map(Some)],
    )
        .prop_map(|(form, a, b, c, counter, m)| Idx {
            form,
            a,
            b,
            c,
            counter,
            m,
        })
}

fn cond() -> impl Strategy<Value = Cond> {
    prop_oneof![
        (0u32..9).prop_map(Cond::TidLt),
        (2u32..4)
            .prop_flat_map(|m| (Just(m), 0..m))
            .prop_map(|(m, r)| Cond::TidMod(m, r)),
        (0u32..2).prop_map(Cond::BidEq),
        Just(Cond::TidLtN),
        Just(Cond::TidGeNSigned),
        (0u32..4).prop_map(Cond::NEq),
        Just(Cond::TidLtCounter),
    ]
}

fn leaf() -> impl Strategy<Value = Stmt> {
    prop_oneof![
        4 => (arr(), idx()).prop_map(|(a, i)| Stmt::Store(a, i)),
        3 => (arr(), idx()).prop_map(|(a, i)| Stmt::Load(a, i)),
        1 => (prop_oneof![Just(Arr::Shared), Just(Arr::Global)], idx(), any::<bool>()).prop_map(|(a, i, b)| Stmt::Atomic(a, i, b)),
        1 => Just(Stmt::Sync),
    ]
}

fn stmts() -> impl Strategy<Value = Vec<Stmt>> {
    let stmt = leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            2 => (cond(), prop::collection::vec(inner.clone(), 0..4), prop::collection::vec(inner.clone(), 0..3))
                .prop_map(|(c, t, e)| Stmt::If(c, t, e)),
            1 => (cond(), prop::collection::vec(inner.clone(), 0..3)).prop_map(|(c, mut t)| {
                t.push(Stmt::Return);
                Stmt::If(c, t, vec![])
            }),
            1 => (cond(), any::<bool>()).prop_map(|(c, brk)| Stmt::If(c, vec![Stmt::Jump(brk)], vec![])),
            1 => (1u32..4, prop::collection::vec(inner.clone(), 1..4)).prop_map(|(k, b)| Stmt::For(k, b)),
            1 => prop::collection::vec(inner, 1..4).prop_map(Stmt::Halving),
        ]
    });
    prop::collection::vec(stmt, 1..7)
}

/// A kernel and its launch: (statements, blockDim.x, gridDim.x).
fn case() -> impl Strategy<Value = (Vec<Stmt>, u32, u32)> {
    (stmts(), 1u32..9, 1u32..3)
}

/// The kernel as CUDA source.
fn render(body: &[Stmt]) -> String {
    let mut out = String::from(
        "__global__ void k(int *g, char *gc, int n) {\n  __shared__ int s[16];\n  __shared__ char sc[16];\n  int v = 0;\n",
    );
    render_stmts(&mut out, body, 1, 0);
    out.push_str("  g[1000 + threadIdx.x + blockIdx.x * blockDim.x] = v;\n}\n");
    out
}

fn render_idx(i: &Idx, arr: Arr, depth: usize) -> String {
    let mut e = match i.form {
        0 => format!("{} * threadIdx.x + {} * blockIdx.x + {}", i.a, i.b, i.c),
        1 => format!("threadIdx.x / {} + {}", i.a + 1, i.c),
        2 => format!("(threadIdx.x ^ {})", i.c),
        3 => "blockDim.x - 1 - threadIdx.x".to_string(),
        _ => "threadIdx.x + blockIdx.x * blockDim.x".to_string(),
    };
    if i.counter && depth > 0 {
        let _ = write!(e, " + i{}", depth - 1);
    }
    match (i.m, arr.is_shared()) {
        (Some(m), _) => format!("({e}) % {m}"),
        (None, true) => format!("({e}) % {}", arr.len()),
        (None, false) => e,
    }
}

fn render_cond(c: &Cond, depth: usize) -> String {
    match c {
        Cond::TidLtCounter if depth > 0 => format!("threadIdx.x < i{}", depth - 1),
        Cond::TidLtCounter => "threadIdx.x < 1".to_string(),
        Cond::TidLt(k) => format!("threadIdx.x < {k}"),
        Cond::TidMod(m, r) => format!("threadIdx.x % {m} == {r}"),
        Cond::BidEq(k) => format!("blockIdx.x == {k}"),
        Cond::TidLtN => "threadIdx.x < n".to_string(),
        Cond::TidGeNSigned => "(int)threadIdx.x >= n".to_string(),
        Cond::NEq(k) => format!("n == {k}"),
    }
}

fn render_stmts(out: &mut String, body: &[Stmt], indent: usize, depth: usize) {
    let pad = "  ".repeat(indent);
    for s in body {
        match s {
            Stmt::Store(a, i) => {
                let value = if a.is_int() {
                    "v + (int)threadIdx.x".to_string()
                } else {
                    "(char)(v + threadIdx.x)".to_string()
                };
                let _ = writeln!(out, "{pad}{}[{}] = {value};", a.name(), render_idx(i, *a, depth));
            }
            Stmt::Load(a, i) => {
                let _ = writeln!(out, "{pad}v += {}[{}];", a.name(), render_idx(i, *a, depth));
            }
            Stmt::Atomic(a, i, block) => {
                let f = if *block { "atomicAdd_block" } else { "atomicAdd" };
                let _ = writeln!(out, "{pad}{f}(&{}[{}], 1);", a.name(), render_idx(i, *a, depth));
            }
            Stmt::Return => {
                let _ = writeln!(out, "{pad}return;");
            }
            Stmt::Jump(brk) => {
                let jump = match (depth, brk) {
                    (0, _) => ";",
                    (_, true) => "break;",
                    (_, false) => "continue;",
                };
                let _ = writeln!(out, "{pad}{jump}");
            }
            Stmt::Sync => {
                let _ = writeln!(out, "{pad}__syncthreads();");
            }
            Stmt::If(c, t, e) => {
                let _ = writeln!(out, "{pad}if ({}) {{", render_cond(c, depth));
                render_stmts(out, t, indent + 1, depth);
                if e.is_empty() {
                    let _ = writeln!(out, "{pad}}}");
                } else {
                    let _ = writeln!(out, "{pad}}} else {{");
                    render_stmts(out, e, indent + 1, depth);
                    let _ = writeln!(out, "{pad}}}");
                }
            }
            Stmt::Halving(b) => {
                let _ = writeln!(
                    out,
                    "{pad}for (unsigned i{depth} = blockDim.x / 2; i{depth} > 0; i{depth} >>= 1) {{"
                );
                render_stmts(out, b, indent + 1, depth + 1);
                let _ = writeln!(out, "{pad}}}");
            }
            Stmt::For(k, b) => {
                let _ = writeln!(out, "{pad}for (int i{depth} = 0; i{depth} < {k}; i{depth}++) {{");
                render_stmts(out, b, indent + 1, depth + 1);
                let _ = writeln!(out, "{pad}}}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The reference: an interpreter of `ir` over every thread of the launch.

/// A verdict, in the order of precedence: divergence hides races (their intervals are not
/// defined), a race makes the kernel racy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Clean,
    Race,
    Divergence,
}

/// A value of the interpreter: the bits (masked to the type's width) and whether they are
/// known (a value read from memory is not; the grammar never branches or indexes on one).
#[derive(Clone, Copy, Debug)]
struct Val {
    bits: u64,
    known: bool,
}

const UNKNOWN: Val = Val { bits: 0, known: false };

fn width(ty: Ty) -> u32 {
    match ty {
        Ty::Bool => 1,
        Ty::Int { bits, .. } | Ty::Float { bits } => bits,
    }
}

fn mask(bits: u64, w: u32) -> u64 {
    if w >= 64 { bits } else { bits & ((1u64 << w) - 1) }
}

fn signed(bits: u64, w: u32) -> i64 {
    if w >= 64 {
        bits as i64
    } else {
        ((bits << (64 - w)) as i64) >> (64 - w)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Read,
    Write,
    /// Atomic with respect to the threads of the block only (`atomicAdd_block`) or the grid.
    Atomic {
        block_scope: bool,
    },
}

#[derive(Clone, Debug)]
struct Access {
    array: usize,
    lo: u64,
    hi: u64,
    kind: Kind,
    interval: usize,
}

/// One thread's run: its accesses and the barriers it reached (their source positions).
#[derive(Default)]
struct Trace {
    accesses: Vec<Access>,
    barriers: Vec<(u32, u32)>,
}

/// How a list of statements ended.
enum Flow {
    Normal,
    Break,
    Continue,
    Exit(ir::BlockId),
    Return,
}

/// One thread of the launch being run: its ids, the launch's extents (x only; y and z are 1),
/// its variables (indexed by `ir::VarId`) and what it did so far.
struct Thread {
    tid: u32,
    bid: u32,
    bdim: u32,
    gdim: u32,
    vars: Vec<Val>,
    trace: Trace,
}

impl Thread {
    fn eval(&self, e: &Expr) -> Val {
        match e {
            Expr::Const { value, ty } => {
                let (sign, digits) = value.to_u64_digits();
                let mag = digits.first().copied().unwrap_or(0);
                let bits = if sign == num_bigint::Sign::Minus {
                    mag.wrapping_neg()
                } else {
                    mag
                };
                Val {
                    bits: mask(bits, width(*ty)),
                    known: true,
                }
            }
            Expr::Var { id, .. } => self.vars[id.0],
            Expr::Builtin(b) => {
                let bits = match b {
                    Builtin::ThreadIdx(Dim::X) => self.tid,
                    Builtin::BlockIdx(Dim::X) => self.bid,
                    Builtin::BlockDim(Dim::X) => self.bdim,
                    Builtin::GridDim(Dim::X) => self.gdim,
                    Builtin::ThreadIdx(_) | Builtin::BlockIdx(_) => 0,
                    Builtin::BlockDim(_) | Builtin::GridDim(_) => 1,
                    Builtin::WarpSize => 32,
                };
                Val {
                    bits: u64::from(bits),
                    known: true,
                }
            }
            Expr::Unary { op, arg, ty } => {
                let a = self.eval(arg);
                let w = width(*ty);
                let bits = match op {
                    UnOp::Neg => a.bits.wrapping_neg(),
                    UnOp::BitNot => !a.bits,
                    UnOp::Not => u64::from(a.bits == 0),
                    other => panic!("the grammar makes no {other:?}"),
                };
                Val {
                    bits: mask(bits, w),
                    known: a.known,
                }
            }
            Expr::Binary { op, lhs, rhs, ty } => {
                let (l, r) = (self.eval(lhs), self.eval(rhs));
                let known = l.known && r.known;
                let lt = lhs.ty();
                let lw = width(lt);
                let sg = lt.is_signed();
                let w = width(*ty);
                let ord = if sg {
                    signed(l.bits, lw).cmp(&signed(r.bits, lw))
                } else {
                    l.bits.cmp(&r.bits)
                };
                let bits = match op {
                    BinOp::Add => l.bits.wrapping_add(r.bits),
                    BinOp::Sub => l.bits.wrapping_sub(r.bits),
                    BinOp::Mul => l.bits.wrapping_mul(r.bits),
                    BinOp::Div | BinOp::Rem => {
                        if !known {
                            0
                        } else {
                            assert!(r.bits != 0, "the grammar divides by no zero");
                            match (op, sg) {
                                (BinOp::Div, false) => l.bits / r.bits,
                                (BinOp::Rem, false) => l.bits % r.bits,
                                (BinOp::Div, true) => signed(l.bits, lw).wrapping_div(signed(r.bits, lw)) as u64,
                                _ => signed(l.bits, lw).wrapping_rem(signed(r.bits, lw)) as u64,
                            }
                        }
                    }
                    BinOp::Shl => l.bits.checked_shl(r.bits as u32).unwrap_or(0),
                    BinOp::Shr if sg => (signed(l.bits, lw) >> r.bits.min(63)) as u64,
                    BinOp::Shr => l.bits.checked_shr(r.bits as u32).unwrap_or(0),
                    BinOp::BitAnd => l.bits & r.bits,
                    BinOp::BitOr => l.bits | r.bits,
                    BinOp::BitXor => l.bits ^ r.bits,
                    BinOp::Eq => u64::from(l.bits == r.bits),
                    BinOp::Ne => u64::from(l.bits != r.bits),
                    BinOp::Lt => u64::from(ord.is_lt()),
                    BinOp::Le => u64::from(ord.is_le()),
                    BinOp::Gt => u64::from(ord.is_gt()),
                    BinOp::Ge => u64::from(ord.is_ge()),
                    BinOp::LAnd => u64::from(l.bits != 0 && r.bits != 0),
                    BinOp::LOr => u64::from(l.bits != 0 || r.bits != 0),
                };
                Val {
                    bits: mask(bits, w),
                    known,
                }
            }
            Expr::Cast { arg, ty } => {
                let a = self.eval(arg);
                let from = arg.ty();
                let bits = match (from, *ty) {
                    (_, Ty::Bool) => u64::from(a.bits != 0),
                    (Ty::Int { bits: fw, signed: true }, Ty::Int { bits, .. }) => mask(signed(a.bits, fw) as u64, bits),
                    (_, t) => mask(a.bits, width(t)),
                };
                Val { bits, known: a.known }
            }
            Expr::Select { cond, then, els, .. } => {
                let c = self.eval(cond);
                assert!(c.known, "a select on a value read from memory");
                if c.bits != 0 { self.eval(then) } else { self.eval(els) }
            }
            other => panic!("the grammar makes no {other:?}"),
        }
    }

    fn access(&mut self, array: ir::ArrayId, offset: &Expr, ty: Ty, kind: Kind, line: u32) {
        let off = self.eval(offset);
        assert!(off.known, "an offset read from memory at line {line}");
        let lo = off.bits;
        self.trace.accesses.push(Access {
            array: array.0,
            lo,
            hi: lo + u64::from(ty.bytes()),
            kind,
            interval: self.trace.barriers.len(),
        });
    }

    fn run(&mut self, body: &[ir::Stmt]) -> Flow {
        for s in body {
            let line = s.span.line;
            match &s.kind {
                StmtKind::Assign { var, value } => self.vars[var.0] = self.eval(value),
                StmtKind::Load { dst, array, offset, ty } => {
                    self.access(*array, offset, *ty, Kind::Read, line);
                    self.vars[dst.0] = UNKNOWN;
                }
                StmtKind::Store { array, offset, ty, .. } => self.access(*array, offset, *ty, Kind::Write, line),
                StmtKind::Atomic {
                    dst,
                    array,
                    offset,
                    ty,
                    scope,
                    ..
                } => {
                    let block_scope = *scope == ir::AtomicScope::Block;
                    self.access(*array, offset, *ty, Kind::Atomic { block_scope }, line);
                    if let Some(d) = dst {
                        self.vars[d.0] = UNKNOWN;
                    }
                }
                StmtKind::If { cond, then, els } => {
                    let c = self.eval(cond);
                    assert!(c.known, "a branch on a value read from memory at line {line}");
                    let flow = self.run(if c.bits != 0 { then } else { els });
                    if !matches!(flow, Flow::Normal) {
                        return flow;
                    }
                }
                StmtKind::Loop {
                    cond_stmts,
                    cond,
                    body,
                    step,
                    do_while,
                } => {
                    let mut first = *do_while;
                    let mut rounds = 0;
                    loop {
                        rounds += 1;
                        assert!(rounds < 10_000, "a loop that does not end at line {line}");
                        if !first {
                            match self.run(cond_stmts) {
                                Flow::Normal => {}
                                f => return f,
                            }
                            let c = self.eval(cond);
                            assert!(c.known, "a loop condition read from memory at line {line}");
                            if c.bits == 0 {
                                break;
                            }
                        }
                        first = false;
                        match self.run(body) {
                            Flow::Normal | Flow::Continue => {}
                            Flow::Break => break,
                            f => return f,
                        }
                        match self.run(step) {
                            Flow::Normal => {}
                            f => return f,
                        }
                    }
                }
                StmtKind::Break => return Flow::Break,
                StmtKind::Continue => return Flow::Continue,
                StmtKind::Barrier(..) => self.trace.barriers.push((line, s.span.col)),
                StmtKind::Block { id, body } => match self.run(body) {
                    Flow::Exit(b) if b == *id => {}
                    Flow::Normal => {}
                    f => return f,
                },
                StmtKind::Exit(b) => return Flow::Exit(*b),
                StmtKind::Return => return Flow::Return,
                StmtKind::Assume { cond } | StmtKind::Assert { cond } => {
                    assert!(self.eval(cond).bits != 0, "an assumption that fails at line {line}")
                }
                other => panic!("the grammar makes no {other:?}"),
            }
        }
        Flow::Normal
    }
}

/// The verdict of `kernel` at launch `bdim` × `gdim` for the scalar parameter values `params`.
fn verdict_for(kernel: &Kernel, bdim: u32, gdim: u32, params: &HashMap<usize, u64>) -> Verdict {
    let mut traces = Vec::new();
    for bid in 0..gdim {
        for tid in 0..bdim {
            let mut vars = vec![UNKNOWN; kernel.vars.len()];
            for (&v, &bits) in params {
                vars[v] = Val {
                    bits: mask(bits, width(kernel.vars[v].ty)),
                    known: true,
                };
            }
            let mut t = Thread {
                tid,
                bid,
                bdim,
                gdim,
                vars,
                trace: Trace::default(),
            };
            t.run(&kernel.body);
            traces.push((bid, tid, t.trace));
        }
    }
    for bid in 0..gdim {
        let mut of_block = traces.iter().filter(|(b, ..)| *b == bid);
        let first = &of_block.next().expect("a block has threads").2.barriers;
        if of_block.any(|(_, _, t)| &t.barriers != first) {
            return Verdict::Divergence;
        }
    }
    for (i, (b1, _, t1)) in traces.iter().enumerate() {
        for (b2, _, t2) in &traces[i + 1..] {
            for a1 in &t1.accesses {
                let space = kernel.arrays[a1.array].space;
                if matches!(space, Space::Local | Space::Constant) {
                    continue;
                }
                for a2 in &t2.accesses {
                    let conflict = a1.array == a2.array
                        && a1.lo < a2.hi
                        && a2.lo < a1.hi
                        && (a1.kind != Kind::Read || a2.kind != Kind::Read)
                        && !atomic_with_each_other(a1.kind, a2.kind, b1 == b2);
                    let ordered = if b1 == b2 {
                        a1.interval != a2.interval
                    } else {
                        space == Space::Shared
                    };
                    if conflict && !ordered {
                        return Verdict::Race;
                    }
                }
            }
        }
    }
    Verdict::Clean
}

/// Whether two accesses are atomics that are atomic with respect to each other: both atomic,
/// and each thread in the other's scope (a block-scope atomic only covers its own block).
fn atomic_with_each_other(k1: Kind, k2: Kind, same_block: bool) -> bool {
    match (k1, k2) {
        (Kind::Atomic { block_scope: s1 }, Kind::Atomic { block_scope: s2 }) => same_block || !(s1 || s2),
        _ => false,
    }
}

/// The reference verdict over every value of the scalar parameters that the grammar can tell
/// apart: divergence if some value diverges, else race if some value races, else clean.
fn oracle(kernel: &Kernel, bdim: u32, gdim: u32) -> Verdict {
    let scalars: Vec<usize> = kernel
        .params
        .iter()
        .filter_map(|p| match p.kind {
            ParamKind::Scalar(v) => Some(v.0),
            ParamKind::Array(_) => None,
        })
        .collect();
    let mut values: Vec<u64> = vec![u64::MAX, 1 << 20];
    values.extend(0..=17);
    let mut worst = Verdict::Clean;
    let combos = values.len().pow(scalars.len() as u32);
    for mut c in 0..combos {
        let mut params = HashMap::new();
        for &v in &scalars {
            params.insert(v, values[c % values.len()]);
            c /= values.len();
        }
        match verdict_for(kernel, bdim, gdim, &params) {
            Verdict::Divergence => return Verdict::Divergence,
            Verdict::Race => worst = Verdict::Race,
            Verdict::Clean => {}
        }
    }
    worst
}

// ---------------------------------------------------------------------------------------------
// gpug's verdict, and the comparison.

/// gpug's verdict from its JSON report, or why it is none of the three.
fn gpug_verdict(path: &std::path::Path, bdim: u32, gdim: u32) -> Result<Verdict, String> {
    let out = common::gpug(&[
        "--json".into(),
        "--no-benign".into(),
        "--timeout".into(),
        "60".into(),
        format!("--blockDim={bdim}"),
        format!("--gridDim={gdim}"),
        path.display().to_string(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "exit {:?}, no JSON ({e}): {text}{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    let k = &json["kernels"][0];
    let findings = k["findings"].as_array().cloned().unwrap_or_default();
    let kinds: Vec<&str> = findings.iter().filter_map(|f| f["kind"].as_str()).collect();
    if findings.iter().any(|f| f["possible"] == true) {
        return Err(format!("a possible finding, with no abstraction in the grammar: {k}"));
    }
    match k["verdict"].as_str() {
        Some("defect") if kinds.contains(&"divergence") => Ok(Verdict::Divergence),
        Some("defect") if kinds.contains(&"race") => Ok(Verdict::Race),
        Some("verified") if findings.is_empty() => Ok(Verdict::Clean),
        _ => Err(format!("neither race, divergence nor verified: {k}")),
    }
}

/// Runs one case: renders the kernel, lowers it with gpug's front end for the reference,
/// and compares with gpug's verdict.
fn check_case(dir: &std::path::Path, body: &[Stmt], bdim: u32, gdim: u32) -> Result<Verdict, TestCaseError> {
    let source = render(body);
    let path = dir.join("k.cu");
    std::fs::write(&path, &source).unwrap();
    let program = frontend::load(&path, &FrontendOptions::default())
        .map_err(|e| TestCaseError::fail(format!("front end: {e}\n{source}")))?;
    let kernel = &program.kernels[0];
    let expected = oracle(kernel, bdim, gdim);
    let got = gpug_verdict(&path, bdim, gdim);
    if got.as_ref() != Ok(&expected) {
        return Err(TestCaseError::fail(format!(
            "--blockDim={bdim} --gridDim={gdim}: reference {expected:?}, gpug {got:?}\n{source}"
        )));
    }
    Ok(expected)
}

/// How many cases each test runs: `GPUG_DIFF_CASES`, default 150.
fn cases() -> u32 {
    std::env::var("GPUG_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(150)
}

/// Added to each test's seed: `GPUG_DIFF_SEED`, default 0 (CI's cases are the same each run).
fn seed_offset() -> u8 {
    std::env::var("GPUG_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn run_cases(seed: u8) {
    let seed = seed.wrapping_add(seed_offset().wrapping_mul(2));
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 400,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        proptest::test_runner::TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &[seed; 32]),
    );
    let agreed = std::sync::Mutex::new(HashMap::<String, usize>::new());
    let result = runner.run(&case(), |(body, bdim, gdim)| {
        let v = check_case(dir.path(), &body, bdim, gdim)?;
        *agreed.lock().unwrap().entry(format!("{v:?}")).or_default() += 1;
        Ok(())
    });
    if let Err(e) = result {
        panic!("gpug and the reference disagree: {e}");
    }
    let mut counts: Vec<_> = agreed.into_inner().unwrap().into_iter().collect();
    counts.sort();
    eprintln!("seed {seed}: {} cases, agreed on {counts:?}", cases());
}

#[test]
fn gpug_agrees_with_the_reference_interpreter() {
    run_cases(1);
}

#[test]
fn gpug_agrees_with_the_reference_interpreter_other_seed() {
    run_cases(2);
}
