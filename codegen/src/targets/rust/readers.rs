//! The single-pass readers: `read_in_place` of every type whose frames can
//! be read in their plain forms (objects of booleans, strings, integers,
//! nulls and such objects; a union told apart by shape, through its
//! variants that have one), with `strict::Reader`, so that a frame in those
//! forms is decoded in one pass instead of the scan and serde's pass. The
//! plan is the model's ([`plans`]): the items beside the types call a
//! type's reader ([`super::codecs`]) exactly when the types get one
//! ([`items`]), each half rendering on its own.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::names::ident;
use crate::model::{union_tag, Contract, Ty, TypeKind};
use crate::SchemaError;

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

impl Read {
    /// The Rust type typify gives a field read so, as tokens print it.
    fn rust_type(&self, required: bool) -> String {
        let ty = match self {
            Read::Boolean => quote!(bool),
            Read::String => quote!(::std::string::String),
            Read::NullableString => quote!(::std::option::Option<::std::string::String>),
            Read::Unsigned => quote!(u64),
            Read::Integer => quote!(i64),
            Read::Null => quote!(::serde_json::Value),
            Read::Object(name) => {
                let ty = ident(name);
                quote!(#ty)
            }
        };
        if required { ty.to_string() } else { quote!(::std::option::Option<#ty>).to_string() }
    }

    fn call(&self, reader: &syn::Ident) -> TokenStream {
        match self {
            Read::Boolean => quote!(#reader.boolean()),
            Read::String => quote!(#reader.string()),
            Read::NullableString => quote!(#reader.nullable_string()),
            Read::Unsigned => quote!(#reader.unsigned()),
            Read::Integer => quote!(#reader.integer()),
            Read::Null => quote!(#reader.null()),
            Read::Object(name) => {
                let ty = ident(name);
                quote!(#ty::read_in_place(#reader))
            }
        }
    }
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
/// nullable, not any value); a union told apart by shape when one of its
/// variants does (the first variant whose reader reads the text is the one
/// the decode picks: each requires its own discriminator).
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
                .map(|f| read_of(&f.ty, f.required, &plans).map(|read| Member { wire: f.name.clone(), read, required: f.required }))
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

/// The readers, as inherent `read_in_place` functions of the types in
/// `file` (typify's, tightened): a type's members are found by their wire
/// names, and each must have the Rust type its plan reads, else the target
/// has a bug, which is said.
pub fn items(contract: &Contract, file: &syn::File) -> Result<Vec<syn::Item>, SchemaError> {
    let mut out = Vec::new();
    for (name, plan) in plans(contract) {
        let ty = ident(&name);
        let (reader, body) = match &plan {
            Plan::Object(members) => object_body(contract, file, &name, members)?,
            Plan::Union(variants) => (format_ident!("reader"), union_body(variants)),
        };
        let doc = format!(" Reads `{name}` in one pass when the text holds only the plain forms `strict::Reader` reads; `None` leaves the text to the strict decode.");
        out.push(syn::parse_quote! {
            impl #ty {
                #[doc = #doc]
                fn read_in_place(#reader: &mut strict::Reader<'_>) -> ::std::option::Option<Self> {
                    #body
                }
            }
        });
    }
    Ok(out)
}

/// An object's reader: its parameter (named apart from every field) and its body.
fn object_body(contract: &Contract, file: &syn::File, name: &str, members: &[Member]) -> Result<(syn::Ident, TokenStream), SchemaError> {
    let ty = ident(name);
    let fields = struct_fields(file, &ty).ok_or_else(|| bug(contract, name, "no struct of that name"))?;
    let mut idents = Vec::new();
    for member in members {
        let field = fields
            .iter()
            .find(|f| super::types::wire_name(f) == member.wire)
            .ok_or_else(|| bug(contract, name, &format!("no field for member `{}`", member.wire)))?;
        let expected = member.read.rust_type(member.required);
        let found = &field.ty;
        let found = quote!(#found).to_string();
        if found != expected {
            return Err(bug(contract, name, &format!("member `{}` is `{found}`, its reader reads `{expected}`", member.wire)));
        }
        idents.push(field.ident.clone().ok_or_else(|| bug(contract, name, "a field without a name"))?);
    }
    // The reader's own names, apart from every field's.
    let taken = |candidate: &syn::Ident| idents.iter().any(|i| i == candidate);
    let (mut reader, mut member) = (format_ident!("reader"), format_ident!("member"));
    while taken(&reader) || taken(&member) {
        (reader, member) = (format_ident!("{reader}_"), format_ident!("{member}_"));
    }
    let arms = members.iter().zip(&idents).map(|(m, field)| {
        let wire = &m.wire;
        let call = m.read.call(&reader);
        quote! { #wire => strict::once(&mut #field, #call), }
    });
    let values = members.iter().zip(&idents).map(|(m, field)| if m.required { quote!(#field: #field?) } else { quote!(#field) });
    if members.is_empty() {
        let body = quote! {
            #reader.members(|_, _| None)?;
            Some(Self {})
        };
        return Ok((reader, body));
    }
    let body = quote! {
        #(let mut #idents = None;)*
        #reader.members(|#reader, #member| match #member {
            #(#arms)*
            _ => None,
        })?;
        Some(Self { #(#values),* })
    };
    Ok((reader, body))
}

/// A union's reader: each variant's reader in turn, from the same place.
fn union_body(variants: &[String]) -> TokenStream {
    let Some((last, first)) = variants.split_last() else { return quote!(None) };
    let last_ty = ident(last);
    let tries = first.iter().map(|v| {
        let ty = ident(v);
        quote! {
            if let Some(value) = #ty::read_in_place(reader) {
                return Some(Self::#ty(value));
            }
            *reader = at;
        }
    });
    if first.is_empty() {
        return quote!(#last_ty::read_in_place(reader).map(Self::#last_ty));
    }
    quote! {
        let at = *reader;
        #(#tries)*
        #last_ty::read_in_place(reader).map(Self::#last_ty)
    }
}

/// The named fields of struct `ty` in `file`.
fn struct_fields<'f>(file: &'f syn::File, ty: &syn::Ident) -> Option<Vec<&'f syn::Field>> {
    file.items.iter().find_map(|item| match item {
        syn::Item::Struct(item) if item.ident == *ty => match &item.fields {
            syn::Fields::Named(named) => Some(named.named.iter().collect()),
            _ => None,
        },
        _ => None,
    })
}

fn bug(contract: &Contract, name: &str, problem: &str) -> SchemaError {
    SchemaError::new(
        std::path::Path::new(&contract.source),
        crate::error::push_pointer("/$defs", name),
        format!("the Rust target's reader of `{name}` does not fit its type: {problem}"),
        "report this as a codegen bug",
    )
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
    fn the_readers_own_names_step_aside_for_fields_of_those_names() {
        let string = serde_json::json!({"description": "S.", "type": "string"});
        let contract = contract(serde_json::json!({"Clash": object(serde_json::json!({"reader": string, "member": string}), &["reader", "member"])}));
        let text = crate::targets::rust::render(&contract, crate::targets::rust::Flavor::Sdk).expect("renders");
        let start = text.find("impl Clash {").expect("Clash has a reader");
        let reader = &text[start..start + text[start..].find("\n}\n").expect("ends")];
        assert!(reader.contains("fn read_in_place(reader_: &mut strict::Reader<'_>)"), "{reader}");
        assert!(reader.contains("reader_.members(|reader_, member_| match member_ {"), "{reader}");
        assert!(reader.contains("\"reader\" => strict::once(&mut reader, reader_.string()),"), "{reader}");
    }

    #[test]
    fn a_member_whose_type_is_not_what_its_reader_reads_is_a_codegen_bug() {
        let contract = contract(serde_json::json!({"Flag": object(serde_json::json!({"on": {"description": "B.", "type": "boolean"}}), &["on"])}));
        let file: syn::File = syn::parse_quote! { pub struct Flag { pub on: ::std::string::String } };
        let Some(Plan::Object(members)) = plans(&contract).remove("Flag") else { panic!("Flag has a reader") };
        let error = super::object_body(&contract, &file, "Flag", &members).expect_err("a bool read into a String");
        let text = error.to_string();
        assert!(text.contains("/$defs/Flag") && text.contains("member `on` is `:: std :: string :: String`, its reader reads `bool`"), "{text}");
        assert!(text.contains("codegen bug"), "{text}");
    }
}
