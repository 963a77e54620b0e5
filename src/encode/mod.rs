//! encode (stub)
