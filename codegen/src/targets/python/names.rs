//! Python names for schema names, and the Python spelling of model types.

use crate::model::{Contract, Ty, TypeKind};
use crate::names;
pub(crate) use crate::languages::python::KEYWORDS;

/// Names a dataclass body's annotations may use: a field of that name would
/// shadow them inside the class (`int: int` is not a valid type for mypy).
pub(crate) const CLASS_BODY_NAMES: &[&str] = &[
    "bool", "builtins", "bytes", "collections", "dict", "float", "int", "list", "object", "str", "tuple",
    "type", "typing",
];

/// Python's builtins (`dir(builtins)`, the lower-case ones): a reader's local
/// of one of these names would shadow what the reader calls.
pub(crate) const BUILTINS: &[&str] = &[
    "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes",
    "callable", "chr", "classmethod", "compile", "complex", "copyright", "credits", "delattr", "dict",
    "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter", "float", "format", "frozenset",
    "getattr", "globals", "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance",
    "issubclass", "iter", "len", "license", "list", "locals", "map", "max", "memoryview", "min", "next",
    "object", "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed",
    "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple", "type",
    "vars", "zip",
];

/// The attribute name of a property (`isError` → `is_error`, `class` → `class_`,
/// `int` → `int_`). Dunder wire names lose their underscores (`__init__` → `init`),
/// so no attribute is ever private or special.
pub fn field(wire: &str) -> String {
    let name = names::snake_case(wire);
    if KEYWORDS.contains(&name.as_str()) || CLASS_BODY_NAMES.contains(&name.as_str()) {
        name + "_"
    } else {
        name
    }
}

/// The stem of a type's functions (`CallParams` → `call_params`).
pub fn stem(type_name: &str) -> String {
    names::snake_case(type_name)
}

/// The UPPER_SNAKE stem of a type's module constants.
pub fn upper(type_name: &str) -> String {
    names::screaming_snake_case(type_name)
}

/// The constant naming a method (`mcp.call` → `METHOD_MCP_CALL`).
pub fn method_const(name: &str) -> String {
    format!("METHOD_{}", names::screaming_snake_case(name))
}

/// The constant naming an error code (`ParseError` → `PARSE_ERROR`).
pub fn error_const(name: &str) -> String {
    names::screaming_snake_case(name)
}

/// The constant holding a message template (`sdk_mismatch` → `SDK_MISMATCH_MESSAGE`).
pub fn message_const(name: &str) -> String {
    format!("{}_MESSAGE", names::screaming_snake_case(name))
}

/// The annotation of a model type.
pub fn annotation(ty: &Ty) -> String {
    match ty {
        Ty::Any => "JsonValue".to_string(),
        Ty::Number { .. } => "float".to_string(),
        Ty::Boolean => "bool".to_string(),
        Ty::Integer { .. } => "int".to_string(),
        Ty::String => "str".to_string(),
        Ty::Ref(name) => name.clone(),
        Ty::Array(item) => format!("list[{}]", annotation(item)),
        Ty::Nullable(inner) => format!("{} | None", annotation(inner)),
        Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => annotation(inner),
    }
}

/// Whether the Python value of `ty` is already its JSON value, with a type that
/// fits a `JsonValue` slot as is (no list or dict to re-type).
pub fn is_plain(contract: &Contract, ty: &Ty) -> bool {
    match ty {
        Ty::Any | Ty::Number { .. } | Ty::Boolean | Ty::Integer { .. } | Ty::String => true,
        Ty::Ref(name) => matches!(
            contract.type_def(name).map(|def| &def.kind),
            Some(TypeKind::StringEnum(_)) | Some(TypeKind::IntegerOrString)
        ),
        Ty::Array(_) => false,
        Ty::Nullable(inner) | Ty::Length { inner, .. } | Ty::Unique(inner) | Ty::Prefix { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => is_plain(contract, inner),
    }
}
