//! The session client, a second module of the Rust SDK crate, declared
//! beside the frames' module (by default `rust/mcptest-runner/src/client.rs`
//! beside `coprocess.rs`: `pub mod coprocess; pub mod client;`), which it
//! names `coprocess`.
//!
//! The schema-independent session (spawn, handshake, one request in flight,
//! every answer checked, timeouts, exit reporting, close) is
//! `client_runtime.rs`, rustfmt-formatted Rust written with role placeholders
//! (checked as rendered, in every client file); this module adds
//! what the method table and the roles say: one typed method per entry (the
//! handshake aside), the method `close` sends (the `close` role), and
//! `call_outcome` where the contract has the `call` role (for v2.json
//! `mcp.call`, whose result is a `Verdict`/`ToolCallPassthrough` union). That
//! part is printed by the layout printer, as rustfmt prints it. The runtime
//! names the role types by placeholders, filled in here ([`super::roles`]).

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{CallRole, Contract, Method, Sdk};
use crate::load::method_words;
use crate::names::screaming_snake_case;
use crate::targets::header_text;
use crate::SchemaError;
use crate::targets::client::{call_outcome as call_role, close_method};

use super::layout;
use super::names::ident;
use super::RUST_KEYWORDS;

/// The session code every client carries, the role types named by their
/// placeholders ([`super::roles`]).
pub const RUNTIME: &str = include_str!("client_runtime.rs");

/// How `client_runtime.rs` imports the frames: the default module, which
/// [`import_line`] replaces with the support matrix's.
const TEMPLATE_IMPORT: &str = "use super::coprocess::{self, messages, Frame};\n";

/// The import of the frames' module (its file's stem, a sibling module)
/// under the name the client uses, `coprocess`.
fn import_line(sdk: &Sdk) -> String {
    match Sdk::stem(&sdk.frames) {
        "coprocess" => TEMPLATE_IMPORT.to_string(),
        module => format!("use super::{module}::{{self as coprocess, messages, Frame}};\n"),
    }
}

/// Names a client method cannot take besides the runtime's own: clippy
/// expects a method `new` to return `Self` (`new_ret_no_self`).
const RESERVED: &[&str] = &["new"];

/// The methods of the runtime's `CoprocessClient` (`close`, `spawn`,
/// `request`, `start`, ...), public or not, read from `client_runtime.rs`
/// itself so that a method it gains is avoided too. Read once: every
/// method name is checked against it.
fn client_members() -> &'static [String] {
    static MEMBERS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    MEMBERS.get_or_init(|| read_client_members(RUNTIME))
}

/// The `fn`s of `impl CoprocessClient { ... }` in rustfmt-formatted source:
/// the block opens with that line and closes with the first `}` at column
/// 0; its methods are the lines at one indent that declare a `fn`, after
/// any of `pub`, `pub(...)`, `const`, `async`, `unsafe`. A text scan, not a
/// syn parse (a parse of the runtime was a tenth of this target's time);
/// a test holds it to syn's reading.
fn read_client_members(runtime: &str) -> Vec<String> {
    let mut lines = runtime.lines().skip_while(|line| *line != "impl CoprocessClient {").skip(1);
    let block = lines.by_ref().take_while(|line| !line.starts_with('}'));
    block.filter_map(|line| method_name(line.strip_prefix("    ")?)).map(str::to_string).collect()
}

/// The name a line at the block's indent declares a method of, if it does.
fn method_name(line: &str) -> Option<&str> {
    let mut rest = line;
    if let Some(after) = rest.strip_prefix("pub") {
        rest = match after.strip_prefix('(') {
            Some(scoped) => scoped.split_once(')')?.1,
            None => after,
        }
        .trim_start();
    }
    for qualifier in ["const ", "async ", "unsafe "] {
        rest = rest.strip_prefix(qualifier).unwrap_or(rest);
    }
    let name = rest.strip_prefix("fn ")?;
    let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(name.len());
    (end > 0).then(|| &name[..end])
}

/// Whether clippy's `wrong_self_convention` expects a method of this name to
/// take no `self` (`from_*`), `self` by value (`into_*`) or `&mut self`
/// (`to_*_mut`): a client method takes `&self`, and says so with an allow.
fn against_self_convention(name: &str) -> bool {
    name.starts_with("from_") || name.starts_with("into_") || (name.starts_with("to_") && name.ends_with("_mut"))
}

/// The whole client module text (header included).
pub fn render(contract: &Contract) -> Result<String, SchemaError> {
    let sdk = crate::targets::sdk(contract, "rust")?;
    let tokens = methods_part(contract);
    let file: syn::File = syn::parse2(tokens).map_err(|e| {
        SchemaError::new(std::path::Path::new(&contract.source), "", format!("the Rust client produced invalid tokens: {e}"), "report this as a codegen bug")
    })?;
    let body = layout::print_file(&file)
        .map_err(|problem| SchemaError::new(std::path::Path::new(&contract.source), "", problem, "report this as a codegen bug"))?;
    // The client names the contract's deprecated types as the contract does
    // (a method's params or result): that use is the module's own.
    let allow = if contract.has_deprecated() { "#![allow(deprecated)]\n\n" } else { "" };
    Ok(format!(
        "// {}\n//\n// {}: the session client (a module beside `{}`).\n\n{allow}{}\n{}",
        header_text(contract),
        contract.title,
        Sdk::stem(&sdk.frames),
        super::roles::fill(RUNTIME.trim_end(), contract)?.replacen(TEMPLATE_IMPORT, &import_line(sdk), 1),
        body
    ))
}

/// `SHUTDOWN` (the `close` role's method), the typed methods, and
/// `call_outcome` where the contract has the `call` role.
fn methods_part(contract: &Contract) -> TokenStream {
    let shutdown = match close_method(contract) {
        Some(close) => {
            let name = ident(&screaming_snake_case(&close.name));
            quote! { Some(coprocess::methods::#name) }
        }
        None => quote! { None },
    };
    let methods = named_methods(contract).into_iter().map(|(method, name)| method_fn(method, &name));
    let outcome = call_role(contract).map(call_outcome);
    quote! {
        /// The method `close` sends to end the session, when the contract has one.
        const SHUTDOWN: Option<&str> = #shutdown;
        /// One method per method-table entry (the handshake is the client's own).
        impl CoprocessClient {
            #(#methods)*
        }
        #outcome
    }
}

fn method_fn(method: &Method, name: &str) -> TokenStream {
    let fn_name = ident(name);
    let constant = ident(&screaming_snake_case(&method.name));
    let params = ident(&method.params);
    let result = ident(&method.result);
    let summary = format!("`{}`: {}", method.name, method.description.trim());
    let summary = summary.lines().map(|line| if line.trim().is_empty() { String::new() } else { format!(" {line}") });
    let (param_type, argument) = if method.params_required {
        (quote! { coprocess::#params }, quote! { Some(params) })
    } else {
        (quote! { Option<coprocess::#params> }, quote! { params })
    };
    let allow = against_self_convention(name).then(|| quote! { #[allow(clippy::wrong_self_convention)] });
    quote! {
        #(#[doc = #summary])*
        #[doc = ""]
        #[doc = " `timeout` overrides the client's for this call."]
        #[doc = ""]
        #[doc = " # Errors"]
        #[doc = ""]
        #[doc = " A [`ClientError`] saying what happened and naming the method."]
        #allow
        pub fn #fn_name(&self, params: #param_type, timeout: Option<Duration>) -> Result<coprocess::#result, ClientError> {
            self.request(coprocess::methods::#constant, #argument, timeout)
        }
    }
}

fn call_outcome(call: &CallRole) -> TokenStream {
    let union = ident(&call.result);
    let verdict = ident(&call.verdict);
    let passthrough = ident(&call.passthrough);
    let doc = format!(" A `{union}` read the same way whichever variant it is.");
    let read = [
        format!(" `{}`'s result read uniformly: a `{verdict}` as it is; a `{passthrough}`'s", call.method),
        " success derived from `isError`, its text the text blocks joined with newlines, and".to_string(),
        " its error that text when the tool reported one.".to_string(),
    ];
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct CallOutcome {
            /// Whether the tool ran and did not report an error.
            pub success: bool,
            /// The text content joined with newlines, or `None` when there was none.
            pub text: Option<String>,
            /// The error text when `success` is false, else `None`.
            pub error: Option<String>,
        }
        #(#[doc = #read])*
        #[must_use]
        pub fn call_outcome(result: &coprocess::#union) -> CallOutcome {
            match result {
                coprocess::#union::#verdict(verdict) => CallOutcome {
                    success: verdict.success,
                    text: verdict.text.clone(),
                    error: verdict.error.clone(),
                },
                coprocess::#union::#passthrough(passthrough) => {
                    let texts: Vec<&str> = passthrough
                        .content
                        .iter()
                        .filter(|block| block.get("type").and_then(serde_json::Value::as_str) == Some("text"))
                        .filter_map(|block| block.get("text").and_then(serde_json::Value::as_str))
                        .collect();
                    let text = if texts.is_empty() { None } else { Some(texts.join("\n")) };
                    let success = passthrough.is_error != Some(true);
                    let error = if success { None } else { text.clone() };
                    CallOutcome { success, text, error }
                }
            }
        }
    }
}

/// The methods the client has (the handshake is its own), each with its Rust
/// name: `rust_name`, or the name with its namespace where two methods of
/// different namespaces would otherwise meet (`mcp.list`, `other.list` →
/// `mcp_list`, `other_list`).
fn named_methods(contract: &Contract) -> Vec<(&Method, String)> {
    crate::targets::client::named_methods(contract, rust_name)
}

/// The Rust method of a wire name: the namespace (`mcp.`) dropped unless
/// `namespace`, each segment snake-cased (`mcp.listTools` → `list_tools`,
/// `mcp.cache.set_mode` → `cache_set_mode`), a keyword or a runtime member
/// suffixed with `_`.
pub fn rust_name(wire: &str, namespace: bool) -> String {
    let words = method_words(wire);
    let kept = if words.len() > 1 && !namespace { &words[1..] } else { &words[..] };
    let name = kept.join("_");
    if RUST_KEYWORDS.contains(&name.as_str()) || RESERVED.contains(&name.as_str()) || client_members().contains(&name) {
        name + "_"
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::{import_line, read_client_members, render, rust_name, Sdk, RUNTIME, TEMPLATE_IMPORT};
    use std::path::Path;

    /// What syn reads as the methods of `impl CoprocessClient`.
    fn parsed_client_members(runtime: &str) -> Vec<String> {
        let file = syn::parse_file(runtime).expect("the runtime parses");
        let blocks = file.items.into_iter().filter_map(|item| match item {
            syn::Item::Impl(block) if block.trait_.is_none() => Some(block),
            _ => None,
        });
        let ours = blocks.filter(|block| matches!(&*block.self_ty, syn::Type::Path(path) if path.path.is_ident("CoprocessClient")));
        ours.flat_map(|block| block.items)
            .filter_map(|member| match member {
                syn::ImplItem::Fn(function) => Some(function.sig.ident.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_scan_of_the_client_runtime_finds_what_syn_finds() {
        let scanned = read_client_members(RUNTIME);
        assert!(scanned.len() >= 8 && scanned.iter().any(|name| name == "close"), "{scanned:?}");
        assert_eq!(scanned, parsed_client_members(RUNTIME));
        // Every form of a method line, and lines that only look like one.
        let runtime = "struct CoprocessClient;\nimpl CoprocessClient {\n    pub fn a() {}\n    pub(crate) fn b() {}\n    pub(super) async fn c() {}\n    const unsafe fn d() {}\n    fn e<T>() {\n        fn inner() {}\n    }\n    // fn not_a_method() {}\n    pub const F: u8 = 0;\n    #[allow(dead_code)]\n    async fn g() {}\n}\nimpl Other {\n    fn h() {}\n}\n";
        assert_eq!(read_client_members(runtime), ["a", "b", "c", "d", "e", "g"]);
        assert_eq!(read_client_members(runtime), parsed_client_members(runtime));
    }

    #[test]
    fn the_client_imports_the_frames_module_of_the_support_matrix() {
        assert!(RUNTIME.contains(TEMPLATE_IMPORT), "client_runtime.rs no longer imports the default module");
        let sdk = |frames: &str| Sdk { key: "rust".into(), name: "Rust".into(), frames: frames.into(), client: String::new(), namespace: String::new() };
        assert_eq!(import_line(&sdk("rust/mcptest-runner/src/coprocess.rs")), TEMPLATE_IMPORT);
        assert_eq!(import_line(&sdk("crates/wire/src/frames.rs")), "use super::frames::{self as coprocess, messages, Frame};\n");
    }

    /// The minimal golden schema, with `extra` methods appended to its table.
    fn minimal_with(extra: serde_json::Value) -> crate::model::Contract {
        minimal_edited(|schema| {
            if let (Some(methods), Some(extra)) = (schema["x-coprocess"]["methods"].as_array_mut(), extra.as_array()) {
                methods.extend(extra.iter().cloned());
            }
        })
    }

    /// The minimal golden schema, edited.
    fn minimal_edited(edit: impl FnOnce(&mut serde_json::Value)) -> crate::model::Contract {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let text = std::fs::read_to_string(&path).expect("the minimal schema is readable");
        let mut schema: serde_json::Value = serde_json::from_str(&text).expect("the minimal schema is JSON");
        edit(&mut schema);
        crate::load::load_str(&schema.to_string(), &path, "minimal.json").map(|(c, _)| c).expect("the schema loads")
    }

    #[test]
    fn the_client_defaults_are_the_schemas_constants() {
        let contract = minimal_edited(|schema| {
            let client = &mut schema["x-coprocess"]["client"];
            client["start_timeout_ms"]["value"] = serde_json::json!(1234);
            client["stderr_tail_lines"]["value"] = serde_json::json!(7);
            client["call_timeout_ms"]["description"] = serde_json::json!("Waits this long.");
        });
        let frames = super::super::render(&contract, super::super::Flavor::Sdk).expect("renders");
        assert!(frames.contains("/// Waits this long.\npub const CLIENT_CALL_TIMEOUT_MS: u64 = "), "{frames}");
        assert!(frames.contains("\npub const CLIENT_START_TIMEOUT_MS: u64 = 1234;\n"), "{frames}");
        assert!(frames.contains("\npub const CLIENT_STDERR_TAIL_LINES: usize = 7;\n"), "{frames}");
        assert!(frames.contains("\npub const CLIENT_CLOSE_TIMEOUT_MS: u64 = "), "{frames}");
        let client = render(&contract).expect("renders");
        for setting in ["CALL_TIMEOUT_MS", "START_TIMEOUT_MS", "CLOSE_TIMEOUT_MS"] {
            assert!(client.contains(&format!("Duration::from_millis(coprocess::CLIENT_{setting})")), "{setting}");
        }
        assert!(client.contains("pub const STDERR_LINES: usize = coprocess::CLIENT_STDERR_TAIL_LINES;\n"));
        assert!(client.contains("start_timeout: DEFAULT_START_TIMEOUT,"));
        assert!(!client.contains("from_secs("), "a default written by hand");
    }

    #[test]
    fn a_method_added_to_the_table_appears_typed_in_the_client() {
        let before = render(&minimal_with(serde_json::json!([]))).expect("renders");
        assert!(!before.contains("pub fn fresh_do_thing("), "{before}");
        assert!(before.contains("const SHUTDOWN: Option<&str> = None;\n"), "the minimal schema has no mcp.shutdown");
        let method = serde_json::json!([{
            "name": "mcp.fresh.doThing",
            "params": "#/$defs/EmptyParams",
            "params_required": false,
            "result": "#/$defs/HandshakeParams",
            "description": "A method the table gained."
        }, {
            "name": "mcp.shutdown",
            "params": "#/$defs/EmptyParams",
            "params_required": false,
            "result": "#/$defs/EmptyParams",
            "description": "Ends the session."
        }]);
        let without_role = render(&minimal_with(method.clone())).expect("renders");
        assert!(without_role.contains("const SHUTDOWN: Option<&str> = None;\n"), "a method named mcp.shutdown is no close role");
        let after = render(&minimal_edited(|schema| {
            schema["x-coprocess"]["methods"].as_array_mut().expect("a table").extend(method.as_array().expect("a list").iter().cloned());
            schema["x-coprocess"]["roles"]["close"] = serde_json::json!({"method": "mcp.fresh.doThing", "description": "Closes."});
        }))
        .expect("renders");
        let signature = "    pub fn fresh_do_thing(\n        &self,\n        params: Option<coprocess::EmptyParams>,\n        timeout: Option<Duration>,\n    ) -> Result<coprocess::HandshakeParams, ClientError> {\n        self.request(coprocess::methods::MCP_FRESH_DO_THING, params, timeout)\n    }\n";
        assert!(after.contains(signature), "{after}");
        assert!(after.contains("const SHUTDOWN: Option<&str> = Some(coprocess::methods::MCP_FRESH_DO_THING);\n"), "{after}");
        assert!(after.contains("    pub fn shutdown(\n"), "{after}");
        assert!(!after.contains("pub fn handshake(") && !after.contains("pub fn coprocess_handshake("), "the handshake is the client's own");
        let twins = serde_json::json!([
            {"name": "mcp.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "One."},
            {"name": "other.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Two."}
        ]);
        let both = render(&minimal_with(twins)).expect("renders");
        assert!(both.contains("    pub fn mcp_list(\n") && both.contains("    pub fn other_list(\n"), "{both}");
        assert!(!both.contains("    pub fn list(\n"), "{both}");
    }

    /// The names a `use` tree brings into scope, with the path before each
    /// (`super::coprocess::{self, Frame}` → `(super::coprocess, self)`,
    /// `(super::coprocess, Frame)`; a glob's name is `*`).
    fn imported(tree: &syn::UseTree, prefix: &str, out: &mut Vec<(String, String)>) {
        match tree {
            syn::UseTree::Path(path) => imported(&path.tree, &format!("{prefix}{}::", path.ident), out),
            syn::UseTree::Name(name) => out.push((prefix.to_string(), name.ident.to_string())),
            syn::UseTree::Rename(rename) => out.push((prefix.to_string(), rename.ident.to_string())),
            syn::UseTree::Glob(_) => out.push((prefix.to_string(), "*".to_string())),
            syn::UseTree::Group(group) => group.items.iter().for_each(|tree| imported(tree, prefix, out)),
        }
    }

    /// Why `declare` claims no name of the client module: it imports from
    /// `coprocess` only names the SDK keeps there (claimed in that scope, so
    /// no `$defs` type has them), never a glob, so every schema type is
    /// written `coprocess::Name` in the client and meets none of its items.
    #[test]
    fn the_client_imports_no_schema_name_from_coprocess() {
        let contract = minimal_with(serde_json::json!([]));
        let file = syn::parse_file(&render(&contract).expect("renders")).expect("the client parses");
        let scopes = super::super::declare(&contract).expect("declares");
        let kept: Vec<&str> = scopes.iter().flat_map(|scope| scope.sdk_names().map(|(name, _)| name)).collect();
        let mut names = Vec::new();
        for item in &file.items {
            if let syn::Item::Use(using) = item {
                imported(&using.tree, "", &mut names);
            }
        }
        let from_coprocess: Vec<&str> =
            names.iter().filter(|(path, _)| path.ends_with("coprocess::")).map(|(_, name)| name.as_str()).collect();
        assert!(from_coprocess.contains(&"self"), "the client names coprocess by path: {names:?}");
        for name in from_coprocess {
            let lower = name.starts_with(|c: char| c.is_ascii_lowercase());
            assert!(name == "self" || lower || kept.contains(&name), "`{name}` is imported from coprocess unclaimed");
        }
        assert!(names.iter().all(|(_, name)| name != "*"), "a glob import: {names:?}");
    }

    #[test]
    fn a_wire_name_becomes_a_snake_case_method() {
        assert_eq!(rust_name("mcp.listTools", false), "list_tools");
        assert_eq!(rust_name("mcp.cache.set_mode", false), "cache_set_mode");
        assert_eq!(rust_name("mcp.reporter.setUpload", false), "reporter_set_upload");
        assert_eq!(rust_name("mcp.close", false), "close_");
        assert_eq!(rust_name("mcp.type", false), "type_");
        assert_eq!(rust_name("other.list", true), "other_list");
        assert_eq!(rust_name("mcp.request", false), "request_");
        assert_eq!(rust_name("mcp.exchange", false), "exchange");
        assert_eq!(rust_name("mcp.handshakeResult", false), "handshake_result_");
        assert_eq!(rust_name("mcp.overStreams", false), "over_streams_");
        assert_eq!(rust_name("mcp.new", false), "new_");
        // The session's own methods, public or not, read from client_runtime.rs.
        assert_eq!(rust_name("mcp.spawn", false), "spawn_");
        assert_eq!(rust_name("mcp.start", false), "start_");
        assert_eq!(rust_name("mcp.stderrTail", false), "stderr_tail_");
        assert_eq!(rust_name("mcp.exitStatus", false), "exit_status_");
        // Keywords that cannot be raw identifiers.
        assert_eq!(rust_name("mcp.self", false), "self_");
        assert_eq!(rust_name("mcp.Self", false), "self_");
        assert_eq!(rust_name("mcp.crate", false), "crate_");
        assert_eq!(rust_name("mcp.super", false), "super_");
        // Other languages' special members are ordinary Rust methods.
        for (wire, name) in [("mcp.then", "then"), ("mcp.dispose", "dispose"), ("mcp.toString", "to_string"), ("mcp.drop", "drop")] {
            assert_eq!(rust_name(wire, false), name);
        }
    }

    #[test]
    fn a_method_against_clippys_self_conventions_allows_it() {
        let methods = serde_json::json!([
            {"name": "mcp.fromValue", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "One."},
            {"name": "mcp.intoParts", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Two."},
            {"name": "mcp.toListMut", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Three."},
            {"name": "mcp.toList", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Four."}
        ]);
        let client = render(&minimal_with(methods)).expect("renders");
        let allow = "    #[allow(clippy::wrong_self_convention)]\n    pub fn ";
        for name in ["from_value", "into_parts", "to_list_mut"] {
            assert!(client.contains(&format!("{allow}{name}(")), "{name}: {client}");
        }
        assert!(!client.contains(&format!("{allow}to_list(")), "to_list takes &self as clippy expects");
        assert!(client.contains("    pub fn to_list(\n"), "{client}");
    }
}
