//! Comparing answers: JSON values (numbers by value) and answer lines.

use serde_json::Value;

/// Numbers compare by value (`100` and `100.0` are the same JSON number);
/// object members in any order.
pub use crate::support::same_json as same_value;

/// The verdict of an answer line: `Some(true)` accepted, `Some(false)`
/// rejected, `None` not an answer.
pub fn verdict(answer: &Value) -> Option<bool> {
    match (answer.get("ok"), answer.get("value"), answer.get("error")) {
        (Some(Value::Bool(true)), Some(_), _) => Some(true),
        (Some(Value::Bool(false)), _, Some(Value::String(_))) => Some(false),
        _ => None,
    }
}

/// A short rendering of an answer for listings.
pub fn brief(answer: &Value) -> String {
    let text = match verdict(answer) {
        Some(true) => format!("accept {}", answer["value"]),
        Some(false) => format!("reject: {}", answer["error"].as_str().unwrap_or_default()),
        None => format!("no answer: {answer}"),
    };
    if text.chars().count() > 160 {
        text.chars().take(157).collect::<String>() + "..."
    } else {
        text
    }
}

/// What is wrong with one case's answers (empty: nothing): a verdict other
/// than `valid` (when the case carries one) or than the others', an accepted
/// frame re-encoded to another value, a shape error worded otherwise.
pub fn problems(valid: Option<bool>, json: &str, answers: &[(&str, Value)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (target, answer) in answers {
        match (verdict(answer), valid) {
            (None, _) => problems.push(format!("{target} gave no verdict")),
            (Some(got), Some(want)) if got != want => problems.push(format!("{target} {}s, the contract {}s", word(got), word(want))),
            _ => {}
        }
    }
    // With no verdict given, the validator's is the reference: every other
    // target that differs is named.
    let reference = answers.iter().find(|(t, _)| *t == crate::targets::VALIDATOR).and_then(|(_, a)| verdict(a));
    let verdicts: Vec<Option<bool>> = answers.iter().map(|(_, a)| verdict(a)).collect();
    if let (None, Some(want)) = (valid, reference) {
        for (target, answer) in answers {
            if let Some(got) = verdict(answer).filter(|got| *got != want) {
                problems.push(format!("{target} {}s, {} {}s", word(got), crate::targets::VALIDATOR, word(want)));
            }
        }
    } else if valid.is_none() && verdicts.windows(2).any(|w| w[0] != w[1]) {
        problems.push("the targets disagree".into());
    }
    let accepted: Vec<&(&str, Value)> = answers.iter().filter(|(_, a)| verdict(a) == Some(true)).collect();
    let reference = accepted.iter().find(|(t, _)| *t == crate::targets::VALIDATOR).or(accepted.first());
    if let Some((ref_target, ref_answer)) = reference {
        for (target, answer) in &accepted {
            if !same_value(&answer["value"], &ref_answer["value"]) {
                problems.push(format!("{target} re-encodes to another value than {ref_target}"));
            }
        }
    }
    // A shape error (the text itself passes the JSON-text rules) must read the
    // same in every decoder; JSON-text errors may word their detail differently.
    let text_ok = mcptest_coprocess::frames::strict::check_text(json, mcptest_coprocess::MAX_DEPTH).is_ok();
    let decoders: Vec<&(&str, Value)> = answers.iter().filter(|(t, _)| *t != crate::targets::VALIDATOR).collect();
    if text_ok && decoders.iter().all(|(_, a)| verdict(a) == Some(false)) {
        if let Some((first, reference)) = decoders.first() {
            for (target, answer) in &decoders {
                if answer["error"] != reference["error"] {
                    problems.push(format!("{target}'s shape error differs from {first}'s"));
                }
            }
        }
    }
    problems
}

/// `accept` or `reject`.
pub fn word(ok: bool) -> &'static str {
    if ok {
        "accept"
    } else {
        "reject"
    }
}
