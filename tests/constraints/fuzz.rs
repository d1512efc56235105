//! Differential fuzzing of the constrained types (issue 17, part 2): the
//! campaign of `tests/conformance/runner/differential.rs` over the test
//! contract's own types (the golden's constrained types and the JSON Schema
//! Test Suite's groups, not v2's, which the conformance test fuzzes; nor the
//! pattern probes, drawn at random and tried by `patterns.rs`), through
//! the six testees and the library's (`rust-lib`), built once on the proof
//! contract; the reference is the jsonschema validator on the test
//! contract, after the same strict text check every decoder makes.
//!
//! Where the validator cannot be the reference the targets need only agree:
//! a string holding CR, U+2028 or U+2029 (its regex engine reads `$` before
//! them otherwise than ECMA-262: `VALIDATOR_READS_OTHERWISE`), and an
//! integral number beyond ±(2^53−1) written with a fraction or exponent where
//! the schema may read it as a number (the contract says it is no integer,
//! JSON Schema says it is one; in v2 every number is an integer, so the
//! conformance test can decide it).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::differential;
use crate::targets::Outcome;

/// The validator's answer for one case, `None` where it is no reference.
fn reference(validators: &BTreeMap<String, jsonschema::Validator>, type_name: &str, text: &str) -> Option<Value> {
    let checked = match mcptest_coprocess::frames::strict::check_text(text, mcptest_coprocess::MAX_DEPTH) {
        Ok(checked) => checked,
        Err((path, problem)) => return Some(json!({"ok": false, "error": format!("{type_name}: {problem} at {path}")})),
    };
    let value: Value = serde_json::from_str(&checked).ok()?;
    if reads_otherwise(&value) || unsafe_integral(&value) {
        return None;
    }
    let validator = validators.get(type_name)?;
    let error = validator.iter_errors(&value).next().map(|error| error.to_string());
    Some(match error {
        None => json!({"ok": true, "value": value}),
        Some(error) => json!({"ok": false, "error": format!("{type_name}: {error}")}),
    })
}

fn reads_otherwise(value: &Value) -> bool {
    match value {
        Value::String(s) => s.contains(['\r', '\u{2028}', '\u{2029}']),
        Value::Array(items) => items.iter().any(reads_otherwise),
        Value::Object(map) => map.iter().any(|(k, v)| reads_otherwise(&Value::String(k.clone())) || reads_otherwise(v)),
        _ => false,
    }
}

fn unsafe_integral(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0 && f.abs() > 9_007_199_254_740_991.0),
        Value::Array(items) => items.iter().any(unsafe_integral),
        Value::Object(map) => map.values().any(unsafe_integral),
        _ => false,
    }
}

/// Disagreements earlier campaigns found, minimized (corpus lines).
const FINDINGS: &str = "tests/constraints/fuzz-findings.jsonl";

fn kept_findings() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(FINDINGS).unwrap_or_else(|e| panic!("{FINDINGS}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let case: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{FINDINGS}: {e}: {l}"));
            match (case["type"].as_str(), case["json"].as_str()) {
                (Some(t), Some(j)) => (t.to_string(), j.to_string()),
                _ => panic!("{FINDINGS}: a case needs string `type` and `json`: {l}"),
            }
        })
        .collect()
}

#[test]
fn every_target_agrees_on_fuzzed_constrained_frames() {
    let built = crate::round::round();
    let failed = built.failed();
    assert!(failed.is_empty(), "testees failed to build: {failed:?}");
    // The constraints proof's own types, not the rest of the proof contract.
    let schema = &crate::constraints::test_schema();
    let v2 = crate::support::schema();
    let type_names: Vec<String> =
        schema["$defs"].as_object().map(|d| d.keys().filter(|k| v2["$defs"].get(k.as_str()).is_none() && !k.starts_with("PatternProbe")).cloned().collect()).unwrap_or_default();
    let validators: BTreeMap<String, jsonschema::Validator> = type_names
        .iter()
        .map(|name| {
            let root = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": format!("#/$defs/{name}"), "$defs": schema["$defs"]});
            (name.clone(), jsonschema::draft202012::new(&root).unwrap_or_else(|e| panic!("{name}: {e}")))
        })
        .collect();
    let runner = |input: &[String]| -> Vec<(String, Outcome)> { built.outcomes(input) };
    let validator = |type_name: &str, text: &str| reference(&validators, type_name, text);
    // What earlier campaigns found, minimized, first.
    let kept = kept_findings();
    assert!(!kept.is_empty(), "{FINDINGS} has no case");
    let still = differential::recheck(&runner, &validator, &kept).unwrap_or_else(|e| panic!("{e}"));
    assert!(still.is_empty(), "kept findings disagree again: {:?}", still.iter().map(|(i, p)| format!("{}: {}", kept[*i].1, p.join("; "))).collect::<Vec<_>>());
    let (seed, first, cases) = differential::slice();
    let started = std::time::Instant::now();
    let report =
        differential::campaign(schema, &type_names, seed, first, cases, 5000, 8, &runner, &validator).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "differential fuzzing of the constrained types, seed {seed}, cases {first}..{}: {} cases ({} mutated, {} valid, {} without the validator as reference) through {} testees in {:.1} s: {} disagreements ({} minimized)",
        first + cases,
        report.cases,
        report.mutated,
        report.accepted,
        report.unreferenced,
        built.ready().len(),
        started.elapsed().as_secs_f64(),
        report.findings.len() + report.unminimized,
        report.findings.len(),
    );
    let lines: Vec<String> = report.findings.iter().map(|f| f.corpus_line(seed)).collect();
    differential::keep_findings("FUZZ_CONSTRAINED_FINDINGS", &lines);
    assert!(
        lines.is_empty() && report.unminimized == 0,
        "{} disagreements; minimized:\n{}",
        report.findings.len() + report.unminimized,
        lines.join("\n")
    );
}
