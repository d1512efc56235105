//! The codecs: the `Frame` trait (strict decode, one-line encode) for every
//! type, the decode helpers it shares, and the shape-dispatching
//! `Deserialize` of nested unions and request ids.

use proc_macro2::TokenStream;
use quote::quote;

use super::names::ident;
use super::Items;
use crate::model::{union_tag, Contract, TypeKind, UnionVariant};

/// The `Frame` trait and its helpers ([`FRAME_TRAIT`]), every type's impl,
/// and the lookups by `$defs` name.
pub fn frames(contract: &Contract) -> Vec<Items> {
    let type_names = contract.types.keys();
    let readers = crate::targets::readers::plans(contract);
    let mut out = vec![Items::Fixed(FRAME_TRAIT)];
    let mut arms = TokenStream::new();
    let mut value_arms = TokenStream::new();
    for (name, def) in &contract.types {
        let ty = ident(name);
        arms.extend(quote! { #name => #ty::decode(text).map(|v| v.encode()), });
        value_arms.extend(quote! { #name => #ty::from_value(value).map(|_| ()), });
        let body = match &def.kind {
            TypeKind::Union(variants) if union_tag(variants).is_some() => tagged_union_codec(name, variants),
            TypeKind::Union(variants) => untagged_union_codec(name, variants, readers.contains_key(name)),
            TypeKind::IntegerOrString => plain_codec(name),
            _ if readers.contains_key(name) => read_codec(name),
            _ if ty == name => {
                out.push(Items::PlainFrame(ty));
                continue;
            }
            _ => plain_codec(name),
        };
        let mut items = quote! {
            impl Frame for #ty {
                const TYPE_NAME: &'static str = #name;
                #body
            }
        };
        items.extend(union_deserialize(name, &def.kind));
        out.push(Items::Tokens(items));
    }
    out.push(Items::Tokens(quote! {
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
    }));
    out
}

/// The `Frame` trait, and the decode helpers every impl shares: the same for
/// every contract, so kept as the text [`super::layout`] prints for it (a
/// test holds it there).
pub const FRAME_TRAIT: &str = include_str!("templates/frame_trait.rs");

/// The `impl Frame` of a type that decodes as itself (neither a union nor a
/// request id), for [`super::repeated::Repeated`]: the name occurs
/// [`PLAIN_FRAME_NAMES`] times.
pub fn plain_frame(ty: &syn::Ident) -> [syn::Item; 1] {
    let name = ty.to_string();
    let body = plain_codec(&name);
    [syn::parse_quote! {
        impl Frame for #ty {
            const TYPE_NAME: &'static str = #name;
            #body
        }
    }]
}

/// How often [`plain_frame`]'s items name the type.
pub const PLAIN_FRAME_NAMES: usize = 5;

fn plain_codec(name: &str) -> TokenStream {
    quote! {
        fn decode(text: &str) -> ::std::result::Result<Self, DecodeError> {
            let text = checked_text(#name, text)?;
            strict_from_text(#name, &text)
        }
        fn from_value(value: ::serde_json::Value) -> ::std::result::Result<Self, DecodeError> {
            strict_from_value(#name, value)
        }
    }
}

/// The `Frame` of an object type with a single-pass reader
/// ([`super::readers`]): a text the reader reads is decoded; any other goes
/// to the strict decode.
fn read_codec(name: &str) -> TokenStream {
    quote! {
        fn decode(text: &str) -> ::std::result::Result<Self, DecodeError> {
            if let Some(value) = strict::read_whole(text, MAX_DEPTH, Self::read_in_place) {
                return Ok(value);
            }
            let text = checked_text(#name, text)?;
            strict_from_text(#name, &text)
        }
        fn from_value(value: ::serde_json::Value) -> ::std::result::Result<Self, DecodeError> {
            strict_from_value(#name, value)
        }
    }
}

/// An untagged union's `Frame`: the discriminator members present pick the
/// variant (first, when it has one, the union's single-pass reader).
fn untagged_union_codec(name: &str, variants: &[UnionVariant], read: bool) -> TokenStream {
    let read_in_place = read.then(|| {
        quote! {
            if let Some(value) = strict::read_whole(text, MAX_DEPTH, Self::read_in_place) {
                return Ok(value);
            }
        }
    });
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
            #read_in_place
            let (text, chosen) = checked_variant(#name, text, &[#(#discriminators),*])?;
            match chosen { #(#arms)* _ => Err(DecodeError::new(#name, "$", "no variant")) }
        }
        fn from_value(value: ::serde_json::Value) -> ::std::result::Result<Self, DecodeError> {
            let ::serde_json::Value::Object(map) = &value else {
                return Err(DecodeError::new(#name, "$", format!("expected object, got {}", strict::kind(&value))));
            };
            let chosen = strict::pick_variant_of(map, &[#(#discriminators),*]).map_err(|p| DecodeError::new(#name, "$", p))?;
            match chosen { #(#arms2)* _ => Err(DecodeError::new(#name, "$", "no variant")) }
        }
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
        TypeKind::Union(variants) if union_tag(variants).is_none() => untagged_union_deserialize(name, variants),
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

/// A nested untagged union reads its value in the outer decode's pass
/// (`strict::UnionVisitor`): as the variant its first member names, when
/// that member is a discriminator; else its members' names and their values'
/// text (`strict::UnionMembers`), the discriminators among them picking the
/// variant, which then reads those members under its own strict rules.
fn untagged_union_deserialize(name: &str, variants: &[UnionVariant]) -> TokenStream {
    let ty = ident(name);
    let discriminators: Vec<&str> = variants.iter().map(|v| v.discriminator.as_str()).collect();
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let variant = ident(&v.type_name);
        quote! { #i => strict_from_members::<#variant>(#name, members).map(Self::#variant), }
    });
    let read_arms = variants.iter().enumerate().map(|(i, v)| {
        let variant = ident(&v.type_name);
        quote! { Some(#i) => strict::read_variant(first, map).map(|v| Ok(Self::#variant(v))), }
    });
    quote! {
        impl strict::NestedUnion for #ty {
            const DISCRIMINATORS: &'static [&'static str] = &[#(#discriminators),*];
            fn read_as<'de, A: ::serde::de::MapAccess<'de>>(
                first: ::std::borrow::Cow<'de, str>,
                map: A,
            ) -> ::std::result::Result<::std::result::Result<Self, (::std::borrow::Cow<'de, str>, A)>, A::Error> {
                let picked = Self::DISCRIMINATORS.iter().position(|d| *d == first);
                match picked {
                    #(#read_arms)*
                    _ => Ok(Err((first, map))),
                }
            }
            fn from_members(members: &strict::UnionMembers<'_>) -> ::std::result::Result<Self, DecodeError> {
                let chosen = members.variant(Self::DISCRIMINATORS).map_err(|p| DecodeError::new(#name, "$", p))?;
                match chosen { #(#arms)* _ => Err(DecodeError::new(#name, "$", "no variant")) }
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                deserializer.deserialize_any(strict::UnionVisitor::<Self>::new())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::protocol::HANDSHAKE;
    use super::FRAME_TRAIT;

    /// A nested untagged union (`CallResult` in the client's typed answer)
    /// reads its members once, in the outer decode, not a
    /// `serde_json::Value` built and walked again nor its text read again
    /// (issue 37: the client's CPU per call); a tagged union still reads a
    /// value, its tag's.
    #[test]
    fn a_nested_untagged_union_reads_its_members_once() {
        let variant = |type_name: &str, discriminator: &str| crate::model::UnionVariant {
            type_name: type_name.to_string(),
            discriminator: discriminator.to_string(),
            tag: None,
        };
        let untagged = crate::model::TypeKind::Union(vec![variant("Verdict", "success"), variant("Passthrough", "content")]);
        let text = super::union_deserialize("CallResult", &untagged).to_string();
        assert!(text.contains("UnionMembers") && text.contains("strict_from_members") && text.contains("from_members"), "{text}");
        assert!(text.contains("UnionVisitor") && text.contains("read_variant"), "{text}");
        assert!(!text.contains("RawValue") && !text.contains("strict_from_text"), "{text}");
        assert!(!text.contains("serde_json :: Value"), "{text}");
    }

    /// The fixed texts are what the layout prints for them, as if they were
    /// rendered from tokens like the rest of the file: the frame trait as it
    /// is, the handshake once its roles are filled in for v2.json.
    #[test]
    fn the_fixed_items_are_laid_out_as_the_layout_prints_them() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        let (contract, _) = crate::load::load(&path, "v2.json").expect("loads");
        let handshake = super::super::roles::fill(HANDSHAKE, &contract).expect("fills");
        for text in [FRAME_TRAIT, handshake.as_str()] {
            let first = text.lines().next().unwrap_or_default();
            assert_eq!(super::super::layout_source(text).as_deref(), Ok(text), "the fixed items starting `{first}`");
        }
    }

    /// A contract with types named `Err` and `None` gets the fixed items
    /// with those variants written by path, as the rendered ones are.
    #[test]
    fn the_fixed_items_name_the_variants_a_type_hides_by_path() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let mut schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        let empty = schema["$defs"]["EmptyParams"].clone();
        for name in ["Err", "None"] {
            schema["$defs"][name] = empty.clone();
        }
        let (contract, _) = crate::load::load_str(&schema.to_string(), &path, "minimal.json").expect("loads");
        let items = super::super::items_part(&contract).expect("renders");
        assert!(items.contains("::std::result::Result::Err(DecodeError::new(") && !items.contains(" Err(DecodeError::new("), "{items}");
        assert!(items.contains("::std::option::Option::None =>") || items.contains("::std::option::Option::None,"), "{items}");
        assert!(items.contains("Some(name)") && items.contains("Ok(result)"), "the variants no type hides stay bare");
    }

    /// The fixed items use what every contract has: the methods, error
    /// codes and messages the loader requires, the handshake method by its
    /// role (so a contract whose handshake has another name gets that
    /// method's constant).
    #[test]
    fn the_handshake_text_names_only_what_every_contract_has() {
        let snake = crate::names::screaming_snake_case;
        let named = |text: &str, module: &str| -> Vec<String> {
            text.split(&format!("{module}::")).skip(1).map(|rest| rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()).collect()
        };
        let methods: Vec<String> = vec!["ROLE_HANDSHAKE_METHOD".to_string()];
        let codes: Vec<String> = crate::load::REQUIRED_ERROR_CODES.iter().map(|c| snake(c)).collect();
        let messages: Vec<String> = crate::load::REQUIRED_MESSAGES.iter().flat_map(|(key, _)| [snake(key), format!("render_{key}")]).collect();
        for (module, required) in [("methods", &methods), ("error_codes", &codes), ("messages", &messages)] {
            let used = named(HANDSHAKE, module);
            assert!(!used.is_empty(), "the handshake uses {module}");
            for name in used {
                assert!(required.contains(&name), "{module}::{name} is not required of every contract");
            }
        }
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let text = std::fs::read_to_string(&path).expect("readable").replace("coprocess/handshake", "session.hello");
        let (contract, _) = crate::load::load_str(&text, &path, "minimal.json").expect("loads");
        let items = super::super::items_part(&contract).expect("renders");
        assert_eq!(named(&super::super::roles::fill(HANDSHAKE, &contract).expect("fills"), "methods"), ["SESSION_HELLO"]);
        assert!(items.contains("pub const SESSION_HELLO: &str = \"session.hello\";") && items.contains("/// The `session.hello` request frame, one line."), "{items}");
    }
}
