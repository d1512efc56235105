//! The names the Go file declares where a schema name can reach: package
//! `mcptest`, one scope for types, functions, constants and variables, and
//! each struct's fields next to its methods. Schema names are computed from
//! the contract; every other exported top-level name of the rendered file is
//! the SDK's own, read from the file itself. Unexported names are the
//! runtime's and the generated helpers' (`readListOfMCPObject`): every
//! unexported name the schema brings (`decodeVerdict`, `appendVerdict`) is
//! claimed, so a runtime helper of that spelling would be a clash.

use super::Ctx;
use crate::error::push_pointer;
use crate::model::{Contract, TypeKind};
use crate::targets::claims::{identifier, Scope};
use crate::SchemaError;

/// Claims every name of `text`, the file rendered from `contract`.
pub fn claim(contract: &Contract, text: &str) -> Result<Scope, SchemaError> {
    let ctx = Ctx::new(contract);
    let mut scope = Scope::new(contract, "go", format!("package `{}`", crate::targets::namespace(contract, "go")));
    for def in contract.types.values() {
        let pointer = push_pointer("/$defs", &def.name);
        let go = ctx.type_name(&def.name);
        let of = |what: &str| format!("the {what} of `$defs/{}`", def.name);
        scope.schema(go.clone(), format!("the type `$defs/{}`", def.name), &pointer)?;
        scope.schema(format!("Decode{go}"), of("decoder"), &pointer)?;
        scope.schema(format!("Decode{go}Value"), of("value decoder"), &pointer)?;
        scope.schema(format!("decode{go}"), of("reader"), &pointer)?;
        scope.schema(format!("append{go}"), of("writer"), &pointer)?;
        scope.schema(format!("scan{go}"), of("single-pass reader"), &pointer)?;
        if let TypeKind::StringEnum(values) = &def.kind {
            for (i, (name, value)) in ctx.enum_consts(&def.name, values).into_iter().enumerate() {
                scope.schema(name, format!("the constant of `{value}` in `$defs/{}`", def.name), &format!("{pointer}/enum/{i}"))?;
            }
        }
    }
    for (i, method) in contract.methods.iter().enumerate() {
        scope.schema(ctx.method_const(&method.name), format!("the constant of method `{}`", method.name), &format!("/x-coprocess/methods/{i}/name"))?;
    }
    for (i, code) in contract.error_codes.iter().enumerate() {
        scope.schema(ctx.code_const(&code.name), format!("the constant of error code `{}`", code.name), &format!("/x-coprocess/error_codes/{i}/name"))?;
    }
    scope.sdk_declarations(top_level(text), |name| name.starts_with(|c: char| c.is_ascii_lowercase()))?;
    Ok(scope)
}

/// Every name declared at the top level of a Go file's text, in order:
/// `func`, `type`, `const`, `var` declarations and the members of their
/// parenthesized blocks (methods are not package-level names).
fn top_level(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut block = false;
    for line in text.lines() {
        if block {
            if line.starts_with(')') {
                block = false;
            } else if let Some(rest) = line.strip_prefix('\t') {
                out.extend(identifier(rest));
            }
            continue;
        }
        for keyword in ["func ", "type ", "const ", "var "] {
            if let Some(rest) = line.strip_prefix(keyword) {
                if rest == "(" {
                    block = true;
                } else {
                    out.extend(identifier(rest));
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
    fn reads_package_level_names_not_methods_or_locals() {
        let text = "const (\n\tA = 1\n\t// c\n\tB T = 2\n)\nfunc F[P any]() {\n\tx := 1\n}\nfunc (v T) M() {}\ntype T struct {\n\tField int\n}\nvar V = 3\n";
        assert_eq!(top_level(text), ["A", "B", "F", "T", "V"]);
    }
}
