//! The version lock: `generated/coprocess.lock.json` records, per protocol
//! version, a fingerprint of every frame shape (each `$defs` entry and the
//! method table, descriptions left out). Changing a shape without bumping the
//! version is refused, naming the changed shapes.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::error::SchemaError;
use crate::model::Contract;

/// The lock file's path under the output root.
pub const LOCK_PATH: &str = "coprocess.lock.json";

/// Shape name → fingerprint.
pub type Shapes = BTreeMap<String, String>;

/// The lock file's contents.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lock {
    /// Protocol version → its shapes.
    pub versions: BTreeMap<i64, Shapes>,
    /// Every file codegen wrote last time (so files it no longer writes are found).
    pub files: Vec<String>,
}

/// Drops the keywords that do not change a shape (descriptions, annotations).
fn strip(schema: &Value) -> Value {
    let Value::Object(map) = schema else { return schema.clone() };
    let mut out = Map::new();
    for (key, value) in map {
        let value = match key.as_str() {
            "description" => continue,
            key if crate::annotations::KEYWORDS.contains(&key) => continue,
            "properties" | "$defs" => Value::Object(
                value.as_object().map(|m| m.iter().map(|(k, v)| (k.clone(), strip(v))).collect()).unwrap_or_default(),
            ),
            "items" | "additionalProperties" => strip(value),
            "oneOf" => Value::Array(value.as_array().map(|a| a.iter().map(strip).collect()).unwrap_or_default()),
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

/// JSON text with sorted keys, so the fingerprint does not depend on key order.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let sorted: BTreeMap<&String, String> = map.iter().map(|(k, v)| (k, canonical(v))).collect();
            let members: Vec<String> = sorted.iter().map(|(k, v)| format!("{}:{v}", Value::from(k.as_str()))).collect();
            format!("{{{}}}", members.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

fn fingerprint(value: &Value) -> String {
    let digest = Sha256::digest(canonical(value).as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The fingerprints of the contract's frame shapes.
pub fn shapes(contract: &Contract) -> Shapes {
    let mut out = Shapes::new();
    if let Some(defs) = contract.raw.get("$defs").and_then(Value::as_object) {
        for (name, schema) in defs {
            out.insert(name.clone(), fingerprint(&strip(schema)));
        }
    }
    let methods: Vec<Value> = contract
        .methods
        .iter()
        .map(|m| serde_json::json!({"name": m.name, "params": m.params, "params_required": m.params_required, "result": m.result}))
        .collect();
    out.insert("(method table)".into(), fingerprint(&Value::Array(methods)));
    out
}

impl Lock {
    /// Reads the lock under `root`; a missing lock is empty.
    pub fn read(root: &Path) -> Result<Lock, SchemaError> {
        let path = root.join(LOCK_PATH);
        let Ok(text) = std::fs::read_to_string(&path) else { return Ok(Lock::default()) };
        let bad = |why: &str| SchemaError::new(&path, "", format!("the version lock is unreadable: {why}"), "restore it from git, or delete it to start a new lock");
        let value: Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
        let mut lock = Lock::default();
        for (version, shapes) in value.get("versions").and_then(Value::as_object).ok_or_else(|| bad("no `versions`"))? {
            let version: i64 = version.parse().map_err(|_| bad("a version key is not an integer"))?;
            let shapes = shapes.as_object().ok_or_else(|| bad("shapes must be an object"))?;
            lock.versions.insert(version, shapes.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect());
        }
        if let Some(files) = value.get("files").and_then(Value::as_array) {
            lock.files = files.iter().filter_map(Value::as_str).map(str::to_string).collect();
        }
        Ok(lock)
    }

    /// The lock after generating `contract`, or the refusal when its shapes
    /// changed under an unchanged version.
    pub fn updated(&self, contract: &Contract, schema_path: &Path, files: Vec<String>) -> Result<Lock, SchemaError> {
        let current = shapes(contract);
        if let Some(locked) = self.versions.get(&contract.protocol_version) {
            let mut changed: Vec<String> = Vec::new();
            for name in locked.keys().chain(current.keys()) {
                if locked.get(name) != current.get(name) && !changed.contains(name) {
                    let how = match (locked.get(name), current.get(name)) {
                        (None, _) => "added",
                        (_, None) => "removed",
                        _ => "changed",
                    };
                    changed.push(format!("{name} ({how})"));
                }
            }
            if !changed.is_empty() {
                return Err(SchemaError::new(
                    schema_path,
                    "/x-coprocess/protocol_version",
                    format!(
                        "frame shapes changed while the protocol version stayed {}: {}",
                        contract.protocol_version,
                        changed.join(", ")
                    ),
                    format!(
                        "bump x-coprocess.protocol_version to {} (every shape change bumps it on both sides), then rerun; or undo the shape change",
                        contract.protocol_version + 1
                    ),
                ));
            }
        }
        let mut versions = self.versions.clone();
        versions.insert(contract.protocol_version, current);
        Ok(Lock { versions, files })
    }

    /// The lock file's text.
    pub fn render(&self) -> String {
        let versions: Map<String, Value> = self
            .versions
            .iter()
            .map(|(v, shapes)| (v.to_string(), Value::Object(shapes.iter().map(|(k, f)| (k.clone(), Value::from(f.as_str()))).collect())))
            .collect();
        let value = serde_json::json!({
            "//": "@generated by `cargo run -p codegen`: frame-shape fingerprints per protocol version. DO NOT EDIT.",
            "versions": versions,
            "files": self.files,
        });
        serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
    }
}
