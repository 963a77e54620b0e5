//! What a query may assume: preferred conditions, `--no-overflow`, launch contracts' signed
//! no-overflow, and `--check-overflow`.

use super::*;

/// [`EncodeOptions::preferred`] changes no answer: the script and every check are those of
/// the encoding without it (its definitions come last), and the term, asserted, means the
/// condition. Relaxed, its products stay out of the script ([`nonlinear::Preferred`]).
#[test]
fn preferred_conditions_are_a_term_apart() {
    let bid = || Expr::Builtin(Builtin::BlockIdx(Dim::X));
    let bdim = || Expr::Builtin(Builtin::BlockDim(Dim::X));
    let gdim = || Expr::Builtin(Builtin::GridDim(Dim::X));
    // a[blockIdx.x * blockDim.x + threadIdx.x] = 0, global.
    let k = kernel(Space::Global, |_| {
        let i = bin(BinOp::Add, bin(BinOp::Mul, bid(), bdim(), Ty::U32), tid(), Ty::U32);
        vec![st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: off(i),
                value: Expr::int(0, Ty::I32),
                ty: Ty::I32,
            },
            3,
        )]
    });
    let symbolic = Geometry {
        block_dim: [None, Some(1), Some(1)],
        grid_dim: [None, Some(1), Some(1)],
    };
    let wide = |e: Expr| Expr::Cast {
        arg: Box::new(e),
        ty: Ty::Int {
            bits: 64,
            signed: false,
        },
    };
    let u64 = Ty::Int {
        bits: 64,
        signed: false,
    };
    // blockDim.x is a power of two, and gridDim.x * blockDim.x <= 2^31 without wrapping.
    let pow2 = bin(
        BinOp::Eq,
        bin(
            BinOp::BitAnd,
            bdim(),
            bin(BinOp::Sub, bdim(), Expr::int(1, Ty::U32), Ty::U32),
            Ty::U32,
        ),
        Expr::int(0, Ty::U32),
        Ty::Bool,
    );
    let fits = bin(
        BinOp::Le,
        bin(BinOp::Mul, wide(gdim()), wide(bdim()), u64),
        Expr::int(1 << 31, u64),
        Ty::Bool,
    );
    let plain = encode(&k, &symbolic);
    let opts = EncodeOptions {
        preferred: vec![pow2, fits],
        barrier_access_checks: true,
        only_intra_group: false,
        ..Default::default()
    };
    let with = encode_with(&k, &symbolic, &opts);
    assert!(plain.preferred.is_none());
    let term = with.preferred.clone().expect("a preferred term");
    assert_eq!(
        plain.script.commands,
        with.script.commands[..plain.script.commands.len()]
    );
    assert!(
        with.script.commands[plain.script.commands.len()..]
            .iter()
            .all(|c| !matches!(c, Command::Assert(_))),
        "only definitions follow"
    );
    let queries = |e: &Encoded| e.checks.iter().map(|c| c.query.assertions.clone()).collect::<Vec<_>>();
    assert_eq!(queries(&plain), queries(&with));
    // Not asserted by the script: blockDim.x = 3 is a launch; under the term it is not.
    let three = Query {
        unpinned: 0,
        name: "three".into(),
        assertions: vec![app("=", vec![atom("blockDim.x"), bvn(3, 32)])],
        get_values: Vec::new(),
    };
    assert!(z3_says(&render(&with, &three)).starts_with("sat"));
    let mut preferred = three.clone();
    preferred.assertions.push(term);
    assert!(z3_says(&render(&with, &preferred)).starts_with("unsat"));
    // The relaxation: the same script assertions; the 64-bit product of the term is its own.
    let (rp, rw) = (
        nonlinear::relax(&plain).expect("products"),
        nonlinear::relax(&with).expect("products"),
    );
    let asserts = |s: &Script| {
        s.commands
            .iter()
            .filter(|c| matches!(c, Command::Assert(_)))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(asserts(&rp.script), asserts(&rw.script));
    let p = rw.preferred.expect("relaxed preferred term");
    assert!(p.term.to_string().contains("nl.mul64"), "{}", p.term);
    assert!(rp.preferred.is_none());
}

#[test]
fn no_overflow_conditions_of_the_program_are_asserted_where_the_thread_is() {
    // a[tid * 3 + 2 * 3] = 0 under --no-overflow.
    let u = Ty::U32;
    let index = bin(
        BinOp::Add,
        bin(BinOp::Mul, tid(), Expr::int(3, u), u),
        bin(BinOp::Mul, Expr::int(2, u), Expr::int(3, u), u),
        u,
    );
    let k = kernel(Space::Shared, |_| {
        vec![st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: off(index),
                value: Expr::int(0, Ty::I32),
                ty: Ty::I32,
            },
            3,
        )]
    });
    let opts = EncodeOptions {
        no_overflow: true,
        ..Default::default()
    };
    let e = encode_with(&k, &block64(), &opts);
    // No chain of assumptions: each condition is asserted, guarded by the thread's path.
    let defined: Vec<&str> = e
        .script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::DefineConst { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert!(!defined.iter().any(|n| n.contains("assumed")), "{defined:?}");
    let guarded: Vec<String> = asserted(&e)
        .into_iter()
        .filter(|t| t.contains("#x00000003") || t.contains("#x55555555"))
        .collect();
    for th in ["t1", "t2"] {
        let mine: Vec<&String> = guarded
            .iter()
            .filter(|t| t.contains(&format!("{th}.threadIdx.x")))
            .collect();
        // `tid * 3` and the sum, each once (the thread is always here: no guard); the literal
        // product folds to 6, and the byte offset of a widened index cannot wrap.
        assert_eq!(mine.len(), 2, "{th}: {guarded:#?}");
        assert!(mine[0].starts_with("(bvule "), "{th}: {guarded:#?}");
    }
    assert!(!guarded.iter().any(|t| t.contains("#x00000002")), "{guarded:#?}");
    // The conditions only leave out wrapping threads: the disjoint writes still verify.
    for c in &e.checks {
        let out = z3_says(&render(&e, &c.query));
        assert!(out.starts_with("unsat"), "{}: {out}", c.query.name);
    }
}

/// `a[tid] = x < 100 ? x * K : 0` with `x = (int)tid` and `K` a literal, the product recorded as
/// the kernel's one source-level signed operation, and an unsigned `tid * 7` that is not one.
fn select_of_a_signed_product(k_value: i64) -> crate::ir::Kernel {
    let i = Ty::I32;
    kernel(Space::Shared, |k| {
        let x = k.new_var("x", i);
        let xv = Expr::Var { id: x, ty: i };
        let product = bin(BinOp::Mul, xv.clone(), Expr::int(k_value, i), i);
        k.signed_ops.push(crate::ir::SignedOp {
            expr: product.clone(),
            span: sp(3),
            text: "x * K".into(),
        });
        let value = Expr::Select {
            cond: Box::new(bin(BinOp::Lt, xv, Expr::int(100, i), Ty::Bool)),
            then: Box::new(product),
            els: Box::new(Expr::int(0, i)),
            ty: i,
        };
        let unsigned = bin(BinOp::Mul, tid(), Expr::int(7, Ty::U32), Ty::U32);
        vec![
            st(
                StmtKind::Assign {
                    var: x,
                    value: Expr::Cast {
                        arg: Box::new(tid()),
                        ty: i,
                    },
                },
                2,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(bin(BinOp::Rem, unsigned, Expr::int(64, Ty::U32), Ty::U32)),
                    value,
                    ty: i,
                },
                3,
            ),
        ]
    })
}

#[test]
fn signed_no_overflow_is_asserted_for_source_operations_where_they_are_evaluated() {
    let k = select_of_a_signed_product(1000);
    let opts = EncodeOptions {
        signed_no_overflow: vec![0],
        ..Default::default()
    };
    let e = encode_with(&k, &block64(), &opts);
    let asserted = asserted(&e);
    // One condition per thread, on the product by the literal 1000: `x` within
    // ±2147483647 / 1000 (#x0020c49b), conditioned on the select's arm (`x < 100`,
    // #x00000064); none on the unsigned `tid * 7`.
    let product: Vec<&String> = asserted.iter().filter(|t| t.contains("#x0020c49b")).collect();
    assert_eq!(product.len(), 2, "{asserted:#?}");
    for t in &product {
        assert!(t.starts_with("(=> (bvslt ") && t.contains("#x00000064"), "{t}");
    }
    assert!(!asserted.iter().any(|t| t.contains("#x00000007")), "{asserted:#?}");
    // Without the option the script asserts nothing of the product.
    let plain = encode_with(&k, &block64(), &EncodeOptions::pair());
    assert!(
        !plain
            .script
            .commands
            .iter()
            .any(|c| matches!(c, Command::Assert(t) if t.to_string().contains("#x0020c49b"))),
    );
}

/// The probe [`crate::encode::SIGNED_OK`]: made while no signed assumption is, kept out of the
/// dumped commands, asked last and unpinned by every check that reads a model, and true in a
/// model exactly when no thread there evaluates a source operation that overflows.
#[test]
fn the_signed_probe_says_whether_a_model_overflows() {
    use crate::encode::SIGNED_OK;
    let probe_is = |k_value: i64| -> (String, String) {
        let e = encode_with(&select_of_a_signed_product(k_value), &block64(), &EncodeOptions::pair());
        assert!(
            !e.script
                .commands
                .iter()
                .any(|c| matches!(c, Command::DefineConst { name, .. } if name == SIGNED_OK)),
            "the probe is not part of the formula"
        );
        let [Command::DefineConst { name, value, .. }] = &e.script.probes[..] else {
            panic!("one probe: {:?}", e.script.probes);
        };
        assert_eq!(name, SIGNED_OK);
        for c in e.checks.iter().filter(|c| !c.query.get_values.is_empty()) {
            assert_eq!(c.query.get_values.last(), Some(&atom(SIGNED_OK)), "{}", c.query.name);
            assert_eq!(c.query.unpinned, 1, "{}", c.query.name);
        }
        let defined = |q: &Query| {
            let text = render(&e, q);
            let (head, tail) = text.split_at(text.find("(assert").unwrap_or(text.find("(check-sat)").unwrap()));
            format!("{head}(define-fun {SIGNED_OK} () Bool {value})\n{tail}")
        };
        let ask = |holds: bool| {
            let term = if holds {
                atom(SIGNED_OK)
            } else {
                app("not", vec![atom(SIGNED_OK)])
            };
            let q = Query {
                name: "probe".into(),
                assertions: vec![term],
                ..Default::default()
            };
            z3_says(&defined(&q))
        };
        (ask(true), ask(false))
    };
    // x < 64 and x < 100: x * 1000 fits in every model.
    let (holds, fails) = probe_is(1000);
    assert!(
        holds.starts_with("sat") && fails.starts_with("unsat"),
        "{holds} {fails}"
    );
    // x * 100000000 overflows for 22 <= x < 64: some models overflow, others not.
    let (holds, fails) = probe_is(100_000_000);
    assert!(holds.starts_with("sat") && fails.starts_with("sat"), "{holds} {fails}");
    // Under the assumption itself (or --no-overflow) there is no probe.
    let assumed = EncodeOptions {
        signed_no_overflow: vec![0],
        ..Default::default()
    };
    let e = encode_with(&select_of_a_signed_product(1000), &block64(), &assumed);
    assert!(e.script.probes.is_empty());
    assert!(e.checks.iter().all(|c| c.query.unpinned == 0));
}

#[test]
fn check_overflow_asks_one_query_per_source_operation() {
    let opts = EncodeOptions {
        check_overflow: true,
        ..Default::default()
    };
    let overflow_checks = |e: &Encoded| -> Vec<String> {
        e.checks
            .iter()
            .filter(|c| matches!(c.property, Property::SignedOverflow { op: 0, .. }))
            .map(|c| z3_says(&render(e, &c.query)))
            .collect()
    };
    // x < 64 and x < 100: x * 1000 fits.
    let fits = encode_with(&select_of_a_signed_product(1000), &block64(), &opts);
    let answers = overflow_checks(&fits);
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(answers[0].starts_with("unsat"), "{answers:?}");
    // x * 100000000 overflows for x >= 22, which the arm x < 100 allows.
    let wraps = encode_with(&select_of_a_signed_product(100_000_000), &block64(), &opts);
    let answers = overflow_checks(&wraps);
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(answers[0].starts_with("sat"), "{answers:?}");
}

/// The script's assertions, as text.
fn asserted(e: &Encoded) -> Vec<String> {
    e.script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Assert(t) => Some(t.to_string()),
            _ => None,
        })
        .collect()
}
