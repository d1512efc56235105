//! The properties the fuzz targets check, one function per target, each
//! taking the fuzzer's bytes and panicking on a violation. Only
//! `mcptest_coprocess` and `serde_json` are used, so the root crate's test
//! `tests/fuzz_regressions.rs` includes this file as a module and replays the
//! findings (`fuzz/regressions/<target>/*`) on the stable toolchain.
//!
//! - [`line_splitter`]: any chunking of a stream gives the lines of a plain
//!   reference split of the whole stream, through `LineSplitter` and
//!   `LineReader`, and the splitter never holds more than about twice its limit.
//! - [`decoder`]: the strict decoder of a `$defs` type accepts exactly when the
//!   jsonschema validator, after the JSON-text rules, accepts; what it accepts
//!   re-encodes to the validator's value and decodes again to the same text.
//! - [`request_lines`]: a stream of lines, then one valid request: every
//!   non-blank line gets exactly one answer line, a valid `Response` frame, of
//!   the class and with the id an independent reading (the schema's method
//!   table and the validator) expects; the request after the garbage is served
//!   with its own id.

use std::io::{self, Read};
use std::sync::OnceLock;

use mcptest_coprocess::envelope::{error_response, read_line, CheckedRequest};
use mcptest_coprocess::frames::{
    self, error_codes, methods, strict, ErrorResponse, Frame, HandshakeParams, JsonRpcVersion, Response,
    SuccessResponse, TYPE_NAMES,
};
use mcptest_coprocess::handshake::answer_handshake;
use mcptest_coprocess::ndjson::{encode_line, Line, LineReader, LineSplitter};
use mcptest_coprocess::{validate, MAX_DEPTH, MAX_LINE_BYTES};
use serde_json::Value;

/// A small deterministic PRNG (splitmix64): chunk sizes, generated cases.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

// ---------------------------------------------------------------- splitter

/// The lines of a whole stream, split plainly: on `\n`, an unterminated last
/// line counting when it is not empty; one trailing `\r` is not part of the
/// frame; a line whose frame is longer than `max` is `TooLong` with all its
/// bytes (the `\r` too); a line of spaces, tabs and `\r` only is dropped.
pub fn reference_lines(stream: &[u8], max: usize) -> Vec<Line> {
    let mut parts: Vec<&[u8]> = stream.split(|b| *b == b'\n').collect();
    if parts.last().is_some_and(|last| last.is_empty()) {
        parts.pop();
    }
    parts
        .into_iter()
        .filter_map(|raw| {
            let frame = raw.strip_suffix(b"\r").unwrap_or(raw);
            if frame.len() > max {
                return Some(Line::TooLong { length: raw.len() });
            }
            if frame.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                return None;
            }
            Some(match std::str::from_utf8(frame) {
                Ok(text) => Line::Frame(text.to_string()),
                Err(_) => Line::NotUtf8,
            })
        })
        .collect()
}

/// Splits `stream` fed in chunks of the given sizes (the rest in one chunk),
/// checking the memory bound after every chunk.
fn split_in_chunks(stream: &[u8], max: usize, sizes: &[usize]) -> Vec<Line> {
    let bound = 2 * (max + 1) + 8;
    let mut splitter = LineSplitter::new(max);
    let mut lines = Vec::new();
    let mut rest = stream;
    for size in sizes {
        let (chunk, after) = rest.split_at((*size).min(rest.len()));
        lines.extend(splitter.push(chunk));
        assert!(splitter.held_bytes() <= bound, "the splitter holds {} bytes, limit {max}", splitter.held_bytes());
        rest = after;
    }
    lines.extend(splitter.push(rest));
    assert!(splitter.held_bytes() <= bound, "the splitter holds {} bytes, limit {max}", splitter.held_bytes());
    lines.extend(splitter.finish());
    assert!(splitter.finish().is_none(), "finish twice gave a second line");
    lines
}

/// A reader that gives its bytes in the given pieces, with an `Interrupted`
/// error before every other piece (which `LineReader` must retry).
struct Pieces<'a> {
    rest: &'a [u8],
    sizes: Vec<usize>,
    calls: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(2) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        // A read of 0 bytes is the end of the stream, so a piece is 1 byte at least.
        let size = if self.sizes.is_empty() { self.rest.len() } else { self.sizes.remove(0).max(1) };
        let n = size.min(buf.len()).min(self.rest.len());
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

/// Chunk sizes covering `len` bytes, from `0` to a little over the limit.
fn chunk_sizes(len: usize, seed: u64, max: usize) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut sizes = Vec::new();
    let mut covered = 0;
    while covered < len {
        let size = rng.below(max + 3);
        sizes.push(size);
        covered += size;
    }
    sizes
}

/// Target `line_splitter`: byte 0 picks the limit (1 to 32 bytes, so that
/// over-long lines are common), byte 1 seeds a chunking, the rest is the stream.
pub fn line_splitter(data: &[u8]) {
    let [limit, seed, stream @ ..] = data else { return };
    let max = usize::from(*limit) % 32 + 1;
    let expected = reference_lines(stream, max);
    for line in &expected {
        if let Line::Frame(text) = line {
            assert!(!text.contains('\n') && text.len() <= max, "the reference split gave {text:?}");
        }
    }
    assert_eq!(split_in_chunks(stream, max, &[]), expected, "the whole stream at once");
    let bytes = vec![1; stream.len()];
    assert_eq!(split_in_chunks(stream, max, &bytes), expected, "one byte at a time");
    let sizes = chunk_sizes(stream.len(), u64::from(*seed), max);
    assert_eq!(split_in_chunks(stream, max, &sizes), expected, "in chunks {sizes:?}");
    let mut reader = LineReader::new(Pieces { rest: stream, sizes, calls: 0 }, max);
    let mut read = Vec::new();
    while let Some(line) = reader.next_line().expect("Interrupted is retried, nothing else fails") {
        read.push(line);
    }
    assert_eq!(read, expected, "through LineReader");
    assert!(reader.next_line().expect("at the end").is_none(), "a line after the end");
}

// ---------------------------------------------------------------- decoder

/// Whether two values are the same JSON value, numbers compared as doubles
/// (as the conformance runner's `compare::same_value`).
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

/// Replaces every integral number beyond ±(2^53−1) written with a fraction
/// or exponent (`1e16`) by ±0.5: the contract says it is not an integer, JSON
/// Schema says it is (the conformance runner's `narrow_unsafe_integrals`).
fn narrow_unsafe_integrals(value: &mut Value) -> bool {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() > MAX_SAFE => {
                *value = serde_json::json!(0.5f64.copysign(f));
                true
            }
            _ => false,
        },
        Value::Array(items) => items.iter_mut().map(narrow_unsafe_integrals).fold(false, |a, b| a | b),
        Value::Object(map) => map.values_mut().map(narrow_unsafe_integrals).fold(false, |a, b| a | b),
        _ => false,
    }
}

/// The validator's verdict on a parsed value, with the contract's reading of
/// `1e16` (see [`narrow_unsafe_integrals`]).
pub fn contract_value(type_name: &str, value: &Value) -> Result<(), String> {
    validate::validate_value(type_name, value)?;
    let mut narrowed = value.clone();
    if narrow_unsafe_integrals(&mut narrowed) {
        validate::validate_value(type_name, &narrowed)?;
    }
    Ok(())
}

/// The contract's verdict on frame text, decided without the typed decoders:
/// the JSON-text rules (`validate_text`), then the validator.
pub fn contract_text(type_name: &str, text: &str) -> Result<Value, String> {
    let value = validate::validate_text(type_name, text)?;
    contract_value(type_name, &value)?;
    Ok(value)
}

/// Decodes `text` as `type_name` both ways and checks they agree.
pub fn decode_agrees(type_name: &str, text: &str) {
    let decoded = frames::decode_and_encode(type_name, text).expect("a $defs name");
    let contract = contract_text(type_name, text);
    match (&decoded, &contract) {
        (Ok(encoded), Ok(value)) => {
            assert!(!encoded.contains('\n'), "{type_name}: the encoding has a newline: {encoded:?}");
            let reparsed: Value = serde_json::from_str(encoded).expect("the encoding is JSON");
            assert!(same_value(&reparsed, value), "{type_name}: {text:?} re-encodes as {encoded}, the validator read {value}");
            let again = frames::decode_and_encode(type_name, encoded).expect("a $defs name");
            assert_eq!(again.as_ref().ok(), Some(encoded), "{type_name}: {encoded} does not decode to itself: {again:?}");
        }
        (Err(error), Err(_)) => {
            assert!(!error.to_string().is_empty());
        }
        _ => panic!(
            "{type_name}: the decoder and the validator disagree on {text:?}: decoder {:?}, validator {:?}",
            decoded.as_ref().map(|_| "accepts"),
            contract.as_ref().map(|_| "accepts")
        ),
    }
    // The parsed-value path (`check_value`, which the binary uses on params)
    // gives the same verdict as the text path.
    if let Ok(checked) = strict::check_text(text, MAX_DEPTH) {
        if let Ok(value) = serde_json::from_str::<Value>(&checked) {
            let from_value = frames::check_value(type_name, value).expect("a $defs name");
            assert_eq!(from_value.is_ok(), decoded.is_ok(), "{type_name}: check_value and decode disagree on {text:?}: {from_value:?}");
        }
    }
}

/// Target `decoder`: byte 0 picks the `$defs` type (in `TYPE_NAMES` order),
/// the rest is the frame text (bytes that are not UTF-8 are replaced: the
/// decoders take `&str`).
pub fn decoder(data: &[u8]) {
    let Some((index, text)) = data.split_first() else { return };
    let type_name = TYPE_NAMES[usize::from(*index) % TYPE_NAMES.len()];
    decode_agrees(type_name, &String::from_utf8_lossy(text));
}

// ---------------------------------------------------------------- requests

/// The request sent after the fuzzer's stream: it must be served, with its id.
pub const TAIL: &str = r#"{"jsonrpc":"2.0","id":"fuzz-tail","method":"mcp.cache.set_mode","params":{"mode":"off"}}"#;

/// What a line must be answered with: an error code (`None`: served) and the id.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    pub code: Option<i64>,
    pub id: Value,
}

/// The method table as the schema writes it: name, params type, required.
fn method_table() -> &'static Vec<(String, String, bool)> {
    static TABLE: OnceLock<Vec<(String, String, bool)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let schema: Value = serde_json::from_str(mcptest_coprocess::SCHEMA_JSON).expect("the schema is JSON");
        schema["x-coprocess"]["methods"]
            .as_array()
            .expect("a method table")
            .iter()
            .map(|m| {
                let params = m["params"].as_str().expect("params").trim_start_matches("#/$defs/").to_string();
                (m["name"].as_str().expect("name").to_string(), params, m["params_required"].as_bool().expect("params_required"))
            })
            .collect()
    })
}

/// The answer a line must get, read independently of `envelope`: the
/// JSON-text rules, the validator on `Request`, the schema's method table,
/// the validator on the params type, and the handshake's version.
pub fn expected_answer(line: &Line) -> Expected {
    let error = |code, id| Expected { code: Some(code), id };
    let text = match line {
        Line::NotUtf8 => return error(error_codes::PARSE_ERROR, Value::Null),
        Line::TooLong { .. } => return error(error_codes::INVALID_REQUEST, Value::Null),
        Line::Frame(text) => text,
    };
    let Ok(checked) = strict::check_text(text, MAX_DEPTH) else {
        return error(error_codes::PARSE_ERROR, Value::Null);
    };
    let value: Value = serde_json::from_str(&checked).expect("checked text parses");
    if contract_value("Request", &value).is_err() {
        let id = value.get("id").filter(|id| contract_value("RequestId", id).is_ok()).cloned().unwrap_or(Value::Null);
        return error(error_codes::INVALID_REQUEST, id);
    }
    let id = value["id"].clone();
    let method = value["method"].as_str().expect("a checked request's method");
    let Some((_, params_type, required)) = method_table().iter().find(|(name, _, _)| name == method) else {
        return error(error_codes::METHOD_NOT_FOUND, id);
    };
    let params = match value.get("params") {
        None if *required => return error(error_codes::INVALID_PARAMS, id),
        None => Value::Object(Default::default()),
        Some(params) => params.clone(),
    };
    if contract_value(params_type, &params).is_err() {
        return error(error_codes::INVALID_PARAMS, id);
    }
    if method == methods::COPROCESS_HANDSHAKE && params["protocol_version"].as_i64() != Some(mcptest_coprocess::PROTOCOL_VERSION) {
        return error(error_codes::INVALID_PARAMS, id);
    }
    Expected { code: None, id }
}

/// The answer line the binary's `session::answer` writes for a line, up to
/// the upstream: the error, the handshake's answer, or (for a method the
/// server would serve) a success with an empty result standing for it.
pub fn answer_line(line: Line) -> String {
    let request: CheckedRequest = match read_line(line) {
        Ok(request) => request,
        Err(error) => return encode_line(&*error),
    };
    // What the binary hands the method's handler must decode as its params type.
    let params_text = serde_json::to_string(&request.params).expect("a value encodes");
    if let Some(Err(e)) = frames::decode_and_encode(request.method.params, &params_text) {
        panic!("accepted params {params_text} do not decode as {}: {e}", request.method.params);
    }
    let result = if request.method.name == methods::COPROCESS_HANDSHAKE {
        let params = request.params::<HandshakeParams>().expect("checked handshake params decode");
        match answer_handshake(&params, "0.0.0-fuzz") {
            Ok(result) => serde_json::to_value(result).expect("a result encodes"),
            Err(error) => return encode_line(&error_response(Some(request.id), error)),
        }
    } else {
        Value::Object(Default::default())
    };
    encode_line(&SuccessResponse { jsonrpc: JsonRpcVersion::default(), id: request.id, result })
}

/// Checks one answer line against what its line must get.
fn check_answer(line: &Line, answer: &str) {
    let expected = expected_answer(line);
    let Some(frame) = answer.strip_suffix('\n') else { panic!("the answer to {line:?} has no newline: {answer:?}") };
    assert!(!frame.contains('\n') && !frame.contains('\r'), "the answer to {line:?} is not one line: {answer:?}");
    if let Err(e) = Response::decode(frame) {
        panic!("the answer to {line:?} is not a Response frame ({e}): {frame}");
    }
    if let Err(e) = contract_text("Response", frame) {
        panic!("the validator rejects the answer to {line:?} ({e}): {frame}");
    }
    let value: Value = serde_json::from_str(frame).expect("a Response is JSON");
    let code = value.get("error").map(|e| e["code"].as_i64().expect("an error code"));
    assert_eq!(code, expected.code, "the answer to {line:?} has the wrong class: {frame}");
    assert!(same_value(&value["id"], &expected.id), "the answer to {line:?} has id {}, not {}: {frame}", value["id"], expected.id);
    if let Some(error) = ErrorResponse::decode(frame).ok().filter(|_| code.is_some()) {
        assert!(!error.error.message.is_empty(), "an empty error message for {line:?}");
    }
}

/// Target `request_lines`: byte 0 picks the line limit (even: the contract's,
/// odd: 128 to 1144 bytes, so that over-long lines are reachable); the rest is
/// a stream of lines, followed by `\n` and [`TAIL`]. Each line is split by
/// `LineSplitter` and answered by `envelope::read_line` as the binary does.
pub fn request_lines(data: &[u8]) {
    let Some((limit, stream)) = data.split_first() else { return };
    let max = if limit % 2 == 0 { MAX_LINE_BYTES } else { 128 + usize::from(limit / 2) * 8 };
    let mut bytes = stream.to_vec();
    bytes.push(b'\n');
    bytes.extend_from_slice(TAIL.as_bytes());
    bytes.push(b'\n');
    let mut splitter = LineSplitter::new(max);
    let mut lines = splitter.push(&bytes);
    lines.extend(splitter.finish());
    assert_eq!(lines, reference_lines(&bytes, max), "the splitter and the reference split differ");
    let mut answers = Vec::new();
    for line in &lines {
        let answer = answer_line(line.clone());
        check_answer(line, &answer);
        answers.push(answer);
    }
    // Every non-blank line got one answer; the last is the tail's, served.
    assert_eq!(answers.len(), lines.len());
    let last: Value = serde_json::from_str(answers.last().expect("the tail is answered")).expect("JSON");
    assert_eq!(last["id"], "fuzz-tail", "the request after the stream lost its answer: {last}");
    assert!(last.get("result").is_some(), "the request after the stream was not served: {last}");
}
