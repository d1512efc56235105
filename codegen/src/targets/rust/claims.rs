//! The names the Rust file declares where a schema name can reach: the
//! module that includes it (`coprocess`), whose type namespace holds every
//! `$defs` type under its own name. Schema names are the `$defs` names (the
//! subset makes them UpperCamelCase, which typify keeps); every other item
//! the rendered file declares at its top level is the SDK's own, read from
//! the file (`Frame`, `DecodeError`, `MethodInfo`, the typed envelopes, ...).
//! Lower-case items (functions, the `strict`, `methods`, ... modules) cannot
//! meet an UpperCamelCase name. The runtime lives in `pub mod strict`, a
//! module of its own, where no schema name reaches, and generated code names
//! the standard library by path (`::std::string::String`), as typify does.

use crate::error::push_pointer;
use crate::model::Contract;
use crate::targets::claims::{self, Scope};
use crate::SchemaError;

/// The one `$defs` name Rust cannot give a type: `Self` is a keyword.
const KEYWORD_TYPE_NAMES: &[&str] = &["Self"];

/// Claims every name of `text`, the file rendered from `contract`.
pub fn claim(contract: &Contract, text: &str) -> Result<Scope, SchemaError> {
    let mut scope = Scope::new(contract, "rust", format!("module `{}`", crate::targets::namespace(contract, "rust")));
    for keyword in KEYWORD_TYPE_NAMES {
        scope.sdk(*keyword, format!("the keyword `{keyword}`"))?;
    }
    for def in contract.types.values() {
        scope.schema(def.name.clone(), format!("the type `$defs/{}`", def.name), &push_pointer("/$defs", &def.name))?;
    }
    scope.sdk_declarations(top_level(text), |name| name.starts_with(|c: char| c.is_ascii_lowercase()))?;
    Ok(scope)
}

/// Every item name declared at column 0 of prettyplease's output, in order:
/// structs, enums, traits, modules, type aliases, constants, statics,
/// functions, and the last segment of a `pub use` (impls declare no name).
pub fn top_level(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let rest = line.strip_prefix("pub ").unwrap_or(line);
        if let Some(path) = rest.strip_prefix("use ") {
            let last = path.trim_end_matches(';').rsplit("::").next().unwrap_or_default();
            out.extend(identifier(last));
            continue;
        }
        for keyword in ["struct ", "enum ", "trait ", "mod ", "type ", "const ", "static ", "fn ", "union "] {
            if let Some(name) = rest.strip_prefix(keyword) {
                out.extend(identifier(name));
            }
        }
    }
    out
}

/// A Rust identifier, raw (`r#type`) or not, without its `r#`.
fn identifier(text: &str) -> Option<&str> {
    claims::identifier(text.strip_prefix("r#").unwrap_or(text))
}

#[cfg(test)]
mod tests {
    use super::top_level;

    #[test]
    fn reads_items_at_column_zero_not_impls_or_nested_items() {
        let text = "pub struct A {\n    pub b: i64,\n}\nimpl A {\n    pub fn c() {}\n}\npub enum D<R> {}\npub mod e {\n    pub const F: i64 = 1;\n}\npub use strict::G;\nfn h() {}\npub trait I: Sized {}\n";
        assert_eq!(top_level(text), ["A", "D", "e", "G", "h", "I"]);
    }

    #[test]
    fn the_client_defaults_are_claimed_with_the_limits() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let contract = crate::load::load(&path, "minimal.json").map(|(c, _)| c).expect("the minimal schema loads");
        let scopes = crate::targets::rust::declare(&contract).expect("declares");
        let kept: Vec<&str> = scopes.iter().flat_map(|scope| scope.sdk_names().map(|(name, _)| name)).collect();
        for name in ["MAX_DEPTH", "CLIENT_CALL_TIMEOUT_MS", "CLIENT_CLOSE_TIMEOUT_MS", "CLIENT_START_TIMEOUT_MS", "CLIENT_STDERR_TAIL_LINES"] {
            assert!(kept.contains(&name), "{name} is not claimed: {kept:?}");
        }
    }
}
