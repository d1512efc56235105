//! Typed envelopes: `<request>Of<TParams>`, `<success>Of<TResult>` and
//! `<response>Of<TResult>` (`RequestOf<TParams>` and so on for v2.json), the
//! request envelope, the success arm and the response envelope of the
//! contract's roles with their open `params` / `result` member decoded as the generated
//! type the method table names, in the same pass over the text (no detour
//! through a `JsonElement`; a wrong `params` is reported at `$.params.…`).
//! The type parameter reaches its decoders through `CoprocessCodec<T>`, which
//! `CoprocessCodecs.Find` fills in for every generated class.

use super::docs::summary_xml;
use super::names::type_name;
use super::types::{render_object_as, render_union_as};
use super::Out;
use crate::model::{Contract, Ty, TypeDef, TypeKind};
use crate::SchemaError;

/// The JSON-RPC envelopes of the roles (the request, the success arm), the
/// member each one leaves open, and its type parameter.
fn open_members(contract: &Contract) -> [(&str, &'static str, &'static str); 2] {
    let roles = &contract.roles;
    [(roles.request.as_str(), "params", "TParams"), (roles.success_response.as_str(), "result", "TResult")]
}

/// The generic class name of an envelope: `RequestOf<TParams>`.
fn typed_class(name: &str, param: &str) -> String {
    format!("{}Of<{param}>", type_name(name))
}

/// The typed envelopes and `CoprocessCodecs`. The loader guarantees each
/// envelope role a closed object (the response a union); one that is not is
/// refused, never skipped.
pub fn render(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    for (name, member, param) in open_members(contract) {
        let def = role_def(contract, name)?;
        let TypeKind::Object(object) = &def.kind else { return Err(not_renderable(contract, name, "a closed object")) };
        let mut typed = object.clone();
        for field in typed.fields.iter_mut().filter(|f| f.name == member) {
            field.ty = Ty::Ref((*param).to_string());
        }
        let typed_def = TypeDef { name: def.name.clone(), description: def.description.clone(), kind: TypeKind::Object(typed.clone()), deprecated: def.deprecated };
        out.blank();
        doc(out, name, member, param);
        render_object_as(out, contract, &typed_def, &typed, &typed_class(name, param), Some(param));
    }
    response_of(out, contract)?;
    out.blank();
    codecs(out, contract);
    Ok(())
}

fn role_def<'c>(contract: &'c Contract, name: &str) -> Result<&'c TypeDef, SchemaError> {
    contract.type_def(name).ok_or_else(|| not_renderable(contract, name, "a `$defs` type"))
}

fn not_renderable(contract: &Contract, name: &str, what: &str) -> SchemaError {
    SchemaError::new(
        std::path::Path::new(&contract.source),
        format!("/$defs/{name}"),
        format!("the .NET target cannot type the envelope `{name}`: it is not {what}"),
        "make the roles name the closed objects and the union the loader describes",
    )
}

fn doc(out: &mut Out, name: &str, member: &str, param: &str) {
    summary_xml(out, 1, &format!(
        "A <c>{name}</c> whose <c>{member}</c> is decoded as <typeparamref name=\"{param}\"/> (the generated type the method table names) in the same pass as the frame. A problem is reported as the <c>{name}</c>'s, with its path from the frame's root (<c>$.{member}.…</c>)."
    ));
    out.line(1, &format!("/// <typeparam name=\"{param}\">A generated class, such as the method's {member} type; decoding a <c>{member}</c> as any other type throws <see cref=\"global::System.ArgumentException\"/>.</typeparam>"));
}

/// `<response>Of<TResult>`: the response envelope with its success arm typed.
fn response_of(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    let roles = &contract.roles;
    let def = role_def(contract, &roles.response)?;
    let TypeKind::Union(variants) = &def.kind else { return Err(not_renderable(contract, &roles.response, "a union")) };
    let param = "TResult";
    let classes: Vec<String> = variants
        .iter()
        .map(|v| if v.type_name == roles.success_response { typed_class(&v.type_name, param) } else { type_name(&v.type_name) })
        .collect();
    out.blank();
    doc(out, &roles.response, "result", param);
    render_union_as(out, contract, def, variants, &typed_class(&roles.response, param), Some(param), &classes);
    Ok(())
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
                let plain = if out.plans.contains_key(&def.name) { format!(", {}", super::codecs::plain::lambda(&ns, &class, &class)) } else { String::new() };
                out.block(3, &format!("if (type == typeof({class}))"), |out| {
                    out.line(4, &format!("return new {ns}.CoprocessCodec<{class}>({class}.Read, (ref global::System.Text.Json.Utf8JsonReader reader) => {class}.Read(ref reader), (builder, value) => value.Write(builder){plain});"));
                });
            }
            out.line(3, "return null;");
        });
    });
}
