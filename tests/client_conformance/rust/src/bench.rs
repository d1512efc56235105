//! Calls per second through the generated Rust client against a coprocess
//! that answers every `mcp.call` at once (tests/client_conformance/echo_coprocess.py),
//! next to a raw loop that writes the same request line and reads one line
//! back without decoding (best of three alternated rounds each); and the
//! peak memory (`VmHWM`) over the calls.
//!
//!     client_bench [CALLS]      (default 100000)

#[path = "../../../../generated/rust/mcptest-runner/src/coprocess.rs"]
pub mod coprocess;

#[path = "../../../../generated/rust/mcptest-runner/src/client.rs"]
pub mod client;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use client::{ClientOptions, CoprocessClient};
use coprocess::{CallParams, JsonRpcVersion, RequestId, RequestOf};

fn echo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../echo_coprocess.py")
}

fn params() -> CallParams {
    CallParams {
        tool: "bench".into(),
        arguments: None,
        passthrough: None,
        timeout_ms: None,
    }
}

/// The process's peak resident set so far, in KiB (Linux), or 0.
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .unwrap_or(0)
}

fn client_loop(calls: u64) -> Result<(Duration, Peaks), String> {
    let mut memory = Vec::new();
    let client = CoprocessClient::spawn(echo(), &["server"], &ClientOptions::default())
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    for done in 1..=calls {
        client.call(params(), None).map_err(|e| e.to_string())?;
        if done % (calls / 4).max(1) == 0 {
            memory.push((done, peak_kib()));
        }
    }
    let elapsed = started.elapsed();
    client.close();
    Ok((elapsed, memory))
}

fn raw_loop(calls: u64) -> Result<Duration, String> {
    let mut process = Command::new(echo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let (Some(mut writer), Some(reader)) = (process.stdin.take(), process.stdout.take()) else {
        return Err("no pipes".into());
    };
    let mut reader = BufReader::new(reader);
    let mut answer = String::new();
    let hello = coprocess::handshake_request(RequestId::Integer(1), Some("rust"), Some("bench"));
    writeln!(writer, "{hello}").map_err(|e| e.to_string())?;
    reader.read_line(&mut answer).map_err(|e| e.to_string())?;
    let request = RequestOf {
        jsonrpc: JsonRpcVersion::default(),
        id: RequestId::Integer(2),
        method: coprocess::methods::MCP_CALL.to_string(),
        params: Some(params()),
    };
    let line = format!("{}\n", request.encode());
    let started = Instant::now();
    for _ in 0..calls {
        writer
            .write_all(line.as_bytes())
            .map_err(|e| e.to_string())?;
        writer.flush().map_err(|e| e.to_string())?;
        answer.clear();
        reader.read_line(&mut answer).map_err(|e| e.to_string())?;
    }
    let elapsed = started.elapsed();
    drop(writer);
    let _ = process.wait();
    Ok(elapsed)
}

/// The client's own work per call without any I/O: encoding the request and
/// strictly decoding the fixed answer.
fn codec_loop(calls: u64) -> Duration {
    let answer = r#"{"jsonrpc":"2.0","id":2,"result":{"success":true,"data":null,"text":"ok","error":null,"duration_ms":0}}"#;
    let started = Instant::now();
    for _ in 0..calls {
        let request = RequestOf {
            jsonrpc: JsonRpcVersion::default(),
            id: RequestId::Integer(2),
            method: coprocess::methods::MCP_CALL.to_string(),
            params: Some(params()),
        };
        std::hint::black_box(request.encode());
        let decoded = coprocess::ResponseOf::<coprocess::CallResult>::decode(answer);
        std::hint::black_box(decoded.is_ok());
    }
    started.elapsed()
}

/// Peak RSS (KiB) after so many calls.
type Peaks = Vec<(u64, u64)>;

/// Three rounds of each loop, alternated (the machine's load moves between
/// them); the figures are each loop's best round.
fn measure(calls: u64) -> Result<(Duration, Duration, Peaks), String> {
    let mut raw = Duration::MAX;
    let mut client = Duration::MAX;
    let mut memory = Vec::new();
    for _ in 0..3 {
        raw = raw.min(raw_loop(calls)?);
        let (elapsed, peaks) = client_loop(calls)?;
        client = client.min(elapsed);
        memory = peaks;
    }
    Ok((raw, client, memory))
}

fn main() {
    let calls: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let (raw, client, memory) = match measure(calls) {
        Ok(measured) => measured,
        Err(problem) => {
            eprintln!("client bench: {problem}");
            std::process::exit(1);
        }
    };
    let per_call = |d: Duration| d.as_secs_f64() / calls as f64 * 1e6;
    let rate = |d: Duration| calls as f64 / d.as_secs_f64();
    println!("calls: {calls} (best of 3 alternated rounds)");
    println!(
        "raw loop: {:.0} calls/s ({:.1} us/call)",
        rate(raw),
        per_call(raw)
    );
    println!(
        "client:   {:.0} calls/s ({:.1} us/call)",
        rate(client),
        per_call(client)
    );
    println!(
        "client/raw time per call: {:.2}",
        client.as_secs_f64() / raw.as_secs_f64()
    );
    let codec = codec_loop(calls);
    println!(
        "encode + strict decode alone: {:.1} us/call",
        per_call(codec)
    );
    let peaks: Vec<String> = memory
        .iter()
        .map(|(n, kib)| format!("{n}: {kib}"))
        .collect();
    println!(
        "peak RSS (KiB) after N calls (last round): {}",
        peaks.join(", ")
    );
}
