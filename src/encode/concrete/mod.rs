//! The concrete model: every thread of a fixed launch explicit, for assertion checking (PUG (Li and
//! Gopalakrishnan, FSE 2010), §7 "Assertion Checking"; ARCHITECTURE.md "Thread models").
//!
//! All `n` threads of the launch (all blocks) run in lock step over the prepared kernel (loops
//! unrolled), each with its own SSA copy; thread `i` (0-based) is pinned to its coordinates,
//! block-major and x fastest: `threadIdx = (i mod tpb) as (x, y, z)` and `blockIdx = (i div
//! tpb)` likewise, `tpb` being the threads per block. Inputs (global arrays' initial contents,
//! scalar parameters) are symbolic unless fixed by [`ConcreteOptions::param_values`].
//!
//! Shared and global memory are ordered in one of two ways:
//!
//! - canonical serialization ([`super::MemoryModel::Serialized`]): one memory updated in
//!   lock-step order, a serialization of each barrier interval; exact once the kernel is
//!   race-free (PUG §5, serializability theorem), which the caller must establish first;
//! - schedule IDs ([`ConcreteOptions::schedules`], `schedule`): one formula for every
//!   interleaving (PUG §3).
//!
//! Each `assert` gives one [`AssertionCheck`] whose query is `∨_i pc_i ∧ ¬cond_i`. Each
//! `__ensures(e)` (a [`StmtKind::Ensures`]) is evaluated after every thread's last statement,
//! against the final memory, once per thread with that thread's final variables and a true
//! path condition; uninitialised locals in `e` are havocked, so they range over all values
//! (PUG's `guarantee` with free variables).
//!
//! The threads run on the engine every model shares (`super::engine`, whose `Model` says
//! concrete: one serialized memory, [`super::MemoryModel::Serialized`]). This model's own state
//! (`state`: coordinates, overlay, schedule, assertion reads) and its parts of the
//! interpretation live beside this file: `overlay` (the memory overlay at literal offsets),
//! `schedule` (events and ORDER constraints) and `reads` (what an assertion read); this module
//! builds the launch's threads and its assertion checks and reads an assertion's witness back.
//! Must not import the pair model (`super::pair`). Does not run a solver nor decide verdicts.

mod overlay;
mod reads;
mod schedule;
pub(in crate::encode) mod state;

use super::engine::{Encoder, MemKey, TState};
use super::terms::{app, atom, bvn, f, sym, t, thread_symbol};
use super::witness::format_value;
use super::{AccessKind, Benign, Check, EncodeOptions, MemoryModel, Property};
use crate::ir::eval::Geometry;
use crate::ir::query::{ReadVars, defined_vars, expr_vars, own_def, reads_other_thread, stmts_read_other_thread};
use crate::ir::visit::{AccessContext, VarContext, Visitor};
use crate::ir::{ArrayId, Builtin, Dim, Expr, Kernel, ParamKind, Space, Span, Stmt, StmtKind, Ty, VarId};
use crate::solver::{Query, Script, Sexp};
use num_bigint::BigInt;
use state::{AssertInfo, Timeline};
use std::collections::{BTreeMap, HashSet};

/// Most threads the concrete model accepts (each has its own SSA copy).
pub const MAX_THREADS: usize = 1024;

/// What [`encode_concrete`] builds.
#[derive(Clone, Debug, Default)]
pub struct ConcreteOptions {
    /// Use schedule IDs (every interleaving) instead of the canonical serialization.
    pub schedules: bool,
    /// Encode floats in SMT-LIB's FloatingPoint theory instead of opaque functions.
    pub float_ieee: bool,
    /// Scalar parameters fixed to values (`--kernel-args`), by name.
    pub param_values: Vec<(String, BigInt)>,
}

/// Why the concrete model cannot be built (input errors, exit code 2).
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
pub enum ConcreteError {
    #[error("the concrete model needs a concrete launch: give --blockDim and --gridDim")]
    SymbolicGeometry,
    #[error("{0} threads: the concrete model handles at most {MAX_THREADS}")]
    TooManyThreads(usize),
    #[error("kernel `{kernel}` has no scalar parameter `{name}`")]
    UnknownParam { kernel: String, name: String },
    #[error("unknown comparison `{0}` (use ==, !=, <, <=, >, >=)")]
    BadOperator(String),
    #[error(
        "{0} threads: an annotation that reads another thread (`__other_int`, `__uniform_int`, …) is checked for every pair of threads, which the concrete model does for at most {MAX_PAIR_THREADS} threads (`gpug FILE` checks it in the pair model)"
    )]
    TooManyPairs(usize),
    /// An OpenCL barrier whose fence flags leave some memory the kernel accesses unordered,
    /// under schedule IDs, which order every access at a barrier.
    #[error(
        "{0}: a barrier whose fence flags leave {1} memory unordered, which schedule IDs (--all-schedules, or atomics) do not represent (`gpug FILE` checks its races in the pair model)"
    )]
    PartialFence(crate::ir::Span, &'static str),
    /// gpug's memory passed `--max-memory` while encoding ([`crate::memory`]): not an input
    /// error, the kernel is inconclusive.
    #[error(transparent)]
    Memory(#[from] crate::memory::Exceeded),
}

/// Most threads for which the concrete model checks an annotation that reads another thread
/// (it asks it of every pair of threads).
pub const MAX_PAIR_THREADS: usize = 128;

/// One assertion or postcondition to check, with how to read its witness back.
#[derive(Clone, Debug)]
pub struct AssertionCheck {
    pub span: Span,
    /// From `__ensures` (checked over the final memory).
    pub postcondition: bool,
    /// The condition depends on float values (then, with opaque floats, a failure may be an
    /// artefact of the abstraction: the answer is inconclusive).
    pub float_dependent: bool,
    /// The assertion comes after a call without a body (an uninterpreted result, or an array
    /// it may write), on which it may depend: a failure may be an artefact of not knowing the
    /// call, so the answer is inconclusive.
    pub call_dependent: bool,
    /// The thread (0-based, block-major) whose failure this query asks: one check per
    /// assertion and thread.
    pub thread: usize,
    /// `get_values` is laid out for [`AssertionCheck::witness`].
    pub query: Query,
    layout: WitnessLayout,
}

/// A read of an assertion's condition: label, origin array name and element bytes, type.
type ReadSlot = (String, Option<(String, u32)>, Ty);

#[derive(Clone, Debug)]
struct WitnessLayout {
    coords: Vec<([u64; 3], [u64; 3])>,
    /// Per thread: (label, origin array name and element bytes, type).
    reads: Vec<Vec<ReadSlot>>,
    params: Vec<(String, Ty)>,
    /// Per memory slot: array name, element bytes, access type, whether an input (global).
    mem: Vec<(String, u32, Ty, bool)>,
    /// Per schedule event: thread, span, kind, array name, element bytes, type.
    events: Vec<(usize, Span, AccessKind, String, u32, Ty)>,
}

pub use crate::verdict::{ArrayValues, AssertionWitness, ScheduleStep};

/// The result of [`encode_concrete`].
#[derive(Clone, Debug)]
pub struct ConcreteEncoded {
    /// Declarations, the threads' SSA copies, thread coordinates, and (with schedule IDs) the
    /// ORDER constraints and timelines. Shared with the sessions that ask its checks.
    pub script: std::sync::Arc<Script>,
    /// Per `assert` (in source order) and per `__ensures`, one check per thread that may fail.
    pub checks: Vec<AssertionCheck>,
    /// Abstractions the verdict rests on.
    pub notes: Vec<String>,
    /// Threads of the launch.
    pub threads: usize,
    /// Blocks of the launch.
    pub blocks: usize,
    /// Events of the schedule (0 without schedule IDs).
    pub events: usize,
}

/// The SMT symbol of scalar parameter `name` (shared by the pair and the concrete model).
pub fn param_symbol(name: &str) -> String {
    format!("param.{}", sym(name))
}

/// Thread `i`'s (blockIdx, threadIdx) for `block` and `grid` dimensions: block-major, x
/// fastest.
pub fn coordinates(i: usize, block: [u32; 3], grid: [u32; 3]) -> ([u64; 3], [u64; 3]) {
    let split = |v: u64, d: [u32; 3]| {
        let (x, y) = (d[0] as u64, d[1] as u64);
        [v % x, (v / x) % y, v / (x * y)]
    };
    let tpb = block.iter().map(|&d| d as u64).product::<u64>();
    (split(i as u64 / tpb, grid), split(i as u64 % tpb, block))
}

/// Encodes `kernel` (after [`crate::passes::prepare`], so without loops) for every thread of
/// the concrete launch `geometry`.
pub fn encode_concrete(
    kernel: &Kernel,
    geometry: &Geometry,
    opts: &ConcreteOptions,
) -> Result<ConcreteEncoded, ConcreteError> {
    let launch = Launch::of(geometry)?;
    let n = launch.threads;
    if n > MAX_PAIR_THREADS && stmts_read_other_thread(&kernel.body) {
        return Err(ConcreteError::TooManyPairs(n));
    }
    let eo = EncodeOptions {
        threads: n,
        memory: MemoryModel::Serialized,
        benign: Benign::Off,
        ..Default::default()
    };
    let mut e = Encoder::new(kernel, geometry, &eo);
    e.concrete.float_ieee = opts.float_ieee;
    e.fold = true;
    if opts.schedules {
        e.concrete.schedule = Some(Timeline::default());
    }
    e.prologue();
    let coords = pin_threads(&mut e, &launch);
    fix_params(&mut e, kernel, &opts.param_values)?;
    let mut st = e.initial_states();
    let init_mem = e.global.clone();
    e.block(&kernel.body, &mut st);
    if let Some(e) = e.stopped.take() {
        return Err(e.into());
    }
    if opts.schedules {
        e.finish_schedule(launch.tpb);
    }
    let n_asserts = e.concrete.assert_info.len();
    check_ensures(&mut e, kernel, &st);
    let tainted = float_vars(kernel);
    let mut checks = Vec::new();
    let asserts: Vec<Check> = e
        .checks
        .iter()
        .filter(|c| matches!(c.property, Property::Assertion { .. }))
        .cloned()
        .collect();
    e.materialize_all();
    let final_mem = e.global.clone();
    // Under `--float ieee`, an operation left uninterpreted (e.g. `expf`) still makes a failure
    // possibly spurious.
    let opaque_left = e.has_opaque_float;
    let timeline = e.concrete.timeline.clone();
    let sources = WitnessSources {
        coords: &coords,
        init_mem: &init_mem,
        final_mem: &final_mem,
        timeline: timeline.as_ref(),
    };
    for (idx, (c, info)) in asserts.iter().zip(e.concrete.assert_info.clone()).enumerate() {
        let Property::Assertion { span } = &c.property else {
            continue;
        };
        let (gv, layout) = witness_values(&e, kernel, &sources, c, &info);
        let mut query = c.query.clone();
        query.get_values = gv;
        if idx >= n_asserts {
            query.name = query.name.replace(".assert.", ".ensures.");
        }
        // One query per thread whose failure is possible: smaller than their disjunction, and
        // solvers answer them much faster (the fails indicators lead `get_values`).
        let fails: Vec<Sexp> = query.get_values[..n].to_vec();
        for (th, fail) in fails.iter().enumerate() {
            if *fail == f() {
                continue;
            }
            let mut q = query.clone();
            q.name = format!("{}.t{}", query.name, th + 1);
            q.assertions = vec![fail.clone()];
            checks.push(AssertionCheck {
                span: span.clone(),
                postcondition: idx >= n_asserts,
                float_dependent: (!opts.float_ieee || opaque_left) && has_float(&info.cond, &tainted),
                // In this model only calls without a body make a check possible (no loop is
                // abstracted): the assertion comes after one.
                call_dependent: c.possible,
                thread: th,
                query: q,
                layout: layout.clone(),
            });
        }
    }
    let mut notes = Vec::new();
    if e.has_opaque_float && !opts.float_ieee {
        notes.push(
            "float values are opaque (uninterpreted): an assertion about them is inconclusive; --float ieee encodes them exactly"
                .to_string(),
        );
    }
    let events = timeline.as_ref().map(|t| t.events.len()).unwrap_or(0);
    // z3 rejects `QF_ABVFP` in `set-logic`; `ALL` is understood by both FP solvers.
    let logic = if e.float_used() { "ALL" } else { "QF_AUFBV" };
    // The postconditions' statements, encoded after the body, may have stopped too.
    if let Some(e) = e.stopped.take() {
        return Err(e.into());
    }
    let mut commands = std::mem::take(&mut e.decls);
    commands.append(&mut e.cmds);
    let script = std::sync::Arc::new(Script {
        probes: Vec::new(),
        logic: logic.into(),
        commands,
    });
    Ok(ConcreteEncoded {
        script,
        checks,
        notes,
        threads: n,
        blocks: launch.blocks,
        events,
    })
}

/// A concrete launch: its dimensions and how many threads it runs.
struct Launch {
    block: [u32; 3],
    grid: [u32; 3],
    /// Threads per block.
    tpb: usize,
    blocks: usize,
    threads: usize,
}

impl Launch {
    /// The launch of `geometry`, which must be concrete and have at most [`MAX_THREADS`].
    fn of(geometry: &Geometry) -> Result<Launch, ConcreteError> {
        let dims = |d: [Option<u32>; 3]| -> Option<[u32; 3]> { Some([d[0]?, d[1]?, d[2]?]) };
        let (Some(block), Some(grid)) = (dims(geometry.block_dim), dims(geometry.grid_dim)) else {
            return Err(ConcreteError::SymbolicGeometry);
        };
        let tpb = block.iter().map(|&d| d as usize).product::<usize>();
        let blocks = grid.iter().map(|&d| d as usize).product::<usize>();
        let n = tpb.saturating_mul(blocks);
        if n > MAX_THREADS {
            return Err(ConcreteError::TooManyThreads(n));
        }
        Ok(Launch {
            block,
            grid,
            tpb,
            blocks,
            threads: n,
        })
    }
}

/// Pins every thread of `launch` to its coordinates (asserted, and in `e.pinned`); returns
/// them.
fn pin_threads(e: &mut Encoder, launch: &Launch) -> Vec<([u64; 3], [u64; 3])> {
    let mut coords = Vec::new();
    for i in 0..launch.threads {
        let (b, th) = coordinates(i, launch.block, launch.grid);
        for d in Dim::ALL {
            for (bi, v) in [
                (Builtin::ThreadIdx(d), th[d.index()]),
                (Builtin::BlockIdx(d), b[d.index()]),
            ] {
                let name = thread_symbol(bi, i);
                e.assert(app("=", vec![atom(name), bvn(v, 32)]));
            }
        }
        coords.push((b, th));
    }
    e.concrete.pinned = coords.clone();
    e.concrete.thread_blocks = (0..launch.threads).map(|i| i / launch.tpb.max(1)).collect();
    coords
}

/// Asserts the values of the scalar parameters fixed by `--kernel-args`.
fn fix_params(e: &mut Encoder, kernel: &Kernel, values: &[(String, BigInt)]) -> Result<(), ConcreteError> {
    let scalar = |name: &str| -> Result<Ty, ConcreteError> {
        kernel
            .params
            .iter()
            .find_map(|p| match &p.kind {
                ParamKind::Scalar(v) if p.name == name => Some(kernel.var(*v).ty),
                _ => None,
            })
            .ok_or_else(|| ConcreteError::UnknownParam {
                kernel: kernel.name.clone(),
                name: name.to_string(),
            })
    };
    for (name, value) in values {
        let ty = scalar(name)?;
        let v = e.expr(&Expr::int(value.clone(), ty), &mut dummy_state(), 0);
        e.assert(app("=", vec![atom(param_symbol(name)), v]));
    }
    Ok(())
}

/// The checks of every `__ensures` of `kernel`, over the threads' final states `st`: its body
/// and then its condition as an assertion.
fn check_ensures(e: &mut Encoder, kernel: &Kernel, st: &[TState]) {
    let mut ensures = Vec::new();
    collect_ensures(&kernel.body, &mut ensures);
    let mut computed = HashSet::new();
    assigned_vars(&kernel.body, &mut computed);
    for (span, body, cond) in &ensures {
        // A postcondition that does not mention the thread's coordinates is the same claim
        // for every thread: thread 0 checks it alone; or, when it reads `__shared__` memory
        // (each block's own), the first thread of each block.
        let per_block = reads_shared(kernel, body);
        let uniform = !stmts_use_coords(body) && !expr_uses_coords(cond) && !reads_other_thread(cond) && {
            let mut used = Vec::new();
            expr_vars(cond, &mut used);
            stmts_vars(body, &mut used);
            used.iter().all(|v| !computed.contains(v))
        };
        let mut fin: Vec<TState> = st.to_vec();
        let blocks = e.concrete.thread_blocks.clone();
        for (i, ts) in fin.iter_mut().enumerate() {
            let first = match per_block {
                true => i == 0 || blocks.get(i - 1) != blocks.get(i),
                false => i == 0,
            };
            ts.pc = if uniform && !first { f() } else { t() };
        }
        e.block(body, &mut fin);
        let a = Stmt {
            kind: StmtKind::Assert { cond: cond.clone() },
            span: span.clone(),
        };
        e.stmt(&a, &mut fin);
    }
}

/// What an assertion's witness reads besides the check's own terms: the threads'
/// coordinates, the memories before the first and after the last statement, the timeline.
struct WitnessSources<'a> {
    coords: &'a [([u64; 3], [u64; 3])],
    init_mem: &'a BTreeMap<MemKey, Sexp>,
    final_mem: &'a BTreeMap<MemKey, Sexp>,
    timeline: Option<&'a Timeline>,
}

/// The `get_values` of assertion check `c` (its fails indicators, then what its condition read,
/// the parameters, every access's offsets and initial and final values, the schedule's events)
/// and their layout for [`AssertionCheck::witness`].
fn witness_values(
    e: &Encoder,
    kernel: &Kernel,
    sources: &WitnessSources,
    c: &Check,
    info: &AssertInfo,
) -> (Vec<Sexp>, WitnessLayout) {
    let common = c.layout.common().len();
    let mut gv: Vec<Sexp> = c.query.get_values[common..].to_vec();
    let mut layout = WitnessLayout {
        coords: sources.coords.to_vec(),
        reads: Vec::new(),
        params: Vec::new(),
        mem: Vec::new(),
        events: Vec::new(),
    };
    for per in &info.reads {
        let mut row = Vec::new();
        for r in per {
            gv.push(r.value.clone());
            let origin = r.origin.as_ref().map(|(a, off)| {
                gv.push(off.clone());
                let d = kernel.array(*a);
                (d.name.clone(), d.elem.bytes().max(1))
            });
            row.push((r.name.clone(), origin, r.ty));
        }
        layout.reads.push(row);
    }
    for (name, ty, term) in &e.layout.params {
        gv.push(term.clone());
        layout.params.push((name.clone(), *ty));
    }
    for acc in &e.accesses {
        let d = kernel.array(acc.array);
        let Some(ty) = access_ty(d.elem, acc.width) else {
            continue;
        };
        let input = matches!(d.space, Space::Global | Space::Constant);
        for (th, (pc, off, _)) in acc.per_thread.iter().enumerate() {
            gv.push(pc.clone());
            gv.push(off.clone());
            // A `__shared__` array has one memory per block: the thread's.
            let block = match d.space {
                Space::Shared => e.concrete.thread_blocks.get(th).copied().unwrap_or(0),
                _ => 0,
            };
            let bytes_in = |mem: &BTreeMap<MemKey, Sexp>| {
                let m = mem.get(&(acc.array, block)).cloned().unwrap_or_else(|| atom("false"));
                Encoder::load_bytes(&m, off, acc.width)
            };
            gv.push(bytes_in(sources.init_mem));
            gv.push(bytes_in(sources.final_mem));
            let several_blocks = e.concrete.thread_blocks.last().is_some_and(|&b| b > 0);
            let name = match (d.space, sources.coords.get(th)) {
                (Space::Shared, Some((b, _))) if several_blocks => {
                    format!("{}@block({},{},{})", d.name, b[0], b[1], b[2])
                }
                _ => d.name.clone(),
            };
            layout.mem.push((name, d.elem.bytes().max(1), ty, input));
        }
    }
    if let Some(tl) = sources.timeline {
        for ev in &tl.events {
            let d = kernel.array(ev.array);
            gv.push(ev.sid.clone());
            gv.push(ev.pc.clone());
            gv.push(ev.off.clone());
            gv.push(ev.read.clone().unwrap_or_else(|| bvn(0, ev.ty.bits())));
            gv.push(ev.write.clone().unwrap_or_else(|| bvn(0, ev.ty.bits())));
            layout.events.push((
                ev.thread,
                ev.span.clone(),
                ev.kind,
                d.name.clone(),
                d.elem.bytes().max(1),
                ev.ty,
            ));
        }
    }
    (gv, layout)
}

/// A state for evaluating constants.
fn dummy_state() -> TState {
    TState {
        pc: t(),
        vars: Vec::new(),
        mem: BTreeMap::new(),
        bc: bvn(0, 32),
        gc: bvn(0, 32),
        wc: bvn(0, 32),
        fence: (bvn(0, 32), bvn(0, 32)),
        assumed: t(),
        block: 0,
    }
}

/// The type an access of `width` bytes to an array of `elem` reads, for printing values.
fn access_ty(elem: Ty, width: u32) -> Option<Ty> {
    if elem.bytes() == width {
        return Some(elem);
    }
    match width {
        1 | 2 | 4 | 8 => Some(Ty::Int {
            bits: width * 8,
            signed: true,
        }),
        _ => None,
    }
}

/// Whether the statements (an `__ensures` body, where its loads are) access a `__shared__`
/// array of `kernel`.
fn reads_shared(kernel: &Kernel, stmts: &[Stmt]) -> bool {
    struct Shared<'a>(&'a Kernel, bool);
    impl Visitor for Shared<'_> {
        fn visit_array(&mut self, array: ArrayId, _ctx: AccessContext) {
            self.1 |= self.0.array(array).space == Space::Shared;
        }
    }
    let mut v = Shared(kernel, false);
    v.visit_block(stmts);
    v.1
}

/// Whether `e` reads `threadIdx` or `blockIdx`.
fn expr_uses_coords(e: &Expr) -> bool {
    let mut c = Coords(false);
    c.visit_expr(e);
    c.0
}

/// Whether the statements (an `__ensures` body) read `threadIdx` or `blockIdx`, or hold a
/// statement other than an assignment, a load, a branch or a block (taken as depending on the
/// thread).
fn stmts_use_coords(stmts: &[Stmt]) -> bool {
    let mut c = Coords(false);
    c.visit_block(stmts);
    c.0
}

/// Set when the walk meets a read of the thread's coordinates, or a statement that
/// [`stmts_use_coords`] does not look into.
struct Coords(bool);

impl Visitor for Coords {
    fn visit_stmt(&mut self, s: &Stmt) {
        match s.kind {
            StmtKind::Assign { .. } | StmtKind::Load { .. } | StmtKind::If { .. } | StmtKind::Block { .. } => {
                self.super_stmt(s)
            }
            _ => self.0 = true,
        }
    }

    fn visit_builtin(&mut self, b: Builtin) {
        self.0 |= matches!(b, Builtin::ThreadIdx(_) | Builtin::BlockIdx(_));
    }
}

/// Variables given a value (assigned, loaded, an atomic's result) outside `__ensures` bodies:
/// they may differ between threads. Variables only havocked (uninitialised locals) and
/// parameters are not.
fn assigned_vars(stmts: &[Stmt], out: &mut HashSet<VarId>) {
    defined_vars(stmts, |c| c != VarContext::Havoc, out);
}

/// Variables read by the statements of an `__ensures` body (not those it assigns itself):
/// those of its top-level assignments and loads only.
fn stmts_vars(stmts: &[Stmt], out: &mut Vec<VarId>) {
    let mut own = HashSet::new();
    assigned_vars(stmts, &mut own);
    let mut used = Vec::new();
    for s in stmts {
        if matches!(s.kind, StmtKind::Assign { .. } | StmtKind::Load { .. }) {
            ReadVars(&mut used).visit_stmt(s);
        }
    }
    out.extend(used.into_iter().filter(|v| !own.contains(v)));
}

/// Appends to `out` every `__ensures` of `stmts` (span, body, condition), in program order.
fn collect_ensures(stmts: &[Stmt], out: &mut Vec<(Span, Vec<Stmt>, Expr)>) {
    struct Postconditions<'a>(&'a mut Vec<(Span, Vec<Stmt>, Expr)>);
    impl Visitor for Postconditions<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            match &s.kind {
                StmtKind::Ensures { body, cond } => self.0.push((s.span.clone(), body.clone(), cond.clone())),
                _ => self.super_stmt(s),
            }
        }
    }
    Postconditions(out).visit_block(stmts);
}

/// Whether `e` has a part of float type or reads a variable of `tainted`.
fn has_float(e: &Expr, tainted: &HashSet<VarId>) -> bool {
    struct Floats<'a> {
        tainted: &'a HashSet<VarId>,
        found: bool,
    }
    impl Visitor for Floats<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if matches!(e.ty(), Ty::Float { .. }) {
                self.found = true;
            } else {
                self.super_expr(e);
            }
        }
        fn visit_var(&mut self, var: VarId, _ctx: VarContext) {
            self.found |= self.tainted.contains(&var);
        }
    }
    let mut w = Floats { tainted, found: false };
    w.visit_expr(e);
    w.found
}

/// Variables whose value may depend on a float (a fixpoint over assignments, loads, atomics,
/// `__ensures` bodies included).
fn float_vars(k: &Kernel) -> HashSet<VarId> {
    struct Taint {
        tainted: HashSet<VarId>,
        changed: bool,
    }
    impl Visitor for Taint {
        fn visit_stmt(&mut self, s: &Stmt) {
            let float = match &s.kind {
                StmtKind::Assign { value, .. } => has_float(value, &self.tainted),
                StmtKind::Load { ty, .. } | StmtKind::Atomic { ty, .. } => matches!(ty, Ty::Float { .. }),
                _ => false,
            };
            if float
                && let Some(v) = own_def(s)
                && self.tainted.insert(v)
            {
                self.changed = true;
            }
            self.super_stmt(s);
        }
    }
    let mut t = Taint {
        tainted: HashSet::new(),
        changed: true,
    };
    while t.changed {
        t.changed = false;
        t.visit_block(&k.body);
    }
    t.tainted
}

fn num(v: Option<&Sexp>) -> Option<i64> {
    v.and_then(Sexp::as_bv)
        .and_then(|b| u64::try_from(b).ok())
        .map(|u| u as i64)
}

fn value_text(v: Option<&Sexp>, ty: Ty) -> String {
    let ty = if ty == Ty::Bool {
        Ty::Int { bits: 8, signed: false }
    } else {
        ty
    };
    v.map(|v| format_value(v, ty)).unwrap_or_else(|| "?".into())
}

fn elem_index(off: i64, elem: u32) -> String {
    let e = elem.max(1) as i64;
    if off.rem_euclid(e) == 0 {
        (off.div_euclid(e)).to_string()
    } else {
        format!("byte {off}")
    }
}

impl AssertionCheck {
    /// The witness from the values a `sat` answer gave for `self.query.get_values`.
    pub fn witness(&self, values: &[Sexp]) -> AssertionWitness {
        let l = &self.layout;
        let n = l.coords.len();
        let mut it = values.iter();
        let fails: Vec<bool> = (0..n)
            .map(|_| it.next().and_then(Sexp::as_bool) == Some(true))
            .collect();
        let thread = if fails.get(self.thread) == Some(&true) {
            self.thread
        } else {
            fails.iter().position(|&b| b).unwrap_or(self.thread)
        };
        let mut reads = Vec::new();
        for (th, row) in l.reads.iter().enumerate() {
            for (name, origin, ty) in row {
                let v = it.next();
                let label = match origin {
                    Some((array, elem)) => {
                        let off = num(it.next()).unwrap_or(0);
                        format!("{array}[{}]", elem_index(off, *elem))
                    }
                    None => name.clone(),
                };
                if th == thread && !reads.iter().any(|(l, _)| *l == label) {
                    reads.push((label, value_text(v, *ty)));
                }
            }
        }
        let mut params = Vec::new();
        for (name, ty) in &l.params {
            params.push((name.clone(), value_text(it.next(), *ty)));
        }
        let mut inputs: BTreeMap<String, BTreeMap<i64, String>> = BTreeMap::new();
        let mut finals: BTreeMap<String, BTreeMap<i64, String>> = BTreeMap::new();
        for (name, elem, ty, input) in &l.mem {
            let pc = it.next().and_then(Sexp::as_bool) == Some(true);
            let off = num(it.next());
            let init = it.next();
            let fin = it.next();
            let (true, Some(off)) = (pc, off) else { continue };
            if off.rem_euclid(*elem as i64) != 0 {
                continue;
            }
            let idx = off.div_euclid(*elem as i64);
            if *input {
                inputs
                    .entry(name.clone())
                    .or_default()
                    .entry(idx)
                    .or_insert_with(|| value_text(init, *ty));
            }
            finals
                .entry(name.clone())
                .or_default()
                .entry(idx)
                .or_insert_with(|| value_text(fin, *ty));
        }
        let mut schedule = Vec::new();
        for (th, span, kind, array, elem, ty) in &l.events {
            let sid = num(it.next()).unwrap_or(0) as u64;
            let pc = it.next().and_then(Sexp::as_bool) == Some(true);
            let off = num(it.next()).unwrap_or(0);
            let r = value_text(it.next(), *ty);
            let w = value_text(it.next(), *ty);
            if !pc {
                continue;
            }
            let value = match kind {
                AccessKind::Read => r,
                AccessKind::Write => w,
                _ => format!("{r} -> {w}"),
            };
            schedule.push(ScheduleStep {
                sid,
                thread: *th,
                block: l.coords[*th].0,
                thread_idx: l.coords[*th].1,
                span: span.clone(),
                access: *kind,
                location: format!("{array}[{}]", elem_index(off, *elem)),
                value,
            });
        }
        schedule.sort_by_key(|s| s.sid);
        let arrays = |m: BTreeMap<String, BTreeMap<i64, String>>| {
            m.into_iter()
                .map(|(name, elems)| ArrayValues {
                    name,
                    elems: elems.into_iter().collect(),
                })
                .collect()
        };
        AssertionWitness {
            thread,
            block: l.coords.get(thread).map(|c| c.0).unwrap_or_default(),
            thread_idx: l.coords.get(thread).map(|c| c.1).unwrap_or_default(),
            params,
            reads,
            inputs: arrays(inputs),
            finals: arrays(finals),
            schedule,
        }
    }
}
