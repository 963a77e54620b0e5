//! Front end: clang's JSON AST lowered to [`crate::ir`]. (stub, being written)
