//! Comparing answers: JSON values (numbers by value) and answer lines.

use serde_json::Value;

/// Numbers compare by value (`100` and `100.0` are the same JSON number);
/// object members in any order.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w))),
        _ => a == b,
    }
}

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
