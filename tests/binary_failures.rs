//! The server under test misbehaving: a crash mid-call is -32001 (and the next
//! call is answered quickly, restarting the server), a hung call times out
//! with -32000, a server error is -32000 carrying the server's error object,
//! a server that never answers or cannot be started is -32000. Also: the
//! unsolicited notifications the misbehaving server sends are tolerated. An
//! answer longer than the contract's `max_line_bytes` is never written: it is
//! -32000 with the `answer_too_long` message, and the session goes on.

mod binary_support;

use std::time::{Duration, Instant};

use binary_support::{Coprocess, MISBEHAVING};
use mcptest_coprocess::frames::{error_codes, messages, methods};
use mcptest_coprocess::MAX_LINE_BYTES;
use serde_json::{json, Value};

fn echo(coprocess: &mut Coprocess, message: &str) {
    let verdict = coprocess.ok(methods::MCP_CALL, json!({"tool": "echo", "arguments": {"message": message}}));
    assert_eq!(verdict["text"], json!(format!("Echo: {message}")), "{verdict}");
}

#[test]
fn a_crash_mid_call_is_32001_and_the_next_call_does_not_hang() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    echo(&mut coprocess, "before");
    let dropped = coprocess.err(methods::MCP_CALL, json!({"tool": "crash"}));
    assert_eq!(dropped["code"], json!(error_codes::UPSTREAM_CONNECTION_DROPPED), "{dropped}");
    assert!(dropped["message"].as_str().expect("message").contains("dropped"), "{dropped}");

    let started = Instant::now();
    let again = coprocess.err(methods::MCP_CALL, json!({"tool": "crash"}));
    assert_eq!(again["code"], json!(error_codes::UPSTREAM_CONNECTION_DROPPED), "{again}");
    assert!(started.elapsed() < Duration::from_secs(5), "the next call took {:?}", started.elapsed());
    echo(&mut coprocess, "after a restart");
}

#[test]
fn a_hung_call_times_out_with_32000_and_the_session_goes_on() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    echo(&mut coprocess, "warm");
    let started = Instant::now();
    let timeout = coprocess.err(methods::MCP_CALL, json!({"tool": "hang", "timeout_ms": 200}));
    let took = started.elapsed();
    assert_eq!(timeout["code"], json!(error_codes::UPSTREAM_ERROR), "{timeout}");
    assert!(timeout["data"]["reason"].as_str().expect("reason").contains("200 ms"), "{timeout}");
    assert!(took >= Duration::from_millis(200) && took < Duration::from_secs(5), "took {took:?}");
    echo(&mut coprocess, "after the timeout");
}

#[test]
fn the_cli_timeout_bounds_a_server_that_never_answers() {
    let mut coprocess = Coprocess::spawn_with(&format!("{MISBEHAVING} --silent"), &["--timeout-ms", "300"]);
    let started = Instant::now();
    let error = coprocess.err(methods::MCP_INITIALIZE, json!({}));
    assert_eq!(error["code"], json!(error_codes::UPSTREAM_ERROR), "{error}");
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    let error = coprocess.err(methods::MCP_CALL, json!({"tool": "echo"}));
    assert_eq!(error["code"], json!(error_codes::UPSTREAM_ERROR), "{error}");
}

#[test]
fn a_server_error_is_32000_with_the_servers_error_as_data() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    let error = coprocess.err(methods::MCP_CALL, json!({"tool": "refuse"}));
    assert_eq!(error["code"], json!(error_codes::UPSTREAM_ERROR), "{error}");
    assert_eq!(error["data"], json!({"code": -32042, "message": "tool refused", "data": {"tool": "refuse"}}));
    echo(&mut coprocess, "after the error");
}

#[test]
fn a_server_that_cannot_be_started_is_32000_with_the_reason() {
    let mut coprocess = Coprocess::spawn("/nonexistent/mcp-server --flag");
    let error = coprocess.err(methods::MCP_LIST_TOOLS, json!({}));
    assert_eq!(error["code"], json!(error_codes::UPSTREAM_ERROR), "{error}");
    assert!(error["data"]["reason"].as_str().expect("reason").contains("/nonexistent/mcp-server"), "{error}");
    let mut exits = Coprocess::spawn("python3 -c 'import sys; sys.exit(4)'");
    let error = exits.err(methods::MCP_INITIALIZE, json!({}));
    assert_eq!(error["code"], json!(error_codes::UPSTREAM_ERROR), "{error}");
}

/// The `answer_too_long` error the binary answers `method` with when its
/// answer's line would be `bytes` long.
fn too_long(method: &str, bytes: usize) -> Value {
    json!({"code": error_codes::UPSTREAM_ERROR, "message": messages::render_answer_too_long(method, &bytes.to_string(), &MAX_LINE_BYTES.to_string())})
}

#[test]
fn an_answer_of_exactly_max_line_bytes_is_written_and_one_byte_more_is_answer_too_long() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    // A server error: its message twice (in the error's message and in its
    // data, the server's error object) and its data once, nothing that
    // varies. Each server line stays under rmcp's own 16 MiB line limit.
    let message = (8 << 20) - 4096;
    let call = |data: usize| json!({"tool": "refuse_sized", "arguments": {"message_bytes": message, "data_bytes": data}});
    let (length, answer) = coprocess.request_sized(methods::MCP_CALL, call(10));
    assert_eq!(answer["error"]["data"]["data"].as_str().map(str::len), Some(10), "{:.300}", answer.to_string());
    let data = MAX_LINE_BYTES - (length - 10);

    let (length, answer) = coprocess.request_sized(methods::MCP_CALL, call(data));
    assert_eq!(length, MAX_LINE_BYTES, "the answer at the limit: {:.300}", answer.to_string());
    assert_eq!(answer["error"]["data"]["data"].as_str().map(str::len), Some(data));

    let (length, answer) = coprocess.request_sized(methods::MCP_CALL, call(data + 1));
    assert!(answer["error"] == too_long(methods::MCP_CALL, MAX_LINE_BYTES + 1), "{:.300}", answer.to_string());
    assert!(length < 200, "the error is a short line: {length} bytes");
    echo(&mut coprocess, "after the long answer");
}

#[test]
fn a_failed_verdict_carries_its_text_twice_and_too_much_of_it_is_answer_too_long() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    let call = |bytes: usize| json!({"tool": "sized", "arguments": {"bytes": bytes, "is_error": true}});
    let verdict = coprocess.ok(methods::MCP_CALL, call(5));
    assert_eq!((&verdict["success"], &verdict["text"], &verdict["error"]), (&json!(false), &json!("xxxxx"), &json!("xxxxx")), "{verdict}");

    // 9 MiB of text, twice in the verdict: 18.9 MB, over the 16 MiB limit.
    let text = 9 << 20;
    let (length, answer) = coprocess.request_sized(methods::MCP_CALL, call(text));
    let message = answer["error"]["message"].as_str().unwrap_or_else(|| panic!("an error: {:.300}", answer.to_string()));
    let bytes: usize = message.split(' ').nth(4).and_then(|b| b.parse().ok()).unwrap_or_else(|| panic!("no byte count in {message}"));
    assert!(bytes > 2 * text, "{message}");
    assert!(answer["error"] == too_long(methods::MCP_CALL, bytes), "{:.300}", answer.to_string());
    assert!(length < 200, "the error is a short line: {length} bytes");
    echo(&mut coprocess, "after the long verdict");
}

#[test]
fn a_server_error_too_long_for_a_line_is_answer_too_long_and_the_session_goes_on() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    // The server's 6 MiB message is in the error's message and in its data,
    // beside 6 MiB of data: 18.9 MB.
    let mib = 6 << 20;
    let (_, answer) = coprocess.request_sized(methods::MCP_CALL, json!({"tool": "refuse_sized", "arguments": {"message_bytes": mib, "data_bytes": mib}}));
    let message = answer["error"]["message"].as_str().unwrap_or_else(|| panic!("an error: {:.300}", answer.to_string()));
    let bytes: usize = message.split(' ').nth(4).and_then(|b| b.parse().ok()).unwrap_or_else(|| panic!("no byte count in {message}"));
    assert!(bytes > 3 * mib, "{message}");
    assert!(answer["error"] == too_long(methods::MCP_CALL, bytes), "{:.300}", answer.to_string());
    echo(&mut coprocess, "after the long error");
}
