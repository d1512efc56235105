//! Validation of any frame against `schemas/ipc/v2.json` with the
//! `jsonschema` crate: the independent second opinion the typed decoders are
//! checked against. The JSON-text rules (duplicate keys, safe integers, ...)
//! are not expressible in JSON Schema, so text is first put through the same
//! strict text check the decoders use.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::Value;

fn validators() -> &'static Result<BTreeMap<String, jsonschema::Validator>, String> {
    static VALIDATORS: OnceLock<Result<BTreeMap<String, jsonschema::Validator>, String>> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        let schema: Value = serde_json::from_str(crate::SCHEMA_JSON).map_err(|e| e.to_string())?;
        let defs = schema.get("$defs").cloned().unwrap_or_default();
        let mut out = BTreeMap::new();
        for name in crate::frames::TYPE_NAMES {
            let root = serde_json::json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$ref": format!("#/$defs/{name}"),
                "$defs": defs,
            });
            let validator = jsonschema::draft202012::new(&root).map_err(|e| format!("{name}: {e}"))?;
            out.insert(name.to_string(), validator);
        }
        Ok(out)
    })
}

/// Validates a parsed value against the named `$defs` type.
pub fn validate_value(type_name: &str, value: &Value) -> Result<(), String> {
    let validators = validators().as_ref().map_err(Clone::clone)?;
    let validator = validators.get(type_name).ok_or_else(|| format!("no $defs entry `{type_name}`"))?;
    match validator.iter_errors(value).next() {
        None => Ok(()),
        Some(error) => Err(format!("{type_name}: {error} at {}", error.instance_path())),
    }
}

/// Validates frame text: the strict JSON-text rules, then the schema.
pub fn validate_text(type_name: &str, text: &str) -> Result<Value, String> {
    let text = crate::frames::strict::check_text(text, crate::MAX_DEPTH).map_err(|(path, problem)| format!("{type_name}: {problem} at {path}"))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("{type_name}: invalid JSON: {e}"))?;
    validate_value(type_name, &value)?;
    Ok(value)
}
