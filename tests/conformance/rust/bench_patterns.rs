//! Issue 36's pattern benchmark, in Rust: every probe of `probes.tsv` (the
//! probe type's name, a tab, a frame whose `text` is a long string; written
//! by `pattern_bench_inputs` of tests/constraints/proof.rs) decoded by the
//! generated decoder of its type, through `decode_and_encode`, the by-name
//! entry the testee uses (it encodes the value again: linear, and counted).
//! Each probe is decoded `REPEATS` times, and as many times as
//! `PatternProbePlain` (the same object without a pattern); one line per
//! probe: `<number>\t<best ms>\t<1 decoded, 0 refused>\t<best ms, plain>`.
//! Built and run by bench-patterns.sh.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::time::Instant;

use conformance_bench_patterns_rust::coprocess::decode_and_encode;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(repeats)) =
        (args.get(1), args.get(2).and_then(|r| r.parse::<u32>().ok()))
    else {
        eprintln!("usage: bench-patterns PROBES.tsv REPEATS");
        std::process::exit(2);
    };
    let probes = match std::fs::File::open(path) {
        Ok(file) => BufReader::new(file),
        Err(e) => {
            eprintln!("bench-patterns: {path}: {e}");
            std::process::exit(2);
        }
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (number, line) in probes.lines().enumerate() {
        let Ok(line) = line else {
            eprintln!("bench-patterns: {path} is not UTF-8 text");
            std::process::exit(2);
        };
        let Some((type_name, frame)) = line.split_once('\t') else {
            eprintln!("bench-patterns: line {} of {path} has no tab", number + 1);
            std::process::exit(2);
        };
        let (best, decoded) = best_of(type_name, frame, repeats);
        let (plain, _) = best_of("PatternProbePlain", frame, repeats);
        if writeln!(
            out,
            "{number}\t{best:.3}\t{}\t{plain:.3}",
            u8::from(decoded)
        )
        .is_err()
        {
            std::process::exit(1);
        }
    }
    if out.flush().is_err() {
        std::process::exit(1);
    }
}

/// The best of `repeats` decodes of `frame` as `type_name`, in
/// milliseconds, and whether it decoded.
fn best_of(type_name: &str, frame: &str, repeats: u32) -> (f64, bool) {
    let (mut best, mut decoded) = (f64::INFINITY, false);
    for _ in 0..repeats {
        let started = Instant::now();
        let answer = decode_and_encode(type_name, std::hint::black_box(frame));
        best = best.min(started.elapsed().as_secs_f64() * 1000.0);
        let Some(answer) = answer else {
            eprintln!("bench-patterns: unknown type {type_name}");
            std::process::exit(2);
        };
        decoded = answer.is_ok();
    }
    (best, decoded)
}
