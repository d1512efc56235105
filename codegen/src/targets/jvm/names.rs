//! Java names and literals: keyword escaping, case conversion through
//! [`crate::names`], string literals safe for any input, Java types.

use crate::model::Ty;
use crate::names;
pub(crate) use crate::languages::jvm::MEMBER_KEYWORDS;

/// Type names the generated file itself uses unqualified (java.lang, java.util,
/// Jackson and its own helper types), its type parameters and every other
/// java.lang type: a `$defs` entry with one of these names gets a `_` suffix
/// so that it cannot shadow or clash with them.
pub(crate) const RESERVED_TYPES: &[&str] = &[
    "Coprocess",
    "Pattern",
    "Object",
    "String",
    "Boolean",
    "Long",
    "Integer",
    "Double",
    "Character",
    "Math",
    "System",
    "StringBuilder",
    "Override",
    "Deprecated",
    "SuppressWarnings",
    "SafeVarargs",
    "FunctionalInterface",
    "Record",
    "Enum",
    "Iterable",
    "Exception",
    "RuntimeException",
    "IllegalArgumentException",
    "IllegalStateException",
    "Error",
    "Throwable",
    "Number",
    "Void",
    "List",
    "Map",
    "Set",
    "Optional",
    "Objects",
    "Iterator",
    "ArrayList",
    "LinkedHashMap",
    "HashMap",
    "ConcurrentHashMap",
    "Collections",
    "IOException",
    "BiConsumer",
    "BigDecimal",
    "BigInteger",
    "MathContext",
    "RoundingMode",
    "JsonNode",
    "ObjectNode",
    "ArrayNode",
    "TextNode",
    "BooleanNode",
    "NullNode",
    "IntNode",
    "LongNode",
    "DoubleNode",
    "JsonNodeType",
    "JsonNodeFactory",
    "JsonFactory",
    "JsonParser",
    "JsonToken",
    "JsonProcessingException",
    "Encodable",
    "DecodeException",
    "HandshakeException",
    "Methods",
    "MethodSpec",
    "ErrorCodes",
    "ErrorCodeSpec",
    "Path",
    "Problem",
    "Regex",
    "Matcher",
    "Decoder",
    "Writer",
    "Nullable",
    "Class",
    "RequestOf",
    "SuccessResponseOf",
    "ResponseOf",
    "ErrorResponseOf",
    // The type parameters the file declares (a nested type of the name would
    // be shadowed: Error Prone's TypeNameShadowing).
    "T",
    "P",
    "R",
    // The rest of java.lang (Java 17): a nested type named like one clashes
    // with it (Error Prone's JavaLangClash) even where the file does not use it.
    "AbstractMethodError",
    "Appendable",
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "ArrayStoreException",
    "AssertionError",
    "AutoCloseable",
    "BootstrapMethodError",
    "Byte",
    "CharSequence",
    "ClassCastException",
    "ClassCircularityError",
    "ClassFormatError",
    "ClassLoader",
    "ClassNotFoundException",
    "ClassValue",
    "CloneNotSupportedException",
    "Cloneable",
    "Comparable",
    "Compiler",
    "EnumConstantNotPresentException",
    "ExceptionInInitializerError",
    "Float",
    "IllegalAccessError",
    "IllegalAccessException",
    "IllegalCallerException",
    "IllegalMonitorStateException",
    "IllegalThreadStateException",
    "IncompatibleClassChangeError",
    "IndexOutOfBoundsException",
    "InheritableThreadLocal",
    "InstantiationError",
    "InstantiationException",
    "InternalError",
    "InterruptedException",
    "LayerInstantiationException",
    "LinkageError",
    "Module",
    "ModuleLayer",
    "NegativeArraySizeException",
    "NoClassDefFoundError",
    "NoSuchFieldError",
    "NoSuchFieldException",
    "NoSuchMethodError",
    "NoSuchMethodException",
    "NullPointerException",
    "NumberFormatException",
    "OutOfMemoryError",
    "Package",
    "Process",
    "ProcessBuilder",
    "ProcessHandle",
    "Readable",
    "ReflectiveOperationException",
    "Runnable",
    "Runtime",
    "RuntimePermission",
    "SecurityException",
    "SecurityManager",
    "Short",
    "StackOverflowError",
    "StackTraceElement",
    "StackWalker",
    "StrictMath",
    "StringBuffer",
    "StringIndexOutOfBoundsException",
    "Thread",
    "ThreadDeath",
    "ThreadGroup",
    "ThreadLocal",
    "TypeNotPresentException",
    "UnknownError",
    "UnsatisfiedLinkError",
    "UnsupportedClassVersionError",
    "UnsupportedOperationException",
    "VerifyError",
    "VirtualMachineError",
];

/// The Java name of a `$defs` type: `Verdict`, or `String_` for a reserved one.
pub fn type_name(name: &str) -> String {
    names::escape_keyword(names::pascal_case(name), RESERVED_TYPES)
}

/// The record component (and accessor) name of a wire field: `duration_ms` →
/// `durationMs`, `class` → `class_`, `_meta` → `meta`.
pub fn field_name(wire: &str) -> String {
    names::escape_keyword(names::camel_case(wire), MEMBER_KEYWORDS)
}

/// The name of the local a decoder keeps a field in: `vDurationMs`. The `v`
/// prefix keeps it apart from the decoder's own locals and the `has` flags.
pub fn local_name(wire: &str) -> String {
    format!("v{}", names::pascal_case(wire))
}

/// The presence flag of a required field in a decoder: `hasDurationMs`.
pub fn flag_name(wire: &str) -> String {
    format!("has{}", names::pascal_case(wire))
}

/// A `static final` constant name: `mcp.cache.set_mode` → `MCP_CACHE_SET_MODE`.
pub fn constant_name(name: &str) -> String {
    let out = names::screaming_snake_case(name);
    match out.chars().next() {
        None => "VALUE".to_string(),
        Some(c) if c.is_ascii_digit() => format!("V{out}"),
        Some(_) => out,
    }
}

/// The enum constants of a string enum, unique: `read_write` → `READ_WRITE`,
/// `2.0` → `V2_0`, `with-dash` → `WITH_DASH`.
pub fn enum_constants(values: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for value in values {
        let mut name = constant_name(value);
        if out.contains(&name) {
            let mut n = 2;
            while out.contains(&format!("{name}_{n}")) {
                n += 1;
            }
            name = format!("{name}_{n}");
        }
        out.push(name);
    }
    out
}

/// A Java string literal for any text: escapes quotes, backslashes, control
/// characters and everything outside ASCII, so the source is pure ASCII.
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for unit in text.encode_utf16() {
        match unit {
            0x22 => out.push_str("\\\""),
            0x5c => out.push_str("\\\\"),
            0x0a => out.push_str("\\n"),
            0x0d => out.push_str("\\r"),
            0x09 => out.push_str("\\t"),
            0x20..=0x7e => out.push(char::from(unit as u8)),
            _ => out.push_str(&format!("\\u{unit:04x}")),
        }
    }
    out.push('"');
    out
}

/// JSON-escapes text into a JSON string (what the decoders print in enum
/// messages), following the same rules as the generated `writeString`.
pub fn json_quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The Java type of a value: primitives where a value is always there, boxed
/// where it may be absent or null (`boxed`), `JsonNode` for any JSON value.
pub fn java_type(ty: &Ty, boxed: bool) -> String {
    match ty {
        Ty::Any => "JsonNode".to_string(),
        Ty::Number { .. } if boxed => "Double".to_string(),
        Ty::Number { .. } => "double".to_string(),
        Ty::Boolean if boxed => "Boolean".to_string(),
        Ty::Boolean => "boolean".to_string(),
        Ty::Integer { .. } if boxed => "Long".to_string(),
        Ty::Integer { .. } => "long".to_string(),
        Ty::String => "String".to_string(),
        Ty::Ref(name) => type_name(name),
        Ty::Array(item) => format!("List<{}>", java_type(item, true)),
        Ty::Nullable(inner) => java_type(inner, true),
        Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => java_type(inner, boxed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;


    #[test]
    fn names() {
        assert_eq!(field_name("class"), "class_");
        assert_eq!(field_name("duration_ms"), "durationMs");
        assert_eq!(field_name("_meta"), "meta");
        assert_eq!(field_name("isError"), "isError");
        assert_eq!(type_name("String"), "String_");
        assert_eq!(
            enum_constants(&["2.0".into(), "with-dash".into(), "default".into()]),
            ["V2_0", "WITH_DASH", "DEFAULT"]
        );
        assert_eq!(string_literal("a\"b\\u\u{e9}"), "\"a\\\"b\\\\u\\u00e9\"");
    }

    /// A `$defs` type named like a class the runtime imports would shadow it
    /// inside `Coprocess` (a `HashMap` type once broke `new HashMap<>()`):
    /// every imported simple name must be escaped.
    #[test]
    fn every_class_the_runtime_imports_is_reserved() {
        let imported: Vec<&str> = include_str!("Runtime.java")
            .lines()
            .filter_map(|line| line.strip_prefix("import ")?.strip_suffix(';')?.rsplit('.').next())
            .collect();
        assert!(imported.contains(&"ArrayList"), "{imported:?}");
        let missing: Vec<&&str> = imported.iter().filter(|name| !RESERVED_TYPES.contains(name)).collect();
        assert!(missing.is_empty(), "imported but not reserved: {missing:?}");
    }
}
