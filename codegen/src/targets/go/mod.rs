//! The Go target: one file of the support matrix's package (by default
//! `go/coprocess.go`, package `mcptest`) and the session client beside it,
//! standard library only.
//!
//! The file holds, in order: the header and package doc, the pin and limits,
//! the method table, the error codes, the message templates, the lanes, the
//! handshake helpers, one section per `$defs` type (declaration, public
//! decoders, `MarshalJSON`, `EnvelopeMember` methods, internal decoder and
//! writer), the typed envelopes, the composite helpers, `DecodeByName`, and
//! the schema-independent runtime (strict JSON parser, kind checks, writer).
//! The output is gofmt-clean as emitted.

/// Appends a formatted line (writing into a String cannot fail).
macro_rules! line {
    ($out:expr, $($arg:tt)*) => {{
        writeln!($out, $($arg)*).ok();
    }};
}

mod claims;
mod client;
mod codecs;
mod docs;
mod envelopes;
mod names;
mod protocol;
mod roles;
mod runtime;
mod types;

use std::collections::BTreeMap;

use crate::model::{Contract, Sdk};
use crate::targets::{prune, Files, REGENERATE_COMMAND};

/// Rendering state: the contract and the composite helpers needed so far.
pub struct Ctx<'a> {
    pub contract: &'a Contract,
    /// Generated helper functions by name (deduplicated, emitted sorted).
    pub helpers: BTreeMap<String, String>,
    /// The type parameter of the typed envelope being rendered (`P`), read
    /// and written through `EnvelopeMember`; None elsewhere.
    pub type_param: Option<String>,
}

impl<'a> Ctx<'a> {
    pub fn new(contract: &'a Contract) -> Self {
        Ctx { contract, helpers: BTreeMap::new(), type_param: None }
    }
}

pub fn generate(contract: &Contract) -> Result<Files, crate::SchemaError> {
    let sdk = crate::targets::sdk(contract, "go")?;
    let client = client::render(contract, sdk)?;
    let text = render(contract, sdk, &client)?;
    claims::claim(contract, &format!("{text}{client}"))?;
    client::claim_methods(contract, &client)?;
    let mut files = Files::new();
    files.insert(sdk.frames.clone(), text);
    files.insert(sdk.client.clone(), client);
    Ok(files)
}

/// The word lists this target escapes or avoids (keywords, reserved names).
pub fn keyword_sets() -> Vec<&'static [&'static str]> {
    Vec::new()
}

/// The runtime template(s), as written.
pub fn runtime_sources() -> Vec<&'static str> {
    vec![runtime::body(), client::body(client::SOURCE)]
}

/// Every name this target declares where a schema name can reach
/// ([`crate::targets::claims`]).
pub fn declare(contract: &Contract) -> Result<Vec<crate::targets::claims::Scope>, crate::SchemaError> {
    let sdk = crate::targets::sdk(contract, "go")?;
    let client = client::render(contract, sdk)?;
    Ok(vec![claims::claim(contract, &format!("{}{client}", render(contract, sdk, &client)?))?])
}


/// `coprocess.go`; `client` is `client.go`, whose use of the runtime's
/// helpers keeps them too.
fn render(contract: &Contract, sdk: &Sdk, client: &str) -> Result<String, crate::SchemaError> {
    let mut ctx = Ctx::new(contract);
    let mut out = String::new();
    ctx.limits(&mut out);
    ctx.methods(&mut out);
    ctx.error_codes(&mut out);
    ctx.messages(&mut out);
    ctx.lanes(&mut out);
    ctx.handshake(&mut out)?;
    ctx.patterns(&mut out);
    for def in contract.types.values() {
        out.push('\n');
        out.push_str(&ctx.type_decl(def));
        out.push_str(&ctx.codec(def));
    }
    let mut envelopes = String::new();
    ctx.envelopes(&mut envelopes)?;
    out.push_str(&envelopes);
    for code in ctx.helpers.values() {
        out.push('\n');
        out.push_str(code);
    }
    ctx.decode_by_name(&mut out);
    // Only the helpers this schema's code reaches, and only the imports they
    // and it use: no dead code, whatever the schema (staticcheck's U1000).
    let body = out;
    let runtime = prune::prune(runtime::body(), &format!("{body}{client}"), private_name);
    let mut out = preamble(contract, sdk, &format!("{body}{runtime}"));
    out.push_str(&body);
    out.push('\n');
    out.push_str(&runtime);
    Ok(out)
}

/// Whether `code` (strings and comments blanked) names something of
/// `package` (`strconv.` not preceded by an identifier character): an import
/// kept for a mention in a comment would not compile.
fn uses_package(code: &str, package: &str) -> bool {
    code.match_indices(&format!("{package}.")).any(|(at, _)| !code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
}

/// The name a runtime declaration keeps unexported (a function, method, type,
/// variable or constant), if any.
fn private_name(line: &str) -> Option<&str> {
    // `func (e *shapeError) atIndex(...)`: the method's name follows the receiver.
    let name = match line.strip_prefix("func (").and_then(|rest| rest.split_once(") ")) {
        Some((_, method)) => crate::targets::claims::identifier(method)?,
        None => prune::declared(line, &["func ", "type ", "var ", "const "])?,
    };
    name.starts_with(|c: char| c.is_ascii_lowercase()).then_some(name)
}

/// The header, package doc, package clause and the imports `code` uses.
fn preamble(contract: &Contract, sdk: &Sdk, code: &str) -> String {
    let code = prune::code_only(code);
    let mut out = format!(
        "// Code generated by \"{REGENERATE_COMMAND}\" from {}. DO NOT EDIT.\n\n",
        contract.source
    );
    let doc = format!(
        "Package {} holds the {}, generated from {}: {}",
        sdk.namespace, contract.title, contract.source, contract.description
    );
    docs::comment(&mut out, 0, &doc);
    out.push_str("//\n");
    docs::comment(
        &mut out,
        0,
        &format!("Regenerate with `{REGENERATE_COMMAND}`; change the schema, not this file."),
    );
    out.push_str(&format!("package {}\n\nimport (\n", sdk.namespace));
    for import in runtime::imports() {
        let package = import.rsplit('/').next().unwrap_or(import);
        if uses_package(&code, package) {
            out.push_str(&format!("\t\"{import}\"\n"));
        }
    }
    out.push_str(")\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::{private_name, prune, uses_package};

    #[test]
    fn unexported_functions_methods_and_types_are_private_exported_ones_are_not() {
        assert_eq!(private_name("func readInt(v any) (int64, *shapeError) {"), Some("readInt"));
        assert_eq!(private_name("func (e *shapeError) atIndex(i int) *shapeError {"), Some("atIndex"));
        assert_eq!(private_name("type shapeError struct {"), Some("shapeError"));
        assert_eq!(private_name("func (e *DecodingError) Error() string {"), None);
        assert_eq!(private_name("func ParseJSON(text []byte) (any, error) {"), None);
    }

    #[test]
    fn a_package_is_used_when_code_names_it_not_a_comment_or_a_longer_name() {
        let code = prune::code_only("x := strconv.Itoa(1) // see math.Abs\ny := \"sort.Slice\"\nmyjson.Marshal()");
        assert!(uses_package(&code, "strconv"));
        assert!(!uses_package(&code, "math") && !uses_package(&code, "sort") && !uses_package(&code, "json"));
    }

    #[test]
    fn a_helper_nothing_reaches_is_dropped() {
        let runtime = "func used() {\n\tkept()\n}\n\nfunc kept() {}\n\nfunc writeComma(b []byte) []byte {\n\treturn b\n}\n\nfunc (e *x) atIndex() {}";
        let pruned = prune::prune(runtime, "func F() { used() }", private_name);
        assert!(pruned.contains("func used") && pruned.contains("func kept"), "{pruned}");
        assert!(!pruned.contains("writeComma") && !pruned.contains("atIndex"), "{pruned}");
    }
}
