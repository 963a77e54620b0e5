//! Case splits made by the front end, end to end with z3, cvc5 and yices: calls through
//! function pointers (`tests/kernels/fnptr/`), pointers that may point to several arrays
//! (`tests/kernels/ptrsplit/`), arrays of pointers in struct parameters, one pointer per
//! element (`tests/kernels/ptrarray/`), forward `goto`s lowered to blocks and their exits
//! (`tests/kernels/goto/`), and `memcpy`/`memset` lowered to byte accesses and loops
//! (`tests/kernels/memcpy/`).
//!
//! Each kernel starts with `// expect: verified | race | race on NAME | assertion | divergence
//! | unsupported | unsupported at L:C` and a `// --flags` line: `verified` is exit 0 with every
//! kernel verified; `race` is exit 1 with a race finding (`race on NAME`: and every race is on
//! the array `NAME`); `assertion` is exit 1 with an assertion finding and no race (a call
//! through a pointer that may be null or point to no known function fails at the call);
//! `divergence` is exit 1 with a barrier divergence finding; `unsupported` is exit 2 with an
//! `unsupported:` message (`at L:C`: the message names the file at line `L`, column `C`).

mod common;

use common::{check_kernel_dir as check_dir, example_flags, gpug, root};

#[test]
fn function_pointer_calls() {
    check_dir("tests/kernels/fnptr", 8);
}

#[test]
fn pointers_to_several_arrays() {
    check_dir("tests/kernels/ptrsplit", 4);
}

#[test]
fn arrays_of_pointers_in_struct_parameters() {
    check_dir("tests/kernels/ptrarray", 3);
}

#[test]
fn forward_gotos() {
    check_dir("tests/kernels/goto", 12);
}

#[test]
fn memcpy_and_memset() {
    check_dir("tests/kernels/memcpy", 20);
}

/// A null pointer given to `memcpy` is reported as what it is, at the call.
#[test]
fn memcpy_null_pointer_is_named() {
    let file = "tests/kernels/memcpy/null_dst.cu";
    let mut args = example_flags(&root().join(file));
    args.push(file.into());
    let out = gpug(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("null_dst.cu:5:3: fails by thread"), "{text}");
    assert!(
        text.contains("`memcpy` (tests/kernels/memcpy/null_dst.cu:5:3) null pointer passed as destination"),
        "{text}"
    );
}
