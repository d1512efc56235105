//! The role types and methods in `client_runtime.cs`: it is written with the
//! shared placeholders of [`crate::targets::client::role_placeholders`]
//! (`RoleRequest`, `RoleResponseOf<TResult>`, `response.RoleSuccessResponse`,
//! ...), filled with the C# class of each type ([`type_name`]), and with two
//! of this target's own, which are no class name plus an affix:
//!
//! | placeholder | filled with |
//! |---|---|
//! | `RoleHandshakeMethod` | the handshake method's constant in `Coprocess.Methods` (`CoprocessHandshake`) |
//! | `RoleJsonRpcVersion.V2_0` | the one value of the request's `jsonrpc` type (`JsonRpcVersion.V2_0`) |
//!
//! The runtime builds and reads these types as C# code does, so each must
//! have the shape it assumes; a contract whose roles are shaped otherwise is
//! refused here, naming the member, rather than rendered into code that does
//! not compile.

use super::names::{enum_members, type_name};
use super::protocol::method_const;
use super::types::variant_member;
use crate::model::{Contract, Ty, TypeKind};
use crate::targets::client::{fill_roles, request_member_refusal, role_member};
use crate::SchemaError;

/// `text` with every role placeholder, this target's and the shared ones,
/// filled in for `contract`.
pub fn fill(text: &str, contract: &Contract) -> Result<String, SchemaError> {
    check_arms(contract)?;
    // This target's placeholders first: the shared `RoleJsonRpcVersion` is a part of one.
    let own = text
        .replace("RoleHandshakeMethod", &method_const(&contract.roles.handshake.method))
        .replace("RoleJsonRpcVersion.V2_0", &json_rpc_version(contract)?);
    request_id(contract)?;
    fill_roles(&own, contract, type_name)
}

/// The one value of the request's `jsonrpc` type, as C# names it.
pub fn json_rpc_version(contract: &Contract) -> Result<String, SchemaError> {
    if let Some(name) = member_type(contract, "jsonrpc") {
        if let Some(TypeKind::StringEnum(values)) = contract.type_def(name).map(|t| &t.kind) {
            if let [_] = values.as_slice() {
                return Ok(format!("{}.{}", type_name(name), enum_members(values)[0]));
            }
        }
    }
    Err(refusal(contract, "jsonrpc", "the .NET client writes the request's `jsonrpc` as the one value of its type", "make `jsonrpc` a `$ref` to a string enum of one value (`\"enum\": [\"2.0\"]`)"))
}

/// The request's `id` type, which the client builds from its integer ids
/// (`new RequestId(id)`) and reads back (`answered.Integer`).
pub fn request_id(contract: &Contract) -> Result<String, SchemaError> {
    match member_type(contract, "id") {
        Some(name) if matches!(contract.type_def(name).map(|t| &t.kind), Some(TypeKind::IntegerOrString)) => Ok(type_name(name)),
        _ => Err(refusal(contract, "id", "the .NET client numbers its requests with integer ids", "make `id` a `$ref` to an integer-or-string type (`\"type\": [\"integer\", \"string\"]`)")),
    }
}

/// The runtime reads the response's arms by their class names
/// (`response.SuccessResponse`): the union's members must be named so.
fn check_arms(contract: &Contract) -> Result<(), SchemaError> {
    let roles = &contract.roles;
    for arm in [&roles.success_response, &roles.error_response] {
        if variant_member(&roles.response, arm) != type_name(arm) {
            return Err(SchemaError::new(
                std::path::Path::new(&contract.source),
                format!("/$defs/{arm}"),
                format!("the response arm `{arm}` is a member name the .NET union `{}` keeps for itself", roles.response),
                "rename the arm",
            ));
        }
    }
    Ok(())
}

fn member_type<'c>(contract: &'c Contract, member: &str) -> Option<&'c str> {
    match role_member(contract, &contract.roles.request, member).map(|f| &f.ty) {
        Some(Ty::Ref(name)) => Some(name),
        _ => None,
    }
}

fn refusal(contract: &Contract, member: &str, why: &str, fix: &str) -> SchemaError {
    request_member_refusal(contract, member, ".NET", why, fix)
}

