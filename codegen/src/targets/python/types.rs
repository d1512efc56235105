//! One Python type per `$defs` entry: frozen dataclasses for closed objects,
//! type aliases for string enums (`Literal`), request ids, maps and unions.

use std::collections::BTreeSet;

use super::docs::docstring;
use super::layout::{collection, statement, string, Out};
use super::names::{annotation, field, upper};
use crate::model::{Contract, Field, ObjectType, Ty, TypeDef, TypeKind};

/// Enums and ids first (they depend on nothing), then the dataclasses (their
/// annotations are lazy), then maps and unions in dependency order.
pub fn render(contract: &Contract, out: &mut Out) {
    for def in contract.types.values() {
        match &def.kind {
            TypeKind::StringEnum(values) => string_enum(def, values, out),
            TypeKind::IntegerOrString => alias(def, "int | str", out),
            _ => {}
        }
    }
    for def in contract.types.values() {
        if let TypeKind::Object(object) = &def.kind {
            dataclass(def, object, out);
        }
    }
    let mut done = BTreeSet::new();
    for name in contract.types.keys() {
        composite_in_order(contract, name, &mut done, out);
    }
}

fn composite_in_order(contract: &Contract, name: &str, done: &mut BTreeSet<String>, out: &mut Out) {
    let Some(def) = contract.type_def(name) else { return };
    if !matches!(def.kind, TypeKind::Map { .. } | TypeKind::Union(_)) || !done.insert(name.to_string()) {
        return;
    }
    let deps: Vec<String> = match &def.kind {
        TypeKind::Map { values: ty, .. } => refs(ty),
        TypeKind::Union(variants) => variants.iter().map(|v| v.type_name.clone()).collect(),
        _ => Vec::new(),
    };
    for dep in deps {
        composite_in_order(contract, &dep, done, out);
    }
    match &def.kind {
        TypeKind::Map { values: ty, .. } => alias(def, &format!("dict[str, {}]", annotation(ty)), out),
        TypeKind::Union(variants) => {
            let names: Vec<String> = variants.iter().map(|v| v.type_name.clone()).collect();
            if names.len() == 1 {
                alias(def, &names[0], out);
            } else {
                alias(def, &names.join(" | "), out);
            }
        }
        _ => {}
    }
}

fn refs(ty: &Ty) -> Vec<String> {
    match ty {
        Ty::Ref(name) => vec![name.clone()],
        Ty::Array(inner) | Ty::Nullable(inner) | Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => refs(inner),
        _ => Vec::new(),
    }
}

fn alias(def: &TypeDef, target: &str, out: &mut Out) {
    out.blank(2);
    out.line(&alias_line(&def.name, target));
    out.line(&docstring(0, &def.description));
}

/// `Name = Target`, laid out as `ruff format` does.
fn alias_line(name: &str, target: &str) -> String {
    statement(0, &format!("{name} = {target}"))
}

fn string_enum(def: &TypeDef, values: &[String], out: &mut Out) {
    let literals: Vec<String> = values.iter().map(|v| string(v)).collect();
    out.blank(2);
    out.line(&alias_line(&def.name, &format!("typing.Literal[{}]", literals.join(", "))));
    out.line(&docstring(0, &def.description));
    out.blank(1);
    let head = format!("{}_VALUES: typing.Final[tuple[{}, ...]] = (", upper(&def.name), def.name);
    out.line(&collection(0, &head, &literals, ""));
    out.line(&docstring(0, &format!("The values of `{}`, in schema order.", def.name)));
}

/// The fields in constructor order: required ones first, then the optional
/// ones (which default to absent); each group in declaration order.
pub fn constructor_order(object: &ObjectType) -> Vec<&Field> {
    let required = object.fields.iter().filter(|f| f.required);
    required.chain(object.fields.iter().filter(|f| !f.required)).collect()
}

/// The attribute annotation of a field.
pub fn field_annotation(f: &Field) -> String {
    match (f.required, &f.ty) {
        (true, ty) => annotation(ty),
        (false, Ty::Any) => "JsonValue | Absent".to_string(),
        (false, ty) => format!("{} | None", annotation(ty)),
    }
}

fn dataclass(def: &TypeDef, object: &ObjectType, out: &mut Out) {
    out.blank(2);
    out.line("@dataclass(frozen=True)");
    out.line(&format!("class {}:", def.name));
    out.line(&docstring(4, &def.description));
    for f in constructor_order(object) {
        let default = match (f.required, &f.ty) {
            (true, _) => "",
            (false, Ty::Any) => " = ABSENT",
            (false, _) => " = None",
        };
        out.blank(1);
        out.line(&format!("    {}: {}{default}", field(&f.name), field_annotation(f)));
        out.line(&docstring(4, &field_doc(f)));
    }
}

fn field_doc(f: &Field) -> String {
    let doc = if field(&f.name) == f.name {
        f.description.clone()
    } else {
        format!("`{}` on the wire. {}", f.name, f.description)
    };
    let f = &Field { description: doc, ..f.clone() };
    match (f.required, &f.ty) {
        (true, _) => f.description.clone(),
        (false, Ty::Any) => format!("{} Optional: `ABSENT` when left out.", f.description),
        (false, _) => format!("{} Optional: `None` when left out.", f.description),
    }
}
