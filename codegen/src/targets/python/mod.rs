//! The Python target: one module (the support matrix's `module`, by default
//! `mcptest._coprocess` in `python/mcptest/_coprocess.py`) and its session
//! client beside it, standard library only (3.10+), `mypy --strict` and
//! `ruff format` clean as emitted.
//!
//! Frames are frozen dataclasses; enums are `Literal` aliases; maps, unions and
//! request ids are aliases. JSON text is parsed by `json`'s own scanner after a
//! few C-speed checks on the text for what it lets through (duplicate keys via a
//! key count, long integers, `\u` escapes, depth); text those checks cannot vouch
//! for goes through `json.JSONDecoder` with hooks that make it strict and word the
//! rejection; see `runtime.py`.

mod claims;
mod client;
mod codecs;
mod docs;
mod envelopes;
mod layout;
mod names;
mod protocol;
mod types;

use crate::model::Contract;
use crate::targets::{header_text, prune, Files};
use docs::comment;
use layout::Out;

/// The helpers every generated module carries (strict JSON text, shape checks).
pub const RUNTIME: &str = include_str!("runtime.py");

pub fn generate(contract: &Contract) -> Result<Files, crate::SchemaError> {
    let sdk = crate::targets::sdk(contract, "python")?;
    let text = render(contract)?;
    claims::claim(contract, &text)?;
    let mut files = Files::new();
    files.insert(sdk.frames.clone(), text);
    files.insert(sdk.client.clone(), client::render(contract, sdk)?);
    Ok(files)
}

/// The word lists this target escapes or avoids (keywords, reserved names).
pub fn keyword_sets() -> Vec<&'static [&'static str]> {
    vec![names::KEYWORDS]
}

/// The runtime template(s), as written.
pub fn runtime_sources() -> Vec<&'static str> {
    vec![RUNTIME]
}

/// Every name this target declares where a schema name can reach
/// ([`crate::targets::claims`]).
pub fn declare(contract: &Contract) -> Result<Vec<crate::targets::claims::Scope>, crate::SchemaError> {
    Ok(vec![claims::claim(contract, &render(contract)?)?])
}


fn render(contract: &Contract) -> Result<String, crate::SchemaError> {
    let body = body(contract)?;
    let mut out = Out::default();
    out.line(&comment(0, &header_text(contract)));
    out.line(&docs::module_docstring(contract));
    out.blank(1);
    out.line("from __future__ import annotations");
    out.blank(1);
    // Standard names are reached through their modules (`typing.Final`,
    // `collections.abc.Callable`, `builtins.ValueError`) or are lower-case
    // builtins (`list`, `str | None`), so no `$defs` type (always
    // capitalized) can shadow one.
    out.line("import builtins");
    if body.contains("collections.abc.") {
        out.line("import collections.abc");
    }
    out.line("import enum");
    out.line("import json");
    out.line("import math");
    out.line("import re");
    out.line("import typing");
    out.line("from dataclasses import dataclass");
    Ok(out.into_string() + &body)
}

fn body(contract: &Contract) -> Result<String, crate::SchemaError> {
    let mut head = Out::default();
    protocol::constants(contract, &mut head);
    head.blank(1);
    let mut out = Out::default();
    out.blank(2);
    out.line(&comment(0, "Methods."));
    protocol::methods(contract, &mut out);
    out.blank(2);
    out.line(&comment(0, "Error codes."));
    protocol::error_codes(contract, &mut out);
    out.blank(2);
    out.line(&comment(0, "Message templates."));
    protocol::messages(contract, &mut out);
    out.blank(2);
    out.line(&comment(0, "Frame types."));
    types::render(contract, &mut out);
    out.blank(2);
    out.line(&comment(0, "Decoders and encoders."));
    codecs::render(contract, &mut out);
    envelopes::render(contract, &mut out)?;
    out.blank(2);
    out.line(&comment(0, "Handshake."));
    protocol::handshake(contract, &mut out)?;
    out.blank(2);
    out.line(&comment(0, "Lanes."));
    protocol::lanes(contract, &mut out);
    // The runtime goes between the constants and the rest, and holds only the
    // helpers they reach: no dead code, whatever the schema (pyright's
    // reportUnusedFunction).
    let (head, rest) = (head.into_string(), out.into_string());
    let runtime = prune::prune(RUNTIME.trim_end(), &format!("{head}{rest}"), private_name);
    Ok(format!("{head}{runtime}\n{rest}"))
}

/// The name a runtime declaration keeps private (`_` prefix), if any.
fn private_name(line: &str) -> Option<&str> {
    let name = prune::declared(line, &["def ", "class ", ""])?;
    name.starts_with('_').then_some(name)
}

