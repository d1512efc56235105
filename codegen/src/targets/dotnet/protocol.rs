//! The `Coprocess` static class: the pin and limits, the method and
//! error-code tables, the lane list and hint, the handshake helpers (the
//! handshake method and the envelopes of the contract's roles) and a by-name
//! registry of every decoder, plus the two table row types.

use super::docs::{summary, summary_xml};
use super::names::{member_name, string_literal, type_name};
use super::types::{variant_member, cs_type};
use super::Out;
use crate::model::{Contract, Segment, Ty, TypeKind};
use crate::names;
use crate::pattern::{Dialect, Tries};
use crate::SchemaError;

pub fn render(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    let mut result = Ok(());
    summary(out, 1, &format!("{}: the pin, the tables and the helpers of the contract. {}", contract.title, contract.description));
    out.block(1, "public static class Coprocess", |out| {
        constants(out, contract);
        methods(out, contract);
        error_codes(out, contract);
        lanes(out, contract);
        result = handshake(out, contract);
        registry(out, contract);
    });
    out.blank();
    row_types(out);
    result
}

fn constants(out: &mut Out, contract: &Contract) {
    summary(out, 2, "The coprocess protocol version this SDK speaks; the handshake checks the binary against it.");
    out.line(2, &format!("public const long CoprocessProtocolVersion = {};", contract.protocol_version));
    out.blank();
    summary(out, 2, "The longest frame line a reader accepts, in bytes (without the newline).");
    out.line(2, &format!("public const int MaxLineBytes = {};", contract.max_line_bytes));
    out.blank();
    summary_xml(out, 2, "The deepest container nesting a frame may have (<c>{\"a\":1}</c> is depth 1).");
    out.line(2, &format!("public const int MaxDepth = {};", contract.max_depth));
    out.blank();
    patterns(out, contract);
}

/// Each distinct `pattern`, compiled once in .NET's syntax (which matches
/// UTF-16 units: an astral code point is written as its surrogate pair), in
/// the way its search costs least in .NET's engine: a search tries a pattern
/// at each position, and the interpreter pays about 100 ns for a try, 10 ms
/// on 100,000 characters (issue 36's pattern benchmark).
fn patterns(out: &mut Out, contract: &Contract) {
    const REGEX: &str = "global::System.Text.RegularExpressions.Regex";
    const OPTIONS: &str = "global::System.Text.RegularExpressions.RegexOptions";
    for pattern in contract.patterns() {
        let (number, shown) = (pattern.number, pattern.display());
        let source = |text: String| format!("@\"{text}\"");
        match pattern.tries() {
            Tries::AtStart => {
                summary(out, 2, &format!("The pattern `{shown}`."));
                let regex = source(pattern.render(Dialect::DotNet));
                out.line(2, &format!("internal static readonly {REGEX} Pattern{number} = new {REGEX}({regex});"));
            }
            Tries::AtEnd => {
                summary(out, 2, &format!("The pattern `{shown}`, read from the string's end, where each of its matches ends: one try decides it."));
                let regex = source(pattern.render_from_end(Dialect::DotNet));
                out.line(2, &format!("internal static readonly {REGEX} Pattern{number} = new {REGEX}({regex}, {OPTIONS}.RightToLeft);"));
            }
            Tries::Everywhere => {
                summary(out, 2, &format!("The pattern `{shown}`, tried at every position of a string, so compiled to IL (a try then costs a fraction of the interpreter's), at its first use."));
                let regex = source(pattern.render(Dialect::DotNet));
                out.line(2, &format!("internal static {REGEX} Pattern{number} => pattern{number} ??= new {REGEX}({regex}, {OPTIONS}.Compiled);"));
                out.blank();
                out.line(2, &format!("private static {REGEX}? pattern{number};"));
            }
        }
        out.blank();
    }
}

/// The C# constant name of a method (`mcp.cache.set_mode` → `McpCacheSetMode`).
pub(super) fn method_const(name: &str) -> String {
    let pascal = names::pascal_case(name);
    if pascal.starts_with(|c: char| c.is_ascii_digit()) || pascal == "Methods" {
        format!("Method{pascal}")
    } else {
        pascal
    }
}

fn methods(out: &mut Out, contract: &Contract) {
    summary(out, 2, "The method names of the method table.");
    out.block(2, "public static class Methods", |out| {
        for (i, method) in contract.methods.iter().enumerate() {
            if i > 0 {
                out.blank();
            }
            summary(out, 3, &method.description);
            out.line(3, &format!("public const string {} = {};", method_const(&method.name), string_literal(&method.name)));
        }
    });
    out.blank();
    summary(out, 2, "The method table, in table order: name, params type, whether params are required, result type.");
    out.line(2, "public static readonly global::System.Collections.Generic.IReadOnlyList<MethodSpec> MethodTable = global::System.Array.AsReadOnly(new[]");
    out.line(2, "{");
    for method in &contract.methods {
        out.line(3, &format!(
            "new MethodSpec(Methods.{}, typeof({}), {}, typeof({})),",
            method_const(&method.name),
            type_name(&method.params),
            method.params_required,
            type_name(&method.result)
        ));
    }
    out.line(2, "});");
    out.blank();
}

fn error_codes(out: &mut Out, contract: &Contract) {
    summary(out, 2, "The JSON-RPC error codes of the error-code table.");
    out.block(2, "public static class ErrorCodes", |out| {
        for (i, code) in contract.error_codes.iter().enumerate() {
            if i > 0 {
                out.blank();
            }
            summary(out, 3, &code.description);
            out.line(3, &format!("public const long {} = {};", type_name(&code.name), code.code));
        }
    });
    out.blank();
    summary(out, 2, "The error-code table, in table order.");
    out.line(2, "public static readonly global::System.Collections.Generic.IReadOnlyList<ErrorCodeSpec> ErrorCodeTable = global::System.Array.AsReadOnly(new[]");
    out.line(2, "{");
    for code in &contract.error_codes {
        out.line(3, &format!("new ErrorCodeSpec({}, ErrorCodes.{}),", string_literal(&code.name), type_name(&code.name)));
    }
    out.line(2, "});");
    out.blank();
}

/// A template as a C# string expression; `hole` gives the expression of each hole.
pub(super) fn template_expr(template: &str, hole: &dyn Fn(&str) -> String) -> String {
    let parts: Vec<String> = crate::model::split_template(template)
        .into_iter()
        .map(|segment| match segment {
            Segment::Text(text) => string_literal(&text),
            Segment::Hole(name) => hole(&name),
        })
        .collect();
    if parts.is_empty() {
        "string.Empty".to_string()
    } else {
        parts.join(" + ")
    }
}

fn lanes(out: &mut Out, contract: &Contract) {
    let keys: Vec<String> = contract.unsupported_lanes().map(|l| string_literal(&l.key)).collect();
    summary(out, 2, "The suite lanes an SDK cannot drive over the coprocess, in table order.");
    if keys.is_empty() {
        out.line(2, "public static readonly global::System.Collections.Generic.IReadOnlyList<string> UnsupportedLanes = global::System.Array.AsReadOnly(global::System.Array.Empty<string>());");
    } else {
        out.line(2, &format!("public static readonly global::System.Collections.Generic.IReadOnlyList<string> UnsupportedLanes = global::System.Array.AsReadOnly(new[] {{ {} }});", keys.join(", ")));
    }
    out.blank();
    summary(out, 2, &format!("The message for a lane the SDK cannot drive, naming the CLI command that runs it with `suite`, or null for a drivable or unknown lane. {}", contract.messages.get("lane_skip").map(|m| m.description.as_str()).unwrap_or_default()));
    out.block(2, "public static string? LaneCliHint(string lane, string suite)", |out| {
        out.block(3, "switch (lane)", |out| {
            for lane in contract.unsupported_lanes() {
                let command = lane.runs_via.split("<suite>").map(string_literal).collect::<Vec<_>>().join(" + suite + ");
                let expr = template_expr(contract.message("lane_skip"), &|hole| match hole {
                    "lane" => string_literal(&lane.key),
                    "command" => command.clone(),
                    _ => "string.Empty".to_string(),
                });
                out.line(4, &format!("case {}:", string_literal(&lane.key)));
                out.line(5, &format!("return {expr};"));
            }
            out.line(4, "default:");
            out.line(5, "return null;");
        });
    });
    out.blank();
}

/// The field of an object type by wire name.
fn field_ty<'c>(contract: &'c Contract, type_name: &str, field: &str) -> Option<&'c Ty> {
    match &contract.type_def(type_name)?.kind {
        TypeKind::Object(object) => object.fields.iter().find(|f| f.name == field).map(|f| &f.ty),
        _ => None,
    }
}

/// An expression of the field's C# type built from the JSON text `text`.
fn from_json_text(contract: &Contract, ty: Option<&Ty>, text: &str) -> String {
    let ns = crate::targets::dotnet::runtime_ns(contract);
    match ty {
        Some(Ty::Ref(name)) => match contract.type_def(name).map(|t| &t.kind) {
            Some(TypeKind::StringEnum(_)) => format!("{}.Decode({text})", super::names::enum_wire_name(name)),
            _ => format!("{}.Decode({text})", type_name(name)),
        },
        _ => format!("{ns}.CoprocessJson.Parse({text})"),
    }
}

/// `new T(required...) { Optional = ... }` with the expressions `value` gives by wire name.
fn construct(contract: &Contract, name: &str, value: &dyn Fn(&str, &Ty) -> Option<String>) -> String {
    let class = type_name(name);
    let Some(TypeKind::Object(object)) = contract.type_def(name).map(|t| &t.kind) else {
        return format!("new {class}()");
    };
    let mut args = Vec::new();
    let mut inits = Vec::new();
    for field in &object.fields {
        let expr = value(&field.name, &field.ty);
        if field.required {
            args.push(expr.unwrap_or_else(|| format!("default({})!", cs_type(&field.ty))));
        } else if let Some(expr) = expr {
            inits.push(format!("{} = {expr}", member_name(&field.name, &class)));
        }
    }
    if inits.is_empty() {
        format!("new {class}({})", args.join(", "))
    } else {
        format!("new {class}({}) {{ {} }}", args.join(", "), inits.join(", "))
    }
}

fn handshake(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    let ns = out.ns.clone();
    let roles = &contract.roles;
    let role = &roles.handshake;
    let request_id = super::roles::request_id(contract)?;
    let version = super::roles::json_rpc_version(contract)?;
    let params_expr = construct(contract, &role.params, &|wire, _| match wire {
        "protocol_version" => Some("CoprocessProtocolVersion".to_string()),
        "sdk" => Some("sdk".to_string()),
        "sdk_version" => Some("sdkVersion".to_string()),
        _ => None,
    });
    let request_expr = construct(contract, &roles.request, &|wire, _| match wire {
        "jsonrpc" => Some(version.clone()),
        "id" => Some("id".to_string()),
        "method" => Some(format!("Methods.{}", method_const(&role.method))),
        "params" => Some(from_json_text(contract, field_ty(contract, &roles.request, "params"), "handshake.ToJson()")),
        _ => None,
    });
    summary_xml(out, 2, &format!("The <c>{}</c> request frame (one line, no newline) announcing <see cref=\"CoprocessProtocolVersion\"/>.", role.method));
    out.block(2, &format!("public static string HandshakeRequest({request_id} id, string sdk, string sdkVersion)"), |out| {
        out.line(3, &format!("var handshake = {params_expr};"));
        out.line(3, &format!("return {request_expr}.ToJson();"));
    });
    out.blank();
    let result = type_name(&role.result);
    let response = type_name(&roles.response);
    summary_xml(out, 2, &format!("Checks the response frame to the handshake: the binary's <c>{}</c> when it speaks this SDK's version.", role.result));
    out.line(2, &format!("/// <exception cref=\"{ns}.CoprocessVersionException\">The binary speaks another version or answered with an error.</exception>"));
    out.line(2, &format!("/// <exception cref=\"{ns}.CoprocessDecodeException\">The text is not a <c>{}</c>.</exception>", roles.response));
    out.block(2, &format!("public static {result} CheckHandshakeResponse(string response)"), |out| {
        out.line(3, &format!("return CheckHandshakeResponse({response}.Decode(response));"));
    });
    out.blank();
    check_response(out, contract);
    out.blank();
    sdk_mismatch(out, contract);
    Ok(())
}

/// `CheckHandshakeResponse(<response>)`: the handshake result of the
/// success arm, or the version error the error arm's error object words.
fn check_response(out: &mut Out, contract: &Contract) {
    let ns = out.ns.clone();
    let roles = &contract.roles;
    let (success, failure) = (&roles.success_response, &roles.error_response);
    let (response, result, error_object) = (type_name(&roles.response), type_name(&roles.handshake.result), type_name(&roles.error_object));
    let result_member = member_name("result", &type_name(success));
    let error_member = member_name("error", &type_name(failure));
    let code = member_name("code", &error_object);
    let message = member_name("message", &error_object);
    let version = member_name("protocol_version", &result);
    let binary_mismatch = contract.message("binary_mismatch");
    let prefix = binary_mismatch.split('{').next().unwrap_or_default();
    let failed = template_expr(contract.message("handshake_failed"), &|hole| match hole {
        "code" => format!("error.{code}.ToString(global::System.Globalization.CultureInfo.InvariantCulture)"),
        "message" => format!("error.{message}"),
        _ => "string.Empty".to_string(),
    });
    let result_decode = from_result(contract, success, &result_member);
    summary_xml(out, 2, "Checks a decoded handshake response: see <see cref=\"CheckHandshakeResponse(string)\"/>.");
    out.block(2, &format!("public static {result} CheckHandshakeResponse({response} response)"), |out| {
        out.line(3, &format!("{}? failure = response.{};", type_name(failure), variant_member(&roles.response, failure)));
        out.block(3, "if (failure != null)", |out| {
            out.line(4, &format!("{error_object} error = failure.{error_member};"));
            out.block(4, &format!("if (error.{code} == ErrorCodes.MethodNotFound)"), |out| {
                out.line(5, &format!("throw new {ns}.CoprocessVersionException(SdkMismatch(1));"));
            });
            let starts = format!("error.{message}.StartsWith({}, global::System.StringComparison.Ordinal)", string_literal(prefix));
            out.block(4, &format!("if (error.{code} == ErrorCodes.InvalidParams && {starts})"), |out| {
                out.line(5, &format!("throw new {ns}.CoprocessVersionException(error.{message});"));
            });
            out.line(4, &format!("throw new {ns}.CoprocessVersionException({failed});"));
        });
        out.line(3, &format!("{result} result = {result_decode};"));
        out.block(3, &format!("if (result.{version} != CoprocessProtocolVersion)"), |out| {
            out.line(4, &format!("throw new {ns}.CoprocessVersionException(SdkMismatch(result.{version}));"));
        });
        out.line(3, "return result;");
    });
}

/// Turns the success arm's `result` into the handshake result.
fn from_result(contract: &Contract, success: &str, result_member: &str) -> String {
    let roles = &contract.roles;
    let result = type_name(&roles.handshake.result);
    let access = format!("response.{}!.{result_member}", variant_member(&roles.response, success));
    match field_ty(contract, success, "result") {
        Some(Ty::Any) => format!("{result}.FromJson({access})"),
        Some(Ty::Ref(name)) if *name == roles.handshake.result => access,
        _ => format!("{result}.Decode({access}.ToJson())"),
    }
}

fn sdk_mismatch(out: &mut Out, contract: &Contract) {
    let advice = |name: &str| string_literal(contract.message(name));
    let text = template_expr(contract.message("sdk_mismatch"), &|hole| match hole {
        "binary_protocol" => "binaryProtocol.ToString(global::System.Globalization.CultureInfo.InvariantCulture)".to_string(),
        "sdk_protocol" => "CoprocessProtocolVersion.ToString(global::System.Globalization.CultureInfo.InvariantCulture)".to_string(),
        "advice" => "advice".to_string(),
        _ => "string.Empty".to_string(),
    });
    let description = contract.messages.get("sdk_mismatch").map(|m| m.description.clone()).unwrap_or_default();
    summary(out, 2, &description);
    out.block(2, "private static string SdkMismatch(long binaryProtocol)", |out| {
        out.line(3, &format!(
            "string advice = binaryProtocol < CoprocessProtocolVersion ? {} : {};",
            advice("upgrade_binary"),
            advice("upgrade_sdk")
        ));
        out.line(3, &format!("return {text};"));
    });
}

fn registry(out: &mut Out, contract: &Contract) {
    let ns = out.ns.clone();
    out.blank();
    let names: Vec<String> = contract.types.keys().map(|n| string_literal(n)).collect();
    summary_xml(out, 2, "Every <c>$defs</c> type name of the contract, sorted.");
    out.line(2, &format!("public static readonly global::System.Collections.Generic.IReadOnlyList<string> TypeNames = global::System.Array.AsReadOnly(new[] {{ {} }});", names.join(", ")));
    out.blank();
    summary_xml(out, 2, "Decodes one frame's JSON text as the named <c>$defs</c> type (enums come back boxed).");
    out.line(2, &format!("/// <exception cref=\"{ns}.CoprocessDecodeException\">The text is not a value of that type.</exception>"));
    out.line(2, "/// <exception cref=\"global::System.ArgumentException\">There is no type of that name.</exception>");
    out.block(2, "public static object Decode(string typeName, string json)", |out| {
        out.block(3, "switch (typeName)", |out| {
            for def in contract.types.values() {
                out.line(4, &format!("case {}:", string_literal(&def.name)));
                let decoder = match def.kind {
                    TypeKind::StringEnum(_) => super::names::enum_wire_name(&def.name),
                    _ => type_name(&def.name),
                };
                out.line(5, &format!("return {decoder}.Decode(json);"));
            }
            out.line(4, "default:");
            out.line(5, "throw new global::System.ArgumentException(\"unknown type `\" + typeName + \"`\", nameof(typeName));");
        });
    });
    out.blank();
    summary(out, 2, "Encodes a value of any generated type as one line of JSON text.");
    out.line(2, "/// <exception cref=\"global::System.ArgumentException\">The value is not of a generated type.</exception>");
    out.block(2, "public static string Encode(object value)", |out| {
        out.block(3, "switch (value)", |out| {
            for (i, def) in contract.types.values().enumerate() {
                out.line(4, &format!("case {} value{i}:", type_name(&def.name)));
                match def.kind {
                    TypeKind::StringEnum(_) => out.line(5, &format!("return {}.ToJson(value{i});", super::names::enum_wire_name(&def.name))),
                    _ => out.line(5, &format!("return value{i}.ToJson();")),
                }
            }
            out.line(4, "default:");
            out.line(5, "throw new global::System.ArgumentException(\"not a generated coprocess type\", nameof(value));");
        });
    });
}

fn row_types(out: &mut Out) {
    summary(out, 1, "One row of the method table.");
    out.block(1, "public sealed class MethodSpec", |out| {
        summary(out, 2, "Creates a row.");
        out.block(2, "public MethodSpec(string name, Type paramsType, bool paramsRequired, Type resultType)", |out| {
            out.line(3, "Name = name;");
            out.line(3, "ParamsType = paramsType;");
            out.line(3, "ParamsRequired = paramsRequired;");
            out.line(3, "ResultType = resultType;");
        });
        out.blank();
        summary(out, 2, "The wire name of the method.");
        out.line(2, "public string Name { get; }");
        out.blank();
        summary(out, 2, "The generated type of the method's params.");
        out.line(2, "public Type ParamsType { get; }");
        out.blank();
        summary_xml(out, 2, "Whether <c>params</c> must be present (otherwise it may be omitted).");
        out.line(2, "public bool ParamsRequired { get; }");
        out.blank();
        summary(out, 2, "The generated type of the method's result.");
        out.line(2, "public Type ResultType { get; }");
    });
    out.blank();
    summary(out, 1, "One row of the error-code table.");
    out.block(1, "public sealed class ErrorCodeSpec", |out| {
        summary(out, 2, "Creates a row.");
        out.block(2, "public ErrorCodeSpec(string name, long code)", |out| {
            out.line(3, "Name = name;");
            out.line(3, "Code = code;");
        });
        out.blank();
        summary(out, 2, "The UpperCamelCase name of the code.");
        out.line(2, "public string Name { get; }");
        out.blank();
        summary(out, 2, "The JSON-RPC error code.");
        out.line(2, "public long Code { get; }");
    });
}
