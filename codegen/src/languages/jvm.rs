//! The JVM row of the support matrix: the word for its name, the files'
//! extension, and the language's rules for both,
//! with the keywords the target escapes.

use super::{dotted, ends_with, Language, Problem};
use crate::model::Sdk;

/// The support matrix's word for Java: the package both classes are in.
pub const LANGUAGE: Language = Language { key: "jvm", name_key: "package", what: "Java package", extension: ".java", check };

/// The package is dotted Java identifiers, and each file is where Java
/// looks for its public class: `Coprocess.java` and `CoprocessClient.java`
/// in the package's directory (`dev.mcptest` is `.../dev/mcptest/`).
fn check(sdk: &Sdk) -> Result<(), Problem> {
    dotted(sdk, "package", "Java package", ".", java_keywords(), "dev.mcptest")?;
    let directory = sdk.namespace.replace('.', "/");
    let why = "where javac and build tools look for a public class of that package";
    ends_with(&sdk.frames, &format!("{directory}/Coprocess.java"), "frames", why)?;
    ends_with(&sdk.client, &format!("{directory}/CoprocessClient.java"), "client", why)
}

/// Java's reserved words and literals, plus the members every generated record
/// has or inherits: a component with one of these names gets a `_` suffix.
pub const MEMBER_KEYWORDS: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
    "var",
    "yield",
    "record",
    "sealed",
    "permits",
    "non",
    "_",
    "hashCode",
    "toString",
    "equals",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
    "toJson",
    "appendJson",
    "fromJson",
    "fromNode",
];

/// Java's reserved words, contextual keywords and literals: the first part
/// of [`MEMBER_KEYWORDS`], up to the members every record has. No package
/// segment may be one.
pub fn java_keywords() -> &'static [&'static str] {
    let end = MEMBER_KEYWORDS.iter().position(|w| *w == "hashCode").unwrap_or(MEMBER_KEYWORDS.len());
    &MEMBER_KEYWORDS[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_keywords_are_the_language_words_not_the_record_members() {
        let words = java_keywords();
        assert!(words.contains(&"class") && words.contains(&"null") && words.contains(&"_"));
        assert!(!words.contains(&"hashCode") && !words.contains(&"wait"));
    }
}
