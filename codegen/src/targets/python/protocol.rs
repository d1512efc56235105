//! The non-shape parts of the contract: the pin and limits, the method and
//! error-code tables, the message templates, the handshake helpers and lanes.

use super::docs::docstring;
use super::layout::{assign_string, collection, fit, flat, string, Out};
use super::names::{error_const, field, message_const, method_const, stem};
use crate::model::{Contract, Segment, Ty, TypeKind};
use crate::targets::client::role_member;
use crate::SchemaError;

pub fn constants(contract: &Contract, out: &mut Out) {
    let items = [
        ("COPROCESS_PROTOCOL_VERSION", contract.protocol_version.to_string(), "The coprocess protocol version this SDK speaks; the handshake sends it."),
        ("MAX_LINE_BYTES", contract.max_line_bytes.to_string(), "The longest frame line a reader accepts, in bytes (without the `\\n`)."),
        ("MAX_DEPTH", contract.max_depth.to_string(), "The deepest container nesting a frame may have (`{\"a\": 1}` is depth 1)."),
    ];
    for (name, value, doc) in items {
        out.blank(1);
        out.line(&format!("{name}: typing.Final = {value}"));
        out.line(&docstring(0, doc));
    }
    for (name, setting) in &contract.client {
        out.blank(1);
        out.line(&format!("CLIENT_{}: typing.Final = {}", name.to_uppercase(), setting.value));
        out.line(&docstring(0, &setting.description));
    }
}

pub fn methods(contract: &Contract, out: &mut Out) {
    for method in &contract.methods {
        out.blank(1);
        out.line(&assign_string(0, &format!("{}: typing.Final", method_const(&method.name)), &method.name));
        out.line(&docstring(0, &method.description));
    }
    let rows: Vec<String> = contract
        .methods
        .iter()
        .map(|m| {
            let args = [
                format!("name={}", method_const(&m.name)),
                format!("params={}", string(&m.params)),
                format!("params_required={}", if m.params_required { "True" } else { "False" }),
                format!("result={}", string(&m.result)),
            ];
            flat("MethodSpec(", &args, "")
        })
        .collect();
    out.blank(1);
    out.line(&collection(0, "METHODS: typing.Final[tuple[MethodSpec, ...]] = (", &rows, ""));
    out.line(&docstring(0, "The method table, in table order."));
}

pub fn error_codes(contract: &Contract, out: &mut Out) {
    for code in &contract.error_codes {
        out.blank(1);
        out.line(&format!("{}: typing.Final = {}", error_const(&code.name), code.code));
        out.line(&docstring(0, &code.description));
    }
    let rows: Vec<String> = contract
        .error_codes
        .iter()
        .map(|c| format!("({}, {})", string(&c.name), error_const(&c.name)))
        .collect();
    out.blank(1);
    out.line(&collection(0, "ERROR_CODES: typing.Final[tuple[tuple[str, int], ...]] = (", &rows, ""));
    out.line(&docstring(0, "The error-code table as (name, code) pairs, in table order."));
}

pub fn messages(contract: &Contract, out: &mut Out) {
    for (name, message) in &contract.messages {
        out.blank(1);
        out.line(&assign_string(0, &format!("{}: typing.Final", message_const(name)), &message.template));
        out.line(&docstring(0, &message.description));
    }
}

/// `handshake_request` and `check_handshake_response`.
pub fn handshake(contract: &Contract, out: &mut Out) -> Result<(), SchemaError> {
    handshake_request(contract, out)?;
    check_handshake_response(contract, out);
    sdk_mismatch(contract, out);
    Ok(())
}

fn handshake_request(contract: &Contract, out: &mut Out) -> Result<(), SchemaError> {
    let (roles, request_id) = (&contract.roles, member_type(contract, "id")?);
    out.blank(2);
    out.line(&fit(0, "def handshake_request(", &[format!("request_id: {request_id}"), "sdk: str".into(), "sdk_version: str".into()], " -> str:"));
    let doc = format!("The `{}` frame text of `{}`, announcing `COPROCESS_PROTOCOL_VERSION`.", roles.request, roles.handshake.method);
    out.line(&docstring(4, &doc));
    let params = [
        format!("{}=COPROCESS_PROTOCOL_VERSION", field("protocol_version")),
        format!("{}=sdk", field("sdk")),
        format!("{}=sdk_version", field("sdk_version")),
    ];
    out.line(&fit(4, &format!("params = {}(", roles.handshake.params), &params, ""));
    let request = [
        format!("{}={}", field("jsonrpc"), string(&jsonrpc_version(contract)?)),
        format!("{}=request_id", field("id")),
        format!("{}={}", field("method"), method_const(&roles.handshake.method)),
        format!("{}={}_to_value(params)", field("params"), stem(&roles.handshake.params)),
    ];
    out.line(&fit(4, &format!("request = {}(", roles.request), &request, ""));
    out.line(&format!("    return encode_{}(request)", stem(&roles.request)));
    Ok(())
}

/// The named type of the request role's `member` (`jsonrpc`, `id`).
fn member_type(contract: &Contract, member: &str) -> Result<String, SchemaError> {
    match role_member(contract, &contract.roles.request, member).map(|f| &f.ty) {
        Some(Ty::Ref(name)) => Ok(name.clone()),
        _ => Err(request_error(contract, member, "is not a named type", "make it a `$ref` to a `$defs` type")),
    }
}

/// The single value of the type of the request's `jsonrpc` (`2.0`).
fn jsonrpc_version(contract: &Contract) -> Result<String, SchemaError> {
    let name = member_type(contract, "jsonrpc")?;
    match contract.type_def(&name).map(|d| &d.kind) {
        Some(TypeKind::StringEnum(values)) if !values.is_empty() => Ok(values[0].clone()),
        _ => Err(request_error(contract, "jsonrpc", "is not a string enum", "make it `{\"type\": \"string\", \"enum\": [\"2.0\"]}`")),
    }
}

/// The request role's `member` refused by name, for the Python handshake.
fn request_error(contract: &Contract, member: &str, problem: &str, fix: &str) -> SchemaError {
    SchemaError::new(
        std::path::Path::new(&contract.source),
        format!("/$defs/{}/properties/{member}", contract.roles.request),
        format!("the request envelope's `{member}` {problem}, which the Python handshake writes"),
        fix,
    )
}

fn code_expr(contract: &Contract, name: &str, fallback: i64) -> String {
    match contract.error_code(name) {
        Some(_) => error_const(name),
        None => fallback.to_string(),
    }
}

/// The text of a template before its first hole.
fn prefix_before_hole(template: &str) -> String {
    match crate::model::split_template(template).first() {
        Some(Segment::Text(text)) => text.clone(),
        _ => String::new(),
    }
}

fn check_handshake_response(contract: &Contract, out: &mut Out) {
    let roles = &contract.roles;
    let (success, response, result) = (&roles.success_response, &roles.response, &roles.handshake.result);
    let binary_mismatch = prefix_before_hole(contract.message("binary_mismatch"));
    out.blank(2);
    out.line(&assign_string(0, "_BINARY_MISMATCH_PREFIX: typing.Final", &binary_mismatch));
    out.blank(2);
    out.line(&fit(0, "def check_handshake_response(", &[format!("response: str | bytes | {response}")], &format!(" -> {result}:")));
    out.line(&docstring(
        4,
        &format!(
            "Checks the answer to `handshake_request`: the `{result}` when the binary speaks \
             `COPROCESS_PROTOCOL_VERSION`, else raises `HandshakeError` with the fail-fast message. \
             A frame that does not decode raises `DecodeError`."
        ),
    ));
    out.line("    if isinstance(response, str | bytes):");
    out.line(&format!("        response = decode_{}(response)", stem(response)));
    out.line(&format!("    if isinstance(response, {success}):"));
    out.line(&format!("        result = {}_from_value(response.{})", stem(result), field("result")));
    let version = format!("result.{}", field("protocol_version"));
    out.line(&format!("        if {version} != COPROCESS_PROTOCOL_VERSION:"));
    out.line(&format!("            raise HandshakeError(_sdk_mismatch({version}))"));
    out.line("        return result");
    out.line(&format!("    error = response.{}", field("error")));
    let (code, message) = (format!("error.{}", field("code")), format!("error.{}", field("message")));
    out.line(&format!("    if {code} == {}:", code_expr(contract, "MethodNotFound", -32601)));
    out.line("        # A v1 binary does not know the method: it speaks protocol version 1.");
    out.line("        raise HandshakeError(_sdk_mismatch(1))");
    let invalid = code_expr(contract, "InvalidParams", -32602);
    out.line(&format!("    mismatch = {message}.startswith(_BINARY_MISMATCH_PREFIX)"));
    out.line(&format!("    if {code} == {invalid} and mismatch:"));
    out.line(&format!("        raise HandshakeError({message})"));
    let values = [format!("\"code\": str({code})"), format!("\"message\": {message}")];
    let fill = collection(4, "values = {", &values, "");
    out.line(&fill);
    out.line(&format!("    raise HandshakeError(_fill({}, values))", message_const("handshake_failed")));
}

fn sdk_mismatch(_contract: &Contract, out: &mut Out) {
    out.blank(2);
    out.line("def _sdk_mismatch(binary_protocol: int) -> str:");
    let (older_binary, older_sdk) = (message_const("upgrade_binary"), message_const("upgrade_sdk"));
    out.line(&format!("    advice = {older_binary} if binary_protocol < COPROCESS_PROTOCOL_VERSION else {older_sdk}"));
    let values = [
        "\"binary_protocol\": str(binary_protocol)".to_string(),
        "\"sdk_protocol\": str(COPROCESS_PROTOCOL_VERSION)".to_string(),
        "\"advice\": advice".to_string(),
    ];
    out.line(&collection(4, "values = {", &values, ""));
    out.line(&format!("    return _fill({}, values)", message_const("sdk_mismatch")));
}

pub fn lanes(contract: &Contract, out: &mut Out) {
    let rows: Vec<String> = contract
        .lanes
        .iter()
        .map(|lane| {
            let args = [
                format!("key={}", string(&lane.key)),
                format!("drivable={}", if lane.drivable { "True" } else { "False" }),
                format!("runs_via={}", string(&lane.runs_via)),
            ];
            flat("LaneSpec(", &args, "")
        })
        .collect();
    out.blank(1);
    out.line(&collection(0, "LANES: typing.Final[tuple[LaneSpec, ...]] = (", &rows, ""));
    let mut doc = String::from("The lane table, in table order:");
    for lane in &contract.lanes {
        doc.push_str(&format!("\n- `{}`: {}", lane.key, lane.description));
    }
    out.line(&docstring(0, &doc));
    let unsupported: Vec<String> = contract.unsupported_lanes().map(|lane| string(&lane.key)).collect();
    out.blank(1);
    out.line(&collection(0, "UNSUPPORTED_LANES: typing.Final[tuple[str, ...]] = (", &unsupported, ""));
    out.line(&docstring(0, "The keys of the lanes an SDK cannot drive over the coprocess, in table order."));
    out.blank(2);
    out.line("def lane_cli_hint(lane: str, suite: str) -> str | None:");
    out.line(&docstring(
        4,
        "The message reporting that `lane` cannot be driven over the coprocess, naming the CLI \
         command that runs it for `suite`; None for a drivable or unknown lane.",
    ));
    out.line("    for spec in LANES:");
    out.line("        if spec.key == lane and not spec.drivable:");
    out.line("            command = spec.runs_via.replace(\"<suite>\", suite)");
    out.line(&format!(
        "            return _fill({}, {{\"lane\": lane, \"command\": command}})",
        message_const("lane_skip")
    ));
    out.line("    return None");
}
