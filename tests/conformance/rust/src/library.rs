//! Conformance testee for the protocol library's own frames
//! (`mcptest_coprocess::frames`, rendered by its build.rs): the answer code
//! of the SDK file's testee over them.

mod coprocess {
    pub use mcptest_coprocess::frames::*;
}

#[path = "answer.rs"]
mod answer;

fn main() {
    conformance_testee_rust::serve("testee-lib", answer::answer);
}
