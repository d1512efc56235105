//! The generated Rust SDK files as a library (as in the SDK crate: the frames
//! and the session client beside them), plus the testee protocol on top of it.

use std::io::{BufRead, Write};

#[path = "../../../../generated/rust/mcptest-runner/src/coprocess.rs"]
pub mod coprocess;

#[path = "../../../../generated/rust/mcptest-runner/src/client.rs"]
pub mod client;

pub mod answer;

/// The testee protocol: NDJSON cases on stdin, one `answer` line per case on
/// stdout; exits 1 when stdin is not text or stdout fails.
pub fn serve(name: &str, answer: impl Fn(&str) -> serde_json::Value) {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            eprintln!("{name}: stdin is not UTF-8 text");
            std::process::exit(1);
        };
        if line.trim().is_empty() {
            continue;
        }
        let answered = answer(&line).to_string();
        if writeln!(out, "{answered}").is_err() {
            std::process::exit(1);
        }
    }
    if out.flush().is_err() {
        std::process::exit(1);
    }
}
