//! Front-end tests: small kernels through clang and lowering.

use super::*;
use crate::ir::*;

fn lower_src(name: &str, src: &str) -> Result<Program, FrontendError> {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("gpug-fe-test-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, src).expect("write test kernel");
    load(&path, &FrontendOptions::default())
}

fn one(src: &str) -> Kernel {
    one_in("k.cu", src)
}

/// The only kernel of `src`, written to a file `name` (its extension picks the language).
fn one_in(name: &str, src: &str) -> Kernel {
    match lower_src(name, src) {
        Ok(mut p) => {
            assert_eq!(p.kernels.len(), 1, "{:#?}", p.kernels);
            p.kernels.remove(0)
        }
        Err(e) => panic!("lowering failed: {e}"),
    }
}

/// A compact rendering of an expression for assertions.
fn ex(k: &Kernel, e: &Expr) -> String {
    match e {
        Expr::Const { value, .. } => value.to_string(),
        Expr::Var { id, .. } => k.var(*id).name.clone(),
        Expr::Builtin(b) => format!("{b:?}"),
        Expr::Unary { op, arg, .. } => format!("({op:?} {})", ex(k, arg)),
        Expr::Binary { op, lhs, rhs, .. } => format!("({op:?} {} {})", ex(k, lhs), ex(k, rhs)),
        Expr::Cast { arg, ty } => format!("(cast {ty:?} {})", ex(k, arg)),
        Expr::Select { cond, then, els, .. } => format!("(ite {} {} {})", ex(k, cond), ex(k, then), ex(k, els)),
        Expr::Opaque { name, args, .. } => {
            format!(
                "({name}{})",
                args.iter().map(|a| format!(" {}", ex(k, a))).collect::<String>()
            )
        }
        Expr::Other(arg) => format!("(other {})", ex(k, arg)),
        Expr::Enabled => "enabled".into(),
    }
}

/// A compact rendering of statements, one per line, indented.
fn st(k: &Kernel, body: &[Stmt], depth: usize) -> String {
    let mut s = String::new();
    let pad = "  ".repeat(depth);
    for x in body {
        let line = match &x.kind {
            StmtKind::Assign { var, value } => format!("{} = {}", k.var(*var).name, ex(k, value)),
            StmtKind::Havoc { var } => format!("havoc {}", k.var(*var).name),
            StmtKind::Load { dst, array, offset, .. } => {
                format!(
                    "{} = load {}[{}]",
                    k.var(*dst).name,
                    k.array(*array).name,
                    ex(k, offset)
                )
            }
            StmtKind::Store {
                array, offset, value, ..
            } => {
                format!("store {}[{}] = {}", k.array(*array).name, ex(k, offset), ex(k, value))
            }
            StmtKind::Atomic {
                op,
                array,
                offset,
                operands,
                ..
            } => format!(
                "atomic {op:?} {}[{}]{}",
                k.array(*array).name,
                ex(k, offset),
                operands.iter().map(|a| format!(" {}", ex(k, a))).collect::<String>()
            ),
            StmtKind::If { cond, then, els } => {
                format!(
                    "if {}\n{}{pad}else\n{}",
                    ex(k, cond),
                    st(k, then, depth + 1),
                    st(k, els, depth + 1)
                )
            }
            StmtKind::Loop {
                cond_stmts,
                cond,
                body,
                step,
                do_while,
            } => format!(
                "loop{} cond {}\n{}{pad}body\n{}{pad}step\n{}",
                if *do_while { " do" } else { "" },
                ex(k, cond),
                st(k, cond_stmts, depth + 1),
                st(k, body, depth + 1),
                st(k, step, depth + 1)
            ),
            StmtKind::Block { id, body } => format!("block {}\n{}", id.0, st(k, body, depth + 1)),
            StmtKind::Exit(b) => format!("exit {}", b.0),
            StmtKind::Assert { cond } => format!("assert {}", ex(k, cond)),
            StmtKind::Assume { cond } => format!("assume {}", ex(k, cond)),
            StmtKind::Barrier(scope, f) => match (f.local, f.global) {
                (true, true) => format!("Barrier({scope:?})"),
                (true, false) => format!("Barrier({scope:?}, local)"),
                (false, true) => format!("Barrier({scope:?}, global)"),
                (false, false) => format!("Barrier({scope:?}, none)"),
            },
            other => format!("{other:?}"),
        };
        s.push_str(&pad);
        s.push_str(line.trim_end_matches('\n'));
        s.push('\n');
    }
    s
}

fn body(k: &Kernel) -> String {
    st(k, &k.body, 0)
}

const I64C: &str = "(cast Int { bits: 64, signed: true }";

#[test]
fn vector_add() {
    let k = one(
        "__global__ void add(const float *a, const float *b, float *c, int n) {\n\
         int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
         if (i < n) c[i] = a[i] + b[i];\n}\n",
    );
    assert_eq!(k.name, "add");
    assert_eq!(k.params.len(), 4);
    assert!(matches!(k.params[3].kind, ParamKind::Scalar(_)));
    let b = body(&k);
    let off = format!("(Mul {I64C} i) 4)");
    let expected = format!(
        "i = (cast Int {{ bits: 32, signed: true }} (Add (Mul BlockIdx(X) BlockDim(X)) ThreadIdx(X)))\n\
         if (Lt i n)\n  $t0 = load a[{off}]\n  $t1 = load b[{off}]\n  store c[{off}] = (fadd32 $t0 $t1)\nelse\n"
    );
    assert_eq!(b, expected);
    // The store's span is the subscript expression `c[i]`.
    let StmtKind::If { then, .. } = &k.body[1].kind else {
        panic!("{b}")
    };
    assert_eq!(
        (then[2].span.line, then[2].span.col, then[2].span.end_col),
        (3, 12, Some(15))
    );
    assert_eq!(k.arrays[2].space, Space::Global);
    assert_eq!(k.arrays[2].elem, Ty::Float { bits: 32 });
}

#[test]
fn shared_2d_offset() {
    let k =
        one("#define N 8\n__global__ void k() {\n  __shared__ int s[4][N];\n  s[threadIdx.y][threadIdx.x] = 1;\n}\n");
    assert_eq!(k.arrays[0].dims, vec![4, 8]);
    assert_eq!(k.arrays[0].space, Space::Shared);
    assert_eq!(
        body(&k),
        format!("store s[(Add (Mul {I64C} ThreadIdx(Y)) 32) (Mul {I64C} ThreadIdx(X)) 4))] = 1\n")
    );
}

#[test]
fn pointer_alias_offset() {
    let k = one("__global__ void k(int *a) {\n  int *p = a + 1;\n  p[threadIdx.x] = 0;\n}\n");
    assert_eq!(body(&k), format!("store a[(Add 4 (Mul {I64C} ThreadIdx(X)) 4))] = 0\n"));
}

#[test]
fn char_view_through_cast() {
    let k = one("__global__ void k(int *a) {\n  char *c = (char *)a;\n  c[threadIdx.x + 1] = 7;\n  a[0] = 1;\n}\n");
    let b = body(&k);
    assert!(
        b.contains("store a[(cast Int { bits: 64, signed: true } (Add ThreadIdx(X) 1))] = 7"),
        "{b}"
    );
    let StmtKind::Store { ty, array, .. } = &k.body[0].kind else {
        panic!("{b}")
    };
    assert_eq!((*ty, *array), (Ty::Int { bits: 8, signed: true }, ArrayId(0)));
}

#[test]
fn inlined_device_function_with_early_return() {
    let k = one(
        "__device__ int get(int *q, int i) {\n  if (i > 3) return q[i];\n  return 0;\n}\n\
         __global__ void k(int *a) {\n  a[threadIdx.x] = get(a, threadIdx.x);\n}\n",
    );
    let b = body(&k);
    let StmtKind::Block { id, body: inner } = &k.body[0].kind else {
        panic!("{b}")
    };
    let exits = inner
        .iter()
        .flat_map(|s| match &s.kind {
            StmtKind::If { then, .. } => then.iter().collect::<Vec<_>>(),
            _ => vec![s],
        })
        .filter(|s| s.kind == StmtKind::Exit(*id))
        .count();
    assert_eq!(exits, 2, "{b}");
    assert!(b.contains("get$ret = $t0"), "{b}");
    assert!(
        b.ends_with(&format!("store a[(Mul {I64C} ThreadIdx(X)) 4)] = get$ret\n")),
        "{b}"
    );
}

#[test]
fn short_circuit_load_under_if() {
    let k = one("__global__ void k(int *a, int n) {\n  int i = threadIdx.x;\n  if (i < n && a[i] > 0) a[i] = 0;\n}\n");
    let b = body(&k);
    let StmtKind::If {
        cond: Expr::Var { .. },
        then,
        ..
    } = &k.body[2].kind
    else {
        panic!("{b}")
    };
    assert!(matches!(then[0].kind, StmtKind::Load { .. }), "{b}");
}

#[test]
fn for_loop_with_invariant() {
    let k = one(
        "__global__ void k(int *a, int n) {\n  for (int j = 0; __invariant(j >= 0), j < n; j++) {\n    a[j] = j;\n  }\n}\n",
    );
    assert_eq!(
        body(&k),
        format!(
            "j = 0\nloop cond (Lt j n)\n  Invariant {{ body: [], cond: Binary {{ op: Ge, lhs: Var {{ id: VarId(1), ty: Int {{ bits: 32, signed: true }} }}, rhs: Const {{ value: 0, ty: Int {{ bits: 32, signed: true }} }}, ty: Bool }} }}\nbody\n  store a[(Mul {I64C} j) 4)] = j\nstep\n  j = (Add j 1)\n"
        )
    );
}

#[test]
fn template_instantiations() {
    let p = lower_src(
        "t.cu",
        "template <class T, unsigned B> __global__ void r(T *a) { a[threadIdx.x] = B; }\n\
         template __global__ void r<int, 4>(int *);\ntemplate __global__ void r<char, 2>(char *);\n",
    )
    .expect("lowers");
    let names: Vec<&str> = p.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, vec!["r<int, 4>", "r<char, 2>"]);
    let one = lower_src(
        "t1.cu",
        "template <int B> __global__ void r(int *a) { a[0] = B; }\ntemplate __global__ void r<3>(int *);\n",
    )
    .expect("lowers");
    assert_eq!(one.kernels[0].name, "r");
    assert_eq!(st(&one.kernels[0], &one.kernels[0].body, 0), "store a[0] = 3\n");
}

#[test]
fn kernel_selection() {
    let src = "__global__ void a(int *x) { x[0] = 1; }\n__global__ void b(int *x) { x[0] = 2; }\n";
    let dir = std::env::temp_dir().join(format!("gpug-fe-sel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("s.cu");
    std::fs::write(&path, src).expect("write");
    let opts = FrontendOptions {
        kernel: Some("b".into()),
        ..Default::default()
    };
    let p = load(&path, &opts).expect("lowers");
    assert_eq!(p.kernels.len(), 1);
    assert_eq!(p.kernels[0].name, "b");
    let opts = FrontendOptions {
        kernel: Some("zz".into()),
        ..Default::default()
    };
    assert!(matches!(load(&path, &opts), Err(FrontendError::KernelNotFound { .. })));
}

#[test]
fn atomics_barrier_assert() {
    let k = one(
        "#include <cuda.h>\n#include <assert.h>\n__global__ void k(unsigned *c) {\n  unsigned old = atomicAdd(&c[1], 2u);\n  __syncthreads();\n  assert(old < 10);\n}\n",
    );
    let b = body(&k);
    assert!(
        b.starts_with("atomic Add c[4] 2\nold = $t0\nBarrier(Block)\nassert (Lt old 10)"),
        "{b}"
    );
}

#[test]
fn forward_goto_is_a_block_exit() {
    // A goto out of a loop to a label later in the kernel's body: the statements from the
    // loop up to the label are one block, the goto its exit; the labelled store follows it.
    let k = one(
        "__global__ void k(int *a, int n) {\n  for (int i = 0; i < n; i++) {\n    if (a[i]) goto out;\n  }\n  \
         int x;\n  a[1] = 2;\n out:\n  a[0] = 1;\n}\n",
    );
    let b = body(&k);
    // The skipped declaration's variable is arbitrary from the block's start.
    let expected = format!(
        "block 0\n  havoc x\n  i = 0\n  loop cond (Lt i n)\n  body\n    $t0 = load a[(Mul {I64C} i) 4)]\n    \
         if (cast Bool $t0)\n      exit 0\n    else\n  step\n    i = (Add i 1)\n  havoc x\n  store a[4] = 2\n\
         store a[0] = 1\n"
    );
    assert_eq!(b, expected);
    // A goto into a loop is named where it is.
    let e = lower_src(
        "g.cu",
        "__global__ void k(int *a, int n) {\n  int i = 0;\n  if (n) goto in;\n  while (i < n) {\n in:\n    i++;\n  }\n}\n",
    )
    .expect_err("into a loop");
    assert!(
        e.to_string().contains("g.cu:3:10: unsupported: goto into a block"),
        "{e}"
    );
}

#[test]
fn unsupported_is_one_line() {
    let e = lower_src(
        "g.cu",
        "__global__ void k(int *a) {\n top:\n  a[0] = 1;\n  goto top;\n}\n",
    )
    .expect_err("goto");
    let msg = e.to_string();
    assert!(
        msg.ends_with("g.cu:4:3: unsupported: backward goto (to label `top`)"),
        "{msg}"
    );
    assert!(!msg.contains('\n'));
    let e = lower_src(
        "fp.cu",
        "typedef int (*F)(int);\n__global__ void k(int *a, F f) {\n  a[0] = f(1);\n}\n",
    )
    .expect_err("function pointer without a target");
    assert!(
        e.to_string()
            .contains("fp.cu:3:10: unsupported: call through a function pointer with no known target"),
        "{e}"
    );
}

#[test]
fn two_arrays_for_one_pointer() {
    // The pointer gets a tag numbering its arrays; each access is a case split on it.
    let k = one(
        "__global__ void k(int *a, int *b, int c) {\n  int *p = a;\n  p[1] = 2;\n  if (c) p = b;\n  p[0] = 1;\n}\n",
    );
    let b = body(&k);
    assert!(
        b.starts_with(
            "p$off = 0\np$tag = 0\nif (Eq p$tag 0)\n  store a[(Add p$off 4)] = 2\nelse\n  store b[(Add p$off 4)] = 2\n"
        ),
        "{b}"
    );
    assert!(b.contains("if (cast Bool c)\n  p$off = 0\n  p$tag = 1\n"), "{b}");
    assert!(
        b.ends_with("if (Eq p$tag 0)\n  store a[p$off] = 1\nelse\n  store b[p$off] = 1\n"),
        "{b}"
    );
}

#[test]
fn call_through_function_pointer() {
    // A case split over the targets, each inlined; no match fails at the call.
    let k = one("typedef int (*F)(int);\n__device__ int inc(int x) { return x + 1; }\n\
         __device__ int dec(int x) { return x - 1; }\n__global__ void k(int *a, int c) {\n  \
         F f = c ? inc : dec;\n  a[0] = f(3);\n}\n");
    let b = body(&k);
    assert!(
        b.starts_with("f = (ite (cast Bool c) 268435456 268435472)\nif (Eq f 268435456)\n"),
        "{b}"
    );
    assert!(b.contains("inc$ret = (Add x 1)"), "{b}");
    assert!(b.contains("  if (Eq f 268435472)\n"), "{b}");
    assert!(b.contains("dec$ret = (Sub x 1)"), "{b}");
    assert!(
        b.contains("  else\n    assert 0\n    havoc $t0\nstore a[0] = $t0"),
        "{b}"
    );
}

#[test]
fn clang_diagnostics() {
    let e = lower_src("bad.cu", "__global__ void k(int *a) {\n  a[0] = ;\n}\n").expect_err("syntax");
    let FrontendError::ClangFailed { stderr } = &e else {
        panic!("{e:?}")
    };
    assert!(stderr.contains("bad.cu:2:10: error: expected expression"), "{stderr}");
}

#[test]
fn struct_fields_and_params() {
    let k = one("struct P { int x; char c; int y; };\n\
         __global__ void k(P *ps, P q) {\n  P l = ps[threadIdx.x];\n  ps[0].y = l.x + q.y;\n  ps->c = 1;\n}\n");
    let b = body(&k);
    let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, vec!["ps", "q.x", "q.c", "q.y"]);
    assert!(b.contains("store ps[8] = (Add l.x q.y)"), "{b}");
    assert!(b.contains("store ps[4] = 1"), "{b}");
}

#[test]
fn calls_without_a_body() {
    let k = one("struct V { int x; int y; };\n\
         __device__ int pick(int i);\n\
         __device__ V mk(int i);\n\
         __device__ int look(const int *p);\n\
         __device__ void fill(int *p);\n\
         __device__ void nop(int i);\n\
         __global__ void k(int *a, int *b) {\n  V v = mk(pick(threadIdx.x));\n  a[v.y] = pick(threadIdx.x);\n\
           b[0] = look(a);\n  fill(b + 1);\n  nop(1);\n  b[pick(2)] = 0;\n}\n");
    let b = body(&k);
    // One opaque function per name (and field), applied to the scalar arguments.
    let tid = "(cast Int { bits: 32, signed: true } ThreadIdx(X))";
    assert!(b.contains(&format!("v.y = (mk.y (pick {tid}))")), "{b}");
    assert!(b.contains(&format!("] = (pick {tid})")), "{b}");
    assert!(b.contains("store b[0] = $t"), "{b}");
    // A const pointee is only read: no clobber, a fresh result; a non-const one is clobbered.
    assert!(b.contains("havoc $t"), "{b}");
    assert!(!b.contains("Clobber { array: ArrayId(0)"), "{b}");
    assert!(b.contains("Clobber { array: ArrayId(1), call: \"fill\" }"), "{b}");
    assert_eq!(k.uninterpreted, ["pick", "mk.x", "mk.y"]);
    let named = |f: &str| k.notes.iter().filter(|n| n.starts_with(&format!("`{f}` ("))).count();
    for f in ["pick", "mk", "look", "fill", "nop"] {
        assert_eq!(named(f), 1, "{f}: {:?}", k.notes);
    }
    assert!(
        k.notes
            .iter()
            .any(|n| n.starts_with("`nop` (") && n.contains("no effect")),
        "{:?}",
        k.notes
    );
}

#[test]
fn call_returning_a_pointer_is_unsupported() {
    let e = lower_src(
        "k.cu",
        "__device__ int *where(int i);\n__global__ void k(int *a) {\n  *where(1) = 0;\n}\n",
    )
    .expect_err("a pointer result cannot be resolved");
    let text = e.to_string();
    assert!(
        text.contains("k.cu:3:4") && text.contains("without a body `where` returning"),
        "{text}"
    );
}

/// Developer aid: `GPUG_FE_FILES="a.cu b.cu" cargo test dump_files -- --ignored --nocapture`
/// lowers each file and prints the IR or the error.
#[test]
#[ignore]
fn dump_files() {
    let files = std::env::var("GPUG_FE_FILES").unwrap_or_default();
    let verbose = std::env::var("GPUG_FE_VERBOSE").is_ok();
    for f in files.split_whitespace() {
        match load(std::path::Path::new(f), &FrontendOptions::default()) {
            Ok(p) => {
                if verbose {
                    for k in &p.kernels {
                        println!("== {} {:?}", k.name, k.params);
                        print!("{}", st(k, &k.body, 0));
                    }
                } else {
                    println!("OK {f}");
                }
            }
            Err(e) => println!("ERR {f}: {}", e.to_string().lines().next().unwrap_or("")),
        }
    }
}

#[test]
fn two_thread_predicates_read_the_other_thread() {
    let k = one(
        "__global__ void k(int n) {\n  __assert(__uniform_int(n));\n  __assert(__all(threadIdx.x < 4));\n  __assert(__implies(__enabled(), __same_block()));\n}\n",
    );
    let b = body(&k);
    assert!(b.contains("assert (Eq n (other n))"), "{b}");
    assert!(
        b.contains("assert (LAnd (Lt ThreadIdx(X) 4) (other (Lt ThreadIdx(X) 4)))"),
        "{b}"
    );
    assert!(
        b.contains("assert (LOr (Not enabled) (LAnd (LAnd (Eq BlockIdx(X) (other BlockIdx(X)))"),
        "{b}"
    );
}

#[test]
fn other_int_outside_an_annotation_is_unsupported() {
    let e = lower_src(
        "k.cu",
        "__global__ void k(int *a) {\n  a[0] = __other_int(threadIdx.x);\n}\n",
    )
    .expect_err("`__other_int` in code");
    let msg = e.to_string();
    assert!(
        msg.contains("k.cu:2:10") && msg.contains("`__other_int` outside an annotation"),
        "{msg}"
    );
}

#[test]
fn access_logs_are_taken_before_accesses_and_emptied_at_barriers() {
    let k =
        one("__global__ void k(int *a) {\n  a[threadIdx.x] = 1;\n  __syncthreads();\n  __assert(__no_write(a));\n}\n");
    assert_eq!(
        body(&k),
        "$write.a.has = 0\nhavoc $write.a.logged\nif $write.a.logged\n  $write.a.has = 1\n  $write.a.offset = (cast Int { bits: 64, signed: false } (Mul (cast Int { bits: 64, signed: true } ThreadIdx(X)) 4))\nelse\nstore a[(Mul (cast Int { bits: 64, signed: true } ThreadIdx(X)) 4)] = 1\nBarrier(Block)\n$write.a.has = 0\nassert (Not $write.a.has)\n"
    );
}

#[test]
fn file_scope_axioms_are_assumed_on_entry() {
    let k = one("__axiom(blockIdx.x == 2);\n__global__ void k(int *a) {\n  a[threadIdx.x] = 1;\n}\n");
    let b = body(&k);
    // `__axiom_N`'s number comes from `__COUNTER__`.
    assert!(
        b.starts_with("block 0\n  __gpug_axiom_") && b.contains("$ret = (Eq BlockIdx(X) 2)\n"),
        "{b}"
    );
    assert!(b.contains("\nassume __gpug_axiom_"), "{b}");
}

mod memory;
mod vector;

/// An OpenCL kernel (`k.cl`) lowered as the only kernel of its file.
fn one_cl(src: &str) -> Kernel {
    one_in("k.cl", src)
}

#[test]
fn opencl_memory_spaces_and_barrier_flags() {
    let k = one_cl(
        "__kernel void k(__global int *g, __local int *l, __constant int *c) {\n\
         __local int t[8];\n\
         t[get_local_id(0)] = c[0];\n\
         barrier(CLK_LOCAL_MEM_FENCE);\n\
         l[get_local_id(0)] = t[0];\n\
         barrier(CLK_GLOBAL_MEM_FENCE);\n\
         barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n\
         g[get_group_id(1)] = 1;\n}\n",
    );
    assert_eq!(k.language, Language::OpenCl);
    let space = |name: &str| k.arrays.iter().find(|a| a.name == name).map(|a| a.space);
    assert_eq!(space("g"), Some(Space::Global));
    assert_eq!(
        space("l"),
        Some(Space::Shared),
        "a __local pointer parameter is work-group memory"
    );
    assert_eq!(space("c"), Some(Space::Constant));
    assert_eq!(space("t"), Some(Space::Shared));
    let b = body(&k);
    let barriers: Vec<&str> = b.lines().filter(|l| l.starts_with("Barrier")).collect();
    assert_eq!(
        barriers,
        ["Barrier(Block, local)", "Barrier(Block, global)", "Barrier(Block)"],
        "{b}"
    );
    assert!(b.contains("BlockIdx(Y)"), "{b}");
}

#[test]
fn opencl_work_item_dimension_must_be_a_constant() {
    let e = lower_src(
        "k.cl",
        "__kernel void k(__global int *g, uint d) {\n  g[get_local_id(d)] = 1;\n}\n",
    )
    .expect_err("a dimension that is not a constant");
    let msg = e.to_string();
    assert!(
        msg.contains("k.cl:2:5") && msg.contains("`get_local_id` of a dimension"),
        "{msg}"
    );
}

#[test]
fn opencl_vectors_are_records_of_components() {
    let k = one_cl(
        "__kernel void k(__global float4 *p) {\n\
         float4 v = p[get_global_id(0)];\n\
         v.xy = v.zw;\n\
         p[get_global_id(0)] = v * 2.0f + (float4)(1.0f, v.s1, 3.0f, 4.0f);\n}\n",
    );
    let b = body(&k);
    // One load and one store per component of the float4 (16 bytes, 4 at a time).
    assert_eq!(b.matches("store p[").count(), 4, "{b}");
    assert_eq!(
        b.lines()
            .filter(|l| l.contains("= load p[") || l.contains("load p["))
            .count(),
        4,
        "{b}"
    );
}

/// Issue 53 item 4: an unsigned `+`, `*` of at least 32 bits is recorded only where it computes a
/// subscript's index (`a[y * w + x]`), where its wrap would index 2^32 elements or more; not
/// outside a subscript, and not an unsigned `-`, which wraps by design.
#[test]
fn unsigned_index_operations_of_the_source_are_recorded() {
    let k = one("__global__ void k(float *a, unsigned y, unsigned w) {
    unsigned x = threadIdx.x * 2u;
    a[y * w + x] = 0.0f;
    a[w - x] = 1.0f;
}
");
    let texts: Vec<(&str, u32, bool)> = k
        .signed_ops
        .iter()
        .map(|o| (o.text.as_str(), o.span.line, o.is_signed()))
        .collect();
    assert_eq!(
        texts,
        [("y * w", 3, false), ("y * w + x", 3, false)],
        "{:#?}",
        k.signed_ops
    );
    assert!(k.signed_ops.iter().all(|o| o.type_name() == "unsigned"));
}

/// Issue 43, item 4: the source-level signed `+ - *` of at least 32 bits after the integer
/// promotions are recorded with their text and place, in the order they are lowered: not
/// unsigned ones, not `char`/`short` arithmetic done in their own width (`c++`), not the byte
/// offsets of accesses nor the arithmetic of annotations; an inlined function's operation once
/// per inlining (each has its own parameter variables).
#[test]
fn signed_operations_of_the_source_are_recorded() {
    let k = one("__device__ int twice(int v) { return v + v; }
__global__ void k(int *a, unsigned *u, short s, char c, long l, int n) {
    __requires(n * 2 > 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned w = threadIdx.x * 3u;
    int t = s + s;
    c++;
    long m = l * l;
    i += n;
    n--;
    a[i * 4 - 1] = twice(t) + twice(i) + c;
    u[w] = w * w;
}
");
    let texts: Vec<(&str, u32, u32)> = k
        .signed_ops
        .iter()
        .filter(|o| !o.is_conversion())
        .map(|o| (o.text.as_str(), o.span.line, o.span.col))
        .collect();
    assert_eq!(
        texts,
        [
            ("s + s", 6, 13),
            ("l * l", 8, 14),
            ("i += n", 9, 5),
            ("n--", 10, 5),
            // Each inlining of `twice` adds its own `v`: two operations at one place.
            ("v + v", 1, 38),
            ("v + v", 1, 38),
            ("twice(t) + twice(i)", 11, 20),
            ("twice(t) + twice(i) + c", 11, 20),
            // A store's value is lowered before its place.
            ("i * 4", 11, 7),
            ("i * 4 - 1", 11, 7),
        ]
        .iter()
        .map(|(t, l, c)| (*t, *l, *c))
        .collect::<Vec<_>>(),
        "{:#?}",
        k.signed_ops
    );
    for o in k.signed_ops.iter().filter(|o| !o.is_conversion()) {
        assert!(is_signed_arith(&o.expr), "{o:?}");
    }
}

/// Issue 53 item 4: a conversion of the source to a signed type of at least 32 bits that
/// cannot hold every value of its operand's type is recorded with its operand's text and place
/// (`int i = (… + threadIdx.x) * 8ul`, an `unsigned` stored into an `int`); not a widening
/// one, not one to an unsigned type, not one to `short`, and not a constant's.
#[test]
fn narrowing_conversions_of_the_source_are_recorded() {
    let k = one("__global__ void k(float *a, unsigned u, long l, int n) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8ul;
    int j = u;
    long w = n;
    unsigned v = n;
    short s = n;
    int m = l;
    int c = 5ul;
    a[i + j + w + v + s + m + c] = 0.0f;
}
");
    let texts: Vec<(&str, u32, bool, bool)> = k
        .signed_ops
        .iter()
        .filter(|o| o.is_conversion())
        .map(|o| {
            (
                o.text.as_str(),
                o.span.line,
                o.is_signed(),
                is_narrowing_conversion(&o.expr),
            )
        })
        .collect();
    assert_eq!(
        texts,
        [
            ("(blockIdx.x * blockDim.x + threadIdx.x) * 8ul", 2, false, true),
            ("u", 3, false, true),
            ("l", 7, false, true),
        ],
        "{:#?}",
        k.signed_ops
    );
    assert!(
        k.signed_ops
            .iter()
            .filter(|o| o.is_conversion())
            .all(|o| o.type_name() == "int")
    );
}
