//! The fuzz targets' properties on the stable toolchain (issue 17, part 1):
//! the same checks `cargo +nightly fuzz` runs (`fuzz/src/lib.rs`, included
//! here as a module), replayed on every finding kept in
//! `fuzz/regressions/<target>/`, on the conformance corpus, and on a few
//! thousand inputs from a seeded PRNG. How to fuzz: docs/fuzzing.md.

#[path = "../fuzz/src/lib.rs"]
mod checks;

use std::path::Path;

use checks::Rng;
use mcptest_coprocess::frames::TYPE_NAMES;
use serde_json::Value;

/// A target's checks: panics on a violation.
type Check = fn(&[u8]);

const TARGETS: &[(&str, Check)] =
    &[("line_splitter", checks::line_splitter), ("decoder", checks::decoder), ("request_lines", checks::request_lines)];

/// The conformance corpus as `(type, json)` pairs.
fn corpus() -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir("tests/conformance/corpus")
        .expect("the corpus directory")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        for line in std::fs::read_to_string(&file).expect("a corpus file").lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).expect("a corpus line");
            if let (Some(t), Some(j)) = (case["type"].as_str(), case["json"].as_str()) {
                cases.push((t.to_string(), j.to_string()));
            }
        }
    }
    cases
}

#[test]
fn every_kept_finding_still_passes() {
    for (target, check) in TARGETS {
        let dir = Path::new("fuzz/regressions").join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries {
            let path = entry.expect("an entry").path();
            let data = std::fs::read(&path).expect("a regression input");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target}: {} fails again", path.display());
        }
    }
}

#[test]
fn the_corpus_decodes_alike_through_the_decoder_target() {
    let cases = corpus();
    assert!(cases.len() > 500, "only {} corpus cases", cases.len());
    for (type_name, json) in &cases {
        let index = TYPE_NAMES.iter().position(|t| t == type_name).expect("a $defs name");
        let mut data = vec![index as u8];
        data.extend_from_slice(json.as_bytes());
        checks::decoder(&data);
    }
}

#[test]
fn the_corpus_requests_as_one_stream_get_their_answers() {
    let requests: Vec<String> = corpus().into_iter().filter(|(t, _)| t == "Request").map(|(_, j)| j).collect();
    assert!(requests.len() > 50, "only {} requests", requests.len());
    for (limit, separator) in [(0u8, "\n"), (33, "\r\n"), (255, "\n \t\r\n\n")] {
        let mut data = vec![limit];
        data.extend_from_slice(requests.join(separator).as_bytes());
        checks::request_lines(&data);
    }
}

#[test]
fn any_chunking_gives_the_lines_of_the_whole_stream() {
    const BYTES: &[u8] = b"\n\n\n\r\r \t{}a\"\\\xff\xc3\xa9\xe2\x82\x00";
    let mut rng = Rng::new(17);
    for _ in 0..2_000 {
        let len = rng.below(160);
        let mut data: Vec<u8> = (0..len + 2).map(|_| BYTES[rng.below(BYTES.len())]).collect();
        data[0] = rng.below(256) as u8;
        data[1] = rng.below(256) as u8;
        checks::line_splitter(&data);
    }
}

/// Lines made of request pieces: whole requests, requests cut, spliced and
/// with a token put in, and bytes that are not text.
fn random_line(rng: &mut Rng, requests: &[String]) -> Vec<u8> {
    const TOKENS: &[&str] = &[
        "{", "}", "[", "]", ",", ":", "\"id\"", "\"method\"", "\"params\"", "null", "1e16", "2.0", "-0", "\\ud800",
        "\"mcp.shutdown\"", "\"coprocess/handshake\"", "\u{feff}", "\r", " ", "\u{0}", "\"jsonrpc\":\"2.0\"",
    ];
    let mut line = requests[rng.below(requests.len())].as_bytes().to_vec();
    match rng.below(6) {
        0 => {}
        1 => line.truncate(rng.below(line.len() + 1)),
        2 => {
            let other = requests[rng.below(requests.len())].as_bytes();
            let cut = rng.below(line.len() + 1);
            line.truncate(cut);
            line.extend_from_slice(&other[rng.below(other.len() + 1)..]);
        }
        3 => {
            let at = rng.below(line.len() + 1);
            let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
            line.splice(at..at, token.iter().copied());
        }
        4 => {
            let at = rng.below(line.len() + 1);
            line.insert(at, [0xff, 0xc0, 0x80][rng.below(3)]);
        }
        _ => line = (0..rng.below(40)).map(|_| b" \t\r{}[]\"x"[rng.below(9)]).collect(),
    }
    line
}

#[test]
fn random_lines_get_one_answer_each_and_the_next_request_is_served() {
    let requests: Vec<String> = corpus().into_iter().filter(|(t, _)| t == "Request").map(|(_, j)| j).collect();
    let mut rng = Rng::new(2026);
    for _ in 0..150 {
        let mut data = vec![rng.below(256) as u8];
        for _ in 0..rng.below(12) {
            data.extend(random_line(&mut rng, &requests));
            data.extend_from_slice([&b"\n"[..], b"\r\n", b"\n\n"][rng.below(3)]);
        }
        checks::request_lines(&data);
    }
}

#[test]
fn random_frames_decode_alike() {
    let cases = corpus();
    let mut rng = Rng::new(53);
    for _ in 0..1_500 {
        let (type_name, json) = &cases[rng.below(cases.len())];
        let mut text = json.clone().into_bytes();
        match rng.below(4) {
            0 => text.truncate(rng.below(text.len() + 1)),
            1 => {
                let at = rng.below(text.len() + 1);
                text.splice(at..at, b"1e16".iter().copied());
            }
            2 if !text.is_empty() => {
                let at = rng.below(text.len());
                const BYTES: &[u8] = b"{}[]\",:0-.e \\";
                text[at] = BYTES[rng.below(BYTES.len())];
            }
            _ => {}
        }
        // Sometimes under another type than the case's own.
        let index = if rng.below(3) == 0 { rng.below(TYPE_NAMES.len()) } else { TYPE_NAMES.iter().position(|t| t == type_name).expect("a $defs name") };
        let mut data = vec![index as u8];
        data.extend(text);
        checks::decoder(&data);
    }
}

/// `fuzz/Cargo.lock` is the resolution of `fuzz/Cargo.toml` (with the root
/// crate and codegen as they are now), so that `fuzz/run.sh`, which fetches
/// with `--locked` before `cargo fuzz` builds, neither fails nor rewrites it.
/// Cargo resolves offline when its cache has the fuzz crate's dependencies,
/// else through the registry, as any build would.
#[test]
fn the_fuzz_lock_is_current() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--locked", "--format-version", "1", "--manifest-path", "fuzz/Cargo.toml"])
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "fuzz/Cargo.lock is stale: run `cargo update --manifest-path fuzz/Cargo.toml --workspace` \
         and commit it\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
