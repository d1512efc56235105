//! The annotation keywords: `title`, `format`, `examples`, `default` and
//! `deprecated`. They say something to the reader and nothing to a decoder
//! (JSON Schema 2020-12 makes `format` an annotation too), so they are read
//! where a `description` is (a `$defs` entry or a property), checked, and
//! folded into the doc text every target already renders:
//!
//! | keyword | in the doc comment |
//! |---|---|
//! | `title` | the first paragraph (a period added when it has no closing punctuation) |
//! | `format` | ``Format: `uri` (an annotation: not checked).`` |
//! | `default` | ``Default: `5` (documentation only: an absent member is never filled in).`` |
//! | `examples` | ``Examples: `"a"`, `"b"`.`` (each value as compact JSON) |
//! | `deprecated: true` | ``Deprecated: …`` (Go's and Python's marker), plus each language's own marker where it has one |
//!
//! None of them is a shape: the version lock and typify never see them.

use serde_json::{Map, Value};

use crate::error::{push_pointer, SchemaError};
use crate::reader::Reader;

/// The annotation keywords, in the order their paragraphs follow the description.
pub const KEYWORDS: &[&str] = &["title", "format", "default", "examples", "deprecated"];

/// What a `$defs` entry's or a property's annotations say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Annotations {
    pub title: Option<String>,
    pub format: Option<String>,
    pub default: Option<Value>,
    pub examples: Vec<Value>,
    pub deprecated: bool,
}

/// What a deprecated type or member's doc comment says (a paragraph of its
/// own, so that Go's tools read it as the marker).
pub const DEPRECATED_NOTE: &str = "Deprecated: the contract marks this deprecated; a later protocol version may remove it.";

impl Annotations {
    /// The doc text of `description` with these annotations folded in.
    pub fn fold(&self, description: &str) -> String {
        let mut paragraphs: Vec<String> = Vec::new();
        if let Some(title) = &self.title {
            let title = title.trim();
            let closed = title.ends_with(['.', '!', '?', ':']);
            paragraphs.push(if closed { title.to_string() } else { format!("{title}.") });
        }
        paragraphs.push(description.to_string());
        if let Some(format) = &self.format {
            paragraphs.push(format!("Format: `{format}` (an annotation: not checked)."));
        }
        if let Some(default) = &self.default {
            paragraphs.push(format!("Default: {} (documentation only: an absent member is never filled in).", json_span(default)));
        }
        if !self.examples.is_empty() {
            let shown: Vec<String> = self.examples.iter().map(json_span).collect();
            let label = if self.examples.len() == 1 { "Example" } else { "Examples" };
            paragraphs.push(format!("{label}: {}.", shown.join(", ")));
        }
        if self.deprecated {
            paragraphs.push(DEPRECATED_NOTE.to_string());
        }
        paragraphs.join("\n\n")
    }
}

/// A value as compact JSON in a Markdown code span. A backtick in the value
/// is written `\u0060` (the same JSON value), so that the span never needs
/// the multi-backtick form some targets' doc converters do not read.
fn json_span(value: &Value) -> String {
    format!("`{}`", value.to_string().replace('`', "\\u0060"))
}

/// Reads the annotations of `schema` (at `pointer`), checking their values,
/// and returns them with the schema left without them, for the shape checks.
pub(crate) fn take(r: &Reader<'_>, schema: &Map<String, Value>, pointer: &str) -> Result<(Annotations, Map<String, Value>), SchemaError> {
    let mut out = Annotations::default();
    let mut rest = schema.clone();
    for keyword in KEYWORDS {
        let Some(value) = rest.remove(*keyword) else { continue };
        let at = push_pointer(pointer, keyword);
        match *keyword {
            "title" => match value.as_str().map(str::trim) {
                Some(title) if !title.is_empty() && !title.contains('\n') => out.title = Some(title.to_string()),
                _ => return Err(r.err(&at, "`title` must be a non-empty one-line string", "write a short label; the explanation belongs in `description`")),
            },
            "format" => match value.as_str() {
                Some(format) if !format.trim().is_empty() && !format.contains(['`', '\n']) => out.format = Some(format.to_string()),
                _ => return Err(r.err(&at, "`format` must be a non-empty one-line string without backticks", "name the format, like \"uri\" or \"date-time\"")),
            },
            "default" => out.default = Some(value),
            "examples" => match value {
                Value::Array(items) if !items.is_empty() => out.examples = items,
                _ => return Err(r.err(&at, "`examples` must be a non-empty array", "list one or more example values")),
            },
            _ => match value {
                Value::Bool(deprecated) => out.deprecated = deprecated,
                _ => return Err(r.err(&at, "`deprecated` must be true or false", "write `\"deprecated\": true`, or leave it out")),
            },
        }
    }
    Ok((out, rest))
}

/// Refuses annotations where no doc comment carries them (array items, map
/// values, union variants): they would be lost.
pub(crate) fn refuse_here(r: &Reader<'_>, schema: &Map<String, Value>, pointer: &str) -> Result<(), SchemaError> {
    for keyword in KEYWORDS {
        if schema.contains_key(*keyword) {
            return Err(r.err(
                &push_pointer(pointer, keyword),
                format!("`{keyword}` here would reach no doc comment"),
                "move it to the property or the $defs entry that holds this schema",
            ));
        }
    }
    Ok(())
}

/// Checks that `default` and every example are values of the schema at
/// `pointer` (a `$defs` entry or a property of one), as the jsonschema
/// validator reads it: an example that the decoders would refuse misleads.
/// `checker` must have been made for `pointer` (see [`ValueChecker`]).
pub(crate) fn check_values(r: &Reader<'_>, checker: &ValueChecker, annotations: &Annotations, pointer: &str) -> Result<(), SchemaError> {
    let mut values: Vec<(String, &Value)> = annotations.examples.iter().enumerate().map(|(i, v)| (format!("{}/{i}", push_pointer(pointer, "examples")), v)).collect();
    if let Some(default) = &annotations.default {
        values.insert(0, (push_pointer(pointer, "default"), default));
    }
    for (at, value) in values {
        if let Some(error) = checker.first_error(pointer, value).map_err(|e| r.err(pointer, format!("the schema here cannot be compiled to check its examples: {e}"), "fix the schema at this pointer"))? {
            return Err(r.err(&at, format!("{value} is not a value of this schema: {error}"), "write a value the schema accepts, or fix the schema"));
        }
    }
    Ok(())
}

/// Checks values against schemas of one contract's `$defs` with one
/// compiled validator: the root has a property per schema pointer that
/// `$ref`s it, and a value is checked as the one member of an object, so the
/// `$defs` are compiled once however many values there are (compiling them
/// per value was most of the loader's time). Should the whole not compile,
/// each pointer is compiled alone, so that the error names the one that
/// does not.
pub(crate) struct ValueChecker<'d> {
    defs: &'d Map<String, Value>,
    all: Option<jsonschema::Validator>,
}

impl<'d> ValueChecker<'d> {
    /// A checker for values of the schemas at `pointers` (each a `$defs`
    /// entry or a property of one).
    pub(crate) fn new<'p>(defs: &'d Map<String, Value>, pointers: impl IntoIterator<Item = &'p str>) -> Self {
        let properties: Map<String, Value> = pointers.into_iter().map(|p| (p.to_string(), serde_json::json!({ "$ref": format!("#{p}") }))).collect();
        let all = jsonschema::draft202012::new(&root(defs, serde_json::json!({ "properties": properties }))).ok();
        Self { defs, all }
    }

    /// The validator's first error for `value` at `pointer`, as text; an
    /// `Err` when the schema there cannot be compiled.
    pub(crate) fn first_error(&self, pointer: &str, value: &Value) -> Result<Option<String>, String> {
        if let Some(all) = &self.all {
            let wrapped = Value::Object(Map::from_iter([(pointer.to_string(), value.clone())]));
            let first = all.iter_errors(&wrapped).next().map(|error| error.to_string());
            return Ok(first);
        }
        let alone = jsonschema::draft202012::new(&root(self.defs, serde_json::json!({ "$ref": format!("#{pointer}") }))).map_err(|e| e.to_string())?;
        let first = alone.iter_errors(value).next().map(|error| error.to_string());
        Ok(first)
    }
}

/// A 2020-12 root schema: `defs` as its `$defs`, with `body`'s members.
fn root(defs: &Map<String, Value>, body: Value) -> Value {
    let mut root = serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": defs,
    });
    if let (Some(root), Value::Object(body)) = (root.as_object_mut(), body) {
        root.extend(body);
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_follow_the_description_in_keyword_order() {
        let a = Annotations {
            title: Some("Tool name".into()),
            format: Some("uri".into()),
            default: Some(Value::from(5)),
            examples: vec![Value::from("a"), serde_json::json!({"k": "`x`"})],
            deprecated: true,
        };
        assert_eq!(
            a.fold("The name."),
            "Tool name.\n\nThe name.\n\nFormat: `uri` (an annotation: not checked).\n\n\
             Default: `5` (documentation only: an absent member is never filled in).\n\n\
             Examples: `\"a\"`, `{\"k\":\"\\u0060x\\u0060\"}`.\n\n"
                .to_string()
                + DEPRECATED_NOTE
        );
    }

    #[test]
    fn no_annotations_leave_the_description_alone() {
        assert_eq!(Annotations::default().fold("Plain."), "Plain.");
        let one = Annotations { examples: vec![Value::from(1)], title: Some("Done!".into()), ..Annotations::default() };
        assert_eq!(one.fold("D."), "Done!\n\nD.\n\nExample: `1`.");
    }
}
