//! End to end from all six languages: each language's client, using only its
//! generated file under `generated/` and a minimal stdio loop, drives the real
//! `mcptest` binary against two real MCP servers (`tests/e2e/servers/`), fails
//! fast with the contract's upgrade message against a v1 and a newer fake
//! coprocess (`tests/e2e/fakes/`), and is served without a handshake.
//!
//! The Rust client runs in process (`tests/e2e/runner/rust_client.rs`, on
//! the generated session client `generated/rust/mcptest-runner/src/client.rs`
//! and its frames, `coprocess.rs`); the other five are
//! `tests/e2e/<lang>/run.sh`, built by their `build.sh` (toolchains as in
//! `tests/conformance/`: a missing toolchain is reported loudly, and fails
//! with `CI=true`). Expected texts come from `schemas/ipc/v2.json`; what the
//! servers serve is asked of them directly (`tests/e2e/runner/oracle.rs`).
//!
//! Run: `cargo test --test e2e` (add `-- --nocapture` for timings).

#[path = "../generated/rust/mcptest-runner/src/coprocess.rs"]
#[allow(dead_code, clippy::all)]
mod coprocess;
#[path = "../generated/rust/mcptest-runner/src/client.rs"]
#[allow(dead_code, clippy::all)]
mod client;
#[path = "e2e/runner/oracle.rs"]
mod oracle;
#[path = "e2e/runner/rust_client.rs"]
mod rust_client;
#[path = "e2e/runner/support.rs"]
mod support;

use std::path::PathBuf;
use std::time::Instant;

use serde_json::{json, Value};

use support::{binary_argv, client_env, fake_argv, parallel, ready, run_client, scratch, Contract, Job, Server};

/// Runs one scenario in `lang` ("rust" in process, else its run.sh).
fn run(lang: &str, scenario: &str, argv: &[String], server: Option<&Server>) -> Value {
    support::with_slot(|| {
        if lang == "rust" {
            let inputs = rust_client::Inputs {
                argv: argv.to_vec(),
                tool: server.map(|s| s.tool.clone()).unwrap_or_default(),
                tool_args: server.map(|s| s.tool_args.clone()).unwrap_or(json!({})),
                resource_uri: server.map(|s| s.resource_uri.clone()).unwrap_or_default(),
                prompt: server.map(|s| s.prompt.clone()).unwrap_or_default(),
                prompt_args: server.map(|s| s.prompt_args.clone()).unwrap_or(json!({})),
            };
            rust_client::run(scenario, &inputs)
        } else {
            run_client(lang, &client_env(scenario, argv, server))
        }
    })
}

/// Every language that can run here: Rust, then the clients that built. Fails
/// the test on a build problem; names loudly what a missing toolchain skipped.
fn languages() -> Vec<&'static str> {
    let ready = ready();
    assert!(
        ready.language_problems.is_empty(),
        "building the clients failed:\n{}",
        ready.language_problems.join("\n")
    );
    for missing in &ready.missing {
        eprintln!("!!!!! NOT TESTED: {missing} !!!!!");
    }
    std::iter::once("rust").chain(ready.languages.iter().copied()).collect()
}

/// The binary and the servers, or None (reported loudly) when setup.sh found
/// no toolchain outside CI. Build or setup failures fail the test.
fn binary_and_servers() -> Option<(PathBuf, &'static [Server])> {
    let ready = ready();
    assert!(
        ready.server_problems.is_empty(),
        "setting up the servers failed:\n{}",
        ready.server_problems.join("\n")
    );
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_mcptest"));
    assert!(binary.exists(), "{} does not exist", binary.display());
    ready.servers.as_deref().map(|servers| (binary, servers))
}

fn no_servers() {
    eprintln!("!!!!! NOT TESTED: the real-server scenarios (tests/e2e/servers/setup.sh: toolchain missing) !!!!!");
}

/// Against a v1 coprocess (answers -32601) and one a version ahead, every
/// language's generated helper gives exactly the contract's upgrade message,
/// and the client sent the handshake and nothing else.
#[test]
fn every_language_fails_fast_with_the_upgrade_message_against_v1_and_newer() {
    let contract = Contract::load();
    let languages = languages();
    let started = Instant::now();
    let mut jobs: Vec<Job<(String, Vec<String>)>> = Vec::new();
    for &lang in &languages {
        for version in [1, contract.pin + 1] {
            jobs.push(Box::new(move || {
                let contract = Contract::load();
                let dir = scratch(&format!("handshake-{lang}-v{version}"));
                let log = dir.join("received.ndjson");
                let report = run(lang, "handshake", &fake_argv(version, &log), None);
                let label = format!("{lang} against a v{version} coprocess");
                (label.clone(), check_handshake_failure(&contract, lang, version, &report, &log))
            }));
        }
    }
    let results = parallel(2, jobs);
    eprintln!("e2e: {} handshake runs in {:.1} s", results.len(), started.elapsed().as_secs_f64());
    let problems: Vec<String> = results
        .iter()
        .flat_map(|(label, problems)| problems.iter().map(move |p| format!("{label}: {p}")))
        .collect();
    assert_eq!(results.len(), languages.len() * 2);
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

fn check_handshake_failure(contract: &Contract, lang: &str, version: i64, report: &Value, log: &std::path::Path) -> Vec<String> {
    let mut problems = Vec::new();
    let expected = json!({"scenario": "handshake", "ok": false, "error": contract.sdk_mismatch(version)});
    if *report != expected {
        problems.push(format!("report {report}\n  expected {expected}"));
    }
    let eof = PathBuf::from(format!("{}.eof", log.display()));
    if !eof.exists() {
        problems.push("the fake never saw end of input: the client did not close its stdin".into());
    }
    let received = std::fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = received.lines().collect();
    match lines.as_slice() {
        [only] => match serde_json::from_str::<Value>(only) {
            Ok(frame) => {
                let params = &frame["params"];
                if frame["method"] != json!(contract.handshake_method) || params["protocol_version"] != json!(contract.pin) || params["sdk"] != json!(lang) {
                    problems.push(format!("the one line sent is not {lang}'s handshake at the pin: {only}"));
                }
            }
            Err(e) => problems.push(format!("the one line sent is not JSON ({e}): {only}")),
        },
        _ => problems.push(format!("the client sent {} line(s), not just the handshake:\n{received}", lines.len())),
    }
    problems
}

/// Reports compare modulo the one value that varies run to run.
fn without_duration(report: &Value) -> Value {
    let mut report = report.clone();
    if let Some(call) = report.get_mut("call").and_then(Value::as_object_mut) {
        call.remove("duration_ms");
    }
    report
}

/// Handshake, initialize, tools, call, resource, prompt and shutdown through
/// the real binary, from every language, against both real servers; and every
/// language's report for a server is the same JSON value.
#[test]
fn every_language_drives_both_real_servers_through_the_binary() {
    let contract = Contract::load();
    let languages = languages();
    let Some((binary, servers)) = binary_and_servers() else { return no_servers() };
    let mut problems = Vec::new();
    let served: Vec<_> = servers.iter().map(oracle::ask).collect();
    let started = Instant::now();
    let mut jobs: Vec<Job<Value>> = Vec::new();
    for server in servers {
        for &lang in &languages {
            let argv = binary_argv(&binary, server);
            jobs.push(Box::new(move || run(lang, "full", &argv, Some(server))));
        }
    }
    let reports = parallel(2, jobs);
    eprintln!("e2e: {} full runs in {:.1} s", reports.len(), started.elapsed().as_secs_f64());
    for ((server, served), reports) in servers.iter().zip(&served).zip(reports.chunks(languages.len())) {
        let served = match served {
            Ok(served) => served,
            Err(e) => {
                problems.push(format!("asking {} directly: {e}", server.name));
                continue;
            }
        };
        for (lang, report) in languages.iter().zip(reports) {
            problems.extend(
                check_full(&contract, server, served, report)
                    .into_iter()
                    .map(|p| format!("{lang} × {}: {p}", server.name)),
            );
        }
        let reference = without_duration(&reports[0]);
        for (lang, report) in languages.iter().zip(reports).skip(1) {
            if without_duration(report) != reference {
                problems.push(format!(
                    "{lang} × {}: report differs from {}'s:\n  {report}\n  {reference}",
                    server.name, languages[0]
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

fn check_full(contract: &Contract, server: &Server, served: &oracle::Served, report: &Value) -> Vec<String> {
    if report.get("failed").is_some() {
        return vec![format!("failed: {report}")];
    }
    let mut problems = Vec::new();
    let mut expect = |ok: bool, what: String| {
        if !ok {
            problems.push(what);
        }
    };
    expect(report["scenario"] == "full", format!("scenario is {}", report["scenario"]));
    let handshake = &report["handshake"];
    expect(
        handshake["protocol_version"] == json!(contract.pin),
        format!("handshake {handshake}: protocol_version is not the pin {}", contract.pin),
    );
    expect(
        handshake["binary_version"].as_str().is_some_and(|v| !v.is_empty()),
        format!("handshake {handshake}: no binary_version"),
    );
    let initialize = &report["initialize"];
    expect(
        initialize["era"] == json!(server.era),
        format!("initialize era is {}, the server's is {}", initialize["era"], server.era),
    );
    let tools = report["tools"].as_array().cloned().unwrap_or_default();
    expect(tools.contains(&json!(server.tool)), format!("tools {} lack {}", report["tools"], server.tool));
    expect(
        tools == served.tool_names,
        format!("tools {} are not the server's own {:?}", report["tools"], served.tool_names),
    );
    let call = &report["call"];
    expect(call["success"] == true, format!("call verdict did not succeed: {call}"));
    expect(
        call["text"].as_str().is_some_and(|t| t.contains(&server.expect_text)),
        format!("call text {} lacks {:?}", call["text"], server.expect_text),
    );
    let contents = &report["resource"]["contents"];
    expect(
        contents.as_array().is_some_and(|c| !c.is_empty()),
        format!("resource has no contents: {}", report["resource"]),
    );
    expect(
        contents
            .as_array()
            .is_some_and(|c| c.iter().all(|item| item["uri"] == json!(server.resource_uri))),
        format!("resource contents are not of {}: {contents}", server.resource_uri),
    );
    expect(
        *contents == served.resource_contents,
        format!("resource contents {contents}\n  are not what the server serves: {}", served.resource_contents),
    );
    let messages = &report["prompt"]["messages"];
    expect(
        messages.as_array().is_some_and(|m| !m.is_empty()),
        format!("prompt has no messages: {}", report["prompt"]),
    );
    expect(
        *messages == served.prompt_messages,
        format!("prompt messages {messages}\n  are not what the server serves: {}", served.prompt_messages),
    );
    expect(report["shutdown"] == json!({}), format!("shutdown answered {}", report["shutdown"]));
    expect(report["exit_code"] == 0, format!("the binary exited with {}", report["exit_code"]));
    problems
}

/// A client that never sends the handshake (a v1 SDK) is still served.
#[test]
fn every_language_is_served_without_a_handshake() {
    let languages = languages();
    let Some((binary, servers)) = binary_and_servers() else { return no_servers() };
    let started = Instant::now();
    let mut jobs: Vec<Job<Value>> = Vec::new();
    for server in servers {
        for &lang in &languages {
            let argv = binary_argv(&binary, server);
            jobs.push(Box::new(move || run(lang, "no_handshake", &argv, Some(server))));
        }
    }
    let reports = parallel(2, jobs);
    eprintln!("e2e: {} no-handshake runs in {:.1} s", reports.len(), started.elapsed().as_secs_f64());
    let mut problems = Vec::new();
    for (server, reports) in servers.iter().zip(reports.chunks(languages.len())) {
        for (lang, report) in languages.iter().zip(reports) {
            let tools = report["tools"].as_array().cloned().unwrap_or_default();
            let ok = report["scenario"] == "no_handshake" && tools.contains(&json!(server.tool)) && report["exit_code"] == 0;
            if !ok || report.get("failed").is_some() {
                problems.push(format!("{lang} × {}: {report}", server.name));
            }
        }
        let reference = &reports[0];
        for (lang, report) in languages.iter().zip(reports).skip(1) {
            if report != reference {
                problems.push(format!(
                    "{lang} × {}: report differs from {}'s:\n  {report}\n  {reference}",
                    server.name, languages[0]
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

/// The Rust client writes each request as the generated encoder would: its
/// request lines, laid out once per method and filled per call, are compared
/// byte for byte with `RequestOf::encode` of the same request, over a fake that
/// answers every request (the handshake with the pinned version, any other with
/// a verdict).
#[test]
fn the_rust_clients_request_lines_are_the_encoders_text() {
    use std::io::{BufRead, BufReader, Write};
    use std::sync::{Arc, Mutex};

    let (client_reads, mut fake_writes) = std::io::pipe().unwrap();
    let (fake_reads, client_writes) = std::io::pipe().unwrap();
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let recorded = Arc::clone(&seen);
    let fake = std::thread::spawn(move || {
        for (index, line) in BufReader::new(fake_reads).lines().enumerate() {
            let Ok(line) = line else { break };
            let id = coprocess::RequestId::Integer(i64::try_from(index).unwrap() + 1);
            let answer = if index == 0 {
                let result = coprocess::HandshakeResult { protocol_version: coprocess::COPROCESS_PROTOCOL_VERSION, binary_version: "test".into() };
                coprocess::SuccessResponseOf { jsonrpc: coprocess::JsonRpcVersion::default(), id, result }.encode()
            } else {
                let result = coprocess::Verdict { success: true, data: Value::Null, text: None, error: None, duration_ms: 0 };
                coprocess::SuccessResponseOf { jsonrpc: coprocess::JsonRpcVersion::default(), id, result }.encode()
            };
            recorded.lock().unwrap().push(line);
            if writeln!(fake_writes, "{answer}").is_err() {
                break;
            }
        }
    });
    let client = client::CoprocessClient::over_streams(client_reads, client_writes, &client::ClientOptions::default()).unwrap();
    let calls = [("weather", None), ("a \"quoted\" \u{1} tool", Some(json!({"query": "Paris", "n": [1, 2.5]}))), ("weather", Some(json!({})))];
    let mut expected = Vec::new();
    for (tool, arguments) in calls {
        let params = coprocess::CallParams { tool: tool.into(), arguments: arguments.map(|a| serde_json::from_value(a).unwrap()), passthrough: None, timeout_ms: None };
        client.call(params.clone(), None).unwrap();
        let id = coprocess::RequestId::Integer(i64::try_from(expected.len()).unwrap() + 2);
        let request = coprocess::RequestOf { jsonrpc: coprocess::JsonRpcVersion::default(), id, method: coprocess::methods::MCP_CALL.to_string(), params: Some(params) };
        expected.push(request.encode());
    }
    client.close();
    fake.join().unwrap();
    let seen = seen.lock().unwrap();
    assert!(seen.len() > expected.len(), "the fake saw {} lines: {seen:?}", seen.len());
    assert_eq!(&seen[1..=expected.len()], &expected[..], "the client's request lines against the encoder's");
}

/// The Rust client decodes an answer laid out as its session's first success
/// answer by its result alone (`AnswerLayout`): every answer, laid out so or
/// not, must give what the decode of the whole answer gives. Each case is a
/// session over a pair of pipes whose fake answers the handshake, one call
/// with a plain verdict (the layout is learnt from it) and then the case's
/// answer, which the client's outcome is compared with: the result's text,
/// or the decoder's problem, as `ResponseOf::<CallResult>::decode` of the same
/// line gives it. The cases near the nesting limit fail when the result is
/// decoded as deep as a whole frame may nest.
#[test]
fn the_rust_clients_laid_out_answers_decode_as_whole_answers() {
    use coprocess::Frame;
    use std::io::{BufRead, BufReader, Write};

    let depth = coprocess::MAX_DEPTH;
    // The verdict's `data` opens the third container of the answer.
    let nested = |containers: usize| format!("{}{}", "[".repeat(containers), "]".repeat(containers));
    let verdict = |data: &str| format!(r#"{{"success":true,"data":{data},"text":"ok","error":null,"duration_ms":0}}"#);
    let success = |result: &str| format!(r#"{{"jsonrpc":"2.0","id":3,"result":{result}}}"#);
    let cases: Vec<(&str, String)> = vec![
        ("laid out", success(r#"{"success":false,"data":{"a":[1,2.5,"\u00e9"]},"text":null,"error":"boom","duration_ms":7}"#)),
        ("integral numbers rewritten", success(r#"{"success":true,"data":{"n":-0,"m":1e2},"text":"ok","error":null,"duration_ms":7.0}"#)),
        ("nesting at the limit", success(&verdict(&nested(depth - 2)))),
        ("nesting past the limit", success(&verdict(&nested(depth - 1)))),
        ("a duplicate key in the result", success(r#"{"success":true,"success":true,"data":null,"text":"ok","error":null,"duration_ms":0}"#)),
        ("an undeclared member in the result", success(r#"{"success":true,"data":null,"text":"ok","error":null,"duration_ms":0,"retries":1}"#)),
        ("a lone surrogate in the result", success(&verdict(r#""\ud800""#))),
        ("the layout's tail inside a string", success(r#"{"success":true,"data":"}","text":"\"}","error":null,"duration_ms":0}"#)),
        ("whitespace around the result", format!(r#"{{"jsonrpc":"2.0","id":3,"result": {} }}"#, verdict("[ ]"))),
        ("a member after the result", format!(r#"{{"jsonrpc":"2.0","id":3,"result":{},"extra":1}}"#, verdict("null"))),
        ("the result not an object", success("[]")),
        ("another id", r#"{"jsonrpc":"2.0","id":4,"result":{"success":true,"data":null,"text":"ok","error":null,"duration_ms":0}}"#.to_string()),
        ("members in another order", format!(r#"{{"id":3,"jsonrpc":"2.0","result":{}}}"#, verdict("1"))),
        ("an error answer", r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad"}}"#.to_string()),
    ];
    let mut problems = Vec::new();
    for (name, answer) in &cases {
        let (client_reads, mut fake_writes) = std::io::pipe().unwrap();
        let (fake_reads, client_writes) = std::io::pipe().unwrap();
        let answers = [
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"protocol_version":{},"binary_version":"test"}}}}"#, coprocess::COPROCESS_PROTOCOL_VERSION),
            r#"{"jsonrpc":"2.0","id":2,"result":{"success":true,"data":null,"text":"first","error":null,"duration_ms":0}}"#.to_string(),
            answer.clone(),
        ];
        let fake = std::thread::spawn(move || {
            let mut lines = BufReader::new(fake_reads).lines();
            for answer in answers {
                if lines.next().is_none() || writeln!(fake_writes, "{answer}").is_err() {
                    break;
                }
            }
            // The output ends after the answers (close then waits for nothing).
            drop(fake_writes);
            lines.for_each(drop);
        });
        let client = client::CoprocessClient::over_streams(client_reads, client_writes, &client::ClientOptions::default()).unwrap();
        let params = || coprocess::CallParams { tool: "weather".into(), arguments: None, passthrough: None, timeout_ms: None };
        let first = client.call(params(), None).map(|r| r.encode());
        let got = client.call(params(), None).map(|r| r.encode()).map_err(|e| (e.kind, e.detail));
        client.close();
        fake.join().unwrap();
        let expected = match coprocess::ResponseOf::<coprocess::CallResult>::decode(answer) {
            Ok(coprocess::ResponseOf::SuccessResponse(s)) if matches!(s.id, coprocess::RequestId::Integer(3)) => Ok(s.result.encode()),
            Ok(coprocess::ResponseOf::SuccessResponse(_)) => Err((client::ClientErrorKind::Protocol, String::new())),
            Ok(coprocess::ResponseOf::ErrorResponse(e)) => Err((client::ClientErrorKind::Rpc(Box::new(client::RpcError { code: e.error.code, name: coprocess::ERROR_CODES.iter().find(|k| k.code == e.error.code).map(|k| k.name), data: None })), String::new())),
            // A text that breaks the JSON-text rules is reported as not JSON, with the problem alone.
            Err(e) => match coprocess::strict::check_text(answer, depth) {
                Err((_, problem)) => Err((client::ClientErrorKind::Protocol, problem)),
                Ok(_) => Err((client::ClientErrorKind::Protocol, e.to_string())),
            },
        };
        if first.is_err() || got != expected {
            problems.push(format!("{name}: the first call gave {first:?}; the case's {got:?}, the whole answer's decode {expected:?}"));
        }
    }
    assert!(problems.is_empty(), "{} of {} cases:\n{}", problems.len(), cases.len(), problems.join("\n"));
}
