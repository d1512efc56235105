//! The strict decoders and encoders of every C# type: the public entry
//! points (`Decode`, `FromJson`, `ToJson`), the careful `JsonElement`
//! readers that word every problem, and the writers; the one-pass readers
//! that run first are in [`fast`].

pub mod fast;
pub mod plain;

use super::docs::summary;
use super::names::{enum_wire_name, json_string, local_name, member_name, string_literal, type_name};
use super::mapping::{bare, cs_type, field_type, is_value_type, kind_of, quoted_list, required};
use super::Out;
use crate::model::{union_tag, Constant, Contract, Field, NumberBound, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

/// What a wrong-kind message says is expected (`string`, `integer or string`, ...).
pub fn label(contract: &Contract, ty: &Ty) -> String {
    match ty {
        Ty::Any => "any value".to_string(),
        Ty::Number { .. } => "number".to_string(),
        Ty::Boolean => "boolean".to_string(),
        Ty::Integer { .. } => "integer".to_string(),
        Ty::String => "string".to_string(),
        Ty::Array(_) => "array".to_string(),
        Ty::Ref(name) => match kind_of(contract, name) {
            Some(TypeKind::StringEnum(_)) => "string".to_string(),
            Some(TypeKind::IntegerOrString) => "integer or string".to_string(),
            _ => "object".to_string(),
        },
        Ty::Nullable(inner) => format!("{} or null", label(contract, inner)),
        Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => label(contract, inner),
    }
}

/// The type that holds a type's `Read`/`Write` (the enum's companion for enums); for a type
/// parameter of a typed envelope (a name that is no `$defs` entry), its codec.
pub fn reader_of(contract: &Contract, name: &str) -> String {
    match kind_of(contract, name) {
        Some(TypeKind::StringEnum(_)) => enum_wire_name(name),
        Some(_) => type_name(name),
        None => codec(&crate::targets::dotnet::runtime_ns(contract), name),
    }
}

/// The codec of a type parameter: `CoprocessCodec<TParams>.Get()`.
pub fn codec(ns: &str, param: &str) -> String {
    format!("{ns}.CoprocessCodec<{}>.Get()", type_name(param))
}

/// The expression decoding `value` (a `JsonElement`) located at `at`.
pub fn read_expr(contract: &Contract, ty: &Ty, value: &str, at: &str, depth: usize) -> String {
    read_expecting(contract, ty, value, at, depth, &label(contract, ty))
}

/// As [`read_expr`], with the wrong-kind wording given (`string or null` for a nullable).
pub fn read_expecting(contract: &Contract, ty: &Ty, value: &str, at: &str, depth: usize, expected: &str) -> String {
    let ns = crate::targets::dotnet::runtime_ns(contract);
    let expected_literal = string_literal(expected);
    let e = &expected_literal;
    match ty {
        Ty::Any => value.to_string(),
        Ty::Number { minimum: None, maximum: None } => format!("{ns}.CoprocessJson.ReadNumber({value}, {at}, {e})"),
        Ty::Number { minimum, maximum } => {
            let bounds = number_bounds(*minimum, *maximum);
            format!("{ns}.CoprocessJson.ReadNumber({value}, {at}, {e}, {bounds})")
        }
        Ty::Boolean => format!("{ns}.CoprocessJson.ReadBoolean({value}, {at}, {e})"),
        Ty::Integer { minimum: Some(min), maximum: None } => format!("{ns}.CoprocessJson.ReadInteger({value}, {at}, {e}, {min})"),
        Ty::Integer { minimum: None, maximum: None } => format!("{ns}.CoprocessJson.ReadInteger({value}, {at}, {e})"),
        Ty::Integer { minimum, maximum: Some(max) } => {
            let min = minimum.map_or("long.MinValue".to_string(), |m| m.to_string());
            format!("{ns}.CoprocessJson.ReadInteger({value}, {at}, {e}, {min}, {max})")
        }
        Ty::String => format!("{ns}.CoprocessJson.ReadString({value}, {at}, {e})"),
        Ty::Ref(name) => format!("{}.Read({value}, {at}, {e})", reader_of(contract, name)),
        Ty::Array(item) => {
            let (v, a) = (format!("item{depth}"), format!("at{depth}"));
            let inner = read_expr(contract, item, &v, &a, depth + 1);
            format!("{ns}.CoprocessJson.ReadArray({value}, {at}, {e}, ({v}, {a}) => {inner})")
        }
        Ty::Nullable(inner) => {
            let read = read_expecting(contract, inner, value, at, depth, expected);
            format!("{value}.ValueKind == global::System.Text.Json.JsonValueKind.Null ? ({}?)null : {read}", cs_type(inner))
        }
        Ty::Length { inner, min, max } => {
            let (min, max) = length_bounds(*min, *max);
            match inner.as_ref() {
                Ty::Array(_) => {
                    let read = read_expecting(contract, inner, value, at, depth, expected);
                    format!("{ns}.CoprocessJson.ItemsWithin({read}, {at}, {min}, {max})")
                }
                _ => format!("{ns}.CoprocessJson.ReadString({value}, {at}, {e}, {min}, {max})"),
            }
        }
        Ty::Unique(inner) if inner.unique_by_read() => {
            let read = read_expecting(contract, inner, value, at, depth, expected);
            format!("{ns}.CoprocessJson.UniqueRead({read}, {value}, {at})")
        }
        Ty::Unique(inner) => {
            let read = read_expecting(contract, inner, value, at, depth, expected);
            let check = if inner.unique_by_json() { "UniqueJson" } else { "UniqueItems" };
            format!("{ns}.CoprocessJson.{check}({read}, {at})")
        }
        Ty::Prefix { inner, kinds, rest } => {
            let read = read_expecting(contract, inner, value, at, depth, expected);
            format!("{ns}.CoprocessJson.PrefixKinds({read}, {at}, {})", prefix_kinds(kinds, rest.as_deref()))
        }
        Ty::Multiple { inner, divisor } if matches!(**inner, Ty::Number { .. }) => {
            let read = read_expecting(contract, inner, value, at, depth, expected);
            format!("{ns}.CoprocessJson.NumberMultipleOf({read}, {at}, {}, {})", divisor.digits, divisor.exponent)
        }
        Ty::Multiple { inner, divisor } => {
            let read = read_expecting(contract, inner, value, at, depth, expected);
            format!("{ns}.CoprocessJson.MultipleOf({read}, {at}, {divisor})")
        }
        // Checked as any JSON value, then read as its kind, which cannot fail.
        Ty::Const { inner, value: Constant::OneOf(listed) } if **inner != Ty::Any => {
            let checked = format!("{ns}.CoprocessJson.OneOfJson({value}, {at}, {})", string_literal(listed));
            read_expr(contract, inner, &checked, at, depth)
        }
        Ty::Const { inner, value: constant } => {
            let read = read_expecting(contract, inner, value, at, depth, expected);
            let shown = string_literal(&constant.json());
            match constant {
                Constant::Json(_) => return format!("{ns}.CoprocessJson.ConstantJson({read}, {at}, {shown})"),
                Constant::OneOf(listed) => return format!("{ns}.CoprocessJson.OneOfJson({read}, {at}, {})", string_literal(listed)),
                _ => {}
            }
            format!("{ns}.CoprocessJson.Constant({read}, {at}, {}, {shown})", cs_constant(constant))
        }
        Ty::Pattern { inner, pattern } => {
            let read = read_expecting(contract, inner, value, at, depth, expected);
            let problem = string_literal(&pattern.problem());
            format!("{ns}.CoprocessJson.Matching({read}, {at}, {ns}.Coprocess.Pattern{}, {problem})", pattern.number)
        }
    }
}

/// A `const` as a C# literal of its type.
pub fn cs_constant(constant: &Constant) -> String {
    match constant {
        Constant::String(s) => string_literal(s),
        Constant::Integer(n) => format!("{n}L"),
        Constant::Boolean(b) => b.to_string(),
        // Read as any JSON value and compared by JSON equality to its text.
        Constant::Json(text) => string_literal(text),
        // Read as any JSON value that must equal one of the values (listed as JSON text).
        Constant::OneOf(listed) => string_literal(listed),
    }
}

/// A number's bounds as C# arguments: the minimum, whether it is exclusive, the maximum, whether
/// it is exclusive; an absent bound is an infinity (never exclusive). Each is its text (the
/// shortest digits that read back as the same double) with the `d` suffix, which the compiler
/// reads as that double.
pub fn number_bounds(minimum: Option<NumberBound>, maximum: Option<NumberBound>) -> String {
    let bound = |b: Option<NumberBound>, infinity: &str| match b {
        Some(b) => format!("{}d, {}", b.text(), b.exclusive),
        None => format!("{infinity}, false"),
    };
    format!("{}, {}", bound(minimum, "double.NegativeInfinity"), bound(maximum, "double.PositiveInfinity"))
}

/// A length's bounds as C# arguments: an absent minimum is 0, an absent maximum `long.MaxValue`.
pub fn length_bounds(min: Option<u64>, max: Option<u64>) -> (String, String) {
    (min.unwrap_or(0).to_string(), max.map_or("long.MaxValue".to_string(), |m| m.to_string()))
}

/// The statement writing `value` (of C# type `cs_type(ty)`) to `builder`.
pub fn write_stmt(contract: &Contract, ty: &Ty, value: &str, builder: &str, depth: usize) -> String {
    let ns = crate::targets::dotnet::runtime_ns(contract);
    match ty {
        Ty::Any => format!("{ns}.CoprocessJson.WriteAny({builder}, {value});"),
        Ty::Number { .. } => format!("{ns}.CoprocessJson.WriteNumber({builder}, {value});"),
        Ty::Boolean => format!("{ns}.CoprocessJson.WriteBoolean({builder}, {value});"),
        Ty::Integer { .. } => format!("{ns}.CoprocessJson.WriteInteger({builder}, {value});"),
        Ty::String => format!("{ns}.CoprocessJson.WriteString({builder}, {value});"),
        Ty::Ref(name) => match kind_of(contract, name) {
            Some(TypeKind::StringEnum(_)) => format!("{}.Write({builder}, {value});", enum_wire_name(name)),
            Some(_) => format!("{value}.Write({builder});"),
            None => format!("{}.Write({builder}, {value});", codec(&ns, name)),
        },
        Ty::Array(item) => {
            let (b, v) = (format!("b{depth}"), format!("item{depth}"));
            let inner = write_stmt(contract, item, &v, &b, depth + 1);
            format!("{ns}.CoprocessJson.WriteArray({builder}, {value}, ({b}, {v}) => {{ {inner} }});")
        }
        Ty::Nullable(inner) => {
            let some = if is_value_type(contract, inner) { format!("{value}.Value") } else { value.to_string() };
            let write = write_stmt(contract, inner, &some, builder, depth);
            format!("if ({value} is null) {{ {builder}.Append(\"null\"); }} else {{ {write} }}")
        }
        Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => write_stmt(contract, inner, value, builder, depth),
    }
}

/// `Decode`, `FromJson` and `ToJson` of a class (`reader` holds `Read`).
/// `plain`: the class has a single-pass reader, which `Decode` tries first.
pub fn entry_points(out: &mut Out, def: &TypeDef, class: &str, is_static_writer: bool, plain: bool) {
    let ns = out.ns.clone();
    let name = &def.name;
    summary(out, 2, &format!("Decodes a `{name}` strictly from one frame's JSON text."));
    out.line(2, &format!("/// <exception cref=\"{ns}.CoprocessDecodeException\">The text breaks the JSON-text rules or is not a <c>{name}</c>.</exception>"));
    out.block(2, &format!("public static {class} Decode(string json)"), |out| {
        if plain {
            self::plain::decode_first(out, class);
        }
        fast_then_careful(out, def, class, &format!("{ns}.CoprocessJson.Parse(json)"))
    });
    out.blank();
    summary(out, 2, &format!("Decodes a `{name}` strictly from an already-parsed value (the JSON-text rules are checked on it too)."));
    out.line(2, &format!("/// <exception cref=\"{ns}.CoprocessDecodeException\">The value is not a <c>{name}</c>.</exception>"));
    out.block(2, &format!("public static {class} FromJson(global::System.Text.Json.JsonElement json)"), |out| fast_then_careful(out, def, class, &format!("{ns}.CoprocessJson.Validate(json)")));
    out.blank();
    if is_static_writer {
        summary(out, 2, &format!("Encodes a `{name}` as one line of JSON text (no newline)."));
        out.block(2, &format!("public static string ToJson({class} value)"), |out| {
            out.line(3, "var builder = new global::System.Text.StringBuilder();");
            out.line(3, "Write(builder, value);");
            out.line(3, "return builder.ToString();");
        });
    } else {
        summary(out, 2, "Encodes this value as one line of JSON text (no newline), fields in schema order.");
        out.block(2, "public string ToJson()", |out| {
            out.line(3, "var builder = new global::System.Text.StringBuilder();");
            out.line(3, "Write(builder);");
            out.line(3, "return builder.ToString();");
        });
    }
}

/// The one-pass decode, returning when it is sure; the careful decode after it words the problem.
/// The body of `Decode`/`FromJson`: the one-pass reader, else the careful reader of
/// `source` (the checked JSON value), its problem reported as the type's.
pub fn fast_then_careful(out: &mut Out, def: &TypeDef, class: &str, source: &str) {
    let ns = out.ns.clone();
    fast_first(out, class, "json");
    out.line(3, "try");
    out.line(3, "{");
    out.line(4, &format!("return Read({source}, null, {});", string_literal(expected_of(def))));
    out.line(3, "}");
    out.line(3, &format!("catch ({ns}.CoprocessShapeException problem)"));
    out.line(3, "{");
    out.line(4, &format!("throw problem.For({});", string_literal(&def.name)));
    out.line(3, "}");
}

pub fn fast_first(out: &mut Out, class: &str, input: &str) {
    let ns = out.ns.clone();
    let read = fast::lambda();
    out.block(3, &format!("if ({ns}.CoprocessReader.TryDecode({input}, {read}, out {class} value))"), |out| {
        out.line(4, "return value;");
    });
}

pub fn expected_of(def: &TypeDef) -> &'static str {
    match def.kind {
        TypeKind::StringEnum(_) => "string",
        TypeKind::IntegerOrString => "integer or string",
        _ => "object",
    }
}

pub fn read_signature(ns: &str, class: &str) -> String {
    format!("internal static {class} Read(global::System.Text.Json.JsonElement json, {ns}.CoprocessPath? at, string expected)")
}

pub fn object_reader(out: &mut Out, contract: &Contract, class: &str, object: &ObjectType) {
    let ns = out.ns.clone();
    let any_required = required(object).next().is_some();
    out.block(2, &read_signature(&out.ns, class), |out| {
        out.line(3, &format!("{ns}.CoprocessJson.ExpectObject(json, at, expected);"));
        if any_required {
            out.line(3, "ulong seen = 0;");
        }
        for field in &object.fields {
            let init = if field.required && !matches!(field.ty, Ty::Nullable(_)) { "default!" } else { "null" };
            out.line(3, &format!("{} {} = {init};", field_type(field), local_name(&field.name)));
        }
        out.block(3, "foreach (global::System.Text.Json.JsonProperty member in json.EnumerateObject())", |out| {
            let mut bit = 0;
            for (i, field) in object.fields.iter().enumerate() {
                let at = format!("new {ns}.CoprocessPath(at, {})", string_literal(&field.name));
                let test = format!("member.NameEquals({})", string_literal(&field.name));
                out.block(4, &if i == 0 { format!("if ({test})") } else { format!("else if ({test})") }, |out| {
                    out.line(5, &format!("{} = {};", local_name(&field.name), read_expr(contract, &field.ty, "member.Value", &at, 0)));
                    if field.required {
                        out.line(5, &format!("seen |= 1UL << {bit};"));
                        bit += 1;
                    }
                });
            }
            if object.fields.is_empty() {
                out.line(4, &format!("throw {ns}.CoprocessJson.Unknown(member.Name, at);"));
            } else {
                out.block(4, "else", |out| out.line(5, &format!("throw {ns}.CoprocessJson.Unknown(member.Name, at);")));
            }
        });
        for (bit, field) in required(object).enumerate() {
            out.line(3, &format!("if ((seen & (1UL << {bit})) == 0)"));
            out.line(3, "{");
            out.line(4, &format!("throw {ns}.CoprocessJson.Missing({}, at);", string_literal(&field.name)));
            out.line(3, "}");
        }
        construct_from_locals(out, class, object);
    });
}

/// `return new T(required locals) { Optional = local, ... };` at the decoder's body level.
pub fn construct_from_locals(out: &mut Out, class: &str, object: &ObjectType) {
    construct_into(out, "return", class, object);
}

/// `{into} new T(required locals) { Optional = local, ... };` at the decoder's body level
/// (`into`: `return`, or an assignment such as `value =`).
pub fn construct_into(out: &mut Out, into: &str, class: &str, object: &ObjectType) {
    let args: Vec<String> = required(object).map(|f| local_name(&f.name)).collect();
    let optional: Vec<&Field> = object.fields.iter().filter(|f| !f.required).collect();
    if optional.is_empty() {
        out.line(3, &format!("{into} new {class}({});", args.join(", ")));
    } else {
        out.line(3, &format!("{into} new {class}({})", args.join(", ")));
        out.line(3, "{");
        for field in optional {
            out.line(4, &format!("{} = {},", member_name(&field.name, bare(class)), local_name(&field.name)));
        }
        out.line(3, "};");
    }
}

pub fn object_writer(out: &mut Out, contract: &Contract, class: &str, object: &ObjectType) {
    out.block(2, "internal void Write(global::System.Text.StringBuilder builder)", |out| {
        if object.fields.len() > 1 && object.fields.first().is_some_and(|f| !f.required) {
            out.line(3, "int start = builder.Length;");
        }
        out.line(3, "builder.Append('{');");
        for (i, field) in object.fields.iter().enumerate() {
            let member = member_name(&field.name, bare(class));
            let key = string_literal(&format!("{}:", json_string(&field.name)));
            let key_with_comma = string_literal(&format!(",{}:", json_string(&field.name)));
            let separator = if i == 0 {
                format!("builder.Append({key});")
            } else if object.fields[..i].iter().any(|p| p.required) {
                format!("builder.Append({key_with_comma});")
            } else {
                format!("builder.Append(builder.Length > start + 1 ? {key_with_comma} : {key});")
            };
            let value = if !field.required && is_value_type(contract, &field.ty) { format!("{member}.Value") } else { member.clone() };
            let write = write_stmt(contract, &field.ty, &value, "builder", 0);
            if field.required {
                out.line(3, &separator);
                out.line(3, &write);
            } else {
                out.block(3, &format!("if ({member} != null)"), |out| {
                    out.line(4, &separator);
                    out.line(4, &write);
                });
            }
        }
        out.line(3, "builder.Append('}');");
    });
}

/// A tagged union's reader: `UnionTag` reads the tag member, whose value picks the variant.
fn tagged_union_reader(out: &mut Out, class: &str, member: &str, tags: &[&str], classes: &[String]) {
    let ns = out.ns.clone();
    let listed: Vec<String> = tags.iter().map(|t| json_string(t)).collect();
    let problem = format!("expected one of {}, got ", listed.join(", "));
    let member = string_literal(member);
    out.block(2, &read_signature(&out.ns, class), |out| {
        out.line(3, &format!("{ns}.CoprocessJson.ExpectObject(json, at, expected);"));
        out.line(3, &format!("string tag = {ns}.CoprocessJson.UnionTag(json, at, {member});"));
        out.block(3, "switch (tag)", |out| {
            for (tag, vt) in tags.iter().zip(classes) {
                out.line(4, &format!("case {}:", string_literal(tag)));
                out.line(5, &format!("return new {class}({vt}.Read(json, at, expected));"));
            }
            out.line(4, "default:");
            let at = format!("new {ns}.CoprocessPath(at, {member})");
            out.line(5, &format!("throw new {ns}.CoprocessShapeException({} + {ns}.CoprocessJson.Quote(tag), {at});", string_literal(&problem)));
        });
    });
}

pub fn union_problems(variants: &[UnionVariant]) -> (String, String) {
    let names: Vec<&str> = variants.iter().map(|v| v.discriminator.as_str()).collect();
    if let [a, b] = names.as_slice() {
        (format!("both `{a}` and `{b}`"), format!("neither `{a}` nor `{b}`"))
    } else {
        (format!("more than one of {}", quoted_list(&names)), format!("none of {}", quoted_list(&names)))
    }
}

pub fn union_reader(out: &mut Out, class: &str, variants: &[UnionVariant], classes: &[String]) {
    let ns = out.ns.clone();
    if let Some((member, tags)) = union_tag(variants) {
        return tagged_union_reader(out, class, member, &tags, classes);
    }
    let (both, neither) = union_problems(variants);
    out.block(2, &read_signature(&out.ns, class), |out| {
        out.line(3, &format!("{ns}.CoprocessJson.ExpectObject(json, at, expected);"));
        out.line(3, "int found = 0;");
        out.block(3, "foreach (global::System.Text.Json.JsonProperty member in json.EnumerateObject())", |out| {
            for (i, variant) in variants.iter().enumerate() {
                let test = format!("member.NameEquals({})", string_literal(&variant.discriminator));
                out.block(4, &if i == 0 { format!("if ({test})") } else { format!("else if ({test})") }, |out| {
                    out.line(5, &format!("found |= {};", 1u64 << i));
                });
            }
        });
        out.block(3, "switch (found)", |out| {
            for (i, vt) in classes.iter().enumerate() {
                out.line(4, &format!("case {}:", 1u64 << i));
                out.line(5, &format!("return new {class}({vt}.Read(json, at, expected));"));
            }
            out.line(4, "case 0:");
            out.line(5, &format!("throw new {ns}.CoprocessShapeException({}, at);", string_literal(&neither)));
            out.line(4, "default:");
            out.line(5, &format!("throw new {ns}.CoprocessShapeException({}, at);", string_literal(&both)));
        });
    });
}

/// A [`Ty::Prefix`]'s kinds as the runtime's arguments: `new[] { "boolean",
/// "" }, ""` (`""` for any kind).
pub(super) fn prefix_kinds(kinds: &[Option<String>], rest: Option<&str>) -> String {
    let listed: Vec<String> = kinds.iter().map(|k| string_literal(k.as_deref().unwrap_or(""))).collect();
    format!("new[] {{ {} }}, {}", listed.join(", "), string_literal(rest.unwrap_or("")))
}
