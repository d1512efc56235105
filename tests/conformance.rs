//! Every SDK's generated code, checked by its own toolchain and driven over
//! the same frames: each target's testee must give the verdict the contract
//! expects for every mutated frame, and re-encode accepted frames to the same
//! JSON value as the Rust decoder. Toolchains are installed by
//! `tests/conformance/<target>/build.sh`; with `CI=true` a missing toolchain
//! fails, elsewhere it is reported loudly.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

const TARGETS: &[&str] = &["python", "typescript", "go", "jvm", "dotnet"];

/// Numbers compare by value (`100` and `100.0` are the same JSON number).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w))),
        _ => a == b,
    }
}

fn build(target: &str) -> Result<bool, String> {
    let output = Command::new("bash").arg(format!("tests/conformance/{target}/build.sh")).arg("generated").output().map_err(|e| e.to_string())?;
    let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    match output.status.code() {
        Some(0) => Ok(true),
        Some(3) if std::env::var("CI").as_deref() != Ok("true") => {
            eprintln!("!!!!! TOOLCHAIN MISSING for {target}: its conformance was NOT checked !!!!!\n{log}");
            Ok(false)
        }
        _ => Err(format!("{target}: build.sh failed\n{log}")),
    }
}

fn run(target: &str, input: &str) -> Result<Vec<Value>, String> {
    let mut child = Command::new("bash")
        .arg(format!("tests/conformance/{target}/run.sh"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let text = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout.lines().map(|l| serde_json::from_str(l).map_err(|e| format!("{target}: bad answer line {l}: {e}"))).collect()
}

#[test]
fn every_target_agrees_with_the_contract_on_mutated_frames() {
    let cases = support::cases();
    let input: String = cases.iter().map(|c| json!({"type": c.type_name, "json": c.value.to_string()}).to_string() + "\n").collect();
    let mut problems = Vec::new();
    for target in TARGETS {
        match build(target) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                problems.push(e);
                continue;
            }
        }
        let answers = match run(target, &input) {
            Ok(a) => a,
            Err(e) => {
                problems.push(e);
                continue;
            }
        };
        if answers.len() != cases.len() {
            problems.push(format!("{target}: {} answers for {} cases", answers.len(), cases.len()));
            continue;
        }
        for (case, answer) in cases.iter().zip(&answers) {
            let ok = answer["ok"] == json!(true);
            if ok != case.valid {
                problems.push(format!("{target}: {} {} ({}): expected {}, got {answer}", case.type_name, case.value, case.note, case.valid));
            } else if ok && !same_value(&answer["value"], &case.value) {
                problems.push(format!("{target}: {} {} re-encoded as {}", case.type_name, case.value, answer["value"]));
            }
        }
    }
    assert!(problems.is_empty(), "{} disagreements:\n{}", problems.len(), problems.join("\n"));
}
