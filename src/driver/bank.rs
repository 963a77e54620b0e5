//! `gpug bank`: shared-memory bank-conflict analysis of every kernel of one file for a concrete
//! block size (PUG (Li and Gopalakrishnan, FSE 2010), §7 "Bank Conflict Checking"; ARCHITECTURE.md
//! "Properties as queries").
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
//!
//! Must not: print, build SMT terms (the encoder's job), or talk to a solver other than through
//! the pipeline's [`KernelRun`].

use super::Error;
use super::pipeline::{Command, KernelRun, Reply, RunOptions, reasons};
use crate::encode::bank::{self as eb, BankModel, BankWitness, Site};
use crate::encode::{self, EncodeOptions, Encoded};
use crate::ir::{Kernel, Program};
use crate::solver::Session;
use crate::verdict::{BankFileResult, BankKernelResult, IntervalResult, SiteResult, SiteWitness};
use std::collections::{BTreeMap, BTreeSet};

/// What `gpug bank` needs besides the [`RunOptions`] (whose `block_dim` must be concrete in all
/// three dimensions; `grid_dim` may be symbolic).
#[derive(Clone, Debug)]
pub struct BankOptions {
    /// Banks, bank width, warp size.
    pub model: BankModel,
}

impl Command for BankOptions {
    type Kernel = BankKernelResult;
    type File = BankFileResult;

    /// A concrete block size and a bank model with positive sizes.
    fn validate(&self, common: &RunOptions) -> Result<(), Error> {
        if common.geometry.block_dim.iter().any(Option::is_none) {
            return Err(Error::SymbolicBlock);
        }
        if self.model.banks == 0 || self.model.bank_width == 0 || self.model.warp_size == 0 {
            return Err(Error::BankModel(
                "--banks, --bank-width and the warp size must be positive".into(),
            ));
        }
        Ok(())
    }

    fn kernel(&self, k: &Kernel, run: &mut KernelRun) -> Result<BankKernelResult, Error> {
        bank_kernel(k, self, run)
    }

    fn file(&self, program: &Program, kernels: Vec<BankKernelResult>) -> BankFileResult {
        BankFileResult {
            file: program.file.clone(),
            model: self.model,
            kernels,
        }
    }

    fn stopped(&self, k: &Kernel, run: &mut KernelRun, why: String) -> BankKernelResult {
        BankKernelResult {
            name: k.name.clone(),
            sites: Vec::new(),
            intervals: Vec::new(),
            inconclusive: vec![why],
            notes: k.notes.clone(),
            queries: run.queries,
            time: run.elapsed(),
        }
    }
}

/// Encodings of one kernel for each thread count asked so far, each with its session.
struct Encodings<'a> {
    kernel: &'a Kernel,
    model: BankModel,
    by_k: BTreeMap<usize, (Encoded, Session)>,
}

impl Encodings<'_> {
    /// The encoding for `k` threads (equality abstraction, no checks) and its session.
    fn get(&mut self, k: usize, run: &KernelRun) -> Result<&mut (Encoded, Session), Error> {
        if !self.by_k.contains_key(&k) {
            let enc = encode::encode_with(
                self.kernel,
                &run.options().geometry,
                &EncodeOptions {
                    threads: k,
                    make_checks: false,
                    benign: encode::Benign::Off,
                    ..Default::default()
                },
            )?;
            let script = std::sync::Arc::new(eb::bank_script(&enc));
            run.show_ssa(&self.kernel.name, &format!("bank ({k} threads)"), &script);
            let session = run.session(&run.options().solvers(), &script)?;
            self.by_k.insert(k, (enc, session));
        }
        Ok(self.by_k.get_mut(&k).expect("inserted above"))
    }

    /// Asks "degree ≥ k" over `occurrences`; a model gives the witness.
    fn ask(
        &mut self,
        run: &mut KernelRun,
        name: String,
        occurrences: &[usize],
        k: usize,
    ) -> Result<Reply<BankWitness>, Error> {
        let model = self.model;
        let kernel = self.kernel;
        let (enc, session) = self.get(k, run)?;
        let q = eb::conflict_query(name, enc, occurrences, k, &model);
        run.show_queries(
            &kernel.name,
            [(format!("a bank conflict of degree {k} or more"), &q.query)],
        );
        Ok(match run.ask(session, &q.query)? {
            Reply::Sat(values) => Reply::Sat(q.witness(&values, &model)),
            Reply::Unsat => Reply::Unsat,
            Reply::Undecided => Reply::Undecided,
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

/// Per barrier interval: the sites occurring in it, those conflicting, those undecided.
type Intervals = BTreeMap<u32, [BTreeSet<usize>; 3]>;

fn bank_kernel(k: &Kernel, opts: &BankOptions, run: &mut KernelRun) -> Result<BankKernelResult, Error> {
    let c = run.options();
    let prepared = run.prepare(k, &c.geometry, &c.passes)?;
    if !prepared.inconclusive.is_empty() {
        return Ok(BankKernelResult {
            name: k.name.clone(),
            sites: Vec::new(),
            intervals: Vec::new(),
            inconclusive: reasons(&prepared.inconclusive).collect(),
            notes: k.notes.clone(),
            queries: 0,
            time: run.elapsed(),
        });
    }
    let kernel = &prepared.kernel;
    let block_threads: u64 = c.geometry.block_dim.iter().map(|d| u64::from(d.unwrap_or(1))).product();
    let max_k = u64::from(opts.model.warp_size).min(block_threads).max(1) as usize;
    let mut encodings = Encodings {
        kernel,
        model: opts.model,
        by_k: BTreeMap::new(),
    };
    let (sites, segments, notes) = {
        let (enc, _) = encodings.get(2, run)?;
        let sites = eb::sites(kernel, enc);
        let segments: Vec<u32> = enc.accesses.iter().map(|a| a.segment).collect();
        (sites, segments, [k.notes.clone(), enc.notes.clone()].concat())
    };
    for s in &sites {
        if !opts.model.supports(s.width) {
            return Err(Error::BankModel(format!(
                "{}: an access of {} bytes can touch {} words of {} bytes, more than the {} banks: one thread would hit one bank twice",
                s.span,
                s.width,
                opts.model.max_words(s.width),
                opts.model.bank_width,
                opts.model.banks
            )));
        }
    }
    let mut intervals = Intervals::new();
    let mut results = Vec::new();
    for (si, s) in sites.iter().enumerate() {
        let search = SiteSearch {
            name: site_name(&k.name, s),
            site: s,
            index: si,
            segments: &segments,
            max_k,
        };
        results.push(search.run(&mut encodings, run, &mut intervals)?);
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
        inconclusive: std::mem::take(&mut run.inconclusive),
        notes,
        queries: run.queries,
        time: run.elapsed(),
    })
}

/// The search for one site's degree.
struct SiteSearch<'a> {
    /// Prefix of the site's query names.
    name: String,
    site: &'a Site,
    /// The site's index among the kernel's sites.
    index: usize,
    /// The barrier interval of each access of the encoding.
    segments: &'a [u32],
    /// The highest degree possible: the warp size, or fewer threads in the block.
    max_k: usize,
}

impl SiteSearch<'_> {
    /// Decides per interval whether two lanes can conflict (recorded in `intervals`), then
    /// maximizes the degree over the occurrences that can.
    fn run(
        &self,
        encodings: &mut Encodings,
        run: &mut KernelRun,
        intervals: &mut Intervals,
    ) -> Result<SiteResult, Error> {
        let (s, si, name) = (self.site, self.index, &self.name);
        let mut by_segment: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for &o in &s.occurrences {
            by_segment.entry(self.segments[o]).or_default().push(o);
        }
        let mut witness: Option<BankWitness> = None;
        let mut undecided = false;
        // Occurrences in intervals where two lanes can conflict (or that are undecided): the
        // only ones that can have a degree above 1.
        let mut candidates: Vec<usize> = Vec::new();
        for (seg, occ) in &by_segment {
            let entry = intervals.entry(*seg).or_default();
            entry[0].insert(si);
            match encodings.ask(run, format!("{name}.bi{seg}.k2"), occ, 2)? {
                Reply::Sat(w) => {
                    entry[1].insert(si);
                    witness.get_or_insert(w);
                    candidates.extend(occ);
                }
                Reply::Unsat => {}
                Reply::Undecided => {
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
        if let Some(w) = witness.take() {
            let (d, e, w) = self.maximize(encodings, run, &candidates, w)?;
            (degree, exact, witness) = (d, e, Some(w));
        }
        let witness = witness.map(|w| SiteWitness {
            occurrence: s.occurrences.iter().position(|&o| o == w.access).unwrap_or(0),
            interval: self.segments.get(w.access).copied().unwrap_or(0),
            witness: w,
        });
        Ok(SiteResult {
            array: encodings.kernel.array(s.array).name.clone(),
            span: s.span.clone(),
            kind: s.kind,
            width: s.width,
            possible,
            degree,
            exact,
            occurrences: s.occurrences.len(),
            witness,
        })
    }

    /// The highest degree over `candidates`, starting from a pair conflict `witness`: "degree
    /// ≥ k?" for k = 4, 8, … while satisfiable, then bisected between the last satisfiable
    /// and the first unsatisfiable k. Returns the degree, whether every query was answered, and
    /// the witness of the highest satisfiable k.
    fn maximize(
        &self,
        encodings: &mut Encodings,
        run: &mut KernelRun,
        candidates: &[usize],
        mut witness: BankWitness,
    ) -> Result<(u32, bool, BankWitness), Error> {
        let mut exact = true;
        // Gallop: 4, 8, … while satisfiable; then bisect in (lo, hi).
        let mut lo = 2usize;
        let mut hi = self.max_k; // the degree is at most hi
        let mut galloping = true;
        while lo < hi {
            let k = if galloping {
                (2 * lo).min(hi)
            } else {
                lo + (hi - lo).div_ceil(2)
            };
            match encodings.ask(run, format!("{}.k{k}", self.name), candidates, k)? {
                Reply::Sat(w) => {
                    lo = k;
                    witness = w;
                }
                Reply::Unsat => {
                    hi = k - 1;
                    galloping = false;
                }
                Reply::Undecided => {
                    exact = false;
                    break;
                }
            }
        }
        Ok((lo as u32, exact, witness))
    }
}
