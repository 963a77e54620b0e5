//! The engine every thread model runs: a lock-step symbolic interpreter. `n` threads execute
//! a prepared kernel statement by statement, each with its own state (SSA definitions of its
//! variables) and path condition, building one SMT-LIB2 script (the transition formula) and
//! the checks of the model's properties. What differs between the models is asked of the
//! [`Model`] (`model`), never by counting threads: the pair model ([`super::pair`]: two
//! symbolic threads, equality abstraction), the bank model ([`super::bank`]: k threads,
//! [`encode_with`]) and the concrete model ([`super::concrete`]: every thread of a launch,
//! one serialized memory). Each model's own state and its parts of the interpretation live in
//! its room (`pair/`, `concrete/`); none of them imports another.
//!
//! Sources: PUG (Li and Gopalakrishnan, FSE 2010) §2 for SSA over bit-vectors (`v_next = Γ(e)`,
//! arrays by `store`, joins by `ite`), §3–§5 for barrier intervals and the serializability argument
//! that lets two threads stand for all; Donaldson's ENS Lyon lecture 1 for the two-thread reduction
//! and the equality abstraction of shared state. ARCHITECTURE.md "Soundness".
//!
//! Every array is a byte map `(Array (_ BitVec 64) (_ BitVec 8))`. Under the equality
//! abstraction (pair and bank models, `pair/equality.rs`) each non-local array becomes a fresh
//! array at a barrier, seen by every thread; between barriers each thread sees that array plus
//! its own writes (exact for the pair up to its first race). Arrays touched by an atomic are
//! adversarial: every read from them is fresh. Each thread counts the barriers it passes
//! (`bc`); two accesses of one block are in the same barrier interval when their counts agree.
//! Grid barriers (cooperative groups) are counted apart as well (`gc`): two accesses of
//! different blocks can race only when those agree. A `__shared__` array is one per block: the
//! second thread sees another fresh one when the two are of different blocks.
//!
//! Files: `model` (what differs between the models), `state` (thread state, SSA definitions,
//! the prologue, merges), `expr` (expressions), `fold` (constant folding of terms), `recompose` (a digit decomposition added back
//! is the index: exact rewrites of offsets),
//! `relational` (GPUVerify's two-thread annotations: the other thread's values, relational loop
//! invariants), `access` (byte maps, offsets, loads, stores, atomics, access records), `loops`
//! (abstracted loops, closed forms, step checks, invariants), `invariants` (barrier
//! invariants), `barriers` (barrier counts, divergence), `copies` (OpenCL's work-group
//! copies), `shuffle` (warp shuffles' values), `sync` (fences, locks, flags), `races` (race
//! queries), `stmt` (the statement interpreter).
//!
//! Does not run a solver nor read its answers (`super::witness` does that).
//!
//! Entry point: [`encode_with`]; a solver's values become a [`super::Finding`] through
//! [`Check::finding`].

mod access;
mod barriers;
mod copies;
mod expr;
pub(in crate::encode) mod fold;
mod invariants;
mod linear;
mod lockstep;
mod loops;
mod model;
mod races;
mod recompose;
mod relational;
mod shuffle;
mod state;
mod stmt;
mod sync;
mod trip;

pub(in crate::encode) use model::Model;
pub(in crate::encode) use state::TState;

use crate::encode::concrete::state::ConcreteState;
use crate::encode::options::{Benign, EncodeOptions, IndexFits};
use crate::encode::pair::adversarial::{adversarial_arrays, clobbered_arrays, counter_arrays};
use crate::encode::pair::state::PairState;
use crate::encode::property::{Access, Check, Encoded, Layout, Property};
use crate::ir::eval::Geometry;
use crate::ir::{ArrayId, BlockId, Expr, Kernel, VarId};
use crate::solver::{Command, Query, Script, Sexp};
use loops::LoopFrame;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Encodes `kernel` for `opts.threads` symbolic threads under `geometry`.
///
/// Errors: gpug's memory passed `--max-memory` while encoding ([`crate::memory`]).
pub fn encode_with(
    kernel: &Kernel,
    geometry: &Geometry,
    opts: &EncodeOptions,
) -> Result<Encoded, crate::memory::Exceeded> {
    let mut e = Encoder::new(kernel, geometry, opts);
    e.prologue();
    let mut st = e.initial_states();
    let entry = if opts.preferred.is_empty() {
        Vec::new()
    } else {
        st.clone()
    };
    e.block(&kernel.body, &mut st);
    e.counter_values_differ();
    e.overflow_checks();
    if e.make_checks && e.model.pair() && e.stopped.is_none() {
        e.race_checks();
    }
    if let Some(e) = e.stopped.take() {
        return Err(e);
    }
    if let Some(fits) = opts.index_fits {
        e.launch_fits(fits);
    }
    // Last, so that the kernel's own names are those of an encoding without them.
    let preferred = e.preferred(&opts.preferred, &entry);
    let mut notes = Vec::new();
    e.abstraction_notes(&mut notes);
    if e.has_opaque_float {
        notes.push("float values are opaque: arithmetic on them is uninterpreted".to_string());
    }
    let probes = e.signed_probe();
    // Moved, not copied: a large kernel's formula is most of gpug's memory.
    let mut commands = std::mem::take(&mut e.decls);
    commands.append(&mut e.cmds);
    let script = std::sync::Arc::new(Script {
        logic: "QF_AUFBV".into(),
        commands,
        probes,
    });
    Ok(Encoded {
        script,
        checks: e.checks,
        notes,
        accesses: e.accesses,
        preferred,
    })
}

/// The probe whose value in a check's model says whether no source-level signed operation
/// the model's threads evaluate overflows, nor an unsigned index computation wraps
/// ([`Encoder::signed_facts`]): a `Bool` the checks' `get_values` end with, unpinned
/// ([`Query::unpinned`]). `@` then a letter: no name of the encoding has that form.
pub const SIGNED_OK: &str = "witness@signed_ok";

/// Most facts [`SIGNED_OK`] conjoins; with more, it is not made (each is a copy of an
/// operation's operands, and a model's value of it saves one re-verification).
pub(in crate::encode) const MAX_SIGNED_FACTS: usize = 4096;

/// Which serialized memory an access uses: the array and, for a `__shared__` array, the
/// accessing thread's 0-based block (0 for every other array, and in the pair model).
pub(in crate::encode) type MemKey = (ArrayId, usize);

/// The SSA encoder: `n` threads run in lock step over a prepared kernel, building one script
/// (declarations, definitions, assertions) and the checks of the model's properties.
pub(in crate::encode) struct Encoder<'k> {
    /// The kernel being encoded.
    pub(in crate::encode) k: &'k Kernel,
    /// The launch geometry (dimensions given or symbolic).
    pub(in crate::encode) g: &'k Geometry,
    /// Number of threads.
    pub(in crate::encode) n: usize,
    /// The thread model: what differs between the models is asked of it.
    pub(in crate::encode) model: Model,
    /// Whether to make the property checks (`EncodeOptions::make_checks`).
    pub(in crate::encode) make_checks: bool,
    /// The one memory of non-local arrays under [`MemoryModel::Serialized`], by [`MemKey`]: a
    /// `__shared__` array has one per block, any other one memory (block 0).
    pub(in crate::encode) global: BTreeMap<MemKey, Sexp>,
    /// Declarations, emitted first.
    pub(in crate::encode) decls: Vec<Command>,
    /// Definitions and assertions, in program order.
    pub(in crate::encode) cmds: Vec<Command>,
    /// Functions and once-only constants already declared.
    pub(in crate::encode) declared_funs: HashSet<String>,
    /// The counter of fresh names (`name@k`).
    pub(in crate::encode) counter: usize,
    /// Every shared or global access, in program order.
    pub(in crate::encode) accesses: Vec<Access>,
    /// Set when gpug's memory passed `--max-memory` ([`crate::memory::over`]), saying what
    /// the encoder was doing. The walk and the race checks stop; the encoding is incomplete
    /// and must not be asked ([`encode_with`] returns the error instead).
    pub(in crate::encode) stopped: Option<crate::memory::Exceeded>,
    /// The checks made so far, in source order.
    pub(in crate::encode) checks: Vec<Check>,
    /// Per block being encoded, the thread states at each of its exits.
    pub(in crate::encode) exits: HashMap<BlockId, Vec<Vec<TState>>>,
    /// Nesting depth of conditionals and abstracted loops (0: top level).
    pub(in crate::encode) depth: u32,
    /// The top-level barrier segment being encoded.
    pub(in crate::encode) segment: u32,
    /// Arrays touched by atomics (pair model) or written by calls without a body: their
    /// values are adversarial.
    pub(in crate::encode) adversarial: Vec<ArrayId>,
    /// Arrays written by calls without a body ([`crate::ir::StmtKind::Clobber`]).
    pub(in crate::encode) clobbered: Vec<ArrayId>,
    /// The variables the kernel reads (an atomic's old value matters only when read).
    pub(in crate::encode) read_vars: HashSet<VarId>,
    /// Per thread: it has executed a `return` (outside abstracted loops), and whether a
    /// `return` was met inside one (shuffles' inactive-lane check).
    pub(in crate::encode) returned: Vec<Sexp>,
    pub(in crate::encode) returned_in_loop: bool,
    /// [`EncodeOptions::lockstep`].
    pub(in crate::encode) lockstep: Option<u32>,
    /// [`EncodeOptions::pairwise_races`].
    pub(in crate::encode) pairwise_races: bool,
    /// Whether an opaque (uninterpreted) float operation was emitted.
    pub(in crate::encode) has_opaque_float: bool,
    /// The common witness values of every query.
    pub(in crate::encode) layout: Layout,
    /// Barriers encoded so far (numbers the fresh memories and the barrier SIDs).
    pub(in crate::encode) barrier_count: u32,
    /// `EncodeOptions::no_overflow`.
    pub(in crate::encode) no_overflow: bool,
    /// Whether the expressions being encoded are the program's own computation on a thread's
    /// path (an assignment, an access's offset and value, a branch condition), whose
    /// `--no-overflow` side conditions are asserted where the thread is
    /// ([`Encoder::assume_no_wrap`]); elsewhere (annotations, the hypothetical states of loop
    /// abstractions) they condition the thread's later steps like an assumption.
    pub(in crate::encode) on_trace: bool,
    /// The `--no-overflow` facts asserted so far (each is asserted once).
    pub(in crate::encode) no_wrap_asserted: HashSet<Sexp>,
    /// `EncodeOptions::index_fits`.
    pub(in crate::encode) index_fits: Option<IndexFits>,
    /// `EncodeOptions::signed_no_overflow`.
    pub(in crate::encode) signed_no_overflow: Vec<usize>,
    /// `EncodeOptions::check_overflow`.
    pub(in crate::encode) check_overflow: bool,
    /// While no signed operation is assumed not to overflow (neither `--no-overflow` nor
    /// `signed_no_overflow`): the facts that would assert it, one per evaluation of a source
    /// operation by either thread, `(=> (and pc assumed) fits)`, where the thread is. Their
    /// conjunction becomes the probe [`SIGNED_OK`], which the checks' models are asked about:
    /// a model where it holds satisfies the same encoding with every signed operation assumed
    /// not to overflow (the assumption adds exactly these facts, as assertions or as
    /// conjuncts of the thread's assumptions), so the launch contracts' signed
    /// re-verification cannot exclude its finding. `None`: not tracked (the assumption is
    /// made, or there is no such operation), or past [`MAX_SIGNED_FACTS`].
    /// The facts in order, and the same as a set (each is kept once).
    pub(in crate::encode) signed_facts: Option<(Vec<Sexp>, HashSet<Sexp>)>,
    /// Under `check_overflow`, per index into [`Kernel::signed_ops`]: the conditions under
    /// which each evaluation of it by the checked thread overflows, and whether one of them
    /// how many of [`Self::abstractions`] one of them rests on (0: none; the finding is then
    /// possible).
    pub(in crate::encode) overflow_fails: BTreeMap<usize, (Vec<Sexp>, usize)>,
    /// While an expression is encoded: the conditions under which the part being encoded is
    /// evaluated at all (an arm of a select, the right operand of `&&`/`||`), innermost last;
    /// read only for the signed operations of `signed_no_overflow` and `check_overflow`.
    pub(in crate::encode) evaluated_if: Vec<Sexp>,
    /// `EncodeOptions::benign`.
    pub(in crate::encode) benign: Benign,
    /// Under [`Benign::Adversarial`], while the race checks are made: the defined names whose
    /// value reads memory (a `select`), directly or through the names it uses.
    pub(in crate::encode) reads_memory: HashSet<String>,
    /// Whether a FloatingPoint term was emitted.
    pub(in crate::encode) fp_used: bool,
    /// Fold constant terms (`fold`): every model. A literal is never named, so an unrolled
    /// loop's counter is a literal in each access it indexes.
    pub(in crate::encode) fold: bool,
    /// Each definition made by `Encoder::define`, by term and by name.
    pub(in crate::encode) defined: state::Definitions,
    /// The pair model's state: the equality abstraction's counters and written arrays, the
    /// pair's warp groupings (default, empty, in the other models).
    pub(in crate::encode) pair: PairState,
    /// The concrete model's state: its threads' coordinates, memory overlay, schedule
    /// (default, empty, in the other models).
    pub(in crate::encode) concrete: ConcreteState,
    /// The array and byte offset each thread's variable was last loaded from.
    pub(in crate::encode) load_origin: HashMap<(usize, VarId), (ArrayId, Sexp)>,
    /// Nesting depth of abstracted loops being encoded.
    pub(in crate::encode) abstract_depth: u32,
    /// The abstractions encoded so far, in encoding order, each once: what a check made after
    /// them rests on (an abstracted loop, a call without a body, a lane the model does not
    /// follow), each as the report names it (`loop at line 89 (arbitrary at its head: `k`)`).
    /// Non-empty: values from here on are over-approximated, and a defect is possible (issue
    /// 53 item 5: a possible finding names what it rests on).
    pub(in crate::encode) abstractions: Vec<String>,
    /// Abstracted loops with a fixed barrier count being encoded, innermost last.
    pub(in crate::encode) frames: Vec<LoopFrame>,
    /// Per abstracted loop being encoded whose barriers all run under block-uniform control:
    /// whether the two threads entered it together (`loops.rs`, `Encoder::entered_together`), so that
    /// no barrier of it can be where they diverge.
    pub(in crate::encode) entered_together: Vec<Sexp>,
    /// The trip bounds of linear variables counting up in the abstracted loops being encoded,
    /// per thread's count: the lemmas of `trip::stride_lemmas` when a loop's encoding ends.
    pub(in crate::encode) strides: Vec<trip::StrideAt>,
    /// Whether an expression of the kernel reads another thread ([`crate::ir::Expr::Other`]).
    pub(in crate::encode) reads_other: bool,
    /// Every thread's state before the statement being encoded, while one of its expressions
    /// reads another thread (`expr`'s `Expr::Other`); empty otherwise.
    pub(in crate::encode) peers: Vec<TState>,
    /// The thread `Expr::Other` reads while a condition is asked of every other thread in turn
    /// (more than two threads); `None`: the other one of two threads.
    pub(in crate::encode) other_thread: Option<usize>,
    /// While the other thread's side of an `Expr::Other` is encoded: its path condition.
    pub(in crate::encode) peer_guard: Option<Sexp>,
    /// Program-order positions, locks held and flags observed (`sync`).
    pub(in crate::encode) sync: sync::SyncState,
    /// OpenCL's work-group copies (`copies`).
    pub(in crate::encode) copies: copies::CopyState,
    /// Barrier invariants pending and the accesses of the interval (`invariants`).
    pub(in crate::encode) invariants: invariants::InvariantState,
    /// `EncodeOptions::barrier_access_checks`.
    pub(in crate::encode) barrier_access_checks: bool,
    /// `EncodeOptions::split_invariants`.
    pub(in crate::encode) split_invariants: bool,
    /// `EncodeOptions::only_intra_group`.
    pub(in crate::encode) only_intra_group: bool,
}

impl<'k> Encoder<'k> {
    /// The probe [`SIGNED_OK`] over [`Encoder::signed_facts`], as the script's probes, each
    /// check that reads a model asking for it last; none when the facts are not tracked or
    /// there are none.
    fn signed_probe(&mut self) -> Vec<Command> {
        let Some((mut facts, _)) = self.signed_facts.take().filter(|(f, _)| !f.is_empty()) else {
            return Vec::new();
        };
        let value = match facts.len() {
            1 => facts.remove(0),
            _ => crate::encode::terms::app("and", facts),
        };
        for c in self.checks.iter_mut().filter(|c| !c.query.get_values.is_empty()) {
            c.query.get_values.push(Sexp::atom(SIGNED_OK));
            c.query.unpinned = 1;
        }
        vec![Command::DefineConst {
            name: SIGNED_OK.into(),
            sort: Sexp::atom("Bool"),
            value,
        }]
    }

    /// Adds a check of `property` without access pairs (anything but a race): the query `name`
    /// asserting `assertion`, reading back the common witness values of `self.layout` and then
    /// `own`.
    fn push_check(&mut self, property: Property, name: String, assertion: Sexp, own: Vec<Sexp>, possible: bool) {
        let layout = self.layout.clone();
        let mut get_values = layout.common();
        get_values.extend(own);
        let query = Query {
            unpinned: 0,
            name,
            assertions: vec![assertion],
            get_values,
        };
        let abstractions = match possible {
            true => self.abstractions.clone(),
            false => Vec::new(),
        };
        self.checks.push(Check {
            property,
            query,
            pairs: Vec::new(),
            sides: None,
            layout,
            possible,
            abstractions,
            benign: false,
            hints: Vec::new(),
            split: None,
        });
    }

    /// The checks of `--check-overflow` ([`Property::SignedOverflow`]): one per signed
    /// operation that the checked thread evaluates, satisfiable when one of its evaluations
    /// overflows.
    fn overflow_checks(&mut self) {
        for (op, (fails, rests_on)) in std::mem::take(&mut self.overflow_fails) {
            let span = self.k.signed_ops[op].span.clone();
            let fail = fails
                .iter()
                .cloned()
                .reduce(crate::encode::terms::or)
                .unwrap_or_else(crate::encode::terms::f);
            let name = format!(
                "{}.overflow.L{}.{op}",
                crate::encode::terms::sym(&self.k.name),
                span.line
            );
            self.push_check(
                Property::SignedOverflow { op, span },
                name,
                fail,
                Vec::new(),
                rests_on > 0,
            );
            if let Some(c) = self.checks.last_mut() {
                c.abstractions.truncate(rests_on);
            }
        }
    }

    /// Whether an abstraction has been encoded: values from here on are over-approximated.
    pub(in crate::encode) fn seen_abstract(&self) -> bool {
        !self.abstractions.is_empty()
    }

    /// Records that what follows rests on `what` (an abstraction, as the report names it).
    pub(in crate::encode) fn rests_on(&mut self, what: String) {
        if !self.abstractions.contains(&what) {
            self.abstractions.push(what);
        }
    }

    /// How a report names the abstraction of `l` (at `line`) that a possible finding rests on:
    /// the loop, and what of it is arbitrary at its head: the source variables it assigns
    /// without a closed form, the arrays it writes (at most four of each, with the count of the
    /// rest).
    pub(in crate::encode) fn loop_cause(&self, line: u32, l: &crate::ir::AbstractLoop) -> String {
        fn list(names: Vec<String>) -> String {
            let shown: Vec<String> = names.iter().take(4).map(|n| format!("`{n}`")).collect();
            match names.len() {
                n if n > 4 => format!("{} and {} more", shown.join(", "), n - 4),
                _ => shown.join(", "),
            }
        }
        let mut vars: Vec<String> = l
            .havocked
            .iter()
            .map(|v| self.k.var(*v).name.clone())
            .filter(|n| !n.starts_with('$'))
            .collect();
        vars.dedup();
        let arrays: Vec<String> = l.written.iter().map(|a| self.k.array(*a).name.clone()).collect();
        let mut what = Vec::new();
        if !vars.is_empty() {
            what.push(list(vars));
        }
        if !arrays.is_empty() {
            what.push(format!("what it writes to {}", list(arrays)));
        }
        match what.is_empty() {
            true => format!("the loop at line {line} (an arbitrary iteration)"),
            false => format!("the loop at line {line} ({} arbitrary at its head)", what.join(" and ")),
        }
    }

    /// The conjunction of the uniform entry conditions `conds` as one term (`None` when
    /// empty), read in thread 0's entry state `st[0]`: no `--no-overflow` side condition
    /// becomes an assumption, so nothing the script asserts changes (the definitions it may
    /// emit are only names).
    fn preferred(&mut self, conds: &[Expr], st: &[TState]) -> Option<Sexp> {
        let first = st.first()?;
        let no_overflow = std::mem::replace(&mut self.no_overflow, false);
        let terms: Vec<Sexp> = conds
            .iter()
            .map(|c| {
                let mut entry = first.clone();
                self.expr(c, &mut entry, 0)
            })
            .collect();
        self.no_overflow = no_overflow;
        match terms.len() {
            0 => None,
            1 => terms.into_iter().next(),
            _ => Some(Sexp::app("and", terms)),
        }
    }

    /// An encoder of `kernel` under `geometry` with `opts`, with nothing emitted yet.
    pub(in crate::encode) fn new(k: &'k Kernel, g: &'k Geometry, opts: &EncodeOptions) -> Self {
        let model = Model::of(opts);
        let adversarial = adversarial_arrays(k, model.equality_abstraction());
        Encoder {
            k,
            g,
            n: opts.threads,
            model,
            make_checks: opts.make_checks,
            global: BTreeMap::new(),
            decls: Vec::new(),
            cmds: Vec::new(),
            declared_funs: HashSet::new(),
            counter: 0,
            accesses: Vec::new(),
            stopped: None,
            checks: Vec::new(),
            exits: HashMap::new(),
            depth: 0,
            segment: 0,
            adversarial,
            clobbered: clobbered_arrays(k).into_iter().map(|(a, _)| a).collect(),
            pair: PairState {
                counters: if model.equality_abstraction() {
                    counter_arrays(k)
                } else {
                    Vec::new()
                },
                ..PairState::default()
            },
            returned: vec![crate::encode::terms::f(); opts.threads],
            returned_in_loop: false,
            lockstep: opts.lockstep,
            pairwise_races: opts.pairwise_races,
            read_vars: {
                let mut read = HashSet::new();
                crate::ir::query::read_vars(&k.body, &mut read);
                read
            },
            has_opaque_float: false,
            layout: Layout::default(),
            barrier_count: 0,
            fp_used: false,
            fold: true,
            defined: state::Definitions::default(),
            no_overflow: opts.no_overflow,
            on_trace: false,
            no_wrap_asserted: HashSet::new(),
            index_fits: opts.index_fits,
            signed_no_overflow: opts.signed_no_overflow.clone(),
            check_overflow: opts.check_overflow && opts.make_checks,
            signed_facts: (opts.make_checks
                && !opts.no_overflow
                && opts.signed_no_overflow.is_empty()
                && !k.signed_ops.is_empty())
            .then(Default::default),
            overflow_fails: BTreeMap::new(),
            evaluated_if: Vec::new(),
            benign: opts.benign,
            reads_memory: HashSet::new(),
            concrete: ConcreteState::default(),
            load_origin: HashMap::new(),
            abstract_depth: 0,
            entered_together: Vec::new(),
            strides: Vec::new(),
            abstractions: Vec::new(),
            frames: Vec::new(),
            reads_other: crate::ir::query::stmts_read_other_thread(&k.body),
            peers: Vec::new(),
            other_thread: None,
            peer_guard: None,
            sync: sync::SyncState::default(),
            copies: copies::CopyState::default(),
            invariants: invariants::InvariantState::default(),
            barrier_access_checks: opts.barrier_access_checks,
            split_invariants: opts.split_invariants,
            only_intra_group: opts.only_intra_group && model.equality_abstraction(),
        }
    }
}
