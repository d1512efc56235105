//! The supported subset of JSON Schema 2020-12, checked while the `$defs` are
//! turned into the model. It is the intersection of what typify 0.8 handles
//! faithfully and what every target language can decode strictly:
//!
//! | construct | supported form |
//! |---|---|
//! | definitions | `$defs` at the root only, UpperCamelCase names, each with a `description` |
//! | closed object | `type: object`, `properties`, `required`, `additionalProperties: false` |
//! | map | `type: object`, `additionalProperties: true` or a value schema, no `properties`; `minProperties`, `maxProperties`; `propertyNames` with `minLength`, `maxLength`, `pattern`, or `false` (read as `maxProperties: 0`) |
//! | union | `oneOf` of `$ref`s to closed objects: tagged (every variant requires a member of one name with its own string `const`) or else each with a required field no other variant declares |
//! | string enum | `type: string` + `enum` of strings (one value for a literal: typify drops `const`) |
//! | request id | `type: [integer, string]` |
//! | const | `const` on a property's own schema, with its `type` or none: a string, an integer within ±(2^53-1) or a boolean (that type); or null, an object, an array or a fractional number (any JSON value, compared by JSON equality), with no integer literal beyond ±(2^53-1) in it |
//! | inline enum | `enum` on a property's own schema (optional only when every value is of one scalar kind and none is null): any JSON values, mixed (integers, numbers, booleans, null, strings, arrays, objects), at least one, no two equal by JSON equality, no integer literal beyond ±(2^53-1); the member is any JSON value that must equal one of them by JSON equality (even with a `type`: one type name, which every value must be of, so that membership implies it) |
//! | property | `description` plus one of: nothing (any JSON value), `type` (boolean, integer, number, string, array, or `[T, null]` when required), `$ref: #/$defs/Name`, `oneOf: [{$ref}, {type: null}]` when required |
//! | number | any JSON number, read as the nearest double; `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`: any numbers, read the same way and compared as doubles, kept as written; `multipleOf` any positive divisor of at most 14 significant digits, decided on the shortest decimal of the double; on a property's own number and the items of a property's array |
//! | integer | `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`: any integers within ±(2^53-1), kept inclusive (`exclusiveMinimum: 0` is `minimum: 1`); on map values only `minimum` 0 or 1; `multipleOf` a positive number whose whole equivalent on integers (1.5 is 3) is within 2^53-1; each on a property's own integer and the items of a property's array |
//! | string | `minLength`, `maxLength`: counts of Unicode code points; `pattern`, in the portable subset of [`crate::pattern`]; each on a property's own string and the items of a property's array |
//! | array | at most `max_depth` − 1 arrays nested in one schema (a frame cannot carry one `max_depth` deep); `items` with a `type` or a `$ref`; `minItems`, `maxItems` on a property's own array; `uniqueItems` there too: strings, integers, numbers and booleans compared as decoded, any JSON values (`items: {}`) by JSON equality, `$defs` types, arrays and nullable items by JSON equality of the values read; `prefixItems` on a property's own array: up to 15 items `{type: K}` or `{}` checked for their JSON kind on a list of any JSON values, `items` beside it any, `{type: K}` or `false` |
//!
//! | annotations | `title`, `format`, `default`, `examples`, `deprecated` on a `$defs` entry or a property: documentation only ([`crate::annotations`]) |
//!
//! Anything else is refused with the pointer and a fix: typify would drop it
//! (`unevaluatedProperties`), panic on
//! it (nested `$defs`, root `patternProperties`), mis-resolve it (`$ref` to
//! anything but `#/$defs/Name`), or a target could not decode it the same way.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::annotations;
use crate::error::{push_pointer, SchemaError};
use crate::reader::Reader;
use crate::model::{Constant, Divisor, Field, NumberBound, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};
use crate::names;
use crate::pattern::Pattern;

/// Where a type is written: what constraints it may carry depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Site {
    /// A closed object's property.
    Property,
    /// The items of a property's array.
    Item,
    /// A map's values, or the items of an array that is itself an item or a value.
    MapValue,
}

/// Keywords that never make it through, with the fix for each.
const REFUSED: &[(&str, &str)] = &[
    ("unevaluatedProperties", "typify 0.8 ignores it: use `additionalProperties: false`"),
    ("patternProperties", "not supported: use a map (`additionalProperties: <schema>`) or declared properties"),
    ("$defs", "nested $defs make typify 0.8 panic: move the definition to the root $defs"),
    ("definitions", "nested definitions make typify 0.8 panic: move the definition to the root $defs"),
    ("allOf", "not supported: write the combined shape out as one closed object"),
    ("anyOf", "not supported: use `oneOf` of $refs to closed objects told apart by a required field"),
    ("not", "not supported: enforce it semantically in the binary and say so in a description"),
    ("if", "not supported: enforce it semantically in the binary and say so in a description"),
    ("then", "not supported: enforce it semantically in the binary and say so in a description"),
    ("else", "not supported: enforce it semantically in the binary and say so in a description"),
    ("dependentRequired", "not supported: enforce it semantically and describe it"),
    ("prefixItems", "supported on a property's own array only (`type: array`), each item `{\"type\": K}` or `{}`"),
    ("$id", "typify 0.8 resolves $ref by its last segment only: keep every schema in one document without $id"),
    ("$anchor", "not supported: refer to definitions as #/$defs/Name"),
];

/// The most items `prefixItems` may list (each target's kinds fit in 64 bits).
const MAX_PREFIX: usize = 15;

/// The JSON kinds an item of `prefixItems` may be checked for.
const JSON_KINDS: [&str; 7] = ["null", "boolean", "integer", "number", "string", "array", "object"];

/// Checks an UpperCamelCase type name. Whether a target can hold it next to
/// what it declares itself is each target's to say ([`crate::targets::claims`]).
pub(crate) fn check_type_name(r: &Reader<'_>, name: &str, pointer: &str) -> Result<(), SchemaError> {
    let mut chars = name.chars();
    let ok = chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_alphanumeric());
    if !ok {
        return Err(r.err(pointer, format!("`{name}` is not an UpperCamelCase name"), "rename it to letters and digits starting with a capital, like `CallParams`"));
    }
    Ok(())
}

pub(crate) struct TypeBuilder<'r, 'a> {
    r: &'r Reader<'a>,
    defs: &'r Map<String, Value>,
    /// The contract's `max_depth`: arrays nested this deep in one schema are
    /// refused ([`Self::nesting`]).
    max_depth: u32,
    /// The annotations whose values (`default`, `examples`) are checked once
    /// every type is built: checking one compiles all of `$defs`, which must
    /// not report another type's shape problem at this pointer.
    values: std::cell::RefCell<Vec<(annotations::Annotations, String)>>,
}

impl<'r, 'a> TypeBuilder<'r, 'a> {
    pub fn new(r: &'r Reader<'a>, defs: &'r Map<String, Value>, max_depth: u32) -> Self {
        Self { r, defs, max_depth, values: std::cell::RefCell::default() }
    }

    /// Refuses arrays nested `max_depth` deep or more in one property's or
    /// map value's schema, at the `items` of the array that reaches it: a
    /// frame is itself a container, so no frame could hold such an array
    /// whole, and a bound keeps codegen's work bounded (docs/targets.md).
    fn nesting(&self, ty: &Ty, p: &str) -> Result<(), SchemaError> {
        let depth = array_depth(ty);
        if depth < self.max_depth {
            return Ok(());
        }
        let allowed = self.max_depth.saturating_sub(1);
        Err(self.r.err(
            &format!("{p}{}", "/items".repeat(allowed as usize)),
            format!("arrays nested {depth} deep: inside a frame, itself a container, this array lies deeper than `max_depth` ({}) containers, so no frame could carry it", self.max_depth),
            format!("nest at most {allowed} arrays in one another, or raise /x-coprocess/max_depth"),
        ))
    }

    /// Checks `annotations`' values after the shapes (see `values`).
    fn check_values_later(&self, annotations: &annotations::Annotations, pointer: &str) {
        if annotations.default.is_some() || !annotations.examples.is_empty() {
            self.values.borrow_mut().push((annotations.clone(), pointer.to_string()));
        }
    }

    pub fn build_all(&self) -> Result<BTreeMap<String, TypeDef>, SchemaError> {
        let mut types = BTreeMap::new();
        let mut seen_lower: BTreeMap<String, String> = BTreeMap::new();
        for (name, schema) in self.defs {
            let p = push_pointer("/$defs", name);
            check_type_name(self.r, name, &p)?;
            if let Some(other) = seen_lower.insert(names::snake_case(name), name.clone()) {
                return Err(self.r.err(&p, format!("`{name}` and `{other}` become the same name after case conversion"), "rename one of them"));
            }
            types.insert(name.clone(), self.build_def(name, schema, &p)?);
        }
        self.resolve_unions(&mut types)?;
        let values = self.values.take();
        let checker = annotations::ValueChecker::new(self.defs, values.iter().map(|(_, pointer)| pointer.as_str()));
        for (annotations, pointer) in &values {
            annotations::check_values(self.r, &checker, annotations, pointer)?;
        }
        crate::model::number_patterns(&mut types);
        Ok(types)
    }

    fn refuse_unsupported(&self, schema: &Map<String, Value>, pointer: &str) -> Result<(), SchemaError> {
        // An array reads its own `prefixItems` ([`Self::prefix_items`]).
        let array = schema.get("type").is_some_and(|t| t == "array" || t.get(0).is_some_and(|t| t == "array"));
        for (keyword, fix) in REFUSED {
            if *keyword == "prefixItems" && array {
                continue;
            }
            if schema.contains_key(*keyword) {
                return Err(self.r.err(&push_pointer(pointer, keyword), format!("`{keyword}` is outside the supported subset"), *fix));
            }
        }
        Ok(())
    }

    fn description(&self, schema: &Map<String, Value>, pointer: &str) -> Result<String, SchemaError> {
        match schema.get("description").and_then(Value::as_str) {
            Some(d) if !d.trim().is_empty() => Ok(d.to_string()),
            _ => Err(self.r.err(pointer, "missing `description`", "add a description: it becomes the doc comment in every SDK")),
        }
    }

    fn build_def(&self, name: &str, schema: &Value, p: &str) -> Result<TypeDef, SchemaError> {
        let (annotations, schema) = annotations::take(self.r, self.r.object(schema, p)?, p)?;
        let schema = &schema;
        self.refuse_unsupported(schema, p)?;
        let description = annotations.fold(&self.description(schema, p)?);
        self.check_values_later(&annotations, p);
        let kind = if schema.contains_key("oneOf") {
            self.r.only_keys(schema, &["description", "oneOf"], p)?;
            self.build_union(schema, p)?
        } else {
            match schema.get("type") {
                Some(Value::String(t)) if t == "object" => self.build_object(schema, p)?,
                Some(Value::String(t)) if t == "string" => {
                    self.r.only_keys(schema, &["description", "type", "enum"], p)?;
                    self.build_enum(schema, p)?
                }
                Some(Value::Array(types)) if types == &[Value::from("integer"), Value::from("string")] => {
                    self.r.only_keys(schema, &["description", "type"], p)?;
                    TypeKind::IntegerOrString
                }
                // A named enum is a string enum; one of other values is an inline `enum`.
                _ if schema.contains_key("enum") => {
                    return Err(self.r.err(
                        &push_pointer(p, "enum"),
                        format!("definition `{name}` is an `enum` of values that are not all strings (or has no `type: string`): a named enum is a string enum"),
                        "give it `type: string` and string values, or write the `enum` inline on each required property that holds it (any JSON values, compared by JSON equality)",
                    ))
                }
                _ => {
                    return Err(self.r.err(
                        &push_pointer(p, "type"),
                        format!("definition `{name}` is not an object, a string enum, a oneOf union or [integer, string]"),
                        "give it `type: object`, `type: string` with `enum`, `oneOf` of $refs, or `type: [integer, string]`",
                    ))
                }
            }
        };
        Ok(TypeDef { name: name.to_string(), description, kind, deprecated: annotations.deprecated })
    }

    fn build_enum(&self, schema: &Map<String, Value>, p: &str) -> Result<TypeKind, SchemaError> {
        let values = schema.get("enum").and_then(Value::as_array).ok_or_else(|| {
            self.r.err(p, "a string definition needs an `enum`", "list the allowed values in `enum` (a free string belongs in a property)")
        })?;
        let mut out: Vec<String> = Vec::new();
        for (i, value) in values.iter().enumerate() {
            match value.as_str() {
                Some(s) if !out.iter().any(|o| o == s) => out.push(s.to_string()),
                _ => return Err(self.r.err(&format!("{p}/enum/{i}"), "enum values must be distinct strings", "remove the duplicate or non-string value")),
            }
        }
        if out.is_empty() {
            return Err(self.r.err(&format!("{p}/enum"), "the enum is empty", "list at least one value"));
        }
        // Every SDK names a constant after each value (`CacheModeReadWrite`,
        // `READ_WRITE`): two values that become one name cannot both have one.
        let mut seen: BTreeMap<String, &str> = BTreeMap::new();
        for (i, value) in out.iter().enumerate() {
            if let Some(other) = seen.insert(names::snake_case(value), value) {
                return Err(self.r.err(
                    &format!("{p}/enum/{i}"),
                    format!("enum values `{other}` and `{value}` become the same name after case conversion"),
                    "rename one of them: every SDK names a constant after each value",
                ));
            }
        }
        Ok(TypeKind::StringEnum(out))
    }

    fn build_object(&self, schema: &Map<String, Value>, p: &str) -> Result<TypeKind, SchemaError> {
        self.r.only_keys(schema, &["description", "type", "properties", "required", "additionalProperties", "minProperties", "maxProperties", "propertyNames"], p)?;
        let additional = schema.get("additionalProperties").ok_or_else(|| {
            self.r.err(p, "the object does not say whether it is closed", "add `additionalProperties: false` (closed), or `true`/a value schema for a map")
        })?;
        match additional {
            Value::Bool(false) => {}
            Value::Bool(true) | Value::Object(_) => {
                if schema.contains_key("properties") || schema.contains_key("required") {
                    return Err(self.r.err(
                        &format!("{p}/additionalProperties"),
                        "an open object with declared properties is outside the supported subset",
                        "close it with `additionalProperties: false`, or make it a plain map without `properties`",
                    ));
                }
                let values = match additional {
                    Value::Bool(_) => Ty::Any,
                    other => {
                        let at = format!("{p}/additionalProperties");
                        let ty = self.build_ty(other, &at, false, Site::MapValue)?;
                        self.nesting(&ty, &at)?;
                        ty
                    }
                };
                let (min_members, mut max_members) = self.counts(schema, p, true, ["minProperties", "maxProperties"])?;
                // `propertyNames: false` allows no name: the map must be empty,
                // which `maxProperties: 0` says (and its problem words).
                if schema.get("propertyNames") == Some(&Value::Bool(false)) {
                    if let Some(min) = min_members {
                        return Err(self.r.err(
                            &push_pointer(p, "propertyNames"),
                            format!("`propertyNames: false` allows no member, and `minProperties` asks for {min}"),
                            "remove one of the two",
                        ));
                    }
                    max_members = Some(0);
                }
                let names = self.property_names(schema, p)?;
                return Ok(TypeKind::Map { values, min_members, max_members, names });
            }
            _ => return Err(self.r.err(&format!("{p}/additionalProperties"), "unsupported `additionalProperties`", "use false, true or a value schema")),
        }
        if let Some(keyword) = ["minProperties", "maxProperties", "propertyNames"].into_iter().find(|k| schema.contains_key(*k)) {
            return Err(self.r.err(
                &push_pointer(p, keyword),
                format!("`{keyword}` is supported on a map only, not on a closed object"),
                "a closed object's names are its declared properties: make the fields that must be there required instead",
            ));
        }
        let properties = match schema.get("properties") {
            Some(props) => self.r.object(props, &format!("{p}/properties"))?.clone(),
            None => return Err(self.r.err(p, "a closed object needs `properties`", "add `properties` (it may be `{}`)")),
        };
        let required: Vec<String> = match schema.get("required") {
            None => Vec::new(),
            Some(Value::Array(items)) => {
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let at = format!("{p}/required/{i}");
                    let Some(name) = item.as_str() else {
                        return Err(self.r.err(&at, "`required` entries must be strings", "list property names"));
                    };
                    if !properties.contains_key(name) {
                        return Err(self.r.err(&at, format!("`{name}` is required but not declared in `properties`"), "declare it or remove it from `required`"));
                    }
                    out.push(name.to_string());
                }
                out
            }
            Some(_) => return Err(self.r.err(&format!("{p}/required"), "`required` must be an array", "list property names")),
        };
        let mut fields = Vec::new();
        let mut converted: BTreeMap<String, String> = BTreeMap::new();
        for (name, prop) in &properties {
            let at = push_pointer(&format!("{p}/properties"), name);
            let key = names::snake_case(name);
            if key.is_empty() {
                return Err(self.r.err(&at, format!("property `{name}` has no letters or digits"), "rename it"));
            }
            if let Some(other) = converted.insert(key, name.clone()) {
                return Err(self.r.err(&at, format!("`{name}` and `{other}` become the same name after case conversion"), "rename one of them"));
            }
            let is_required = required.contains(name);
            let (annotations, prop_map) = annotations::take(self.r, self.r.object(prop, &at)?, &at)?;
            let description = annotations.fold(&self.description(&prop_map, &at)?);
            let ty = self.build_ty(&Value::Object(prop_map), &at, is_required, Site::Property)?;
            self.nesting(&ty, &at)?;
            self.check_values_later(&annotations, &at);
            fields.push(Field { name: name.clone(), description, ty, required: is_required, deprecated: annotations.deprecated });
        }
        Ok(TypeKind::Object(ObjectType { fields }))
    }

    fn resolve_ref(&self, reference: &Value, at: &str) -> Result<String, SchemaError> {
        let Some(reference) = reference.as_str() else {
            return Err(self.r.err(at, "`$ref` must be a string", "write \"#/$defs/<Name>\""));
        };
        let Some(name) = reference.strip_prefix("#/$defs/") else {
            return Err(self.r.err(at, format!("`{reference}` is not a local `#/$defs/<Name>` reference"), "typify 0.8 resolves $ref by its last segment only: refer to a root definition as \"#/$defs/<Name>\""));
        };
        if name.contains('/') || !self.defs.contains_key(name) {
            return Err(self.r.err(at, format!("`{reference}` does not resolve: there is no $defs entry `{name}`"), "add that definition under $defs or fix the name"));
        }
        Ok(name.to_string())
    }

    /// A property, item or map-value schema, at `site`: a property's own
    /// schema takes every constraint; an array's items take a string's
    /// length and pattern and an integer's bounds and divisor; a map's
    /// values an integer's `minimum` of 0 or 1 only.
    fn build_ty(&self, schema: &Value, p: &str, required: bool, site: Site) -> Result<Ty, SchemaError> {
        let property = site == Site::Property;
        // Where a string's length and pattern and an integer's bounds and divisor are checked.
        let scalar = site != Site::MapValue;
        let schema = self.r.object(schema, p)?;
        self.refuse_unsupported(schema, p)?;
        annotations::refuse_here(self.r, schema, p)?;
        if let Some(reference) = schema.get("$ref") {
            self.r.only_keys(schema, &["description", "$ref"], p)?;
            return Ok(Ty::Ref(self.resolve_ref(reference, &format!("{p}/$ref"))?));
        }
        if let Some(one_of) = schema.get("oneOf") {
            self.r.only_keys(schema, &["description", "oneOf"], p)?;
            let nullable_ref = one_of.as_array().and_then(|items| match items.as_slice() {
                [first, second] if second == &serde_json::json!({"type": "null"}) => first.get("$ref").filter(|_| first.as_object().is_some_and(|o| o.len() == 1)),
                _ => None,
            });
            let Some(reference) = nullable_ref else {
                return Err(self.r.err(&format!("{p}/oneOf"), "an inline `oneOf` is supported only as [{\"$ref\": ...}, {\"type\": \"null\"}]", "name the union under $defs and $ref it"));
            };
            let inner = Ty::Ref(self.resolve_ref(reference, &format!("{p}/oneOf/0/$ref"))?);
            return self.nullable(inner, p, required);
        }
        if let Some(value) = schema.get("const") {
            return self.constant(schema, value, p, property, required);
        }
        if let Some(values) = schema.get("enum") {
            return self.one_of(schema, values, p, property, required);
        }
        let (base, nullable) = match schema.get("type") {
            None => {
                self.r.only_keys(schema, &["description"], p)?;
                return Ok(Ty::Any);
            }
            Some(Value::String(t)) => (t.as_str(), false),
            Some(Value::Array(types)) => match types.as_slice() {
                [Value::String(t), Value::String(null)] if null == "null" && t != "null" => (t.as_str(), true),
                _ => return Err(self.r.err(&format!("{p}/type"), "a type list is supported only as [T, \"null\"]", "write `type: [\"string\", \"null\"]` or name a union under $defs")),
            },
            Some(_) => return Err(self.r.err(&format!("{p}/type"), "`type` must be a string or a list", "write a JSON Schema type name")),
        };
        let ty = match base {
            "boolean" => {
                self.r.only_keys(schema, &["description", "type"], p)?;
                Ty::Boolean
            }
            "string" => {
                self.r.only_keys(schema, &["description", "type", "minLength", "maxLength", "pattern"], p)?;
                let bounded = self.length_bounds(schema, p, scalar, Ty::String, ["minLength", "maxLength"])?;
                self.pattern(schema, p, scalar, bounded)?
            }
            "integer" => {
                self.r.only_keys(schema, &["description", "type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"], p)?;
                let bounded = self.integer_bounds(schema, p, scalar)?;
                self.multiple_of(schema, p, scalar, bounded)?
            }
            "array" if schema.contains_key("prefixItems") => {
                self.r.only_keys(schema, &["description", "type", "prefixItems", "items", "minItems", "maxItems", "uniqueItems"], p)?;
                let prefixed = self.prefix_items(schema, p, property)?;
                self.unique_items(schema, p, property, prefixed)?
            }
            "array" => {
                self.r.only_keys(schema, &["description", "type", "items", "minItems", "maxItems", "uniqueItems"], p)?;
                let items = schema.get("items").ok_or_else(|| self.r.err(p, "an array needs `items`", "add `items` with a type or a $ref"))?;
                let array = Ty::Array(Box::new(self.build_ty(items, &format!("{p}/items"), true, if property { Site::Item } else { Site::MapValue })?));
                let counted = self.length_bounds(schema, p, property, array, ["minItems", "maxItems"])?;
                self.unique_items(schema, p, property, counted)?
            }
            "object" => return Err(self.r.err(p, "an inline object is outside the supported subset", "name it under $defs and $ref it")),
            "number" => {
                self.r.only_keys(schema, &["description", "type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"], p)?;
                let bounded = self.number_bounds(schema, p, scalar)?;
                self.number_multiple_of(schema, p, scalar, bounded)?
            }
            "null" => return Err(self.r.err(&format!("{p}/type"), "a field that is always null carries nothing", "remove it, or make it [T, \"null\"]")),
            other => return Err(self.r.err(&format!("{p}/type"), format!("unknown type `{other}`"), "use boolean, integer, number, string or array")),
        };
        if nullable {
            self.nullable(ty, p, required)
        } else {
            Ok(ty)
        }
    }

    /// An integer's bounds, inclusive: an exclusive bound is the inclusive one
    /// next to it (for integers the two say the same, and every target words
    /// the inclusive one: `expected integer >= 1`). Each bound is an integer
    /// within the JSON-text range ±(2^53-1).
    fn integer_bounds(&self, schema: &Map<String, Value>, p: &str, property: bool) -> Result<Ty, SchemaError> {
        let read = |keyword: &str| -> Result<Option<i64>, SchemaError> {
            let Some(value) = schema.get(keyword) else { return Ok(None) };
            let at = push_pointer(p, keyword);
            match safe_integer(value) {
                Some(n) => Ok(Some(n)),
                _ => Err(self.r.err(&at, format!("`{keyword}` of an integer must be an integer within ±(2^53-1), not {value}"), "write an integer bound in that range (the JSON-text rules allow no integer beyond it)")),
            }
        };
        let tighter_low = |a: Option<i64>, b: Option<i64>| match (a, b) { (Some(a), Some(b)) => Some(a.max(b)), (a, b) => a.or(b) };
        let tighter_high = |a: Option<i64>, b: Option<i64>| match (a, b) { (Some(a), Some(b)) => Some(a.min(b)), (a, b) => a.or(b) };
        let minimum = tighter_low(read("minimum")?, read("exclusiveMinimum")?.map(|m| m + 1));
        let maximum = tighter_high(read("maximum")?, read("exclusiveMaximum")?.map(|m| m - 1));
        if let (Some(low), Some(high)) = (minimum, maximum) {
            if low > high {
                return Err(self.r.err(p, format!("no integer is >= {low} and <= {high}"), "fix the bounds so that some integer lies between them"));
            }
        }
        let simple = maximum.is_none() && matches!(minimum, None | Some(0) | Some(1));
        if !property && !simple {
            let keyword = ["maximum", "exclusiveMaximum", "exclusiveMinimum", "minimum"].into_iter().find(|k| schema.contains_key(*k)).unwrap_or("minimum");
            return Err(self.r.err(
                &push_pointer(p, keyword),
                "bounds other than `minimum` 0 or 1 are supported on a property's own integer and on the items of a property's array, not on map values or nested arrays",
                "bound the property itself, or name a $defs object for the item",
            ));
        }
        Ok(Ty::Integer { minimum, maximum })
    }

    /// A number's bounds: any JSON numbers, read as the nearest double (as
    /// every target reads the number itself) and kept as written, inclusive
    /// or exclusive; of two on one side the tighter. (`multipleOf` is
    /// refused before: a fractional divisor is not exact in any language's
    /// doubles, and a whole one belongs on an `integer`.)
    fn number_bounds(&self, schema: &Map<String, Value>, p: &str, scalar: bool) -> Result<Ty, SchemaError> {
        let read = |keyword: &str, exclusive: bool| -> Result<Option<NumberBound>, SchemaError> {
            let Some(value) = schema.get(keyword) else { return Ok(None) };
            let at = push_pointer(p, keyword);
            if !scalar {
                return Err(self.r.err(&at, "number bounds are supported on a property's own number and on the items of a property's array, not on map values or nested arrays", "bound the property itself, or name a $defs object for the value"));
            }
            match value.as_f64().filter(|f| f.is_finite()) {
                Some(value) => Ok(Some(NumberBound { value, exclusive })),
                None => Err(self.r.err(&at, format!("`{keyword}` of a number must be a number, not {value}"), "write a JSON number such as 0.5")),
            }
        };
        // Of two bounds on one side, the tighter; at the same value the exclusive one.
        let tighter = |a: Option<NumberBound>, b: Option<NumberBound>, low: bool| match (a, b) {
            (Some(a), Some(b)) if a.value == b.value => Some(if b.exclusive { b } else { a }),
            (Some(a), Some(b)) => Some(if (a.value > b.value) == low { a } else { b }),
            (a, b) => a.or(b),
        };
        let minimum = tighter(read("minimum", false)?, read("exclusiveMinimum", true)?, true);
        let maximum = tighter(read("maximum", false)?, read("exclusiveMaximum", true)?, false);
        if let (Some(low), Some(high)) = (minimum, maximum) {
            if low.value > high.value || (low.value == high.value && (low.exclusive || high.exclusive)) {
                return Err(self.r.err(
                    p,
                    format!("no number is {} {} and {} {}", low.operator(true), low.text(), high.operator(false), high.text()),
                    "fix the bounds so that some number lies between them",
                ));
            }
        }
        Ok(Ty::Number { minimum, maximum })
    }

    /// `multipleOf` on a property's own integer: a positive divisor whose
    /// whole equivalent is within 2^53-1. A fractional divisor `m` × 10^-k is
    /// lowered to the whole divisor it means on integers, `m` / gcd(`m`, 10^k)
    /// (1.5 is 3, 0.0001 is 1). A divisor of 1 asks nothing and is dropped;
    /// bounds with no multiple between them are refused.
    fn multiple_of(&self, schema: &Map<String, Value>, p: &str, property: bool, integer: Ty) -> Result<Ty, SchemaError> {
        let Some(value) = schema.get("multipleOf") else { return Ok(integer) };
        let at = push_pointer(p, "multipleOf");
        if !property {
            return Err(self.r.err(&at, "`multipleOf` is supported on a property's own integer and on the items of a property's array, not on map values or nested arrays", "constrain the property itself, or name a $defs object for the value"));
        }
        let divisor = safe_integer(value).and_then(|n| u64::try_from(n).ok()).filter(|&n| n > 0).or_else(|| {
            let fraction = value.as_f64().filter(|f| f.is_finite() && *f > 0.0).and_then(Divisor::of).filter(|d| d.exponent < 0)?;
            // m × 10^-k: n × 10^k must be a multiple of m, so m's factors 2
            // and 5 (up to k of each) are met by 10^k and the rest divides n.
            let (mut whole, k) = (fraction.digits, fraction.exponent.unsigned_abs());
            for factor in [2, 5] {
                for _ in 0..k {
                    if whole % factor != 0 {
                        break;
                    }
                    whole /= factor;
                }
            }
            Some(whole)
        });
        let Some(divisor) = divisor.filter(|&n| n < (1 << 53)) else {
            return Err(self.r.err(
                &at,
                format!("`multipleOf` of an integer must be a positive number of at most {} significant digits whose whole equivalent is at most 2^53-1, not {value}", Divisor::MAX_DIGITS),
                "write a positive divisor such as 5 or 1.5 (1.5 means 3 on integers)",
            ));
        };
        if divisor == 1 {
            return Ok(integer);
        }
        if let Ty::Integer { minimum: Some(low), maximum: Some(high) } = integer {
            // The first multiple at or above `low` (floor division, for negative bounds too).
            let d = divisor as i64;
            let first = low.div_euclid(d) * d + if low.rem_euclid(d) == 0 { 0 } else { d };
            if first > high {
                return Err(self.r.err(&at, format!("no multiple of {divisor} is >= {low} and <= {high}"), "fix the divisor or the bounds so that some multiple lies between them"));
            }
        }
        Ok(Ty::Multiple { inner: Box::new(integer), divisor: Divisor::whole(divisor) })
    }

    /// `multipleOf` on a number: any positive divisor of at most
    /// [`Divisor::MAX_DIGITS`] significant digits, read (as the numbers it
    /// divides are) as the shortest decimal that reads back as its double.
    fn number_multiple_of(&self, schema: &Map<String, Value>, p: &str, scalar: bool, number: Ty) -> Result<Ty, SchemaError> {
        let Some(value) = schema.get("multipleOf") else { return Ok(number) };
        let at = push_pointer(p, "multipleOf");
        if !scalar {
            return Err(self.r.err(&at, "`multipleOf` is supported on a property's own number and on the items of a property's array, not on map values or nested arrays", "constrain the property itself, or name a $defs object for the value"));
        }
        let Some(divisor) = value.as_f64().filter(|f| f.is_finite() && *f > 0.0).and_then(Divisor::of) else {
            return Err(self.r.err(
                &at,
                format!("`multipleOf` of a number must be a positive number of at most {} significant digits, not {value}", Divisor::MAX_DIGITS),
                "write a positive divisor such as 0.01 or 2.5",
            ));
        };
        if let Ty::Number { minimum: Some(low), maximum: Some(high) } = number {
            if !some_multiple_between(divisor, low, high) {
                return Err(self.r.err(
                    &at,
                    format!("no multiple of {divisor} is {} {} and {} {}", low.operator(true), low.text(), high.operator(false), high.text()),
                    "fix the divisor or the bounds so that some multiple lies between them",
                ));
            }
        }
        Ok(Ty::Multiple { inner: Box::new(number), divisor })
    }

    /// A string's length bounds (`minLength`, `maxLength`, in code points) or
    /// an array's (`minItems`, `maxItems`): non-negative integers within
    /// 2^53-1, the minimum not above the maximum, on a property's own type
    /// only. A minimum of 0 bounds nothing and is dropped.
    fn length_bounds(&self, schema: &Map<String, Value>, p: &str, property: bool, inner: Ty, keywords: [&str; 2]) -> Result<Ty, SchemaError> {
        let (min, max) = self.counts(schema, p, property, keywords)?;
        if min.is_none() && max.is_none() {
            return Ok(inner);
        }
        Ok(Ty::Length { inner: Box::new(inner), min, max })
    }

    /// The bounds on a count (`minLength`/`maxLength`, `minItems`/`maxItems`,
    /// `minProperties`/`maxProperties`): non-negative integers within 2^53-1,
    /// the minimum not above the maximum, and a minimum of 0 dropped.
    /// `property`: whether counts are supported here (not on items or values).
    fn counts(&self, schema: &Map<String, Value>, p: &str, property: bool, [min_keyword, max_keyword]: [&str; 2]) -> Result<(Option<u64>, Option<u64>), SchemaError> {
        let read = |keyword: &str| -> Result<Option<u64>, SchemaError> {
            let Some(value) = schema.get(keyword) else { return Ok(None) };
            let at = push_pointer(p, keyword);
            if !property {
                return Err(self.r.err(
                    &at,
                    format!("`{keyword}` is supported on a property's own type (and a string's on the items of a property's array), not on map values or nested arrays"),
                    "bound the property itself, or name a $defs object for the item",
                ));
            }
            match safe_integer(value).and_then(|n| u64::try_from(n).ok()) {
                Some(n) => Ok(Some(n)),
                _ => Err(self.r.err(&at, format!("`{keyword}` must be a non-negative integer within 2^53-1, not {value}"), "write a count such as 1")),
            }
        };
        let min = read(min_keyword)?.filter(|&n| n > 0);
        let max = read(max_keyword)?;
        if let (Some(low), Some(high)) = (min, max) {
            if low > high {
                return Err(self.r.err(&push_pointer(p, min_keyword), format!("`{min_keyword}` {low} is above `{max_keyword}` {high}: no value fits"), "fix the bounds so that some length lies between them"));
            }
        }
        Ok((min, max))
    }

    /// `pattern` on a property's own string: the portable subset of
    /// [`crate::pattern`], refused at the pointer with the character it
    /// stops at otherwise.
    fn pattern(&self, schema: &Map<String, Value>, p: &str, property: bool, string: Ty) -> Result<Ty, SchemaError> {
        let Some(value) = schema.get("pattern") else { return Ok(string) };
        let at = push_pointer(p, "pattern");
        if !property {
            return Err(self.r.err(&at, "`pattern` is supported on a property's own string and on the items of a property's array, not on map values or nested arrays", "constrain the property itself, or name a $defs object for the value"));
        }
        let Some(source) = value.as_str() else {
            return Err(self.r.err(&at, "`pattern` must be a string", "write the regular expression as a JSON string"));
        };
        let pattern = Pattern::parse(source).map_err(|e| {
            let place = e.offset.map_or(String::new(), |o| format!(" (at character {o})"));
            self.r.err(&at, format!("pattern {}{place}: {}", serde_json::Value::from(source), e.problem), e.fix)
        })?;
        Ok(Ty::Pattern { inner: Box::new(string), pattern })
    }

    /// `const` on a property's own schema: a string, an integer within
    /// ±(2^53-1) or a boolean, read as that type; or null, an object, an
    /// array or a fractional number, read as any JSON value and compared by
    /// JSON equality. Its `type` may be written (the one of the value) or
    /// left out. No integer literal in it may lie beyond ±(2^53-1): the
    /// JSON-text rules refuse such a literal in every frame.
    ///
    /// Such a JSON `const` is on a required property only: the member must be
    /// there (`const: null` is a member that must be present and null), as
    /// an optional member read as any JSON value would keep absent apart from
    /// null in a way of its own in each target.
    fn constant(&self, schema: &Map<String, Value>, value: &Value, p: &str, property: bool, required: bool) -> Result<Ty, SchemaError> {
        let at = push_pointer(p, "const");
        if !property {
            return Err(self.r.err(&at, "`const` is supported on a property's own schema only, not on array items or map values", "name a $defs object for the item"));
        }
        self.r.only_keys(schema, &["description", "const", "type"], p)?;
        let (inner, constant, kind) = match value {
            Value::String(s) => (Ty::String, Constant::String(s.clone()), "string"),
            Value::Bool(b) => (Ty::Boolean, Constant::Boolean(*b), "boolean"),
            Value::Number(_) => match safe_integer(value) {
                Some(n) => (Ty::Integer { minimum: None, maximum: None }, Constant::Integer(n), "integer"),
                None => {
                    self.safe_numbers(value, &at, "const")?;
                    (Ty::Any, Constant::Json(value.to_string()), "number")
                }
            },
            Value::Null => (Ty::Any, Constant::Json(value.to_string()), "null"),
            Value::Array(_) => {
                self.safe_numbers(value, &at, "const")?;
                (Ty::Any, Constant::Json(value.to_string()), "array")
            }
            Value::Object(_) => {
                self.safe_numbers(value, &at, "const")?;
                (Ty::Any, Constant::Json(value.to_string()), "object")
            }
        };
        if inner == Ty::Any && !required {
            return Err(self.r.err(
                &at,
                format!("a `const` {kind} is supported on a required property only"),
                "make the property required (a `const: null` member must then be present and null), or use a string, integer or boolean `const`",
            ));
        }
        match schema.get("type") {
            None => {}
            Some(Value::String(t)) if t == kind => {}
            Some(other) => {
                return Err(self.r.err(&push_pointer(p, "type"), format!("the `const` is a {kind}, the `type` says {other}"), format!("write `type: {kind}`, or leave the type out")));
            }
        }
        Ok(Ty::Const { inner: Box::new(inner), value: constant })
    }

    /// Refuses an integer literal beyond ±(2^53-1) anywhere in a `const` or
    /// an `enum` value (`keyword`), at its pointer: no frame can carry it as
    /// written.
    fn safe_numbers(&self, value: &Value, at: &str, keyword: &str) -> Result<(), SchemaError> {
        match value {
            Value::Number(n) if (n.is_i64() || n.is_u64()) && safe_integer(value).is_none() => Err(self.r.err(
                at,
                format!("{} `{keyword}` integer must be within ±(2^53-1), not {value}", if keyword == "enum" { "an" } else { "a" }),
                "the JSON-text rules refuse an integer literal beyond that range in every frame: write a smaller integer, or the number with a fraction or an exponent (`9007199254740992.0`) if a double is meant",
            )),
            Value::Array(items) => items.iter().enumerate().try_for_each(|(i, item)| self.safe_numbers(item, &format!("{at}/{i}"), keyword)),
            Value::Object(members) => members.iter().try_for_each(|(key, member)| self.safe_numbers(member, &push_pointer(at, key), keyword)),
            _ => Ok(()),
        }
    }

    /// `enum` on a property's own schema (not a `$defs` string enum): any
    /// JSON values, mixed, read as any JSON value that must equal one of them
    /// by JSON equality, like a `const` of any JSON value. A `type` may be
    /// written (one type name) when every value is of it: membership then
    /// implies the type. On a required property only (as a JSON `const`).
    /// The member is typed by [`listed_kind`]: `int`, `string | null`, ...
    /// Refused: an empty list, a value equal to an earlier one by JSON
    /// equality, an integer literal beyond ±(2^53-1) in a value.
    fn one_of(&self, schema: &Map<String, Value>, values: &Value, p: &str, property: bool, required: bool) -> Result<Ty, SchemaError> {
        let at = push_pointer(p, "enum");
        if !property {
            return Err(self.r.err(&at, "an inline `enum` is supported on a property's own schema only, not on array items or map values", "name a $defs string enum (`type: string` + `enum`) for the items, or a $defs object holding the value"));
        }
        self.r.only_keys(schema, &["description", "enum", "type"], p)?;
        let Some(values) = values.as_array() else {
            return Err(self.r.err(&at, "`enum` must be a list of values", "write `enum: [...]`"));
        };
        if values.is_empty() {
            return Err(self.r.err(&at, "an empty `enum` accepts no value", "list the values a member can hold, or remove the member"));
        }
        let kind = match schema.get("type") {
            None => None,
            Some(Value::String(t)) if ["null", "boolean", "integer", "number", "string", "array", "object"].contains(&t.as_str()) => Some(t.as_str()),
            Some(other) => return Err(self.r.err(&push_pointer(p, "type"), format!("the `type` of an inline `enum` must be one type name, not {other}"), "write one type name every value is of, or leave the type out (list `null` among the values for a member that may be null)")),
        };
        for (i, value) in values.iter().enumerate() {
            let here = format!("{at}/{i}");
            self.safe_numbers(value, &here, "enum")?;
            if let Some(kind) = kind.filter(|kind| !of_type(value, kind)) {
                return Err(self.r.err(&here, format!("the value {value} is not of the `type` {kind}: no member could hold it"), "remove the value, or the `type`"));
            }
            if let Some(first) = values[..i].iter().position(|earlier| json_equal(earlier, value)) {
                return Err(self.r.err(&here, format!("the value {value} equals value {first} by JSON equality (`1` is `1.0`, member order does not matter)"), "remove the repeat"));
            }
        }
        // Optional only when typed as one scalar kind without `null`: a
        // member left out and one that is `null` must not read alike.
        let typed = listed_kind(values, kind);
        if !required && !matches!(typed, Some((_, false))) {
            return Err(self.r.err(
                &at,
                "an inline `enum` that lists `null` or values of several kinds is supported on a required property only",
                "make the property required (list `null` among the values for a member that may carry nothing), or list values of one kind (strings, booleans, integers or numbers) and no `null`",
            ));
        }
        let listed: Vec<String> = values.iter().map(Value::to_string).collect();
        let value = Constant::OneOf(listed.join(", "));
        Ok(match typed {
            // `null` is listed: read before the check, which it passes.
            Some((kind, true)) => Ty::Nullable(Box::new(Ty::Const { inner: Box::new(kind), value })),
            Some((kind, false)) => Ty::Const { inner: Box::new(kind), value },
            None => Ty::Const { inner: Box::new(Ty::Any), value },
        })
    }

    /// `propertyNames` on a map: a string schema with a length and/or a
    /// pattern (what a member name can be checked for in every target).
    fn property_names(&self, schema: &Map<String, Value>, p: &str) -> Result<Option<Ty>, SchemaError> {
        let Some(names) = schema.get("propertyNames") else { return Ok(None) };
        let at = push_pointer(p, "propertyNames");
        let names = match names {
            Value::Object(names) => names,
            // Every name is allowed: nothing to check.
            Value::Bool(true) => return Ok(None),
            // No name is allowed: read as `maxProperties: 0` by the caller.
            Value::Bool(false) => return Ok(None),
            _ => return Err(self.r.err(&at, "`propertyNames` must be a schema", "write `{\"minLength\": 1, \"pattern\": \"...\"}`")),
        };
        self.refuse_unsupported(names, &at)?;
        self.r.only_keys(names, &["type", "minLength", "maxLength", "pattern"], &at)?;
        if names.get("type").is_some_and(|t| t != "string") {
            return Err(self.r.err(&push_pointer(&at, "type"), "a member name is always a string", "write `\"type\": \"string\"`, or leave the type out"));
        }
        let bounded = self.length_bounds(names, &at, true, Ty::String, ["minLength", "maxLength"])?;
        let checked = self.pattern(names, &at, true, bounded)?;
        Ok((checked != Ty::String).then_some(checked))
    }

    /// `uniqueItems: true` on a property's own array of any items. Strings,
    /// integers, numbers (doubles: `-0.0` is `0.0`) and booleans, with or
    /// without constraints of their own, are compared natively as the values
    /// they decode to (`1.0` is `1`); any JSON values (`items: {}`) by JSON
    /// equality; `$defs` types, arrays and nullable items by JSON equality
    /// of the values they were read from ([`Ty::unique_by_read`]). `false`
    /// asks nothing.
    fn unique_items(&self, schema: &Map<String, Value>, p: &str, property: bool, array: Ty) -> Result<Ty, SchemaError> {
        let Some(unique) = schema.get("uniqueItems") else { return Ok(array) };
        let at = push_pointer(p, "uniqueItems");
        let Some(unique) = unique.as_bool() else {
            return Err(self.r.err(&at, "`uniqueItems` must be true or false", "write `uniqueItems: true`"));
        };
        if !unique {
            return Ok(array);
        }
        if !property {
            return Err(self.r.err(&at, "`uniqueItems` is supported on a property's own array only, not on array items or map values", "name a $defs object for the item"));
        }
        Ok(Ty::Unique(Box::new(array)))
    }

    /// An array with `prefixItems` on a property's own schema: a list of
    /// any JSON values whose first items are of the JSON kinds listed (each
    /// `{"type": K}`, or `{}` for any kind), the rest of the kind `items`
    /// gives (`{"type": K}`; absent, `true` or `{}`: any), or none at all
    /// (`items: false`, read as a `maxItems` of the prefix's length). An item
    /// left out is no problem (`prefixItems` asks nothing of a short array).
    fn prefix_items(&self, schema: &Map<String, Value>, p: &str, property: bool) -> Result<Ty, SchemaError> {
        let at = push_pointer(p, "prefixItems");
        if !property {
            return Err(self.r.err(&at, "`prefixItems` is supported on a property's own array only, not on array items or map values", "name a $defs object for the item"));
        }
        let Some(prefix) = schema.get("prefixItems").and_then(Value::as_array).filter(|items| !items.is_empty() && items.len() <= MAX_PREFIX) else {
            return Err(self.r.err(&at, format!("`prefixItems` must be a list of 1 to {MAX_PREFIX} item schemas"), "write `prefixItems: [{\"type\": \"string\"}, {\"type\": \"integer\"}]`"));
        };
        let kinds = prefix.iter().enumerate().map(|(i, item)| self.item_kind(item, &format!("{at}/{i}"))).collect::<Result<Vec<_>, _>>()?;
        let (rest, closed) = match schema.get("items") {
            None | Some(Value::Bool(true)) => (None, false),
            Some(Value::Bool(false)) => (None, true),
            Some(items) => (self.item_kind(items, &push_pointer(p, "items"))?, false),
        };
        let counted = self.length_bounds(schema, p, property, Ty::Array(Box::new(Ty::Any)), ["minItems", "maxItems"])?;
        let counted = if closed {
            // No item past the prefix: a maximum of its length (or the tighter one written).
            let length = prefix.len() as u64;
            match counted {
                Ty::Length { inner, min, max } => {
                    if min.is_some_and(|m| m > length) {
                        return Err(self.r.err(&push_pointer(p, "minItems"), format!("`minItems` {} is above the {length} items `prefixItems` allows with `items: false`", min.unwrap_or_default()), "lower `minItems`, or allow more items"));
                    }
                    Ty::Length { inner, min, max: Some(max.map_or(length, |m| m.min(length))) }
                }
                array => Ty::Length { inner: Box::new(array), min: None, max: Some(length) },
            }
        } else {
            counted
        };
        Ok(Ty::Prefix { inner: Box::new(counted), kinds, rest })
    }

    /// An item schema of `prefixItems` (or the `items` beside it): `{}` or
    /// `true` for any kind (`None`), or `{"type": K}` for one JSON kind.
    fn item_kind(&self, item: &Value, p: &str) -> Result<Option<String>, SchemaError> {
        if item == &Value::Bool(true) {
            return Ok(None);
        }
        let item = self.r.object(item, p)?;
        self.r.only_keys(item, &["description", "type"], p)?;
        match item.get("type") {
            None => Ok(None),
            Some(Value::String(kind)) if JSON_KINDS.contains(&kind.as_str()) => Ok(Some(kind.clone())),
            Some(other) => Err(self.r.err(&push_pointer(p, "type"), format!("an item of `prefixItems` is checked for one JSON kind, not {other}"), format!("write one of {}", JSON_KINDS.join(", ")))),
        }
    }

    /// The variants of a tagged union, if every variant requires a member of
    /// one name with a string `const`; two variants with one value are refused.
    fn tagged(&self, p: &str, fields_of: &[(String, Vec<&Field>)]) -> Result<Option<Vec<UnionVariant>>, SchemaError> {
        let tag_of = |fields: &[&Field], member: &str| {
            fields.iter().find(|f| f.name == member && f.required).and_then(|f| match &f.ty {
                Ty::Const { value: Constant::String(value), .. } => Some(value.clone()),
                _ => None,
            })
        };
        let Some((_, first)) = fields_of.first() else { return Ok(None) };
        let Some(member) = first.iter().map(|f| f.name.as_str()).find(|m| fields_of.iter().all(|(_, fields)| tag_of(fields, m).is_some())) else {
            return Ok(None);
        };
        let mut out: Vec<UnionVariant> = Vec::new();
        for (i, (variant, fields)) in fields_of.iter().enumerate() {
            let tag = tag_of(fields, member).unwrap_or_default();
            if let Some(other) = out.iter().find(|v| v.tag.as_deref() == Some(tag.as_str())) {
                return Err(self.r.err(
                    &format!("{p}/oneOf/{i}"),
                    format!("variants `{}` and `{variant}` both have `{member}` {}, so decoders cannot tell them apart by their tag", other.type_name, Value::from(tag.as_str())),
                    format!("give each variant its own `const` for `{member}`"),
                ));
            }
            out.push(UnionVariant { type_name: variant.clone(), discriminator: member.to_string(), tag: Some(tag) });
        }
        Ok(Some(out))
    }

    /// The variants of a union told apart by shape: each by a required field
    /// that no other variant declares.
    fn by_shape(&self, p: &str, fields_of: &[(String, Vec<&Field>)]) -> Result<Vec<UnionVariant>, SchemaError> {
        let mut out = Vec::new();
        for (i, (variant, fields)) in fields_of.iter().enumerate() {
            let others: BTreeSet<&str> = fields_of.iter().enumerate().filter(|(j, _)| *j != i).flat_map(|(_, (_, f))| f.iter().map(|f| f.name.as_str())).collect();
            let Some(discriminator) = fields.iter().find(|f| f.required && !others.contains(f.name.as_str())) else {
                return Err(self.r.err(
                    &format!("{p}/oneOf/{i}"),
                    format!("variant `{variant}` has no required field that the other variants lack, and the variants share no required member with a string `const` (a tag), so decoders cannot tell the variants apart"),
                    "add a required field unique to this variant, or give every variant a required member of one name with its own string `const` (`\"type\": {\"const\": \"call\"}`)",
                ));
            };
            out.push(UnionVariant { type_name: variant.clone(), discriminator: discriminator.name.clone(), tag: None });
        }
        Ok(out)
    }

    fn nullable(&self, ty: Ty, p: &str, required: bool) -> Result<Ty, SchemaError> {
        if !required {
            return Err(self.r.err(p, "an optional field that may also be null has two ways to say nothing", "make it required and nullable, or optional and not nullable"));
        }
        Ok(Ty::Nullable(Box::new(ty)))
    }

    fn build_union(&self, schema: &Map<String, Value>, p: &str) -> Result<TypeKind, SchemaError> {
        let items = schema.get("oneOf").and_then(Value::as_array).ok_or_else(|| self.r.err(&format!("{p}/oneOf"), "`oneOf` must be an array", "list $refs"))?;
        if items.len() < 2 {
            return Err(self.r.err(&format!("{p}/oneOf"), "a union needs at least two variants", "use the type directly"));
        }
        let mut variants = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = format!("{p}/oneOf/{i}");
            let item = self.r.object(item, &at)?;
            self.r.only_keys(item, &["$ref"], &at)?;
            let reference = item.get("$ref").ok_or_else(|| self.r.err(&at, "a union variant must be a `$ref`", "name the variant under $defs and $ref it"))?;
            let type_name = self.resolve_ref(reference, &format!("{at}/$ref"))?;
            variants.push(UnionVariant { type_name, discriminator: String::new(), tag: None });
        }
        Ok(TypeKind::Union(variants))
    }

    /// Every variant must be a closed object. The variants are told apart by
    /// a tag when every one requires a member of the same name with a string
    /// `const`, each its own value (the first such member in the first
    /// variant's order); else by shape: each has a required field that no
    /// other variant declares. Either is how every decoder picks a variant
    /// without trying them.
    fn resolve_unions(&self, types: &mut BTreeMap<String, TypeDef>) -> Result<(), SchemaError> {
        let unions: Vec<String> = types.iter().filter(|(_, t)| matches!(t.kind, TypeKind::Union(_))).map(|(n, _)| n.clone()).collect();
        let mut resolved = Vec::new();
        for name in unions {
            let p = push_pointer("/$defs", &name);
            let TypeKind::Union(variants) = &types[&name].kind else { continue };
            let mut fields_of: Vec<(String, Vec<&Field>)> = Vec::new();
            for (i, v) in variants.iter().enumerate() {
                match &types[&v.type_name].kind {
                    TypeKind::Object(o) => fields_of.push((v.type_name.clone(), o.fields.iter().collect())),
                    _ => return Err(self.r.err(&format!("{p}/oneOf/{i}"), format!("variant `{}` is not a closed object", v.type_name), "union variants must be closed objects")),
                }
            }
            let out = match self.tagged(&p, &fields_of)? {
                Some(tagged) => tagged,
                None => self.by_shape(&p, &fields_of)?,
            };
            resolved.push((name, out));
        }
        for (name, variants) in resolved {
            if let Some(def) = types.get_mut(&name) {
                def.kind = TypeKind::Union(variants);
            }
        }
        Ok(())
    }
}

/// How many arrays `ty` nests in one another (`string[][]` is 2).
fn array_depth(ty: &Ty) -> u32 {
    match ty {
        Ty::Array(item) => 1 + array_depth(item),
        Ty::Nullable(inner) | Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => array_depth(inner),
        Ty::Any | Ty::Boolean | Ty::Integer { .. } | Ty::Number { .. } | Ty::String | Ty::Ref(_) => 0,
    }
}

/// Whether a JSON value is of a JSON Schema type (`integer`: a number with
/// no fraction, `1.0` included).
/// The one scalar kind of an inline `enum`'s values but `null` (strings,
/// booleans, integers; numbers when one is not whole or `type: number` is
/// written), and whether `null` is listed too; none when they are of
/// several kinds, or are arrays or objects: the member is then any JSON
/// value. A value is checked as any JSON value first (so every problem is
/// the `enum`'s), then read as its kind, which cannot fail.
fn listed_kind(values: &[Value], written: Option<&str>) -> Option<(Ty, bool)> {
    let scalars: Vec<&Value> = values.iter().filter(|v| !v.is_null()).collect();
    let all = |kind: &str| !scalars.is_empty() && scalars.iter().all(|v| of_type(v, kind));
    let kind = if all("string") {
        Ty::String
    } else if all("boolean") {
        Ty::Boolean
    } else if all("integer") && written != Some("number") {
        Ty::Integer { minimum: None, maximum: None }
    } else if all("number") {
        Ty::Number { minimum: None, maximum: None }
    } else {
        return None;
    };
    Some((kind, scalars.len() < values.len()))
}

fn of_type(value: &Value, kind: &str) -> bool {
    match value {
        Value::Null => kind == "null",
        Value::Bool(_) => kind == "boolean",
        Value::Number(n) => kind == "number" || (kind == "integer" && n.as_f64().is_some_and(|f| f.fract() == 0.0)),
        Value::String(_) => kind == "string",
        Value::Array(_) => kind == "array",
        Value::Object(_) => kind == "object",
    }
}

/// JSON equality, as every target's runtime decides it: numbers by value
/// as doubles (`1` is `1.0`), objects whatever their member order, arrays
/// item by item, `true` never `1`.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w))),
        _ => a == b,
    }
}

/// A JSON number that is an integer within the JSON-text range ±(2^53-1)
/// (`2.0` included): what a bound or a count in the schema must be.
fn safe_integer(value: &Value) -> Option<i64> {
    const SAFE: i64 = (1 << 53) - 1;
    let integral = value.as_i64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && f.abs() <= SAFE as f64).map(|f| f as i64));
    integral.filter(|n| (-SAFE..=SAFE).contains(n))
}

/// Whether some multiple of `divisor` lies within two number bounds: one
/// does when they are two divisors apart or more; else the multiples next to
/// the minimum's quotient (read as decimals, as a number is) are tried.
fn some_multiple_between(divisor: Divisor, low: NumberBound, high: NumberBound) -> bool {
    let d = divisor.value();
    if high.value - low.value >= 2.0 * d {
        return true;
    }
    let inside = |v: f64| (v > low.value || (!low.exclusive && v == low.value)) && (v < high.value || (!high.exclusive && v == high.value));
    let first = (low.value / d).floor();
    if first.abs() >= 1e15 {
        return true;
    }
    #[allow(clippy::cast_possible_truncation)]
    let first = first as i64;
    (first - 1..=first + 2).any(|k| {
        let magnitude = divisor.digits.checked_mul(k.unsigned_abs());
        magnitude.is_some_and(|m| {
            let v: f64 = format!("{}{m}e{}", if k < 0 { "-" } else { "" }, divisor.exponent).parse().unwrap_or(f64::NAN);
            inside(v)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::listed_kind;
    use crate::model::Ty;
    use serde_json::json;

    fn kind(values: serde_json::Value, written: Option<&str>) -> Option<(Ty, bool)> {
        listed_kind(values.as_array().map(Vec::as_slice).unwrap_or_default(), written)
    }

    /// The divisor an integer's `multipleOf` is read as (`None`: no check).
    fn integer_divisor(divisor: serde_json::Value) -> Option<u64> {
        let v2 = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas/ipc/v2.json")).ok()?;
        let mut schema: serde_json::Value = serde_json::from_str(&v2).ok()?;
        schema["$defs"]["T"] = serde_json::json!({"description": "d", "type": "object", "properties": {"x": {"description": "d", "type": "integer", "multipleOf": divisor}}, "required": ["x"], "additionalProperties": false});
        let dir = tempfile::tempdir().ok()?;
        let path = dir.path().join("s.json");
        std::fs::write(&path, schema.to_string()).ok()?;
        let (contract, _) = crate::load::load(&path, "s.json").ok()?;
        match &contract.types.get("T")?.kind {
            crate::model::TypeKind::Object(object) => match &object.fields[0].ty {
                Ty::Multiple { divisor, .. } => divisor.as_whole(),
                _ => None,
            },
            _ => None,
        }
    }

    #[test]
    fn a_fractional_divisor_on_an_integer_is_the_whole_divisor_it_means_there() {
        assert_eq!(integer_divisor(serde_json::json!(5)), Some(5));
        assert_eq!(integer_divisor(serde_json::json!(1.5)), Some(3));
        assert_eq!(integer_divisor(serde_json::json!(0.75)), Some(3));
        assert_eq!(integer_divisor(serde_json::json!(2.5)), Some(5));
        assert_eq!(integer_divisor(serde_json::json!(0.123456789)), Some(123456789));
        assert_eq!(integer_divisor(serde_json::json!(1e-8)), None, "1e-8 divides every integer");
        assert_eq!(integer_divisor(serde_json::json!(0.0001)), None);
        assert_eq!(integer_divisor(serde_json::json!(20)), Some(20));
    }

    #[test]
    fn an_inline_enum_of_one_scalar_kind_is_typed_as_it_and_null_makes_it_nullable() {
        let integer = Ty::Integer { minimum: None, maximum: None };
        let number = Ty::Number { minimum: None, maximum: None };
        assert_eq!(kind(json!(["fast", "safe"]), None), Some((Ty::String, false)));
        assert_eq!(kind(json!(["fast", null, "safe"]), None), Some((Ty::String, true)));
        assert_eq!(kind(json!([false]), None), Some((Ty::Boolean, false)));
        assert_eq!(kind(json!([1, 2.0, 3]), None), Some((integer.clone(), false)));
        assert_eq!(kind(json!([null, 6]), Some("integer")), Some((integer, true)));
        assert_eq!(kind(json!([0.5, 1]), None), Some((number.clone(), false)));
        assert_eq!(kind(json!([1, 2]), Some("number")), Some((number, false)));
    }

    #[test]
    fn an_inline_enum_of_several_kinds_or_of_containers_or_of_null_alone_is_any_json_value() {
        assert_eq!(kind(json!([1, "a"]), None), None);
        assert_eq!(kind(json!([true, 0]), None), None);
        assert_eq!(kind(json!([[1], [2]]), None), None);
        assert_eq!(kind(json!([{"k": 1}]), None), None);
        assert_eq!(kind(json!([null]), None), None);
    }
}
