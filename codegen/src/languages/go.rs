//! The Go row of the support matrix: the word for its name, the files'
//! extension, and the language's rules for both,
//! with the keywords the target escapes.

use super::{identifier, Language, Problem};
use crate::model::Sdk;

/// The support matrix's word for Go: the package both files declare.
pub const LANGUAGE: Language = Language { key: "go", name_key: "package", what: "Go package", extension: ".go", check };

/// The package is a Go identifier other than a keyword, and not `main` (the
/// SDK is a library); neither file is a test file.
fn check(sdk: &Sdk) -> Result<(), Problem> {
    let package = sdk.namespace.as_str();
    if !identifier(package, KEYWORDS) || package == "_" || package == "main" {
        return Err(Problem::new("package", format!("`{package}` cannot name the Go package of a library"), "use a Go identifier that is no keyword and not `main`, like `mcptest`"));
    }
    for (key, path) in [("frames", &sdk.frames), ("client", &sdk.client)] {
        if path.ends_with("_test.go") {
            return Err(Problem::new(key, format!("`{path}` is a Go test file, which only `go test` compiles"), "drop the `_test` suffix"));
        }
    }
    Ok(())
}

/// Go's keywords: no package can be named like one.
pub const KEYWORDS: &[&str] = &[
    "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if",
    "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var",
];
