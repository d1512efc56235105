//! Decode throughput of the constrained frame, `Turn` of the golden
//! constraints output (codegen/tests/golden/constraints): the generated strict
//! decoder (length, pattern, range, item and divisor constraints all checked)
//! next to parsing the same text into `serde_json::Value`, with the method of
//! bench.rs (best of five rounds of at least 0.2 s). Built and run by
//! bench-constrained.sh; prints one
//! `| rust | Turn (constrained) | <strict fr/s> | <plain fr/s> | <plain/strict> |` row.

use std::hint::black_box;
use std::time::Instant;

use conformance_bench_constrained_rust::coprocess::{Frame as _, Turn};

/// The constrained frame, the same text in every language's bench.
const TURN: &str = concat!(
    r#"{"tool":"search_docs","server":"https://example.com/mcp","max_turns":12,"#,
    r#""rules":["no_network","read_only","cite_sources"],"budget_ms":30000}"#
);

fn strict(text: &str) -> bool {
    Turn::decode(text).is_ok_and(|turn| turn.budget_ms.is_some())
}

fn plain(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok()
}

fn rate(decode: fn(&str) -> bool, text: &str) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..5 {
        let (mut count, started) = (0u64, Instant::now());
        loop {
            for _ in 0..1000 {
                if !decode(black_box(text)) {
                    eprintln!("bench: the Turn frame failed to decode");
                    std::process::exit(1);
                }
            }
            count += 1000;
            let elapsed = started.elapsed().as_secs_f64();
            if elapsed >= 0.2 {
                best = best.max(count as f64 / elapsed);
                break;
            }
        }
    }
    best
}

fn main() {
    println!("| target | frame | strict fr/s | plain fr/s | ratio plain/strict |");
    println!("|---|---|---:|---:|---:|");
    let strict_rate = rate(strict, TURN);
    let plain_rate = rate(plain, TURN);
    println!(
        "| rust | Turn (constrained) | {strict_rate:.0} | {plain_rate:.0} | {:.2} |",
        plain_rate / strict_rate
    );
}
