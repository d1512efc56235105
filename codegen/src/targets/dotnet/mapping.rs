//! The C# spelling of the model's types, which the types and their codecs
//! both write: a leaf below both.

use super::names::type_name;
use crate::model::{Contract, Field, ObjectType, Ty, TypeKind};

pub fn kind_of<'c>(contract: &'c Contract, name: &str) -> Option<&'c TypeKind> {
    contract.type_def(name).map(|t| &t.kind)
}

/// The C# type of a field, item or map value.
pub fn cs_type(ty: &Ty) -> String {
    match ty {
        Ty::Any => "global::System.Text.Json.JsonElement".to_string(),
        Ty::Number { .. } => "double".to_string(),
        Ty::Boolean => "bool".to_string(),
        Ty::Integer { .. } => "long".to_string(),
        Ty::String => "string".to_string(),
        Ty::Ref(name) => type_name(name),
        Ty::Array(item) => format!("global::System.Collections.Generic.List<{}>", cs_type(item)),
        Ty::Nullable(inner) => format!("{}?", cs_type(inner)),
        Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => cs_type(inner),
    }
}

/// Whether the C# type is a struct (its nullable form is `Nullable<T>`).
pub fn is_value_type(contract: &Contract, ty: &Ty) -> bool {
    match ty {
        Ty::Any | Ty::Boolean | Ty::Integer { .. } | Ty::Number { .. } => true,
        Ty::Multiple { inner, .. } | Ty::Const { inner, .. } => is_value_type(contract, inner),
        Ty::Ref(name) => matches!(kind_of(contract, name), Some(TypeKind::StringEnum(_))),
        _ => false,
    }
}

/// The property type of a field: optional fields are nullable (absent = null).
pub fn field_type(field: &Field) -> String {
    let ty = cs_type(&field.ty);
    if field.required || matches!(field.ty, Ty::Nullable(_)) {
        ty
    } else {
        format!("{ty}?")
    }
}

/// A class name as a doc-comment `cref` (`RequestOf{TParams}`).
pub fn cref(class: &str) -> String {
    class.replace('<', "{").replace('>', "}")
}

/// The class name without type parameters (its constructor's name).
pub fn bare(class: &str) -> &str {
    class.split('<').next().unwrap_or(class)
}

pub fn required(object: &ObjectType) -> impl Iterator<Item = &Field> {
    object.fields.iter().filter(|f| f.required)
}

pub fn quoted_list(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}
