//! Shared-memory bank conflicts as SMT queries over k symbolic threads of one warp.
//!
//! Sources: PUG (Li and Gopalakrishnan, FSE 2010) §7 "Bank Conflict Checking" (two accesses `k[i]`,
//! `k[j]` conflict when `i ≠ j` and `i % banks = j % banks`; the share of barrier intervals with a
//! conflict gives PUG's HI/LO), ARCHITECTURE.md "Properties as queries" (bank conflict: same warp,
//! same access site, different words, same bank) and "Thread models".
//!
//! The bank model ([`BankModel`]): shared memory is cut into words of `bank_width` bytes, word
//! `w` lives in bank `w mod banks`; a warp is `warp_size` consecutive linear thread ids of one
//! block (linear id = `x + y·bdx + z·bdx·bdy`). An access of `width` bytes at byte offset `off`
//! touches the words `off / W ..= (off + width − 1) / W`. Threads of one warp active at one
//! access conflict when they touch *different* words of one bank; one word read by many lanes
//! is a broadcast, not a conflict.
//!
//! The degree of an access is the largest number of distinct words of one bank that one warp
//! touches in it. "Degree ≥ k" is one query over an encoding of the kernel for k threads
//! ([`super::encode_with`] with `threads: k`, equality abstraction, no checks): the k threads
//! are of one block and one warp, ordered by strictly increasing linear id (which also breaks
//! the k! symmetry), all active at one dynamic occurrence of the access, and each touches a
//! word of the bank `bank.b` (a BV64 constant added by [`bank_script`]); those k words are
//! pairwise distinct. With k = 2 this is the pair model's "conflict possible" query. The
//! degree is monotone in k, so the driver grows and bisects k.
//!
//! Entry points: [`sites`], [`bank_script`], [`conflict_query`], [`ConflictQuery::witness`].

use super::terms::{and, app, atom, bvn, extend, or, thread_symbol};
use super::{Access, AccessKind, Encoded};
use crate::ir::{ArrayId, Builtin, Dim, Kernel, Space, Span};
use crate::solver::{Command, Query, Script, Sexp};

/// The name of the bank symbol (BV64) that [`bank_script`] declares.
pub const BANK_SYMBOL: &str = "bank.b";

pub use crate::verdict::{BankModel, BankWitness};

/// One access site of a shared array: a source span with its kind, and the indices (into
/// [`Encoded::accesses`]) of its dynamic occurrences, one per unrolled loop iteration or
/// inlined call, in program order.
#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    pub array: ArrayId,
    pub span: Span,
    pub kind: AccessKind,
    /// Bytes touched by one thread.
    pub width: u32,
    /// Indices into [`Encoded::accesses`].
    pub occurrences: Vec<usize>,
}

/// The access sites of `__shared__` arrays in `encoded`, in program order of their first
/// occurrence. An access site is a source span plus read/write/atomic; occurrences of one site
/// all have the same width unless the source text is reused by a macro (then they are split by
/// width too). The possible writes of calls without a body are not accesses gpug can place in
/// banks, and are left out.
pub fn sites(kernel: &Kernel, encoded: &Encoded) -> Vec<Site> {
    let mut out: Vec<Site> = Vec::new();
    for (i, a) in encoded.accesses.iter().enumerate() {
        if kernel.array(a.array).space != Space::Shared || a.clobber {
            continue;
        }
        match out
            .iter_mut()
            .find(|s| s.span == a.span && s.kind == a.kind && s.array == a.array && s.width == a.width)
        {
            Some(s) => s.occurrences.push(i),
            None => out.push(Site {
                array: a.array,
                span: a.span.clone(),
                kind: a.kind,
                width: a.width,
                occurrences: vec![i],
            }),
        }
    }
    out
}

/// The kernel's script from `encoded` plus the declaration of [`BANK_SYMBOL`] (BV64).
pub fn bank_script(encoded: &Encoded) -> Script {
    let mut s = Script::clone(&encoded.script);
    s.commands.push(Command::DeclareConst {
        name: BANK_SYMBOL.to_string(),
        sort: Sexp::bv_sort(64),
    });
    s
}

/// A "degree ≥ k" query and how to read its model.
#[derive(Clone, Debug)]
pub struct ConflictQuery {
    pub query: Query,
    /// Threads in the query (the degree asked).
    pub k: usize,
    /// The occurrences (indices into [`Encoded::accesses`]) the query ranges over.
    pub occurrences: Vec<usize>,
}

fn bv64(x: Sexp, from: u32) -> Sexp {
    extend(x, from, 64, false)
}

/// Linear thread id (BV32) of thread `th` of the encoding.
fn linear_id(th: usize) -> Sexp {
    let s = |b: Builtin| atom(thread_symbol(b, th));
    let bdx = s(Builtin::BlockDim(Dim::X));
    let bdy = s(Builtin::BlockDim(Dim::Y));
    app(
        "bvadd",
        vec![
            s(Builtin::ThreadIdx(Dim::X)),
            app(
                "bvmul",
                vec![
                    bdx.clone(),
                    app(
                        "bvadd",
                        vec![
                            s(Builtin::ThreadIdx(Dim::Y)),
                            app("bvmul", vec![bdy, s(Builtin::ThreadIdx(Dim::Z))]),
                        ],
                    ),
                ],
            ),
        ],
    )
}

/// The word (BV64) of bank `b` that an access of `width` bytes at `off` touches, and the
/// condition that it touches one: the first touched word `lo = off / W`, the last
/// `hi = (off + width − 1) / W`, the candidate `lo + ((b + banks − lo mod banks) mod banks)`.
fn word_in_bank(off: &Sexp, width: u32, m: &BankModel, b: &Sexp) -> (Sexp, Sexp) {
    let w = bvn(u64::from(m.bank_width), 64);
    let nb = bvn(u64::from(m.banks), 64);
    let lo = app("bvudiv", vec![off.clone(), w.clone()]);
    let hi = app(
        "bvudiv",
        vec![app("bvadd", vec![off.clone(), bvn(u64::from(width.max(1) - 1), 64)]), w],
    );
    let d = app(
        "bvurem",
        vec![
            app(
                "bvsub",
                vec![
                    app("bvadd", vec![b.clone(), nb.clone()]),
                    app("bvurem", vec![lo.clone(), nb.clone()]),
                ],
            ),
            nb,
        ],
    );
    let word = app("bvadd", vec![lo, d]);
    let touches = app("bvule", vec![word.clone(), hi]);
    (word, touches)
}

/// The condition that the first `k` threads of `a` (all of one block and one warp, strictly
/// increasing linear ids, all active) touch pairwise distinct words of bank [`BANK_SYMBOL`].
fn occurrence_condition(a: &Access, k: usize, m: &BankModel) -> Sexp {
    let b = atom(BANK_SYMBOL);
    let mut conj = Vec::new();
    let mut words = Vec::new();
    for (pc, off, _) in a.per_thread.iter().take(k) {
        let (word, touches) = word_in_bank(off, a.width, m, &b);
        conj.push(pc.clone());
        conj.push(touches);
        words.push(word);
    }
    if words.len() >= 2 {
        conj.push(app("distinct", words));
    }
    conj.into_iter().reduce(and).unwrap_or_else(|| atom("true"))
}

/// The query "some occurrence in `occurrences` of one access site has degree ≥ `k`" over
/// `encoded` (an encoding for exactly `k` threads; its script extended by [`bank_script`]).
///
/// Asserted: `bank.b < banks`; every thread in the block and warp of thread 1 (equal
/// `blockIdx`, equal linear id / warp size) with strictly increasing linear ids; and the
/// disjunction over the occurrences of "all k threads active, each touching a word of bank
/// `bank.b`, pairwise distinct words". `get-value`: the bank, each occurrence's condition,
/// each thread's `threadIdx` and linear id, and thread 1's `blockIdx` (see
/// [`ConflictQuery::witness`]).
pub fn conflict_query(
    name: String,
    encoded: &Encoded,
    occurrences: &[usize],
    k: usize,
    m: &BankModel,
) -> ConflictQuery {
    let ws = bvn(u64::from(m.warp_size), 32);
    let mut assertions = vec![app("bvult", vec![atom(BANK_SYMBOL), bvn(u64::from(m.banks), 64)])];
    for th in 1..k {
        for d in Dim::ALL {
            assertions.push(app(
                "=",
                vec![
                    atom(thread_symbol(Builtin::BlockIdx(d), th)),
                    atom(thread_symbol(Builtin::BlockIdx(d), 0)),
                ],
            ));
        }
        assertions.push(app(
            "=",
            vec![
                app("bvudiv", vec![linear_id(th), ws.clone()]),
                app("bvudiv", vec![linear_id(0), ws.clone()]),
            ],
        ));
        assertions.push(app("bvult", vec![linear_id(th - 1), linear_id(th)]));
    }
    let conds: Vec<Sexp> = occurrences
        .iter()
        .map(|&i| occurrence_condition(&encoded.accesses[i], k, m))
        .collect();
    let any = conds.iter().cloned().reduce(or).unwrap_or_else(|| atom("false"));
    assertions.push(any);
    let mut get_values = vec![atom(BANK_SYMBOL)];
    get_values.extend(conds);
    for th in 0..k {
        for d in Dim::ALL {
            get_values.push(atom(thread_symbol(Builtin::ThreadIdx(d), th)));
        }
        get_values.push(bv64(linear_id(th), 32));
    }
    for d in Dim::ALL {
        get_values.push(atom(thread_symbol(Builtin::BlockIdx(d), 0)));
    }
    ConflictQuery {
        query: Query {
            unpinned: 0,
            name,
            assertions,
            get_values,
        },
        k,
        occurrences: occurrences.to_vec(),
    }
}

fn num(v: Option<&Sexp>) -> u64 {
    v.and_then(Sexp::as_bv).and_then(|b| u64::try_from(b).ok()).unwrap_or(0)
}

impl ConflictQuery {
    /// Reads the witness from the values of a `sat` answer (in the order of
    /// `query.get_values`): the first occurrence whose condition holds, the bank, the threads.
    pub fn witness(&self, values: &[Sexp], m: &BankModel) -> BankWitness {
        let n = self.occurrences.len();
        let bank = num(values.first());
        let hit = (0..n)
            .find(|i| values.get(1 + i).and_then(Sexp::as_bool) == Some(true))
            .unwrap_or(0);
        let mut threads = Vec::new();
        let mut thread_idx = Vec::new();
        let base = 1 + n;
        for th in 0..self.k {
            let at = base + th * 4;
            thread_idx.push([num(values.get(at)), num(values.get(at + 1)), num(values.get(at + 2))]);
            threads.push(num(values.get(at + 3)));
        }
        let at = base + self.k * 4;
        let block = [num(values.get(at)), num(values.get(at + 1)), num(values.get(at + 2))];
        let warp = threads.first().copied().unwrap_or(0) / u64::from(m.warp_size.max(1));
        BankWitness {
            access: self.occurrences[hit],
            block,
            warp,
            threads,
            thread_idx,
            bank,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_model_is_todays_hardware() {
        let m = BankModel::default();
        assert_eq!((m.banks, m.bank_width, m.warp_size), (32, 4, 32));
    }

    #[test]
    fn wide_elements_need_enough_banks() {
        let m = BankModel::default();
        assert_eq!(m.max_words(4), 2);
        assert_eq!(m.max_words(8), 3);
        assert!(m.supports(8));
        let one = BankModel {
            banks: 1,
            bank_width: 4,
            warp_size: 32,
        };
        assert!(!one.supports(4));
        let bytes = BankModel {
            banks: 1,
            bank_width: 1,
            warp_size: 32,
        };
        assert!(bytes.supports(1));
        assert!(!bytes.supports(2));
    }
}
