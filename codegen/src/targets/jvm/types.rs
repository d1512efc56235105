//! One nested Java type per `$defs` entry, each with its Javadoc, its public
//! `fromJson`/`fromNode` entry points and its one-line encoder:
//! closed object → record, map → record over a `Map`, union → sealed interface,
//! string enum → enum, integer-or-string → sealed interface of two records.

use std::collections::BTreeMap;

use super::layout::Code;
use super::names::{enum_constants, field_name, java_type, json_quote, string_literal, type_name};
use crate::model::{Contract, Field, ObjectType, Ty, TypeDef, TypeKind};

/// Renders the declaration of every type, in name order.
pub fn render_types(code: &mut Code, contract: &Contract) {
    let unions = unions_of_variants(contract);
    for def in contract.types.values() {
        code.blank();
        match &def.kind {
            TypeKind::Object(object) => render_record(code, &unions, def, object),
            TypeKind::Map { values: value, .. } => render_map(code, def, value),
            TypeKind::Union(variants) => {
                let permits: Vec<String> =
                    variants.iter().map(|v| type_name(&v.type_name)).collect();
                render_union(code, def, &permits)
            }
            TypeKind::StringEnum(values) => render_enum(code, def, values),
            TypeKind::IntegerOrString => render_id(code, def),
        }
    }
}

/// Variant name → the unions that list it, in name order: what its record
/// implements. Read in one pass (one per record would be quadratic in `$defs`).
fn unions_of_variants(contract: &Contract) -> BTreeMap<&str, Vec<String>> {
    let mut out: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for def in contract.types.values() {
        if let TypeKind::Union(variants) = &def.kind {
            for variant in variants {
                let unions = out.entry(variant.type_name.as_str()).or_default();
                if unions.last() != Some(&type_name(&def.name)) {
                    unions.push(type_name(&def.name));
                }
            }
        }
    }
    out
}

/// The Java type of a record component.
pub fn field_type(field: &Field) -> String {
    java_type(&field.ty, !field.required)
}

fn render_record(code: &mut Code, unions: &BTreeMap<&str, Vec<String>>, def: &TypeDef, object: &ObjectType) {
    let record = Record {
        decl: type_name(&def.name),
        implements: unions.get(def.name.as_str()).map_or_else(|| "Encodable".to_string(), |unions| unions.join(", ")),
        generic: None,
        type_param: None,
    };
    render_record_as(code, def, object, &record, &|code| {
        render_entry_points(code, &def.name)
    });
}

/// How a record is declared: its name (with type parameters), what it
/// implements, and the component typed by its type parameter, if any.
pub struct Record<'a> {
    pub decl: String,
    pub implements: String,
    pub generic: Option<&'a Generic>,
    /// The type parameter and its `@param` text.
    pub type_param: Option<(String, String)>,
}

/// A record component typed by the record's type parameter (a typed
/// envelope's `params` or `result`).
pub struct Generic {
    pub field: String,
    pub param: String,
}

impl Generic {
    /// Whether `field` is the component typed by the type parameter.
    pub fn types(&self, field: &Field) -> bool {
        field.name == self.field
    }
}

/// A record: Javadoc, header, checks, `entry_points`, encoder.
pub fn render_record_as(
    code: &mut Code,
    def: &TypeDef,
    object: &ObjectType,
    record: &Record,
    entry_points: &dyn Fn(&mut Code),
) {
    let generic = record.generic;
    let mut tags: Vec<(&str, String, String)> = Vec::new();
    if let Some((param, text)) = &record.type_param {
        tags.push(("param", format!("<{param}>"), text.clone()));
    }
    tags.extend(
        object
            .fields
            .iter()
            .map(|f| ("param", field_name(&f.name), field_doc(f, generic))),
    );
    code.doc(1, &def.description, &tags);
    deprecated(code, def);
    let (decl, implements) = (&record.decl, &record.implements);
    let components: Vec<String> = object
        .fields
        .iter()
        .map(|f| {
            format!("{} {}", component_type(f, generic), field_name(&f.name))
        })
        .collect();
    code.line(1, format!("public record {decl}({}) implements {implements} {{", components.join(", ")));
    let bare = decl.split('<').next().unwrap_or(decl);
    render_checks(code, bare, object, generic);
    render_deprecated_accessors(code, object, generic);
    entry_points(code);
    render_record_encoder(code, object, generic);
    code.line(1, "}");
}

/// `@Deprecated` before a type the contract deprecates (its Javadoc's
/// `Deprecated:` paragraph says why; uses inside `Coprocess` are not warned).
fn deprecated(code: &mut Code, def: &TypeDef) {
    if def.deprecated {
        code.line(1, "@Deprecated");
    }
}

/// The Java type of a record component, or the type parameter for the generic one.
pub fn component_type(field: &Field, generic: Option<&Generic>) -> String {
    match generic {
        Some(g) if g.types(field) => g.param.clone(),
        _ => field_type(field),
    }
}

/// What a component's `@param` says: the description, plus how absence and
/// null are represented in Java.
fn field_doc(field: &Field, generic: Option<&Generic>) -> String {
    if let Some(g) = generic.filter(|g| g.types(field)) {
        let absent = if field.required { "" } else { "; Java null when absent" };
        return format!("{} (decoded as `{}`{absent})", field.description, g.param);
    }
    let note = match (&field.ty, field.required) {
        (Ty::Any, true) => " (JSON null is `NullNode`)",
        (Ty::Any, false) => " (Java null when absent; JSON null is `NullNode`)",
        (Ty::Nullable(_), _) => " (Java null for JSON null)",
        (_, false) => " (Java null when absent)",
        _ => "",
    };
    format!("{}{note}", field.description)
}

/// The accessor of each deprecated component, declared to carry `@Deprecated`
/// (javac warns that the annotation on a component has no effect on the
/// constructor parameter it also lands on).
fn render_deprecated_accessors(code: &mut Code, object: &ObjectType, generic: Option<&Generic>) {
    for field in object.fields.iter().filter(|f| f.deprecated) {
        let name = field_name(&field.name);
        code.blank();
        code.doc(
            2,
            &format!("The `\"{}\"` member, which the contract deprecates.", field.name),
            &[("return", String::new(), "the member's value".into())],
        );
        code.line(2, "@Override");
        code.line(2, "@Deprecated");
        code.line(2, format!("public {} {name}() {{", component_type(field, generic)));
        code.line(3, format!("return {name};"));
        code.line(2, "}");
    }
}

/// The compact constructor: required, non-nullable reference components are never null.
fn render_checks(code: &mut Code, name: &str, object: &ObjectType, generic: Option<&Generic>) {
    let checked: Vec<&Field> = object
        .fields
        .iter()
        .filter(|f| {
            f.required && !matches!(f.ty.unbounded(), Ty::Nullable(_) | Ty::Boolean | Ty::Integer { .. } | Ty::Number { .. })
        })
        .collect();
    if checked.is_empty() {
        return;
    }
    code.blank();
    let tags: Vec<(&str, String, String)> = object
        .fields
        .iter()
        .map(|f| {
            (
                "param",
                field_name(&f.name),
                format!("the value of the `\"{}\"` member", f.name),
            )
        })
        .collect();
    code.doc(
        2,
        "Refuses null for the components that are always present.",
        &tags,
    );
    code.line(2, format!("public {name} {{"));
    for f in checked {
        let component = field_name(&f.name);
        code.line(
            3,
            format!(
                "Objects.requireNonNull({component}, {});",
                string_literal(&component)
            ),
        );
    }
    if let Some(g) = generic {
        let component = field_name(&g.field);
        code.line(
            3,
            format!("checkMember({component}, {});", string_literal(&component)),
        );
    }
    code.line(2, "}");
}

/// `fromJson` and `fromNode`, delegating to the private decoder.
pub fn render_entry_points(code: &mut Code, schema_name: &str) {
    let name = type_name(schema_name);
    let label = string_literal(schema_name);
    code.blank();
    code.doc(
        2,
        &format!("Decodes a `{schema_name}` from one frame of strict JSON text."),
        &[
            (
                "param",
                "json".into(),
                "the frame text, without the line terminator".into(),
            ),
            ("return", String::new(), "the decoded value".into()),
            (
                "throws",
                "DecodeException".into(),
                format!("when the text is not strict JSON or not a `{schema_name}`"),
            ),
        ],
    );
    code.line(2, format!("public static {name} fromJson(String json) {{"));
    code.line(
        3,
        format!("return Coprocess.readText(json, {label}, Coprocess::decode{name});"),
    );
    code.line(2, "}");
    code.blank();
    code.doc(
        2,
        &format!("Decodes a `{schema_name}` from an already parsed JSON value."),
        &[
            ("param", "node".into(), "the value".into()),
            ("return", String::new(), "the decoded value".into()),
            (
                "throws",
                "DecodeException".into(),
                format!("when the value is not a `{schema_name}`"),
            ),
        ],
    );
    code.line(
        2,
        format!("public static {name} fromNode(JsonNode node) {{"),
    );
    code.line(
        3,
        format!("return Coprocess.readTree(node, {label}, Coprocess::decode{name});"),
    );
    code.line(2, "}");
}

/// Where the encoder stands before a field: whether a comma is certainly,
/// never or maybe needed (only optional fields came before).
#[derive(Clone, Copy, PartialEq)]
enum Comma {
    Never,
    Always,
    Maybe,
}

fn render_record_encoder(code: &mut Code, object: &ObjectType, generic: Option<&Generic>) {
    code.blank();
    code.line(2, "@Override");
    code.line(2, "public void appendJson(StringBuilder out) {");
    code.line(3, "out.append('{');");
    let needs_start = object.fields.len() > 1 && !object.fields[0].required;
    if needs_start {
        code.line(3, "int start = out.length();");
    }
    let mut comma = Comma::Never;
    for f in &object.fields {
        let value = format!("this.{}", field_name(&f.name));
        let key = json_quote(&f.name) + ":";
        let mut body = Vec::new();
        match comma {
            Comma::Never => body.push(format!("out.append({});", string_literal(&key))),
            Comma::Always => body.push(format!(
                "out.append({});",
                string_literal(&format!(",{key}"))
            )),
            Comma::Maybe => {
                body.push("if (out.length() != start) {".to_string());
                body.push("    out.append(',');".to_string());
                body.push("}".to_string());
                body.push(format!("out.append({});", string_literal(&key)));
            }
        }
        if generic.is_some_and(|g| g.types(f)) {
            body.push(format!("writeMember(out, {value});"));
        } else {
            body.push(write_stmt(&f.ty, &value, "out", 1));
        }
        if f.required {
            body.iter().for_each(|l| code.line(3, l));
            comma = Comma::Always;
        } else {
            code.line(3, format!("if ({value} != null) {{"));
            body.iter().for_each(|l| code.line(4, l));
            code.line(3, "}");
            if comma == Comma::Never {
                comma = Comma::Maybe;
            }
        }
    }
    code.line(3, "out.append('}');");
    code.line(2, "}");
}

/// A statement writing `expr` (of type `ty`) to the `StringBuilder` named `out`.
/// Every writer also writes Java null as JSON null, so nullable types need nothing more.
pub fn write_stmt(ty: &Ty, expr: &str, out: &str, depth: usize) -> String {
    match ty {
        Ty::Any => format!("Coprocess.writeNode({out}, {expr});"),
        // StringBuilder writes a double as Double.toString does: digits that read back as it.
        Ty::Boolean | Ty::Integer { .. } | Ty::Number { .. } => format!("{out}.append({expr});"),
        Ty::String => format!("Coprocess.writeString({out}, {expr});"),
        Ty::Ref(_) => format!("{expr}.appendJson({out});"),
        Ty::Array(item) => {
            let (o, e) = (format!("o{depth}"), format!("e{depth}"));
            let inner = write_stmt(item, &e, &o, depth + 1);
            format!(
                "Coprocess.writeList({out}, {expr}, ({o}, {e}) -> {});",
                inner.trim_end_matches(';')
            )
        }
        Ty::Nullable(inner) => match inner.as_ref() {
            Ty::Ref(_) => format!("Coprocess.writeValue({out}, {expr});"),
            other => write_stmt(other, expr, out, depth),
        },
        Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => write_stmt(inner, expr, out, depth),
    }
}

fn render_map(code: &mut Code, def: &TypeDef, value: &Ty) {
    let name = type_name(&def.name);
    // Any JSON object stays Jackson's own tree (no copy, and it can be fed to
    // another type's `fromNode`); a typed map becomes a `Map` of that type.
    let (component, java, doc) = if *value == Ty::Any {
        (
            "node",
            "ObjectNode".to_string(),
            "the object, members in document order",
        )
    } else {
        (
            "entries",
            format!("Map<String, {}>", java_type(value, true)),
            "the members, in document order",
        )
    };
    code.doc(
        1,
        &def.description,
        &[("param", component.into(), doc.into())],
    );
    deprecated(code, def);
    code.line(
        1,
        format!("public record {name}({java} {component}) implements Encodable {{"),
    );
    code.blank();
    code.doc(
        2,
        "Refuses a null object.",
        &[("param", component.into(), "the members".into())],
    );
    code.line(2, format!("public {name} {{"));
    code.line(
        3,
        format!(
            "Objects.requireNonNull({component}, {});",
            string_literal(component)
        ),
    );
    code.line(2, "}");
    render_entry_points(code, &def.name);
    code.blank();
    code.line(2, "@Override");
    code.line(2, "public void appendJson(StringBuilder out) {");
    if *value == Ty::Any {
        code.line(3, "Coprocess.writeNode(out, this.node);");
    } else {
        let inner = write_stmt(value, "e1", "o1", 2);
        code.line(
            3,
            format!(
                "Coprocess.writeMap(out, this.entries, (o1, e1) -> {});",
                inner.trim_end_matches(';')
            ),
        );
    }
    code.line(2, "}");
    code.line(1, "}");
}

fn render_union(code: &mut Code, def: &TypeDef, permits: &[String]) {
    let name = type_name(&def.name);
    code.doc(1, &def.description, &[]);
    deprecated(code, def);
    code.line(
        1,
        format!(
            "public sealed interface {name} extends Encodable permits {} {{",
            permits.join(", ")
        ),
    );
    render_entry_points(code, &def.name);
    code.line(1, "}");
}

fn render_enum(code: &mut Code, def: &TypeDef, values: &[String]) {
    let name = type_name(&def.name);
    code.doc(1, &def.description, &[]);
    deprecated(code, def);
    code.line(1, format!("public enum {name} implements Encodable {{"));
    let constants = enum_constants(values);
    for (i, (constant, value)) in constants.iter().zip(values).enumerate() {
        let end = if i + 1 == values.len() { ";" } else { "," };
        code.line(
            2,
            format!("/** {{@code {}}} on the wire. */", doc_safe_literal(value)),
        );
        code.line(2, format!("{constant}({}){end}", string_literal(value)));
    }
    code.blank();
    code.line(2, "private final String value;");
    code.blank();
    code.line(2, format!("{name}(String value) {{"));
    code.line(3, "this.value = value;");
    code.line(2, "}");
    code.blank();
    code.line(2, "/**");
    code.line(2, " * Returns the value on the wire.");
    code.line(2, " *");
    code.line(2, " * @return the value on the wire");
    code.line(2, " */");
    code.line(2, "public String value() {");
    code.line(3, "return value;");
    code.line(2, "}");
    render_entry_points(code, &def.name);
    code.blank();
    code.line(2, "@Override");
    code.line(2, "public void appendJson(StringBuilder out) {");
    code.line(3, "Coprocess.writeString(out, value);");
    code.line(2, "}");
    code.line(1, "}");
}

/// An enum value as it may appear inside `{@code ...}`; anything unusual is
/// replaced so that the comment stays valid.
fn doc_safe_literal(value: &str) -> String {
    let plain = value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.:+ ".contains(c));
    if plain {
        json_quote(value)
    } else {
        "\"...\"".to_string()
    }
}

fn render_id(code: &mut Code, def: &TypeDef) {
    let name = type_name(&def.name);
    code.doc(1, &def.description, &[]);
    deprecated(code, def);
    code.line(1, format!("public sealed interface {name} extends Encodable permits {name}.OfInteger, {name}.OfString {{"));
    for (java, param) in [("long", "an integer"), ("String", "a string")] {
        code.blank();
        code.doc(
            2,
            &format!("An id that is {param}."),
            &[
                ("param", "value".into(), "the id".into()),
                ("return", String::new(), "the id".into()),
            ],
        );
        code.line(2, format!("static {name} of({java} value) {{"));
        let record = if java == "long" {
            "OfInteger"
        } else {
            "OfString"
        };
        // Qualified: another union of the file may have variants of the same names.
        code.line(3, format!("return new {name}.{record}(value);"));
        code.line(2, "}");
    }
    render_entry_points(code, &def.name);
    code.blank();
    code.line(2, "/**");
    code.line(2, " * The variant holding an integer.");
    code.line(2, " *");
    code.line(2, " * @param value the integer id");
    code.line(2, " */");
    code.line(
        2,
        format!("record OfInteger(long value) implements {name} {{"),
    );
    code.line(3, "@Override");
    code.line(3, "public void appendJson(StringBuilder out) {");
    code.line(4, "out.append(value);");
    code.line(3, "}");
    code.line(2, "}");
    code.blank();
    code.line(2, "/**");
    code.line(2, " * The variant holding a string.");
    code.line(2, " *");
    code.line(2, " * @param value the string id");
    code.line(2, " */");
    code.line(
        2,
        format!("record OfString(String value) implements {name} {{"),
    );
    code.doc(
        3,
        "Refuses a null id.",
        &[("param", "value".into(), "the string id".into())],
    );
    code.line(3, "public OfString {");
    code.line(4, "Objects.requireNonNull(value, \"value\");");
    code.line(3, "}");
    code.blank();
    code.line(3, "@Override");
    code.line(3, "public void appendJson(StringBuilder out) {");
    code.line(4, "Coprocess.writeString(out, value);");
    code.line(3, "}");
    code.line(2, "}");
    code.line(1, "}");
}
