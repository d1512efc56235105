//! The helper operations of the testee protocol (docs/targets.md, "Testee
//! operations"), with the expected answers computed from the schema's
//! `x-coprocess` tables: the pin, the method and error-code tables, the lane
//! table and the message templates. Nothing here types a message twice.

use serde_json::{json, Value};

use mcptest_coprocess::frames::{self, Frame};

/// One op case: the line sent to every testee and the answer it must give.
pub struct OpCase {
    pub note: String,
    pub input: Value,
    pub expected: Value,
    /// The expected error is a prefix: a JSON-text error's detail is worded
    /// by each language's parser (`Response: invalid JSON: …`).
    pub prefix: bool,
}

fn ok(value: Value) -> Value {
    json!({"ok": true, "value": value})
}

fn fail(error: String) -> Value {
    json!({"ok": false, "error": error})
}

/// Fills `{hole}`s of a template.
fn render(template: &str, holes: &[(&str, String)]) -> String {
    holes.iter().fold(template.to_string(), |text, (hole, value)| text.replace(&format!("{{{hole}}}"), value))
}

struct Tables {
    x: Value,
    jsonrpc: Value,
}

impl Tables {
    fn pin(&self) -> i64 {
        self.x["protocol_version"].as_i64().expect("x-coprocess.protocol_version")
    }
    fn template(&self, name: &str) -> String {
        self.x["messages"][name]["template"].as_str().unwrap_or_else(|| panic!("x-coprocess.messages.{name}")).to_string()
    }
    fn code(&self, name: &str) -> i64 {
        let rows = self.x["error_codes"].as_array().expect("x-coprocess.error_codes");
        rows.iter().find(|r| r["name"] == name).and_then(|r| r["code"].as_i64()).unwrap_or_else(|| panic!("error code {name}"))
    }
    fn advice(&self, binary: i64, sdk: i64) -> String {
        self.template(if binary < sdk { "upgrade_binary" } else { "upgrade_sdk" })
    }
    fn sdk_mismatch(&self, binary: i64) -> String {
        let sdk = self.pin();
        render(&self.template("sdk_mismatch"), &[("binary_protocol", binary.to_string()), ("sdk_protocol", sdk.to_string()), ("advice", self.advice(binary, sdk))])
    }
    fn handshake_failed(&self, code: i64, message: &str) -> String {
        render(&self.template("handshake_failed"), &[("code", code.to_string()), ("message", message.to_string())])
    }
    fn error_frame(&self, code: i64, message: &str) -> String {
        json!({"jsonrpc": self.jsonrpc, "id": 1, "error": {"code": code, "message": message}}).to_string()
    }
    fn result_frame(&self, result: &str) -> String {
        format!(r#"{{"jsonrpc":{},"id":1,"result":{result}}}"#, self.jsonrpc)
    }
}

/// Every op case, from the schema.
pub fn cases(schema: &Value) -> Vec<OpCase> {
    let x = schema["x-coprocess"].clone();
    let jsonrpc = schema["$defs"]["JsonRpcVersion"]["enum"][0].clone();
    let t = Tables { x, jsonrpc };
    let pin = t.pin();
    let mut out = Vec::new();
    let mut case = |note: String, input: Value, expected: Value| {
        let error = expected["error"].as_str().unwrap_or_default();
        let (expected, prefix) = match error.find("invalid JSON:") {
            Some(at) => (fail(error[..at + "invalid JSON:".len()].to_string()), true),
            None => (expected, false),
        };
        out.push(OpCase { note, input, expected, prefix })
    };

    // constants: the tables themselves.
    let methods: Vec<Value> = t.x["methods"].as_array().expect("methods").iter().map(|m| m["name"].clone()).collect();
    let codes: serde_json::Map<String, Value> =
        t.x["error_codes"].as_array().expect("error_codes").iter().map(|r| (r["name"].as_str().unwrap_or_default().to_string(), r["code"].clone())).collect();
    let lanes = t.x["lanes"].as_array().expect("lanes").clone();
    let unsupported: Vec<Value> = lanes.iter().filter(|l| l["drivable"] == json!(false)).map(|l| l["key"].clone()).collect();
    case(
        "constants equal the schema's tables".into(),
        json!({"op": "constants"}),
        ok(json!({"protocol_version": pin, "methods": methods, "error_codes": codes, "unsupported_lanes": unsupported})),
    );

    // handshake_request: the method whose params are HandshakeParams.
    let handshake = t.x["methods"].as_array().expect("methods").iter().find(|m| m["params"] == "#/$defs/HandshakeParams").expect("a handshake method");
    for id in [json!(1), json!(0), json!(9_007_199_254_740_991i64), json!("req-1"), json!("")] {
        let params = json!({"protocol_version": pin, "sdk": "python", "sdk_version": "1.2.3"});
        case(
            format!("handshake_request with id {id}"),
            json!({"op": "handshake_request", "id": id, "sdk": "python", "sdk_version": "1.2.3"}),
            ok(json!({"jsonrpc": t.jsonrpc, "id": id, "method": handshake["name"], "params": params})),
        );
    }

    // check_handshake: every branch of docs/targets.md "Handshake helpers".
    let check = |json: String| json!({"op": "check_handshake", "json": json});
    let result = |version: String| format!(r#"{{"protocol_version":{version},"binary_version":"0.9.0"}}"#);
    case("check_handshake: the pinned version".into(), check(t.result_frame(&result(pin.to_string()))), ok(json!({"protocol_version": pin, "binary_version": "0.9.0"})));
    case("check_handshake: the pin written as `N.0`".into(), check(t.result_frame(&result(format!("{pin}.0")))), ok(json!({"protocol_version": pin, "binary_version": "0.9.0"})));
    for binary in [pin + 1, pin - 1, pin + 10, 0] {
        case(format!("check_handshake: binary speaks v{binary}"), check(t.result_frame(&result(binary.to_string()))), fail(t.sdk_mismatch(binary)));
    }
    case("check_handshake: MethodNotFound (a v1 binary)".into(), check(t.error_frame(t.code("MethodNotFound"), "Method not found")), fail(t.sdk_mismatch(1)));
    for (sdk_protocol, peer) in [(pin + 1, "python SDK"), (pin - 1, "SDK")] {
        let message = render(
            &t.template("binary_mismatch"),
            &[("binary_protocol", pin.to_string()), ("peer", peer.to_string()), ("sdk_protocol", sdk_protocol.to_string()), ("advice", t.advice(pin, sdk_protocol))],
        );
        case(format!("check_handshake: InvalidParams carrying binary_mismatch ({peer} v{sdk_protocol})"), check(t.error_frame(t.code("InvalidParams"), &message)), fail(message.clone()));
    }
    let invalid = t.code("InvalidParams");
    for (code, message) in [
        (invalid, "missing field `protocol_version`".to_string()),
        (invalid, t.template("binary_mismatch").chars().take(5).collect()),
        (t.code("InternalError"), "boom".to_string()),
        (t.code("UpstreamError"), "server said \"no\"\nand left".to_string()),
        (t.code("ParseError"), String::new()),
        (-1, "custom".to_string()),
    ] {
        case(format!("check_handshake: error {code} {message:?}"), check(t.error_frame(code, &message)), fail(t.handshake_failed(code, &message)));
    }
    // Frames that do not decode: the decoder's message (the library's decoder says what it is).
    for text in [
        format!(r#"{{"jsonrpc":{},"id":1}}"#, t.jsonrpc),
        t.result_frame(&result(pin.to_string())).replace(r#""id":1"#, r#""id":1,"id":2"#),
        "not json".to_string(),
    ] {
        let expected = match frames::Response::decode(&text) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("the runner's non-decoding frame decodes: {text}"),
        };
        case(format!("check_handshake: response does not decode: {text}"), check(text), fail(expected));
    }
    for result_text in [r#"{"protocol_version":2,"binary_version":"0.9.0","extra":1}"#.to_string(), r#"{"binary_version":"0.9.0"}"#.to_string(), "[]".to_string()] {
        let expected = match frames::HandshakeResult::from_value(serde_json::from_str(&result_text).expect("runner text")) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("the runner's bad handshake result decodes: {result_text}"),
        };
        case(format!("check_handshake: result is not a HandshakeResult: {result_text}"), check(t.result_frame(&result_text)), fail(expected));
    }

    // lane_cli_hint: every lane, and one the table does not have.
    for suite in ["suite.yaml", "suites/smoke test.yaml"] {
        for lane in &lanes {
            let key = lane["key"].as_str().expect("lane key");
            let expected = if lane["drivable"] == json!(false) {
                let command = lane["runs_via"].as_str().expect("runs_via").replace("<suite>", suite);
                json!(render(&t.template("lane_skip"), &[("lane", key.to_string()), ("command", command)]))
            } else {
                Value::Null
            };
            case(format!("lane_cli_hint {key} {suite}"), json!({"op": "lane_cli_hint", "lane": key, "suite": suite}), ok(expected));
        }
        case(format!("lane_cli_hint unknown {suite}"), json!({"op": "lane_cli_hint", "lane": "no-such-lane", "suite": suite}), ok(Value::Null));
    }
    out
}
