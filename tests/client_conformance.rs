//! Client conformance: every language's generated session client runs every
//! scenario of `tests/client_conformance/scenarios.json` (or of
//! `$CLIENT_SCENARIOS`) against the scripted fake coprocess
//! (`tests/client_conformance/fake_coprocess.py`) or, where a scenario says
//! so, the real `mcptest` binary, and reports each step's outcome (kind +
//! message, and the result, code, name or data it carries). Every outcome must
//! equal the scenario's expected one and, across languages, each other's. With
//! `CLIENT_REPORT=<out.json>` every language's outcome per scenario is written
//! there. The format is documented in docs/client-scenarios.md.
//!
//! Each client is `tests/client_conformance/<lang>/run.sh`, prepared by its
//! `build.sh` (a missing toolchain is reported loudly, and fails with
//! `CI=true`, as in tests/conformance.rs).
//!
//! Every scenario carries `within_ms`, the most its steps may take together,
//! and each is checked for cleanup: the fake records its pid (and its
//! helpers') in `$CLIENT_PIDS`, and once a scenario's outcome line is out, no
//! coprocess it started may still run or wait unreaped (Linux, by `/proc`).
//! Nor may a client keep its program waiting: each testee must end within
//! `LINGER_BOUND` of its last outcome line, though the fake's helpers hold
//! the pipes of coprocesses that have exited for up to a minute.
//!
//! Every scenario runs on v2.json and again on the renamed contract of the
//! roles proof (issue 32; `tests/client_conformance/renamed.rs`): each build.sh
//! builds both testees in one round, and each language's renamed outcomes must
//! be its v2 outcomes with the names renamed. A problem names the scenario, the
//! contract (`v2` or `renamed`) and the language.
//!
//! Run: `cargo test --test client_conformance` (minutes: six builds, two runs each).

mod support;

#[path = "client_conformance/renamed.rs"]
mod renamed;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Instant;

use serde_json::{json, Map, Value};

/// The languages whose client exists, in report order. A language joins with
/// its `tests/client_conformance/<lang>/{build,run}.sh`. `python-poll` is the
/// Python client waiting its other way (each read polled first, as where Linux's
/// `/proc` is missing), held to the same outcomes.
const LANGUAGES: &[&str] = &["rust", "python", "python-poll", "typescript", "go", "jvm", "dotnet"];

/// The most a testee may take to end after its last outcome line (the fake's
/// helpers hold the coprocess's pipes for 60 s unless told otherwise).
const LINGER_BOUND: std::time::Duration = std::time::Duration::from_secs(10);

/// The kinds of outcome a step can have.
const KINDS: &[&str] = &["ok", "rpc_error", "handshake_error", "protocol_error", "timeout", "closed", "exited", "spawn_error"];

/// The keys compared across languages (besides `kind`).
const COMPARED: &[&str] = &["message", "code", "name", "data", "result", "call_outcome"];

/// `LANGUAGES`, or the ones `CLIENT_LANGUAGES=python,go` names (for working
/// on one client; said loudly, since the others are then not checked).
fn languages() -> Vec<&'static str> {
    let Ok(chosen) = std::env::var("CLIENT_LANGUAGES") else { return LANGUAGES.to_vec() };
    let chosen: Vec<&str> = chosen.split(',').map(str::trim).filter(|l| !l.is_empty()).collect();
    for lang in &chosen {
        assert!(LANGUAGES.contains(lang), "CLIENT_LANGUAGES names {lang:?}, which is not one of {LANGUAGES:?}");
    }
    eprintln!("CLIENT_LANGUAGES: only {chosen:?} run; the other clients are NOT checked");
    LANGUAGES.iter().copied().filter(|l| chosen.contains(l)).collect()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scenario_file() -> PathBuf {
    match std::env::var_os("CLIENT_SCENARIOS") {
        Some(file) => {
            let file = PathBuf::from(file);
            if file.is_absolute() {
                file
            } else {
                std::env::current_dir().map(|dir| dir.join(&file)).unwrap_or(file)
            }
        }
        None => root().join("tests/client_conformance/scenarios.json"),
    }
}

fn load_scenarios(file: &Path) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    value["scenarios"].as_array().cloned().ok_or_else(|| format!("{}: no `scenarios` array", file.display()))
}

/// The contract's words the expectations name: message templates, error
/// codes by name, and the constants a `template` may use.
struct Contract {
    messages: Map<String, Value>,
    codes: Map<String, Value>,
    constants: Vec<(String, String)>,
}

impl Contract {
    fn load() -> Contract {
        Contract::of(&support::schema())
    }

    fn of(schema: &Value) -> Contract {
        let table = &schema["x-coprocess"];
        let messages = table["messages"].as_object().cloned().unwrap_or_default();
        let mut codes = Map::new();
        for row in table["error_codes"].as_array().into_iter().flatten() {
            if let Some(name) = row["name"].as_str() {
                codes.insert(name.to_string(), row["code"].clone());
            }
        }
        let constants = ["protocol_version", "max_line_bytes", "max_depth"]
            .iter()
            .map(|key| (key.to_string(), table[key].to_string()))
            .collect();
        Contract { messages, codes, constants }
    }

    /// An expected message: a string, `{"contract": <message key>, <hole>: <value>…}`
    /// (the contract's template, `sdk_protocol` defaulting to the pin), or
    /// `{"template": "…{max_line_bytes}…"}` filled with the contract's constants.
    fn message(&self, spec: &Value) -> Result<String, String> {
        match spec {
            Value::String(text) => Ok(text.clone()),
            Value::Object(fields) if fields.contains_key("contract") => {
                let key = fields["contract"].as_str().ok_or("`contract` is not a string")?;
                let template = self.messages.get(key).and_then(|m| m["template"].as_str()).ok_or_else(|| format!("the contract has no message `{key}`"))?;
                let mut values: Vec<(String, String)> = vec![("sdk_protocol".into(), self.constant("protocol_version"))];
                for (hole, value) in fields.iter().filter(|(k, _)| *k != "contract") {
                    values.push((hole.clone(), self.value(value)?));
                }
                Ok(fill(template, &values))
            }
            Value::Object(fields) if fields.contains_key("template") => {
                let template = fields["template"].as_str().ok_or("`template` is not a string")?;
                Ok(fill(template, &self.constants))
            }
            other => Err(format!("not a message: {other}")),
        }
    }

    /// A hole's value: a string, a number, a nested contract message,
    /// `{"code": <error-code name>}`, or `{"path": <under the repository>}`.
    fn value(&self, value: &Value) -> Result<String, String> {
        match value {
            Value::String(text) => Ok(text.clone()),
            Value::Number(n) => Ok(n.to_string()),
            Value::Object(fields) if fields.contains_key("path") => {
                let path = fields["path"].as_str().ok_or("`path` is not a string")?;
                Ok(root().join(path).display().to_string())
            }
            Value::Object(fields) if fields.contains_key("code") => {
                let name = fields["code"].as_str().unwrap_or_default();
                self.codes.get(name).map(|c| c.to_string()).ok_or_else(|| format!("the contract has no error code `{name}`"))
            }
            other => self.message(other),
        }
    }

    fn constant(&self, key: &str) -> String {
        self.constants.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
    }
}

/// Fills `{hole}`s in one pass (a filled value is never filled again).
fn fill(template: &str, values: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let hole = &after[..close];
                match values.iter().find(|(k, _)| k == hole) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// One step's expectation, resolved against the contract.
#[derive(Clone)]
struct Expect {
    fields: Map<String, Value>,
    ignore: Vec<String>,
    within_ms: Option<u64>,
}

fn resolve(contract: &Contract, expect: &Value) -> Result<Expect, String> {
    let object = expect.as_object().ok_or("`expect` is not an object")?;
    let kind = object.get("kind").and_then(Value::as_str).ok_or("`expect` has no `kind`")?;
    if !KINDS.contains(&kind) {
        return Err(format!("unknown kind `{kind}` (one of {KINDS:?})"));
    }
    let mut fields = Map::new();
    fields.insert("kind".into(), json!(kind));
    if let Some(message) = object.get("message") {
        fields.insert("message".into(), json!(contract.message(message)?));
    }
    if let Some(name) = object.get("name").and_then(Value::as_str) {
        let code = contract.codes.get(name).ok_or_else(|| format!("the contract has no error code `{name}`"))?;
        fields.insert("name".into(), json!(name));
        fields.insert("code".into(), code.clone());
    }
    for key in ["code", "data", "result", "call_outcome"] {
        if let Some(value) = object.get(key) {
            fields.insert(key.into(), value.clone());
        }
    }
    let ignore = object.get("ignore_fields").and_then(Value::as_array).into_iter().flatten().filter_map(|v| v.as_str().map(String::from)).collect();
    Ok(Expect { fields, ignore, within_ms: object.get("within_ms").and_then(Value::as_u64) })
}

/// Every step's expectations, in order; a `parallel` step's are one entry per call.
fn expectations(contract: &Contract, scenario: &Value) -> Result<Vec<Vec<Expect>>, String> {
    scenario["within_ms"].as_u64().ok_or("no `within_ms` (the most its steps may take together, in milliseconds)")?;
    let steps = scenario["steps"].as_array().ok_or("no `steps` array")?;
    steps
        .iter()
        .enumerate()
        .map(|(index, step)| {
            let at = |e: String| format!("step {}: {e}", index + 1);
            if let Some(calls) = step["parallel"].as_array() {
                calls.iter().map(|c| resolve(contract, &c["expect"]).map_err(at)).collect()
            } else if step.get("call").is_some() || step.get("start").is_some() || step.get("close").is_some() {
                Ok(vec![resolve(contract, &step["expect"]).map_err(at)?])
            } else {
                Err(at("not a `start`, `call`, `close` or `parallel` step".into()))
            }
        })
        .collect()
}

/// What one language gave.
#[derive(Clone)]
enum Outcome {
    /// Per scenario name, one outcome array per step.
    Ran(Vec<(String, Value)>),
    Missing(String),
    Failed(String),
}

/// One contract the clients run on: v2.json (the generated/ SDKs and the
/// testees as they are), or the renamed one ([`renamed::Tree`]: `run.sh renamed`).
struct Variant {
    name: &'static str,
    scenarios: PathBuf,
    /// `run.sh`'s argument.
    arg: Option<&'static str>,
    /// More variables for `run.sh`.
    vars: Vec<(&'static str, PathBuf)>,
}

impl Variant {
    fn v2(file: &Path) -> Variant {
        let binary = PathBuf::from(env!("CARGO_BIN_EXE_mcptest"));
        Variant { name: "v2", scenarios: file.to_path_buf(), arg: None, vars: vec![("CLIENT_BINARY", binary)] }
    }

    /// The renamed contract's run: the fake serves that contract, and the
    /// real binary (built on v2.json) is reached through the proxy that maps
    /// the method names back.
    fn renamed(tree: &renamed::Tree) -> Variant {
        let binary = PathBuf::from(env!("CARGO_BIN_EXE_mcptest"));
        let vars = vec![
            ("CLIENT_CONTRACT", tree.contract_file.clone()),
            ("CLIENT_BINARY", root().join("tests/client_conformance/contract_proxy.py")),
            ("CLIENT_PROXIED_BINARY", binary),
        ];
        Variant { name: "renamed", scenarios: tree.scenarios_file.clone(), arg: Some("renamed"), vars }
    }
}

/// Builds one language's testees (with `CLIENT_RENAMED`, the renamed one
/// beside v2's in the same round) and runs each variant: one outcome per variant.
fn run_language(lang: &str, variants: &[Variant], tree: Option<&renamed::Tree>) -> Vec<Outcome> {
    let script = root().join(format!("tests/client_conformance/{lang}/build.sh"));
    let mut build = Command::new("bash");
    build.arg(script).current_dir(root());
    if let Some(tree) = tree {
        build.env("CLIENT_RENAMED", &tree.root);
    }
    // A failed build fails the first variant (it names both) and leaves the others unrun.
    let failed = |outcome: Outcome| {
        let not_run = |variant: &Variant| Outcome::Failed(format!("{} {lang}: not run, build.sh failed", variant.name));
        std::iter::once(outcome).chain(variants.iter().skip(1).map(not_run)).collect()
    };
    let build = match build.output() {
        Ok(output) => output,
        Err(e) => return failed(Outcome::Failed(format!("{lang}: cannot run build.sh: {e}"))),
    };
    let log = String::from_utf8_lossy(&build.stderr).into_owned();
    match build.status.code() {
        Some(0) => {}
        Some(3) if std::env::var("CI").as_deref() != Ok("true") => return variants.iter().map(|_| Outcome::Missing(log.clone())).collect(),
        _ => return failed(Outcome::Failed(format!("{lang}: build.sh failed ({}), building the testees of {:?}:\n{log}", build.status, variants.iter().map(|v| v.name).collect::<Vec<_>>()))),
    }
    // The variants run at once: a testee spends most of a scenario waiting
    // (on the fake's start, a timeout, an exit's drain), so two overlap.
    std::thread::scope(|scope| {
        let runs: Vec<_> = variants.iter().map(|variant| (variant, scope.spawn(move || run_variant(lang, variant)))).collect();
        runs.into_iter()
            .map(|(variant, run)| run.join().unwrap_or_else(|_| Outcome::Failed(format!("{} {lang}: its runner thread panicked", variant.name))))
            .collect()
    })
}

/// Runs one built testee over its variant's scenarios.
fn run_variant(lang: &str, variant: &Variant) -> Outcome {
    let script = |name: &str| root().join(format!("tests/client_conformance/{lang}/{name}"));
    let at = |text: String| format!("{} {text}", variant.name);
    let pids = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return Outcome::Failed(at(format!("{lang}: cannot make a CLIENT_PIDS directory: {e}"))),
    };
    let child = Command::new("bash")
        .arg(script("run.sh"))
        .args(variant.arg)
        .current_dir(root())
        .env("CLIENT_SCENARIOS", &variant.scenarios)
        .env("CLIENT_FAKE", root().join("tests/client_conformance/fake_coprocess.py"))
        .envs(variant.vars.iter().map(|(k, v)| (k, v)))
        .env("CLIENT_ROOT", root())
        .env("CLIENT_PIDS", pids.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return Outcome::Failed(at(format!("{lang}: cannot run run.sh: {e}"))),
    };
    let stderr = child.stderr.take().map(|mut stream| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut stream, &mut text);
            text
        })
    });
    // Each outcome line is read as it comes, so that the scenario's processes
    // are checked while the testee still runs (an unreaped one is a zombie of it).
    let mut ran = Vec::new();
    let mut bad = None;
    let mut last_line = Instant::now();
    if let Some(stdout) = child.stdout.take() {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)).map_while(Result::ok) {
            if line.trim().is_empty() || bad.is_some() {
                continue;
            }
            match serde_json::from_str::<Value>(&line) {
                Ok(value) => {
                    let name = value["scenario"].as_str().unwrap_or_default().to_string();
                    let mut steps = value["steps"].clone();
                    let left = left_running(pids.path(), &name);
                    if !left.is_empty() {
                        steps = json!({"steps": steps, "left_running": left});
                    }
                    ran.push((name, steps));
                    last_line = Instant::now();
                }
                Err(e) => bad = Some(at(format!("{lang}: not a JSON line ({e}): {line}"))),
            }
        }
    }
    let status = child.wait();
    // Every session is closed or its coprocess gone by the last outcome: the
    // processes the fake's helpers leave running (for up to a minute) must
    // not keep the client's program from ending.
    let lingered = last_line.elapsed();
    stop_helpers(pids.path());
    let stderr = stderr.and_then(|reader| reader.join().ok()).unwrap_or_default();
    match status {
        Ok(status) if !status.success() => return Outcome::Failed(at(format!("{lang}: run.sh failed ({status}):\n{stderr}"))),
        Err(e) => return Outcome::Failed(at(format!("{lang}: run.sh: {e}"))),
        Ok(_) => {}
    }
    if let Some(bad) = bad {
        return Outcome::Failed(format!("{bad}\n{stderr}"));
    }
    if lingered > LINGER_BOUND {
        return Outcome::Failed(at(format!(
            "{lang}: the testee ended {:.1} s after its last outcome (at most {} s): a closed session kept it waiting on a process its coprocess started",
            lingered.as_secs_f64(),
            LINGER_BOUND.as_secs()
        )));
    }
    Outcome::Ran(ran)
}

/// One process the fake recorded: its scenario, role (`coprocess` or
/// `helper`), pid and start time (`/proc/<pid>/stat` field 22).
struct Recorded {
    scenario: String,
    role: String,
    pid: u32,
    started: String,
}

fn recorded(dir: &Path) -> Vec<Recorded> {
    let text = std::fs::read_to_string(dir.join("pids")).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let [scenario, role, pid, started] = fields[..] else { return None };
            Some(Recorded { scenario: scenario.into(), role: role.into(), pid: pid.parse().ok()?, started: started.into() })
        })
        .collect()
}

/// The process's state letter (`R`, `S`, `Z`…) while that very process (same
/// start time) still exists, running or unreaped.
fn alive(process: &Recorded) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", process.pid)).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    (fields.get(19) == Some(&process.started.as_str())).then(|| fields[0].to_string())
}

/// The scenario's coprocesses that still run or wait unreaped once its
/// outcome is out: a client must leave none behind.
fn left_running(dir: &Path, scenario: &str) -> Vec<String> {
    recorded(dir)
        .iter()
        .filter(|p| p.scenario == scenario && p.role == "coprocess")
        .filter_map(|p| alive(p).map(|state| format!("the coprocess (pid {}) is left {}", p.pid, if state == "Z" { "unreaped" } else { "running" })))
        .collect()
}

/// Ends the helpers the fake started (no client is answerable for them).
fn stop_helpers(dir: &Path) {
    for helper in recorded(dir).iter().filter(|p| p.role == "helper") {
        if alive(helper).is_some() {
            let _ = Command::new("kill").arg("-9").arg(helper.pid.to_string()).status();
        }
    }
}

/// The outcome's fields that are compared: `kind` and whatever `expect` names,
/// the result without the ignored fields.
fn compared(outcome: &Value, keys: &[String], ignore: &[String]) -> Map<String, Value> {
    let mut fields = Map::new();
    for key in keys {
        let mut value = outcome.get(key).cloned().unwrap_or(Value::Null);
        if key == "result" {
            if let Value::Object(result) = &mut value {
                for field in ignore {
                    result.remove(field);
                }
            }
        }
        fields.insert(key.clone(), value);
    }
    fields
}

/// What is wrong with one step's outcome (empty: nothing).
fn step_problems(expect: &Expect, outcome: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let keys: Vec<String> = expect.fields.keys().cloned().collect();
    let got = compared(outcome, &keys, &expect.ignore);
    for (key, want) in &expect.fields {
        if got.get(key) != Some(want) {
            problems.push(format!("{key}: expected {want}, got {}", got.get(key).unwrap_or(&Value::Null)));
        }
    }
    if let Some(limit) = expect.within_ms {
        match outcome["elapsed_ms"].as_f64() {
            Some(ms) if ms <= limit as f64 => {}
            other => problems.push(format!("took {other:?} ms, more than {limit} ms")),
        }
    }
    problems
}

/// One contract's run: its scenarios' expectations and each language's outcomes.
struct ContractRun {
    name: &'static str,
    scenarios: Vec<Value>,
    expected: Vec<Result<Vec<Vec<Expect>>, String>>,
    outcomes: Vec<(String, Outcome)>,
}

struct Run {
    file: PathBuf,
    /// v2.json's run first, then the renamed contract's.
    contracts: Vec<ContractRun>,
    rule: renamed::Rule,
    seconds: f64,
}

fn run() -> &'static Result<Run, String> {
    static RUN: OnceLock<Result<Run, String>> = OnceLock::new();
    RUN.get_or_init(|| {
        let started = Instant::now();
        let file = scenario_file();
        let scenarios = load_scenarios(&file)?;
        let tree = renamed::prepare(&root(), &support::schema(), &scenarios)?;
        let renamed_scenarios = load_scenarios(&tree.scenarios_file)?;
        let variants = [Variant::v2(&file), Variant::renamed(&tree)];
        let contracts = [Contract::load(), Contract::of(&tree.contract)];
        let mut runs: Vec<ContractRun> = variants
            .iter()
            .zip(&contracts)
            .zip([scenarios, renamed_scenarios])
            .map(|((variant, contract), scenarios)| {
                let expected = scenarios.iter().map(|s| expectations(contract, s)).collect();
                ContractRun { name: variant.name, scenarios, expected, outcomes: Vec::new() }
            })
            .collect();
        let variants = &variants;
        let tree = &tree;
        let per_language: Vec<(String, Vec<Outcome>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = languages().into_iter().map(|lang| (lang, scope.spawn(move || run_language(lang, variants, Some(tree))))).collect();
            handles.into_iter().map(|(lang, h)| h.join().map(|o| (lang.to_string(), o)).map_err(|_| "a language's runner thread panicked".to_string())).collect::<Result<_, _>>()
        })?;
        for (lang, outcomes) in per_language {
            if let Some(Outcome::Missing(log)) = outcomes.first() {
                eprintln!("\n!!!!! TOOLCHAIN MISSING for the {lang} client: its client conformance was NOT checked (CI=true makes this fail) !!!!!\n{log}");
            }
            for (run, outcome) in runs.iter_mut().zip(outcomes) {
                run.outcomes.push((lang.clone(), outcome));
            }
        }
        Ok(Run { file, contracts: runs, rule: tree.rule.clone(), seconds: started.elapsed().as_secs_f64() })
    })
}

/// How long a scenario's steps took together: a `parallel` step as long as
/// its longest call.
fn elapsed(steps: &Value) -> f64 {
    let ms = |outcome: &Value| outcome["elapsed_ms"].as_f64().unwrap_or(0.0);
    steps
        .as_array()
        .into_iter()
        .flatten()
        .map(|step| match step {
            Value::Array(calls) => calls.iter().map(ms).fold(0.0, f64::max),
            single => ms(single),
        })
        .sum()
}

/// What one contract's run of one scenario gave: the problems (each naming
/// the contract and the language), each language's steps (keyed `<contract>
/// <language>`), and each language's compared fields, outcome by outcome.
struct ScenarioRun {
    problems: Vec<String>,
    by_language: Map<String, Value>,
    compared: Vec<(String, Vec<Map<String, Value>>)>,
}

/// Every problem of one scenario in one contract's run, over every language that ran.
fn scenario_problems(run: &ContractRun, index: usize) -> ScenarioRun {
    let scenario = &run.scenarios[index];
    let name = scenario["name"].as_str().unwrap_or_default();
    let contract = run.name;
    let mut out = ScenarioRun { problems: Vec::new(), by_language: Map::new(), compared: Vec::new() };
    let problems = &mut out.problems;
    let expected = match &run.expected[index] {
        Ok(expected) => expected,
        Err(e) => {
            problems.push(format!("{contract}: the scenario is malformed: {e}"));
            return out;
        }
    };
    for (bare, outcome) in &run.outcomes {
        let Outcome::Ran(ran) = outcome else { continue };
        let lang = format!("{contract} {bare}");
        let Some((_, steps)) = ran.iter().find(|(n, _)| n == name) else {
            problems.push(format!("{lang}: no outcome"));
            continue;
        };
        let steps = match steps.get("left_running") {
            Some(left) => {
                for process in left.as_array().into_iter().flatten() {
                    problems.push(format!("{lang}: {}", process.as_str().unwrap_or_default()));
                }
                &steps["steps"]
            }
            None => steps,
        };
        out.by_language.insert(lang.clone(), steps.clone());
        let took = elapsed(steps);
        let bound = scenario["within_ms"].as_f64().unwrap_or(0.0);
        if took > bound {
            problems.push(format!("{lang}: the steps took {took:.0} ms, more than the scenario's within_ms {bound}"));
        }
        let mut flat = Vec::new();
        for (step, expects) in expected.iter().enumerate() {
            let outcomes: Vec<Value> = match &steps[step] {
                Value::Array(items) if scenario["steps"][step].get("parallel").is_some() => items.clone(),
                Value::Null => {
                    problems.push(format!("{lang}: step {} has no outcome", step + 1));
                    continue;
                }
                single => vec![single.clone()],
            };
            if outcomes.len() != expects.len() {
                problems.push(format!("{lang}: step {} has {} outcomes, expected {}", step + 1, outcomes.len(), expects.len()));
                continue;
            }
            for (call, (expect, got)) in expects.iter().zip(&outcomes).enumerate() {
                for problem in step_problems(expect, got) {
                    let at = if expects.len() > 1 { format!("step {}.{}", step + 1, call + 1) } else { format!("step {}", step + 1) };
                    problems.push(format!("{lang}: {at}: {problem}"));
                }
                let keys: Vec<String> = std::iter::once("kind").chain(COMPARED.iter().copied()).map(String::from).collect();
                flat.push(compared(got, &keys, &expect.ignore));
            }
        }
        if let Some((first, theirs)) = out.compared.first() {
            if *theirs != flat {
                problems.push(format!("{lang}'s outcomes differ from {contract} {first}'s"));
            }
        }
        out.compared.push((bare.clone(), flat));
    }
    out
}

/// Each language's outcomes on the renamed contract must be its v2 outcomes
/// with the names renamed by the rule, and nothing else.
fn renamed_differences(rule: &renamed::Rule, v2: &ScenarioRun, renamed: &ScenarioRun) -> Vec<String> {
    let mut problems = Vec::new();
    for (lang, theirs) in &renamed.compared {
        let Some((_, ours)) = v2.compared.iter().find(|(l, _)| l == lang) else { continue };
        for (index, (want, got)) in ours.iter().zip(theirs).enumerate() {
            let want = rule.value(&Value::Object(want.clone()));
            let got = Value::Object(got.clone());
            if want != got {
                problems.push(format!("renamed {lang}: outcome {} differs from v2 {lang}'s by more than the names: expected {want}, got {got}", index + 1));
            }
        }
    }
    problems
}

#[test]
fn every_client_gives_each_scenarios_expected_outcome() {
    let run = match run() {
        Ok(run) => run,
        Err(e) => panic!("{e}"),
    };
    let failed: Vec<&String> = run.contracts.iter().flat_map(|c| &c.outcomes).filter_map(|(_, o)| if let Outcome::Failed(e) = o { Some(e) } else { None }).collect();
    let mut report = Vec::new();
    let mut all = Vec::new();
    let Some(v2) = run.contracts.first() else { panic!("no contract ran") };
    for (index, scenario) in v2.scenarios.iter().enumerate() {
        let runs: Vec<ScenarioRun> = run.contracts.iter().map(|c| scenario_problems(c, index)).collect();
        let mut problems: Vec<String> = runs.iter().flat_map(|r| r.problems.clone()).collect();
        if let [ours, theirs] = &runs[..] {
            problems.extend(renamed_differences(&run.rule, ours, theirs));
        }
        let name = scenario["name"].as_str().unwrap_or_default();
        for problem in &problems {
            all.push(format!("{name}: {problem}"));
        }
        let outcomes: Map<String, Value> = runs.into_iter().flat_map(|r| r.by_language).collect();
        report.push(json!({"scenario": name, "ok": problems.is_empty(), "problems": problems, "outcomes": outcomes}));
    }
    let languages = |want: fn(&Outcome) -> bool| -> Vec<String> {
        run.contracts.iter().flat_map(|c| c.outcomes.iter().filter(|(_, o)| want(o)).map(|(l, _)| format!("{} {l}", c.name))).collect()
    };
    let ran = languages(|o| matches!(o, Outcome::Ran(_)));
    let missing = languages(|o| matches!(o, Outcome::Missing(_)));
    if let Some(out) = std::env::var_os("CLIENT_REPORT") {
        let value = json!({
            "scenarios_file": run.file.display().to_string(),
            "languages": ran, "missing_toolchains": missing, "failed": failed,
            "seconds": run.seconds, "scenarios": report,
        });
        let text = serde_json::to_string_pretty(&value).unwrap_or_default();
        if let Err(e) = std::fs::write(&out, text + "\n") {
            panic!("cannot write CLIENT_REPORT {}: {e}", PathBuf::from(out).display());
        }
    }
    eprintln!(
        "client conformance: {} scenario(s) from {}, on v2.json and the renamed contract, run: {ran:?}, missing: {missing:?}, {:.1} s",
        v2.scenarios.len(),
        run.file.display(),
        run.seconds
    );
    assert!(failed.is_empty(), "client runs failed:\n{}", failed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"));
    assert!(all.is_empty(), "{} problem(s):\n{}", all.len(), all.join("\n"));
}

#[test]
fn every_scenario_is_well_formed_and_named_once() {
    let file = scenario_file();
    let scenarios = match load_scenarios(&file) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    };
    assert!(!scenarios.is_empty(), "{} holds no scenario", file.display());
    let contract = Contract::load();
    let mut names = std::collections::BTreeSet::new();
    for scenario in &scenarios {
        let name = scenario["name"].as_str().unwrap_or_default();
        assert!(!name.is_empty(), "a scenario has no name: {scenario}");
        assert!(names.insert(name.to_string()), "two scenarios are named {name}");
        assert!(scenario["steps"][0].get("start").is_some(), "{name}: the first step must be `start`");
        if let Err(e) = expectations(&contract, scenario) {
            panic!("{name}: {e}");
        }
    }
}

#[test]
fn a_contract_message_expectation_is_filled_from_the_contract() {
    let contract = Contract::load();
    let spec = json!({"contract": "sdk_mismatch", "binary_protocol": "1", "advice": {"contract": "upgrade_binary"}});
    let message = contract.message(&spec).unwrap_or_default();
    let template = contract.messages["sdk_mismatch"]["template"].as_str().unwrap_or_default();
    assert!(message.starts_with("mcptest binary speaks coprocess v1; this SDK needs v"), "{message}");
    assert!(!message.contains('{'), "unfilled hole in {message} (template {template})");
    assert!(message.ends_with(contract.messages["upgrade_binary"]["template"].as_str().unwrap_or("?")), "{message}");
    let code = contract.value(&json!({"code": "MethodNotFound"})).unwrap_or_default();
    assert_eq!(code, "-32601");
}
