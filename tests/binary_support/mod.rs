//! Drives the `mcptest` binary as an SDK would: spawn it, write request lines,
//! read response lines. Every response is validated against the contract
//! (`Response`, then the method's result shape).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use mcptest_coprocess::frames::method_info;
use mcptest_coprocess::validate::{validate_text, validate_value};
use serde_json::{json, Value};

pub const MISBEHAVING: &str = "python3 tests/e2e/servers/misbehaving.py";

/// Installs the real servers once; false (after a loud message) when the
/// toolchain is missing outside CI. With CI=true a missing toolchain fails.
pub fn servers_ready() -> bool {
    static READY: OnceLock<bool> = OnceLock::new();
    *READY.get_or_init(|| {
        let output = Command::new("bash").arg("tests/e2e/servers/setup.sh").output().expect("run setup.sh");
        let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        match output.status.code() {
            Some(0) => true,
            Some(3) if std::env::var("CI").as_deref() != Ok("true") => {
                eprintln!("!!!!! TOOLCHAIN MISSING: the real-server tests of the mcptest binary were NOT run !!!!!\n{log}");
                false
            }
            _ => panic!("tests/e2e/servers/setup.sh failed\n{log}"),
        }
    })
}

/// One server of `tests/e2e/servers/servers.json`.
pub struct Server {
    pub spec: Value,
    /// The argv joined shell-style, as `--server-command` takes it.
    pub command: String,
}

pub fn servers() -> Vec<Server> {
    let text = std::fs::read_to_string("tests/e2e/servers/servers.json").expect("servers.json");
    let specs: Vec<Value> = serde_json::from_str(&text).expect("servers.json is JSON");
    specs
        .into_iter()
        .map(|spec| {
            let argv: Vec<&str> = spec["command"].as_array().expect("command").iter().map(|a| a.as_str().expect("arg")).collect();
            let command = shlex::try_join(argv).expect("joinable argv");
            Server { spec, command }
        })
        .collect()
}

pub struct Coprocess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: i64,
}

impl Coprocess {
    pub fn spawn(server_command: &str) -> Self {
        Self::spawn_with(server_command, &[])
    }

    pub fn spawn_with(server_command: &str, extra: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcptest"))
            .args(["exec", "--connection-server", "--server-command", server_command])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn mcptest");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Self { child, stdin, lines, next_id: 0 }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn stdin(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().expect("stdin still open")
    }

    pub fn write_line(&mut self, line: &str) {
        let stdin = self.stdin();
        stdin.write_all(line.as_bytes()).and_then(|()| stdin.write_all(b"\n")).and_then(|()| stdin.flush()).expect("write to mcptest");
    }

    /// The next response line, validated as a `Response`.
    pub fn read_response(&mut self) -> Value {
        self.read_response_line().1
    }

    /// The next response line as written (without its `\n`) and as validated.
    pub fn read_response_line(&mut self) -> (String, Value) {
        let line = self.lines.recv_timeout(Duration::from_secs(60)).expect("a response line within 60 s");
        let value = validate_text("Response", &line).unwrap_or_else(|e| panic!("response does not validate: {e}\n{line:.200}"));
        (line, value)
    }

    /// Sends a request; returns its answer's line length in bytes (without
    /// the `\n`) and the answer.
    pub fn request_sized(&mut self, method: &str, params: Value) -> (usize, Value) {
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        self.write_line(&request.to_string());
        let (line, response) = self.read_response_line();
        assert_eq!(response["id"], json!(self.next_id), "the response echoes the id");
        (line.len(), response)
    }

    /// Sends one line, returns the answer.
    pub fn send_line(&mut self, line: &str) -> Value {
        self.write_line(line);
        self.read_response()
    }

    /// Sends a request; returns the whole response (result or error), with the
    /// result validated against the method's result shape.
    pub fn request(&mut self, method: &str, params: Option<Value>) -> Value {
        self.next_id += 1;
        let mut request = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method});
        if let Some(params) = params {
            request["params"] = params;
        }
        let response = self.send_line(&request.to_string());
        assert_eq!(response["id"], json!(self.next_id), "the response echoes the id: {response}");
        if let (Some(result), Some(info)) = (response.get("result"), method_info(method)) {
            validate_value(info.result, result).unwrap_or_else(|e| panic!("{method} result does not validate: {e}\n{response}"));
        }
        response
    }

    /// The result of a request that must succeed.
    pub fn ok(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, Some(params));
        response.get("result").cloned().unwrap_or_else(|| panic!("{method} failed: {response}"))
    }

    /// The error of a request that must fail.
    pub fn err(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, Some(params));
        response.get("error").cloned().unwrap_or_else(|| panic!("{method} should have failed: {response}"))
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the binary to exit (at most `limit`), reporting no further output.
    pub fn wait(&mut self, limit: Duration) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                if let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
                    panic!("unexpected output after the end: {line}");
                }
                return status;
            }
            assert!(start.elapsed() < limit, "mcptest did not exit within {limit:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Coprocess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
