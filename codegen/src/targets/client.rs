//! What every target's session client (`<lang>/client.rs`) derives from the
//! method table the same way: which methods the client has, how each is named
//! when two would meet, and whether `mcp.call` answers the union the clients
//! read uniformly.

use crate::model::{Contract, Method, TypeKind};

/// The result type that marks the handshake, which every client sends itself.
pub const HANDSHAKE_RESULT: &str = "HandshakeResult";

/// The two shapes of `mcp.call`'s result that a client's call outcome reads.
pub const VERDICT: &str = "Verdict";
pub const PASSTHROUGH: &str = "ToolCallPassthrough";

/// The methods the client has (the handshake is its own), each with the name
/// `name(wire, false)` gives, or `name(wire, true)` (the namespace kept) where
/// two methods of different namespaces would otherwise meet (`mcp.list`,
/// `other.list` → `mcp_list`, `other_list`).
pub fn named_methods(contract: &Contract, name: impl Fn(&str, bool) -> String) -> Vec<(&Method, String)> {
    let methods: Vec<&Method> = contract.methods.iter().filter(|m| m.result != HANDSHAKE_RESULT).collect();
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

/// The name of `mcp.call`'s result when it is the union of a `Verdict` and a
/// `ToolCallPassthrough` with the members a call outcome reads.
pub fn call_result_union(contract: &Contract) -> Option<String> {
    let method = contract.methods.iter().find(|m| m.name == "mcp.call")?;
    let TypeKind::Union(variants) = &contract.types.get(&method.result)?.kind else { return None };
    let names: Vec<&str> = variants.iter().map(|v| v.type_name.as_str()).collect();
    let has = |name: &str, fields: &[&str]| match contract.types.get(name).map(|t| &t.kind) {
        Some(TypeKind::Object(object)) => fields.iter().all(|f| object.fields.iter().any(|p| p.name == *f)),
        _ => false,
    };
    let readable = names.len() == 2
        && names.contains(&VERDICT)
        && names.contains(&PASSTHROUGH)
        && has(VERDICT, &["success", "text", "error"])
        && has(PASSTHROUGH, &["content", "isError"]);
    readable.then(|| method.result.clone())
}
