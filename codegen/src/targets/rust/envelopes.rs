//! Typed envelopes: `<request>Of<P>`, `<success>Of<R>` and `<response>Of<R>`,
//! the request envelope, the success arm and the response envelope of the
//! contract's roles with their open `params` / `result` member typed by the
//! method table's shape (`RequestOf<P>` and so on for v2.json). They are
//! cloned from the typify structs (so every other field stays exactly what
//! the schema says) and decode in one pass over the text: no detour through
//! an untyped value, and a wrong `params` is reported at `$.params.…`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{Contract, TypeKind};
use crate::targets::client::role_member;
use crate::SchemaError;

/// The JSON-RPC envelopes of the roles (the request, the success arm), the
/// member each one leaves open, and its type parameter.
fn open_members(contract: &Contract) -> [(&str, &'static str, &'static str); 2] {
    let roles = &contract.roles;
    [(roles.request.as_str(), "params", "P"), (roles.success_response.as_str(), "result", "R")]
}

/// Generic copies of the envelope structs in `file`, with their serde impls.
/// The loader guarantees each envelope a closed object with its open
/// member; typify not rendering it as a struct with that field is refused.
pub fn typed_structs(contract: &Contract, file: &syn::File) -> Result<Vec<syn::Item>, SchemaError> {
    let mut items = Vec::new();
    for (name, member, param) in open_members(contract) {
        let found = file.items.iter().find_map(|item| match item {
            syn::Item::Struct(s) if s.ident == name => Some(s.clone()),
            _ => None,
        });
        let required = role_member(contract, name, member).is_some_and(|f| f.required);
        let typed = found.map(|original| typed_struct(original, member, param, required)).unwrap_or_default();
        if typed.is_empty() {
            return Err(SchemaError::new(
                std::path::Path::new(&contract.source),
                format!("/$defs/{name}"),
                format!("the Rust target cannot type the envelope `{name}`: typify did not render it as a struct with a `{member}` field"),
                "make the envelope a closed object with named properties",
            ));
        }
        items.extend(typed);
    }
    Ok(items)
}

fn typed_struct(mut item: syn::ItemStruct, member: &str, param: &str, required: bool) -> Vec<syn::Item> {
    let original = item.ident.clone();
    let name = format_ident!("{}Of", original);
    let param = format_ident!("{}", param);
    let syn::Fields::Named(named) = &mut item.fields else {
        return Vec::new();
    };
    let Some(field) = named.named.iter_mut().find(|f| f.ident.as_ref().is_some_and(|i| i == member)) else {
        return Vec::new();
    };
    field.ty = if required { syn::parse_quote!(#param) } else { syn::parse_quote!(::std::option::Option<#param>) };
    let doc = format!(" A `{original}` whose `{member}` is decoded as `{param}`, the shape the method table names for the method.");
    item.attrs.retain(|a| !a.path().is_ident("doc"));
    for attr in item.attrs.iter_mut().filter(|a| a.path().is_ident("derive")) {
        // A generic copy derives only what holds for any `P` (no schema, no default).
        let Ok(paths) = attr.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) else {
            continue;
        };
        let kept = paths.iter().filter(|p| {
            let text = quote!(#p).to_string();
            !text.ends_with("JsonSchema") && !text.ends_with("Default")
        });
        *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
    }
    item.attrs.insert(0, syn::parse_quote!(#[doc = #doc]));
    let bound = format!("{param}: ::serde::Deserialize<'de>");
    let ser_bound = format!("{param}: ::serde::Serialize");
    item.attrs.push(syn::parse_quote!(#[serde(bound(deserialize = #bound, serialize = #ser_bound))]));
    item.ident = name.clone();
    item.generics = syn::parse_quote!(<#param>);
    vec![
        syn::Item::Struct(item),
        syn::parse_quote! {
            impl<'de, #param: ::serde::Deserialize<'de>> ::serde::Deserialize<'de> for #name<#param> {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    #name::deserialize(strict::ObjectOnly(deserializer))
                }
            }
        },
        syn::parse_quote! {
            impl<#param: ::serde::Serialize> ::serde::Serialize for #name<#param> {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                    #name::serialize(self, serializer)
                }
            }
        },
    ]
}

/// `decode` / `encode` for the typed envelopes, and `<response>Of<R>`.
pub fn decoding(contract: &Contract) -> Result<TokenStream, SchemaError> {
    let mut out = TokenStream::new();
    for (name, member, param) in open_members(contract) {
        let ty = format_ident!("{}Of", name);
        let param = format_ident!("{}", param);
        let doc = format!(" Decodes a `{name}` frame with its `{member}` as `{param}`, in one pass over the text.\n\n # Errors\n\n A [`DecodeError`] saying where and why the text breaks the contract.");
        out.extend(quote! {
            impl<#param: ::serde::de::DeserializeOwned + ::serde::Serialize> #ty<#param> {
                #[doc = #doc]
                pub fn decode(text: &str) -> ::std::result::Result<Self, DecodeError> {
                    let text = checked_text(#name, text)?;
                    strict_from_text(#name, &text)
                }
                /// Encodes as one line of JSON: fields in schema order, no newline.
                pub fn encode(&self) -> ::std::string::String {
                    ::serde_json::to_string(self).unwrap_or_default()
                }
            }
        });
    }
    out.extend(response_of(contract)?);
    Ok(out)
}

/// `<response>Of<R>`: the response envelope (a union of exactly the success
/// and error arms, which the loader checks) with its success arm typed.
fn response_of(contract: &Contract) -> Result<TokenStream, SchemaError> {
    let roles = &contract.roles;
    let Some(TypeKind::Union(variants)) = contract.types.get(&roles.response).map(|t| &t.kind) else {
        return Err(SchemaError::new(
            std::path::Path::new(&contract.source),
            format!("/$defs/{}", roles.response),
            format!("the response envelope `{}` is not a union", roles.response),
            "make it a `oneOf` of the success and error arms the roles name",
        ));
    };
    let name = roles.response.as_str();
    let ty = format_ident!("{name}Of");
    let success_of = format_ident!("{}Of", roles.success_response);
    let discriminators: Vec<&str> = variants.iter().map(|v| v.discriminator.as_str()).collect();
    let variant_types = variants.iter().map(|v| {
        let variant = format_ident!("{}", v.type_name);
        if v.type_name == roles.success_response {
            quote! { #variant(#success_of<R>) }
        } else {
            quote! { #variant(#variant) }
        }
    });
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let variant = format_ident!("{}", v.type_name);
        quote! { #i => strict_from_text(#name, &text).map(Self::#variant), }
    });
    let doc = format!(" A `{name}` whose `result` is decoded as `R`, the method's result shape.");
    let decode_doc = format!(" Decodes a `{name}` frame with its `result` as `R`, in one pass over the text.");
    Ok(quote! {
        #[doc = #doc]
        #[derive(Clone, Debug)]
        pub enum #ty<R> { #(#variant_types),* }
        impl<R: ::serde::de::DeserializeOwned + ::serde::Serialize> #ty<R> {
            #[doc = #decode_doc]
            ///
            /// # Errors
            ///
            /// A [`DecodeError`] saying where and why the text breaks the contract.
            pub fn decode(text: &str) -> ::std::result::Result<Self, DecodeError> {
                let (text, chosen) = checked_variant(#name, text, &[#(#discriminators),*])?;
                match chosen { #(#arms)* _ => Err(DecodeError::new(#name, "$", "no variant")) }
            }
        }
    })
}
