//! The Rust rendering of the single-pass readers ([`crate::targets::readers`]):
//! `read_in_place` of every type the plan reads, with `strict::Reader`, so
//! that a frame in plain forms is decoded in one pass instead of the scan
//! and serde's pass. The items beside the types call a type's reader
//! ([`super::codecs`]) exactly when the types get one ([`items`]), each half
//! rendering on its own from the same plan.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::names::ident;
use crate::model::Contract;
use crate::targets::readers::{plans, Member, Plan, Read};
use crate::SchemaError;

/// How a member read so is written in Rust.
trait RustRead {
    fn rust_type(&self, required: bool) -> String;
    fn call(&self, reader: &syn::Ident) -> TokenStream;
}

impl RustRead for Read {
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
    // Each field's wire name read once: a type of many members costs no square.
    let by_wire: std::collections::HashMap<String, &syn::Field> = fields.iter().map(|f| (super::types::wire_name(f), *f)).collect();
    let mut idents = Vec::new();
    for member in members {
        let field = by_wire
            .get(&member.wire)
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
    let keys = members.iter().map(|m| &m.wire);
    let arms = members.iter().zip(&idents).enumerate().map(|(index, (m, field))| {
        let call = m.read.call(&reader);
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        quote! { #index => strict::once(&mut #field, #call), }
    });
    let values = members.iter().zip(&idents).map(|(m, field)| if m.required { quote!(#field: #field?) } else { quote!(#field) });
    if members.is_empty() {
        let body = quote! {
            #reader.members(&[], |_, _| None)?;
            Some(Self {})
        };
        return Ok((reader, body));
    }
    // Each arm reads the member its index names in `KEYS`.
    let body = quote! {
        const KEYS: &[&str] = &[#(#keys),*];
        #(let mut #idents = None;)*
        #reader.members(KEYS, |#reader, #member| match #member {
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
    use crate::targets::readers::{plans, Plan};

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

    #[test]
    fn the_readers_own_names_step_aside_for_fields_of_those_names() {
        let string = serde_json::json!({"description": "S.", "type": "string"});
        let contract = contract(serde_json::json!({"Clash": object(serde_json::json!({"reader": string, "member": string}), &["reader", "member"])}));
        let text = crate::targets::rust::render(&contract, crate::targets::rust::Flavor::Sdk).expect("renders");
        let start = text.find("impl Clash {").expect("Clash has a reader");
        let reader = &text[start..start + text[start..].find("\n}\n").expect("ends")];
        assert!(reader.contains("fn read_in_place(reader_: &mut strict::Reader<'_>)"), "{reader}");
        assert!(reader.contains("const KEYS: &[&str] = &[\"reader\", \"member\"];"), "{reader}");
        assert!(reader.contains("reader_.members(KEYS, |reader_, member_| match member_ {"), "{reader}");
        assert!(reader.contains("0 => strict::once(&mut reader, reader_.string()),"), "{reader}");
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
