//! C# naming: PascalCase types and members, camelCase parameters with `@`
//! escapes for keywords, and collision-free enum members.

use crate::names;
pub(crate) use crate::languages::dotnet::KEYWORDS;

/// Type names the generated file itself uses unqualified; a `$defs` entry with
/// one of these names gets a `Type` suffix so that nothing is shadowed.
pub(crate) const RESERVED_TYPES: &[&str] = &[
    "Coprocess", "CoprocessDecodeException", "CoprocessVersionException", "CoprocessJson",
    "CoprocessPath", "MethodSpec", "ErrorCodeSpec", "Methods", "ErrorCodes", "JsonElement",
    "JsonValueKind", "JsonDocument", "JsonDocumentOptions", "JsonProperty", "JsonException",
    "JsonReaderOptions", "Utf8JsonReader", "JsonTokenType", "StringBuilder", "List", "Dictionary",
    "ConcurrentDictionary",
    "Func", "Exception", "ArgumentNullException", "ArgumentException", "InvalidOperationException",
    "CultureInfo", "Math", "Action", "StringComparison", "CoprocessShapeException", "IReadOnlyList", "Array", "Encoding", "HashSet", "StringComparer",
    "System", "Type", "CoprocessReader", "CoprocessRead", "CoprocessTextScan", "ArrayPool", "UTF8Encoding", "Utf8Formatter", "CoprocessCodec", "CoprocessCodecs", "RequestOf", "SuccessResponseOf", "ResponseOf",
    // The session client (CoprocessClient.cs): its own types and the System types it names unqualified.
    "CoprocessClient", "CoprocessClientOptions", "CoprocessClientException", "RpcException", "ProtocolException",
    "CallTimeoutException", "SessionClosedException", "CoprocessExitedException", "CoprocessClientMessages", "CallOutcome",
    "TimeSpan", "Task", "ValueTask", "CancellationToken", "CancellationTokenSource", "TaskCompletionSource",
    "TaskCreationOptions", "SemaphoreSlim", "Stream", "Process", "ProcessStartInfo", "Stopwatch", "Queue", "KeyValuePair",
    "IDictionary", "IEnumerable", "IDisposable", "IAsyncDisposable", "IOException", "ObjectDisposedException",
    "NotSupportedException", "Buffer", "Thread", "Monitor", "Interlocked", "CancellationTokenRegistration",
    // What its reads of a spawned coprocess's pipes name (poll(2), epoll(7), read(2), write(2) and a
    // timerfd, P/Invoked).
    "Volatile", "Marshal", "SafeHandle", "IntPtr", "UIntPtr", "FileStream", "PipeStream", "ArraySegment",
    "DllImport", "DllImportAttribute", "StructLayout", "StructLayoutAttribute", "LayoutKind",
    "DllNotFoundException", "EntryPointNotFoundException", "RuntimeInformation", "OSPlatform", "Architecture",
    "BitConverter", "Span",
    // And the frames' runtime (Coprocess.cs).
    "JsonCommentHandling", "NumberStyles", "ThreadStatic", "ThreadStaticAttribute",
    "TaskScheduler",
    // Its single-pass readers.
    "CoprocessPlainReader", "CoprocessPlainRead", "ReadOnlySpan",
];

/// Member names every generated class declares or inherits.
pub(crate) const RESERVED_MEMBERS: &[&str] = &[
    "Read", "ReadPlain", "Write", "Decode", "FromJson", "ToJson", "Equals", "GetHashCode", "ToString",
    "GetType", "MemberwiseClone", "ReferenceEquals", "Value",
];

/// The members every generated type declares or inherits from `object`: a
/// type of one of these names could not declare them (CS0542), and inside a
/// class body the name would be the member, not the type; it takes the `Type`
/// suffix too.
const CODEC_MEMBERS: &[&str] = &[
    "Read", "Write", "Decode", "FromJson", "ToJson", "Equals", "GetHashCode", "ToString", "GetType",
    "MemberwiseClone", "ReferenceEquals", "Finalize",
];

/// The types the session client's runtime nests in its classes (`Pipes`,
/// `AnswerLayout`, ...), read off its template. Inside `CoprocessClient`,
/// where the typed methods name the contract's types unqualified, such a
/// name is the nested type (a `$defs` type `Pipes` as a method's result was
/// CS0050), so a `$defs` type of one of these names takes the `Type` suffix
/// too. (The namespace's own types are claimed: `claims.rs`.)
pub(crate) fn client_nested_types() -> &'static [&'static str] {
    static NESTED: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NESTED.get_or_init(|| nested_types(super::client::RUNTIME_FILE))
}

/// The types a C# text declares inside another type (indented past the
/// namespace body's four spaces), sorted and once each.
fn nested_types(text: &'static str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = text
        .lines()
        .map(|line| (line.len() - line.trim_start().len(), line.trim_start()))
        .filter(|(indent, _)| *indent > 4)
        .filter_map(|(_, body)| super::claims::declared_type(body))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The C# name of a `$defs` type: PascalCase, with a `Type` suffix when the
/// file uses that name unqualified, the client nests a type of it, or every
/// type declares a member of it.
pub fn type_name(def: &str) -> String {
    let name = names::pascal_case(def);
    let name_str = name.as_str();
    if RESERVED_TYPES.contains(&name_str) || CODEC_MEMBERS.contains(&name_str) || client_nested_types().contains(&name_str) {
        name + "Type"
    } else {
        name
    }
}

/// The companion static class of a string enum (its decoder and encoder).
pub fn enum_wire_name(def: &str) -> String {
    type_name(def) + "Wire"
}

/// A property name: PascalCase, never the enclosing type's name nor a member
/// the generated class declares.
pub fn member_name(wire: &str, owner: &str) -> String {
    let mut name = names::pascal_case(wire);
    if name.chars().next().is_none_or(|c| c.is_ascii_digit()) {
        name = format!("Field{name}");
    }
    if name == owner || RESERVED_MEMBERS.contains(&name.as_str()) {
        name.push_str("Value");
    }
    name
}

/// A parameter name: camelCase, `@`-escaped when it is a keyword.
pub fn param_name(wire: &str) -> String {
    let name = names::camel_case(wire);
    if name.chars().next().is_none_or(|c| c.is_ascii_digit()) {
        return format!("_{name}");
    }
    if KEYWORDS.contains(&name.as_str()) {
        format!("@{name}")
    } else {
        name
    }
}

/// A local holding a decoded field: `_` + camelCase, never clashing with the
/// decoder's own locals.
pub fn local_name(wire: &str) -> String {
    format!("_{}", names::camel_case(wire))
}

/// Enum member names for the values, in order: PascalCase, `V`-prefixed when
/// the value starts with a digit (`2.0` → `V2_0`), numbered on a collision.
pub fn enum_members(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for value in values {
        let words = names::words(value);
        let mut name = names::pascal_case(value);
        if name.is_empty() {
            name = "Empty".to_string();
        } else if name.starts_with(|c: char| c.is_ascii_digit()) {
            name = format!("V{}", words.join("_"));
        }
        let base = name.clone();
        let mut n = 2;
        while out.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        out.push(name);
    }
    out
}

/// A C# string literal.
pub fn string_literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The text as a JSON string (what the encoder writes for a key or enum value).
pub fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(param_name("class"), "@class");
        assert_eq!(param_name("duration_ms"), "durationMs");
        assert_eq!(member_name("_meta", "ToolCallPassthrough"), "Meta");
        assert_eq!(member_name("label", "Label"), "LabelValue");
        assert_eq!(enum_members(&["2.0".into()]), vec!["V2_0"]);
        assert_eq!(enum_members(&["with-dash".into(), "with_dash".into()]), vec!["WithDash", "WithDash2"]);
        assert_eq!(type_name("Type"), "TypeType");
        assert_eq!(string_literal("a\"b"), "\"a\\\"b\"");
    }
}

#[cfg(test)]
mod nested_tests {
    /// The client's nested types are read off its template, and a `$defs`
    /// type named like one takes the suffix (`Pipes` once broke the client).
    #[test]
    fn a_type_named_like_a_nested_client_type_takes_the_suffix() {
        let nested = super::client_nested_types();
        for name in ["Pipes", "AnswerWait", "Descriptor", "PollDescriptor", "AnswerLayout"] {
            assert!(nested.contains(&name), "{name} not in {nested:?}");
        }
        assert!(!nested.contains(&"CoprocessClient"), "a namespace-level type read as nested");
        assert_eq!(super::type_name("pipes"), "PipesType");
        assert_eq!(super::type_name("answer_layout"), "AnswerLayoutType");
        assert_eq!(super::type_name("Pipe"), "Pipe");
    }
}

#[cfg(test)]
mod reserved_tests {
    use super::*;

    /// The capitalised names a C# template uses unqualified where a type of the
    /// same name in the generated namespace would be found first: a member read
    /// (`Math.Round`), a construction (`new Stopwatch()`), an attribute
    /// (`[DllImport(...)]`), a base (`: SafeHandle`) or a type test (`catch
    /// (IOException`, `is FileStream`). Comments and string literals are skipped.
    fn unqualified_uses(template: &str) -> std::collections::BTreeSet<String> {
        let mut uses = std::collections::BTreeSet::new();
        for line in template.lines().map(str::trim_start).filter(|line| !line.starts_with("//") && !line.starts_with("namespace ")) {
            let code = without_strings(line);
            let bytes = code.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                if !bytes[i].is_ascii_alphabetic() || (i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) {
                    i += 1;
                    continue;
                }
                let end = bytes[i..].iter().position(|b| !b.is_ascii_alphanumeric() && *b != b'_').map_or(bytes.len(), |n| i + n);
                let (name, before, after) = (&code[i..end], &code[..i], &code[end..]);
                let qualified = before.ends_with('.') || before.ends_with("::");
                let used = after.starts_with('.')
                    || [" new ", "(new ", "[", ": ", "catch (", " is ", " as ", "typeof("].iter().any(|p| before.ends_with(p) || before == p.trim_start());
                // A generic type (`Span<byte>`) is looked up by its arity, which no `$defs` type has.
                let generic = after.starts_with('<');
                // `T`, `TResult`: a type parameter, which shadows any type itself.
                let parameter = name == "T" || (name.len() > 1 && name.starts_with('T') && name[1..].starts_with(|c: char| c.is_ascii_uppercase()));
                if name.starts_with(|c: char| c.is_ascii_uppercase()) && !qualified && !parameter && !generic && used {
                    uses.insert(name.to_string());
                }
                i = end;
            }
        }
        uses
    }

    /// The types a C# template declares itself (and the role placeholders its emitter fills).
    fn declared_types(template: &str) -> std::collections::BTreeSet<String> {
        let words: Vec<&str> = template.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
        let mut declared: std::collections::BTreeSet<String> =
            words.windows(2).filter(|w| ["class", "struct", "enum", "interface"].contains(&w[0])).map(|w| w[1].to_string()).collect();
        declared.extend(words.iter().filter(|w| w.starts_with("Role")).map(|w| (*w).to_string()));
        // Members: the name before `=`, `;`, `(` or `{` on a line that declares one, which
        // the class's own code finds before any type.
        for line in template.lines().map(str::trim_start) {
            if ["private ", "internal ", "public ", "protected "].iter().any(|m| line.starts_with(m)) {
                let before_end = line.find([';', '(', '=', '{']).map_or(line, |end| &line[..end]);
                declared.extend(before_end.split_whitespace().last().map(str::to_string));
            }
        }
        declared
    }

    /// `line` with the text of its string and character literals blanked.
    fn without_strings(line: &str) -> String {
        let mut out = String::with_capacity(line.len());
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for c in line.chars() {
            match quote {
                Some(q) => {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == q {
                        quote = None;
                        out.push(c);
                        continue;
                    }
                    out.push(' ');
                }
                None => {
                    if c == '"' || c == '\'' {
                        quote = Some(c);
                    }
                    out.push(c);
                }
            }
        }
        out
    }

    /// A `$defs` type named like a System type that the runtimes name
    /// unqualified would be found first in the generated namespace (the names
    /// proof's `Volatile`, from Java's keyword, once broke `Volatile.Read`
    /// in the client): every such name must be reserved.
    #[test]
    fn every_system_type_the_runtimes_name_unqualified_is_reserved() {
        for (file, template) in [("runtime.cs", super::super::RUNTIME_FILE), ("client_runtime.cs", super::super::client::RUNTIME_FILE)] {
            let declared = declared_types(template);
            let uses = unqualified_uses(template);
            assert!(uses.contains("Math") || uses.contains("Encoding"), "{file}: {uses:?}");
            let missing: Vec<&String> = uses.iter().filter(|name| !RESERVED_TYPES.contains(&name.as_str()) && !declared.contains(*name)).collect();
            assert!(missing.is_empty(), "{file} names these unqualified and does not reserve them: {missing:?}");
        }
    }
}
