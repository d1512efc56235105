//! Valid random values of a schema, and their random spellings as [`Doc`]s.
//!
//! A value is valid by construction for the keywords the subset supports:
//! `$ref`, `oneOf`, `enum`, `const`, `type` (lists too), integer and number
//! bounds and `multipleOf`, string lengths (a `pattern`ed string takes the
//! schema's example or the sample, as regexes are not inverted here), item
//! and member counts, `uniqueItems`, required and optional members, typed and
//! open maps (`propertyNames` keys come from the sample's `key`, `key1`, ...),
//! and `{}` (any value).

use serde_json::{json, Map, Number, Value};

use super::{literal, Doc, Rng};
use crate::support::{ref_name, resolve, same_json, sample};

/// How deep an any-value (`{}`) may nest.
const ANY_DEPTH: usize = 4;

/// Characters strings are drawn from: ASCII, escapes JSON needs, two-byte,
/// three-byte, astral, line and paragraph separators, a combining mark, a
/// right-to-left letter, NUL and the byte-order mark.
const CHARS: &[char] = &[
    'a', 'b', 'z', 'A', '0', '9', ' ', '_', '-', '.', '/', '"', '\\', '\n', '\t', 'é', 'ß', '中', '日', '😀', '𝄞', '\u{2028}',
    '\u{2029}', '\u{301}', 'א', '\u{0}', '\u{feff}', '\u{7f}', '\u{ffff}',
];

/// A random string of `len` code points.
pub fn text(rng: &mut Rng, len: usize) -> String {
    (0..len).map(|_| *rng.pick(CHARS)).collect()
}

/// A random string of `low..=high` code points.
pub fn text_between(rng: &mut Rng, low: usize, high: usize) -> String {
    let len = low + rng.below(high - low + 1);
    text(rng, len)
}

fn bound(s: &Value, inclusive: &str, exclusive: &str, step: i64) -> Option<i64> {
    let inclusive = s.get(inclusive).and_then(Value::as_f64).map(|b| if step > 0 { b.ceil() } else { b.floor() } as i64);
    let exclusive = s.get(exclusive).and_then(Value::as_f64).map(|b| if step > 0 { b.floor() as i64 + 1 } else { b.ceil() as i64 - 1 });
    match (inclusive, exclusive) {
        (Some(a), Some(b)) => Some(if step > 0 { a.max(b) } else { a.min(b) }),
        (a, b) => a.or(b),
    }
}

fn integer(s: &Value, rng: &mut Rng) -> Value {
    const SAFE: i64 = 9_007_199_254_740_991;
    let low = bound(s, "minimum", "exclusiveMinimum", 1).unwrap_or(-SAFE).max(-SAFE);
    let high = bound(s, "maximum", "exclusiveMaximum", -1).unwrap_or(SAFE).min(SAFE);
    let divisor = s.get("multipleOf").and_then(Value::as_f64).map_or(1, |d| d as i64).max(1);
    let candidates = [low, high, low.saturating_add(1), high.saturating_sub(1), 0, 1, -1, 7, 1 << 31, (1 << 31) - 1, -(1 << 31) - 1, 1 << 53];
    let wanted = if rng.chance(70) {
        *rng.pick(&candidates)
    } else {
        let span = (high as i128 - low as i128 + 1) as u128;
        (low as i128 + (u128::from(rng.next_u64()) % span) as i128) as i64
    };
    let clamped = wanted.clamp(low, high);
    // The multiple of the divisor nearest inside the bounds (the sample's when none is).
    let down = clamped.div_euclid(divisor) * divisor;
    let value = if down >= low { down } else { down + divisor };
    if value > high || value < low {
        return sample(&json!({}), s);
    }
    json!(value)
}

fn number(s: &Value, rng: &mut Rng) -> Value {
    let low = s.get("minimum").or_else(|| s.get("exclusiveMinimum")).and_then(Value::as_f64);
    let high = s.get("maximum").or_else(|| s.get("exclusiveMaximum")).and_then(Value::as_f64);
    let inside = |x: f64| {
        let above = match (s.get("minimum").and_then(Value::as_f64), s.get("exclusiveMinimum").and_then(Value::as_f64)) {
            (Some(m), _) if x < m => false,
            (_, Some(m)) if x <= m => false,
            _ => true,
        };
        let below = match (s.get("maximum").and_then(Value::as_f64), s.get("exclusiveMaximum").and_then(Value::as_f64)) {
            (Some(m), _) if x > m => false,
            (_, Some(m)) if x >= m => false,
            _ => true,
        };
        x.is_finite() && above && below
    };
    let mut candidates = vec![0.0, -0.0, 0.5, -1.5, 1e-7, 123.456, 1e21, 5e-324, f64::MAX, 0.1 + 0.2];
    for b in [low, high].into_iter().flatten() {
        candidates.extend([b, next_toward(b, f64::INFINITY), next_toward(b, f64::NEG_INFINITY), b / 2.0]);
    }
    candidates.push(f64::from_bits(rng.next_u64()));
    let x = *rng.pick(&candidates);
    if inside(x) {
        Number::from_f64(x).map_or_else(|| sample(&json!({}), s), Value::Number)
    } else {
        sample(&json!({}), s)
    }
}

fn next_toward(x: f64, toward: f64) -> f64 {
    if x.is_nan() || x == toward {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1).copysign(toward);
    }
    let bits = x.to_bits();
    f64::from_bits(if (toward > x) == (x > 0.0) { bits + 1 } else { bits - 1 })
}

fn string(schema: &Value, s: &Value, rng: &mut Rng) -> Value {
    if s.get("pattern").is_some() {
        return sample(schema, s);
    }
    let low = s.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let high = s.get("maxLength").and_then(Value::as_u64).map_or(low.max(12), |h| h as usize);
    let len = if rng.chance(30) { *rng.pick(&[low, high]) } else { low + rng.below(high - low + 1) };
    json!(text(rng, len))
}

fn array(schema: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
    let low = s.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
    let high = s.get("maxItems").and_then(Value::as_u64).map_or(low + 3, |h| h as usize);
    let count = low + rng.below(high.min(low + 4) - low + 1);
    let unique = s.get("uniqueItems") == Some(&json!(true));
    let mut items: Vec<Value> = Vec::new();
    for _ in 0..count * 3 {
        if items.len() == count {
            break;
        }
        let item = value(schema, &s["items"], rng, depth + 1);
        if !unique || !items.iter().any(|i| same_json(i, &item)) {
            items.push(item);
        }
    }
    if items.len() < low {
        return sample(schema, s);
    }
    Value::Array(items)
}

fn object(schema: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        let required: Vec<&str> = s.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        let mut map = Map::new();
        for (key, property) in props {
            if required.contains(&key.as_str()) || rng.chance(60) {
                map.insert(key.clone(), value(schema, property, rng, depth + 1));
            }
        }
        return Value::Object(map);
    }
    let low = s.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
    let high = s.get("maxProperties").and_then(Value::as_u64).map_or(low + 3, |h| h as usize);
    let count = low + rng.below(high.min(low + 4) - low + 1);
    let typed = s.get("additionalProperties").filter(|v| v.is_object() && v.as_object().is_some_and(|m| !m.is_empty()));
    let mut map = Map::new();
    for i in 0..count {
        let key = if s.get("propertyNames").is_some() {
            if i == 0 { "key".to_string() } else { format!("key{i}") }
        } else {
            text_between(rng, 0, 5)
        };
        let v = match typed {
            Some(values) => value(schema, values, rng, depth + 1),
            None => any(rng, depth + 1),
        };
        map.insert(key, v);
    }
    if map.len() < low {
        return sample(schema, s);
    }
    Value::Object(map)
}

/// Any JSON value (a `{}` schema), at most [`ANY_DEPTH`] deep.
pub fn any(rng: &mut Rng, depth: usize) -> Value {
    let kinds = if depth >= ANY_DEPTH { 4 } else { 6 };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => json!(rng.chance(50)),
        2 => {
            if rng.chance(50) {
                json!(rng.below(2000) as i64 - 1000)
            } else {
                json!(integer(&json!({}), rng))
            }
        }
        3 => json!(text_between(rng, 0, 7)),
        4 => Value::Array((0..rng.below(4)).map(|_| any(rng, depth + 1)).collect()),
        _ => Value::Object((0..rng.below(4)).map(|_| (text_between(rng, 0, 4), any(rng, depth + 1))).collect()),
    }
}

/// A valid random value of the schema `s` (within `schema`).
pub fn value(schema: &Value, s: &Value, rng: &mut Rng, depth: usize) -> Value {
    if ref_name(s).is_some() {
        return value(schema, resolve(schema, s), rng, depth);
    }
    if let Some(branches) = s.get("oneOf").and_then(Value::as_array).filter(|b| !b.is_empty()) {
        return value(schema, rng.pick(branches), rng, depth);
    }
    if let Some(values) = s.get("enum").and_then(Value::as_array).filter(|v| !v.is_empty()) {
        return rng.pick(values).clone();
    }
    if let Some(constant) = s.get("const") {
        return constant.clone();
    }
    let ty = match s.get("type") {
        Some(Value::Array(types)) if !types.is_empty() => rng.pick(types).as_str().unwrap_or("null").to_string(),
        Some(Value::String(t)) => t.clone(),
        _ => return any(rng, depth),
    };
    match ty.as_str() {
        "boolean" => json!(rng.chance(50)),
        "integer" => integer(s, rng),
        "number" => number(s, rng),
        "string" => string(schema, s, rng),
        "array" => array(schema, s, rng, depth),
        "object" => object(schema, s, rng, depth),
        _ => Value::Null,
    }
}

/// The spellings of a number: as serde_json writes it, and for an integer
/// within ±2^50 also `n.0`, `ne0`, `n0e-1` (and `-0` for zero); for a
/// fraction its `e` form.
pub fn number_spellings(n: &Number) -> Vec<String> {
    let plain = n.to_string();
    let mut out = vec![plain.clone()];
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() < 1 << 50) {
        out.extend([format!("{i}.0"), format!("{i}e0"), format!("{i}0e-1"), format!("{i}E+0")]);
        if i == 0 {
            out.extend(["-0".to_string(), "-0.0".to_string(), "0e5".to_string()]);
        }
    } else if let Some(f) = n.as_f64().filter(|_| n.is_f64()) {
        out.push(format!("{f:e}"));
        if plain.contains('.') && !plain.contains('e') {
            out.push(format!("{plain}0"));
        }
    }
    out
}

/// `value` written as a [`Doc`] with random spellings of keys, strings and numbers.
pub fn spell(value: &Value, rng: &mut Rng) -> Doc {
    match value {
        Value::Null => Doc::Scalar("null".into()),
        Value::Bool(b) => Doc::Scalar(b.to_string()),
        Value::Number(n) => Doc::Scalar(rng.pick(&number_spellings(n)).clone()),
        Value::String(s) => Doc::Scalar(literal(s, rng)),
        Value::Array(items) => Doc::Array(items.iter().map(|i| spell(i, rng)).collect()),
        Value::Object(map) => Doc::Object(map.iter().map(|(k, v)| (literal(k, rng), spell(v, rng))).collect()),
    }
}
