//! Type declarations: interfaces for closed objects, aliases for maps,
//! unions, string enums (string-literal unions) and request ids.

use crate::model::{Contract, Field, ObjectType, Ty, TypeDef, TypeKind};

use super::layout::Out;
use super::names::{constant, js_string, property_key, type_name};

/// The TypeScript type of a field, map value or array item.
pub fn ts_type(ty: &Ty) -> String {
    match ty {
        Ty::Any => "JsonValue".into(),
        Ty::Boolean => "boolean".into(),
        Ty::Integer { .. } => "number".into(),
        Ty::String => "string".into(),
        Ty::Ref(name) => type_name(name),
        Ty::Array(item) => match item.as_ref() {
            Ty::Nullable(_) | Ty::Array(_) => format!("readonly ({})[]", ts_type(item)),
            _ => format!("readonly {}[]", ts_type(item)),
        },
        Ty::Nullable(inner) => format!("{} | null", ts_type(inner)),
    }
}

/// Declares the type of `def`, with its description as TSDoc.
pub fn declare(out: &mut Out, _contract: &Contract, def: &TypeDef) {
    out.blank();
    out.doc("", &def.description);
    let name = type_name(&def.name);
    match &def.kind {
        TypeKind::Object(object) => declare_object(out, &name, object),
        TypeKind::Map(Ty::Any) => out.line(format!("export type {name} = JsonObject;")),
        TypeKind::Map(value) => {
            out.line(format!("export type {name} = Readonly<Record<string, {}>>;", ts_type(value)));
        }
        TypeKind::Union(variants) => {
            let names: Vec<String> = variants.iter().map(|v| type_name(&v.type_name)).collect();
            out.line(format!("export type {name} = {};", names.join(" | ")));
        }
        TypeKind::StringEnum(values) => declare_enum(out, &def.name, &name, values),
        TypeKind::IntegerOrString => out.line(format!("export type {name} = number | string;")),
    }
}

/// Declares a closed object as `name`, an interface (or an empty record).
pub fn declare_object(out: &mut Out, name: &str, object: &ObjectType) {
    if object.fields.is_empty() {
        out.line(format!("export type {name} = Record<string, never>;"));
        return;
    }
    out.line(format!("export interface {name} {{"));
    for field in &object.fields {
        declare_field(out, field);
    }
    out.line("}");
}

fn declare_field(out: &mut Out, field: &Field) {
    out.doc("  ", &field.description);
    let optional = if field.required { "" } else { "?" };
    out.line(format!("  readonly {}{optional}: {};", property_key(&field.name), ts_type(&field.ty)));
}

fn declare_enum(out: &mut Out, def: &str, name: &str, values: &[String]) {
    let literals: Vec<String> = values.iter().map(|v| js_string(v)).collect();
    out.line(format!("export type {name} = {};", literals.join(" | ")));
    out.blank();
    out.doc("", &format!("Every value of `{name}`, in schema order."));
    out.line(format!("export const {}: readonly {name}[] = [{}];", values_constant(def), literals.join(", ")));
}

/// The name of the constant listing a string enum's values.
pub fn values_constant(def: &str) -> String {
    format!("{}_VALUES", constant(def))
}
