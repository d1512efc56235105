//! The server under test misbehaving: a crash mid-call is -32001 (and the next
//! call is answered quickly, restarting the server), a hung call times out
//! with -32000, a server error is -32000 carrying the server's error object,
//! a server that never answers or cannot be started is -32000. Also: the
//! unsolicited notifications the misbehaving server sends are tolerated.

mod binary_support;

use std::time::{Duration, Instant};

use binary_support::{Coprocess, MISBEHAVING};
use mcptest_coprocess::frames::{error_codes, methods};
use serde_json::json;

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
