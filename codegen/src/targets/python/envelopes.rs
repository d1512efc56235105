//! Typed envelopes: `RequestOf[P]`, `SuccessResponseOf[R]` and `ResponseOf[R]`,
//! the frames of the request, success and response roles (named so in
//! v2.json) with their open `params` / `result` member typed. `decode_request_of(text,
//! call_params_from_value)` reads that member with the generated type's own
//! reader (found through the value decoder the caller passes) in the same read
//! of the frame: the envelope's own reader on the frame with a placeholder for
//! the member (or, for a member of any value, that reader's checks inline),
//! then the member's reader; on any problem, the envelope's
//! `_ObjectShape` with that member's decoder swapped finds the first one in
//! document order, so a wrong `params` is the `Request`'s problem at
//! `$.params.…` unless an earlier member has one.

use super::codecs::encoded;
use super::codecs::quick::{self, Quick};
use super::docs::{comment, docstring};
use super::layout::{collection, fit, string, Out};
use super::names::{field, stem, upper};
use super::types::{constructor_order, field_annotation};
use crate::model::{Contract, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};
use crate::targets::client::example_params;
use crate::SchemaError;

/// One typed envelope: the frame's type, its open member, the type variable.
struct Envelope<'a> {
    def: &'a TypeDef,
    object: &'a ObjectType,
    member: &'a str,
    param: &'a str,
    example: &'a str,
}

/// The type the examples of a typed `result` (and of `CODECS`) name: the call's verdict arm
/// (`ResponseOf[Verdict]`), else the handshake's result.
pub fn result_example(contract: &Contract) -> &str {
    contract.roles.call.as_ref().map_or(&contract.roles.handshake.result, |call| &call.verdict)
}

/// The typed envelopes: the request role's, open in `params`, and the success
/// arm's, open in `result`, then `ResponseOf[R]` of the response role.
pub fn render(contract: &Contract, out: &mut Out) -> Result<(), SchemaError> {
    let roles = &contract.roles;
    let request = envelope(contract, &roles.request, "params", "_P", example_params(contract))?;
    let success = envelope(contract, &roles.success_response, "result", "_R", result_example(contract))?;
    out.blank(2);
    out.line(&comment(0, "Typed envelopes."));
    for env in [&request, &success] {
        out.blank(1);
        out.line(&format!("{} = typing.TypeVar({})", env.param, string(env.param)));
    }
    for env in [&request, &success] {
        typed_object(contract, env, out);
    }
    response_of(contract, &success, out)?;
    registry(contract, out);
    Ok(())
}

/// The envelope of the role type `name`, a closed object with the member
/// `member` (the loader checks both).
fn envelope<'a>(contract: &'a Contract, name: &str, member: &'a str, param: &'a str, example: &'a str) -> Result<Envelope<'a>, SchemaError> {
    let def = contract.type_def(name).ok_or_else(|| role_error(contract, name, "is not a `$defs` type"))?;
    let TypeKind::Object(object) = &def.kind else { return Err(role_error(contract, name, "is not a closed object")) };
    if !object.fields.iter().any(|f| f.name == member) {
        return Err(role_error(contract, name, &format!("has no `{member}`")));
    }
    Ok(Envelope { def, object, member, param, example })
}

/// A role the loader should have refused, refused again by name.
fn role_error(contract: &Contract, name: &str, problem: &str) -> SchemaError {
    SchemaError::new(
        std::path::Path::new(&contract.source),
        format!("/$defs/{name}"),
        format!("the role type `{name}` {problem}, which the Python typed envelopes need"),
        "make the role's type what x-coprocess.roles requires of it",
    )
}

/// `RequestOf[P]` as the user names it (`_P` → `P`).
fn typed_name(name: &str, param: &str) -> String {
    format!("{name}Of[{}]", param.trim_start_matches('_'))
}

fn typed_object(contract: &Contract, env: &Envelope, out: &mut Out) {
    dataclass(env, out);
    reader(contract, env, out);
    writer(contract, env, out);
    public(env, &env.def.name, &format!("{}Of", env.def.name), out);
}

fn dataclass(env: &Envelope, out: &mut Out) {
    let name = &env.def.name;
    out.blank(2);
    out.line("@dataclass(frozen=True)");
    out.line(&format!("class {name}Of(typing.Generic[{}]):", env.param));
    out.line(&docstring(4, &format!(
        "A `{name}` whose `{}` is decoded as `{}`, the generated type the method table names \
         for the method (`{}`). {}",
        env.member,
        env.param.trim_start_matches('_'),
        typed_name(name, env.example),
        env.def.description
    )));
    for f in constructor_order(env.object) {
        let mut f = f.clone();
        let default = match (f.required, &f.ty) {
            (true, _) => "",
            (false, Ty::Any) if f.name != env.member => " = ABSENT",
            (false, _) => " = None",
        };
        if f.name == env.member {
            f.ty = Ty::Ref(env.param.to_string());
        }
        out.blank(1);
        out.line(&format!("    {}: {}{default}", field(&f.name), field_annotation(&f)));
        out.line(&docstring(4, &member_doc(&f)));
    }
}

fn member_doc(f: &crate::model::Field) -> String {
    match (f.required, &f.ty) {
        (true, _) => f.description.clone(),
        (false, Ty::Any) => format!("{} Optional: `ABSENT` when left out.", f.description),
        (false, _) => format!("{} Optional: `None` when left out.", f.description),
    }
}

/// `_read_request_of(value, read_params)`: the envelope's shape with the
/// member's decoder swapped for the typed one.
fn reader(contract: &Contract, env: &Envelope, out: &mut Out) {
    let name = &env.def.name;
    let shape = format!("_{}_SHAPE", upper(name));
    let args = ["value: JsonValue".to_string(), format!("read: collections.abc.Callable[[JsonValue], {}]", env.param)];
    out.blank(2);
    out.line(&fit(0, &format!("def _read_{}_of(", stem(name)), &args, &format!(" -> {name}Of[{}]:", env.param)));
    quick_read(contract, env, out);
    let fields = format!("{{**{shape}.fields, {}: read}}", string(env.member));
    let shape_args = [
        format!("{name}Of"),
        fields,
        format!("{shape}.required"),
        format!("{shape}.absent"),
        format!("{shape}.attributes"),
    ];
    out.line(&fit(4, &format!("shape: _ObjectShape[{name}Of[{}]] = _ObjectShape(", env.param), &shape_args, ""));
    out.line("    return shape.read(value)");
}

/// A value the open member's decoder accepts as it is, to stand in for the
/// member while the envelope's own (quick) reader reads the rest (`None` for a
/// member of any value, which the member's own value stands in for).
fn placeholder(contract: &Contract, env: &Envelope) -> Option<&'static str> {
    let f = env.object.fields.iter().find(|f| f.name == env.member)?;
    match &f.ty {
        Ty::Any => Some("None"),
        Ty::Ref(name) if any_object(contract, name) => Some("{}"),
        _ => None,
    }
}

/// Whether `name` is any JSON object (a map of any values, unbounded), which
/// reads `{}` as it is.
fn any_object(contract: &Contract, name: &str) -> bool {
    matches!(
        contract.type_def(name).map(|def| &def.kind),
        Some(TypeKind::Map { values: Ty::Any, min_members: None, max_members: None, names: None })
    )
}

/// The quick path: the envelope's own reader on the frame with a placeholder for
/// the member, then `read` on the member; any problem goes the shape's way,
/// which finds the first one in document order.
fn quick_read(contract: &Contract, env: &Envelope, out: &mut Out) {
    let Some(placeholder) = placeholder(contract, env) else { return };
    if placeholder == "None" && checked_inline(contract, env, out) {
        return;
    }
    let (name, key) = (&env.def.name, string(env.member));
    out.line(&format!("    if isinstance(value, dict) and {key} in value:"));
    out.line("        try:");
    // A member of any value stands for itself: the envelope reads the frame as it is.
    let frame = if placeholder == "None" { "value".to_string() } else { format!("{{**value, {key}: {placeholder}}}") };
    out.line(&format!("            envelope = _read_{}({frame})", stem(name)));
    out.line(&format!("            member = read(value[{key}])"));
    out.line("        except _Problem:");
    out.line("            pass");
    out.line("        else:");
    // A cast, not an annotation: `object.__new__` gives `{name}Of[Unknown]`
    // to pyright, which an annotation only narrows back to. The type is a
    // string: subscripting the generic class at run time would cost more than
    // the rest of the read.
    let cast = [string(&format!("{name}Of[{}]", env.param)), format!("object.__new__({name}Of)")];
    out.line(&fit(12, "instance = typing.cast(", &cast, ""));
    out.line(&format!("            instance.__dict__.update(envelope.__dict__, {}=member)", field(env.member)));
    out.line("            return instance");
}

/// The quick path of an envelope whose member is of any value, when the
/// envelope's own reader takes every other member as it is: that reader's
/// checks inline (no envelope read apart), then `read` on the member. Whether
/// it applies: false when some member is optional, renamed or decoded by a
/// call, or the checks have no layout `ruff` keeps (then nothing is written).
fn checked_inline(contract: &Contract, env: &Envelope, out: &mut Out) -> bool {
    let fields = &env.object.fields;
    if fields.iter().any(|f| !f.required || field(&f.name) != f.name) {
        return false;
    }
    let shape = format!("_{}_SHAPE", upper(&env.def.name));
    let guards = quick::guards(env.object, &shape, &quick::required_constant(env.def));
    let mut operands = guards;
    let mut locals = Vec::new();
    for f in fields.iter().filter(|f| f.name != env.member) {
        match quick::quick(contract, f, &quick::local(f)) {
            Quick::Always => {}
            Quick::When(check) => {
                operands.push(check);
                locals.push(format!("        {} = value.get({})", quick::local(f), string(&f.name)));
            }
            Quick::Decode => return false,
        }
    }
    let Some(condition) = quick::condition(8, &operands) else { return false };
    let (name, key) = (&env.def.name, string(env.member));
    out.line("    if isinstance(value, dict):");
    for local in &locals {
        out.line(local);
    }
    out.line(&condition);
    out.line("            try:");
    out.line(&format!("                member = read(value[{key}])"));
    out.line("            except _Problem:");
    out.line("                pass");
    out.line("            else:");
    let cast = [string(&format!("{name}Of[{}]", env.param)), format!("object.__new__({name}Of)")];
    out.line(&fit(16, "instance = typing.cast(", &cast, ""));
    out.line(&format!("                instance.__dict__.update(value, {}=member)", field(env.member)));
    out.line("                return instance");
    true
}

fn writer(contract: &Contract, env: &Envelope, out: &mut Out) {
    let name = &env.def.name;
    let args = [format!("value: {name}Of[{}]", env.param), format!("to_value: collections.abc.Callable[[{}], JsonValue]", env.param)];
    out.blank(2);
    out.line(&fit(0, &format!("def {}_of_to_value(", stem(name)), &args, " -> dict[str, JsonValue]:"));
    out.line(&docstring(4, &format!(
        "The JSON value of a `{name}Of`, its `{}` by `to_value` (such as `{}_to_value`).",
        env.member,
        stem(env.example)
    )));
    out.line("    out: dict[str, JsonValue] = {}");
    for f in &env.object.fields {
        let attr = format!("value.{}", field(&f.name));
        let value = if f.name == env.member { format!("to_value({attr})") } else { encoded(contract, &f.ty, &attr, 0) };
        let key = string(&f.name);
        if f.required {
            out.line(&format!("    out[{key}] = {value}"));
            continue;
        }
        match (&f.ty, f.name == env.member) {
            (Ty::Any, false) => out.line(&format!("    if not isinstance({attr}, Absent):")),
            _ => out.line(&format!("    if {attr} is not None:")),
        }
        out.line(&format!("        out[{key}] = {value}"));
    }
    out.line("    return out");
}

/// `decode_…_of`, `…_of_from_value` and `encode_…_of` of the frame `frame`,
/// typed `typed` (`RequestOf`).
fn public(env: &Envelope, frame: &str, typed: &str, out: &mut Out) {
    let (param, member) = (env.param, env.member);
    let stem = stem(frame);
    let ret = format!(" -> {typed}[{param}]:");
    let from_value = format!("from_value: collections.abc.Callable[[JsonValue], {param}]");
    let how = format!(
        "its `{member}` as `from_value` decodes it: a generated `*_from_value` function (such as \
         `{}_from_value`) or `CODECS[name].from_value`, whose reader then reads the member in the same read, or a function of \
         your own, called with the member's value (a `DecodeError` it raises is reported below \
         the member's path). A problem anywhere is the `{frame}`'s, at its path from the \
         frame's root (`$.{member}…`). Raises `DecodeError`.",
        super::names::stem(env.example)
    );
    for (name, input, source, parse) in [
        (format!("def decode_{stem}_of("), "text: str | bytes", "one frame's JSON text", "_parse(text)"),
        (format!("def {stem}_of_from_value("), "value: JsonValue", "an already-parsed JSON value", "value"),
    ] {
        out.blank(2);
        out.line(&fit(0, &name, &[input.to_string(), from_value.clone()], &ret));
        out.line(&docstring(4, &format!("Decodes a `{frame}` from {source}, {how}")));
        out.line("    read = _VALUE_READERS.get(from_value) or _reader_of(from_value)");
        out.line("    try:");
        out.line(&format!("        return _read_{stem}_of({parse}, read)"));
        out.line("    except _Problem as error:");
        out.line(&format!("        raise DecodeError(error.message({})) from None", string(frame)));
    }
    let args = [format!("value: {typed}[{param}]"), format!("to_value: collections.abc.Callable[[{param}], JsonValue]")];
    out.blank(2);
    out.line(&fit(0, &format!("def encode_{stem}_of("), &args, " -> str:"));
    out.line(&docstring(4, &format!(
        "One line of JSON text for a `{typed}`, its `{member}` by `to_value` (such as `{}_to_value`), \
         without the trailing newline.",
        super::names::stem(env.example)
    )));
    out.line(&format!("    return _dumps({stem}_of_to_value(value, to_value))"));
}

/// `ResponseOf[R]`: the response role's union with its success arm typed.
fn response_of(contract: &Contract, success: &Envelope, out: &mut Out) -> Result<(), SchemaError> {
    let response = &contract.roles.response;
    let def = contract.type_def(response).ok_or_else(|| role_error(contract, response, "is not a `$defs` type"))?;
    let TypeKind::Union(variants) = &def.kind else { return Err(role_error(contract, response, "is not a union")) };
    let typed = format!("{response}Of");
    let types: Vec<String> = variants.iter().map(|v| variant_type(v, success)).collect();
    out.blank(2);
    out.line(&format!("{typed} = {}", types.join(" | ")));
    out.line(&docstring(0, &format!(
        "A `{response}` whose `result` is decoded as `R`, the generated type the method table names \
         for the method (`{}`).",
        typed_name(response, success.example)
    )));
    response_reader(response, variants, success, out);
    response_writer(response, variants, success, out);
    public(success, response, &typed, out);
    Ok(())
}

/// Whether `variant` is the success arm, which is typed (`SuccessResponseOf[R]`).
fn is_success(variant: &UnionVariant, success: &Envelope) -> bool {
    variant.type_name == success.def.name
}

fn variant_type(variant: &UnionVariant, success: &Envelope) -> String {
    if is_success(variant, success) {
        format!("{}Of[{}]", variant.type_name, success.param)
    } else {
        variant.type_name.clone()
    }
}

fn response_reader(response: &str, variants: &[UnionVariant], success: &Envelope, out: &mut Out) {
    let param = success.param;
    let keys: Vec<String> = variants.iter().map(|v| string(&v.discriminator)).collect();
    let args = ["value: JsonValue".to_string(), format!("read: collections.abc.Callable[[JsonValue], {param}]")];
    out.blank(2);
    out.line(&fit(0, &format!("def _read_{}_of(", stem(response)), &args, &format!(" -> {response}Of[{param}]:")));
    out.line("    if isinstance(value, dict):");
    for (variant, key) in variants.iter().zip(&keys) {
        let mut operands = vec![format!("{key} in value")];
        operands.extend(keys.iter().filter(|other| *other != key).map(|other| format!("{other} not in value")));
        out.line(&format!("        if {}:", operands.join(" and ")));
        if is_success(variant, success) {
            out.line(&format!("            return _read_{}_of(value, read)", stem(&variant.type_name)));
        } else {
            out.line(&format!("            return _read_{}(value)", stem(&variant.type_name)));
        }
    }
    let tuple = if keys.len() == 1 { format!("({},)", keys[0]) } else { format!("({})", keys.join(", ")) };
    out.line(&fit(4, "raise _no_variant(", &["value".to_string(), tuple], ""));
}

fn response_writer(response: &str, variants: &[UnionVariant], success: &Envelope, out: &mut Out) {
    let param = success.param;
    let args = [format!("value: {response}Of[{param}]"), format!("to_value: collections.abc.Callable[[{param}], JsonValue]")];
    out.blank(2);
    out.line(&fit(0, &format!("def {}_of_to_value(", stem(response)), &args, " -> dict[str, JsonValue]:"));
    out.line(&docstring(4, &format!(
        "The JSON value of a `{response}Of`, its `result` by `to_value` (such as `{}_to_value`).",
        stem(success.example)
    )));
    let last = variants.len().saturating_sub(1);
    for (i, variant) in variants.iter().enumerate() {
        let call = if is_success(variant, success) {
            format!("return {}_of_to_value(value, to_value)", stem(&variant.type_name))
        } else {
            format!("return {}_to_value(value)", stem(&variant.type_name))
        };
        if i == last {
            out.line(&format!("    {call}"));
        } else {
            let class = if is_success(variant, success) { format!("{}Of", variant.type_name) } else { variant.type_name.clone() };
            out.line(&format!("    if isinstance(value, {class}):"));
            out.line(&format!("        {call}"));
        }
    }
}

/// `_VALUE_READERS`, and `_reader_of`, which finds a value decoder's reader.
fn registry(contract: &Contract, out: &mut Out) {
    let entries: Vec<String> =
        contract.types.values().map(|def| format!("{}_from_value: _read_{}", stem(&def.name), stem(&def.name))).collect();
    out.blank(2);
    let head = "_VALUE_READERS: typing.Final[dict[collections.abc.Callable[[JsonValue], object], \
                collections.abc.Callable[[JsonValue], typing.Any]]] = {";
    out.line(&collection(0, head, &entries, ""));
    out.line(&docstring(0, "The reader behind each generated `*_from_value` function."));
    out.blank(2);
    out.line("def _reader_of(\n    from_value: collections.abc.Callable[[JsonValue], _T],\n) -> collections.abc.Callable[[JsonValue], _T]:");
    out.line(&docstring(4, "The reader of `from_value`: the generated one for a generated `*_from_value` \
        function or a codec's `from_value` (`CODECS[name].from_value`), else one that calls \
        `from_value` and reports its `DecodeError` at the member's path: the problem of a generated \
        decoder it called (the error's context), below the member's path, else the error's message."));
    out.line("    reader = _VALUE_READERS.get(from_value)");
    out.line("    if reader is not None:");
    out.line("        return reader");
    out.line("    codec = getattr(from_value, \"__self__\", None)");
    out.line("    if isinstance(codec, _Codec) and from_value == codec.from_value:");
    out.line("        return codec.decoder");
    out.blank(1);
    out.line("    def read(value: JsonValue) -> _T:");
    out.line("        try:");
    out.line("            return from_value(value)");
    out.line("        except DecodeError as error:");
    out.line("            problem = error.__context__");
    out.line("            if isinstance(problem, _Problem):");
    out.line("                raise problem from None");
    out.line("            raise _Problem(str(error)) from None");
    out.blank(1);
    out.line("    return read");
}
