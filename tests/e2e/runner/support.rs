//! What the end-to-end runner needs besides the clients: the contract's
//! expectations (from the schema), the toolchain builds, the servers, and
//! running one client with a time limit.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The external clients, each `tests/e2e/<lang>/{build,run}.sh`; Rust runs in process.
pub const LANGUAGES: &[&str] = &["python", "typescript", "go", "jvm", "dotnet"];
/// A client that has not answered by then is killed and reported.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(90);

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn in_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// The parts of `schemas/ipc/v2.json` the runner checks against.
pub struct Contract {
    pub pin: i64,
    pub handshake_method: String,
    templates: BTreeMap<String, String>,
}

impl Contract {
    pub fn load() -> Contract {
        let text = std::fs::read_to_string(root().join("schemas/ipc/v2.json")).expect("read the schema");
        let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
        let x = &schema["x-coprocess"];
        let pin = x["protocol_version"].as_i64().expect("x-coprocess.protocol_version");
        let handshake_method = x["methods"]
            .as_array()
            .expect("x-coprocess.methods")
            .iter()
            .find(|m| m["result"] == "#/$defs/HandshakeResult")
            .and_then(|m| m["name"].as_str())
            .expect("a method answering HandshakeResult")
            .to_string();
        let templates = x["messages"]
            .as_object()
            .expect("x-coprocess.messages")
            .iter()
            .map(|(name, m)| (name.clone(), m["template"].as_str().expect("template").to_string()))
            .collect();
        Contract {
            pin,
            handshake_method,
            templates,
        }
    }

    /// The template `name` with each `{hole}` filled from `values`.
    pub fn message(&self, name: &str, values: &[(&str, String)]) -> String {
        let mut text = self.templates.get(name).unwrap_or_else(|| panic!("no message `{name}`")).clone();
        for (hole, value) in values {
            text = text.replace(&format!("{{{hole}}}"), value);
        }
        assert!(!text.contains('{'), "unfilled hole in {text}");
        text
    }

    /// The SDK's fail-fast message against a binary that speaks `binary`.
    pub fn sdk_mismatch(&self, binary: i64) -> String {
        let advice = self.message(if binary < self.pin { "upgrade_binary" } else { "upgrade_sdk" }, &[]);
        self.message(
            "sdk_mismatch",
            &[
                ("binary_protocol", binary.to_string()),
                ("sdk_protocol", self.pin.to_string()),
                ("advice", advice),
            ],
        )
    }
}

/// Runs a build or setup script: `Ok(true)` built, `Ok(false)` toolchain
/// missing outside CI (reported loudly), `Err` a failure.
fn run_script(what: &str, script: &str) -> Result<bool, String> {
    let output = Command::new("bash")
        .arg(script)
        .current_dir(root())
        .output()
        .map_err(|e| format!("{what}: {e}"))?;
    let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    match output.status.code() {
        Some(0) => Ok(true),
        Some(3) if !in_ci() => {
            eprintln!("!!!!! TOOLCHAIN MISSING for {what}: it was NOT tested end to end !!!!!\n{log}");
            Ok(false)
        }
        _ => Err(format!("{what}: {script} failed ({})\n{log}", output.status)),
    }
}

/// What is ready to run, built once per test binary.
pub struct Ready {
    /// The external languages whose client built.
    pub languages: Vec<&'static str>,
    /// Client build failures: every test fails with these.
    pub language_problems: Vec<String>,
    /// Server setup failures: the tests that need the servers fail with these.
    pub server_problems: Vec<String>,
    /// The servers, when setup.sh installed them.
    pub servers: Option<Vec<Server>>,
    /// Skipped parts (toolchain missing outside CI), named in each test's output.
    pub missing: Vec<String>,
}

pub fn ready() -> &'static Ready {
    static READY: OnceLock<Ready> = OnceLock::new();
    READY.get_or_init(|| {
        let started = Instant::now();
        let mut ready = Ready {
            languages: Vec::new(),
            language_problems: Vec::new(),
            server_problems: Vec::new(),
            servers: None,
            missing: Vec::new(),
        };
        // Two at a time: the machine is small and javac/csc/tsc are heavy.
        let results: Vec<(&'static str, Result<bool, String>)> = LANGUAGES
            .chunks(2)
            .flat_map(|pair| {
                let handles: Vec<_> = pair
                    .iter()
                    .map(|&lang| std::thread::spawn(move || (lang, run_script(&format!("the {lang} client"), &format!("tests/e2e/{lang}/build.sh")))))
                    .collect();
                handles.into_iter().map(|h| h.join().expect("build thread")).collect::<Vec<_>>()
            })
            .collect();
        for (lang, result) in results {
            match result {
                Ok(true) => ready.languages.push(lang),
                Ok(false) => ready.missing.push(format!("{lang} client (toolchain missing)")),
                Err(e) => ready.language_problems.push(e),
            }
        }
        match run_script("the MCP servers", "tests/e2e/servers/setup.sh") {
            Ok(true) => match Server::load() {
                Ok(servers) => ready.servers = Some(servers),
                Err(e) => ready.server_problems.push(e),
            },
            Ok(false) => ready.missing.push("the MCP servers (setup.sh: toolchain missing)".into()),
            Err(e) => ready.server_problems.push(e),
        }
        eprintln!("e2e: clients built and servers set up in {:.1} s", started.elapsed().as_secs_f64());
        ready
    })
}

/// One entry of `tests/e2e/servers/servers.json`.
#[derive(Clone, Debug)]
pub struct Server {
    pub name: String,
    pub command: Vec<String>,
    pub era: String,
    pub tool: String,
    pub tool_args: Value,
    pub expect_text: String,
    pub resource_uri: String,
    pub prompt: String,
    pub prompt_args: Value,
}

impl Server {
    fn load() -> Result<Vec<Server>, String> {
        let path = root().join("tests/e2e/servers/servers.json");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let list: Value = serde_json::from_str(&text).map_err(|e| format!("servers.json: {e}"))?;
        let field = |entry: &Value, key: &str| -> Result<String, String> {
            entry[key]
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("servers.json: `{key}` must be a string in {entry}"))
        };
        let object = |entry: &Value, key: &str| -> Result<Value, String> {
            match &entry[key] {
                Value::Null => Ok(Value::Object(Default::default())),
                v @ Value::Object(_) => Ok(v.clone()),
                other => Err(format!("servers.json: `{key}` must be an object, got {other}")),
            }
        };
        let servers = list
            .as_array()
            .ok_or("servers.json: not an array")?
            .iter()
            .map(|entry| {
                Ok(Server {
                    name: field(entry, "name")?,
                    command: entry["command"]
                        .as_array()
                        .and_then(|argv| argv.iter().map(|a| a.as_str().map(str::to_string)).collect::<Option<Vec<_>>>())
                        .ok_or_else(|| format!("servers.json: `command` must be an array of strings in {entry}"))?,
                    era: field(entry, "era")?,
                    tool: field(entry, "tool")?,
                    tool_args: object(entry, "tool_args")?,
                    expect_text: field(entry, "expect_text")?,
                    resource_uri: field(entry, "resource_uri")?,
                    prompt: field(entry, "prompt")?,
                    prompt_args: object(entry, "prompt_args")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        if servers.len() < 2 {
            return Err(format!("servers.json lists {} server(s); the suite needs the two real servers", servers.len()));
        }
        Ok(servers)
    }
}

/// Joins an argv for `--server-command`, quoting shell-style where needed.
pub fn shell_join(argv: &[String]) -> String {
    argv.iter()
        .map(|arg| {
            let plain = !arg.is_empty() && arg.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
            if plain {
                arg.clone()
            } else {
                format!("'{}'", arg.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The argv of the real binary serving `server`.
pub fn binary_argv(binary: &Path, server: &Server) -> Vec<String> {
    vec![
        binary.display().to_string(),
        "exec".into(),
        "--connection-server".into(),
        "--server-command".into(),
        shell_join(&server.command),
    ]
}

/// The argv of the fake coprocess speaking `version`, logging to `log`.
pub fn fake_argv(version: i64, log: &Path) -> Vec<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let fake = root().join("tests/e2e/fakes/fake_coprocess.py");
    vec![
        python,
        fake.display().to_string(),
        "--speaks".into(),
        version.to_string(),
        "--log".into(),
        log.display().to_string(),
    ]
}

/// The environment of one client run (the interface of E2E_INTERFACE.md).
pub fn client_env(scenario: &str, argv: &[String], server: Option<&Server>) -> Vec<(String, String)> {
    let mut env = vec![
        ("E2E_SCENARIO".to_string(), scenario.to_string()),
        ("MCPTEST_ARGV".to_string(), Value::from(argv.to_vec()).to_string()),
    ];
    if let Some(s) = server {
        env.push(("E2E_TOOL".into(), s.tool.clone()));
        env.push(("E2E_TOOL_ARGS".into(), s.tool_args.to_string()));
        env.push(("E2E_RESOURCE_URI".into(), s.resource_uri.clone()));
        env.push(("E2E_PROMPT".into(), s.prompt.clone()));
        env.push(("E2E_PROMPT_ARGS".into(), s.prompt_args.to_string()));
    }
    env
}

/// Runs `tests/e2e/<lang>/run.sh` with `env`; its one report line, parsed
/// (a client that prints anything else is a failure, reported as such).
pub fn run_client(lang: &str, env: &[(String, String)]) -> Value {
    let started = Instant::now();
    let mut child = match Command::new("bash")
        .arg(format!("tests/e2e/{lang}/run.sh"))
        .current_dir(root())
        .envs(env.iter().cloned())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return serde_json::json!({"failed": format!("spawning run.sh: {e}")}),
    };
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > CLIENT_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => break None,
        }
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let Some(status) = status else {
        return serde_json::json!({"failed": format!("the {lang} client did not finish within {CLIENT_TIMEOUT:?}"), "stderr": stderr});
    };
    let lines: Vec<&str> = stdout.lines().filter(|l| !l.trim().is_empty()).collect();
    match (lines.as_slice(), serde_json::from_str::<Value>(lines.first().copied().unwrap_or(""))) {
        ([_], Ok(mut report)) => {
            let failed = report.get("failed").is_some();
            if failed == status.success() {
                return serde_json::json!({"failed": format!("exit status {status} does not match the report {report}"), "stderr": stderr});
            }
            if failed {
                report["stderr"] = Value::from(stderr);
            }
            report
        }
        _ => serde_json::json!({"failed": format!("the {lang} client ({status}) printed {stdout:?}, not one JSON line"), "stderr": stderr}),
    }
}

/// A scratch directory under target/ for the fakes' logs.
pub fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/e2e/scratch").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// One unit of work for `parallel`.
pub type Job<T> = Box<dyn FnOnce() -> T + Send>;

/// Runs `jobs` on at most `width` threads; results in input order.
pub fn parallel<T: Send + 'static>(width: usize, jobs: Vec<Job<T>>) -> Vec<T> {
    let queue = std::sync::Arc::new(std::sync::Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>()));
    let results = std::sync::Arc::new(std::sync::Mutex::new(BTreeMap::new()));
    let workers: Vec<_> = (0..width)
        .map(|_| {
            let queue = queue.clone();
            let results = results.clone();
            std::thread::spawn(move || loop {
                let next = queue.lock().unwrap().pop();
                let Some((index, job)) = next else { break };
                let value = job();
                results.lock().unwrap().insert(index, value);
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("worker thread");
    }
    let mut results = results.lock().unwrap();
    std::mem::take(&mut *results).into_values().collect()
}

/// Runs `job` while holding one of two machine-wide slots: the tests run in
/// parallel, and so do their jobs, but never more than two clients at once.
pub fn with_slot<T>(job: impl FnOnce() -> T) -> T {
    static SLOTS: (std::sync::Mutex<usize>, std::sync::Condvar) = (std::sync::Mutex::new(2), std::sync::Condvar::new());
    let (free, changed) = &SLOTS;
    struct Slot;
    impl Drop for Slot {
        fn drop(&mut self) {
            let (free, changed) = &SLOTS;
            *free.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) += 1;
            changed.notify_one();
        }
    }
    let mut guard = changed
        .wait_while(free.lock().unwrap_or_else(|p| p.into_inner()), |free| *free == 0)
        .unwrap_or_else(|p| p.into_inner());
    *guard -= 1;
    drop(guard);
    let _slot = Slot;
    job()
}
