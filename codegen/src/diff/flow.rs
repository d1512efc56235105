//! Which way each type's frames go, read from the method table: a method's
//! params are written by SDKs and read by the binary, its result the other
//! way. The envelopes are roots too, each contract's own (its roles): the
//! request envelope is written by SDKs, the response envelope by the binary. A
//! type reachable (through members, array items, map values and union
//! variants) from both goes both ways; one reachable from neither is in no
//! frame. The coprocess has no notifications; a table of them would be
//! roots the same way.

use std::collections::BTreeMap;

use crate::model::{Contract, Ty, TypeKind};

/// Which way the frames carrying a type go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Flow {
    /// No frame carries it (a helper type).
    None,
    /// Written by SDKs, read by the binary (params).
    SdkToBinary,
    /// Written by the binary, read by SDKs (results).
    BinaryToSdk,
    /// Both.
    Both,
}

impl Flow {
    fn from_bits(sdk: bool, binary: bool) -> Flow {
        match (sdk, binary) {
            (false, false) => Flow::None,
            (true, false) => Flow::SdkToBinary,
            (false, true) => Flow::BinaryToSdk,
            (true, true) => Flow::Both,
        }
    }

    pub fn sdk_writes(self) -> bool {
        matches!(self, Flow::SdkToBinary | Flow::Both)
    }

    pub fn binary_writes(self) -> bool {
        matches!(self, Flow::BinaryToSdk | Flow::Both)
    }

    pub fn union(self, other: Flow) -> Flow {
        Flow::from_bits(self.sdk_writes() || other.sdk_writes(), self.binary_writes() || other.binary_writes())
    }

    /// The text form (`--format json`).
    pub fn name(self) -> &'static str {
        match self {
            Flow::None => "none",
            Flow::SdkToBinary => "sdk-to-binary",
            Flow::BinaryToSdk => "binary-to-sdk",
            Flow::Both => "both",
        }
    }

    /// The human form.
    pub fn words(self) -> &'static str {
        match self {
            Flow::None => "in no frame",
            Flow::SdkToBinary => "SDK → binary",
            Flow::BinaryToSdk => "binary → SDK",
            Flow::Both => "both ways",
        }
    }
}

/// Each type's flow in the old contract joined with its flow in the new.
pub(crate) struct Flows(BTreeMap<String, Flow>);

impl Flows {
    pub fn of(old: &Contract, new: &Contract) -> Flows {
        let mut out = reachable(old);
        for (name, flow) in reachable(new) {
            let joined = out.get(&name).map_or(flow, |f| f.union(flow));
            out.insert(name, joined);
        }
        Flows(out)
    }

    pub fn get(&self, name: &str) -> Flow {
        self.0.get(name).copied().unwrap_or(Flow::None)
    }
}

/// The flow of every type of one contract.
fn reachable(contract: &Contract) -> BTreeMap<String, Flow> {
    let mut sdk_roots: Vec<&str> = contract.methods.iter().map(|m| m.params.as_str()).collect();
    let mut binary_roots: Vec<&str> = contract.methods.iter().map(|m| m.result.as_str()).collect();
    sdk_roots.push(contract.roles.request.as_str());
    binary_roots.push(contract.roles.response.as_str());
    let sdk = closure(contract, &sdk_roots);
    let binary = closure(contract, &binary_roots);
    contract
        .types
        .keys()
        .map(|name| (name.clone(), Flow::from_bits(sdk.contains(&name.as_str()), binary.contains(&name.as_str()))))
        .collect()
}

/// The types reachable from `roots` (those that exist).
fn closure<'c>(contract: &'c Contract, roots: &[&str]) -> Vec<&'c str> {
    let mut seen: Vec<&'c str> = Vec::new();
    let mut stack: Vec<&'c str> =
        roots.iter().filter_map(|r| contract.types.get_key_value(*r).map(|(k, _)| k.as_str())).collect();
    while let Some(name) = stack.pop() {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let Some(def) = contract.types.get(name) else { continue };
        let mut refs: Vec<&'c str> = Vec::new();
        match &def.kind {
            TypeKind::Object(object) => object.fields.iter().for_each(|f| refs_of(&f.ty, &mut refs)),
            TypeKind::Map { values, .. } => refs_of(values, &mut refs),
            TypeKind::Union(variants) => refs.extend(variants.iter().map(|v| v.type_name.as_str())),
            TypeKind::StringEnum(_) | TypeKind::IntegerOrString => {}
        }
        stack.extend(refs);
    }
    seen
}

fn refs_of<'c>(ty: &'c Ty, out: &mut Vec<&'c str>) {
    match ty {
        Ty::Ref(name) => out.push(name),
        Ty::Array(inner) | Ty::Nullable(inner) | Ty::Unique(inner) | Ty::Prefix { inner, .. } => refs_of(inner, out),
        Ty::Length { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => {
            refs_of(inner, out)
        }
        Ty::Any | Ty::Boolean | Ty::Integer { .. } | Ty::Number { .. } | Ty::String => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The envelopes are roots by their roles: renamed, the request envelope
    /// is still written by SDKs and the response envelope by the binary.
    #[test]
    fn the_envelopes_are_roots_by_their_roles() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let renamed = text
            .replace("\"#/$defs/Request\"", "\"#/$defs/CpRequest\"")
            .replace("\"Request\": {", "\"CpRequest\": {")
            .replace("\"#/$defs/Response\"", "\"#/$defs/CpResponse\"")
            .replace("\"Response\": {", "\"CpResponse\": {");
        let (contract, _) = crate::load::load_str(&renamed, &path, "renamed.json").unwrap();
        assert_eq!(contract.roles.request, "CpRequest");
        let flows = reachable(&contract);
        assert!(flows["CpRequest"].sdk_writes(), "{:?}", flows["CpRequest"]);
        assert!(flows["CpResponse"].binary_writes(), "{:?}", flows["CpResponse"]);
    }
}
