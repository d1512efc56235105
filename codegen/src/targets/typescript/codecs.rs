//! Codecs, per type. Decoders: a private `read<T>(value, path, orNull)` that
//! checks the shape, and the public `decode<T>(text)` / `decode<T>Value(value)`.
//! Encoders: `encode<T>(value)` writes one line of JSON text, fields in
//! schema declaration order, absent optional fields omitted, null as null.

use std::collections::{BTreeMap, BTreeSet};

use crate::pattern::Dialect;
use crate::model::{number_text, union_tag, Constant, Contract, Field, NumberBound, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

use super::layout::Out;
use super::names::{constant, js_quoted, js_single, js_string, local, path_step, property, property_access, property_key, stem, type_name};
use super::types::{ts_type, values_constant};

/// A bound on a count as an argument: the count, or `null` for no bound.
fn count_bound(bound: Option<u64>) -> String {
    bound.map_or("null".to_string(), |n| n.to_string())
}

/// A bound on a number as a literal, the way Prettier prints it: the
/// shortest digits (`String(bound)` gives the same text back), an exponent
/// without its `+` (`1e21`).
pub fn number_literal(bound: f64) -> String {
    number_text(bound).replace("e+", "e")
}

/// A number's bound as the operator and the literal `_readNumberWithin`
/// takes; an absent one as a bound no double fails (`>= -Infinity`).
fn number_bound(bound: Option<&NumberBound>, minimum: bool) -> (&'static str, String) {
    match bound {
        Some(bound) => (bound.operator(minimum), number_literal(bound.value)),
        None if minimum => (">=", "-Infinity".to_string()),
        None => ("<=", "Infinity".to_string()),
    }
}

/// The expression reading `value` (a `JsonValue` expression) as `ty`.
pub fn read_expr(ty: &Ty, value: &str, path: &str, or_null: bool) -> String {
    let or_null_text = if or_null { "true" } else { "false" };
    match ty {
        Ty::Any => format!("_openValue({value})"),
        Ty::Number { minimum: None, maximum: None } => format!("_readNumber({value}, {path}, {or_null_text})"),
        Ty::Number { minimum, maximum } => {
            let (above, min) = number_bound(minimum.as_ref(), true);
            let (below, max) = number_bound(maximum.as_ref(), false);
            format!("_readNumberWithin({value}, {path}, {or_null_text}, \"{above}\", {min}, \"{below}\", {max})")
        }
        Ty::Boolean => format!("_readBoolean({value}, {path}, {or_null_text})"),
        Ty::Integer { minimum: None, maximum: None } => format!("_readInteger({value}, {path}, {or_null_text})"),
        Ty::Integer { minimum: Some(min), maximum: None } => {
            format!("_readIntegerAtLeast({value}, {path}, {or_null_text}, {min})")
        }
        Ty::Integer { minimum, maximum: Some(max) } => {
            let min = minimum.map_or("null".to_string(), |m| m.to_string());
            format!("_readIntegerWithin({value}, {path}, {or_null_text}, {min}, {max})")
        }
        Ty::String => format!("_readString({value}, {path}, {or_null_text})"),
        Ty::Ref(name) => format!("read{}({value}, {path}, {or_null_text})", stem(name)),
        Ty::Array(item) => match item.as_ref() {
            Ty::Any => format!("_openValue(_readArray({value}, {path}, {or_null_text}))"),
            item => format!(
                "_readArrayOf({value}, {path}, {or_null_text}, (item, itemPath) => {})",
                read_expr(item, "item", "itemPath", false)
            ),
        },
        Ty::Nullable(inner) => match inner.as_ref() {
            Ty::Any => format!("_openValue({value})"),
            inner => format!("{value} === null ? null : {}", read_expr(inner, value, path, true)),
        },
        Ty::Length { inner, min, max } => {
            let (min, max) = (count_bound(*min), count_bound(*max));
            match inner.as_ref() {
                Ty::Array(_) => format!("_itemsWithin({}, {path}, {min}, {max})", read_expr(inner, value, path, or_null)),
                _ => format!("_readStringWithin({value}, {path}, {or_null_text}, {min}, {max})"),
            }
        }
        Ty::Unique(inner) if inner.unique_by_json() => format!("_uniqueJson({}, {path})", read_expr(inner, value, path, or_null)),
        Ty::Unique(inner) if inner.unique_by_read() => format!("_uniqueRead({}, {value}, {path})", read_expr(inner, value, path, or_null)),
        Ty::Unique(inner) => format!("_uniqueItems({}, {path})", read_expr(inner, value, path, or_null)),
        Ty::Prefix { inner, kinds, rest } => {
            let kinds: Vec<String> = kinds.iter().map(|k| js_quoted(k.as_deref().unwrap_or(""))).collect();
            format!("_prefixKinds({}, {path}, [{}], {})", read_expr(inner, value, path, or_null), kinds.join(", "), js_quoted(rest.as_deref().unwrap_or("")))
        }
        Ty::Multiple { inner, divisor } if matches!(**inner, Ty::Number { .. }) => {
            format!("_numberMultipleOf({}, {path}, {}, {})", read_expr(inner, value, path, or_null), divisor.digits, divisor.exponent)
        }
        Ty::Multiple { inner, divisor } => format!("_multipleOf({}, {path}, {divisor})", read_expr(inner, value, path, or_null)),
        Ty::Pattern { inner, pattern } => format!("_matching({}, {path}, _PATTERN_{})", read_expr(inner, value, path, or_null), pattern.number),
        Ty::Const { inner, value: constant } => {
            let literal = match constant {
                Constant::String(s) => js_quoted(s),
                Constant::Integer(n) => n.to_string(),
                Constant::Boolean(b) => b.to_string(),
                Constant::Json(text) => return format!("_constantJson({}, {path}, {})", read_expr(inner, value, path, or_null), js_quoted(text)),
                Constant::OneOf(listed) if **inner == Ty::Any => return format!("_oneOfJson({}, {path}, {})", read_expr(inner, value, path, or_null), js_quoted(listed)),
                // Scalars (and `null`): their literal type, compared by `===`.
                Constant::OneOf(listed) => {
                    let values = super::types::listed_literals(constant).join(", ");
                    return format!("_oneOf({}, {path}, [{values}], {})", read_expr(&Ty::Any, value, path, or_null), js_quoted(listed));
                }
            };
            let shown = js_quoted(&constant.json());
            format!("_constant({}, {path}, {literal}, {shown})", read_expr(inner, value, path, or_null))
        }
    }
}

/// Each distinct `pattern` as a regular-expression literal (written as
/// Prettier prints it: the layout never parses a regular expression), with
/// the problem a string it finds no match in gets.
pub fn render_patterns(out: &mut Out, contract: &Contract) {
    for pattern in contract.patterns() {
        let problem = pattern.problem();
        let quoted = js_quoted(&problem);
        let regex = format!("/{}/u", pattern.render(Dialect::EcmaScript));
        let head = format!("const _PATTERN_{}: _Pattern = [", pattern.number);
        out.blank();
        out.raw(&format!("// The pattern {}.", pattern.display()));
        let flat = format!("{head}{regex}, {quoted}];");
        if flat.chars().count() <= 80 {
            out.raw(&flat);
        } else {
            out.raw(&head);
            out.raw(&format!("  {regex},"));
            out.raw(&format!("  {quoted},"));
            out.raw("];");
        }
    }
}

/// Renders the reader and the two public decoders of `def`; `plain`: the
/// text's decoder tries its plain reader first (see [`super::plain`]).
pub fn render_decoder(out: &mut Out, _contract: &Contract, def: &TypeDef, plain: bool) {
    let name = type_name(&def.name);
    let stem = stem(&def.name);
    declare_discriminators(out, def);
    out.blank();
    out.line(format!("function read{stem}(value: JsonValue, path: string, orNull: boolean): {name} {{"));
    match &def.kind {
        TypeKind::Object(object) => read_object(out, object, &name),
        TypeKind::Map { values, min_members, max_members, names } => {
            let read = match values {
                Ty::Any => "_openValue(_readObject(value, path, orNull))".to_string(),
                ty => format!("_readMapOf(value, path, orNull, (entry, entryPath) => {})", read_expr(ty, "entry", "entryPath", false)),
            };
            let read = match names {
                Some(names) => format!("_memberNames({read}, path, (name) => {})", read_expr(names, "name", "path", false)),
                None => read,
            };
            match (min_members, max_members) {
                (None, None) => out.line(format!("  return {read};")),
                (min, max) => out.line(format!("  return _membersWithin({read}, path, {}, {});", count_bound(*min), count_bound(*max))),
            }
        }
        TypeKind::Union(variants) => read_union(out, &def.name, variants),
        TypeKind::StringEnum(_) => {
            out.line(format!("  return _readEnum(value, path, orNull, {});", values_constant(&def.name)));
        }
        TypeKind::IntegerOrString => out.line("  return _readIntegerOrString(value, path, orNull);"),
    }
    out.line("}");
    public_decoders(out, &def.name, &name, &stem, plain);
}

fn public_decoders(out: &mut Out, def: &str, name: &str, stem: &str, plain: bool) {
    let type_label = js_string(def);
    out.blank();
    out.doc("", &format!(
        "Decodes a `{def}` from one strict JSON text (a frame line without its `\\n`). Throws a `DecodeError`."
    ));
    out.line(format!("export function decode{stem}(text: string): {name} {{"));
    if plain {
        let reader = super::plain::reader(def);
        out.line(format!("  return {reader}(text) ?? _decodeText({type_label}, read{stem}, text);"));
    } else {
        out.line(format!("  return _decodeText({type_label}, read{stem}, text);"));
    }
    out.line("}");
    out.blank();
    out.doc("", &format!("Decodes a `{def}` from an already-parsed JSON value. Throws a `DecodeError`."));
    out.line(format!("export function decode{stem}Value(value: JsonValue): {name} {{"));
    out.line(format!("  return _decodeParsed({type_label}, read{stem}, value);"));
    out.line("}");
}

/// Locals for the fields of an object, in declaration order.
fn field_locals(fields: &[Field]) -> Vec<String> {
    let mut taken: Vec<String> = Vec::new();
    for field in fields {
        let name = local(&field.name, &taken);
        taken.push(name);
    }
    taken
}

/// The body of a closed object's reader, which returns a `name`.
pub fn read_object(out: &mut Out, object: &ObjectType, name: &str) {
    out.line("  const obj = _readMembers(value, path, orNull);");
    if object.fields.is_empty() {
        out.line("  for (const key in obj) {");
        out.line("    if (_hasOwn.call(obj, key)) {");
        out.line("      _throwUnknownField(key, path);");
        out.line("    }");
        out.line("  }");
        out.line("  return {};");
        return;
    }
    let locals = field_locals(&object.fields);
    for (field, local) in object.fields.iter().zip(&locals) {
        out.line(format!("  let {local}: {} | undefined;", ts_type(&field.ty)));
    }
    out.line("  for (const key in obj) {");
    out.line("    if (!_hasOwn.call(obj, key)) {");
    out.line("      continue;");
    out.line("    }");
    out.line("    _keysMet++;");
    out.line("    const member = obj[key] as JsonValue;");
    out.line("    switch (key) {");
    for (field, local) in object.fields.iter().zip(&locals) {
        let path = format!("_pathTo(path, {})", js_string(&path_step(&field.name)));
        out.line(format!("      case {}:", js_string(&field.name)));
        out.line(format!("        {local} = {};", read_expr(&field.ty, "member", &path, false)));
        out.line("        break;");
    }
    out.line("      default:");
    out.line("        _throwUnknownField(key, path);");
    out.line("    }");
    out.line("  }");
    build_object(out, object, name, &locals);
}

fn build_object(out: &mut Out, object: &ObjectType, name: &str, locals: &[String]) {
    let mut members = Vec::new();
    for (field, local) in object.fields.iter().zip(locals) {
        if field.required {
            out.line(format!("  if ({local} === undefined) {{"));
            out.line(format!("    _throwMissingField({}, path);", js_string(&field.name)));
            out.line("  }");
            members.push(member(&field.name, local));
        }
    }
    let has_optional = object.fields.iter().any(|f| !f.required);
    if !has_optional {
        out.line(format!("  return {{ {} }};", members.join(", ")));
        return;
    }
    let literal = if members.is_empty() { "{}".to_string() } else { format!("{{ {} }}", members.join(", ")) };
    // An object literal has `Object.prototype`'s members (`toString(): string`),
    // which an optional member of that name and another type would refuse: the
    // literal is then asserted to the type it is about to be filled up to.
    let shadows_prototype = object.fields.iter().any(|f| !f.required && OBJECT_PROTOTYPE_MEMBERS.contains(&property(&f.name).as_str()));
    if shadows_prototype {
        out.line(format!("  const out = {literal} as _Mutable<{name}>;"));
    } else {
        out.line(format!("  const out: _Mutable<{name}> = {literal};"));
    }
    for (field, local) in object.fields.iter().zip(locals) {
        if !field.required {
            out.line(format!("  if ({local} !== undefined) {{"));
            out.line(format!("    {} = {local};", property_access("out", &field.name)));
            out.line("  }");
        }
    }
    out.line("  return out;");
}

/// The members every object literal has from `Object.prototype`.
const OBJECT_PROTOTYPE_MEMBERS: &[&str] = &[
    "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "toString", "valueOf",
];

/// `key: local`, or the shorthand when they are the same.
fn member(wire: &str, local: &str) -> String {
    let key = property_key(wire);
    if key == local {
        key
    } else {
        format!("{key}: {local}")
    }
}

fn read_union(out: &mut Out, def: &str, variants: &[UnionVariant]) {
    out.line("  const obj = _readObject(value, path, orNull);");
    let constant = variants_constant(def, variants);
    match union_tag(variants) {
        Some((member, _)) => out.line(format!("  switch (_pickTag(obj, {}, {constant}, path)) {{", js_string(member))),
        None => pick_variant(out, &constant, variants),
    }
    for (i, variant) in variants.iter().enumerate() {
        if i + 1 == variants.len() {
            out.line("    default:");
        } else {
            out.line(format!("    case {i}:"));
        }
        out.line(format!("      return read{}(obj, path, false);", stem(&variant.type_name)));
    }
    out.line("  }");
}

/// Opens the `switch` over the variant of an untagged union that `obj` is:
/// `present` reads each discriminator with a constant key (see `pickVariant`
/// in the runtime), one bit per variant, so that the usual object, with one
/// discriminator, costs one `hasOwnProperty` instead of one per variant.
pub(crate) fn pick_variant(out: &mut Out, constant: &str, variants: &[UnionVariant]) {
    out.line(format!("  const present = {};", present_bits(variants)));
    out.line(format!("  const variant = _pickVariant(obj, {constant}, present, path);"));
    out.line("  switch (variant) {");
}

/// The bits of the discriminators `obj` reads as values, `(obj["a"] === undefined
/// ? 0 : 1) + (obj["b"] === undefined ? 0 : 2) + ...` (a sum of distinct bits,
/// which the layout prints as Prettier does); `0` (which tells nothing) past 31
/// variants (the runtime tests the bits as a 32-bit integer).
fn present_bits(variants: &[UnionVariant]) -> String {
    if variants.len() > 31 {
        return "0".to_string();
    }
    let bits: Vec<String> = variants
        .iter()
        .enumerate()
        .map(|(i, v)| format!("(obj[{}] === undefined ? 0 : {})", js_string(&v.discriminator), 1u64 << i))
        .collect();
    bits.join(" + ")
}

/// The constant listing, in variant order, a union's discriminators
/// (`..._DISCRIMINATORS`) or, for a tagged union, its tags (`..._TAGS`).
pub(crate) fn variants_constant(def: &str, variants: &[UnionVariant]) -> String {
    match union_tag(variants) {
        Some(_) => format!("{}_TAGS", constant(def)),
        None => format!("{}_DISCRIMINATORS", constant(def)),
    }
}

/// Declares the discriminator or tag list of a union (before its reader).
fn declare_discriminators(out: &mut Out, def: &TypeDef) {
    if let TypeKind::Union(variants) = &def.kind {
        let (names, doc): (Vec<String>, String) = match union_tag(variants) {
            Some((member, tags)) => (
                tags.iter().map(|t| js_string(t)).collect(),
                format!("The tag (`{member}`) of each variant of `{}`, in variant order.", def.name),
            ),
            None => (
                variants.iter().map(|v| js_string(&v.discriminator)).collect(),
                format!("The field that selects each variant of `{}`, in variant order.", def.name),
            ),
        };
        out.blank();
        out.doc("", &doc);
        out.line(format!("const {}: readonly string[] = [{}];", variants_constant(&def.name, variants), names.join(", ")));
    }
}

/// Declares `OPEN_DEPTH`, the nesting a counting read assumes around open
/// values (see `decodeText` in the runtime).
pub fn open_depth_constant(out: &mut Out, contract: &Contract) {
    out.blank();
    let depth = match open_depth(contract) {
        Some(depth) => {
            out.doc("", "The most containers around an open value (or a closed object or array) of any frame type.");
            i64::from(depth)
        }
        None => {
            out.doc("", "-1: a frame type contains itself, so closed objects may nest at any depth and every value is walked.");
            -1
        }
    };
    // Typed `number`, not its literal: the runtime compares it (`>= 0`) as a
    // setting, which a literal type would make a constant condition.
    out.line("// eslint-disable-next-line @typescript-eslint/no-inferrable-types -- the runtime reads it as a setting; the literal type would make its `_OPEN_DEPTH >= 0` a constant condition");
    out.line(format!("const _OPEN_DEPTH: number = {depth};"));
}

/// The most containers around an open value, or the depth of a closed
/// container, in any frame type; None when a type contains itself or this
/// exceeds `MAX_DEPTH`. Each type is measured once ([`Reach`]), so the cost
/// is linear in the schema however long its `$ref` chains.
fn open_depth(contract: &Contract) -> Option<u32> {
    let deepest = Reach { contract, known: BTreeMap::new(), visiting: BTreeSet::new(), steps: 0 }.deepest()?;
    (deepest <= contract.max_depth).then_some(deepest)
}

/// A type contains itself.
struct Cycle;

/// How deep a value of each type reaches, measured from the value's own
/// level: `None` when it holds no container and is no open value (it adds
/// nothing), `Some(0)` for an open value, `Some(n)` for a closed container
/// reaching n levels down. Inside `outer` containers a value reaches
/// `outer + n`, so one figure per type serves at every depth.
struct Reach<'c> {
    contract: &'c Contract,
    /// The types measured.
    known: BTreeMap<&'c str, Option<u32>>,
    /// The types being measured.
    visiting: BTreeSet<&'c str>,
    /// How many times a type's reach was asked for: the work, which
    /// grows linearly with the schema (a test counts it).
    steps: usize,
}

impl<'c> Reach<'c> {
    /// The deepest reach of any type; None when one contains itself.
    fn deepest(&mut self) -> Option<u32> {
        let mut deepest = 0;
        for name in self.contract.types.keys() {
            deepest = deepest.max(self.of_type(name).ok()?.unwrap_or(0));
        }
        Some(deepest)
    }

    fn of(&mut self, ty: &'c Ty) -> Result<Option<u32>, Cycle> {
        Ok(match ty {
            Ty::Any => Some(0),
            Ty::Boolean | Ty::Integer { .. } | Ty::Number { .. } | Ty::String => None,
            Ty::Nullable(inner) | Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => self.of(inner)?,
            Ty::Array(item) if **item == Ty::Any => Some(0),
            Ty::Array(item) => Some(below(self.of(item)?)),
            Ty::Ref(name) => self.of_type(name)?,
        })
    }

    /// The reach of the `$defs` type `name`, measured once.
    fn of_type(&mut self, name: &str) -> Result<Option<u32>, Cycle> {
        self.steps += 1;
        if let Some(known) = self.known.get(name) {
            return Ok(*known);
        }
        let def = self.contract.type_def(name).ok_or(Cycle)?;
        if !self.visiting.insert(&def.name) {
            return Err(Cycle);
        }
        let reach = self.of_def(def)?;
        self.visiting.remove(def.name.as_str());
        self.known.insert(&def.name, reach);
        Ok(reach)
    }

    fn of_def(&mut self, def: &'c TypeDef) -> Result<Option<u32>, Cycle> {
        Ok(match &def.kind {
            TypeKind::Object(object) => {
                let mut deepest = 1;
                for field in &object.fields {
                    deepest = deepest.max(below(self.of(&field.ty)?));
                }
                Some(deepest)
            }
            TypeKind::Map { values: Ty::Any, .. } => Some(0),
            TypeKind::Map { values: ty, .. } => Some(below(self.of(ty)?)),
            TypeKind::Union(variants) => {
                let mut deepest = None;
                for variant in variants {
                    deepest = deepest.max(self.of_type(&variant.type_name)?);
                }
                deepest
            }
            TypeKind::StringEnum(_) | TypeKind::IntegerOrString => None,
        })
    }
}

/// The reach of a container whose members reach `member`: one level more.
fn below(member: Option<u32>) -> u32 {
    member.map_or(1, |n| n + 1)
}

// ---------------------------------------------------------------------------
// Encoders

/// The expression writing `value` (an expression of `ty`'s type) as JSON text.
pub fn write_expr(ty: &Ty, value: &str) -> String {
    match ty {
        // An inline `enum`'s literal type (scalars and `null`) as well.
        Ty::Any | Ty::String | Ty::Const { value: Constant::OneOf(_), .. } => format!("JSON.stringify({value})"),
        Ty::Boolean => format!("({value} ? \"true\" : \"false\")"),
        // A boolean `const` has its literal type: `String` writes it.
        // A finite double: `String` writes it as `JSON.stringify` does.
        Ty::Integer { .. } | Ty::Number { .. } | Ty::Const { value: Constant::Boolean(_), .. } => format!("String({value})"),
        Ty::Ref(name) => format!("encode{}({value})", stem(name)),
        Ty::Array(item) => match item.as_ref() {
            Ty::Any => format!("JSON.stringify({value})"),
            item => format!("_writeArray({value}, (item) => {})", write_expr(item, "item")),
        },
        Ty::Nullable(inner) => match inner.as_ref() {
            Ty::Any => format!("JSON.stringify({value})"),
            inner => format!("({value} === null ? \"null\" : {})", write_expr(inner, value)),
        },
        Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => write_expr(inner, value),
    }
}

/// Renders `encode<T>` for `def`.
pub fn render_encoder(out: &mut Out, _contract: &Contract, def: &TypeDef) {
    let name = type_name(&def.name);
    out.blank();
    out.doc("", &format!(
        "Encodes a `{}` as one line of JSON text (no newline inside or at the end).",
        def.name
    ));
    let empty = matches!(&def.kind, TypeKind::Object(object) if object.fields.is_empty());
    let param = if empty { "_value" } else { "value" };
    if empty {
        // Every encoder takes the value it encodes, this one too.
        out.line("// eslint-disable-next-line @typescript-eslint/no-unused-vars -- every encoder takes its value; an empty object has nothing to read from it");
    }
    out.line(format!("export function encode{}({param}: {name}): string {{", stem(&def.name)));
    match &def.kind {
        TypeKind::Object(object) => write_object(out, object),
        TypeKind::Map { values: Ty::Any, .. } | TypeKind::StringEnum(_) => out.line("  return JSON.stringify(value);"),
        TypeKind::Map { values: ty, .. } => {
            out.line(format!("  return _writeMap(value, (entry) => {});", write_expr(ty, "entry")));
        }
        TypeKind::Union(variants) => write_union(out, variants),
        TypeKind::IntegerOrString => {
            out.line("  return typeof value === \"number\" ? String(value) : JSON.stringify(value);");
        }
    }
    out.line("}");
}

/// The body of a closed object's encoder, which writes `value`.
pub fn write_object(out: &mut Out, object: &ObjectType) {
    if object.fields.is_empty() {
        out.line("  return \"{}\";");
        return;
    }
    out.line("  let out = \"{\";");
    // Whether a member is surely written before this field, or may be.
    let mut surely_written = false;
    let mut maybe_written = false;
    for field in &object.fields {
        let access = property_access("value", &field.name);
        let key = format!("{}:", serde_json::to_string(&field.name).unwrap_or_default());
        let written = write_expr(&field.ty, &access);
        let indent = if field.required { "  " } else { "    " };
        if !field.required {
            out.line(format!("  if ({access} !== undefined) {{"));
        }
        if surely_written {
            out.line(format!("{indent}out += {} + {written};", js_single(&format!(",{key}"))));
        } else if maybe_written {
            out.line(format!("{indent}out += (out.length > 1 ? \",\" : \"\") + {} + {written};", js_single(&key)));
        } else {
            out.line(format!("{indent}out += {} + {written};", js_single(&key)));
        }
        if !field.required {
            out.line("  }");
        }
        surely_written |= field.required;
        maybe_written = true;
    }
    out.line("  return out + \"}\";");
}

fn write_union(out: &mut Out, variants: &[UnionVariant]) {
    let tag = union_tag(variants);
    for (i, variant) in variants.iter().enumerate() {
        let encode = format!("encode{}(value)", stem(&variant.type_name));
        if i + 1 == variants.len() {
            out.line(format!("  return {encode};"));
        } else {
            let test = match (&tag, &variant.tag) {
                (Some((member, _)), Some(value)) => format!("{} === {}", property_access("value", member), js_string(value)),
                _ => format!("{} in value", js_string(&super::names::property(&variant.discriminator))),
            };
            out.line(format!("  if ({test}) {{"));
            out.line(format!("    return {encode};"));
            out.line("  }");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// v2.json with `Link0` .. `Link<links-1>`, each referring to the next.
    fn ref_chain(links: usize) -> Contract {
        let v2 = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/ipc/v2.json")).unwrap();
        let mut schema: serde_json::Value = serde_json::from_str(&v2).unwrap();
        for i in 0..links {
            let next = serde_json::json!({"next": {"description": "d", "$ref": format!("#/$defs/Link{}", i + 1)}});
            let properties = if i + 1 == links { serde_json::json!({}) } else { next };
            schema["$defs"][format!("Link{i}")] = serde_json::json!({"description": "d", "type": "object", "properties": properties, "additionalProperties": false});
        }
        crate::load::load_str(&schema.to_string(), std::path::Path::new("chain.json"), "chain.json").unwrap().0
    }

    #[test]
    fn each_type_is_measured_once_so_a_ref_chain_costs_steps_linear_in_its_length() {
        // Measured anew from each type, a chain took the square of its
        // length (a 2,000-link chain took seconds; issue 36).
        let steps = |links: usize| {
            let contract = ref_chain(links);
            let mut reach = Reach { contract: &contract, known: BTreeMap::new(), visiting: BTreeSet::new(), steps: 0 };
            assert_eq!(reach.deepest(), Some(links as u32), "the chain is as deep as it is long");
            reach.steps
        };
        let (short, long) = (steps(100), steps(200));
        assert!(long - short <= 2 * 100 + 2, "100 links: {short} steps, 200 links: {long}");
    }
}
