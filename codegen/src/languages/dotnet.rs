//! The .NET row of the support matrix: the word for its name, the files'
//! extension, and the language's rules for both,
//! with the keywords the target escapes.

use super::{dotted, Language, Problem};
use crate::model::Sdk;

/// The support matrix's word for .NET: the namespace both files declare.
pub const LANGUAGE: Language = Language { key: "dotnet", name_key: "namespace", what: ".NET namespace", extension: ".cs", check };

/// The namespace is dotted C# identifiers that are no keywords.
fn check(sdk: &Sdk) -> Result<(), Problem> {
    dotted(sdk, "namespace", ".NET namespace", ".", KEYWORDS, "Mcptest.Sdk")
}

/// The C# keywords (reserved, not contextual): a camelCase parameter or local
/// with one of these names is written with a leading `@`.
pub const KEYWORDS: &[&str] = &[
    "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked", "class",
    "const", "continue", "decimal", "default", "delegate", "do", "double", "else", "enum", "event",
    "explicit", "extern", "false", "finally", "fixed", "float", "for", "foreach", "goto", "if",
    "implicit", "in", "int", "interface", "internal", "is", "lock", "long", "namespace", "new",
    "null", "object", "operator", "out", "override", "params", "private", "protected", "public",
    "readonly", "ref", "return", "sbyte", "sealed", "short", "sizeof", "stackalloc", "static",
    "string", "struct", "switch", "this", "throw", "true", "try", "typeof", "uint", "ulong",
    "unchecked", "unsafe", "ushort", "using", "virtual", "void", "volatile", "while",
];
