//! Typed envelopes: `RequestOf<P>`, `SuccessResponseOf<R>` and `ResponseOf<R>`
//! (with `ErrorResponseOf<R>`), the request envelope, the success response
//! and the response envelope of the contract's roles (`Request`,
//! `SuccessResponse` and `Response` in v2.json) with their open `params` /
//! `result` member decoded as the
//! type the caller names by its class, `RequestOf.fromJson(json,
//! CallParams.class)`. The frame is parsed once by the strict reader and the
//! member is read by that type's own decoder during the frame's walk (never
//! walked as an open value first), so a wrong `params` is reported as the
//! `Request`'s problem at `$.params.…`. `JsonNode.class` keeps any value.

use super::layout::Code;
use super::codecs::{decode_object, decode_union};
use super::names::{field_name, string_literal, type_name};
use super::types::{render_record_as, Generic, Record};
use crate::model::{Contract, ObjectType, TypeDef, TypeKind, UnionVariant};

/// The JSON-RPC envelopes of the roles, the member each one leaves open, and
/// its type parameter: the request's `params` and the success response's
/// `result`.
fn open_members(contract: &Contract) -> [(&str, &'static str, &'static str); 2] {
    let roles = &contract.roles;
    [(&roles.request, "params", "P"), (&roles.success_response, "result", RESPONSE_PARAM)]
}

/// The type parameter of the response envelope's generic twin, whose
/// success variant is typed.
const RESPONSE_PARAM: &str = "R";

/// The generic name of an envelope: `RequestOf`.
fn typed_name(name: &str) -> String {
    format!("{}Of", type_name(name))
}

/// The class Javadoc's paragraph on the envelopes, when the contract has one.
pub fn class_doc(contract: &Contract) -> Option<String> {
    let typed = envelopes(contract);
    let first = typed.first()?;
    let names: Vec<String> = typed
        .iter()
        .map(|e| format!("`{}<{}>`", typed_name(&e.def.name), e.generic.param))
        .chain(response_variants(contract, &typed).map(|_| format!("`{}<{RESPONSE_PARAM}>`", typed_name(&contract.roles.response))))
        .collect();
    Some(format!(
        "The typed envelopes {} decode a frame with its open member as the class given, in the same pass: `{}.fromJson(json, {}Type)`; errors name the frame's type, with paths from its root.",
        names.join(", "),
        typed_name(&first.def.name),
        field_name(&first.generic.field)
    ))
}

/// An envelope this contract has: its definition, object shape and member.
struct Envelope<'a> {
    def: &'a TypeDef,
    object: &'a ObjectType,
    generic: Generic,
}

fn envelope<'a>(contract: &'a Contract, name: &str, member: &str, param: &str) -> Option<Envelope<'a>> {
    let def = contract.type_def(name)?;
    let TypeKind::Object(object) = &def.kind else {
        return None;
    };
    object.fields.iter().find(|f| f.name == member)?;
    let generic = Generic { field: member.to_string(), param: param.to_string() };
    Some(Envelope { def, object, generic })
}

fn envelopes(contract: &Contract) -> Vec<Envelope<'_>> {
    open_members(contract)
        .into_iter()
        .filter_map(|(name, member, param)| envelope(contract, name, member, param))
        .collect()
}

/// The response envelope's variants, when one of them is an envelope and
/// every other one an object (so that it gets a generic twin).
fn response_variants<'a>(contract: &'a Contract, typed: &[Envelope]) -> Option<Vec<&'a UnionVariant>> {
    let TypeKind::Union(variants) = &contract.type_def(&contract.roles.response)?.kind else {
        return None;
    };
    let is_typed = |v: &UnionVariant| typed.iter().any(|e| e.def.name == v.type_name);
    let objects = variants
        .iter()
        .all(|v| is_typed(v) || matches!(contract.type_def(&v.type_name).map(|d| &d.kind), Some(TypeKind::Object(_))));
    (objects && variants.iter().any(is_typed)).then(|| variants.iter().collect())
}

/// The declarations: one generic record per envelope, the generic twins of
/// the other response envelope variants, and `ResponseOf<R>`.
pub fn render_types(code: &mut Code, contract: &Contract) {
    let typed = envelopes(contract);
    let variants = response_variants(contract, &typed);
    let response = contract.roles.response.as_str();
    let in_response = |name: &str| variants.as_ref().is_some_and(|vs| vs.iter().any(|v| v.type_name == name));
    for e in &typed {
        let implements = if in_response(&e.def.name) {
            format!("{}<{}>", typed_name(response), e.generic.param)
        } else {
            "Encodable".to_string()
        };
        code.blank();
        render_envelope(code, e, implements);
    }
    let Some(variants) = variants else { return };
    for v in &variants {
        if typed.iter().all(|e| e.def.name != v.type_name) {
            code.blank();
            render_twin(code, contract, &v.type_name);
        }
    }
    code.blank();
    render_response(code, response, &variants);
}

fn render_envelope(code: &mut Code, e: &Envelope, implements: String) {
    let (name, member, param) = (&e.def.name, &e.generic.field, &e.generic.param);
    let description = format!(
        "A `{name}` whose `{member}` is decoded as `{param}` in the same pass as the frame: a problem is reported as the `{name}`'s, with its path from the frame's root (`$.{member}.…`).\n\n{}",
        e.def.description
    );
    let def = TypeDef { name: name.clone(), description, kind: e.def.kind.clone(), deprecated: e.def.deprecated };
    let record = Record {
        decl: format!("{}<{param}>", typed_name(name)),
        implements,
        generic: Some(&e.generic),
        type_param: Some((param.clone(), param_doc(member))),
    };
    render_record_as(code, &def, e.object, &record, &|code| entry_points(code, name, member, param));
}

/// What a type parameter's `@param` says.
fn param_doc(member: &str) -> String {
    format!("the type `{member}` is decoded as: a generated type (such as the method's), or `JsonNode` for any value")
}

/// Where an entry point reads from: its method, parameter, parameter doc,
/// the runtime reader it goes through, and how its `DecodeException` starts.
struct Source {
    method: &'static str,
    arg: &'static str,
    java: &'static str,
    doc: &'static str,
    via: &'static str,
    what: &'static str,
}

const SOURCES: [Source; 2] = [
    Source { method: "fromJson", arg: "json", java: "String", doc: "the frame text, without the line terminator", via: "readText", what: "the text is not strict JSON or" },
    Source { method: "fromNode", arg: "node", java: "JsonNode", doc: "the already parsed frame", via: "readTree", what: "the value is" },
];

/// `fromJson(json, type)` and `fromNode(node, type)` of an envelope (`name`
/// is the request or the response envelope).
fn entry_points(code: &mut Code, name: &str, member: &str, param: &str) {
    for source in &SOURCES {
        entry_point(code, source, name, member, param);
    }
}

fn entry_point(code: &mut Code, source: &Source, name: &str, member: &str, param: &str) {
    let (typed, argument) = (typed_name(name), format!("{}Type", field_name(member)));
    let (method, arg, java, via) = (source.method, source.arg, source.java, source.via);
    let tags = vec![
        ("param", format!("<{param}>"), format!("the type `{member}` is decoded as")),
        ("param", arg.to_string(), source.doc.to_string()),
        ("param", argument.clone(), format!("the class of `{param}`: a generated type, or `JsonNode` for any value")),
        ("return", String::new(), "the decoded frame".to_string()),
        ("throws", "DecodeException".to_string(), format!("when {} not a `{name}` whose `{member}` decodes as `{param}`; the message names `{name}`, with paths from the frame's root", source.what)),
        ("throws", "IllegalArgumentException".to_string(), format!("when `{argument}` is neither a generated type nor `JsonNode`")),
    ];
    code.blank();
    code.doc(2, &format!("Decodes a `{name}` with its `{member}` as `{param}`, in one pass."), &tags);
    code.line(2, format!("public static <{param}> {typed}<{param}> {method}({java} {arg}, Class<{param}> {argument}) {{"));
    code.line(3, format!("Decoder<{param}> reader = memberDecoder({argument});"));
    code.line(3, format!("return {via}({arg}, {}, (n, p) -> decode{typed}(n, p, reader));", string_literal(name)));
    code.line(2, "}");
}

/// The generic twin of a response envelope variant that has no open member:
/// `ErrorResponseOf<R>`, the same fields, so that it can be a `ResponseOf<R>`.
fn render_twin(code: &mut Code, contract: &Contract, name: &str) {
    let Some(def) = contract.type_def(name) else { return };
    let TypeKind::Object(object) = &def.kind else { return };
    let (response, param) = (contract.roles.response.as_str(), RESPONSE_PARAM);
    let description = format!(
        "{} `{name}` read as a `{response}Of<{param}>`: the same fields, and `{param}` only says which `{response}Of` it belongs to.\n\n{}",
        article(name),
        def.description
    );
    let twin = TypeDef { name: def.name.clone(), description, kind: def.kind.clone(), deprecated: def.deprecated };
    let record = Record {
        decl: format!("{}<{param}>", typed_name(name)),
        implements: format!("{}<{param}>", typed_name(response)),
        generic: None,
        type_param: Some((param.to_string(), format!("the `result` type of the `{response}Of` this answers"))),
    };
    render_record_as(code, &twin, object, &record, &|_| {});
}

/// `A` or `An`, for the name that follows.
fn article(name: &str) -> &'static str {
    match name.chars().next() {
        Some(c) if "AEIOUaeiou".contains(c) => "An",
        _ => "A",
    }
}

/// `ResponseOf<R>`: the sealed union of the typed success variant and the twins.
fn render_response(code: &mut Code, response: &str, variants: &[&UnionVariant]) {
    let param = RESPONSE_PARAM;
    let permits: Vec<String> = variants.iter().map(|v| typed_name(&v.type_name)).collect();
    code.doc(
        1,
        &format!("A `{response}` whose `result`, if it has one, is decoded as `{param}` in the same pass as the frame: a problem is reported as the `{response}`'s, with its path from the frame's root (`$.result.…`)."),
        &[("param", format!("<{param}>"), param_doc("result"))],
    );
    code.line(1, format!("public sealed interface {}<{param}> extends Encodable permits {} {{", typed_name(response), permits.join(", ")));
    entry_points(code, response, "result", param);
    code.line(1, "}");
}

/// The private decoders of the envelopes, and the member machinery.
/// Whether the contract has a typed envelope (and so needs the runtime's
/// member machinery).
pub fn any(contract: &Contract) -> bool {
    !envelopes(contract).is_empty()
}

pub fn render_decoders(code: &mut Code, contract: &Contract) {
    let typed = envelopes(contract);
    for e in &typed {
        let (name, param) = (typed_name(&e.def.name), &e.generic.param);
        code.blank();
        code.line(1, format!("private static <{param}> {name}<{param}> decode{name}(JsonNode node, Path path, Decoder<{param}> reader) {{"));
        decode_object(code, &format!("{name}<>"), e.object, Some(&e.generic));
        code.line(1, "}");
    }
    if let Some(variants) = response_variants(contract, &typed) {
        render_response_decoder(code, contract, &typed, &variants);
    }
    if !typed.is_empty() {
        render_member_support(code, contract);
    }
}

fn render_response_decoder(code: &mut Code, contract: &Contract, typed: &[Envelope], variants: &[&UnionVariant]) {
    let (name, param) = (typed_name(&contract.roles.response), RESPONSE_PARAM);
    let owned: Vec<UnionVariant> = variants.iter().map(|v| (*v).clone()).collect();
    code.blank();
    code.line(1, format!("private static <{param}> {name}<{param}> decode{name}(JsonNode node, Path path, Decoder<{param}> reader) {{"));
    decode_union(code, &owned, &|v| {
        let variant = typed_name(&v.type_name);
        if typed.iter().any(|e| e.def.name == v.type_name) {
            format!("decode{variant}(object, path, reader)")
        } else {
            format!("decode{variant}(object, path)")
        }
    });
    code.line(1, "}");
    for v in variants.iter().filter(|v| typed.iter().all(|e| e.def.name != v.type_name)) {
        render_twin_decoder(code, contract, &v.type_name);
    }
}

/// The decoder of a twin: reads the variant, copies its fields.
fn render_twin_decoder(code: &mut Code, contract: &Contract, name: &str) {
    let Some(TypeKind::Object(object)) = contract.type_def(name).map(|d| &d.kind) else { return };
    let (variant, twin, param) = (type_name(name), typed_name(name), RESPONSE_PARAM);
    let fields: Vec<String> = object.fields.iter().map(|f| format!("v.{}()", field_name(&f.name))).collect();
    code.blank();
    code.line(1, format!("private static <{param}> {twin}<{param}> decode{twin}(JsonNode node, Path path) {{"));
    code.line(2, format!("{variant} v = decode{variant}(node, path);"));
    code.line(2, format!("return new {twin}<>({});", fields.join(", ")));
    code.line(1, "}");
}

/// `MEMBER_DECODERS`, `memberDecoder`, `checkMember`, `writeMember`.
fn render_member_support(code: &mut Code, contract: &Contract) {
    code.blank();
    code.doc(1, "What a typed envelope's member may be decoded as: every generated type, and `JsonNode`.", &[]);

    let mut rows = vec!["member(JsonNode.class, (node, path) -> node)".to_string()];
    for def in contract.types.values() {
        let name = type_name(&def.name);
        rows.push(format!("member({name}.class, Coprocess::decode{name})"));
    }
    code.line(1, format!("private static final Map<Class<?>, Decoder<?>> MEMBER_DECODERS = Map.ofEntries({});", rows.join(", ")));

}
