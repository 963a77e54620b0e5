//! The gpug binary: everything, the command line included, is in the library ([`gpug::cli::main`]).

fn main() {
    std::process::exit(gpug::cli::main());
}
