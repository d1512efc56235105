//! The Rust client's testee for the client conformance suite.
//!
//! Runs every scenario of `CLIENT_SCENARIOS` with the generated client,
//! `client::CoprocessClient`, against the scripted fake (`CLIENT_FAKE`) or
//! the real binary (`CLIENT_BINARY`), and prints one JSON line per scenario:
//! its name and one outcome per step (a list of outcomes for a `parallel`
//! step). See docs/client-scenarios.md and tests/client_conformance.rs.

#[path = "../../../../generated/rust/mcptest-runner/src/coprocess.rs"]
pub mod coprocess;

#[path = "../../../../generated/rust/mcptest-runner/src/client.rs"]
pub mod client;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use client::{ClientError, ClientErrorKind, ClientOptions, CoprocessClient};
use coprocess::Frame;

type Outcome = Map<String, Value>;

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("{name} is not set"))
}

/// The outcome of a failed call: its kind, message, detail and what the kind carries.
fn failure(error: &ClientError) -> Outcome {
    let kind = match &error.kind {
        ClientErrorKind::Handshake => "handshake_error",
        ClientErrorKind::Rpc(_) => "rpc_error",
        ClientErrorKind::Protocol => "protocol_error",
        ClientErrorKind::Timeout => "timeout",
        ClientErrorKind::Closed => "closed",
        ClientErrorKind::Exited(_) => "exited",
        ClientErrorKind::Spawn => "spawn_error",
    };
    let mut outcome = Map::new();
    outcome.insert("kind".into(), json!(kind));
    outcome.insert("message".into(), json!(error.message));
    outcome.insert("detail".into(), json!(error.detail));
    match &error.kind {
        ClientErrorKind::Rpc(rpc) => {
            outcome.insert("code".into(), json!(rpc.code));
            outcome.insert("name".into(), json!(rpc.name));
            outcome.insert("data".into(), rpc.data.clone().unwrap_or(Value::Null));
        }
        ClientErrorKind::Exited(exit) => {
            outcome.insert("status".into(), json!(exit.status));
            outcome.insert("stderr".into(), json!(exit.stderr));
        }
        _ => {}
    }
    outcome
}

fn crash(message: impl Into<String>) -> Outcome {
    let mut outcome = Map::new();
    outcome.insert("kind".into(), json!("crash"));
    outcome.insert("message".into(), json!(message.into()));
    outcome
}

fn ok() -> Outcome {
    let mut outcome = Map::new();
    outcome.insert("kind".into(), json!("ok"));
    outcome
}

/// A value re-encoded by the generated encoder, parsed.
fn value_of<T: Frame>(value: &T) -> Value {
    serde_json::from_str(&value.encode()).unwrap_or(Value::Null)
}

/// The step's params decoded as `P`, or absent.
fn params<P: Frame>(step: &Value) -> Result<Option<P>, String> {
    step.get("params")
        .map(|value| P::from_value(value.clone()).map_err(|e| e.to_string()))
        .transpose()
}

/// The step's params, which the method requires.
fn required<P: Frame>(step: &Value) -> Result<P, String> {
    params(step)?.ok_or_else(|| "the method requires params".to_string())
}

/// The result of an answered call as an outcome.
fn answered<R: Frame>(result: Result<R, ClientError>) -> Outcome {
    match result {
        Ok(result) => {
            let mut outcome = ok();
            outcome.insert("result".into(), value_of(&result));
            outcome
        }
        Err(error) => failure(&error),
    }
}

/// One call step through the client method of its wire name.
fn call(client: &CoprocessClient, step: &Value) -> Result<Outcome, String> {
    let method = step["call"].as_str().ok_or("`call` is not a string")?;
    let timeout = step["timeout_ms"].as_u64().map(Duration::from_millis);
    // The client method of a wire name is named after what follows its
    // namespace (`mcp.listTools` -> `list_tools`), as in the other testees.
    let name = method.split_once('.').map_or(method, |(_, name)| name);
    Ok(match name {
        "initialize" => answered(client.initialize(params(step)?, timeout)),
        "call" => {
            let result = client.call(required(step)?, timeout);
            let outcome = result.as_ref().ok().map(client::call_outcome);
            let mut answer = answered(result);
            if let Some(outcome) = outcome {
                let reading = json!({
                    "success": outcome.success,
                    "text": outcome.text,
                    "error": outcome.error,
                });
                answer.insert("call_outcome".into(), reading);
            }
            answer
        }
        "listTools" => answered(client.list_tools(params(step)?, timeout)),
        "listResources" => answered(client.list_resources(params(step)?, timeout)),
        "readResource" => answered(client.read_resource(required(step)?, timeout)),
        "callPrompt" => answered(client.call_prompt(required(step)?, timeout)),
        "reporter.setUpload" => answered(client.reporter_set_upload(required(step)?, timeout)),
        "reporter.flush" => answered(client.reporter_flush(params(step)?, timeout)),
        "cache.set_mode" => answered(client.cache_set_mode(required(step)?, timeout)),
        "cassette.set_mode" => answered(client.cassette_set_mode(required(step)?, timeout)),
        "shutdown" => answered(client.shutdown(params(step)?, timeout)),
        _ => return Err(format!("the client has no method for `{method}`")),
    })
}

struct Scenario<'s> {
    scenario: &'s Value,
    file: &'s str,
    client: Option<CoprocessClient>,
    process: Option<Child>,
}

impl Scenario<'_> {
    fn start(&mut self, options: &Value) -> Result<Outcome, String> {
        let root = PathBuf::from(env("CLIENT_ROOT")?);
        let binary = if let Some(path) = self.scenario["coprocess"]["path"].as_str() {
            root.join(path).display().to_string()
        } else if self.scenario["coprocess"] == "binary" {
            env("CLIENT_BINARY")?
        } else {
            env("CLIENT_FAKE")?
        };
        let server = self
            .scenario
            .get("server")
            .cloned()
            .unwrap_or(json!(["server"]));
        let argv: Vec<String> = server
            .as_array()
            .ok_or("`server` is not an array")?
            .iter()
            .map(|item| match item {
                Value::String(text) => text.clone(),
                other => root
                    .join(other["path"].as_str().unwrap_or_default())
                    .display()
                    .to_string(),
            })
            .collect();
        let name = self.scenario["name"].as_str().unwrap_or_default();
        let mut vars: Vec<(String, String)> = std::env::vars()
            .filter(|(key, _)| key != "CLIENT_SCENARIOS" && key != "CLIENT_SCENARIO")
            .collect();
        vars.push(("CLIENT_SCENARIOS".into(), self.file.into()));
        vars.push(("CLIENT_SCENARIO".into(), name.into()));
        let mut settings = ClientOptions {
            env: Some(vars.clone()),
            ..ClientOptions::default()
        };
        if let Some(ms) = options["timeout_ms"].as_u64() {
            settings.timeout = Duration::from_millis(ms);
        }
        if let Some(ms) = options["start_timeout_ms"].as_u64() {
            settings.start_timeout = Duration::from_millis(ms);
        }
        if let Some(ms) = options["close_timeout_ms"].as_u64() {
            settings.close_timeout = Duration::from_millis(ms);
        }
        let started = if self.scenario["transport"] == "streams" {
            let mut process = Command::new(&binary)
                .args(["exec", "--connection-server", "--server-command"])
                .arg(client::server_command(&argv))
                .env_clear()
                .envs(vars)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .map_err(|e| format!("spawning {binary}: {e}"))?;
            let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
                return Err("the coprocess has no pipes".into());
            };
            self.process = Some(process);
            CoprocessClient::over_streams(stdout, stdin, &settings)
        } else {
            CoprocessClient::spawn(&binary, &argv, &settings)
        };
        Ok(match started {
            Ok(client) => {
                self.client = Some(client);
                ok()
            }
            Err(error) => failure(&error),
        })
    }

    fn step(&mut self, step: &Value) -> Outcome {
        let started = Instant::now();
        let outcome = if let Some(options) = step.get("start") {
            self.start(options)
        } else if step.get("call").is_some() {
            match &self.client {
                Some(client) => call(client, step),
                None => Ok(crash("no client: the scenario's start failed")),
            }
        } else {
            if let Some(client) = &self.client {
                client.close();
            }
            Ok(ok())
        };
        timed(outcome.unwrap_or_else(crash), started)
    }

    fn parallel(&self, steps: &[Value]) -> Vec<Outcome> {
        let Some(client) = &self.client else {
            return steps
                .iter()
                .map(|_| crash("no client: the scenario's start failed"))
                .collect();
        };
        let barrier = Barrier::new(steps.len());
        std::thread::scope(|scope| {
            let handles: Vec<_> = steps
                .iter()
                .map(|step| {
                    let barrier = &barrier;
                    scope.spawn(move || {
                        barrier.wait();
                        let started = Instant::now();
                        timed(call(client, step).unwrap_or_else(crash), started)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|_| crash("the caller panicked"))
                })
                .collect()
        })
    }

    fn run(mut self) -> Vec<Value> {
        let mut results = Vec::new();
        let steps = self.scenario["steps"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for step in &steps {
            let result = match step["parallel"].as_array() {
                Some(calls) => Value::Array(
                    self.parallel(calls)
                        .into_iter()
                        .map(Value::Object)
                        .collect(),
                ),
                None => Value::Object(self.step(step)),
            };
            results.push(result);
        }
        if let Some(client) = self.client.take() {
            client.close();
        }
        if let Some(mut process) = self.process.take() {
            let _ = process.kill();
            let _ = process.wait();
        }
        results
    }
}

fn timed(mut outcome: Outcome, started: Instant) -> Outcome {
    let ms = (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0;
    outcome.insert("elapsed_ms".into(), json!(ms));
    outcome
}

fn main() {
    let run = || -> Result<(), String> {
        let file = env("CLIENT_SCENARIOS")?;
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        let scenarios: Value = serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
        for scenario in scenarios["scenarios"]
            .as_array()
            .ok_or("no `scenarios` array")?
        {
            let steps = Scenario {
                scenario,
                file: &file,
                client: None,
                process: None,
            }
            .run();
            println!("{}", json!({"scenario": scenario["name"], "steps": steps}));
        }
        Ok(())
    };
    if let Err(problem) = run() {
        eprintln!("client testee: {problem}");
        std::process::exit(1);
    }
}
