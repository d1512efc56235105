//! The names the Java file declares where a schema name can reach: the body
//! of class `Coprocess`, which holds one nested type per `$defs` entry and one
//! static decoder (`decodeVerdict`) for each. Java keeps types and methods in
//! two namespaces, so there are two scopes.
//!
//! The JVM target keeps no name from the schema: a `$defs` name that is one of
//! the names the file uses unqualified (`String`, `List`, `Path`, ...:
//! [`RESERVED_TYPES`]) is written with a `_` suffix (`String_`,
//! `decodeString_`), so it can neither shadow nor meet them. Every other
//! nested type and `decode<Type>` method of the rendered file is read from the
//! file and claimed for the SDK: a runtime that gains one the escape list
//! lacks is a clean refusal (and `tests/names/proof.rs` lists it), never a file that
//! does not compile.
//!
//! The session client, `CoprocessClient.java`, adds no scope: it is another
//! top-level class of the package, and a schema type never enters its body
//! (it names every one qualified, `Coprocess.Options`, so its own nested
//! `Options`, `RpcException`, ... shadow nothing), nor does `Coprocess` name
//! the client (a `$defs/CoprocessClient` is the nested
//! `Coprocess.CoprocessClient`, which compiles beside it under the strict
//! checks). Its methods, named from wire names, avoid its runtime's members
//! themselves (`client.rs`).

use super::names::{type_name, RESERVED_TYPES};
use crate::error::push_pointer;
use crate::model::Contract;
use crate::targets::claims::{identifier, Scope};
use crate::SchemaError;

/// Words that may precede a member's type or kind in a class body.
const MODIFIERS: &[&str] = &["public", "private", "protected", "static", "final", "abstract", "sealed", "non-sealed"];

/// Claims every name of `text`, the file rendered from `contract`.
pub fn claim(contract: &Contract, text: &str) -> Result<Vec<Scope>, SchemaError> {
    let mut types = Scope::new(contract, "jvm", "class `Coprocess` (its nested types)");
    let mut decoders = Scope::new(contract, "jvm", "class `Coprocess` (its static methods)");
    for def in contract.types.values() {
        let pointer = push_pointer("/$defs", &def.name);
        let java = type_name(&def.name);
        types.schema(java.clone(), format!("the type `$defs/{}`", def.name), &pointer)?;
        decoders.schema(format!("decode{java}"), format!("the decoder of `$defs/{}`", def.name), &pointer)?;
    }
    let (nested, statics) = members(text);
    types.sdk_declarations(nested, |name| RESERVED_TYPES.contains(&name))?;
    decoders.sdk_declarations(statics, |name| !reachable_decoder(name))?;
    Ok(vec![types, decoders])
}

/// Whether `name` could be the decoder of some `$defs` type: `decode` and a
/// type name the target does not escape.
fn reachable_decoder(name: &str) -> bool {
    name.strip_prefix("decode").is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()) && !RESERVED_TYPES.contains(&rest))
}

/// The nested types and the static methods declared in the body of the
/// file's one top-level class (four spaces in), in order.
fn members(text: &str) -> (Vec<&str>, Vec<&str>) {
    let (mut nested, mut statics) = (Vec::new(), Vec::new());
    for line in text.lines() {
        let Some(body) = line.strip_prefix("    ") else { continue };
        if body.starts_with(|c: char| c.is_whitespace() || matches!(c, '/' | '*' | '@' | '}' | '{')) {
            continue;
        }
        let mut words = body.split_whitespace().peekable();
        let mut is_static = false;
        while let Some(word) = words.next_if(|w| MODIFIERS.contains(w)) {
            is_static |= word == "static";
        }
        let Some(first) = words.next() else { continue };
        if matches!(first, "class" | "interface" | "record" | "enum") {
            nested.extend(words.next().and_then(identifier));
        } else if is_static {
            // `static <T> T name(...)`, `static long name(...)`: the identifier before `(`.
            if let Some(head) = body.split_once('(').map(|(head, _)| head) {
                if !head.contains('=') {
                    statics.extend(head.rsplit([' ', '>']).next().and_then(identifier));
                }
            }
        }
    }
    (nested, statics)
}

#[cfg(test)]
mod tests {
    use super::{members, reachable_decoder};

    #[test]
    fn reads_nested_types_and_static_methods_of_the_class_body_only() {
        let text = "public final class Coprocess {\n    public record Verdict(\n            String x) {\n        static Verdict inner() {}\n    }\n    public sealed interface Shape<T> extends A permits B {}\n    private static final class Path {\n    static <T> T readText(String json) {\n    public static final int MAX_DEPTH = 64;\n    public static final List<String> L = List.of(\"a\");\n    private static long decodeInteger(JsonNode node) {\n    // static Comment()\n}\n";
        let (nested, statics) = members(text);
        assert_eq!(nested, ["Verdict", "Shape", "Path"]);
        assert_eq!(statics, ["readText", "decodeInteger"]);
    }

    #[test]
    fn a_decoder_is_reachable_unless_its_type_name_is_escaped() {
        assert!(reachable_decoder("decodeTree"));
        assert!(!reachable_decoder("decodeInteger"));
        assert!(!reachable_decoder("decode"));
        assert!(!reachable_decoder("readText"));
    }
}
