//! The library's own frames (`mcptest_coprocess::frames`, rendered by build.rs
//! from the same generator), answered in-process with the Rust testee's
//! answer code: the `rust-lib` target.

pub use mcptest_coprocess::frames as coprocess;

#[path = "../rust/src/answer.rs"]
pub mod answer;
