//! Encoders: `encode<T>(value)` writes one line of JSON text, fields in
//! schema declaration order, absent optional fields omitted, null as null.

use crate::model::{Contract, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

use super::names::{js_single, js_string, property_access, stem, type_name};
use super::out::Out;

/// The expression writing `value` (an expression of `ty`'s type) as JSON text.
pub fn write_expr(ty: &Ty, value: &str) -> String {
    match ty {
        Ty::Any | Ty::String => format!("JSON.stringify({value})"),
        Ty::Boolean => format!("({value} ? \"true\" : \"false\")"),
        Ty::Integer { .. } => format!("String({value})"),
        Ty::Ref(name) => format!("encode{}({value})", stem(name)),
        Ty::Array(item) => match item.as_ref() {
            Ty::Any => format!("JSON.stringify({value})"),
            item => format!("_writeArray({value}, (item) => {})", write_expr(item, "item")),
        },
        Ty::Nullable(inner) => match inner.as_ref() {
            Ty::Any => format!("JSON.stringify({value})"),
            inner => format!("({value} === null ? \"null\" : {})", write_expr(inner, value)),
        },
    }
}

/// Renders `encode<T>` for `def`.
pub fn render(out: &mut Out, _contract: &Contract, def: &TypeDef) {
    let name = type_name(&def.name);
    out.blank();
    out.doc("", &format!(
        "Encodes a `{}` as one line of JSON text (no newline inside or at the end).",
        def.name
    ));
    let empty = matches!(&def.kind, TypeKind::Object(object) if object.fields.is_empty());
    let param = if empty { "_value" } else { "value" };
    if empty {
        // Every encoder takes the value it encodes, this one too.
        out.line("// eslint-disable-next-line @typescript-eslint/no-unused-vars -- every encoder takes its value; an empty object has nothing to read from it");
    }
    out.line(format!("export function encode{}({param}: {name}): string {{", stem(&def.name)));
    match &def.kind {
        TypeKind::Object(object) => write_object(out, object),
        TypeKind::Map(Ty::Any) | TypeKind::StringEnum(_) => out.line("  return JSON.stringify(value);"),
        TypeKind::Map(ty) => {
            out.line(format!("  return _writeMap(value, (entry) => {});", write_expr(ty, "entry")));
        }
        TypeKind::Union(variants) => write_union(out, variants),
        TypeKind::IntegerOrString => {
            out.line("  return typeof value === \"number\" ? String(value) : JSON.stringify(value);");
        }
    }
    out.line("}");
}

/// The body of a closed object's encoder, which writes `value`.
pub fn write_object(out: &mut Out, object: &ObjectType) {
    if object.fields.is_empty() {
        out.line("  return \"{}\";");
        return;
    }
    out.line("  let out = \"{\";");
    // Whether a member is surely written before this field, or may be.
    let mut surely_written = false;
    let mut maybe_written = false;
    for field in &object.fields {
        let access = property_access("value", &field.name);
        let key = format!("{}:", serde_json::to_string(&field.name).unwrap_or_default());
        let written = write_expr(&field.ty, &access);
        let indent = if field.required { "  " } else { "    " };
        if !field.required {
            out.line(format!("  if ({access} !== undefined) {{"));
        }
        if surely_written {
            out.line(format!("{indent}out += {} + {written};", js_single(&format!(",{key}"))));
        } else if maybe_written {
            out.line(format!("{indent}out += (out.length > 1 ? \",\" : \"\") + {} + {written};", js_single(&key)));
        } else {
            out.line(format!("{indent}out += {} + {written};", js_single(&key)));
        }
        if !field.required {
            out.line("  }");
        }
        surely_written |= field.required;
        maybe_written = true;
    }
    out.line("  return out + \"}\";");
}

fn write_union(out: &mut Out, variants: &[UnionVariant]) {
    for (i, variant) in variants.iter().enumerate() {
        let encode = format!("encode{}(value)", stem(&variant.type_name));
        if i + 1 == variants.len() {
            out.line(format!("  return {encode};"));
        } else {
            let property = super::names::property(&variant.discriminator);
            out.line(format!("  if ({} in value) {{", js_string(&property)));
            out.line(format!("    return {encode};"));
            out.line("  }");
        }
    }
}
