//! Thread state and SSA: each thread's path condition, assumptions, variables, memories and
//! barrier count (`TState`); fresh names, declarations and definitions; the prologue (geometry,
//! thread coordinates, distinctness, parameters) and the initial states; joins of states at the
//! end of an `if` or a block (`ite` per differing value).
//!
//! Does not interpret statements (`stmt`) nor decide what memory a thread sees (`access`,
//! `pair/equality.rs`).

use super::{Encoder, MemKey};
use super::{fold, recompose};
use crate::encode::terms::{and, app, atom, bvn, extend, f, mem_sort, not, sort_of, sym, t, thread_symbol, ty_tag};
use crate::ir::{ArrayId, Builtin, ParamKind, Space, Ty, VarId};
use crate::solver::{Command, Sexp};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// One thread's state at a program point.
#[derive(Clone, Debug)]
pub(in crate::encode) struct TState {
    /// Path condition: the thread is here.
    pub(in crate::encode) pc: Sexp,
    /// The assumptions made on the way here (`__assume`, `__requires`, loop exits), as
    /// `pc => c` conjuncts. They restrict what comes after them only: an assumption that fails
    /// later cannot hide a defect earlier (Boogie's blocking `assume`).
    pub(in crate::encode) assumed: Sexp,
    /// Each variable's current term (`None`: not assigned yet).
    pub(in crate::encode) vars: Vec<Option<Sexp>>,
    /// The memory of each array as this thread sees it (local arrays, and non-local ones
    /// unless the model keeps one memory in `Encoder::global`).
    pub(in crate::encode) mem: BTreeMap<ArrayId, Sexp>,
    /// Barriers passed (BV64), block and grid ones.
    pub(in crate::encode) bc: Sexp,
    /// Grid barriers passed (BV64): threads of different blocks are ordered only by these.
    pub(in crate::encode) gc: Sexp,
    /// Warp barriers passed (BV64, outside abstracted loops): 16 bits for each grouping of
    /// warp barriers (`Encoder::warp_groups`); two threads of one group are also ordered
    /// when their counts for it differ.
    pub(in crate::encode) wc: Sexp,
    /// The program-order positions (BV32, `sync::SyncState`) of the thread's last fence of any
    /// scope and of its last fence of device or system scope; 0: none yet. A fence lies
    /// between a point at position `p` and a later one when the later one's is above `p`.
    pub(in crate::encode) fence: (Sexp, Sexp),
    /// The thread's 0-based block, which picks its `__shared__` memories in `Encoder::global`
    /// (always 0 in the pair model).
    pub(in crate::encode) block: usize,
}

/// The definitions made by [`Encoder::define`], by term (sort and value) and by name: one name
/// per distinct term (hash-consing), so that two accesses at the same offset share its symbol
/// and a linear race query reads them as one candidate; and the value behind a name, for the
/// offsets' shapes (`linear`).
#[derive(Default)]
pub(in crate::encode) struct Definitions {
    by_term: HashMap<Arc<(Sexp, Sexp)>, String>,
    by_name: HashMap<String, Arc<(Sexp, Sexp)>>,
}

impl Definitions {
    /// The value `name` was defined as, when [`Encoder::define`] made it.
    pub(in crate::encode) fn value(&self, name: &str) -> Option<&Sexp> {
        self.by_name.get(name).map(|d| &d.1)
    }
}

/// The width of a sort `(_ BitVec w)`.
fn bv_width(sort: &Sexp) -> Option<u32> {
    match sort {
        Sexp::List(v) if v.len() == 3 && v[0] == atom("_") && v[1] == atom("BitVec") => match &v[2] {
            Sexp::Atom(n) => n.parse().ok(),
            Sexp::List(_) => None,
        },
        _ => None,
    }
}

impl Encoder<'_> {
    /// A name `base@k` not used before.
    pub(in crate::encode) fn fresh_name(&mut self, base: &str) -> String {
        self.counter += 1;
        format!("{}@{}", base, self.counter)
    }

    /// `(declare-const name sort)`; returns the symbol.
    pub(in crate::encode) fn declare(&mut self, name: &str, sort: Sexp) -> Sexp {
        self.decls.push(Command::DeclareConst {
            name: name.to_string(),
            sort,
        });
        atom(name)
    }

    /// `(define-fun name () sort value)`, unless `value` is already an atom.
    pub(in crate::encode) fn define(&mut self, base: &str, sort: Sexp, value: Sexp) -> Sexp {
        let value = if self.fold { fold::fold(&value) } else { value };
        if let Sexp::Atom(_) = value {
            return value;
        }
        // A digit decomposition added back is the index again (`recompose`: an identity).
        let value = match bv_width(&sort) {
            Some(w) => {
                let defined = &self.defined;
                recompose::recompose(&value, w, &|n| defined.value(n)).unwrap_or(value)
            }
            None => value,
        };
        let key = (sort, value);
        if let Some(name) = self.defined.by_term.get(&key) {
            return atom(name);
        }
        let name = self.fresh_name(base);
        self.cmds.push(Command::DefineConst {
            name: name.clone(),
            sort: key.0.clone(),
            value: key.1.clone(),
        });
        let key = Arc::new(key);
        self.defined.by_term.insert(Arc::clone(&key), name.clone());
        self.defined.by_name.insert(name.clone(), key);
        atom(name)
    }

    /// `(assert term)`, unless `term` is `true`.
    pub(in crate::encode) fn assert(&mut self, term: Sexp) {
        let term = if self.fold { fold::fold(&term) } else { term };
        if term != t() {
            self.cmds.push(Command::Assert(term));
        }
    }

    /// The SMT symbol of builtin `b` for thread `thread` ([`thread_symbol`]).
    pub(in crate::encode) fn builtin_name(b: Builtin, thread: usize) -> String {
        thread_symbol(b, thread)
    }

    /// Geometry, the two threads, distinctness, scalar parameters.
    pub(in crate::encode) fn prologue(&mut self) {
        use crate::ir::Dim;
        use crate::ir::eval::{MAX_BLOCK_DIM, MAX_BLOCK_THREADS, MAX_GRID_DIM};
        // OpenCL leaves the work-group size to the device (a CPU's can pass 1024): a symbolic
        // one is only bounded by 2^31 - 1 per dimension there; CUDA's limits otherwise.
        let opencl = self.k.language == crate::ir::Language::OpenCl;
        let limits_block = match opencl {
            true => [(1u64 << 31) - 1; 3],
            false => MAX_BLOCK_DIM.map(u64::from),
        };
        let limits_grid = MAX_GRID_DIM.map(u64::from);
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
        if self.g.block_dim.iter().any(Option::is_none) && !opencl {
            // At most 1024 threads per block.
            let p = Dim::ALL
                .iter()
                .map(|d| extend(atom(Self::builtin_name(Builtin::BlockDim(*d), 0)), 32, 64, false))
                .reduce(|a, b| app("bvmul", vec![a, b]))
                .unwrap_or_else(|| bvn(1, 64));
            self.assert(app("bvule", vec![p, bvn(u64::from(MAX_BLOCK_THREADS), 64)]));
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
                if let Some(fits) = self.index_fits
                    && fits.dims[d.index()]
                {
                    self.index_fits(th, d, fits.bits);
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
            // `--only-intra-group`: only pairs of one block are asked about.
            if self.only_intra_group {
                self.assert(atom("same_block"));
            }
        }
        for i in 0..self.n {
            for j in i + 1..self.n {
                let both = and(same(Builtin::BlockIdx, i, j), same(Builtin::ThreadIdx, i, j));
                self.assert(not(both));
            }
        }
        let fixed = entry_literals(self.k);
        for p in &self.k.params {
            if let ParamKind::Scalar(v) = &p.kind {
                let ty = self.k.var(*v).ty;
                let name = format!("param.{}", sym(&p.name));
                let declared = self.declare(&name, sort_of(ty));
                if let Some(value) = fixed.get(v) {
                    self.assert(app("=", vec![declared, value.clone()]));
                }
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

    /// [`EncodeOptions::index_fits`](super::EncodeOptions) for thread `th` in dimension `d`:
    /// `blockIdx.d * blockDim.d` does not wrap and is at most `2^bits - blockDim.d`.
    fn index_fits(&mut self, th: usize, d: crate::ir::Dim, bits: u32) {
        let block = atom(Self::builtin_name(Builtin::BlockIdx(d), th));
        let dim = atom(Self::builtin_name(Builtin::BlockDim(d), 0));
        let product = app("bvmul", vec![block.clone(), dim.clone()]);
        self.assert(crate::encode::nonlinear::mul_no_overflow(&block, &dim, 32, false));
        // 2^32 - blockDim is `bvneg blockDim` (blockDim >= 1).
        let most = if bits >= 32 {
            app("bvneg", vec![dim])
        } else {
            app("bvsub", vec![bvn(1u64 << bits, 32), dim])
        };
        self.assert(app("bvule", vec![product, most]));
    }

    /// Each thread's state on entry: initial memories (shared ones common to all threads),
    /// scalar parameters bound, barrier count 0.
    pub(in crate::encode) fn initial_states(&mut self) -> Vec<TState> {
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
            for (id, m) in &shared_mem {
                let view = self.block_view(*id, m.clone(), th, "init");
                mem.insert(*id, view);
            }
            for (i, a) in self.k.arrays.iter().enumerate() {
                if a.space == Space::Local {
                    let name = format!("t{}.mem.{}.{}.init", th + 1, sym(&a.name), i);
                    mem.insert(ArrayId(i), self.declare(&name, mem_sort()));
                }
            }
            let mut vars = vec![None; self.k.vars.len()];
            let fixed = entry_literals(self.k);
            for p in &self.k.params {
                if let ParamKind::Scalar(v) = &p.kind {
                    vars[v.0] = Some(match fixed.get(v) {
                        Some(value) => value.clone(),
                        None => atom(format!("param.{}", sym(&p.name))),
                    });
                }
            }
            states.push(TState {
                pc: t(),
                assumed: t(),
                vars,
                mem,
                bc: bvn(0, 64),
                gc: bvn(0, 64),
                wc: bvn(0, 64),
                fence: (bvn(0, 32), bvn(0, 32)),
                block: self.concrete.thread_blocks.get(th).copied().unwrap_or(0),
            });
        }
        if !self.model.equality_abstraction() {
            self.global = self.serialized_memories(shared_mem);
        }
        states
    }

    /// The serialized memories from the initial memory of each non-local array (block 0's):
    /// a `__shared__` array gets a fresh one for every other block of `thread_blocks`.
    fn serialized_memories(&mut self, init: BTreeMap<ArrayId, Sexp>) -> BTreeMap<MemKey, Sexp> {
        let mut blocks: Vec<usize> = self.concrete.thread_blocks.clone();
        blocks.sort_unstable();
        blocks.dedup();
        let mut out = BTreeMap::new();
        for (id, m) in init {
            out.insert((id, 0), m);
            if self.k.array(id).space != Space::Shared {
                continue;
            }
            for &b in blocks.iter().filter(|&&b| b > 0) {
                let name = format!("mem.{}.{}.b{b}.init", sym(&self.k.array(id).name), id.0);
                out.insert((id, b), self.declare(&name, mem_sort()));
            }
        }
        out
    }

    /// The SSA base name of variable `v` for thread `th`: `t1.name`.
    pub(in crate::encode) fn var_name(&self, v: VarId, th: usize) -> String {
        format!("t{}.{}", th + 1, sym(&self.k.var(v).name))
    }

    /// The current term of `v` for thread `th` (an arbitrary value if never assigned).
    pub(in crate::encode) fn read_var(&mut self, v: VarId, st: &mut TState, th: usize) -> Sexp {
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

    /// Gives `v` the value `value` (a new SSA definition) in thread `th`'s state.
    pub(in crate::encode) fn assign(&mut self, v: VarId, value: Sexp, st: &mut TState, th: usize) {
        let name = self.var_name(v, th);
        let x = self.define(&name, sort_of(self.k.var(v).ty), value);
        st.vars[v.0] = Some(x);
        self.load_origin.remove(&(th, v));
    }

    /// Gives `v` a fresh arbitrary value in thread `th`'s state.
    pub(in crate::encode) fn havoc(&mut self, v: VarId, st: &mut TState, th: usize) {
        let name = self.fresh_name(&format!("{}.havoc", self.var_name(v, th)));
        let x = self.declare(&name, sort_of(self.k.var(v).ty));
        st.vars[v.0] = Some(x);
        self.load_origin.remove(&(th, v));
    }

    /// The uninterpreted function `uf.name_<arg tags>_<ret tag>`, declared on first use.
    pub(in crate::encode) fn uf(&mut self, name: &str, args: &[Ty], ret: Ty) -> String {
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

    /// Adds the assumption `c` on thread `th`'s current path.
    pub(in crate::encode) fn assume(&mut self, ts: &mut TState, th: usize, c: Sexp) {
        let a = and(ts.assumed.clone(), app("=>", vec![ts.pc.clone(), c]));
        ts.assumed = self.define(&format!("t{}.assumed", th + 1), atom("Bool"), a);
    }

    /// The `--no-overflow` side condition `c` of an operation of thread `th`'s computation (PUG (Li
    /// and Gopalakrishnan, FSE 2010) §7, `+O`). On the thread's path ([`Encoder::on_trace`]) it is
    /// asserted where the thread is, `(assert (=> (and pc assumed) c))` (once per term): every
    /// execution with a wrap-around is left out, as PUG conjoins its non-overflow constraints with
    /// the whole formula. (Conditioning only the steps after the operation, as an assumption, would
    /// keep a defect that precedes a wrap; it also made each thread's assumptions one chain of
    /// definitions per operation, which z3 4.8 reads in quadratic time: 87 s for GPUVerify's
    /// `scope`.) Elsewhere: an assumption of the state ([`Encoder::assume`]). A condition that
    /// folds to `true` adds nothing.
    pub(in crate::encode) fn assume_no_wrap(&mut self, ts: &mut TState, th: usize, c: Sexp) {
        let c = fold::fold(&c);
        if c == t() {
            return;
        }
        if !self.on_trace {
            self.assume(ts, th, c);
            return;
        }
        let here = if ts.assumed == t() {
            ts.pc.clone()
        } else {
            and(ts.pc.clone(), ts.assumed.clone())
        };
        let fact = if here == t() { c } else { app("=>", vec![here, c]) };
        // An access's offset is encoded more than once (its range, its check): asserted once.
        if self.no_wrap_asserted.insert(fact.clone()) {
            self.assert(fact);
        }
    }

    /// The thread is here and every assumption made on its way holds.
    pub(in crate::encode) fn reach(&mut self, ts: &TState, th: usize) -> Sexp {
        if ts.assumed == t() {
            return ts.pc.clone();
        }
        self.define(
            &format!("t{}.reach", th + 1),
            atom("Bool"),
            and(ts.pc.clone(), ts.assumed.clone()),
        )
    }

    /// The join of states `a` (where `c` holds) and `b` (where it does not): an `ite` per
    /// differing value.
    pub(in crate::encode) fn merge2(&mut self, c: &Sexp, a: &TState, b: &TState, th: usize) -> TState {
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
        if a.gc != b.gc {
            let v = app("ite", vec![c.clone(), a.gc.clone(), b.gc.clone()]);
            out.gc = self.define(&format!("t{}.gc", th + 1), Sexp::bv_sort(64), v);
        }
        if a.wc != b.wc {
            let v = app("ite", vec![c.clone(), a.wc.clone(), b.wc.clone()]);
            out.wc = self.define(&format!("t{}.wc", th + 1), Sexp::bv_sort(64), v);
        }
        if a.fence.0 != b.fence.0 {
            let v = app("ite", vec![c.clone(), a.fence.0.clone(), b.fence.0.clone()]);
            out.fence.0 = self.define(&format!("t{}.fence", th + 1), Sexp::bv_sort(32), v);
        }
        if a.fence.1 != b.fence.1 {
            let v = app("ite", vec![c.clone(), a.fence.1.clone(), b.fence.1.clone()]);
            out.fence.1 = self.define(&format!("t{}.fence.dev", th + 1), Sexp::bv_sort(32), v);
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
    pub(in crate::encode) fn merge_many(&mut self, states: Vec<TState>, th: usize) -> TState {
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
}

/// [`crate::ir::query::entry_literals`], each literal as a term. Such a parameter is that
/// literal in every thread's terms, and its declared constant is asserted equal to it (the
/// witness reads it): the same executions as the assumption's, since both threads execute the
/// kernel's first statements, but terms the solver need not rewrite (a product `i * C` with `C`
/// a literal is a shifted sum; the offset lemmas need literals).
fn entry_literals(k: &crate::ir::Kernel) -> std::collections::HashMap<VarId, Sexp> {
    crate::ir::query::entry_literals(k)
        .into_iter()
        .filter_map(|(var, (value, ty))| match ty {
            crate::ir::Ty::Int { bits, .. } => {
                Some((var, Sexp::bv(&crate::encode::terms::to_unsigned(&value, bits), bits)))
            }
            _ => None,
        })
        .collect()
}
