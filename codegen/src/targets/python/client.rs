//! The session client, a second module beside the frames (by default
//! `python/mcptest/_client.py`), which imports them as `_coprocess`.
//!
//! The schema-independent session (spawn, handshake, one request in flight,
//! every answer checked, timeouts, exit reporting, close) is `client_runtime.py`,
//! a real Python file checked as it is; this module adds what the method table
//! says: one typed method per entry (the handshake aside), and which method
//! shuts the coprocess down.

use crate::model::{Contract, Method, Sdk};
use crate::load::method_words;
use crate::targets::client::{PASSTHROUGH, VERDICT, call_result_union};
use crate::targets::header_text;

use super::docs::{comment, docstring};
use super::layout::Out;
use super::names::{method_const, stem, KEYWORDS};

/// The session code every client carries.
pub const RUNTIME: &str = include_str!("client_runtime.py");

/// How `client_runtime.py` imports the frames: the default module, which
/// [`import_line`] replaces with the support matrix's.
const TEMPLATE_IMPORT: &str = "from mcptest import _coprocess\n";

/// The import of the frames module under the name the client uses,
/// `_coprocess` (`mcptest._coprocess` → `from mcptest import _coprocess`).
fn import_line(sdk: &Sdk) -> String {
    let (package, module) = match sdk.namespace.rsplit_once('.') {
        Some((package, module)) => (Some(package), module),
        None => (None, sdk.namespace.as_str()),
    };
    let alias = if module == "_coprocess" { String::new() } else { " as _coprocess".to_string() };
    match package {
        Some(package) => format!("from {package} import {module}{alias}\n"),
        None => format!("import {module}{alias}\n"),
    }
}

/// The method that ends the session; `close` sends it when the table has it.
const SHUTDOWN: &str = "mcp.shutdown";

/// `CallOutcome` and `call_outcome`, for a schema whose `mcp.call` answers a
/// union of `Verdict` and `ToolCallPassthrough` (the contract says how the
/// passthrough's success is derived: from `isError`).
const CALL_OUTCOME: &str = r#"@dataclass(frozen=True)
class CallOutcome:
    """A `{union}` read the same way whichever variant it is."""

    success: bool
    """Whether the tool ran and did not report an error."""

    text: str | None
    """The text content joined with newlines, or None when there was none."""

    error: str | None
    """The error text when `success` is false, else None."""


def call_outcome(result: _coprocess.{union}) -> CallOutcome:
    """`mcp.call`'s result read uniformly: a `{verdict}` as it is; a `{passthrough}`'s
    success derived from `isError`, its text the text blocks joined with newlines, and
    its error that text when the tool reported one.
    """
    if isinstance(result, _coprocess.{verdict}):
        return CallOutcome(success=result.success, text=result.text, error=result.error)
    texts = [
        value
        for block in result.content
        if block.get("type") == "text" and isinstance(value := block.get("text"), str)
    ]
    text = "\n".join(texts) if texts else None
    success = result.is_error is not True
    return CallOutcome(success=success, text=text, error=None if success else text)"#;

/// What `ruff format` fits on one line.
const WIDTH: usize = 88;

/// The names the client class's own annotations use unqualified: a method
/// of the same name would hide them in the class body (a method `float` makes
/// `timeout: float` name the method).
const ANNOTATION_NAMES: &[&str] = &["float", "str", "typing"];

/// The public members of the runtime's session class (`close`, `spawn`,
/// `handshake_result`, ...), read from `client_runtime.py` itself so that a
/// member it gains is avoided too.
fn session_members() -> impl Iterator<Item = &'static str> {
    // Read once a run: every method name is checked against them.
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| scan_session_members().collect()).iter().copied()
}

fn scan_session_members() -> impl Iterator<Item = &'static str> {
    let class = RUNTIME.split("\nclass _Session").nth(1).unwrap_or_default();
    let body = class.split("\nclass ").next().unwrap_or_default();
    body.lines().filter_map(|line| {
        let name = line.strip_prefix("    def ")?.split('(').next()?;
        (!name.starts_with('_')).then_some(name)
    })
}

/// Whether a method of this name would meet a keyword, a runtime member or an
/// annotation's name: then it gets a `_` suffix.
fn reserved(name: &str) -> bool {
    KEYWORDS.contains(&name) || ANNOTATION_NAMES.contains(&name) || session_members().any(|m| m == name)
}

pub fn render(contract: &Contract, sdk: &Sdk) -> String {
    let methods = named_methods(contract);
    let mut out = Out::default();
    out.line(&comment(0, &header_text(contract)));
    out.line(&docstring(0, &module_docstring(contract)));
    out.blank(1);
    out.line(RUNTIME.trim_end().replacen(TEMPLATE_IMPORT, &import_line(sdk), 1).as_str());
    for (index, (method, name)) in methods.iter().enumerate() {
        out.blank(if index == 0 { 2 } else { 1 });
        out.line(&format!("{}: typing.Final = _Method(", descriptor(name)));
        out.line(&format!("    _coprocess.{},", method_const(&method.name)));
        out.line(&format!("    _coprocess.{}_to_value,", stem(&method.params)));
        out.line(&format!("    _coprocess.{}_from_value,", stem(&method.result)));
        out.line(&format!("    \"{}\",", method.result));
        out.line(")");
    }
    if let Some(union) = call_result_union(contract) {
        out.blank(2);
        out.line(&CALL_OUTCOME.replace("{union}", &union).replace("{verdict}", VERDICT).replace("{passthrough}", PASSTHROUGH));
    }
    out.blank(2);
    out.line("class CoprocessClient(_Session):");
    out.line(&docstring(4, &class_docstring(&methods)));
    if contract.methods.iter().any(|m| m.name == SHUTDOWN) {
        out.blank(1);
        out.line(&format!("    _SHUTDOWN: typing.ClassVar[str | None] = _coprocess.{}", method_const(SHUTDOWN)));
    }
    for (method, name) in &methods {
        out.blank(1);
        method_def(method, name, &mut out);
    }
    out.into_string()
}

fn module_docstring(contract: &Contract) -> String {
    format!(
        "{}: the session client.\n\n`CoprocessClient.spawn(binary, server_argv)` starts `<binary> exec \
         --connection-server --server-command <argv>` (the argv quoted so the binary's shell-style split \
         gives it back), handshakes, and has one typed method per method-table entry. One request is in \
         flight at a time; every answer is checked; a call that fails raises a `ClientError` saying what \
         happened and naming the method. `CoprocessClient.over_streams(reader, writer)` runs the same \
         session over any pair of byte streams.",
        contract.title
    )
}

fn class_docstring(methods: &[(&Method, String)]) -> String {
    let names: Vec<String> = methods.iter().map(|(_, name)| format!("`{name}`")).collect();
    let listed = if names.is_empty() { "no methods besides the handshake".to_string() } else { names.join(", ") };
    format!(
        "A session with the mcptest coprocess, one method per method-table entry: {listed}. \
         A context manager; `close` is idempotent."
    )
}

/// The methods the client has (the handshake is its own), each with its Python
/// name: `python_name`, or the name with its namespace where two methods of
/// different namespaces would otherwise meet (`mcp.list`, `other.list` →
/// `mcp_list`, `other_list`).
fn named_methods(contract: &Contract) -> Vec<(&Method, String)> {
    crate::targets::client::named_methods(contract, python_name)
}

/// The Python method of a wire name: the namespace (`mcp.`) dropped unless
/// `namespace`, each segment snake-cased (`mcp.listTools` → `list_tools`,
/// `mcp.cache.set_mode` → `cache_set_mode`), a keyword or a runtime member
/// suffixed with `_`.
pub fn python_name(wire: &str, namespace: bool) -> String {
    let words = method_words(wire);
    let kept = if words.len() > 1 && !namespace { &words[1..] } else { &words[..] };
    let name = kept.join("_");
    if reserved(&name) {
        name + "_"
    } else {
        name
    }
}

/// The module constant holding a method's descriptor (`_LIST_TOOLS_METHOD`).
fn descriptor(name: &str) -> String {
    format!("_{}_METHOD", name.trim_end_matches('_').to_uppercase())
}

fn method_def(method: &Method, name: &str, out: &mut Out) {
    out.line(&format!("    def {name}("));
    out.line("        self,");
    let params = format!("        params: _coprocess.{}", method.params);
    if method.params_required {
        out.line(&format!("{params},"));
    } else if params.chars().count() + " | None = None,".len() <= WIDTH {
        out.line(&format!("{params} | None = None,"));
    } else {
        // ruff format breaks an over-wide union annotation before its `|`.
        out.line(&params);
        out.line("        | None = None,");
    }
    out.line("        *,");
    out.line("        timeout: float | None = None,");
    out.line(&format!("    ) -> _coprocess.{}:", method.result));
    let text = format!(
        "`{}`: {}\n\n`timeout` (seconds) overrides the client's for this call.",
        method.name,
        method.description.trim()
    );
    out.line(&docstring(8, &text));
    let call = format!("        return self._call({}, params, timeout)", descriptor(name));
    if call.chars().count() <= WIDTH {
        out.line(&call);
    } else {
        out.line("        return self._call(");
        out.line(&format!("            {},", descriptor(name)));
        out.line("            params,");
        out.line("            timeout,");
        out.line("        )");
    }
}

#[cfg(test)]
mod tests {
    use super::{import_line, python_name, render, Sdk, RUNTIME, TEMPLATE_IMPORT};
    use std::path::Path;

    /// The minimal golden schema, with `extra` methods appended to its table.
    fn render_with(extra: serde_json::Value) -> String {
        let contract = minimal_with(extra);
        render(&contract, contract.sdk("python").expect("the minimal schema has a python row"))
    }

    #[test]
    fn the_client_imports_the_frames_module_of_the_support_matrix() {
        assert!(RUNTIME.contains(TEMPLATE_IMPORT), "client_runtime.py no longer imports the default module");
        let sdk = |module: &str| Sdk { key: "python".into(), name: "Python".into(), frames: String::new(), client: String::new(), namespace: module.into() };
        assert_eq!(import_line(&sdk("mcptest._coprocess")), TEMPLATE_IMPORT);
        assert_eq!(import_line(&sdk("acme.wire.frames")), "from acme.wire import frames as _coprocess\n");
        assert_eq!(import_line(&sdk("_coprocess")), "import _coprocess\n");
        assert_eq!(import_line(&sdk("frames")), "import frames as _coprocess\n");
    }

    fn minimal_with(extra: serde_json::Value) -> crate::model::Contract {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let text = std::fs::read_to_string(&path).expect("the minimal schema is readable");
        let mut schema: serde_json::Value = serde_json::from_str(&text).expect("the minimal schema is JSON");
        if let (Some(methods), Some(extra)) = (schema["x-coprocess"]["methods"].as_array_mut(), extra.as_array()) {
            methods.extend(extra.iter().cloned());
        }
        crate::load::load_str(&schema.to_string(), &path, "minimal.json").map(|(c, _)| c).expect("the schema loads")
    }

    #[test]
    fn a_method_added_to_the_table_appears_typed_in_the_client() {
        let before = render_with(serde_json::json!([]));
        assert!(!before.contains("def fresh_do_thing("), "{before}");
        assert!(!before.contains("= _coprocess.METHOD_MCP_SHUTDOWN"), "the minimal schema has no mcp.shutdown");
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
        let after = render_with(method);
        let signature = "    def fresh_do_thing(\n        self,\n        params: _coprocess.EmptyParams | None = None,\n        *,\n        timeout: float | None = None,\n    ) -> _coprocess.HandshakeParams:\n";
        assert!(after.contains(signature), "{after}");
        assert!(after.contains("    _coprocess.METHOD_MCP_FRESH_DO_THING,\n    _coprocess.empty_params_to_value,\n    _coprocess.handshake_params_from_value,\n"), "{after}");
        assert!(after.contains("        return self._call(_FRESH_DO_THING_METHOD, params, timeout)\n"), "{after}");
        assert!(after.contains("    _SHUTDOWN: typing.ClassVar[str | None] = _coprocess.METHOD_MCP_SHUTDOWN\n"), "{after}");
        assert!(!after.contains("def handshake("), "the handshake is the client's own, not a method");
        let twins = serde_json::json!([
            {"name": "mcp.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "One."},
            {"name": "other.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Two."}
        ]);
        let both = render_with(twins);
        assert!(both.contains("    def mcp_list(\n") && both.contains("    def other_list(\n"), "{both}");
        assert!(!both.contains("    def list(\n"), "{both}");
    }

    #[test]
    fn a_wire_name_becomes_a_snake_case_method() {
        assert_eq!(python_name("mcp.listTools", false), "list_tools");
        assert_eq!(python_name("mcp.cache.set_mode", false), "cache_set_mode");
        assert_eq!(python_name("mcp.reporter.setUpload", false), "reporter_set_upload");
        assert_eq!(python_name("mcp.close", false), "close_");
        assert_eq!(python_name("mcp.import", false), "import_");
        assert_eq!(python_name("other.list", true), "other_list");
        assert_eq!(python_name("mcp.handshakeResult", false), "handshake_result_");
        assert_eq!(python_name("mcp.exit_status", false), "exit_status_");
        assert_eq!(python_name("mcp.float", false), "float_");
        assert_eq!(python_name("mcp.over_streams", false), "over_streams_");
    }
}
