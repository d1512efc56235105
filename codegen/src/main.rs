fn main() {
    std::process::exit(codegen::cli::main());
}
