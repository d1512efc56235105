//! The renamed contract of the roles proof (issue 32), shared by the proofs: every `$defs` type
//! `X` becomes `CpX` and every method's namespace gains `cp`
//! (`mcp.call` → `cpmcp.call`, `coprocess/handshake` →
//! `cpcoprocess/handshake`), in references, the method and role tables,
//! examples and descriptions alike. The frames on the wire are the same but
//! for the method names; every SDK must generate the same declarations under
//! the new names, which [`normalized`] maps back.

use serde_json::{Map, Value};

/// The prefix of a renamed type, and of a renamed method.
pub const TYPE_PREFIX: &str = "Cp";
pub const METHOD_PREFIX: &str = "cp";

/// The contract `schema` with every type and method renamed.
pub fn renamed(schema: &Value) -> Value {
    let types: Vec<String> = schema["$defs"].as_object().map(|d| d.keys().cloned().collect()).unwrap_or_default();
    let methods: Vec<String> = schema["x-coprocess"]["methods"].as_array().into_iter().flatten().filter_map(|m| m["name"].as_str().map(str::to_string)).collect();
    let renamer = Renamer { types, methods };
    let mut out = renamer.value(schema, None);
    if let Some(defs) = out.get_mut("$defs").and_then(Value::as_object_mut) {
        let renamed: Map<String, Value> = std::mem::take(defs).into_iter().map(|(k, v)| (format!("{TYPE_PREFIX}{k}"), v)).collect();
        *defs = renamed;
    }
    out
}

struct Renamer {
    types: Vec<String>,
    methods: Vec<String>,
}

impl Renamer {
    fn value(&self, value: &Value, key: Option<&str>) -> Value {
        match value {
            Value::Object(object) => Value::Object(object.iter().map(|(k, v)| (k.clone(), self.value(v, Some(k)))).collect()),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.value(v, key)).collect()),
            Value::String(s) => Value::String(self.string(s, key)),
            other => other.clone(),
        }
    }

    fn string(&self, s: &str, key: Option<&str>) -> String {
        if let Some(name) = s.strip_prefix("#/$defs/") {
            return format!("#/$defs/{TYPE_PREFIX}{name}");
        }
        match key {
            Some("description" | "template" | "changes" | "title") => self.prose(s),
            Some("method" | "name") if self.methods.iter().any(|m| m == s) => format!("{METHOD_PREFIX}{s}"),
            _ => s.to_string(),
        }
    }

    /// Prose with every whole-word type and method name renamed.
    fn prose(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        while !rest.is_empty() {
            let at_boundary = out.chars().next_back().is_none_or(|c| !is_word(c) && c != '.' && c != '/');
            let method = self.methods.iter().filter(|m| rest.starts_with(m.as_str())).max_by_key(|m| m.len());
            let ty = self.types.iter().filter(|t| rest.starts_with(t.as_str())).max_by_key(|t| t.len());
            let ends = |n: usize| !rest[n..].starts_with(is_word);
            if at_boundary {
                if let Some(m) = method.filter(|m| ends(m.len())) {
                    out.push_str(METHOD_PREFIX);
                    out.push_str(m);
                    rest = &rest[m.len()..];
                    continue;
                }
                if let Some(t) = ty.filter(|t| ends(t.len())) {
                    out.push_str(TYPE_PREFIX);
                    out.push_str(t);
                    rest = &rest[t.len()..];
                    continue;
                }
            }
            let c = rest.chars().next().unwrap_or_default();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        out
    }
}

/// A declared name in a form that a rename does not change: lower case,
/// without `_`, and without the prefix wherever it stands before a renamed
/// type's or method namespace's words (`decode_cp_verdict` → `decodeverdict`,
/// `METHOD_CPMCP_CALL` → `methodmcpcall`).
pub fn normalized(name: &str, words: &[String]) -> String {
    let flat: String = name.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect();
    let prefix = METHOD_PREFIX;
    let mut out = String::with_capacity(flat.len());
    let mut rest = flat.as_str();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix(prefix) {
            if words.iter().any(|w| after.starts_with(w.as_str())) {
                rest = after;
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The words [`normalized`] strips the prefix before: each type name and each
/// method namespace of the original contract, lower case.
pub fn renamed_words(schema: &Value) -> Vec<String> {
    let mut words: Vec<String> = schema["$defs"].as_object().into_iter().flatten().map(|(k, _)| k.to_lowercase()).collect();
    for method in schema["x-coprocess"]["methods"].as_array().into_iter().flatten() {
        if let Some(namespace) = method["name"].as_str().and_then(|n| n.split(['.', '/']).next()) {
            words.push(namespace.to_lowercase());
        }
    }
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    words.dedup();
    words
}
