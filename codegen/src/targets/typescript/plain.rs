//! The single-pass readers ([`crate::targets::readers`]) in TypeScript, as
//! Python's (`…_in_place`): `plain<Type>(text)` of each type the plan reads
//! whose members are all required and none an object, which matches the
//! type's text in its plain forms, its members in declaration order and no
//! whitespace (as the binary writes them), with one `RegExp` (`_objectText`),
//! and builds the value from the groups; undefined for any other text, which
//! the strict decode then reads (and says what is wrong). `decode<Type>`
//! tries it first, so the conformance corpus reads through it, and the
//! session client reads a laid-out answer's result with it (no `JSON.parse`,
//! no walk over the parsed value, no shape check of its own).

use std::collections::BTreeMap;

use super::layout::{Out, WIDTH};
use super::names::{constant, js_string, property_key, stem, type_name};
use crate::model::{Contract, TypeKind};
use crate::targets::readers::{plans, Plan, Read};

/// The types with a TypeScript plain reader and what each reads: the plan's
/// flat objects whose members are all required (a pattern of members in
/// order has no room for an absent one), and its unions through those. None
/// when the contract's nesting limit leaves no room for a result inside an
/// answer.
pub fn ts_plans(contract: &Contract) -> BTreeMap<String, Plan> {
    if contract.max_depth < 2 {
        return BTreeMap::new();
    }
    let (objects, unions): (Vec<_>, Vec<_>) = plans(contract).into_iter().partition(|(_, plan)| matches!(plan, Plan::Object(_)));
    let mut out: BTreeMap<String, Plan> = objects
        .into_iter()
        .filter(|(_, plan)| match plan {
            Plan::Object(members) => members.iter().all(|m| m.required && !matches!(m.read, Read::Object(_))),
            Plan::Union(_) => false,
        })
        .collect();
    let unions: Vec<(String, Plan)> = unions
        .into_iter()
        .filter_map(|(name, plan)| match plan {
            Plan::Union(variants) => {
                let read: Vec<String> = variants.into_iter().filter(|v| out.contains_key(v)).collect();
                (!read.is_empty()).then_some((name, Plan::Union(read)))
            }
            Plan::Object(_) => None,
        })
        .collect();
    out.extend(unions);
    out
}

/// The plain reader's name of `def` (`plainVerdict`).
pub fn reader(def: &str) -> String {
    format!("plain{}", stem(def))
}

/// The value pattern of a member read so (a constant of the runtime).
fn pattern(read: &Read) -> &'static str {
    match read {
        Read::Boolean => "_PLAIN_BOOLEAN",
        Read::String => "_PLAIN_STRING",
        Read::NullableString => "_PLAIN_NULLABLE_STRING",
        Read::Unsigned => "_PLAIN_UNSIGNED",
        Read::Integer => "_PLAIN_INTEGER",
        Read::Null | Read::Object(_) => "_PLAIN_NULL",
    }
}

/// The member's value from group `k` (None when its pattern has no group).
fn value(read: &Read, k: usize) -> Option<String> {
    Some(match read {
        Read::Boolean => format!("found[{k}] === \"true\""),
        Read::String => format!("found[{k}] ?? \"\""),
        Read::NullableString => format!("found[{k}] ?? null"),
        Read::Unsigned | Read::Integer => format!("Number(found[{k}])"),
        Read::Null | Read::Object(_) => return None,
    })
}

/// `return` of an object literal of `fields`, as Prettier prints it: on one
/// line when it fits, else a member a line.
fn return_object(out: &mut Out, fields: &[String]) {
    let flat = match fields.is_empty() {
        true => "  return {};".to_string(),
        false => format!("  return {{ {} }};", fields.join(", ")),
    };
    if flat.chars().count() <= WIDTH {
        out.line(flat);
        return;
    }
    out.line("  return {");
    for field in fields {
        out.line(format!("    {field},"));
    }
    out.line("  };");
}

/// The plain reader of `name` (with its pattern, for an object), when it has one.
pub fn render(out: &mut Out, contract: &Contract, plans: &BTreeMap<String, Plan>, name: &str) {
    let Some(plan) = plans.get(name) else { return };
    let ty = type_name(name);
    let doc = format!(
        "The `{name}` that `text` holds in its plain forms (its members in declaration order, no \
         whitespace, no escape, integers as plain digits), or undefined: the strict decode then \
         reads the text, and says what is wrong with it."
    );
    match plan {
        Plan::Object(members) => {
            let Some(TypeKind::Object(object)) = contract.type_def(name).map(|d| &d.kind) else { return };
            let pattern_name = format!("_{}_PLAIN_TEXT", constant(name));
            let items: Vec<String> = members.iter().map(|m| format!("[{}, {}]", js_string(&m.wire), pattern(&m.read))).collect();
            out.blank();
            out.doc("", &format!("The pattern of `{name}`'s plain text (see `{}`).", reader(name)));
            out.line(format!("const {pattern_name} = _objectText({});", items.join(", ")));
            out.blank();
            out.doc("", &doc);
            out.line(format!("export function {}(text: string): {ty} | undefined {{", reader(name)));
            out.line(format!("  const found = {pattern_name}.exec(text);"));
            out.line("  if (found === null) {");
            out.line("    return undefined;");
            out.line("  }");
            let mut group = 0;
            let mut fields = Vec::new();
            for (member, declared) in members.iter().zip(&object.fields) {
                let value = value(&member.read, group + 1).unwrap_or_else(|| "null".to_string());
                group += usize::from(!matches!(member.read, Read::Null | Read::Object(_)));
                fields.push(format!("{}: {value}", property_key(&declared.name)));
            }
            return_object(out, &fields);
            out.line("}");
        }
        Plan::Union(variants) => {
            let reads: Vec<String> = variants.iter().map(|v| format!("{}(text)", reader(v))).collect();
            out.blank();
            out.doc("", &doc);
            out.line(format!("export function {}(text: string): {ty} | undefined {{", reader(name)));
            out.line(format!("  return {};", reads.join(" ?? ")));
            out.line("}");
        }
    }
}
