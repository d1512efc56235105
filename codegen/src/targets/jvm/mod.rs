//! The JVM target: one Java 17 source file, `dev.mcptest.Coprocess`, whose only
//! dependency is Jackson databind. Everything sits in one public final class:
//! the pin and limits, the method and error-code tables, one nested type per
//! `$defs` entry (records, enums, sealed interfaces) with strict decoders and
//! one-line encoders, the handshake and lane helpers, and the strict JSON
//! reader. Concerns live in submodules: [`naming`] (keywords, literals,
//! Javadoc), [`types`] (declarations and encoders), [`decode`] (decoders),
//! [`envelopes`] (`RequestOf<P>`, `ResponseOf<R>`: typed `params`/`result`),
//! [`protocol`] (tables, lanes, handshake) and [`runtime`] (fixed Java text).

mod claims;
mod code;
mod decode;
mod docs;
mod envelopes;
mod layout;
mod naming;
mod protocol;
mod runtime;
mod types;

use crate::model::Contract;
use crate::targets::{header_text, Files};
use code::Code;

/// Where the file goes under the output root.
pub const PATH: &str = "jvm/src/main/java/dev/mcptest/Coprocess.java";

/// Renders `Coprocess.java`.
pub fn generate(contract: &Contract) -> Result<Files, crate::SchemaError> {
    let text = render(contract);
    claims::claim(contract, &text)?;
    let mut files = Files::new();
    files.insert(PATH.to_string(), text);
    Ok(files)
}

/// The word lists this target escapes or avoids (keywords, reserved names).
pub fn keyword_sets() -> Vec<&'static [&'static str]> {
    vec![naming::MEMBER_KEYWORDS, naming::RESERVED_TYPES]
}

/// The runtime template(s), as written.
pub fn runtime_sources() -> Vec<&'static str> {
    vec![runtime::support_types(), runtime::helpers()]
}

/// Every name this target declares where a schema name can reach
/// ([`crate::targets::claims`]).
pub fn declare(contract: &Contract) -> Result<Vec<crate::targets::claims::Scope>, crate::SchemaError> {
    claims::claim(contract, &render(contract))
}


fn render(contract: &Contract) -> String {
    let mut code = Code::new();
    code.line_comment(&header_text(contract));
    code.blank();
    code.line(0, "package dev.mcptest;");
    code.blank();
    // AOSP's import groups (com, then java, ...), a blank line between two.
    let mut group = None;
    for import in runtime::imports() {
        let first = import.split('.').next();
        if group.is_some_and(|g| g != first) {
            code.blank();
        }
        group = Some(first);
        code.line(0, format!("import {import};"));
    }
    code.blank();
    code.doc(0, &class_doc(contract), &[]);
    code.line(0, "public final class Coprocess {");
    code.line(1, "private Coprocess() {}");
    code.blank();
    protocol::render_constants(&mut code, contract);
    protocol::render_methods(&mut code, contract);
    protocol::render_error_codes(&mut code, contract);
    protocol::render_lanes(&mut code, contract);
    protocol::render_handshake(&mut code, contract);
    decode::render_dispatch(&mut code, contract);
    code.blank();
    code.raw(runtime::support_types());
    types::render_types(&mut code, contract);
    envelopes::render_types(&mut code, contract);
    decode::render_decoders(&mut code, contract);
    envelopes::render_decoders(&mut code, contract);
    code.blank();
    code.raw(runtime::helpers());
    code.line(0, "}");
    code.finish()
}

fn class_doc(contract: &Contract) -> String {
    let text = format!(
        "{}.\n\n{}\n\nEach type has `fromJson(String)` and `fromNode(JsonNode)`, which decode strictly and throw \
         `DecodeException` with the contract's wording, and `toJson()`, which writes one line.",
        contract.title, contract.description
    );
    match envelopes::class_doc(contract) {
        Some(envelopes) => format!("{text}\n\n{envelopes}"),
        None => text,
    }
}
