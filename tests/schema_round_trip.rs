//! The round trip schema → Rust types → schema, frame by frame: typify reads
//! `schemas/ipc/v2.json`, `build.rs` derives `schemars::JsonSchema` on what
//! it generates, and the schema those types describe must say what v2.json
//! says. A constraint typify (or serde's `Option`) drops shows up here as a
//! difference, not in a user's hands.
//!
//! Both sides are first brought to one notation (the `Notation` rules: pure
//! spelling, no meaning). What remains must be equal, except for the
//! `Dropped` rules: constraints the derived schema cannot state but that the
//! decoder enforces elsewhere, each naming where and which test proves it.
//! Every `Dropped` rule must still be needed: an allowance that no longer
//! fires is an error too, so this list cannot rot.

mod support;

use std::collections::BTreeMap;

use mcptest_coprocess::frames;
use serde_json::{json, Map, Value};

/// Constraints the derived schema loses, with where the decoder enforces them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Dropped {
    /// serde's `Option` admits null; the syn pass adds `strict::present`
    /// (tests/schema.rs: the "null at" mutations of optional fields fail).
    OptionalFieldAdmitsNull,
    /// An `Option` without `default` must be present, but schemars calls it
    /// optional (tests/schema.rs: the "drop required field" mutations fail).
    RequiredNullableLooksOptional,
    /// `oneOf` derives as `anyOf`; exclusivity is the shape dispatch's job
    /// (`strict::pick_variant`; tests/contract_examples.rs: "both `result` and `error`").
    OneOfBecomesAnyOf,
    /// A transparent newtype (open map) derives without its description; the
    /// Rust doc comment still carries it (codegen goldens).
    NewtypeLosesDescription,
}

/// A `$ref` to an open map (a transparent newtype in Rust, which schemars
/// inlines) is written as the map's own schema, on the contract's side.
fn inline_open_maps(value: &Value, defs: &Map<String, Value>) -> Value {
    match value {
        Value::Object(map) => {
            let target = map.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")).and_then(|n| defs.get(n));
            if let Some(target) = target.filter(|t| t.get("properties").is_none() && t.get("type") == Some(&json!("object"))) {
                let mut inlined: Map<String, Value> = map.iter().filter(|(k, _)| *k != "$ref").map(|(k, v)| (k.clone(), v.clone())).collect();
                for (k, v) in target.as_object().into_iter().flatten().filter(|(k, _)| *k != "description") {
                    inlined.insert(k.clone(), inline_open_maps(v, defs));
                }
                return Value::Object(inlined);
            }
            Value::Object(map.iter().map(|(k, v)| (k.clone(), inline_open_maps(v, defs))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| inline_open_maps(v, defs)).collect()),
        other => other.clone(),
    }
}

/// The schema with the description of itself and of each property as its
/// doc comment says it: with the annotations folded in (`Examples: ...`,
/// [`codegen::annotations::Annotations::fold`]), which is what the Rust
/// types carry as their description.
fn doc_descriptions(s: &Value) -> Value {
    let mut out = s.clone();
    let text = |key: &str| s.get(key).and_then(Value::as_str).map(str::to_string);
    if let Some(description) = text("description") {
        let annotations = codegen::annotations::Annotations {
            title: text("title"),
            format: text("format"),
            default: s.get("default").cloned(),
            examples: s.get("examples").and_then(Value::as_array).cloned().unwrap_or_default(),
            deprecated: s.get("deprecated").and_then(Value::as_bool).unwrap_or(false),
        };
        out["description"] = json!(annotations.fold(&description));
    }
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        out["properties"] = Value::Object(props.iter().map(|(k, p)| (k.clone(), doc_descriptions(p))).collect());
    }
    out
}

/// One notation for both sides: `#/definitions/X` is `#/$defs/X`, a lone
/// `allOf` around a `$ref` is the `$ref`, `format`, `title`, `default` and
/// `examples` are annotations (folded into the description, see
/// [`doc_descriptions`]), `additionalProperties: true` and `properties: {}` are
/// the defaults, `0.0` is `0`, `anyOf` of bare types is a `type` list, and
/// `required` is a set.
fn notation(value: &Value) -> Value {
    let Value::Object(map) = value else {
        return match value {
            Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => json!(n.as_f64().unwrap_or_default() as i64),
            Value::Array(items) => Value::Array(items.iter().map(notation).collect()),
            other => other.clone(),
        };
    };
    let mut out = Map::new();
    for (key, v) in map {
        match key.as_str() {
            "format" | "title" | "default" | "examples" | "$schema" | "definitions" => {}
            "additionalProperties" if v == &json!(true) => {}
            "properties" if v == &json!({}) => {}
            "$ref" => {
                out.insert(key.clone(), json!(v.as_str().unwrap_or_default().replace("#/definitions/", "#/$defs/")));
            }
            "allOf" if v.as_array().is_some_and(|a| a.len() == 1) => {
                if let Some(Value::Object(inner)) = v.get(0).map(notation) {
                    out.extend(inner);
                }
            }
            "required" => {
                let mut names: Vec<Value> = v.as_array().cloned().unwrap_or_default();
                names.sort_by_key(|n| n.to_string());
                out.insert(key.clone(), Value::Array(names));
            }
            "properties" => {
                let props = v.as_object().map(|p| p.iter().map(|(k, s)| (k.clone(), notation(s))).collect()).unwrap_or_default();
                out.insert(key.clone(), Value::Object(props));
            }
            _ => {
                out.insert(key.clone(), notation(v));
            }
        }
    }
    let bare_types: Option<Vec<Value>> = out.get("anyOf").and_then(Value::as_array).and_then(|alts| {
        alts.iter().map(|a| a.as_object().filter(|o| o.len() == 1).and_then(|o| o.get("type")).cloned()).collect()
    });
    if let Some(types) = bare_types {
        out.remove("anyOf");
        out.insert("type".into(), Value::Array(types));
    }
    Value::Object(out)
}

fn is_nullable(s: &Value) -> bool {
    let in_types = s.get("type").and_then(Value::as_array).is_some_and(|t| t.contains(&json!("null")));
    let in_alts = ["anyOf", "oneOf"].iter().any(|k| s.get(*k).and_then(Value::as_array).is_some_and(|a| a.contains(&json!({"type": "null"}))));
    in_types || in_alts
}

/// The schema without its null alternative.
fn without_null(s: &Value) -> Value {
    let mut s = s.clone();
    if let Some(Value::Array(types)) = s.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types[0].clone();
            s["type"] = only;
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alts)) = s.get_mut(key) {
            alts.retain(|a| a != &json!({"type": "null"}));
            if let [only] = alts.as_slice() {
                let only = only.clone();
                let map = s.as_object_mut().expect("an object schema");
                map.remove(key);
                if let Value::Object(inner) = only {
                    map.extend(inner);
                }
            }
        }
    }
    s
}

fn required(s: &Value, name: &str) -> bool {
    s.get("required").and_then(Value::as_array).is_some_and(|r| r.contains(&json!(name)))
}

/// Applies the `Dropped` allowances to the derived side, recording each use.
fn allow_dropped(type_name: &str, contract: &Value, derived: &mut Value, used: &mut BTreeMap<Dropped, Vec<String>>) {
    let mut note = |rule: Dropped, what: String| used.entry(rule).or_default().push(what);
    if contract.get("oneOf").is_some() && derived.get("anyOf").is_some() {
        let alts = derived["anyOf"].take();
        derived.as_object_mut().expect("object").remove("anyOf");
        derived["oneOf"] = alts;
        note(Dropped::OneOfBecomesAnyOf, type_name.to_string());
    }
    if contract.get("description").is_some() && derived.get("description").is_none() && contract.get("properties").is_none() {
        derived["description"] = contract["description"].clone();
        note(Dropped::NewtypeLosesDescription, type_name.to_string());
    }
    let Some(props) = contract.get("properties").and_then(Value::as_object) else { return };
    for (name, prop) in props {
        let Some(derived_prop) = derived.get("properties").and_then(|p| p.get(name)).cloned() else { continue };
        let field = format!("{type_name}.{name}");
        if !required(contract, name) && !is_nullable(prop) && is_nullable(&derived_prop) {
            derived["properties"][name] = without_null(&derived_prop);
            note(Dropped::OptionalFieldAdmitsNull, field.clone());
        }
        if required(contract, name) && is_nullable(prop) && !required(derived, name) {
            let list = derived.as_object_mut().expect("object").entry("required").or_insert(json!([]));
            if let Value::Array(list) = list {
                list.push(json!(name));
                list.sort_by_key(|n| n.to_string());
            }
            note(Dropped::RequiredNullableLooksOptional, field);
        }
        if prop.get("oneOf").is_some() && derived_prop.get("anyOf").is_some() {
            let alts = derived["properties"][name]["anyOf"].take();
            derived["properties"][name].as_object_mut().expect("object").remove("anyOf");
            derived["properties"][name]["oneOf"] = alts;
        }
    }
}

/// Paths where two normalized schemas differ.
fn differences(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for key in keys {
                let (va, vb) = (x.get(key).unwrap_or(&Value::Null), y.get(key).unwrap_or(&Value::Null));
                differences(&format!("{path}/{key}"), va, vb, out);
            }
        }
        _ if a != b => out.push(format!("{path}: v2.json says {a}, the Rust types say {b}")),
        _ => {}
    }
}

#[test]
fn every_frame_type_describes_the_schema_it_was_generated_from() {
    let schema = support::schema();
    let defs = schema["$defs"].as_object().expect("$defs");
    assert_eq!(frames::TYPE_NAMES.len(), defs.len(), "one Rust type per $defs entry");
    let mut used = BTreeMap::new();
    let mut problems = Vec::new();
    for (name, def) in defs {
        let root = frames::json_schema_of(name).unwrap_or_else(|| panic!("no Rust type for {name}"));
        let mut derived = notation(&serde_json::to_value(&root).expect("a schema serializes"));
        let contract = notation(&doc_descriptions(&inline_open_maps(def, defs)));
        allow_dropped(name, &contract, &mut derived, &mut used);
        differences(&format!("#/$defs/{name}"), &contract, &derived, &mut problems);
    }
    assert!(problems.is_empty(), "the Rust types drop or change {} constraint(s):\n{}", problems.len(), problems.join("\n"));
    for rule in [Dropped::OptionalFieldAdmitsNull, Dropped::RequiredNullableLooksOptional, Dropped::OneOfBecomesAnyOf, Dropped::NewtypeLosesDescription] {
        assert!(used.contains_key(&rule), "allowance {rule:?} is no longer needed: remove it");
    }
}

#[test]
fn a_dropped_constraint_is_caught() {
    // The comparison itself must be able to fail: a v2 definition with a
    // constraint its Rust type does not have is reported.
    let schema = support::schema();
    let defs = schema["$defs"].as_object().expect("$defs");
    let mut contract = notation(&inline_open_maps(&defs["CallParams"], defs));
    contract["properties"]["tool"]["minLength"] = json!(1);
    let root = frames::json_schema_of("CallParams").expect("CallParams");
    let mut derived = notation(&serde_json::to_value(&root).expect("serializes"));
    allow_dropped("CallParams", &contract, &mut derived, &mut BTreeMap::new());
    let mut problems = Vec::new();
    differences("#/$defs/CallParams", &contract, &derived, &mut problems);
    assert_eq!(problems, vec!["#/$defs/CallParams/properties/tool/minLength: v2.json says 1, the Rust types say null".to_string()]);
}
