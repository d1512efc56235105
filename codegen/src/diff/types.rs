//! The `$defs`: types added, removed or renamed, a type's kind, and member
//! by member a closed object's members, a map's values, counts and names,
//! a union's variants and a string enum's values. A member's type is
//! compared by [`super::facets`].

use std::collections::BTreeSet;

use super::facets::{self, At};
use super::flow::Flows;
use super::shapes::Shapes;
use super::{Change, Wire};
use crate::error::push_pointer;
use crate::model::{Contract, Field, ObjectType, TypeDef, TypeKind, UnionVariant};

fn kind_words(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Object(_) => "closed object",
        TypeKind::Map { .. } => "map",
        TypeKind::Union(_) => "union",
        TypeKind::StringEnum(_) => "string enum",
        TypeKind::IntegerOrString => "integer or string",
    }
}

/// Every type of either contract, by name.
pub(crate) fn compare(old: &Contract, new: &Contract, flows: &Flows, shapes: &Shapes<'_>, out: &mut Vec<Change>) {
    let names: BTreeSet<&String> = old.types.keys().chain(new.types.keys()).collect();
    let renamed_to: BTreeSet<&String> = shapes.renames.values().collect();
    for name in names {
        let at = push_pointer("/$defs", name);
        let flow = flows.get(name);
        match (old.types.get(name), new.types.get(name)) {
            (Some(o), Some(n)) => compare_def(o, n, &At { pointer: at, what: format!("`{name}`"), flow, shapes }, out),
            (Some(_), None) => out.push(match shapes.renames.get(name.as_str()) {
                Some(to) => Change::shape(
                    "type-renamed",
                    push_pointer("/$defs", to),
                    format!("`{name}`: type renamed to `{to}` (the same shape)"),
                    flow.union(flows.get(to)),
                    Wire::NONE,
                    true,
                ),
                None => Change::shape("type-removed", at, format!("`{name}`: type removed"), flow, Wire::NONE, true),
            }),
            (None, Some(n)) if !renamed_to.contains(name) => {
                let text = format!("`{name}`: type added ({})", kind_words(&n.kind));
                out.push(Change::shape("type-added", at, text, flow, Wire::NONE, false));
            }
            _ => {}
        }
    }
}

fn compare_def(old: &TypeDef, new: &TypeDef, at: &At<'_>, out: &mut Vec<Change>) {
    match (&old.kind, &new.kind) {
        (TypeKind::Object(o), TypeKind::Object(n)) => objects(o, n, at, out),
        (
            TypeKind::Map { values: ov, min_members: omin, max_members: omax, names: onames },
            TypeKind::Map { values: nv, min_members: nmin, max_members: nmax, names: nnames },
        ) => {
            let values = At { pointer: format!("{}/additionalProperties", at.pointer), what: format!("{} values", at.what), ..*at };
            facets::compare(ov, nv, &values, out);
            facets::bound(at, out, *omin, *nmin, |v| format!("minProperties {v}"), facets::minimum);
            facets::bound(at, out, *omax, *nmax, |v| format!("maxProperties {v}"), facets::maximum);
            let names = At { pointer: format!("{}/propertyNames", at.pointer), what: format!("{} member names", at.what), ..*at };
            match (onames, nnames) {
                (None, Some(n)) => names.shape(out, "constraint-tightened", format!("propertyNames {} added", facets::describe(n)), Wire::TIGHTENS),
                (Some(o), None) => names.shape(out, "constraint-loosened", format!("propertyNames {} removed", facets::describe(o)), Wire::LOOSENS),
                (Some(o), Some(n)) => facets::compare(o, n, &names, out),
                (None, None) => {}
            }
        }
        (TypeKind::Union(o), TypeKind::Union(n)) => unions(o, n, at, out),
        (TypeKind::StringEnum(o), TypeKind::StringEnum(n)) => enums(o, n, at, out),
        (TypeKind::IntegerOrString, TypeKind::IntegerOrString) => {}
        (o, n) => {
            let text = format!("{}: kind changed: {} → {}", at.what, kind_words(o), kind_words(n));
            out.push(Change::shape("type-kind-changed", at.pointer.clone(), text, at.flow, Wire::BOTH, true));
        }
    }
    wording(&old.description, &new.description, old.deprecated, new.deprecated, at, out);
}

impl At<'_> {
    /// A change of this place's shape that breaks no source.
    fn shape(&self, out: &mut Vec<Change>, kind: &'static str, text: String, wire: Wire) {
        out.push(Change::shape(kind, self.pointer.clone(), format!("{}: {text}", self.what), self.flow, wire, false));
    }
}

/// Descriptions (with the annotations folded in) and `deprecated`: compatible.
fn wording(old: &str, new: &str, old_deprecated: bool, new_deprecated: bool, at: &At<'_>, out: &mut Vec<Change>) {
    if old != new {
        out.push(Change::shape("description-changed", at.pointer.clone(), format!("{}: description or annotations changed", at.what), at.flow, Wire::NONE, false));
    }
    if old_deprecated != new_deprecated {
        let text = if new_deprecated { "now deprecated" } else { "no longer deprecated" };
        out.push(Change::shape("deprecated-changed", at.pointer.clone(), format!("{}: {text}", at.what), at.flow, Wire::NONE, false));
    }
}

/// A closed object's members: the new ones in declaration order, then the removed ones.
fn objects(old: &ObjectType, new: &ObjectType, at: &At<'_>, out: &mut Vec<Change>) {
    let find = |fields: &'_ [Field], name: &str| fields.iter().position(|f| f.name == name);
    for field in &new.fields {
        let member = At {
            pointer: push_pointer(&format!("{}/properties", at.pointer), &field.name),
            what: format!("`{}.{}`", at.what.trim_matches('`'), field.name),
            ..*at
        };
        let Some(i) = find(&old.fields, &field.name) else {
            let (kind, wire, source) =
                if field.required { ("required-member-added", Wire::BOTH, true) } else { ("optional-member-added", Wire::LOOSENS, false) };
            let text = format!("added, {}: {}", if field.required { "required" } else { "optional" }, facets::describe(&field.ty));
            out.push(Change::shape(kind, member.pointer.clone(), format!("{}: {text}", member.what), at.flow, wire, source));
            continue;
        };
        let before = &old.fields[i];
        match (before.required, field.required) {
            (false, true) => member.source(out, "member-now-required", "optional → required", Wire::TIGHTENS),
            (true, false) => member.source(out, "member-now-optional", "required → optional", Wire::LOOSENS),
            _ => {}
        }
        facets::compare(&before.ty, &field.ty, &member, out);
        wording(&before.description, &field.description, before.deprecated, field.deprecated, &member, out);
    }
    for field in old.fields.iter().filter(|f| find(&new.fields, &f.name).is_none()) {
        let pointer = push_pointer(&format!("{}/properties", at.pointer), &field.name);
        let (kind, wire) = if field.required { ("required-member-removed", Wire::BOTH) } else { ("optional-member-removed", Wire::TIGHTENS) };
        let text = format!("`{}.{}`: removed (was {})", at.what.trim_matches('`'), field.name, if field.required { "required" } else { "optional" });
        out.push(Change::shape(kind, pointer, text, at.flow, wire, true));
    }
    let kept_old: Vec<&str> = old.fields.iter().map(|f| f.name.as_str()).filter(|n| find(&new.fields, n).is_some()).collect();
    let kept_new: Vec<&str> = new.fields.iter().map(|f| f.name.as_str()).filter(|n| find(&old.fields, n).is_some()).collect();
    if kept_old != kept_new {
        let text = format!("{}: members reordered (encoders write declaration order; decoders take any)", at.what);
        out.push(Change::shape("member-order-changed", at.pointer.clone(), text, at.flow, Wire::NONE, false));
    }
}

impl At<'_> {
    /// A change of this place that breaks source too.
    fn source(&self, out: &mut Vec<Change>, kind: &'static str, text: &str, wire: Wire) {
        out.push(Change::shape(kind, self.pointer.clone(), format!("{}: {text}", self.what), self.flow, wire, true));
    }
}

fn unions(old: &[UnionVariant], new: &[UnionVariant], at: &At<'_>, out: &mut Vec<Change>) {
    let at = At { pointer: format!("{}/oneOf", at.pointer), what: at.what.clone(), ..*at };
    let renamed = |name: &str| at.shapes.renames.get(name).cloned().unwrap_or_else(|| name.to_string());
    let selector = |v: &UnionVariant| match &v.tag {
        Some(tag) => format!("`{}` = {}", v.discriminator, serde_json::Value::from(tag.as_str())),
        None => format!("member `{}` present", v.discriminator),
    };
    for variant in new {
        match old.iter().find(|o| renamed(&o.type_name) == variant.type_name) {
            None => at.shape(out, "variant-added", format!("variant `{}` added", variant.type_name), Wire::LOOSENS),
            Some(before) if selector(before) != selector(variant) => {
                let text = format!("variant `{}` selected by {} (was {})", variant.type_name, selector(variant), selector(before));
                at.shape(out, "variant-selector-changed", text, Wire::BOTH);
            }
            Some(_) => {}
        }
    }
    for variant in old.iter().filter(|o| !new.iter().any(|n| n.type_name == renamed(&o.type_name))) {
        at.source(out, "variant-removed", &format!("variant `{}` removed", variant.type_name), Wire::TIGHTENS);
    }
    let kept_old: Vec<String> = old.iter().map(|v| renamed(&v.type_name)).filter(|n| new.iter().any(|v| &v.type_name == n)).collect();
    let kept_new: Vec<String> = new.iter().map(|v| v.type_name.clone()).filter(|n| kept_old.contains(n)).collect();
    if kept_old != kept_new {
        at.shape(out, "variant-order-changed", "variants reordered (each is told apart by its own member)".into(), Wire::NONE);
    }
}

fn enums(old: &[String], new: &[String], at: &At<'_>, out: &mut Vec<Change>) {
    let at = At { pointer: format!("{}/enum", at.pointer), what: at.what.clone(), ..*at };
    let quoted = |v: &str| serde_json::Value::from(v).to_string();
    for value in new.iter().filter(|v| !old.contains(v)) {
        at.shape(out, "enum-value-added", format!("value {} added", quoted(value)), Wire::LOOSENS);
    }
    for value in old.iter().filter(|v| !new.contains(v)) {
        at.source(out, "enum-value-removed", &format!("value {} removed", quoted(value)), Wire::TIGHTENS);
    }
    let kept_old: Vec<&String> = old.iter().filter(|v| new.contains(v)).collect();
    let kept_new: Vec<&String> = new.iter().filter(|v| old.contains(v)).collect();
    if kept_old != kept_new {
        at.shape(out, "enum-order-changed", "values reordered".into(), Wire::NONE);
    }
}
