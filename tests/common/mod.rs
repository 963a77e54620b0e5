//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The flags on line 2 of an example (`// --blockDim=… --gridDim=…`).
pub fn example_flags(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let line2 = text.lines().nth(1).unwrap_or("");
    line2
        .trim_start_matches("//")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// Runs gpug from the repository root with `args`.
pub fn gpug(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpug"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("run gpug")
}

/// Runs gpug on `examples/<name>` with its line-2 flags, z3, and `extra` arguments.
pub fn run_example(name: &str, extra: &[&str]) -> Output {
    let rel = format!("examples/{name}");
    let mut args: Vec<String> = vec!["--solver".into(), "z3".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(example_flags(&root().join(&rel)));
    args.push(rel);
    gpug(&args)
}
