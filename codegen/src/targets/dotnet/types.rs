//! One C# type per `$defs` entry: a sealed class for a closed object, a
//! sealed `Dictionary` subclass for a map, a sealed class holding one variant
//! for a union, an enum plus a `<Name>Wire` companion for a string enum, and a
//! sealed class for an integer-or-string id. Each has `Decode`, `FromJson`,
//! `ToJson` and the internal `Read`/`Write` the other types call.

use super::docs::{summary, summary_xml, xml};
use super::names::{enum_members, enum_wire_name, json_string, member_name, param_name, string_literal, type_name};
use super::codecs::*;
pub use super::mapping::{bare, cref, cs_type, field_type, is_value_type, required};
use super::Out;
use crate::model::{Contract, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

pub fn render(out: &mut Out, contract: &Contract, def: &TypeDef) {
    match &def.kind {
        TypeKind::Object(object) => render_object(out, contract, def, object),
        TypeKind::Map { values, min_members, max_members, names } => render_map(out, contract, def, values, names.as_ref(), (*min_members, *max_members)),
        TypeKind::Union(variants) => render_union(out, contract, def, variants),
        TypeKind::StringEnum(values) => render_enum(out, def, values),
        TypeKind::IntegerOrString => render_id(out, def),
    }
}

// ---------------------------------------------------------------- closed objects

fn render_object(out: &mut Out, contract: &Contract, def: &TypeDef, object: &ObjectType) {
    summary(out, 1, &def.description);
    super::docs::obsolete(out, 1, def.deprecated);
    render_object_as(out, contract, def, object, &type_name(&def.name), None);
}

/// The class of a closed object; `param` makes it generic in that (reference) type parameter.
pub fn render_object_as(out: &mut Out, contract: &Contract, def: &TypeDef, object: &ObjectType, class: &str, param: Option<&str>) {
    let class = class.to_string();
    let constraint = param.map(|p| format!(" where {p} : class")).unwrap_or_default();
    out.block(1, &format!("public sealed class {class}{constraint}"), |out| {
        constructor(out, contract, &class, object);
        for field in &object.fields {
            summary(out, 2, &field.description);
            super::docs::obsolete(out, 2, field.deprecated);
            out.line(2, &format!("public {} {} {{ get; set; }}", field_type(field), member_name(&field.name, bare(&class))));
            out.blank();
        }
        // A typed envelope (`param`) decodes its type parameter through the codec: no plan.
        let plan = match (param, out.plans.get(&def.name)) {
            (None, Some(crate::targets::readers::Plan::Object(members))) => Some(members.clone()),
            _ => None,
        };
        entry_points(out, def, &class, false, plan.is_some());
        out.blank();
        object_reader(out, contract, &class, object);
        out.blank();
        let owner = param.map(|_| type_name(&def.name));
        super::codecs::fast::object_reader(out, contract, &class, object, owner.as_deref());
        out.blank();
        if let Some(members) = plan {
            super::codecs::plain::object_reader(out, contract, &class, object, &members);
            out.blank();
        }
        object_writer(out, contract, &class, object);
    });
}

fn constructor(out: &mut Out, contract: &Contract, class: &str, object: &ObjectType) {
    if required(object).next().is_none() {
        return;
    }
    let params: Vec<String> = required(object).map(|f| format!("{} {}", field_type(f), param_name(&f.name))).collect();
    summary_xml(out, 2, &format!("Creates a <see cref=\"{}\"/> from its required fields.", cref(class)));
    out.block(2, &format!("public {}({})", bare(class), params.join(", ")), |out| {
        for field in required(object) {
            let param = param_name(&field.name);
            let nullable_ref = !is_value_type(contract, &field.ty) && !matches!(field.ty, Ty::Nullable(_));
            let value = if nullable_ref { format!("{param} ?? throw new global::System.ArgumentNullException(nameof({param}))") } else { param };
            out.line(3, &format!("{} = {value};", member_name(&field.name, bare(class))));
        }
    });
    out.blank();
}

// ---------------------------------------------------------------- maps

/// An expression over the string `name` that returns it when it is a
/// member name the map's `propertyNames` allows, and throws the problem
/// otherwise.
fn name_check(ns: &str, ty: &Ty) -> String {
    match ty {
        Ty::Length { min, max, .. } => {
            let (min, max) = super::codecs::length_bounds(*min, *max);
            format!("{ns}.CoprocessJson.CharactersWithin(name, at, {min}, {max})")
        }
        Ty::Pattern { inner, pattern } => format!(
            "{ns}.CoprocessJson.Matching({}, at, {ns}.Coprocess.Pattern{}, {})",
            name_check(ns, inner),
            pattern.number,
            super::names::string_literal(&pattern.problem())
        ),
        _ => "name".to_string(),
    }
}

fn render_map(out: &mut Out, contract: &Contract, def: &TypeDef, value: &Ty, names: Option<&Ty>, members: (Option<u64>, Option<u64>)) {
    let ns = out.ns.clone();
    let class = type_name(&def.name);
    let value_type = cs_type(value);
    summary(out, 1, &def.description);
    super::docs::obsolete(out, 1, def.deprecated);
    out.block(1, &format!("public sealed class {class} : global::System.Collections.Generic.Dictionary<string, {value_type}>"), |out| {
        summary_xml(out, 2, &format!("Creates an empty <see cref=\"{class}\"/>."));
        out.line(2, &format!("public {class}()"));
        out.line(3, ": base(global::System.StringComparer.Ordinal)");
        out.line(2, "{");
        out.line(2, "}");
        out.blank();
        entry_points(out, def, &class, false, false);
        out.blank();
        out.block(2, &read_signature(&out.ns, &class), |out| {
            out.line(3, &format!("{ns}.CoprocessJson.ExpectObject(json, at, expected);"));
            out.line(3, &format!("var result = new {class}();"));
            out.block(3, "foreach (global::System.Text.Json.JsonProperty member in json.EnumerateObject())", |out| {
                let read = read_expr(contract, value, "member.Value", &format!("new {ns}.CoprocessPath(at, member.Name)"), 0);
                out.line(4, &format!("result.Add(member.Name, {read});"));
            });
            if let Some(names) = names {
                out.line(3, &format!("{ns}.CoprocessJson.MemberNames(result.Keys, at, name => {});", name_check(&ns, names)));
            }
            match members {
                (None, None) => out.line(3, "return result;"),
                (min, max) => {
                    let (min, max) = super::codecs::length_bounds(min, max);
                    out.line(3, &format!("return {ns}.CoprocessJson.MembersWithin(result, at, {min}, {max});"));
                }
            }
        });
        out.blank();
        let names = names.map(|names| name_check(&ns, names));
        super::codecs::fast::map_reader(out, contract, &class, value, names.as_deref(), members);
        out.blank();
        out.block(2, "internal void Write(global::System.Text.StringBuilder builder)", |out| {
            out.line(3, "builder.Append('{');");
            out.line(3, "bool first = true;");
            out.block(3, &format!("foreach (global::System.Collections.Generic.KeyValuePair<string, {value_type}> entry in this)"), |out| {
                out.line(4, "if (!first)");
                out.line(4, "{");
                out.line(5, "builder.Append(',');");
                out.line(4, "}");
                out.line(4, "first = false;");
                out.line(4, &format!("{ns}.CoprocessJson.WriteString(builder, entry.Key);"));
                out.line(4, "builder.Append(':');");
                out.line(4, &write_stmt(contract, value, "entry.Value", "builder", 0));
            });
            out.line(3, "builder.Append('}');");
        });
    });
}

// ---------------------------------------------------------------- unions

/// The accessor property of a union variant (`response.ErrorResponse`).
pub fn variant_member(union: &str, variant: &str) -> String {
    member_name(&type_name(variant), &type_name(union))
}

fn render_union(out: &mut Out, contract: &Contract, def: &TypeDef, variants: &[UnionVariant]) {
    summary(out, 1, &def.description);
    super::docs::obsolete(out, 1, def.deprecated);
    let classes: Vec<String> = variants.iter().map(|v| type_name(&v.type_name)).collect();
    render_union_as(out, contract, def, variants, &type_name(&def.name), None, &classes);
}

/// The class of a union whose variants are `classes`; `param` makes it generic in that type parameter.
pub fn render_union_as(out: &mut Out, contract: &Contract, def: &TypeDef, variants: &[UnionVariant], class: &str, param: Option<&str>, classes: &[String]) {
    let class = class.to_string();
    let constraint = param.map(|p| format!(" where {p} : class")).unwrap_or_default();
    out.block(1, &format!("public sealed class {class}{constraint}"), |out| {
        for vt in classes {
            summary_xml(out, 2, &format!("Holds the <see cref=\"{}\"/> variant.", cref(vt)));
            out.block(2, &format!("public {}({vt} value)", bare(&class)), |out| {
                out.line(3, "Value = value ?? throw new global::System.ArgumentNullException(nameof(value));");
            });
            out.blank();
        }
        let list: Vec<String> = classes.iter().map(|vt| format!("<see cref=\"{}\"/>", cref(vt))).collect();
        summary_xml(out, 2, &format!("The variant this value holds: {}.", list.join(" or ")));
        out.line(2, "public object Value { get; }");
        out.blank();
        for (variant, vt) in variants.iter().zip(classes) {
            let vref = cref(vt);
            let which = match &variant.tag {
                Some(tag) => format!("the one whose <c>{}</c> is <c>{}</c>", xml(&variant.discriminator), xml(&json_string(tag))),
                None => format!("the one with <c>{}</c>", xml(&variant.discriminator)),
            };
            summary_xml(out, 2, &format!("The <see cref=\"{vref}\"/> variant ({which}), or null."));
            out.line(2, &format!("public {vt}? {} => Value as {vt};", variant_member(&def.name, &variant.type_name)));
            out.blank();
            summary_xml(out, 2, &format!("Wraps a <see cref=\"{vref}\"/>."));
            out.line(2, &format!("public static implicit operator {class}({vt} value) => new {class}(value);"));
            out.blank();
        }
        let plan = match (param, out.plans.get(&def.name)) {
            (None, Some(crate::targets::readers::Plan::Union(read))) => Some(read.clone()),
            _ => None,
        };
        entry_points(out, def, &class, false, plan.is_some());
        out.blank();
        union_reader(out, &class, variants, classes);
        out.blank();
        let early = super::codecs::fast::first_discriminator_decides(contract, variants);
        let owner = param.map(|_| type_name(&def.name));
        super::codecs::fast::union_reader(out, &class, variants, classes, early, owner.as_deref());
        out.blank();
        if let Some(read) = plan {
            super::codecs::plain::union_reader(out, contract, &class, &read);
            out.blank();
        }
        out.block(2, "internal void Write(global::System.Text.StringBuilder builder)", |out| {
            out.block(3, "switch (Value)", |out| {
                for (i, vt) in classes.iter().enumerate() {
                    out.line(4, &format!("case {vt} variant{i}:"));
                    out.line(5, &format!("variant{i}.Write(builder);"));
                    out.line(5, "break;");
                }
            });
        });
    });
}

// ---------------------------------------------------------------- string enums

fn render_enum(out: &mut Out, def: &TypeDef, values: &[String]) {
    let ns = out.ns.clone();
    let class = type_name(&def.name);
    let wire = enum_wire_name(&def.name);
    let members = enum_members(values);
    summary(out, 1, &def.description);
    super::docs::obsolete(out, 1, def.deprecated);
    out.block(1, &format!("public enum {class}"), |out| {
        for (value, member) in values.iter().zip(&members) {
            summary(out, 2, &format!("The wire value `{value}`."));
            out.line(2, &format!("{member},"));
        }
    });
    out.blank();
    summary_xml(out, 1, &format!("The strict decoder and the encoder of <see cref=\"{class}\"/>."));
    out.block(1, &format!("public static class {wire}"), |out| {
        summary(out, 2, "The value as it is written on the wire.");
        out.block(2, &format!("public static string ToWireString(this {class} value)"), |out| {
            out.block(3, "switch (value)", |out| {
                for (value, member) in values.iter().zip(&members) {
                    out.line(4, &format!("case {class}.{member}:"));
                    out.line(5, &format!("return {};", string_literal(value)));
                }
                out.line(4, "default:");
                out.line(5, "throw new ArgumentOutOfRangeException(nameof(value));");
            });
        });
        out.blank();
        entry_points(out, def, &class, true, false);
        out.blank();
        let problem = if let [only] = values {
            format!("expected {}, got ", json_string(only))
        } else {
            let list: Vec<String> = values.iter().map(|v| json_string(v)).collect();
            format!("expected one of {}, got ", list.join(", "))
        };
        out.block(2, &read_signature(&out.ns, &class), |out| {
            out.block(3, "if (json.ValueKind != global::System.Text.Json.JsonValueKind.String)", |out| {
                out.line(4, &format!("throw {ns}.CoprocessJson.Mismatch(json, at, expected);"));
            });
            for (value, member) in values.iter().zip(&members) {
                out.block(3, &format!("if (json.ValueEquals({}))", string_literal(value)), |out| {
                    out.line(4, &format!("return {class}.{member};"));
                });
            }
            let got = &format!("{ns}.CoprocessJson.Quote(json.GetString() ?? string.Empty)");
            out.line(3, &format!("throw new {ns}.CoprocessShapeException({} + {got}, at);", string_literal(&problem)));
        });
        out.blank();
        super::codecs::fast::enum_reader(out, &class, values);
        out.blank();
        out.block(2, &format!("internal static void Write(global::System.Text.StringBuilder builder, {class} value)"), |out| {
            out.line(3, &format!("{ns}.CoprocessJson.WriteString(builder, value.ToWireString());"));
        });
    });
}

// ---------------------------------------------------------------- integer-or-string ids

fn render_id(out: &mut Out, def: &TypeDef) {
    let ns = out.ns.clone();
    let class = type_name(&def.name);
    summary(out, 1, &def.description);
    super::docs::obsolete(out, 1, def.deprecated);
    out.block(1, &format!("public sealed class {class}"), |out| {
        summary(out, 2, "An integer id.");
        out.block(2, &format!("public {class}(long integer)"), |out| out.line(3, "Integer = integer;"));
        out.blank();
        summary(out, 2, "A string id.");
        out.block(2, &format!("public {class}(string text)"), |out| {
            out.line(3, "Text = text ?? throw new global::System.ArgumentNullException(nameof(text));");
        });
        out.blank();
        summary(out, 2, "The id when it is an integer, else null.");
        out.line(2, "public long? Integer { get; }");
        out.blank();
        summary(out, 2, "The id when it is a string, else null.");
        out.line(2, "public string? Text { get; }");
        out.blank();
        summary(out, 2, "An integer id.");
        out.line(2, &format!("public static implicit operator {class}(long integer) => new {class}(integer);"));
        out.blank();
        summary(out, 2, "A string id.");
        out.line(2, &format!("public static implicit operator {class}(string text) => new {class}(text);"));
        out.blank();
        summary(out, 2, "The id as text (an integer in invariant digits).");
        out.line(2, "public override string ToString() => Text ?? (Integer ?? 0).ToString(global::System.Globalization.CultureInfo.InvariantCulture);");
        out.blank();
        entry_points(out, def, &class, false, false);
        out.blank();
        out.block(2, &read_signature(&out.ns, &class), |out| {
            out.block(3, "if (json.ValueKind == global::System.Text.Json.JsonValueKind.String)", |out| {
                out.line(4, &format!("return new {class}(json.GetString() ?? string.Empty);"));
            });
            out.block(3, &format!("if (!{ns}.CoprocessJson.TryReadInteger(json, out long integer))"), |out| {
                out.line(4, &format!("throw {ns}.CoprocessJson.Mismatch(json, at, expected);"));
            });
            out.line(3, &format!("return new {class}(integer);"));
        });
        out.blank();
        super::codecs::fast::id_reader(out, &class);
        out.blank();
        out.block(2, "internal void Write(global::System.Text.StringBuilder builder)", |out| {
            out.block(3, "if (Text != null)", |out| out.line(4, &format!("{ns}.CoprocessJson.WriteString(builder, Text);")));
            out.block(3, "else", |out| out.line(4, &format!("{ns}.CoprocessJson.WriteInteger(builder, Integer ?? 0);")));
        });
    });
}
