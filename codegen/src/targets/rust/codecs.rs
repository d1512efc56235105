//! The codecs: the `Frame` trait (strict decode, one-line encode) for every
//! type, the decode helpers it shares, and the shape-dispatching
//! `Deserialize` of nested unions and request ids.

use proc_macro2::TokenStream;
use quote::quote;

use super::names::ident;
use crate::model::{union_tag, Contract, TypeKind, UnionVariant};

pub fn frames(contract: &Contract) -> TokenStream {
    let type_names = contract.types.keys();
    let mut impls = TokenStream::new();
    let mut arms = TokenStream::new();
    let mut value_arms = TokenStream::new();
    for (name, def) in &contract.types {
        let ty = ident(name);
        arms.extend(quote! { #name => #ty::decode(text).map(|v| v.encode()), });
        value_arms.extend(quote! { #name => #ty::from_value(value).map(|_| ()), });
        let body = match &def.kind {
            TypeKind::Union(variants) if union_tag(variants).is_some() => tagged_union_codec(name, variants),
            TypeKind::Union(variants) => {
                let discriminators: Vec<&str> = variants.iter().map(|v| v.discriminator.as_str()).collect();
                let arms = variants.iter().enumerate().map(|(i, v)| {
                    let variant = ident(&v.type_name);
                    quote! { #i => strict_from_text::<#variant>(#name, &text).map(Self::#variant), }
                });
                let arms2 = variants.iter().enumerate().map(|(i, v)| {
                    let variant = ident(&v.type_name);
                    quote! { #i => strict_from_value::<#variant>(#name, value).map(Self::#variant), }
                });
                quote! {
                    fn decode(text: &str) -> ::std::result::Result<Self, DecodeError> {
                        let (text, chosen) = checked_variant(#name, text, &[#(#discriminators),*])?;
                        match chosen { #(#arms)* _ => Err(DecodeError::new(#name, "$", "no variant")) }
                    }
                    fn from_value(value: ::serde_json::Value) -> ::std::result::Result<Self, DecodeError> {
                        let ::serde_json::Value::Object(map) = &value else {
                            return Err(DecodeError::new(#name, "$", format!("expected object, got {}", strict::kind(&value))));
                        };
                        let present: ::std::vec::Vec<bool> = [#(#discriminators),*].iter().map(|d| map.contains_key(*d)).collect();
                        let chosen = strict::pick_variant(&present, &[#(#discriminators),*]).map_err(|p| DecodeError::new(#name, "$", p))?;
                        match chosen { #(#arms2)* _ => Err(DecodeError::new(#name, "$", "no variant")) }
                    }
                }
            }
            _ => quote! {
                fn decode(text: &str) -> ::std::result::Result<Self, DecodeError> {
                    let text = checked_text(#name, text)?;
                    strict_from_text(#name, &text)
                }
                fn from_value(value: ::serde_json::Value) -> ::std::result::Result<Self, DecodeError> {
                    strict_from_value(#name, value)
                }
            },
        };
        impls.extend(quote! {
            impl Frame for #ty {
                const TYPE_NAME: &'static str = #name;
                #body
            }
        });
        impls.extend(union_deserialize(name, &def.kind));
    }
    quote! {
        pub use strict::DecodeError;
        /// A type of the contract that decodes strictly and encodes as one line.
        pub trait Frame: ::std::marker::Sized + ::serde::Serialize {
            /// The `$defs` name.
            const TYPE_NAME: &'static str;
            /// Decodes frame text under the contract's JSON-text and shape rules.
            ///
            /// # Errors
            ///
            /// A [`DecodeError`] saying where and why the text breaks the contract.
            fn decode(text: &str) -> ::std::result::Result<Self, DecodeError>;
            /// Decodes an already-parsed value (for example a response's `result`).
            ///
            /// # Errors
            ///
            /// A [`DecodeError`] saying where and why the value breaks the contract.
            fn from_value(value: ::serde_json::Value) -> ::std::result::Result<Self, DecodeError>;
            /// Encodes as one line of JSON: fields in schema order, no newline.
            fn encode(&self) -> ::std::string::String {
                // Serializing these types cannot fail: every map has string keys.
                ::serde_json::to_string(self).unwrap_or_default()
            }
        }
        fn checked_text<'t>(type_name: &'static str, text: &'t str) -> ::std::result::Result<::std::borrow::Cow<'t, str>, DecodeError> {
            strict::check_text(text, MAX_DEPTH).map_err(|(path, problem)| DecodeError::new(type_name, path, problem))
        }
        /// Checks a union's frame text and picks its variant by which
        /// discriminator fields are present at the top level (from the scan).
        fn checked_variant<'t>(type_name: &'static str, text: &'t str, discriminators: &[&str]) -> ::std::result::Result<(::std::borrow::Cow<'t, str>, usize), DecodeError> {
            let checked = strict::scan(text, MAX_DEPTH).map_err(|(path, problem)| DecodeError::new(type_name, path, problem))?;
            if !checked.text.trim_start().starts_with('{') {
                let value: ::serde_json::Value = ::serde_json::from_str(&checked.text).map_err(|e| DecodeError::new(type_name, "$", strict::problem_from_serde(&e.to_string())))?;
                return Err(DecodeError::new(type_name, "$", format!("expected object, got {}", strict::kind(&value))));
            }
            let present: ::std::vec::Vec<bool> = discriminators.iter().map(|d| checked.top_level_keys.iter().any(|k| k == d)).collect();
            let chosen = strict::pick_variant(&present, discriminators).map_err(|p| DecodeError::new(type_name, "$", p))?;
            Ok((checked.text, chosen))
        }
        /// Deserializes checked text; only a failure pays for tracking the path.
        fn strict_from_text<T: ::serde::de::DeserializeOwned>(type_name: &'static str, text: &str) -> ::std::result::Result<T, DecodeError> {
            ::serde_json::from_str(text).or_else(|_| explain(type_name, &mut ::serde_json::Deserializer::from_str(text)))
        }
        /// Deserializes a parsed value; only a failure pays for tracking the path.
        fn strict_from_value<T: ::serde::de::DeserializeOwned>(type_name: &'static str, value: ::serde_json::Value) -> ::std::result::Result<T, DecodeError> {
            T::deserialize(&value).or_else(|_| explain(type_name, value))
        }
        /// Deserializes again, tracking the path, to say where and why it fails.
        fn explain<'de, T: ::serde::Deserialize<'de>, D: ::serde::Deserializer<'de>>(type_name: &'static str, de: D) -> ::std::result::Result<T, DecodeError>
        where D::Error: ::std::fmt::Display {
            ::serde_path_to_error::deserialize(de).map_err(|e| {
                let message = e.inner().to_string();
                let mut path = strict::json_path(e.path());
                // A nested union's error carries its own path after the marker.
                if let Some((problem, inner)) = message.split_once(strict::INNER_PATH) {
                    let inner = inner.split(" at line ").next().unwrap_or(inner);
                    path.push_str(inner.strip_prefix('$').unwrap_or(inner));
                    return DecodeError::new(type_name, path, problem);
                }
                let problem = strict::problem_from_serde(&message);
                if problem.starts_with("unknown field") {
                    // serde's path already names the unknown key; the error belongs to its object.
                    path = strict::parent_path(&path);
                }
                DecodeError::new(type_name, path, problem)
            })
        }
        #impls
        /// Decodes `text` as the named `$defs` type and re-encodes it (`None` for an unknown name).
        #[must_use]
        pub fn decode_and_encode(type_name: &str, text: &str) -> ::std::option::Option<::std::result::Result<::std::string::String, DecodeError>> {
            Some(match type_name { #arms _ => return None })
        }
        /// Checks an already-parsed value against the named `$defs` type (`None` for an unknown name).
        #[must_use]
        pub fn check_value(type_name: &str, value: ::serde_json::Value) -> ::std::option::Option<::std::result::Result<(), DecodeError>> {
            Some(match type_name { #value_arms _ => return None })
        }
        /// Every `$defs` name, sorted.
        pub const TYPE_NAMES: &[&str] = &[#(#type_names),*];
    }
}

/// A tagged union's `Frame`: the tag member's value picks the variant
/// (`strict::pick_tag`), which then decodes the whole value.
fn tagged_union_codec(name: &str, variants: &[UnionVariant]) -> TokenStream {
    let Some((member, tags)) = union_tag(variants) else { return TokenStream::new() };
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let variant = ident(&v.type_name);
        quote! { #i => strict_from_value::<#variant>(#name, value).map(Self::#variant), }
    });
    quote! {
        fn decode(text: &str) -> ::std::result::Result<Self, DecodeError> {
            let text = checked_text(#name, text)?;
            let value: ::serde_json::Value = ::serde_json::from_str(&text).map_err(|e| DecodeError::new(#name, "$", strict::problem_from_serde(&e.to_string())))?;
            Self::from_value(value)
        }
        fn from_value(value: ::serde_json::Value) -> ::std::result::Result<Self, DecodeError> {
            let ::serde_json::Value::Object(map) = &value else {
                return Err(DecodeError::new(#name, "$", format!("expected object, got {}", strict::kind(&value))));
            };
            let chosen = strict::pick_tag(map, #member, &[#(#tags),*]).map_err(|(path, p)| DecodeError::new(#name, path, p))?;
            match chosen { #(#arms)* _ => Err(DecodeError::new(#name, "$", "no variant")) }
        }
    }
}

/// Nested unions and request ids get a shape-dispatching `Deserialize`.
fn union_deserialize(name: &str, kind: &TypeKind) -> TokenStream {
    let ty = ident(name);
    match kind {
        TypeKind::Union(_) => quote! {
            impl<'de> ::serde::Deserialize<'de> for #ty {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                    <Self as Frame>::from_value(value).map_err(|e| {
                        ::serde::de::Error::custom(strict::nested_problem(&e.problem, &e.path))
                    })
                }
            }
        },
        TypeKind::IntegerOrString => quote! {
            impl<'de> ::serde::Deserialize<'de> for #ty {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    struct IdVisitor;
                    impl ::serde::de::Visitor<'_> for IdVisitor {
                        type Value = #ty;
                        fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                            f.write_str("integer or string")
                        }
                        fn visit_i64<E: ::serde::de::Error>(self, v: i64) -> ::std::result::Result<Self::Value, E> {
                            Ok(#ty::Integer(v))
                        }
                        fn visit_u64<E: ::serde::de::Error>(self, v: u64) -> ::std::result::Result<Self::Value, E> {
                            i64::try_from(v).map(#ty::Integer).map_err(|_| E::invalid_value(::serde::de::Unexpected::Unsigned(v), &self))
                        }
                        fn visit_str<E: ::serde::de::Error>(self, v: &str) -> ::std::result::Result<Self::Value, E> {
                            Ok(#ty::String(v.to_string()))
                        }
                    }
                    deserializer.deserialize_any(IdVisitor)
                }
            }
        },
        _ => TokenStream::new(),
    }
}
