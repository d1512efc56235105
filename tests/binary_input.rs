//! Bad input to the `mcptest` binary: each line gets its JSON-RPC error and the
//! session goes on. Also the handshake (match, mismatch), `mcp.shutdown` and
//! end of input. Runs against the stdlib misbehaving server (no toolchain).

mod binary_support;

use std::io::Write;
use std::time::Duration;

use binary_support::{Coprocess, MISBEHAVING};
use mcptest_coprocess::frames::{error_codes, methods};
use mcptest_coprocess::{MAX_LINE_BYTES, PROTOCOL_VERSION};
use serde_json::{json, Value};

/// The session still answers a valid request after the bad line.
fn still_serving(coprocess: &mut Coprocess) {
    let tools = coprocess.ok(methods::MCP_LIST_TOOLS, json!({}));
    assert!(tools["tools"].as_array().is_some_and(|t| !t.is_empty()), "{tools}");
}

fn error_of(response: &Value, code: i64) -> &Value {
    assert_eq!(response["error"]["code"], json!(code), "{response}");
    &response["error"]
}

#[test]
fn bad_lines_are_answered_and_the_session_goes_on() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    for line in ["garbage", "{\"jsonrpc\": \"2.0\", \"id\": 1,", "{\"a\":1,\"a\":2}", "NaN"] {
        let response = coprocess.send_line(line);
        error_of(&response, error_codes::PARSE_ERROR);
        assert_eq!(response["id"], Value::Null, "a parse error has a null id: {response}");
        still_serving(&mut coprocess);
    }
    for (line, id) in [
        ("[1, 2]", Value::Null),
        ("\"mcp.listTools\"", Value::Null),
        (r#"{"jsonrpc":"2.0","method":"mcp.listTools"}"#, Value::Null),
        (r#"{"jsonrpc":"1.0","id":7,"method":"mcp.listTools"}"#, json!(7)),
        (r#"{"jsonrpc":"2.0","id":8,"method":"mcp.listTools","extra":true}"#, json!(8)),
    ] {
        let response = coprocess.send_line(line);
        error_of(&response, error_codes::INVALID_REQUEST);
        assert_eq!(response["id"], id, "{line} -> {response}");
        still_serving(&mut coprocess);
    }
    let unknown = coprocess.request("mcp.noSuchMethod", None);
    assert!(error_of(&unknown, error_codes::METHOD_NOT_FOUND)["message"].as_str().expect("message").contains("mcp.noSuchMethod"));
    still_serving(&mut coprocess);
}

#[test]
fn bad_params_get_32602_naming_the_field() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    for (method, params, field) in [
        (methods::MCP_CALL, json!({}), "tool"),
        (methods::MCP_CALL, json!({"tool": 5}), "tool"),
        (methods::MCP_CALL, json!({"tool": "echo", "timeout_ms": 0}), "timeout_ms"),
        (methods::MCP_CALL, json!({"tool": "echo", "tol": 1}), "tol"),
        (methods::MCP_READ_RESOURCE, json!({"url": "x"}), "url"),
        (methods::MCP_CACHE_SET_MODE, json!({"mode": "sometimes"}), "mode"),
        (methods::MCP_REPORTER_SET_UPLOAD, json!({"enabled": true}), "path"),
        (methods::MCP_CASSETTE_SET_MODE, json!({"mode": "record"}), "path"),
        (methods::MCP_LIST_TOOLS, json!({"page": 2}), "page"),
    ] {
        let error = coprocess.err(method, params.clone());
        assert_eq!(error["code"], json!(error_codes::INVALID_PARAMS), "{method} {params}: {error}");
        let message = error["message"].as_str().expect("message");
        assert!(message.contains(field), "{method} {params}: the message names `{field}`: {message}");
        still_serving(&mut coprocess);
    }
}

/// VmHWM of a process, in bytes.
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).expect("VmHWM");
    line.split_whitespace().nth(1).and_then(|kb| kb.parse::<u64>().ok()).expect("kB") * 1024
}

#[test]
fn an_over_long_line_is_32600_without_being_buffered_whole() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    still_serving(&mut coprocess);
    let length = 2 * MAX_LINE_BYTES + 12345;
    let chunk = vec![b'x'; 1 << 20];
    let stdin = coprocess.stdin();
    let mut left = length;
    while left > 0 {
        let n = left.min(chunk.len());
        stdin.write_all(&chunk[..n]).expect("stream the long line");
        left -= n;
    }
    stdin.write_all(b"\n").expect("end the long line");
    let response = coprocess.read_response();
    let error = error_of(&response, error_codes::INVALID_REQUEST);
    assert_eq!(response["id"], Value::Null);
    assert!(error["message"].as_str().expect("message").contains(&length.to_string()), "{response}");
    still_serving(&mut coprocess);
    let peak = peak_rss(coprocess.pid());
    assert!(peak < length as u64, "the binary's peak RSS {peak} B reached the line's {length} B: it buffered the line whole");
}

#[test]
fn the_handshake_matches_or_names_both_versions_and_the_side_to_upgrade() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    let ok = coprocess.ok(methods::COPROCESS_HANDSHAKE, json!({"protocol_version": PROTOCOL_VERSION, "sdk": "go", "sdk_version": "1.2.3"}));
    assert_eq!(ok["protocol_version"], json!(PROTOCOL_VERSION));
    assert_eq!(ok["binary_version"], json!(env!("CARGO_PKG_VERSION")));

    let newer = coprocess.err(methods::COPROCESS_HANDSHAKE, json!({"protocol_version": PROTOCOL_VERSION + 1, "sdk": "python"}));
    assert_eq!(newer["code"], json!(error_codes::INVALID_PARAMS));
    assert_eq!(
        newer["message"],
        json!(format!(
            "coprocess protocol version mismatch: this mcptest binary speaks v{PROTOCOL_VERSION}, the python SDK sent v{}. Upgrade the mcptest binary (or pin the SDK to the matching release).",
            PROTOCOL_VERSION + 1
        ))
    );
    let older = coprocess.err(methods::COPROCESS_HANDSHAKE, json!({"protocol_version": PROTOCOL_VERSION - 1}));
    assert_eq!(
        older["message"],
        json!(format!(
            "coprocess protocol version mismatch: this mcptest binary speaks v{PROTOCOL_VERSION}, the SDK sent v{}. Upgrade the SDK (or pin the mcptest binary to the matching release).",
            PROTOCOL_VERSION - 1
        ))
    );
    still_serving(&mut coprocess);
}

#[test]
fn shutdown_answers_then_exits_0() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    still_serving(&mut coprocess);
    assert_eq!(coprocess.ok(methods::MCP_SHUTDOWN, json!({})), json!({}));
    assert_eq!(coprocess.wait(Duration::from_secs(10)).code(), Some(0));
}

#[test]
fn shutdown_before_any_server_was_started_exits_0() {
    let mut coprocess = Coprocess::spawn("/nonexistent/server");
    assert_eq!(coprocess.ok(methods::MCP_SHUTDOWN, json!({})), json!({}));
    assert_eq!(coprocess.wait(Duration::from_secs(10)).code(), Some(0));
}

#[test]
fn end_of_input_exits_0_without_an_answer() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    still_serving(&mut coprocess);
    coprocess.close_stdin();
    assert_eq!(coprocess.wait(Duration::from_secs(10)).code(), Some(0));
}
