//! Loading an older contract. The loader requires what this codegen
//! renders: every message template (with its holes) and every default of
//! the session client, a list that grows as codegen does, so a contract of
//! an earlier revision may lack a template or a default, or have one this
//! codegen no longer knows. None of them is on the wire: when the strict
//! load fails, those two tables are completed from the newer contract (a
//! missing entry taken from it, an unknown one dropped, a template with
//! other holes replaced) and the load is retried; each such edit is
//! reported as a `compatible` change. A contract from before the support
//! matrix, the compatibility rule, the version history and the roles takes
//! the newer contract's (the history up to its own version), reported the
//! same way.
//! Anything else still fails as usual.

use std::path::Path;

use serde_json::{Map, Value};

use super::Change;
use crate::error::{push_pointer, SchemaError};
use crate::load::REQUIRED_MESSAGES;
use crate::model::{Contract, Message};

/// The contract of `text`, completed from `newer` (a loaded contract's raw
/// schema) if it must be, with the changes that completing it stands for.
pub fn load(text: &str, path: &Path, label: &str, newer: &Value) -> Result<(Contract, Vec<Change>), SchemaError> {
    let error = match crate::load::load_str(text, path, label) {
        Ok((contract, _)) => return Ok((contract, Vec::new())),
        Err(error) => error,
    };
    let Ok(mut raw) = serde_json::from_str::<Value>(text) else { return Err(error) };
    let mut changes = Vec::new();
    if let (Some(x), Some(newer_x)) = (raw.get_mut("x-coprocess").and_then(Value::as_object_mut), newer.get("x-coprocess")) {
        for (table, what) in [("messages", "message"), ("client", "client default")] {
            let Some(newer_table) = newer_x.get(table).and_then(Value::as_object) else { continue };
            let entry = x.entry(table).or_insert_with(|| Value::Object(Map::new()));
            if let Some(old_table) = entry.as_object_mut() {
                complete(old_table, newer_table, &format!("/x-coprocess/{table}"), what, &mut changes);
            }
        }
    }
    if let (Some(x), Some(newer_x)) = (raw.get_mut("x-coprocess").and_then(Value::as_object_mut), newer.get("x-coprocess")) {
        // The support matrix, the compatibility rule, the version history
        // and the roles came after the first contracts: an old one without
        // them takes the newer one's (the history up to its own version).
        let version = x.get("protocol_version").and_then(Value::as_i64).unwrap_or(i64::MAX);
        for table in ["sdks", "compatibility", "history", "roles"] {
            let (Some(newer_table), None) = (newer_x.get(table), x.get(table)) else { continue };
            let taken = match (table, newer_table) {
                ("history", Value::Array(rows)) => {
                    Value::Array(rows.iter().filter(|r| r.get("version").and_then(Value::as_i64).is_some_and(|v| v <= version)).cloned().collect())
                }
                _ => newer_table.clone(),
            };
            x.insert(table.to_string(), taken);
            changes.push(Change::table("wording-added", format!("/x-coprocess/{table}"), format!("`{table}` taken from the newer contract (the old contract predates it)"), &[]));
        }
    }
    if changes.is_empty() {
        return Err(error);
    }
    let text = serde_json::to_string(&raw).unwrap_or_default();
    let (contract, _) = crate::load::load_str(&text, path, label)?;
    Ok((contract, changes))
}

fn complete(old: &mut Map<String, Value>, newer: &Map<String, Value>, at: &str, what: &str, out: &mut Vec<Change>) {
    let note = |kind: &'static str, name: &str, text: String| Change::table(kind, push_pointer(at, name), format!("{what} `{name}`: {text}"), &[]);
    for (name, value) in newer {
        match old.get(name) {
            None => {
                old.insert(name.clone(), value.clone());
                out.push(note("wording-added", name, "added (the old contract predates it)".into()));
            }
            Some(before) if what == "message" && !same_holes(before, name) => {
                old.insert(name.clone(), value.clone());
                out.push(note("message-changed", name, "template changed (its holes too)".into()));
            }
            Some(_) => {}
        }
    }
    let unknown: Vec<String> = old.keys().filter(|name| !newer.contains_key(*name)).cloned().collect();
    for name in unknown {
        old.shift_remove(&name);
        out.push(note("wording-removed", &name, "removed".into()));
    }
}

/// Whether a message's template has the holes the loader requires of it.
fn same_holes(message: &Value, name: &str) -> bool {
    let Some(required) = REQUIRED_MESSAGES.iter().find(|(n, _)| *n == name).map(|(_, holes)| holes) else { return true };
    let template = message.get("template").and_then(Value::as_str).unwrap_or_default();
    let message = Message { template: template.to_string(), description: String::new() };
    let mut found = message.holes();
    let mut wanted: Vec<String> = required.iter().map(|h| h.to_string()).collect();
    found.sort();
    wanted.sort();
    found == wanted
}
