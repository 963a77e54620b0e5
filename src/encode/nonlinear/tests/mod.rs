//! Tests of the relaxation of symbolic products, products that cannot wrap (`--no-overflow`),
//! divisions, their lemmas (each checked valid by z3 over every 6-bit value) and the
//! refinement of models; the offsets' lemmas are tested in `lemmas.rs`.

mod lemmas;

use super::super::tests::{parse_sexp, script_text, z3_says};
use crate::encode::{Encoded, nonlinear};
use crate::solver::{Command, Query, Script, Sexp};
use num_bigint::BigUint;

/// The range of the other factor for which a product by a literal does not wrap is exact:
/// every pair of 6-bit values, signed and unsigned.
#[test]
fn product_by_literal_range_is_exact() {
    use nonlinear::products::{fits, range_bounds, signed_value};
    for signed in [false, true] {
        for a in 0u32..64 {
            let a = BigUint::from(a);
            let bounds = range_bounds(&a, 6, signed);
            for b in 0u32..64 {
                let b = BigUint::from(b);
                let v = if signed {
                    signed_value(&b, 6)
                } else {
                    num_bigint::BigInt::from(b.clone())
                };
                let inside = bounds.as_ref().is_none_or(|(lo, hi)| *lo <= v && v <= *hi);
                assert_eq!(inside, fits(&a, &b, 6, signed), "a={a} b={b} signed={signed}");
            }
        }
    }
}

/// A script of 6-bit values `x1 = v1*m + u1`, `x2 = v2*m + u2` under `--no-overflow`'s side
/// conditions (no product wraps), relaxed.
fn no_wrap_relaxation(signed: bool) -> nonlinear::Relaxed {
    let bv6 = Sexp::bv_sort(6);
    let mut cmds: Vec<Command> = ["m", "v1", "v2", "u1", "u2"]
        .iter()
        .map(|n| Command::DeclareConst {
            name: (*n).into(),
            sort: bv6.clone(),
        })
        .collect();
    for (v, u, x) in [("v1", "u1", "x1"), ("v2", "u2", "x2")] {
        cmds.push(Command::Assert(nonlinear::mul_no_overflow(
            &Sexp::atom(v),
            &Sexp::atom("m"),
            6,
            signed,
        )));
        cmds.push(Command::DefineConst {
            name: x.into(),
            sort: bv6.clone(),
            value: parse_sexp(&format!("(bvadd (bvmul {v} m) {u})")),
        });
    }
    relax_script(cmds).expect("symbolic products")
}

/// The relaxation of a script without checks.
fn relax_script(commands: Vec<Command>) -> Option<nonlinear::Relaxed> {
    nonlinear::relax(&Encoded {
        script: std::sync::Arc::new(Script {
            probes: Vec::new(),
            logic: "QF_UFBV".into(),
            commands,
        }),
        checks: Vec::new(),
        notes: Vec::new(),
        accesses: Vec::new(),
        preferred: None,
    })
}

/// The lemmas the relaxation added to its script (its implications), as text.
fn lemma_texts(r: &nonlinear::Relaxed) -> Vec<String> {
    r.script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Assert(t) if t.to_string().starts_with("(=>") => Some(t.to_string()),
            _ => None,
        })
        .collect()
}

/// Every lemma of the relaxation holds when `nl.mul6` is multiplication and `nl.nowrap…6` the
/// exact no-wrap condition: z3 finds no 6-bit values that break one.
#[test]
fn no_wrap_lemmas_are_valid() {
    for signed in [false, true] {
        let r = no_wrap_relaxation(signed);
        let lemmas = lemma_texts(&r);
        let text = script_text(&r.script.commands, &[]);
        // Mixed radix (`x1 = x2 ⇒ v1 = v2 ∧ u1 = u2`) and monotonicity lemmas are there.
        assert!(
            lemmas
                .iter()
                .any(|l| l.contains("(= (bvadd (nl.mul6 m v1) u1) (bvadd (nl.mul6 m v2) u2))")),
            "{text}"
        );
        assert!(lemmas.iter().any(|l| l.contains("bvsub (nl.mul6 m v2) m")), "{text}");
        let nowrap = if signed { "nl.nowraps6" } else { "nl.nowrapu6" };
        let ext = if signed { "sign_extend" } else { "zero_extend" };
        let mut check = String::from("(set-logic QF_BV)\n");
        check.push_str("(define-fun nl.mul6 ((a (_ BitVec 6)) (b (_ BitVec 6))) (_ BitVec 6) (bvmul a b))\n");
        check.push_str(&format!(
            "(define-fun {nowrap} ((a (_ BitVec 6)) (b (_ BitVec 6))) Bool \
             (= ((_ {ext} 6) (bvmul a b)) (bvmul ((_ {ext} 6) a) ((_ {ext} 6) b))))\n"
        ));
        for n in ["m", "v1", "v2", "u1", "u2"] {
            check.push_str(&format!("(declare-const {n} (_ BitVec 6))\n"));
        }
        check.push_str(&format!("(assert (not (and {})))\n(check-sat)\n", lemmas.join(" ")));
        assert_eq!(z3_says(&check), "unsat", "signed={signed}\n{check}");
    }
}

/// With the lemmas, the relaxation proves `x1 = x2 ⇒ v1 = v2` for `u < m` (what makes a
/// symbolic launch's linear thread index injective), and a model that gets a product wrong is
/// refined away while an exact one is pinned.
#[test]
fn no_wrap_relaxation_proves_radix_and_refines_models() {
    let r = no_wrap_relaxation(false);
    let text = script_text(
        &r.script.commands,
        &[parse_sexp(
            "(and (bvult u1 m) (bvult u2 m) (= x1 x2) (not (= v1 v2)) \
             (bvule (nl.mul6 m v1) (bvsub #b111111 u1)) (bvule (nl.mul6 m v2) (bvsub #b111111 u2)))",
        )],
    );
    assert_eq!(z3_says(&text), "unsat", "{text}");
    // Without the side condition on u, the relaxation says nothing (sat).
    let text = script_text(&r.script.commands, &[parse_sexp("(and (= x1 x2) (not (= v1 v2)))")]);
    assert_eq!(z3_says(&text), "sat", "{text}");

    let bv = |v: u32| Sexp::bv(&BigUint::from(v), 6);
    // A product of a thread's value `t1.v` and a uniform `m`.
    let probe = nonlinear::Probe {
        products: vec![nonlinear::products::Product {
            x: Sexp::atom("t1.v"),
            y: Sexp::atom("m"),
            p: parse_sexp("(nl.mul6 m t1.v)"),
            w: 6,
            ok: Some((parse_sexp("(nl.nowrapu6 m t1.v)"), false)),
            low_zeros: 0,
        }],
        divisions: Vec::new(),
        inputs: vec![Sexp::atom("m"), Sexp::atom("t1.v"), Sexp::atom("t1.tx")],
        small: Vec::new(),
        flat: Vec::new(),
    };
    let asked = probe.query(&Query {
        unpinned: 0,
        name: "q".into(),
        assertions: Vec::new(),
        get_values: Vec::new(),
    });
    assert_eq!(asked.get_values.len(), 7, "{:?}", asked.get_values);
    // t1.v = 3, m = 5, but the relaxed product is 7: refined at both points; the pins keep the
    // uniform inputs only (not the thread's `t1.v`, `t1.tx`).
    let spurious = [bv(3), bv(5), bv(7), Sexp::atom("true"), bv(5), bv(3), bv(1)];
    match probe.refine(&spurious) {
        nonlinear::Refinement::Lemmas(lemmas, pins) => {
            let lemmas: Vec<String> = lemmas.iter().map(Sexp::to_string).collect();
            assert_eq!(
                lemmas,
                [
                    "(=> (= t1.v #b000011) (and (= (nl.mul6 m t1.v) (bvmul #b000011 m)) (= (nl.nowrapu6 m t1.v) (bvule m #b010101))))",
                    "(=> (= m #b000101) (and (= (nl.mul6 m t1.v) (bvmul #b000101 t1.v)) (= (nl.nowrapu6 m t1.v) (bvule t1.v #b001100))))",
                ]
            );
            let pins: Vec<String> = pins.iter().map(Sexp::to_string).collect();
            assert_eq!(pins, ["(= m #b000101)"]);
        }
        other => panic!("{other:?}"),
    }
    // The same model with the right product (and no wrap) is exact: every input is pinned.
    let exact = [bv(3), bv(5), bv(15), Sexp::atom("true"), bv(5), bv(3), bv(1)];
    let pins: Vec<String> = match probe.refine(&exact) {
        nonlinear::Refinement::Exact(pins) => pins.iter().map(Sexp::to_string).collect(),
        other => panic!("{other:?}"),
    };
    assert_eq!(pins, ["(= m #b000101)", "(= t1.v #b000011)", "(= t1.tx #b000001)"]);
    // A no-wrap predicate the model got wrong is refined too (3 * 30 wraps in 6 bits).
    let wrong_ok = [bv(3), bv(30), bv(26), Sexp::atom("true"), bv(30), bv(3), bv(1)];
    assert!(matches!(probe.refine(&wrong_ok), nonlinear::Refinement::Lemmas(..)));
    // A wrong product of two uniform values (`blockDim.x * blockDim.y`) is made exact.
    let uniform = nonlinear::Probe {
        products: vec![nonlinear::products::Product {
            x: Sexp::atom("m"),
            y: Sexp::atom("n"),
            p: parse_sexp("(nl.mul6 m n)"),
            w: 6,
            ok: None,
            low_zeros: 0,
        }],
        divisions: Vec::new(),
        inputs: Vec::new(),
        small: Vec::new(),
        flat: Vec::new(),
    };
    match uniform.refine(&[bv(3), bv(5), bv(7)]) {
        nonlinear::Refinement::Lemmas(lemmas, _) => {
            let lemmas: Vec<String> = lemmas.iter().map(Sexp::to_string).collect();
            assert_eq!(lemmas, ["(= (nl.mul6 m n) (bvmul m n))"]);
        }
        other => panic!("{other:?}"),
    }
}

/// A 6-bit `QF_BV` script prefix that gives the relaxation's `nl.mul6` and the `nl.{s,u}div6`,
/// `nl.{s,u}rem6` of `signed` their exact meaning, to check lemmas valid.
fn exact_division_6(signed: bool) -> String {
    let (s, div, rem) = if signed {
        ("s", "bvsdiv", "bvsrem")
    } else {
        ("u", "bvudiv", "bvurem")
    };
    let f = |name: &str, op: &str| {
        format!("(define-fun {name} ((x (_ BitVec 6)) (y (_ BitVec 6))) (_ BitVec 6) ({op} x y))\n")
    };
    let mut text = String::from("(set-logic QF_BV)\n");
    text.push_str(&f("nl.mul6", "bvmul"));
    text.push_str(&f(&format!("nl.{s}div6"), div));
    text.push_str(&f(&format!("nl.{s}rem6"), rem));
    text
}

/// The division lemmas hold for SMT-LIB's division and remainder (by zero too): z3 finds no
/// 6-bit values that break one, signed or unsigned; and the exact quotient and remainder the
/// refinement compares with are SMT-LIB's.
#[test]
fn division_lemmas_are_valid() {
    for signed in [false, true] {
        let (div, rem) = if signed {
            ("bvsdiv", "bvsrem")
        } else {
            ("bvudiv", "bvurem")
        };
        let bv6 = Sexp::bv_sort(6);
        let mut cmds: Vec<Command> = ["a", "b"]
            .iter()
            .map(|n| Command::DeclareConst {
                name: (*n).into(),
                sort: bv6.clone(),
            })
            .collect();
        cmds.push(Command::Assert(parse_sexp(&format!(
            "(and (not (= b #b000000)) (not (= (bvadd (bvmul ({div} a b) b) ({rem} a b)) a)))"
        ))));
        let r = relax_script(cmds).expect("a division by a symbolic value");
        let text = script_text(&r.script.commands, &[]);
        let s = if signed { "s" } else { "u" };
        assert!(text.contains(&format!("(nl.{s}div6 a b)")), "{text}");
        let lemmas = lemma_texts(&r);
        assert!(lemmas.len() >= 2, "{text}");
        // The relaxation proves `a = b*q + r` for `b ≠ 0` from the lemmas alone.
        assert_eq!(z3_says(&text), "unsat", "{text}");
        let mut check = exact_division_6(signed);
        check.push_str("(declare-const a (_ BitVec 6))\n(declare-const b (_ BitVec 6))\n");
        check.push_str(&format!("(assert (not (and {})))\n(check-sat)\n", lemmas.join(" ")));
        assert_eq!(z3_says(&check), "unsat", "signed={signed}\n{check}");
        // `divide` is SMT-LIB's: ask z3 for a few values, by zero and INT_MIN / -1 among them.
        for (a, b) in [(13u32, 4u32), (13, 0), (50, 0), (32, 63), (63, 5), (40, 7)] {
            let (q, r) = nonlinear::products::divide(&BigUint::from(a), &BigUint::from(b), 6, signed);
            let text = format!(
                "(assert (not (and (= ({div} {} {}) {}) (= ({rem} {} {}) {}))))\n(check-sat)\n",
                Sexp::bv(&BigUint::from(a), 6),
                Sexp::bv(&BigUint::from(b), 6),
                Sexp::bv(&q, 6),
                Sexp::bv(&BigUint::from(a), 6),
                Sexp::bv(&BigUint::from(b), 6),
                Sexp::bv(&r, 6)
            );
            assert_eq!(z3_says(&text), "unsat", "a={a} b={b} signed={signed}");
        }
    }
}

/// A dividend `x + b` whose sum cannot wrap (a loop's `i += blockDim.x` under its
/// `i % blockDim.x` invariant): the relaxation proves `(x + b) % b = x % b` and
/// `(x + b) / b = x / b + 1` from the step lemmas, which hold for SMT-LIB's unsigned division
/// (z3 finds no 6-bit values that break one, divisor 0 included).
#[test]
fn a_dividend_plus_its_divisor_keeps_its_remainder() {
    let bv6 = Sexp::bv_sort(6);
    let mut cmds: Vec<Command> = ["x", "b"]
        .iter()
        .map(|n| Command::DeclareConst {
            name: (*n).into(),
            sort: bv6.clone(),
        })
        .collect();
    cmds.push(Command::DefineConst {
        name: "y".into(),
        sort: bv6.clone(),
        value: parse_sexp("(bvadd x b)"),
    });
    cmds.push(Command::Assert(parse_sexp("(bvule x (bvnot b))")));
    for goal in [
        "(not (= (bvurem y b) (bvurem x b)))",
        "(and (not (= b #b000000)) (not (= (bvudiv y b) (bvadd (bvudiv x b) #b000001))))",
    ] {
        let mut c = cmds.clone();
        c.push(Command::Assert(parse_sexp(goal)));
        let r = relax_script(c).expect("a division by a symbolic value");
        let text = script_text(&r.script.commands, &[]);
        assert_eq!(z3_says(&text), "unsat", "{goal}\n{text}");
        let lemmas = lemma_texts(&r);
        let mut check = exact_division_6(false);
        check.push_str("(declare-const x (_ BitVec 6))\n(declare-const b (_ BitVec 6))\n");
        check.push_str("(define-fun y () (_ BitVec 6) (bvadd x b))\n");
        check.push_str(&format!("(assert (not (and {})))\n(check-sat)\n", lemmas.join(" ")));
        assert_eq!(z3_says(&check), "unsat", "{check}");
    }
}

/// Two threads of an 8-bit launch: `blockDim <= 8`, `gridDim` either the literal 4 or
/// declared `<= grid_max`, coordinates below them, and `g = blockIdx * blockDim + threadIdx`.
fn radix_script(grid: Option<u64>, grid_max: u64) -> Vec<Command> {
    let bv8 = Sexp::bv_sort(8);
    let decl = |n: &str| Command::DeclareConst {
        name: n.into(),
        sort: bv8.clone(),
    };
    let mut c = vec![decl("bd")];
    match grid {
        Some(v) => c.push(Command::DefineConst {
            name: "gd".into(),
            sort: bv8.clone(),
            value: Sexp::bv(&BigUint::from(v), 8),
        }),
        None => {
            c.push(decl("gd"));
            c.push(Command::Assert(parse_sexp(&format!("(bvule gd (_ bv{grid_max} 8))"))));
            c.push(Command::Assert(parse_sexp("(bvule #x01 gd)")));
        }
    }
    c.push(Command::Assert(parse_sexp("(bvule #x01 bd)")));
    c.push(Command::Assert(parse_sexp("(bvule bd #x08)")));
    for t in ["t1", "t2"] {
        c.push(decl(&format!("{t}.tx")));
        c.push(decl(&format!("{t}.bx")));
        c.push(Command::Assert(parse_sexp(&format!("(bvult {t}.tx bd)"))));
        c.push(Command::Assert(parse_sexp(&format!("(bvult {t}.bx gd)"))));
        c.push(Command::DefineConst {
            name: format!("{t}.g"),
            sort: bv8.clone(),
            value: parse_sexp(&format!("(bvadd (bvmul {t}.bx bd) {t}.tx)")),
        });
    }
    c
}

#[test]
fn relaxation_uninterprets_symbolic_products_and_distributes_literal_summands() {
    let mut cmds = radix_script(None, 31);
    cmds.push(Command::DeclareConst {
        name: "it".into(),
        sort: Sexp::bv_sort(8),
    });
    cmds.push(Command::Assert(parse_sexp(
        "(not (= (bvmul (bvadd it #x01) bd) (bvadd (bvmul it bd) bd)))",
    )));
    let encoded = Encoded {
        script: std::sync::Arc::new(Script {
            probes: Vec::new(),
            logic: "QF_AUFBV".into(),
            commands: cmds,
        }),
        checks: Vec::new(),
        notes: Vec::new(),
        accesses: Vec::new(),
        preferred: None,
    };
    let r = nonlinear::relax(&encoded).expect("symbolic products");
    let text = script_text(&r.script.commands, &[]);
    assert!(
        text.contains("(declare-fun nl.mul8 ((_ BitVec 8) (_ BitVec 8)) (_ BitVec 8))"),
        "{text}"
    );
    assert!(text.contains("(bvadd (nl.mul8 bd t1.bx) t1.tx)"), "{text}");
    assert!(!text.contains("bvmul it bd") && !text.contains("bvmul bd it"), "{text}");
    // `(it + 1) * bd = it*bd + bd` survives the relaxation: the assertion is refuted.
    assert_eq!(z3_says(&text), "unsat");
    // Products by literals are kept; a script without symbolic products has no relaxation.
    let lit = Encoded {
        script: std::sync::Arc::new(Script {
            probes: Vec::new(),
            logic: "QF_AUFBV".into(),
            commands: radix_script(Some(4), 0)
                .into_iter()
                .filter(|c| !matches!(c, Command::DefineConst { name, .. } if name.ends_with(".g")))
                .collect(),
        }),
        ..encoded
    };
    assert!(nonlinear::relax(&lit).is_none());
}

/// The flat witness tier pins only the y and z extents whose indices the kernel does not
/// read, and is left out when it pins nothing (it would repeat the next tier).
#[test]
fn flat_tier_leaves_read_dimensions_free_and_goes_when_empty() {
    let small = parse_sexp("(bvult blockDim.x #x00000100)");
    let pins =
        ["blockDim.y", "blockDim.z", "gridDim.y", "gridDim.z"].map(|n| parse_sexp(&format!("(= {n} #x00000001)")));
    let relaxed = |read_thread: [bool; 2], read_block: [bool; 2]| {
        let mut r = nonlinear::Relaxed {
            script: std::sync::Arc::new(Script {
                probes: Vec::new(),
                logic: "QF_UFBV".into(),
                commands: Vec::new(),
            }),
            queries: Vec::new(),
            probes: vec![nonlinear::Probe {
                products: Vec::new(),
                divisions: Vec::new(),
                inputs: Vec::new(),
                small: vec![small.clone()],
                flat: pins.to_vec(),
            }],
            preferred: None,
            chained: false,
        };
        r.keep_read_dims(read_thread, read_block);
        r.probes.remove(0)
    };
    let texts = |b: Option<Vec<Sexp>>| b.map(|v| v.iter().map(Sexp::to_string).collect::<Vec<_>>());
    // Nothing read: all four pinned in tier 0, none in tier 1.
    let p = relaxed([false; 2], [false; 2]);
    assert_eq!(texts(p.small(0)).map(|v| v.len()), Some(5));
    assert_eq!(texts(p.small(1)), Some(vec![small.to_string()]));
    assert_eq!(p.small(2), None);
    // threadIdx.y and blockIdx.z read: blockDim.y and gridDim.z stay free.
    let p = relaxed([true, false], [false, true]);
    let tier0 = texts(p.small(0)).expect("tier 0");
    assert_eq!(tier0, [small.to_string(), pins[1].to_string(), pins[2].to_string()]);
    // Every y and z index read: no flat tier, the small launch comes first and last.
    let p = relaxed([true; 2], [true; 2]);
    assert_eq!(texts(p.small(0)), Some(vec![small.to_string()]));
    assert_eq!(p.small(1), None);
}

/// A script prefix for 4- and 8-bit values that gives the relaxation's unsigned symbols their
/// exact meaning, to check lemmas valid.
fn exact_unsigned_4_8() -> String {
    let mut text = String::from("(set-logic QF_BV)\n");
    for w in [4, 8] {
        for (name, op) in [("mul", "bvmul"), ("udiv", "bvudiv"), ("urem", "bvurem")] {
            text.push_str(&format!(
                "(define-fun nl.{name}{w} ((x (_ BitVec {w})) (y (_ BitVec {w}))) (_ BitVec {w}) ({op} x y))\n"
            ));
        }
    }
    text
}

/// A remainder by a literal that is not a power of two is relaxed in a formula with a
/// symbolic division, and the lemmas prove what a blockwise loop's invariant needs: an 8-bit
/// `zext(v*3 + u) % 3 = zext(u)` for `u < 3` (literal radix, across widths), and
/// `zext(u) % zext(d) = zext(u % d)` (width). Every lemma holds for exact arithmetic (z3
/// finds no values that break one); without the premise `u < 3` the relaxation proves
/// nothing.
#[test]
fn literal_remainders_and_widths_are_related() {
    let decls = "(declare-const v (_ BitVec 4))\n(declare-const u (_ BitVec 4))\n\
                 (declare-const d (_ BitVec 4))\n(declare-const y (_ BitVec 8))\n";
    let script = |goal: &str| {
        let mut cmds: Vec<Command> = ["v", "u", "d"]
            .iter()
            .map(|n| Command::DeclareConst {
                name: (*n).into(),
                sort: Sexp::bv_sort(4),
            })
            .collect();
        cmds.push(Command::DeclareConst {
            name: "y".into(),
            sort: Sexp::bv_sort(8),
        });
        // The symbolic division that makes a relaxation.
        cmds.push(Command::Assert(parse_sexp("(= (bvurem u d) (bvurem u d))")));
        cmds.push(Command::Assert(parse_sexp(goal)));
        relax_script(cmds).expect("a division by a symbolic value")
    };
    let radix = "(and (= y ((_ zero_extend 4) (bvadd (bvmul v #x3) u))) (bvule v #x4) (bvult u #x3) \
                 (not (and (= (bvurem y #x03) ((_ zero_extend 4) u)) (= (bvudiv y #x03) ((_ zero_extend 4) v)))))";
    let width = "(and (not (= d #x0)) (not (= (bvurem ((_ zero_extend 4) u) ((_ zero_extend 4) d)) \
                 ((_ zero_extend 4) (bvurem u d)))))";
    for goal in [radix, width] {
        let r = script(goal);
        let text = script_text(&r.script.commands, &[]);
        // The lemma that states the remainder (bit-blasting finds it too at these widths,
        // not at 64 bits), and the one that carries the 4-bit remainder to 8 bits.
        let stated = if goal == radix {
            "(= (nl.urem8 y #x03) ((_ zero_extend 4) u))"
        } else {
            "(= (nl.urem8 ((_ zero_extend 4) u) ((_ zero_extend 4) d)) ((_ zero_extend 4) (nl.urem4 u d)))"
        };
        assert!(lemma_texts(&r).iter().any(|l| l.contains(stated)), "{text}");
        assert_eq!(z3_says(&text), "unsat", "{goal}\n{text}");
        let mut check = exact_unsigned_4_8();
        check.push_str(decls);
        check.push_str(&format!(
            "(assert (not (and {})))\n(check-sat)\n",
            lemma_texts(&r).join(" ")
        ));
        assert_eq!(z3_says(&check), "unsat", "{check}");
    }
    // Without `u < 3` the remainder is unknown: the relaxation is satisfiable.
    let r = script(&radix.replace("(bvult u #x3)", "true"));
    assert_eq!(z3_says(&script_text(&r.script.commands, &[])), "sat");
}

/// A factor that is a constant expression of any operator (`16 / sizeof(T)` of llm.c's
/// `x128::size`, `((_ extract 31 0) (bvudiv #x0010 #x0002))`) is a literal: a product by it is
/// kept, and a script with no other product has no relaxation (before, the product became
/// `nl.mul32` and its relaxed query was asked, and answered `sat`, before the exact one).
#[test]
fn constant_expressions_are_literals() {
    let bv32 = Sexp::bv_sort(32);
    let cmds = vec![
        Command::DeclareConst {
            name: "i".into(),
            sort: bv32.clone(),
        },
        Command::DefineConst {
            name: "idx".into(),
            sort: bv32,
            value: parse_sexp("(bvmul i ((_ extract 31 0) (bvudiv #x0000000000000010 #x0000000000000002)))"),
        },
        Command::Assert(parse_sexp("(= idx #x00000010)")),
    ];
    assert!(relax_script(cmds.clone()).is_none());
    // A symbolic divisor still makes a symbolic factor.
    let mut symbolic = cmds;
    symbolic.insert(
        0,
        Command::DeclareConst {
            name: "s".into(),
            sort: Sexp::bv_sort(64),
        },
    );
    if let Command::DefineConst { value, .. } = &mut symbolic[2] {
        *value = parse_sexp("(bvmul i ((_ extract 31 0) (bvudiv #x0000000000000010 s)))");
    }
    assert!(relax_script(symbolic).is_some());
}

/// A division chain by literals (llm.c's `b = i / (T*V)`, `t = (i / V) % T`, `v = i % V`):
/// the relaxation relates `(i / 3) / 5` to `i / 15` ([`nonlinear::products::chain_lemmas`]),
/// signed and unsigned, and then proves from its lemmas alone that `b*15 + t*3 + v = i` for a
/// non-negative `i`. Every lemma holds for exact 8-bit arithmetic (z3 finds no value that
/// breaks one); without the whole division `i / 15` there is no chain and no relaxation.
#[test]
fn division_chains_by_literals_rebuild_the_index() {
    for signed in [true, false] {
        let (s, div, rem, le) = if signed {
            ("s", "bvsdiv", "bvsrem", "bvsle")
        } else {
            ("u", "bvudiv", "bvurem", "bvule")
        };
        let mut cmds = vec![Command::DeclareConst {
            name: "i".into(),
            sort: Sexp::bv_sort(8),
        }];
        let define = |name: &str, value: String| Command::DefineConst {
            name: name.into(),
            sort: Sexp::bv_sort(8),
            value: parse_sexp(&value),
        };
        cmds.push(define("t", format!("({rem} ({div} i #x03) #x05)")));
        cmds.push(define("v", format!("({rem} i #x03)")));
        let whole = define("b", format!("({div} i (bvmul #x05 #x03))"));
        let goal = Command::Assert(parse_sexp(&format!(
            "(and ({le} #x00 i) (not (= i (bvadd (bvadd (bvmul b #x0f) (bvmul t #x03)) v))))"
        )));
        assert!(
            relax_script(vec![cmds[0].clone(), cmds[1].clone(), cmds[2].clone(), goal.clone()]).is_none(),
            "no chain without i / 15"
        );
        cmds.push(whole);
        cmds.push(goal);
        let r = relax_script(cmds).expect("a division chain");
        let text = script_text(&r.script.commands, &[]);
        // The lemmas: the implications, and the chains' equalities.
        let lemmas: Vec<String> = r
            .script
            .commands
            .iter()
            .filter_map(|c| match c {
                Command::Assert(t) if t.to_string().starts_with("(=>") || t.to_string().starts_with("(= (nl.") => {
                    Some(t.to_string())
                }
                _ => None,
            })
            .collect();
        let chain = format!("(= (nl.{s}div8 (nl.{s}div8 i #x03) #x05) (nl.{s}div8 i (bvmul #x05 #x03)))");
        assert!(lemmas.contains(&chain), "{text}");
        assert_eq!(z3_says(&text), "unsat", "signed={signed}\n{text}");
        let mut check = String::from("(set-logic QF_BV)\n");
        for (name, op) in [("mul", "bvmul"), (&format!("{s}div"), div), (&format!("{s}rem"), rem)] {
            check.push_str(&format!(
                "(define-fun nl.{name}8 ((x (_ BitVec 8)) (y (_ BitVec 8))) (_ BitVec 8) ({op} x y))\n"
            ));
        }
        check.push_str("(declare-const i (_ BitVec 8))\n");
        check.push_str(&format!(
            "(define-fun t () (_ BitVec 8) ({rem} ({div} i #x03) #x05))\n\
             (define-fun v () (_ BitVec 8) ({rem} i #x03))\n\
             (define-fun b () (_ BitVec 8) ({div} i #x0f))\n"
        ));
        check.push_str(&format!("(assert (not (and {})))\n(check-sat)\n", lemmas.join(" ")));
        assert_eq!(z3_says(&check), "unsat", "signed={signed}\n{check}");
    }
}

/// A product with a factor that is a multiple of a power of two keeps that factor's zero low
/// bits when relaxed (`Product::low_zeros`): a grid-stride loop over tokens split by
/// `threadIdx.z`, `t = 2*b + z + it*(g*2)` (llm.c's `fused_residual_forward_kernel6`), has the
/// parity of `z` in every iteration, so two threads of one block at the same iteration pass the
/// test `t < N` alike for an even `N` (no barrier divergence). The lemma is valid: z3 finds no
/// 6-bit values that break it with `nl.mul6` as multiplication.
#[test]
fn a_product_with_an_even_factor_is_even_when_relaxed() {
    let bv6 = Sexp::bv_sort(6);
    let mut cmds: Vec<Command> = ["it", "g", "b", "z1", "z2"]
        .iter()
        .map(|n| Command::DeclareConst {
            name: (*n).into(),
            sort: bv6.clone(),
        })
        .collect();
    cmds.push(Command::DefineConst {
        name: "step".into(),
        sort: bv6.clone(),
        value: parse_sexp("(bvmul g #b000010)"),
    });
    for (t, z) in [("t1", "z1"), ("t2", "z2")] {
        cmds.push(Command::DefineConst {
            name: t.into(),
            sort: bv6.clone(),
            value: parse_sexp(&format!("(bvadd (bvadd (bvmul b #b000010) {z}) (bvmul it step))")),
        });
    }
    let r = relax_script(cmds).expect("a symbolic product");
    let text = script_text(&r.script.commands, &[]);
    assert!(
        text.contains("(assert (= ((_ extract 0 0) (nl.mul6 step it)) #b0))"),
        "{text}"
    );
    // Divergence at N = 32: thread z1 = 0 passes `t < 32`, thread z2 = 1 does not.
    let diverge = parse_sexp("(and (= z1 #b000000) (= z2 #b000001) (bvult t1 #b100000) (not (bvult t2 #b100000)))");
    assert_eq!(z3_says(&script_text(&r.script.commands, &[diverge])), "unsat", "{text}");
    // At N = 33 the same threads diverge.
    let odd = parse_sexp("(and (= z1 #b000000) (= z2 #b000001) (bvult t1 #b100001) (not (bvult t2 #b100001)))");
    assert_eq!(z3_says(&script_text(&r.script.commands, &[odd])), "sat", "{text}");
    // The lemma holds of multiplication.
    let mut check = String::from("(set-logic QF_BV)\n");
    check.push_str("(declare-const it (_ BitVec 6))\n(declare-const g (_ BitVec 6))\n");
    check.push_str("(assert (not (= ((_ extract 0 0) (bvmul it (bvmul g #b000010))) #b0)))\n(check-sat)\n");
    assert_eq!(z3_says(&check), "unsat");
}
