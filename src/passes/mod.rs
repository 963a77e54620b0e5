//! passes (stub)
