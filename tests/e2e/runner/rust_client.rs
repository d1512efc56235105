//! The Rust end-to-end client, in process: the same three scenarios as the
//! other languages' clients, using only the generated
//! `generated/rust/mcptest-runner/src/coprocess.rs` (included by the runner as
//! `crate::coprocess`), serde_json for the report and a minimal stdio loop.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::coprocess::{
    self, check_handshake_response, handshake_request, methods, CallParams, CallPromptParams, CallPromptResult, CallResult, Frame, HandshakeResult,
    InitializeResult, JsonRpcVersion, ListToolsResult, McpObject, Params, PromptArguments, ReadResourceParams, ReadResourceResult, Request, RequestId,
    Response, ShutdownResult,
};

const SDK: &str = "rust";
const SDK_VERSION: &str = "0.0.0-e2e";
const EXIT_TIMEOUT: Duration = Duration::from_secs(20);

/// What a scenario is given: the coprocess argv and the `full` inputs.
pub struct Inputs {
    pub argv: Vec<String>,
    pub tool: String,
    pub tool_args: Value,
    pub resource_uri: String,
    pub prompt: String,
    pub prompt_args: Value,
}

/// The coprocess and a minimal stdio loop: write one line, read one line.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Session {
    fn start(argv: &[String]) -> Result<Self, String> {
        let (program, args) = argv.split_first().ok_or("MCPTEST_ARGV is empty")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("spawning {program}: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Session {
            child,
            stdin,
            stdout,
            next_id: 1,
        })
    }

    fn exchange(&mut self, line: &str) -> Result<String, String> {
        let stdin = self.stdin.as_mut().ok_or("stdin already closed")?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("writing to the coprocess: {e}"))?;
        let mut answer = String::new();
        let read = self.stdout.read_line(&mut answer).map_err(|e| format!("reading from the coprocess: {e}"))?;
        if read == 0 {
            return Err("the coprocess closed its stdout without answering".into());
        }
        let answer = answer.strip_suffix('\n').unwrap_or(&answer);
        Ok(answer.strip_suffix('\r').unwrap_or(answer).to_string())
    }

    fn take_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id - 1
    }

    /// The handshake answer, checked by the generated helper: `Err(Ok(message))`
    /// is the helper's fail-fast message, `Err(Err(_))` a broken exchange.
    fn handshake(&mut self) -> Result<HandshakeResult, Result<String, String>> {
        let id = self.take_id();
        let answer = self
            .exchange(&handshake_request(RequestId::Integer(id), Some(SDK), Some(SDK_VERSION)))
            .map_err(Err)?;
        check_handshake_response(&answer).map_err(|failure| Ok(failure.message))
    }

    /// Sends `method` with `params` (of the method's params type, or none) and
    /// decodes the result as `T`, the method's result type.
    fn call<P: Frame, T: Frame>(&mut self, method: &str, params: Option<P>) -> Result<T, String> {
        let info = coprocess::method_info(method).ok_or_else(|| format!("{method} is not in the method table"))?;
        if params.is_some() {
            assert_eq!(info.params, P::TYPE_NAME, "{method} takes {}", info.params);
        }
        assert_eq!(info.result, T::TYPE_NAME, "{method} answers {}", info.result);
        let id = self.take_id();
        let params = params.map(|p| Params::decode(&p.encode())).transpose().map_err(|e| e.to_string())?;
        let request = Request {
            jsonrpc: JsonRpcVersion::default(),
            id: RequestId::Integer(id),
            method: method.to_string(),
            params,
        };
        let answer = self.exchange(&request.encode())?;
        match Response::decode(&answer).map_err(|e| e.to_string())? {
            Response::ErrorResponse(failure) => Err(format!("{method} answered {}: {}", failure.error.code, failure.error.message)),
            Response::SuccessResponse(success) => {
                if !matches!(success.id, RequestId::Integer(answered) if answered == id) {
                    return Err(format!("{method}: answer has id {}, request had {id}", success.id));
                }
                T::from_value(success.result).map_err(|e| e.to_string())
            }
        }
    }

    fn close_stdin(&mut self) {
        self.stdin = None;
    }

    fn wait_exit(&mut self) -> Result<i32, String> {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().map_err(|e| e.to_string())? {
                return status.code().ok_or_else(|| format!("the coprocess was killed: {status}"));
            }
            if started.elapsed() > EXIT_TIMEOUT {
                return Err(format!("the coprocess did not exit within {EXIT_TIMEOUT:?}"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The report's copy of a value: the generated encoder's text, parsed.
fn reported<T: Frame>(value: &T) -> Value {
    serde_json::from_str(&value.encode()).unwrap_or(Value::Null)
}

fn tool_names(tools: &ListToolsResult) -> Value {
    tools.tools.iter().map(|tool| tool.get("name").cloned().unwrap_or(Value::Null)).collect()
}

fn full(session: &mut Session, inputs: &Inputs) -> Result<Value, String> {
    let handshake = session.handshake().map_err(|e| e.unwrap_or_else(|broken| broken))?;
    let initialize: InitializeResult = session.call::<Params, _>(methods::MCP_INITIALIZE, None)?;
    let tools: ListToolsResult = session.call::<Params, _>(methods::MCP_LIST_TOOLS, None)?;
    let arguments = McpObject::from_value(inputs.tool_args.clone()).map_err(|e| e.to_string())?;
    let call_params = CallParams {
        tool: inputs.tool.clone(),
        arguments: Some(arguments),
        passthrough: None,
        timeout_ms: None,
    };
    let call: CallResult = session.call(methods::MCP_CALL, Some(call_params))?;
    let resource: ReadResourceResult = session.call(
        methods::MCP_READ_RESOURCE,
        Some(ReadResourceParams {
            uri: inputs.resource_uri.clone(),
        }),
    )?;
    let prompt_args = PromptArguments::from_value(inputs.prompt_args.clone()).map_err(|e| e.to_string())?;
    let prompt_params = CallPromptParams {
        name: inputs.prompt.clone(),
        arguments: Some(prompt_args),
    };
    let prompt: CallPromptResult = session.call(methods::MCP_CALL_PROMPT, Some(prompt_params))?;
    let shutdown: ShutdownResult = session.call::<Params, _>(methods::MCP_SHUTDOWN, None)?;
    let exit_code = session.wait_exit()?;
    Ok(json!({
        "scenario": "full",
        "handshake": reported(&handshake),
        "initialize": reported(&initialize),
        "tools": tool_names(&tools),
        "call": reported(&call),
        "resource": reported(&resource),
        "prompt": reported(&prompt),
        "shutdown": reported(&shutdown),
        "exit_code": exit_code,
    }))
}

fn handshake_only(session: &mut Session) -> Result<Value, String> {
    let outcome = session.handshake();
    session.close_stdin();
    session.wait_exit()?;
    match outcome {
        Ok(handshake) => Ok(json!({"scenario": "handshake", "ok": true, "value": reported(&handshake)})),
        Err(Ok(message)) => Ok(json!({"scenario": "handshake", "ok": false, "error": message})),
        Err(Err(broken)) => Err(broken),
    }
}

fn no_handshake(session: &mut Session) -> Result<Value, String> {
    let tools: ListToolsResult = session.call::<Params, _>(methods::MCP_LIST_TOOLS, None)?;
    let _: ShutdownResult = session.call::<Params, _>(methods::MCP_SHUTDOWN, None)?;
    Ok(json!({"scenario": "no_handshake", "tools": tool_names(&tools), "exit_code": session.wait_exit()?}))
}

/// Runs one scenario; the report, or `{"scenario", "failed"}` as the other
/// clients print it.
pub fn run(scenario: &str, inputs: &Inputs) -> Value {
    let outcome = Session::start(&inputs.argv).and_then(|mut session| match scenario {
        "full" => full(&mut session, inputs),
        "handshake" => handshake_only(&mut session),
        "no_handshake" => no_handshake(&mut session),
        other => Err(format!("unknown scenario `{other}`")),
    });
    outcome.unwrap_or_else(|failed| json!({"scenario": scenario, "failed": failed}))
}
