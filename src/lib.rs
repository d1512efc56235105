//! The mcptest coprocess protocol, binary side and Rust SDK side.
//!
//! Everything here flows from `schemas/ipc/v2.json`: `build.rs` renders the
//! frame types, the pin, the method, error-code and lane tables and the
//! message templates into [`frames`]; the modules beside it add the channel
//! (NDJSON framing), the request envelope handling of the binary, the
//! handshake logic of both sides and schema validation.

/// Generated from `schemas/ipc/v2.json` (or the contract `MCPTEST_COPROCESS_SCHEMA`
/// names) by `build.rs` (typify + prettyplease).
#[allow(clippy::all, deprecated, missing_docs, unused)]
pub mod frames {
    include!(concat!(env!("OUT_DIR"), "/coprocess.rs"));
}

pub mod envelope;
pub mod handshake;
pub mod ndjson;
#[cfg(feature = "validate")]
pub mod validate;

pub use frames::{
    lane_cli_hint, DecodeError, Frame, COPROCESS_PROTOCOL_VERSION, LANES, MAX_DEPTH, MAX_LINE_BYTES,
    METHODS, UNSUPPORTED_SDK_LANES,
};

/// The coprocess protocol version, from the schema (never typed twice).
pub const PROTOCOL_VERSION: i64 = frames::COPROCESS_PROTOCOL_VERSION;

/// The contract itself, as the binary and the tests read it (`build.rs`
/// copies the schema it rendered the frames from).
pub const SCHEMA_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/schema.json"));
