//! Go identifiers and literals.
//!
//! Every generated identifier that comes from the schema is exported
//! (PascalCase with Go initialisms: `RequestID`, `MCPObject`, `SDKVersion`),
//! so no Go keyword or predeclared identifier (all lower-case) can clash with
//! it; the only lower-case names are fixed ones of the runtime.

use crate::names;

/// Words written upper-case in Go identifiers.
const INITIALISMS: &[&str] = &[
    "api", "cli", "http", "id", "ip", "json", "mcp", "rpc", "sdk", "uri", "url", "uuid",
];

/// `duration_ms` → `DurationMs`, `RequestId` → `RequestID`, `_meta` → `Meta`.
pub fn exported(name: &str) -> String {
    let mut out = pascal_words(name);
    if !out.starts_with(|c: char| c.is_ascii_uppercase()) {
        out.insert(0, 'X');
    }
    out
}

/// The words of `name` capitalized and joined, initialisms upper-cased
/// (may start with a digit or be empty).
pub fn pascal_words(name: &str) -> String {
    let mut out = String::new();
    for word in names::words(name) {
        if INITIALISMS.contains(&word.as_str()) {
            out.push_str(&word.to_ascii_uppercase());
        } else {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                out.push(first.to_ascii_uppercase());
                out.push_str(chars.as_str());
            }
        }
    }
    out
}

/// A Go interpreted string literal for `s`.
pub fn string_lit(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `s` as JSON string text (for messages that quote enum values).
pub fn json_quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(exported("RequestId"), "RequestID");
        assert_eq!(exported("JsonRpcVersion"), "JSONRPCVersion");
        assert_eq!(exported("_meta"), "Meta");
        assert_eq!(exported("sdk_version"), "SDKVersion");
        assert_eq!(exported("2.0"), "X20");
        assert_eq!(exported("with-dash"), "WithDash");
    }
}
