//! Typed envelopes: `RequestOf<P>`, `SuccessResponseOf<R>` and
//! `ResponseOf<R>`, the frames of the request, success and response roles
//! (named so in v2.json) with their open `params` / `result` member typed by the method table's
//! shape. `decodeRequestOf(text, decodeCallParamsValue)` reads that member
//! with the generated type's own reader in the same pass over the frame (no
//! walk of it as an open value first), so a wrong `params` is reported as the
//! `Request`'s problem at `$.params.…`.

use crate::model::{Contract, Ty, TypeDef, TypeKind, UnionVariant};
use crate::targets::client::example_params;
use crate::SchemaError;

use super::codecs::{pick_variant, read_object, variants_constant, write_object};
use super::layout::Out;
use super::names::{constant, js_string, property, stem, type_name};
use super::types::declare_object;

/// The type the examples of a typed `result` name: the call's result
/// (`encodeCallResult`), else the handshake's.
fn result_example(contract: &Contract) -> &str {
    contract.roles.call.as_ref().map_or(&contract.roles.handshake.result, |call| &call.result)
}

/// The generic type of an envelope: `RequestOf<P>`.
fn typed_type(name: &str, param: &str) -> String {
    format!("{}Of<{param}>", type_name(name))
}

/// The stem of an envelope's functions: `RequestOf` (`decodeRequestOf`).
fn typed_stem(name: &str) -> String {
    format!("{}Of", stem(name))
}

/// The typed envelopes of the request role (open in `params`) and the
/// success arm (open in `result`), then `ResponseOf<R>` of the response role.
pub fn render(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    let roles = &contract.roles;
    let request = closed_with(contract, &roles.request, "params")?;
    let success = closed_with(contract, &roles.success_response, "result")?;
    section(out);
    typed_object(out, contract, request, "params", "P", example_params(contract));
    typed_object(out, contract, success, "result", "R", result_example(contract));
    response_of(out, contract)?;
    registry(out, contract);
    Ok(())
}

/// The role type `name`, a closed object with the member `member` (the
/// loader checks both; refused by name here all the same).
fn closed_with<'c>(contract: &'c Contract, name: &str, member: &str) -> Result<&'c TypeDef, SchemaError> {
    match contract.type_def(name) {
        Some(def) if has_field(def, member) => Ok(def),
        _ => Err(role_error(contract, name, &format!("is not a closed object with `{member}`"))),
    }
}

/// A role the loader should have refused, refused again by name.
fn role_error(contract: &Contract, name: &str, problem: &str) -> SchemaError {
    SchemaError::new(
        std::path::Path::new(&contract.source),
        format!("/$defs/{name}"),
        format!("the role type `{name}` {problem}, which the TypeScript typed envelopes need"),
        "make the role's type what x-coprocess.roles requires of it",
    )
}

/// Whether `def` is a closed object with a field `member`.
fn has_field(def: &TypeDef, member: &str) -> bool {
    matches!(&def.kind, TypeKind::Object(object) if object.fields.iter().any(|f| f.name == member))
}

fn section(out: &mut Out) {
    out.section("Typed envelopes");
    out.doc("", "Decodes an already-parsed JSON value as a `T`, throwing a `DecodeError`: the shape of a generated `decode…Value` function.");
    out.line("export type ValueDecoder<T> = (value: JsonValue) => T;");
}

/// `RequestOf<P>` or `SuccessResponseOf<R>`: the type, its reader, decoder and encoder.
fn typed_object(out: &mut Out, contract: &Contract, def: &TypeDef, member: &str, param: &str, example: &str) {
    let TypeKind::Object(object) = &def.kind else { return };
    let mut typed = object.clone();
    for field in typed.fields.iter_mut().filter(|f| f.name == member) {
        field.ty = Ty::Ref(param.to_string());
    }
    let name = typed_type(&def.name, param);
    let stem = typed_stem(&def.name);
    out.blank();
    out.doc("", &format!(
        "A `{}` whose `{member}` is decoded as `{param}`, the generated type the method table names for the method.",
        def.name
    ));
    declare_object(out, contract, &name, &typed);
    out.blank();
    out.line(format!(
        "function read{stem}<{param}>(value: JsonValue, path: string, orNull: boolean, read{param}: _Reader<{param}>): {name} {{"
    ));
    read_object(out, &typed, &name);
    out.line("}");
    decoder(out, &def.name, member, param, example, &format!("read{stem}"));
    out.blank();
    out.doc("", &format!(
        "Encodes a `{}` as one line of JSON text, its `{member}` with `encode{param}` (such as `encode{example}`).",
        def.name
    ));
    out.line(format!("export function encode{stem}<{param}>(value: {name}, encode{param}: (value: {param}) => string): string {{"));
    write_object(out, &typed);
    out.line("}");
}

/// The public `decode<Envelope>Of(text, decode…Value)` of an envelope read by `read`.
fn decoder(out: &mut Out, def: &str, member: &str, param: &str, example: &str, read: &str) {
    let decode_param = format!("decode{}", stem(member));
    let readers = format!("_{}_OF_READERS", constant(def));
    out.blank();
    out.doc("", &format!("The reader of a `{def}` for each `{decode_param}` function it was decoded with, made on first use."));
    out.line(format!("const {readers}: _Readers = new WeakMap();"));
    out.blank();
    out.doc("", &format!(
        "Decodes a `{def}` from one strict JSON text, its `{member}` as `{decode_param}` (a generated `decode…Value` function, such as `decode{example}Value`) decodes it, in the same pass. A problem anywhere is the `{def}`'s, at its path from the frame's root. Throws a `DecodeError`."
    ));
    out.line(format!(
        "export function decode{}Of<{param}>(text: string, {decode_param}: ValueDecoder<{param}>): {} {{",
        stem(def),
        typed_type(def, param)
    ));
    out.line(format!(
        "  return _decodeText({}, _envelopeReader({readers}, {decode_param}, {read}), text);",
        js_string(def)
    ));
    out.line("}");
}

/// `ResponseOf<R>`: the response role's union with its success arm typed.
fn response_of(out: &mut Out, contract: &Contract) -> Result<(), SchemaError> {
    let (response, success) = (&contract.roles.response, &contract.roles.success_response);
    let Some(TypeKind::Union(variants)) = contract.type_def(response).map(|d| &d.kind) else {
        return Err(role_error(contract, response, "is not a union"));
    };
    let param = "R";
    let name = typed_type(response, param);
    let types: Vec<String> = variants.iter().map(|v| variant_type(v, success, param)).collect();
    out.blank();
    out.doc("", &format!("A `{response}` whose `result` is decoded as `R`, the generated type the method table names for the method."));
    out.line(format!("export type {name} = {};", types.join(" | ")));
    out.blank();
    let read = format!("read{}", typed_stem(response));
    out.line(format!(
        "function {read}<{param}>(value: JsonValue, path: string, orNull: boolean, read{param}: _Reader<{param}>): {name} {{"
    ));
    out.line("  const obj = _readObject(value, path, orNull);");
    pick_variant(out, &variants_constant(response, variants), variants);
    for (i, variant) in variants.iter().enumerate() {
        if i + 1 == variants.len() {
            out.line("    default:");
        } else {
            out.line(format!("    case {i}:"));
        }
        out.line(format!("      return {};", variant_read(variant, success, param)));
    }
    out.line("  }");
    out.line("}");
    let example = result_example(contract);
    decoder(out, response, "result", param, example, &read);
    encode_response_of(out, response, variants, success, param, example);
    Ok(())
}

fn variant_type(variant: &UnionVariant, success: &str, param: &str) -> String {
    if variant.type_name == success {
        typed_type(&variant.type_name, param)
    } else {
        type_name(&variant.type_name)
    }
}

fn variant_read(variant: &UnionVariant, success: &str, param: &str) -> String {
    if variant.type_name == success {
        format!("read{}(obj, path, false, read{param})", typed_stem(&variant.type_name))
    } else {
        format!("read{}(obj, path, false)", stem(&variant.type_name))
    }
}

fn encode_response_of(out: &mut Out, response: &str, variants: &[UnionVariant], success: &str, param: &str, example: &str) {
    out.blank();
    out.doc("", &format!(
        "Encodes a `{response}` as one line of JSON text, its `result` with `encode{param}` (such as `encode{example}`)."
    ));
    out.line(format!(
        "export function encode{}<{param}>(value: {}, encode{param}: (value: {param}) => string): string {{",
        typed_stem(response),
        typed_type(response, param)
    ));
    for (i, variant) in variants.iter().enumerate() {
        let encode = if variant.type_name == success {
            format!("encode{}(value, encode{param})", typed_stem(&variant.type_name))
        } else {
            format!("encode{}(value)", stem(&variant.type_name))
        };
        if i + 1 == variants.len() {
            out.line(format!("  return {encode};"));
        } else {
            out.line(format!("  if ({} in value) {{", js_string(&property(&variant.discriminator))));
            out.line(format!("    return {encode};"));
            out.line("  }");
        }
    }
    out.line("}");
}

/// `VALUE_READERS`, and `readerOf`, which finds a decoder's reader.
fn registry(out: &mut Out, contract: &Contract) {
    out.blank();
    out.doc("", "The reader behind each generated `decode…Value` function, set one at a time: an array literal of every pair would have `tsc` reduce a union of as many tuple types, which it refuses for a schema of about 1,400 types (TS2590, too complex to represent).");
    out.line("const _VALUE_READERS = new Map<ValueDecoder<unknown>, _Reader<unknown>>();");
    for def in contract.types.values() {
        let stem = stem(&def.name);
        out.line(format!("_VALUE_READERS.set(decode{stem}Value, read{stem});"));
    }
    out.blank();
    out.doc("", "The reader of `decode`: the generated one for a generated `decode…Value`, else one that reads the value as an open value (checking it as `decodeText` checks any) and then reports what `decode` throws at the value's path.");
    out.line("function _readerOf<T>(decode: ValueDecoder<T>): _Reader<T> {");
    out.line("  const generated = _VALUE_READERS.get(decode) as _Reader<T> | undefined;");
    out.line("  return generated ?? ((value, path) => _decodeAt(decode, _openValue(value), path));");
    out.line("}");
    out.blank();
    out.doc("", "The readers of one typed envelope, by the `decode…Value` function of its member (held weakly: a caller's own decoder can be let go; the global `WeakMap`: a `$defs` type named `WeakMap` would shadow it in the generated module).");
    out.line("type _Readers = globalThis.WeakMap<ValueDecoder<unknown>, _Reader<unknown>>;");
    out.blank();
    out.doc("", "The reader of an envelope (`read`) whose member `decode` decodes: made once per `decode` and kept in `readers`, so that a decode makes no reader of its own (docs/benchmarks.md).");
    // (as Prettier prints it: the layout does not break a function type)
    for line in [
        "function _envelopeReader<E, M>(",
        "  readers: _Readers,",
        "  decode: ValueDecoder<M>,",
        "  read: (",
        "    value: JsonValue,",
        "    path: string,",
        "    orNull: boolean,",
        "    readMember: _Reader<M>,",
        "  ) => E,",
        "): _Reader<E> {",
    ] {
        out.raw(line);
    }
    out.line("  let reader = readers.get(decode) as _Reader<E> | undefined;");
    out.line("  if (reader === undefined) {");
    out.line("    const readMember = _readerOf(decode);");
    out.line("    reader = (value, path, orNull) => read(value, path, orNull, readMember);");
    out.line("    readers.set(decode, reader);");
    out.line("  }");
    out.line("  return reader;");
    out.line("}");
    out.blank();
    out.doc("", "Decodes `value` at `path` with a decoder of the caller's, outside any counting read, its `DecodeError` as a `Problem` below `path`.");
    out.line("function _decodeAt<T>(decode: ValueDecoder<T>, value: JsonValue, path: string): T {");
    out.line("  const wasCounting = _counting;");
    out.line("  const met = _keysMet;");
    out.line("  _counting = false;");
    out.line("  try {");
    out.line("    return decode(value);");
    out.line("  } catch (e) {");
    out.line("    if (e instanceof DecodeError) {");
    out.line("      _throwProblem(e.problem, path === _UNTRACED ? _UNTRACED : path + e.path.slice(1));");
    out.line("    }");
    out.line("    throw e;");
    out.line("  } finally {");
    out.line("    _counting = wasCounting;");
    out.line("    _keysMet = met;");
    out.line("  }");
    out.line("}");
}
