//! The TypeScript row of the support matrix: the word for its name, the files'
//! extension, and the language's rules for both.

use super::{Language, Problem};
use crate::model::Sdk;

/// The support matrix's word for TypeScript: the npm package the SDK ships as.
pub const LANGUAGE: Language = Language { key: "typescript", name_key: "module", what: "npm package", extension: ".ts", check };

/// The package is an npm package name (`@scope/name` or `name`: lower case,
/// URL-safe); neither file is a declaration file.
fn check(sdk: &Sdk) -> Result<(), Problem> {
    let name = sdk.namespace.as_str();
    let part = |s: &str| !s.is_empty() && !s.starts_with(['.', '_']) && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_' | '~'));
    let valid = match name.strip_prefix('@').map(|scoped| scoped.split_once('/')) {
        Some(Some((scope, package))) => part(scope) && part(package),
        Some(None) => false,
        None => part(name),
    };
    if !valid || name.len() > 214 {
        return Err(Problem::new("module", format!("`{name}` is not an npm package name"), "use lower-case letters, digits and `-._~`, optionally scoped, like `@mcptest/sdk`"));
    }
    for (key, path) in [("frames", &sdk.frames), ("client", &sdk.client)] {
        if path.ends_with(".d.ts") {
            return Err(Problem::new(key, format!("`{path}` is a declaration file"), "name a `.ts` module, like `coprocess.ts`"));
        }
    }
    Ok(())
}
