//! The one error type of schema loading and generation: it always names the
//! file, the JSON pointer into it, what is wrong, and how to fix it.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem with the schema (or with writing the output), located precisely.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// The schema file (or output path) the problem is in.
    pub file: PathBuf,
    /// RFC 6901 JSON pointer to the offending value ("" is the whole document).
    pub pointer: String,
    /// What is wrong.
    pub problem: String,
    /// How to fix it.
    pub fix: String,
}

impl SchemaError {
    pub fn new(
        file: &Path,
        pointer: impl Into<String>,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Self {
            file: file.to_path_buf(),
            pointer: pointer.into(),
            problem: problem.into(),
            fix: fix.into(),
        }
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "(document root)" } else { &self.pointer };
        write!(
            f,
            "{}: at {}: {}\n  fix: {}",
            self.file.display(),
            pointer,
            self.problem,
            self.fix
        )
    }
}

impl std::error::Error for SchemaError {}

/// Appends one reference token to a JSON pointer, escaping `~` and `/`.
pub fn push_pointer(pointer: &str, token: &str) -> String {
    let escaped = token.replace('~', "~0").replace('/', "~1");
    format!("{pointer}/{escaped}")
}
