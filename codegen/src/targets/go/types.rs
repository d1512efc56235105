//! Go types for the model: one declaration per `$defs` entry, and the Go
//! type of every field, item and map value.
//!
//! | model | Go |
//! |---|---|
//! | closed object | struct; optional fields are pointers (nil = absent), or nil-able slices/maps |
//! | map | `map[string]T` |
//! | union | struct with one pointer per variant, exactly one non-nil |
//! | string enum | `type E string` with one constant per value |
//! | integer or string | struct `{Int, Str, IsString}` |
//! | number | `float64` |
//! | any JSON value | `any` (nil, bool, json.Number, string, []any, map[string]any) |
//! | nullable | pointer (nil = null), or the nil-able slice/map/any itself |

use crate::model::{union_tag, Field, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

use super::docs::{comment, doc_sentence};
use super::names::{exported, json_quote, pascal_words, string_lit};
use super::Ctx;

/// The exported methods of a generated struct type.
const TYPE_METHODS: &[&str] = &["MarshalJSON"];

impl Ctx<'_> {
    /// The Go name of a `$defs` entry.
    pub fn type_name(&self, def: &str) -> String {
        exported(def)
    }

    /// Whether a value of this type has nil as a natural "nothing" (no pointer needed).
    pub fn nilable(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Any | Ty::Array(_) => true,
            Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => self.nilable(inner),
            Ty::Ref(name) => matches!(self.contract.type_def(name).map(|d| &d.kind), Some(TypeKind::Map { .. })),
            _ => false,
        }
    }

    /// The Go type of a required value of `ty`.
    pub fn go_ty(&self, ty: &Ty) -> String {
        match ty {
            Ty::Any => "any".into(),
            Ty::Boolean => "bool".into(),
            Ty::Number { .. } => "float64".into(),
            Ty::Integer { .. } => "int64".into(),
            Ty::String => "string".into(),
            Ty::Ref(name) => self.type_name(name),
            Ty::Array(item) => format!("[]{}", self.go_ty(item)),
            Ty::Nullable(inner) => self.pointer_to(inner),
            Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => self.go_ty(inner),
        }
    }

    /// `*T`, or `T` itself when nil already says "nothing".
    fn pointer_to(&self, ty: &Ty) -> String {
        if self.nilable(ty) && *ty != Ty::Any {
            self.go_ty(ty)
        } else {
            format!("*{}", self.go_ty(ty))
        }
    }

    /// Whether an optional field of this type is held behind a pointer.
    pub fn optional_needs_pointer(&self, ty: &Ty) -> bool {
        !self.nilable(ty) || *ty == Ty::Any
    }

    /// The Go type of a struct field.
    pub fn field_ty(&self, field: &Field) -> String {
        if field.required {
            self.go_ty(&field.ty)
        } else {
            self.pointer_to(&field.ty)
        }
    }

    /// The Go name of a struct field: a field may not share its name with a
    /// method of its type (`MarshalJSON`), so such a field takes `Field`
    /// after its name (`MarshalJSONField`; the wire name is unchanged).
    pub fn field_name(&self, field: &Field) -> String {
        let name = exported(&field.name);
        if TYPE_METHODS.contains(&name.as_str()) {
            name + "Field"
        } else {
            name
        }
    }

    /// The constants of a string enum: (Go name, wire value), names unique.
    pub fn enum_consts(&self, def: &str, values: &[String]) -> Vec<(String, String)> {
        let type_name = self.type_name(def);
        let mut out: Vec<(String, String)> = Vec::new();
        for (i, value) in values.iter().enumerate() {
            let suffix = pascal_words(value);
            let mut name = format!("{type_name}{suffix}");
            if suffix.is_empty() || out.iter().any(|(n, _)| *n == name) {
                name = format!("{type_name}Value{i}");
            }
            out.push((name, value.clone()));
        }
        out
    }

    /// The declaration of one `$defs` entry (doc comment, type, constants).
    pub fn type_decl(&self, def: &TypeDef) -> String {
        let name = self.type_name(&def.name);
        let mut out = String::new();
        comment(&mut out, 0, &doc_sentence(&name, &def.description));
        match &def.kind {
            TypeKind::Object(object) => self.struct_decl(&mut out, &name, object),
            TypeKind::Map { values: value, .. } => out.push_str(&format!("type {name} map[string]{}\n", self.go_ty(value))),
            TypeKind::Union(variants) => self.union_decl(&mut out, &name, variants),
            TypeKind::StringEnum(values) => self.enum_decl(&mut out, &def.name, values),
            TypeKind::IntegerOrString => Self::id_decl(&mut out, &name),
        }
        out
    }

    /// `type {name} struct {...}`; `name` may carry type parameters.
    pub(super) fn struct_decl(&self, out: &mut String, name: &str, object: &ObjectType) {
        if object.fields.is_empty() {
            out.push_str(&format!("type {name} struct{{}}\n"));
            return;
        }
        out.push_str(&format!("type {name} struct {{\n"));
        for field in &object.fields {
            let go_name = self.field_name(field);
            let mut doc = doc_sentence(&go_name, &field.description);
            if !field.required {
                doc.push_str(" Nil when absent.");
            } else if matches!(field.ty, Ty::Nullable(_)) {
                doc.push_str(" Nil for JSON null.");
            }
            comment(out, 1, &doc);
            out.push_str(&format!("\t{go_name} {}\n", self.field_ty(field)));
        }
        out.push_str("}\n");
    }

    fn union_decl(&self, out: &mut String, name: &str, variants: &[UnionVariant]) {
        out.push_str("//\n");
        let decides = match union_tag(variants) {
            Some((member, _)) => format!("the tag `{member}` decides which"),
            None => "the wire shape decides which (the member that only that variant has)".to_string(),
        };
        comment(out, 0, &format!("Exactly one variant is non-nil; {decides}. A {name} with none set is written as null."));
        out.push_str(&format!("type {name} struct {{\n"));
        for variant in variants {
            let variant_name = self.type_name(&variant.type_name);
            let when = match &variant.tag {
                Some(tag) => format!("`{}` is {}", variant.discriminator, json_quote(tag)),
                None => format!("the object has `{}`", variant.discriminator),
            };
            comment(out, 1, &format!("{variant_name} is set when {when}."));
            out.push_str(&format!("\t{variant_name} *{variant_name}\n"));
        }
        out.push_str("}\n");
    }

    fn enum_decl(&self, out: &mut String, def: &str, values: &[String]) {
        let name = self.type_name(def);
        out.push_str(&format!("type {name} string\n\n"));
        out.push_str(&format!("// The values of {name}.\nconst (\n"));
        let consts = self.enum_consts(def, values);
        let width = consts.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        for (const_name, value) in &consts {
            out.push_str(&format!("\t{const_name:<width$} {name} = {}\n", string_lit(value)));
        }
        out.push_str(")\n");
    }

    fn id_decl(out: &mut String, name: &str) {
        out.push_str(&format!(
            "//\n// It is an integer when IsString is false (see Int), a string otherwise (see Str).\ntype {name} struct {{\n\
             \t// Int is the id when it is an integer.\n\tInt int64\n\
             \t// Str is the id when it is a string.\n\tStr string\n\
             \t// IsString says which of the two the id is.\n\tIsString bool\n}}\n"
        ));
    }
}
