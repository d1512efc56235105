//! Case conversion shared by every target, so that `isError`, `is_error` and
//! `IsError` are the same name everywhere, and the collision check in the
//! loader sees exactly what the targets will emit.

use sha2::{Digest, Sha256};

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

/// The longest text [`text_tag`] writes out whole, in bytes.
const TAG_BYTES: usize = 16;

/// An identifier part that stands for any text, one per text: its UTF-8
/// bytes in lower-case hex when there are at most 16 (`call` → `63616c6c`),
/// else `h` and the first 16 bytes of their SHA-256 in hex, so that a long
/// `const` or `enum` listing still gives a name of reasonable length (a
/// tag of 33 characters at most). The two forms never meet: a short tag is hex
/// digits only, a long one starts with `h`.
pub fn text_tag(text: &str) -> String {
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    if text.len() <= TAG_BYTES {
        hex(text.as_bytes())
    } else {
        format!("h{}", hex(&Sha256::digest(text.as_bytes())[..TAG_BYTES]))
    }
}

/// Appends `_` when `name` is in `keywords` (`type` → `type_`).
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

    #[test]
    fn text_tags_are_hex_when_short_and_a_digest_when_long() {
        assert_eq!(text_tag("call"), "63616c6c");
        assert_eq!(text_tag(""), "");
        let sixteen = "0123456789abcdef";
        assert_eq!(text_tag(sixteen), "30313233343536373839616263646566");
        let long = format!("{sixteen}!");
        let tag = text_tag(&long);
        assert_eq!(tag.len(), 33);
        assert!(tag.starts_with('h') && tag[1..].bytes().all(|b| b.is_ascii_hexdigit()), "{tag}");
        assert_ne!(tag, text_tag(&format!("{sixteen}?")), "one byte apart, two tags");
        assert_eq!(tag, text_tag(&long), "the same text, the same tag");
    }
}
