//! The binary's own state: the result cache (a hit does not reach the server:
//! the python server's `count` tool proves it), the cassette (record against
//! the real server, replay with a server command that cannot start) and the
//! reporter (flush appends the kept verdicts to the path as JSON lines).

mod binary_support;

use binary_support::{servers, servers_ready, Coprocess, MISBEHAVING};
use mcptest_coprocess::frames::{error_codes, methods};
use mcptest_coprocess::validate::validate_text;
use serde_json::{json, Value};

fn python_server() -> String {
    servers().into_iter().find(|s| s.spec["name"] == "python").expect("python server").command
}

fn count(coprocess: &mut Coprocess) -> Value {
    coprocess.ok(methods::MCP_CALL, json!({"tool": "count"}))["text"].clone()
}

#[test]
fn cache_read_write_answers_an_identical_call_without_the_server() {
    if !servers_ready() {
        return;
    }
    let mut coprocess = Coprocess::spawn(&python_server());
    assert_eq!(count(&mut coprocess), json!("count=1"), "cache off: the server answers");
    let set = coprocess.ok(methods::MCP_CACHE_SET_MODE, json!({"mode": "read_write"}));
    assert_eq!(set, json!({"mode": "read_write", "previous_mode": "off", "entries": 0}));
    assert_eq!(count(&mut coprocess), json!("count=2"), "a miss reaches the server and is stored");
    assert_eq!(count(&mut coprocess), json!("count=2"), "a hit is the stored result");
    let echo = |c: &mut Coprocess, args: Value| c.ok(methods::MCP_CALL, json!({"tool": "echo", "arguments": args}))["text"].clone();
    assert_eq!(echo(&mut coprocess, json!({"message": "a"})), json!("Echo: a"));
    assert_eq!(echo(&mut coprocess, json!({"message": "b"})), json!("Echo: b"), "other arguments are another call");
    let set = coprocess.ok(methods::MCP_CACHE_SET_MODE, json!({"mode": "refresh"}));
    assert_eq!(set, json!({"mode": "refresh", "previous_mode": "read_write", "entries": 3}));
    assert_eq!(count(&mut coprocess), json!("count=3"), "refresh always calls the server");
    coprocess.ok(methods::MCP_CACHE_SET_MODE, json!({"mode": "read_write"}));
    assert_eq!(count(&mut coprocess), json!("count=3"), "refresh stored the new result");
    coprocess.ok(methods::MCP_CACHE_SET_MODE, json!({"mode": "off"}));
    assert_eq!(count(&mut coprocess), json!("count=4"), "off calls the server");
}

#[test]
fn cassette_record_then_replay_without_the_server() {
    if !servers_ready() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let cassette = dir.path().join("session.cassette.jsonl").to_string_lossy().into_owned();
    let mut recording = Coprocess::spawn(&python_server());
    let set = recording.ok(methods::MCP_CASSETTE_SET_MODE, json!({"mode": "record", "path": cassette}));
    assert_eq!(set, json!({"mode": "record", "previous_mode": "off", "path": cassette}));
    let initialize = recording.ok(methods::MCP_INITIALIZE, json!({}));
    let tools = recording.ok(methods::MCP_LIST_TOOLS, json!({}));
    let first = recording.ok(methods::MCP_CALL, json!({"tool": "count"}));
    let second = recording.ok(methods::MCP_CALL, json!({"tool": "count"}));
    let resource = recording.ok(methods::MCP_READ_RESOURCE, json!({"uri": "text://greeting"}));
    recording.ok(methods::MCP_SHUTDOWN, json!({}));
    let lines = std::fs::read_to_string(&cassette).expect("cassette written");
    assert_eq!(lines.lines().count(), 5, "discover, tools/list, 2 x tools/call, resources/read:\n{lines}");

    let mut replaying = Coprocess::spawn("/nonexistent/server-that-would-fail");
    let set = replaying.ok(methods::MCP_CASSETTE_SET_MODE, json!({"mode": "replay", "path": cassette}));
    assert_eq!(set["previous_mode"], json!("off"));
    assert_eq!(replaying.ok(methods::MCP_INITIALIZE, json!({})), initialize);
    assert_eq!(replaying.ok(methods::MCP_LIST_TOOLS, json!({})), tools);
    let strip = |mut v: Value| {
        v["duration_ms"] = json!(0);
        v
    };
    assert_eq!(strip(replaying.ok(methods::MCP_CALL, json!({"tool": "count"}))), strip(first), "recorded answers in order");
    assert_eq!(strip(replaying.ok(methods::MCP_CALL, json!({"tool": "count"}))), strip(second.clone()));
    assert_eq!(strip(replaying.ok(methods::MCP_CALL, json!({"tool": "count"}))), strip(second), "then the last again");
    assert_eq!(replaying.ok(methods::MCP_READ_RESOURCE, json!({"uri": "text://greeting"})), resource);
    let missing = replaying.err(methods::MCP_CALL, json!({"tool": "echo", "arguments": {"message": "never recorded"}}));
    assert_eq!(missing["code"], json!(error_codes::UPSTREAM_ERROR), "{missing}");
    let off = replaying.ok(methods::MCP_CASSETTE_SET_MODE, json!({"mode": "off"}));
    assert_eq!(off, json!({"mode": "off", "previous_mode": "replay", "path": null}));
    let live = replaying.err(methods::MCP_LIST_TOOLS, json!({}));
    assert_eq!(live["code"], json!(error_codes::UPSTREAM_ERROR), "off talks to the (unstartable) server again: {live}");
}

#[test]
fn cassette_replay_of_a_missing_file_is_32602() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    let error = coprocess.err(methods::MCP_CASSETTE_SET_MODE, json!({"mode": "replay", "path": "/nonexistent/cassette.jsonl"}));
    assert_eq!(error["code"], json!(error_codes::INVALID_PARAMS), "{error}");
    assert!(error["message"].as_str().expect("message").contains("path"), "{error}");
}

#[test]
fn reporter_flush_appends_the_kept_verdicts_to_the_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("verdicts.jsonl").to_string_lossy().into_owned();
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    assert_eq!(coprocess.ok(methods::MCP_REPORTER_FLUSH, json!({})), json!({"written": 0, "path": null}), "off: nothing written");
    coprocess.ok(methods::MCP_CALL, json!({"tool": "echo", "arguments": {"message": "not kept"}}));
    let status = coprocess.ok(methods::MCP_REPORTER_SET_UPLOAD, json!({"enabled": true, "path": path}));
    assert_eq!(status, json!({"enabled": true, "path": path, "pending": 0}));
    let a = coprocess.ok(methods::MCP_CALL, json!({"tool": "echo", "arguments": {"message": "a"}}));
    let b = coprocess.ok(methods::MCP_CALL, json!({"tool": "count", "passthrough": true}));
    assert_eq!(coprocess.ok(methods::MCP_REPORTER_FLUSH, json!({})), json!({"written": 2, "path": path}));
    assert_eq!(coprocess.ok(methods::MCP_REPORTER_FLUSH, json!({})), json!({"written": 0, "path": path}), "flushed ones are gone");
    let lines: Vec<Value> = std::fs::read_to_string(&path)
        .expect("verdicts written")
        .lines()
        .map(|line| validate_text("Verdict", line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], a);
    assert_eq!(lines[1]["text"], b["content"][0]["text"], "a passthrough call is reported as its verdict");

    coprocess.ok(methods::MCP_CALL, json!({"tool": "echo", "arguments": {"message": "discarded"}}));
    let off = coprocess.ok(methods::MCP_REPORTER_SET_UPLOAD, json!({"enabled": false}));
    assert_eq!(off, json!({"enabled": false, "path": null, "pending": 0}), "turning it off discards");
    assert_eq!(std::fs::read_to_string(&path).expect("file").lines().count(), 2);
}
