//! The Rust target: typify renders the `$defs` as serde types (the same path
//! `build.rs` uses), a syn pass tightens what typify leaves loose, and the
//! rest (pin, tables, frame decoding, handshake, lanes) is rendered from the
//! model. The SDK file is printed as rustfmt prints it ([`layout`]); the
//! protocol crate's own copy (`build.rs`) is printed with prettyplease.

mod claims;
mod client;
mod codecs;
mod envelopes;
mod layout;
mod names;
mod protocol;
mod readers;
mod repeated;
mod roles;
mod types;

use crate::model::Contract;
use crate::targets::{header_text, Files};
pub(crate) use crate::languages::rust::RUST_KEYWORDS;
use crate::SchemaError;

/// How the generated Rust is meant to be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// The Rust SDK's file: serde, serde_json and serde_path_to_error only.
    Sdk,
    /// The protocol crate's own copy (OUT_DIR): also derives `schemars::JsonSchema`
    /// so the round trip back to a schema can be tested.
    WithJsonSchema,
}

/// Renders the whole Rust module text (header included).
pub fn render(contract: &Contract, flavor: Flavor) -> Result<String, SchemaError> {
    let body = match flavor {
        // Items are printed one by one, so the two halves print apart: the
        // items beside the types on a thread of their own, typify's types
        // here (syn's trees cannot cross threads; their text can).
        Flavor::Sdk => {
            let (extras, types) = crate::parallel::join(&contract.source, "rust-items", || items_part(contract), || types_part(contract))?;
            types? + &extras?
        }
        Flavor::WithJsonSchema => {
            let mut file = types::types(contract, &contract.raw, flavor)?.into_file();
            file.items.extend(extras(contract, flavor)?.items);
            names::qualify_hidden_variants(&mut file, contract.types.keys());
            prettyplease::unparse(&file)
        }
    };
    Ok(module_file(contract, flavor, &body))
}

/// The module file around its items: the header, the lints it allows, and
/// the `strict` runtime after them.
fn module_file(contract: &Contract, flavor: Flavor, body: &str) -> String {
    format!(
        "// {}\n//\n// {}: strict frame types for the Rust SDK.\n\n{}{}\n{}",
        header_text(contract),
        contract.title,
        inner_allows(contract, flavor),
        body,
        include_str!("runtime.rs")
    )
}

/// The SDK file's items beside the types, printed: one of the three parts
/// ([`types_part`], [`client_part`]) that [`crate::targets::generate`]
/// renders on its workers and [`assemble`] puts together.
pub fn items_part(contract: &Contract) -> Result<String, SchemaError> {
    let mut plain_frames = repeated::Repeated::new(codecs::plain_frame, codecs::PLAIN_FRAME_NAMES);
    let mut out = String::new();
    let mut tokens = proc_macro2::TokenStream::new();
    // The fixed text names `Ok`, `Err`, `Some` and `None` bare: a contract
    // with a type of such a name gets it qualified, as the rendered items.
    let qualify_fixed = names::hides_variants(contract.types.keys());
    for items in extra_items(contract, Flavor::Sdk)? {
        if !matches!(items, Items::Tokens(_)) && !tokens.is_empty() {
            out.push_str(&print(contract, parse(contract, std::mem::take(&mut tokens))?)?);
        }
        match items {
            Items::Tokens(more) => tokens.extend(more),
            Items::Fixed(text) if qualify_fixed => out.push_str(&print(contract, parse_fixed(contract, text)?)?),
            Items::Fixed(text) => out.push_str(text),
            Items::Filled(text) => out.push_str(&print(contract, parse_fixed(contract, &text)?)?),
            Items::PlainFrame(ty) => out.push_str(&plain_frames.print(contract, &ty)?),
        }
    }
    if !tokens.is_empty() {
        out.push_str(&print(contract, parse(contract, tokens)?)?);
    }
    Ok(out)
}

/// The SDK file's types, printed (see [`items_part`]).
pub fn types_part(contract: &Contract) -> Result<String, SchemaError> {
    print_types(contract, Flavor::Sdk)
}

/// The session client's file (see [`items_part`]).
pub fn client_part(contract: &Contract) -> Result<String, SchemaError> {
    client::render(contract)
}

/// The Rust SDK's files from its three parts, each name claimed, as
/// [`generate`] gives them; the first error in the order types, items,
/// client is the one returned.
pub fn assemble(contract: &Contract, types: Result<String, SchemaError>, items: Result<String, SchemaError>, client: Result<String, SchemaError>) -> Result<Files, SchemaError> {
    let sdk = crate::targets::sdk(contract, "rust")?;
    let frames = module_file(contract, Flavor::Sdk, &(types? + &items?));
    claims::claim(contract, &frames)?;
    let mut files = Files::new();
    files.insert(sdk.frames.clone(), frames);
    files.insert(sdk.client.clone(), client?);
    Ok(files)
}

/// A run of the items beside the types (pin, tables, frame decoding,
/// handshake, lanes), in file order. The SDK file parses and lays out only
/// what the contract decides: parsing and laying out was most of this
/// target's time.
pub(crate) enum Items {
    /// Rendered from the contract.
    Tokens(proc_macro2::TokenStream),
    /// The same for every contract: the text [`layout`] prints for it.
    Fixed(&'static str),
    /// A fixed text with the roles filled in ([`roles`]): parsed and laid
    /// out, since the names it was given change its widths.
    Filled(String),
    /// A type's `impl Frame` that only its name tells apart
    /// ([`codecs::plain_frame`]), laid out once per name length ([`repeated`]).
    PlainFrame(syn::Ident),
}

fn extra_items(contract: &Contract, flavor: Flavor) -> Result<Vec<Items>, SchemaError> {
    let mut items = protocol::items(contract)?;
    items.push(Items::Tokens(envelopes::decoding(contract)?));
    if flavor == Flavor::WithJsonSchema {
        items.push(Items::Tokens(protocol::json_schema_of(contract)));
    }
    Ok(items)
}

/// The items beside the types, parsed (for the protocol crate's copy). The
/// types come parsed from [`types::types`]: quoting them back to tokens to
/// parse them again was a third of this target's time.
fn extras(contract: &Contract, flavor: Flavor) -> Result<syn::File, SchemaError> {
    let mut file = syn::File { shebang: None, attrs: Vec::new(), items: Vec::new() };
    for items in extra_items(contract, flavor)? {
        match items {
            Items::Tokens(tokens) => file.items.extend(parse(contract, tokens)?.items),
            Items::Fixed(text) => file.items.extend(parse_fixed(contract, text)?.items),
            Items::Filled(text) => file.items.extend(parse_fixed(contract, &text)?.items),
            Items::PlainFrame(ty) => file.items.extend(codecs::plain_frame(&ty)),
        }
    }
    Ok(file)
}

fn parse(contract: &Contract, tokens: proc_macro2::TokenStream) -> Result<syn::File, SchemaError> {
    syn::parse2(tokens).map_err(|e| invalid(contract, &e))
}

fn parse_fixed(contract: &Contract, text: &str) -> Result<syn::File, SchemaError> {
    syn::parse_str(text).map_err(|e| invalid(contract, &e))
}

fn invalid(contract: &Contract, error: &syn::Error) -> SchemaError {
    SchemaError::new(std::path::Path::new(&contract.source), "", format!("the Rust target produced invalid tokens: {error}"), "report this as a codegen bug")
}

/// typify's types, tightened, as the SDK file prints them: the strict serde
/// impls, two per type, from one layout per name length ([`repeated`]).
fn print_types(contract: &Contract, flavor: Flavor) -> Result<String, SchemaError> {
    let types = types::types(contract, &contract.raw, flavor)?;
    let serde = repeated::print_each(contract, &types.strict_serde, types::strict_serde, 4)?;
    let after = print(contract, syn::File { shebang: None, attrs: Vec::new(), items: types.after })?;
    Ok(print(contract, types.file)? + &serde + &after)
}

/// Items as rustfmt prints them ([`layout`]), with the variants the
/// `$defs` names hide qualified.
fn print(contract: &Contract, mut file: syn::File) -> Result<String, SchemaError> {
    names::qualify_hidden_variants(&mut file, contract.types.keys());
    layout::print_file(&file).map_err(|problem| SchemaError::new(std::path::Path::new(&contract.source), "", problem, "report this as a codegen bug"))
}

/// The lints the SDK's module file allows for its own code (an inner
/// attribute, so only there), when the contract calls for them.
///
/// serde's strict derive (`remote = "Self"`) gives every type inherent
/// `deserialize` and `serialize` functions: for a type named `Deserialize`
/// or `Serialize` one is a "self-named constructor" to clippy.
///
/// A `deprecated` type or member is read and written by the file's own
/// derives and codecs: the module allows that use of its own items, while
/// code outside it still gets the deprecation warning.
fn inner_allows(contract: &Contract, flavor: Flavor) -> String {
    if flavor != Flavor::Sdk {
        return String::new();
    }
    let named = ["Deserialize", "Serialize"].iter().any(|n| contract.types.contains_key(*n));
    let allowed: Vec<&str> = [(contract.has_deprecated(), "deprecated"), (named, "clippy::self_named_constructors")].into_iter().filter(|(on, _)| *on).map(|(_, lint)| lint).collect();
    if allowed.is_empty() {
        String::new()
    } else {
        format!("#![allow({})]\n\n", allowed.join(", "))
    }
}

/// The layout printer on Rust source text, for the formatter tests (the
/// committed items re-printed at other indentations must still be rustfmt's).
#[doc(hidden)]
pub fn layout_source(code: &str) -> Result<String, String> {
    let file: syn::File = syn::parse_str(code).map_err(|e| e.to_string())?;
    layout::print_file(&file)
}

/// The Rust SDK files (typify reads the `$defs` from `Contract::raw`),
/// rendered alone: the three parts side by side, put together by
/// [`assemble`] as [`crate::targets::generate`] puts its workers' parts.
pub fn generate(contract: &Contract) -> Result<Files, SchemaError> {
    let source = &contract.source;
    let (client, frames) = crate::parallel::join(source, "rust-client", || client_part(contract), || {
        crate::parallel::join(source, "rust-items", || items_part(contract), || types_part(contract))
    })?;
    let (items, types) = frames?;
    assemble(contract, types, items, client)
}

/// The file, and its names claimed (a `$defs` name Rust cannot take, or
/// one the SDK keeps, is refused before anything is written).
fn render_claimed(contract: &Contract) -> Result<(crate::targets::claims::Scope, String), SchemaError> {
    let text = render(contract, Flavor::Sdk)?;
    Ok((claims::claim(contract, &text)?, text))
}

/// The word lists this target escapes or avoids (keywords, reserved names).
pub fn keyword_sets() -> Vec<&'static [&'static str]> {
    vec![RUST_KEYWORDS]
}

/// The runtime templates, as written: the frames' (`runtime.rs`, the
/// `strict` module) and the session client's (`client_runtime.rs`).
pub fn runtime_sources() -> Vec<&'static str> {
    vec![include_str!("runtime.rs"), client::RUNTIME]
}

/// Every name this target declares where a schema name can reach
/// ([`crate::targets::claims`]): the names of module `coprocess`. The client
/// module (`client.rs`) is no such scope: it names every schema type through
/// its module (`coprocess::ListToolsResult`, never imported), so a `$defs`
/// type named like a client item (`ClientOptions`, `CoprocessClient`,
/// `Duration`, ...) stays `coprocess::ClientOptions` there and meets nothing
/// (the names proof adds a type of each such name and compiles the client).
pub fn declare(contract: &Contract) -> Result<Vec<crate::targets::claims::Scope>, crate::SchemaError> {
    Ok(vec![render_claimed(contract)?.0])
}
