//! Front-end tests of `memcpy` and `memset` (`lower/calls/memory_calls.rs`).

use super::*;

/// The (kind, array, offset) of each load and store of `body`, in order, with the access type.
fn accesses(k: &Kernel, body: &[Stmt]) -> Vec<String> {
    body.iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Load { array, offset, ty, .. } => Some(format!(
                "load {}[{}] {}",
                k.array(*array).name,
                ex(k, offset),
                ty.bits()
            )),
            StmtKind::Store { array, offset, ty, .. } => Some(format!(
                "store {}[{}] {}",
                k.array(*array).name,
                ex(k, offset),
                ty.bits()
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn constant_length_copies_exactly_its_bytes() {
    // 5 is not a multiple of the int size.
    let k = one("__global__ void k(const char *a, int *b) {\n  memcpy(b + 1, a, sizeof(int) + 1);\n}\n");
    let b = body(&k);
    let acc = accesses(&k, &k.body);
    let mut want = Vec::new();
    for i in 0..5 {
        want.push(format!("load a[{i}] 8"));
        want.push(format!("store b[{}] 8", 4 + i));
    }
    assert_eq!(acc, want, "{b}");
    assert!(!b.contains("loop"), "{b}");
}

#[test]
fn memset_truncates_its_value_and_its_result_is_the_destination() {
    let k =
        one("__global__ void k(char *a) {\n  char *p = (char *)__builtin_memset(a + 2, 0x1ff, 2);\n  p[1] = 3;\n}\n");
    let b = body(&k);
    assert_eq!(
        accesses(&k, &k.body),
        ["store a[2] 8", "store a[3] 8", "store a[3] 8"],
        "{b}"
    );
    assert!(b.starts_with("store a[2] = 255\nstore a[3] = 255\n"), "{b}");
}

#[test]
fn long_and_symbolic_lengths_are_loops_over_the_bytes() {
    for len in ["65", "n"] {
        let src = format!("__global__ void k(const char *a, char *b, size_t n) {{\n  memcpy(b, a, {len});\n}}\n");
        let k = one(&src);
        let b = body(&k);
        let lp = k.body.iter().find_map(|s| match &s.kind {
            StmtKind::Loop { cond, body, .. } => Some((ex(&k, cond), body)),
            _ => None,
        });
        let Some((cond, lb)) = lp else { panic!("{b}") };
        assert!(cond.starts_with("(Lt $t") && cond.ends_with(&format!(" {len})")), "{b}");
        let acc = accesses(&k, lb);
        assert_eq!(acc.len(), 2, "{b}");
        assert!(acc[0].starts_with("load a[") && acc[1].starts_with("store b["), "{b}");
    }
}

#[test]
fn null_pointer_arguments_are_failing_assertions() {
    for (call, cond) in [
        ("memcpy(0, a, 4)", "assert 0"),
        ("memcpy(a, NULL, 4)", "assert 0"),
        ("memset(nullptr, 0, n)", "assert (Eq n 0)"),
        ("__builtin_memcpy((void *)0, a, n)", "assert (Eq n 0)"),
    ] {
        let src = format!("__global__ void k(char *a, size_t n) {{\n  {call};\n}}\n");
        let k = one(&src);
        let b = body(&k);
        assert_eq!(b.trim_end(), cond, "{call}: {b}");
        assert!(
            k.notes.iter().any(|n| n.contains("null pointer passed as")),
            "{:?}",
            k.notes
        );
    }
    // Nothing copied: no defect.
    let k = one("__global__ void k(char *a) {\n  memcpy(a, 0, 0);\n}\n");
    assert_eq!(body(&k), "");
}

#[test]
fn a_null_pointer_in_cuda_points_into_the_null_array() {
    // Device code names a null pointer: CUDA gets OpenCL's null array, and an access through
    // it is an assertion that fails.
    let k = one("__global__ void k(int *a) {\n  int *p = 0;\n  a[0] = *p;\n}\n");
    let b = body(&k);
    assert!(b.contains("assert 0\n$t0 = load NULL[0]\n"), "{b}");
    assert!(
        k.notes
            .iter()
            .any(|n| n.starts_with("a null pointer may be accessed (line 3)")),
        "{:?}",
        k.notes
    );
    // A kernel of a file whose device code names none has no null array.
    let k = one("__global__ void k(int *a) {\n  a[0] = 1;\n}\n");
    assert!(!k.arrays.iter().any(|a| a.name == "NULL"), "{:?}", k.arrays);
}
