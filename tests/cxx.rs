//! The C++ that kernels use (issue 10 item 7), end to end with z3, cvc5 and yices: enum
//! constants and `enum class`, `constexpr` and `static const` values, `typedef`'d element
//! types, references to array elements and locals, member functions and `this`, struct array
//! members, a conditional operator as an lvalue, template kernels chosen with `--kernel`, and
//! what real kernels use (issue 42 item 5): namespace aliases in functions, whole-struct copies
//! with array members, default arguments, pointers compared with null, member templates,
//! `float **` parameters and pointers loaded from parameter memory (`tests/kernels/cxx/`, each
//! against the expectation on its first line).

mod common;

use common::check_kernel_dir;

#[test]
fn cxx_constructs() {
    check_kernel_dir("tests/kernels/cxx", 33);
}
