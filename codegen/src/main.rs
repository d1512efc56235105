// The generator allocates many small short-lived strings and syn nodes on
// eight threads: mimalloc's per-thread heaps take about a tenth off a run
// (docs/benchmarks.md). The binary only: `build.rs` links the library with
// the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(codegen::cli::main());
}
