//! The page's type reference: every `$defs` type in schema order, with its
//! description, what kind of value it is, a field table for an object
//! (name, type, required, nullable, constraints, description) and its
//! examples, its own and those the example exchanges imply.

use serde_json::Value;

use super::markdown::{code_span, inline, one_line, paragraphs, Page};
use super::{type_heading, Links};
use crate::annotations::Annotations;
use crate::examples::{derived, own, Example};
use crate::model::{union_tag, Constant, Contract, Field, Ty, TypeDef, TypeKind};

/// The `$defs` names in schema order.
pub fn order(contract: &Contract) -> Vec<&str> {
    let raw: Vec<&str> = contract.raw.get("$defs").and_then(Value::as_object).map(|d| d.keys().map(String::as_str).collect()).unwrap_or_default();
    raw.into_iter().filter(|name| contract.types.contains_key(*name)).collect()
}

pub fn render(page: &mut Page, links: &Links, contract: &Contract) {
    page.paragraph(
        "Every type of the schema's `$defs`, in schema order. A closed object rejects a member it does not declare; \
         an optional member is absent or of its type, never null unless it is nullable.",
    );
    let (own, derived) = (own(contract), derived(contract));
    for name in order(contract) {
        let Some(def) = contract.type_def(name) else { continue };
        page.heading(3, &type_heading(name));
        page.prose(&description(contract, def));
        kind(page, links, def);
        let mine: Vec<&Example> = own.iter().filter(|e| e.type_name == name).collect();
        let implied: Vec<&Example> =
            derived.iter().filter(|e| e.type_name == name && !mine.iter().any(|m| m.value == e.value)).collect();
        examples(page, if mine.len() == 1 { "Example:" } else { "Examples:" }, &mine);
        examples(page, "In the example exchanges:", &implied);
    }
}

fn examples(page: &mut Page, label: &str, examples: &[&Example]) {
    let mut shown: Vec<&Value> = Vec::new();
    for example in examples {
        if !shown.contains(&&example.value) {
            shown.push(&example.value);
        }
    }
    if shown.is_empty() {
        return;
    }
    page.paragraph(label);
    for value in shown {
        page.code("json", &one_line(value));
    }
}

/// The type's description with its annotations but its examples, which
/// follow as code blocks.
fn description(contract: &Contract, def: &TypeDef) -> String {
    let raw = &contract.raw["$defs"][&def.name];
    let text = |key: &str| raw.get(key).and_then(Value::as_str).map(str::to_string);
    let annotations = Annotations {
        title: text("title"),
        format: text("format"),
        default: raw.get("default").cloned(),
        examples: Vec::new(),
        deprecated: raw.get("deprecated").and_then(Value::as_bool).unwrap_or(false),
    };
    annotations.fold(&text("description").unwrap_or_default())
}

fn kind(page: &mut Page, links: &Links, def: &TypeDef) {
    match &def.kind {
        TypeKind::Object(object) if object.fields.is_empty() => page.paragraph("A closed object with no members: `{}`."),
        TypeKind::Object(object) => {
            page.paragraph("A closed object:");
            let rows: Vec<Vec<String>> = object.fields.iter().map(|f| field_row(links, f)).collect();
            page.table(&["Field", "Type", "Required", "Nullable", "Constraints", "Description"], &rows);
        }
        TypeKind::Map { values, min_members, max_members, names } => {
            let mut rules = Vec::new();
            if let Some(names) = names {
                let mut of_names = Vec::new();
                constraints(names, "", &mut of_names);
                rules.extend(of_names.into_iter().map(|c| format!("member names: {c}")));
            }
            rules.extend(count(*min_members, *max_members, "members"));
            constraints(values, "each value ", &mut rules);
            let rules = if rules.is_empty() { String::new() } else { format!(" ({})", rules.join("; ")) };
            page.paragraph(&format!("An object with any member names; values: {}{rules}.", type_text(links, values)));
        }
        TypeKind::Union(variants) => {
            let told = match union_tag(variants) {
                Some((member, tags)) => {
                    let pairs: Vec<String> = tags.iter().zip(variants).map(|(tag, v)| format!("{} for {}", code_span(&Value::from(*tag).to_string()), links.type_link(&v.type_name))).collect();
                    format!("told apart by the member {}: {}", code_span(member), pairs.join(", "))
                }
                None => {
                    let pairs: Vec<String> = variants.iter().map(|v| format!("{} for {}", code_span(&v.discriminator), links.type_link(&v.type_name))).collect();
                    format!("told apart by which member is present: {}", pairs.join(", "))
                }
            };
            page.paragraph(&format!("One of {} variants, {told}.", variants.len()));
        }
        TypeKind::StringEnum(values) if values.len() == 1 => {
            page.paragraph(&format!("The string {}, always.", code_span(&Value::from(values[0].as_str()).to_string())));
        }
        TypeKind::StringEnum(values) => {
            let shown: Vec<String> = values.iter().map(|v| code_span(&Value::from(v.as_str()).to_string())).collect();
            page.paragraph(&format!("One of the strings {}.", shown.join(", ")));
        }
        TypeKind::IntegerOrString => page.paragraph("An integer or a string."),
    }
}

fn field_row(links: &Links, field: &Field) -> Vec<String> {
    let mut rules = Vec::new();
    constraints(&field.ty, "", &mut rules);
    vec![
        code_span(&field.name),
        type_text(links, &field.ty),
        yes(field.required),
        yes(may_be_null(&field.ty)),
        if rules.is_empty() { "-".to_string() } else { rules.join("; ") },
        paragraphs(&field.description).iter().map(|p| inline(p)).collect::<Vec<_>>().join(" "),
    ]
}

/// Whether null is a value of `ty`: a nullable type, any JSON value, a
/// `const` of null (a member that must be present and null), or an inline
/// `enum` that lists null.
fn may_be_null(ty: &Ty) -> bool {
    match ty {
        Ty::Nullable(_) | Ty::Any => true,
        Ty::Const { value: Constant::Json(text), .. } => text == "null",
        Ty::Const { value: Constant::OneOf(listed), .. } => {
            serde_json::from_str::<Vec<serde_json::Value>>(&format!("[{listed}]")).is_ok_and(|values| values.contains(&serde_json::Value::Null))
        }
        _ => false,
    }
}

fn yes(on: bool) -> String {
    if on { "yes" } else { "no" }.to_string()
}

/// What a value of `ty` is: `integer`, `array of string`, a link to a type.
fn type_text(links: &Links, ty: &Ty) -> String {
    match ty {
        Ty::Any => "any JSON value".to_string(),
        Ty::Boolean => "boolean".to_string(),
        Ty::Integer { .. } => "integer".to_string(),
        Ty::Number { .. } => "number".to_string(),
        Ty::String => "string".to_string(),
        Ty::Ref(name) => links.type_link(name),
        Ty::Array(item) => format!("array of {}", type_text(links, item)),
        Ty::Length { inner, .. } | Ty::Multiple { inner, .. } | Ty::Const { inner, .. } | Ty::Pattern { inner, .. } => type_text(links, inner),
        Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Nullable(inner) => type_text(links, inner),
    }
}

/// `at least 1 members`, `1 to 3 items`, ...
fn count(min: Option<u64>, max: Option<u64>, what: &str) -> Option<String> {
    // `what` is plural (`items`); one is `1 item`.
    let of = |n: u64| if n == 1 { format!("1 {}", what.trim_end_matches('s')) } else { format!("{n} {what}") };
    match (min, max) {
        (Some(min), Some(max)) if min == max => Some(format!("exactly {}", of(min))),
        (Some(min), Some(max)) => Some(format!("{min} to {}", of(max))),
        (Some(min), None) => Some(format!("at least {}", of(min))),
        (None, Some(max)) => Some(format!("at most {}", of(max))),
        (None, None) => None,
    }
}

/// The rules a value of `ty` must keep besides its type, each after `prefix`.
fn constraints(ty: &Ty, prefix: &str, out: &mut Vec<String>) {
    match ty {
        Ty::Integer { minimum, maximum } => {
            out.extend(minimum.map(|m| format!("{prefix}>= {m}")));
            out.extend(maximum.map(|m| format!("{prefix}<= {m}")));
        }
        Ty::Number { minimum, maximum } => {
            out.extend(minimum.map(|b| format!("{prefix}{} {}", b.operator(true), b.text())));
            out.extend(maximum.map(|b| format!("{prefix}{} {}", b.operator(false), b.text())));
        }
        Ty::Length { inner, min, max } => {
            let what = if matches!(inner.unbounded(), Ty::Array(_)) { "items" } else { "code points" };
            out.extend(count(*min, *max, what).map(|c| format!("{prefix}{c}")));
            constraints(inner, prefix, out);
        }
        Ty::Unique(inner) => {
            constraints(inner, prefix, out);
            out.push(format!("{prefix}items unique"));
        }
        Ty::Prefix { inner, kinds, rest } => {
            constraints(inner, prefix, out);
            out.push(format!("{prefix}items of kinds {}", Ty::prefix_text(kinds, rest.as_deref())));
        }
        Ty::Multiple { inner, divisor } => {
            constraints(inner, prefix, out);
            out.push(format!("{prefix}a multiple of {divisor}"));
        }
        Ty::Pattern { inner, pattern } => {
            constraints(inner, prefix, out);
            out.push(format!("{prefix}matches {}", code_span(&pattern.source)));
        }
        Ty::Const { value: Constant::OneOf(listed), .. } => out.push(format!("{prefix}one of {}", code_span(listed))),
        Ty::Const { value, .. } => out.push(format!("{prefix}always {}", code_span(&value.json()))),
        Ty::Array(item) => constraints(item, "each item ", out),
        Ty::Nullable(inner) => constraints(inner, prefix, out),
        Ty::Any | Ty::Boolean | Ty::String | Ty::Ref(_) => {}
    }
}
