//! The generated Rust SDK files as a library (as in the SDK crate: the frames
//! and the session client beside them), plus the testee protocol on top of it.

#[path = "../../../../generated/rust/mcptest-runner/src/coprocess.rs"]
pub mod coprocess;

#[path = "../../../../generated/rust/mcptest-runner/src/client.rs"]
pub mod client;

pub mod answer;
