//! `gpug bank`: shared-memory bank-conflict analysis of every kernel of one file for a concrete
//! block size (PUG paper, `003_…`, §7 "Bank Conflict Checking"; DESIGN.md "Properties as
//! queries").
//!
//! Per kernel: [`crate::passes::prepare`] unrolls the loops for the geometry; the kernel is
//! encoded for k threads (equality abstraction, no race checks) for each k the search needs,
//! each encoding with its own solver [`Session`]. Per access site of a `__shared__` array:
//!
//! 1. For each barrier interval the site occurs in, the pair query (k = 2,
//!    [`encode::bank::conflict_query`]) decides whether two lanes of one warp can touch
//!    different words of one bank there; unsatisfiable for all intervals is a proof that the
//!    site is conflict-free for every parameter value (degree 1).
//! 2. Otherwise the degree is maximized over parameter values and loop iterations: "degree ≥
//!    k?" is asked for k = 4, 8, 16, … (capped at the warp size and the block's thread count)
//!    while satisfiable, then bisected between the last satisfiable and the first unsatisfiable
//!    k (the property is monotone in k). The witness is the model of the highest satisfiable k.
//!
//! Per barrier interval: how many sites occur in it and how many of them can conflict there;
//! per kernel PUG's summary: HI when at least half of the intervals with shared accesses have a
//! conflict, LO when fewer (but some) do, none when none do.

use crate::encode::bank::{self as eb, BankModel, BankWitness, Site};
use crate::encode::{self, EncodeOptions, Encoded, MemoryModel};
use crate::frontend::{self, FrontendError, FrontendOptions};
use crate::ir::Kernel;
use crate::passes::{self, Geometry, PassOptions};
use crate::solver::{Answer, Session, SessionOptions, SolverError, SolverSpec};
use crate::verdict::{BankFileResult, BankKernelResult, IntervalResult, SiteResult, SiteWitness};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Everything [`bank`] needs.
#[derive(Clone, Debug)]
pub struct BankOptions {
    pub frontend: FrontendOptions,
    /// `block_dim` must be concrete in all three dimensions; `grid_dim` may be symbolic.
    pub geometry: Geometry,
    pub passes: PassOptions,
    pub solver: SolverSpec,
    /// Wall-clock limit per query.
    pub timeout: Duration,
    /// Where to write each query as a standalone `.smt2` script.
    pub dump_dir: Option<PathBuf>,
    pub model: BankModel,
}

/// Errors that stop the analysis of a file (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum BankError {
    #[error(transparent)]
    Frontend(#[from] FrontendError),
    #[error("solver: {0}")]
    Solver(#[from] SolverError),
    /// `--blockDim` missing: which threads share a warp depends on the block's shape.
    #[error(
        "bank-conflict analysis needs a concrete block size: give --blockDim (warps are formed from linear thread ids, which depend on blockDim)"
    )]
    SymbolicBlock,
    /// The bank model cannot describe an access (e.g. one thread touching two words of one bank).
    #[error("{0}")]
    Model(String),
}

/// Analyses every kernel of `file` (or the one `--kernel` names).
///
/// Errors: a symbolic block size, a bank model that cannot describe an access, the front
/// end's errors and a solver that cannot be started. Timeouts and `unknown` answers are not
/// errors: they make the result inconclusive.
pub fn bank(file: &Path, opts: &BankOptions) -> Result<BankFileResult, BankError> {
    if opts.geometry.block_dim.iter().any(Option::is_none) {
        return Err(BankError::SymbolicBlock);
    }
    if opts.model.banks == 0 || opts.model.bank_width == 0 || opts.model.warp_size == 0 {
        return Err(BankError::Model(
            "--banks, --bank-width and the warp size must be positive".into(),
        ));
    }
    let program = frontend::load(file, &opts.frontend)?;
    let mut kernels = Vec::new();
    for k in &program.kernels {
        kernels.push(bank_kernel(k, opts)?);
    }
    Ok(BankFileResult {
        file: program.file.clone(),
        model: opts.model,
        kernels,
    })
}

/// Encodings of one kernel for each thread count asked so far, each with its session.
struct Encodings<'a> {
    kernel: &'a Kernel,
    opts: &'a BankOptions,
    by_k: BTreeMap<usize, (Encoded, Session)>,
}

impl Encodings<'_> {
    fn get(&mut self, k: usize) -> Result<&mut (Encoded, Session), BankError> {
        if !self.by_k.contains_key(&k) {
            let enc = encode::encode_with(
                self.kernel,
                &self.opts.geometry,
                &EncodeOptions {
                    threads: k,
                    memory: MemoryModel::EqualityAbstraction,
                    checks: false,
                    no_overflow: false,
                },
            );
            let session = Session::new(
                &self.opts.solver,
                &eb::bank_script(&enc),
                SessionOptions {
                    timeout: Some(self.opts.timeout),
                    dump_dir: self.opts.dump_dir.clone(),
                },
            )?;
            self.by_k.insert(k, (enc, session));
        }
        Ok(self.by_k.get_mut(&k).expect("inserted above"))
    }
}

/// One query's outcome.
enum Outcome {
    Sat(BankWitness),
    Unsat,
    Undecided,
}

struct Asker<'a> {
    encodings: Encodings<'a>,
    queries: usize,
    inconclusive: Vec<String>,
}

impl Asker<'_> {
    fn ask(&mut self, name: String, occurrences: &[usize], k: usize) -> Result<Outcome, BankError> {
        let model = self.encodings.opts.model;
        let timeout = self.encodings.opts.timeout;
        let (enc, session) = self.encodings.get(k)?;
        let q = eb::conflict_query(name, enc, occurrences, k, &model);
        self.queries += 1;
        Ok(match session.check(&q.query)? {
            Answer::Sat(values) => Outcome::Sat(q.witness(&values, &model)),
            Answer::Unsat => Outcome::Unsat,
            Answer::Unknown(why) => {
                let m = format!("query {}: solver answered unknown ({why})", q.query.name);
                self.inconclusive.push(m);
                Outcome::Undecided
            }
            Answer::Timeout => {
                let m = format!(
                    "query {}: no answer within {} s (--timeout)",
                    q.query.name,
                    timeout.as_secs_f64()
                );
                self.inconclusive.push(m);
                Outcome::Undecided
            }
        })
    }
}

fn site_name(kernel: &str, s: &Site) -> String {
    let kernel: String = kernel
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    format!("{kernel}.bank.L{}C{}.{}", s.span.line, s.span.col, s.kind.as_str())
}

fn bank_kernel(k: &Kernel, opts: &BankOptions) -> Result<BankKernelResult, BankError> {
    let start = Instant::now();
    let prepared = passes::prepare(k, &opts.geometry, &opts.passes);
    if !prepared.inconclusive.is_empty() {
        return Ok(BankKernelResult {
            name: k.name.clone(),
            sites: Vec::new(),
            intervals: Vec::new(),
            inconclusive: prepared
                .inconclusive
                .iter()
                .map(|(s, why)| format!("{s}: {why}"))
                .collect(),
            notes: Vec::new(),
            queries: 0,
            time: start.elapsed(),
        });
    }
    let kernel = &prepared.kernel;
    let block_threads: u64 = opts
        .geometry
        .block_dim
        .iter()
        .map(|d| u64::from(d.unwrap_or(1)))
        .product();
    let max_k = u64::from(opts.model.warp_size).min(block_threads).max(1) as usize;
    let mut asker = Asker {
        encodings: Encodings {
            kernel,
            opts,
            by_k: BTreeMap::new(),
        },
        queries: 0,
        inconclusive: Vec::new(),
    };
    let (sites, segments, notes) = {
        let (enc, _) = asker.encodings.get(2)?;
        let sites = eb::sites(kernel, enc);
        let segments: Vec<u32> = enc.accesses.iter().map(|a| a.segment).collect();
        (sites, segments, enc.notes.clone())
    };
    for s in &sites {
        if !opts.model.supports(s.width) {
            return Err(BankError::Model(format!(
                "{}: an access of {} bytes can touch {} words of {} bytes, more than the {} banks: one thread would hit one bank twice",
                s.span,
                s.width,
                opts.model.max_words(s.width),
                opts.model.bank_width,
                opts.model.banks
            )));
        }
    }
    // interval -> sites occurring, sites conflicting, sites undecided
    let mut intervals: BTreeMap<u32, [BTreeSet<usize>; 3]> = BTreeMap::new();
    let mut results = Vec::new();
    for (si, s) in sites.iter().enumerate() {
        let name = site_name(&k.name, s);
        let mut by_segment: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for &o in &s.occurrences {
            by_segment.entry(segments[o]).or_default().push(o);
        }
        let mut witness: Option<BankWitness> = None;
        let mut undecided = false;
        // Occurrences in intervals where two lanes can conflict (or that are undecided): the
        // only ones that can have a degree above 1.
        let mut candidates: Vec<usize> = Vec::new();
        for (seg, occ) in &by_segment {
            let entry = intervals.entry(*seg).or_default();
            entry[0].insert(si);
            match asker.ask(format!("{name}.bi{seg}.k2"), occ, 2)? {
                Outcome::Sat(w) => {
                    entry[1].insert(si);
                    witness.get_or_insert(w);
                    candidates.extend(occ);
                }
                Outcome::Unsat => {}
                Outcome::Undecided => {
                    entry[2].insert(si);
                    undecided = true;
                    candidates.extend(occ);
                }
            }
        }
        let possible = match (&witness, undecided) {
            (Some(_), _) => Some(true),
            (None, false) => Some(false),
            (None, true) => None,
        };
        let mut degree = 1u32;
        let mut exact = !undecided;
        if witness.is_some() {
            exact = true;
            // Gallop: 4, 8, … while satisfiable; then bisect in (lo, hi).
            let mut lo = 2usize;
            let mut hi = max_k; // the degree is at most hi
            let mut galloping = true;
            while lo < hi {
                let k = if galloping {
                    (2 * lo).min(hi)
                } else {
                    lo + (hi - lo).div_ceil(2)
                };
                match asker.ask(format!("{name}.k{k}"), &candidates, k)? {
                    Outcome::Sat(w) => {
                        lo = k;
                        witness = Some(w);
                    }
                    Outcome::Unsat => {
                        hi = k - 1;
                        galloping = false;
                    }
                    Outcome::Undecided => {
                        exact = false;
                        break;
                    }
                }
            }
            degree = lo as u32;
        }
        let witness = witness.map(|w| SiteWitness {
            occurrence: s.occurrences.iter().position(|&o| o == w.access).unwrap_or(0),
            interval: segments.get(w.access).copied().unwrap_or(0),
            witness: w,
        });
        results.push(SiteResult {
            array: kernel.array(s.array).name.clone(),
            span: s.span.clone(),
            kind: s.kind,
            width: s.width,
            possible,
            degree,
            exact,
            occurrences: s.occurrences.len(),
            witness,
        });
    }
    let intervals = intervals
        .into_iter()
        .map(|(index, [all, c, u])| IntervalResult {
            index,
            accesses: all.len(),
            conflicting: c.len(),
            undecided: u.len(),
        })
        .collect();
    Ok(BankKernelResult {
        name: k.name.clone(),
        sites: results,
        intervals,
        inconclusive: asker.inconclusive,
        notes,
        queries: asker.queries,
        time: start.elapsed(),
    })
}
