//! cli (stub)
/// Entry point.
pub fn main() -> i32 { 0 }
