//! The session loop: one request line in, one response line out, strictly
//! serialized. Lines are read on a thread with the contract's `LineReader`
//! (an over-long line is skipped without being buffered whole); every bad
//! line gets its JSON-RPC error and the session goes on. `mcp.shutdown` or
//! end of input closes the server under test and ends the session.

use std::io::{self, Write};

use mcptest_coprocess::envelope::{error_response, read_line};
use mcptest_coprocess::frames::{error_codes, messages, methods, ErrorObject, JsonRpcVersion, RequestId, SuccessResponse};
use mcptest_coprocess::ndjson::{encode_line, Line, LineReader};
use mcptest_coprocess::MAX_LINE_BYTES;

use crate::cli::Config;
use crate::dispatch::Session;

/// Reads stdin into the channel until end of input (or the session stops listening).
fn read_stdin(lines: tokio::sync::mpsc::Sender<io::Result<Line>>) {
    let mut reader = LineReader::new(io::stdin().lock(), MAX_LINE_BYTES);
    loop {
        let next = reader.next_line();
        let last = !matches!(next, Ok(Some(_)));
        let sent = match next {
            Ok(Some(line)) => lines.blocking_send(Ok(line)),
            Ok(None) => return,
            Err(e) => lines.blocking_send(Err(e)),
        };
        if sent.is_err() || last {
            return;
        }
    }
}

/// The answer to one line, and whether the session ends after it.
async fn answer(session: &mut Session, line: Line) -> (String, bool) {
    let request = match read_line(line) {
        Ok(request) => request,
        Err(error) => return (within_limit(encode_line(&*error), UNSERVED_METHOD, error.id.as_ref()), false),
    };
    let (line, end) = match session.handle(&request).await {
        Ok(result) => {
            let end = request.method.name == methods::MCP_SHUTDOWN;
            (encode_line(&SuccessResponse { jsonrpc: JsonRpcVersion::default(), id: request.id.clone(), result }), end)
        }
        Err(error) => (encode_line(&error_response(Some(request.id.clone()), error)), false),
    };
    (within_limit(line, request.method.name, Some(&request.id)), end)
}

/// `{method}` of `answer_too_long` in place of the error answer to a line the
/// binary could not serve (the schema's description of that message).
const UNSERVED_METHOD: &str = "request";

/// The answer's line, or, when it is longer than the contract's
/// `max_line_bytes` (without its `\n`), the `answer_too_long` error in its
/// place, with the request's `id` unless that `id` alone would make this
/// line too long too: no reader could take it, and the session goes on.
fn within_limit(line: String, method: &str, id: Option<&RequestId>) -> String {
    let bytes = line.len().saturating_sub(1);
    if bytes <= MAX_LINE_BYTES {
        return line;
    }
    let message = messages::render_answer_too_long(method, &bytes.to_string(), &MAX_LINE_BYTES.to_string());
    eprintln!("mcptest: {message}");
    let error = ErrorObject { code: error_codes::UPSTREAM_ERROR, message, data: None };
    let answer = encode_line(&error_response(id.cloned(), error.clone()));
    if answer.len() - 1 <= MAX_LINE_BYTES {
        return answer;
    }
    encode_line(&error_response(None, error))
}

pub async fn run(config: Config) -> Result<(), String> {
    let (sender, mut lines) = tokio::sync::mpsc::channel(1);
    std::thread::spawn(move || read_stdin(sender));
    let mut session = Session::new(config);
    let mut stdout = io::stdout();
    let mut outcome = Ok(());
    while let Some(line) = lines.recv().await {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                outcome = Err(format!("cannot read stdin: {e}"));
                break;
            }
        };
        let (response, end) = answer(&mut session, line).await;
        if let Err(e) = stdout.write_all(response.as_bytes()).and_then(|()| stdout.flush()) {
            outcome = Err(format!("cannot write stdout: {e}"));
            break;
        }
        if end {
            break;
        }
    }
    session.close().await;
    outcome
}
