//! Every example frame of the contract (../shared/spec/coprocess-protocol.txt)
//! decodes and re-encodes to the same JSON value, and the errors say where and why.

use mcptest_coprocess::frames::{
    CallParams, CallResult, HandshakeParams, HandshakeResult, Request, Response, Verdict,
};
use mcptest_coprocess::Frame;
use serde_json::Value;

fn round_trip<F: Frame>(text: &str) -> F {
    let frame = F::decode(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let encoded = frame.encode();
    assert!(!encoded.contains('\n'));
    let a: Value = serde_json::from_str(text).unwrap();
    let b: Value = serde_json::from_str(&encoded).unwrap();
    assert_eq!(a, b, "{} re-encoded differently", F::TYPE_NAME);
    frame
}

#[test]
fn contract_examples_round_trip() {
    let handshake = round_trip::<Request>(r#"{"jsonrpc": "2.0", "id": 1, "method": "coprocess/handshake", "params": {"protocol_version": 2, "sdk": "rust", "sdk_version": "1.0.1"}}"#);
    let params = HandshakeParams::from_value(Value::Object(handshake.params.unwrap().0)).unwrap();
    assert_eq!(params.protocol_version, 2);
    round_trip::<Response>(r#"{"jsonrpc": "2.0", "id": 1, "result": {"protocol_version": 2, "binary_version": "1.0.1"}}"#);
    round_trip::<HandshakeResult>(r#"{"protocol_version": 2, "binary_version": "1.0.1"}"#);
    round_trip::<Response>(r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "coprocess protocol version mismatch: this mcptest binary speaks v2, the rust SDK sent v3. Upgrade the mcptest binary (or pin the SDK to the matching release)."}}"#);
    let call = round_trip::<Request>(r#"{"jsonrpc": "2.0", "id": 7, "method": "mcp.call", "params": {"tool": "get_weather", "arguments": {"city": "Paris"}}}"#);
    let call = CallParams::from_value(Value::Object(call.params.unwrap().0)).unwrap();
    assert_eq!(call.tool, "get_weather");
    let response = round_trip::<Response>(r#"{"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "sunny"}], "isError": false}}"#);
    let Response::SuccessResponse(success) = response else { panic!("not a success") };
    assert!(matches!(CallResult::from_value(success.result).unwrap(), CallResult::ToolCallPassthrough(_)));
    round_trip::<Response>(r#"{"jsonrpc": "2.0", "id": 7, "error": {"code": -32000, "message": "tool refused", "data": {"tool": "get_weather"}}}"#);
    let verdict = round_trip::<Verdict>(r#"{"success": true, "data": null, "text": "sunny", "error": null, "duration_ms": 3}"#);
    assert_eq!(verdict.text.as_deref(), Some("sunny"));
    assert!(matches!(CallResult::decode(r#"{"success": true, "data": null, "text": "sunny", "error": null, "duration_ms": 3}"#).unwrap(), CallResult::Verdict(_)));
}

#[test]
fn errors_say_where_and_why() {
    let cases = [
        ("Verdict", r#"{"success": true, "data": null, "text": "sunny", "error": null, "duration_ms": 3, "retries": 1}"#, "Verdict: unknown field `retries`"),
        ("Response", r#"{"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "x"}}"#, "Response: both `result` and `error`"),
        ("Response", r#"{"jsonrpc": "2.0", "id": 1}"#, "Response: neither `result` nor `error`"),
        ("Verdict", r#"{"success": true, "data": null, "error": null, "duration_ms": 3}"#, "Verdict: missing field `text`"),
        ("Verdict", r#"{"success": true, "data": null, "text": 5, "error": null, "duration_ms": 3}"#, "Verdict: expected string or null, got integer at $.text"),
        ("Verdict", r#"{"success": true, "data": null, "text": null, "error": null, "duration_ms": -3}"#, "Verdict: expected integer >= 0, got -3 at $.duration_ms"),
        ("Request", r#"{"jsonrpc": "1.0", "id": 1, "method": "x"}"#, "Request: expected \"2.0\", got \"1.0\" at $.jsonrpc"),
        ("Request", r#"{"jsonrpc": "2.0", "id": null, "method": "x"}"#, "Request: expected integer or string, got null at $.id"),
        ("HandshakeParams", r#"{"protocol_version": 2, "sdk": null}"#, "HandshakeParams: expected string, got null at $.sdk"),
        ("CallParams", r#"{"tool": "t", "arguments": {"a": 1, "a": 2}}"#, "CallParams: duplicate key `a` at $.arguments"),
        ("HandshakeParams", r#"{"protocol_version": 9007199254740992}"#, "HandshakeParams: integer 9007199254740992 is outside ±(2^53-1) at $.protocol_version"),
    ];
    for (type_name, text, expected) in cases {
        let got = mcptest_coprocess::frames::decode_and_encode(type_name, text).unwrap();
        assert_eq!(got.map_err(|e| e.to_string()), Err(expected.to_string()), "{text}");
    }
}

#[test]
fn integral_numbers_are_integers() {
    let verdict = Verdict::decode(r#"{"success": true, "data": 1.5, "text": null, "error": null, "duration_ms": 1e2}"#).unwrap();
    assert_eq!(verdict.duration_ms, 100);
    assert_eq!(serde_json::to_value(&verdict).unwrap()["data"], serde_json::json!(1.5));
}

mod typed_envelopes {
    use mcptest_coprocess::frames::{CallParams, CallResult, HandshakeResult, RequestOf, ResponseOf, Verdict};
    use serde_json::Value;

    #[test]
    fn a_request_decodes_with_its_params_typed_in_one_pass() {
        let text = r#"{"jsonrpc": "2.0", "id": 7, "method": "mcp.call", "params": {"tool": "get_weather", "arguments": {"city": "Paris"}}}"#;
        let request = RequestOf::<CallParams>::decode(text).unwrap();
        assert_eq!(request.params.as_ref().map(|p| p.tool.as_str()), Some("get_weather"));
        let back: Value = serde_json::from_str(&request.encode()).unwrap();
        assert_eq!(back, serde_json::from_str::<Value>(text).unwrap());
        let none = RequestOf::<CallParams>::decode(r#"{"jsonrpc":"2.0","id":1,"method":"mcp.call"}"#).unwrap();
        assert!(none.params.is_none());
    }

    #[test]
    fn a_wrong_params_member_is_reported_where_it_is() {
        let error = |text: &str| RequestOf::<CallParams>::decode(text).unwrap_err().to_string();
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"method":"mcp.call","params":{}}"#), "Request: missing field `tool` at $.params");
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"method":"mcp.call","params":{"tool":"t","retries":1}}"#), "Request: unknown field `retries` at $.params");
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"method":"mcp.call","params":{"tool":7}}"#), "Request: expected string, got integer at $.params.tool");
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"method":"mcp.call","params":null}"#), "Request: expected object, got null at $.params");
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"method":"mcp.call","params":{"tool":"t"},"x":1}"#), "Request: unknown field `x`");
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"method":"mcp.call","params":{"tool":"t","tool":"u"}}"#), "Request: duplicate key `tool` at $.params");
    }

    #[test]
    fn a_response_decodes_with_its_result_typed() {
        let ok = r#"{"jsonrpc":"2.0","id":7,"result":{"success":true,"data":null,"text":"sunny","error":null,"duration_ms":3}}"#;
        let ResponseOf::SuccessResponse(success) = ResponseOf::<Verdict>::decode(ok).unwrap() else { panic!("not a success") };
        assert_eq!(success.result.text.as_deref(), Some("sunny"));
        let failed = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"boom"}}"#;
        assert!(matches!(ResponseOf::<Verdict>::decode(failed).unwrap(), ResponseOf::ErrorResponse(e) if e.error.code == -32000));
        let error = |text: &str| ResponseOf::<HandshakeResult>::decode(text).unwrap_err().to_string();
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"result":{"protocol_version":2}}"#), "Response: missing field `binary_version` at $.result");
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#), "Response: both `result` and `error`");
        assert_eq!(error(r#"[]"#), "Response: expected object, got array");
        assert_eq!(error(r#"{"jsonrpc":"2.0","id":1,"result":{"protocol_version":2,"binary_version":"1"}} x"#).split(" at column").next().unwrap(), "Response: invalid JSON: trailing characters");
    }

    /// A nested untagged union (`CallResult` in `mcp.call`'s answer) is read
    /// in the outer decode's one pass over its members, whatever their order;
    /// the discriminator present picks the variant only once every member has
    /// been seen, and that variant's rules then apply in member order, with
    /// the messages and paths a union decoded alone gives: a member of the
    /// other variant is refused (even one that comes first, or whose value
    /// the other variant would refuse), and both or neither discriminator is
    /// refused before any member's value is looked at.
    #[test]
    fn a_nested_union_is_read_once_under_its_chosen_variants_rules() {
        let decode = |text: &str| ResponseOf::<CallResult>::decode(text).map(|r| match r {
            ResponseOf::SuccessResponse(success) => success.result,
            ResponseOf::ErrorResponse(_) => panic!("not a success"),
        });
        let error = |result: &str| decode(&format!(r#"{{"jsonrpc":"2.0","id":7,"result":{result}}}"#)).unwrap_err().to_string();
        let last = decode(r#"{"jsonrpc":"2.0","id":7,"result":{"data":null,"text":"ok","error":null,"duration_ms":3,"success":true}}"#).unwrap();
        assert!(matches!(last, CallResult::Verdict(Verdict { success: true, duration_ms: 3, .. })), "{last:?}");
        let passthrough = decode(r#"{"jsonrpc":"2.0","id":7,"result":{"isError":false,"content":[{"type":"text","text":"ok"}]}}"#).unwrap();
        assert!(matches!(&passthrough, CallResult::ToolCallPassthrough(p) if p.is_error == Some(false) && p.content.len() == 1), "{passthrough:?}");
        let verdict = r#""data":null,"text":null,"error":null,"duration_ms":3"#;
        assert_eq!(error(&format!(r#"{{"success":true,"isError":false,{verdict}}}"#)), "Response: unknown field `isError` at $.result");
        assert_eq!(error(&format!(r#"{{"isError":"no","success":true,{verdict}}}"#)), "Response: unknown field `isError` at $.result");
        assert_eq!(error(&format!(r#"{{"success":"yes","isError":false,{verdict}}}"#)), "Response: expected boolean, got string at $.result.success");
        assert_eq!(error(r#"{"success":"yes","content":[]}"#), "Response: both `success` and `content` at $.result");
        assert_eq!(error(r#"{"data":null}"#), "Response: neither `success` nor `content` at $.result");
        assert_eq!(error(r#"{"data":null,"success":true}"#), "Response: missing field `text` at $.result");
        assert_eq!(error(r#""sunny""#), "Response: expected object, got string at $.result");
        assert_eq!(error(r#"{"content":[{"type":"text","text":"ok"}],"isError":"no"}"#), "Response: expected boolean, got string at $.result.isError");
        assert_eq!(error(r#"{"content":{"type":"text"}}"#), "Response: expected array, got object at $.result.content");
        let list = format!(r#"{{"jsonrpc":"2.0","id":7,"result":[{{"success":true,{verdict}}},{{"success":true,"data":null,"text":null,"error":null,"duration_ms":-1}}]}}"#);
        assert_eq!(ResponseOf::<Vec<CallResult>>::decode(&list).unwrap_err().to_string(), "Response: expected integer >= 0, got -1 at $.result[1].duration_ms");
    }

    /// A nested union read from a `serde_json::Value` (no text to borrow its
    /// members' values from) decodes as from text, borrowed or owned.
    #[test]
    fn a_nested_union_is_read_from_a_parsed_value_too() {
        use mcptest_coprocess::frames::SuccessResponseOf;
        let value: Value = serde_json::from_str(r#"{"jsonrpc":"2.0","id":7,"result":{"data":{"t":1},"text":null,"error":null,"duration_ms":3,"success":true}}"#).unwrap();
        let borrowed: SuccessResponseOf<CallResult> = serde::Deserialize::deserialize(&value).unwrap();
        let owned: SuccessResponseOf<CallResult> = serde_json::from_value(value).unwrap();
        for result in [borrowed.result, owned.result] {
            assert!(matches!(&result, CallResult::Verdict(v) if v.data == serde_json::json!({"t": 1}) && v.duration_ms == 3), "{result:?}");
        }
        let wrong: Value = serde_json::from_str(r#"{"jsonrpc":"2.0","id":7,"result":{"success":true,"isError":false}}"#).unwrap();
        let error = serde_json::from_value::<SuccessResponseOf<CallResult>>(wrong).unwrap_err().to_string();
        assert!(error.starts_with("unknown field `isError`"), "{error}");
    }
}

/// A verdict whose `text` is `body`, as frame text.
fn verdict_with_text(body: &str) -> String {
    format!(r#"{{"success":true,"data":null,"text":"{body}","error":null,"duration_ms":0}}"#)
}

#[test]
fn a_strings_quote_backslash_and_control_characters_are_found_at_any_offset() {
    // The scan skips a string's plain bytes eight at a time: whatever ends
    // the run (the closing quote, an escape, a control character) is found
    // in every position of a word, after plain ASCII and after multi-byte
    // UTF-8 (whose bytes are all at 0x80 or above).
    let column_of_text = verdict_with_text("").find(r#""text":""#).unwrap() + 9;
    for filler in ["a", "é", "\u{10ffff}", "~"] {
        for count in 0..20 {
            let plain = filler.repeat(count);
            let verdict = Verdict::decode(&verdict_with_text(&plain)).unwrap();
            assert_eq!(verdict.text.as_deref(), Some(plain.as_str()));
            let escaped = Verdict::decode(&verdict_with_text(&format!(r#"{plain}\"\\x"#))).unwrap();
            assert_eq!(escaped.text, Some(format!("{plain}\"\\x")));
            for control in ['\u{0}', '\u{1}', '\u{1f}'] {
                let text = verdict_with_text(&format!("{plain}{control}zz"));
                let error = Verdict::decode(&text).unwrap_err();
                let column = column_of_text + plain.len();
                assert_eq!(
                    error.problem,
                    format!("invalid JSON: control character in string at column {column}"),
                    "{text:?}"
                );
            }
        }
    }
    // Bytes one off the special ones are plain.
    let near = "\u{20}!#[]\u{7f}";
    assert_eq!(Verdict::decode(&verdict_with_text(near)).unwrap().text.as_deref(), Some(near));
}
