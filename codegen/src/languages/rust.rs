//! The Rust row of the support matrix: the word for its name, the files'
//! extension, and the language's rules for both,
//! with the keywords the target escapes.

use super::{dotted, identifier, Language, Problem};
use crate::model::Sdk;

/// The support matrix's word for Rust: the frames' module path, from the
/// crate (`mcptest_runner::coprocess`).
pub const LANGUAGE: Language = Language { key: "rust", name_key: "module", what: "Rust module", extension: ".rs", check };

/// The module path is `::`-joined identifiers whose last is the frames
/// file's stem (Rust finds module `coprocess` in `coprocess.rs`); both files
/// are modules, not crate roots.
fn check(sdk: &Sdk) -> Result<(), Problem> {
    dotted(sdk, "module", "Rust module path", "::", RUST_KEYWORDS, "mcptest_runner::coprocess")?;
    let module = sdk.namespace.rsplit("::").next().unwrap_or_default();
    let stem = Sdk::stem(&sdk.frames);
    if module != stem {
        return Err(Problem::new("frames", format!("`{}` is not where Rust finds module `{module}`", sdk.frames), format!("name the file `{module}.rs`, or end the module path with `::{stem}`")));
    }
    for (key, path) in [("frames", &sdk.frames), ("client", &sdk.client)] {
        let stem = Sdk::stem(path);
        if !identifier(stem, RUST_KEYWORDS) || ["lib", "main"].contains(&stem) {
            return Err(Problem::new(key, format!("`{path}` is no module file"), "name it after a module, like `coprocess.rs` (not `lib.rs`, `main.rs` or `mod.rs`)"));
        }
    }
    Ok(())
}

/// Rust's keywords, strict, reserved and weak (typify escapes a field named
/// like one as `r#type` or with a `_` suffix, keeping the wire name).
pub const RUST_KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct",
    "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "gen",
    "macro", "override", "priv", "try", "typeof", "unsized", "virtual", "yield", "union", "macro_rules", "raw", "safe",
];
