//! The smallest SMT-LIB logic a dumped query needs, read off its terms: what a standalone
//! `.smt2` benchmark declares with `(set-logic …)` (SMT-LIB's benchmark library files each
//! benchmark under its logic, and a solver may refuse a symbol its logic does not have).
//!
//! A session still sends the solver the script's own logic ([`Script::logic`]); only dumps
//! use this one. The theories are found by walking the script's commands and the query's
//! assertions (our own terms, not text): an `Array` sort or `select`/`store` is arrays (`A`),
//! a `declare-fun` with arguments is uninterpreted functions (`UF`), a `BitVec` sort or any
//! `bv…` operation, `concat`, `extract` and the like is bit-vectors (`BV`), a `FloatingPoint`
//! or `RoundingMode` sort or an `fp…`/`to_fp` operation is floating point (`FP`). Bit-vector
//! literals alone do not make `BV`: the FloatingPoint theory takes them (`(fp #b0 …)`), and
//! a bit-vector formula has a `BitVec` sort or operator besides.

use super::{Command, Query, Script, Sexp};

/// The theories a formula uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Theories {
    /// Arrays (`Array`, `select`, `store`).
    pub arrays: bool,
    /// Uninterpreted functions (a `declare-fun` with at least one argument).
    pub functions: bool,
    /// Fixed-size bit-vectors.
    pub bit_vectors: bool,
    /// IEEE floating point.
    pub floats: bool,
}

impl Theories {
    /// The theories of `script`'s commands.
    pub fn of_script(script: &Script) -> Theories {
        let mut t = Theories::default();
        for c in &script.commands {
            match c {
                Command::DeclareConst { sort, .. } => t.term(sort),
                Command::DeclareFun { args, ret, .. } => {
                    t.functions |= !args.is_empty();
                    args.iter().for_each(|a| t.term(a));
                    t.term(ret);
                }
                Command::DefineConst { sort, value, .. } => {
                    t.term(sort);
                    t.term(value);
                }
                Command::Assert(e) => t.term(e),
            }
        }
        t
    }

    /// These theories and those of `query`'s assertions.
    pub fn with_query(mut self, query: &Query) -> Theories {
        query.assertions.iter().for_each(|a| self.term(a));
        self
    }

    /// The SMT-LIB logic of these theories, quantifier-free: `QF_` then `A`, `UF`, `BV`, `FP`
    /// as used (`QF_BV`, `QF_ABV`, `QF_AUFBV`, `QF_UFBV`, `QF_BVFP`, `QF_ABVFP`, `QF_FP`, …).
    /// A formula over none of them (only Booleans) is `QF_UF`, the logic of SMT-LIB's core
    /// theory.
    pub fn logic(&self) -> String {
        if !(self.arrays || self.functions || self.bit_vectors || self.floats) {
            return "QF_UF".to_string();
        }
        let mut s = String::from("QF_");
        if self.arrays {
            s.push('A');
        }
        if self.functions {
            s.push_str("UF");
        }
        if self.bit_vectors {
            s.push_str("BV");
        }
        if self.floats {
            s.push_str("FP");
        }
        s
    }

    /// Walks `e` (iteratively: terms can be deep).
    fn term(&mut self, e: &Sexp) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match e {
                Sexp::Atom(a) => self.atom(a),
                Sexp::List(items) => {
                    if let [Sexp::Atom(u), Sexp::Atom(head), ..] = items.as_slice()
                        && u == "_"
                    {
                        // An indexed identifier: `(_ BitVec 32)`, `(_ extract 7 0)`, `(_ to_fp 8 24)`.
                        self.indexed(head);
                        continue;
                    }
                    stack.extend(items.iter());
                }
            }
        }
    }

    fn indexed(&mut self, head: &str) {
        match head {
            "BitVec" | "extract" | "zero_extend" | "sign_extend" | "rotate_left" | "rotate_right" | "repeat" => {
                self.bit_vectors = true
            }
            "FloatingPoint" | "to_fp" | "to_fp_unsigned" | "fp.to_ubv" | "fp.to_sbv" | "+zero" | "-zero" | "+oo"
            | "-oo" | "NaN" => self.floats = true,
            h if h.starts_with("bv") => self.bit_vectors = true,
            _ => {}
        }
    }

    fn atom(&mut self, a: &str) {
        match a {
            "Array" | "select" | "store" => self.arrays = true,
            "concat" => self.bit_vectors = true,
            "RoundingMode"
            | "Float16"
            | "Float32"
            | "Float64"
            | "Float128"
            | "RNE"
            | "RNA"
            | "RTP"
            | "RTN"
            | "RTZ"
            | "roundNearestTiesToEven"
            | "roundNearestTiesToAway"
            | "roundTowardPositive"
            | "roundTowardNegative"
            | "roundTowardZero"
            | "fp" => self.floats = true,
            a if a.starts_with("fp.") => self.floats = true,
            a if a.starts_with("bv") && is_bv_operator(a) => self.bit_vectors = true,
            _ => {}
        }
    }
}

/// Whether `a` is one of SMT-LIB's bit-vector operators (`bvadd`, `bvult`, …), not a user
/// symbol that happens to start with `bv`.
fn is_bv_operator(a: &str) -> bool {
    matches!(
        a,
        "bvnot"
            | "bvand"
            | "bvor"
            | "bvneg"
            | "bvadd"
            | "bvmul"
            | "bvudiv"
            | "bvurem"
            | "bvshl"
            | "bvlshr"
            | "bvult"
            | "bvnand"
            | "bvnor"
            | "bvxor"
            | "bvxnor"
            | "bvcomp"
            | "bvsub"
            | "bvsdiv"
            | "bvsrem"
            | "bvsmod"
            | "bvashr"
            | "bvule"
            | "bvugt"
            | "bvuge"
            | "bvslt"
            | "bvsle"
            | "bvsgt"
            | "bvsge"
    )
}
