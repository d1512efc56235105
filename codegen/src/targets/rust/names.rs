//! Rust names: identifiers for generated code, and the prelude's variants
//! by path, where a schema type takes their name.
//!
//! typify's output and the generated impls write `Ok(..)`, `Err(..)`,
//! `Some(..)` and `None` as Rust code does. A `$defs` type of one of those
//! names is a tuple struct (a map type) or a braced struct in the module's
//! scope, which hides the prelude's variant: then every such expression and
//! pattern is written by its full path (`::std::result::Result::Ok`), and
//! the file compiles whatever the type is. Without such a type the file is
//! left as idiomatic Rust writes it.

use proc_macro2::{Ident, Span};
use syn::visit_mut::VisitMut;

/// An identifier for generated code.
pub fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// The prelude's variants, and their paths.
const VARIANTS: &[(&str, &str)] = &[
    ("Ok", "::std::result::Result::Ok"),
    ("Err", "::std::result::Result::Err"),
    ("Some", "::std::option::Option::Some"),
    ("None", "::std::option::Option::None"),
];

/// Whether any of `names` (the `$defs` names) hides a prelude variant.
pub fn hides_variants<'n>(mut names: impl Iterator<Item = &'n String>) -> bool {
    names.any(|name| VARIANTS.iter().any(|(v, _)| v == name))
}

/// Qualifies the variants `names` (the `$defs` names) hide, throughout `file`.
pub fn qualify_hidden_variants<'n>(file: &mut syn::File, names: impl IntoIterator<Item = &'n String>) {
    let hidden: Vec<(&str, syn::Path)> = names
        .into_iter()
        .filter_map(|name| VARIANTS.iter().find(|(v, _)| v == name))
        .filter_map(|(v, path)| syn::parse_str(path).ok().map(|p| (*v, p)))
        .collect();
    if !hidden.is_empty() {
        Qualify { hidden }.visit_file_mut(file);
    }
}

struct Qualify<'v> {
    hidden: Vec<(&'v str, syn::Path)>,
}

impl Qualify<'_> {
    /// The full path for a bare `Ok`, `Some`, ... that a schema type hides.
    fn full_path(&self, path: &syn::Path) -> Option<syn::Path> {
        if path.leading_colon.is_some() || path.segments.len() != 1 {
            return None;
        }
        let segment = path.segments.first()?;
        if !segment.arguments.is_none() {
            return None;
        }
        self.hidden.iter().find(|(v, _)| segment.ident == v).map(|(_, p)| p.clone())
    }
}

impl VisitMut for Qualify<'_> {
    fn visit_expr_path_mut(&mut self, expr: &mut syn::ExprPath) {
        if expr.qself.is_none() {
            if let Some(path) = self.full_path(&expr.path) {
                expr.path = path;
            }
        }
        syn::visit_mut::visit_expr_path_mut(self, expr);
    }

    fn visit_pat_mut(&mut self, pat: &mut syn::Pat) {
        match pat {
            syn::Pat::TupleStruct(p) => {
                if let Some(path) = self.full_path(&p.path) {
                    p.path = path;
                }
            }
            // `None` in a pattern parses as a binding named `None`.
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.mutability.is_none() && p.subpat.is_none() => {
                let path = syn::Path::from(p.ident.clone());
                if let Some(path) = self.full_path(&path) {
                    *pat = syn::Pat::Path(syn::ExprPath { attrs: Vec::new(), qself: None, path });
                }
            }
            syn::Pat::Path(p) => {
                if let Some(path) = self.full_path(&p.path) {
                    p.path = path;
                }
            }
            _ => {}
        }
        syn::visit_mut::visit_pat_mut(self, pat);
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::qualify_hidden_variants;

    fn qualified(code: &str, names: &[&str]) -> String {
        let mut file: syn::File = syn::parse_str(code).expect("test code parses");
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        qualify_hidden_variants(&mut file, &names);
        file.to_token_stream().to_string()
    }

    #[test]
    fn a_hidden_variant_is_written_by_path_in_expressions_and_patterns() {
        let code = "fn f(x: Option<i64>) -> Result<i64, ()> { match x { Some(v) => Ok(v), None => Err(()) } }";
        let out = qualified(code, &["Ok", "None"]);
        assert!(out.contains(":: std :: result :: Result :: Ok (v)"), "{out}");
        assert!(out.contains(":: std :: option :: Option :: None =>"), "{out}");
        assert!(out.contains("Some (v)") && !out.contains("Option :: Some"), "Some is not hidden: {out}");
        assert!(out.contains("Err (())") && !out.contains("Result :: Err"), "Err is not hidden: {out}");
    }

    #[test]
    fn without_such_a_type_the_code_is_unchanged() {
        let code = "fn f() -> Option<i64> { Some(1) }";
        assert_eq!(qualified(code, &["Verdict"]), qualified(code, &[]));
        assert!(qualified(code, &["Verdict"]).contains("Some (1)"));
    }
}
