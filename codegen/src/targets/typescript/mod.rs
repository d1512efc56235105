//! The TypeScript target: one self-contained ES2020 module,
//! `typescript/src/coprocess.ts`, with no dependencies. It carries its own
//! strict JSON reader (see `runtime.ts`), because `JSON.parse` cannot see
//! duplicate keys, lone surrogates or oversized integers.
//!
//! The file is assembled from one submodule per concern: [`names`] (naming
//! and quoting), [`types`] (type declarations), [`decode`] and [`encode`]
//! (per-type codecs), and [`protocol`] (constants, messages, handshake,
//! lanes, the type registry).

mod decode;
mod encode;
mod names;
mod out;
mod protocol;
mod types;

use crate::model::Contract;
use crate::targets::Files;

use out::Out;

/// Where the file goes under the output root.
pub const OUTPUT_PATH: &str = "typescript/src/coprocess.ts";

/// The strict JSON reader and the shared shape checks, emitted verbatim.
const RUNTIME: &str = include_str!("runtime.ts");

pub fn generate(contract: &Contract) -> Files {
    let mut out = Out::default();
    protocol::header(&mut out, contract);
    protocol::constants(&mut out, contract);
    protocol::methods(&mut out, contract);
    protocol::error_codes(&mut out, contract);
    out.blank();
    out.raw(RUNTIME);
    out.section("Frame types, decoders and encoders");
    for def in contract.types.values() {
        types::declare(&mut out, contract, def);
        decode::render(&mut out, contract, def);
        encode::render(&mut out, contract, def);
    }
    protocol::registry(&mut out, contract);
    protocol::messages(&mut out, contract);
    protocol::handshake(&mut out, contract);
    protocol::lanes(&mut out, contract);
    let mut files = Files::new();
    files.insert(OUTPUT_PATH.to_string(), out.finish());
    files
}
