//! The names the Python module declares where a schema name can reach: its
//! one module scope. Schema names are computed from the contract; every other
//! public top-level name of the rendered module is the SDK's own, read from
//! the module text itself, so a name the runtime or the protocol helpers
//! gain is claimed without a list to keep. Private names (`_x`) are the
//! runtime's: no schema name starts with `_` except the generated readers,
//! shapes, their builders and member counts (`_read_verdict`, `_VERDICT_SHAPE`,
//! `_verdict_shape`, `_VERDICT_REQUIRED`), which are claimed here too, so
//! a runtime helper of that form would be a clash.

use super::names::{error_const, method_const, stem, upper};
use crate::error::push_pointer;
use crate::model::{Contract, TypeKind};
use crate::targets::claims::{identifier, Scope};
use crate::SchemaError;

/// Python keywords that are legal `$defs` names: no class can take them.
const CAPITALIZED_KEYWORDS: &[&str] = &["False", "None", "True"];

/// Claims every name of `text`, the module rendered from `contract`.
pub fn claim(contract: &Contract, text: &str) -> Result<Scope, SchemaError> {
    let mut scope = Scope::new(contract, "python", format!("module `{}`", crate::targets::namespace(contract, "python")));
    for keyword in CAPITALIZED_KEYWORDS {
        scope.sdk(*keyword, format!("the keyword `{keyword}`"))?;
    }
    for def in contract.types.values() {
        let pointer = push_pointer("/$defs", &def.name);
        let s = stem(&def.name);
        let mut names = vec![
            (def.name.clone(), format!("the type `$defs/{}`", def.name)),
            (format!("decode_{s}"), format!("the decoder of `$defs/{}`", def.name)),
            (format!("{s}_from_value"), format!("the value decoder of `$defs/{}`", def.name)),
            (format!("{s}_to_value"), format!("the value encoder of `$defs/{}`", def.name)),
            (format!("encode_{s}"), format!("the encoder of `$defs/{}`", def.name)),
            (format!("_read_{s}"), format!("the reader of `$defs/{}`", def.name)),
            (format!("{s}_in_place"), format!("the single-pass reader of `$defs/{}`", def.name)),
            (format!("_{}_TEXT", upper(&def.name)), format!("the plain text pattern of `$defs/{}`", def.name)),
        ];
        match def.kind {
            TypeKind::Object(_) => {
                names.push((format!("_{}_SHAPE", upper(&def.name)), format!("the shape of `$defs/{}`", def.name)));
                names.push((format!("_{s}_shape"), format!("the shape builder of `$defs/{}`", def.name)));
                names.push((format!("_{}_REQUIRED", upper(&def.name)), format!("the required member count of `$defs/{}`", def.name)));
            }
            TypeKind::StringEnum(_) => names.push((format!("{}_VALUES", upper(&def.name)), format!("the values of `$defs/{}`", def.name))),
            _ => {}
        }
        for (name, what) in names {
            scope.schema(name, what, &pointer)?;
        }
    }
    for (i, method) in contract.methods.iter().enumerate() {
        scope.schema(method_const(&method.name), format!("the constant of method `{}`", method.name), &format!("/x-coprocess/methods/{i}/name"))?;
    }
    for (i, code) in contract.error_codes.iter().enumerate() {
        scope.schema(error_const(&code.name), format!("the constant of error code `{}`", code.name), &format!("/x-coprocess/error_codes/{i}/name"))?;
    }
    scope.sdk_declarations(top_level(text), |name| name.starts_with('_'))?;
    Ok(scope)
}

/// Every name declared at the top level of a Python module's text, in order
/// (a name declared twice is listed twice).
fn top_level(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let (rest, kind) = if let Some(rest) = line.strip_prefix("class ") {
            (rest, "class")
        } else if let Some(rest) = line.strip_prefix("def ") {
            (rest, "function")
        } else {
            (line, "constant")
        };
        let Some(name) = identifier(rest) else { continue };
        let after = rest[name.len()..].trim_start();
        let declares = kind != "constant" || after.starts_with(':') || (after.starts_with('=') && !after.starts_with("=="));
        if declares && !matches!(name, "from" | "import" | "if" | "for" | "while" | "try" | "with" | "return" | "raise" | "else" | "elif" | "except" | "finally") {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::top_level;

    #[test]
    fn reads_classes_functions_and_assignments_at_column_zero_only() {
        let text = "class A(B):\n    x: int = 1\ndef f(y):\n    z = 2\nC: typing.Final = 3\nD = 4\nE == 5\n\"\"\"doc: not a name\"\"\"\n";
        assert_eq!(top_level(text), ["A", "f", "C", "D"]);
    }
}
