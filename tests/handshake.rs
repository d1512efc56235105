//! The handshake messages are the contract's text, on both sides.

use mcptest_coprocess::frames::{HandshakeParams, RequestId};
use mcptest_coprocess::handshake::{answer_handshake, check_handshake_response, handshake_request};
use mcptest_coprocess::{lane_cli_hint, Frame, UNSUPPORTED_SDK_LANES};

#[test]
fn binary_answers_a_mismatch_with_the_contract_message() {
    let params = HandshakeParams::decode(r#"{"protocol_version": 3, "sdk": "rust", "sdk_version": "1.0.1"}"#).unwrap();
    let error = answer_handshake(&params, "1.0.1").unwrap_err();
    assert_eq!(error.code, -32602);
    assert_eq!(error.message, "coprocess protocol version mismatch: this mcptest binary speaks v2, the rust SDK sent v3. Upgrade the mcptest binary (or pin the SDK to the matching release).");
    let older = HandshakeParams::decode(r#"{"protocol_version": 1}"#).unwrap();
    assert_eq!(answer_handshake(&older, "x").unwrap_err().message, "coprocess protocol version mismatch: this mcptest binary speaks v2, the SDK sent v1. Upgrade the SDK (or pin the mcptest binary to the matching release).");
    let same = HandshakeParams::decode(r#"{"protocol_version": 2}"#).unwrap();
    assert_eq!(answer_handshake(&same, "1.0.1").unwrap().binary_version, "1.0.1");
}

#[test]
fn sdk_fails_fast_with_the_contract_message() {
    let v1 = check_handshake_response(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#).unwrap_err();
    assert_eq!(v1.message, "mcptest binary speaks coprocess v1; this SDK needs v2. Upgrade the mcptest binary (or pin the SDK to the matching release).");
    let v3 = check_handshake_response(r#"{"jsonrpc":"2.0","id":1,"result":{"protocol_version":3,"binary_version":"9"}}"#).unwrap_err();
    assert_eq!(v3.message, "mcptest binary speaks coprocess v3; this SDK needs v2. Upgrade the SDK (or pin the mcptest binary to the matching release).");
    let relayed = "coprocess protocol version mismatch: this mcptest binary speaks v3, the rust SDK sent v2. Upgrade the SDK (or pin the mcptest binary to the matching release).";
    let text = format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32602,"message":"{relayed}"}}}}"#);
    assert_eq!(check_handshake_response(&text).unwrap_err().message, relayed);
    let other = check_handshake_response(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"boom"}}"#).unwrap_err();
    assert_eq!(other.message, "coprocess handshake failed: the mcptest binary answered -32603: boom");
    let drift = check_handshake_response(r#"{"jsonrpc":"2.0","id":1,"result":{"protocol_version":2,"binary_version":"1","x":1}}"#).unwrap_err();
    assert_eq!(drift.message, "HandshakeResult: unknown field `x`");
    assert!(check_handshake_response(r#"{"jsonrpc":"2.0","id":1,"result":{"protocol_version":2,"binary_version":"1"}}"#).is_ok());
}

#[test]
fn handshake_request_is_one_line_with_the_pin() {
    let line = handshake_request(RequestId::Integer(1), Some("rust"), Some("1.0.1"));
    assert!(!line.contains('\n'));
    let value: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(value, serde_json::json!({"jsonrpc":"2.0","id":1,"method":"coprocess/handshake","params":{"protocol_version":2,"sdk":"rust","sdk_version":"1.0.1"}}));
}

#[test]
fn lanes_and_the_shared_hint() {
    assert_eq!(UNSUPPORTED_SDK_LANES, &["agents", "compliance", "security", "evals"]);
    assert_eq!(lane_cli_hint("compliance", "suite.yaml").as_deref(), Some("lane `compliance:` is not drivable over the mcptest coprocess; run it with `mcptest compliance run --from-suite suite.yaml`"));
    assert_eq!(lane_cli_hint("tools", "suite.yaml"), None);
    assert_eq!(lane_cli_hint("nope", "suite.yaml"), None);
}
