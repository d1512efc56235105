//! The strict decoder and the encoder of every type, their public entry points
//! and the by-name registry (`CODECS`). The quick path of a closed object's
//! reader is in [`quick`].

pub(super) mod in_place;
pub(super) mod quick;

use self::quick::{local, Quick};
use super::docs::docstring;
use super::layout::{collection, exploded, fit, flat, flat_collection, statement, string, Out};
use super::names::{field, is_plain, stem, upper};
use super::types::constructor_order;
use super::docs::comment;
use crate::pattern::Dialect;
use crate::model::{union_tag, Constant, Contract, Field, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

pub fn render(contract: &Contract, out: &mut Out) {
    patterns(contract, out);
    let in_place = in_place::python_plans(contract);
    for def in contract.types.values() {
        reader(contract, def, out);
        writer(contract, def, out);
        public(contract, def, in_place.contains_key(&def.name), out);
        in_place::render(contract, &in_place, &def.name, out);
    }
    field_tables(contract, out);
    registry(contract, &in_place, out);
}

/// Each distinct `pattern`, compiled once in `re`'s syntax, with the problem
/// a string it finds no match in gets.
fn patterns(contract: &Contract, out: &mut Out) {
    for pattern in contract.patterns() {
        let regex = format!("re.compile(r\"{}\")", pattern.render(Dialect::Python));
        out.blank(2);
        out.line(&comment(0, &format!("The pattern {}.", pattern.display())));
        out.line(&collection(0, &format!("_PATTERN_{}: typing.Final = (", pattern.number), &[regex, string(&pattern.problem())], ""));
    }
}

/// The Python type a decoder returns and an encoder takes.
fn value_type(def: &TypeDef) -> String {
    def.name.clone()
}

/// What `*_to_value` returns: a dict for objects and maps, else any JSON value.
fn json_type(def: &TypeDef) -> &'static str {
    match def.kind {
        TypeKind::Object(_) | TypeKind::Map { .. } | TypeKind::Union(_) => "dict[str, JsonValue]",
        _ => "JsonValue",
    }
}

/// A callable expression decoding a value of `ty`.
fn decoder(ty: &Ty) -> String {
    match ty {
        Ty::Any => "_any".to_string(),
        Ty::Number { minimum: None, maximum: None } => "_float".to_string(),
        Ty::Number { .. } => format!("lambda v: {}", decode_expr(ty, "v")),
        Ty::Boolean => "_bool".to_string(),
        Ty::Integer { minimum: None, maximum: None } => "_int".to_string(),
        Ty::Integer { .. } => format!("lambda v: {}", decode_expr(ty, "v")),
        Ty::String => "_str".to_string(),
        Ty::Ref(name) => format!("_read_{}", stem(name)),
        Ty::Array(item) => format!("lambda v: _array(v, {})", decoder(item)),
        Ty::Nullable(inner) => format!("lambda v: _nullable(v, {})", decoder(inner)),
        Ty::Length { .. } | Ty::Unique(_) | Ty::Prefix { .. } | Ty::Multiple { .. } | Ty::Pattern { .. } | Ty::Const { .. } => {
            format!("lambda v: {}", decode_expr(ty, "v"))
        }
    }
}

/// An expression for the JSON value of `expr`, of type `ty`.
pub(super) fn encoded(contract: &Contract, ty: &Ty, expr: &str, depth: usize) -> String {
    if is_plain(contract, ty) {
        return expr.to_string();
    }
    match ty.unbounded() {
        Ty::Ref(name) => format!("{}_to_value({expr})", stem(name)),
        Ty::Array(item) if is_plain(contract, item) => format!("list({expr})"),
        Ty::Array(item) => {
            let var = if depth == 0 { "item".to_string() } else { format!("item{depth}") };
            format!("[{} for {var} in {expr}]", encoded(contract, item, &var, depth + 1))
        }
        Ty::Nullable(inner) => {
            format!("None if {expr} is None else {}", encoded(contract, inner, expr, depth))
        }
        _ => expr.to_string(),
    }
}

fn reader(contract: &Contract, def: &TypeDef, out: &mut Out) {
    let name = &def.name;
    let mut body = Out::default();
    match &def.kind {
        TypeKind::Object(object) => {
            if let Some(count) = read_object(contract, def, object, &mut body) {
                out.blank(2);
                out.line(&format!("{}: typing.Final = {count}", quick::required_constant(def)));
            }
        }
        TypeKind::Map { values, min_members, max_members, names } => {
            let read = match values {
                Ty::Any => "_object(value)".to_string(),
                ty => format!("_map(value, {})", decoder(ty)),
            };
            let read = match names {
                Some(names) => format!("_member_names({read}, lambda name: {})", decode_expr(names, "name")),
                None => read,
            };
            match (min_members, max_members) {
                (None, None) => body.line(&format!("    return {read}")),
                (min, max) => body.line(&fit(4, "return _members_within(", &[read, count_bound(*min), count_bound(*max)], "")),
            }
        }
        TypeKind::Union(variants) => read_union(variants, &mut body),
        TypeKind::StringEnum(_) => {
            let call = format!("_enum(value, {}_VALUES)", upper(name));
            body.line(&fit(4, "return typing.cast(", &[string(name), call], ""));
        }
        TypeKind::IntegerOrString => body.line("    return _int_or_str(value)"),
    }
    out.blank(2);
    out.line(&fit(0, &format!("def _read_{}(", stem(name)), &["value: JsonValue".to_string()], &format!(" -> {}:", value_type(def))));
    out.append(body);
}

/// A bound on a count as an argument: the count, or `None` for no bound.
fn count_bound(bound: Option<u64>) -> String {
    bound.map_or("None".to_string(), |n| n.to_string())
}

/// An expression decoding `expr` as a value of `ty`.
fn decode_expr(ty: &Ty, expr: &str) -> String {
    match ty {
        Ty::Any => expr.to_string(),
        Ty::Number { minimum, maximum } => {
            // The minimum first, then the maximum, each on the double.
            let low = minimum.map(|b| (if b.exclusive { "_float_above" } else { "_float_at_least" }, b.value));
            let high = maximum.map(|b| (if b.exclusive { "_float_below" } else { "_float_at_most" }, b.value));
            [low, high].into_iter().flatten().fold(format!("_float({expr})"), |inner, (check, bound)| {
                format!("{check}({inner}, {})", float_literal(bound))
            })
        }
        Ty::Boolean => format!("_bool({expr})"),
        Ty::Integer { minimum: None, maximum: None } => format!("_int({expr})"),
        Ty::Integer { minimum: Some(min), maximum: None } => format!("_int_at_least({expr}, {min})"),
        Ty::Integer { minimum, maximum: Some(max) } => {
            let min = minimum.map_or("None".to_string(), |m| m.to_string());
            format!("_int_within({expr}, {min}, {max})")
        }
        Ty::String => format!("_str({expr})"),
        Ty::Ref(name) => format!("_read_{}({expr})", stem(name)),
        Ty::Array(item) => format!("_array({expr}, {})", decoder(item)),
        Ty::Nullable(inner) => format!("_nullable({expr}, {})", decoder(inner)),
        Ty::Length { inner, min, max } => {
            let (min, max) = (count_bound(*min), count_bound(*max));
            match inner.as_ref() {
                Ty::Array(item) => format!("_array_within({expr}, {}, {min}, {max})", decoder(item)),
                _ => format!("_str_within({expr}, {min}, {max})"),
            }
        }
        Ty::Unique(inner) if inner.unique_by_json() => format!("_unique_json({})", decode_expr(inner, expr)),
        Ty::Unique(inner) if inner.unique_by_read() => format!("_unique_read({}, {expr})", decode_expr(inner, expr)),
        Ty::Unique(inner) => format!("_unique({})", decode_expr(inner, expr)),
        Ty::Prefix { inner, kinds, rest } => {
            let kinds: Vec<String> = kinds.iter().map(|k| string(k.as_deref().unwrap_or(""))).collect();
            // A tuple of one needs its comma.
            let kinds = if kinds.len() == 1 { format!("{},", kinds[0]) } else { kinds.join(", ") };
            format!("_prefix_kinds({}, ({kinds}), {})", decode_expr(inner, expr), string(rest.as_deref().unwrap_or("")))
        }
        Ty::Multiple { inner, divisor } if matches!(**inner, Ty::Number { .. }) => {
            format!("_float_multiple_of({}, {}, {})", decode_expr(inner, expr), divisor.digits, divisor.exponent)
        }
        Ty::Multiple { inner, divisor } => format!("_multiple_of({}, {divisor})", decode_expr(inner, expr)),
        Ty::Pattern { inner, pattern } => format!("_matching({}, _PATTERN_{})", decode_expr(inner, expr), pattern.number),
        Ty::Const { inner, value } => {
            let literal = match value {
                Constant::String(s) => string(s),
                Constant::Integer(n) => n.to_string(),
                Constant::Boolean(b) => if *b { "True" } else { "False" }.to_string(),
                Constant::Json(text) => return format!("_constant_json({}, {})", decode_expr(inner, expr), string(text)),
                // Checked as any JSON value, then read as its kind.
                Constant::OneOf(listed) => return decode_expr(inner, &format!("_one_of_json({expr}, {})", string(listed))),
            };
            format!("_constant({}, {literal}, {})", decode_expr(inner, expr), string(&value.json()))
        }
    }
}

/// A Python float literal that reads back as `value` (`0.0`, `-273.15`,
/// `1.5e-7`, `1e21`): Rust's shortest round-trip digits, always with a point
/// or an exponent, so never an `int`.
pub(super) fn float_literal(value: f64) -> String {
    format!("{value:?}")
}

/// The reader of a closed object. Its quick path reads the members into locals
/// and, when the guards and checks hold, builds the dataclass from the object as
/// it is (or from its members, each decoded that has no check); a problem there
/// is re-found, with its path, by `problem` in document order. Anything else
/// (a wrong kind, an undeclared or missing member, a value to convert) is read
/// member by member by the shape. Returns the number of required members
/// when the quick path compares the object's size with it by name
/// ([`quick::required_constant`]), which the reader then declares.
fn read_object(contract: &Contract, def: &TypeDef, object: &ObjectType, out: &mut Out) -> Option<usize> {
    let shape = format!("_{}_SHAPE", upper(&def.name));
    if object.fields.is_empty() {
        out.line(&format!("    {shape}.members(value)"));
        out.line(&format!("    return _new({})", def.name));
        return None;
    }
    let constant = quick::required_constant(def);
    let guards = quick::guards(object, &shape, &constant);
    let mut quick: Vec<Quick> = object.fields.iter().map(|f| quick::quick(contract, f, &local(f))).collect();
    let Some(condition) = quick_condition(&guards, &mut quick) else {
        out.line(&format!("    return {shape}.read(value)"));
        return None;
    };
    let required = object.fields.iter().filter(|f| f.required).count();
    let named = guards.first().is_some_and(|g| g.starts_with(&format!("len(value) == {constant}")));
    let whole = as_they_are(object, &quick);
    out.line("    if isinstance(value, dict):");
    for (f, q) in object.fields.iter().zip(&quick) {
        if !whole || matches!(q, Quick::When(_)) {
            out.line(&format!("        {}", read_member(f)));
        }
    }
    out.line(&condition);
    if whole {
        instance(def, object, out);
    } else {
        let quick: Vec<(&Field, &Quick)> = object.fields.iter().zip(&quick).collect();
        let args = constructor_args(def, object, |f| quick_arg(f, &quick));
        out.line("            try:");
        out.line(&exploded(16, "return _new(", &args, ""));
        out.line("            except _Problem:");
        out.line(&format!("                raise {shape}.problem(value) from None"));
    }
    out.line(&format!("    return {shape}.read(value)"));
    named.then_some(required)
}

/// The dataclass made from the object as it is (its members are its attributes),
/// absent optional fields at their defaults.
fn instance(def: &TypeDef, object: &ObjectType, out: &mut Out) {
    out.line(&format!("            instance = object.__new__({})", def.name));
    if object.fields.iter().any(|f| !f.required) {
        out.line(&format!("            if len(value) < len(_{}_SHAPE.names):", upper(&def.name)));
        out.line(&format!("                instance.__dict__.update(_{}_SHAPE.absent)", upper(&def.name)));
    }
    out.line("            instance.__dict__.update(value)");
    out.line("            return instance");
}

/// `local = value.get(key)`, defaulting to `ABSENT` for an optional member of
/// any type.
fn read_member(f: &Field) -> String {
    let key = string(&f.name);
    match (f.required, &f.ty) {
        (false, Ty::Any) => format!("{} = value.get({key}, ABSENT)", local(f)),
        _ => format!("{} = value.get({key})", local(f)),
    }
}

/// The `if` of the quick path: the guards, then the checks, dropping checks from
/// the end until its layout is one `ruff format` keeps; `None` when even the
/// guards alone have no such layout.
fn quick_condition(guards: &[String], quick: &mut [Quick]) -> Option<String> {
    loop {
        let checks = quick.iter().filter_map(|q| if let Quick::When(c) = q { Some(c.clone()) } else { None });
        let operands: Vec<String> = guards.iter().cloned().chain(checks).collect();
        if let Some(condition) = quick::condition(8, &operands) {
            return Some(condition);
        }
        let last = quick.iter_mut().rev().find(|q| matches!(q, Quick::When(_)))?;
        *last = Quick::Decode;
    }
}

/// Whether the quick path takes every member as it is, under its wire name.
fn as_they_are(object: &ObjectType, quick: &[Quick]) -> bool {
    let same_names = object.fields.iter().all(|f| field(&f.name) == f.name);
    same_names && quick.iter().all(|q| !matches!(q, Quick::Decode))
}

/// The value of a field on the quick path.
fn quick_arg(f: &Field, quick: &[(&Field, &Quick)]) -> Arg {
    match quick.iter().find(|(g, _)| g.name == f.name).map(|(_, q)| q) {
        Some(Quick::Always) | Some(Quick::When(_)) => Arg::Plain(local(f)),
        _ => decode_member(f),
    }
}

/// A constructor argument's value: an expression, or one that applies only when
/// the member is present (`None` otherwise).
enum Arg {
    Plain(String),
    IfPresent(String, String),
}

/// The decoded value of a member (absent optional members are `None`).
fn decode_member(f: &Field) -> Arg {
    let var = local(f);
    match (f.required, &f.ty) {
        (true, ty) => Arg::Plain(decode_expr(ty, &var)),
        (false, Ty::Any) => Arg::Plain(var),
        (false, ty) => Arg::IfPresent(decode_expr(ty, &var), string(&f.name)),
    }
}

/// `Type, field=value, ...` in constructor order.
fn constructor_args(def: &TypeDef, object: &ObjectType, value: impl Fn(&Field) -> Arg) -> Vec<String> {
    let mut args = vec![def.name.clone()];
    for f in constructor_order(object) {
        let name = field(&f.name);
        args.push(match value(f) {
            Arg::Plain(expr) => format!("{name}={expr}"),
            Arg::IfPresent(expr, key) => format!("{name}={expr} if {key} in value else None"),
        });
    }
    args
}

/// The reader of a union: the variant whose discriminating field, and no other
/// variant's, the object has.
fn read_union(variants: &[UnionVariant], out: &mut Out) {
    if let Some((member, tags)) = union_tag(variants) {
        return read_tagged_union(variants, member, &tags, out);
    }
    let keys: Vec<String> = variants.iter().map(|v| string(&v.discriminator)).collect();
    out.line("    if isinstance(value, dict):");
    for (variant, key) in variants.iter().zip(&keys) {
        let mut operands = vec![format!("{key} in value")];
        operands.extend(keys.iter().filter(|other| *other != key).map(|other| format!("{other} not in value")));
        let condition = quick::condition(8, &operands).unwrap_or_else(|| format!("        if {}:", operands.join(" and ")));
        out.line(&condition);
        out.line(&format!("            return _read_{}(value)", stem(&variant.type_name)));
    }
    let tuple = if keys.len() == 1 { format!("({},)", keys[0]) } else { format!("({})", keys.join(", ")) };
    out.line(&fit(4, "raise _no_variant(", &["value".to_string(), tuple], ""));
}

/// A tagged union's reader: `_tag` reads the tag member (present, one of the
/// tags), whose value picks the variant.
fn read_tagged_union(variants: &[UnionVariant], member: &str, tags: &[&str], out: &mut Out) {
    let listed: Vec<String> = tags.iter().map(|t| string(t)).collect();
    out.line(&fit(4, "tag = _tag(", &["value".to_string(), string(member), format!("({})", listed.join(", "))], ""));
    for (i, (variant, tag)) in variants.iter().zip(&listed).enumerate() {
        let call = format!("return _read_{}(value)", stem(&variant.type_name));
        if i + 1 == variants.len() {
            out.line(&format!("    {call}"));
        } else {
            out.line(&format!("    if tag == {tag}:"));
            out.line(&format!("        {call}"));
        }
    }
}

fn writer(contract: &Contract, def: &TypeDef, out: &mut Out) {
    let head = format!("def {}_to_value(", stem(&def.name));
    out.blank(2);
    out.line(&fit(0, &head, &[format!("value: {}", value_type(def))], &format!(" -> {}:", json_type(def))));
    out.line(&docstring(4, &format!("The JSON value of a `{}`.", def.name)));
    match &def.kind {
        TypeKind::Object(object) => write_object(contract, object, out),
        TypeKind::Map { values: ty, .. } if is_plain(contract, ty) => out.line("    return dict(value)"),
        TypeKind::Map { values: ty, .. } => {
            let item = encoded(contract, ty, "item", 1);
            out.line(&format!("    return {{key: {item} for key, item in value.items()}}"));
        }
        TypeKind::Union(variants) => {
            for (i, variant) in variants.iter().enumerate() {
                let call = format!("return {}_to_value(value)", stem(&variant.type_name));
                if i + 1 == variants.len() {
                    out.line(&format!("    {call}"));
                } else {
                    out.line(&format!("    if isinstance(value, {}):", variant.type_name));
                    out.line(&format!("        {call}"));
                }
            }
        }
        TypeKind::StringEnum(_) | TypeKind::IntegerOrString => out.line("    return value"),
    }
}

fn write_object(contract: &Contract, object: &ObjectType, out: &mut Out) {
    if object.fields.is_empty() {
        out.line("    return {}");
        return;
    }
    out.line("    out: dict[str, JsonValue] = {}");
    for f in &object.fields {
        let attr = format!("value.{}", field(&f.name));
        let key = string(&f.name);
        let value = encoded(contract, &f.ty, &attr, 0);
        if f.required {
            out.line(&assign(4, &key, &value));
            continue;
        }
        match f.ty {
            Ty::Any => out.line(&statement(4, &format!("if not isinstance({attr}, Absent):"))),
            _ => out.line(&statement(4, &format!("if {attr} is not None:"))),
        }
        out.line(&assign(8, &key, &value));
    }
    out.line("    return out");
}

/// `out[key] = value`.
fn assign(indent: usize, key: &str, value: &str) -> String {
    statement(indent, &format!("out[{key}] = {value}"))
}

fn public(contract: &Contract, def: &TypeDef, in_place: bool, out: &mut Out) {
    let (name, stem) = (&def.name, stem(&def.name));
    let ty = value_type(def);
    let quoted = string(name);
    out.blank(2);
    out.line(&fit(0, &format!("def decode_{stem}("), &["text: str | bytes".to_string()], &format!(" -> {ty}:")));
    out.line(&docstring(4, &format!("Decodes a `{name}` from one frame's JSON text. Raises `DecodeError`.")));
    if in_place {
        out.line(&format!("    read = _whole_in_place({stem}_in_place, text)"));
        out.line("    if read is not None:");
        out.line("        return read");
    }
    out.line("    try:");
    out.line(&format!("        return _read_{stem}(_parse(text))"));
    out.line("    except _Problem as error:");
    out.line(&format!("        raise DecodeError(error.message({quoted})) from None"));
    out.blank(2);
    out.line(&fit(0, &format!("def {stem}_from_value("), &["value: JsonValue".to_string()], &format!(" -> {ty}:")));
    out.line(&docstring(4, &format!("Decodes a `{name}` from an already-parsed JSON value. Raises `DecodeError`.")));
    out.line("    try:");
    out.line(&format!("        return _read_{stem}(value)"));
    out.line("    except _Problem as error:");
    out.line(&format!("        raise DecodeError(error.message({quoted})) from None"));
    out.blank(2);
    out.line(&fit(0, &format!("def encode_{stem}("), &[format!("value: {ty}")], " -> str:"));
    out.line(&docstring(4, &format!("One line of JSON text for a `{name}`, without the trailing newline.")));
    match &def.kind {
        TypeKind::Object(object) if writes_text(object) => write_text(contract, object, out),
        _ => out.line(&format!("    return _dumps({stem}_to_value(value))")),
    }
}

/// The helper writing the JSON text of a member of type `ty` without building
/// its value (`_string_text`), or `None` for a type written by `_dumps`.
fn text_helper(ty: &Ty) -> Option<&'static str> {
    let ty = match ty.unbounded() {
        Ty::Nullable(inner) => inner.unbounded(),
        other => other,
    };
    match ty {
        Ty::String => Some("_string_text"),
        Ty::Boolean => Some("_bool_text"),
        Ty::Integer { .. } => Some("_int_text"),
        _ => None,
    }
}

/// Whether `encode_…` writes the object's text member by member: every key is
/// written as it is in JSON (printable ASCII, no quote or backslash), and at
/// most one member is of a type `_dumps` writes (one call per such member
/// costs more than the object's value written at once).
fn writes_text(object: &ObjectType) -> bool {
    let plain_keys = object.fields.iter().all(|f| f.name.chars().all(|c| c.is_ascii_graphic() && c != '"' && c != '\\'));
    let dumped = object.fields.iter().filter(|f| text_helper(&f.ty).is_none()).count();
    !object.fields.is_empty() && plain_keys && dumped <= 1
}

/// `encode_…` of an object [`writes_text`]: its members' text concatenated,
/// each member as `…_to_value` writes it (optional ones left out alike), each
/// after the one before with a comma. With no required member first, every
/// member's text starts with its comma, and the first one's is cut.
fn write_text(contract: &Contract, object: &ObjectType, out: &mut Out) {
    let member = |f: &Field, comma: &str| {
        let attr = format!("value.{}", field(&f.name));
        let text = match text_helper(&f.ty) {
            Some(helper) => format!("{helper}({attr})"),
            None => format!("_dumps({})", encoded(contract, &f.ty, &attr, 0)),
        };
        format!("{} + {text}", string(&format!("{comma}\"{}\":", f.name)))
    };
    let leading: Vec<String> = object
        .fields
        .iter()
        .take_while(|f| f.required)
        .enumerate()
        .map(|(i, f)| member(f, if i == 0 { "{" } else { "," }))
        .collect();
    if leading.is_empty() {
        out.line("    text = \"\"");
    } else {
        out.line(&statement(4, &format!("text = {}", leading.join(" + "))));
    }
    for f in object.fields.iter().skip(leading.len()) {
        let indent = if f.required {
            4
        } else {
            let attr = format!("value.{}", field(&f.name));
            match f.ty {
                Ty::Any => out.line(&statement(4, &format!("if not isinstance({attr}, Absent):"))),
                _ => out.line(&statement(4, &format!("if {attr} is not None:"))),
            }
            8
        };
        out.line(&statement(indent, &format!("text += {}", member(f, ","))));
    }
    if leading.is_empty() {
        out.line(r#"    return "{" + text[1:] + "}""#);
    } else {
        out.line(r#"    return text + "}""#);
    }
}

/// The shape of every closed object: its member decoders, required members,
/// absent defaults and renamed attributes. They come after every reader, which
/// they name, each built by a function of its own ([`BUILT_IN_FUNCTIONS`]).
fn field_tables(contract: &Contract, out: &mut Out) {
    let mut first = true;
    for def in contract.types.values() {
        let TypeKind::Object(object) = &def.kind else { continue };
        let entries: Vec<String> = object
            .fields
            .iter()
            .map(|f| format!("{}: {}", string(&f.name), decoder(&f.ty)))
            .collect();
        let required: Vec<String> =
            object.fields.iter().filter(|f| f.required).map(|f| string(&f.name)).collect();
        let absent: Vec<String> = object
            .fields
            .iter()
            .filter(|f| !f.required)
            .map(|f| format!("{}: {}", string(&f.name), if f.ty == Ty::Any { "ABSENT" } else { "None" }))
            .collect();
        let renamed: Vec<String> = object
            .fields
            .iter()
            .filter(|f| field(&f.name) != f.name)
            .map(|f| format!("{}: {}", string(&f.name), string(&field(&f.name))))
            .collect();
        let mut args = vec![def.name.clone()];
        args.push(flat_collection("{", &entries, ""));
        args.push(flat_collection("(", &required, ""));
        if !absent.is_empty() {
            args.push(flat_collection("{", &absent, ""));
        }
        if !renamed.is_empty() {
            args.push(flat_collection("attributes={", &renamed, ""));
        }
        out.blank(2);
        if std::mem::take(&mut first) {
            out.line(&comment(0, BUILT_IN_FUNCTIONS));
        }
        let builder = format!("_{}_shape", stem(&def.name));
        out.line(&statement(0, &format!("def {builder}() -> _ObjectShape[{}]:", def.name)));
        out.line(&exploded(4, "return _ObjectShape(", &args, ""));
        out.blank(2);
        out.line(&statement(0, &format!("_{}_SHAPE = {builder}()", upper(&def.name))));
    }
}

/// Why the shapes and `CODECS` are built in functions rather than written at
/// the module's top level: there, each name they use (a reader, a runtime
/// decoder) costs pyright a walk back through the module's code flow to its
/// definition, so checking a module grew with the square of its types
/// (800 object types: 38 s; built in functions, whose names need no walk:
/// 17 s; docs/benchmarks.md).
const BUILT_IN_FUNCTIONS: &str = "The shape of each closed object, built by a function of its own: the names \
    a top-level statement uses cost a type checker a walk back through the module to their \
    definitions, a function's do not.";

fn registry(contract: &Contract, in_place: &std::collections::BTreeMap<String, crate::targets::readers::Plan>, out: &mut Out) {
    let entries: Vec<String> = contract
        .types
        .values()
        .map(|def| {
            let stem = stem(&def.name);
            let mut args = vec![string(&def.name), format!("_read_{stem}"), format!("{stem}_to_value")];
            if in_place.contains_key(&def.name) {
                args.push(format!("{stem}_in_place"));
            }
            if matches!(&def.kind, TypeKind::Object(object) if writes_text(object)) {
                args.push(format!("writer=encode_{stem}"));
            }
            flat(&format!("{}: _Codec(", string(&def.name)), &args, "")
        })
        .collect();
    out.blank(2);
    out.line("def _codecs() -> dict[str, _Codec[typing.Any]]:");
    out.line(&collection(4, "return {", &entries, ""));
    out.blank(2);
    out.line("CODECS: typing.Final[dict[str, _Codec[typing.Any]]] = _codecs()");
    let example = super::envelopes::result_example(contract);
    out.line(&docstring(0, &format!("Every `$defs` type by name: `CODECS[\"{example}\"].decode(text)`.")));
}

#[cfg(test)]
mod tests {
    use super::{text_helper, writes_text};
    use crate::model::{Field, ObjectType, Ty};

    fn object(fields: &[(&str, Ty)]) -> ObjectType {
        let field = |(name, ty): &(&str, Ty)| Field { name: name.to_string(), description: String::new(), ty: ty.clone(), required: true, deprecated: false };
        ObjectType { fields: fields.iter().map(field).collect() }
    }

    #[test]
    fn strings_booleans_and_integers_are_written_as_text_and_at_most_one_member_by_json() {
        assert_eq!(text_helper(&Ty::Nullable(Box::new(Ty::String))), Some("_string_text"));
        assert_eq!(text_helper(&Ty::Integer { minimum: Some(0), maximum: None }), Some("_int_text"));
        assert_eq!(text_helper(&Ty::Any), None);
        let verdict = object(&[("success", Ty::Boolean), ("data", Ty::Any), ("text", Ty::Nullable(Box::new(Ty::String)))]);
        assert!(writes_text(&verdict), "one member of any value is written by _dumps");
        let two = object(&[("data", Ty::Any), ("more", Ty::Any)]);
        assert!(!writes_text(&two), "two members by _dumps cost more than the object at once");
        let quoted = object(&[("say \"hi\"", Ty::String)]);
        assert!(!writes_text(&quoted), "a key JSON escapes is left to json");
        assert!(!writes_text(&object(&[])), "an empty object is left to json");
    }
}
