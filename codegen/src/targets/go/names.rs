//! Go identifiers, literals and doc comments.
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

/// The first sentence of a doc comment: `Name is <description>` when the
/// description starts with a plain capitalized word (`The`, `A`, `True`),
/// else `Name: <description>`.
pub fn doc_sentence(name: &str, description: &str) -> String {
    let description = description.trim();
    let first = description.split_whitespace().next().unwrap_or("");
    let mut chars = first.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_lowercase() || c == '-')
        && !matches!(first, "When" | "If" | "Optional");
    if description.is_empty() {
        name.to_string()
    } else if plain {
        let mut rest = description.chars();
        let head = rest.next().map(|c| c.to_ascii_lowercase()).unwrap_or_default();
        format!("{name} is {head}{}", rest.as_str())
    } else {
        format!("{name}: {description}")
    }
}

/// Whether a word at the start of a comment line would make gofmt read the
/// line as a list item or heading (and rewrite it).
fn is_marker(word: &str) -> bool {
    if matches!(word, "-" | "+" | "*" | "•" | "#") {
        return true;
    }
    let digits = word.trim_end_matches(['.', ')']);
    digits.len() + 1 == word.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// Word-wraps `text` into lines of at most `width` characters (longer words
/// stay whole), never starting a line with a list marker.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    crate::targets::wrap_keeping(text, width, is_marker)
}

/// Appends a `//` comment holding `text`, indented by `indent` tabs.
pub fn comment(out: &mut String, indent: usize, text: &str) {
    let tabs = "\t".repeat(indent);
    for line in wrap(text, 77 - 4 * indent) {
        if line.is_empty() {
            out.push_str(&format!("{tabs}//\n"));
        } else {
            out.push_str(&format!("{tabs}// {line}\n"));
        }
    }
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

    #[test]
    fn wrapping_avoids_list_markers() {
        let lines = wrap("aaaa bbbb - cccc", 9);
        assert_eq!(lines, vec!["aaaa bbbb -", "cccc"]);
        assert!(is_marker("2."));
        assert!(!is_marker("2.0"));
    }

    #[test]
    fn sentences() {
        assert_eq!(doc_sentence("Verdict", "The outcome."), "Verdict is the outcome.");
        assert_eq!(doc_sentence("Error", "When x."), "Error: When x.");
        assert_eq!(doc_sentence("X", "`a` b"), "X: `a` b");
    }
}
