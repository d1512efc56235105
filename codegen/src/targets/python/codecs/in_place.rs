//! The single-pass readers ([`crate::targets::readers`]) in Python:
//! `…_in_place(data, start, end)` of each type the plan reads whose members
//! are all required and none an object, which matches the type's text in
//! its plain forms, its members in declaration order and no whitespace (as
//! the binary writes them), with one compiled `re` pattern
//! (`_object_text`), and builds the dataclass from the groups. `None` for
//! any other text, which the strict decode then reads (and says what is
//! wrong). The session client reads a laid-out answer's result with it,
//! and `decode_…` tries it first, so the conformance corpus reads through it.

use std::collections::BTreeMap;

use super::super::docs::docstring;
use super::super::layout::{exploded, fit, statement, string, Out, LINE_WIDTH};
use super::super::names::{field, stem, upper};
use crate::model::{Contract, TypeKind};
use crate::targets::readers::{plans, Plan, Read};

/// The types with a Python reader and what each reads: the plan's flat
/// objects whose members are all required (a pattern of members in order
/// has no room for an absent one), and its unions through those. None when
/// the contract's nesting limit leaves no room for a result inside an answer.
pub fn python_plans(contract: &Contract) -> BTreeMap<String, Plan> {
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

/// The value pattern of a member read so (a constant of the runtime).
fn pattern(read: &Read) -> &'static str {
    match read {
        Read::Boolean => "_BOOLEAN_TEXT",
        Read::String => "_STRING_TEXT",
        Read::NullableString => "_NULLABLE_STRING_TEXT",
        Read::Unsigned => "_UNSIGNED_TEXT",
        Read::Integer => "_INTEGER_TEXT",
        Read::Null | Read::Object(_) => "_NULL_TEXT",
    }
}

/// The field's value from `groups[k]` (`None` when its pattern has no group).
fn value(read: &Read, k: usize) -> Option<String> {
    Some(match read {
        Read::Boolean => format!("groups[{k}] is not None"),
        Read::String => format!("groups[{k}].decode()"),
        Read::NullableString => format!("None if groups[{k}] is None else groups[{k}].decode()"),
        Read::Unsigned | Read::Integer => format!("int(groups[{k}])"),
        Read::Null | Read::Object(_) => return None,
    })
}

/// The reader of `name` (with its pattern, for an object), when it has one.
pub fn render(contract: &Contract, plans: &BTreeMap<String, Plan>, name: &str, out: &mut Out) {
    let Some(plan) = plans.get(name) else { return };
    let s = stem(name);
    let head = format!("def {s}_in_place(");
    let params = ["data: bytes".to_string(), "start: int".to_string(), "end: int".to_string()];
    let doc = format!(
        "The `{name}` that ``data[start:end]`` holds in its plain forms (its members in \
         declaration order, no whitespace, no escape, integers as plain digits), or None: \
         the strict decode then reads the text, and says what is wrong with it."
    );
    match plan {
        Plan::Object(members) => {
            let constant = format!("_{}_TEXT", upper(name));
            let items: Vec<String> = members.iter().map(|m| format!("({}, {})", string(&m.wire), pattern(&m.read))).collect();
            out.blank(2);
            out.line(&exploded(0, &format!("{constant}: typing.Final = _object_text("), &items, ""));
            out.blank(2);
            out.line(&fit(0, &head, &params, &format!(" -> {name} | None:")));
            out.line(&docstring(4, &doc));
            out.line(&format!("    found = {constant}.fullmatch(data, start, end)"));
            out.line("    if found is None:");
            out.line("        return None");
            let Some(TypeKind::Object(object)) = contract.type_def(name).map(|d| &d.kind) else { return };
            if object.fields.is_empty() {
                out.line(&format!("    return object.__new__({name})"));
                return;
            }
            if members.iter().any(|m| !matches!(m.read, Read::Null | Read::Object(_))) {
                out.line("    groups = found.groups()");
            }
            out.line("    # The frozen instance's fields set in its own dict, in declaration order as");
            out.line("    # `__init__` sets them, without its call per field.");
            out.line(&format!("    read = object.__new__({name})"));
            out.line("    fields = read.__dict__");
            let mut group = 0;
            for (member, declared) in members.iter().zip(&object.fields) {
                let value = value(&member.read, group).unwrap_or_else(|| "None".to_string());
                group += usize::from(!matches!(member.read, Read::Null | Read::Object(_)));
                out.line(&statement(4, &format!("fields[{}] = {value}", string(&field(&declared.name)))));
            }
            out.line("    return read");
        }
        Plan::Union(variants) => {
            let reads: Vec<String> = variants.iter().map(|v| format!("{}_in_place(data, start, end)", stem(v))).collect();
            out.blank(2);
            out.line(&fit(0, &head, &params, &format!(" -> {name} | None:")));
            out.line(&docstring(4, &doc));
            let flat = format!("    return {}", reads.join(" or "));
            if flat.chars().count() <= LINE_WIDTH {
                out.line(&flat);
            } else {
                out.line("    return (");
                for (i, read) in reads.iter().enumerate() {
                    out.line(&format!("        {}{read}", if i == 0 { "" } else { "or " }));
                }
                out.line("    )");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::python_plans;
    use crate::targets::readers::Plan;

    fn v2() -> crate::model::Contract {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        crate::load::load(&path, "v2.json").expect("loads").0
    }

    #[test]
    fn only_flat_objects_of_required_members_and_their_unions_are_read_in_place() {
        let contract = v2();
        let plans = python_plans(&contract);
        assert!(matches!(plans.get("Verdict"), Some(Plan::Object(_))));
        assert_eq!(plans.get("CallResult"), Some(&Plan::Union(vec!["Verdict".to_string()])));
        // `sdk` and `sdk_version` are optional: a pattern of members in order has no room for them.
        assert!(crate::targets::readers::plans(&contract).contains_key("HandshakeParams"));
        assert!(!plans.contains_key("HandshakeParams"));
        assert!(plans.contains_key("HandshakeResult"));
    }

    #[test]
    fn a_verdicts_reader_takes_each_field_from_its_own_group() {
        let contract = v2();
        let text = crate::targets::python::generate(&contract).expect("renders");
        let coprocess = text.values().find(|t| t.contains("def verdict_in_place(")).expect("the frames file");
        let start = coprocess.find("_VERDICT_TEXT: typing.Final = _object_text(").expect("the pattern");
        let reader = &coprocess[start..start + coprocess[start..].find("\n\n\n# ").unwrap_or(2000).min(2000)];
        for expected in [
            "(\"success\", _BOOLEAN_TEXT),\n    (\"data\", _NULL_TEXT),\n    (\"text\", _NULLABLE_STRING_TEXT),",
            "found = _VERDICT_TEXT.fullmatch(data, start, end)",
            // `data` reads `null` alone, in no group: the groups after it are one lower.
            "fields[\"success\"] = groups[0] is not None\n    fields[\"data\"] = None\n    \
             fields[\"text\"] = None if groups[1] is None else groups[1].decode()\n    \
             fields[\"error\"] = None if groups[2] is None else groups[2].decode()\n    \
             fields[\"duration_ms\"] = int(groups[3])\n    return read",
        ] {
            assert!(reader.contains(expected), "{expected}\nnot in\n{reader}");
        }
        assert!(coprocess.contains("    read = _whole_in_place(verdict_in_place, text)\n    if read is not None:\n        return read\n"));
        assert!(coprocess.contains("def call_result_in_place(data: bytes, start: int, end: int) -> CallResult | None:"));
    }
}
