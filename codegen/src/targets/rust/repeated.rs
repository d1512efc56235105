//! Items that differ only by one type name, printed from one layout per
//! name length. The layout ([`super::layout`]) breaks lines by widths alone,
//! and a type name is ASCII (`[A-Z][A-Za-z0-9]*`), so the items printed for a
//! placeholder name of the same length, with the name put in its place, are
//! the items printed for the name: the SDK file's per-type impls are parsed
//! and laid out once per length instead of once per type.

use std::collections::HashMap;

use crate::model::Contract;
use crate::SchemaError;

/// The placeholder letter: it must not occur in the items' own text, which
/// [`print_each`] checks by counting (a miscount prints that name the slow
/// way).
const PLACEHOLDER: char = 'Q';

/// The items of `template` for every name of `names`, in order, printed as
/// [`super::print`] prints them. `occurrences` is how often a name appears in
/// one printing of the items (as an identifier or inside a string literal).
pub fn print_each<const N: usize>(
    contract: &Contract,
    names: &[syn::Ident],
    template: fn(&syn::Ident) -> [syn::Item; N],
    occurrences: usize,
) -> Result<String, SchemaError> {
    let mut repeated = Repeated::new(template, occurrences);
    let mut out = String::new();
    for name in names {
        out.push_str(&repeated.print(contract, name)?);
    }
    Ok(out)
}

/// One template's layouts by name length, kept across calls of
/// [`Repeated::print`]: for items whose runs of names are interleaved with
/// other items.
pub struct Repeated<const N: usize> {
    template: fn(&syn::Ident) -> [syn::Item; N],
    occurrences: usize,
    by_length: HashMap<usize, Option<String>>,
}

impl<const N: usize> Repeated<N> {
    pub fn new(template: fn(&syn::Ident) -> [syn::Item; N], occurrences: usize) -> Self {
        Repeated { template, occurrences, by_length: HashMap::new() }
    }

    /// The items of the template for `name`, printed.
    pub fn print(&mut self, contract: &Contract, name: &syn::Ident) -> Result<String, SchemaError> {
        let text = name.to_string();
        let length = text.len();
        let printed = match self.by_length.get(&length) {
            Some(printed) => printed.clone(),
            None => {
                let printed = laid_out_for_length(contract, length, self.template, self.occurrences)?;
                self.by_length.insert(length, printed.clone());
                printed
            }
        };
        match printed.filter(|_| text.is_ascii()) {
            Some(printed) => Ok(printed.replace(&placeholder(length), &text)),
            None => print_for(contract, name, self.template),
        }
    }
}

fn placeholder(length: usize) -> String {
    PLACEHOLDER.to_string().repeat(length)
}

/// The items printed for a placeholder name of `length` letters, if the
/// placeholder appears exactly `occurrences` times and nowhere else.
fn laid_out_for_length<const N: usize>(
    contract: &Contract,
    length: usize,
    template: fn(&syn::Ident) -> [syn::Item; N],
    occurrences: usize,
) -> Result<Option<String>, SchemaError> {
    let name = syn::Ident::new(&placeholder(length), proc_macro2::Span::call_site());
    let printed = print_for(contract, &name, template)?;
    let letters = printed.chars().filter(|c| *c == PLACEHOLDER).count();
    Ok((letters == length * occurrences).then_some(printed))
}

/// The items for one name, parsed and laid out.
fn print_for<const N: usize>(contract: &Contract, name: &syn::Ident, template: fn(&syn::Ident) -> [syn::Item; N]) -> Result<String, SchemaError> {
    super::print(contract, syn::File { shebang: None, attrs: Vec::new(), items: template(name).into() })
}

#[cfg(test)]
mod tests {
    use super::super::types::strict_serde;
    use super::{print_each, print_for};

    fn ident(name: &str) -> syn::Ident {
        syn::Ident::new(name, proc_macro2::Span::call_site())
    }

    #[test]
    fn each_name_prints_as_its_own_layout_would() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
        let text = std::fs::read_to_string(&path).expect("the minimal schema is readable");
        let (contract, _) = crate::load::load_str(&text, &path, "minimal.json").expect("the minimal schema loads");
        // Every length from 1 to past the line width, with letters the
        // placeholder shares (`Q`, `QQ`) and one the items contain (`Self`).
        let mut names: Vec<String> = (1..=110).map(|n| format!("A{}", "bz9".repeat(n).chars().take(n - 1).collect::<String>())).collect();
        names.extend(["Q", "QQ", "Self_", "Quantity", "Serializer"].map(String::from));
        let idents: Vec<syn::Ident> = names.iter().map(|n| ident(n)).collect();
        let together = print_each(&contract, &idents, strict_serde, 4).expect("prints");
        let one_by_one: String = idents.iter().map(|name| print_for(&contract, name, strict_serde).expect("prints")).collect();
        assert_eq!(together, one_by_one);
        // The long names break lines the short ones keep whole.
        assert!(together.contains(&format!("        {}::deserialize(strict::ObjectOnly(deserializer))\n", names[39])));
        assert!(together.contains(&format!("        {}::deserialize(\n            strict::ObjectOnly(deserializer),\n", names[59])));
    }
}
