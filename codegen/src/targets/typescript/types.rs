//! Type declarations: interfaces for closed objects, aliases for maps,
//! unions, string enums (string-literal unions) and request ids.

use crate::model::{Constant, Contract, Field, ObjectType, Ty, TypeDef, TypeKind};

use super::layout::Out;
use super::names::{constant, js_quoted, js_string, property_key, type_name};

/// The TypeScript type of a field, map value or array item.
pub fn ts_type(ty: &Ty) -> String {
    match ty {
        Ty::Any => "JsonValue".into(),
        Ty::Boolean => "boolean".into(),
        Ty::Integer { .. } | Ty::Number { .. } => "number".into(),
        Ty::String => "string".into(),
        Ty::Ref(name) => type_name(name),
        Ty::Array(item) => match item.as_ref() {
            Ty::Nullable(_) | Ty::Array(_) => format!("readonly ({})[]", ts_type(item)),
            _ => format!("readonly {}[]", ts_type(item)),
        },
        Ty::Nullable(inner) => format!("{} | null", ts_type(inner)),
        // A `const` is its literal type, so that a tagged union narrows on
        // its tag (`if (figure.kind === "circle")`).
        Ty::Const { value, inner } => match value {
            Constant::String(s) => js_quoted(s),
            Constant::Integer(n) => n.to_string(),
            Constant::Boolean(b) => b.to_string(),
            Constant::OneOf(_) if **inner != Ty::Any => listed_literals(value).join(" | "),
            Constant::Json(_) | Constant::OneOf(_) => "JsonValue".into(),
        },
        Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } => ts_type(inner),
    }
}

/// The values of an inline `enum` of scalars as TypeScript literals, in the
/// schema's order (`"fast"`, `2.5`, `true`), without its `null` (read
/// before the check, as [`Ty::Nullable`] says).
pub fn listed_literals(value: &Constant) -> Vec<String> {
    let literal = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => js_quoted(s),
        serde_json::Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), super::codecs::number_literal),
        other => other.to_string(),
    };
    value.values().iter().filter(|v| !v.is_null()).map(literal).collect()
}

/// Declares the type of `def`, with its description as TSDoc.
pub fn declare(out: &mut Out, contract: &Contract, def: &TypeDef) {
    out.blank();
    out.doc_tagged("", &def.description, def.deprecated);
    let name = type_name(&def.name);
    match &def.kind {
        TypeKind::Object(object) => declare_object(out, contract, &name, object),
        TypeKind::Map { values: Ty::Any, .. } => out.line(format!("export type {name} = JsonObject;")),
        TypeKind::Map { values: value, .. } if shadows_globals(contract) => {
            out.line(WRITTEN_OUT);
            out.line(format!("export type {name} = {{ readonly [key in string]: {} }};", ts_type(value)));
        }
        TypeKind::Map { values: value, .. } => {
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

/// Whether a `$defs` type takes the name of a global generic type the
/// declarations use (`Record`, `Readonly`), which it then shadows in the module.
fn shadows_globals(contract: &Contract) -> bool {
    contract.types.values().any(|def| matches!(type_name(&def.name).as_str(), "Record" | "Readonly"))
}

/// The reason a map or empty record is written out as a mapped type.
const WRITTEN_OUT: &str = "// eslint-disable-next-line @typescript-eslint/consistent-indexed-object-style -- written out: a $defs type named Record or Readonly shadows the global one in this module";

/// Declares a closed object as `name`, an interface (or an empty record).
pub fn declare_object(out: &mut Out, contract: &Contract, name: &str, object: &ObjectType) {
    if object.fields.is_empty() {
        if shadows_globals(contract) {
            out.line(WRITTEN_OUT);
            out.line(format!("export type {name} = {{ [key in string]: never }};"));
        } else {
            out.line(format!("export type {name} = Record<string, never>;"));
        }
        return;
    }
    out.line(format!("export interface {name} {{"));
    for field in &object.fields {
        declare_field(out, field);
    }
    out.line("}");
}

fn declare_field(out: &mut Out, field: &Field) {
    out.doc_tagged("  ", &field.description, field.deprecated);
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
