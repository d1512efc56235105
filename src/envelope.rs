//! The binary's reading of one request line: the right JSON-RPC error for
//! each way a line can be wrong, so that the session always goes on.
//!
//! | the line | the answer |
//! |---|---|
//! | not strict JSON text | -32700, null id |
//! | JSON, but not a request envelope | -32600, the id when it can be read |
//! | an over-long line | -32600, null id (see [`too_long`]) |
//! | a method outside the table | -32601 |
//! | params that do not fit the method's shape | -32602 naming the field |

use serde_json::Value;

use crate::frames::{
    self, error_codes, method_info, ErrorObject, ErrorResponse, Frame, JsonRpcVersion, MethodInfo, Request,
    RequestId,
};
use crate::ndjson::Line;

/// A request whose envelope, method and params all check out.
#[derive(Debug, Clone)]
pub struct CheckedRequest {
    pub id: RequestId,
    pub method: &'static MethodInfo,
    /// The params object (an empty object when it was omitted).
    pub params: Value,
}

impl CheckedRequest {
    /// Decodes the params as the method's params type.
    pub fn params<T: Frame>(&self) -> Result<T, ErrorObject> {
        T::from_value(self.params.clone()).map_err(|e| invalid_params(&e.to_string()))
    }
}

/// Builds an error response.
pub fn error_response(id: Option<RequestId>, error: ErrorObject) -> ErrorResponse {
    ErrorResponse { jsonrpc: JsonRpcVersion::default(), id, error }
}

fn error(code: i64, message: impl Into<String>) -> ErrorObject {
    ErrorObject { code, message: message.into(), data: None }
}

/// The -32602 error for bad params.
pub fn invalid_params(message: &str) -> ErrorObject {
    error(error_codes::INVALID_PARAMS, format!("invalid params: {message}"))
}

/// The answer to a line longer than the contract's limit.
pub fn too_long(length: usize) -> ErrorResponse {
    error_response(
        None,
        error(
            error_codes::INVALID_REQUEST,
            format!("invalid request: the line is {length} bytes, over the limit of {} bytes; it was skipped", frames::MAX_LINE_BYTES),
        ),
    )
}

/// The answer to a line that is not UTF-8.
pub fn not_utf8() -> ErrorResponse {
    error_response(None, error(error_codes::PARSE_ERROR, "parse error: the line is not UTF-8"))
}

/// Reads one line of the channel as the binary does: the request to serve,
/// or the one error answer the line gets (a blank line never gets here: the
/// splitter drops it).
pub fn read_line(line: Line) -> Result<CheckedRequest, Box<ErrorResponse>> {
    match line {
        Line::Frame(text) => read_request(&text),
        Line::TooLong { length } => Err(Box::new(too_long(length))),
        Line::NotUtf8 => Err(Box::new(not_utf8())),
    }
}

/// Reads one request line (without its `\n`).
pub fn read_request(line: &str) -> Result<CheckedRequest, Box<ErrorResponse>> {
    let text = frames::strict::check_text(line, frames::MAX_DEPTH).map_err(|(path, problem)| {
        let at = if path == "$" { String::new() } else { format!(" at {path}") };
        Box::new(error_response(None, error(error_codes::PARSE_ERROR, format!("parse error: {problem}{at}"))))
    })?;
    let request = Request::decode(&text).map_err(|e| {
        let id = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("id").cloned())
            .and_then(|id| RequestId::from_value(id).ok());
        Box::new(error_response(id, error(error_codes::INVALID_REQUEST, format!("invalid request: {e}"))))
    })?;
    let Some(method) = method_info(&request.method) else {
        return Err(Box::new(error_response(
            Some(request.id),
            error(error_codes::METHOD_NOT_FOUND, format!("method not found: `{}`", request.method)),
        )));
    };
    let params = match request.params {
        Some(params) => Value::Object(params.0),
        None if method.params_required => {
            return Err(Box::new(error_response(
                Some(request.id),
                invalid_params(&format!("{} needs params ({})", method.name, method.params)),
            )))
        }
        None => Value::Object(Default::default()),
    };
    if let Some(Err(e)) = frames::check_value(method.params, params.clone()) {
        return Err(Box::new(error_response(Some(request.id), invalid_params(&e.to_string()))));
    }
    Ok(CheckedRequest { id: request.id, method, params })
}
