//! The IR's unary and binary operators ([`UnOp`], [`BinOp`]) and their C spellings.

/// Unary operators. `Not` is logical (operand and result `Bool`). The bit counts (`Clz`,
/// `Ffs`, `Popc`) and `Brev` take an integer and give a value of the same type (CUDA's
/// `__clz`, `__ffs`, `__popc`, `__brev` and their `ll` forms, exact in bit-vectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    BitNot,
    Not,
    /// The number of leading zero bits (the width for 0).
    Clz,
    /// The position of the least significant set bit, counting from 1 (0 for 0).
    Ffs,
    /// The number of set bits.
    Popc,
    /// The bits in reverse order.
    Brev,
}

/// Binary operators on operands of one type (clang has inserted the conversions), except shifts
/// whose right operand may differ in width. Comparisons give `Bool`. `LAnd`/`LOr` are on `Bool`
/// and pure (lowering makes short-circuit evaluation with side effects into `If`s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LAnd,
    LOr,
}

/// Each operator with its C spelling ([`BinOp::spelling`], [`BinOp::from_spelling`]).
const BINOP_SPELLINGS: [(BinOp, &str); 18] = [
    (BinOp::Add, "+"),
    (BinOp::Sub, "-"),
    (BinOp::Mul, "*"),
    (BinOp::Div, "/"),
    (BinOp::Rem, "%"),
    (BinOp::Shl, "<<"),
    (BinOp::Shr, ">>"),
    (BinOp::BitAnd, "&"),
    (BinOp::BitOr, "|"),
    (BinOp::BitXor, "^"),
    (BinOp::Eq, "=="),
    (BinOp::Ne, "!="),
    (BinOp::Lt, "<"),
    (BinOp::Le, "<="),
    (BinOp::Gt, ">"),
    (BinOp::Ge, ">="),
    (BinOp::LAnd, "&&"),
    (BinOp::LOr, "||"),
];

impl BinOp {
    /// The operator as C spells it (`+`, `<<`, `&&`).
    pub fn spelling(self) -> &'static str {
        BINOP_SPELLINGS
            .iter()
            .find(|(op, _)| *op == self)
            .map_or("?", |(_, s)| s)
    }

    /// The operator C spells `s` (clang's `opcode`), if it is one of these.
    pub fn from_spelling(s: &str) -> Option<BinOp> {
        BINOP_SPELLINGS.iter().find(|(_, t)| *t == s).map(|(op, _)| *op)
    }

    /// Whether `self` is a comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`), whose result is `Bool`.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}
