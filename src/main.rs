fn main() {
    std::process::exit(gpug::cli::main());
}
