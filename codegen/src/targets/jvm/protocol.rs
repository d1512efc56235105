//! The parts of the contract that are not frame shapes: the pin and limits,
//! the method and error-code tables, the lane helpers and the handshake helpers.

use super::layout::Code;
use super::names::{constant_name, field_name, string_literal, type_name};
use crate::model::{Contract, Segment, Ty, TypeKind};
use crate::targets::client::role_member;
use crate::SchemaError;

/// `COPROCESS_PROTOCOL_VERSION`, `MAX_LINE_BYTES`, `MAX_DEPTH`, and the session
/// client's defaults (`CLIENT_CALL_TIMEOUT_MS`, ..., `CLIENT_STDERR_TAIL_LINES`).
pub fn render_constants(code: &mut Code, contract: &Contract) {
    code.doc(1, "The coprocess protocol version this file speaks (the pin). A handshake with another version fails fast.", &[]);
    code.line(
        1,
        format!(
            "public static final long COPROCESS_PROTOCOL_VERSION = {}L;",
            contract.protocol_version
        ),
    );
    code.blank();
    code.doc(
        1,
        "The longest frame line a reader accepts, in bytes, without the `\\n`.",
        &[],
    );
    code.line(
        1,
        format!(
            "public static final long MAX_LINE_BYTES = {}L;",
            contract.max_line_bytes
        ),
    );
    code.blank();
    code.doc(
        1,
        "The deepest container nesting a frame may have (`{\"a\":1}` is depth 1).",
        &[],
    );
    code.line(
        1,
        format!(
            "public static final int MAX_DEPTH = {};",
            contract.max_depth
        ),
    );
    // The session client's defaults (`x-coprocess.client`): `CLIENT_CALL_TIMEOUT_MS`, ...
    for (name, setting) in &contract.client {
        let constant = format!("CLIENT_{}", name.to_uppercase());
        code.blank();
        code.doc(1, &setting.description, &[]);
        if name.ends_with("_ms") {
            code.line(1, format!("public static final long {constant} = {}L;", setting.value));
        } else {
            code.line(1, format!("public static final int {constant} = {};", setting.value));
        }
    }
}

/// A constant name that is unique among `taken`.
fn unique(name: String, taken: &mut Vec<String>) -> String {
    let mut out = name.clone();
    let mut n = 2;
    while taken.contains(&out) {
        out = format!("{name}_{n}");
        n += 1;
    }
    taken.push(out.clone());
    out
}

/// The constant of each method in the `Methods` holder, in table order
/// (`COPROCESS_HANDSHAKE`; a second one of a name gets `_2`).
pub fn method_constants(contract: &Contract) -> Vec<String> {
    let mut taken = vec!["ALL".to_string()];
    contract.methods.iter().map(|m| unique(constant_name(&m.name), &mut taken)).collect()
}

/// The `Methods` holder: one constant per method, and the table.
pub fn render_methods(code: &mut Code, contract: &Contract) {
    code.blank();
    code.doc(
        1,
        "The method names, one constant per row of the method table, and the table itself.",
        &[],
    );
    code.line(1, "public static final class Methods {");
    code.line(2, "private Methods() {}");
    let mut rows = Vec::new();
    for (m, constant) in contract.methods.iter().zip(method_constants(contract)) {
        code.blank();
        code.doc(2, &m.description, &[]);
        code.line(
            2,
            format!(
                "public static final String {constant} = {};",
                string_literal(&m.name)
            ),
        );
        rows.push(format!(
            "new MethodSpec({constant}, {}, {}, {})",
            string_literal(&m.params),
            m.params_required,
            string_literal(&m.result)
        ));
    }
    code.blank();
    code.line(2, "/** The method table, in table order. */");
    list_constant(code, 2, "List<MethodSpec>", "ALL", &rows);
    code.line(1, "}");
    code.blank();
    code.doc(
        1,
        "One row of the method table.",
        &[
            ("param", "name".into(), "the wire name".into()),
            (
                "param",
                "params".into(),
                "the params type name (a key of `TYPE_NAMES`)".into(),
            ),
            (
                "param",
                "paramsRequired".into(),
                "whether `params` must be present".into(),
            ),
            (
                "param",
                "result".into(),
                "the result type name (a key of `TYPE_NAMES`)".into(),
            ),
        ],
    );
    code.line(1, "public record MethodSpec(String name, String params, boolean paramsRequired, String result) {}");
}

/// `public static final List<T> NAME = List.of(rows...);`
fn list_constant(code: &mut Code, depth: usize, ty: &str, name: &str, rows: &[String]) {
    if rows.is_empty() {
        code.line(
            depth,
            format!("public static final {ty} {name} = List.of();"),
        );
        return;
    }
    code.line(depth, format!("public static final {ty} {name} = List.of({});", rows.join(", ")));
}

/// The `ErrorCodes` holder: one constant per code, and the table.
pub fn render_error_codes(code: &mut Code, contract: &Contract) {
    code.blank();
    code.doc(1, "The JSON-RPC error codes of the contract, one constant per row of the error-code table, and the table itself.", &[]);
    code.line(1, "public static final class ErrorCodes {");
    code.line(2, "private ErrorCodes() {}");
    let mut taken = vec!["ALL".to_string()];
    let mut rows = Vec::new();
    for c in &contract.error_codes {
        let constant = unique(constant_name(&c.name), &mut taken);
        code.blank();
        code.doc(2, &c.description, &[]);
        code.line(
            2,
            format!("public static final long {constant} = {}L;", c.code),
        );
        rows.push(format!(
            "new ErrorCodeSpec({}, {constant})",
            string_literal(&c.name)
        ));
    }
    code.blank();
    code.line(2, "/** The error-code table, in table order. */");
    list_constant(code, 2, "List<ErrorCodeSpec>", "ALL", &rows);
    code.line(1, "}");
    code.blank();
    code.doc(
        1,
        "One row of the error-code table.",
        &[
            (
                "param",
                "name".into(),
                "the UpperCamelCase name (`ParseError`)".into(),
            ),
            ("param", "code".into(), "the JSON-RPC error code".into()),
        ],
    );
    code.line(1, "public record ErrorCodeSpec(String name, long code) {}");
}

/// A Java string expression for a message template, each hole replaced by the
/// Java expression `fill` gives for it (holes it does not know stay as text).
fn render_template(template: &str, fill: &dyn Fn(&str) -> Option<String>) -> String {
    let mut parts: Vec<String> = Vec::new();
    for segment in crate::model::split_template(template) {
        match segment {
            Segment::Text(text) => parts.push(string_literal(&text)),
            Segment::Hole(hole) => match fill(&hole) {
                Some(expr) => parts.push(expr),
                None => parts.push(string_literal(&format!("{{{hole}}}"))),
            },
        }
    }
    if parts.is_empty() {
        return "\"\"".to_string();
    }
    if parts.len() == 1 && !parts[0].starts_with('"') {
        return format!("String.valueOf({})", parts[0]);
    }
    if !parts[0].starts_with('"') {
        parts.insert(0, "\"\"".to_string());
    }
    parts.join(" + ")
}

/// `UNSUPPORTED_LANES` and `laneCliHint`.
pub fn render_lanes(code: &mut Code, contract: &Contract) {
    code.blank();
    code.doc(
        1,
        "The suite lane keys an SDK cannot drive over the coprocess, in lane-table order.",
        &[],
    );
    let keys: Vec<String> = contract
        .unsupported_lanes()
        .map(|l| string_literal(&l.key))
        .collect();
    if keys.is_empty() {
        code.line(
            1,
            "public static final List<String> UNSUPPORTED_LANES = List.of();",
        );
    } else {
        code.line(
            1,
            format!(
                "public static final List<String> UNSUPPORTED_LANES = List.of({});",
                keys.join(", ")
            ),
        );
    }
    code.blank();
    let template = contract
        .messages
        .get("lane_skip")
        .map(|m| m.description.clone())
        .unwrap_or_default();
    code.doc(
        1,
        &format!("The hint for a suite lane an SDK cannot drive. {template}"),
        &[
            (
                "param",
                "lane".into(),
                "the lane key, as in the suite YAML".into(),
            ),
            (
                "param",
                "suite".into(),
                "the suite's path, put into the lane's CLI command".into(),
            ),
            (
                "return",
                String::new(),
                "the hint, or empty for a drivable or unknown lane".into(),
            ),
        ],
    );
    code.line(
        1,
        "public static Optional<String> laneCliHint(String lane, String suite) {",
    );
    // google-java-format puts a switch expression that initializes a
    // variable on a line of its own, a continuation indent in.
    code.line(2, "String runsVia =");
    code.line(4, "switch (lane) {");
    for l in contract.unsupported_lanes() {
        code.line(
            5,
            format!(
                "case {} -> {};",
                string_literal(&l.key),
                string_literal(&l.runs_via)
            ),
        );
    }
    code.line(5, "default -> null;");
    code.line(4, "};");
    code.line(2, "if (runsVia == null) {");
    code.line(3, "return Optional.empty();");
    code.line(2, "}");
    code.line(2, "String command = runsVia.replace(\"<suite>\", suite);");
    let message = render_template(contract.message("lane_skip"), &|hole| match hole {
        "lane" => Some("lane".to_string()),
        "command" => Some("command".to_string()),
        _ => None,
    });
    code.line(2, format!("return Optional.of({message});"));
    code.line(1, "}");
}

/// What the handshake helpers need to know about the response types: the
/// success and error arms of the response envelope and their accessors.
struct ResponseShape {
    success_type: String,
    result_accessor: String,
    error_type: String,
    error_accessor: String,
}

fn response_shape(contract: &Contract) -> ResponseShape {
    let roles = &contract.roles;
    ResponseShape {
        success_type: type_name(&roles.success_response),
        result_accessor: field_name("result"),
        error_type: type_name(&roles.error_response),
        error_accessor: field_name("error"),
    }
}

/// `handshakeRequest` and `checkHandshakeResponse` (both forms), from the
/// contract's roles.
pub fn render_handshake(code: &mut Code, contract: &Contract) -> Result<(), SchemaError> {
    render_handshake_request(code, contract)?;
    render_check(code, contract, &response_shape(contract));
    Ok(())
}

/// The `jsonrpc` marker: the single value of the request envelope's `jsonrpc` enum.
fn jsonrpc_version(contract: &Contract) -> String {
    let from_schema = || -> Option<String> {
        let Ty::Ref(marker) = &role_member(contract, &contract.roles.request, "jsonrpc")?.ty else {
            return None;
        };
        let TypeKind::StringEnum(values) = &contract.type_def(marker)?.kind else {
            return None;
        };
        values.first().cloned()
    };
    from_schema().unwrap_or_else(|| "2.0".to_string())
}

fn render_handshake_request(code: &mut Code, contract: &Contract) -> Result<(), SchemaError> {
    let roles = &contract.roles;
    let method = &roles.handshake.method;
    let Some(TypeKind::Object(params)) = contract.type_def(&roles.handshake.params).map(|t| &t.kind) else {
        return Err(SchemaError::new(
            std::path::Path::new(&contract.source),
            format!("/$defs/{}", roles.handshake.params),
            format!("jvm: `{}`, the handshake's params, is not a closed object, which `handshakeRequest` builds", roles.handshake.params),
            "make it an object with `additionalProperties: false`",
        ));
    };
    code.blank();
    code.doc(
        1,
        &format!("The `{method}` request frame this SDK sends first, with `protocol_version` = `COPROCESS_PROTOCOL_VERSION`."),
        &[
            ("param", "id".into(), "the request id".into()),
            ("param", "sdk".into(), "the SDK family (`jvm`), or null to leave it out".into()),
            ("param", "sdkVersion".into(), "the SDK package version, or null to leave it out".into()),
            ("return", String::new(), "the frame text (one line, without the terminating newline)".into()),
        ],
    );
    // With a named id type (an integer or a string), the id may be either.
    let typed_id = match role_member(contract, &roles.request, "id").map(|f| &f.ty) {
        Some(Ty::Ref(id)) => Some(type_name(id)),
        _ => None,
    };
    if let Some(id_type) = &typed_id {
        code.line(
            1,
            "public static String handshakeRequest(long id, String sdk, String sdkVersion) {",
        );
        code.line(2, format!("return handshakeRequest({id_type}.of(id), sdk, sdkVersion);"));
        code.line(1, "}");
        code.blank();
        code.doc(
            1,
            &format!("The `{method}` request frame, with an integer or string id."),
            &[
                ("param", "id".into(), "the request id".into()),
                ("param", "sdk".into(), "the SDK family (`jvm`), or null to leave it out".into()),
                ("param", "sdkVersion".into(), "the SDK package version, or null to leave it out".into()),
                ("return", String::new(), "the frame text (one line, without the terminating newline)".into()),
            ],
        );
    }
    code.line(
        1,
        match &typed_id {
            Some(id_type) => format!("public static String handshakeRequest({id_type} id, String sdk, String sdkVersion) {{"),
            None => "public static String handshakeRequest(long id, String sdk, String sdkVersion) {".to_string(),
        },
    );
    let args: Vec<&str> = params
        .fields
        .iter()
        .map(|f| match f.name.as_str() {
            "protocol_version" => "COPROCESS_PROTOCOL_VERSION",
            "sdk" => "sdk",
            "sdk_version" => "sdkVersion",
            _ => "null",
        })
        .collect();
    let params_type = type_name(&roles.handshake.params);
    code.line(
        2,
        format!(
            "{params_type} params = new {params_type}({});",
            args.join(", ")
        ),
    );
    let head = format!("{{\"jsonrpc\":\"{}\",\"id\":", jsonrpc_version(contract));
    code.line(
        2,
        format!(
            "StringBuilder out = new StringBuilder(128).append({});",
            string_literal(&head)
        ),
    );
    code.line(2, if typed_id.is_some() { "id.appendJson(out);" } else { "out.append(id);" });
    let method = format!(",\"method\":{},\"params\":", serde_json::Value::String(method.clone()));
    code.line(2, format!("out.append({});", string_literal(&method)));
    code.line(2, "params.appendJson(out);");
    code.line(2, "return out.append('}').toString();");
    code.line(1, "}");
    Ok(())
}

fn render_check(code: &mut Code, contract: &Contract, shape: &ResponseShape) {
    let roles = &contract.roles;
    let (response_type, result_type) = (type_name(&roles.response), type_name(&roles.handshake.result));
    code.blank();
    code.doc(
        1,
        &format!("Decodes the answer to the handshake and checks it; see `checkHandshakeResponse({response_type})`."),
        &[
            ("param", "json".into(), "the response frame text".into()),
            ("return", String::new(), "the binary's handshake result, when it speaks this SDK's version".into()),
            ("throws", "DecodeException".into(), format!("when the frame is not a `{}`", roles.response)),
            ("throws", "HandshakeException".into(), "when the session must not go on".into()),
        ],
    );
    code.line(
        1,
        format!("public static {result_type} checkHandshakeResponse(String json) {{"),
    );
    code.line(2, format!("return checkHandshakeResponse({response_type}.fromJson(json));"));
    code.line(1, "}");
    code.blank();
    code.doc(
        1,
        &format!(
            "Checks the answer to the handshake. A result with another version fails with the `sdk_mismatch` message; \
             so does a {} error (the binary speaks v1). A {} error carrying the binary's own mismatch message fails \
             with that message verbatim; any other error fails with the `handshake_failed` message.",
            contract.error_code("MethodNotFound").map(|c| c.to_string()).unwrap_or_else(|| "MethodNotFound".into()),
            contract.error_code("InvalidParams").map(|c| c.to_string()).unwrap_or_else(|| "InvalidParams".into()),
        ),
        &[
            ("param", "response".into(), "the decoded response frame".into()),
            ("return", String::new(), "the binary's handshake result, when it speaks this SDK's version".into()),
            ("throws", "DecodeException".into(), format!("when a success result is not a `{}`", roles.handshake.result)),
            ("throws", "HandshakeException".into(), "when the session must not go on".into()),
        ],
    );
    code.line(
        1,
        format!("public static {result_type} checkHandshakeResponse({response_type} response) {{"),
    );
    code.line(
        2,
        format!("if (response instanceof {} success) {{", shape.success_type),
    );
    code.line(
        3,
        format!(
            "{result_type} result = {result_type}.fromNode(success.{}());",
            shape.result_accessor
        ),
    );
    code.line(
        3,
        "if (result.protocolVersion() != COPROCESS_PROTOCOL_VERSION) {",
    );
    code.line(
        4,
        "throw new HandshakeException(sdkMismatch(result.protocolVersion()));",
    );
    code.line(3, "}");
    code.line(3, "return result;");
    code.line(2, "}");
    code.line(
        2,
        format!(
            "{} error = (({}) response).{}();",
            type_name(&roles.error_object), shape.error_type, shape.error_accessor
        ),
    );
    render_error_branches(code, contract);
    let failed = render_template(contract.message("handshake_failed"), &|hole| match hole {
        "code" => Some("error.code()".to_string()),
        "message" => Some("error.message()".to_string()),
        _ => None,
    });
    code.line(2, format!("throw new HandshakeException({failed});"));
    code.line(1, "}");
    render_sdk_mismatch(code, contract);
}

fn render_error_branches(code: &mut Code, contract: &Contract) {
    if let Some(found) = contract
        .error_codes
        .iter()
        .find(|c| c.name == "MethodNotFound")
    {
        code.line(
            2,
            format!(
                "if (error.code() == ErrorCodes.{}) {{",
                constant_name(&found.name)
            ),
        );
        code.line(3, "throw new HandshakeException(sdkMismatch(1L));");
        code.line(2, "}");
    }
    if let Some(invalid) = contract
        .error_codes
        .iter()
        .find(|c| c.name == "InvalidParams")
    {
        let template = contract.message("binary_mismatch");
        let prefix = match crate::model::split_template(template).first() {
            Some(Segment::Text(text)) => text.clone(),
            _ => String::new(),
        };
        // The prefix in a local of its own: google-java-format would split a
        // long literal left inside the condition.
        code.line(2, format!("String binaryMismatch = {};", string_literal(&prefix)));
        code.line(
            2,
            format!(
                "if (error.code() == ErrorCodes.{} && error.message().startsWith(binaryMismatch)) {{",
                constant_name(&invalid.name),
            ),
        );
        code.line(3, "throw new HandshakeException(error.message());");
        code.line(2, "}");
    }
}

fn render_sdk_mismatch(code: &mut Code, contract: &Contract) {
    code.blank();
    code.line(
        1,
        "/** The `sdk_mismatch` message for a binary that speaks {@code binaryProtocol}. */"
            .replace('`', ""),
    );
    code.line(
        1,
        "private static String sdkMismatch(long binaryProtocol) {",
    );
    code.line(
        2,
        format!(
            "String advice = binaryProtocol < COPROCESS_PROTOCOL_VERSION ? {} : {};",
            string_literal(contract.message("upgrade_binary")),
            string_literal(contract.message("upgrade_sdk"))
        ),
    );
    let message = render_template(contract.message("sdk_mismatch"), &|hole| match hole {
        "binary_protocol" => Some("binaryProtocol".to_string()),
        "sdk_protocol" => Some("COPROCESS_PROTOCOL_VERSION".to_string()),
        "advice" => Some("advice".to_string()),
        _ => None,
    });
    code.line(2, format!("return {message};"));
    code.line(1, "}");
}
