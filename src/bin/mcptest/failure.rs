//! Why a request to the server under test did not produce a result, and the
//! JSON-RPC error each reason is answered with (-32000 or -32001).

use std::time::Duration;

use mcptest_coprocess::frames::{error_codes, ErrorObject};
use serde_json::{json, Value};

/// An upstream request that failed.
#[derive(Debug, Clone)]
pub enum Failure {
    /// The server answered with a JSON-RPC error object (kept verbatim).
    Server { method: String, error: Value },
    /// The server could not be started, or did not finish its handshake.
    Start { reason: String },
    /// No answer within the timeout.
    Timeout { method: String, after: Duration },
    /// The connection dropped (the server exited, or its pipes closed).
    Dropped { method: String, reason: String },
    /// Replay found no recorded answer to this request in the cassette.
    NotRecorded { method: String, cassette: String },
    /// Anything else the MCP client reported (an unexpected answer, ...).
    Other { method: String, reason: String },
}

impl Failure {
    /// The error the coprocess answers with.
    pub fn to_error(&self) -> ErrorObject {
        let (code, message, data) = match self {
            Failure::Server { method, error } => {
                let said = error.get("message").and_then(Value::as_str).unwrap_or("(no message)");
                (error_codes::UPSTREAM_ERROR, format!("the MCP server under test answered {method} with an error: {said}"), error.clone())
            }
            Failure::Start { reason } => (
                error_codes::UPSTREAM_ERROR,
                format!("the MCP server under test could not be started or reached: {reason}"),
                json!({ "reason": reason }),
            ),
            Failure::Timeout { method, after } => {
                let reason = format!("no answer to {method} within {} ms", after.as_millis());
                (error_codes::UPSTREAM_ERROR, format!("the MCP server under test timed out: {reason}"), json!({ "reason": reason }))
            }
            Failure::Dropped { method, reason } => (
                error_codes::UPSTREAM_CONNECTION_DROPPED,
                format!("the connection to the MCP server under test dropped during {method}: {reason}"),
                json!({ "reason": reason }),
            ),
            Failure::NotRecorded { method, cassette } => {
                let reason = format!("the cassette {cassette} holds no {method} exchange with these params");
                (error_codes::UPSTREAM_ERROR, format!("cassette replay has no answer: {reason}"), json!({ "reason": reason }))
            }
            Failure::Other { method, reason } => (
                error_codes::UPSTREAM_ERROR,
                format!("the MCP server under test did not give a usable answer to {method}: {reason}"),
                json!({ "reason": reason }),
            ),
        };
        ErrorObject { code, message, data: Some(data) }
    }

    pub fn is_dropped(&self) -> bool {
        matches!(self, Failure::Dropped { .. })
    }
}

/// Classifies an error of the rmcp client.
pub fn from_service_error(method: &str, error: rmcp::ServiceError, timeout: Duration) -> Failure {
    use rmcp::ServiceError as E;
    let method = method.to_string();
    match error {
        E::McpError(error) => Failure::Server { method, error: serde_json::to_value(&error).unwrap_or(Value::Null) },
        E::TransportClosed => Failure::Dropped { method, reason: "the server closed its end (it exited or crashed)".into() },
        E::TransportSend(e) => Failure::Dropped { method, reason: format!("cannot send to the server: {e}") },
        E::Timeout { .. } => Failure::Timeout { method, after: timeout },
        other => Failure::Other { method, reason: other.to_string() },
    }
}
