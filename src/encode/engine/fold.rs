//! Constant folding of terms: [`fold`] evaluates bit-vector and Boolean terms whose
//! arguments are literals (SMT-LIB semantics, e.g. `bvudiv` by zero is all ones), so they stay
//! literals in the script, and reassociates literal sums and products (`(x + c1) + c2` is
//! `x + (c1 + c2)`). Every model folds every term it defines or asserts: in the concrete model
//! the threads' coordinates are known, so most offsets, conditions and loop-derived indices
//! are constants; in the pair model an unrolled loop's counters are literals, so its accesses'
//! offsets are a common base plus a literal (`linear`'s templates). The concrete model's memory overlay, which keeps bytes
//! written at literal offsets apart, is `concrete/overlay.rs`.

use crate::encode::terms::{app, atom};
use crate::solver::Sexp;
use num_bigint::BigUint;

/// A bit-vector literal's value and width.
pub(in crate::encode) fn lit(s: &Sexp) -> Option<(u128, u32)> {
    let Sexp::Atom(a) = s else { return None };
    let (v, w) = if let Some(h) = a.strip_prefix("#x") {
        (u128::from_str_radix(h, 16).ok()?, 4 * h.len() as u32)
    } else if let Some(b) = a.strip_prefix("#b") {
        (u128::from_str_radix(b, 2).ok()?, b.len() as u32)
    } else {
        return None;
    };
    (w <= 64).then_some((v, w))
}

pub(in crate::encode) fn mk(v: u128, w: u32) -> Sexp {
    Sexp::bv(&BigUint::from(v & mask(w)), w)
}

fn mask(w: u32) -> u128 {
    if w >= 128 { u128::MAX } else { (1u128 << w) - 1 }
}

fn signed(v: u128, w: u32) -> i128 {
    let v = v & mask(w);
    if w > 0 && v >> (w - 1) & 1 == 1 {
        v as i128 - (1i128 << w)
    } else {
        v as i128
    }
}

fn boolean(s: &Sexp) -> Option<bool> {
    s.as_bool()
}

fn b(x: bool) -> Sexp {
    atom(if x { "true" } else { "false" })
}

/// `term` with every subterm whose arguments are literals evaluated.
pub(in crate::encode) fn fold(term: &Sexp) -> Sexp {
    let Sexp::List(items) = term else {
        return term.clone();
    };
    let args: Vec<Sexp> = items.iter().skip(1).map(fold).collect();
    let head = &items[0];
    let rebuilt = || {
        let mut v = vec![head.clone()];
        v.extend(args.iter().cloned());
        Sexp::List(v)
    };
    // Indexed operators: ((_ extract i j) x), ((_ zero_extend k) x), ((_ sign_extend k) x).
    if let Sexp::List(h) = head {
        let Some((x, w)) = args.first().and_then(lit) else {
            return rebuilt();
        };
        let num = |i: usize| -> Option<u32> {
            match h.get(i) {
                Some(Sexp::Atom(a)) => a.parse().ok(),
                _ => None,
            }
        };
        let name = match h.get(1) {
            Some(Sexp::Atom(a)) => a.as_str(),
            _ => "",
        };
        return match name {
            "extract" => match (num(2), num(3)) {
                (Some(i), Some(j)) if i >= j && i < w => mk(x >> j, i - j + 1),
                _ => rebuilt(),
            },
            "zero_extend" => match num(2) {
                Some(k) if w + k <= 64 => mk(x, w + k),
                _ => rebuilt(),
            },
            "sign_extend" => match num(2) {
                Some(k) if w + k <= 64 => mk(signed(x, w) as u128, w + k),
                _ => rebuilt(),
            },
            _ => rebuilt(),
        };
    }
    let Sexp::Atom(op) = head else { return rebuilt() };
    match op.as_str() {
        "not" => match args.first().and_then(boolean) {
            Some(x) => b(!x),
            None => rebuilt(),
        },
        "and" | "or" => {
            let is_and = op == "and";
            let mut rest = Vec::new();
            for a in &args {
                match boolean(a) {
                    Some(x) if x == is_and => {}
                    Some(_) => return b(!is_and),
                    None => rest.push(a.clone()),
                }
            }
            match rest.len() {
                0 => b(is_and),
                1 => rest.pop().unwrap_or_else(|| b(is_and)),
                _ => app(op, rest),
            }
        }
        "=>" => match (args.first().and_then(boolean), args.get(1)) {
            (Some(false), _) => b(true),
            (Some(true), Some(c)) => c.clone(),
            _ => rebuilt(),
        },
        "ite" => match args.first().and_then(boolean) {
            Some(true) => args[1].clone(),
            Some(false) => args[2].clone(),
            None if args.len() == 3 && args[1] == args[2] => args[1].clone(),
            None => rebuilt(),
        },
        "=" if args.len() == 2 => {
            if args[0] == args[1] {
                return b(true);
            }
            match (lit(&args[0]), lit(&args[1]), boolean(&args[0]), boolean(&args[1])) {
                (Some((x, _)), Some((y, _)), _, _) => b(x == y),
                (_, _, Some(x), Some(y)) => b(x == y),
                _ => rebuilt(),
            }
        }
        "concat" => match (args.first().and_then(lit), args.get(1).and_then(lit)) {
            (Some((x, wx)), Some((y, wy))) if wx + wy <= 64 => mk((x << wy) | y, wx + wy),
            _ => rebuilt(),
        },
        "bvneg" | "bvnot" => match args.first().and_then(lit) {
            Some((x, w)) => mk(if op == "bvneg" { x.wrapping_neg() } else { !x }, w),
            None => rebuilt(),
        },
        "bvadd" if args.len() == 2 && lit(&args[0]).is_none() => match lit(&args[1]) {
            // `(x + c1) + c2` is `x + (c1 + c2)` (addition modulo 2^w is associative): an
            // unrolled loop's offsets `base + i*S + j` end as one literal beside their common
            // base. `x + 0` stays, so that it has the shape of `x + c` (`linear`).
            Some((y, w)) => match split_lit("bvadd", &args[0]) {
                Some((inner, x)) => fold(&app("bvadd", vec![inner.clone(), mk(x.wrapping_add(y), w)])),
                None => rebuilt(),
            },
            None => rebuilt(),
        },
        // `(x * c1) * c2` is `x * (c1 * c2)`, as associative: `cell * S * N` has the one
        // radix `S*N` (`nonlinear`'s mixed-radix lemmas need the literal a slice's offsets
        // stay below).
        "bvmul" if args.len() == 2 && lit(&args[0]).is_none() => match lit(&args[1]) {
            Some((y, w)) => match split_lit("bvmul", &args[0]) {
                Some((inner, x)) => fold(&app("bvmul", vec![inner.clone(), mk(x.wrapping_mul(y), w)])),
                None => rebuilt(),
            },
            None => rebuilt(),
        },
        _ => {
            let (Some((x, w)), Some((y, _))) = (args.first().and_then(lit), args.get(1).and_then(lit)) else {
                return rebuilt();
            };
            if args.len() != 2 {
                return rebuilt();
            }
            let (sx, sy) = (signed(x, w), signed(y, w));
            match op.as_str() {
                "bvadd" => mk(x.wrapping_add(y), w),
                "bvsub" => mk(x.wrapping_sub(y), w),
                "bvmul" => mk(x.wrapping_mul(y), w),
                "bvand" => mk(x & y, w),
                "bvor" => mk(x | y, w),
                "bvxor" => mk(x ^ y, w),
                "bvshl" => mk(if y >= w as u128 { 0 } else { x << y }, w),
                "bvlshr" => mk(if y >= w as u128 { 0 } else { x >> y }, w),
                "bvashr" => mk((sx >> (y.min(w as u128 - 1))) as u128, w),
                "bvudiv" => mk(x.checked_div(y).unwrap_or(mask(w)), w),
                "bvurem" => mk(if y == 0 { x } else { x % y }, w),
                "bvsdiv" if sy != 0 => mk(sx.wrapping_div(sy) as u128, w),
                "bvsrem" if sy != 0 => mk(sx.wrapping_rem(sy) as u128, w),
                "bvult" => b(x < y),
                "bvule" => b(x <= y),
                "bvugt" => b(x > y),
                "bvuge" => b(x >= y),
                "bvslt" => b(sx < sy),
                "bvsle" => b(sx <= sy),
                "bvsgt" => b(sx > sy),
                "bvsge" => b(sx >= sy),
                _ => rebuilt(),
            }
        }
    }
}

/// `(op x c)` with a literal `c` and `x` not one: `(x, c)`.
fn split_lit<'t>(op: &str, t: &'t Sexp) -> Option<(&'t Sexp, u128)> {
    match t {
        Sexp::List(v) if v.len() == 3 && matches!(&v[0], Sexp::Atom(a) if a == op) && lit(&v[1]).is_none() => {
            Some((&v[1], lit(&v[2])?.0))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Sexp {
        // A tiny reader for tests.
        fn read(t: &mut std::iter::Peekable<std::vec::IntoIter<String>>) -> Sexp {
            let tok = t.next().unwrap_or_default();
            if tok == "(" {
                let mut v = Vec::new();
                while t.peek().map(String::as_str) != Some(")") {
                    v.push(read(t));
                }
                t.next();
                Sexp::List(v)
            } else {
                Sexp::atom(tok)
            }
        }
        let toks: Vec<String> = s
            .replace('(', " ( ")
            .replace(')', " ) ")
            .split_whitespace()
            .map(String::from)
            .collect();
        read(&mut toks.into_iter().peekable())
    }

    #[test]
    fn folds_literals_with_smtlib_semantics() {
        assert_eq!(
            fold(&p("(bvadd #x00000003 (bvmul #x00000002 #x00000004))")),
            p("#x0000000b")
        );
        assert_eq!(fold(&p("(bvudiv #x05 #x00)")), p("#xff"));
        assert_eq!(fold(&p("(bvslt #xff #x00)")), p("true"));
        assert_eq!(fold(&p("((_ sign_extend 24) #xff)")), p("#xffffffff"));
        assert_eq!(fold(&p("((_ extract 15 8) #x1234)")), p("#x12"));
        assert_eq!(fold(&p("(concat #x12 #x34)")), p("#x1234"));
        assert_eq!(fold(&p("(ite (bvult #x01 #x02) a b)")), p("a"));
        assert_eq!(fold(&p("(and true x (not false))")), p("x"));
        assert_eq!(fold(&p("(or x (= #x01 #x01))")), p("true"));
        assert_eq!(fold(&p("(bvadd x #x01)")), p("(bvadd x #x01)"));
        assert_eq!(fold(&p("(bvadd (bvadd x #x30) #xd8)")), p("(bvadd x #x08)"));
        assert_eq!(fold(&p("(bvadd (bvadd x y) #x01)")), p("(bvadd (bvadd x y) #x01)"));
        assert_eq!(fold(&p("(bvmul (bvmul x #x05) #x0c)")), p("(bvmul x #x3c)"));
        assert_eq!(fold(&p("(bvmul (bvmul x #x80) #x02)")), p("(bvmul x #x00)"));
    }
}
