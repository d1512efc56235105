//! The JVM target: one Java 17 source file, class `Coprocess` of the support
//! matrix's package (by default `dev.mcptest.Coprocess`), whose only
//! dependency is Jackson databind. Everything sits in one public final class:
//! the pin and limits, the method and error-code tables, one nested type per
//! `$defs` entry (records, enums, sealed interfaces) with strict decoders and
//! one-line encoders, the handshake and lane helpers, and the strict JSON
//! reader. Concerns live in submodules, named as in every target: [`names`]
//! (identifiers, keywords, literals, Java types), [`claims`], [`docs`]
//! (Javadoc), [`types`] (one declaration per `$defs` type, with its one-line
//! encoder, which Java keeps inside the record), [`codecs`] (the strict
//! decoders), [`envelopes`] (`RequestOf<P>`, `ResponseOf<R>`: typed
//! `params`/`result`), [`protocol`] (tables, lanes, handshake), [`layout`]
//! (the line writer and google-java-format's line fitting) and [`runtime`]
//! (`Runtime.java`, spliced in and pruned).

mod claims;
mod client;
mod codecs;
mod docs;
mod envelopes;
mod layout;
mod names;
mod protocol;
mod runtime;
mod types;

use crate::model::{Contract, Sdk};
use crate::targets::{header_text, prune, Files};
use layout::Code;

/// Renders `Coprocess.java` and `CoprocessClient.java`.
pub fn generate(contract: &Contract) -> Result<Files, crate::SchemaError> {
    let sdk = crate::targets::sdk(contract, "jvm")?;
    let client = client::render(contract, sdk)?;
    let text = render(contract, sdk, &client)?;
    claims::claim(contract, &text)?;
    let mut files = Files::new();
    files.insert(sdk.frames.clone(), text);
    files.insert(sdk.client.clone(), client);
    Ok(files)
}

/// The word lists this target escapes or avoids (keywords, reserved names).
pub fn keyword_sets() -> Vec<&'static [&'static str]> {
    vec![names::MEMBER_KEYWORDS, names::RESERVED_TYPES]
}

/// The runtime template(s), as written: `Runtime.java`'s sections, and
/// `ClientRuntime.java`'s (the session client's members).
pub fn runtime_sources() -> Vec<&'static str> {
    let mut sources = vec![runtime::support_types(), runtime::helpers()];
    sources.extend(client::sources());
    sources
}

/// Every name this target declares where a schema name can reach
/// ([`crate::targets::claims`]).
pub fn declare(contract: &Contract) -> Result<Vec<crate::targets::claims::Scope>, crate::SchemaError> {
    let sdk = crate::targets::sdk(contract, "jvm")?;
    claims::claim(contract, &render(contract, sdk, &client::render(contract, sdk)?)?)
}


/// `Coprocess.java`; `client` (`CoprocessClient.java`) may call its
/// package-private runtime members too, which the pruning keeps.
fn render(contract: &Contract, sdk: &Sdk, client: &str) -> Result<String, crate::SchemaError> {
    let mut code = Code::new();
    code.doc(0, &docs::class_doc(contract), &[]);
    code.line(0, "public final class Coprocess {");
    code.line(1, "private Coprocess() {}");
    code.blank();
    protocol::render_constants(&mut code, contract);
    protocol::render_methods(&mut code, contract);
    protocol::render_error_codes(&mut code, contract);
    protocol::render_lanes(&mut code, contract);
    protocol::render_handshake(&mut code, contract)?;
    codecs::render_dispatch(&mut code, contract);
    code.blank();
    code.raw(runtime::support_types());
    types::render_types(&mut code, contract);
    envelopes::render_types(&mut code, contract);
    codecs::render_decoders(&mut code, contract);
    envelopes::render_decoders(&mut code, contract);
    let mut body = code.finish();
    // The private runtime, without what this schema's code never reaches
    // (Error Prone's UnusedMethod), then the imports the file still needs
    // (google-java-format removes an unused one).
    let private = if envelopes::any(contract) {
        format!("{}\n{}", runtime::member_support(), runtime::helpers())
    } else {
        runtime::helpers().to_string()
    };
    // The pruner only asks whether a name is used: the body's distinct
    // identifiers that can use a runtime member say as much as the whole
    // body, in a fraction of the text.
    let used = prune::code_only(&format!("{body}\n{client}"));
    let names = runtime::used_names(&used).into_iter().collect::<Vec<_>>().join(" ");
    let kept = prune::prune_indented(private.trim_end(), &names, 4, runtime::private_name);
    body.push('\n');
    body.push_str(&kept);
    body.push_str("\n}\n");

    let mut code = Code::new();
    code.line_comment(&header_text(contract));
    code.blank();
    code.line(0, format!("package {};", sdk.namespace));
    code.blank();
    // AOSP's import groups (com, then java, ...), a blank line between two.
    // A name in a Javadoc comment (`{@code HashMap}`) is no use either.
    let used: std::collections::HashSet<&str> = prune::code_identifiers(&body).collect();
    let mut group = None;
    for import in runtime::imports() {
        let simple = import.rsplit('.').next().unwrap_or(import);
        if !used.contains(simple) {
            continue;
        }
        let first = import.split('.').next();
        if group.is_some_and(|g| g != first) {
            code.blank();
        }
        group = Some(first);
        code.line(0, format!("import {import};"));
    }
    code.blank();
    let mut text = code.finish();
    text.push_str(&body);
    Ok(text)
}



#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_private_runtime_keeps_only_what_the_code_reaches() {
        assert_eq!(runtime::private_name("private static boolean decodeBoolean(JsonNode node, Path path) {"), Some("decodeBoolean"));
        assert_eq!(runtime::private_name("private static <T> Map.Entry<Class<?>, Decoder<?>> member(Class<T> type) {"), Some("member"));
        assert_eq!(runtime::private_name("private static final long MAX_SAFE_INTEGER = 9007199254740991L;"), Some("MAX_SAFE_INTEGER"));
        assert_eq!(runtime::private_name("private interface Decoder<T> {"), Some("Decoder"));
        assert_eq!(runtime::private_name("public interface Encodable {"), None);
        let runtime = "    /** Used. */\n    private static void used() {\n        helper();\n    }\n\n    private static void helper() {}\n\n    @FunctionalInterface\n    private interface Unused {}\n\n    private static void unused() {}";
        let kept = prune::prune_indented(runtime, "    void f() {\n        used();\n    }", 4, runtime::private_name);
        assert!(kept.contains("void used()") && kept.contains("void helper()"), "{kept}");
        assert!(!kept.contains("Unused") && !kept.contains("unused()"), "{kept}");
    }
}
