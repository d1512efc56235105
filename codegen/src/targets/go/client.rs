//! The session client, a second file of the frames' package, beside them (by
//! default `go/client.go` in package `mcptest`).
//!
//! The schema-independent session (spawn, handshake, one request in flight,
//! every answer checked, timeouts from the context, exit reporting, Close) is
//! `client_runtime.go`; this module adds what the method table and the roles
//! say: one typed method on `*Client` per entry (the handshake aside), which
//! method Close sends (the `close` role), and `CallOutcomeOf` for the `call`
//! role's verdict/passthrough union.
//!
//! The runtime names the role types by the placeholders of
//! [`role_placeholders`] (`RoleRequest`, `appendRoleRequestOf`,
//! `response.RoleErrorResponse`), filled with each type's Go name, so Go
//! identifiers derived from a type name (its encoder `appendX`, its union
//! field `X`, its constants `X20`) follow it. Two more rules, for what is not
//! "Go type name + affix": a placeholder in quotes (`"RoleHandshakeResult"`)
//! is the type's schema name as a Go string, and `RoleHandshakeMethod` is the
//! Go constant of the handshake role's method (`MethodCoprocessHandshake`).
//! With its placeholders the file is no Go on its own: the Go conformance
//! build checks it as rendered into `client.go`.

use std::fmt::Write as _;

use crate::load::method_words;
use crate::model::{CallRole, Contract, Method, Sdk, Ty, TypeKind};
use crate::targets::claims::{identifier, Scope};
use crate::targets::client::{call_outcome, close_method, fill_roles, role_placeholders};
use crate::targets::REGENERATE_COMMAND;
use crate::SchemaError;

use super::docs::comment;
use super::names::{pascal_words, string_lit};
use super::Ctx;

/// `client_runtime.go` as written, with role placeholders.
pub const SOURCE: &str = include_str!("client_runtime.go");

/// The runtime's placeholder for the Go constant of the handshake method.
const HANDSHAKE_METHOD: &str = "RoleHandshakeMethod";

/// The methods `go vet` (its stdmethods check) holds to the signature of a
/// standard interface's method (`MarshalJSON() ([]byte, error)`, `Is(error)
/// bool`, ...): a client method of such a name gets a `_` suffix, as one the
/// runtime gives `*Client` does.
const VET_METHODS: &[&str] = &[
    "As", "Format", "GobDecode", "GobEncode", "Is", "MarshalJSON", "MarshalXML", "ReadByte", "ReadFrom",
    "ReadRune", "Scan", "Seek", "UnmarshalJSON", "UnmarshalXML", "UnreadByte", "UnreadRune", "Unwrap",
    "WriteByte", "WriteTo",
];

/// The receiver every method of the runtime's `Client` is declared with.
const CLIENT_RECEIVER: &str = "func (c *Client) ";

/// The methods declared on `*Client` in Go `text`, in order: read off the
/// runtime (`Close`, `HandshakeResult`, ... and its unexported helpers) or off
/// the rendered file (those and the generated ones).
fn client_methods(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter_map(|line| identifier(line.strip_prefix(CLIENT_RECEIVER)?))
}

/// Whether a client method of this name would meet a method the runtime gives
/// `*Client` (read from `runtime`, `client_runtime.go` as rendered, so that a
/// method it gains is avoided too) or one `go vet` holds to a standard
/// signature: then it gets a `_` suffix, which no name from the method table
/// has.
fn reserved(name: &str, runtime: &str) -> bool {
    VET_METHODS.contains(&name) || client_methods(runtime).any(|m| m == name)
}

/// `client_runtime.go` for this contract: its placeholders filled with the
/// Go names of the role types (a quoted one with the schema name) and of the
/// handshake method's constant.
pub fn runtime(contract: &Contract) -> Result<String, SchemaError> {
    let ctx = Ctx::new(contract);
    let mut text = SOURCE.replace(HANDSHAKE_METHOD, &ctx.method_const(&contract.roles.handshake.method));
    for (placeholder, type_name) in role_placeholders(contract)? {
        text = text.replace(&format!("\"{placeholder}\""), &string_lit(&type_name));
    }
    fill_roles(&text, contract, |name| ctx.type_name(name))
}

/// The declarations of a Go file: everything after its import block.
pub fn body(source: &str) -> &str {
    match source.split_once("\n)\n") {
        Some((_, rest)) => rest.trim_start_matches('\n'),
        None => source,
    }
}

/// The import paths of `client_runtime.go`'s import block, in its order.
pub fn imports() -> Vec<&'static str> {
    let Some((_, block)) = SOURCE.split_once("\nimport (\n") else { return Vec::new() };
    let block = block.split_once("\n)\n").map_or(block, |(imports, _)| imports);
    block.lines().filter_map(|line| line.trim().strip_prefix('"')?.strip_suffix('"')).collect()
}

/// `client.go`: the header, the package clause, the imports its code uses,
/// the runtime and the per-method part.
pub fn render(contract: &Contract, sdk: &Sdk) -> Result<String, SchemaError> {
    let ctx = Ctx::new(contract);
    let runtime = runtime(contract)?;
    let mut code = String::new();
    code.push_str("// clientShutdownMethod is the method Close sends (empty: the table has none).\n");
    match close_method(contract) {
        Some(method) => writeln!(code, "const clientShutdownMethod = {}", ctx.method_const(&method.name)).ok(),
        None => writeln!(code, "const clientShutdownMethod = \"\"").ok(),
    };
    for (method, name) in named_methods(contract, &runtime) {
        code.push('\n');
        method_def(&ctx, method, &name, &mut code);
    }
    if let Some(call) = call_outcome(contract) {
        code.push('\n');
        code.push_str(&outcome(&ctx, call)?);
    }
    // Only the session helpers the methods reach: with no method besides the
    // handshake there is no call to make (staticcheck's U1000).
    let runtime = crate::targets::prune::prune(body(&runtime).trim_end(), &code, super::private_name);
    let code = format!("{runtime}\n\n{code}");
    let mut out = format!("// Code generated by \"{REGENERATE_COMMAND}\" from {}. DO NOT EDIT.\n\n", contract.source);
    writeln!(out, "package {}\n\nimport (", sdk.namespace).ok();
    let plain = crate::targets::prune::code_only(&code);
    for import in imports() {
        let package = import.rsplit('/').next().unwrap_or(import);
        if super::uses_package(&plain, package) {
            writeln!(out, "\t\"{import}\"").ok();
        }
    }
    out.push_str(")\n\n");
    out.push_str(&code);
    Ok(out)
}

/// Claims every method of `*Client` in `text` (the rendered `client.go`): one
/// per method-table entry at its pointer, then the runtime's, read off the
/// text. Two table entries whose Go names meet (`mcp.id` and `mcp.i_d` are
/// both `ID`, Go's initialism) are refused with both names and a fix, never
/// emitted as two methods of one name. Methods are no package-level names: a
/// `$defs` type never meets them, so this scope is not part of `declare`.
pub fn claim_methods(contract: &Contract, text: &str) -> Result<Scope, SchemaError> {
    let mut scope = Scope::new(contract, "go", "the methods of `*Client`");
    for (method, name) in named_methods(contract, &runtime(contract)?) {
        let i = contract.methods.iter().position(|m| m.name == method.name).unwrap_or_default();
        let pointer = format!("/x-coprocess/methods/{i}/name");
        scope.schema(name, format!("the client method of `{}`", method.name), &pointer)?;
    }
    scope.sdk_declarations(client_methods(text), |name| name.starts_with(|c: char| c.is_ascii_lowercase()))?;
    Ok(scope)
}

/// The methods the client has (the handshake is its own), each with its Go
/// name: `go_name`, or the name with its namespace where two methods of
/// different namespaces would otherwise meet (`mcp.list`, `other.list` →
/// `MCPList`, `OtherList`); `runtime` is `client_runtime.go` as rendered.
fn named_methods<'c>(contract: &'c Contract, runtime: &str) -> Vec<(&'c Method, String)> {
    crate::targets::client::named_methods(contract, |wire, namespace| go_name(wire, namespace, runtime))
}

/// The Go method of a wire name: its words (`codegen::load::method_words`),
/// the namespace (`mcp`) dropped unless `namespace`, each in PascalCase with
/// Go's initialisms (`mcp.listTools` → `ListTools`, `mcp.cache.set_mode` →
/// `CacheSetMode`), a name the methods of `runtime` (`client_runtime.go` as
/// rendered) or `go vet` keep suffixed with `_` (`mcp.close` → `Close_`,
/// `mcp.marshalJSON` → `MarshalJSON_`).
pub fn go_name(wire: &str, namespace: bool, runtime: &str) -> String {
    let words = method_words(wire);
    let kept = if words.len() > 1 && !namespace { &words[1..] } else { &words[..] };
    let mut name: String = kept.iter().map(|w| pascal_words(w)).collect();
    if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
        name.insert(0, 'X');
    }
    if reserved(&name, runtime) {
        name.push('_');
    }
    name
}

fn method_def(ctx: &Ctx, method: &Method, name: &str, out: &mut String) {
    let params = ctx.type_name(&method.params);
    let result = ctx.type_name(&method.result);
    let mut doc = format!("{name} calls `{}`. {}", method.name, method.description.trim());
    comment(out, 0, &doc);
    doc.clear();
    out.push_str("//\n");
    let how = if method.params_required {
        "The call is bounded by ctx's deadline, else by the client's timeout."
    } else {
        "params may be nil (the request then has none). The call is bounded by ctx's deadline, else by the client's timeout."
    };
    comment(out, 0, how);
    // Params that are always sent go by value (see sessionCallWith).
    let (param, call) =
        if method.params_required { (params.clone(), "sessionCallWith") } else { (format!("*{params}"), "sessionCall") };
    writeln!(out, "func (c *Client) {name}(ctx context.Context, params {param}) ({result}, error) {{").ok();
    writeln!(
        out,
        "\treturn {call}[{result}](ctx, c, {}, params, {})",
        ctx.method_const(&method.name),
        string_lit(&method.result)
    )
    .ok();
    out.push_str("}\n");
}

/// `CallOutcome` and `CallOutcomeOf`, for the `call` role: its result is a
/// union of the verdict and the passthrough of the shapes the loader checked
/// (the contract says how the passthrough's success is derived: from
/// `isError`). The passthrough's `content` blocks are read as JSON objects:
/// items of another type are refused by name.
fn outcome(ctx: &Ctx, call: &CallRole) -> Result<String, SchemaError> {
    let contract = ctx.contract;
    let (verdict_def, passthrough_def) = (call.verdict.as_str(), call.passthrough.as_str());
    let success = ctx.role_field(verdict_def, "success", "call's verdict")?;
    let text = ctx.role_field(verdict_def, "text", "call's verdict")?;
    let error = ctx.role_field(verdict_def, "error", "call's verdict")?;
    let content = ctx.role_field(passthrough_def, "content", "call's passthrough")?;
    let is_error = ctx.role_field(passthrough_def, "isError", "call's passthrough")?;
    let blocks = matches!(&content.ty, Ty::Array(item) if matches!(&**item, Ty::Ref(map) if matches!(contract.types.get(map).map(|t| &t.kind), Some(TypeKind::Map { values: Ty::Any, .. }))));
    if !blocks {
        return Err(ctx.refuse(
            &format!("/$defs/{passthrough_def}/properties/content"),
            &format!("the `content` of `{passthrough_def}`, the call's passthrough, is not an array of open objects, from which Go's CallOutcomeOf reads the text blocks"),
            "make its items a `$ref` to an object type with `additionalProperties: true` and no properties",
        ));
    }
    let union = ctx.type_name(&call.result);
    let (verdict, passthrough) = (ctx.type_name(verdict_def), ctx.type_name(passthrough_def));
    let mut out = String::new();
    comment(&mut out, 0, &format!("CallOutcome is a {union} read the same way whichever variant it is."));
    out.push_str("type CallOutcome struct {\n");
    out.push_str("\t// Success says whether the tool ran and did not report an error.\n\tSuccess bool\n");
    out.push_str("\t// Text is the text content joined with newlines, or nil when there was none.\n\tText *string\n");
    out.push_str("\t// Error is the error text when Success is false, else nil.\n\tError *string\n}\n\n");
    comment(
        &mut out,
        0,
        &format!(
            "CallOutcomeOf reads `{}`'s result uniformly: a {verdict} as it is; a {passthrough}'s \
             success derived from `isError`, its text the text blocks joined with newlines, and its error \
             that text when the tool reported one.",
            call.method
        ),
    );
    let f = |field: &crate::model::Field| ctx.field_name(field);
    writeln!(out, "func CallOutcomeOf(result {union}) CallOutcome {{").ok();
    writeln!(out, "\tif verdict := result.{}; verdict != nil {{", verdict).ok();
    writeln!(
        out,
        "\t\treturn CallOutcome{{Success: verdict.{}, Text: verdict.{}, Error: verdict.{}}}\n\t}}",
        f(success),
        f(text),
        f(error)
    )
    .ok();
    writeln!(out, "\tpassthrough := result.{}", passthrough).ok();
    out.push_str("\tif passthrough == nil {\n\t\treturn CallOutcome{}\n\t}\n");
    out.push_str("\tvar texts []string\n");
    writeln!(out, "\tfor _, block := range passthrough.{} {{", f(content)).ok();
    out.push_str("\t\tif text, ok := block[\"text\"].(string); ok && block[\"type\"] == \"text\" {\n");
    out.push_str("\t\t\ttexts = append(texts, text)\n\t\t}\n\t}\n");
    writeln!(out, "\toutcome := CallOutcome{{Success: passthrough.{0} == nil || !*passthrough.{0}}}", f(is_error)).ok();
    out.push_str("\tif len(texts) > 0 {\n\t\ttext := strings.Join(texts, \"\\n\")\n\t\toutcome.Text = &text\n");
    out.push_str("\t\tif !outcome.Success {\n\t\t\toutcome.Error = &text\n\t\t}\n\t}\n\treturn outcome\n}\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{go_name, render};
    use std::path::Path;

    /// `client_runtime.go` as rendered for v2.json.
    fn v2_runtime() -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        let (contract, _) = crate::load::load(&path, "schemas/ipc/v2.json").expect("the schema loads");
        super::runtime(&contract).expect("the runtime renders")
    }

    fn render_with(extra: serde_json::Value) -> String {
        render_of(minimal_with(extra))
    }

    fn render_of(contract: crate::model::Contract) -> String {
        render(&contract, contract.sdk("go").expect("the minimal schema has a go row")).expect("the client renders")
    }

    /// The minimal golden schema, with `extra` methods appended to its table.
    fn minimal_with(extra: serde_json::Value) -> crate::model::Contract {
        minimal_with_roles(extra, serde_json::json!({}))
    }

    /// The minimal golden schema, with `extra` methods and `roles` added.
    fn minimal_with_roles(extra: serde_json::Value, roles: serde_json::Value) -> crate::model::Contract {
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
    fn a_method_added_to_the_table_appears_typed_in_the_client() {
        let before = render_with(serde_json::json!([]));
        assert!(!before.contains("FreshDoThing"), "{before}");
        assert!(before.contains("const clientShutdownMethod = \"\"\n"), "the minimal schema has no close role");
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
        assert!(after.contains("const clientShutdownMethod = \"\"\n"), "a method without the close role is no close method");
        let close = serde_json::json!({"close": {"method": "mcp.shutdown", "description": "Ends the session."}});
        let after = render_of(minimal_with_roles(method, close));
        let signature = "func (c *Client) FreshDoThing(ctx context.Context, params *EmptyParams) (HandshakeParams, error) {\n\treturn sessionCall[HandshakeParams](ctx, c, MethodMCPFreshDoThing, params, \"HandshakeParams\")\n}\n";
        assert!(after.contains(signature), "{after}");
        assert!(after.contains("const clientShutdownMethod = MethodMCPShutdown\n"), "{after}");
        assert!(!after.contains(") Handshake("), "the handshake is the client's own, not a method");
        let twins = serde_json::json!([
            {"name": "mcp.list", "params": "#/$defs/EmptyParams", "params_required": true, "result": "#/$defs/EmptyParams", "description": "One."},
            {"name": "other.list", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Two."}
        ]);
        let both = render_with(twins);
        assert!(both.contains("func (c *Client) MCPList(ctx context.Context, params EmptyParams) (EmptyParams, error) {\n\treturn sessionCallWith[EmptyParams](ctx, c, MethodMCPList, params, "), "{both}");
        assert!(both.contains("func (c *Client) OtherList(ctx context.Context, params *EmptyParams)"), "{both}");
        assert!(!both.contains(") List("), "{both}");
    }

    #[test]
    fn the_client_defaults_are_the_contracts_settings() {
        let mut contract = minimal_with(serde_json::json!([]));
        if let Some(setting) = contract.client.get_mut("start_timeout_ms") {
            setting.value = 1234;
        }
        let files = crate::targets::go::generate(&contract).expect("the Go files render");
        let sdk = contract.sdk("go").expect("the minimal schema has a go row");
        let coprocess = files.get(&sdk.frames).expect("coprocess.go");
        assert!(coprocess.contains("\n\tClientStartTimeoutMs = 1234\n"), "{coprocess}");
        assert!(coprocess.contains("\n\tClientStderrTailLines = 20\n"), "{coprocess}");
        let client = files.get(&sdk.client).expect("client.go");
        for default in [
            "const DefaultCallTimeout = ClientCallTimeoutMs * time.Millisecond\n",
            "const DefaultStartTimeout = ClientStartTimeoutMs * time.Millisecond\n",
            "const DefaultCloseTimeout = ClientCloseTimeoutMs * time.Millisecond\n",
            "const StderrLines = ClientStderrTailLines\n",
        ] {
            assert!(client.contains(default), "{default}");
        }
        // No default of the runtime's own: every duration is the contract's.
        assert!(!super::SOURCE.contains("time.Second"), "a hand-written duration in client_runtime.go");
        let handshake = super::SOURCE.split("func (c *Client) handshakeFirst(").nth(1).unwrap_or_default();
        assert!(handshake.contains("c.answer(ctx, method, id, c.startTimeout, true)"), "the handshake waits the start timeout");
    }

    #[test]
    fn a_wire_name_becomes_a_pascal_case_method() {
        let runtime = v2_runtime();
        let go_name = |wire: &str, namespace: bool| go_name(wire, namespace, &runtime);
        assert_eq!(go_name("mcp.listTools", false), "ListTools");
        assert_eq!(go_name("mcp.cache.set_mode", false), "CacheSetMode");
        assert_eq!(go_name("mcp.reporter.setUpload", false), "ReporterSetUpload");
        assert_eq!(go_name("mcp.readResource", false), "ReadResource");
        assert_eq!(go_name("mcp.close", false), "Close_");
        assert_eq!(go_name("other.list", true), "OtherList");
        // The runtime's own methods, read from client_runtime.go.
        assert_eq!(go_name("mcp.handshakeResult", false), "HandshakeResult_");
        assert_eq!(go_name("mcp.exit_status", false), "ExitStatus_");
        assert_eq!(go_name("mcp.stderrTail", false), "StderrTail_");
        // Names go vet holds to a standard signature.
        assert_eq!(go_name("mcp.marshalJSON", false), "MarshalJSON_");
        assert_eq!(go_name("mcp.unmarshal_json", false), "UnmarshalJSON_");
        assert_eq!(go_name("mcp.is", false), "Is_");
        assert_eq!(go_name("mcp.unwrap", false), "Unwrap_");
        // Keywords and other words are exported names already: no clash.
        assert_eq!(go_name("mcp.func", false), "Func");
        assert_eq!(go_name("mcp.string", false), "String");
        assert_eq!(go_name("mcp.getClass", false), "GetClass");
        assert_eq!(go_name("mcp.__proto__", false), "Proto");
        assert_eq!(go_name("mcp.start", false), "Start");
        assert_eq!(go_name("mcp.2fa", false), "X2fa");
        assert_eq!(go_name("mcp.id", false), "ID");
        // Unexported runtime methods are never met: every method is exported.
        assert_eq!(go_name("mcp.fail", false), "Fail");
    }

    #[test]
    fn the_runtimes_methods_are_read_from_the_file() {
        let runtime = v2_runtime();
        let methods: Vec<&str> = super::client_methods(&runtime).collect();
        for name in ["Close", "HandshakeResult", "ExitStatus", "StderrTail", "handshakeFirst", "answer"] {
            assert!(methods.contains(&name), "{name} not in {methods:?}");
        }
        assert!(!methods.contains(&"Error"), "an error type's method is no Client method");
    }

    #[test]
    fn every_method_name_gives_a_method_of_its_own() {
        let words = ["close", "handshakeResult", "exitStatus", "stderrTail", "marshalJSON", "string", "func", "type", "start", "then"];
        let extra: Vec<serde_json::Value> = words
            .iter()
            .map(|w| serde_json::json!({"name": format!("mcp.{w}"), "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "A method."}))
            .collect();
        let contract = minimal_with(serde_json::Value::Array(extra));
        let client = render(&contract, contract.sdk("go").expect("a go row")).expect("the client renders");
        assert!(super::claim_methods(&contract, &client).is_ok());
        let methods: Vec<&str> = super::client_methods(&client).collect();
        let mut unique = methods.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), methods.len(), "{methods:?}");
        for name in ["Close_", "HandshakeResult_", "ExitStatus_", "StderrTail_", "MarshalJSON_", "String", "Func", "Type", "Start", "Then"] {
            assert!(methods.contains(&name), "{name} not in {methods:?}");
        }
    }

    #[test]
    fn two_methods_of_one_go_name_are_refused_with_the_pointer() {
        let twins = serde_json::json!([
            {"name": "mcp.id", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "One."},
            {"name": "mcp.i_d", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "Two."}
        ]);
        let contract = minimal_with(twins);
        let last = contract.methods.len() - 1;
        let Err(e) = crate::targets::go::generate(&contract) else { panic!("mcp.id and mcp.i_d are both ID in Go") };
        assert_eq!(e.pointer, format!("/x-coprocess/methods/{last}/name"), "{e}");
        assert!(e.problem.contains("`mcp.id`") && e.problem.contains("`mcp.i_d`"), "{e}");
        assert!(e.fix.contains("rename"), "{e}");
    }
}
