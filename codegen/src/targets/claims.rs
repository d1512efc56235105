//! Where a target's names meet. A language scope (a module, a package, a class
//! body) can hold one thing of each name: every name a target declares in a
//! scope where a schema name can reach is claimed here first, with what
//! declares it, so that two things that would share a name are refused with
//! both names, the target, the pointer and a fix, before anything is written.
//!
//! Three kinds of name meet in a generated file:
//! - **schema names**: a `$defs` type and what is derived from it (its decoder,
//!   its encoder, its fields), a method's or an error code's constant;
//! - **SDK names**: what every SDK of that language declares whatever the
//!   schema says (the pin, the decode error, the typed envelopes); each target
//!   claims them with [`Scope::sdk`], and `docs/targets.md` lists them;
//! - **runtime names**: the helpers behind the decoders. They are never
//!   claimed, because each target keeps them where no schema name can reach
//!   (a private prefix, a nested namespace: see docs/targets.md), and the
//!   language's standard names are referred to in a way no declaration can
//!   shadow. `tests/names/proof.rs` proves both for every name each runtime declares.

use std::collections::BTreeMap;
use std::path::Path;

use crate::model::Contract;
use crate::SchemaError;

/// The identifier at the start of `text` (ASCII letters, digits and `_`, not
/// starting with a digit): how every target reads a declared name off its
/// rendered text.
pub fn identifier(text: &str) -> Option<&str> {
    let end = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len());
    (end > 0 && !text.starts_with(|c: char| c.is_ascii_digit())).then(|| &text[..end])
}

/// Who declares a claimed name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// The schema, at this JSON pointer.
    Schema(String),
    /// The SDK itself, whatever the schema says.
    Sdk,
}

/// One claimed name: what it names, and who declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// What the name is, in words (``the decoder of `$defs/Verdict` ``).
    pub what: String,
    pub owner: Owner,
}

/// Every claimed name of one scope of one target.
#[derive(Debug, Clone)]
pub struct Scope {
    file: String,
    target: &'static str,
    scope: String,
    claims: BTreeMap<String, Claim>,
    /// How many declarations of each name the schema's claims account for.
    schema_declarations: BTreeMap<String, usize>,
}

impl Scope {
    /// An empty scope: `scope` says which, in the language's words
    /// (``module `mcptest._coprocess` ``, ``class `Coprocess` ``).
    pub fn new(contract: &Contract, target: &'static str, scope: impl Into<String>) -> Self {
        Self { file: contract.source.clone(), target, scope: scope.into(), claims: BTreeMap::new(), schema_declarations: BTreeMap::new() }
    }

    /// Claims `name` for something the schema declares at `pointer`.
    pub fn schema(&mut self, name: impl Into<String>, what: impl Into<String>, pointer: &str) -> Result<(), SchemaError> {
        let name = name.into();
        *self.schema_declarations.entry(name.clone()).or_default() += 1;
        self.claim(name, Claim { what: what.into(), owner: Owner::Schema(pointer.to_string()) })
    }

    /// Claims for the SDK every name of `declared` (the top-level declarations
    /// read from the rendered file, in order, one entry per declaration) that
    /// the schema's claims do not account for, except the private ones (the
    /// runtime's, unreachable by construction). So the SDK's own names are read
    /// from what is generated, never listed by hand, and a declaration the
    /// runtime adds next to a schema name of the same spelling is a clash.
    pub fn sdk_declarations<'n>(
        &mut self,
        declared: impl IntoIterator<Item = &'n str>,
        is_private: impl Fn(&str) -> bool,
    ) -> Result<(), SchemaError> {
        let mut remaining = self.schema_declarations.clone();
        for name in declared {
            match remaining.get_mut(name) {
                Some(n) if *n > 0 => *n -= 1,
                // A second declaration of a schema name is a clash even where
                // the name is private (a runtime `_read_x` next to the reader).
                Some(_) => self.sdk(name, format!("the SDK's `{name}`"))?,
                None if is_private(name) => {}
                None => self.sdk(name, format!("the SDK's `{name}`"))?,
            }
        }
        Ok(())
    }

    /// Claims `name` for something the SDK declares whatever the schema says.
    pub fn sdk(&mut self, name: impl Into<String>, what: impl Into<String>) -> Result<(), SchemaError> {
        self.claim(name.into(), Claim { what: what.into(), owner: Owner::Sdk })
    }

    /// The names the SDK claimed, with what each names, in name order.
    pub fn sdk_names(&self) -> impl Iterator<Item = (&str, &str)> {
        self.claims.iter().filter(|(_, c)| c.owner == Owner::Sdk).map(|(n, c)| (n.as_str(), c.what.as_str()))
    }

    /// Every claimed name, in name order.
    pub fn claims(&self) -> impl Iterator<Item = (&str, &Claim)> {
        self.claims.iter().map(|(n, c)| (n.as_str(), c))
    }

    fn claim(&mut self, name: String, new: Claim) -> Result<(), SchemaError> {
        let Some(old) = self.claims.get(&name) else {
            self.claims.insert(name, new);
            return Ok(());
        };
        if *old == new {
            return Ok(());
        }
        Err(self.clash(&name, old, &new))
    }

    fn clash(&self, name: &str, old: &Claim, new: &Claim) -> SchemaError {
        let problem = format!(
            "in the {} SDK, {} and {} would both be named `{name}` ({})",
            self.target, old.what, new.what, self.scope
        );
        let (pointer, fix) = match (&old.owner, &new.owner) {
            (Owner::Sdk, Owner::Schema(p)) | (Owner::Schema(p), Owner::Sdk) => (
                p.clone(),
                format!(
                    "rename it: `{name}` is {} in the {} SDK, a name the SDK keeps whatever the schema says \
                     (docs/targets.md lists them); every SDK uses the same type names, so pick one none of them declares",
                    if old.owner == Owner::Sdk { &old.what } else { &new.what },
                    self.target
                ),
            ),
            (Owner::Schema(_), Owner::Schema(p)) => (p.clone(), "rename one of the two in the schema".to_string()),
            (Owner::Sdk, Owner::Sdk) => (String::new(), "a bug in the target: it claims one name twice".to_string()),
        };
        SchemaError::new(Path::new(&self.file), pointer, problem, fix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contract() -> Contract {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        crate::load::load(&path, "minimal.json").map(|(c, _)| c).expect("the minimal schema loads")
    }

    #[test]
    fn a_schema_name_meeting_an_sdk_name_is_refused_at_the_schema_pointer() {
        let mut scope = Scope::new(&contract(), "go", "package `mcptest`");
        scope.sdk("MaxDepth", "the nesting limit constant").unwrap();
        let e = scope.schema("MaxDepth", "the type `$defs/MaxDepth`", "/$defs/MaxDepth").unwrap_err();
        assert_eq!(e.pointer, "/$defs/MaxDepth");
        assert!(e.problem.contains("the nesting limit constant and the type `$defs/MaxDepth`"), "{}", e.problem);
        assert!(e.problem.contains("go SDK"), "{}", e.problem);
        assert!(e.fix.starts_with("rename it"), "{}", e.fix);
    }

    #[test]
    fn two_schema_names_meeting_name_both_and_point_at_the_second() {
        let mut scope = Scope::new(&contract(), "go", "package `mcptest`");
        scope.schema("DecodeFoo", "the decoder of `$defs/Foo`", "/$defs/Foo").unwrap();
        let e = scope.schema("DecodeFoo", "the type `$defs/DecodeFoo`", "/$defs/DecodeFoo").unwrap_err();
        assert_eq!(e.pointer, "/$defs/DecodeFoo");
        assert!(e.problem.contains("`$defs/Foo`") && e.problem.contains("`$defs/DecodeFoo`"), "{}", e.problem);
        assert_eq!(e.fix, "rename one of the two in the schema");
    }

    #[test]
    fn declarations_beyond_the_schemas_are_the_sdks() {
        let mut scope = Scope::new(&contract(), "python", "module `m`");
        scope.schema("Verdict", "the type `$defs/Verdict`", "/$defs/Verdict").unwrap();
        scope.sdk_declarations(["Verdict", "DecodeError", "_helper", "DecodeError"], |n| n.starts_with('_')).unwrap();
        let names: Vec<_> = scope.sdk_names().map(|(n, _)| n).collect();
        assert_eq!(names, vec!["DecodeError"]);
        let e = scope.sdk_declarations(["Verdict", "Verdict"], |_| false).unwrap_err();
        assert!(e.problem.contains("the SDK's `Verdict`"), "{}", e.problem);
    }

    #[test]
    fn the_same_claim_twice_is_one_claim_and_sdk_names_are_listed() {
        let mut scope = Scope::new(&contract(), "python", "module `m`");
        scope.sdk("DecodeError", "the decode error class").unwrap();
        scope.sdk("DecodeError", "the decode error class").unwrap();
        scope.schema("Verdict", "the type `$defs/Verdict`", "/$defs/Verdict").unwrap();
        let names: Vec<_> = scope.sdk_names().collect();
        assert_eq!(names, vec![("DecodeError", "the decode error class")]);
    }
}
