//! The schema's examples (the `examples` keyword of each `$defs` entry), and
//! what they say together: JSON-RPC 2.0 pairs a response with the request of
//! its `id`, so an example request and the example responses with its `id`
//! are an example exchange, and the method table then says what type the
//! request's `params`, and the response's `result`, are examples of.
//!
//! The reference page shows the exchanges and every type's examples; the
//! conformance corpus (`tests/conformance/corpus/examples.jsonl`) runs every
//! example, its own or derived, through every target as a valid value of its
//! type; the loader refuses a derived example its type does not accept.

use serde_json::Value;

use crate::error::{push_pointer, SchemaError};
use crate::reader::Reader;
use crate::model::{Contract, Method, Ty, TypeKind};

/// One example value of one `$defs` type.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// The `$defs` type it is a value of.
    pub type_name: String,
    pub value: Value,
    /// Where it is written: its JSON pointer (`/$defs/Request/examples/0`),
    /// and for a derived example the member it is (`/params`) after it.
    pub origin: String,
}

/// An example request and the example responses that answer it (its `id`).
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange<'c> {
    pub request: Example,
    /// The request's method, when the method table has it.
    pub method: Option<&'c Method>,
    pub answers: Vec<Example>,
}

/// Every `$defs` type's own examples, types in schema order.
pub fn own(contract: &Contract) -> Vec<Example> {
    let Some(defs) = contract.raw.get("$defs").and_then(Value::as_object) else { return Vec::new() };
    let mut out = Vec::new();
    for (name, def) in defs {
        let at = push_pointer(&push_pointer("/$defs", name), "examples");
        for (i, value) in def.get("examples").and_then(Value::as_array).into_iter().flatten().enumerate() {
            out.push(Example { type_name: name.clone(), value: value.clone(), origin: format!("{at}/{i}") });
        }
    }
    out
}

/// A request: an object with `method` (a string) and `id`.
fn is_request(value: &Value) -> bool {
    value.get("method").is_some_and(Value::is_string) && value.get("id").is_some()
}

/// A response: an object with `id` and `result` or `error`, no `method`.
fn is_response(value: &Value) -> bool {
    value.get("method").is_none() && value.get("id").is_some() && (value.get("result").is_some() || value.get("error").is_some())
}

/// The example exchanges, in the order of the request examples; a request
/// example is one even when no response example answers it.
pub fn exchanges(contract: &Contract) -> Vec<Exchange<'_>> {
    let examples = own(contract);
    examples
        .iter()
        .filter(|e| is_request(&e.value))
        .map(|request| {
            let method = request.value["method"].as_str().and_then(|name| contract.methods.iter().find(|m| m.name == name));
            let answers = examples.iter().filter(|e| is_response(&e.value) && e.value["id"] == request.value["id"]).cloned().collect();
            Exchange { request: request.clone(), method, answers }
        })
        .collect()
}

/// The type of a member of an object type, when it is a named type (the
/// `error` of an error response: `ErrorObject`).
fn member_type(contract: &Contract, type_name: &str, member: &str) -> Option<String> {
    let TypeKind::Object(object) = &contract.type_def(type_name)?.kind else { return None };
    match &object.fields.iter().find(|f| f.name == member)?.ty {
        Ty::Ref(name) => Some(name.clone()),
        _ => None,
    }
}

/// The examples the exchanges imply: a request's `params` is an example of
/// its method's params type, a response's `result` of its method's result
/// type, and a response's `error` of the type its `error` member has.
pub fn derived(contract: &Contract) -> Vec<Example> {
    let mut out = Vec::new();
    let mut add = |type_name: String, example: &Example, member: &str| {
        if let Some(value) = example.value.get(member) {
            out.push(Example { type_name, value: value.clone(), origin: format!("{}/{member}", example.origin) });
        }
    };
    for exchange in exchanges(contract) {
        if let Some(method) = exchange.method {
            add(method.params.clone(), &exchange.request, "params");
        }
        for answer in &exchange.answers {
            if let Some(method) = exchange.method {
                add(method.result.clone(), answer, "result");
            }
            if let Some(error) = member_type(contract, &answer.type_name, "error") {
                add(error, answer, "error");
            }
        }
    }
    out
}

/// Every example, own then derived: what the conformance corpus checks.
pub fn all(contract: &Contract) -> Vec<Example> {
    let mut out = own(contract);
    out.extend(derived(contract));
    out
}

/// Refuses a derived example that is no value of its type, as the
/// jsonschema validator reads it (a type's own examples are checked where
/// the loader reads its annotations).
pub(crate) fn check(r: &Reader<'_>, contract: &Contract) -> Result<(), SchemaError> {
    let Some(Value::Object(defs)) = contract.raw.get("$defs") else { return Ok(()) };
    let examples = derived(contract);
    let pointers: Vec<String> = examples.iter().map(|example| push_pointer("/$defs", &example.type_name)).collect();
    let checker = crate::annotations::ValueChecker::new(defs, pointers.iter().map(String::as_str));
    for (example, pointer) in examples.iter().zip(&pointers) {
        let problem = checker.first_error(pointer, &example.value).map_err(|e| {
            r.err(&example.origin, format!("`{}` cannot be compiled to check this example: {e}", example.type_name), "fix that type")
        })?;
        if let Some(error) = problem {
            return Err(r.err(
                &example.origin,
                format!("{} is not a `{}`, the type the exchange makes it: {error}", example.value, example.type_name),
                "fix the example (a request's params are its method's params type, a response's result the method's result type), or the method it names",
            ));
        }
    }
    Ok(())
}
