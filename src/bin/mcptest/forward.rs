//! The forwarded methods' results, built from what the server under test
//! answered (MCP's own objects are passed through verbatim as `McpObject`s).

use mcptest_coprocess::frames::{CallPromptResult, InitializeResult, McpObject, ReadResourceResult};
use serde_json::Value;

use crate::failure::Failure;
use crate::upstream::Connected;

fn unusable(method: &str, reason: String) -> Failure {
    Failure::Other { method: method.to_string(), reason }
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string)
}

/// An MCP object, or the failure naming what was not one.
pub fn object(method: &str, value: &Value, what: &str) -> Result<McpObject, Failure> {
    match value {
        Value::Object(map) => Ok(McpObject(map.clone())),
        _ => Err(unusable(method, format!("`{what}` is not a JSON object"))),
    }
}

/// The array under `key`, every element an MCP object.
pub fn objects(method: &str, result: &Value, key: &str) -> Result<Vec<McpObject>, Failure> {
    let Some(items) = result.get(key).and_then(Value::as_array) else {
        return Err(unusable(method, format!("the result has no `{key}` array")));
    };
    items.iter().map(|item| object(method, item, key)).collect()
}

/// The `nextCursor` of a paginated result, if another page follows.
pub fn next_cursor(result: &Value) -> Option<String> {
    text(result, "nextCursor").filter(|cursor| !cursor.is_empty())
}

pub fn initialize_result(connected: &Connected) -> Result<InitializeResult, Failure> {
    let info = &connected.info;
    let server = info.get("serverInfo").cloned().unwrap_or(Value::Null);
    Ok(InitializeResult {
        era: connected.era,
        mcp_protocol_version: text(info, "protocolVersion").unwrap_or_default(),
        server_name: text(&server, "name").unwrap_or_default(),
        server_version: text(&server, "version").unwrap_or_default(),
        capabilities: object("initialize", info.get("capabilities").unwrap_or(&Value::Null), "capabilities")?,
        instructions: text(info, "instructions"),
    })
}

pub fn read_resource_result(result: &Value) -> Result<ReadResourceResult, Failure> {
    Ok(ReadResourceResult { contents: objects("resources/read", result, "contents")? })
}

pub fn call_prompt_result(result: &Value) -> Result<CallPromptResult, Failure> {
    Ok(CallPromptResult { description: text(result, "description"), messages: objects("prompts/get", result, "messages")? })
}
