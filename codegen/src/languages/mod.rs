//! What the support matrix needs to know of each target's language, as
//! data of the front end: the loader checks every row of `x-coprocess.sdks`
//! against its language ([`Language::check`]) without importing a target;
//! the targets read their language's keywords from here.

use crate::model::Sdk;

pub mod dotnet;
pub mod go;
pub mod jvm;
pub mod python;
pub mod rust;
pub mod typescript;

/// Every target's language, in the order of the target registry
/// ([`crate::targets::TARGETS`]).
pub const LANGUAGES: &[&Language] = &[&rust::LANGUAGE, &python::LANGUAGE, &typescript::LANGUAGE, &go::LANGUAGE, &jvm::LANGUAGE, &dotnet::LANGUAGE];

/// The language of the target with this key.
pub fn language(key: &str) -> Option<&'static Language> {
    LANGUAGES.iter().copied().find(|language| language.key == key)
}

/// What the support matrix needs to know of one target's language.
pub struct Language {
    /// The target's key, the row's `key` (`go`).
    pub key: &'static str,
    /// The row's key for [`Sdk::namespace`]: `module`, `package` or `namespace`.
    pub name_key: &'static str,
    /// What that name is, for messages and the reference page (`Go package`).
    pub what: &'static str,
    /// The extension both files have (`.go`).
    pub extension: &'static str,
    /// The language's own rules for the name and the paths: `Err` names the
    /// row's key that is wrong, the problem and the fix.
    pub check: fn(&Sdk) -> Result<(), Problem>,
}

/// A row that its language refuses: the row's key at fault, what, and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub key: &'static str,
    pub problem: String,
    pub fix: String,
}

impl Problem {
    pub fn new(key: &'static str, problem: impl Into<String>, fix: impl Into<String>) -> Self {
        Problem { key, problem: problem.into(), fix: fix.into() }
    }
}

/// Whether `word` is an ASCII identifier (a letter or `_`, then letters,
/// digits and `_`) that is not one of `keywords`.
pub fn identifier(word: &str, keywords: &[&str]) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !keywords.contains(&word)
}

/// Checks a name made of identifiers joined by `separator` (`a.b.c`).
pub fn dotted(sdk: &Sdk, key: &'static str, what: &str, separator: &str, keywords: &[&str], example: &str) -> Result<(), Problem> {
    match sdk.namespace.split(separator).find(|segment| !identifier(segment, keywords)) {
        None => Ok(()),
        Some(segment) => Err(Problem::new(
            key,
            format!("`{}` is not a {what}: `{segment}` is not an identifier, or is a keyword", sdk.namespace),
            format!("name it with ASCII identifiers joined by `{separator}`, like `{example}`"),
        )),
    }
}

/// Checks that `path` ends with `tail` (`mcptest/_coprocess.py`), where the
/// language looks for the file of that name.
pub fn ends_with(path: &str, tail: &str, key: &'static str, why: &str) -> Result<(), Problem> {
    if path == tail || path.ends_with(&format!("/{tail}")) {
        return Ok(());
    }
    Err(Problem::new(key, format!("`{path}` does not end with `{tail}`, {why}"), format!("move the file to `.../{tail}`, or rename to match")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_ascii_and_not_keywords() {
        assert!(identifier("_coprocess", &[]) && identifier("a1", &[]));
        assert!(!identifier("1a", &[]) && !identifier("a-b", &[]) && !identifier("", &[]) && !identifier("é", &[]));
        assert!(!identifier("class", &["class"]));
    }
}
