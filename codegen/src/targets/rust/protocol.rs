//! The protocol's fixed parts: the pin and limits, the method / error-code /
//! lane tables, message rendering, the handshake helpers and the lane hint.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::names::ident;
use super::Items;
use crate::model::{Contract, Segment};
use crate::names;

/// The items, in file order.
pub fn items(contract: &Contract) -> Result<Vec<Items>, crate::SchemaError> {
    let mut tables_and_messages = constants(contract);
    tables_and_messages.extend(tables(contract));
    tables_and_messages.extend(messages(contract));
    let mut out = vec![Items::Tokens(tables_and_messages)];
    out.extend(super::codecs::frames(contract));
    let mut markers = patterns(contract);
    markers.extend(constants_module(contract));
    out.push(Items::Tokens(markers));
    out.push(Items::Filled(super::roles::fill(HANDSHAKE, contract)?));
    Ok(out)
}

/// The handshake helpers (`HandshakeFailure`, `handshake_request`,
/// `check_handshake_response`, ...) and the lane hint: the same for every
/// contract but the role types and the handshake method, which it names by
/// their placeholders ([`super::roles`]; the other names it uses are the
/// ones the loader requires), kept as text.
pub const HANDSHAKE: &str = include_str!("templates/handshake.rs");

/// Each distinct `pattern` as a `strict::Pattern`, compiled by the `regex`
/// crate on first use (the crate is needed only by a contract with a
/// pattern). Codegen compiled this very spelling with the crate and its
/// default limits (`codegen/src/pattern/limits.rs`), refusing a pattern past
/// them: `Regex::new` cannot fail.
fn patterns(contract: &Contract) -> TokenStream {
    let patterns = contract.patterns();
    if patterns.is_empty() {
        return TokenStream::new();
    }
    let items = patterns.iter().map(|pattern| {
        let name = quote::format_ident!("Pattern{}", pattern.number);
        let regex = quote::format_ident!("REGEX_{}", pattern.number);
        let doc = format!(" The pattern `{}`.", pattern.display());
        let problem = pattern.problem();
        let source = pattern.render(crate::pattern::Dialect::Rust);
        let expect = format!("codegen checked the pattern {}", serde_json::Value::from(pattern.source.as_str()));
        quote! {
            #[doc = #doc]
            pub struct #name;

            impl super::strict::Pattern for #name {
                const PROBLEM: &'static str = #problem;

                fn is_match(text: &str) -> bool {
                    #regex.is_match(text)
                }
            }

            static #regex: ::std::sync::LazyLock<::regex::Regex> =
                ::std::sync::LazyLock::new(|| ::regex::Regex::new(#source).expect(#expect));
        }
    });
    quote! {
        /// The contract's patterns, each compiled once, on first use.
        mod patterns {
            #(#items)*
        }
    }
}

/// Each distinct string `const` as a `strict::Literal` marker type (typify
/// 0.8 drops `const`; the strict deserializer checks the value).
fn constants_module(contract: &Contract) -> TokenStream {
    let mut values: Vec<&str> = Vec::new();
    let mut jsons: Vec<&str> = Vec::new();
    let mut one_ofs: Vec<&str> = Vec::new();
    for def in contract.types.values() {
        let crate::model::TypeKind::Object(object) = &def.kind else { continue };
        for field in &object.fields {
            // An inline `enum` of scalars that lists `null` is a nullable `const`.
            match field.ty.non_null() {
                crate::model::Ty::Const { value: crate::model::Constant::String(s), .. } if !values.contains(&s.as_str()) => values.push(s),
                crate::model::Ty::Const { value: crate::model::Constant::Json(text), .. } if !jsons.contains(&text.as_str()) => jsons.push(text),
                crate::model::Ty::Const { value: crate::model::Constant::OneOf(listed), .. } if !one_ofs.contains(&listed.as_str()) => one_ofs.push(listed),
                _ => {}
            }
        }
    }
    if values.is_empty() && jsons.is_empty() && one_ofs.is_empty() {
        return TokenStream::new();
    }
    values.sort_unstable();
    jsons.sort_unstable();
    one_ofs.sort_unstable();
    let one_of_items = one_ofs.iter().map(|listed| {
        let name = quote::format_ident!("{}", super::types::json_one_of_name(listed));
        let doc = format!(" The `enum` values {listed}.");
        quote! {
            #[doc = #doc]
            pub struct #name;

            impl super::strict::JsonLiteral for #name {
                const JSON: &'static str = #listed;
            }
        }
    });
    let json_items = jsons.iter().map(|text| {
        let name = quote::format_ident!("{}", super::types::json_literal_name(text));
        let doc = format!(" The `const` {text}.");
        quote! {
            #[doc = #doc]
            pub struct #name;

            impl super::strict::JsonLiteral for #name {
                const JSON: &'static str = #text;
            }
        }
    });
    let items = values.iter().map(|value| {
        let name = quote::format_ident!("{}", super::types::literal_name(value));
        let doc = format!(" The string `const` {}.", serde_json::Value::from(*value));
        quote! {
            #[doc = #doc]
            pub struct #name;

            impl super::strict::Literal for #name {
                const VALUE: &'static str = #value;
            }
        }
    });
    quote! {
        /// The contract's `const` values but integers and booleans, one marker type each.
        mod constants {
            #(#items)*
            #(#json_items)*
            #(#one_of_items)*
        }
    }
}

/// For the round-trip test: the schema each generated type describes (schemars).
pub fn json_schema_of(contract: &Contract) -> TokenStream {
    let arms = contract.types.keys().map(|name| {
        let ty = ident(name);
        quote! { #name => schemars::schema_for!(#ty), }
    });
    quote! {
        /// The JSON Schema the generated Rust type for a `$defs` name describes,
        /// as `schemars` derives it (`None` for an unknown name).
        pub fn json_schema_of(type_name: &str) -> ::std::option::Option<schemars::schema::RootSchema> {
            Some(match type_name { #(#arms)* _ => return None })
        }
    }
}

fn constants(contract: &Contract) -> TokenStream {
    let version = proc_macro2::Literal::i64_unsuffixed(contract.protocol_version);
    let max_line = proc_macro2::Literal::u64_unsuffixed(contract.max_line_bytes);
    let max_depth = proc_macro2::Literal::u32_unsuffixed(contract.max_depth);
    let client = client_settings(contract);
    quote! {
        /// The coprocess protocol version this code speaks (`x-coprocess.protocol_version`).
        pub const COPROCESS_PROTOCOL_VERSION: i64 = #version;
        /// The longest frame line a reader accepts, in bytes, without the `\n`.
        pub const MAX_LINE_BYTES: usize = #max_line;
        /// The deepest container nesting a frame may have.
        pub const MAX_DEPTH: usize = #max_depth;
        #client
    }
}

/// The session client's defaults (`x-coprocess.client`): `CLIENT_<NAME>`,
/// milliseconds as `u64` (what `Duration::from_millis` takes), a count as `usize`.
fn client_settings(contract: &Contract) -> TokenStream {
    let settings = contract.client.iter().map(|(name, setting)| {
        let constant = ident(&format!("CLIENT_{}", names::screaming_snake_case(name)));
        let doc = format!(" {}", setting.description.trim());
        let value = proc_macro2::Literal::u64_unsuffixed(setting.value);
        let ty = if name.ends_with("_ms") { quote! { u64 } } else { quote! { usize } };
        quote! { #[doc = #doc] pub const #constant: #ty = #value; }
    });
    quote! { #(#settings)* }
}

fn tables(contract: &Contract) -> TokenStream {
    let method_consts = contract.methods.iter().map(|m| {
        let name = ident(&names::screaming_snake_case(&m.name));
        let (wire, doc) = (&m.name, &m.description);
        quote! { #[doc = #doc] pub const #name: &str = #wire; }
    });
    let method_rows = contract.methods.iter().map(|m| {
        let (name, params, required, result) = (&m.name, &m.params, m.params_required, &m.result);
        quote! { MethodInfo { name: #name, params: #params, params_required: #required, result: #result } }
    });
    let code_consts = contract.error_codes.iter().map(|c| {
        let name = ident(&names::screaming_snake_case(&c.name));
        let (code, doc) = (proc_macro2::Literal::i64_unsuffixed(c.code), &c.description);
        quote! { #[doc = #doc] pub const #name: i64 = #code; }
    });
    let code_rows = contract.error_codes.iter().map(|c| {
        let (code, name, doc) = (proc_macro2::Literal::i64_unsuffixed(c.code), &c.name, &c.description);
        quote! { ErrorCodeInfo { code: #code, name: #name, description: #doc } }
    });
    let lane_rows = contract.lanes.iter().map(|l| {
        let (key, drivable, runs_via, doc) = (&l.key, l.drivable, &l.runs_via, &l.description);
        quote! { LaneInfo { key: #key, drivable: #drivable, runs_via: #runs_via, description: #doc } }
    });
    let unsupported = contract.unsupported_lanes().map(|l| &l.key);
    quote! {
        /// The method names of the contract.
        pub mod methods { #(#method_consts)* }
        /// The error codes of the contract.
        pub mod error_codes { #(#code_consts)* }
        /// One row of the method table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct MethodInfo {
            /// The wire name.
            pub name: &'static str,
            /// The `$defs` name of the params shape.
            pub params: &'static str,
            /// Whether `params` must be present.
            pub params_required: bool,
            /// The `$defs` name of the result shape.
            pub result: &'static str,
        }
        /// The method table, in table order.
        pub const METHODS: &[MethodInfo] = &[#(#method_rows),*];
        /// One row of the error-code table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct ErrorCodeInfo {
            /// The JSON-RPC error code.
            pub code: i64,
            /// Its name.
            pub name: &'static str,
            /// What it means.
            pub description: &'static str,
        }
        /// The error-code table, in table order.
        pub const ERROR_CODES: &[ErrorCodeInfo] = &[#(#code_rows),*];
        /// One row of the lane table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct LaneInfo {
            /// The suite YAML key.
            pub key: &'static str,
            /// Whether an SDK can drive it over the coprocess.
            pub drivable: bool,
            /// Who runs it: `the SDK`, or a CLI command with a `<suite>` placeholder.
            pub runs_via: &'static str,
            /// What the lane is.
            pub description: &'static str,
        }
        /// The lane table, in table order.
        pub const LANES: &[LaneInfo] = &[#(#lane_rows),*];
        /// The lanes an SDK cannot drive over the coprocess, in table order.
        pub const UNSUPPORTED_SDK_LANES: &[&str] = &[#(#unsupported),*];
        /// The method-table row of `name`.
        #[must_use]
        pub fn method_info(name: &str) -> ::std::option::Option<&'static MethodInfo> {
            METHODS.iter().find(|m| m.name == name)
        }
    }
}

fn messages(contract: &Contract) -> TokenStream {
    let mut out = TokenStream::new();
    for (name, message) in &contract.messages {
        let const_name = ident(&names::screaming_snake_case(name));
        let fn_name = ident(&format!("render_{name}"));
        let (template, doc) = (&message.template, &message.description);
        let holes: Vec<Ident> = message.holes().iter().map(|h| ident(h)).collect();
        let pushes = message.segments().into_iter().map(|segment| match segment {
            // A one-character segment is pushed as a char (clippy::single_char_add_str).
            Segment::Text(text) => match text.chars().collect::<Vec<_>>().as_slice() {
                [one] => quote! { out.push(#one); },
                _ => quote! { out.push_str(#text); },
            },
            Segment::Hole(hole) => {
                let hole = ident(&hole);
                quote! { out.push_str(#hole); }
            }
        });
        out.extend(quote! {
            #[doc = #doc]
            pub const #const_name: &str = #template;
            #[doc = #doc]
            #[must_use]
            pub fn #fn_name(#(#holes: &str),*) -> ::std::string::String {
                let mut out = ::std::string::String::new();
                #(#pushes)*
                out
            }
        });
    }
    quote! {
        /// The shared message templates and their renderers.
        pub mod messages { #out }
    }
}
