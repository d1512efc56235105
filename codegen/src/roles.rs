//! The protocol roles (`x-coprocess.roles`): which `$defs` type or method
//! plays each part that the targets, the binary and the page rely on. The
//! schema names them once; the loader resolves them here into
//! [`Roles`] and checks that each has the members its role needs, so no
//! target, runtime or other reader ever names a contract type or method.
//!
//! | role | names | what it must be |
//! |---|---|---|
//! | `request` | a type | the request envelope: a closed object with a required `id`, a required string `method` and `params` |
//! | `response` | a type, its `success` and `error` arms | the response envelope: a union of exactly those two closed objects; `success` has a required `id` and `result`, `error` a required `id` and an `error` of the `error_object` type |
//! | `error_object` | a type | the JSON-RPC error object: a required integer `code`, a required string `message`, an optional `data` of any JSON value |
//! | `handshake` | a method | the first request of every session: its params and its result each have a required integer `protocol_version` |
//! | `call` | a method, its `verdict` and `passthrough` arms (optional role) | the tool call whose result every client reads uniformly: its result is a union of exactly those two closed objects; `verdict` has a required boolean `success` and required nullable strings `text` and `error`, `passthrough` a required array `content` and an optional boolean `isError` |
//! | `close` | a method (optional role) | what a client sends when it is closed: its params are optional |
//!
//! The member names are JSON-RPC 2.0's (`id`, `method`, `params`,
//! `result`, `error`, `code`, `message`, `data`) or the role's own
//! vocabulary above: they are checked here, not configured.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::{push_pointer, SchemaError};
use crate::reader::Reader;
use crate::model::{CallRole, Field, HandshakeRole, Method, RoleRow, Roles, Ty, TypeDef, TypeKind};

/// The roles a schema may declare, each with the keys its row takes
/// besides `description`, and whether the role is required.
const ROLE_KEYS: &[(&str, &[&str], bool)] = &[
    ("request", &["type"], true),
    ("response", &["type", "success", "error"], true),
    ("error_object", &["type"], true),
    ("handshake", &["method"], true),
    ("call", &["method", "verdict", "passthrough"], false),
    ("close", &["method"], false),
];

const TABLE: &str = "/x-coprocess/roles";

/// Reads and checks `x-coprocess.roles` against the types and the method table.
pub(crate) fn read(r: &Reader<'_>, x: &Map<String, Value>, types: &BTreeMap<String, TypeDef>, methods: &[Method]) -> Result<Roles, SchemaError> {
    let table = r.object(r.field(x, "roles", "/x-coprocess")?, TABLE)?;
    let known: Vec<&str> = ROLE_KEYS.iter().map(|(role, _, _)| *role).collect();
    r.only_keys(table, &known, TABLE)?;
    let check = Check { r, types, methods };
    let mut rows = Vec::new();
    for (role, keys, required) in ROLE_KEYS {
        let Some(row) = table.get(*role) else {
            if *required {
                return Err(r.err(TABLE, format!("the roles table has no `{role}`"), format!("add `\"{role}\": {{{}}}`: every target relies on it", row_hint(keys))));
            }
            continue;
        };
        let p = push_pointer(TABLE, role);
        let row = r.object(row, &p)?;
        let mut allowed = keys.to_vec();
        allowed.push("description");
        r.only_keys(row, &allowed, &p)?;
        let mut names = Vec::new();
        for key in *keys {
            let value = r.string(row, key, &p)?;
            let at = push_pointer(&p, key);
            // A method row names a wire name; every other key a `$defs` type.
            let name = if *key == "method" { check.method(&at, &value)?.name.clone() } else { check.type_name(&at, &value)?.to_string() };
            names.push((key.to_string(), name, at));
        }
        rows.push(RoleRow { role: role.to_string(), names, description: r.string(row, "description", &p)? });
    }
    let name = |role: &str, key: &str| -> Option<(&str, &str)> {
        let row = rows.iter().find(|row| row.role == role)?;
        row.names.iter().find(|(k, _, _)| k == key).map(|(_, name, at)| (name.as_str(), at.as_str()))
    };
    // Required roles are in `rows` (refused above otherwise).
    let required = |role: &str, key: &str| name(role, key).ok_or_else(|| r.err(TABLE, format!("the roles table has no `{role}`"), "add it"));

    let (request, p) = required("request", "type")?;
    let fields = check.object(p, request, "request envelope")?;
    check.member(p, fields, "id", Some(true), "the request's id", |_| true)?;
    check.member(p, fields, "method", Some(true), "the method's wire name, a string", |ty| *ty == Ty::String)?;
    check.member(p, fields, "params", None, "the method's params", |_| true)?;

    let (error_object, p) = required("error_object", "type")?;
    let fields = check.object(p, error_object, "error object")?;
    check.member(p, fields, "code", Some(true), "the error code, an integer", |ty| matches!(ty, Ty::Integer { .. }))?;
    check.member(p, fields, "message", Some(true), "the error's message, a string", |ty| *ty == Ty::String)?;
    check.member(p, fields, "data", Some(false), "the error's detail, any JSON value", |ty| *ty == Ty::Any)?;

    let (response, p) = required("response", "type")?;
    let (success, sp) = required("response", "success")?;
    let (failure, fp) = required("response", "error")?;
    check.union_of(p, response, &[success, failure])?;
    let fields = check.object(sp, success, "success response")?;
    check.member(sp, fields, "id", Some(true), "the answered request's id", |_| true)?;
    check.member(sp, fields, "result", Some(true), "the method's result", |_| true)?;
    let fields = check.object(fp, failure, "error response")?;
    check.member(fp, fields, "id", Some(true), "the answered request's id", |_| true)?;
    let error_ty = Ty::Ref(error_object.to_string());
    check.member(fp, fields, "error", Some(true), &format!("the error object `{error_object}`"), |ty| *ty == error_ty)?;

    let (handshake, p) = required("handshake", "method")?;
    let method = check.method(p, handshake)?;
    for (type_name, what) in [(&method.params, "handshake params"), (&method.result, "handshake result")] {
        let fields = check.object(p, type_name, what)?;
        check.member(p, fields, "protocol_version", Some(true), "the protocol version, an integer", |ty| matches!(ty, Ty::Integer { .. }))?;
    }
    let handshake = HandshakeRole { method: handshake.to_string(), params: method.params.clone(), result: method.result.clone() };

    let call = match name("call", "method") {
        None => None,
        Some((call, p)) => {
            let method = check.method(p, call)?;
            let (verdict, vp) = required("call", "verdict")?;
            let (passthrough, pp) = required("call", "passthrough")?;
            check.union_of(p, &method.result, &[verdict, passthrough])?;
            let nullable_string = Ty::Nullable(Box::new(Ty::String));
            let fields = check.object(vp, verdict, "verdict")?;
            check.member(vp, fields, "success", Some(true), "whether the tool succeeded, a boolean", |ty| *ty == Ty::Boolean)?;
            check.member(vp, fields, "text", Some(true), "the tool's text, a nullable string", |ty| *ty == nullable_string)?;
            check.member(vp, fields, "error", Some(true), "the tool's error, a nullable string", |ty| *ty == nullable_string)?;
            let fields = check.object(pp, passthrough, "passthrough")?;
            check.member(pp, fields, "content", Some(true), "the content blocks, an array", |ty| matches!(ty.unbounded(), Ty::Array(_)))?;
            check.member(pp, fields, "isError", Some(false), "whether the tool reported an error, a boolean", |ty| *ty == Ty::Boolean)?;
            Some(CallRole { method: call.to_string(), result: method.result.clone(), verdict: verdict.to_string(), passthrough: passthrough.to_string() })
        }
    };

    let close = match name("close", "method") {
        None => None,
        Some((close, p)) => {
            if check.method(p, close)?.params_required {
                return Err(r.err(p, format!("the close method `{close}` requires params, but a client sends it without any"), "make its `params_required` false, or name another method"));
            }
            Some(close.to_string())
        }
    };
    for role in ["call", "close"] {
        if let Some((method, p)) = name(role, "method").filter(|(m, _)| *m == handshake.method) {
            return Err(r.err(p, format!("`{method}` is the handshake method too"), "give each role a method of its own"));
        }
    }
    let roles = Roles {
        request: request.to_string(),
        response: response.to_string(),
        success_response: success.to_string(),
        error_response: failure.to_string(),
        error_object: error_object.to_string(),
        handshake,
        call,
        close,
        table: Vec::new(),
    };
    Ok(Roles { table: rows, ..roles })
}

/// `"type": "#/$defs/<Name>", ...` for a refusal's fix.
fn row_hint(keys: &[&str]) -> String {
    let mut parts: Vec<String> = keys.iter().map(|k| if *k == "method" { format!("\"{k}\": \"<wire name>\"") } else { format!("\"{k}\": \"#/$defs/<Name>\"") }).collect();
    parts.push("\"description\": \"...\"".into());
    parts.join(", ")
}

struct Check<'a, 'r> {
    r: &'a Reader<'r>,
    types: &'a BTreeMap<String, TypeDef>,
    methods: &'a [Method],
}

impl Check<'_, '_> {
    /// The name a `#/$defs/<Name>` reference at `pointer` names, which must exist.
    fn type_name<'v>(&self, pointer: &str, reference: &'v str) -> Result<&'v str, SchemaError> {
        let Some(name) = reference.strip_prefix("#/$defs/") else {
            return Err(self.r.err(pointer, format!("`{reference}` is not a local `#/$defs/<Name>` reference"), "write it as \"#/$defs/<Name>\""));
        };
        if !self.types.contains_key(name) {
            return Err(self.r.err(pointer, format!("`{reference}` does not resolve: there is no $defs entry `{name}`"), "add that definition under $defs or fix the name"));
        }
        Ok(name)
    }

    /// The fields of the type `name` (resolved), which must be a closed object.
    fn object(&self, pointer: &str, name: &str, role: &str) -> Result<&[Field], SchemaError> {
        match self.types.get(name).map(|t| &t.kind) {
            Some(TypeKind::Object(object)) => Ok(&object.fields),
            _ => Err(self.r.err(pointer, format!("the {role} `{name}` is not a closed object"), format!("point it at the closed object definition that is the {role}"))),
        }
    }

    /// `name` must be a member of `fields` of a type `fits` accepts; required
    /// or optional as `required` says (`None`: either).
    fn member(&self, pointer: &str, fields: &[Field], name: &str, required: Option<bool>, what: &str, fits: impl Fn(&Ty) -> bool) -> Result<(), SchemaError> {
        let Some(field) = fields.iter().find(|f| f.name == name) else {
            return Err(self.r.err(pointer, format!("the type has no member `{name}` ({what}), which its role needs"), format!("add `{name}` to that definition, or name the type that plays the role")));
        };
        let requiredness = match required {
            Some(true) => ", required",
            Some(false) => ", optional",
            None => "",
        };
        if !fits(&field.ty) || required.is_some_and(|r| r != field.required) {
            return Err(self.r.err(pointer, format!("its member `{name}` is not {what}{requiredness}"), format!("make `{name}` {what}{requiredness} in that definition")));
        }
        Ok(())
    }

    /// The method named `name` at `pointer`, which must be in the method table.
    fn method(&self, pointer: &str, name: &str) -> Result<&Method, SchemaError> {
        self.methods
            .iter()
            .find(|m| m.name == name)
            .ok_or_else(|| self.r.err(pointer, format!("the method table has no `{name}`"), "name a method of `x-coprocess.methods`, or add the method there"))
    }

    /// The type `union` must be a union of exactly the types `arms`.
    fn union_of(&self, pointer: &str, union: &str, arms: &[&str]) -> Result<(), SchemaError> {
        let mut expected: Vec<&str> = arms.to_vec();
        let mut found: Vec<&str> = match self.types.get(union).map(|t| &t.kind) {
            Some(TypeKind::Union(variants)) => variants.iter().map(|v| v.type_name.as_str()).collect(),
            _ => Vec::new(),
        };
        expected.sort_unstable();
        found.sort_unstable();
        if found != expected || expected.windows(2).any(|w| w[0] == w[1]) {
            return Err(self.r.err(
                pointer,
                format!("`{union}` is not a union (`oneOf`) of exactly `{}`", expected.join("` and `")),
                "make that definition a `oneOf` of the role's arms, or name the arms it has",
            ));
        }
        Ok(())
    }
}
