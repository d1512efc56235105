//! typify 0.8 over the `$defs`, then a syn pass that closes the gaps typify
//! leaves: an optional field must not accept `null` (serde's `Option` does),
//! and unions are decoded by shape, not by serde's untagged guessing.

use proc_macro2::TokenStream;
use quote::quote;
use syn::visit_mut::VisitMut;

use super::Flavor;
use crate::model::{Contract, NumberBound};
use crate::SchemaError;

fn typify_error(contract: &Contract, pointer: &str, problem: String) -> SchemaError {
    SchemaError::new(
        std::path::Path::new(&contract.source),
        pointer,
        problem,
        "this construct passed the subset check but typify refused it: narrow the subset in codegen/src/subset.rs",
    )
}

/// The typify-generated types for every `$defs` entry, tightened.
pub fn types(contract: &Contract, raw: &serde_json::Value, flavor: Flavor) -> Result<Types, SchemaError> {
    let defs = typify_view(contract, raw.get("$defs").cloned().unwrap_or_default());
    let root = serde_json::json!({ "$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs });
    let root: schemars::schema::RootSchema =
        serde_json::from_value(root).map_err(|e| typify_error(contract, "/$defs", format!("schemars cannot read the definitions: {e}")))?;
    let mut settings = typify::TypeSpaceSettings::default();
    settings.with_struct_builder(false);
    settings.with_map_type("::std::collections::BTreeMap".to_string());
    if flavor == Flavor::WithJsonSchema {
        settings.with_derive("::schemars::JsonSchema".to_string());
    }
    let mut space = typify::TypeSpace::new(&settings);
    // typify panics on some inputs the subset check is meant to exclude; keep a
    // backtrace from ever reaching a user if one slips through.
    let added = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        space.add_ref_types(root.definitions.clone()).map(|_| space.to_stream())
    }));
    let stream = match added {
        Ok(Ok(stream)) => stream,
        Ok(Err(e)) => return Err(typify_error(contract, "/$defs", format!("typify refused the definitions: {e}"))),
        Err(_) => return Err(typify_error(contract, "/$defs", "typify panicked on the definitions".into())),
    };
    let mut file: syn::File =
        syn::parse2(stream).map_err(|e| typify_error(contract, "/$defs", format!("typify produced invalid tokens: {e}")))?;
    let mut tighten = Tighten { contract, fields: Vec::new(), strict_serde: Vec::new(), after: Vec::new() };
    tighten.visit_file_mut(&mut file);
    let mut after = tighten.after;
    after.extend(super::envelopes::typed_structs(contract, &file)?);
    after.extend(super::readers::items(contract, &file)?);
    Ok(Types { file, strict_serde: tighten.strict_serde, after })
}

/// The `$defs` as typify reads them: each description with its annotations
/// folded in (typify writes the doc comments from it), and the annotation
/// keywords removed (typify would turn a `format` into a type of another
/// crate and a `default` into a filled-in value; both are documentation here).
fn typify_view(contract: &Contract, mut defs: serde_json::Value) -> serde_json::Value {
    let Some(defs_map) = defs.as_object_mut() else { return defs };
    for (name, schema) in defs_map.iter_mut() {
        let Some(def) = contract.types.get(name) else { continue };
        let Some(schema) = schema.as_object_mut() else { continue };
        without_annotations(schema, &def.description);
        // A map's member count and names are checked by `strict::members_within`
        // and `strict::named_members_within`.
        schema.remove("minProperties");
        schema.remove("maxProperties");
        schema.remove("propertyNames");
        let crate::model::TypeKind::Object(object) = &def.kind else { continue };
        let Some(properties) = schema.get_mut("properties").and_then(serde_json::Value::as_object_mut) else { continue };
        for field in &object.fields {
            if let Some(property) = properties.get_mut(&field.name).and_then(serde_json::Value::as_object_mut) {
                without_annotations(property, &field.description);
                // typify makes a newtype of a string with a length (even
                // `minLength: 0`) or a pattern and a set of unique items;
                // `strict` checks them on the plain `String` and `Vec` instead.
                for keyword in ["minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "pattern"] {
                    property.remove(keyword);
                }
                let check = Check::of(&field.ty);
                if check.is_some() {
                    for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] {
                        property.remove(keyword);
                    }
                }
                // An array with `prefixItems` is a `Vec` of any JSON values,
                // its kinds checked by `strict::prefix_kinds_within`.
                if matches!(check, Some(Check::Prefix(..))) {
                    property.remove("prefixItems");
                    property.insert("items".to_string(), serde_json::json!({}));
                }
                // Checked items are read by `strict::each` as plain strings and integers.
                if matches!(check, Some(Check::Each(..) | Check::UniqueEach(..))) {
                    if let Some(items) = property.get_mut("items").and_then(serde_json::Value::as_object_mut) {
                        for keyword in ["minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"] {
                            items.remove(keyword);
                        }
                    }
                }
                // typify 0.8 drops `const`: the field is its plain type,
                // which `strict` checks against the value.
                // An inline `enum` of scalars that lists `null` is a nullable `const`.
                if let crate::model::Ty::Const { value, .. } = field.ty.non_null() {
                    property.remove("const");
                    let kind = match value {
                        crate::model::Constant::String(_) => "string",
                        crate::model::Constant::Integer(_) => "integer",
                        crate::model::Constant::Boolean(_) => "boolean",
                        // Any JSON value (`serde_json::Value`), checked by `strict::json_constant`.
                        crate::model::Constant::Json(_) => {
                            property.remove("type");
                            continue;
                        }
                        // Any JSON value, checked by `strict::json_one_of`.
                        crate::model::Constant::OneOf(_) => {
                            property.remove("enum");
                            property.remove("type");
                            // Or of one scalar kind (and null): checked, then
                            // read as it by `strict::json_one_of_as`.
                            if let Some(kind) = listed_kind(&field.ty) {
                                property.insert("type".to_string(), kind);
                            }
                            continue;
                        }
                    };
                    property.insert("type".to_string(), serde_json::Value::from(kind));
                }
            }
        }
    }
    defs
}

/// The JSON Schema `type` typify reads an inline `enum` of scalars (and
/// `null`) as: `"integer"`, `["string", "null"]`; none for any JSON values.
fn listed_kind(ty: &crate::model::Ty) -> Option<serde_json::Value> {
    use crate::model::Ty;
    let name = |ty: &Ty| match ty {
        Ty::Const { inner, .. } => match inner.as_ref() {
            Ty::String => Some("string"),
            Ty::Boolean => Some("boolean"),
            Ty::Integer { .. } => Some("integer"),
            Ty::Number { .. } => Some("number"),
            _ => None,
        },
        _ => None,
    };
    match ty {
        Ty::Nullable(constant) => name(constant).map(|kind| serde_json::json!([kind, "null"])),
        constant => name(constant).map(serde_json::Value::from),
    }
}

fn without_annotations(schema: &mut serde_json::Map<String, serde_json::Value>, description: &str) {
    for keyword in crate::annotations::KEYWORDS {
        schema.remove(*keyword);
    }
    schema.insert("description".to_string(), serde_json::Value::from(description));
}

/// The syn pass: strict optional fields, shape-dispatched unions, and struct
/// fields back in schema declaration order (typify sorts them by name; the
/// encoder writes fields in struct order).
struct Tighten<'c> {
    contract: &'c Contract,
    /// The fields of the struct being visited, from the model.
    fields: Vec<crate::model::Field>,
    /// The types that read through [`strict_serde`], in file order.
    strict_serde: Vec<syn::Ident>,
    /// The items after those impls.
    after: Vec<syn::Item>,
}

/// The types typify renders, tightened, in three runs: the types, the
/// strict serde impls of [`strict_serde`] for the types it names (the same
/// two items per type, so the SDK file prints them from one layout per name
/// length, [`super::repeated`]), and the items after those.
pub struct Types {
    pub file: syn::File,
    /// Each struct and string enum that reads through `strict::ObjectOnly`.
    pub strict_serde: Vec<syn::Ident>,
    /// The counted maps' impls and the typed envelopes.
    pub after: Vec<syn::Item>,
}

impl Types {
    /// All three runs in one file, in order.
    pub fn into_file(self) -> syn::File {
        let mut file = self.file;
        file.items.extend(self.strict_serde.iter().flat_map(strict_serde));
        file.items.extend(self.after);
        file
    }
}

/// A struct or string enum reads from a JSON object (or string) only:
/// serde's derive (`remote = "Self"`) becomes inherent functions, and the
/// traits go through `strict::ObjectOnly`.
pub fn strict_serde(name: &syn::Ident) -> [syn::Item; 2] {
    [
        syn::parse_quote! {
            impl<'de> ::serde::Deserialize<'de> for #name {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    #name::deserialize(strict::ObjectOnly(deserializer))
                }
            }
        },
        syn::parse_quote! {
            impl ::serde::Serialize for #name {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                    #name::serialize(self, serializer)
                }
            }
        },
    ]
}

/// A field's constraint that typify does not enforce, checked by a
/// `strict` deserializer whose const parameters carry the bounds.
enum Check {
    /// An integer's bounds other than a lone minimum of 0 or 1 (typify maps
    /// those to `u64`/`NonZeroU64`), or any bounds with a divisor:
    /// `strict::integer_within`.
    Integer(Option<i64>, Option<i64>, Option<u64>),
    /// A number's bounds, compared as doubles, and divisor:
    /// `strict::number_within` (typify reads any number as an `f64`, bounds
    /// or not).
    Number(Option<NumberBound>, Option<NumberBound>, Option<crate::model::Divisor>),
    /// A string's length in code points: `strict::length_within`.
    Characters(Option<u64>, Option<u64>),
    /// A string's length in code points and the pattern (by number) that
    /// must find a match in it: `strict::matching_within`.
    Pattern(Option<u64>, Option<u64>, usize),
    /// A `const`: `strict::string_constant` (with the value's marker type
    /// in the generated `constants` module), `integer_constant` or
    /// `boolean_constant`.
    Const(crate::model::Constant),
    /// An inline `enum` of one scalar kind (and `null`), listed as JSON
    /// text: `strict::json_one_of_as`, read as the field's own type.
    Listed(String),
    /// An array's number of items: `strict::items_within`.
    Items(Option<u64>, Option<u64>),
    /// An array's number of items and its items' uniqueness:
    /// `strict::unique_items_within`.
    UniqueItems(Option<u64>, Option<u64>),
    /// An array of any JSON values' number of items and its items'
    /// uniqueness by JSON equality: `strict::unique_json_within`.
    UniqueJson(Option<u64>, Option<u64>),
    /// An array of `$defs` types', arrays' or nullable items' number of
    /// items and their uniqueness by JSON equality of the items written
    /// back: `strict::unique_read_within`.
    UniqueRead(Option<u64>, Option<u64>),
    /// An array of any JSON values' number of items, its items' JSON kinds
    /// (`prefixItems`, as `strict::prefix_kinds_within`'s code) and maybe
    /// their uniqueness by JSON equality.
    Prefix(Option<u64>, Option<u64>, bool, u64),
    /// An array of numbers' number of items and its items' uniqueness as
    /// doubles (`-0.0` is `0.0`): `strict::unique_numbers_within`.
    UniqueNumbers(Option<u64>, Option<u64>),
    /// An array's number of items and a check on each item (an integer's
    /// or a number's bounds, a string's length or pattern): `strict::each`.
    Each(Box<Check>, Option<u64>, Option<u64>),
    /// [`Check::Each`] with the items' uniqueness as decoded (numbers as
    /// doubles): `strict::unique_each`.
    UniqueEach(Box<Check>, Option<u64>, Option<u64>),
}

impl Check {
    fn of(ty: &crate::model::Ty) -> Option<Check> {
        use crate::model::Ty;
        match ty {
            Ty::Integer { minimum, maximum } => {
                (maximum.is_some() || !matches!(minimum, None | Some(0) | Some(1))).then_some(Check::Integer(*minimum, *maximum, None))
            }
            Ty::Number { minimum, maximum } => {
                (minimum.is_some() || maximum.is_some()).then_some(Check::Number(*minimum, *maximum, None))
            }
            Ty::Multiple { inner, divisor } => match inner.as_ref() {
                Ty::Integer { minimum, maximum } => Some(Check::Integer(*minimum, *maximum, divisor.as_whole())),
                Ty::Number { minimum, maximum } => Some(Check::Number(*minimum, *maximum, Some(*divisor))),
                _ => None,
            },
            Ty::Pattern { inner, pattern } => match inner.as_ref() {
                Ty::Length { min, max, .. } => Some(Check::Pattern(*min, *max, pattern.number)),
                _ => Some(Check::Pattern(None, None, pattern.number)),
            },
            Ty::Array(item) => Check::of(item).map(|c| Check::Each(Box::new(c), None, None)),
            Ty::Length { inner, min, max } => match inner.as_ref() {
                Ty::Array(item) => match Check::of(item) {
                    Some(c) => Some(Check::Each(Box::new(c), *min, *max)),
                    None => Some(Check::Items(*min, *max)),
                },
                _ => Some(Check::Characters(*min, *max)),
            },
            Ty::Prefix { inner, kinds, rest } => Some(prefix_check(inner, kinds, rest.as_deref(), false)),
            Ty::Unique(inner) => {
                if let Ty::Prefix { inner, kinds, rest } = inner.as_ref() {
                    return Some(prefix_check(inner, kinds, rest.as_deref(), true));
                }
                let (min, max) = match inner.as_ref() {
                    Ty::Length { min, max, .. } => (*min, *max),
                    _ => (None, None),
                };
                let item = match inner.unbounded() {
                    Ty::Array(item) => Check::of(item),
                    _ => None,
                };
                Some(if inner.unique_by_json() {
                    Check::UniqueJson(min, max)
                } else if inner.unique_by_read() {
                    Check::UniqueRead(min, max)
                } else if let Some(item) = item {
                    Check::UniqueEach(Box::new(item), min, max)
                } else if matches!(inner.unbounded(), Ty::Array(item) if matches!(**item, Ty::Number { .. })) {
                    Check::UniqueNumbers(min, max)
                } else {
                    Check::UniqueItems(min, max)
                })
            }
            Ty::Const { value: crate::model::Constant::OneOf(listed), inner } if **inner != Ty::Any => Some(Check::Listed(listed.clone())),
            Ty::Const { value, .. } => Some(Check::Const(value.clone())),
            Ty::Nullable(inner) => Check::of(inner),
            _ => None,
        }
    }

    /// The deserializer's path; `form` is `""`, `"present_"` or `"nullable_"`.
    fn deserializer(&self, form: &str) -> String {
        let count = |bound: &Option<u64>, absent: &str| bound.map_or(format!("{{ {absent} }}"), |n| n.to_string());
        match self {
            Check::Integer(min, max, divisor) => {
                let divisor = divisor.unwrap_or(1);
                format!("strict::{form}integer_within::<_, {}, {}, {divisor}>", const_arg(*min, "i64::MIN"), const_arg(*max, "i64::MAX"))
            }
            Check::Number(min, max, divisor) => {
                format!("strict::{form}number_within::<_, {}, {}, {}>", number_arg(*min, true), number_arg(*max, false), divisor_arg(*divisor))
            }
            Check::Characters(min, max) => format!("strict::{form}length_within::<_, {}, {}>", count(min, "0"), count(max, "usize::MAX")),
            Check::Pattern(min, max, number) => {
                format!("strict::{form}matching_within::<_, {}, {}, patterns::Pattern{number}>", count(min, "0"), count(max, "usize::MAX"))
            }
            Check::Const(crate::model::Constant::String(s)) => format!("strict::{form}string_constant::<_, constants::{}>", literal_name(s)),
            Check::Const(crate::model::Constant::Integer(n)) => format!("strict::{form}integer_constant::<_, {}>", const_arg(Some(*n), "0")),
            Check::Const(crate::model::Constant::Boolean(b)) => format!("strict::{form}boolean_constant::<_, {b}>"),
            Check::Const(crate::model::Constant::Json(text)) => format!("strict::{form}json_constant::<_, constants::{}>", json_literal_name(text)),
            Check::Const(crate::model::Constant::OneOf(listed)) => format!("strict::{form}json_one_of::<_, constants::{}>", json_one_of_name(listed)),
            // Required only: `null` (when listed) is read by the same function.
            Check::Listed(listed) => format!("strict::json_one_of_as::<_, constants::{}, _>", json_one_of_name(listed)),
            Check::Items(min, max) => format!("strict::{form}items_within::<_, _, {}, {}>", count(min, "0"), count(max, "usize::MAX")),
            Check::UniqueItems(min, max) => {
                format!("strict::{form}unique_items_within::<_, _, {}, {}>", count(min, "0"), count(max, "usize::MAX"))
            }
            Check::UniqueJson(min, max) => format!("strict::{form}unique_json_within::<_, {}, {}>", count(min, "0"), count(max, "usize::MAX")),
            Check::Prefix(min, max, unique, kinds) => {
                format!("strict::{form}prefix_kinds_within::<_, {}, {}, {unique}, {kinds:#x}>", count(min, "0"), count(max, "usize::MAX"))
            }
            Check::UniqueRead(min, max) => format!("strict::{form}unique_read_within::<_, _, {}, {}>", count(min, "0"), count(max, "usize::MAX")),
            Check::UniqueNumbers(min, max) => format!("strict::{form}unique_numbers_within::<_, {}, {}>", count(min, "0"), count(max, "usize::MAX")),
            Check::Each(item, min, max) => format!("strict::{form}each::<_, {}, {}, {}>", item.item_check(), count(min, "0"), count(max, "usize::MAX")),
            Check::UniqueEach(item, min, max) => {
                format!("strict::{form}unique_each::<_, {}, {}, {}>", item.item_check(), count(min, "0"), count(max, "usize::MAX"))
            }
        }
    }

    /// The `strict::Check` type an item's check is (only an integer's or a
    /// number's bounds, a string's length or its pattern are on items).
    fn item_check(&self) -> String {
        let count = |bound: &Option<u64>, absent: &str| bound.map_or(format!("{{ {absent} }}"), |n| n.to_string());
        match self {
            Check::Integer(min, max, divisor) => {
                format!("strict::IntegerWithin<{}, {}, {}>", const_arg(*min, "i64::MIN"), const_arg(*max, "i64::MAX"), divisor.unwrap_or(1))
            }
            Check::Number(min, max, divisor) => {
                format!("strict::NumberWithin<{}, {}, {}>", number_arg(*min, true), number_arg(*max, false), divisor_arg(*divisor))
            }
            Check::Characters(min, max) => format!("strict::LengthWithin<{}, {}>", count(min, "0"), count(max, "usize::MAX")),
            Check::Pattern(min, max, number) => format!("strict::MatchingWithin<{}, {}, patterns::Pattern{number}>", count(min, "0"), count(max, "usize::MAX")),
            Check::Const(_)
            | Check::Listed(_)
            | Check::Items(..)
            | Check::UniqueItems(..)
            | Check::UniqueJson(..)
            | Check::Prefix(..)
            | Check::UniqueRead(..)
            | Check::UniqueNumbers(..)
            | Check::Each(..)
            | Check::UniqueEach(..) => {
                "()".to_string()
            }
        }
    }
}

/// The marker type of a JSON `const` (any value but a string, an integer or
/// a boolean) in the generated `constants` module: `JsonConstant` and its
/// JSON text's tag ([`crate::names::text_tag`]: `JsonConstant6e756c6c` for
/// `null`).
pub(super) fn json_literal_name(text: &str) -> String {
    format!("JsonConstant{}", crate::names::text_tag(text))
}

/// The marker type of an inline `enum`'s values (listed as JSON text, joined
/// by `, `) in the generated `constants` module: `JsonOneOf` and the
/// listing's tag ([`crate::names::text_tag`]).
pub(super) fn json_one_of_name(listed: &str) -> String {
    format!("JsonOneOf{}", crate::names::text_tag(listed))
}

/// The marker type of a string `const` in the generated `constants` module:
/// `Constant` and the string's tag ([`crate::names::text_tag`]:
/// `Constant63616c6c` for `call`), one name per value whatever it holds.
pub(super) fn literal_name(value: &str) -> String {
    format!("Constant{}", crate::names::text_tag(value))
}

/// A const generic argument: a literal, or a block for a negative or absent bound.
fn const_arg(bound: Option<i64>, absent: &str) -> String {
    match bound {
        None => format!("{{ {absent} }}"),
        Some(n) if n < 0 => format!("{{ {n} }}"),
        Some(n) => n.to_string(),
    }
}

/// A [`Check::Prefix`]: the count of the array inside, and each kind's code
/// in its 4 bits (`strict::prefix_kinds_within`: 0 past the prefix, 8 any).
fn prefix_check(inner: &crate::model::Ty, kinds: &[Option<String>], rest: Option<&str>, unique: bool) -> Check {
    let (min, max) = match inner {
        crate::model::Ty::Length { min, max, .. } => (*min, *max),
        _ => (None, None),
    };
    let code = |kind: Option<&str>| -> u64 {
        match kind {
            Some("null") => 1,
            Some("boolean") => 2,
            Some("integer") => 3,
            Some("number") => 4,
            Some("string") => 5,
            Some("array") => 6,
            Some("object") => 7,
            _ => 8,
        }
    };
    let listed = kinds.iter().enumerate().fold(0u64, |all, (i, kind)| all | code(kind.as_deref()) << (4 * i));
    Check::Prefix(min, max, unique, listed | code(rest) << 60)
}

/// A number's divisor as a const argument of `strict::number_within`.
fn divisor_arg(divisor: Option<crate::model::Divisor>) -> String {
    match divisor {
        Some(d) => format!("{{ strict::multiple_of({}, {}) }}", d.digits, d.exponent),
        None => "{ strict::UNBOUNDED }".to_string(),
    }
}

/// A number's bound as a const generic argument: `{ strict::at_least(0.0) }`,
/// `above`, `at_most`, `below` (the double as a Rust literal, which reads
/// back as the same double), or `{ strict::UNBOUNDED }`.
fn number_arg(bound: Option<NumberBound>, minimum: bool) -> String {
    let Some(bound) = bound else { return "{ strict::UNBOUNDED }".to_string() };
    let function = match (minimum, bound.exclusive) {
        (true, false) => "at_least",
        (true, true) => "above",
        (false, false) => "at_most",
        (false, true) => "below",
    };
    // Debug writes the shortest digits, always as a float literal (`1.0`, `1e21`, `1.5e-7`).
    format!("{{ strict::{function}({:?}) }}", bound.value)
}

/// The name a struct field has on the wire: its `serde(rename)` or its ident.
pub(super) fn wire_name(field: &syn::Field) -> String {
    for attr in &field.attrs {
        if !attr.path().is_ident("serde") {
            continue;
        }
        let mut renamed = None;
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                let value: syn::LitStr = meta.value()?.parse()?;
                renamed = Some(value.value());
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
        if let Some(name) = renamed {
            return name;
        }
    }
    field.ident.as_ref().map(|i| i.to_string().trim_start_matches("r#").to_string()).unwrap_or_default()
}

impl Tighten<'_> {
    fn declaration_order(&self, item: &mut syn::ItemStruct) {
        let Some(crate::model::TypeDef { kind: crate::model::TypeKind::Object(object), .. }) =
            self.contract.types.get(&item.ident.to_string())
        else {
            return;
        };
        let syn::Fields::Named(named) = &mut item.fields else {
            return;
        };
        let position = |f: &syn::Field| object.fields.iter().position(|d| d.name == wire_name(f)).unwrap_or(usize::MAX);
        let mut fields: Vec<syn::Field> = std::mem::take(&mut named.named).into_iter().collect();
        fields.sort_by_key(|f| position(f));
        named.named = fields.into_iter().collect();
    }
}

fn attr_text(attr: &syn::Attribute) -> String {
    quote!(#attr).to_string()
}

impl Tighten<'_> {
    /// A map with a bound on its number of members reads through
    /// `strict::members_within` instead of its derived `Deserialize`.
    fn counted_maps(&self, file: &mut syn::File) -> Vec<syn::Item> {
        let mut impls = Vec::new();
        for item in &mut file.items {
            let syn::Item::Struct(item) = item else { continue };
            let Some(crate::model::TypeDef { kind: crate::model::TypeKind::Map { min_members, max_members, names, .. }, .. }) =
                self.contract.types.get(&item.ident.to_string())
            else {
                continue;
            };
            if min_members.is_none() && max_members.is_none() && names.is_none() {
                continue;
            }
            let min = min_members.map_or_else(|| quote!(0), usize_literal);
            let max = max_members.map_or_else(|| quote!(usize::MAX), usize_literal);
            let read: syn::Expr = match names.as_ref().map(name_check) {
                Some(check) => syn::parse_quote!(strict::named_members_within(deserializer, #min, #max, #check).map(Self)),
                None => syn::parse_quote!(strict::members_within(deserializer, #min, #max).map(Self)),
            };
            without_derive(&mut item.attrs, ":: serde :: Deserialize");
            let name = &item.ident;
            impls.push(syn::parse_quote! {
                impl<'de> ::serde::Deserialize<'de> for #name {
                    fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                        #read
                    }
                }
            });
        }
        impls
    }
}

/// The check of a member name (`propertyNames`): a `strict` function path.
fn name_check(names: &crate::model::Ty) -> TokenStream {
    use crate::model::Ty;
    let (inner, pattern) = match names {
        Ty::Pattern { inner, pattern } => (inner.as_ref(), Some(pattern.number)),
        other => (other, None),
    };
    let (min, max) = match inner {
        Ty::Length { min, max, .. } => (*min, *max),
        _ => (None, None),
    };
    let min = min.map_or_else(|| quote!(0), usize_literal);
    let max = max.map_or_else(|| quote!({ usize::MAX }), usize_literal);
    match pattern {
        Some(number) => {
            let pattern = quote::format_ident!("Pattern{number}");
            quote!(strict::name_matching::<#min, #max, patterns::#pattern>)
        }
        None => quote!(strict::name_within::<#min, #max>),
    }
}

/// Removes `path` (as tokens print it) from the item's `#[derive(...)]`.
fn without_derive(attrs: &mut [syn::Attribute], path: &str) {
    for attr in attrs {
        if !attr.path().is_ident("derive") {
            continue;
        }
        let Ok(paths) = attr.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated) else {
            continue;
        };
        let kept: Vec<&syn::Path> = paths.iter().filter(|p| quote!(#p).to_string() != path).collect();
        *attr = syn::parse_quote!(#[derive(#(#kept),*)]);
    }
}

/// A count as an unsuffixed integer literal.
fn usize_literal(n: u64) -> TokenStream {
    let literal = proc_macro2::Literal::u64_unsuffixed(n);
    quote!(#literal)
}

/// typify drops the leading words a union's variant types share
/// (`CpVerdict`, `CpToolCallPassthrough` → `Verdict`, `ToolCallPassthrough`);
/// the codecs, the typed envelopes and the clients name every variant as its
/// type, so each union's variants get their type names back, in the enum and
/// in the impls typify writes for it (`From`: `Self::Verdict(value)`).
fn variants_as_types(contract: &Contract, file: &mut syn::File) {
    let mut renamed: Vec<(syn::Ident, Vec<(syn::Ident, syn::Ident)>)> = Vec::new();
    for item in &mut file.items {
        let syn::Item::Enum(item) = item else { continue };
        if !matches!(contract.types.get(&item.ident.to_string()).map(|t| &t.kind), Some(crate::model::TypeKind::Union(_))) {
            continue;
        }
        let mut pairs = Vec::new();
        for variant in &mut item.variants {
            let syn::Fields::Unnamed(fields) = &variant.fields else { continue };
            let Some(syn::Type::Path(payload)) = fields.unnamed.first().map(|f| &f.ty) else { continue };
            let Some(type_name) = payload.path.segments.last().map(|s| s.ident.clone()) else { continue };
            if fields.unnamed.len() == 1 && type_name != variant.ident {
                pairs.push((std::mem::replace(&mut variant.ident, type_name.clone()), type_name));
            }
        }
        if !pairs.is_empty() {
            renamed.push((item.ident.clone(), pairs));
        }
    }
    for item in &mut file.items {
        let syn::Item::Impl(block) = item else { continue };
        let syn::Type::Path(self_ty) = block.self_ty.as_ref() else { continue };
        let Some((_, pairs)) = renamed.iter().find(|(name, _)| self_ty.path.is_ident(name)) else { continue };
        RenameVariants { pairs }.visit_item_impl_mut(block);
    }
}

/// Renames `Self::<old>` to `Self::<new>` in an impl of the union.
struct RenameVariants<'p> {
    pairs: &'p [(syn::Ident, syn::Ident)],
}

impl VisitMut for RenameVariants<'_> {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if path.segments.len() == 2 && path.segments[0].ident == "Self" {
            if let Some((_, new)) = self.pairs.iter().find(|(old, _)| path.segments[1].ident == *old) {
                path.segments[1].ident = new.clone();
            }
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

impl VisitMut for Tighten<'_> {
    fn visit_item_struct_mut(&mut self, item: &mut syn::ItemStruct) {
        self.declaration_order(item);
        let def = self.contract.types.get(&item.ident.to_string());
        self.fields = match def {
            Some(crate::model::TypeDef { kind: crate::model::TypeKind::Object(object), .. }) => object.fields.clone(),
            _ => Vec::new(),
        };
        if def.is_some_and(|d| d.deprecated) {
            item.attrs.push(syn::parse_quote!(#[deprecated]));
        }

        if let (Some(crate::model::TypeDef { kind: crate::model::TypeKind::Object(object), .. }), syn::Fields::Named(named)) = (def, &mut item.fields) {
            for field in named.named.iter_mut() {
                if object.fields.iter().any(|d| d.deprecated && d.name == wire_name(field)) {
                    field.attrs.push(syn::parse_quote!(#[deprecated]));
                }
            }
        }
        syn::visit_mut::visit_item_struct_mut(self, item);
    }

    fn visit_field_mut(&mut self, field: &mut syn::Field) {
        // typify reads an optional array or map as an empty one and leaves an
        // empty one out when writing: absent and `[]` would be one value.
        // Such a field becomes an `Option` like every other optional field.
        for attr in &mut field.attrs {
            let text = attr_text(attr).replace(' ', "");
            if text.contains("skip_serializing_if") && text.contains("::is_empty") {
                *attr = syn::parse_quote!(#[serde(skip_serializing_if = "::std::option::Option::is_none")]);
                let ty = &field.ty;
                field.ty = syn::parse_quote!(::std::option::Option<#ty>);
            }
        }
        let optional = field.attrs.iter().any(|a| {
            let text = attr_text(a);
            text.contains("skip_serializing_if") && text.contains("Option::is_none")
        });
        let wire = wire_name(field);
        let ty = self.fields.iter().find(|f| f.name == wire).map(|f| &f.ty);
        // A nullable array is read as one even without a bound, so that an
        // item's problem is not worded as the field's (`or null`).
        let nullable_array = matches!(ty, Some(crate::model::Ty::Nullable(inner)) if matches!(inner.as_ref(), crate::model::Ty::Array(_)));
        let check = ty.and_then(Check::of).or_else(|| nullable_array.then_some(Check::Items(None, None)));
        if optional {
            let with = check.as_ref().map_or("strict::present".to_string(), |c| c.deserializer("present_"));
            field.attrs.push(syn::parse_quote!(#[serde(default, deserialize_with = #with)]));
        }
        // Required and nullable (typify reads it with `Option::deserialize`):
        // a wrong kind must say `expected string or null`.
        let mut nullable = false;
        for attr in &mut field.attrs {
            if attr_text(attr).replace(' ', "").contains("deserialize_with=\"::std::option::Option::deserialize\"") {
                let with = check.as_ref().map_or("strict::nullable".to_string(), |c| c.deserializer("nullable_"));
                *attr = syn::parse_quote!(#[serde(deserialize_with = #with)]);
                nullable = true;
            }
        }
        if let Some(check) = check.as_ref().filter(|_| !optional && !nullable) {
            let with = check.deserializer("");
            field.attrs.push(syn::parse_quote!(#[serde(deserialize_with = #with)]));
        }
    }

    fn visit_file_mut(&mut self, file: &mut syn::File) {
        variants_as_types(self.contract, file);
        syn::visit_mut::visit_file_mut(self, file);
        // A struct reads from a JSON object only (serde's derive also takes an
        // array of field values): derive into inherent functions
        // (`remote = "Self"`) and implement the traits through strict::ObjectOnly.
        // The same for string enums, which must read from a JSON string only
        // (so that a wrong kind says `expected string, got null`).
        let derives = |attrs: &[syn::Attribute]| attrs.iter().any(|a| a.path().is_ident("derive") && attr_text(a).contains("Deserialize"));
        for item in &mut file.items {
            let (attrs, name) = match item {
                syn::Item::Struct(item) if derives(&item.attrs) && matches!(item.fields, syn::Fields::Named(_)) => (&mut item.attrs, item.ident.clone()),
                syn::Item::Enum(item) if derives(&item.attrs) && item.variants.iter().all(|v| matches!(v.fields, syn::Fields::Unit)) => {
                    (&mut item.attrs, item.ident.clone())
                }
                _ => continue,
            };
            attrs.push(syn::parse_quote!(#[serde(remote = "Self")]));
            self.strict_serde.push(name);
        }
        let counted = self.counted_maps(file);
        self.after.extend(counted);
    }

    fn visit_item_enum_mut(&mut self, item: &mut syn::ItemEnum) {
        if self.contract.types.get(&item.ident.to_string()).is_some_and(|d| d.deprecated) {
            item.attrs.push(syn::parse_quote!(#[deprecated]));
        }
        // A single-value enum is a literal (`"2.0"`): its one value is the default.
        if item.variants.len() == 1 && item.variants.iter().all(|v| matches!(v.fields, syn::Fields::Unit)) {
            for variant in &mut item.variants {
                variant.attrs.push(syn::parse_quote!(#[default]));
            }
            item.attrs.push(syn::parse_quote!(#[derive(Default)]));
        }
        let untagged = item.attrs.iter().any(|a| attr_text(a).contains("untagged"));
        if !untagged {
            return;
        }
        without_derive(&mut item.attrs, ":: serde :: Deserialize");
    }
}

#[cfg(test)]
mod tests {
    use super::number_arg;
    use crate::model::NumberBound;

    /// typify names the variants of `FrameSuccess | FrameError` `Success`
    /// and `Error`; the codecs and the client name them as their types.
    #[test]
    fn a_unions_variants_are_named_as_their_types_even_with_a_shared_prefix() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let text = std::fs::read_to_string(&path).expect("readable").replace("SuccessResponse", "FrameSuccess").replace("ErrorResponse", "FrameError");
        let (contract, _) = crate::load::load_str(&text, &path, "minimal.json").expect("loads");
        let frames = super::super::render(&contract, super::super::Flavor::Sdk).expect("renders");
        for arm in ["FrameSuccess", "FrameError"] {
            assert!(frames.contains(&format!("    {arm}({arm}),\n")), "the variant of {arm}: {frames}");
            assert!(frames.contains(&format!("        Self::{arm}(value)\n")), "typify's From of {arm}");
        }
        assert!(!frames.contains("Self::Success(") && !frames.contains("    Success(FrameSuccess)"), "{frames}");
    }

    #[test]
    fn a_number_bound_is_a_float_literal_that_reads_back_as_the_same_double() {
        let bound = |value: f64, exclusive: bool| Some(NumberBound { value, exclusive });
        assert_eq!(number_arg(bound(0.0, false), true), "{ strict::at_least(0.0) }");
        assert_eq!(number_arg(bound(-273.15, true), true), "{ strict::above(-273.15) }");
        assert_eq!(number_arg(bound(1.0, false), false), "{ strict::at_most(1.0) }");
        assert_eq!(number_arg(bound(1e21, true), false), "{ strict::below(1e21) }");
        assert_eq!(number_arg(None, true), "{ strict::UNBOUNDED }");
        for value in [1.5e-7, 5e-324, f64::MAX, -f64::MIN_POSITIVE, 0.1 + 0.2, 123456789012345.0, 9007199254740993.0] {
            let text = number_arg(bound(value, false), true);
            let literal = text.trim_start_matches("{ strict::at_least(").trim_end_matches(") }");
            assert!(literal.contains(['.', 'e']), "{literal} is no float literal");
            assert_eq!(literal.parse::<f64>().map(f64::to_bits), Ok(value.to_bits()), "{literal}");
        }
    }
}
