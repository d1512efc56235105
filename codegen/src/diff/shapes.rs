//! Whether two types have the same shape across the two contracts, and the
//! renames found that way: what [`super::types`], [`super::facets`] and
//! [`super::methods`] compare through.

use std::collections::BTreeMap;

use crate::model::{Contract, Ty, TypeDef, TypeKind};

/// The two contracts' types, and the renames found between them.
pub(crate) struct Shapes<'a> {
    old: &'a Contract,
    new: &'a Contract,
    /// Old name → new name: a type only the old contract has whose shape
    /// only one type of the new contract has, and no other old type.
    pub renames: BTreeMap<String, String>,
}

impl<'a> Shapes<'a> {
    pub fn of(old: &'a Contract, new: &'a Contract) -> Shapes<'a> {
        let removed: Vec<&String> = old.types.keys().filter(|n| !new.types.contains_key(*n)).collect();
        let added: Vec<&String> = new.types.keys().filter(|n| !old.types.contains_key(*n)).collect();
        let matches = |a: &String, b: &String| same_kind(&old.types[a], &new.types[b]);
        let mut renames = BTreeMap::new();
        for from in &removed {
            let to: Vec<&&String> = added.iter().filter(|to| matches(from, to)).collect();
            if let [to] = to[..] {
                if removed.iter().filter(|other| matches(other, to)).count() == 1 {
                    renames.insert((*from).clone(), (*to).clone());
                }
            }
        }
        Shapes { old, new, renames }
    }

    /// Whether old type `a` and new type `b` have the same shape (a member
    /// typed `a` before and `b` now reads and writes the same frames).
    pub fn same(&self, a: &str, b: &str) -> bool {
        if self.renames.get(a).is_some_and(|to| to == b) {
            return true;
        }
        match (self.old.types.get(a), self.new.types.get(b)) {
            (Some(a), Some(b)) => same_kind(a, b),
            _ => false,
        }
    }
}

/// Two types' kinds without their descriptions, markers and pattern numbers.
fn same_kind(a: &TypeDef, b: &TypeDef) -> bool {
    bare(&a.kind) == bare(&b.kind)
}

fn bare(kind: &TypeKind) -> TypeKind {
    let mut kind = kind.clone();
    if let TypeKind::Object(object) = &mut kind {
        for field in &mut object.fields {
            field.description.clear();
            field.deprecated = false;
            renumber(&mut field.ty);
        }
    }
    if let TypeKind::Map { names: Some(names), .. } = &mut kind {
        renumber(names);
    }
    kind
}

fn renumber(ty: &mut Ty) {
    match ty {
        Ty::Pattern { inner, pattern } => {
            pattern.number = 0;
            renumber(inner);
        }
        Ty::Nullable(inner) | Ty::Array(inner) | Ty::Unique(inner) => renumber(inner),
        Ty::Length { inner, .. } | Ty::Multiple { inner, .. } | Ty::Const { inner, .. } => renumber(inner),
        _ => {}
    }
}
