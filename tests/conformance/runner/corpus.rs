//! The corpus: `tests/conformance/corpus/*.jsonl` (or `$CONFORMANCE_CORPUS`),
//! one case per line: `{"type", "json", "valid"?, "note"?}`.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::support;

pub const DIR: &str = "tests/conformance/corpus";
pub const MUTATIONS: &str = "tests/conformance/corpus/mutations.jsonl";
pub const EXAMPLES: &str = "tests/conformance/corpus/examples.jsonl";

/// One decode case of a corpus file.
pub struct Case {
    /// `file:line`, for listings.
    pub place: String,
    pub type_name: String,
    pub json: String,
    /// The contract's verdict; `None`: the targets need only agree.
    pub valid: Option<bool>,
    pub note: String,
}

/// The corpus files this run reads: `$CONFORMANCE_CORPUS`, else every
/// `*.jsonl` of the corpus directory, sorted.
pub fn files() -> Result<Vec<PathBuf>, String> {
    if let Some(file) = std::env::var_os("CONFORMANCE_CORPUS") {
        return Ok(vec![PathBuf::from(file)]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(DIR)
        .map_err(|e| format!("{DIR}: {e}"))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{DIR}: no *.jsonl corpus file"));
    }
    Ok(files)
}

/// Reads one corpus file; a malformed line is an error naming it.
pub fn load(path: &Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut cases = Vec::new();
    for (index, line) in text.split('\n').enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let place = format!("{}:{}", path.display(), index + 1);
        let value: Value = serde_json::from_str(line).map_err(|e| format!("{place}: not a JSON line: {e}"))?;
        let string = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
        let (Some(type_name), Some(json)) = (string("type"), string("json")) else {
            return Err(format!("{place}: a case needs string `type` and `json`"));
        };
        let valid = match value.get("valid") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => return Err(format!("{place}: `valid` must be true, false or absent, not {other}")),
        };
        cases.push(Case { place, type_name, json, valid, note: string("note").unwrap_or_default() });
    }
    Ok(cases)
}

/// The mutation corpus as the schema-driven generator (`tests/support`) makes it.
pub fn render_mutations() -> String {
    support::cases()
        .iter()
        .map(|c| json!({"type": c.type_name, "json": c.value.to_string(), "valid": c.valid, "note": c.note}).to_string() + "\n")
        .collect()
}

/// The example corpus: every example of the schema (each `$defs` type's
/// `examples`, and the params, results and errors of the example exchanges,
/// [`codegen::examples`]), each a valid value of its type.
pub fn render_examples() -> String {
    let (contract, _) = codegen::load::load(Path::new("schemas/ipc/v2.json"), "schemas/ipc/v2.json").unwrap_or_else(|e| panic!("{e}"));
    codegen::examples::all(&contract)
        .iter()
        .map(|e| json!({"type": e.type_name, "json": e.value.to_string(), "valid": true, "note": format!("example at {}", e.origin)}).to_string() + "\n")
        .collect()
}
