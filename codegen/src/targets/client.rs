//! What every target's session client (`<lang>/client.rs`) derives from the
//! model the same way: which methods the client has and how each is named
//! when two would meet, the close method, the call outcome, and the role
//! placeholders its runtime file is written with. All of it comes from the
//! contract's roles ([`crate::roles`]); no target names a contract type or
//! method.

use crate::model::{CallRole, Contract, Field, Method, Ty, TypeKind};
use crate::SchemaError;

/// The methods the client has (the handshake is its own), each with the name
/// `name(wire, false)` gives, or `name(wire, true)` (the namespace kept) where
/// two methods of different namespaces would otherwise meet (`mcp.list`,
/// `other.list` → `mcp_list`, `other_list`).
pub fn named_methods(contract: &Contract, name: impl Fn(&str, bool) -> String) -> Vec<(&Method, String)> {
    let methods: Vec<&Method> = contract.methods.iter().filter(|m| m.name != contract.roles.handshake.method).collect();
    let short: Vec<String> = methods.iter().map(|m| name(&m.name, false)).collect();
    methods
        .iter()
        .zip(&short)
        .map(|(method, short_name)| {
            let shared = short.iter().filter(|other| *other == short_name).count() > 1;
            (*method, if shared { name(&method.name, true) } else { short_name.clone() })
        })
        .collect()
}

/// The call whose result every client reads uniformly (its result is the
/// union of the verdict and the passthrough, checked by the loader), if the
/// contract has the `call` role.
pub fn call_outcome(contract: &Contract) -> Option<&CallRole> {
    contract.roles.call.as_ref()
}

/// The method `close` sends, if the contract has the `close` role.
pub fn close_method(contract: &Contract) -> Option<&Method> {
    let name = contract.roles.close.as_deref()?;
    contract.methods.iter().find(|m| m.name == name)
}

/// The params type a target's examples of a typed `params` name: the call's
/// (`RequestOf[CallParams]`), else the handshake's, so that an example always
/// names a type of the contract.
pub fn example_params(contract: &Contract) -> &str {
    let method = call_outcome(contract).map_or(&contract.roles.handshake.method, |call| &call.method);
    contract.methods.iter().find(|m| &m.name == method).map_or(&contract.roles.handshake.params, |m| &m.params)
}

/// The field `member` of the object type `type_name`.
pub fn role_member<'c>(contract: &'c Contract, type_name: &str, member: &str) -> Option<&'c Field> {
    match &contract.type_def(type_name)?.kind {
        TypeKind::Object(object) => object.fields.iter().find(|f| f.name == member),
        _ => None,
    }
}

/// The placeholders a runtime file names the role types by, each with the
/// contract type it stands for, longest first (so that no placeholder is
/// replaced inside a longer one). A runtime is written against these
/// (`RoleHandshakeResult`, `appendRoleRequestOf`, `"RoleHandshakeResult"`
/// in a message); [`fill_roles`] puts each target's name of the type in.
/// The request's `id` and `jsonrpc` members must be of named types for a
/// runtime to name them.
pub fn role_placeholders(contract: &Contract) -> Result<Vec<(&'static str, String)>, SchemaError> {
    let roles = &contract.roles;
    let member_type = |member: &str| -> Result<String, SchemaError> {
        match role_member(contract, &roles.request, member).map(|f| &f.ty) {
            Some(Ty::Ref(name)) => Ok(name.clone()),
            _ => Err(SchemaError::new(
                std::path::Path::new(&contract.source),
                format!("/$defs/{}/properties/{member}", roles.request),
                format!("the request envelope's `{member}` is not a named type, which every client runtime names"),
                format!("make `{member}` a `$ref` to a `$defs` type"),
            )),
        }
    };
    let mut out = vec![
        ("RoleHandshakeParams", roles.handshake.params.clone()),
        ("RoleHandshakeResult", roles.handshake.result.clone()),
        ("RoleSuccessResponse", roles.success_response.clone()),
        ("RoleErrorResponse", roles.error_response.clone()),
        ("RoleErrorObject", roles.error_object.clone()),
        ("RoleJsonRpcVersion", member_type("jsonrpc")?),
        ("RoleRequestId", member_type("id")?),
        ("RoleResponse", roles.response.clone()),
        ("RoleRequest", roles.request.clone()),
    ];
    if let Some(call) = &roles.call {
        out.push(("RolePassthrough", call.passthrough.clone()));
        out.push(("RoleCallResult", call.result.clone()));
        out.push(("RoleVerdict", call.verdict.clone()));
    }
    out.sort_by_key(|(placeholder, _)| std::cmp::Reverse(placeholder.len()));
    Ok(out)
}

/// `text` with every role placeholder replaced by `name` of the type it
/// stands for (the target's own spelling of a type name), wherever it
/// stands, inside longer identifiers too (`appendRoleRequestOf` →
/// `appendRequestOf`).
pub fn fill_roles(text: &str, contract: &Contract, name: impl Fn(&str) -> String) -> Result<String, SchemaError> {
    let mut out = text.to_string();
    for (placeholder, type_name) in role_placeholders(contract)? {
        if out.contains(placeholder) {
            out = out.replace(placeholder, &name(&type_name));
        }
    }
    Ok(out)
}

/// The refusal of a contract whose request envelope's `member` does not
/// have the shape `target`'s runtime writes it in (`why`), with the `fix`.
pub fn request_member_refusal(contract: &Contract, member: &str, target: &str, why: &str, fix: &str) -> SchemaError {
    let request = &contract.roles.request;
    SchemaError::new(
        std::path::Path::new(&contract.source),
        format!("/$defs/{request}/properties/{member}"),
        format!("the request envelope's `{member}` does not have the shape the {target} target needs: {why}"),
        fix,
    )
}

/// v2.json with every type and method renamed ([`fixtures::renamed_v2`]):
/// a contract whose roles no target can know by name, for the targets' tests.
#[cfg(test)]
pub(crate) fn renamed_contract() -> Contract {
    fixtures::renamed_v2()
}

/// [`renamed_contract`] with the call passthrough's `content` an array of
/// strings: no text blocks a client can read (its targets refuse it by name).
#[cfg(test)]
pub(crate) fn renamed_contract_with_string_content() -> Contract {
    let mut contract = renamed_contract();
    if let Some(TypeKind::Object(object)) = contract.types.get_mut("CpToolCallPassthrough").map(|d| &mut d.kind) {
        for field in object.fields.iter_mut().filter(|f| f.name == "content") {
            field.ty = Ty::Array(Box::new(Ty::String));
        }
    }
    contract
}

/// Contracts the targets' client tests render.
#[cfg(test)]
pub(crate) mod fixtures {
    use crate::model::Contract;
    use serde_json::Value;
    use std::path::Path;

    /// The minimal golden schema with `extra` methods appended to its table;
    /// an added `mcp.shutdown` plays the close role, as in v2.json.
    pub fn minimal_with(extra: Value) -> Contract {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let text = std::fs::read_to_string(&path).expect("the minimal schema is readable");
        let mut schema: Value = serde_json::from_str(&text).expect("the minimal schema is JSON");
        let extra = extra.as_array().cloned().unwrap_or_default();
        if extra.iter().any(|m| m["name"] == "mcp.shutdown") {
            schema["x-coprocess"]["roles"]["close"] = serde_json::json!({"method": "mcp.shutdown", "description": "Ends the session."});
        }
        if let Some(methods) = schema["x-coprocess"]["methods"].as_array_mut() {
            methods.extend(extra);
        }
        crate::load::load_str(&schema.to_string(), &path, "minimal.json").map(|(c, _)| c).expect("the schema loads")
    }

    /// v2.json with every type `X` renamed `CpX` and every method `m` `cpm`
    /// (references, the method table and the roles; not the prose).
    pub fn renamed_v2() -> Contract {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        let text = std::fs::read_to_string(&path).expect("v2.json is readable");
        let schema: Value = serde_json::from_str(&text).expect("v2.json is JSON");
        let methods: Vec<Value> = schema["x-coprocess"]["methods"].as_array().cloned().unwrap_or_default();
        let methods: Vec<String> = methods.iter().filter_map(|m| m["name"].as_str().map(str::to_string)).collect();
        let renamed = rename(&schema, None, &methods);
        crate::load::load_str(&renamed.to_string(), &path, "renamed.json").map(|(c, _)| c).expect("the renamed contract loads")
    }

    fn rename(value: &Value, key: Option<&str>, methods: &[String]) -> Value {
        match value {
            Value::Object(object) => Value::Object(
                object
                    .iter()
                    .map(|(k, v)| {
                        let k2 = if key == Some("$defs") { format!("Cp{k}") } else { k.clone() };
                        (k2, rename(v, Some(k), methods))
                    })
                    .collect(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(|v| rename(v, key, methods)).collect()),
            Value::String(s) if s.starts_with("#/$defs/") => Value::String(s.replacen("#/$defs/", "#/$defs/Cp", 1)),
            Value::String(s) if matches!(key, Some("name" | "method")) && methods.contains(s) => Value::String(format!("cp{s}")),
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contract() -> Contract {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        crate::load::load(&path, "schemas/ipc/v2.json").map(|(c, _)| c).expect("the schema loads")
    }

    #[test]
    fn placeholders_are_filled_longest_first_inside_identifiers() {
        let contract = contract();
        let text = "appendRoleRequestOf(RoleRequestId, RoleRequest) \"RoleHandshakeResult\" RoleResponseOf";
        let filled = fill_roles(text, &contract, |name| format!("<{name}>")).expect("fills");
        assert_eq!(filled, "append<Request>Of(<RequestId>, <Request>) \"<HandshakeResult>\" <Response>Of");
    }

    #[test]
    fn no_placeholder_is_a_prefix_of_a_later_one() {
        let placeholders = role_placeholders(&contract()).expect("the roles have named members");
        for (i, (earlier, _)) in placeholders.iter().enumerate() {
            assert!(placeholders[i + 1..].iter().all(|(later, _)| !earlier.contains(later) || earlier.len() > later.len()));
        }
        assert!(placeholders.windows(2).all(|w| w[0].0.len() >= w[1].0.len()));
    }

    /// The Rust and .NET runtimes number their requests: a request id of
    /// another kind is refused, naming the member, by each.
    #[test]
    fn a_request_id_a_client_cannot_number_is_refused_by_name() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let mut schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        type Generate = fn(&Contract) -> Result<crate::targets::Files, SchemaError>;
        let targets: [(&str, Generate); 2] = [("Rust", crate::targets::rust::generate), (".NET", crate::targets::dotnet::generate)];
        let (contract, _) = crate::load::load_str(&schema.to_string(), &path, "minimal.json").expect("loads");
        assert!(targets.iter().all(|(_, generate)| generate(&contract).is_ok()));
        schema["$defs"]["RequestId"] = serde_json::json!({"description": "An id of a list.", "type": "string", "enum": ["one", "two"]});
        let (contract, _) = crate::load::load_str(&schema.to_string(), &path, "minimal.json").expect("loads");
        for (target, generate) in targets {
            let refused = generate(&contract).expect_err("refused");
            assert_eq!(refused.pointer, "/$defs/Request/properties/id");
            assert!(refused.problem.contains(&format!("the {target} target")) && refused.problem.contains("integer ids"), "{}", refused.problem);
        }
    }

    #[test]
    fn the_handshake_is_no_client_method() {
        let contract = contract();
        let methods = named_methods(&contract, |wire, _| wire.to_string());
        assert!(methods.iter().all(|(m, _)| m.name != contract.roles.handshake.method));
        assert_eq!(methods.len(), contract.methods.len() - 1);
    }
}
