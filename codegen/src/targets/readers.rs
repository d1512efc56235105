//! The single-pass readers' plan: which `$defs` types can be read in their
//! plain forms (objects of booleans, strings, integers, nulls and such
//! objects; a union told apart by shape, through its variants that have one)
//! in one pass over the text, without the strict decode's passes, and what
//! each member reads. Each target that has such readers renders them from
//! this plan ([`super::rust`]'s `read_in_place`, [`super::python`]'s
//! `…_in_place`, [`super::dotnet`]'s `ReadPlain`); what a reader gives up on
//! goes to the strict decode, so no error changes.

use std::collections::BTreeMap;

use crate::model::{union_tag, Contract, Ty, TypeKind};

/// How a member's value is read (`strict::Reader`'s method, or a type's reader).
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    Boolean,
    String,
    NullableString,
    /// An integer with a minimum of 0 and no maximum (typify's `u64`).
    Unsigned,
    /// An integer without bounds (typify's `i64`).
    Integer,
    /// Any JSON value, read only when it is `null`.
    Null,
    /// An object type that has a reader.
    Object(String),
}

/// A member of an object type with a reader.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub wire: String,
    pub read: Read,
    pub required: bool,
}

/// What a type's reader reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// A closed object's members, in declaration order.
    Object(Vec<Member>),
    /// The variants (by type name) of a union told apart by shape that have
    /// a reader, tried in declaration order.
    Union(Vec<String>),
}

/// The types that get a reader, and what each reads. An object gets one
/// when every member is of a kind [`Read`] names (an optional member: not
/// nullable, not any value) and its name is a plain key (no `"`, `\` or
/// control character: a reader may look for it as the text would hold it,
/// and a key with an escape is never read plain); a union told apart by
/// shape when one of its variants does (the first variant whose reader
/// reads the text is the one the decode picks: each requires its own
/// discriminator).
pub fn plans(contract: &Contract) -> BTreeMap<String, Plan> {
    let mut plans = BTreeMap::new();
    // Each object is planned after the objects its members refer to, depth
    // first without recursion (a long chain of references is no deep
    // stack); one that refers back to an object still being planned (a
    // cycle) gets no reader, nor does any object that reaches it.
    let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for (root, def) in &contract.types {
        if seen.contains(root.as_str()) || !matches!(def.kind, TypeKind::Object(_)) {
            continue;
        }
        seen.insert(root);
        let mut stack = vec![(root.as_str(), 0usize)];
        while let Some((name, next)) = stack.last_mut() {
            let fields = match contract.types.get(*name).map(|d| &d.kind) {
                Some(TypeKind::Object(object)) => &object.fields,
                _ => break,
            };
            let unplanned = fields.iter().enumerate().skip(*next).find_map(|(i, f)| match &f.ty {
                Ty::Ref(to) if !seen.contains(to.as_str()) && matches!(contract.types.get(to).map(|d| &d.kind), Some(TypeKind::Object(_))) => {
                    Some((i, to.as_str()))
                }
                _ => None,
            });
            if let Some((i, to)) = unplanned {
                *next = i + 1;
                seen.insert(to);
                stack.push((to, 0));
                continue;
            }
            let name = *name;
            stack.pop();
            let members: Option<Vec<Member>> = fields
                .iter()
                .map(|f| {
                    if !plain_key(&f.name) {
                        return None;
                    }
                    let read = read_of(&f.ty, f.required, &plans)?;
                    Some(Member { wire: f.name.clone(), read, required: f.required })
                })
                .collect();
            if let Some(members) = members {
                plans.insert(name.to_string(), Plan::Object(members));
            }
        }
    }
    for (name, def) in &contract.types {
        if let TypeKind::Union(variants) = &def.kind {
            let read: Vec<String> = variants.iter().filter(|v| plans.contains_key(&v.type_name)).map(|v| v.type_name.clone()).collect();
            if union_tag(variants).is_none() && !read.is_empty() {
                plans.insert(name.clone(), Plan::Union(read));
            }
        }
    }
    plans
}

/// Whether `name` is written in JSON as itself between its quotes.
fn plain_key(name: &str) -> bool {
    !name.chars().any(|c| c == '"' || c == '\\' || c < ' ')
}

fn read_of(ty: &Ty, required: bool, plans: &BTreeMap<String, Plan>) -> Option<Read> {
    let read = match ty {
        Ty::Boolean => Read::Boolean,
        Ty::String => Read::String,
        Ty::Integer { minimum: Some(0), maximum: None } => Read::Unsigned,
        Ty::Integer { minimum: None, maximum: None } => Read::Integer,
        Ty::Ref(name) if matches!(plans.get(name), Some(Plan::Object(_))) => Read::Object(name.clone()),
        Ty::Nullable(inner) if required && **inner == Ty::String => Read::NullableString,
        Ty::Any if required => Read::Null,
        _ => return None,
    };
    Some(read)
}


#[cfg(test)]
mod tests {
    use super::{plans, Member, Plan, Read};

    fn contract(defs: serde_json::Value) -> crate::model::Contract {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let mut schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        for (name, def) in defs.as_object().expect("an object of definitions") {
            schema["$defs"][name] = def.clone();
        }
        crate::load::load_str(&schema.to_string(), &path, "minimal.json").expect("loads").0
    }

    fn object(properties: serde_json::Value, required: &[&str]) -> serde_json::Value {
        serde_json::json!({"description": "A type.", "type": "object", "properties": properties, "required": required, "additionalProperties": false})
    }

    fn link(to: &str) -> serde_json::Value {
        object(serde_json::json!({"next": {"description": "The next.", "$ref": format!("#/$defs/{to}")}}), &["next"])
    }

    #[test]
    fn v2s_verdict_and_call_result_are_read_in_place_and_the_passthrough_is_not() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        let (contract, _) = crate::load::load(&path, "v2.json").expect("loads");
        let plans = plans(&contract);
        let member = |wire: &str, read: Read| Member { wire: wire.to_string(), read, required: true };
        assert_eq!(
            plans.get("Verdict"),
            Some(&Plan::Object(vec![
                member("success", Read::Boolean),
                member("data", Read::Null),
                member("text", Read::NullableString),
                member("error", Read::NullableString),
                member("duration_ms", Read::Unsigned),
            ]))
        );
        assert_eq!(plans.get("CallResult"), Some(&Plan::Union(vec!["Verdict".to_string()])));
        assert_eq!(plans.get("ToolCallPassthrough"), None, "its content is an array");
    }

    #[test]
    fn a_chain_of_objects_is_read_to_its_end_and_a_cycle_is_not_read() {
        let contract = contract(serde_json::json!({
            "ChainA": link("ChainB"), "ChainB": link("ChainC"), "ChainC": object(serde_json::json!({}), &[]),
            "LoopA": link("LoopB"), "LoopB": link("LoopA"), "IntoLoop": link("LoopA"),
        }));
        let plans = plans(&contract);
        for name in ["ChainA", "ChainB", "ChainC"] {
            assert!(plans.contains_key(name), "{name}");
        }
        assert_eq!(plans.get("ChainA"), Some(&Plan::Object(vec![Member { wire: "next".into(), read: Read::Object("ChainB".into()), required: true }])));
        for name in ["LoopA", "LoopB", "IntoLoop"] {
            assert!(!plans.contains_key(name), "{name} reaches a cycle");
        }
    }

    #[test]
    fn optional_members_read_plain_kinds_but_never_any_value() {
        let string = serde_json::json!({"description": "S.", "type": "string"});
        let any = serde_json::json!({"description": "A."});
        let contract = contract(serde_json::json!({
            "OptionalString": object(serde_json::json!({"a": string}), &[]),
            "OptionalAny": object(serde_json::json!({"a": any}), &[]),
            "RequiredAny": object(serde_json::json!({"a": any}), &["a"]),
        }));
        let plans = plans(&contract);
        assert_eq!(plans.get("OptionalString"), Some(&Plan::Object(vec![Member { wire: "a".into(), read: Read::String, required: false }])));
        assert!(!plans.contains_key("OptionalAny"), "an absent value and null would both be `None`");
        assert_eq!(plans.get("RequiredAny"), Some(&Plan::Object(vec![Member { wire: "a".into(), read: Read::Null, required: true }])));
    }

    #[test]
    fn a_member_whose_name_needs_an_escape_leaves_its_object_unread() {
        let string = serde_json::json!({"description": "S.", "type": "string"});
        let contract = contract(serde_json::json!({
            "Quoted": object(serde_json::json!({"a\"b": string}), &["a\"b"]),
            "Backslashed": object(serde_json::json!({"a\\b": string}), &["a\\b"]),
            "Controlled": object(serde_json::json!({"a\u{1}": string}), &["a\u{1}"]),
            "Spaced": object(serde_json::json!({"a b/é": string}), &["a b/é"]),
        }));
        let plans = plans(&contract);
        for escaped in ["Quoted", "Backslashed", "Controlled"] {
            assert!(!plans.contains_key(escaped), "{escaped}: a reader looks for its keys as written");
        }
        assert_eq!(plans.get("Spaced"), Some(&Plan::Object(vec![Member { wire: "a b/é".into(), read: Read::String, required: true }])));
    }
}
