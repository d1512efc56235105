//! The session client, a second file beside the frames: `CoprocessClient.java`
//! (by default in `jvm/src/main/java/dev/mcptest/`, package `dev.mcptest`).
//!
//! The schema-independent session (spawn, handshake, one request in flight,
//! every answer checked, timeouts, exit reporting, close) is
//! `ClientRuntime.java`; its members between the `// client:` markers are
//! spliced into the class. This module adds what the schema says: the
//! contract's `client_*` messages (the JVM target inlines message templates,
//! so each is rendered here from `contract.messages`), which method shuts the
//! coprocess down (the `close` role), one typed method per method-table entry
//! (the handshake aside), and `callOutcome` for the `call` role's
//! verdict/passthrough union. Private members the schema's client never
//! reaches are pruned (Error Prone's UnusedMethod and UnusedVariable).
//!
//! The runtime names the role types by the placeholders of
//! [`role_placeholders`] (`Coprocess.RoleRequestOf`,
//! `Coprocess.RoleErrorResponseOf`), filled with each type's Java name. Three
//! more, for what is not "Java type name + affix": a placeholder in quotes
//! (`"RoleHandshakeResult"`) is the type's schema name as a Java string;
//! `RoleHandshakeMethod` is the handshake method's constant in `Methods`
//! (`COPROCESS_HANDSHAKE`); in the call outcome, `RoleCallMethod` is the
//! call's wire name and `RoleContentBlock` the type of the passthrough's
//! `content` items. With its placeholders the file is no Java on its own: the
//! JVM conformance build compiles it as rendered into `CoprocessClient.java`.

use crate::load::method_words;
use crate::model::{CallRole, Contract, Method, Sdk, Segment, Ty, TypeKind};
use crate::names;
use crate::targets::claims::identifier;
use crate::targets::client::{call_outcome, close_method, fill_roles, role_member, role_placeholders};
use crate::targets::{header_text, prune};
use crate::SchemaError;

use super::layout::Code;
use super::names::{string_literal, type_name, MEMBER_KEYWORDS};

/// The runtime as written, with role placeholders.
const SOURCE: &str = include_str!("ClientRuntime.java");

/// The contract messages the client says, each rendered as a constant (no
/// holes) or a `private static String` method of its holes.
const MESSAGES: &[&str] = &[
    "client_closed",
    "client_closed_by_close",
    "client_closed_after_shutdown",
    "client_closed_after_timeout",
    "client_closed_after_protocol_error",
    "client_timeout",
    "client_timeout_streams",
    "client_exited",
    "client_killed",
    "client_output_closed",
    "client_stderr_tail",
    "client_spawn_failed",
    "client_wrong_id",
    "client_not_json",
    "client_too_long",
    "client_undecodable",
];

/// The methods the runtime's class declares in its spliced sections, public or
/// private (`start`, `overStreams`, `handshakeResult`, `close`, `invoke`,
/// `answer`, ..., `callOutcome`), read from `ClientRuntime.java` itself so that a
/// method it gains is avoided too: a client method of the same name would
/// override, hide or overload it ambiguously (`name()` calls `name(null, null)`).
fn runtime_methods() -> impl Iterator<Item = &'static str> {
    // Read once a run: every method name is checked against them.
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| scan_runtime_methods().collect()).iter().copied()
}

fn scan_runtime_methods() -> impl Iterator<Item = &'static str> {
    ["members", "call outcome"].into_iter().flat_map(|name| section(name).lines()).filter_map(|line| {
        let body = line.strip_prefix("    ")?;
        if body.starts_with(|c: char| c.is_whitespace() || matches!(c, '/' | '*' | '@' | '}' | '{')) {
            return None;
        }
        let head = body.split_once('(')?.0;
        if head.contains('=') || [" class ", " interface ", " record ", " enum "].iter().any(|k| format!(" {head}").contains(k)) {
            return None;
        }
        head.rsplit([' ', '>']).next().and_then(identifier)
    })
}

/// Whether a client method of this name would meet a keyword, a member every
/// Java object has (`hashCode`, `getClass`, `wait`, ...: in
/// [`MEMBER_KEYWORDS`]), a runtime method or a rendered message method
/// (`clientClosed`): then it gets a `_` suffix.
fn reserved(name: &str) -> bool {
    MEMBER_KEYWORDS.contains(&name)
        || runtime_methods().any(|m| m == name)
        || message_methods().iter().any(|method| method == name)
}

/// The rendered message methods' names (`clientClosed`), made once a run.
fn message_methods() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| MESSAGES.iter().map(|key| names::camel_case(key)).collect())
}

/// The members of one section of [`SOURCE`] (empty when the marker is
/// missing, which a test rules out).
fn section(name: &str) -> &'static str {
    let marker = format!("    // client: {name}\n\n");
    let Some(start) = SOURCE.find(&marker).map(|at| at + marker.len()) else {
        return "";
    };
    let end = SOURCE[start..].find("\n\n    // client: ").map_or(SOURCE.len(), |at| start + at + 1);
    &SOURCE[start..end]
}

/// The runtime's sections as written (the members of class `CoprocessClient`,
/// which [`crate::targets::runtime_sources`] hands to the names proof).
pub fn sources() -> Vec<&'static str> {
    vec![section("members"), section("call outcome")]
}

/// The runtime's imports, sorted.
fn imports() -> Vec<&'static str> {
    let mut imports: Vec<&str> =
        SOURCE.lines().filter_map(|line| line.strip_prefix("import ").and_then(|rest| rest.strip_suffix(';'))).collect();
    imports.sort_unstable();
    imports
}

/// A section of the runtime with its placeholders filled: the handshake
/// method's constant, the call's wire name and content block type (with the
/// call role), each role type's schema name where quoted and its Java name
/// elsewhere.
fn fill(section: &str, contract: &Contract, call: Option<&CallRole>) -> Result<String, SchemaError> {
    let roles = &contract.roles;
    let at = contract.methods.iter().position(|m| m.name == roles.handshake.method).unwrap_or_default();
    let constant = super::protocol::method_constants(contract).swap_remove(at);
    let mut text = section.replace("RoleHandshakeMethod", &constant);
    if let Some(call) = call {
        text = text.replace("RoleCallMethod", &call.method).replace("RoleContentBlock", &type_name(&content_block(contract, call)?));
    }
    for (placeholder, type_name) in role_placeholders(contract)? {
        text = text.replace(&format!("\"{placeholder}\""), &string_literal(&type_name));
    }
    // The names are not the placeholders' lengths: the Javadoc is laid out
    // again, as google-java-format would.
    fill_roles(&text, contract, type_name).map(|text| super::docs::reflow(&text))
}

/// The type of the call passthrough's `content` items, which `callOutcome`
/// reads text blocks from as open JSON objects: refused by name otherwise.
fn content_block(contract: &Contract, call: &CallRole) -> Result<String, SchemaError> {
    let item = match role_member(contract, &call.passthrough, "content").map(|f| &f.ty) {
        Some(Ty::Array(item)) => match &**item {
            Ty::Ref(name) if matches!(contract.type_def(name).map(|d| &d.kind), Some(TypeKind::Map { values: Ty::Any, .. })) => Some(name.clone()),
            _ => None,
        },
        _ => None,
    };
    item.ok_or_else(|| {
        SchemaError::new(
            std::path::Path::new(&contract.source),
            format!("/$defs/{}/properties/content", call.passthrough),
            format!("jvm: the `content` of `{}`, the call's passthrough, is not an array of open objects, from which `callOutcome` reads the text blocks", call.passthrough),
            "make its items a `$ref` to an object type with `additionalProperties: true` and no properties",
        )
    })
}

/// Renders `CoprocessClient.java`.
pub fn render(contract: &Contract, sdk: &Sdk) -> Result<String, SchemaError> {
    let methods = named_methods(contract);
    // The generated private members: pruned with the runtime's.
    let mut private = Code::new();
    let shutdown = close_method(contract).map_or_else(|| "null".into(), |method| string_literal(&method.name));
    private.line(1, format!("private static final String SHUTDOWN = {shutdown};"));
    for key in MESSAGES {
        private.blank();
        render_message(&mut private, contract, key);
    }
    // The public methods, one per method-table entry.
    let mut public = Code::new();
    for (method, name) in &methods {
        render_method(&mut public, method, name);
    }
    let call = call_outcome(contract);
    let mut runtime = fill(section("members").trim_end(), contract, call)?;
    if call.is_some() {
        runtime.push_str("\n\n");
        runtime.push_str(&fill(section("call outcome").trim_end(), contract, call)?);
    }
    let private = format!("{runtime}\n\n{}", private.finish().trim_end());
    let public = public.finish();
    let kept = prune::prune_indented(&private, &public, 4, super::runtime::private_name);
    let mut body = String::new();
    body.push_str(&kept);
    body.push('\n');
    body.push_str(&public);
    body.push_str("}\n");

    let mut code = Code::new();
    code.line_comment(&header_text(contract));
    code.blank();
    code.line(0, format!("package {};", sdk.namespace));
    code.blank();
    let used: std::collections::HashSet<&str> = prune::code_identifiers(&body).collect();
    let mut group = None;
    for import in imports() {
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
    code.doc(0, &class_doc(contract, &methods), &[]);
    if contract.has_deprecated() {
        // The client names the contract's deprecated types (a method's params
        // or result) as the contract does; its callers are still warned.
        code.line(0, "@SuppressWarnings(\"deprecation\")");
    }
    code.line(0, "public final class CoprocessClient implements AutoCloseable {");
    let mut text = code.finish();
    text.push_str(&body);
    Ok(text)
}

fn class_doc(contract: &Contract, methods: &[(&Method, String)]) -> String {
    let names: Vec<String> = methods.iter().map(|(_, name)| format!("`{name}`")).collect();
    let listed = if names.is_empty() { "no methods besides the handshake".to_string() } else { names.join(", ") };
    format!(
        "{}: the session client.\n\n`CoprocessClient.start(binary, serverArgv, options)` starts `<binary> exec \
         --connection-server --server-command <argv>` (the argv quoted so the binary's shell-style split gives it \
         back), handshakes, and has one typed method per method-table entry: {listed}. One request is in flight at \
         a time (concurrent callers wait their turn); every answer is checked; a call that fails throws a \
         `ClientException` saying what happened and naming the method. `CoprocessClient.overStreams(reader, \
         writer, options)` runs the same session over any pair of byte streams. `close` (an `AutoCloseable`) is \
         idempotent.\n\nThe defaults are the contract's: `Options.defaults()` waits `CLIENT_CALL_TIMEOUT_MS` for a \
         call, `CLIENT_START_TIMEOUT_MS` for the handshake (`withStartTimeout`) and `CLIENT_CLOSE_TIMEOUT_MS` for \
         `close`, and keeps the last `CLIENT_STDERR_TAIL_LINES` stderr lines. A coprocess that ends before it \
         answers is reported with its exit status; the JDK reports a process a signal ended as 128 + the signal, \
         so a status from 129 to 192 is reported as killed by signal (status - 128), even when the coprocess \
         exited with that status itself.",
        contract.title
    )
}

/// One contract message: `private static final String CLIENT_CLOSED_BY_CLOSE = "by close()";`
/// for a template without holes, else `private static String clientClosed(String method,
/// String reason)` returning the template with its holes filled.
fn render_message(code: &mut Code, contract: &Contract, key: &str) {
    let Some(message) = contract.messages.get(key) else {
        // The loader requires every client message; a schema without one has no wording to say.
        code.line(1, format!("private static final String {} = {};", names::screaming_snake_case(key), string_literal(key)));
        return;
    };
    let holes = message.holes();
    if holes.is_empty() {
        code.line(
            1,
            format!("private static final String {} = {};", names::screaming_snake_case(key), string_literal(&message.template)),
        );
        return;
    }
    let params: Vec<String> = holes.iter().map(|h| format!("String {}", names::camel_case(h))).collect();
    code.line(1, format!("private static String {}({}) {{", names::camel_case(key), params.join(", ")));
    let mut parts: Vec<String> = Vec::new();
    for segment in message.segments() {
        match segment {
            Segment::Text(text) => parts.push(string_literal(&text)),
            Segment::Hole(hole) => parts.push(names::camel_case(&hole)),
        }
    }
    // Every hole is a String, so `+` concatenates whatever comes first.
    code.line(2, format!("return {};", parts.join(" + ")));
    code.line(1, "}");
}

/// The methods the client has (the handshake is its own), each with its Java
/// name: `java_name`, or the name with its namespace where two methods of
/// different namespaces would otherwise meet (`mcp.list`, `other.list` →
/// `mcpList`, `otherList`).
fn named_methods(contract: &Contract) -> Vec<(&Method, String)> {
    crate::targets::client::named_methods(contract, java_name)
}

/// The Java method of a wire name: the namespace (`mcp.`) dropped unless
/// `namespace`, the rest lowerCamelCase (`mcp.listTools` → `listTools`,
/// `mcp.cache.set_mode` → `cacheSetMode`), a keyword or a runtime member
/// suffixed with `_`, a leading digit prefixed with `v`.
pub fn java_name(wire: &str, namespace: bool) -> String {
    let words = method_words(wire);
    let kept = if words.len() > 1 && !namespace { &words[1..] } else { &words[..] };
    let name = names::camel_case(&kept.join("_"));
    // A Java identifier cannot start with a digit (`mcp.2fa` → `v2fa`, as constants take `V`).
    let name = if name.starts_with(|c: char| c.is_ascii_digit()) { format!("v{name}") } else { name };
    if reserved(&name) {
        name + "_"
    } else {
        name
    }
}

fn render_method(code: &mut Code, method: &Method, name: &str) {
    let params = format!("Coprocess.{}", type_name(&method.params));
    let result = format!("Coprocess.{}", type_name(&method.result));
    let description = format!("`{}`: {}", method.name, method.description.trim());
    let params_doc = if method.params_required {
        "the call's params".to_string()
    } else {
        "the call's params, or null to send none".to_string()
    };
    let timeout_doc = "how long to wait for the answer, or null for the client's timeout".to_string();
    let returns = ("return", String::new(), "the answer's result".to_string());
    code.blank();
    code.doc(
        1,
        &format!("{description}\n\nOne request in flight: a concurrent caller waits its turn."),
        &[("param", "params".into(), params_doc.clone()), ("param", "timeout".into(), timeout_doc), returns.clone()],
    );
    code.line(1, format!("public {result} {name}({params} params, Duration timeout) {{"));
    code.line(
        2,
        format!(
            "return invoke({}, params, {result}.class, {}, timeout);",
            string_literal(&method.name),
            string_literal(&method.result)
        ),
    );
    code.line(1, "}");
    code.blank();
    code.doc(
        1,
        &format!("`{}` with the client's timeout.", method.name),
        &[("param", "params".into(), params_doc), returns.clone()],
    );
    code.line(1, format!("public {result} {name}({params} params) {{"));
    code.line(2, format!("return {name}(params, null);"));
    code.line(1, "}");
    if !method.params_required {
        code.blank();
        code.doc(1, &format!("`{}` without params, with the client's timeout.", method.name), &[returns]);
        code.line(1, format!("public {result} {name}() {{"));
        code.line(2, format!("return {name}(null, null);"));
        code.line(1, "}");
    }
}

#[cfg(test)]
mod tests {
    use super::{java_name, render, runtime_methods, section};
    use std::path::Path;

    fn render_with(extra: serde_json::Value) -> String {
        render_of(minimal_with(extra, serde_json::json!({})))
    }

    fn render_of(contract: crate::model::Contract) -> String {
        render(&contract, contract.sdk("jvm").expect("the minimal schema has a jvm row")).expect("the client renders")
    }

    /// The minimal golden schema, with `extra` methods appended to its table
    /// and `roles` added to its roles.
    fn minimal_with(extra: serde_json::Value, roles: serde_json::Value) -> crate::model::Contract {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let text = std::fs::read_to_string(&path).expect("the minimal schema is readable");
        let mut schema: serde_json::Value = serde_json::from_str(&text).expect("the minimal schema is JSON");
        if let (Some(methods), Some(extra)) = (schema["x-coprocess"]["methods"].as_array_mut(), extra.as_array()) {
            methods.extend(extra.iter().cloned());
        }
        if let (Some(table), Some(roles)) = (schema["x-coprocess"]["roles"].as_object_mut(), roles.as_object()) {
            table.extend(roles.clone());
        }
        crate::load::load_str(&schema.to_string(), &path, "minimal.json").map(|(c, _)| c).expect("the schema loads")
    }

    #[test]
    fn every_section_is_found() {
        for name in ["members", "call outcome"] {
            let text = section(name);
            assert!(text.starts_with("    ") && text.ends_with("}\n"), "{name}: {text:?}");
            assert!(!text.contains("// client:"), "{text}");
        }
    }

    #[test]
    fn a_method_added_to_the_table_appears_typed_in_the_client() {
        let before = render_with(serde_json::json!([]));
        assert!(!before.contains("freshDoThing("), "{before}");
        assert!(before.contains("private static final String SHUTDOWN = null;"), "{before}");
        assert!(!before.contains("private <R> R invoke("), "unused, so pruned: {before}");
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
        let after = render_with(method.clone());
        assert!(after.contains("private static final String SHUTDOWN = null;"), "a method without the close role is no close method");
        let close = serde_json::json!({"close": {"method": "mcp.shutdown", "description": "Ends the session."}});
        let after = render_of(minimal_with(method, close));
        assert!(
            after.contains("    public Coprocess.HandshakeParams freshDoThing(Coprocess.EmptyParams params, Duration timeout) {\n"),
            "{after}"
        );
        assert!(after.contains("    public Coprocess.HandshakeParams freshDoThing() {\n"), "{after}");
        assert!(after.contains("private static final String SHUTDOWN = \"mcp.shutdown\";"), "{after}");
        assert!(after.contains("private <R> R invoke("), "{after}");
        assert!(!after.contains(" handshake_("), "the handshake is the client's own, not a method");
        let twins = serde_json::json!([
            {"name": "mcp.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "One."},
            {"name": "other.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Two."}
        ]);
        let both = render_with(twins);
        assert!(both.contains(" mcpList(") && both.contains(" otherList("), "{both}");
        assert!(!both.contains(" list("), "{both}");
    }

    #[test]
    fn a_wire_name_becomes_a_lower_camel_case_method() {
        assert_eq!(java_name("mcp.listTools", false), "listTools");
        assert_eq!(java_name("mcp.cache.set_mode", false), "cacheSetMode");
        assert_eq!(java_name("mcp.reporter.setUpload", false), "reporterSetUpload");
        assert_eq!(java_name("mcp.close", false), "close_");
        assert_eq!(java_name("mcp.import", false), "import_");
        assert_eq!(java_name("other.list", true), "otherList");
        assert_eq!(java_name("mcp.2fa", false), "v2fa");
        // The runtime's methods, public or private, and what every Java object has.
        assert_eq!(java_name("mcp.handshakeResult", false), "handshakeResult_");
        assert_eq!(java_name("mcp.over_streams", false), "overStreams_");
        assert_eq!(java_name("mcp.invoke", false), "invoke_");
        assert_eq!(java_name("mcp.readLine", false), "readLine_");
        assert_eq!(java_name("mcp.callOutcome", false), "callOutcome_");
        assert_eq!(java_name("mcp.hashCode", false), "hashCode_");
        assert_eq!(java_name("mcp.getClass", false), "getClass_");
        assert_eq!(java_name("mcp.wait", false), "wait_");
        // A rendered message method (`clientClosed(String, String)`).
        assert_eq!(java_name("mcp.client.closed", false), "clientClosed_");
        // Names the runtime does not declare stay as they are.
        assert_eq!(java_name("mcp.dispose", false), "dispose");
        assert_eq!(java_name("mcp.options", false), "options");
        assert_eq!(java_name("mcp.then", false), "then");
    }

    #[test]
    fn the_runtime_methods_are_read_from_the_runtime_file() {
        let methods: Vec<&str> = runtime_methods().collect();
        for name in ["start", "overStreams", "serverCommand", "close", "handshake", "invoke", "exchange", "answer", "readStdout", "kill", "callOutcome"] {
            assert!(methods.contains(&name), "{name} not in {methods:?}");
        }
        // Types, fields and the stand-ins after the sections are not methods of the client.
        for name in ["Options", "CallOutcome", "DEFAULT_CALL_TIMEOUT", "lock", "listTools", "SHUTDOWN"] {
            assert!(!methods.contains(&name), "{name} in {methods:?}");
        }
    }

    /// With every type and method renamed, the JVM files keep every feature a
    /// role carries, under the new names: the typed envelopes, the handshake
    /// helpers, the call outcome, the close method, and the runtime's uses.
    #[test]
    fn the_roles_features_follow_renamed_types_and_methods() {
        let contract = crate::targets::client::renamed_contract();
        let files = crate::targets::jvm::generate(&contract).expect("the JVM files render");
        let sdk = contract.sdk("jvm").expect("a jvm row");
        let (frames, client) = (&files[&sdk.frames], &files[&sdk.client]);
        for declaration in [
            "    public static String handshakeRequest(CpRequestId id, String sdk, String sdkVersion) {\n",
            "        return handshakeRequest(CpRequestId.of(id), sdk, sdkVersion);\n",
            "        CpHandshakeParams params =",
            "        out.append(\",\\\"method\\\":\\\"cpcoprocess/handshake\\\",\\\"params\\\":\");\n",
            "    public static CpHandshakeResult checkHandshakeResponse(CpResponse response) {\n",
            "        CpErrorObject error = ((CpErrorResponse) response).error();\n",
            "    public record CpRequestOf<P>(",
            "    public sealed interface CpResponseOf<R> extends Encodable",
            "    public record CpErrorResponseOf<R>(",
        ] {
            assert!(frames.contains(declaration), "{declaration}");
        }
        for declaration in [
            "private static final String SHUTDOWN = \"cpmcp.shutdown\";",
            "    public static CallOutcome callOutcome(Coprocess.CpCallResult result) {\n",
            "for (Coprocess.CpMcpObject block : passthrough.content()) {",
            "{@code cpmcp.call}'s result read uniformly",
            "    public Coprocess.CpHandshakeResult handshakeResult() {\n",
            "        String method = Coprocess.Methods.CPCOPROCESS_HANDSHAKE;\n",
            "clientUndecodable(method, \"CpHandshakeResult\")",
            "new Coprocess.CpRequestOf<>(",
            "response instanceof Coprocess.CpErrorResponseOf<R> failure",
            "new Coprocess.CpRequest(",
        ] {
            assert!(client.contains(declaration), "{declaration}");
        }
        assert!(!format!("{frames}{client}").contains("Role"), "a placeholder left unfilled");
    }

    /// A passthrough whose `content` is no array of open objects, which
    /// `callOutcome` reads text blocks from, is refused by name.
    #[test]
    fn a_call_outcome_it_cannot_read_is_refused_by_name() {
        let contract = crate::targets::client::renamed_contract_with_string_content();
        let Err(e) = crate::targets::jvm::generate(&contract) else { panic!("content of strings is refused") };
        assert_eq!(e.pointer, "/$defs/CpToolCallPassthrough/properties/content", "{e}");
        assert!(e.problem.starts_with("jvm: ") && e.problem.contains("callOutcome"), "{e}");
    }
}
