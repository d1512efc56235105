//! Case conversion shared by every target, so that `isError`, `is_error` and
//! `IsError` are the same name everywhere, and the collision check in the
//! loader sees exactly what the targets will emit.

/// Splits a wire or type name into lower-case words:
/// `duration_ms` → [duration, ms], `isError` → [is, error], `_meta` → [meta],
/// `HTTPServer` → [http, server], `mcp.listTools` → [mcp, list, tools].
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !current.is_empty() {
            let prev = chars[i - 1];
            let next_is_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_is_lower)
            {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// `duration_ms` → `duration_ms`, `isError` → `is_error`.
pub fn snake_case(name: &str) -> String {
    words(name).join("_")
}

/// `duration_ms` → `DURATION_MS`.
pub fn screaming_snake_case(name: &str) -> String {
    snake_case(name).to_ascii_uppercase()
}

/// `duration_ms` → `durationMs`.
pub fn camel_case(name: &str) -> String {
    let words = words(name);
    let mut out = String::new();
    for (i, word) in words.iter().enumerate() {
        if i == 0 {
            out.push_str(word);
        } else {
            out.push_str(&capitalize(word));
        }
    }
    out
}

/// `duration_ms` → `DurationMs`.
pub fn pascal_case(name: &str) -> String {
    words(name).iter().map(|w| capitalize(w)).collect()
}

/// Appends `_` when `name` is in `keywords` (`type` → `type_`).
/// A string's UTF-8 bytes in lower-case hex (`call` → `63616c6c`): an
/// identifier part that stands for any string, one per string.
pub fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

pub fn escape_keyword(name: String, keywords: &[&str]) -> String {
    if keywords.contains(&name.as_str()) {
        name + "_"
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(snake_case("isError"), "is_error");
        assert_eq!(snake_case("_meta"), "meta");
        assert_eq!(snake_case("HTTPServer"), "http_server");
        assert_eq!(snake_case("structuredContent"), "structured_content");
        assert_eq!(camel_case("duration_ms"), "durationMs");
        assert_eq!(pascal_case("duration_ms"), "DurationMs");
        assert_eq!(pascal_case("mcp.listTools"), "McpListTools");
        assert_eq!(pascal_case("coprocess/handshake"), "CoprocessHandshake");
        assert_eq!(screaming_snake_case("mcp.cache.set_mode"), "MCP_CACHE_SET_MODE");
        assert_eq!(snake_case("fooBar"), snake_case("foo_bar"));
        assert_eq!(escape_keyword("type".into(), &["type"]), "type_");
    }
}
