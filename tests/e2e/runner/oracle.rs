//! What a server really serves, asked directly (no mcptest in between): a
//! minimal MCP client over stdio, legacy `initialize` handshake, then
//! `tools/list` (all pages), `resources/read` and `prompts/get`. The runner
//! compares what the clients got through the coprocess with this.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::support::{root, Server};

const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// The server's own answers.
#[derive(Debug)]
pub struct Served {
    pub tool_names: Vec<Value>,
    pub resource_contents: Value,
    pub prompt_messages: Value,
}

pub fn ask(server: &Server) -> Result<Served, String> {
    let (program, args) = server.command.split_first().ok_or("empty server command")?;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: spawning {program}: {e}", server.name))?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let (lines, incoming) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut conn = Conn {
        name: &server.name,
        stdin,
        incoming,
        next_id: 0,
    };
    let outcome = (|| {
        conn.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcptest-e2e-oracle", "version": "0"}}),
        )?;
        conn.notify("notifications/initialized")?;
        let mut tool_names = Vec::new();
        let mut cursor = Value::Null;
        loop {
            let params = if cursor.is_null() { json!({}) } else { json!({"cursor": cursor}) };
            let page = conn.request("tools/list", params)?;
            tool_names.extend(page["tools"].as_array().into_iter().flatten().map(|t| t["name"].clone()));
            cursor = page.get("nextCursor").cloned().unwrap_or(Value::Null);
            if cursor.is_null() {
                break;
            }
        }
        let resource = conn.request("resources/read", json!({"uri": server.resource_uri}))?;
        let prompt = conn.request("prompts/get", json!({"name": server.prompt, "arguments": server.prompt_args}))?;
        Ok(Served {
            tool_names,
            resource_contents: resource["contents"].clone(),
            prompt_messages: prompt["messages"].clone(),
        })
    })();
    let _ = child.kill();
    let _ = child.wait();
    outcome
}

/// The stdio loop with the server: requests wait for the answer with their id.
struct Conn<'a> {
    name: &'a str,
    stdin: std::process::ChildStdin,
    incoming: mpsc::Receiver<std::io::Result<String>>,
    next_id: i64,
}

impl Conn<'_> {
    fn send(&mut self, frame: &Value) -> Result<(), String> {
        writeln!(self.stdin, "{frame}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: writing {frame}: {e}", self.name))
    }

    fn notify(&mut self, method: &str) -> Result<(), String> {
        self.send(&json!({"jsonrpc": "2.0", "method": method}))
    }

    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let line = self
                .incoming
                .recv_timeout(ANSWER_TIMEOUT)
                .map_err(|_| format!("{}: no answer to {method}", self.name))?
                .map_err(|e| format!("{}: reading: {e}", self.name))?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else { continue };
            if message.get("method").is_some() || message["id"] != id {
                continue; // a notification or a request of the server's own
            }
            if let Some(error) = message.get("error") {
                return Err(format!("{}: {method} answered {error}", self.name));
            }
            return Ok(message["result"].clone());
        }
    }
}
