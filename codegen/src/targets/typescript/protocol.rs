//! The parts of the contract that are not frame shapes: the header, the pin
//! and limits, the method and error-code tables, the type registry, the
//! message templates, the handshake helpers and the lanes.

use crate::model::{Contract, Segment, Ty, TypeKind};
use crate::names::camel_case;
use crate::targets::client::role_member;
use crate::targets::header_text;
use crate::SchemaError;

use super::layout::Out;
use super::names::{constant, js_string, local, member_access, member_key, property, property_access, stem, type_name, wire_key};

pub fn header(out: &mut Out, contract: &Contract) {
    out.line(format!("// {}", header_text(contract)));
    out.line("//");
    out.line("// An ES2020 module with no dependencies. Check it with");
    out.line("// `tsc --strict --noUncheckedIndexedAccess --exactOptionalPropertyTypes`.");
    out.blank();
    out.doc("", &format!("{}.\n\n{}", contract.title, contract.description));
    if contract.has_deprecated() {
        out.blank();
        out.line(NO_DEPRECATED);
    }
}

/// The file-wide exception a contract with deprecated items needs: the
/// generated code itself reads, writes and names what the contract
/// deprecates; code that imports the module is still warned.
pub const NO_DEPRECATED: &str = "/* eslint-disable @typescript-eslint/no-deprecated -- the generated code reads, writes and names the contract's deprecated items; importers are still warned */";


pub fn constants(out: &mut Out, contract: &Contract) {
    out.blank();
    out.doc("", "The coprocess protocol version this SDK speaks; the handshake checks the binary's against it.");
    out.line(format!("export const COPROCESS_PROTOCOL_VERSION = {};", contract.protocol_version));
    out.blank();
    out.doc("", "The longest frame line a reader accepts, in bytes (without the `\\n`).");
    out.line(format!("export const MAX_LINE_BYTES = {};", contract.max_line_bytes));
    out.blank();
    out.doc("", "The deepest container nesting a frame may have (`{\"a\":1}` is depth 1).");
    out.line(format!("export const MAX_DEPTH = {};", contract.max_depth));
    for (name, setting) in &contract.client {
        out.blank();
        out.doc("", &setting.description);
        out.line(format!("export const {} = {};", client_constant(name), setting.value));
    }
}

/// The constant of a client setting (`call_timeout_ms` → `CLIENT_CALL_TIMEOUT_MS`).
fn client_constant(name: &str) -> String {
    format!("CLIENT_{}", name.to_uppercase())
}

pub fn methods(out: &mut Out, contract: &Contract) {
    out.section("Methods");
    out.doc("", "The method names, one constant per row of the method table.");
    out.line("export const MethodName = {");
    for method in &contract.methods {
        out.doc("  ", &method.description);
        out.line(format!("  {}: {},", member_key(&method.name), js_string(&method.name)));
    }
    out.line("} as const;");
    out.blank();
    out.doc("", "A method name of the method table.");
    out.line("export type MethodName = (typeof MethodName)[keyof typeof MethodName];");
    out.blank();
    out.doc("", "One row of the method table.");
    out.line("export interface MethodInfo {");
    out.doc("  ", "The wire name.");
    out.line("  readonly name: MethodName;");
    out.doc("  ", "The `$defs` name of the params shape.");
    out.line("  readonly params: TypeName;");
    out.doc("  ", "Whether `params` must be present (otherwise it may be omitted).");
    out.line("  readonly paramsRequired: boolean;");
    out.doc("  ", "The `$defs` name of the result shape.");
    out.line("  readonly result: TypeName;");
    out.line("}");
    out.blank();
    out.doc("", "The method table, in table order.");
    out.line("export const METHOD_TABLE: readonly MethodInfo[] = [");
    for method in &contract.methods {
        out.line(format!(
            "  {{ name: {}, params: {}, paramsRequired: {}, result: {} }},",
            member_access("MethodName", &method.name),
            js_string(&method.params),
            method.params_required,
            js_string(&method.result)
        ));
    }
    out.line("];");
}

pub fn error_codes(out: &mut Out, contract: &Contract) {
    out.section("Error codes");
    out.doc("", "The JSON-RPC error codes of the contract, one constant per row of the error-code table.");
    out.line("export const ErrorCode = {");
    for code in &contract.error_codes {
        out.doc("  ", &code.description);
        out.line(format!("  {}: {},", member_key(&code.name), code.code));
    }
    out.line("} as const;");
    out.blank();
    out.doc("", "An error code of the error-code table.");
    out.line("export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];");
}

pub fn registry(out: &mut Out, contract: &Contract) {
    out.section("The type registry");
    out.doc("", "The name of every `$defs` type.");
    out.line("export type TypeName =");
    let names: Vec<&String> = contract.types.keys().collect();
    for (i, name) in names.iter().enumerate() {
        let end = if i + 1 == names.len() { ";" } else { "" };
        out.line(format!("  | {}{end}", js_string(name)));
    }
    out.blank();
    out.doc("", "Every `$defs` name, sorted.");
    out.line("export const TYPE_NAMES: readonly TypeName[] = [");
    for name in &names {
        out.line(format!("  {},", js_string(name)));
    }
    out.line("];");
    out.blank();
    out.doc("", "Whether `name` is a `$defs` name.");
    out.line("export function isTypeName(name: string): name is TypeName {");
    out.line("  return (TYPE_NAMES as readonly string[]).includes(name);");
    out.line("}");
    out.blank();
    out.doc("", "Decodes `text` as the named type and encodes the result again. Throws a `DecodeError`.");
    out.line("export function recode(typeName: TypeName, text: string): string {");
    out.line("  switch (typeName) {");
    for name in &names {
        let stem = stem(name);
        out.line(format!("    case {}:", js_string(name)));
        out.line(format!("      return encode{stem}(decode{stem}(text));"));
    }
    out.line("  }");
    out.line("}");
}

/// The function (or, without holes, constant) name of a message template.
fn message_name(name: &str, has_holes: bool) -> String {
    if has_holes {
        format!("{}Message", camel_case(name))
    } else {
        format!("{}_MESSAGE", constant(name))
    }
}

pub fn messages(out: &mut Out, contract: &Contract) {
    out.section("Messages");
    for (name, message) in &contract.messages {
        out.doc("", &message.description);
        let holes = message.holes();
        if holes.is_empty() {
            out.line(format!("export const {} = {};", message_name(name, false), js_string(&message.template)));
            out.blank();
            continue;
        }
        let mut params: Vec<String> = Vec::new();
        for hole in &holes {
            let param = local(hole, &params);
            params.push(param);
        }
        let signature: Vec<String> = params.iter().map(|p| format!("{p}: number | string")).collect();
        out.line(format!("export function {}({}): string {{", message_name(name, true), signature.join(", ")));
        let mut parts = Vec::new();
        for segment in message.segments() {
            match segment {
                Segment::Text(text) => parts.push(js_string(&text)),
                Segment::Hole(hole) => {
                    let index = holes.iter().position(|h| *h == hole).unwrap_or(0);
                    parts.push(format!("String({})", params.get(index).cloned().unwrap_or_default()));
                }
            }
        }
        out.line(format!("  return {};", parts.join(" + ")));
        out.line("}");
        out.blank();
    }
}

/// The call of message `name` with `args` by hole name (missing holes are empty).
fn message_call(contract: &Contract, name: &str, args: &[(&str, &str)]) -> String {
    let holes = contract.messages.get(name).map(|m| m.holes()).unwrap_or_default();
    if holes.is_empty() {
        return message_name(name, false);
    }
    let values: Vec<String> = holes
        .iter()
        .map(|hole| {
            args.iter().find(|(h, _)| *h == hole.as_str()).map(|(_, v)| v.to_string()).unwrap_or_else(|| "\"\"".into())
        })
        .collect();
    format!("{}({})", message_name(name, true), values.join(", "))
}

/// The literal text of `binary_mismatch` before its first hole.
fn binary_mismatch_prefix(contract: &Contract) -> String {
    let segments = contract.messages.get("binary_mismatch").map(|m| m.segments()).unwrap_or_default();
    match segments.first() {
        Some(Segment::Text(text)) => text.clone(),
        _ => String::new(),
    }
}

/// The `jsonrpc` literal: the single value of the enum the request
/// envelope's `jsonrpc` refers to.
fn jsonrpc_literal(contract: &Contract) -> Result<String, SchemaError> {
    let request = &contract.roles.request;
    let named = match role_member(contract, request, "jsonrpc").map(|f| &f.ty) {
        Some(Ty::Ref(name)) => contract.type_def(name).map(|d| &d.kind),
        _ => None,
    };
    match named {
        Some(TypeKind::StringEnum(values)) if !values.is_empty() => Ok(values[0].clone()),
        _ => Err(SchemaError::new(
            std::path::Path::new(&contract.source),
            format!("/$defs/{request}/properties/jsonrpc"),
            "the request envelope's `jsonrpc` is not a `$ref` to a string enum, whose value the TypeScript handshake writes",
            "make it a `$ref` to `{\"type\": \"string\", \"enum\": [\"2.0\"]}`",
        )),
    }
}

/// The discriminators of the response role's arms: (success, error).
fn response_discriminators(contract: &Contract) -> Result<(String, String), SchemaError> {
    let roles = &contract.roles;
    let variants = match contract.type_def(&roles.response).map(|d| &d.kind) {
        Some(TypeKind::Union(variants)) => variants.as_slice(),
        _ => &[],
    };
    let discriminator = |arm: &str| {
        variants.iter().find(|v| v.type_name == arm).map(|v| v.discriminator.clone()).ok_or_else(|| {
            SchemaError::new(
                std::path::Path::new(&contract.source),
                format!("/$defs/{}", roles.response),
                format!("the response envelope is not a union with the arm `{arm}`, which the TypeScript handshake reads"),
                "make the response role's type a `oneOf` of its success and error arms",
            )
        })
    };
    Ok((discriminator(&roles.success_response)?, discriminator(&roles.error_response)?))
}

pub fn handshake(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    out.section("Handshake");
    handshake_error(out);
    handshake_request(out, contract)?;
    check_handshake_response(out, contract)
}

fn handshake_error(out: &mut Out) {
    out.doc("", "Which fail-fast rule a handshake reply broke.");
    out.line("export type HandshakeFailure = \"sdk_mismatch\" | \"binary_mismatch\" | \"handshake_failed\";");
    out.blank();
    out.doc("", "The fail-fast error of `checkHandshakeResponse`; its message is the contract's wording.");
    out.line("export class CoprocessHandshakeError extends Error {");
    out.line("  override readonly name: string = \"CoprocessHandshakeError\";");
    out.blank();
    out.line("  constructor(");
    out.doc("    ", "Which rule the reply broke.");
    out.line("    readonly failure: HandshakeFailure,");
    out.line("    message: string,");
    out.line("  ) {");
    out.line("    super(message);");
    out.line("  }");
    out.line("}");
}

fn handshake_request(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    let roles = &contract.roles;
    let method_expr = member_access("MethodName", &roles.handshake.method);
    let request_id = match role_member(contract, &roles.request, "id").map(|f| &f.ty) {
        Some(Ty::Ref(name)) => type_name(name),
        _ => return Err(SchemaError::new(
            std::path::Path::new(&contract.source),
            format!("/$defs/{}/properties/id", roles.request),
            "the request envelope's `id` is not a named type, which the TypeScript handshake takes",
            "make `id` a `$ref` to a `$defs` type",
        )),
    };
    out.blank();
    out.doc("", &format!("The `{}` frame text of `{}` with this SDK's protocol version.", roles.request, roles.handshake.method));
    out.line(format!("export function handshakeRequest(id: {request_id}, sdk: string, sdkVersion: string): string {{"));
    out.line(format!("  return encode{}({{", stem(&roles.request)));
    out.line(format!("    {}: {},", property("jsonrpc"), js_string(&jsonrpc_literal(contract)?)));
    out.line(format!("    {},", property("id")));
    out.line(format!("    {}: {method_expr},", property("method")));
    out.line(format!("    {}: {{", property("params")));
    out.line(format!("      {}: COPROCESS_PROTOCOL_VERSION,", wire_key("protocol_version")));
    out.line(format!("      {}: sdk,", wire_key("sdk")));
    out.line(format!("      {}: sdkVersion,", wire_key("sdk_version")));
    out.line("    },");
    out.line("  });");
    out.line("}");
    Ok(())
}

fn check_handshake_response(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    let roles = &contract.roles;
    let (success, error) = response_discriminators(contract)?;
    let mismatch = |binary: &str| {
        message_call(contract, "sdk_mismatch", &[
            ("binary_protocol", binary),
            ("sdk_protocol", "COPROCESS_PROTOCOL_VERSION"),
            ("advice", &format!("_adviceFor({binary})")),
        ])
    };
    out.blank();
    out.doc("", "The advice of `sdk_mismatch` for a binary speaking `binaryProtocol`.");
    out.line("function _adviceFor(binaryProtocol: number): string {");
    out.line(format!(
        "  return binaryProtocol < COPROCESS_PROTOCOL_VERSION ? {} : {};",
        message_call(contract, "upgrade_binary", &[]),
        message_call(contract, "upgrade_sdk", &[])
    ));
    out.line("}");
    out.blank();
    out.doc("", "The literal start of the `binary_mismatch` message.");
    out.line(format!("const _BINARY_MISMATCH_PREFIX = {};", js_string(&binary_mismatch_prefix(contract))));
    out.blank();
    let (response, result) = (type_name(&roles.response), type_name(&roles.handshake.result));
    out.doc("", &format!("Checks the reply to `handshakeRequest`: returns the `{}` when the binary speaks this SDK's version, else throws a `CoprocessHandshakeError` (or the `DecodeError` of a frame that does not decode).", roles.handshake.result));
    out.line(format!("export function checkHandshakeResponse(response: string | {response}): {result} {{"));
    out.line(format!("  const frame = typeof response === \"string\" ? decode{}(response) : response;", stem(&roles.response)));
    out.line(format!("  if ({} in frame) {{", js_string(&property(&error))));
    out.line(format!("    const error = {};", property_access("frame", &error)));
    out.line(format!("    const code = {};", property_access("error", "code")));
    out.line(format!("    const message = {};", property_access("error", "message")));
    if contract.error_code("MethodNotFound").is_some() {
        out.line(format!("    if (code === {}) {{", member_access("ErrorCode", "MethodNotFound")));
        out.line(format!("      throw new CoprocessHandshakeError(\"sdk_mismatch\", {});", mismatch("1")));
        out.line("    }");
    }
    if contract.error_code("InvalidParams").is_some() {
        let invalid_params = member_access("ErrorCode", "InvalidParams");
        out.line(format!("    if (code === {invalid_params} && message.startsWith(_BINARY_MISMATCH_PREFIX)) {{"));
        out.line("      throw new CoprocessHandshakeError(\"binary_mismatch\", message);");
        out.line("    }");
    }
    let failed = message_call(contract, "handshake_failed", &[("code", "code"), ("message", "message")]);
    out.line(format!("    throw new CoprocessHandshakeError(\"handshake_failed\", {failed});"));
    out.line("  }");
    out.line(format!("  const result = decode{}Value({});", stem(&roles.handshake.result), property_access("frame", &success)));
    out.line(format!("  const binaryProtocol = {};", property_access("result", "protocol_version")));
    out.line("  if (binaryProtocol !== COPROCESS_PROTOCOL_VERSION) {");
    out.line(format!("    throw new CoprocessHandshakeError(\"sdk_mismatch\", {});", mismatch("binaryProtocol")));
    out.line("  }");
    out.line("  return result;");
    out.line("}");
    Ok(())
}

pub fn lanes(out: &mut Out, contract: &Contract) {
    out.section("Lanes");
    out.doc("", "One row of the lane table.");
    out.line("export interface LaneInfo {");
    out.doc("  ", "The suite YAML key.");
    out.line("  readonly key: string;");
    out.doc("  ", "Whether an SDK can drive it over the coprocess.");
    out.line("  readonly drivable: boolean;");
    out.doc("  ", "Who runs it: `the SDK`, or the CLI command with a `<suite>` placeholder.");
    out.line("  readonly runsVia: string;");
    out.line("}");
    out.blank();
    out.doc("", "The lane table, in table order.");
    out.line("export const LANES: readonly LaneInfo[] = [");
    for lane in &contract.lanes {
        out.doc("  ", &lane.description);
        out.line(format!(
            "  {{ key: {}, drivable: {}, runsVia: {} }},",
            js_string(&lane.key),
            lane.drivable,
            js_string(&lane.runs_via)
        ));
    }
    out.line("];");
    out.blank();
    out.doc("", "The lanes an SDK cannot drive, in table order.");
    let keys: Vec<String> = contract.unsupported_lanes().map(|l| js_string(&l.key)).collect();
    out.line(format!("export const UNSUPPORTED_SDK_LANES: readonly string[] = [{}];", keys.join(", ")));
    out.blank();
    out.doc("", "The message reporting that `lane` cannot be driven over the coprocess, naming the CLI command that runs it for `suite`; null for a drivable or unknown lane.");
    out.line("export function laneCliHint(lane: string, suite: string): string | null {");
    out.line("  for (const info of LANES) {");
    out.line("    if (info.key === lane) {");
    let hint = message_call(contract, "lane_skip", &[("lane", "lane"), ("command", "info.runsVia.split(\"<suite>\").join(suite)")]);
    out.line(format!("      return info.drivable ? null : {hint};"));
    out.line("    }");
    out.line("  }");
    out.line("  return null;");
    out.line("}");
}
