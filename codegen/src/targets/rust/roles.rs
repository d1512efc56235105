//! The role types and methods in the Rust target's fixed texts (the
//! handshake helpers, `templates/handshake.rs`, and the session client,
//! `client_runtime.rs`): each text is written with the shared placeholders
//! of [`crate::targets::client::role_placeholders`] (`RoleRequest`,
//! `RoleResponse::RoleSuccessResponse`, ...), which name a type as the
//! `$defs` name itself, and with three of this target's own, which are no
//! type name plus an affix:
//!
//! | placeholder | filled with |
//! |---|---|
//! | `ROLE_HANDSHAKE_METHOD` | the handshake method's constant in `methods` (`COPROCESS_HANDSHAKE`) |
//! | `RoleHandshakeMethod` | the handshake method's wire name, for doc comments |
//! | `RoleRequestParams` | the `$defs` type of the request envelope's `params` |
//!
//! The texts build these types as Rust code does, so each must have the
//! shape the texts assume; a contract whose roles are shaped otherwise is
//! refused here, naming the member, rather than rendered into code that does
//! not compile.

use crate::model::{Contract, Ty, TypeKind};
use crate::names::screaming_snake_case;
use crate::targets::client::{fill_roles, request_member_refusal, role_member};
use crate::SchemaError;

/// `text` with every role placeholder, this target's and the shared ones,
/// filled in for `contract`.
pub fn fill(text: &str, contract: &Contract) -> Result<String, SchemaError> {
    let handshake = &contract.roles.handshake.method;
    // This target's placeholders first: the shared `RoleRequest` is a part of `RoleRequestParams`.
    let own = text
        .replace("ROLE_HANDSHAKE_METHOD", &screaming_snake_case(handshake))
        .replace("RoleHandshakeMethod", handshake)
        .replace("RoleRequestParams", &request_params(contract)?);
    check_request_members(contract)?;
    fill_roles(&own, contract, str::to_string)
}

/// The request's `params` type, which the handshake builds from a JSON
/// object (`Some(Params(map))`) and `close` leaves out (`params: None`).
fn request_params(contract: &Contract) -> Result<String, SchemaError> {
    let request = &contract.roles.request;
    let field = role_member(contract, request, "params");
    if let Some(Ty::Ref(name)) = field.filter(|f| !f.required).map(|f| &f.ty) {
        if let Some(TypeKind::Map { values: Ty::Any, min_members: None | Some(0), max_members: None, names: None }) = contract.type_def(name).map(|t| &t.kind) {
            return Ok(name.clone());
        }
    }
    Err(refusal(
        contract,
        "params",
        "the Rust target sends the handshake's params as a JSON object and `close` without params",
        "make `params` optional and a `$ref` to an object type open to any members (`\"additionalProperties\": true`, no bounds)",
    ))
}

/// The request's `id` and `jsonrpc`, which the texts write as
/// `RequestId::Integer(id)` and `JsonRpcVersion::default()`.
fn check_request_members(contract: &Contract) -> Result<(), SchemaError> {
    let kind = |member: &str| match role_member(contract, &contract.roles.request, member).map(|f| &f.ty) {
        Some(Ty::Ref(name)) => contract.type_def(name).map(|t| &t.kind),
        _ => None,
    };
    if !matches!(kind("id"), Some(TypeKind::IntegerOrString)) {
        return Err(refusal(contract, "id", "the Rust client numbers its requests with integer ids", "make `id` a `$ref` to an integer-or-string type (`\"type\": [\"integer\", \"string\"]`)"));
    }
    if !matches!(kind("jsonrpc"), Some(TypeKind::StringEnum(values)) if values.len() == 1) {
        return Err(refusal(contract, "jsonrpc", "the Rust target writes the request's `jsonrpc` as the one value of its type", "make `jsonrpc` a `$ref` to a string enum of one value (`\"enum\": [\"2.0\"]`)"));
    }
    Ok(())
}

fn refusal(contract: &Contract, member: &str, why: &str, fix: &str) -> SchemaError {
    request_member_refusal(contract, member, "Rust", why, fix)
}

