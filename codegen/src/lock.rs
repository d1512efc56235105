//! The version lock: `generated/coprocess.lock.json` records, per protocol
//! version, a fingerprint of every frame shape (each `$defs` entry and the
//! method table, descriptions left out). Changing a shape without bumping the
//! version is refused with the `codegen diff` report of the change.
//!
//! To diff, the lock keeps beside it the contract each version was last
//! generated from: `generated/coprocess.contracts/v<N>.json`, the schema as
//! read (reformatted), written with every run under version N and kept
//! unchanged once the version moves on, so it is the released contract of
//! every version since. They are generated files like the others (listed in
//! the lock, drift-checked by `--check`); an older lock without them still
//! works, and its refusal names the changed shapes only.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::error::SchemaError;
use crate::model::Contract;
use crate::root::{Entry, OutputRoot};

pub use crate::output::LOCK_PATH;

/// The path under the output root of the contract last generated under `version`.
pub fn contract_path(version: i64) -> String {
    format!("coprocess.contracts/v{version}.json")
}

/// Shape name → fingerprint.
pub type Shapes = BTreeMap<String, String>;

/// The lock file's contents.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lock {
    /// Protocol version → its shapes.
    pub versions: BTreeMap<i64, Shapes>,
    /// Every file codegen wrote last time (so files it no longer writes are found).
    pub files: Vec<String>,
    /// Protocol version → the text of the contract last generated under it
    /// ([`contract_path`]), for those found under the output root.
    pub contracts: BTreeMap<i64, String>,
    /// The output root the lock was read from (names the contracts in errors).
    pub root: std::path::PathBuf,
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
    /// Reads the lock under `root`; a missing lock is empty. Every file it
    /// lists must be a path inside the root ([`crate::root::path_problem`]):
    /// an entry such as `../x` or `/x` is refused by name, as codegen would
    /// otherwise delete it once it is no longer generated.
    pub fn read(root: &OutputRoot) -> Result<Lock, SchemaError> {
        let empty = || Lock { root: root.path().to_path_buf(), ..Lock::default() };
        let (path, entry) = root.resolve(LOCK_PATH)?;
        if entry == Entry::Missing {
            return Ok(empty());
        }
        let Ok(text) = std::fs::read_to_string(&path) else { return Ok(empty()) };
        let bad = |why: &str| SchemaError::new(&path, "", format!("the version lock is unreadable: {why}"), "restore it from git, or delete it to start a new lock");
        let value: Value = serde_json::from_str(&text).map_err(|e| bad(&e.to_string()))?;
        let mut lock = empty();
        for (version, shapes) in value.get("versions").and_then(Value::as_object).ok_or_else(|| bad("no `versions`"))? {
            let version: i64 = version.parse().map_err(|_| bad("a version key is not an integer"))?;
            let shapes = shapes.as_object().ok_or_else(|| bad("shapes must be an object"))?;
            lock.versions.insert(version, shapes.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect());
        }
        if let Some(files) = value.get("files").and_then(Value::as_array) {
            for (i, file) in files.iter().enumerate() {
                let Some(file) = file.as_str() else { continue };
                if let Some(problem) = crate::root::path_problem(file) {
                    return Err(SchemaError::new(
                        &path,
                        format!("/files/{i}"),
                        format!("the version lock lists a file outside the output root: {problem}; codegen lists, and deletes once they are no longer generated, only files it wrote inside the root"),
                        format!("remove `{file}` from the lock's `files` (or restore the lock from git), then rerun"),
                    ));
                }
                lock.files.push(file.to_string());
            }
        }
        for version in lock.versions.keys() {
            let (contract, entry) = root.resolve(&contract_path(*version))?;
            if entry == Entry::File {
                if let Ok(text) = std::fs::read_to_string(contract) {
                    lock.contracts.insert(*version, text);
                }
            }
        }
        Ok(lock)
    }

    /// The contract files to write: each version's, by path.
    pub fn contract_files(&self) -> impl Iterator<Item = (String, String)> + '_ {
        self.contracts.iter().map(|(version, text)| (contract_path(*version), text.clone()))
    }

    /// The lock after generating `contract`, or the refusal when its shapes
    /// changed under an unchanged version. `files` lists what this run
    /// writes besides the contracts, which are added to it.
    pub fn updated(&self, contract: &Contract, schema_path: &Path, files: Vec<String>) -> Result<Lock, SchemaError> {
        let current = shapes(contract);
        let version = contract.protocol_version;
        if let Some(locked) = self.versions.get(&version) {
            let mut changed: Vec<String> = Vec::new();
            for name in locked.keys().chain(current.keys()) {
                if locked.get(name) != current.get(name) && !changed.contains(name) {
                    changed.push(name.clone());
                }
            }
            if !changed.is_empty() {
                let named: Vec<String> = changed
                    .iter()
                    .map(|name| {
                        let how = match (locked.get(name), current.get(name)) {
                            (None, _) => "added",
                            (_, None) => "removed",
                            _ => "changed",
                        };
                        format!("{name} ({how})")
                    })
                    .collect();
                return Err(SchemaError::new(
                    schema_path,
                    "/x-coprocess/protocol_version",
                    format!("frame shapes changed while the protocol version stayed {version}: {}", self.report(contract, &named)),
                    format!(
                        "bump x-coprocess.protocol_version to {} (every shape change bumps it on both sides), then rerun; or undo the shape change",
                        version + 1
                    ),
                ));
            }
        }
        let mut versions = self.versions.clone();
        versions.insert(version, current);
        let mut contracts = self.contracts.clone();
        contracts.insert(version, serde_json::to_string_pretty(&contract.raw).unwrap_or_default() + "\n");
        let mut files = files;
        files.extend(contracts.keys().map(|v| contract_path(*v)));
        files.sort();
        files.dedup();
        Ok(Lock { versions, files, contracts, root: self.root.clone() })
    }

    /// What a refusal says changed: the diff report of the change against
    /// the contract last generated under the version, or, without one, the
    /// names of the shapes whose fingerprint changed (`named`).
    fn report(&self, contract: &Contract, named: &[String]) -> String {
        let version = contract.protocol_version;
        let path = self.root.join(contract_path(version));
        let Some(text) = self.contracts.get(&version) else {
            return format!("{} (no {} to diff against: any run that generates keeps one)", named.join(", "), path.display());
        };
        let label = path.to_string_lossy().replace('\\', "/");
        let report = crate::diff::older::load(text, &path, &label, &contract.raw).map_err(|e| e.to_string()).and_then(|(old, completed)| {
            let mut report = crate::diff::diff(&old, contract).map_err(|_| "it shares no type with the schema".to_string())?;
            report.changes.extend(completed);
            Ok(report)
        });
        match report {
            Ok(report) => {
                let mut out = format!("the changes since {label}:");
                for change in &report.changes {
                    out.push_str("\n    ");
                    out.push_str(&crate::diff::render::line(change));
                }
                if !report.breaks() {
                    out.push_str(&format!("\n  the shapes whose fingerprint changed: {}", named.join(", ")));
                }
                out
            }
            Err(why) => format!("{} ({label} does not load to diff against: {why})", named.join(", ")),
        }
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
