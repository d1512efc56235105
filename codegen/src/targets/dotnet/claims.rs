//! The names the C# file declares where a schema name can reach: the body of
//! namespace `Mcptest.Sdk`, which holds one type per `$defs` entry (and, for a
//! string enum, its `<Name>Wire` codec class) next to the SDK's own types.
//!
//! The .NET target keeps no name from the schema: a `$defs` name the file uses
//! unqualified ([`RESERVED_TYPES`]) or that every type declares as a member
//! (`Read`, `ToJson`, ...) is written with a `Type` suffix (`ExceptionType`),
//! so it can neither shadow nor meet them. Every other type of the rendered
//! namespace is read from the file and claimed for the SDK: a runtime that
//! gains one the escape list lacks is a clean refusal (and `tests/names/proof.rs`
//! lists it), never a file that does not compile.

use super::names::{enum_wire_name, type_name, RESERVED_TYPES};
use crate::error::push_pointer;
use crate::model::{Contract, TypeKind};
use crate::targets::claims::{identifier, Scope};
use crate::SchemaError;

/// Words that may precede a type declaration's kind.
const MODIFIERS: &[&str] = &["public", "internal", "private", "static", "sealed", "abstract", "readonly", "partial"];

/// Claims every name of `text`, the file rendered from `contract`.
pub fn claim(contract: &Contract, text: &str) -> Result<Scope, SchemaError> {
    let mut scope = Scope::new(contract, "dotnet", format!("namespace `{}`", crate::targets::namespace(contract, "dotnet")));
    for def in contract.types.values() {
        let pointer = push_pointer("/$defs", &def.name);
        scope.schema(type_name(&def.name), format!("the type `$defs/{}`", def.name), &pointer)?;
        if let TypeKind::StringEnum(_) = def.kind {
            scope.schema(enum_wire_name(&def.name), format!("the codec class of `$defs/{}`", def.name), &pointer)?;
        }
    }
    scope.sdk_declarations(namespace_types(text), |name| RESERVED_TYPES.contains(&name))?;
    Ok(scope)
}

/// The types declared in the body of the file's one namespace (four spaces
/// in), in order: classes, structs, interfaces, enums, records, delegates.
fn namespace_types(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| line.strip_prefix("    ").filter(|b| !b.starts_with(char::is_whitespace)))
        .filter_map(declared_type)
        .collect()
}

/// The type a declaration line (its indent stripped) declares, if it
/// declares one: a class, struct, interface, enum, record or delegate.
pub(super) fn declared_type(body: &str) -> Option<&str> {
    let mut words = body.split_whitespace().skip_while(|w| MODIFIERS.contains(w));
    match words.next() {
        Some("class" | "struct" | "interface" | "enum" | "record") => words.next().and_then(identifier),
        // `delegate T Name<T>(...)`: the name follows the return type.
        Some("delegate") => words.nth(1).and_then(identifier),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::namespace_types;

    #[test]
    fn reads_the_types_of_the_namespace_body_only() {
        let text = "namespace N\n{\n    public static class Coprocess\n    {\n        public sealed class Nested\n    }\n    public sealed class RequestOf<TParams> where TParams : class\n    internal delegate T CoprocessRead<T>(ref Utf8JsonReader reader);\n    // class Comment\n    public enum CacheMode\n}\n";
        assert_eq!(namespace_types(text), ["Coprocess", "RequestOf", "CoprocessRead", "CacheMode"]);
    }
}
