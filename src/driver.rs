//! driver (stub)
