//! The one-pass readers: `Read(ref Utf8JsonReader)` per type, decoding straight
//! off the reader with no `JsonDocument` for closed objects. They never word a
//! problem: anything doubtful throws `CoprocessReader.Fallback()` and the
//! public decoder runs the careful `JsonElement` reader, which does.

use super::super::names::{enum_members, local_name, member_name, string_literal};
use super::super::mapping::{bare, cs_type, field_type};
use super::reader_of;
use super::super::Out;
use crate::model::{Constant, Contract, ObjectType, Ty, TypeKind, UnionVariant};

/// The signature of a type's one-pass reader.
pub fn signature(class: &str) -> String {
    format!("internal static {class} Read(ref global::System.Text.Json.Utf8JsonReader reader)")
}

/// A lambda reading one value with the enclosing class's one-pass reader (for `CoprocessReader.TryDecode`).
pub fn lambda() -> &'static str {
    "(ref global::System.Text.Json.Utf8JsonReader reader) => Read(ref reader)"
}

/// The name of the static UTF-8 bytes of a member or enum value.
fn key_field(pascal: &str) -> String {
    format!("Key{pascal}")
}

/// `internal static readonly byte[] Key... = ...;` for each (name, wire text), unless `owner`
/// (the non-generic class a typed envelope copies) holds them already: statics of a generic
/// class cost a lookup on every use. Returns the names to compare with.
fn key_fields(out: &mut Out, keys: Vec<(String, &str)>, owner: Option<&str>) -> Vec<String> {
    if let Some(owner) = owner {
        return keys.into_iter().map(|(name, _)| format!("{owner}.{name}")).collect();
    }
    for (name, wire) in &keys {
        out.line(2, &format!("internal static readonly byte[] {name} = global::System.Text.Encoding.UTF8.GetBytes({});", string_literal(wire)));
    }
    if !keys.is_empty() {
        out.blank();
    }
    keys.into_iter().map(|(name, _)| name).collect()
}

/// The names of a closed object's member keys (`KeySuccess`), each with its wire name: the
/// one-pass reader declares them, the single-pass reader ([`super::plain`]) compares with them.
pub fn object_keys<'a>(class: &str, object: &'a ObjectType) -> Vec<(String, &'a str)> {
    let members: Vec<String> = object.fields.iter().map(|f| member_name(&f.name, bare(class))).collect();
    members
        .iter()
        .zip(&object.fields)
        .map(|(member, f)| {
            let mut key = key_field(member);
            while members.contains(&key) {
                key.push('_'); // a property of that name exists (`key_id` next to `id`)
            }
            (key, f.name.as_str())
        })
        .collect()
}

/// The expression reading a value of type `ty` off `reader` (positioned on its first token).
pub fn read_expr(contract: &Contract, ty: &Ty, reader: &str, depth: usize) -> String {
    let ns = crate::targets::dotnet::runtime_ns(contract);
    match ty {
        Ty::Any => format!("{ns}.CoprocessReader.ReadAny(ref {reader})"),
        Ty::Number { minimum: None, maximum: None } => format!("{ns}.CoprocessReader.ReadNumber(ref {reader})"),
        Ty::Number { minimum, maximum } => format!("{ns}.CoprocessReader.ReadNumber(ref {reader}, {})", super::number_bounds(*minimum, *maximum)),
        Ty::Boolean => format!("{ns}.CoprocessReader.ReadBoolean(ref {reader})"),
        Ty::Integer { minimum: Some(min), maximum: None } => format!("{ns}.CoprocessReader.ReadInteger(ref {reader}, {min})"),
        Ty::Integer { minimum: None, maximum: None } => format!("{ns}.CoprocessReader.ReadInteger(ref {reader})"),
        Ty::Integer { minimum, maximum: Some(max) } => {
            let min = minimum.map_or("long.MinValue".to_string(), |m| m.to_string());
            format!("{ns}.CoprocessReader.ReadInteger(ref {reader}, {min}, {max})")
        }
        Ty::String => format!("{ns}.CoprocessReader.ReadString(ref {reader})"),
        Ty::Ref(name) => format!("{}.Read(ref {reader})", reader_of(contract, name)),
        Ty::Array(item) => {
            let r = format!("item{depth}");
            let inner = read_expr(contract, item, &r, depth + 1);
            format!("{ns}.CoprocessReader.ReadArray(ref {reader}, (ref global::System.Text.Json.Utf8JsonReader {r}) => {inner})")
        }
        Ty::Nullable(inner) => {
            let read = read_expr(contract, inner, reader, depth);
            format!("{reader}.TokenType == global::System.Text.Json.JsonTokenType.Null ? ({}?)null : {read}", cs_type(inner))
        }
        Ty::Length { inner, min, max } => {
            let (min, max) = super::length_bounds(*min, *max);
            match inner.as_ref() {
                Ty::Array(_) => {
                    let read = read_expr(contract, inner, reader, depth);
                    format!("{ns}.CoprocessReader.ItemsWithin({read}, {min}, {max})")
                }
                _ => format!("{ns}.CoprocessReader.ReadString(ref {reader}, {min}, {max})"),
            }
        }
        // Read as any JSON value, then by the careful reader.
        Ty::Unique(inner) if inner.unique_by_read() => {
            let element = format!("element{depth}");
            let read = super::read_expr(contract, ty, &element, "null", depth + 1);
            format!("{ns}.CoprocessReader.ReadCarefully(ref {reader}, ({element}) => {read})")
        }
        Ty::Unique(inner) => {
            let read = read_expr(contract, inner, reader, depth);
            let check = if inner.unique_by_json() { "UniqueJson" } else { "UniqueItems" };
            format!("{ns}.CoprocessReader.{check}({read})")
        }
        Ty::Prefix { inner, kinds, rest } => {
            let read = read_expr(contract, inner, reader, depth);
            format!("{ns}.CoprocessReader.PrefixKinds({read}, {})", super::prefix_kinds(kinds, rest.as_deref()))
        }
        Ty::Multiple { inner, divisor } if matches!(**inner, Ty::Number { .. }) => {
            let read = read_expr(contract, inner, reader, depth);
            format!("{ns}.CoprocessReader.NumberMultipleOf({read}, {}, {})", divisor.digits, divisor.exponent)
        }
        Ty::Multiple { inner, divisor } => {
            let read = read_expr(contract, inner, reader, depth);
            format!("{ns}.CoprocessReader.MultipleOf({read}, {divisor})")
        }
        // Checked as any JSON value, then read off the element as its kind
        // (by the careful reader, with no path: it cannot fail).
        Ty::Const { inner, value: Constant::OneOf(listed) } if **inner != Ty::Any => {
            let checked = format!("{ns}.CoprocessReader.OneOfJson({ns}.CoprocessReader.ReadAny(ref {reader}), {})", string_literal(listed));
            super::read_expr(contract, inner, &checked, "null", depth)
        }
        Ty::Const { inner, value } => {
            let read = read_expr(contract, inner, reader, depth);
            let check = match value {
                Constant::Json(_) => "ConstantJson",
                Constant::OneOf(_) => "OneOfJson",
                _ => "Constant",
            };
            format!("{ns}.CoprocessReader.{check}({read}, {})", super::cs_constant(value))
        }
        Ty::Pattern { inner, pattern } => {
            let read = read_expr(contract, inner, reader, depth);
            format!("{ns}.CoprocessReader.Matching({read}, {ns}.Coprocess.Pattern{})", pattern.number)
        }
    }
}

/// The one-pass reader of a closed object: each declared member at most once, every required one.
pub fn object_reader(out: &mut Out, contract: &Contract, class: &str, object: &ObjectType, owner: Option<&str>) {
    let ns = out.ns.clone();
    let keys = key_fields(out, object_keys(class, object), owner);
    if object.fields.len() > 64 {
        // More members than one bit mask tracks: the careful reader decides.
        out.block(2, &signature(class), |out| out.line(3, &format!("throw {ns}.CoprocessReader.Fallback();")));
        return;
    }
    out.block(2, &signature(class), |out| {
        out.line(3, &format!("{ns}.CoprocessReader.Expect(ref reader, global::System.Text.Json.JsonTokenType.StartObject);"));
        if !object.fields.is_empty() {
            out.line(3, "ulong seen = 0;");
        }
        for field in &object.fields {
            let init = if field.required && !matches!(field.ty, Ty::Nullable(_)) { "default!" } else { "null" };
            out.line(3, &format!("{} {} = {init};", field_type(field), local_name(&field.name)));
        }
        out.block(3, &format!("while ({ns}.CoprocessReader.NextName(ref reader))"), |out| {
            for (bit, (field, key)) in object.fields.iter().zip(&keys).enumerate() {
                let test = format!("reader.ValueTextEquals({key})");
                out.block(4, &if bit == 0 { format!("if ({test})") } else { format!("else if ({test})") }, |out| {
                    out.line(5, &format!("{ns}.CoprocessReader.Once(ref seen, 1UL << {bit});"));
                    out.line(5, "reader.Read();");
                    out.line(5, &format!("{} = {};", local_name(&field.name), read_expr(contract, &field.ty, "reader", 0)));
                });
            }
            if object.fields.is_empty() {
                out.line(4, &format!("throw {ns}.CoprocessReader.Fallback();"));
            } else {
                out.block(4, "else", |out| out.line(5, &format!("throw {ns}.CoprocessReader.Fallback();")));
            }
        });
        let mask: u64 = object.fields.iter().enumerate().filter(|(_, f)| f.required).map(|(bit, _)| 1u64 << bit).sum();
        if mask != 0 {
            out.block(3, &format!("if ((seen & {mask}UL) != {mask}UL)"), |out| out.line(4, &format!("throw {ns}.CoprocessReader.Fallback();")));
        }
        super::construct_from_locals(out, class, object);
    });
}

/// The one-pass reader of a map: an open map keeps its values in one document.
/// The one-pass reader of a map; `members` bounds its number of members, a
/// count outside them falling back to the careful reader, which words it.
/// `names` is the careful reader's check of a member name (over `name`, at
/// `at`), if the map has `propertyNames`: a failing name falls back.
pub fn map_reader(out: &mut Out, contract: &Contract, class: &str, value: &Ty, names: Option<&str>, members: (Option<u64>, Option<u64>)) {
    let ns = out.ns.clone();
    out.block(2, &signature(class), |out| {
        let read = if matches!(value, Ty::Any) {
            format!("{ns}.CoprocessReader.ReadOpenMap(ref reader, new {class}())")
        } else {
            let read = read_expr(contract, value, "value", 0);
            let generic = format!("<{class}, {}>", cs_type(value));
            format!("{ns}.CoprocessReader.ReadMap{generic}(ref reader, new {class}(), (ref global::System.Text.Json.Utf8JsonReader value) => {read})")
        };
        let read = match names {
            Some(check) => {
                // The check words its problem at `at`; here only whether it fails matters.
                out.line(3, &format!("{ns}.CoprocessPath? at = null;"));
                out.line(3, &format!("var result = {read};"));
                out.line(3, &format!("{ns}.CoprocessReader.MemberNames(result.Keys, name => {check});"));
                "result".to_string()
            }
            None => read,
        };
        match members {
            (None, None) => out.line(3, &format!("return {read};")),
            (min, max) => {
                let (min, max) = super::length_bounds(min, max);
                out.line(3, &format!("return {ns}.CoprocessReader.MembersWithin({read}, {min}, {max});"));
            }
        }
    });
}

/// Whether no variant declares another variant's discriminator: then the first discriminator
/// found picks the variant, as a second one is an unknown member to it (and sends the decode
/// the careful way).
pub fn first_discriminator_decides(contract: &Contract, variants: &[UnionVariant]) -> bool {
    variants.iter().all(|variant| {
        let Some(TypeKind::Object(object)) = contract.type_def(&variant.type_name).map(|t| &t.kind) else {
            return false;
        };
        let own = object.fields.iter().any(|f| f.name == variant.discriminator && f.required);
        let others = variants.iter().filter(|v| v.discriminator != variant.discriminator);
        own && others.clone().all(|v| object.fields.iter().all(|f| f.name != v.discriminator))
    })
}

/// The one-pass reader of a union: the discriminating members pick the variant, read from the
/// start (`early`: the first one found decides, see [`first_discriminator_decides`]).
pub fn union_reader(out: &mut Out, class: &str, variants: &[UnionVariant], classes: &[String], early: bool, owner: Option<&str>) {
    let ns = out.ns.clone();
    if let Some((member, tags)) = crate::model::union_tag(variants) {
        return tagged_union_reader(out, class, member, &tags, classes, owner);
    }
    let keys: Vec<(String, &str)> = variants
        .iter()
        .map(|v| (key_field(&crate::names::pascal_case(&v.discriminator)), v.discriminator.as_str()))
        .collect();
    let keys = key_fields(out, keys, owner);
    out.block(2, &signature(class), |out| {
        out.line(3, &format!("{ns}.CoprocessReader.Expect(ref reader, global::System.Text.Json.JsonTokenType.StartObject);"));
        out.line(3, "global::System.Text.Json.Utf8JsonReader start = reader;");
        out.line(3, "int found = 0;");
        let head = if early { &format!("while (found == 0 && {ns}.CoprocessReader.NextName(ref reader))") } else { &format!("while ({ns}.CoprocessReader.NextName(ref reader))") };
        out.block(3, head, |out| {
            for (i, key) in keys.iter().enumerate() {
                let test = format!("reader.ValueTextEquals({key})");
                out.block(4, &if i == 0 { format!("if ({test})") } else { format!("else if ({test})") }, |out| {
                    out.line(5, &format!("found |= {};", 1u64 << i));
                });
            }
            let skip = |out: &mut Out, level: usize| {
                out.line(level, "reader.Read();");
                out.line(level, "reader.Skip();");
            };
            if early {
                out.block(4, "else", |out| skip(out, 5));
            } else {
                skip(out, 4);
            }
        });
        out.line(3, "reader = start;");
        out.block(3, "switch (found)", |out| {
            for (i, vt) in classes.iter().enumerate() {
                out.line(4, &format!("case {}:", 1u64 << i));
                out.line(5, &format!("return new {class}({vt}.Read(ref reader));"));
            }
            out.line(4, "default:");
            out.line(5, &format!("throw {ns}.CoprocessReader.Fallback();"));
        });
    });
}

/// The one-pass reader of a tagged union: the first tag member met picks the variant, read
/// from the start; a tag that is not a string or not one of the tags, or none, falls back (the
/// careful read words the problem).
fn tagged_union_reader(out: &mut Out, class: &str, member: &str, tags: &[&str], classes: &[String], owner: Option<&str>) {
    let ns = out.ns.clone();
    let mut keys: Vec<(String, &str)> = vec![(key_field(&crate::names::pascal_case(member)), member)];
    keys.extend(tags.iter().enumerate().map(|(i, tag)| (format!("KeyTag{i}"), *tag)));
    let keys = key_fields(out, keys, owner);
    out.block(2, &signature(class), |out| {
        out.line(3, &format!("{ns}.CoprocessReader.Expect(ref reader, global::System.Text.Json.JsonTokenType.StartObject);"));
        out.line(3, "global::System.Text.Json.Utf8JsonReader start = reader;");
        out.block(3, &format!("while ({ns}.CoprocessReader.NextName(ref reader))"), |out| {
            out.line(4, &format!("bool isTag = reader.ValueTextEquals({});", keys[0]));
            out.line(4, "reader.Read();");
            out.block(4, "if (!isTag)", |out| {
                out.line(5, "reader.Skip();");
                out.line(5, "continue;");
            });
            out.block(4, "if (reader.TokenType == global::System.Text.Json.JsonTokenType.String)", |out| {
                for (key, vt) in keys[1..].iter().zip(classes) {
                    out.block(5, &format!("if (reader.ValueTextEquals({key}))"), |out| {
                        out.line(6, "reader = start;");
                        out.line(6, &format!("return new {class}({vt}.Read(ref reader));"));
                    });
                }
            });
            out.line(4, "break;");
        });
        out.line(3, &format!("throw {ns}.CoprocessReader.Fallback();"));
    });
}

/// The one-pass reader of a string enum: the wire values compared without a string.
pub fn enum_reader(out: &mut Out, class: &str, values: &[String]) {
    let ns = out.ns.clone();
    let members = enum_members(values);
    let keys: Vec<(String, &str)> = members.iter().zip(values).map(|(m, v)| (key_field(m), v.as_str())).collect();
    let keys = key_fields(out, keys, None);
    out.block(2, &signature(class), |out| {
        out.line(3, &format!("{ns}.CoprocessReader.Expect(ref reader, global::System.Text.Json.JsonTokenType.String);"));
        for (member, key) in members.iter().zip(&keys) {
            out.block(3, &format!("if (reader.ValueTextEquals({key}))"), |out| {
                out.line(4, &format!("return {class}.{member};"));
            });
        }
        out.line(3, &format!("throw {ns}.CoprocessReader.Fallback();"));
    });
}

/// The one-pass reader of an integer-or-string id.
pub fn id_reader(out: &mut Out, class: &str) {
    let ns = out.ns.clone();
    out.block(2, &signature(class), |out| {
        out.block(3, "if (reader.TokenType == global::System.Text.Json.JsonTokenType.String)", |out| {
            out.line(4, &format!("return new {class}(reader.GetString() ?? string.Empty);"));
        });
        out.block(3, &format!("if (!{ns}.CoprocessReader.TryReadInteger(ref reader, out long integer))"), |out| {
            out.line(4, &format!("throw {ns}.CoprocessReader.Fallback();"));
        });
        out.line(3, &format!("return new {class}(integer);"));
    });
}
