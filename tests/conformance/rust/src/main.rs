//! Conformance testee for the generated Rust SDK file: NDJSON cases on stdin,
//! one answer line per case on stdout (docs/targets.md, "Testees").

use std::io::{BufRead, Write};

use conformance_testee_rust::answer;

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            eprintln!("testee: stdin is not UTF-8 text");
            std::process::exit(1);
        };
        if line.trim().is_empty() {
            continue;
        }
        let answered = answer::answer(&line).to_string();
        if writeln!(out, "{answered}").is_err() {
            std::process::exit(1);
        }
    }
    if out.flush().is_err() {
        std::process::exit(1);
    }
}
