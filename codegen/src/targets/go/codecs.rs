//! Decoders and encoders, per type and per composite field type.
//!
//! Every value decoder has the shape `func(v any) (T, *shapeError)` over the
//! parser's tree, every writer `func(b []byte, v T) []byte`. Per-type ones are
//! `decode<Type>` / `append<Type>`; the runtime's primitives are
//! `read<Prim>` / `write<Prim>`; arrays and nullables get generated helpers
//! `read<Mangled>` / `write<Mangled>` (`readListOfMCPObject`), registered
//! once each in [`Ctx::helpers`].

use std::fmt::Write as _;

use crate::model::{union_tag, Constant, Field, NumberBound, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

use super::names::{json_quote, string_lit};
use super::Ctx;

/// A bound on a count as an argument: the count, or -1 for no bound.
fn count_bound(bound: Option<u64>) -> String {
    bound.map_or("-1".to_string(), |n| n.to_string())
}

/// Mangled names of the primitive types, which a type name must not reuse.
const PRIMITIVE_MANGLES: &[&str] = &["Any", "Bool", "String", "Int", "IntMin0", "IntMin1", "Number"];

/// A number's bound in a mangled name: `Neg` for `-`, `p` for the point and
/// the exponent's sign spelled the same way (`Neg273p15`, `1p5eNeg7`, `1e21`).
fn bound_mangle(bound: &NumberBound) -> String {
    bound.text().replace('-', "Neg").replace('.', "p").replace('+', "")
}

impl Ctx<'_> {
    fn mangle(&self, ty: &Ty) -> String {
        match ty {
            Ty::Any => "Any".into(),
            Ty::Boolean => "Bool".into(),
            Ty::Number { minimum, maximum } => {
                // `NumberMin0Max1`, `NumberAboveNeg273p15`: an exclusive
                // minimum is `Above`, an exclusive maximum `Below`.
                let min = minimum.map(|m| format!("{}{}", if m.exclusive { "Above" } else { "Min" }, bound_mangle(&m))).unwrap_or_default();
                let max = maximum.map(|m| format!("{}{}", if m.exclusive { "Below" } else { "Max" }, bound_mangle(&m))).unwrap_or_default();
                format!("Number{min}{max}")
            }
            Ty::String => "String".into(),
            Ty::Integer { minimum, maximum } => {
                // `IntMin0`, `IntMinNeg5Max10`: a bound's sign spelled out.
                let bound = |word: &str, n: i64| if n < 0 { format!("{word}Neg{}", n.unsigned_abs()) } else { format!("{word}{n}") };
                let min = minimum.map(|m| bound("Min", m)).unwrap_or_default();
                let max = maximum.map(|m| bound("Max", m)).unwrap_or_default();
                format!("Int{min}{max}")
            }
            Ty::Ref(name) => {
                let go = self.type_name(name);
                let clash = PRIMITIVE_MANGLES.contains(&go.as_str())
                    || go.starts_with("IntMin")
                    || go.starts_with("IntMax")
                    || go.starts_with("IntMultipleOf")
                    || go.starts_with("NumberMin")
                    || go.starts_with("NumberMax")
                    || go.starts_with("NumberAbove")
                    || go.starts_with("NumberBelow")
                    || go.starts_with("ListOf")
                    || go.starts_with("StringLen")
                    || go.starts_with("StringPattern")
                    || go.starts_with("StringConst")
                    || go.starts_with("IntConst")
                    || go.starts_with("BoolConst")
                    || go.starts_with("AnyConst")
                    || go.starts_with("AnyOneOf")
                    || go.starts_with("Nullable");
                if clash { format!("{go}Type") } else { go }
            }
            Ty::Array(item) => format!("ListOf{}", self.mangle(item)),
            Ty::Nullable(inner) => format!("Nullable{}", self.mangle(inner)),
            // `StringLenMin1Max64`, `ListOfIntLenMax3`.
            Ty::Length { inner, min, max } => {
                let min = min.map(|m| format!("Min{m}")).unwrap_or_default();
                let max = max.map(|m| format!("Max{m}")).unwrap_or_default();
                format!("{}Len{min}{max}", self.mangle(inner))
            }
            Ty::Unique(inner) => format!("{}Unique", self.mangle(inner)),
            // `ListOfAnyPrefixBoolAnyRestString`.
            Ty::Prefix { inner, kinds, rest } => {
                let word = |kind: Option<&str>| match kind {
                    None => "Any",
                    Some("null") => "Null",
                    Some("boolean") => "Bool",
                    Some("integer") => "Int",
                    Some("number") => "Number",
                    Some("string") => "String",
                    Some("array") => "Array",
                    _ => "Object",
                };
                let listed: String = kinds.iter().map(|k| word(k.as_deref())).collect();
                format!("{}Prefix{listed}Rest{}", self.mangle(inner), word(rest.as_deref()))
            }
            // `IntMin1MultipleOf5`.
            Ty::Multiple { inner, divisor } => format!("{}MultipleOf{}", self.mangle(inner), divisor.ident()),
            // `StringLenMin1Pattern2`.
            Ty::Pattern { inner, pattern } => format!("{}Pattern{}", self.mangle(inner), pattern.number),
            // `StringConst63616c6c` ("call" in hex; a long text by its digest,
            // `crate::names::text_tag`), `IntConstNeg5`, `BoolConstTrue`.
            Ty::Const { inner, value } => {
                let value = match value {
                    Constant::String(s) => crate::names::text_tag(s),
                    Constant::Integer(n) if *n < 0 => format!("Neg{}", n.unsigned_abs()),
                    Constant::Integer(n) => n.to_string(),
                    Constant::Boolean(b) => if *b { "True" } else { "False" }.to_string(),
                    Constant::Json(text) => crate::names::text_tag(text),
                    // `AnyOneOf312c2032` (`1, 2` in hex).
                    Constant::OneOf(listed) => return format!("{}OneOf{}", self.mangle(inner), crate::names::text_tag(listed)),
                };
                format!("{}Const{value}", self.mangle(inner))
            }
        }
    }

    /// Each distinct `pattern`, compiled once in RE2's syntax, with the
    /// problem a string it finds no match in gets.
    pub fn patterns(&self, out: &mut String) {
        for p in self.contract.patterns() {
            let regex = p.render(crate::pattern::Dialect::Go);
            let _ = write!(
                out,
                "\n// pattern{n} is the pattern {}.\nvar pattern{n} = pattern{{regexp.MustCompile(`{regex}`), {}}}\n",
                p.display(),
                string_lit(&p.problem()),
                n = p.number,
            );
        }
    }

    /// The decoder function for a value of `ty` (registering helpers).
    pub fn read_fn(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Any => "readAny".into(),
            Ty::Boolean => "readBool".into(),
            Ty::Number { minimum: None, maximum: None } => "readNumber".into(),
            Ty::Number { minimum, maximum } => {
                // Compared as doubles, exactly; a bound's text is baked in.
                let name = format!("read{}", self.mangle(ty));
                let mut code = format!("func {name}(v any) (float64, *shapeError) {{\n\tx, err := readNumber(v)\n");
                for (bound, is_minimum) in [(minimum, true), (maximum, false)] {
                    let Some(bound) = bound else { continue };
                    let (operator, text) = (bound.operator(is_minimum), bound.text());
                    // The opposite comparison: no decoded double is NaN.
                    let fails = match (is_minimum, bound.exclusive) {
                        (true, false) => "<",
                        (true, true) => "<=",
                        (false, false) => ">",
                        (false, true) => ">=",
                    };
                    let _ = write!(code, "\tif err == nil && x {fails} {text} {{\n\t\terr = numberOutside(\"{operator} {text}\", x)\n\t}}\n");
                }
                code.push_str("\treturn x, err\n}\n");
                self.helpers.insert(name.clone(), code);
                name
            }
            Ty::String => "readString".into(),
            Ty::Integer { minimum: None, maximum: None } => "readInt".into(),
            Ty::Integer { minimum, maximum } => {
                let name = format!("read{}", self.mangle(ty));
                let read = minimum.map_or("readInt(v)".to_string(), |m| format!("readIntAtLeast(v, {m})"));
                let code = match maximum {
                    None => format!("func {name}(v any) (int64, *shapeError) {{\n\treturn {read}\n}}\n"),
                    Some(max) => format!("func {name}(v any) (int64, *shapeError) {{\n\ti, err := {read}\n\treturn atMost(i, err, {max})\n}}\n"),
                };
                self.helpers.insert(name.clone(), code);
                name
            }
            Ty::Ref(name) if self.type_param.as_deref() == Some(name.as_str()) => format!("readEnvelopeMember[{name}]"),
            Ty::Ref(name) => format!("decode{}", self.type_name(name)),
            Ty::Array(item) => self.read_array_fn(ty, item),
            Ty::Nullable(inner) => self.read_nullable_fn(ty, inner),
            Ty::Length { inner, min, max } => {
                let (min, max) = (count_bound(*min), count_bound(*max));
                let check = match inner.as_ref() {
                    Ty::Array(_) => format!("lengthWithin(int64(len(x)), {min}, {max}, \"item\")"),
                    _ => format!("charactersWithin(x, {min}, {max})"),
                };
                self.read_checked_fn(ty, inner, &check)
            }
            Ty::Unique(inner) if inner.unique_by_json() => self.read_checked_fn(ty, inner, "uniqueJSON(x)"),
            Ty::Unique(inner) if inner.unique_by_read() => self.read_checked_fn(ty, inner, "uniqueRead(v)"),
            Ty::Unique(inner) => self.read_checked_fn(ty, inner, "uniqueItems(x)"),
            Ty::Prefix { inner, kinds, rest } => {
                let kinds: Vec<String> = kinds.iter().map(|k| string_lit(k.as_deref().unwrap_or(""))).collect();
                let check = format!("prefixKinds(x, []string{{{}}}, {})", kinds.join(", "), string_lit(rest.as_deref().unwrap_or("")));
                self.read_checked_fn(ty, inner, &check)
            }
            Ty::Multiple { inner, divisor } if matches!(**inner, Ty::Number { .. }) => {
                self.read_checked_fn(ty, inner, &format!("numberMultipleOf(x, {}, {})", divisor.digits, divisor.exponent))
            }
            Ty::Multiple { inner, divisor } => self.read_checked_fn(ty, inner, &format!("multipleOf(x, {divisor})")),
            Ty::Pattern { inner, pattern } => self.read_checked_fn(ty, inner, &format!("matching(x, pattern{})", pattern.number)),
            Ty::Const { inner, value } => {
                let literal = match value {
                    Constant::String(s) => string_lit(s),
                    Constant::Integer(n) => n.to_string(),
                    Constant::Boolean(b) => b.to_string(),
                    Constant::Json(text) => return self.read_checked_fn(ty, inner, &format!("constantJSON(x, {})", string_lit(text))),
                    Constant::OneOf(listed) if **inner == Ty::Any => return self.read_checked_fn(ty, inner, &format!("oneOfJSON(x, {})", string_lit(listed))),
                    Constant::OneOf(listed) => return self.read_listed_fn(ty, inner, listed),
                };
                self.read_checked_fn(ty, inner, &format!("constant(x, {literal}, {})", string_lit(&value.json())))
            }
        }
    }

    /// A value read as `inner`, then checked by `check` (a `*shapeError`
    /// expression over the value `x`): a string counted in code points, an
    /// array counted in items or holding no item twice, an integer divided.
    fn read_checked_fn(&mut self, ty: &Ty, inner: &Ty, check: &str) -> String {
        let name = format!("read{}", self.mangle(ty));
        let (go, inner_fn) = (self.go_ty(ty), self.read_fn(inner));
        let code = format!(
            "func {name}(v any) ({go}, *shapeError) {{\n\tx, err := {inner_fn}(v)\n\tif err != nil {{\n\t\treturn x, err\n\t}}\n\
             \treturn x, {check}\n}}\n"
        );
        self.helpers.insert(name.clone(), code);
        name
    }

    /// A value checked as any JSON value against an inline `enum` of
    /// scalars (and `null`), then read as their kind, which cannot fail.
    fn read_listed_fn(&mut self, ty: &Ty, inner: &Ty, listed: &str) -> String {
        let name = format!("read{}", self.mangle(ty));
        let (go, inner_fn) = (self.go_ty(ty), self.read_fn(inner));
        let code = format!(
            "func {name}(v any) ({go}, *shapeError) {{\n\tif err := oneOfJSON(v, {}); err != nil {{\n\t\tvar x {go}\n\t\treturn x, err\n\t}}\n\
             \treturn {inner_fn}(v)\n}}\n",
            string_lit(listed)
        );
        self.helpers.insert(name.clone(), code);
        name
    }

    fn read_array_fn(&mut self, ty: &Ty, item: &Ty) -> String {
        let name = format!("read{}", self.mangle(ty));
        let (go, item_go, item_fn) = (self.go_ty(ty), self.go_ty(item), self.read_fn(item));
        let code = format!(
            "func {name}(v any) ({go}, *shapeError) {{\n\
             \titems, ok := v.([]any)\n\tif !ok {{\n\t\treturn nil, wrongKind(\"array\", v)\n\t}}\n\
             \tout := make([]{item_go}, len(items))\n\tfor i, item := range items {{\n\
             \t\tx, err := {item_fn}(item)\n\t\tif err != nil {{\n\t\t\treturn nil, err.atIndex(i)\n\t\t}}\n\
             \t\tout[i] = x\n\t}}\n\treturn out, nil\n}}\n"
        );
        self.helpers.insert(name.clone(), code);
        name
    }

    fn read_nullable_fn(&mut self, ty: &Ty, inner: &Ty) -> String {
        let name = format!("read{}", self.mangle(ty));
        let (go, inner_fn) = (self.go_ty(ty), self.read_fn(inner));
        let result = if go.starts_with('*') { "&x" } else { "x" };
        let code = format!(
            "func {name}(v any) ({go}, *shapeError) {{\n\tif v == nil {{\n\t\treturn nil, nil\n\t}}\n\
             \tx, err := {inner_fn}(v)\n\tif err != nil {{\n\t\treturn nil, orNull(err)\n\t}}\n\
             \treturn {result}, nil\n}}\n"
        );
        self.helpers.insert(name.clone(), code);
        name
    }

    /// The writer function for a value of `ty` (registering helpers).
    pub fn write_fn(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Any => "writeAny".into(),
            Ty::Number { .. } => "writeNumber".into(),
            Ty::Boolean => "writeBool".into(),
            Ty::String => "writeString".into(),
            Ty::Integer { .. } => "writeInt".into(),
            Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => self.write_fn(inner),
            Ty::Ref(name) if self.type_param.as_deref() == Some(name.as_str()) => "writeEnvelopeMember".into(),
            Ty::Ref(name) => format!("append{}", self.type_name(name)),
            Ty::Array(item) => {
                let name = format!("write{}", self.mangle(ty));
                let (go, item_fn) = (self.go_ty(ty), self.write_fn(item));
                let code = format!(
                    "func {name}(b []byte, v {go}) []byte {{\n\tb = append(b, '[')\n\tfor i, x := range v {{\n\
                     \t\tif i > 0 {{\n\t\t\tb = append(b, ',')\n\t\t}}\n\t\tb = {item_fn}(b, x)\n\t}}\n\
                     \treturn append(b, ']')\n}}\n"
                );
                self.helpers.insert(name.clone(), code);
                name
            }
            Ty::Nullable(inner) => {
                let name = format!("write{}", self.mangle(ty));
                let (go, inner_fn) = (self.go_ty(ty), self.write_fn(inner));
                let value = if go.starts_with('*') { "*v" } else { "v" };
                let code = format!(
                    "func {name}(b []byte, v {go}) []byte {{\n\tif v == nil {{\n\t\treturn append(b, \"null\"...)\n\t}}\n\
                     \treturn {inner_fn}(b, {value})\n}}\n"
                );
                self.helpers.insert(name.clone(), code);
                name
            }
        }
    }

    /// The public and internal decoders and the encoders of one type.
    pub fn codec(&mut self, def: &TypeDef) -> String {
        let name = self.type_name(&def.name);
        let mut out = String::new();
        self.public_api(&mut out, &def.name, &name);
        self.member_methods(&mut out, &name);
        match &def.kind {
            TypeKind::Object(object) => {
                self.decode_object(&mut out, &name, &name, object);
                self.scan_object(&mut out, &name, object);
                self.append_object(&mut out, &name, &name, object);
            }
            TypeKind::Map { values, min_members, max_members, names } => {
                self.map_codec(&mut out, &name, values, names.as_ref(), (*min_members, *max_members));
                scan_through_tree(&mut out, &name);
            }
            TypeKind::Union(variants) => {
                self.union_codec(&mut out, &name, variants);
                self.scan_union(&mut out, &name, variants);
            }
            TypeKind::StringEnum(values) => {
                self.enum_codec(&mut out, &def.name, values);
                scan_through_tree(&mut out, &name);
            }
            TypeKind::IntegerOrString => {
                id_codec(&mut out, &name);
                scan_through_tree(&mut out, &name);
            }
        }
        out
    }

    /// The single-pass reader `scan{name}` of the object type `name`: the
    /// decoder's checks, member by member as the text holds them, each
    /// member's value read by `scan_value` (see `valueAs` in runtime.go).
    fn scan_object(&mut self, out: &mut String, name: &str, object: &ObjectType) {
        line!(out, "\nfunc scan{name}(p *parser) (out {name}, ok bool) {{");
        if object.fields.is_empty() {
            line!(out, "\tif _, more := p.firstKey(\"\"); more {{\n\t\treturn out, false\n\t}}\n\treturn out, !p.failed\n}}");
            return;
        }
        // want: the member the declared order puts next (see parser.key).
        let want = |k: usize| string_lit(object.fields.get(k).map_or("", |f| plain_name(&f.name)));
        line!(out, "\tvar seen [{}]bool\n\twant := {}", object.fields.len(), want(0));
        line!(out, "\tfor key, more := p.firstKey(want); more; key, more = p.nextKey(want) {{\n\t\tswitch key {{");
        for (k, field) in object.fields.iter().enumerate() {
            line!(out, "\t\tcase {}:", string_lit(&field.name));
            self.scan_field(out, field, k);
            line!(out, "\t\t\twant = {}", want(k + 1));
        }
        line!(out, "\t\tdefault:\n\t\t\treturn out, false\n\t\t}}");
        line!(out, "\t\tif !ok {{\n\t\t\treturn out, false\n\t\t}}\n\t}}");
        let mut read = vec!["!p.failed".to_string()];
        read.extend(object.fields.iter().enumerate().filter(|(_, f)| f.required).map(|(k, _)| format!("seen[{k}]")));
        line!(out, "\treturn out, {}\n}}", read.join(" && "));
    }

    /// The value of member `k` in `scan_object`, with an integer's bounds;
    /// a member the object held before is a duplicate, which the reader
    /// leaves to the tree's parse.
    fn scan_field(&mut self, out: &mut String, field: &Field, k: usize) {
        let go_name = self.field_name(field);
        let read = match &field.ty {
            Ty::Integer { .. } => "p.nextInteger()".to_string(),
            ty => self.scan_value(ty),
        };
        let target = if field.required || !self.optional_needs_pointer(&field.ty) {
            line!(out, "\t\t\tout.{go_name}, ok = {read}");
            format!("out.{go_name}")
        } else {
            line!(out, "\t\t\tvar x {}\n\t\t\tx, ok = {read}\n\t\t\tout.{go_name} = &x", self.go_ty(&field.ty));
            "x".to_string()
        };
        let mut checks = vec!["ok".to_string()];
        if let Ty::Integer { minimum, maximum } = &field.ty {
            checks.extend(minimum.map(|m| format!("{target} >= {m}")));
            checks.extend(maximum.map(|m| format!("{target} <= {m}")));
        }
        checks.push(format!("firstTime(&seen[{k}])"));
        line!(out, "\t\t\tok = {}", checks.join(" && "));
    }

    /// The single-pass read of a value of `ty`: an expression of `(T, bool)`.
    fn scan_value(&mut self, ty: &Ty) -> String {
        match ty {
            Ty::Boolean => "p.nextBoolean()".into(),
            Ty::String => "p.nextString()".into(),
            Ty::Nullable(inner) if **inner == Ty::String => "p.nextNullableString()".into(),
            Ty::Ref(name) => format!("scan{}(p)", self.type_name(name)),
            Ty::Nullable(inner) if matches!(**inner, Ty::Ref(_)) && self.go_ty(ty).starts_with('*') => {
                format!("nullableAs(p, scan{})", self.go_ty(inner))
            }
            _ => format!("valueAs(p, {})", self.read_fn(ty)),
        }
    }

    /// The single-pass reader of a union: each variant's reader in turn,
    /// from the same place. The first that reads the text has the variant
    /// the decoder picks: a variant's object requires its discriminator
    /// (told apart by shape: a member no other variant declares; tagged: its
    /// own `const` of the tag), so no other variant's reader reads it.
    fn scan_union(&mut self, out: &mut String, name: &str, variants: &[UnionVariant]) {
        line!(out, "\nfunc scan{name}(p *parser) ({name}, bool) {{\n\tat := *p");
        for (i, variant) in variants.iter().enumerate() {
            let vname = self.type_name(&variant.type_name);
            if i > 0 {
                line!(out, "\t*p = at");
            }
            line!(out, "\tif x, ok := scan{vname}(p); ok {{\n\t\treturn {name}{{{vname}: &x}}, true\n\t}}");
        }
        line!(out, "\treturn {name}{{}}, false\n}}");
    }

    fn public_api(&self, out: &mut String, def: &str, name: &str) {
        let lit = string_lit(def);
        line!(out, "\n// Decode{name} decodes a {name} from one frame's JSON text under the strict");
        line!(out, "// rules of the contract. The error is a *DecodingError.");
        line!(out, "func Decode{name}(data []byte) ({name}, error) {{\n\treturn fromText({lit}, data, decode{name}, scan{name})\n}}\n");
        line!(out, "// Decode{name}Value decodes a {name} from an already-parsed JSON value (as");
        line!(out, "// ParseJSON or encoding/json produce it), under the same rules; objects are");
        line!(out, "// read in sorted key order.");
        line!(out, "func Decode{name}Value(value any) ({name}, error) {{\n\treturn fromValue({lit}, value, decode{name})\n}}\n");
        line!(out, "// MarshalJSON writes v as one line of JSON, fields in schema order.");
        line!(out, "func (v {name}) MarshalJSON() ([]byte, error) {{\n\treturn append{name}(nil, v), nil\n}}");
    }

    /// The internal decoder `decode{head}` of the object type `name` (`head`
    /// differs from `name` for a generic type: `RequestOf[P EnvelopeMember[P]]`).
    pub(super) fn decode_object(&mut self, out: &mut String, head: &str, name: &str, object: &ObjectType) {
        line!(out, "\nfunc decode{head}(v any) ({name}, *shapeError) {{\n\tvar out {name}");
        line!(out, "\to, ok := v.(*jsonObject)\n\tif !ok {{\n\t\treturn out, wrongKind(\"object\", v)\n\t}}");
        if object.fields.is_empty() {
            line!(out, "\tif len(o.keys) > 0 {{\n\t\treturn out, unknownField(o.keys[0])\n\t}}\n\treturn out, nil\n}}");
            return;
        }
        let required: Vec<&Field> = object.fields.iter().filter(|f| f.required).collect();
        if !required.is_empty() {
            line!(out, "\tvar seen [{}]bool", required.len());
        }
        line!(out, "\tfor i, key := range o.keys {{\n\t\tvar err *shapeError\n\t\tswitch key {{");
        for field in &object.fields {
            line!(out, "\t\tcase {}:", string_lit(&field.name));
            if let Some(k) = required.iter().position(|f| f.name == field.name) {
                line!(out, "\t\t\tseen[{k}] = true");
            }
            self.decode_field(out, field);
        }
        line!(out, "\t\tdefault:\n\t\t\treturn out, unknownField(key)\n\t\t}}");
        line!(out, "\t\tif err != nil {{\n\t\t\treturn out, err.at(key)\n\t\t}}\n\t}}");
        for (k, field) in required.iter().enumerate() {
            line!(out, "\tif !seen[{k}] {{\n\t\treturn out, missingField({})\n\t}}", string_lit(&field.name));
        }
        line!(out, "\treturn out, nil\n}}");
    }

    fn decode_field(&mut self, out: &mut String, field: &Field) {
        let go_name = self.field_name(field);
        let read = self.read_fn(&field.ty);
        if field.required || !self.optional_needs_pointer(&field.ty) {
            line!(out, "\t\t\tout.{go_name}, err = {read}(o.vals[i])");
        } else {
            line!(out, "\t\t\tvar x {}", self.go_ty(&field.ty));
            line!(out, "\t\t\tx, err = {read}(o.vals[i])\n\t\t\tout.{go_name} = &x");
        }
    }

    /// The writer `append{head}` of the object type `name` (see `decode_object`).
    pub(super) fn append_object(&mut self, out: &mut String, head: &str, name: &str, object: &ObjectType) {
        line!(out, "\nfunc append{head}(b []byte, v {name}) []byte {{");
        if object.fields.is_empty() {
            line!(out, "\treturn append(b, \"{{}}\"...)\n}}");
            return;
        }
        line!(out, "\tb = append(b, '{{')");
        // Whether a member was certainly written before (Some), or it depends (None).
        let mut written = Some(false);
        for field in &object.fields {
            let go_name = self.field_name(field);
            let write = self.write_fn(&field.ty);
            let key = json_quote(&field.name);
            let indent = if field.required { "\t" } else { "\t\t" };
            if !field.required {
                line!(out, "\tif v.{go_name} != nil {{");
            }
            match written {
                Some(true) => line!(out, "{indent}b = append(b, {}...)", string_lit(&format!(",{key}:"))),
                Some(false) => line!(out, "{indent}b = append(b, {}...)", string_lit(&format!("{key}:"))),
                None => line!(out, "{indent}b = writeComma(b)\n{indent}b = append(b, {}...)", string_lit(&format!("{key}:"))),
            }
            if field.required {
                line!(out, "\tb = {write}(b, v.{go_name})");
                written = Some(true);
            } else {
                let deref = if self.optional_needs_pointer(&field.ty) { "*" } else { "" };
                line!(out, "\t\tb = {write}(b, {deref}v.{go_name})\n\t}}");
                if written == Some(false) {
                    written = None;
                }
            }
        }
        line!(out, "\treturn append(b, '}}')\n}}");
    }

    /// A map's codec; `members` bounds its number of members (`None`: no bound).
    fn map_codec(&mut self, out: &mut String, name: &str, value: &Ty, names: Option<&Ty>, members: (Option<u64>, Option<u64>)) {
        let read = self.read_fn(value);
        let write = self.write_fn(value);
        line!(out, "\nfunc decode{name}(v any) ({name}, *shapeError) {{");
        line!(out, "\to, ok := v.(*jsonObject)\n\tif !ok {{\n\t\treturn nil, wrongKind(\"object\", v)\n\t}}");
        line!(out, "\tout := make({name}, len(o.keys))\n\tfor i, key := range o.keys {{");
        line!(out, "\t\tx, err := {read}(o.vals[i])\n\t\tif err != nil {{\n\t\t\treturn nil, err.at(key)\n\t\t}}");
        line!(out, "\t\tout[key] = x\n\t}}");
        if let Some(names) = names {
            let check = self.read_fn(names);
            line!(out, "\tif err := memberNames(o.keys, {check}); err != nil {{\n\t\treturn nil, err\n\t}}");
        }
        let checked = match members {
            (None, None) => "nil".to_string(),
            (min, max) => format!("lengthWithin(int64(len(out)), {}, {}, \"member\")", count_bound(min), count_bound(max)),
        };
        line!(out, "\treturn out, {checked}\n}}");
        line!(out, "\nfunc append{name}(b []byte, v {name}) []byte {{\n\tb = append(b, '{{')");
        line!(out, "\tfor i, key := range sortedKeys(v) {{\n\t\tif i > 0 {{\n\t\t\tb = append(b, ',')\n\t\t}}");
        line!(out, "\t\tb = writeString(b, key)\n\t\tb = append(b, ':')\n\t\tb = {write}(b, v[key])\n\t}}");
        line!(out, "\treturn append(b, '}}')\n}}");
    }

    fn union_codec(&mut self, out: &mut String, name: &str, variants: &[UnionVariant]) {
        line!(out, "\nfunc decode{name}(v any) ({name}, *shapeError) {{\n\tvar out {name}");
        pick_variant(out, variants);
        for (i, variant) in variants.iter().enumerate() {
            let vname = self.type_name(&variant.type_name);
            line!(out, "\tcase {i}:\n\t\tvar x {vname}\n\t\tx, err = decode{vname}(v)\n\t\tout.{vname} = &x");
        }
        line!(out, "\t}}\n\treturn out, err\n}}");
        line!(out, "\nfunc append{name}(b []byte, v {name}) []byte {{\n\tswitch {{");
        for variant in variants {
            let vname = self.type_name(&variant.type_name);
            line!(out, "\tcase v.{vname} != nil:\n\t\treturn append{vname}(b, *v.{vname})");
        }
        line!(out, "\t}}\n\treturn append(b, \"null\"...)\n}}");
    }

    fn enum_codec(&self, out: &mut String, def: &str, values: &[String]) {
        let name = self.type_name(def);
        let quoted: Vec<String> = values.iter().map(|v| json_quote(v)).collect();
        let expected = if quoted.len() == 1 {
            format!("expected {}, got ", quoted[0])
        } else {
            format!("expected one of {}, got ", quoted.join(", "))
        };
        let consts: Vec<String> = self.enum_consts(def, values).into_iter().map(|(n, _)| n).collect();
        line!(out, "\nfunc decode{name}(v any) ({name}, *shapeError) {{");
        line!(out, "\ts, ok := v.(string)\n\tif !ok {{\n\t\treturn \"\", wrongKind(\"string\", v)\n\t}}");
        line!(out, "\tswitch {name}(s) {{\n\tcase {}:\n\t\treturn {name}(s), nil\n\t}}", consts.join(", "));
        line!(out, "\treturn \"\", problem({} + string(writeString(nil, s)))\n}}", string_lit(&expected));
        line!(out, "\nfunc append{name}(b []byte, v {name}) []byte {{\n\treturn writeString(b, string(v))\n}}");
    }
}

/// The start of a union decoder's body after `var out`: the object check and
/// `which, err := pickVariant(...)`, up to `switch which {`.
pub(super) fn pick_variant(out: &mut String, variants: &[UnionVariant]) {
    if let Some((member, tags)) = union_tag(variants) {
        let quoted: Vec<String> = tags.iter().map(|t| json_quote(t)).collect();
        let expected = format!("expected one of {}, got ", quoted.join(", "));
        let tags: Vec<String> = tags.iter().map(|t| string_lit(t)).collect();
        line!(out, "\to, ok := v.(*jsonObject)\n\tif !ok {{\n\t\treturn out, wrongKind(\"object\", v)\n\t}}");
        line!(out, "\twhich, err := pickTag(o, {}, []string{{{}}}, {})", string_lit(member), tags.join(", "), string_lit(&expected));
        line!(out, "\tif err != nil {{\n\t\treturn out, err\n\t}}\n\tswitch which {{");
        return;
    }
    let keys: Vec<String> = variants.iter().map(|v| format!("`{}`", v.discriminator)).collect();
    let (many, none) = if keys.len() == 2 {
        (format!("both {} and {}", keys[0], keys[1]), format!("neither {} nor {}", keys[0], keys[1]))
    } else {
        (format!("more than one of {}", keys.join(", ")), format!("none of {}", keys.join(", ")))
    };
    let discriminators: Vec<String> = variants.iter().map(|v| string_lit(&v.discriminator)).collect();
    line!(out, "\to, ok := v.(*jsonObject)\n\tif !ok {{\n\t\treturn out, wrongKind(\"object\", v)\n\t}}");
    line!(out, "\twhich, err := pickVariant(o, []string{{{}}}, {}, {})", discriminators.join(", "), string_lit(&many), string_lit(&none));
    line!(out, "\tif err != nil {{\n\t\treturn out, err\n\t}}\n\tswitch which {{");

}

/// The single-pass reader of a type read through the parser's tree (a map,
/// an enum, an id): the value parsed, then decoded.
/// `name` when JSON writes it as itself, between quotes (no quote, backslash
/// or control character), else empty: the name a scan reader may expect
/// next in the text (see parser.key).
fn plain_name(name: &str) -> &str {
    if name.chars().any(|c| c == '"' || c == '\\' || c < ' ') {
        ""
    } else {
        name
    }
}

fn scan_through_tree(out: &mut String, name: &str) {
    line!(out, "\nfunc scan{name}(p *parser) ({name}, bool) {{\n\treturn valueAs(p, decode{name})\n}}");
}

fn id_codec(out: &mut String, name: &str) {
    line!(out, "\nfunc decode{name}(v any) ({name}, *shapeError) {{\n\tswitch x := v.(type) {{");
    line!(out, "\tcase string:\n\t\treturn {name}{{Str: x, IsString: true}}, nil");
    line!(out, "\tcase json.Number:\n\t\tif i, ok := numberInt(x); ok {{\n\t\t\treturn {name}{{Int: i}}, nil\n\t\t}}\n\t}}");
    line!(out, "\treturn {name}{{}}, wrongKind(\"integer or string\", v)\n}}");
    line!(out, "\nfunc append{name}(b []byte, v {name}) []byte {{\n\tif v.IsString {{\n\t\treturn writeString(b, v.Str)\n\t}}");
    line!(out, "\treturn writeInt(b, v.Int)\n}}");
}

impl Ctx<'_> {
    /// `TypeNames` and `DecodeByName`: every `$defs` decoder by its schema name.
    pub fn decode_by_name(&self, out: &mut String) {
        let names: Vec<String> = self.contract.types.keys().map(|n| string_lit(n)).collect();
        line!(out, "\n// TypeNames are the $defs names DecodeByName knows, sorted.");
        line!(out, "var TypeNames = []string{{{}}}\n", names.join(", "));
        line!(out, "// DecodeByName decodes JSON text as the $defs type of that name (see TypeNames).");
        line!(out, "func DecodeByName(typeName string, data []byte) (json.Marshaler, error) {{\n\tswitch typeName {{");
        for def in self.contract.types.keys() {
            line!(out, "\tcase {}:\n\t\treturn asMarshaler(Decode{}(data))", string_lit(def), self.type_name(def));
        }
        line!(out, "\t}}\n\treturn nil, errors.New(\"unknown type `\" + typeName + \"`\")\n}}");
    }
}

#[cfg(test)]
mod tests {
    use super::plain_name;

    #[test]
    fn only_a_name_json_writes_as_itself_is_expected_whole() {
        assert_eq!(plain_name("duration_ms"), "duration_ms");
        assert_eq!(plain_name("é ü"), "é ü", "JSON writes non-ASCII and spaces as themselves");
        for escaped in ["a\"b", "a\\b", "a\nb", "\u{1}"] {
            assert_eq!(plain_name(escaped), "", "{escaped:?} is written escaped");
        }
    }
}
