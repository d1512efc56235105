//! Speed and endurance of the `mcptest` binary (a plain main, not timed tests).
//!
//!   cargo bench --bench coprocess                 # latency: coprocess vs direct rmcp
//!   cargo bench --bench coprocess -- soak         # 10,000 calls, malformed lines interleaved
//!   cargo bench --bench coprocess -- latency python   # against the python server instead
//!
//! Needs the servers installed: `bash tests/e2e/servers/setup.sh`.
//! `latency`: N `echo` calls through the coprocess (one `mcp.call` line in,
//! one verdict out) next to N `tools/call`s from a direct rmcp client to the
//! same server; prints calls/s and per-call latency, and the difference.
//! `soak`: 10,000 `mcp.call`s with a malformed line after every call (cycling
//! through a parse error, a bad envelope, an unknown method, bad params and an
//! over-long line); every answer is checked, and the binary's VmRSS/VmHWM are
//! read from /proc at 1,000 and 10,000 calls.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, ClientConfig, ProtocolVersion};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientLifecycleMode, ClientServiceExt};
use serde_json::{json, Value};

const EVERYTHING: &[&str] = &["node", "tests/e2e/servers/everything/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"];
const PYTHON: &[&str] = &["target/toolchains/mcp-venv/bin/python", "tests/e2e/servers/python/server.py"];

struct Coprocess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Coprocess {
    fn spawn(server: &[&str]) -> Self {
        let command = shlex::try_join(server.iter().copied()).expect("joinable");
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcptest"))
            .args(["exec", "--connection-server", "--server-command", &command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn mcptest");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Self { child, stdin, stdout }
    }

    fn send(&mut self, line: &[u8]) -> Value {
        self.stdin.write_all(line).and_then(|()| self.stdin.write_all(b"\n")).and_then(|()| self.stdin.flush()).expect("write");
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).expect("read");
        serde_json::from_str(&answer).expect("a JSON answer")
    }

    fn call(&mut self, id: u64, message: &str) -> Value {
        let line = json!({"jsonrpc": "2.0", "id": id, "method": "mcp.call", "params": {"tool": "echo", "arguments": {"message": message}}});
        self.send(line.to_string().as_bytes())
    }

    /// (VmRSS, VmHWM) in KiB.
    fn memory(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let field = |name: &str| {
            status.lines().find(|l| l.starts_with(name)).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok()).unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    fn shutdown(mut self) {
        self.send(br#"{"jsonrpc":"2.0","id":0,"method":"mcp.shutdown"}"#);
        let _ = self.child.wait();
    }
}

struct Stats {
    per_call: Vec<Duration>,
    total: Duration,
}

impl Stats {
    fn row(&self, name: &str) -> f64 {
        let mut sorted = self.per_call.clone();
        sorted.sort();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let mean = us(self.total) / sorted.len() as f64;
        let pick = |q: f64| us(sorted[((sorted.len() - 1) as f64 * q) as usize]);
        println!(
            "| {name} | {} | {:.0} | {mean:.0} | {:.0} | {:.0} |",
            sorted.len(),
            sorted.len() as f64 / self.total.as_secs_f64(),
            pick(0.5),
            pick(0.99)
        );
        mean
    }
}

fn through_coprocess(server: &[&str], calls: usize) -> Stats {
    let mut coprocess = Coprocess::spawn(server);
    for i in 0..50 {
        coprocess.call(i, "warm");
    }
    let mut per_call = Vec::with_capacity(calls);
    let start = Instant::now();
    for i in 0..calls {
        let t = Instant::now();
        let answer = coprocess.call(i as u64, "hi");
        per_call.push(t.elapsed());
        assert_eq!(answer["result"]["success"], json!(true), "{answer}");
    }
    let total = start.elapsed();
    coprocess.shutdown();
    Stats { per_call, total }
}

fn direct(server: &[&str], calls: usize) -> Stats {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    runtime.block_on(async {
        let mut command = tokio::process::Command::new(server[0]);
        command.args(&server[1..]).stderr(Stdio::null());
        let transport = TokioChildProcess::new(command).expect("spawn server");
        let lifecycle = ClientLifecycleMode::Auto { preferred_versions: vec![ProtocolVersion::LATEST], legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE) };
        let client = ClientConfig::default().serve_with_lifecycle(transport, lifecycle).await.expect("connect");
        let params = || {
            let arguments = json!({"message": "hi"}).as_object().cloned();
            let mut params = CallToolRequestParams::new("echo");
            params.arguments = arguments;
            params
        };
        for _ in 0..50 {
            client.peer().call_tool(params()).await.expect("warm call");
        }
        let mut per_call = Vec::with_capacity(calls);
        let start = Instant::now();
        for _ in 0..calls {
            let t = Instant::now();
            client.peer().call_tool(params()).await.expect("call");
            per_call.push(t.elapsed());
        }
        let total = start.elapsed();
        let _ = client.cancel().await;
        Stats { per_call, total }
    })
}

fn latency(server_name: &str, server: &[&str]) {
    let calls = 2000;
    println!("\nserver: {server_name} (`echo`), {calls} sequential calls after 50 warm-up calls\n");
    println!("| path | calls | calls/s | mean µs | p50 µs | p99 µs |\n|---|---|---|---|---|---|");
    let direct_mean = direct(server, calls).row("direct rmcp client");
    let coprocess_mean = through_coprocess(server, calls).row("through mcptest coprocess");
    println!("\nadded latency per mcp.call: {:.0} µs (mean)", coprocess_mean - direct_mean);
}

/// The malformed lines of the soak and the error code each must get.
fn malformed(i: usize) -> (Vec<u8>, i64) {
    match i % 5 {
        0 => (b"{not json".to_vec(), -32700),
        1 => (br#"{"jsonrpc":"2.0","method":"mcp.call"}"#.to_vec(), -32600),
        2 => (br#"{"jsonrpc":"2.0","id":"x","method":"mcp.nope"}"#.to_vec(), -32601),
        3 => (br#"{"jsonrpc":"2.0","id":"y","method":"mcp.call","params":{"tool":7}}"#.to_vec(), -32602),
        _ => (vec![b'z'; mcptest_coprocess::MAX_LINE_BYTES / 64 * 65], -32600),
    }
}

fn soak(server_name: &str, server: &[&str]) {
    let total = 10_000;
    let mut coprocess = Coprocess::spawn(server);
    println!("\nsoak: {total} mcp.call (`echo` on {server_name}), one malformed line after each call\n");
    println!("| calls answered | malformed lines answered | VmRSS KiB | VmHWM KiB | elapsed s |\n|---|---|---|---|---|");
    let start = Instant::now();
    let mut bad = 0;
    for i in 1..=total {
        let message = format!("soak {i}");
        let answer = coprocess.call(i as u64, &message);
        assert_eq!(answer["id"], json!(i), "{answer}");
        assert_eq!(answer["result"]["text"], json!(format!("Echo: {message}")), "{answer}");
        // every 500th malformed line is an over-long one (~16.25 MiB): 20 in the soak
        let (line, code) = malformed(if i % 500 == 0 { 4 } else { i % 4 });
        let answer = coprocess.send(&line);
        assert_eq!(answer["error"]["code"], json!(code), "malformed line {i}: {answer}");
        bad += 1;
        if i == 1 || i == 499 || i == 1_000 || i == total {
            let (rss, hwm) = coprocess.memory();
            println!("| {i} | {bad} | {rss} | {hwm} | {:.1} |", start.elapsed().as_secs_f64());
        }
    }
    coprocess.shutdown();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let (name, server) = if args.iter().any(|a| a == "python") { ("python mcp 2.x server", PYTHON) } else { ("server-everything", EVERYTHING) };
    if args.iter().any(|a| a == "soak") {
        soak(name, server);
    } else {
        latency(name, server);
    }
}
