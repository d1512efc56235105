//! Reading the schema: JSON text, the 2020-12 meta-schema, then the supported
//! subset (see [`crate::subset`]) while building the [`Contract`] model.
//! Every failure is a [`SchemaError`] naming the file, the pointer and the fix.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{push_pointer, SchemaError};
use crate::model::{ClientSetting, Contract, ErrorCode, Lane, Message, Method, Version};
use crate::reader::Reader;
use crate::subset::TypeBuilder;

/// The messages every target renders; the loader requires each, with these holes.
pub const REQUIRED_MESSAGES: &[(&str, &[&str])] = &[
    ("binary_mismatch", &["binary_protocol", "peer", "sdk_protocol", "advice"]),
    ("sdk_mismatch", &["binary_protocol", "sdk_protocol", "advice"]),
    ("upgrade_binary", &[]),
    ("upgrade_sdk", &[]),
    ("handshake_failed", &["code", "message"]),
    ("lane_skip", &["lane", "command"]),
    ("client_closed", &["method", "reason"]),
    ("client_closed_by_close", &[]),
    ("client_closed_after_shutdown", &[]),
    ("client_closed_after_timeout", &[]),
    ("client_closed_after_protocol_error", &[]),
    ("client_closed_after_abort", &[]),
    ("client_aborted", &["method"]),
    ("client_timeout", &["method", "ms"]),
    ("client_timeout_streams", &["method", "ms"]),
    ("client_exited", &["method", "status"]),
    ("client_killed", &["method", "signal"]),
    ("client_output_closed", &["method"]),
    ("client_stderr_tail", &["message", "lines"]),
    ("client_spawn_failed", &["method", "path", "reason"]),
    ("client_wrong_id", &["method", "answer_id", "request_id"]),
    ("client_not_json", &["method"]),
    ("client_too_long", &["method", "max_line_bytes"]),
    ("client_undecodable", &["method", "result_type"]),
];

/// The messages only the `mcptest` binary renders (the main crate's
/// `build.rs` requires them; the SDKs' targets need none): optional here,
/// with these holes when present.
pub const BINARY_MESSAGES: &[(&str, &[&str])] = &[("answer_too_long", &["method", "bytes", "max_line_bytes"])];

/// The session client's settings, each with the range it must lie in.
pub const CLIENT_SETTINGS: &[(&str, u64, u64)] = &[
    ("call_timeout_ms", 1, 86_400_000),
    ("close_timeout_ms", 1, 86_400_000),
    ("exit_drain_ms", 1, 86_400_000),
    ("start_timeout_ms", 1, 86_400_000),
    ("stderr_tail_lines", 1, 10_000),
];

/// The error codes the handshake logic of every target relies on.
pub const REQUIRED_ERROR_CODES: &[&str] = &["MethodNotFound", "InvalidParams"];

/// Reads and checks the schema at `path`; `source` is how generated headers name it.
pub fn load(path: &Path, source: &str) -> Result<(Contract, Value), SchemaError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        SchemaError::new(path, "", format!("cannot read the schema: {e}"), "check the path")
    })?;
    load_str(&text, path, source)
}

/// Checks schema text; `path` is used in errors only.
pub fn load_str(text: &str, path: &Path, source: &str) -> Result<(Contract, Value), SchemaError> {
    let raw: Value = serde_json::from_str(text).map_err(|e| {
        SchemaError::new(
            path,
            "",
            format!("not valid JSON: {e}"),
            "fix the JSON syntax at that line and column",
        )
    })?;
    // The meta-schema check (compiling the meta-schema is a third of the
    // load) runs beside the reading of the contract; its refusal comes
    // first, as if it had run first.
    let (meta, contract) = crate::parallel::join(source, "meta-schema", || check_meta_schema(&raw, path), || build_contract(&raw, path, source))?;
    meta?;
    Ok((contract?, raw))
}

fn check_meta_schema(raw: &Value, path: &Path) -> Result<(), SchemaError> {
    match raw.get("$schema").and_then(Value::as_str) {
        Some("https://json-schema.org/draft/2020-12/schema") => {}
        _ => {
            return Err(SchemaError::new(
                path,
                "/$schema",
                "the schema does not declare JSON Schema draft 2020-12",
                "set \"$schema\": \"https://json-schema.org/draft/2020-12/schema\"",
            ))
        }
    }
    if let Err(error) = jsonschema::draft202012::meta::validate(raw) {
        return Err(SchemaError::new(
            path,
            error.instance_path().to_string(),
            format!("fails the JSON Schema 2020-12 meta-schema: {error}"),
            "make the value at that pointer a valid JSON Schema keyword value",
        ));
    }
    Ok(())
}

fn build_contract(raw: &Value, path: &Path, source: &str) -> Result<Contract, SchemaError> {
    let r = Reader { path };
    let root = r.object(raw, "")?;
    for key in root.keys() {
        if !["$schema", "title", "description", "x-coprocess", "$defs"].contains(&key.as_str()) {
            return Err(r.err(
                &push_pointer("", key),
                format!("`{key}` at the schema root is outside the supported subset"),
                "the root holds only $schema, title, description, x-coprocess and $defs; put frame shapes under $defs",
            ));
        }
    }
    let title = r.string(root, "title", "")?;
    let description = r.string(root, "description", "")?;
    let defs = r.object(r.field(root, "$defs", "")?, "/$defs")?;
    let x = r.object(r.field(root, "x-coprocess", "")?, "/x-coprocess")?;
    let xp = "/x-coprocess";
    r.only_keys(
        x,
        &["protocol_version", "max_line_bytes", "max_depth", "methods", "error_codes", "lanes", "messages", "client", "sdks", "history", "compatibility", "roles"],
        xp,
    )?;
    // Read before the types: it bounds how deep their arrays may nest.
    let max_depth = r.integer(x, "max_depth", xp)?;
    if !(2..=1000).contains(&max_depth) {
        return Err(r.err(&format!("{xp}/max_depth"), "max_depth must be between 2 and 1000", "pick a depth in that range"));
    }
    let types = TypeBuilder::new(&r, defs, max_depth as u32).build_all()?;

    let protocol_version = r.integer(x, "protocol_version", xp)?;
    if protocol_version < 1 {
        return Err(r.err(&format!("{xp}/protocol_version"), "the protocol version must be 1 or more", "use a positive integer"));
    }
    let max_line_bytes = r.integer(x, "max_line_bytes", xp)?;
    if !(1024..=1 << 30).contains(&max_line_bytes) {
        return Err(r.err(&format!("{xp}/max_line_bytes"), "max_line_bytes must be between 1024 and 2^30", "pick a limit in that range"));
    }

    let methods = read_methods(&r, x, &types)?;
    let roles = crate::roles::read(&r, x, &types, &methods)?;
    let contract = Contract {
        source: source.to_string(),
        title,
        description,
        protocol_version,
        max_line_bytes: max_line_bytes as u64,
        max_depth: max_depth as u32,
        methods,
        roles,
        error_codes: read_error_codes(&r, x)?,
        lanes: read_lanes(&r, x)?,
        messages: read_messages(&r, x)?,
        client: read_client(&r, x)?,
        sdks: crate::sdks::read(&r, x)?,
        history: read_history(&r, x, protocol_version)?,
        compatibility: read_compatibility(&r, x)?,
        types,
        raw: raw.clone(),
    };
    crate::examples::check(&r, &contract)?;
    Ok(contract)
}

fn resolve_def_ref(
    r: &Reader<'_>,
    object: &Map<String, Value>,
    key: &str,
    pointer: &str,
    types: &BTreeMap<String, crate::model::TypeDef>,
) -> Result<String, SchemaError> {
    let reference = r.string(object, key, pointer)?;
    let at = push_pointer(pointer, key);
    let Some(name) = reference.strip_prefix("#/$defs/") else {
        return Err(r.err(&at, format!("`{reference}` is not a local `#/$defs/<Name>` reference"), "write it as \"#/$defs/<Name>\""));
    };
    if !types.contains_key(name) {
        return Err(r.err(&at, format!("`{reference}` does not resolve: there is no $defs entry `{name}`"), "add that definition under $defs or fix the name"));
    }
    Ok(name.to_string())
}

fn read_methods(
    r: &Reader<'_>,
    x: &Map<String, Value>,
    types: &BTreeMap<String, crate::model::TypeDef>,
) -> Result<Vec<Method>, SchemaError> {
    let mut methods: Vec<Method> = Vec::new();
    for (i, row) in r.array(x, "methods", "/x-coprocess")?.iter().enumerate() {
        let p = format!("/x-coprocess/methods/{i}");
        let row = r.object(row, &p)?;
        r.only_keys(row, &["name", "params", "params_required", "result", "description"], &p)?;
        let name = r.string(row, "name", &p)?;
        if methods.iter().any(|m| m.name == name) {
            return Err(r.err(&format!("{p}/name"), format!("method `{name}` is listed twice"), "keep one row per method"));
        }
        check_method_words(r, &name, &format!("{p}/name"), &methods)?;
        let params = resolve_def_ref(r, row, "params", &p, types)?;
        if !matches!(types.get(&params).map(|t| &t.kind), Some(crate::model::TypeKind::Object(_))) {
            return Err(r.err(&format!("{p}/params"), format!("params type `{params}` is not a closed object"), "point params at a closed object definition"));
        }
        methods.push(Method {
            params,
            params_required: r.boolean(row, "params_required", &p)?,
            result: resolve_def_ref(r, row, "result", &p, types)?,
            description: r.string(row, "description", &p)?,
            name,
        });
    }
    Ok(methods)
}

/// The words a method's wire name gives every SDK's client method: its
/// segments (split at `.` and `/`), each snake-cased (`mcp.cache.setMode` →
/// `mcp`, `cache`, `set_mode`). Each target spells the client method from
/// them, the first word (the namespace) left out unless two methods would meet.
pub fn method_words(wire: &str) -> Vec<String> {
    wire.split(['.', '/']).map(crate::names::snake_case).collect()
}

/// A method's words must each name something, and no two methods may have the
/// same words, joined: two such methods would be one client method in every SDK.
fn check_method_words(r: &Reader<'_>, name: &str, pointer: &str, before: &[Method]) -> Result<(), SchemaError> {
    let words = method_words(name);
    if let Some(segment) = name.split(['.', '/']).find(|s| crate::names::snake_case(s).is_empty()) {
        return Err(r.err(
            pointer,
            format!("method `{name}` has a segment `{segment}` with no letter or digit to name its client method by"),
            "name each `.`- or `/`-separated segment with letters (`mcp.listTools`, `mcp.cache.set_mode`)",
        ));
    }
    // Compared joined, since every SDK joins them (`mcp.cache.set_mode` and
    // `mcp.cache_set.mode` are both `cache_set_mode`).
    if let Some(other) = before.iter().find(|m| method_words(&m.name).join("_") == words.join("_")) {
        return Err(r.err(
            pointer,
            format!("method `{name}` and method `{}` give the same client method (`{}`) in every SDK", other.name, words.join("_")),
            "rename one of them so that their words differ, not only their case or separators",
        ));
    }
    Ok(())
}

fn read_error_codes(r: &Reader<'_>, x: &Map<String, Value>) -> Result<Vec<ErrorCode>, SchemaError> {
    let mut codes: Vec<ErrorCode> = Vec::new();
    for (i, row) in r.array(x, "error_codes", "/x-coprocess")?.iter().enumerate() {
        let p = format!("/x-coprocess/error_codes/{i}");
        let row = r.object(row, &p)?;
        r.only_keys(row, &["code", "name", "description"], &p)?;
        let code = r.integer(row, "code", &p)?;
        let name = r.string(row, "name", &p)?;
        crate::subset::check_type_name(r, &name, &format!("{p}/name"))?;
        if codes.iter().any(|c| c.code == code || c.name == name) {
            return Err(r.err(&p, format!("error code {code} `{name}` repeats a code or a name"), "give each code one row and a unique name"));
        }
        codes.push(ErrorCode { code, name, description: r.string(row, "description", &p)? });
    }
    for required in REQUIRED_ERROR_CODES {
        if !codes.iter().any(|c| c.name == *required) {
            return Err(r.err("/x-coprocess/error_codes", format!("the error-code table has no `{required}`"), "add it: the handshake logic relies on it"));
        }
    }
    Ok(codes)
}

fn read_lanes(r: &Reader<'_>, x: &Map<String, Value>) -> Result<Vec<Lane>, SchemaError> {
    let mut lanes: Vec<Lane> = Vec::new();
    for (i, row) in r.array(x, "lanes", "/x-coprocess")?.iter().enumerate() {
        let p = format!("/x-coprocess/lanes/{i}");
        let row = r.object(row, &p)?;
        r.only_keys(row, &["key", "drivable", "runs_via", "description"], &p)?;
        let key = r.string(row, "key", &p)?;
        if lanes.iter().any(|l| l.key == key) {
            return Err(r.err(&format!("{p}/key"), format!("lane `{key}` is listed twice"), "keep one row per lane"));
        }
        lanes.push(Lane {
            drivable: r.boolean(row, "drivable", &p)?,
            runs_via: r.string(row, "runs_via", &p)?,
            description: r.string(row, "description", &p)?,
            key,
        });
    }
    Ok(lanes)
}

/// The version history: consecutive versions, ascending, ending at the
/// current one (older versions may be left out, never skipped).
fn read_history(r: &Reader<'_>, x: &Map<String, Value>, current: i64) -> Result<Vec<Version>, SchemaError> {
    let mut history: Vec<Version> = Vec::new();
    for (i, row) in r.array(x, "history", "/x-coprocess")?.iter().enumerate() {
        let p = format!("/x-coprocess/history/{i}");
        let row = r.object(row, &p)?;
        r.only_keys(row, &["version", "changes"], &p)?;
        let version = r.integer(row, "version", &p)?;
        let expected = history.last().map(|v| v.version + 1);
        if expected.is_some_and(|e| e != version) || !(1..=current).contains(&version) {
            let want = expected.map_or(format!("a version from 1 to {current}"), |e| format!("version {e}"));
            return Err(r.err(&format!("{p}/version"), format!("version {version} is out of place"), format!("list consecutive versions, oldest first, up to the current one: this row should be {want}")));
        }
        history.push(Version { version, changes: r.string(row, "changes", &p)? });
    }
    if history.last().map(|v| v.version) != Some(current) {
        return Err(r.err(
            "/x-coprocess/history",
            format!("the history does not end with the current protocol version {current}"),
            format!("add a row {{\"version\": {current}, \"changes\": \"...\"}} saying what version {current} changed"),
        ));
    }
    Ok(history)
}

/// The compatibility rule: one or more clauses, each a non-empty string.
fn read_compatibility(r: &Reader<'_>, x: &Map<String, Value>) -> Result<Vec<String>, SchemaError> {
    let rows = r.array(x, "compatibility", "/x-coprocess")?;
    if rows.is_empty() {
        return Err(r.err("/x-coprocess/compatibility", "the compatibility rule is empty", "state the rule, one clause per string"));
    }
    rows.iter()
        .enumerate()
        .map(|(i, clause)| match clause.as_str() {
            Some(text) if !text.trim().is_empty() => Ok(text.to_string()),
            _ => Err(r.err(&format!("/x-coprocess/compatibility/{i}"), "a clause must be a non-empty string", "write the clause as a JSON string")),
        })
        .collect()
}

fn read_client(r: &Reader<'_>, x: &Map<String, Value>) -> Result<BTreeMap<String, ClientSetting>, SchemaError> {
    let p = "/x-coprocess/client";
    let table = r.object(r.field(x, "client", "/x-coprocess")?, p)?;
    let allowed: Vec<&str> = CLIENT_SETTINGS.iter().map(|(name, _, _)| *name).collect();
    r.only_keys(table, &allowed, p)?;
    let mut settings = BTreeMap::new();
    for (name, low, high) in CLIENT_SETTINGS {
        let sp = format!("{p}/{name}");
        let row = r.object(r.field(table, name, p)?, &sp)?;
        r.only_keys(row, &["value", "description"], &sp)?;
        let value = r.integer(row, "value", &sp)?;
        let value = u64::try_from(value).ok().filter(|v| (low..=high).contains(&v)).ok_or_else(|| {
            r.err(&format!("{sp}/value"), format!("`{name}` is {value}, outside {low}..={high}"), format!("pick a value from {low} to {high}"))
        })?;
        settings.insert(name.to_string(), ClientSetting { value, description: r.string(row, "description", &sp)? });
    }
    Ok(settings)
}

fn read_messages(r: &Reader<'_>, x: &Map<String, Value>) -> Result<BTreeMap<String, Message>, SchemaError> {
    let table = r.object(r.field(x, "messages", "/x-coprocess")?, "/x-coprocess/messages")?;
    let allowed: Vec<&str> = REQUIRED_MESSAGES.iter().chain(BINARY_MESSAGES).map(|(name, _)| *name).collect();
    r.only_keys(table, &allowed, "/x-coprocess/messages")?;
    let mut messages = BTreeMap::new();
    let present = BINARY_MESSAGES.iter().filter(|(name, _)| table.contains_key(*name));
    for (name, holes) in REQUIRED_MESSAGES.iter().chain(present) {
        let p = format!("/x-coprocess/messages/{name}");
        let row = r.object(r.field(table, name, "/x-coprocess/messages")?, &p)?;
        r.only_keys(row, &["template", "description"], &p)?;
        let message = Message { template: r.string(row, "template", &p)?, description: r.string(row, "description", &p)? };
        let found = message.holes();
        let mut expected: Vec<String> = holes.iter().map(|h| h.to_string()).collect();
        let mut sorted_found = found.clone();
        expected.sort();
        sorted_found.sort();
        if sorted_found != expected {
            return Err(r.err(
                &format!("{p}/template"),
                format!("the template's holes are {{{}}}", found.join("}, {")),
                format!("use exactly these holes: {{{}}}", holes.join("}, {")),
            ));
        }
        messages.insert(name.to_string(), message);
    }
    Ok(messages)
}
