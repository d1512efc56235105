//! Frames made from the schema: one valid sample per `$defs` type, and
//! systematic mutations of it with the expected verdict carried along.
//! Not every test binary uses every helper.
#![allow(dead_code)]

use serde_json::{json, Map, Value};

pub mod fuzz;
pub mod rename;
pub mod testee;

pub fn schema() -> Value {
    serde_json::from_str(mcptest_coprocess::SCHEMA_JSON).unwrap()
}

fn def<'a>(schema: &'a Value, name: &str) -> &'a Value {
    &schema["$defs"][name]
}

pub fn ref_name(s: &Value) -> Option<&str> {
    s.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/"))
}

/// The schema `s` refers to (itself when it is no `$ref`).
pub fn resolve<'a>(schema: &'a Value, s: &'a Value) -> &'a Value {
    ref_name(s).map_or(s, |name| resolve(schema, def(schema, name)))
}

/// JSON equality: numbers by value (`1` equals `1.0`), object members in
/// any order.
pub fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w))),
        _ => a == b,
    }
}

/// A valid sample of a property/def schema, every optional field included.
pub fn sample(schema: &Value, s: &Value) -> Value {
    if let Some(name) = ref_name(s) {
        return sample(schema, def(schema, name));
    }
    if let Some(one_of) = s.get("oneOf").and_then(Value::as_array) {
        return sample(schema, &one_of[0]);
    }
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        return values[0].clone();
    }
    if let Some(constant) = s.get("const") {
        return constant.clone();
    }
    // A schema's own example (a patterned string's, say) is a valid value.
    // Not a record's (an object with `properties`): its sample has every
    // optional field, so that the mutations reach them all (the examples are
    // run as they are, from tests/conformance/corpus/examples.jsonl). A map's
    // example is taken: its names may have to match `propertyNames`.
    if let Some(example) = s.get("examples").and_then(|e| e.get(0)).filter(|_| s.get("properties").is_none()) {
        return example.clone();
    }
    let ty = match s.get("type") {
        Some(Value::Array(types)) => types[0].as_str().unwrap_or("null").to_string(),
        Some(Value::String(t)) => t.clone(),
        _ => return json!({"any": [1, "two", null, {"nested": true}]}),
    };
    match ty.as_str() {
        "boolean" => json!(true),
        "integer" => {
            let bound = |inclusive: &str, exclusive: &str, step: i64| {
                s.get(inclusive).and_then(Value::as_i64).or_else(|| s.get(exclusive).and_then(Value::as_i64).map(|b| b + step))
            };
            let low = bound("minimum", "exclusiveMinimum", 1).unwrap_or(0) + 7;
            let high = bound("maximum", "exclusiveMaximum", -1);
            let value = high.map_or(low, |high| low.min(high));
            // The nearest multiple of `multipleOf` within the bounds.
            let divisor = s.get("multipleOf").and_then(Value::as_f64).map_or(1, |d| d as i64);
            let above = value.div_euclid(divisor) * divisor + if value.rem_euclid(divisor) == 0 { 0 } else { divisor };
            json!(if high.is_some_and(|high| above > high) { value.div_euclid(divisor) * divisor } else { above })
        }
        // Halfway between the bounds, or half a unit inside the one there is;
        // with a `multipleOf`, the multiple at or above that (as decimals).
        "number" => {
            let bound = |inclusive: &str, exclusive: &str| s.get(inclusive).or_else(|| s.get(exclusive)).and_then(Value::as_f64);
            let value = match (bound("minimum", "exclusiveMinimum"), bound("maximum", "exclusiveMaximum")) {
                (Some(low), Some(high)) => low / 2.0 + high / 2.0,
                (Some(low), None) => low + 0.5,
                (None, Some(high)) => high - 0.5,
                (None, None) => 0.5,
            };
            match s.get("multipleOf").and_then(Value::as_f64).and_then(codegen::model::Divisor::of) {
                Some(d) => json!(format!("{}e{}", (value / d.value()).ceil() as i64 * d.digits as i64, d.exponent).parse::<f64>().unwrap_or(value)),
                None => json!(value),
            }
        }
        // "text", cut or padded to fit `minLength`/`maxLength`.
        "string" => {
            let (low, high) = (s.get("minLength").and_then(Value::as_u64).unwrap_or(0), s.get("maxLength").and_then(Value::as_u64));
            let length = high.map_or(4.max(low), |high| 4.max(low).min(high));
            json!("text".chars().chain(std::iter::repeat('x')).take(length as usize).collect::<String>())
        }
        // One item, or as many as `minItems`/`maxItems` ask.
        "array" => {
            let (low, high) = (s.get("minItems").and_then(Value::as_u64).unwrap_or(0), s.get("maxItems").and_then(Value::as_u64));
            let count = high.map_or(1.max(low), |high| 1.max(low).min(high));
            Value::Array(vec![sample(schema, &s["items"]); count as usize])
        }
        "object" => match s.get("properties").and_then(Value::as_object) {
            Some(props) => Value::Object(props.iter().map(|(k, p)| (k.clone(), sample(schema, p))).collect()),
            // One member (two of any value), or as many as `minProperties`/`maxProperties` ask.
            None => {
                let (low, high) = (s.get("minProperties").and_then(Value::as_u64), s.get("maxProperties").and_then(Value::as_u64));
                let typed = s.get("additionalProperties").filter(|v| v.is_object());
                let count = high.map_or(low.unwrap_or(0).max(if typed.is_some() { 1 } else { 2 }), |high| low.unwrap_or(0).max(1).min(high));
                Value::Object(members(schema, typed, count as usize))
            }
        },
        _ => Value::Null,
    }
}

/// `count` members of a map whose values are `typed` (`None`: any value):
/// `key`, `key1`, ... of the values' sample, or `key: "value"`, `n: 1`, `k2: 2`, ...
pub fn members(schema: &Value, typed: Option<&Value>, count: usize) -> Map<String, Value> {
    (0..count)
        .map(|i| match (typed, i) {
            (Some(values), 0) => ("key".to_string(), sample(schema, values)),
            (Some(values), i) => (format!("key{i}"), sample(schema, values)),
            (None, 0) => ("key".to_string(), json!("value")),
            (None, 1) => ("n".to_string(), json!(1)),
            (None, i) => (format!("k{i}"), json!(i)),
        })
        .collect()
}

/// One mutated frame and whether the contract accepts it.
pub struct Case {
    pub type_name: String,
    pub value: Value,
    pub valid: bool,
    pub note: String,
}

fn kind_swap(value: &Value) -> Value {
    match value {
        Value::String(_) => json!(42),
        Value::Number(_) => json!("42"),
        Value::Bool(_) => json!("true"),
        Value::Object(_) => json!([]),
        Value::Array(_) => json!({}),
        Value::Null => json!(1),
    }
}

fn at<'a>(value: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(value, |v, key| match v {
        Value::Array(items) => &mut items[key.parse::<usize>().unwrap_or(0)],
        other => &mut other[key.as_str()],
    })
}

/// Walks the schema along the sample, emitting mutations at every position.
fn walk(schema: &Value, s: &Value, root: &Value, path: Vec<String>, type_name: &str, out: &mut Vec<Case>) {
    if let Some(name) = ref_name(s) {
        return walk(schema, def(schema, name), root, path, type_name, out);
    }
    if let Some(one_of) = s.get("oneOf").and_then(Value::as_array) {
        if ref_name(&one_of[0]).is_some() && one_of.get(1).and_then(|v| v.get("type")) != Some(&json!("null")) {
            return walk(schema, &one_of[0], root, path, type_name, out);
        }
        return walk(schema, &one_of[0], root, path, type_name, out);
    }
    fn push(out: &mut Vec<Case>, type_name: &str, value: Value, valid: bool, note: String) {
        out.push(Case { type_name: type_name.to_string(), value, valid, note });
    }
    let here = path.join("/");
    if let (Some(props), Some(Value::Bool(false))) = (s.get("properties").and_then(Value::as_object), s.get("additionalProperties")) {
        let mut unknown = root.clone();
        at(&mut unknown, &path)["zz_undeclared"] = json!(1);
        push(out, type_name, unknown, false, format!("undeclared field at /{here}"));
        let required: Vec<&str> = s.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        for (key, prop) in props {
            let mut dropped = root.clone();
            if let Value::Object(map) = at(&mut dropped, &path) {
                map.remove(key);
            }
            let is_required = required.contains(&key.as_str());
            push(out, type_name, dropped, !is_required, format!("drop {} field /{here}/{key}", if is_required { "required" } else { "optional" }));
            let is_any = prop.as_object().is_some_and(|p| p.len() == 1);
            if !is_any {
                let nullable = prop.get("type").and_then(Value::as_array).is_some_and(|t| t.contains(&json!("null")))
                    || prop.get("oneOf").and_then(Value::as_array).is_some_and(|o| o.contains(&json!({"type": "null"})));
                let mut nulled = root.clone();
                *at(&mut nulled, &path).get_mut(key.as_str()).unwrap() = Value::Null;
                push(out, type_name, nulled, nullable, format!("null at /{here}/{key}"));
                let mut swapped = root.clone();
                let slot = at(&mut swapped, &path).get_mut(key.as_str()).unwrap();
                let refers_to_id = ref_name(prop) == Some("RequestId")
                    || prop.get("oneOf").and_then(Value::as_array).is_some_and(|o| o.iter().any(|v| ref_name(v) == Some("RequestId")));
                let id_like = refers_to_id && slot.is_number();
                *slot = kind_swap(slot);
                push(out, type_name, swapped, id_like, format!("kind swap at /{here}/{key}"));
            }
            let mut child = path.clone();
            child.push(key.clone());
            walk(schema, prop, root, child, type_name, out);
        }
    } else if s.get("type") == Some(&json!("array")) {
        let mut child = path.clone();
        child.push("0".into());
        walk(schema, &s["items"], root, child, type_name, out);
    }
}

/// Every valid sample and its mutations, for every `$defs` type.
pub fn cases() -> Vec<Case> {
    let schema = schema();
    let mut out = Vec::new();
    let defs: Map<String, Value> = schema["$defs"].as_object().cloned().unwrap_or_default();
    for (name, s) in &defs {
        let valid = sample(&schema, s);
        out.push(Case { type_name: name.clone(), value: valid.clone(), valid: true, note: "valid sample".into() });
        walk(&schema, s, &valid, Vec::new(), name, &mut out);
    }
    out
}
