//! Every forwarded method of the `mcptest` binary against both real servers
//! (server-everything: legacy era; the python `mcp` 2.x server: modern era),
//! with and without the handshake, ended by `mcp.shutdown` or end of input.

mod binary_support;

use std::time::Duration;

use binary_support::{servers, servers_ready, Coprocess, Server};
use mcptest_coprocess::frames::methods;
use mcptest_coprocess::PROTOCOL_VERSION;
use serde_json::{json, Value};

fn names(items: &Value, key: &str) -> Vec<String> {
    items.as_array().expect("array").iter().map(|item| item[key].as_str().expect("string").to_string()).collect()
}

fn every_method(server: &Server) {
    let spec = &server.spec;
    let name = spec["name"].as_str().expect("name");
    let mut coprocess = Coprocess::spawn(&server.command);

    let handshake = coprocess.ok(methods::COPROCESS_HANDSHAKE, json!({"protocol_version": PROTOCOL_VERSION, "sdk": "rust"}));
    assert_eq!(handshake["protocol_version"], json!(PROTOCOL_VERSION));

    let initialize = coprocess.ok(methods::MCP_INITIALIZE, json!({}));
    assert_eq!(initialize["era"], spec["era"], "{name}: era");
    assert!(!initialize["server_name"].as_str().expect("name").is_empty(), "{name}: {initialize}");
    assert_eq!(coprocess.ok(methods::MCP_INITIALIZE, json!({})), initialize, "{name}: initialize is idempotent");

    let tools = coprocess.ok(methods::MCP_LIST_TOOLS, json!({}));
    assert!(names(&tools["tools"], "name").contains(&spec["tool"].as_str().expect("tool").to_string()), "{name}: {tools}");

    let verdict = coprocess.ok(methods::MCP_CALL, json!({"tool": spec["tool"], "arguments": spec["tool_args"]}));
    assert_eq!(verdict["success"], json!(true), "{name}: {verdict}");
    assert!(verdict["text"].as_str().expect("text").contains(spec["expect_text"].as_str().expect("expect_text")), "{name}: {verdict}");
    assert!(verdict["duration_ms"].is_u64());

    let passthrough = coprocess.ok(methods::MCP_CALL, json!({"tool": spec["tool"], "arguments": spec["tool_args"], "passthrough": true}));
    assert!(passthrough.get("success").is_none(), "{name}: passthrough is not a verdict: {passthrough}");
    assert_eq!(passthrough["content"][0]["text"], verdict["text"], "{name}: {passthrough}");

    let resources = coprocess.ok(methods::MCP_LIST_RESOURCES, json!({}));
    assert!(names(&resources["resources"], "uri").contains(&spec["resource_uri"].as_str().expect("uri").to_string()), "{name}: {resources}");

    let resource = coprocess.ok(methods::MCP_READ_RESOURCE, json!({"uri": spec["resource_uri"]}));
    assert_eq!(resource["contents"][0]["uri"], spec["resource_uri"], "{name}: {resource}");

    let prompt = coprocess.ok(methods::MCP_CALL_PROMPT, json!({"name": spec["prompt"], "arguments": spec["prompt_args"]}));
    let first = prompt["messages"][0].to_string();
    let argument = spec["prompt_args"].as_object().expect("args").values().next().expect("one arg").as_str().expect("str");
    assert!(first.contains(argument), "{name}: the prompt's message carries the argument: {prompt}");

    assert_eq!(coprocess.ok(methods::MCP_SHUTDOWN, json!({})), json!({}));
    assert_eq!(coprocess.wait(Duration::from_secs(15)).code(), Some(0), "{name}: shutdown exits 0");
}

#[test]
fn every_method_against_both_real_servers() {
    if !servers_ready() {
        return;
    }
    for server in servers() {
        every_method(&server);
    }
}

#[test]
fn a_v1_sdk_without_handshake_is_served_and_end_of_input_exits_0() {
    if !servers_ready() {
        return;
    }
    for server in servers() {
        let mut coprocess = Coprocess::spawn(&server.command);
        let tools = coprocess.ok(methods::MCP_LIST_TOOLS, json!({}));
        assert!(!tools["tools"].as_array().expect("tools").is_empty(), "{tools}");
        coprocess.close_stdin();
        assert_eq!(coprocess.wait(Duration::from_secs(15)).code(), Some(0), "end of input exits 0");
    }
}

#[test]
fn a_tool_error_is_a_failed_verdict_not_a_jsonrpc_error() {
    if !servers_ready() {
        return;
    }
    let python = servers().into_iter().find(|s| s.spec["name"] == "python").expect("python server");
    let mut coprocess = Coprocess::spawn(&python.command);
    let verdict = coprocess.ok(methods::MCP_CALL, json!({"tool": "fail", "arguments": {"reason": "no luck"}}));
    assert_eq!(verdict["success"], json!(false), "{verdict}");
    assert!(verdict["error"].as_str().expect("error text").contains("no luck"), "{verdict}");
    let add = coprocess.ok(methods::MCP_CALL, json!({"tool": "add", "arguments": {"a": 2, "b": 3}}));
    assert_eq!(add["data"], json!({"sum": 5}), "structuredContent is the verdict's data: {add}");
}
