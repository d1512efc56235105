//! The names a runtime template declares at its top level, read from its text
//! in that language's own terms, and the names a language's own code refers to.

/// Standard names the generated code of some language refers to (prelude,
/// builtins, globals, `java.lang`, `System`, the JSON libraries the targets use).
pub const STANDARD_NAMES: &[&str] = &[
    // Rust prelude and what serde code names.
    "Option", "Some", "None", "Result", "Ok", "Err", "String", "Vec", "Box", "Default", "Clone",
    "Copy", "Debug", "Send", "Sync", "Sized", "Fn", "Iterator", "Into", "From", "ToString",
    "PartialEq", "Eq", "Hash", "Drop", "Deserialize", "Serialize", "Deserializer", "Serializer",
    "Value", "Map", "Formatter", "Display", "Number", "Cow", "Str",
    // Python typing and builtins an annotation or a runtime names.
    "Any", "Callable", "Dict", "Final", "Generic", "Iterable", "List", "Literal", "NoReturn",
    "Optional", "Set", "Tuple", "Type", "TypeVar", "Union", "Enum", "ValueError", "RuntimeError",
    "Exception", "Dataclass", "Field", "Self",
    // TypeScript / JavaScript globals and utility types.
    "Object", "Array", "Error", "WeakMap", "Boolean", "Symbol", "Record", "Readonly",
    "ReadonlyArray", "Partial", "Promise", "Date", "RegExp", "Function", "Math", "Json", "BigInt",
    "TypeError", "RangeError", "SyntaxError", "Uint8Array", "TextDecoder", "TextEncoder", "GlobalThis",
    "Infinity", "NaN", "Undefined",
    // Java: java.lang, java.util, Jackson.
    "Integer", "Long", "Double", "Character", "HashMap", "ArrayList", "RuntimeException",
    "IllegalArgumentException", "IllegalStateException", "Override", "Deprecated",
    "SuppressWarnings", "Objects", "Collections", "StringBuilder", "JsonNode", "ObjectMapper",
    "JsonParser", "JsonToken", "JsonFactory", "Class", "Void", "Thread", "System", "Short",
    "Byte", "Float", "Arrays", "LinkedHashMap", "Comparable", "CharSequence", "IoException",
    "UncheckedIoException", "BigInteger", "BigDecimal", "Locale", "Nullable", "Iterable",
    "FunctionalInterface", "SafeVarargs",
    // C#: System, System.Text.Json.
    "Int32", "Int64", "Char", "Decimal", "ArgumentException", "InvalidOperationException",
    "FormatException", "Dictionary", "IReadOnlyList", "IReadOnlyDictionary", "IEnumerable",
    "IDisposable", "Func", "Action", "Span", "ReadOnlySpan", "Memory", "JsonElement",
    "JsonDocument", "Utf8JsonReader", "Utf8JsonWriter", "JsonValueKind", "JsonException",
    "Encoding", "CultureInfo", "Nullable", "Task", "ValueTask", "CancellationToken", "Attribute",
    "ObsoleteAttribute", "Obsolete", "Console", "Environment", "Buffer", "ArrayPool",
    "ThreadStatic", "Convert", "BitConverter", "Guid", "DateTime", "TimeSpan", "Uri", "Version",
    "Mcptest", "Sdk", "Coprocess", "Linq", "Collections", "Generic", "Text", "Buffers",
    "Globalization",
];

/// Every word of every keyword set the targets keep.
pub fn keyword_sets() -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for target in codegen::targets::TARGETS {
        for set in codegen::targets::keyword_sets(target) {
            words.extend(set.iter().map(|w| w.to_string()));
        }
    }
    words.sort();
    words.dedup();
    words
}

/// Every name `source` (a runtime template of `target`) declares at its top
/// level: the names a schema name could meet in the generated file's scope.
pub fn top_level(target: &str, source: &str) -> Vec<String> {
    let mut names = Vec::new();
    match target {
        "python" => python(source, &mut names),
        "typescript" => typescript(source, &mut names),
        "go" => go(source, &mut names),
        "jvm" => braces(source, 4, &["class", "interface", "record", "enum"], &mut names),
        "dotnet" => braces(source, 4, &["class", "struct", "interface", "enum", "record", "delegate"], &mut names),
        "rust" => rust(source, &mut names),
        other => panic!("no declaration reader for {other}"),
    }
    names.sort();
    names.dedup();
    assert!(!names.is_empty(), "no top-level name found in a {target} runtime: is its reader out of date?");
    names
}

fn identifier_at(text: &str) -> Option<String> {
    let name: String = text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$').collect();
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

fn strip_words<'a>(mut line: &'a str, words: &[&str]) -> &'a str {
    loop {
        let before = line;
        for word in words {
            if let Some(rest) = line.strip_prefix(word).and_then(|r| r.strip_prefix(' ')) {
                line = rest.trim_start();
            }
        }
        if line == before {
            return line;
        }
    }
}

fn python(source: &str, names: &mut Vec<String>) {
    for line in source.lines() {
        if line.starts_with([' ', '\t', '#', ')', ']', '}', '"', '\'', '@']) || line.is_empty() {
            continue;
        }
        let line = strip_words(line, &["async"]);
        let rest = line.strip_prefix("class ").or_else(|| line.strip_prefix("def ")).unwrap_or(line);
        if let Some(name) = identifier_at(rest) {
            let after = &rest[name.len()..];
            if rest != line || after.trim_start().starts_with([':', '=']) {
                names.push(name);
            }
        }
    }
}

fn typescript(source: &str, names: &mut Vec<String>) {
    for line in source.lines() {
        let line = strip_words(line, &["export", "declare", "abstract", "default", "async"]);
        for keyword in ["class", "function", "function*", "const", "let", "var", "type", "interface", "enum", "namespace"] {
            if let Some(rest) = line.strip_prefix(keyword).and_then(|r| r.strip_prefix(' ')) {
                if let Some(name) = identifier_at(rest.trim_start()) {
                    names.push(name);
                }
            }
        }
    }
}

fn go(source: &str, names: &mut Vec<String>) {
    let mut block = false;
    for line in source.lines() {
        if block {
            if line.starts_with(')') {
                block = false;
            } else if let Some(rest) = line.strip_prefix('\t') {
                if !rest.starts_with(['\t', ' ', '/']) {
                    names.extend(identifier_at(rest));
                }
            }
            continue;
        }
        for keyword in ["const", "var", "type"] {
            if line == format!("{keyword} (") {
                block = true;
            } else if let Some(rest) = line.strip_prefix(keyword).and_then(|r| r.strip_prefix(' ')) {
                names.extend(identifier_at(rest));
            }
        }
        if let Some(rest) = line.strip_prefix("func ") {
            names.extend(identifier_at(rest));
        }
    }
}

/// Members declared at exactly `indent` spaces in a brace language (Java
/// class body, C# namespace body): type declarations, methods and fields.
fn braces(source: &str, indent: usize, type_words: &[&str], names: &mut Vec<String>) {
    const MODIFIERS: &[&str] = &[
        "public", "private", "protected", "internal", "static", "final", "abstract", "sealed",
        "non-sealed", "default", "synchronized", "readonly", "partial", "unsafe", "override",
        "virtual", "new", "const", "volatile", "transient",
    ];
    for line in source.lines() {
        let Some(body) = line.strip_prefix(&" ".repeat(indent)) else { continue };
        if body.starts_with([' ', '/', '*', '@', '[', '}', '{']) || body.is_empty() {
            continue;
        }
        let body = strip_words(body, MODIFIERS);
        let mut declared_type = false;
        for word in type_words {
            if let Some(rest) = body.strip_prefix(word).and_then(|r| r.strip_prefix(' ')) {
                declared_type = true;
                let rest = rest.trim_start();
                // `delegate T Name<T>(...)`: the name is the identifier before `<` or `(`.
                let head = rest.split(['<', '(', ' ', '{', ':']).collect::<Vec<_>>();
                let name = if *word == "delegate" { rest.split(['<', '(']).next().and_then(|h| h.split_whitespace().last()) } else { head.first().copied() };
                names.extend(name.and_then(identifier_at));
            }
        }
        if declared_type {
            continue;
        }
        // A method or a field: the identifier right before the first `(`, `=` or `;`.
        let end = body.find(['(', '=', ';']).unwrap_or(body.len());
        let head = body[..end].trim_end();
        if let Some(last) = head.split([' ', '>', ']']).next_back() {
            names.extend(identifier_at(last));
        }
    }
}

fn rust(source: &str, names: &mut Vec<String>) {
    for line in source.lines() {
        if line.starts_with([' ', '/', '#', '}']) {
            continue;
        }
        let line = strip_words(line, &["pub", "pub(crate)", "unsafe", "async", "const fn"]);
        for keyword in ["mod", "fn", "struct", "enum", "const", "static", "type", "trait", "union", "macro_rules!"] {
            if let Some(rest) = line.strip_prefix(keyword).and_then(|r| r.strip_prefix(' ')) {
                names.extend(identifier_at(rest.trim_start()));
            }
        }
    }
}
