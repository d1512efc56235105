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
use crate::targets::client::{call_outcome, close_method, fill_roles, role_placeholders};
use crate::targets::header_text;
use crate::targets::readers::Plan;
use crate::SchemaError;

use super::docs::{comment, docstring};
use super::layout::{statement, Out, LINE_WIDTH};
use super::names::{method_const, stem, KEYWORDS};

/// The session code every client carries, written with the role placeholders
/// ([`runtime`] fills them).
pub const RUNTIME: &str = include_str!("client_runtime.py");

/// The handshake method's constant as `client_runtime.py` writes it.
const HANDSHAKE_CONST: &str = "METHOD_ROLE_HANDSHAKE";

/// `client_runtime.py` for this contract. Python names a type's functions by
/// its snake-case stem, not by the type name and an affix, so each role
/// placeholder is filled in both spellings: `RoleResponse` by the class
/// (`_coprocess.RoleErrorResponse` → `_coprocess.ErrorResponse`) and
/// `role_response` by the stem (`role_response_from_value` →
/// `response_from_value`); `METHOD_ROLE_HANDSHAKE` is the handshake method's
/// constant. The runtime is laid out for v2.json's names: a line that longer
/// names push past ruff's width is laid out again ([`relaid`]).
fn runtime(contract: &Contract) -> Result<String, SchemaError> {
    let text = RUNTIME.replace(HANDSHAKE_CONST, &method_const(&contract.roles.handshake.method));
    let mut text = fill_roles(&text, contract, str::to_string)?;
    let mut stems: Vec<(String, String)> =
        role_placeholders(contract)?.into_iter().map(|(placeholder, type_name)| (stem(placeholder), stem(&type_name))).collect();
    stems.sort_by_key(|(placeholder, _)| std::cmp::Reverse(placeholder.len()));
    for (placeholder, type_stem) in stems {
        text = text.replace(&placeholder, &type_stem);
    }
    Ok(relaid(&text))
}

/// `filled` with every line wider than ruff's width laid out as ruff lays
/// it out (a call broken inside its brackets). The runtime as written is what
/// ruff prints, so only a line whose filled names made it too wide moves; a
/// line that shorter names would let ruff join is left as it is (no role
/// placeholder stands in such a line today).
fn relaid(filled: &str) -> String {
    let lines: Vec<String> = filled
        .lines()
        .map(|line| {
            let body = line.trim_start();
            let wide = line.chars().count() > LINE_WIDTH && !body.starts_with('"') && !body.starts_with('#');
            if wide { statement(line.len() - body.len(), body) } else { line.to_string() }
        })
        .collect();
    lines.join("\n") + if filled.ends_with('\n') { "\n" } else { "" }
}

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

/// `CallOutcome` and `call_outcome`, for a contract with the call role: its
/// method answers the union of the verdict and the passthrough (the contract
/// says how the passthrough's success is derived: from `isError`).
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
    """`{method}`'s result read uniformly: a `{verdict}` as it is; a `{passthrough}`'s
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

pub fn render(contract: &Contract, sdk: &Sdk) -> Result<String, SchemaError> {
    let methods = named_methods(contract);
    let in_place = super::codecs::in_place::python_plans(contract);
    let mut out = Out::default();
    out.line(&comment(0, &header_text(contract)));
    out.line(&docstring(0, &module_docstring(contract)));
    out.blank(1);
    out.line(runtime(contract)?.trim_end().replacen(TEMPLATE_IMPORT, &import_line(sdk), 1).as_str());
    for (index, (method, name)) in methods.iter().enumerate() {
        out.blank(if index == 0 { 2 } else { 1 });
        out.line(&format!("{}: typing.Final = _Method(", descriptor(name)));
        out.line(&format!("    _coprocess.{},", method_const(&method.name)));
        out.line(&format!("    _coprocess.encode_{},", stem(&method.params)));
        out.line(&format!("    _coprocess.{}_from_value,", stem(&method.result)));
        out.line(&format!("    \"{}\",", method.result));
        match in_place.get(&method.result) {
            // A union with one variant read so: that variant's reader, without the union's call.
            Some(Plan::Union(variants)) if variants.len() == 1 => {
                out.line(&format!("    _coprocess.{}_in_place,", stem(&variants[0])));
            }
            Some(_) => out.line(&format!("    _coprocess.{}_in_place,", stem(&method.result))),
            None => {}
        }
        out.line(")");
    }
    if let Some(call) = call_outcome(contract) {
        out.blank(2);
        let text = CALL_OUTCOME
            .replace("{union}", &call.result)
            .replace("{method}", &call.method)
            .replace("{verdict}", &call.verdict)
            .replace("{passthrough}", &call.passthrough);
        out.line(&text);
    }
    out.blank(2);
    out.line("class CoprocessClient(_Session):");
    out.line(&docstring(4, &class_docstring(&methods)));
    if let Some(close) = close_method(contract) {
        out.blank(1);
        out.line(&format!("    _SHUTDOWN: typing.ClassVar[str | None] = _coprocess.{}", method_const(&close.name)));
    }
    for (method, name) in &methods {
        out.blank(1);
        method_def(method, name, &mut out);
    }
    Ok(out.into_string())
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

    /// The minimal golden schema, with `extra` methods appended to its table.
    fn render_with(extra: serde_json::Value) -> String {
        let contract = minimal_with(extra);
        render(&contract, contract.sdk("python").expect("the minimal schema has a python row")).expect("the client renders")
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
        crate::targets::client::fixtures::minimal_with(extra)
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
        assert!(after.contains("    _coprocess.METHOD_MCP_FRESH_DO_THING,\n    _coprocess.encode_empty_params,\n    _coprocess.handshake_params_from_value,\n"), "{after}");
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

    /// The renamed contract keeps every role's feature under the new names:
    /// the typed envelopes, the handshake, the call outcome and the close
    /// method, and no placeholder is left in the client.
    #[test]
    fn a_renamed_contract_keeps_every_role_feature_under_its_names() {
        let contract = crate::targets::client::fixtures::renamed_v2();
        let files = super::super::generate(&contract).expect("the renamed contract generates");
        let sdk = contract.sdk("python").expect("a python row");
        let (frames, client) = (&files[&sdk.frames], &files[&sdk.client]);
        for declared in ["class CpRequestOf(", "class CpSuccessResponseOf(", "CpResponseOf = ", "def decode_cp_response_of("] {
            assert!(frames.contains(declared), "no `{declared}` in the frames");
        }
        assert!(frames.contains("    params = CpHandshakeParams(\n") && frames.contains("def check_handshake_response(response: str | bytes | CpResponse) -> CpHandshakeResult:"));
        assert!(client.contains("def call_outcome(result: _coprocess.CpCallResult) -> CallOutcome:"));
        assert!(client.contains("    if isinstance(result, _coprocess.CpVerdict):"));
        assert!(client.contains("    _SHUTDOWN: typing.ClassVar[str | None] = _coprocess.METHOD_CPMCP_SHUTDOWN\n"));
        assert!(client.contains("method = _coprocess.METHOD_CPCOPROCESS_HANDSHAKE\n"));
        assert!(client.contains("_coprocess.cp_response_of_from_value(\n"), "the widened line is laid out again");
        assert!(!client.contains("Role") && !client.contains("role_") && !client.contains("ROLE"), "a placeholder is left");
    }
}
