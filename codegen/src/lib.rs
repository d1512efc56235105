//! The mcptest coprocess contract compiler.
//!
//! One entry point turns `schemas/ipc/v2.json` into the protocol-version pin
//! and strict frame types of every SDK, and the contract's reference page:
//! [`load::load`] reads and checks the schema into a language-neutral
//! [`model::Contract`], and [`targets::generate`] renders every target (at
//! the paths of the support matrix, [`sdks`]) and the page ([`page`]) from
//! it. `build.rs` of the protocol crate and the `codegen` CLI are thin
//! front-ends over this crate.

pub mod annotations;
pub mod bump;
pub mod diff;
pub mod error;
pub mod examples;
pub mod generate;
pub mod languages;
pub mod load;
pub mod model;
pub mod names;
pub mod output;
pub mod page;
pub mod parallel;
pub mod pattern;
pub mod printer;
pub mod reader;
pub mod roles;
pub mod root;
pub mod sdks;
pub mod subset;

pub use error::SchemaError;
pub use model::Contract;
pub mod targets;
pub mod cli;
pub mod emit;
pub mod lock;
