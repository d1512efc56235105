//! The private strict decoders, one per `$defs` entry, and the public
//! `decode(typeName, json)` dispatch over every type.

use super::layout::Code;
use super::names::{flag_name, java_type, json_quote, local_name, string_literal, type_name};
use super::types::{component_type, Generic};
use crate::model::{union_tag, Constant, Contract, NumberBound, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

/// The `TYPE_NAMES` list and the `decode` dispatch.
pub fn render_dispatch(code: &mut Code, contract: &Contract) {
    code.blank();
    code.doc(
        1,
        "Every type name of the schema (its `$defs` keys), sorted: what `decode` accepts.",
        &[],
    );
    let names: Vec<String> = contract.types.keys().map(|n| string_literal(n)).collect();
    code.line(1, format!("public static final List<String> TYPE_NAMES = List.of({});", names.join(", ")));
    code.blank();
    code.doc(
        1,
        "Decodes one frame of strict JSON text as the type named `typeName` (a `$defs` key of the schema).",
        &[
            ("param", "typeName".into(), "one of `TYPE_NAMES`".into()),
            ("param", "json".into(), "the frame text, without the line terminator".into()),
            ("return", String::new(), "the decoded value, ready to be encoded again".into()),
            ("throws", "DecodeException".into(), "when the text is not strict JSON or not of that type".into()),
            ("throws", "IllegalArgumentException".into(), "when no type has that name".into()),
        ],
    );
    code.line(
        1,
        "public static Encodable decode(String typeName, String json) {",
    );
    code.line(2, "return switch (typeName) {");
    for name in contract.types.keys() {
        code.line(
            3,
            format!(
                "case {} -> {}.fromJson(json);",
                string_literal(name),
                type_name(name)
            ),
        );
    }
    code.line(
        3,
        "default -> throw new IllegalArgumentException(\"unknown type `\" + typeName + \"`\");",
    );
    code.line(2, "};");
    code.line(1, "}");
}

/// One private decoder per type, in name order.
pub fn render_decoders(code: &mut Code, contract: &Contract) {
    // Each distinct `pattern`, compiled once in java.util.regex's syntax
    // (with a `Matcher` per thread).
    for pattern in contract.patterns() {
        code.blank();
        code.doc(1, &format!("The pattern `{}`.", pattern.display()), &[]);
        let regex = string_literal(&pattern.render(crate::pattern::Dialect::Java));
        code.line(1, format!("private static final Regex PATTERN_{} = new Regex({regex});", pattern.number));
    }
    for def in contract.types.values() {
        code.blank();
        let name = type_name(&def.name);
        code.line(
            1,
            format!("private static {name} decode{name}(JsonNode node, Path path) {{"),
        );
        match &def.kind {
            TypeKind::Object(object) => decode_object(code, &name, object, None),
            TypeKind::Map { values, min_members: None, max_members: None, names: None } => {
                let read = read_map(values);
                code.line(2, format!("return new {name}({read});"));
            }
            TypeKind::Map { values, min_members, max_members, names } => {
                // The names are checked after the values are read, then the
                // members are counted.
                let (kind, local, keys) = match values {
                    Ty::Any => ("ObjectNode".to_string(), "object", "object::fieldNames"),
                    value => (format!("Map<String, {}>", java_type(value, true)), "entries", "entries.keySet()"),
                };
                code.line(2, format!("{kind} {local} = {};", read_map(values)));
                if let Some(names) = names {
                    code.line(2, format!("memberNames({keys}, path, {});", decoder_lambda(names, 1)));
                }
                if min_members.is_some() || max_members.is_some() {
                    let (min, max) = count_bounds(*min_members, *max_members);
                    code.line(2, format!("lengthWithin(path, {local}.size(), {min}, {max}, \"member\");"));
                }
                code.line(2, format!("return new {name}({local});"));
            }
            TypeKind::Union(variants) => decode_union(code, variants, &|v| {
                format!("decode{}(object, path)", type_name(&v.type_name))
            }),
            TypeKind::StringEnum(values) => decode_enum(code, def, values),
            TypeKind::IntegerOrString => {
                code.line(2, "if (node.isTextual()) {");
                code.line(3, format!("return new {name}.OfString(node.textValue());"));
                code.line(2, "}");
                code.line(2, format!("return new {name}.OfInteger(integerValue(node, path, \"integer or string\"));"));
            }
        }
        code.line(1, "}");
    }
}

/// A count's bounds as arguments: an absent minimum is 0, an absent maximum `Long.MAX_VALUE`.
fn count_bounds(min: Option<u64>, max: Option<u64>) -> (String, String) {
    (min.unwrap_or(0).to_string(), max.map_or("Long.MAX_VALUE".to_string(), |m| m.to_string()))
}

/// A Java expression reading `node` at `path` as a map with `values`: any
/// JSON object stays Jackson's tree, typed values become a `Map`.
fn read_map(values: &Ty) -> String {
    match values {
        Ty::Any => "expectObject(node, path)".to_string(),
        value => format!("decodeMap(node, path, {})", decoder_lambda(value, 1)),
    }
}

/// A Java expression decoding `node` at `path` as `ty`.
fn decode_expr(ty: &Ty, node: &str, path: &str, depth: usize) -> String {
    match ty {
        Ty::Any => node.to_string(),
        Ty::Number { minimum: None, maximum: None } => format!("decodeNumber({node}, {path})"),
        // One helper for every bound too, an infinity standing for an absent one.
        Ty::Number { minimum, maximum } => {
            let side = |bound: &Option<NumberBound>, is_minimum: bool| match bound {
                Some(b) => format!("{}, {}", string_literal(b.operator(is_minimum)), double_literal(b.value)),
                None if is_minimum => "\">=\", Double.NEGATIVE_INFINITY".to_string(),
                None => "\"<=\", Double.POSITIVE_INFINITY".to_string(),
            };
            format!("numberWithin({node}, {path}, {}, {})", side(minimum, true), side(maximum, false))
        }
        Ty::Boolean => format!("decodeBoolean({node}, {path})"),
        Ty::Integer { minimum: None, maximum: None } => format!("decodeInteger({node}, {path})"),
        // One helper for every bound, so that every schema with a bound uses
        // it (the pruner keeps a helper whose name the schema's code mentions).
        Ty::Integer { minimum, maximum } => {
            let min = minimum.map_or("Long.MIN_VALUE".to_string(), |m| format!("{m}L"));
            let max = maximum.map_or("Long.MAX_VALUE".to_string(), |m| format!("{m}L"));
            format!("integerWithin({node}, {path}, {min}, {max})")
        }
        Ty::String => format!("decodeString({node}, {path})"),
        Ty::Ref(name) => format!("decode{}({node}, {path})", type_name(name)),
        Ty::Array(item) => format!(
            "decodeList({node}, {path}, {})",
            decoder_lambda(item, depth)
        ),
        Ty::Nullable(inner) => format!(
            "decodeNullable({node}, {path}, {})",
            decoder_lambda(inner, depth)
        ),
        Ty::Length { inner, min, max } => {
            let (min, max) = count_bounds(*min, *max);
            match inner.as_ref() {
                Ty::Array(_) => format!("itemsWithin({}, {path}, {min}, {max})", decode_expr(inner, node, path, depth)),
                _ => format!("stringWithin({node}, {path}, {min}, {max})"),
            }
        }
        Ty::Unique(inner) if inner.unique_by_json() => format!("uniqueJson({}, {path})", decode_expr(inner, node, path, depth)),
        Ty::Unique(inner) if inner.unique_by_read() => format!("uniqueRead({}, {node}, {path})", decode_expr(inner, node, path, depth)),
        Ty::Unique(inner) => format!("uniqueItems({}, {path})", decode_expr(inner, node, path, depth)),
        Ty::Prefix { inner, kinds, rest } => {
            let kinds: Vec<String> = kinds.iter().map(|k| string_literal(k.as_deref().unwrap_or(""))).collect();
            let rest = string_literal(rest.as_deref().unwrap_or(""));
            format!("prefixKinds({}, {path}, List.of({}), {rest})", decode_expr(inner, node, path, depth), kinds.join(", "))
        }
        Ty::Multiple { inner, divisor } if matches!(**inner, Ty::Number { .. }) => {
            format!("numberMultipleOf({}, {path}, {}L, {})", decode_expr(inner, node, path, depth), divisor.digits, divisor.exponent)
        }
        Ty::Multiple { inner, divisor } => format!("multipleOf({}, {path}, {divisor}L)", decode_expr(inner, node, path, depth)),
        Ty::Const { inner, value } => {
            let literal = match value {
                Constant::String(s) => string_literal(s),
                Constant::Integer(n) => format!("{n}L"),
                Constant::Boolean(b) => b.to_string(),
                Constant::Json(text) => return format!("constantJson({}, {path}, {})", decode_expr(inner, node, path, depth), string_literal(text)),
                Constant::OneOf(listed) if **inner == Ty::Any => {
                    return format!("oneOfJson({}, {path}, {})", decode_expr(inner, node, path, depth), string_literal(listed))
                }
                // Checked as any JSON value, then read as its kind.
                Constant::OneOf(listed) => {
                    let checked = format!("oneOfJson({}, {path}, {})", decode_expr(&Ty::Any, node, path, depth), string_literal(listed));
                    return decode_expr(inner, &checked, path, depth);
                }
            };
            format!("constant({}, {path}, {literal}, {})", decode_expr(inner, node, path, depth), string_literal(&value.json()))
        }
        Ty::Pattern { inner, pattern } => format!(
            "matching({}, {path}, PATTERN_{}, {})",
            decode_expr(inner, node, path, depth),
            pattern.number,
            string_literal(&pattern.problem())
        ),
    }
}

/// A finite double as a Java `double` literal that reads back as it: the
/// shortest digits (`0.0`, `-273.15`, `1.5e-7`, `1.5e300`), or a hexadecimal
/// literal (`0x1.b1ae4d6e2ef5p69`) where Java 17's `Double.toString` prints
/// other digits than the shortest (subnormals, and around 1e16 to 1e26:
/// `Double.toString(2e23)` is `1.9999999999999998E23`), which Error Prone's
/// FloatingPointLiteralPrecision would flag as a literal that loses precision.
fn double_literal(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude != 0.0 && (magnitude < f64::MIN_POSITIVE || (1e16..1e30).contains(&magnitude)) {
        let bits = value.to_bits();
        let sign = if value < 0.0 { "-" } else { "" };
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let fraction = format!("{:013x}", bits & ((1 << 52) - 1));
        let fraction = fraction.trim_end_matches('0');
        let fraction = if fraction.is_empty() { "0" } else { fraction };
        // A subnormal is 0.fraction × 2^-1022, a normal double 1.fraction × 2^(biased - 1023).
        let (lead, exponent) = if biased == 0 { (0, -1022) } else { (1, biased - 1023) };
        return format!("{sign}0x{lead}.{fraction}p{exponent}");
    }
    // Rust's `{:?}` writes the shortest round-trip digits, with a `.0` or an
    // exponent, so the literal is a double's, never an int's.
    format!("{value:?}")
}

/// A `Decoder<T>` for `ty`: a method reference where one fits, else a lambda
/// whose parameters are numbered by nesting depth.
fn decoder_lambda(ty: &Ty, depth: usize) -> String {
    match ty {
        Ty::Boolean => return "Coprocess::decodeBoolean".to_string(),
        Ty::String => return "Coprocess::decodeString".to_string(),
        Ty::Integer { minimum: None, maximum: None } => return "Coprocess::decodeInteger".to_string(),
        Ty::Number { minimum: None, maximum: None } => return "Coprocess::decodeNumber".to_string(),
        Ty::Ref(name) => return format!("Coprocess::decode{}", type_name(name)),
        _ => {}
    }
    let (n, p) = (format!("n{depth}"), format!("p{depth}"));
    format!("({n}, {p}) -> {}", decode_expr(ty, &n, &p, depth + 1))
}

/// The body of an object's decoder; `ctor` is what follows `new`. With a
/// `generic` component, that member is read by the `Decoder` named `reader`.
pub fn decode_object(code: &mut Code, ctor: &str, object: &ObjectType, generic: Option<&Generic>) {
    code.line(2, "ObjectNode object = expectObject(node, path);");
    if object.fields.is_empty() {
        code.line(2, "if (!object.isEmpty()) {");
        code.line(3, "throw unknownField(path, object.fieldNames().next());");
        code.line(2, "}");
        code.line(2, format!("return new {ctor}();"));
        return;
    }
    for f in &object.fields {
        let initial = match (component_type(f, generic).as_str(), f.required) {
            ("boolean", true) => "false",
            ("long", true) => "0L",
            ("double", true) => "0.0",
            _ => "null",
        };
        code.line(
            2,
            format!("{} {} = {initial};", component_type(f, generic), local_name(&f.name)),
        );
        if f.required {
            code.line(2, format!("boolean {} = false;", flag_name(&f.name)));
        }
    }
    code.line(
        2,
        "for (Map.Entry<String, JsonNode> member : object.properties()) {",
    );
    code.line(3, "String key = member.getKey();");
    code.line(3, "JsonNode value = member.getValue();");
    // The member's path, made once for all the checks that may name it.
    code.line(3, "Path at = path.key(key);");
    code.line(3, "switch (key) {");
    for f in &object.fields {
        let expr = match generic {
            Some(g) if g.types(f) => "reader.decode(value, at)".to_string(),
            _ => decode_expr(&f.ty, "value", "at", 1),
        };
        let assign = format!("{} = {expr};", local_name(&f.name));
        if f.required {
            code.line(4, format!("case {} -> {{", string_literal(&f.name)));
            code.line(5, assign);
            code.line(5, format!("{} = true;", flag_name(&f.name)));
            code.line(4, "}");
        } else {
            code.line(4, format!("case {} -> {assign}", string_literal(&f.name)));
        }
    }
    code.line(4, "default -> throw unknownField(path, key);");
    code.line(3, "}");
    code.line(2, "}");
    for f in object.fields.iter().filter(|f| f.required) {
        code.line(2, format!("if (!{}) {{", flag_name(&f.name)));
        code.line(
            3,
            format!("throw missingField(path, {});", string_literal(&f.name)),
        );
        code.line(2, "}");
    }
    let args: Vec<String> = object.fields.iter().map(|f| local_name(&f.name)).collect();
    code.line(2, format!("return new {ctor}({});", args.join(", ")));
}

/// Variant flags: `hasResult`, numbered if two discriminators convert alike.
fn variant_flags(variants: &[UnionVariant]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, v) in variants.iter().enumerate() {
        let flag = flag_name(&v.discriminator);
        out.push(if out.contains(&flag) {
            format!("{flag}{i}")
        } else {
            flag
        });
    }
    out
}

/// The union problems, as docs/targets.md words them.
fn union_messages(variants: &[UnionVariant]) -> (String, String) {
    let names: Vec<String> = variants
        .iter()
        .map(|v| format!("`{}`", v.discriminator))
        .collect();
    if let [a, b] = names.as_slice() {
        (format!("both {a} and {b}"), format!("neither {a} nor {b}"))
    } else {
        (
            format!("more than one of {}", names.join(", ")),
            format!("none of {}", names.join(", ")),
        )
    }
}

/// The body of a union's decoder; `read` gives the expression that decodes
/// `object` (at `path`) as a variant.
pub fn decode_union(code: &mut Code, variants: &[UnionVariant], read: &dyn Fn(&UnionVariant) -> String) {
    if let Some((member, tags)) = union_tag(variants) {
        return decode_tagged_union(code, variants, member, &tags, read);
    }
    let flags = variant_flags(variants);
    let (several, none) = union_messages(variants);
    code.line(2, "ObjectNode object = expectObject(node, path);");
    for (v, flag) in variants.iter().zip(&flags) {
        code.line(
            2,
            format!(
                "boolean {flag} = object.has({});",
                string_literal(&v.discriminator)
            ),
        );
    }
    let count: Vec<String> = flags.iter().map(|f| format!("({f} ? 1 : 0)")).collect();
    code.line(2, format!("if ({} > 1) {{", count.join(" + ")));
    code.line(
        3,
        format!("throw problem(path, {});", string_literal(&several)),
    );
    code.line(2, "}");
    for (v, flag) in variants.iter().zip(&flags) {
        code.line(2, format!("if ({flag}) {{"));
        code.line(3, format!("return {};", read(v)));
        code.line(2, "}");
    }
    code.line(
        2,
        format!("throw problem(path, {});", string_literal(&none)),
    );
}

/// A tagged union's decoder body: `unionTag` reads the tag member, whose
/// value picks the variant.
fn decode_tagged_union(code: &mut Code, variants: &[UnionVariant], member: &str, tags: &[&str], read: &dyn Fn(&UnionVariant) -> String) {
    let quoted: Vec<String> = tags.iter().map(|t| json_quote(t)).collect();
    let expected = format!("expected one of {}, got ", quoted.join(", "));
    let member = string_literal(member);
    code.line(2, "ObjectNode object = expectObject(node, path);");
    code.line(2, format!("String tag = unionTag(object, path, {member});"));
    code.line(2, "return switch (tag) {");
    for (variant, tag) in variants.iter().zip(tags) {
        code.line(3, format!("case {} -> {};", string_literal(tag), read(variant)));
    }
    code.line(
        3,
        format!(
            "default -> throw problem(path.key({member}), {} + quote(tag));",
            string_literal(&expected)
        ),
    );
    code.line(2, "};");
}

fn decode_enum(code: &mut Code, def: &TypeDef, values: &[String]) {
    let name = type_name(&def.name);
    let constants = super::names::enum_constants(values);
    let quoted: Vec<String> = values.iter().map(|v| json_quote(v)).collect();
    let expected = if let [only] = quoted.as_slice() {
        format!("expected {only}, got ")
    } else {
        format!("expected one of {}, got ", quoted.join(", "))
    };
    code.line(2, "String value = decodeString(node, path);");
    code.line(2, "return switch (value) {");
    for (constant, value) in constants.iter().zip(values) {
        code.line(
            3,
            format!("case {} -> {name}.{constant};", string_literal(value)),
        );
    }
    code.line(
        3,
        format!(
            "default -> throw problem(path, {} + quote(value));",
            string_literal(&expected)
        ),
    );
    code.line(2, "};");
}

#[cfg(test)]
mod tests {
    use super::double_literal;

    #[test]
    fn a_bound_is_a_double_literal_javac_and_error_prone_read_as_it() {
        let cases = [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (-273.15, "-273.15"),
            (1.5e-7, "1.5e-7"),
            (1000.5, "1000.5"),
            (1e15, "1000000000000000.0"),
            (1e30, "1e30"),
            (f64::MAX, "1.7976931348623157e308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (1e21, "0x1.b1ae4d6e2ef5p69"),
            (-2e23, "-0x1.52d02c7e14af6p77"),
            (1e16, "0x1.1c37937e08p53"),
            (5e-324, "0x0.0000000000001p-1022"),
        ];
        for (value, literal) in cases {
            assert_eq!(double_literal(value), literal, "{value:e}");
        }
    }
}
