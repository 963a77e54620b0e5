//! Products of two symbolic bit-vectors: mixed-radix lemmas and the linear relaxation.
//!
//! Under a symbolic geometry the pair model is full of products of two unknowns: `blockIdx.x *
//! blockDim.x + threadIdx.x`, and a normalized grid-stride loop's `g + it * (blockDim.x *
//! gridDim.x)` (PUG (Li and Gopalakrishnan, FSE 2010) §6.1). Bit-blasting solvers must then reason
//! about 64-bit (and, for trip bounds, 130-bit) multipliers, and a race query that is instant at
//! `--blockDim=1024` (a shift) runs out of time at `--blockDim=[*,1,1]`. Two things make such
//! queries as cheap as the concrete ones:
//!
//! * **Mixed-radix lemmas** (`Facts::pair_lemmas`): for two threads' values `x1 = u1 + m*v1`
//!   and `x2 = u2 + m*v2` over the same radix `m`, where `u < m` and no step wraps (both shown
//!   here from the script's top-level bounds, not assumed), `x1 = x2` implies `u1 = u2` and
//!   `v1 = v2`: a thread's linear id determines its coordinates, and a grid-stride index its
//!   thread and iteration. For an access pair whose byte offsets are `c*x1` and `c*x2` with
//!   both widths at most `c`, overlapping bytes imply `x1 = x2`. Every lemma is a valid fact
//!   of bit-vector arithmetic, so adding it to a query never changes its answer.
//! * **Low zero bits** (`Product::low_zeros`): a product whose factor is a multiple of `2^k`
//!   by its shape (`gridDim.x * 2`, a shift, a sum of such) has its low `k` bits zero, also
//!   relaxed: the parity that a grid-stride loop split by `threadIdx.z` needs.
//! * **Relaxation** ([`relax`]): every product of two non-literal terms becomes an application
//!   of an uninterpreted function `nl.mulW` (the incremental-linearization abstraction of
//!   Cimatti et al., TOCL 2018, without refinement). Multiplication is one interpretation of
//!   that function, so a relaxed query that is unsatisfiable is unsatisfiable exactly; with
//!   the lemmas above the usual proofs need nothing more. A satisfiable or unknown relaxed
//!   answer says nothing: the driver then asks the exact query.

use super::Encoded;
use crate::solver::{Command, Query, Script, Sexp};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::{BTreeSet, HashMap, HashSet};

mod facts;
mod lemmas;
pub(crate) mod products;
mod relax;
#[cfg(test)]
mod tests;

pub(crate) use facts::{Facts, gcd};

use products::{
    Chain, Division, DivisionKey, LiteralSum, Product, Sum, chain_lemmas, division_lemmas, division_name, lemmas,
    literal_radix_lemmas, nowrap_name, radix_lemmas, width_lemmas,
};
pub use products::{Preferred, Probe, Refinement};
pub(crate) use products::{as_mul_no_overflow, mul_no_overflow};

/// The relaxed formula of a kernel: the script with symbolic products uninterpreted (and,
/// under `--no-overflow`, their no-wrap conditions), with the lemmas of [`products`], and one
/// query per check of the [`Encoded`] it came from (same order), named `<name>.relaxed`, each
/// with the [`Probe`] that checks its models against exact arithmetic.
#[derive(Clone, Debug)]
pub struct Relaxed {
    /// Shared with the session that asks the relaxed queries.
    pub script: std::sync::Arc<Script>,
    pub queries: Vec<Query>,
    pub probes: Vec<Probe>,
    /// [`Encoded::preferred`] relaxed.
    pub preferred: Option<Preferred>,
    /// Whether the relaxation relates division chains by literals ([`chain_lemmas`]): its
    /// queries need the solver's preprocessing ([`crate::solver::SessionOptions::one_shot`]).
    pub chained: bool,
}

impl Relaxed {
    /// Leaves out of the flat witness tier ([`Probe::small`]) the pin `blockDim.d = 1` of each
    /// dimension `d` whose `threadIdx.d` the kernel reads (`read_thread[d - 1]` for y and z),
    /// and `gridDim.d = 1` where it reads `blockIdx.d` (`read_block`): a kernel that indexes
    /// by `threadIdx.y` seldom has a defect in a launch one thread high, and the solver's proof
    /// of that costs as much as the witness (`matrix_2d_symbolic_transposed.cu` with cvc5:
    /// 0.33 s of 1.1 s). Changes the order of the witness search only, never a verdict.
    pub fn keep_read_dims(&mut self, read_thread: [bool; 2], read_block: [bool; 2]) {
        let read = |name: &str| match name {
            "blockDim.y" => read_thread[0],
            "blockDim.z" => read_thread[1],
            "gridDim.y" => read_block[0],
            "gridDim.z" => read_block[1],
            _ => false,
        };
        for probe in &mut self.probes {
            probe.flat.retain(|pin| match pin {
                Sexp::List(v) => !matches!(v.get(1), Some(Sexp::Atom(n)) if read(n)),
                _ => true,
            });
        }
    }
}

/// Whether a division by the literal `c` is relaxed (unsigned only): a literal above 1 that
/// is not a power of two (those are shifts, which solvers take apart at once), such as the
/// `WIDTH` of `(off / 4) % WIDTH`. Its lemmas ([`literal_radix_lemmas`]) say what bit-blasting
/// finds only slowly: the remainder of `v*c + u` with `u < c` is `u`.
fn radix_literal(c: &BigUint) -> bool {
    *c > BigUint::one() && c.count_ones() > 1
}

/// The bits of the uniform inputs of a small launch ([`Probe::small`]).
const SMALL_BITS: u32 = 8;

/// The products found while relaxing, and the widths of the symbols used.
#[derive(Default)]
struct Collected {
    muls: BTreeSet<u32>,
    nowraps: BTreeSet<(u32, bool)>,
    products: Vec<Product>,
    index: HashMap<String, usize>,
    sums: Vec<Sum>,
    divisions: Vec<Division>,
    literal_sums: Vec<LiteralSum>,
    /// Whether a division by a non-literal was relaxed (those by a literal alone make no
    /// relaxation: the exact formula is as linear).
    symbolic_division: bool,
    /// The division chains by literals of the formula ([`Facts::division_chains`]): their
    /// divisions are relaxed, signed ones too, for [`chain_lemmas`].
    chains: Vec<Chain>,
    /// Whether a division of a chain was relaxed: the relaxation then differs from the
    /// formula by the chain's lemmas, even with no product.
    chained: bool,
    /// `(width, signed)` of the divisions.
    divs: BTreeSet<(u32, bool)>,
    /// [`Facts::order_key`] of each definition.
    keys: HashMap<String, String>,
}

/// Longest [`Facts::order_key`].
const KEY_LIMIT: usize = 4096;

impl Collected {
    /// The counts of what was collected: products, sums, divisions and literal sums.
    fn counts(&self) -> [usize; 4] {
        [
            self.products.len(),
            self.sums.len(),
            self.divisions.len(),
            self.literal_sums.len(),
        ]
    }

    /// Removes what was collected after the script's (its [`Collected::counts`] `script`),
    /// appending its lemmas (against the script's) to `out`; returns its products and
    /// divisions.
    fn take_fresh(&mut self, script: [usize; 4], out: &mut Vec<Sexp>) -> (Vec<Product>, Vec<Division>) {
        let products = self.products.split_off(script[0]);
        for p in &products {
            self.index.remove(&format!("{} {}", p.x, p.y));
        }
        let sums = self.sums.split_off(script[1]);
        let divisions = self.divisions.split_off(script[2]);
        let literal_sums = self.literal_sums.split_off(script[3]);
        division_lemmas(&divisions, out);
        chain_lemmas(&self.chains, &self.divisions, &divisions, out);
        width_lemmas(&self.divisions, &divisions, out);
        literal_radix_lemmas((&self.divisions, &divisions), (&self.literal_sums, &literal_sums), out);
        lemmas(&self.products, &products, out);
        radix_lemmas(&self.sums, &sums, out);
        (products, divisions)
    }

    /// Records `p`, or upgrades the record of the same factors with its no-wrap condition.
    fn add(&mut self, p: Product) {
        let key = format!("{} {}", p.x, p.y);
        match self.index.get(&key) {
            Some(&i) => {
                if self.products[i].ok.is_none() {
                    self.products[i].ok = p.ok;
                }
            }
            None => {
                self.index.insert(key, self.products.len());
                self.products.push(p);
            }
        }
    }
}

/// The relaxation of `encoded`, or `None` when its formula has no product of two non-literal
/// terms and no division by a non-literal (then the relaxation would be the formula itself,
/// or differ only in its divisions by literals).
pub fn relax(encoded: &Encoded) -> Option<Relaxed> {
    let facts = Facts::new(&encoded.script.commands);
    if facts.stopped {
        // At the memory bound: no relaxation (the exact queries' check stops the kernel).
        return None;
    }
    let mut seen = Collected {
        chains: facts.division_chains(
            encoded
                .script
                .commands
                .iter()
                .filter_map(|c| match c {
                    Command::DefineConst { value, .. } => Some(value),
                    Command::Assert(t) => Some(t),
                    _ => None,
                })
                .chain(encoded.checks.iter().flat_map(|c| c.query.assertions.iter())),
        ),
        ..Collected::default()
    };
    let mut commands: Vec<Command> = encoded
        .script
        .commands
        .iter()
        .map(|c| match c {
            Command::DefineConst { name, sort, value } => Command::DefineConst {
                name: name.clone(),
                sort: sort.clone(),
                value: facts.relax_term(value, &mut seen),
            },
            Command::Assert(t) => Command::Assert(facts.relax_term(t, &mut seen)),
            other => other.clone(),
        })
        .collect();
    let script_len = seen.counts();
    let mut script_lemmas = Vec::new();
    division_lemmas(&seen.divisions, &mut script_lemmas);
    chain_lemmas(&seen.chains, &[], &seen.divisions, &mut script_lemmas);
    width_lemmas(&[], &seen.divisions, &mut script_lemmas);
    literal_radix_lemmas((&[], &seen.divisions), (&[], &seen.literal_sums), &mut script_lemmas);
    lemmas(&[], &seen.products, &mut script_lemmas);
    radix_lemmas(&[], &seen.sums, &mut script_lemmas);
    commands.extend(script_lemmas.into_iter().map(Command::Assert));
    // The preferred conditions like a check's assertion, but their products kept apart.
    let preferred = encoded.preferred.as_ref().map(|p| {
        let mut conj = vec![facts.relax_term(p, &mut seen)];
        let (products, divisions) = seen.take_fresh(script_len, &mut conj);
        Preferred {
            term: Sexp::app("and", conj),
            products,
            divisions,
        }
    });
    let mut small = Vec::new();
    let mut flat = Vec::new();
    let inputs: Vec<Sexp> = encoded
        .script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::DeclareConst { name, sort } if *sort == Sexp::atom("Bool") || facts.widths.contains_key(name) => {
                let c = Sexp::atom(name.as_str());
                if let Some(&w) = facts.widths.get(name)
                    && w > SMALL_BITS
                    && !products::mentions_thread(&c)
                {
                    let bound = Sexp::bv(&(BigUint::one() << SMALL_BITS), w);
                    small.push(Sexp::app("bvult", vec![c.clone(), bound]));
                    if matches!(name.as_str(), "blockDim.y" | "blockDim.z" | "gridDim.y" | "gridDim.z") {
                        flat.push(Sexp::app("=", vec![c.clone(), Sexp::bv(&BigUint::one(), w)]));
                    }
                }
                Some(c)
            }
            _ => None,
        })
        .collect();
    let mut queries = Vec::new();
    let mut probes = Vec::new();
    for c in &encoded.checks {
        let mut assertions: Vec<Sexp> = c
            .query
            .assertions
            .iter()
            .map(|a| facts.relax_term(a, &mut seen))
            .collect();
        let (fresh, fresh_divisions) = seen.take_fresh(script_len, &mut assertions);
        queries.push(Query {
            unpinned: 0,
            name: format!("{}.relaxed", c.query.name),
            assertions,
            get_values: Vec::new(),
        });
        probes.push(Probe {
            products: seen.products.iter().chain(&fresh).cloned().collect(),
            divisions: seen.divisions.iter().chain(&fresh_divisions).cloned().collect(),
            inputs: inputs.clone(),
            small: small.clone(),
            flat: flat.clone(),
        });
    }
    if seen.muls.is_empty() && seen.nowraps.is_empty() && !seen.symbolic_division && !seen.chained {
        return None;
    }
    let decls = seen
        .muls
        .iter()
        .map(|w| Command::DeclareFun {
            name: mul_name(*w),
            args: vec![Sexp::bv_sort(*w), Sexp::bv_sort(*w)],
            ret: Sexp::bv_sort(*w),
        })
        .chain(seen.nowraps.iter().map(|(w, s)| Command::DeclareFun {
            name: nowrap_name(*w, *s),
            args: vec![Sexp::bv_sort(*w), Sexp::bv_sort(*w)],
            ret: Sexp::atom("Bool"),
        }))
        .chain(seen.divs.iter().flat_map(|(w, s)| {
            [false, true].map(|rem| Command::DeclareFun {
                name: division_name(*w, *s, rem),
                args: vec![Sexp::bv_sort(*w), Sexp::bv_sort(*w)],
                ret: Sexp::bv_sort(*w),
            })
        }));
    let decls: Vec<Command> = decls.collect();
    commands.splice(0..0, decls);
    Some(Relaxed {
        script: std::sync::Arc::new(Script {
            probes: Vec::new(),
            logic: encoded.script.logic.clone(),
            commands,
        }),
        queries,
        probes,
        preferred,
        chained: seen.chained,
    })
}

fn mul_name(w: u32) -> String {
    format!("nl.mul{w}")
}

/// The operator of a term application.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op<'a> {
    /// `(_ zero_extend k)` (false) or `(_ sign_extend k)` (true).
    Ext(u32, bool),
    /// `(_ extract hi lo)`.
    Extract(u32, u32),
    Named(&'a str),
}

fn split(t: &Sexp) -> Option<(Op<'_>, &[Sexp])> {
    let Sexp::List(v) = t else { return None };
    let (head, args) = v.split_first()?;
    let op = match head {
        Sexp::Atom(a) => Op::Named(a.as_str()),
        Sexp::List(h) => match h.as_slice() {
            [Sexp::Atom(u), Sexp::Atom(k), Sexp::Atom(n)] if u == "_" => {
                let n: u32 = n.parse().ok()?;
                match k.as_str() {
                    "zero_extend" => Op::Ext(n, false),
                    "sign_extend" => Op::Ext(n, true),
                    _ => return None,
                }
            }
            [Sexp::Atom(u), Sexp::Atom(k), Sexp::Atom(hi), Sexp::Atom(lo)] if u == "_" && k == "extract" => {
                Op::Extract(hi.parse().ok()?, lo.parse().ok()?)
            }
            _ => return None,
        },
    };
    Some((op, args))
}
