//! The testee protocol of docs/targets.md ("Testees"): one case line in, one
//! answer value out, using only the generated module `super::coprocess`.
//! Shared by the Rust testee binary (with the generated SDK file) and the
//! conformance runner (with the library's `mcptest_coprocess::frames`).

use serde_json::{json, Map, Value};

use super::coprocess::{self, Frame};

fn ok(value: Value) -> Value {
    json!({"ok": true, "value": value})
}

fn fail(error: impl Into<String>) -> Value {
    json!({"ok": false, "error": error.into()})
}

/// Answers one case line.
pub fn answer(line: &str) -> Value {
    let case: Value = match serde_json::from_str(line) {
        Ok(case) => case,
        Err(e) => return fail(format!("bad case line: {e}")),
    };
    let text = |key: &str| case.get(key).and_then(Value::as_str);
    match text("op").unwrap_or("decode") {
        "decode" => match (text("type"), text("json")) {
            (Some(type_name), Some(frame)) => decode(type_name, frame),
            _ => fail("bad case: decode needs string `type` and `json`"),
        },
        "handshake_request" => {
            let id = match case.get("id") {
                Some(Value::String(s)) => coprocess::RequestId::String(s.clone()),
                Some(Value::Number(n)) => match n.as_i64() {
                    Some(i) => coprocess::RequestId::Integer(i),
                    None => return fail("bad case: id must be an integer or a string"),
                },
                _ => return fail("bad case: id must be an integer or a string"),
            };
            let frame = coprocess::handshake_request(id, text("sdk"), text("sdk_version"));
            if frame.contains('\n') {
                return fail("handshake_request wrote a newline");
            }
            match serde_json::from_str(&frame) {
                Ok(value) => ok(value),
                Err(e) => fail(format!("handshake_request wrote invalid JSON: {e}")),
            }
        }
        "check_handshake" => match text("json") {
            Some(frame) => match coprocess::check_handshake_response(frame) {
                Ok(result) => reparsed(&result.encode()),
                Err(failure) => fail(failure.to_string()),
            },
            None => fail("bad case: check_handshake needs a string `json`"),
        },
        "lane_cli_hint" => match (text("lane"), text("suite")) {
            (Some(lane), Some(suite)) => ok(coprocess::lane_cli_hint(lane, suite).map_or(Value::Null, Value::from)),
            _ => fail("bad case: lane_cli_hint needs string `lane` and `suite`"),
        },
        "constants" => {
            let codes: Map<String, Value> = coprocess::ERROR_CODES.iter().map(|c| (c.name.to_string(), c.code.into())).collect();
            ok(json!({
                "protocol_version": coprocess::COPROCESS_PROTOCOL_VERSION,
                "methods": coprocess::METHODS.iter().map(|m| m.name).collect::<Vec<_>>(),
                "error_codes": codes,
                "unsupported_lanes": coprocess::UNSUPPORTED_SDK_LANES,
            }))
        }
        other => fail(format!("unknown op `{other}`")),
    }
}

fn decode(type_name: &str, frame: &str) -> Value {
    match coprocess::decode_and_encode(type_name, frame) {
        None => fail(format!("unknown type `{type_name}`")),
        Some(Err(e)) => fail(e.to_string()),
        Some(Ok(encoded)) if encoded.contains('\n') => fail(format!("the encoder wrote a newline: {encoded}")),
        Some(Ok(encoded)) => reparsed(&encoded),
    }
}

fn reparsed(encoded: &str) -> Value {
    match serde_json::from_str(encoded) {
        Ok(value) => ok(value),
        Err(e) => fail(format!("the encoder wrote invalid JSON ({e}): {encoded}")),
    }
}
