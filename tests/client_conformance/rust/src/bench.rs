//! The Rust client's own CPU per call: the generated client against a coprocess
//! that answers every `mcp.call` at once (tests/client_conformance/echo_coprocess.py),
//! next to a raw loop that writes the same request line and reads one line
//! back without decoding. Each round opens both side by side in this one
//! process and runs their calls in alternated blocks (`BENCH_BLOCK`, default
//! 1,000 calls), so that both see the same state of the machine; a loop's
//! figure is the process's user + system CPU time (`getrusage`) over its
//! blocks, so the coprocess and the pipe's waiting do not count. Also the resident set (`VmRSS`) after 1k, 10k and 100k client calls.
//!
//!     client_bench [CALLS [ROUNDS]]      (default 100000 5)

#[path = "../../../../generated/rust/mcptest-runner/src/coprocess.rs"]
pub mod coprocess;

#[path = "../../../../generated/rust/mcptest-runner/src/client.rs"]
pub mod client;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

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

/// Linux's `struct rusage` on a 64-bit target: two `timeval`s, then 14 longs.
#[repr(C)]
struct Rusage {
    times: [i64; 4],
    rest: [i64; 14],
}

extern "C" {
    fn getrusage(who: i32, usage: *mut Rusage) -> i32;
}

/// The process's user + system CPU time so far (all its threads).
fn cpu() -> Duration {
    let mut usage = Rusage {
        times: [0; 4],
        rest: [0; 14],
    };
    // SAFETY: `usage` is a valid, writable `struct rusage`; 0 is RUSAGE_SELF.
    if unsafe { getrusage(0, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let [user_s, user_us, system_s, system_us] = usage.times;
    let micros = (user_s + system_s) * 1_000_000 + user_us + system_us;
    Duration::from_micros(u64::try_from(micros).unwrap_or(0))
}

/// The process's resident set now, in KiB (Linux), or 0.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .unwrap_or(0)
}

/// Calls of each loop in a row, by default, before the other's turn
/// (`BENCH_BLOCK`): a few milliseconds of each.
const BLOCK: u64 = 1_000;

/// The calls after which the resident set is noted.
const RSS_AT: [u64; 3] = [1_000, 10_000, 100_000];

/// The raw loop: the echo coprocess spawned with plain pipes, written the
/// bench's request line and read one line back, nothing decoded.
struct RawLoop {
    process: Child,
    writer: ChildStdin,
    reader: BufReader<ChildStdout>,
    line: String,
    answer: String,
}

impl RawLoop {
    fn spawn() -> Result<Self, String> {
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
        let hello =
            coprocess::handshake_request(RequestId::Integer(1), Some("rust"), Some("bench"));
        writeln!(writer, "{hello}").map_err(|e| e.to_string())?;
        reader.read_line(&mut answer).map_err(|e| e.to_string())?;
        let request = RequestOf {
            jsonrpc: JsonRpcVersion::default(),
            id: RequestId::Integer(2),
            method: coprocess::methods::MCP_CALL.to_string(),
            params: Some(params()),
        };
        let line = format!("{}\n", request.encode());
        Ok(Self {
            process,
            writer,
            reader,
            line,
            answer,
        })
    }

    /// `calls` raw calls: the CPU they took.
    fn run(&mut self, calls: u64) -> Result<Duration, String> {
        let started = cpu();
        for _ in 0..calls {
            self.writer
                .write_all(self.line.as_bytes())
                .map_err(|e| e.to_string())?;
            self.writer.flush().map_err(|e| e.to_string())?;
            self.answer.clear();
            self.reader
                .read_line(&mut self.answer)
                .map_err(|e| e.to_string())?;
        }
        Ok(cpu().saturating_sub(started))
    }

    fn close(self) {
        let Self {
            mut process,
            writer,
            ..
        } = self;
        drop(writer);
        let _ = process.wait();
    }
}

/// `calls` client calls after the round's first `done` (the resident set is
/// noted after each of `RSS_AT`): the CPU they took.
fn client_calls(
    client: &CoprocessClient,
    calls: u64,
    done: u64,
    rss: &mut Vec<(u64, u64)>,
) -> Result<Duration, String> {
    let started = cpu();
    for call in done + 1..=done + calls {
        client.call(params(), None).map_err(|e| e.to_string())?;
        if RSS_AT.contains(&call) {
            rss.push((call, rss_kib()));
        }
    }
    Ok(cpu().saturating_sub(started))
}

/// One round: the raw loop and a client session open side by side, `calls`
/// calls of each in alternated blocks of `block` (which of the two goes first
/// alternates too), so that both see the same state of the machine. The
/// CPU each took: raw, then client.
fn round(
    calls: u64,
    block: u64,
    rss: &mut Vec<(u64, u64)>,
) -> Result<(Duration, Duration), String> {
    let mut raw = RawLoop::spawn()?;
    let client = CoprocessClient::spawn(echo(), &["server"], &ClientOptions::default())
        .map_err(|e| e.to_string())?;
    rss.clear();
    let (mut raw_cpu, mut client_cpu) = (Duration::ZERO, Duration::ZERO);
    let (mut done, mut raw_first) = (0, true);
    while done < calls {
        let n = block.min(calls - done);
        if raw_first {
            raw_cpu += raw.run(n)?;
            client_cpu += client_calls(&client, n, done, rss)?;
        } else {
            client_cpu += client_calls(&client, n, done, rss)?;
            raw_cpu += raw.run(n)?;
        }
        done += n;
        raw_first = !raw_first;
    }
    raw.close();
    client.close();
    Ok((raw_cpu, client_cpu))
}

/// Microseconds of CPU per call, best and median over the rounds.
fn best_and_median(mut rounds: Vec<Duration>, calls: u64) -> (f64, f64) {
    rounds.sort();
    (
        per_call(rounds[0], calls),
        per_call(rounds[rounds.len() / 2], calls),
    )
}

/// Microseconds of CPU per call of a round.
fn per_call(spent: Duration, calls: u64) -> f64 {
    spent.as_secs_f64() / calls as f64 * 1e6
}

fn main() {
    let mut args = std::env::args().skip(1);
    let calls: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5).max(1);
    let block: u64 = std::env::var("BENCH_BLOCK")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(BLOCK)
        .max(1);
    let (mut raw, mut client, mut rss) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        match round(calls, block, &mut rss) {
            Ok((r, c)) => {
                raw.push(r);
                client.push(c);
            }
            Err(problem) => {
                eprintln!("client bench: {problem}");
                std::process::exit(1);
            }
        }
    }
    let pairs: Vec<String> = raw
        .iter()
        .zip(&client)
        .map(|(r, c)| format!("{:.2} {:.2}", per_call(*r, calls), per_call(*c, calls)))
        .collect();
    let (raw_best, raw_median) = best_and_median(raw, calls);
    let (client_best, client_median) = best_and_median(client, calls);
    let rss: Vec<String> = rss.iter().map(|(_, kib)| kib.to_string()).collect();
    report(
        calls,
        rounds,
        (raw_best, raw_median),
        (client_best, client_median),
        &rss,
    );
    // Each round's raw and client figures, in the order run (bench-all.sh
    // takes the median of the per-round ratios).
    println!("rounds rust {}", pairs.join(" "));
}

/// The report every language's bench prints, ending with one `summary` line
/// that tests/client_conformance/bench-all.sh reads.
fn report(calls: u64, rounds: usize, raw: (f64, f64), client: (f64, f64), rss: &[String]) {
    println!(
        "rust: {calls} calls x {rounds} rounds in alternated blocks, process CPU (user+system) per call"
    );
    println!("raw loop: best {:.2} us, median {:.2} us", raw.0, raw.1);
    println!(
        "client:   best {:.2} us, median {:.2} us",
        client.0, client.1
    );
    println!(
        "client/raw: {:.2} (bests), {:.2} (medians); added: {:.2} us (bests), {:.2} us (medians)",
        client.0 / raw.0,
        client.1 / raw.1,
        client.0 - raw.0,
        client.1 - raw.1
    );
    println!(
        "RSS (KiB) after 1k / 10k / 100k client calls: {}",
        rss.join(" / ")
    );
    println!(
        "summary rust {:.2} {:.2} {:.2} {:.2} {}",
        raw.0,
        raw.1,
        client.0,
        client.1,
        rss.join(" ")
    );
}
