//! The Rust target: typify renders the `$defs` as serde types (the same path
//! `build.rs` uses), a syn pass tightens what typify leaves loose, and the
//! rest (pin, tables, frame decoding, handshake, lanes) is rendered from the
//! model. Formatted with prettyplease.

mod envelopes;
mod extras;
mod typify_pass;

use crate::model::Contract;
use crate::targets::{header_text, Files};
use crate::SchemaError;

/// The path of the Rust SDK's pin under the output root.
pub const SDK_PATH: &str = "rust/mcptest-runner/src/coprocess.rs";

/// How the generated Rust is meant to be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// The Rust SDK's file: serde, serde_json and serde_path_to_error only.
    Sdk,
    /// The protocol crate's own copy (OUT_DIR): also derives `schemars::JsonSchema`
    /// so the round trip back to a schema can be tested.
    WithJsonSchema,
}

/// Renders the whole Rust module text (header included).
pub fn render(contract: &Contract, flavor: Flavor) -> Result<String, SchemaError> {
    let types = typify_pass::types(contract, &contract.raw, flavor)?;
    let mut extras = extras::items(contract);
    extras.extend(envelopes::decoding(contract));
    if flavor == Flavor::WithJsonSchema {
        extras.extend(extras::json_schema_of(contract));
    }
    let file: syn::File = syn::parse2(quote::quote! { #types #extras }).map_err(|e| {
        SchemaError::new(std::path::Path::new(&contract.source), "", format!("the Rust target produced invalid tokens: {e}"), "report this as a codegen bug")
    })?;
    let body = prettyplease::unparse(&file);
    Ok(format!(
        "// {}\n//\n// {}: strict frame types for the Rust SDK.\n\n{}\n{}",
        header_text(contract),
        contract.title,
        body,
        include_str!("runtime.rs")
    ))
}

/// The Rust SDK file (typify reads the `$defs` from `Contract::raw`).
pub fn generate(contract: &Contract) -> Result<Files, SchemaError> {
    declare(contract)?;
    let mut files = Files::new();
    files.insert(SDK_PATH.to_string(), render(contract, Flavor::Sdk)?);
    Ok(files)
}

/// The word lists this target escapes or avoids (keywords, reserved names).
pub fn keyword_sets() -> Vec<&'static [&'static str]> {
    Vec::new()
}

/// The runtime template(s), as written.
pub fn runtime_sources() -> Vec<&'static str> {
    vec![include_str!("runtime.rs")]
}

/// Every name this target declares where a schema name can reach
/// ([`crate::targets::claims`]).
pub fn declare(contract: &Contract) -> Result<Vec<crate::targets::claims::Scope>, crate::SchemaError> {
    let _ = contract;
    Ok(Vec::new())
}
