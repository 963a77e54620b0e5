//! C++ lambdas in device code, end to end: held in a local and called, called where they are
//! created, given to a device function template's parameter, and passed by the host code to
//! a template kernel (`kernel_param*.cu`). By-reference captures are
//! the enclosing variables themselves (a later assignment is seen), by-copy captures are
//! snapshots taken at the lambda (a later assignment is not); `mutable` lambdas and
//! init-captures are refused (`tests/kernels/lambda/`, each against the expectation on its
//! first line).

mod common;

use common::check_kernel_dir;

#[test]
fn lambdas() {
    check_kernel_dir("tests/kernels/lambda", 14);
}
