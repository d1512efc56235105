//! Typed envelopes: `RequestOf<TParams>`, `SuccessResponseOf<TResult>` and
//! `ResponseOf<TResult>`, the `Request`, `SuccessResponse` and `Response`
//! frames with their open `params` / `result` member decoded as the generated
//! type the method table names, in the same pass over the text (no detour
//! through a `JsonElement`; a wrong `params` is reported at `$.params.…`).
//! The type parameter reaches its decoders through `CoprocessCodec<T>`, which
//! `CoprocessCodecs.Find` fills in for every generated class.

use super::docs::summary_xml;
use super::names::type_name;
use super::types::{render_object_as, render_union_as};
use super::Out;
use crate::model::{Contract, Ty, TypeDef, TypeKind};

/// The JSON-RPC envelopes, the member each one leaves open, and its type parameter.
const OPEN_MEMBERS: &[(&str, &str, &str)] = &[("Request", "params", "TParams"), ("SuccessResponse", "result", "TResult")];

/// The generic class name of an envelope: `RequestOf<TParams>`.
fn typed_class(name: &str, param: &str) -> String {
    format!("{}Of<{param}>", type_name(name))
}

pub fn render(out: &mut Out, contract: &Contract) {
    for (name, member, param) in OPEN_MEMBERS {
        let Some(def) = contract.type_def(name) else { continue };
        let TypeKind::Object(object) = &def.kind else { continue };
        let mut typed = object.clone();
        for field in typed.fields.iter_mut().filter(|f| f.name == *member) {
            field.ty = Ty::Ref((*param).to_string());
        }
        let typed_def = TypeDef { name: def.name.clone(), description: def.description.clone(), kind: TypeKind::Object(typed.clone()), deprecated: def.deprecated };
        out.blank();
        doc(out, name, member, param);
        render_object_as(out, contract, &typed_def, &typed, &typed_class(name, param), Some(param));
    }
    response_of(out, contract);
    out.blank();
    codecs(out, contract);
}

fn doc(out: &mut Out, name: &str, member: &str, param: &str) {
    summary_xml(out, 1, &format!(
        "A <c>{name}</c> whose <c>{member}</c> is decoded as <typeparamref name=\"{param}\"/> (the generated type the method table names) in the same pass as the frame. A problem is reported as the <c>{name}</c>'s, with its path from the frame's root (<c>$.{member}.…</c>)."
    ));
    out.line(1, &format!("/// <typeparam name=\"{param}\">A generated class, such as the method's {member} type; decoding a <c>{member}</c> as any other type throws <see cref=\"global::System.ArgumentException\"/>.</typeparam>"));
}

/// `ResponseOf<TResult>`: the `Response` union with its success variant typed.
fn response_of(out: &mut Out, contract: &Contract) {
    let Some(def) = contract.type_def("Response") else { return };
    let TypeKind::Union(variants) = &def.kind else { return };
    if contract.type_def("SuccessResponse").is_none() {
        return;
    }
    let param = "TResult";
    let classes: Vec<String> = variants
        .iter()
        .map(|v| if v.type_name == "SuccessResponse" { typed_class(&v.type_name, param) } else { type_name(&v.type_name) })
        .collect();
    out.blank();
    doc(out, "Response", "result", param);
    render_union_as(out, contract, def, variants, &typed_class("Response", param), Some(param), &classes);
}

/// `CoprocessCodecs.Find`: the codec of every generated class, by its type.
fn codecs(out: &mut Out, contract: &Contract) {
    let ns = out.ns.clone();
    summary_xml(out, 1, &format!("Finds the decoders and the encoder of a generated class for <see cref=\"{ns}.CoprocessCodec{{T}}\"/>."));
    out.block(1, "internal static class CoprocessCodecs", |out| {
        out.block(2, "internal static object? Find(Type type)", |out| {
            for def in contract.types.values() {
                if matches!(def.kind, TypeKind::StringEnum(_)) {
                    continue;
                }
                let class = type_name(&def.name);
                out.block(3, &format!("if (type == typeof({class}))"), |out| {
                    out.line(4, &format!("return new {ns}.CoprocessCodec<{class}>({class}.Read, (ref global::System.Text.Json.Utf8JsonReader reader) => {class}.Read(ref reader), (builder, value) => value.Write(builder));"));
                });
            }
            out.line(3, "return null;");
        });
    });
}
