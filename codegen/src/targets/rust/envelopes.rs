//! Typed envelopes: `RequestOf<P>`, `SuccessResponseOf<R>` and `ResponseOf<R>`,
//! the `Request`, `SuccessResponse` and `Response` frames with their open
//! `params` / `result` member typed by the method table's shape. They are
//! cloned from the typify structs (so every other field stays exactly what
//! the schema says) and decode in one pass over the text: no detour through
//! an untyped value, and a wrong `params` is reported at `$.params.…`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{Contract, TypeKind};

/// The JSON-RPC envelopes and the member each one leaves open.
const OPEN_MEMBERS: &[(&str, &str, &str)] = &[("Request", "params", "P"), ("SuccessResponse", "result", "R")];

/// Generic copies of the envelope structs in `file`, with their serde impls.
pub fn typed_structs(contract: &Contract, file: &syn::File) -> Vec<syn::Item> {
    let mut items = Vec::new();
    for (name, member, param) in OPEN_MEMBERS {
        let found = file.items.iter().find_map(|item| match item {
            syn::Item::Struct(s) if s.ident == name => Some(s.clone()),
            _ => None,
        });
        if let Some(original) = found {
            let required = match contract.types.get(*name).map(|t| &t.kind) {
                Some(TypeKind::Object(object)) => object.fields.iter().any(|f| f.name == *member && f.required),
                _ => continue,
            };
            items.extend(typed_struct(original, member, param, required));
        }
    }
    items
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

/// `decode` / `encode` for the typed envelopes, and `ResponseOf<R>`.
pub fn decoding(contract: &Contract) -> TokenStream {
    let mut out = TokenStream::new();
    for (name, member, param) in OPEN_MEMBERS {
        if !contract.types.contains_key(*name) {
            continue;
        }
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
    out.extend(response_of(contract));
    out
}

/// `ResponseOf<R>`: the `Response` union with its success variant typed.
fn response_of(contract: &Contract) -> TokenStream {
    let Some(TypeKind::Union(variants)) = contract.types.get("Response").map(|t| &t.kind) else {
        return TokenStream::new();
    };
    if !contract.types.contains_key("SuccessResponse") {
        return TokenStream::new();
    }
    let discriminators: Vec<&str> = variants.iter().map(|v| v.discriminator.as_str()).collect();
    let variant_types = variants.iter().map(|v| {
        let variant = format_ident!("{}", v.type_name);
        if v.type_name == "SuccessResponse" {
            quote! { #variant(SuccessResponseOf<R>) }
        } else {
            quote! { #variant(#variant) }
        }
    });
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let variant = format_ident!("{}", v.type_name);
        quote! { #i => strict_from_text("Response", &text).map(Self::#variant), }
    });
    quote! {
        /// A `Response` whose `result` is decoded as `R`, the method's result shape.
        #[derive(Clone, Debug)]
        pub enum ResponseOf<R> { #(#variant_types),* }
        impl<R: ::serde::de::DeserializeOwned + ::serde::Serialize> ResponseOf<R> {
            /// Decodes a `Response` frame with its `result` as `R`, in one pass over the text.
            ///
            /// # Errors
            ///
            /// A [`DecodeError`] saying where and why the text breaks the contract.
            pub fn decode(text: &str) -> ::std::result::Result<Self, DecodeError> {
                let (text, chosen) = checked_variant("Response", text, &[#(#discriminators),*])?;
                match chosen { #(#arms)* _ => Err(DecodeError::new("Response", "$", "no variant")) }
            }
        }
    }
}
