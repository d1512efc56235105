//! `mcp.call`'s two answer shapes, from the upstream `tools/call` result: the
//! `Verdict` (the default) and the `ToolCallPassthrough` (when asked for).

use mcptest_coprocess::frames::{ToolCallPassthrough, Verdict};
use mcptest_coprocess::Frame;
use serde_json::{Map, Value};

use crate::failure::Failure;

/// The verdict: success from `isError`, data from `structuredContent`, text
/// from the text content blocks joined with newlines.
pub fn verdict(result: &Value, duration_ms: u64) -> Verdict {
    let success = !result.get("isError").and_then(Value::as_bool).unwrap_or(false);
    let texts: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    let text = (!texts.is_empty()).then(|| texts.join("\n"));
    let error = match (success, &text) {
        (true, _) => None,
        (false, Some(text)) => Some(text.clone()),
        (false, None) => Some("the tool reported an error without text".to_string()),
    };
    let data = result.get("structuredContent").cloned().unwrap_or(Value::Null);
    Verdict { success, data, text, error, duration_ms }
}

/// The upstream result verbatim, reduced to the fields the contract declares.
pub fn passthrough(result: &Value) -> Result<ToolCallPassthrough, Failure> {
    let mut kept = Map::new();
    for key in ["content", "structuredContent", "isError", "_meta"] {
        if let Some(value) = result.get(key).filter(|v| !v.is_null()) {
            kept.insert(key.to_string(), value.clone());
        }
    }
    ToolCallPassthrough::from_value(Value::Object(kept)).map_err(|e| Failure::Other {
        method: "tools/call".into(),
        reason: format!("the result does not fit the passthrough shape: {e}"),
    })
}
