//! The Rust end-to-end client, in process: the same three scenarios as the
//! other languages' clients, on the generated session client
//! (`generated/rust/mcptest-runner/src/client.rs`, included by the runner as
//! `crate::client` beside `crate::coprocess`). The real binary is spawned by
//! `CoprocessClient::spawn` from the binary and the server argv; a fake
//! coprocess (not a binary) is spawned here and driven with
//! `CoprocessClient::over_streams`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::client::{ClientOptions, CoprocessClient};
use crate::coprocess::{
    methods, CallParams, CallPromptParams, Frame, JsonRpcVersion, ListToolsResult, McpObject, PromptArguments, ReadResourceParams, Request, RequestId,
    Response,
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

fn options() -> ClientOptions {
    ClientOptions {
        timeout: Duration::from_secs(60),
        sdk: SDK.into(),
        sdk_version: SDK_VERSION.into(),
        ..ClientOptions::default()
    }
}

/// The generated client on the coprocess of `argv`: spawned by the client
/// when `argv` is the binary's own command line, else over the streams of a
/// process started here (with the process, to wait for).
fn spawn(argv: &[String]) -> Result<(Result<CoprocessClient, String>, Option<Child>), String> {
    if let [binary, exec, connection, flag, command] = argv {
        if [exec.as_str(), connection.as_str(), flag.as_str()] == ["exec", "--connection-server", "--server-command"] {
            let server = shlex::split(command).ok_or("the server command does not split")?;
            return Ok((CoprocessClient::spawn(binary, &server, &options()).map_err(|e| e.to_string()), None));
        }
    }
    let mut process = start(argv)?;
    let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
        return Err("the coprocess has no pipes".into());
    };
    let client = CoprocessClient::over_streams(stdout, stdin, &options()).map_err(|e| e.to_string());
    Ok((client, Some(process)))
}

fn start(argv: &[String]) -> Result<Child, String> {
    let (program, args) = argv.split_first().ok_or("MCPTEST_ARGV is empty")?;
    Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawning {program}: {e}"))
}

/// Waits (bounded) for the process the client's streams belonged to.
fn wait_exit(process: &mut Child) -> Result<i32, String> {
    drop(process.stdin.take());
    let started = Instant::now();
    loop {
        if let Some(status) = process.try_wait().map_err(|e| e.to_string())? {
            return status.code().ok_or_else(|| format!("the coprocess was killed: {status}"));
        }
        if started.elapsed() > EXIT_TIMEOUT {
            let _ = process.kill();
            let _ = process.wait();
            return Err(format!("the coprocess did not exit within {EXIT_TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The report's copy of a value: the generated encoder's text, parsed.
fn reported<T: Frame>(value: &T) -> Value {
    serde_json::from_str(&value.encode()).unwrap_or(Value::Null)
}

fn tool_names(tools: &ListToolsResult) -> Value {
    tools.tools.iter().map(|tool| tool.get("name").cloned().unwrap_or(Value::Null)).collect()
}

fn full(inputs: &Inputs) -> Result<Value, String> {
    let (client, _) = spawn(&inputs.argv)?;
    let client = client?;
    let failed = |e: crate::client::ClientError| e.to_string();
    let handshake = reported(client.handshake_result());
    let initialize = client.initialize(None, None).map_err(failed)?;
    let tools = client.list_tools(None, None).map_err(failed)?;
    let arguments = McpObject::from_value(inputs.tool_args.clone()).map_err(|e| e.to_string())?;
    let call_params = CallParams {
        tool: inputs.tool.clone(),
        arguments: Some(arguments),
        passthrough: None,
        timeout_ms: None,
    };
    let call = client.call(call_params, None).map_err(failed)?;
    let resource_params = ReadResourceParams {
        uri: inputs.resource_uri.clone(),
    };
    let resource = client.read_resource(resource_params, None).map_err(failed)?;
    let prompt_args = PromptArguments::from_value(inputs.prompt_args.clone()).map_err(|e| e.to_string())?;
    let prompt_params = CallPromptParams {
        name: inputs.prompt.clone(),
        arguments: Some(prompt_args),
    };
    let prompt = client.call_prompt(prompt_params, None).map_err(failed)?;
    let shutdown = client.shutdown(None, None).map_err(failed)?;
    client.close();
    Ok(json!({
        "scenario": "full",
        "handshake": handshake,
        "initialize": reported(&initialize),
        "tools": tool_names(&tools),
        "call": reported(&call),
        "resource": reported(&resource),
        "prompt": reported(&prompt),
        "shutdown": reported(&shutdown),
        "exit_code": client.exit_status(),
    }))
}

fn handshake_only(inputs: &Inputs) -> Result<Value, String> {
    let (client, process) = spawn(&inputs.argv)?;
    let report = match &client {
        Ok(client) => json!({"scenario": "handshake", "ok": true, "value": reported(client.handshake_result())}),
        Err(message) => json!({"scenario": "handshake", "ok": false, "error": message}),
    };
    drop(client);
    if let Some(mut process) = process {
        wait_exit(&mut process)?;
    }
    Ok(report)
}

/// The binary serving an SDK that never handshakes (a v1 SDK): a client that
/// always handshakes cannot play it, so two raw request lines do.
fn no_handshake(inputs: &Inputs) -> Result<Value, String> {
    let mut process = start(&inputs.argv)?;
    let (Some(mut stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
        return Err("the coprocess has no pipes".into());
    };
    let mut stdout = BufReader::new(stdout);
    let mut answers = Vec::new();
    for (id, method) in [(1, methods::MCP_LIST_TOOLS), (2, methods::MCP_SHUTDOWN)] {
        let request = Request {
            jsonrpc: JsonRpcVersion::default(),
            id: RequestId::Integer(id),
            method: method.to_string(),
            params: None,
        };
        writeln!(stdin, "{}", request.encode()).and_then(|()| stdin.flush()).map_err(|e| format!("writing to the coprocess: {e}"))?;
        let mut answer = String::new();
        stdout.read_line(&mut answer).map_err(|e| format!("reading from the coprocess: {e}"))?;
        match Response::decode(answer.trim_end()).map_err(|e| e.to_string())? {
            Response::ErrorResponse(failure) => return Err(format!("{method} answered {}: {}", failure.error.code, failure.error.message)),
            Response::SuccessResponse(success) => answers.push(success.result),
        }
    }
    drop(stdin);
    let tools = ListToolsResult::from_value(answers.swap_remove(0)).map_err(|e| e.to_string())?;
    Ok(json!({"scenario": "no_handshake", "tools": tool_names(&tools), "exit_code": wait_exit(&mut process)?}))
}

/// Runs one scenario; the report, or `{"scenario", "failed"}` as the other
/// clients print it.
pub fn run(scenario: &str, inputs: &Inputs) -> Value {
    let outcome = match scenario {
        "full" => full(inputs),
        "handshake" => handshake_only(inputs),
        "no_handshake" => no_handshake(inputs),
        other => Err(format!("unknown scenario `{other}`")),
    };
    outcome.unwrap_or_else(|failed| json!({"scenario": scenario, "failed": failed}))
}
