//! Abstracted loops: closed forms and their step checks, iterations of two threads.

use super::*;

/// `while (i < n) { a[i] = 0; i += 2; }` abstracted with the closed form `claimed` for `i`.
fn loop_with_closed_form(claimed: crate::ir::ClosedForm) -> Kernel {
    let mut k = kernel(Space::Global, |_| vec![]);
    let i = k.new_var("i", Ty::U32);
    let n = k.new_var("n", Ty::U32);
    let brk = k.new_block();
    let cont = k.new_block();
    let iv = Expr::Var { id: i, ty: Ty::U32 };
    let abs = crate::ir::AbstractLoop {
        cond_stmts: vec![],
        cond: bin(BinOp::Lt, iv.clone(), Expr::Var { id: n, ty: Ty::U32 }, Ty::Bool),
        body: vec![
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(iv.clone()),
                    value: Expr::int(0, Ty::I32),
                    ty: Ty::I32,
                },
                5,
            ),
            st(
                StmtKind::Assign {
                    var: i,
                    value: bin(BinOp::Add, iv, Expr::int(2, Ty::U32), Ty::U32),
                },
                6,
            ),
        ],
        step: vec![],
        do_while: false,
        brk,
        cont,
        closed: vec![(i, claimed)],
        havocked: vec![],
        written: vec![ArrayId(0)],
        barriers: Some(0),
        invariants: vec![],
    };
    k.body = vec![
        st(StmtKind::Havoc { var: n }, 3),
        st(StmtKind::Assign { var: i, value: tid() }, 4),
        st(StmtKind::AbstractLoop(Box::new(abs)), 4),
    ];
    k
}

#[test]
fn closed_form_step_check_accepts_the_right_stride() {
    let k = loop_with_closed_form(crate::ir::ClosedForm::Linear(Expr::int(2, Ty::U32)));
    let r = answers(&k, &block64());
    let step: Vec<_> = r.iter().filter(|(n, _)| n.contains(".loop.")).collect();
    assert_eq!(step, vec![&("k.loop.L4.i".to_string(), false)]);
}

#[test]
fn closed_form_step_check_rejects_a_wrong_rule() {
    // Claiming `i = i0 + it` for `i += 2` fails the step check (sat), so the driver havocs `i`.
    let k = loop_with_closed_form(crate::ir::ClosedForm::Linear(Expr::int(1, Ty::U32)));
    let r = answers(&k, &block64());
    assert!(r.contains(&("k.loop.L4.i".to_string(), true)), "{r:?}");
}

#[test]
fn threads_in_different_iterations_race_without_a_barrier() {
    // With stride 1 instead of 2 the threads' ranges interleave: i = t1 + a = t2 + b.
    let mut k = loop_with_closed_form(crate::ir::ClosedForm::Linear(Expr::int(1, Ty::U32)));
    let StmtKind::AbstractLoop(l) = &mut k.body[2].kind else {
        panic!("loop")
    };
    let iv = Expr::Var {
        id: l.closed[0].0,
        ty: Ty::U32,
    };
    l.body[1].kind = StmtKind::Assign {
        var: l.closed[0].0,
        value: bin(BinOp::Add, iv, Expr::int(1, Ty::U32), Ty::U32),
    };
    let r = answers(&k, &block64());
    assert!(r.iter().any(|(n, sat)| n.starts_with("k.race.a") && *sat), "{r:?}");
    // Stride 2 races too: thread 0's second element is thread 2's first.
    let k2 = loop_with_closed_form(crate::ir::ClosedForm::Linear(Expr::int(2, Ty::U32)));
    assert!(
        answers(&k2, &block64())
            .iter()
            .any(|(n, sat)| n.starts_with("k.race.a") && *sat)
    );
}

#[test]
fn a_later_assumption_cannot_hide_an_earlier_race() {
    // a[0] = tid; __assume(false);  the race happens before the assumption blocks the path.
    let k = kernel(Space::Shared, |_| {
        vec![
            store_one_at_zero(3),
            st(
                StmtKind::Assume {
                    cond: Expr::bool(false),
                },
                4,
            ),
        ]
    });
    assert!(answers(&k, &block64()).iter().any(|x| x.1));
    // An assumption before the access does restrict it: only thread 0 writes.
    let k = kernel(Space::Shared, |_| {
        vec![
            st(
                StmtKind::Assume {
                    cond: bin(BinOp::Eq, tid(), Expr::int(0, Ty::U32), Ty::Bool),
                },
                3,
            ),
            store_one_at_zero(4),
        ]
    });
    assert!(answers(&k, &block64()).iter().all(|x| !x.1));
}

/// The step checks compare the body's effect with one step of the rule from the value at `it`
/// (`Encoder::one_step`) rather than with the closed form at `it + 1`; the two are the same
/// term for every rule, width and signedness, for any entry value, stride and `it < 2^48`.
#[test]
fn closed_form_next_is_one_step() {
    use crate::ir::ClosedForm;
    for (bits, signed) in [(8, false), (8, true), (32, false), (32, true), (64, false), (64, true)] {
        let ty = Ty::Int { bits, signed };
        let w = ty.bits();
        let mut k = kernel(Space::Global, |_| vec![]);
        let v = k.new_var("v", ty);
        let stride = k.new_var("k", ty);
        let g = block64();
        for cf in [
            ClosedForm::Linear(Expr::Var { id: stride, ty }),
            ClosedForm::Halving,
            ClosedForm::Doubling,
        ] {
            let mut e = Encoder::new(&k, &g, &EncodeOptions::pair());
            let mut ts = e.initial_states().remove(0);
            e.havoc(stride, &mut ts, 0);
            let v0 = atom("v0");
            let it = atom("it");
            let next = app("bvadd", vec![it.clone(), bvn(1, 64)]);
            let at_it = e.closed_value(v, &cf, v0.clone(), &it, &mut ts, 0);
            let at_next = e.closed_value(v, &cf, v0, &next, &mut ts, 0);
            let step = e.one_step(v, &cf, at_it, &mut ts, 0);
            let mut text = String::from("(set-logic QF_ABV)\n");
            for c in e.decls.iter().chain(e.cmds.iter()) {
                if !matches!(c, Command::Assert(_)) {
                    text.push_str(&format!("{c}\n"));
                }
            }
            text.push_str(&format!(
                "(declare-const v0 (_ BitVec {w}))\n(declare-const it (_ BitVec 64))\n\
                 (assert (bvult it #x0001000000000000))\n(assert (not (= {at_next} {step})))\n(check-sat)\n"
            ));
            assert_eq!(z3_says(&text), "unsat", "{ty:?} {cf:?}\n{text}");
        }
    }
}
