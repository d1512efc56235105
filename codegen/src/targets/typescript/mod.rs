//! The TypeScript target: one self-contained ES2020 module (by default
//! `typescript/src/coprocess.ts`: the support matrix says where), with no
//! dependencies. It carries its own
//! strict JSON reader (see `runtime.ts`), because `JSON.parse` cannot see
//! duplicate keys, lone surrogates or oversized integers. Decoding takes
//! `JSON.parse`'s fast native path when cheap checks (native string searches
//! and one walk over the parsed value) show that it agrees with the strict
//! reader, and the strict reader otherwise and for every error message.
//!
//! The file is assembled from one submodule per concern: [`names`] (naming
//! and quoting), [`claims`] (the names the file declares), [`docs`] (TSDoc
//! comments), [`types`] (type declarations), [`codecs`] (per-type decoders
//! and encoders), [`envelopes`] (the typed `RequestOf<P>` family),
//! [`protocol`] (constants, messages, handshake, lanes, the type registry),
//! and [`layout`] (the text, each statement as Prettier prints it).
//!
//! A second module beside it (by default `typescript/src/client.ts`,
//! [`client`]) is the session client for Node.js, on top of the first.

mod claims;
mod client;
mod codecs;
mod docs;
mod envelopes;
mod layout;
mod names;
mod plain;
mod protocol;
mod types;

use crate::model::Contract;
use crate::targets::{prune, Files};

use layout::Out;

/// The strict JSON reader and the shared shape checks, emitted verbatim.
pub const RUNTIME: &str = include_str!("runtime.ts");

pub fn generate(contract: &Contract) -> Result<Files, crate::SchemaError> {
    let sdk = crate::targets::sdk(contract, "typescript")?;
    let text = render(contract)?;
    claims::claim(contract, &text)?;
    let mut files = Files::new();
    files.insert(sdk.frames.clone(), text);
    files.insert(sdk.client.clone(), client::render(contract, sdk)?);
    Ok(files)
}

/// The module text.
fn render(contract: &Contract) -> Result<String, crate::SchemaError> {
    let mut head = Out::default();
    protocol::header(&mut head, contract);
    protocol::constants(&mut head, contract);
    codecs::open_depth_constant(&mut head, contract);
    protocol::methods(&mut head, contract);
    protocol::error_codes(&mut head, contract);
    head.blank();
    let mut body = Out::default();
    body.section("Frame types, decoders and encoders");
    codecs::render_patterns(&mut body, contract);
    let plans = plain::ts_plans(contract);
    for def in contract.types.values() {
        types::declare(&mut body, contract, def);
        codecs::render_decoder(&mut body, contract, def, plans.contains_key(&def.name));
        plain::render(&mut body, contract, &plans, &def.name);
        codecs::render_encoder(&mut body, contract, def);
    }
    envelopes::render(&mut body, contract)?;
    protocol::registry(&mut body, contract);
    protocol::messages(&mut body, contract);
    protocol::handshake(&mut body, contract)?;
    protocol::lanes(&mut body, contract);
    let head = head.finish();
    let body = body.finish();
    let runtime = prune::prune(RUNTIME.trim_end(), &format!("{head}{body}"), private_name);
    Ok(format!("{head}{runtime}\n{body}"))
}

/// The word lists this target escapes or avoids (keywords, reserved names).
pub fn keyword_sets() -> Vec<&'static [&'static str]> {
    vec![names::RESERVED_WORDS, names::RUNTIME_IDENTIFIERS]
}

/// The runtime templates, as written: the frame module's and the session
/// client's (`client.ts` is a module of its own that names the frame module's
/// declarations only as `coprocess.<Name>`, so a `$defs` type named like one of
/// its declarations, `ClientError`, lives beside it: nothing to claim).
pub fn runtime_sources() -> Vec<&'static str> {
    vec![RUNTIME, client::RUNTIME]
}

/// Every name this target declares where a schema name can reach
/// ([`crate::targets::claims`]).
pub fn declare(contract: &Contract) -> Result<Vec<crate::targets::claims::Scope>, crate::SchemaError> {
    Ok(vec![claims::claim(contract, &render(contract)?)?])
}

/// The name a runtime declaration keeps private (it is not exported), if any.
fn private_name(line: &str) -> Option<&str> {
    prune::declared(line, &["function ", "const ", "type ", "class "])
}
