//! Races, benign races, barrier divergence and atomics.

use super::*;

#[test]
fn disjoint_writes_verify() {
    // a[tid] = 0
    let k = kernel(Space::Shared, |_| {
        vec![st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: off(tid()),
                value: Expr::int(0, Ty::I32),
                ty: Ty::I32,
            },
            3,
        )]
    });
    let r = answers(&k, &block64());
    // The race check and its harmful variant (both threads write 0).
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r.iter().all(|x| !x.1), "{r:?}");
}

/// `a[0] = value` by every thread.
fn store_zero_index(value: Expr) -> Kernel {
    kernel(Space::Shared, |_| {
        vec![st(
            StmtKind::Store {
                array: ArrayId(0),
                offset: off(Expr::int(0, Ty::U32)),
                value,
                ty: Ty::I32,
            },
            3,
        )]
    })
}

#[test]
fn same_value_writes_race_only_benignly() {
    // a[0] = 1: a race, no harmful one.
    let k = store_zero_index(Expr::int(1, Ty::I32));
    let e = encode(&k, &block64());
    assert!(matches!(e.checks[0].property, Property::Race { .. }) && e.checks[0].benign);
    assert!(matches!(e.checks[1].property, Property::HarmfulRace { .. }));
    let r = answers(&k, &block64());
    assert_eq!(
        r,
        [
            ("k.race.a.seg0.L3".to_string(), true),
            ("k.race.a.seg0.L3.harmful".to_string(), false)
        ]
    );
    // a[0] = tid & 1: threads of different parity write different values.
    let parity = bin(BinOp::BitAnd, tid(), Expr::int(1, Ty::U32), Ty::U32);
    let k = store_zero_index(Expr::Cast {
        arg: Box::new(parity),
        ty: Ty::I32,
    });
    assert_eq!(answers(&k, &block64()).iter().filter(|x| x.1).count(), 2);
    // Without benign races, or in a kernel that calls a function without a body, there is
    // no harmful variant.
    let k = store_zero_index(Expr::int(1, Ty::I32));
    let strict = EncodeOptions {
        benign: Benign::Off,
        ..Default::default()
    };
    let e = encode_with(&k, &block64(), &strict);
    assert_eq!(e.checks.len(), 1);
    assert!(!e.checks[0].benign);
    let mut k = store_zero_index(Expr::Opaque {
        name: "clock".into(),
        args: vec![],
        ty: Ty::I32,
    });
    k.uninterpreted.push("clock".into());
    k.impure.push("clock".into());
    assert_eq!(encode(&k, &block64()).checks.len(), 1);
}

#[test]
fn copied_value_is_benign_only_under_the_equality_abstraction() {
    // v = a[1]; a[0] = v: both threads copy one location, so they write one value, which
    // GPUVerify's default (adversarial) abstraction does not know.
    let k = kernel(Space::Shared, |k| {
        let v = k.new_var("v", Ty::I32);
        vec![
            st(
                StmtKind::Load {
                    dst: v,
                    array: ArrayId(0),
                    offset: off(Expr::int(1, Ty::U32)),
                    ty: Ty::I32,
                },
                3,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(Expr::int(0, Ty::U32)),
                    value: Expr::Var { id: v, ty: Ty::I32 },
                    ty: Ty::I32,
                },
                4,
            ),
        ]
    });
    let e = encode(&k, &block64());
    assert_eq!(e.checks.len(), 1, "no harmful variant: the value is read");
    let equality = EncodeOptions {
        benign: Benign::Equality,
        ..Default::default()
    };
    let e = encode_with(&k, &block64(), &equality);
    assert_eq!(e.checks.len(), 2);
    assert!(matches!(e.checks[1].property, Property::HarmfulRace { .. }));
    let harmful = z3_says(&render(&e, &e.checks[1].query));
    assert!(harmful.starts_with("unsat"), "{harmful}");
}

#[test]
fn atomic_and_plain_write_race_is_never_benign() {
    // atomicExch(&a[0], 1) and a[0] = 1: what an atomic writes is not compared.
    let k = kernel(Space::Shared, |_| {
        vec![
            st(
                StmtKind::Atomic {
                    op: AtomicOp::Exch,
                    scope: crate::ir::AtomicScope::Device,
                    dst: None,
                    array: ArrayId(0),
                    offset: off(Expr::int(0, Ty::U32)),
                    operands: vec![Expr::int(1, Ty::I32)],
                    ty: Ty::I32,
                },
                3,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(Expr::int(0, Ty::U32)),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                4,
            ),
        ]
    });
    let e = encode(&k, &block64());
    // The plain write races with itself benignly, and with the atomic harmfully.
    let r = answers(&k, &block64());
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r.iter().all(|x| x.1), "{r:?}");
    assert!(matches!(e.checks[1].property, Property::HarmfulRace { .. }));
}

#[test]
fn neighbour_read_races_without_barrier_and_not_with_it() {
    for with_barrier in [false, true] {
        let k = kernel(Space::Shared, |k| {
            let v = k.new_var("v", Ty::I32);
            let mut b = vec![st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(tid()),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                3,
            )];
            if with_barrier {
                b.push(st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 4));
            }
            b.push(load_next(v, 5));
            b
        });
        let r = answers(&k, &block64());
        assert_eq!(r.iter().any(|x| x.1), !with_barrier, "{r:?}");
    }
}

#[test]
fn global_array_races_across_blocks_despite_barrier() {
    // a[tid] = 1; __syncthreads(); v = a[tid + 1];  global: blocks are not ordered.
    let k = kernel(Space::Global, |k| {
        let v = k.new_var("v", Ty::I32);
        vec![
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(tid()),
                    value: Expr::int(1, Ty::I32),
                    ty: Ty::I32,
                },
                3,
            ),
            st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 4),
            load_next(v, 5),
        ]
    });
    let r = answers(&k, &block64());
    assert!(r.iter().any(|x| x.0.contains("cross") && x.1), "{r:?}");
    // With one block the barrier orders them.
    let one = Geometry {
        block_dim: [Some(64), Some(1), Some(1)],
        grid_dim: [Some(1); 3],
    };
    assert!(answers(&k, &one).iter().all(|x| !x.1));
}

#[test]
fn barrier_under_thread_dependent_condition_diverges() {
    for (cond, diverges) in [
        (bin(BinOp::Lt, tid(), Expr::int(16, Ty::U32), Ty::Bool), true),
        (
            bin(
                BinOp::Lt,
                Expr::Builtin(Builtin::BlockIdx(Dim::X)),
                Expr::int(2, Ty::U32),
                Ty::Bool,
            ),
            false,
        ),
    ] {
        let k = kernel(Space::Shared, |_| {
            vec![st(
                StmtKind::If {
                    cond,
                    then: vec![st(StmtKind::Barrier(BarrierScope::Block, crate::ir::Fences::ALL), 4)],
                    els: vec![],
                },
                3,
            )]
        });
        let r = answers(&k, &block64());
        assert_eq!(r, vec![("k.divergence.L4".to_string(), diverges)]);
    }
}

#[test]
fn char_view_overlaps_int_view() {
    // ((int*)a)[tid] = 0 and ((char*)a)[tid] = 0: thread 0's int covers bytes 0..3 = thread 1's char.
    let k = kernel(Space::Shared, |_| {
        let byte_off = Expr::Cast {
            arg: Box::new(tid()),
            ty: Ty::I64,
        };
        let c8 = Ty::Int { bits: 8, signed: true };
        vec![
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: off(tid()),
                    value: Expr::int(0, Ty::I32),
                    ty: Ty::I32,
                },
                3,
            ),
            st(
                StmtKind::Store {
                    array: ArrayId(0),
                    offset: byte_off,
                    value: Expr::int(0, c8),
                    ty: c8,
                },
                4,
            ),
        ]
    });
    assert!(answers(&k, &block64()).iter().any(|x| x.1));
}

#[test]
fn early_return_guards_later_accesses() {
    // if (tid != 0) return; a[0] = 1;  only thread 0 writes: no race.
    let k = kernel(Space::Shared, |_| {
        vec![
            st(
                StmtKind::If {
                    cond: bin(BinOp::Ne, tid(), Expr::int(0, Ty::U32), Ty::Bool),
                    then: vec![st(StmtKind::Return, 3)],
                    els: vec![],
                },
                3,
            ),
            store_one_at_zero(4),
        ]
    });
    assert!(answers(&k, &block64()).iter().all(|x| !x.1));
}

#[test]
fn scalar_parameter_is_uniform() {
    // a[tid + n] = 0 with n a parameter: both threads see the same n, so no race.
    let mut k = kernel(Space::Shared, |_| vec![]);
    let n = k.new_var("n", Ty::U32);
    k.params.push(Param {
        name: "n".into(),
        kind: crate::ir::ParamKind::Scalar(n),
    });
    let idx = bin(BinOp::Add, tid(), Expr::Var { id: n, ty: Ty::U32 }, Ty::U32);
    k.body = vec![st(
        StmtKind::Store {
            array: ArrayId(0),
            offset: off(idx),
            value: Expr::int(0, Ty::I32),
            ty: Ty::I32,
        },
        3,
    )];
    assert!(answers(&k, &block64()).iter().all(|x| !x.1));
}

#[test]
fn atomics_do_not_race_with_each_other() {
    let k = kernel(Space::Shared, |_| {
        vec![st(
            StmtKind::Atomic {
                op: AtomicOp::Add,
                scope: crate::ir::AtomicScope::Device,
                dst: None,
                array: ArrayId(0),
                offset: Expr::int(0, Ty::I64),
                operands: vec![Expr::int(1, Ty::I32)],
                ty: Ty::I32,
            },
            3,
        )]
    });
    let e = encode(&k, &block64());
    assert!(e.checks.is_empty());
    assert_eq!(e.notes.len(), 1);
}

/// Issue 22: `atomicAdd_block(&a[0], 1)` by every thread. Block scope orders only the threads
/// of one block: on a global array two blocks race (and the witness's blocks differ), within
/// one block they do not; a `__shared__` array is one block's, so it never races; device scope
/// never races.
#[test]
fn block_scope_atomics_race_across_blocks_only() {
    use crate::ir::AtomicScope;
    let bump = |space: Space, scope: AtomicScope| {
        kernel(space, |_| {
            vec![st(
                StmtKind::Atomic {
                    op: AtomicOp::Add,
                    scope,
                    dst: None,
                    array: ArrayId(0),
                    offset: Expr::int(0, Ty::I64),
                    operands: vec![Expr::int(1, Ty::I32)],
                    ty: Ty::I32,
                },
                3,
            )]
        })
    };
    let one_block = Geometry {
        block_dim: [Some(64), Some(1), Some(1)],
        grid_dim: [Some(1), Some(1), Some(1)],
    };
    let global = bump(Space::Global, AtomicScope::Block);
    assert_eq!(answers(&global, &block64()), [("k.race.a.seg0.L3".to_string(), true)]);
    assert_eq!(answers(&global, &one_block), [("k.race.a.seg0.L3".to_string(), false)]);
    // The witness: two blocks, and the scope named.
    let e = encode(&global, &block64());
    let text = render(&e, &e.checks[0].query).replace("(check-sat)\n", "");
    let model = z3_model(&text, &e.checks[0].query.get_values);
    let f = e.checks[0].finding(&global, &model);
    assert_ne!(f.accesses[0].block, f.accesses[1].block, "{f:?}");
    let reason = f.reason.expect("a reason");
    assert!(
        reason.starts_with("atomicAdd_block by blocks")
            && reason.ends_with("block scope does not order threads of different blocks"),
        "{reason}"
    );
    assert!(
        encode(&bump(Space::Shared, AtomicScope::Block), &block64())
            .checks
            .is_empty()
    );
    assert!(
        encode(&bump(Space::Global, AtomicScope::Device), &block64())
            .checks
            .is_empty()
    );
    assert!(
        encode(&bump(Space::Global, AtomicScope::System), &block64())
            .checks
            .is_empty()
    );
}
