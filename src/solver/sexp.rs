//! SMT-LIB 2 terms and scripts as plain data, independent of any solver process.

use compact_str::CompactString;
use num_bigint::BigUint;
use std::fmt;

/// An S-expression: an atom (symbol, numeral, `#x…`/`#b…` literal, keyword) or a list.
///
/// An atom of up to 24 bytes (nearly all: operators, names, 64-bit literals) is stored inline,
/// so an atom costs no allocation and its copy is a copy of 24 bytes: a large kernel's formula
/// has millions of atoms, and the relaxation copies many terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sexp {
    Atom(CompactString),
    List(Vec<Sexp>),
}

impl Sexp {
    /// An atom.
    pub fn atom(s: impl Into<CompactString>) -> Sexp {
        Sexp::Atom(s.into())
    }

    /// A list.
    pub fn list(items: Vec<Sexp>) -> Sexp {
        Sexp::List(items)
    }

    /// `(op args…)`.
    pub fn app(op: &str, args: Vec<Sexp>) -> Sexp {
        let mut v = Vec::with_capacity(args.len() + 1);
        v.push(Sexp::atom(op));
        v.extend(args);
        Sexp::List(v)
    }

    /// The bit-vector literal of `width` bits holding `value mod 2^width`, as `#b…` or `#x…`.
    pub fn bv(value: &BigUint, width: u32) -> Sexp {
        let m = value % (BigUint::from(1u8) << width);
        if width.is_multiple_of(4) {
            let s = m.to_str_radix(16);
            Sexp::atom(format!("#x{}{}", "0".repeat(width as usize / 4 - s.len()), s))
        } else {
            let s = m.to_str_radix(2);
            Sexp::atom(format!("#b{}{}", "0".repeat(width as usize - s.len()), s))
        }
    }

    /// `(_ BitVec width)`.
    pub fn bv_sort(width: u32) -> Sexp {
        Sexp::list(vec![
            Sexp::atom("_"),
            Sexp::atom("BitVec"),
            Sexp::atom(width.to_string()),
        ])
    }

    /// The value of a bit-vector literal as a solver prints it in a model (`#x…`, `#b…`,
    /// `(_ bvN w)`), or `None`.
    pub fn as_bv(&self) -> Option<BigUint> {
        match self {
            Sexp::Atom(a) => {
                if let Some(h) = a.strip_prefix("#x") {
                    BigUint::parse_bytes(h.as_bytes(), 16)
                } else if let Some(b) = a.strip_prefix("#b") {
                    BigUint::parse_bytes(b.as_bytes(), 2)
                } else {
                    None
                }
            }
            Sexp::List(items) => match items.as_slice() {
                [Sexp::Atom(u), Sexp::Atom(v), Sexp::Atom(_)] if u == "_" && v.starts_with("bv") => {
                    BigUint::parse_bytes(&v.as_bytes()[2..], 10)
                }
                _ => None,
            },
        }
    }

    /// `true`/`false` atoms as a Rust bool.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Sexp::Atom(a) if a == "true" => Some(true),
            Sexp::Atom(a) if a == "false" => Some(false),
            _ => None,
        }
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Atom(a) => f.write_str(a),
            Sexp::List(items) => {
                f.write_str("(")?;
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{it}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// One command of the shared part of a script (the kernel's transition formula).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `(declare-const name sort)`.
    DeclareConst { name: String, sort: Sexp },
    /// `(declare-fun name (args…) ret)`.
    DeclareFun { name: String, args: Vec<Sexp>, ret: Sexp },
    /// `(define-fun name () sort value)`.
    DefineConst { name: String, sort: Sexp, value: Sexp },
    /// `(assert term)`.
    Assert(Sexp),
}

/// The formula shared by all queries of one kernel: asserted once per solver session.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Script {
    /// `(set-logic …)`, e.g. `QF_ABV`.
    pub logic: String,
    pub commands: Vec<Command>,
    /// Definitions that only a model is asked about (`get-value`), not part of the formula:
    /// sent to the solver after `commands`, never dumped, so a dumped query is the formula
    /// alone. Each is named in the [`Query::unpinned`] tail of some query's `get_values`.
    pub probes: Vec<Command>,
}

/// One property instance: `(push) (assert …)* (check-sat) [(get-value …)] (pop)`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Query {
    /// File-name-safe name for dumps, e.g. `reduce.race.sdata.L14` (no extension).
    pub name: String,
    pub assertions: Vec<Sexp>,
    /// Terms whose values are asked when the answer is `sat`, in this order.
    pub get_values: Vec<Sexp>,
    /// How many of the last `get_values` are facts about the model (a [`Script::probes`]
    /// definition), not the witness: the model check (`model_refuted`) pins only the terms
    /// before them, since pinning a probe would make the solver decide it.
    pub unpinned: usize,
}

/// A solver's answer to one [`Query`].
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Satisfiable; the values of [`Query::get_values`] in order.
    Sat(Vec<Sexp>),
    Unsat,
    /// `unknown`, with the solver's `:reason-unknown` if it gave one.
    Unknown(String),
    /// The per-query limit (the solver's CPU time, or as long without progress) passed; the solver
    /// process was killed.
    Timeout,
    /// Not answered because the solver could not read the script within the per-query limit:
    /// a restarted process was still reading it when the limit passed (it was killed), or an
    /// earlier check of the session (or of a script as large, see `Session::assume_unreadable`)
    /// found so and this one was not asked.
    Unread,
    /// The solver, started fine, failed during the query: it exited, crashed, closed its pipe,
    /// printed output that could not be parsed, or answered a command with `(error "…")`
    /// (e.g. z3's `push canceled` after a soft timeout). Holds the solver's last line: its
    /// `(error "…")` answer, else the last non-empty line it wrote on standard error, else the
    /// error message recovered by replaying the input, else a description of how it ended. The
    /// process was discarded; the next query restarts it.
    Failed(String),
    /// The solver answered `sat`, but its model does not satisfy the query: with the values it
    /// gave asserted, it answered `unsat` (a solver bug, or a solver that is not one). Holds
    /// what was found. No defect is built from such a model.
    InvalidModel(String),
    /// Two solvers of a portfolio answered the query differently: `sat` names the one that
    /// answered sat, `unsat` the one that answered unsat; the query was written to `file` as a
    /// standalone script. Neither answer is trusted.
    Disagreement {
        sat: String,
        unsat: String,
        file: Option<std::path::PathBuf>,
    },
}

impl Command {
    /// The command as an S-expression, e.g. `(declare-fun f ((_ BitVec 32)) (_ BitVec 32))`.
    pub fn to_sexp(&self) -> Sexp {
        match self {
            Command::DeclareConst { name, sort } => {
                Sexp::app("declare-const", vec![Sexp::atom(name.as_str()), sort.clone()])
            }
            Command::DeclareFun { name, args, ret } => Sexp::app(
                "declare-fun",
                vec![Sexp::atom(name.as_str()), Sexp::list(args.clone()), ret.clone()],
            ),
            Command::DefineConst { name, sort, value } => Sexp::app(
                "define-fun",
                vec![
                    Sexp::atom(name.as_str()),
                    Sexp::list(vec![]),
                    sort.clone(),
                    value.clone(),
                ],
            ),
            Command::Assert(t) => Sexp::app("assert", vec![t.clone()]),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_sexp())
    }
}
