//! Decode throughput of the generated strict Rust decoders next to parsing the
//! same text into `serde_json::Value`, with the frames and the method of the
//! other targets' bench (best of five rounds of at least 0.2 s). Prints
//! `| rust | <frame> | <strict fr/s> | <plain fr/s> | <plain/strict> |` rows.

use std::hint::black_box;
use std::time::Instant;

use conformance_testee_rust::coprocess;
use conformance_testee_rust::coprocess::{CallParams, Frame as _, Request, RequestOf, ResponseOf, Verdict};

const CALL: &str = concat!(
    r#"{"jsonrpc":"2.0","id":42,"method":"mcp.call","params":{"tool":"search","#,
    r#""arguments":{"query":"weather in Paris","limit":5,"filters":{"lang":"en","#,
    r#""safe":true}},"passthrough":false,"timeout_ms":30000}}"#
);
const VERDICT: &str = concat!(
    r#"{"jsonrpc":"2.0","id":42,"result":{"success":true,"data":{"temperature":21.5,"#,
    r#""unit":"C","hourly":[20,21,22,21,19]},"text":"Sunny, 21.5 C","error":null,"#,
    r#""duration_ms":137}}"#
);

fn strict_handshake(text: &str) -> bool {
    Request::decode(text).is_ok()
}

/// The request with its params typed, in one pass (`RequestOf<CallParams>`).
fn strict_call(text: &str) -> bool {
    RequestOf::<CallParams>::decode(text).is_ok_and(|r| r.params.is_some())
}

/// The answer to an `mcp.call` that asked for a verdict, result typed.
fn strict_verdict(text: &str) -> bool {
    matches!(ResponseOf::<Verdict>::decode(text), Ok(ResponseOf::SuccessResponse(_)))
}

/// A frame to measure: its name, its text and its strict decoder.
type Frame<'a> = (&'a str, &'a str, fn(&str) -> bool);

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
                    eprintln!("bench: a frame failed to decode");
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
    let handshake = coprocess::handshake_request(1.into(), Some("rust"), Some("1.2.3"));
    let frames: [Frame<'_>; 3] = [
        ("handshake Request", &handshake, strict_handshake),
        ("mcp.call Request (RequestOf<CallParams>)", CALL, strict_call),
        ("Response with Verdict (ResponseOf<Verdict>)", VERDICT, strict_verdict),
    ];
    println!("| target | frame | strict fr/s | plain fr/s | ratio plain/strict |");
    println!("|---|---|---:|---:|---:|");
    for (name, text, strict) in frames {
        let strict_rate = rate(strict, text);
        let plain_rate = rate(plain, text);
        println!("| rust | {name} | {strict_rate:.0} | {plain_rate:.0} | {:.2} |", plain_rate / strict_rate);
    }
}
