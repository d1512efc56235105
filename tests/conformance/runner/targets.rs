//! The targets: six testees (one per SDK language, each built and checked by
//! its own `build.sh` and run by its `run.sh`), plus two in-process checkers:
//! `rust-lib`, the library's own frames (`mcptest_coprocess::frames`) driven
//! through the Rust testee's answer code, and `jsonschema`, the independent
//! validator of `src/validate.rs`.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// The testees, in listing order: one per codegen target.
pub const TESTEES: &[&str] = codegen::targets::TARGETS;
/// The in-process checkers.
pub const LIBRARY: &str = "rust-lib";
pub const VALIDATOR: &str = "jsonschema";

/// What a target gave for the whole input.
pub enum Outcome {
    /// One answer per input line.
    Answers(Vec<Value>),
    /// No toolchain outside CI: loudly reported, not checked.
    Missing(String),
    /// A build, a strict check or the run failed.
    Failed(String),
}

/// Builds and runs every testee over `input` (NDJSON case lines), in
/// parallel, and answers the same lines in-process with the library.
pub fn run_all(input: &[String]) -> Vec<(String, Outcome)> {
    let text: String = input.iter().map(|l| format!("{l}\n")).collect();
    let mut outcomes: Vec<(String, Outcome)> = std::thread::scope(|scope| {
        let handles: Vec<_> = TESTEES.iter().map(|t| (t, scope.spawn(|| build_and_run(t, &text, input.len())))).collect();
        handles
            .into_iter()
            .map(|(t, h)| (t.to_string(), h.join().unwrap_or_else(|_| Outcome::Failed(format!("{t}: runner thread panicked")))))
            .collect()
    });
    outcomes.push((LIBRARY.to_string(), Outcome::Answers(input.iter().map(|l| crate::library::answer::answer(l)).collect())));
    outcomes
}

/// Runs the already built `testees` over `input` in parallel (no build, no
/// strict check: for inputs made after [`run_all`]), and the library in-process.
pub fn run_built(testees: &[&str], input: &[String]) -> Vec<(String, Outcome)> {
    let text: String = input.iter().map(|l| format!("{l}\n")).collect();
    let mut outcomes: Vec<(String, Outcome)> = std::thread::scope(|scope| {
        let handles: Vec<_> = testees
            .iter()
            .map(|t| {
                let text = &text;
                (t, scope.spawn(move || match run(t, text) {
                    Ok(answers) if answers.len() == input.len() => Outcome::Answers(answers),
                    Ok(answers) => Outcome::Failed(format!("{t}: {} answer lines for {} cases", answers.len(), input.len())),
                    Err(e) => Outcome::Failed(e),
                }))
            })
            .collect();
        handles
            .into_iter()
            .map(|(t, h)| (t.to_string(), h.join().unwrap_or_else(|_| Outcome::Failed(format!("{t}: runner thread panicked")))))
            .collect()
    });
    outcomes.push((LIBRARY.to_string(), Outcome::Answers(input.iter().map(|l| crate::library::answer::answer(l)).collect())));
    outcomes
}

fn build_and_run(target: &str, input: &str, lines: usize) -> Outcome {
    // The goldens are checked with the renamed contract's SDKs among them.
    let goldens = match crate::renamed::goldens() {
        Ok(goldens) => goldens,
        Err(e) => return Outcome::Failed(format!("{target}: {e}")),
    };
    let output = match Command::new("bash").arg(format!("tests/conformance/{target}/build.sh")).env("CONFORMANCE_GOLDENS", goldens).output() {
        Ok(output) => output,
        Err(e) => return Outcome::Failed(format!("{target}: cannot start build.sh: {e}")),
    };
    let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    match output.status.code() {
        Some(0) => {}
        Some(3) if std::env::var("CI").as_deref() != Ok("true") => return Outcome::Missing(log),
        _ => return Outcome::Failed(format!("{target}: build.sh failed\n{log}")),
    }
    match run(target, input) {
        Ok(answers) if answers.len() == lines => Outcome::Answers(answers),
        Ok(answers) => Outcome::Failed(format!("{target}: {} answer lines for {lines} cases", answers.len())),
        Err(e) => Outcome::Failed(e),
    }
}

pub fn run(target: &str, input: &str) -> Result<Vec<Value>, String> {
    let mut child = Command::new("bash")
        .arg(format!("tests/conformance/{target}/run.sh"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{target}: cannot start run.sh: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let text = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(format!("{target}: run.sh exited with {}: {}", output.status, String::from_utf8_lossy(&output.stderr)));
    }
    // Split on `\n` only: answers may carry a raw U+2028 inside strings.
    String::from_utf8_lossy(&output.stdout)
        .split('\n')
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{target}: bad answer line {l}: {e}")))
        .collect()
}

/// The jsonschema validator's verdict on frame text.
///
/// How the validator sees the JSON-text rules, which JSON Schema cannot
/// express: `validate_text` first runs the strict text check every decoder
/// uses (`strict::check_text`: byte-order mark, trailing text, duplicate keys,
/// lone surrogates, NaN/Infinity, double overflow, integer literals beyond
/// ±(2^53−1), depth), then parses the text — with `1.0`/`1e2`/`-0.0` and
/// other integral numbers within ±(2^53−1) rewritten as integers — and
/// validates the value against the `$defs` type. One more rule needs help:
/// the contract says an integral number written with a fraction or exponent
/// beyond ±(2^53−1) (`1e16`) is *not* an integer, while JSON Schema calls it
/// one. So the value is validated a second time with every such number
/// replaced by a non-integral number of the same sign (±0.5): where the
/// schema asks for an integer that fails exactly as the decoders do, and
/// anywhere else (open maps, `data`) it changes nothing. The reported value
/// is the parsed value itself.
pub fn validator(type_name: &str, text: &str) -> Value {
    match mcptest_coprocess::validate::validate_text(type_name, text) {
        Err(error) => json!({"ok": false, "error": error}),
        Ok(value) => {
            let mut narrowed = value.clone();
            if narrow_unsafe_integrals(&mut narrowed) {
                if let Err(error) = mcptest_coprocess::validate::validate_value(type_name, &narrowed) {
                    return json!({"ok": false, "error": error});
                }
            }
            json!({"ok": true, "value": value})
        }
    }
}

fn narrow_unsafe_integrals(value: &mut Value) -> bool {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() > MAX_SAFE => {
                *value = json!(0.5f64.copysign(f));
                true
            }
            _ => false,
        },
        // Every number is narrowed, so no short-circuiting `any`.
        Value::Array(items) => items.iter_mut().map(narrow_unsafe_integrals).fold(false, |a, b| a | b),
        Value::Object(map) => map.values_mut().map(narrow_unsafe_integrals).fold(false, |a, b| a | b),
        _ => false,
    }
}
