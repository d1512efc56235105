//! The names the TypeScript module declares where a schema name can reach:
//! its one module scope (types and values together: a `$defs` type brings
//! both, `Verdict` and `readVerdict`, `decodeVerdict`, ...). Schema names are
//! computed from the contract; every other exported top-level name of the
//! rendered module is the SDK's own, read from the module text itself. The
//! runtime's names all start with `_`, which no generated name does.

use super::names::{stem, type_name};
use super::types::values_constant;
use crate::error::push_pointer;
use crate::model::{union_tag, Contract, TypeKind};
use crate::targets::claims::Scope;
use crate::SchemaError;

/// Claims every name of `text`, the module rendered from `contract`.
pub fn claim(contract: &Contract, text: &str) -> Result<Scope, SchemaError> {
    let mut scope = Scope::new(contract, "typescript", "module `coprocess.ts`");
    for def in contract.types.values() {
        let pointer = push_pointer("/$defs", &def.name);
        let s = stem(&def.name);
        let of = |what: &str| format!("the {what} of `$defs/{}`", def.name);
        scope.schema(type_name(&def.name), format!("the type `$defs/{}`", def.name), &pointer)?;
        scope.schema(format!("read{s}"), of("reader"), &pointer)?;
        scope.schema(format!("decode{s}"), of("decoder"), &pointer)?;
        scope.schema(format!("decode{s}Value"), of("value decoder"), &pointer)?;
        scope.schema(format!("encode{s}"), of("encoder"), &pointer)?;
        match def.kind {
            TypeKind::StringEnum(_) => scope.schema(values_constant(&def.name), of("values"), &pointer)?,
            TypeKind::Union(ref variants) => {
                let what = if union_tag(variants).is_some() { "tags" } else { "discriminators" };
                scope.schema(super::codecs::variants_constant(&def.name, variants), of(what), &pointer)?
            }
            _ => {}
        }
    }
    scope.sdk_declarations(top_level(text), |name| name.starts_with('_'))?;
    Ok(scope)
}

/// Every name declared at the top level of a TypeScript module's text, in
/// order (a name declared twice, as a value and a type, is listed twice).
fn top_level(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line.strip_prefix("export ").unwrap_or(line);
        rest = rest.strip_prefix("declare ").unwrap_or(rest);
        for keyword in ["class ", "function ", "const ", "let ", "type ", "interface ", "enum "] {
            if let Some(tail) = rest.strip_prefix(keyword) {
                let end = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).unwrap_or(tail.len());
                if end > 0 {
                    out.push(&tail[..end]);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::top_level;

    #[test]
    fn reads_declarations_at_column_zero_only() {
        let text = "export const A = 1;\nexport type A = 2;\nfunction f() {\n  const x = 1;\n}\ninterface I {}\n// const C\n";
        assert_eq!(top_level(text), ["A", "A", "f", "I"]);
    }
}
