//! SSA and the pair model: a prepared kernel becomes one SMT-LIB2 script (its transition
//! formula for two symbolic threads) and one [`Check`] per property instance.
//!
//! Sources: PUG paper (`003_…`) §2 for SSA over bit-vectors (`v_next = Γ(e)`, arrays by
//! `store`, joins by `ite`), §3–§5 for barrier intervals and the serializability argument that
//! lets two threads stand for all; GPUVerify lecture notes (`002_…`) for the two-thread
//! reduction and the equality abstraction of shared state. DESIGN.md "Thread models",
//! "Shared state in the pair model" and "Properties as queries".
//!
//! Both threads are executed in lock step over the structured kernel, each with its own path
//! condition. Every array is a byte map `(Array (_ BitVec 64) (_ BitVec 8))`. Equality
//! abstraction: at a barrier each non-local array becomes a fresh array seen by both threads;
//! between barriers each thread sees that array plus its own writes (exact for the pair up to
//! its first race). Arrays touched by an atomic are adversarial: every read from them is fresh.
//! Each thread counts the barriers it passes (`bc`); two accesses of one block are in the same
//! barrier interval when their counts agree.
//!
//! Entry point: [`encode`]; a solver's values become a [`Finding`] through [`Check::finding`].

pub mod bank;
pub mod concrete;
mod float;
mod fold;
pub mod nonlinear;
pub mod schedule;
mod terms;
mod witness;

use crate::ir::{
    AbstractLoop, ArrayId, AtomicOp, BinOp, BlockId, Builtin, ClosedForm, Expr, Kernel, ParamKind, Space, Span, Stmt,
    StmtKind, Ty, UnOp, VarId,
};
use crate::passes::Geometry;
use crate::solver::{Command, Query, Script, Sexp};
use num_bigint::{BigInt, BigUint, Sign};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
pub use terms::thread_symbol;
use terms::{and, app, atom, bvn, extend, f, mem_sort, not, or, sort_of, sym, t, to_unsigned, ty_tag};
pub use witness::{AccessKind, Finding, FindingKind, WitnessAccess};

/// What one [`Check`] asks.
#[derive(Clone, Debug)]
pub enum Property {
    /// A data race on `array` between some pair of [`Check::pairs`].
    Race { array: ArrayId },
    /// Barrier divergence at the barrier at `span`.
    Divergence { span: Span },
    /// `assert` at `span` failing for thread 1 (pair model: shared values abstracted).
    Assertion { span: Span },
    /// A user loop invariant that may not hold on entry (`base`) or not be preserved.
    Invariant { span: Span, base: bool },
    /// The step check of a derived closed form of `var` in the loop at `loop_span`: when
    /// satisfiable the derivation was wrong and must not be used (the driver then havocs
    /// `var` instead). Never a defect of the kernel.
    ClosedForm { loop_span: Span, var: VarId },
}

/// One property instance: the query and how to read its model back.
#[derive(Clone, Debug)]
pub struct Check {
    pub property: Property,
    pub query: Query,
    /// For races, the access pairs (t1's access, t2's access) whose disjunction the query
    /// asks; the values of `query.get_values` hold, after the common witness values, for each
    /// pair: its condition, t1's byte offset and t2's byte offset.
    pub pairs: Vec<(Access, Access)>,
    /// The layout of the common witness values at the front of `query.get_values`.
    pub(crate) layout: witness::Layout,
    /// The answer rests on a loop abstraction: a witness may be infeasible (a "possible"
    /// defect).
    pub possible: bool,
}

/// One memory access site as executed by both threads.
#[derive(Clone, Debug)]
pub struct Access {
    pub array: ArrayId,
    pub span: Span,
    pub kind: AccessKind,
    /// Bytes touched.
    pub width: u32,
    /// Top-level barrier segment: accesses of different segments are ordered for one block.
    pub segment: u32,
    /// Made inside or after an abstracted loop.
    pub abstracted: bool,
    /// Per thread: the offset is a real address (see `Encoder::offset`).
    pub valid: Vec<Sexp>,
    /// Per thread: path condition, byte offset (BV64), barrier count (BV64).
    pub per_thread: Vec<(Sexp, Sexp, Sexp)>,
}

/// The result of [`encode`].
#[derive(Clone, Debug)]
pub struct Encoded {
    /// The kernel's transition formula: declarations, SSA definitions, geometry and thread
    /// constraints.
    pub script: Script,
    /// One check per property instance, in source order.
    pub checks: Vec<Check>,
    /// Over-approximations the verdict rests on, for the report (e.g. adversarial arrays).
    pub notes: Vec<String>,
    /// Every access to a shared or global array, in program order, with each thread's path
    /// condition, byte offset and barrier count (for checks built outside, e.g. bank
    /// conflicts).
    pub accesses: Vec<Access>,
}

/// How shared and global memory is modelled across the threads of the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryModel {
    /// Equality abstraction (pair model): each thread sees the interval's fresh array plus its
    /// own writes; arrays become fresh at every barrier; arrays touched by atomics are
    /// adversarial.
    EqualityAbstraction,
    /// One memory for all threads, updated in lock-step order (thread 0's statement, thread
    /// 1's, …): a serialization of each barrier interval, exact once the kernel is race-free
    /// (PUG paper §5, serializability). Atomics are real read-modify-writes.
    Serialized,
}

/// What [`encode_with`] builds.
#[derive(Clone, Debug)]
pub struct EncodeOptions {
    /// Threads executed symbolically (2 for the pair model). Thread `i` (0-based) has the
    /// symbols `t{i+1}.threadIdx.x` … `t{i+1}.blockIdx.z`, all within the geometry and
    /// pairwise distinct.
    pub threads: usize,
    pub memory: MemoryModel,
    /// Make the pair model's race and divergence checks (needs `threads == 2`) and the
    /// assertion checks.
    pub checks: bool,
    /// PUG's `+O`: assume that no integer `+`, `-`, `*` overflows its type (signed or
    /// unsigned), as a side condition on the path where it is evaluated.
    pub no_overflow: bool,
}

impl EncodeOptions {
    /// The pair model with all checks.
    pub fn pair() -> EncodeOptions {
        EncodeOptions {
            threads: 2,
            memory: MemoryModel::EqualityAbstraction,
            checks: true,
            no_overflow: false,
        }
    }
}

/// Encodes `kernel` (after [`crate::passes::prepare`], so without loops) for the pair model
/// under `geometry`.
pub fn encode(kernel: &Kernel, geometry: &Geometry) -> Encoded {
    encode_with(kernel, geometry, &EncodeOptions::pair())
}

/// Encodes `kernel` for `opts.threads` symbolic threads under `geometry`.
pub fn encode_with(kernel: &Kernel, geometry: &Geometry, opts: &EncodeOptions) -> Encoded {
    let mut e = Encoder::new(kernel, geometry, opts);
    e.prologue();
    let mut st = e.initial_states();
    e.block(&kernel.body, &mut st);
    if e.checks && e.n == 2 {
        e.race_checks();
    }
    let mut notes = Vec::new();
    for a in &e.adversarial {
        notes.push(format!(
            "array `{}` is touched by atomics: its values are abstracted (adversarial), so a race that depends on them may be a false alarm",
            kernel.array(*a).name
        ));
    }
    if e.has_opaque_float {
        notes.push("float values are opaque: arithmetic on them is uninterpreted".to_string());
    }
    let script = Script {
        logic: "QF_AUFBV".into(),
        commands: [e.decls, e.cmds].concat(),
    };
    Encoded {
        script,
        checks: e.check_list,
        notes,
        accesses: e.accesses,
    }
}

/// An abstracted loop whose iterations run a fixed number `nb > 0` of barriers, while its
/// iteration is encoded: its barriers count `bc_entry + it * 2^shift + k`, and the last one
/// jumps to the next iteration's base `bc_entry + (it + 1) * 2^shift`, so the accesses after it
/// share a barrier interval with the next iteration's first ones (the back edge), and equal
/// counts mean equal iterations through a shift rather than a multiplication.
struct LoopFrame {
    barriers: u32,
    shift: u32,
    seen: u32,
    /// Per thread: the barrier count on entry and the iteration count.
    base: Vec<(Sexp, Sexp)>,
}

#[derive(Clone, Debug)]
struct TState {
    pc: Sexp,
    /// The assumptions made on the way here (`__assume`, `__requires`, loop exits), as
    /// `pc => c` conjuncts. They restrict what comes after them only: an assumption that fails
    /// later cannot hide a defect earlier (Boogie's blocking `assume`).
    assumed: Sexp,
    vars: Vec<Option<Sexp>>,
    mem: BTreeMap<ArrayId, Sexp>,
    bc: Sexp,
}

struct Encoder<'k> {
    k: &'k Kernel,
    g: &'k Geometry,
    /// Number of threads.
    n: usize,
    memory: MemoryModel,
    checks: bool,
    /// The one memory of non-local arrays under [`MemoryModel::Serialized`].
    global: BTreeMap<ArrayId, Sexp>,
    decls: Vec<Command>,
    cmds: Vec<Command>,
    declared_funs: HashSet<String>,
    counter: usize,
    accesses: Vec<Access>,
    check_list: Vec<Check>,
    exits: HashMap<BlockId, Vec<Vec<TState>>>,
    depth: u32,
    segment: u32,
    adversarial: Vec<ArrayId>,
    has_opaque_float: bool,
    layout: witness::Layout,
    barrier_count: u32,
    /// Concrete model (`concrete`): encode float operations in SMT-LIB's FloatingPoint theory.
    float_ieee: bool,
    /// `EncodeOptions::no_overflow`.
    no_overflow: bool,
    /// Whether a FloatingPoint term was emitted.
    fp_used: bool,
    /// Concrete model: fold constant terms, pin builtins to `pinned`, keep memory as an overlay
    /// (`fold`).
    fold: bool,
    /// Concrete model: each thread's (blockIdx, threadIdx).
    pinned: Vec<([u64; 3], [u64; 3])>,
    /// Concrete model: bytes written at literal offsets, on top of `global`.
    overlay: BTreeMap<ArrayId, BTreeMap<u128, (u32, Sexp)>>,
    /// Concrete model with schedule IDs (`schedule`): shared and global accesses become events
    /// of the timeline instead of reading and writing `global`.
    schedule: Option<schedule::Timeline>,
    /// The timeline once `finish_schedule` has built its constraints.
    timeline: Option<schedule::Timeline>,
    /// Concrete model: per assertion check, what its condition read (for the witness).
    assert_info: Vec<concrete::AssertInfo>,
    /// The array and byte offset each thread's variable was last loaded from.
    load_origin: HashMap<(usize, VarId), (ArrayId, Sexp)>,
    /// Nesting depth of abstracted loops being encoded.
    abstract_depth: u32,
    /// Whether an abstracted loop has been encoded (values after it are over-approximated).
    seen_abstract: bool,
    /// Abstracted loops with a fixed barrier count being encoded, innermost last.
    frames: Vec<LoopFrame>,
}

impl<'k> Encoder<'k> {
    fn new(k: &'k Kernel, g: &'k Geometry, opts: &EncodeOptions) -> Self {
        let mut adversarial = Vec::new();
        if opts.memory == MemoryModel::EqualityAbstraction {
            collect_atomic_arrays(&k.body, &mut adversarial);
        }
        adversarial.sort();
        adversarial.dedup();
        Encoder {
            k,
            g,
            n: opts.threads,
            memory: opts.memory,
            checks: opts.checks,
            global: BTreeMap::new(),
            decls: Vec::new(),
            cmds: Vec::new(),
            declared_funs: HashSet::new(),
            counter: 0,
            accesses: Vec::new(),
            check_list: Vec::new(),
            exits: HashMap::new(),
            depth: 0,
            segment: 0,
            adversarial,
            has_opaque_float: false,
            layout: witness::Layout::default(),
            barrier_count: 0,
            float_ieee: false,
            fp_used: false,
            fold: false,
            no_overflow: opts.no_overflow,
            pinned: Vec::new(),
            overlay: BTreeMap::new(),
            schedule: None,
            timeline: None,
            assert_info: Vec::new(),
            load_origin: HashMap::new(),
            abstract_depth: 0,
            seen_abstract: false,
            frames: Vec::new(),
        }
    }

    fn fresh_name(&mut self, base: &str) -> String {
        self.counter += 1;
        format!("{}@{}", base, self.counter)
    }

    fn declare(&mut self, name: &str, sort: Sexp) -> Sexp {
        self.decls.push(Command::DeclareConst {
            name: name.to_string(),
            sort,
        });
        atom(name)
    }

    /// `(define-fun name () sort value)`, unless `value` is already an atom.
    fn define(&mut self, base: &str, sort: Sexp, value: Sexp) -> Sexp {
        let value = if self.fold { fold::fold(&value) } else { value };
        if let Sexp::Atom(_) = value {
            return value;
        }
        let name = self.fresh_name(base);
        self.cmds.push(Command::DefineConst {
            name: name.clone(),
            sort,
            value,
        });
        atom(name)
    }

    fn assert(&mut self, term: Sexp) {
        let term = if self.fold { fold::fold(&term) } else { term };
        if term != t() {
            self.cmds.push(Command::Assert(term));
        }
    }

    fn builtin_name(b: Builtin, thread: usize) -> String {
        thread_symbol(b, thread)
    }

    /// Geometry, the two threads, distinctness, scalar parameters.
    fn prologue(&mut self) {
        use crate::ir::Dim;
        let limits_block = [1024u64, 1024, 64];
        let limits_grid = [(1u64 << 31) - 1, 65535, 65535];
        for (i, d) in Dim::ALL.iter().enumerate() {
            for (is_block, given, limit) in [
                (true, self.g.block_dim[i], limits_block[i]),
                (false, self.g.grid_dim[i], limits_grid[i]),
            ] {
                let b = if is_block {
                    Builtin::BlockDim(*d)
                } else {
                    Builtin::GridDim(*d)
                };
                let name = Self::builtin_name(b, 0);
                match given {
                    Some(v) => {
                        self.cmds.push(Command::DefineConst {
                            name: name.clone(),
                            sort: Sexp::bv_sort(32),
                            value: bvn(v as u64, 32),
                        });
                    }
                    None => {
                        let x = self.declare(&name, Sexp::bv_sort(32));
                        self.assert(app("bvule", vec![bvn(1, 32), x.clone()]));
                        self.assert(app("bvule", vec![x, bvn(limit, 32)]));
                        self.layout.geometry.push((name.clone(), atom(&name)));
                    }
                }
            }
        }
        if self.g.block_dim.iter().any(Option::is_none) {
            // At most 1024 threads per block.
            let p = Dim::ALL
                .iter()
                .map(|d| extend(atom(Self::builtin_name(Builtin::BlockDim(*d), 0)), 32, 64, false))
                .reduce(|a, b| app("bvmul", vec![a, b]))
                .unwrap_or_else(|| bvn(1, 64));
            self.assert(app("bvule", vec![p, bvn(1024, 64)]));
        }
        self.cmds.push(Command::DefineConst {
            name: "warpSize".into(),
            sort: Sexp::bv_sort(32),
            value: bvn(32, 32),
        });
        for th in 0..self.n {
            for d in Dim::ALL {
                for (idx, dim) in [
                    (Builtin::ThreadIdx(d), Builtin::BlockDim(d)),
                    (Builtin::BlockIdx(d), Builtin::GridDim(d)),
                ] {
                    let name = Self::builtin_name(idx, th);
                    let x = self.declare(&name, Sexp::bv_sort(32));
                    self.assert(app("bvult", vec![x, atom(Self::builtin_name(dim, 0))]));
                }
            }
        }
        let same = |b: fn(crate::ir::Dim) -> Builtin, i: usize, j: usize| {
            let eqs = Dim::ALL
                .iter()
                .map(|d| {
                    app(
                        "=",
                        vec![atom(Self::builtin_name(b(*d), i)), atom(Self::builtin_name(b(*d), j))],
                    )
                })
                .collect::<Vec<_>>();
            app("and", eqs)
        };
        if self.n >= 2 {
            self.cmds.push(Command::DefineConst {
                name: "same_block".into(),
                sort: atom("Bool"),
                value: same(Builtin::BlockIdx, 0, 1),
            });
        }
        for i in 0..self.n {
            for j in i + 1..self.n {
                let both = and(same(Builtin::BlockIdx, i, j), same(Builtin::ThreadIdx, i, j));
                self.assert(not(both));
            }
        }
        for p in &self.k.params {
            if let ParamKind::Scalar(v) = &p.kind {
                let ty = self.k.var(*v).ty;
                let name = format!("param.{}", sym(&p.name));
                self.declare(&name, sort_of(ty));
                self.layout.params.push((p.name.clone(), ty, atom(&name)));
            }
        }
        for th in 0..self.n.min(2) {
            for b in [Builtin::BlockIdx, Builtin::ThreadIdx] {
                for d in Dim::ALL {
                    self.layout.coords.push(atom(Self::builtin_name(b(d), th)));
                }
            }
        }
    }

    fn initial_states(&mut self) -> Vec<TState> {
        let mut shared_mem = BTreeMap::new();
        for (i, a) in self.k.arrays.iter().enumerate() {
            if a.space != Space::Local {
                let name = format!("mem.{}.{}", sym(&a.name), i);
                let name = format!("{name}.init");
                shared_mem.insert(ArrayId(i), self.declare(&name, mem_sort()));
            }
        }
        let mut states = Vec::new();
        for th in 0..self.n {
            let mut mem = shared_mem.clone();
            for (i, a) in self.k.arrays.iter().enumerate() {
                if a.space == Space::Local {
                    let name = format!("t{}.mem.{}.{}.init", th + 1, sym(&a.name), i);
                    mem.insert(ArrayId(i), self.declare(&name, mem_sort()));
                }
            }
            let mut vars = vec![None; self.k.vars.len()];
            for p in &self.k.params {
                if let ParamKind::Scalar(v) = &p.kind {
                    vars[v.0] = Some(atom(format!("param.{}", sym(&p.name))));
                }
            }
            states.push(TState {
                pc: t(),
                assumed: t(),
                vars,
                mem,
                bc: bvn(0, 64),
            });
        }
        if self.memory == MemoryModel::Serialized {
            self.global = shared_mem;
        }
        states
    }

    fn var_name(&self, v: VarId, th: usize) -> String {
        format!("t{}.{}", th + 1, sym(&self.k.var(v).name))
    }

    fn read_var(&mut self, v: VarId, st: &mut TState, th: usize) -> Sexp {
        if let Some(x) = &st.vars[v.0] {
            return x.clone();
        }
        // Read before any assignment: an arbitrary value, the same wherever it is read.
        let name = format!("{}.{}.undef", self.var_name(v, th), v.0);
        let x = if self.declared_funs.insert(name.clone()) {
            self.declare(&name, sort_of(self.k.var(v).ty))
        } else {
            atom(name)
        };
        st.vars[v.0] = Some(x.clone());
        x
    }

    fn assign(&mut self, v: VarId, value: Sexp, st: &mut TState, th: usize) {
        let name = self.var_name(v, th);
        let x = self.define(&name, sort_of(self.k.var(v).ty), value);
        st.vars[v.0] = Some(x);
        self.load_origin.remove(&(th, v));
    }

    fn havoc(&mut self, v: VarId, st: &mut TState, th: usize) {
        let name = self.fresh_name(&format!("{}.havoc", self.var_name(v, th)));
        let x = self.declare(&name, sort_of(self.k.var(v).ty));
        st.vars[v.0] = Some(x);
        self.load_origin.remove(&(th, v));
    }

    fn uf(&mut self, name: &str, args: &[Ty], ret: Ty) -> String {
        let mut full = sym(name);
        for a in args {
            full.push_str(&format!("_{}", ty_tag(*a)));
        }
        full.push_str(&format!("_{}", ty_tag(ret)));
        let full = format!("uf.{full}");
        if self.declared_funs.insert(full.clone()) {
            self.decls.push(Command::DeclareFun {
                name: full.clone(),
                args: args.iter().map(|a| sort_of(*a)).collect(),
                ret: sort_of(ret),
            });
        }
        full
    }

    fn expr(&mut self, e: &Expr, st: &mut TState, th: usize) -> Sexp {
        match e {
            Expr::Const { value, ty } => match ty {
                Ty::Bool => {
                    if value.sign() == Sign::NoSign {
                        f()
                    } else {
                        t()
                    }
                }
                Ty::Int { bits, .. } | Ty::Float { bits } => Sexp::bv(&to_unsigned(value, *bits), *bits),
            },
            Expr::Var { id, .. } => self.read_var(*id, st, th),
            Expr::Builtin(b) => match (self.pinned.get(th), b) {
                (Some((blk, _)), Builtin::BlockIdx(d)) => bvn(blk[d.index()], 32),
                (Some((_, thr)), Builtin::ThreadIdx(d)) => bvn(thr[d.index()], 32),
                (Some(_), Builtin::BlockDim(d)) if self.g.block_dim[d.index()].is_some() => {
                    bvn(self.g.block_dim[d.index()].unwrap_or(1) as u64, 32)
                }
                (Some(_), Builtin::GridDim(d)) if self.g.grid_dim[d.index()].is_some() => {
                    bvn(self.g.grid_dim[d.index()].unwrap_or(1) as u64, 32)
                }
                _ => atom(Self::builtin_name(*b, th)),
            },
            Expr::Unary { op, arg, ty } => {
                let a = self.expr(arg, st, th);
                if matches!(ty, Ty::Float { .. }) {
                    self.has_opaque_float = true;
                    let name = self.uf(&format!("f{op:?}"), &[arg.ty()], *ty);
                    return app(&name, vec![a]);
                }
                match (op, ty) {
                    (UnOp::Not, _) | (UnOp::BitNot, Ty::Bool) => not(a),
                    (UnOp::Neg, _) => app("bvneg", vec![a]),
                    (UnOp::BitNot, _) => app("bvnot", vec![a]),
                }
            }
            Expr::Binary { op, lhs, rhs, ty } => self.binary(*op, lhs, rhs, *ty, st, th),
            Expr::Cast { arg, ty } => {
                let from = arg.ty();
                let a = self.expr(arg, st, th);
                self.cast(a, from, *ty)
            }
            Expr::Select { cond, then, els, .. } => {
                let c = self.expr(cond, st, th);
                let a = self.expr(then, st, th);
                let b = self.expr(els, st, th);
                app("ite", vec![c, a, b])
            }
            Expr::Opaque { name, args, ty } => {
                let tys: Vec<Ty> = args.iter().map(Expr::ty).collect();
                let vals: Vec<Sexp> = args.iter().map(|a| self.expr(a, st, th)).collect();
                if self.float_ieee
                    && let Some(v) = self.ieee_opaque(name, &vals, &tys, *ty)
                {
                    return v;
                }
                self.has_opaque_float |= tys.iter().chain([ty]).any(|t| matches!(t, Ty::Float { .. }));
                let fname = self.uf(name, &tys, *ty);
                if vals.is_empty() {
                    atom(fname)
                } else {
                    app(&fname, vals)
                }
            }
        }
    }

    /// One arbitrary iteration of an abstracted loop (PUG §6; DESIGN.md "Loops"). Each thread
    /// gets its own iteration count `it` (BV64, below 2^48), so two threads may be in
    /// different iterations (inter-iteration races); barrier counts at the head are
    /// `bc_entry + it * barriers`, so accesses of one block meet only in the same barrier
    /// interval, also across the back edge. Closed forms are exact in `it`; other
    /// loop-carried variables and the memory the loop may see changed are fresh. The state
    /// after the loop is built the same way for a fresh exit count, with the test false
    /// (loops are assumed to terminate).
    fn abstract_loop(&mut self, s: &Stmt, l: &AbstractLoop, st: &mut [TState]) {
        let line = s.span.line;
        // Variables the closed forms start from are read once on entry, so the head, the
        // step check and the exit all see the same initial values.
        for (th, ts) in st.iter_mut().enumerate() {
            for (v, cf) in &l.closed {
                self.read_var(*v, ts, th);
                if let ClosedForm::Linear(k) = cf {
                    let _ = self.expr(k, ts, th);
                }
            }
        }
        let entry: Vec<TState> = st.to_vec();
        // The user's invariants hold on entry (base case).
        for (inv, span) in &l.invariants {
            self.invariant_check(inv, span, &entry, "base", true);
        }
        self.depth += 1;
        self.abstract_depth += 1;
        self.seen_abstract = true;
        let mut head = entry.clone();
        let mut its = Vec::new();
        for (th, ts) in head.iter_mut().enumerate() {
            let it = self.iteration_state(l, line, "it", ts, th);
            its.push(it);
        }
        // Each thread's states at a count of this loop (the iteration, then the exit).
        let mut instances: Vec<Vec<(Sexp, TState)>> = head
            .iter()
            .zip(&its)
            .map(|(h, it)| vec![(it.clone(), h.clone())])
            .collect();
        for (inv, _) in &l.invariants {
            for (th, ts) in head.iter_mut().enumerate() {
                let c = self.expr(inv, ts, th);
                self.assume(ts, th, c);
            }
        }
        // The iteration: test (not for do-while: its head is the start of the body), body,
        // step.
        self.exits.insert(l.brk, Vec::new());
        if !l.do_while {
            self.block(&l.cond_stmts, &mut head);
            for (th, ts) in head.iter_mut().enumerate() {
                let c = self.expr(&l.cond, ts, th);
                let pc = and(ts.pc.clone(), c);
                ts.pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), pc);
            }
        }
        let body = Stmt {
            kind: StmtKind::Block {
                id: l.cont,
                body: l.body.clone(),
            },
            span: s.span.clone(),
        };
        let framed = matches!(l.barriers, Some(nb) if nb > 0);
        if let Some(nb) = l.barriers.filter(|_| framed) {
            let base = entry
                .iter()
                .zip(&its)
                .map(|(e, it)| (e.bc.clone(), it.clone()))
                .collect();
            self.frames.push(LoopFrame {
                barriers: nb,
                shift: barrier_shift(nb),
                seen: 0,
                base,
            });
        }
        self.stmt(&body, &mut head);
        self.block(&l.step, &mut head);
        if framed {
            self.frames.pop();
        }
        // Step checks: the closed forms and the user's invariants hold at the next head. In
        // the pair model the two threads are symmetric (either may be any thread), so the
        // first one stands for both.
        let checked = if self.memory == MemoryModel::EqualityAbstraction && self.pinned.is_empty() {
            1
        } else {
            self.n
        };
        for (v, cf) in &l.closed {
            let mut fails = Vec::new();
            for th in 0..checked {
                // The closed form at `it + 1`, written as one step of its rule from its value
                // at `it` (`v + k`, `v >> 1`, `v << 1`: the same value, see
                // `closed_form_next_is_one_step` in the tests), so that the query asks only
                // whether the body takes that step.
                let at_it = self.read_var(*v, &mut instances[th][0].1.clone(), th);
                let expect = self.one_step(*v, cf, at_it, &mut st[th], th);
                let got = self.read_var(*v, &mut head[th], th);
                let reach = self.reach(&head[th], th);
                fails.push(and(reach, not(app("=", vec![got, expect]))));
            }
            let name = format!("{}.loop.L{}.{}", sym(&self.k.name), line, sym(&self.k.var(*v).name));
            self.check_list.push(Check {
                property: Property::ClosedForm {
                    loop_span: s.span.clone(),
                    var: *v,
                },
                query: Query {
                    name,
                    assertions: vec![fails.into_iter().reduce(or).unwrap_or_else(f)],
                    get_values: vec![],
                },
                pairs: Vec::new(),
                layout: self.layout.clone(),
                possible: false,
            });
        }
        for (inv, span) in &l.invariants {
            self.invariant_check(inv, span, &head, "step", false);
        }
        // The next test's accesses.
        self.block(&l.cond_stmts, &mut head);
        self.exits.remove(&l.brk);
        // After the loop: a fresh exit count.
        let has_break = exits_to(&l.body, l.brk) || exits_to(&l.cond_stmts, l.brk);
        let leaves = leaves_loop(&l.body, l.brk, l.cont);
        let mut post = entry.clone();
        for (th, ts) in post.iter_mut().enumerate() {
            let count = self.iteration_state(l, line, "exit", ts, th);
            instances[th].push((count, ts.clone()));
            if leaves {
                // Some iteration may have returned: whether this thread did is unknown.
                let r = self.fresh_name(&format!("t{}.left.L{line}", th + 1));
                let r = self.declare(&r, atom("Bool"));
                let pc = and(ts.pc.clone(), not(r));
                ts.pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), pc);
            }
            if !has_break && l.cond_stmts.is_empty() {
                let c = self.expr(&l.cond, ts, th);
                self.assume(ts, th, not(c));
            }
        }
        self.closed_congruence(l, &entry, &instances);
        self.depth -= 1;
        self.abstract_depth -= 1;
        for (th, p) in post.into_iter().enumerate() {
            st[th] = p;
        }
    }

    /// Puts thread `th`'s state `ts` (the loop's entry state) at a fresh iteration count of the
    /// loop: closed forms at that count, other assigned variables and the memory the loop may
    /// change fresh, the barrier count advanced. Returns the count (BV64).
    fn iteration_state(&mut self, l: &AbstractLoop, line: u32, what: &str, ts: &mut TState, th: usize) -> Sexp {
        let mut entry = ts.clone();
        let it = self.fresh_name(&format!("t{}.{what}.L{line}", th + 1));
        let it = self.declare(&it, Sexp::bv_sort(64));
        self.assert(app("bvult", vec![it.clone(), bvn(1 << 48, 64)]));
        for (v, cf) in &l.closed {
            let v0 = self.read_var(*v, &mut entry, th);
            let value = self.closed_value(*v, cf, v0.clone(), &it, &mut entry, th);
            self.assign(*v, value, ts, th);
            // A logical right shift never grows a value (a valid fact): spares the solver
            // bounding `v0 >> it` through a shifter, e.g. that `tid + s` cannot wrap.
            if matches!(cf, ClosedForm::Halving) && !self.k.var(*v).ty.is_signed() {
                let now = self.read_var(*v, ts, th);
                self.assert(app("bvule", vec![now, v0]));
            }
        }
        for v in &l.havocked {
            self.havoc(*v, ts, th);
        }
        let barrier_loop = l.barriers != Some(0);
        let fresh_arrays: Vec<ArrayId> = (0..self.k.arrays.len())
            .map(ArrayId)
            .filter(|a| {
                l.written.contains(a)
                    || (barrier_loop && matches!(self.k.array(*a).space, Space::Shared | Space::Global))
            })
            .collect();
        for a in fresh_arrays {
            let name = self.fresh_name(&format!("t{}.mem.{}.L{line}", th + 1, sym(&self.k.array(a).name)));
            let m = self.declare(&name, mem_sort());
            match self.global.get_mut(&a) {
                Some(g) => *g = m,
                None => {
                    ts.mem.insert(a, m);
                }
            }
        }
        ts.bc = match l.barriers {
            Some(0) => ts.bc.clone(),
            Some(nb) => {
                let v = app(
                    "bvadd",
                    vec![
                        ts.bc.clone(),
                        app("bvshl", vec![it.clone(), bvn(barrier_shift(nb) as u64, 64)]),
                    ],
                );
                self.define(&format!("t{}.bc", th + 1), Sexp::bv_sort(64), v)
            }
            None => {
                let name = self.fresh_name(&format!("t{}.bc.L{line}", th + 1));
                self.declare(&name, Sexp::bv_sort(64))
            }
        };
        let state = ts.clone();
        self.iteration_bounds(l, &it, &mut entry, &state, th);
        it
    }

    /// Constraints on thread `th`'s iteration count `it` from the loop test (PUG §6.1
    /// normalization): iteration `it >= 1` is reached only if the test passed at `it - 1`.
    /// Evaluated with the closed forms at `it - 1` when the test reads only closed-form and
    /// loop-invariant variables (exact in bit-vectors); and, for `i < ub` / `i <= ub` /
    /// `i > lb` / `i >= lb` with a linear `i`, the trip bound `i0 + (it-1)*k < ub` in wide
    /// arithmetic, under the condition that no step can wrap (`ub - 1 + k <= MAX`), which makes
    /// it exact too.
    fn iteration_bounds(&mut self, l: &AbstractLoop, it: &Sexp, entry: &mut TState, head: &TState, th: usize) {
        if !l.cond_stmts.is_empty() {
            return;
        }
        let closed: BTreeMap<VarId, ClosedForm> = l.closed.iter().cloned().collect();
        let havocked: BTreeSet<VarId> = l.havocked.iter().copied().collect();
        if mentions_any(&l.cond, &havocked) {
            return;
        }
        // A `while` head `it >= 1` passed the test on iteration `it - 1`'s head; a do-while
        // head `it >= 1` passed it on its own state (the test follows the body).
        let prev_it = if l.do_while {
            it.clone()
        } else {
            app("bvsub", vec![it.clone(), bvn(1, 64)])
        };
        let mut prev = head.clone();
        for (v, cf) in &l.closed {
            let v0 = self.read_var(*v, entry, th);
            let value = self.closed_value(*v, cf, v0, &prev_it, entry, th);
            self.assign(*v, value, &mut prev, th);
        }
        let c_prev = self.expr(&l.cond, &mut prev, th);
        let started = app("bvuge", vec![it.clone(), bvn(1, 64)]);
        self.assert(app("=>", vec![started.clone(), c_prev]));
        // The trip bound of a linear index.
        let Expr::Binary { op, lhs, rhs, .. } = &l.cond else {
            return;
        };
        let strip = |e: &Expr| -> Option<VarId> {
            match e {
                Expr::Var { id, .. } => Some(*id),
                Expr::Cast { arg, ty } if arg.ty() == *ty => match &**arg {
                    Expr::Var { id, .. } => Some(*id),
                    _ => None,
                },
                _ => None,
            }
        };
        let (v, bound, op) = match (strip(lhs), strip(rhs)) {
            (Some(v), _) if closed.contains_key(&v) => (v, &**rhs, *op),
            (_, Some(v)) if closed.contains_key(&v) => {
                let flipped = match op {
                    BinOp::Lt => BinOp::Gt,
                    BinOp::Le => BinOp::Ge,
                    BinOp::Gt => BinOp::Lt,
                    BinOp::Ge => BinOp::Le,
                    _ => return,
                };
                (v, &**lhs, flipped)
            }
            _ => return,
        };
        let Some(ClosedForm::Linear(k)) = closed.get(&v) else {
            return;
        };
        if mentions_any(bound, &closed.keys().copied().collect()) {
            return;
        }
        let ty = self.k.var(v).ty;
        let Ty::Int { bits: w, signed } = ty else { return };
        if bound.ty() != ty {
            return;
        }
        let wide = w + 66;
        let ext = |x: Sexp, s: bool| extend(x, w, wide, s);
        let v0 = self.read_var(v, entry, th);
        let i0 = ext(v0, signed);
        let b = self.expr(bound, entry, th);
        let b = ext(b, signed);
        // The step as a mathematical integer: `-k'` when written as a negation.
        let kk = match k {
            Expr::Unary { op: UnOp::Neg, arg, .. } if arg.ty().bits() == w => {
                let a = self.expr(arg, entry, th);
                app("bvneg", vec![ext(a, arg.ty().is_signed())])
            }
            _ => {
                let a = self.expr(k, entry, th);
                if k.ty().bits() != w {
                    return;
                }
                ext(a, k.ty().is_signed())
            }
        };
        let num = |v: BigInt| Sexp::bv(&to_unsigned(&v, wide), wide);
        let (max, min) = if signed {
            ((BigInt::from(1) << (w - 1)) - 1, -(BigInt::from(1) << (w - 1)))
        } else {
            ((BigInt::from(1) << w) - 1, BigInt::from(0))
        };
        let itm1 = extend(prev_it, 64, wide, false);
        let last = app("bvadd", vec![i0.clone(), app("bvmul", vec![itm1, kk.clone()])]);
        let zero = num(BigInt::from(0));
        // A do-while runs its first step untested: the argument needs the test true on entry.
        let cmp = match op {
            BinOp::Lt => "bvslt",
            BinOp::Le => "bvsle",
            BinOp::Gt => "bvsgt",
            _ => "bvsge",
        };
        let entered = if l.do_while { app(cmp, vec![i0, b.clone()]) } else { t() };
        let (guard, holds) = match op {
            BinOp::Lt | BinOp::Le => {
                let reach = if op == BinOp::Lt {
                    app("bvsub", vec![b.clone(), num(1.into())])
                } else {
                    b.clone()
                };
                let guard = and(
                    app("bvsgt", vec![kk.clone(), zero]),
                    app("bvsle", vec![app("bvadd", vec![reach, kk]), num(max)]),
                );
                (
                    guard,
                    app(if op == BinOp::Lt { "bvslt" } else { "bvsle" }, vec![last, b]),
                )
            }
            BinOp::Gt | BinOp::Ge => {
                let reach = if op == BinOp::Gt {
                    app("bvadd", vec![b.clone(), num(1.into())])
                } else {
                    b.clone()
                };
                let guard = and(
                    app("bvslt", vec![kk.clone(), zero]),
                    app("bvsge", vec![app("bvadd", vec![reach, kk]), num(min)]),
                );
                (
                    guard,
                    app(if op == BinOp::Gt { "bvsgt" } else { "bvsge" }, vec![last, b]),
                )
            }
            _ => return,
        };
        self.assert(app("=>", vec![and(and(guard, entered), started), holds]));
    }

    /// Pair model: a closed form is a function of the iteration count, the entry value and
    /// the stride, so two threads at equal counts (an iteration or the exit, `instances[th]`)
    /// from equal values agree on it (asserted, a valid fact). Saves the solver proving it
    /// through two shifters or multipliers, e.g. that both threads of a tree reduction see
    /// the same `s` when their barrier counts agree.
    fn closed_congruence(&mut self, l: &AbstractLoop, entry: &[TState], instances: &[Vec<(Sexp, TState)>]) {
        if self.n != 2 || self.memory != MemoryModel::EqualityAbstraction || !self.pinned.is_empty() {
            return;
        }
        for (v, cf) in &l.closed {
            let mut start = Vec::new();
            for (th, e) in entry.iter().enumerate().take(2) {
                let mut e = e.clone();
                let v0 = self.read_var(*v, &mut e, th);
                let k = match cf {
                    ClosedForm::Linear(k) => Some(self.expr(k, &mut e, th)),
                    _ => None,
                };
                start.push((v0, k));
            }
            let mut premise = vec![app("=", vec![start[0].0.clone(), start[1].0.clone()])];
            if let (Some(a), Some(b)) = (&start[0].1, &start[1].1) {
                premise.push(app("=", vec![a.clone(), b.clone()]));
            }
            for (c1, s1) in &instances[0] {
                for (c2, s2) in &instances[1] {
                    let a = self.read_var(*v, &mut s1.clone(), 0);
                    let b = self.read_var(*v, &mut s2.clone(), 1);
                    if a == b {
                        continue;
                    }
                    let mut p = premise.clone();
                    p.push(app("=", vec![c1.clone(), c2.clone()]));
                    self.assert(app("=>", vec![app("and", p), app("=", vec![a, b])]));
                }
            }
        }
    }

    /// The value of `v` after `it` iterations, from its value `v0` on entry.
    fn closed_value(&mut self, v: VarId, cf: &ClosedForm, v0: Sexp, it: &Sexp, ts: &mut TState, th: usize) -> Sexp {
        let ty = self.k.var(v).ty;
        let w = ty.bits();
        let it_w = extend(it.clone(), 64, w, false);
        // Shifting by the width or more: as if by width (bvshl/bvlshr give 0, bvashr the sign).
        let capped = app(
            "ite",
            vec![
                app("bvuge", vec![it.clone(), bvn(w as u64, 64)]),
                bvn(w as u64, w),
                it_w.clone(),
            ],
        );
        match cf {
            ClosedForm::Linear(k) => {
                let kv = self.expr(k, ts, th);
                let kv = self.coerce_int(kv, k.ty(), ty);
                app("bvadd", vec![v0, app("bvmul", vec![it_w, kv])])
            }
            ClosedForm::Halving => app(if ty.is_signed() { "bvashr" } else { "bvlshr" }, vec![v0, capped]),
            ClosedForm::Doubling => app("bvshl", vec![v0, capped]),
        }
    }

    /// One iteration of a closed form's rule applied to `value`: `value + k`, `value >> 1`
    /// (arithmetic for signed types) or `value << 1`. For the value at `it` this is the closed
    /// form at `it + 1` (shifts by the width or more are clamped in [`Self::closed_value`], and
    /// one more step of a shifted-out value stays shifted out).
    fn one_step(&mut self, v: VarId, cf: &ClosedForm, value: Sexp, ts: &mut TState, th: usize) -> Sexp {
        let ty = self.k.var(v).ty;
        let one = bvn(1, ty.bits());
        match cf {
            ClosedForm::Linear(k) => {
                let kv = self.expr(k, ts, th);
                let kv = self.coerce_int(kv, k.ty(), ty);
                app("bvadd", vec![value, kv])
            }
            ClosedForm::Halving => app(if ty.is_signed() { "bvashr" } else { "bvlshr" }, vec![value, one]),
            ClosedForm::Doubling => app("bvshl", vec![value, one]),
        }
    }

    /// Converts an integer term between widths by the source's signedness.
    fn coerce_int(&mut self, v: Sexp, from: Ty, to: Ty) -> Sexp {
        match (from, to) {
            (Ty::Int { bits: fb, signed }, Ty::Int { bits: tb, .. }) => extend(v, fb, tb, signed),
            _ => self.coerce(v, from, to),
        }
    }

    /// A check that `inv` holds in `states` (on entry, or at the end of the iteration).
    fn invariant_check(&mut self, inv: &Expr, span: &Span, states: &[TState], what: &str, base: bool) {
        let mut states = states.to_vec();
        let checked = if self.memory == MemoryModel::EqualityAbstraction {
            1
        } else {
            self.n
        };
        let mut fails = Vec::new();
        for (th, ts) in states.iter_mut().enumerate().take(checked) {
            let c = self.expr(inv, ts, th);
            let reach = self.reach(ts, th);
            fails.push(and(reach, not(c)));
        }
        let layout = self.layout.clone();
        let mut gv = layout.common();
        gv.extend(fails.iter().cloned());
        self.check_list.push(Check {
            property: Property::Invariant {
                span: span.clone(),
                base,
            },
            query: Query {
                name: format!("{}.invariant.{what}.L{}", sym(&self.k.name), span.line),
                assertions: vec![fails.into_iter().reduce(or).unwrap_or_else(f)],
                get_values: gv,
            },
            pairs: Vec::new(),
            layout,
            possible: self.seen_abstract && !base,
        });
    }

    fn cast(&mut self, a: Sexp, from: Ty, to: Ty) -> Sexp {
        match (from, to) {
            (x, y) if x == y => a,
            (Ty::Bool, Ty::Int { bits, .. }) => app("ite", vec![a, bvn(1, bits), bvn(0, bits)]),
            (Ty::Int { bits, .. }, Ty::Bool) => not(app("=", vec![a, bvn(0, bits)])),
            (Ty::Int { bits: fb, signed }, Ty::Int { bits: tb, .. }) => extend(a, fb, tb, signed),
            (Ty::Bool, Ty::Float { .. }) => {
                let i = self.cast(a, Ty::Bool, Ty::I32);
                self.cast(i, Ty::I32, to)
            }
            _ => {
                if self.float_ieee
                    && let Some(v) = self.ieee_cast(a.clone(), from, to)
                {
                    return v;
                }
                // Conversions to or from floats: uninterpreted.
                self.has_opaque_float = true;
                let name = self.uf("cast", &[from], to);
                app(&name, vec![a])
            }
        }
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, ty: Ty, st: &mut TState, th: usize) -> Sexp {
        let lt = lhs.ty();
        let a = self.expr(lhs, st, th);
        let mut b = self.expr(rhs, st, th);
        if matches!(lt, Ty::Float { .. }) || matches!(ty, Ty::Float { .. }) {
            self.has_opaque_float = true;
            if matches!(op, BinOp::Eq) {
                // Equal bit patterns are equal floats except NaN; keep it opaque but consistent.
            }
            let name = self.uf(&format!("f{op:?}"), &[lt, rhs.ty()], ty);
            return app(&name, vec![a, b]);
        }
        let signed = lt.is_signed();
        if lt == Ty::Bool {
            return match op {
                BinOp::Eq => app("=", vec![a, b]),
                BinOp::Ne => not(app("=", vec![a, b])),
                BinOp::LAnd | BinOp::BitAnd => app("and", vec![a, b]),
                BinOp::LOr | BinOp::BitOr => app("or", vec![a, b]),
                BinOp::BitXor => app("xor", vec![a, b]),
                _ => {
                    // Arithmetic on bools: go through int.
                    let ai = self.cast(a, Ty::Bool, Ty::I32);
                    let bi = self.cast(b, Ty::Bool, Ty::I32);
                    let r = self.int_binary(op, ai, bi, Ty::I32, true);
                    if ty == Ty::Bool && !is_cmp(op) {
                        self.cast(r, Ty::I32, Ty::Bool)
                    } else {
                        r
                    }
                }
            };
        }
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            let rt = rhs.ty();
            b = match rt {
                Ty::Int { bits, signed: s } => extend(b, bits, lt.bits(), s),
                Ty::Bool => self.cast(b, Ty::Bool, lt),
                Ty::Float { .. } => b,
            };
        }
        if matches!(op, BinOp::LAnd | BinOp::LOr) {
            // On integers (should not happen after clang's conversions): compare with zero.
            let w = lt.bits();
            let az = not(app("=", vec![a, bvn(0, w)]));
            let bz = not(app("=", vec![b, bvn(0, rhs.ty().bits())]));
            return app(if op == BinOp::LAnd { "and" } else { "or" }, vec![az, bz]);
        }
        if self.no_overflow && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
            let ok = no_overflow(op, &a, &b, lt.bits(), signed);
            self.assume(st, th, ok);
        }
        self.int_binary(op, a, b, lt, signed)
    }

    fn int_binary(&mut self, op: BinOp, a: Sexp, b: Sexp, _lt: Ty, signed: bool) -> Sexp {
        let s = |x: &'static str, y: &'static str| if signed { x } else { y };
        let name = match op {
            BinOp::Add => "bvadd",
            BinOp::Sub => "bvsub",
            BinOp::Mul => "bvmul",
            BinOp::Div => s("bvsdiv", "bvudiv"),
            BinOp::Rem => s("bvsrem", "bvurem"),
            BinOp::Shl => "bvshl",
            BinOp::Shr => s("bvashr", "bvlshr"),
            BinOp::BitAnd => "bvand",
            BinOp::BitOr => "bvor",
            BinOp::BitXor => "bvxor",
            BinOp::Eq => "=",
            BinOp::Ne => return not(app("=", vec![a, b])),
            BinOp::Lt => s("bvslt", "bvult"),
            BinOp::Le => s("bvsle", "bvule"),
            BinOp::Gt => s("bvsgt", "bvugt"),
            BinOp::Ge => s("bvsge", "bvuge"),
            BinOp::LAnd => "and",
            BinOp::LOr => "or",
        };
        app(name, vec![a, b])
    }

    /// The byte offset `e` (BV64) and whether it is a real address: its pointer arithmetic
    /// (the `long long` additions and multiplications), done without wrapping in 128 bits,
    /// stays within ±2^47 bytes. Offsets outside that are out of any device's memory, and
    /// overflowing pointer arithmetic is undefined in C, so such accesses cannot race.
    fn offset(&mut self, e: &Expr, st: &mut TState, th: usize) -> (Sexp, Sexp) {
        let o = self.expr(e, st, th);
        let o = match e.ty() {
            Ty::Int { bits, signed } => extend(o, bits, 64, signed),
            _ => o,
        };
        let off = self.define(&format!("t{}.off", th + 1), Sexp::bv_sort(64), o);
        let wide = self.wide_offset(e, st, th);
        let valid = and(
            app(
                "bvsge",
                vec![
                    wide.clone(),
                    Sexp::bv(&to_unsigned(&-(BigInt::from(1u8) << 47u32), 128), 128),
                ],
            ),
            app("bvslt", vec![wide, Sexp::bv(&(BigUint::from(1u8) << 47), 128)]),
        );
        let valid = self.define(&format!("t{}.valid", th + 1), atom("Bool"), valid);
        (off, valid)
    }

    /// `e` in 128-bit arithmetic: 64-bit additions, subtractions and multiplications are
    /// redone without wrapping; anything else is taken at its value, extended by its
    /// signedness.
    fn wide_offset(&mut self, e: &Expr, st: &mut TState, th: usize) -> Sexp {
        match e {
            Expr::Binary {
                op: op @ (BinOp::Add | BinOp::Sub | BinOp::Mul),
                lhs,
                rhs,
                ty,
            } if ty.bits() == 64 => {
                let a = self.wide_offset(lhs, st, th);
                let b = self.wide_offset(rhs, st, th);
                let name = match op {
                    BinOp::Add => "bvadd",
                    BinOp::Sub => "bvsub",
                    _ => "bvmul",
                };
                app(name, vec![a, b])
            }
            _ => {
                let v = self.expr(e, st, th);
                match e.ty() {
                    Ty::Int { bits, signed } => extend(v, bits, 128, signed),
                    _ => extend(v, e.ty().bits(), 128, false),
                }
            }
        }
    }

    fn load_bytes(mem: &Sexp, off: &Sexp, width: u32) -> Sexp {
        let bytes: Vec<Sexp> = (0..width)
            .rev()
            .map(|i| {
                let addr = if i == 0 {
                    off.clone()
                } else {
                    app("bvadd", vec![off.clone(), bvn(i as u64, 64)])
                };
                app("select", vec![mem.clone(), addr])
            })
            .collect();
        bytes
            .into_iter()
            .reduce(|hi, lo| app("concat", vec![hi, lo]))
            .unwrap_or_else(|| bvn(0, 8))
    }

    fn store_bytes(mem: Sexp, off: &Sexp, value: &Sexp, width: u32) -> Sexp {
        let mut m = mem;
        for i in 0..width {
            let addr = if i == 0 {
                off.clone()
            } else {
                app("bvadd", vec![off.clone(), bvn(i as u64, 64)])
            };
            let byte = Sexp::list(vec![
                app(
                    "_",
                    vec![
                        atom("extract"),
                        atom((8 * i + 7).to_string()),
                        atom((8 * i).to_string()),
                    ],
                ),
                value.clone(),
            ]);
            m = app("store", vec![m, addr, byte]);
        }
        m
    }

    fn encode_stored(v: Sexp, ty: Ty) -> Sexp {
        match ty {
            Ty::Bool => app("ite", vec![v, bvn(1, 8), bvn(0, 8)]),
            _ => v,
        }
    }

    fn decode_loaded(v: Sexp, ty: Ty) -> Sexp {
        match ty {
            Ty::Bool => not(app("=", vec![v, bvn(0, 8)])),
            _ => v,
        }
    }

    fn record(
        &mut self,
        array: ArrayId,
        span: &Span,
        kind: AccessKind,
        width: u32,
        per: Vec<(Sexp, Sexp, Sexp)>,
        valid: Vec<Sexp>,
    ) {
        let space = self.k.array(array).space;
        if matches!(space, Space::Local | Space::Constant) {
            return;
        }
        let abstracted = self.seen_abstract;
        self.accesses.push(Access {
            abstracted,
            array,
            span: span.clone(),
            kind,
            width,
            segment: self.segment,
            per_thread: per,
            valid,
        });
    }

    fn block(&mut self, stmts: &[Stmt], st: &mut [TState]) {
        for s in stmts {
            if st.iter().all(|ts| ts.pc == f()) {
                return;
            }
            self.stmt(s, st);
        }
    }

    fn stmt(&mut self, s: &Stmt, st: &mut [TState]) {
        match &s.kind {
            StmtKind::Assign { var, value } => {
                for (th, ts) in st.iter_mut().enumerate() {
                    let v = self.expr(value, ts, th);
                    self.assign(*var, v, ts, th);
                }
            }
            StmtKind::Havoc { var } => {
                for (th, ts) in st.iter_mut().enumerate() {
                    self.havoc(*var, ts, th);
                }
            }
            StmtKind::Load { dst, array, offset, ty } => {
                let adversarial = self.adversarial.contains(array);
                let mut per = Vec::new();
                let mut valid = Vec::new();
                for (th, ts) in st.iter_mut().enumerate() {
                    let (off, ok) = self.offset(offset, ts, th);
                    valid.push(ok);
                    if adversarial {
                        self.havoc(*dst, ts, th);
                    } else {
                        let raw = match self.scheduled(*array) {
                            true => {
                                self.sched_access(ts, th, *array, &off, *ty, AccessKind::Read, &s.span)
                                    .1
                            }
                            false => self.mem_load(ts, *array, &off, ty.bytes()),
                        };
                        let v = Self::decode_loaded(raw, *ty);
                        let v = self.coerce(v, *ty, self.k.var(*dst).ty);
                        self.assign(*dst, v, ts, th);
                        self.load_origin.insert((th, *dst), (*array, off.clone()));
                    }
                    let reach = self.reach(ts, th);
                    per.push((reach, off, ts.bc.clone()));
                }
                self.record(*array, &s.span, AccessKind::Read, ty.bytes(), per, valid);
            }
            StmtKind::Store {
                array,
                offset,
                value,
                ty,
            } => {
                let mut per = Vec::new();
                let mut valid = Vec::new();
                for (th, ts) in st.iter_mut().enumerate() {
                    let (off, ok) = self.offset(offset, ts, th);
                    valid.push(ok);
                    let v = self.expr(value, ts, th);
                    let v = self.coerce(v, value.ty(), *ty);
                    let bits = Self::encode_stored(v, *ty);
                    let bits = self.define(&format!("t{}.val", th + 1), Sexp::bv_sort(ty.bits()), bits);
                    if self.scheduled(*array) {
                        let (ev, _) = self.sched_access(ts, th, *array, &off, *ty, AccessKind::Write, &s.span);
                        self.sched_write(ev, bits);
                    } else {
                        self.store(ts, th, *array, &off, &bits, ty.bytes());
                    }
                    let reach = self.reach(ts, th);
                    per.push((reach, off, ts.bc.clone()));
                }
                self.record(*array, &s.span, AccessKind::Write, ty.bytes(), per, valid);
            }
            StmtKind::Atomic {
                op,
                dst,
                array,
                offset,
                operands,
                ty,
            } => {
                let mut per = Vec::new();
                let mut valid = Vec::new();
                for (th, ts) in st.iter_mut().enumerate() {
                    let (off, ok) = self.offset(offset, ts, th);
                    valid.push(ok);
                    let ops: Vec<Sexp> = operands
                        .iter()
                        .map(|o| {
                            let v = self.expr(o, ts, th);
                            self.coerce(v, o.ty(), *ty)
                        })
                        .collect();
                    if self.adversarial.contains(array) {
                        // Adversarial abstraction: the old value is arbitrary.
                        if let Some(d) = dst {
                            self.havoc(*d, ts, th);
                        }
                    } else {
                        // With schedule IDs the read and the write are one event (one SID).
                        let (ev, raw) = match self.scheduled(*array) {
                            true => {
                                let (ev, raw) =
                                    self.sched_access(ts, th, *array, &off, *ty, AccessKind::Atomic, &s.span);
                                (Some(ev), raw)
                            }
                            false => (None, self.mem_load(ts, *array, &off, ty.bytes())),
                        };
                        let old = self.define(&format!("t{}.old", th + 1), sort_of(*ty), Self::decode_loaded(raw, *ty));
                        let new = self.atomic_value(*op, old.clone(), &ops, *ty);
                        let bits = Self::encode_stored(new, *ty);
                        let bits = self.define(&format!("t{}.val", th + 1), Sexp::bv_sort(ty.bits()), bits);
                        match ev {
                            Some(ev) => self.sched_write(ev, bits),
                            None => self.store(ts, th, *array, &off, &bits, ty.bytes()),
                        }
                        if let Some(d) = dst {
                            let v = self.coerce(old, *ty, self.k.var(*d).ty);
                            self.assign(*d, v, ts, th);
                        }
                    }
                    let reach = self.reach(ts, th);
                    per.push((reach, off, ts.bc.clone()));
                }
                self.record(*array, &s.span, AccessKind::Atomic, ty.bytes(), per, valid);
            }
            StmtKind::If { cond, then, els } => self.if_(cond, then, els, st),
            StmtKind::Block { id, body } => {
                self.exits.insert(*id, Vec::new());
                self.block(body, st);
                let exits = self.exits.remove(id).unwrap_or_default();
                if !exits.is_empty() {
                    for th in 0..self.n {
                        let mut all: Vec<TState> = exits.iter().map(|e| e[th].clone()).collect();
                        all.push(st[th].clone());
                        st[th] = self.merge_many(all, th);
                    }
                }
            }
            StmtKind::Exit(id) => {
                if let Some(v) = self.exits.get_mut(id) {
                    v.push(st.to_vec());
                }
                for ts in st.iter_mut() {
                    ts.pc = f();
                }
            }
            StmtKind::Return => {
                for ts in st.iter_mut() {
                    ts.pc = f();
                }
            }
            StmtKind::Barrier => self.barrier(s, st),
            StmtKind::Assume { cond } => {
                for (th, ts) in st.iter_mut().enumerate() {
                    let c = self.expr(cond, ts, th);
                    self.assume(ts, th, c);
                }
            }
            StmtKind::Assert { cond } if self.checks => {
                // Pair model: the threads are symmetric, so thread 1 stands for both. Otherwise
                // any thread's failure counts; their indicators follow the common values.
                let checked = if self.memory == MemoryModel::EqualityAbstraction {
                    1
                } else {
                    self.n
                };
                let mut fails = Vec::new();
                let mut reads = Vec::new();
                for (th, ts) in st.iter_mut().enumerate().take(checked) {
                    if self.memory == MemoryModel::Serialized {
                        reads.push(self.assert_reads(cond, ts, th));
                    }
                    let c = self.expr(cond, ts, th);
                    let reach = self.reach(ts, th);
                    let fail = and(reach, not(c));
                    fails.push(self.define(&format!("t{}.fails", th + 1), atom("Bool"), fail));
                }
                let fail = fails.iter().cloned().reduce(or).unwrap_or_else(f);
                if self.memory == MemoryModel::Serialized {
                    self.assert_info.push(concrete::AssertInfo {
                        cond: cond.clone(),
                        reads,
                    });
                }
                let layout = self.layout.clone();
                let mut gv = layout.common();
                gv.extend(fails);
                self.check_list.push(Check {
                    property: Property::Assertion { span: s.span.clone() },
                    query: Query {
                        name: format!("{}.assert.L{}", sym(&self.k.name), s.span.line),
                        assertions: vec![fail],
                        get_values: gv,
                    },
                    pairs: Vec::new(),
                    layout,
                    possible: self.seen_abstract,
                });
                // The assertion is not assumed afterwards: the shared script is asserted for every
                // query, this one included.
            }
            StmtKind::Assert { .. } | StmtKind::Invariant { .. } => {}
            StmtKind::AbstractLoop(l) => self.abstract_loop(s, l, st),
            // Postconditions are checked by the concrete model after every thread's last
            // statement (`concrete`); the pair model ignores them.
            StmtKind::Ensures { .. } => {}
            StmtKind::Loop { .. } | StmtKind::Break | StmtKind::Continue => {
                // `passes::prepare` removes these or marks the kernel inconclusive, in which
                // case the driver does not encode it.
            }
        }
    }

    /// Converts between the access type and the variable's type when they differ (a load of
    /// an `int` into an `unsigned` temporary has the same bits).
    fn coerce(&mut self, v: Sexp, from: Ty, to: Ty) -> Sexp {
        if from == to || (from.bits() == to.bits() && from != Ty::Bool && to != Ty::Bool) {
            v
        } else {
            self.cast(v, from, to)
        }
    }

    /// The current memory of `array` as thread `ts` sees it.
    fn mem_get(&self, ts: &TState, array: ArrayId) -> Sexp {
        match self.global.get(&array) {
            Some(m) => m.clone(),
            None => ts.mem[&array].clone(),
        }
    }

    /// Writes `bits` (`width` bytes) at `off` into `array` under the thread's path condition.
    fn store(&mut self, ts: &mut TState, th: usize, array: ArrayId, off: &Sexp, bits: &Sexp, width: u32) {
        if self.overlay_store(ts, array, off, bits, width) {
            return;
        }
        let mem = self.mem_get(ts, array);
        let stored = Self::store_bytes(mem.clone(), off, bits, width);
        let guarded = if ts.pc == t() {
            stored
        } else {
            app("ite", vec![ts.pc.clone(), stored, mem])
        };
        let name = format!("t{}.mem.{}", th + 1, sym(&self.k.array(array).name));
        let m = self.define(&name, mem_sort(), guarded);
        match self.global.get_mut(&array) {
            Some(g) => *g = m,
            None => {
                ts.mem.insert(array, m);
            }
        }
    }

    /// The value an atomic writes, from the old value and its operands (CUDA semantics).
    fn atomic_value(&mut self, op: AtomicOp, old: Sexp, ops: &[Sexp], ty: Ty) -> Sexp {
        let v = ops.first().cloned().unwrap_or_else(|| old.clone());
        let w = ty.bits();
        if let Ty::Float { bits } = ty {
            let ieee = match op {
                AtomicOp::Add => "fadd",
                AtomicOp::Sub => "fsub",
                AtomicOp::Min => "fminf",
                AtomicOp::Max => "fmaxf",
                AtomicOp::Exch => return v,
                _ => "",
            };
            if self.float_ieee
                && !ieee.is_empty()
                && let Some(x) = self.ieee_opaque(&format!("{ieee}{bits}"), &[old.clone(), v.clone()], &[ty, ty], ty)
            {
                return x;
            }
            self.has_opaque_float = true;
            let name = self.uf(&format!("atomic{op:?}"), &[ty, ty], ty);
            return app(&name, vec![old, v]);
        }
        let signed = ty.is_signed();
        let pick = |c: &str, a: Sexp, b: Sexp| app("ite", vec![app(c, vec![a.clone(), b.clone()]), a, b]);
        match op {
            AtomicOp::Add => app("bvadd", vec![old, v]),
            AtomicOp::Sub => app("bvsub", vec![old, v]),
            AtomicOp::Exch => v,
            AtomicOp::Min => pick(if signed { "bvslt" } else { "bvult" }, old, v),
            AtomicOp::Max => pick(if signed { "bvsgt" } else { "bvugt" }, old, v),
            AtomicOp::Inc => app(
                "ite",
                vec![
                    app("bvuge", vec![old.clone(), v]),
                    bvn(0, w),
                    app("bvadd", vec![old, bvn(1, w)]),
                ],
            ),
            AtomicOp::Dec => app(
                "ite",
                vec![
                    app(
                        "or",
                        vec![
                            app("=", vec![old.clone(), bvn(0, w)]),
                            app("bvugt", vec![old.clone(), v.clone()]),
                        ],
                    ),
                    v,
                    app("bvsub", vec![old, bvn(1, w)]),
                ],
            ),
            AtomicOp::Cas => {
                let new = ops.get(1).cloned().unwrap_or_else(|| old.clone());
                app("ite", vec![app("=", vec![old.clone(), v]), new, old])
            }
            AtomicOp::And => app("bvand", vec![old, v]),
            AtomicOp::Or => app("bvor", vec![old, v]),
            AtomicOp::Xor => app("bvxor", vec![old, v]),
        }
    }

    fn if_(&mut self, cond: &Expr, then: &[Stmt], els: &[Stmt], st: &mut [TState]) {
        let mut conds = Vec::new();
        for (th, ts) in st.iter_mut().enumerate() {
            let c = self.expr(cond, ts, th);
            let c = self.define(&format!("t{}.cond", th + 1), atom("Bool"), c);
            conds.push(c);
        }
        let mut st_then = st.to_vec();
        let mut st_else = st.to_vec();
        for th in 0..self.n {
            let pc_t = and(st[th].pc.clone(), conds[th].clone());
            st_then[th].pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), pc_t);
            let pc_e = and(st[th].pc.clone(), not(conds[th].clone()));
            st_else[th].pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), pc_e);
        }
        let starts: Vec<(Sexp, Sexp)> = (0..self.n)
            .map(|th| (st_then[th].pc.clone(), st_else[th].pc.clone()))
            .collect();
        self.depth += 1;
        self.block(then, &mut st_then);
        self.block(els, &mut st_else);
        self.depth -= 1;
        for th in 0..self.n {
            let pre_pc = st[th].pc.clone();
            // Neither arm left early: the path condition after the `if` is the one before.
            let kept = st_then[th].pc == starts[th].0 && st_else[th].pc == starts[th].1;
            st[th] = self.merge2(&conds[th], &st_then[th], &st_else[th], th);
            if kept {
                st[th].pc = pre_pc;
            }
        }
    }

    /// Adds the assumption `c` on thread `th`'s current path.
    fn assume(&mut self, ts: &mut TState, th: usize, c: Sexp) {
        let a = and(ts.assumed.clone(), app("=>", vec![ts.pc.clone(), c]));
        ts.assumed = self.define(&format!("t{}.assumed", th + 1), atom("Bool"), a);
    }

    /// The thread is here and every assumption made on its way holds.
    fn reach(&mut self, ts: &TState, th: usize) -> Sexp {
        if ts.assumed == t() {
            return ts.pc.clone();
        }
        self.define(
            &format!("t{}.reach", th + 1),
            atom("Bool"),
            and(ts.pc.clone(), ts.assumed.clone()),
        )
    }

    fn merge2(&mut self, c: &Sexp, a: &TState, b: &TState, th: usize) -> TState {
        let mut out = a.clone();
        for (i, (x, y)) in a.vars.iter().zip(&b.vars).enumerate() {
            if x != y {
                let v = match (x, y) {
                    (Some(x), Some(y)) => app("ite", vec![c.clone(), x.clone(), y.clone()]),
                    (Some(x), None) | (None, Some(x)) => x.clone(),
                    (None, None) => continue,
                };
                let name = self.var_name(VarId(i), th);
                out.vars[i] = Some(self.define(&name, sort_of(self.k.vars[i].ty), v));
            }
        }
        for (id, x) in &a.mem {
            let y = &b.mem[id];
            if x != y {
                let v = app("ite", vec![c.clone(), x.clone(), y.clone()]);
                out.mem.insert(
                    *id,
                    self.define(
                        &format!("t{}.mem.{}", th + 1, sym(&self.k.array(*id).name)),
                        mem_sort(),
                        v,
                    ),
                );
            }
        }
        if a.bc != b.bc {
            let v = app("ite", vec![c.clone(), a.bc.clone(), b.bc.clone()]);
            out.bc = self.define(&format!("t{}.bc", th + 1), Sexp::bv_sort(64), v);
        }
        if a.assumed != b.assumed {
            let v = app("ite", vec![c.clone(), a.assumed.clone(), b.assumed.clone()]);
            out.assumed = self.define(&format!("t{}.assumed", th + 1), atom("Bool"), v);
        }
        if a.pc != b.pc {
            let v = app("ite", vec![c.clone(), a.pc.clone(), b.pc.clone()]);
            out.pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), v);
        }
        out
    }

    /// Merges states with disjoint path conditions (the exits of a block and its end).
    fn merge_many(&mut self, states: Vec<TState>, th: usize) -> TState {
        let states_shape = states.last().cloned().expect("the block's own end state");
        let live: Vec<TState> = states.into_iter().filter(|s| s.pc != f()).collect();
        let Some((last, rest)) = live.split_last() else {
            // No exit is live: the thread is done; keep the shape of its state.
            let mut s = states_shape;
            s.pc = f();
            return s;
        };
        let mut acc = last.clone();
        for s in rest.iter().rev() {
            let pc = s.pc.clone();
            let mut merged = self.merge2(&pc, s, &acc, th);
            let orpc = if acc.pc == f() {
                pc
            } else {
                app("or", vec![pc, acc.pc.clone()])
            };
            merged.pc = self.define(&format!("t{}.pc", th + 1), atom("Bool"), orpc);
            acc = merged;
        }
        acc
    }

    fn barrier(&mut self, s: &Stmt, st: &mut [TState]) {
        self.barrier_count += 1;
        // Divergence: two threads of one block disagree on reaching this barrier.
        if self.checks && self.n == 2 && !(st[0].pc == t() && st[1].pc == t()) {
            // Threads that have passed the same number of barriers (the first divergent
            // barrier of any execution is such a point; in abstracted loops this puts both
            // threads in the same iteration).
            let same_count = if st[0].bc == st[1].bc {
                t()
            } else {
                app("=", vec![st[0].bc.clone(), st[1].bc.clone()])
            };
            let both_assumed = and(st[0].assumed.clone(), st[1].assumed.clone());
            let div = and(
                and(and(atom("same_block"), same_count), both_assumed),
                not(app("=", vec![st[0].pc.clone(), st[1].pc.clone()])),
            );
            let layout = self.layout.clone();
            let mut gv = layout.common();
            gv.push(st[0].pc.clone());
            gv.push(st[1].pc.clone());
            self.check_list.push(Check {
                property: Property::Divergence { span: s.span.clone() },
                query: Query {
                    name: format!("{}.divergence.L{}", sym(&self.k.name), s.span.line),
                    assertions: vec![div],
                    get_values: gv,
                },
                pairs: Vec::new(),
                layout,
                possible: self.seen_abstract,
            });
        }
        let fresh: Vec<(ArrayId, Sexp)> = self
            .k
            .arrays
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                self.memory == MemoryModel::EqualityAbstraction && matches!(a.space, Space::Shared | Space::Global)
            })
            .map(|(i, a)| (ArrayId(i), a.name.clone()))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|(id, name)| {
                let n = self.fresh_name(&format!("mem.{}.bar{}", sym(&name), self.barrier_count));
                (id, self.declare(&n, mem_sort()))
            })
            .collect();
        // The last barrier of an iteration of an abstracted loop jumps to the next iteration.
        let jump = self.frames.last_mut().and_then(|fr| {
            fr.seen += 1;
            (fr.seen == fr.barriers).then(|| {
                fr.base
                    .iter()
                    .map(|(bc0, it)| {
                        let next = app("bvadd", vec![it.clone(), bvn(1, 64)]);
                        app(
                            "bvadd",
                            vec![bc0.clone(), app("bvshl", vec![next, bvn(fr.shift as u64, 64)])],
                        )
                    })
                    .collect::<Vec<_>>()
            })
        });
        for (th, ts) in st.iter_mut().enumerate() {
            let inc = match &jump {
                Some(targets) => targets[th].clone(),
                None => app("bvadd", vec![ts.bc.clone(), bvn(1, 64)]),
            };
            let bc = if ts.pc == t() {
                inc
            } else {
                app("ite", vec![ts.pc.clone(), inc, ts.bc.clone()])
            };
            ts.bc = self.define(&format!("t{}.bc", th + 1), Sexp::bv_sort(64), bc);
            for (id, m) in &fresh {
                let v = if ts.pc == t() {
                    m.clone()
                } else {
                    app("ite", vec![ts.pc.clone(), m.clone(), ts.mem[id].clone()])
                };
                let v = self.define(&format!("t{}.mem", th + 1), mem_sort(), v);
                ts.mem.insert(*id, v);
            }
        }
        if self.depth == 0 {
            self.segment += 1;
        }
    }

    /// One query per (array, segment) for accesses in one segment, and one per global array
    /// for accesses of different segments (different blocks only).
    fn race_checks(&mut self) {
        let facts = nonlinear::Facts::new(&[self.decls.clone(), self.cmds.clone()].concat());
        let mut by_array: BTreeMap<ArrayId, Vec<Access>> = BTreeMap::new();
        for a in &self.accesses {
            by_array.entry(a.array).or_default().push(a.clone());
        }
        for (array, accs) in by_array {
            let global = self.k.array(array).space == Space::Global;
            let mut groups: BTreeMap<u32, Vec<(Access, Access)>> = BTreeMap::new();
            let mut cross: Vec<(Access, Access)> = Vec::new();
            for i in 0..accs.len() {
                for j in i..accs.len() {
                    let (a, b) = (&accs[i], &accs[j]);
                    if !conflicting(a.kind, b.kind) {
                        continue;
                    }
                    if a.per_thread[0].0 == f() || b.per_thread[1].0 == f() {
                        continue;
                    }
                    if a.segment == b.segment {
                        groups.entry(a.segment).or_default().push((a.clone(), b.clone()));
                    } else if global {
                        cross.push((a.clone(), b.clone()));
                    }
                }
            }
            let name = sym(&self.k.array(array).name);
            for (seg, pairs) in groups {
                self.push_race(
                    &facts,
                    array,
                    &format!("{}.race.{}.seg{}", sym(&self.k.name), name, seg),
                    pairs,
                    global,
                    true,
                );
            }
            if !cross.is_empty() {
                self.push_race(
                    &facts,
                    array,
                    &format!("{}.race.{}.cross", sym(&self.k.name), name),
                    cross,
                    global,
                    false,
                );
            }
        }
    }

    /// One race query over `pairs`, with the mixed-radix lemmas of each pair's offsets
    /// ([`nonlinear`]) as further assertions.
    fn push_race(
        &mut self,
        facts: &nonlinear::Facts,
        array: ArrayId,
        name: &str,
        pairs: Vec<(Access, Access)>,
        global: bool,
        same_segment: bool,
    ) {
        let mut disj = Vec::new();
        let mut lemmas = Vec::new();
        let layout = self.layout.clone();
        let mut gv = layout.common();
        for (a, b) in &pairs {
            let (pa, oa, ba) = &a.per_thread[0];
            let (pb, ob, bb) = &b.per_thread[1];
            facts.offset_lemmas(oa, a.width, ob, b.width, &mut lemmas);
            // Signed comparisons: within that range `o + width` cannot wrap.
            let overlap = and(
                and(a.valid[0].clone(), b.valid[1].clone()),
                and(
                    app(
                        "bvslt",
                        vec![oa.clone(), app("bvadd", vec![ob.clone(), bvn(b.width as u64, 64)])],
                    ),
                    app(
                        "bvslt",
                        vec![ob.clone(), app("bvadd", vec![oa.clone(), bvn(a.width as u64, 64)])],
                    ),
                ),
            );
            let same_interval = if ba == bb {
                t()
            } else {
                app("=", vec![ba.clone(), bb.clone()])
            };
            let order = match (global, same_segment) {
                (false, _) => and(atom("same_block"), same_interval),
                (true, true) => or(not(atom("same_block")), same_interval),
                (true, false) => not(atom("same_block")),
            };
            let c = and(and(pa.clone(), pb.clone()), and(overlap, order));
            gv.push(c.clone());
            gv.push(oa.clone());
            gv.push(ob.clone());
            disj.push(c);
        }
        let line = pairs.first().map(|(a, _)| a.span.line).unwrap_or(0);
        let assertion = if disj.len() == 1 {
            disj.pop().unwrap_or_else(f)
        } else {
            app("or", disj)
        };
        self.check_list.push(Check {
            property: Property::Race { array },
            query: Query {
                name: format!("{name}.L{line}"),
                assertions: [vec![assertion], lemmas].concat(),
                get_values: gv,
            },
            pairs,
            layout,
            possible: false,
        });
    }
}

fn conflicting(a: AccessKind, b: AccessKind) -> bool {
    use AccessKind::*;
    !matches!((a, b), (Read, Read) | (Atomic, Atomic))
}

fn is_cmp(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

/// The `op` of two `bits`-wide operands does not overflow (signed or unsigned): redone in twice
/// the width, the result fits back.
fn no_overflow(op: BinOp, a: &Sexp, b: &Sexp, bits: u32, signed: bool) -> Sexp {
    let wide = 2 * bits;
    let ext = |x: &Sexp| extend(x.clone(), bits, wide, signed);
    let name = match op {
        BinOp::Add => "bvadd",
        BinOp::Sub => "bvsub",
        _ => "bvmul",
    };
    let exact = app(name, vec![ext(a), ext(b)]);
    let narrow = extend(exact.clone(), wide, bits, false);
    app("=", vec![extend(narrow, bits, wide, signed), exact])
}

/// `log2` of the barrier-count stride of a loop running `nb` barriers per iteration: the
/// smallest power of two `>= nb`.
fn barrier_shift(nb: u32) -> u32 {
    nb.max(1).next_power_of_two().trailing_zeros()
}

/// Whether `stmts` contain an `Exit(id)`.
fn exits_to(stmts: &[Stmt], id: BlockId) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Exit(x) => *x == id,
        StmtKind::If { then, els, .. } => exits_to(then, id) || exits_to(els, id),
        StmtKind::Block { body, .. } => exits_to(body, id),
        StmtKind::AbstractLoop(l) => exits_to(&l.cond_stmts, id) || exits_to(&l.body, id) || exits_to(&l.step, id),
        _ => false,
    })
}

/// Whether `stmts` (a loop body) can leave the loop other than by `break` or `continue`: a
/// `return`, or an exit of a block around the loop.
fn leaves_loop(stmts: &[Stmt], brk: BlockId, cont: BlockId) -> bool {
    fn inner_blocks(stmts: &[Stmt], out: &mut HashSet<BlockId>) {
        for s in stmts {
            match &s.kind {
                StmtKind::Block { id, body } => {
                    out.insert(*id);
                    inner_blocks(body, out);
                }
                StmtKind::If { then, els, .. } => {
                    inner_blocks(then, out);
                    inner_blocks(els, out);
                }
                StmtKind::AbstractLoop(l) => {
                    out.insert(l.brk);
                    out.insert(l.cont);
                    inner_blocks(&l.body, out);
                }
                _ => {}
            }
        }
    }
    fn leaves(stmts: &[Stmt], ok: &HashSet<BlockId>) -> bool {
        stmts.iter().any(|s| match &s.kind {
            StmtKind::Return => true,
            StmtKind::Exit(x) => !ok.contains(x),
            StmtKind::If { then, els, .. } => leaves(then, ok) || leaves(els, ok),
            StmtKind::Block { body, .. } => leaves(body, ok),
            StmtKind::AbstractLoop(l) => leaves(&l.cond_stmts, ok) || leaves(&l.body, ok) || leaves(&l.step, ok),
            _ => false,
        })
    }
    let mut ok = HashSet::from([brk, cont]);
    inner_blocks(stmts, &mut ok);
    leaves(stmts, &ok)
}

/// Whether `e` reads one of `vars`.
fn mentions_any(e: &Expr, vars: &BTreeSet<VarId>) -> bool {
    match e {
        Expr::Var { id, .. } => vars.contains(id),
        Expr::Const { .. } | Expr::Builtin(_) => false,
        Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => mentions_any(arg, vars),
        Expr::Binary { lhs, rhs, .. } => mentions_any(lhs, vars) || mentions_any(rhs, vars),
        Expr::Select { cond, then, els, .. } => {
            mentions_any(cond, vars) || mentions_any(then, vars) || mentions_any(els, vars)
        }
        Expr::Opaque { args, .. } => args.iter().any(|a| mentions_any(a, vars)),
    }
}

fn collect_atomic_arrays(stmts: &[Stmt], out: &mut Vec<ArrayId>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Atomic { array, .. } => out.push(*array),
            StmtKind::If { then, els, .. } => {
                collect_atomic_arrays(then, out);
                collect_atomic_arrays(els, out);
            }
            StmtKind::Block { body, .. } => collect_atomic_arrays(body, out),
            StmtKind::Loop {
                cond_stmts, body, step, ..
            } => {
                collect_atomic_arrays(cond_stmts, out);
                collect_atomic_arrays(body, out);
                collect_atomic_arrays(step, out);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
