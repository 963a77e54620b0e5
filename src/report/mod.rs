//! report (stub)
