//! The generated Rust SDK file as a library (as in the SDK crate), plus the
//! testee protocol on top of it.

#[path = "../../../../generated/rust/mcptest-runner/src/coprocess.rs"]
pub mod coprocess;

pub mod answer;
