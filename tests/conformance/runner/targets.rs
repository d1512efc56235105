//! The targets: six testees (one per SDK language, each built and checked by
//! its own `build.sh` and run by its `run.sh`: `round.rs`), `rust-lib`, the
//! library's own frames (`mcptest_coprocess::frames`, rendered from the proof
//! contract) driven through the Rust testee's answer code (`testee-lib`, built
//! with the Rust testee), and `jsonschema`, the independent validator of
//! `src/validate.rs`, in-process.

use serde_json::{json, Value};

/// The library's testee, and the in-process validator.
pub const LIBRARY: &str = "rust-lib";
pub const VALIDATOR: &str = "jsonschema";

/// What a target gave for the whole input.
pub enum Outcome {
    /// One answer per input line.
    Answers(Vec<Value>),
    /// No toolchain outside CI: loudly reported (when built), not checked.
    Missing,
    /// A build, a strict check or the run failed.
    Failed(String),
}

/// The jsonschema validator's verdict on frame text.
///
/// How the validator sees the JSON-text rules, which JSON Schema cannot
/// express: `validate_text` first runs the strict text check every decoder
/// uses (`strict::check_text`: byte-order mark, trailing text, duplicate keys,
/// lone surrogates, NaN/Infinity, double overflow, integer literals beyond
/// ±(2^53−1), depth), then parses the text — with `1.0`/`1e2`/`-0.0` and
/// other integral numbers within ±(2^53−1) rewritten as integers — and
/// validates the value against the `$defs` type. One more rule needs help:
/// the contract says an integral number written with a fraction or exponent
/// beyond ±(2^53−1) (`1e16`) is *not* an integer, while JSON Schema calls it
/// one. So the value is validated a second time with every such number
/// replaced by a non-integral number of the same sign (±0.5): where the
/// schema asks for an integer that fails exactly as the decoders do, and
/// anywhere else (open maps, `data`) it changes nothing. The reported value
/// is the parsed value itself.
pub fn validator(type_name: &str, text: &str) -> Value {
    match mcptest_coprocess::validate::validate_text(type_name, text) {
        Err(error) => json!({"ok": false, "error": error}),
        Ok(value) => {
            let mut narrowed = value.clone();
            if narrow_unsafe_integrals(&mut narrowed) {
                if let Err(error) = mcptest_coprocess::validate::validate_value(type_name, &narrowed) {
                    return json!({"ok": false, "error": error});
                }
            }
            json!({"ok": true, "value": value})
        }
    }
}

fn narrow_unsafe_integrals(value: &mut Value) -> bool {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() > MAX_SAFE => {
                *value = json!(0.5f64.copysign(f));
                true
            }
            _ => false,
        },
        // Every number is narrowed, so no short-circuiting `any`.
        Value::Array(items) => items.iter_mut().map(narrow_unsafe_integrals).fold(false, |a, b| a | b),
        Value::Object(map) => map.values_mut().map(narrow_unsafe_integrals).fold(false, |a, b| a | b),
        _ => false,
    }
}
