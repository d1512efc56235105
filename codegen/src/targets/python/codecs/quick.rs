//! The quick path of a closed object's reader: guards that the object has only
//! declared members and every required one, and an inline check per member that
//! lets its value through as it is (`type(tool) is str`), so that a well-formed
//! object is built without a call per member. A member whose type has no such
//! check (objects, unions, arrays, typed maps) is decoded by its reader on the
//! quick path too; anything the checks turn away takes the decoding path.

use crate::targets::python::layout::{pad, statement, string, LINE_WIDTH};
use crate::targets::python::names::{field, upper};
use crate::model::{Constant, Contract, Field, ObjectType, Ty, TypeDef, TypeKind};

/// Locals that would shadow a name the reader itself uses: its parameter and
/// scratch names, the modules the file imports, and every builtin.
const SHADOWING: &[&str] = &["value", "obj", "instance", "out", "error", "text", "json", "math", "re", "enum", "typing", "collections", "dataclass", "builtins"];

/// The indent of the operands of an exploded `if (...)` inside the reader's
/// `if isinstance(value, dict):`.
const OPERAND_INDENT: usize = 12;

/// The local holding a member's value in its reader.
pub fn local(f: &Field) -> String {
    let name = field(&f.name);
    if SHADOWING.contains(&name.as_str()) || crate::targets::python::names::BUILTINS.contains(&name.as_str()) {
        format!("{name}_")
    } else {
        name
    }
}

/// What the quick path does with one member.
pub enum Quick {
    /// Any value is the field's value (`Ty::Any`).
    Always,
    /// The value is the field's value when this expression holds.
    When(String),
    /// The value is decoded (by a call) on the quick path too.
    Decode,
}

/// The quick-path treatment of a member, read into `var`.
pub fn quick(contract: &Contract, f: &Field, var: &str) -> Quick {
    if f.ty == Ty::Any {
        return Quick::Always;
    }
    let Some(check) = check(contract, &f.ty, var) else { return Quick::Decode };
    let operand = if f.required {
        and_operand(&check)
    } else {
        format!("({} or {} not in value)", or_operand(&check), string(&f.name))
    };
    let fits = pad(OPERAND_INDENT).len() + "and ".len() + operand.chars().count() <= LINE_WIDTH;
    let splits = operand.starts_with('(')
        && disjuncts(&operand[1..operand.len() - 1])
            .iter()
            .all(|part| pad(OPERAND_INDENT + 4).len() + "or ".len() + part.chars().count() <= LINE_WIDTH);
    if fits || splits {
        Quick::When(operand)
    } else {
        Quick::Decode
    }
}

/// The guards of the quick path: the object has no undeclared member (its size
/// is the number of declared members it has, or, when that comparison does not
/// fit on a line, its keys are declared ones), and has each required member
/// whose type admits null (the check or the decoder of any other proves it is
/// there: `value.get` gives `None` for a missing one).
pub fn guards(object: &ObjectType, shape: &str, constant: &str) -> Vec<String> {
    let count = object.fields.iter().filter(|f| f.required).count();
    // Two or more: by name, not a bare number (ruff's PLR2004).
    let required = if count < 2 { count.to_string() } else { constant.to_string() };
    let optional: Vec<String> = object
        .fields
        .iter()
        .filter(|f| !f.required)
        .map(|f| format!(" + ({} in value)", string(&f.name)))
        .collect();
    let size = format!("len(value) == {required}{}", optional.concat());
    let fits = pad(OPERAND_INDENT).len() + "and ".len() + size.chars().count() <= LINE_WIDTH;
    let mut guards = vec![if fits { size } else { format!("{shape}.names.issuperset(value)") }];
    for f in object.fields.iter().filter(|f| f.required && admits_null(&f.ty)) {
        guards.push(format!("{} in value", string(&f.name)));
    }
    guards
}

/// The constant holding the number of required members of an object type,
/// which its reader's quick path compares the object's size with.
pub fn required_constant(def: &TypeDef) -> String {
    format!("_{}_REQUIRED", upper(&def.name))
}

fn admits_null(ty: &Ty) -> bool {
    // A `const` of any JSON value may be `null` (`value.get` gives `None`
    // for a missing member too).
    matches!(ty, Ty::Any | Ty::Nullable(_) | Ty::Const { value: Constant::Json(_) | Constant::OneOf(_), .. })
}

/// An expression that holds when `var` is a value of `ty` that decodes to itself.
fn check(contract: &Contract, ty: &Ty, var: &str) -> Option<String> {
    match ty {
        Ty::Any => Some("True".to_string()),
        // A number written as an integer is an `int` to convert: decoded.
        Ty::Number { minimum: None, maximum: None } => Some(format!("type({var}) is float")),
        Ty::Number { minimum: Some(min), maximum: None } if min.value == 0.0 || min.value == 1.0 => {
            Some(format!("type({var}) is float and {var} {} {}", min.operator(true), min.value as i64))
        }
        Ty::Boolean => Some(format!("type({var}) is bool")),
        Ty::String => Some(format!("type({var}) is str")),
        Ty::Integer { minimum: None, maximum: None } => Some(format!("type({var}) is int")),
        Ty::Integer { minimum: Some(min @ (0 | 1)), maximum: None } => Some(format!("type({var}) is int and {var} >= {min}")),
        // Other bounds are decoded by their call: a comparison with the bare
        // number would be a magic value to ruff (PLR2004).
        Ty::Integer { .. } | Ty::Number { .. } => None,
        Ty::Ref(name) => match &contract.type_def(name)?.kind {
            TypeKind::StringEnum(_) => Some(format!("{var} in {}_VALUES", upper(name))),
            TypeKind::IntegerOrString => Some(format!("type({var}) is int or type({var}) is str")),
            TypeKind::Map { values: Ty::Any, min_members: None, max_members: None, names: None } => Some(format!("type({var}) is dict")),
            _ => None,
        },
        // A length is checked by its call, like a bound other than 0 or 1.
        Ty::Array(_) | Ty::Length { .. } | Ty::Unique(_) | Ty::Prefix { .. } | Ty::Multiple { .. } | Ty::Pattern { .. } | Ty::Const { .. } => None,
        Ty::Nullable(inner) => {
            let inner = check(contract, inner, var)?;
            Some(format!("{var} is None or {}", or_operand(&inner)))
        }
    }
}

/// `expr` as an operand of `and`: parenthesized when it is an `or`.
fn and_operand(expr: &str) -> String {
    if expr.contains(" or ") {
        format!("({expr})")
    } else {
        expr.to_string()
    }
}

/// `expr` as an operand of `or`: parenthesized when it is an `and`.
fn or_operand(expr: &str) -> String {
    if expr.contains(" and ") {
        format!("({expr})")
    } else {
        expr.to_string()
    }
}

/// `if <all operands>:` at `indent`, laid out as `ruff format` does (on one
/// line when it fits, else one operand of the `and` chain per line in
/// parentheses). `None` for a two-operand chain that does not fit and opens
/// or closes with a parenthesis, which `ruff` splits at that parenthesis
/// instead: the quick path keeps to conditions read one operand per line.
pub fn condition(indent: usize, operands: &[String]) -> Option<String> {
    let joined = match operands {
        [only] if only.starts_with('(') => only[1..only.len() - 1].to_string(),
        _ => operands.join(" and "),
    };
    let one = format!("{}if {joined}:", pad(indent));
    if one.chars().count() <= LINE_WIDTH {
        return Some(one);
    }
    let chain = chain(operands);
    let first = chain.first()?;
    let bracketed = first.starts_with('(') || chain.last().is_some_and(|o| o.ends_with(')'));
    if chain.len() < 3 && bracketed {
        return None;
    }
    Some(statement(indent, &format!("if {joined}:")))
}

/// The operands of the top-level `or` chain of `expr` (outside parentheses).
fn disjuncts(expr: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in expr.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ' ' if depth == 0 && expr[i..].starts_with(" or ") => {
                parts.push(&expr[start..i]);
                start = i + " or ".len();
            }
            _ => {}
        }
    }
    parts.push(&expr[start..]);
    parts
}

/// The operands of the flattened `and` chain: an unparenthesized `a and b`
/// operand is two of them.
fn chain(operands: &[String]) -> Vec<&str> {
    operands
        .iter()
        .flat_map(|o| if o.starts_with('(') { vec![o.as_str()] } else { o.split(" and ").collect() })
        .collect()
}
