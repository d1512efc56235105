//! TypeScript names and literals: case conversion through [`crate::names`],
//! escaping of reserved words and of names the generated file already uses.

use crate::names::{camel_case, escape_keyword, pascal_case, screaming_snake_case};

/// Words that cannot name a local variable or parameter in strict-mode ES2020.
pub(crate) const RESERVED_WORDS: &[&str] = &[
    "arguments", "await", "break", "case", "catch", "class", "const", "continue", "debugger",
    "default", "delete", "do", "else", "enum", "eval", "export", "extends", "false", "finally",
    "for", "function", "if", "implements", "import", "in", "instanceof", "interface", "let",
    "new", "null", "package", "private", "protected", "public", "return", "static", "super",
    "switch", "this", "throw", "true", "try", "typeof", "undefined", "var", "void", "while",
    "with", "yield", "NaN", "Infinity",
];

/// Locals and parameters the generated decoders and encoders declare, and the
/// global values they call, which a local named after a field must not
/// shadow. The runtime's own names all start with `_`, which no local does.
pub(crate) const RUNTIME_IDENTIFIERS: &[&str] = &[
    "value", "path", "orNull", "obj", "key", "member", "out", "item", "itemPath", "entry",
    "entryPath", "readP", "readR", "generated", "decode", "met", "wasCounting", "e", "JSON",
    "String", "Number", "Object", "Array", "Map", "Math", "Symbol", "globalThis",
];

/// The TypeScript name of a `$defs` type. Global types the file refers to
/// (`Error`, `Record`, ...) are never shadowed by it: see `runtime.ts`.
pub fn type_name(def: &str) -> String {
    pascal_case(def)
}

/// The PascalCase stem used in function names (`decodeCallParams`).
pub fn stem(def: &str) -> String {
    pascal_case(def)
}

/// The property of a wire field on the generated interfaces (`durationMs`).
pub fn property(wire: &str) -> String {
    camel_case(wire)
}

/// How a property is written as a key in a declaration or object literal.
pub fn property_key(wire: &str) -> String {
    let name = property(wire);
    if is_identifier(&name) {
        name
    } else {
        js_string(&name)
    }
}

/// A wire name as an object literal key, quoted only where it must be
/// (Prettier's `quoteProps: "as-needed"`): the JSON member name unchanged.
pub fn wire_key(wire: &str) -> String {
    if is_identifier(wire) {
        wire.to_string()
    } else {
        js_string(wire)
    }
}

/// `target.prop` or `target["prop"]`.
pub fn property_access(target: &str, wire: &str) -> String {
    let name = property(wire);
    if is_identifier(&name) {
        format!("{target}.{name}")
    } else {
        format!("{target}[{}]", js_string(&name))
    }
}

/// A local variable or parameter named after `wire`, never shadowing
/// anything the generated code uses; `taken` are other names to avoid.
pub fn local(wire: &str, taken: &[String]) -> String {
    let mut name = camel_case(wire);
    if !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        name.insert(0, '_');
    }
    let mut name = escape_keyword(escape_keyword(name, RESERVED_WORDS), RUNTIME_IDENTIFIERS);
    while taken.contains(&name) {
        name.push('_');
    }
    name
}

/// A constant name: `CACHE_MODE_VALUES`.
pub fn constant(name: &str) -> String {
    screaming_snake_case(name)
}

/// A member of an `as const` object (`CoprocessHandshake`), quoted if needed.
pub fn member_key(name: &str) -> String {
    let member = pascal_case(name);
    if is_identifier(&member) {
        member
    } else {
        js_string(&member)
    }
}

/// `Object.member` or `Object["member"]`.
pub fn member_access(object: &str, name: &str) -> String {
    let member = pascal_case(name);
    if is_identifier(&member) {
        format!("{object}.{member}")
    } else {
        format!("{object}[{}]", js_string(&member))
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A double-quoted string literal (JSON string syntax is valid ES2020).
pub fn js_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| String::from("\"\""))
}

/// A string literal quoted as Prettier quotes it: double quotes, unless the
/// text holds more of them than single ones.
pub fn js_quoted(text: &str) -> String {
    if text.matches('"').count() > text.matches('\'').count() {
        js_single(text)
    } else {
        js_string(text)
    }
}

/// A single-quoted string literal, for text that is full of double quotes.
pub fn js_single(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The path step of a member, as decoders report it: `.key` or `["key"]`.
pub fn path_step(wire: &str) -> String {
    let mut chars = wire.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if identifier {
        format!(".{wire}")
    } else {
        format!("[{}]", js_string(wire))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(type_name("Map"), "Map");
        assert_eq!(property("duration_ms"), "durationMs");
        assert_eq!(property_key("_meta"), "meta");
        assert_eq!(local("class", &[]), "class_");
        assert_eq!(local("arguments", &[]), "arguments_");
        assert_eq!(local("value", &[]), "value_");
        assert_eq!(path_step("a-b"), "[\"a-b\"]");
        assert_eq!(js_single("\"a\":"), "'\"a\":'");
    }
}
