//! The session client, a second module beside the frames (by default
//! `typescript/src/client.ts`), which imports them as `coprocess`.
//!
//! The schema-independent session (spawn, handshake, one request in flight,
//! every answer checked, timeouts, exit reporting, close) is
//! `client_runtime.ts`, a real TypeScript file checked as it is; this module
//! adds what the method table says: one typed method per entry (the
//! handshake aside), and which method shuts the coprocess down.

use crate::model::{Contract, Method, Sdk};
use crate::load::method_words;
use crate::names::camel_case;
use crate::targets::claims::identifier;
use crate::targets::client::{call_outcome, close_method, fill_roles};
use crate::targets::header_text;
use crate::SchemaError;

use super::layout::{Out, WIDTH};
use super::names::{constant, js_string, member_access, stem, type_name};

/// The session code every client carries, written with the role placeholders
/// (`coprocess.RoleResponse`, `decodeRoleResponseOf`), which [`runtime`]
/// fills with the contract's names.
pub const RUNTIME: &str = include_str!("client_runtime.ts");

/// The handshake method's member of `MethodName` as `client_runtime.ts` writes it.
const HANDSHAKE_MEMBER: &str = "MethodName.RoleHandshake";

/// `client_runtime.ts` for this contract: the role placeholders filled by
/// [`fill_roles`] (a TypeScript function of a type is the type's name and
/// an affix: `decodeRoleResponseOf` → `decodeResponseOf`), and
/// `MethodName.RoleHandshake` by the handshake method's member. The lines stay
/// as Prettier printed them for v2.json's names.
fn runtime(contract: &Contract) -> Result<String, SchemaError> {
    let text = RUNTIME.replace(HANDSHAKE_MEMBER, &member_access("MethodName", &contract.roles.handshake.method));
    fill_roles(&text, contract, type_name)
}

/// How `client_runtime.ts` imports the frames: the default module, which
/// [`import_line`] replaces with the support matrix's file.
const TEMPLATE_IMPORT: &str = "import * as coprocess from \"./coprocess.js\";";

/// The import of the frames module beside the client (`coprocess.ts` →
/// `"./coprocess.js"`, as ES modules resolve a compiled neighbour).
fn import_line(sdk: &Sdk) -> String {
    format!("import * as coprocess from \"./{}.js\";", Sdk::stem(&sdk.frames))
}

/// The frames' file name (`coprocess.ts`).
fn frames_file(sdk: &Sdk) -> &str {
    sdk.frames.rsplit_once('/').map_or(sdk.frames.as_str(), |(_, file)| file)
}

/// `CallOutcome` and `callOutcome`, for a contract with the call role: its
/// method answers the union of the verdict and the passthrough (the contract
/// says how the passthrough's success is derived: from `isError`).
const CALL_OUTCOME: &str = r#"/** A `{union}` read the same way whichever variant it is. */
export interface CallOutcome {
  /** Whether the tool ran and did not report an error. */
  readonly success: boolean;
  /** The text content joined with newlines, or null when there was none. */
  readonly text: string | null;
  /** The error text when `success` is false, else null. */
  readonly error: string | null;
}

/**
 * `{method}`'s result read uniformly: a `{verdict}` as it is; a
 * `{passthrough}`'s success derived from `isError`, its text the text blocks
 * joined with newlines, and its error that text when the tool reported one.
 */
export function callOutcome(result: coprocess.{union}): CallOutcome {
  if ("success" in result) {
    return { success: result.success, text: result.text, error: result.error };
  }
  const texts = result.content.flatMap((block) => {
    const text = block["text"];
    return block["type"] === "text" && typeof text === "string" ? [text] : [];
  });
  const text = texts.length > 0 ? texts.join("\n") : null;
  const success = result.isError !== true;
  return { success, text, error: success ? null : text };
}"#;

/// The names a method of the client cannot take besides the session's own
/// members: `then` (a client with a `then` method would be a thenable, which
/// `await` would call) and `Object.prototype`'s members.
const LANGUAGE_MEMBERS: &[&str] = &[
    "then",
    "constructor",
    "toString",
    "toLocaleString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
];

/// The members of the runtime's session class (`close`, `spawn`,
/// `handshakeResult`, `_call`, ...), public or not, static or not, read from
/// `client_runtime.ts` itself so that a member it gains is avoided too: every
/// line of the class body at its first indent that starts with a name after
/// its modifiers.
fn session_members() -> impl Iterator<Item = &'static str> {
    // Read once a run: every method name is checked against them.
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| scan_session_members().collect()).iter().copied()
}

fn scan_session_members() -> impl Iterator<Item = &'static str> {
    let class = RUNTIME.split("\nexport class CoprocessSession {\n").nth(1).unwrap_or_default();
    let body = class.split("\n}\n").next().unwrap_or_default();
    body.lines().filter_map(|line| {
        let mut rest = line.strip_prefix("  ")?;
        'modifiers: loop {
            for modifier in ["static ", "async ", "get ", "set ", "private ", "protected ", "public ", "readonly ", "override "] {
                if let Some(tail) = rest.strip_prefix(modifier) {
                    rest = tail;
                    continue 'modifiers;
                }
            }
            break;
        }
        identifier(rest)
    })
}

/// Whether a method of this name would meet a runtime member or a member every
/// object has: then it gets a `_` suffix.
fn reserved(name: &str) -> bool {
    LANGUAGE_MEMBERS.contains(&name) || session_members().any(|m| m == name)
}

pub fn render(contract: &Contract, sdk: &Sdk) -> Result<String, SchemaError> {
    let methods = named_methods(contract);
    let mut out = Out::default();
    out.line(format!("// {}", header_text(contract)));
    out.line("//");
    out.line("// The session client: an ES2020 module for Node.js (its built-in modules only)");
    out.line(format!("// beside {}.", frames_file(sdk)));
    out.blank();
    out.doc("", &module_doc(contract));
    out.blank();
    if contract.has_deprecated() {
        out.line(super::protocol::NO_DEPRECATED);
        out.blank();
    }
    for line in runtime(contract)?.trim_end().lines() {
        // Already as Prettier prints it: not laid out again.
        if line == TEMPLATE_IMPORT {
            out.raw(&import_line(sdk));
        } else {
            out.raw(line);
        }
    }
    let plans = super::plain::ts_plans(contract);
    for (method, name) in &methods {
        out.blank();
        let plain = match plans.contains_key(&method.result) {
            true => format!("coprocess.{}", super::plain::reader(&method.result)),
            false => "null".to_string(),
        };
        // One statement, laid out as Prettier lays it out.
        out.line(format!(
            "const {} = {{ name: {}, encodeParams: coprocess.encode{}, decodeResult: coprocess.decode{}Value, plainResult: {plain}, encodeResult: coprocess.encode{}, result: \"{}\" }};",
            descriptor(name),
            js_string(&method.name),
            stem(&method.params),
            stem(&method.result),
            stem(&method.result),
            method.result
        ));
    }
    if let Some(call) = call_outcome(contract) {
        out.blank();
        let text = CALL_OUTCOME
            .replace("{union}", &type_name(&call.result))
            .replace("{method}", &call.method)
            .replace("{verdict}", &call.verdict)
            .replace("{passthrough}", &call.passthrough);
        for line in text.lines() {
            out.raw(line);
        }
    }
    out.blank();
    out.doc("", &class_doc(&methods));
    let shutdown = close_method(contract);
    if methods.is_empty() && shutdown.is_none() {
        out.line("export class CoprocessClient extends CoprocessSession {}");
        return Ok(out.finish());
    }
    out.line("export class CoprocessClient extends CoprocessSession {");
    let mut first = true;
    if let Some(close) = shutdown {
        out.line(format!("  protected override readonly _shutdown = {};", member_access("coprocess.MethodName", &close.name)));
        first = false;
    }
    for (method, name) in &methods {
        if !first {
            out.blank();
        }
        first = false;
        method_def(method, name, &mut out);
    }
    out.line("}");
    Ok(out.finish())
}

fn module_doc(contract: &Contract) -> String {
    format!(
        "{}: the session client.\n\n`CoprocessClient.spawn(binary, serverArgv)` starts `<binary> exec \
         --connection-server --server-command <argv>` (the argv quoted so the binary's shell-style split \
         gives it back), handshakes, and has one typed method per method-table entry, each returning a \
         promise. One request is in flight at a time (concurrent callers wait their turn); every answer \
         is checked; a call that fails rejects with a `ClientError` saying what happened and naming the \
         method. `CoprocessClient.overStreams(reader, writer)` runs the same session over any pair of \
         byte streams.",
        contract.title
    )
}

fn class_doc(methods: &[(&Method, String)]) -> String {
    let names: Vec<String> = methods.iter().map(|(_, name)| format!("`{name}`")).collect();
    let listed = if names.is_empty() { "no methods besides the handshake".to_string() } else { names.join(", ") };
    format!(
        "A session with the mcptest coprocess, one method per method-table entry: {listed}. \
         `close` is idempotent; `await using` closes it too."
    )
}

/// The methods the client has (the handshake is its own), each with its
/// TypeScript name: `ts_name`, or the name with its namespace where two
/// methods of different namespaces would otherwise meet (`mcp.list`,
/// `other.list` → `mcpList`, `otherList`).
fn named_methods(contract: &Contract) -> Vec<(&Method, String)> {
    crate::targets::client::named_methods(contract, ts_name)
}

/// The TypeScript method of a wire name: its words ([`method_words`]), the
/// namespace (`mcp.`) dropped unless `namespace`, camel-cased as one (`mcp.listTools` →
/// `listTools`, `mcp.cache.set_mode` → `cacheSetMode`), a runtime member
/// suffixed with `_`.
pub fn ts_name(wire: &str, namespace: bool) -> String {
    let words = method_words(wire);
    let kept = if words.len() > 1 && !namespace { &words[1..] } else { &words[..] };
    let mut name = camel_case(&kept.join("_"));
    if !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        name.insert(0, 'm');
    }
    if reserved(&name) {
        name + "_"
    } else {
        name
    }
}

/// The module constant holding a method's descriptor (`_LIST_TOOLS_METHOD`).
fn descriptor(name: &str) -> String {
    format!("_{}_METHOD", constant(name.trim_end_matches('_')))
}

fn method_def(method: &Method, name: &str, out: &mut Out) {
    let text = format!(
        "`{}`: {}\n\n`options.timeoutMs` overrides the client's timeout for this call; `options.signal` aborts it.",
        method.name,
        method.description.trim()
    );
    out.doc("  ", &text);
    let optional = if method.params_required { "" } else { "?" };
    let params = format!("params{optional}: coprocess.{}", type_name(&method.params));
    let options = "options?: CallOptions";
    let result = format!("Promise<coprocess.{}>", type_name(&method.result));
    let flat = format!("  {name}({params}, {options}): {result} {{");
    if flat.chars().count() <= WIDTH {
        out.line(flat);
    } else {
        out.line(format!("  {name}("));
        out.line(format!("    {params},"));
        out.line(format!("    {options},"));
        out.line(format!("  ): {result} {{"));
    }
    out.line(format!("    return this._call({}, params, options);", descriptor(name)));
    out.line("  }");
}

#[cfg(test)]
mod tests {
    use super::{import_line, render, ts_name, Sdk, RUNTIME, TEMPLATE_IMPORT};

    fn render_with(extra: serde_json::Value) -> String {
        let contract = minimal_with(extra);
        render(&contract, contract.sdk("typescript").expect("the minimal schema has a typescript row")).expect("the client renders")
    }

    #[test]
    fn the_client_imports_the_frames_file_of_the_support_matrix() {
        assert!(RUNTIME.lines().any(|line| line == TEMPLATE_IMPORT), "client_runtime.ts no longer imports the default module");
        let sdk = |frames: &str| Sdk { key: "typescript".into(), name: "TypeScript".into(), frames: frames.into(), client: String::new(), namespace: String::new() };
        assert_eq!(import_line(&sdk("typescript/src/coprocess.ts")), TEMPLATE_IMPORT);
        assert_eq!(import_line(&sdk("packages/wire/src/frames.ts")), "import * as coprocess from \"./frames.js\";");
    }

    /// The minimal golden schema, with `extra` methods appended to its table.
    fn minimal_with(extra: serde_json::Value) -> crate::model::Contract {
        crate::targets::client::fixtures::minimal_with(extra)
    }

    #[test]
    fn a_method_added_to_the_table_appears_typed_in_the_client() {
        let before = render_with(serde_json::json!([]));
        assert!(!before.contains("  freshDoThing("), "{before}");
        assert!(!before.contains("_shutdown = coprocess.MethodName.McpShutdown;"), "the minimal schema has no mcp.shutdown");
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
        let signature = "  freshDoThing(\n    params?: coprocess.EmptyParams,\n    options?: CallOptions,\n  ): Promise<coprocess.HandshakeParams> {\n    return this._call(_FRESH_DO_THING_METHOD, params, options);\n  }\n";
        assert!(after.contains(signature), "{after}");
        let descriptor = "const _FRESH_DO_THING_METHOD = {\n  name: \"mcp.fresh.doThing\",\n  encodeParams: coprocess.encodeEmptyParams,\n  decodeResult: coprocess.decodeHandshakeParamsValue,\n  plainResult: ";
        assert!(after.contains(descriptor), "{after}");
        assert!(after.contains("  encodeResult: coprocess.encodeHandshakeParams,\n  result: \"HandshakeParams\",\n"), "{after}");
        assert!(after.contains("  protected override readonly _shutdown = coprocess.MethodName.McpShutdown;\n"), "{after}");
        assert!(!after.contains("  handshake("), "the handshake is the client's own, not a method");
        let twins = serde_json::json!([
            {"name": "mcp.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "One."},
            {"name": "other.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Two."}
        ]);
        let both = render_with(twins);
        assert!(both.contains("  mcpList(") && both.contains("  otherList("), "{both}");
        assert!(!both.contains("  list("), "{both}");
    }

    #[test]
    fn a_wire_name_becomes_a_camel_case_method() {
        assert_eq!(ts_name("mcp.listTools", false), "listTools");
        assert_eq!(ts_name("mcp.cache.set_mode", false), "cacheSetMode");
        assert_eq!(ts_name("mcp.reporter.setUpload", false), "reporterSetUpload");
        assert_eq!(ts_name("mcp.close", false), "close_");
        assert_eq!(ts_name("mcp.then", false), "then_");
        assert_eq!(ts_name("mcp.toString", false), "toString_");
        assert_eq!(ts_name("mcp.import", false), "import");
        assert_eq!(ts_name("other.list", true), "otherList");
        assert_eq!(ts_name("mcp.handshakeResult", false), "handshakeResult_");
        assert_eq!(ts_name("mcp.exit_status", false), "exitStatus_");
        assert_eq!(ts_name("mcp.over_streams", false), "overStreams_");
        assert_eq!(ts_name("mcp.stderrTail", false), "stderrTail_");
        assert_eq!(ts_name("mcp.spawn", false), "spawn_");
        assert_eq!(ts_name("mcp.constructor", false), "constructor_");
        assert_eq!(ts_name("mcp.valueOf", false), "valueOf_");
        assert_eq!(ts_name("mcp.dispose", false), "dispose");
        assert_eq!(ts_name("mcp.delete", false), "delete");
        assert_eq!(ts_name("mcp.2fa", false), "m2fa");
    }

    #[test]
    fn the_session_members_are_read_from_the_runtime() {
        let members: Vec<&str> = super::session_members().collect();
        for name in ["constructor", "spawn", "overStreams", "handshakeResult", "exitStatus", "stderrTail", "close", "_call", "_shutdown", "_turn"] {
            assert!(members.contains(&name), "{name} is not among {members:?}");
        }
        assert!(!members.iter().any(|m| ["Symbol", "asyncDispose", "return", "const", "this"].contains(m)), "{members:?}");
    }

    /// The renamed contract keeps every role's feature under the new names:
    /// the typed envelopes, the handshake, the call outcome and the close
    /// method, and no placeholder is left in the client.
    #[test]
    fn a_renamed_contract_keeps_every_role_feature_under_its_names() {
        let contract = crate::targets::client::fixtures::renamed_v2();
        let files = super::super::generate(&contract).expect("the renamed contract generates");
        let sdk = contract.sdk("typescript").expect("a typescript row");
        let (frames, client) = (&files[&sdk.frames], &files[&sdk.client]);
        for declared in ["export interface CpRequestOf<P>", "export type CpResponseOf<R> = ", "export function decodeCpResponseOf<R>("] {
            assert!(frames.contains(declared), "no `{declared}` in the frames");
        }
        assert!(frames.contains("export function checkHandshakeResponse(\n  response: string | CpResponse,\n): CpHandshakeResult {"));
        assert!(frames.contains("  id: CpRequestId,\n") && frames.contains("  return encodeCpRequest({\n"));
        assert!(client.contains("export function callOutcome(result: coprocess.CpCallResult): CallOutcome {"));
        assert!(client.contains("_shutdown = coprocess.MethodName.CpmcpShutdown;"));
        assert!(client.contains("const method = coprocess.MethodName.CpcoprocessHandshake;"));
        assert!(client.contains("coprocess.decodeCpResponseOf(text, method.decodeResult)"));
        assert!(!client.contains("Role"), "a placeholder is left");
    }
}
