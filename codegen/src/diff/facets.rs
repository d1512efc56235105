//! Comparing two [`Ty`]s (a member's type, a map's values or member names,
//! an array's items): each is laid flat into its base type and its facets
//! (nullable, bounds, lengths or counts, `uniqueItems`, `multipleOf`,
//! `pattern`, `const`), and each facet is compared on its own, as a
//! loosening, a tightening or both ([`Wire`]).

use std::cmp::Ordering;

use super::shapes::Shapes;
use super::{Change, Flow, Wire};
use crate::model::{Constant, Divisor, NumberBound, Ty};
use crate::subset::json_equal;

/// What the comparison of one type needs to know about where it is.
pub(crate) struct At<'a> {
    /// The JSON pointer of the member (or `additionalProperties`, `items`...).
    pub pointer: String,
    /// How the change's text names it: "member `tool`", "map values".
    pub what: String,
    /// Which way the frames carrying it go.
    pub flow: Flow,
    pub shapes: &'a Shapes<'a>,
}

impl At<'_> {
    fn push(&self, out: &mut Vec<Change>, kind: &'static str, text: String, wire: Wire, source: bool) {
        out.push(Change::shape(kind, self.pointer.clone(), format!("{}: {text}", self.what), self.flow, wire, source));
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Base<'a> {
    Any,
    Boolean,
    Integer,
    Number,
    String,
    Ref(&'a str),
    Array(&'a Ty),
}

/// A type laid flat.
#[derive(Debug, Clone, Copy)]
struct Facets<'a> {
    nullable: bool,
    base: Base<'a>,
    integer: (Option<i64>, Option<i64>),
    number: (Option<NumberBound>, Option<NumberBound>),
    /// minLength/maxLength of a string, minItems/maxItems of an array.
    length: (Option<u64>, Option<u64>),
    unique: bool,
    multiple: Option<Divisor>,
    pattern: Option<&'a str>,
    /// `prefixItems` (and the `items` beside it) as the reference page words them.
    prefix: Option<(&'a [Option<String>], Option<&'a str>)>,
    constant: Option<&'a Constant>,
}

fn flatten(mut ty: &Ty) -> Facets<'_> {
    let mut f = Facets {
        nullable: false,
        base: Base::Any,
        integer: (None, None),
        number: (None, None),
        length: (None, None),
        unique: false,
        multiple: None,
        pattern: None,
        prefix: None,
        constant: None,
    };
    loop {
        match ty {
            Ty::Nullable(_) => f.nullable = true,
            Ty::Unique(_) => f.unique = true,
            Ty::Length { min, max, .. } => f.length = (*min, *max),
            Ty::Multiple { divisor, .. } => f.multiple = Some(*divisor),
            Ty::Pattern { pattern, .. } => f.pattern = Some(&pattern.source),
            Ty::Prefix { kinds, rest, .. } => f.prefix = Some((kinds, rest.as_deref())),
            Ty::Const { value, .. } => f.constant = Some(value),
            _ => {}
        }
        ty = match ty {
            Ty::Nullable(inner) | Ty::Unique(inner) | Ty::Prefix { inner, .. } => inner,
            Ty::Length { inner, .. } | Ty::Multiple { inner, .. } | Ty::Pattern { inner, .. } | Ty::Const { inner, .. } => inner,
            Ty::Any => return f,
            Ty::Boolean => return Facets { base: Base::Boolean, ..f },
            Ty::String => return Facets { base: Base::String, ..f },
            Ty::Integer { minimum, maximum } => return Facets { base: Base::Integer, integer: (*minimum, *maximum), ..f },
            Ty::Number { minimum, maximum } => return Facets { base: Base::Number, number: (*minimum, *maximum), ..f },
            Ty::Ref(name) => return Facets { base: Base::Ref(name), ..f },
            Ty::Array(items) => return Facets { base: Base::Array(items), ..f },
        };
    }
}

/// The type in words: `integer (minimum 0) or null`, `array (minItems 1) of string`.
pub(crate) fn describe(ty: &Ty) -> String {
    let f = flatten(ty);
    let base = match f.base {
        Base::Any => "any JSON value".to_string(),
        Base::Boolean => "boolean".into(),
        Base::Integer => "integer".into(),
        Base::Number => "number".into(),
        Base::String => "string".into(),
        Base::Ref(name) => name.to_string(),
        Base::Array(_) => "array".into(),
    };
    let keywords = keywords(&f);
    let mut text = if keywords.is_empty() { base } else { format!("{base} ({})", keywords.join(", ")) };
    if let Base::Array(items) = f.base {
        text = format!("{text} of {}", describe(items));
    }
    if f.nullable {
        text.push_str(" or null");
    }
    text
}

fn keywords(f: &Facets<'_>) -> Vec<String> {
    let (min_kw, max_kw) = length_keywords(f.base);
    let mut out = Vec::new();
    out.extend(f.integer.0.map(|v| format!("minimum {v}")));
    out.extend(f.integer.1.map(|v| format!("maximum {v}")));
    out.extend(f.number.0.map(|b| number_bound(b, true)));
    out.extend(f.number.1.map(|b| number_bound(b, false)));
    out.extend(f.length.0.map(|v| format!("{min_kw} {v}")));
    out.extend(f.length.1.map(|v| format!("{max_kw} {v}")));
    if f.unique {
        out.push("uniqueItems".into());
    }
    out.extend(f.multiple.map(|d| format!("multipleOf {d}")));
    out.extend(f.pattern.map(|p| format!("pattern {}", quoted(p))));
    out.extend(f.prefix.map(|(kinds, rest)| format!("prefixItems {}", Ty::prefix_text(kinds, rest))));
    out.extend(f.constant.map(|c| format!("{} {}", c.keyword(), c.json())));
    out
}

fn length_keywords(base: Base<'_>) -> (&'static str, &'static str) {
    match base {
        Base::Array(_) => ("minItems", "maxItems"),
        _ => ("minLength", "maxLength"),
    }
}

fn number_bound(bound: NumberBound, minimum: bool) -> String {
    let keyword = match (minimum, bound.exclusive) {
        (true, false) => "minimum",
        (true, true) => "exclusiveMinimum",
        (false, false) => "maximum",
        (false, true) => "exclusiveMaximum",
    };
    format!("{keyword} {}", bound.text())
}

fn quoted(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// Compares the old and the new type of one place.
pub(crate) fn compare(old: &Ty, new: &Ty, at: &At<'_>, out: &mut Vec<Change>) {
    let (o, n) = (flatten(old), flatten(new));
    match (o.base, n.base) {
        (Base::Ref(a), Base::Ref(b)) if a != b && at.shapes.same(a, b) => {
            at.push(out, "member-type-renamed", format!("type {a} → {b} (the same shape)"), Wire::NONE, true);
        }
        (Base::Ref(a), Base::Ref(b)) if a != b => {
            at.push(out, "retyped", format!("retyped {} → {}", describe(old), describe(new)), Wire::BOTH, true);
            return;
        }
        (Base::Array(i), Base::Array(j)) => {
            let items = At { pointer: format!("{}/items", at.pointer), what: format!("{} items", at.what), ..*at };
            compare(i, j, &items, out);
        }
        (a, b) if std::mem::discriminant(&a) == std::mem::discriminant(&b) => {}
        (Base::Any, _) => {
            at.push(out, "retyped", format!("retyped any JSON value → {}", describe(new)), Wire::TIGHTENS, true);
            return;
        }
        (_, Base::Any) => {
            at.push(out, "retyped", format!("retyped {} → any JSON value", describe(old)), Wire::LOOSENS, true);
            return;
        }
        _ => {
            at.push(out, "retyped", format!("retyped {} → {}", describe(old), describe(new)), Wire::BOTH, true);
            return;
        }
    }
    match (o.nullable, n.nullable) {
        (false, true) => at.push(out, "nullable-added", "now nullable".into(), Wire::LOOSENS, true),
        (true, false) => at.push(out, "nullable-removed", "no longer nullable".into(), Wire::TIGHTENS, true),
        _ => {}
    }
    bound(at, out, o.integer.0, n.integer.0, |v| format!("minimum {v}"), minimum);
    bound(at, out, o.integer.1, n.integer.1, |v| format!("maximum {v}"), maximum);
    bound(at, out, o.number.0, n.number.0, |b| number_bound(b, true), number_tighter(true));
    bound(at, out, o.number.1, n.number.1, |b| number_bound(b, false), number_tighter(false));
    let (min_kw, max_kw) = length_keywords(n.base);
    bound(at, out, o.length.0, n.length.0, |v| format!("{min_kw} {v}"), minimum);
    bound(at, out, o.length.1, n.length.1, |v| format!("{max_kw} {v}"), maximum);
    match (o.unique, n.unique) {
        (false, true) => at.push(out, "constraint-tightened", "uniqueItems added".into(), Wire::TIGHTENS, false),
        (true, false) => at.push(out, "constraint-loosened", "uniqueItems removed".into(), Wire::LOOSENS, false),
        _ => {}
    }
    multiple(at, out, o.multiple, n.multiple);
    exact(at, out, "pattern", o.pattern.map(quoted), n.pattern.map(quoted));
    let prefix = |p: Option<(&[Option<String>], Option<&str>)>| p.map(|(kinds, rest)| Ty::prefix_text(kinds, rest));
    exact(at, out, "prefixItems", prefix(o.prefix), prefix(n.prefix));
    constants(at, out, o.constant, n.constant);
}

/// `const` and inline `enum`: one added tightens, removed loosens; changed,
/// the values are compared as sets by JSON equality (`1` is `1.0`): only
/// values added loosens, only values removed tightens, both does both, and
/// the same values written otherwise or reordered changes nothing a
/// decoder accepts.
fn constants(at: &At<'_>, out: &mut Vec<Change>, old: Option<&Constant>, new: Option<&Constant>) {
    let (Some(o), Some(n)) = (old, new) else {
        let keyword = new.or(old).map_or("const", Constant::keyword);
        return exact(at, out, keyword, old.map(Constant::json), new.map(Constant::json));
    };
    if o == n {
        return;
    }
    let (was, now) = (o.values(), n.values());
    let missing = |from: &[serde_json::Value], values: &[serde_json::Value]| -> Vec<String> {
        values.iter().filter(|v| !from.iter().any(|w| json_equal(v, w))).map(serde_json::Value::to_string).collect()
    };
    let (added, removed) = (missing(&was, &now), missing(&now, &was));
    let moved = if o.keyword() == n.keyword() {
        format!("{} {} → {}", o.keyword(), o.json(), n.json())
    } else {
        format!("{} {} → {} {}", o.keyword(), o.json(), n.keyword(), n.json())
    };
    let (kind, word, wire) = match (added.is_empty(), removed.is_empty()) {
        (true, true) => ("constraint-respelled", "the same values".to_string(), Wire::NONE),
        (false, true) => ("constraint-loosened", format!("loosened: {} added", added.join(", ")), Wire::LOOSENS),
        (true, false) => ("constraint-tightened", format!("tightened: {} removed", removed.join(", ")), Wire::TIGHTENS),
        (false, false) if was.len() == 1 && now.len() == 1 => ("constraint-changed", "changed".to_string(), Wire::BOTH),
        (false, false) => ("constraint-changed", format!("changed: {} added, {} removed", added.join(", "), removed.join(", ")), Wire::BOTH),
    };
    at.push(out, kind, format!("{moved} ({word})"), wire, false);
}

/// Whether a new minimum is tighter than the old one (`Greater`).
pub(crate) fn minimum<T: Ord>(old: &T, new: &T) -> Ordering {
    new.cmp(old)
}

/// Whether a new maximum is tighter than the old one (`Greater`).
pub(crate) fn maximum<T: Ord>(old: &T, new: &T) -> Ordering {
    old.cmp(new)
}

/// Whether a new number bound is tighter than the old one (`Greater`),
/// compared as doubles; at one value an exclusive bound admits less.
fn number_tighter(minimum: bool) -> impl Fn(&NumberBound, &NumberBound) -> Ordering {
    move |old, new| {
        let by_value = new.value.partial_cmp(&old.value).unwrap_or(Ordering::Equal);
        let by_value = if minimum { by_value } else { by_value.reverse() };
        by_value.then(new.exclusive.cmp(&old.exclusive))
    }
}

/// One bound: added (tightens), removed (loosens), or moved, as `tighter`
/// says (`Greater`: the new bound admits less).
pub(crate) fn bound<T: Copy + PartialEq>(
    at: &At<'_>,
    out: &mut Vec<Change>,
    old: Option<T>,
    new: Option<T>,
    text: impl Fn(T) -> String,
    tighter: impl Fn(&T, &T) -> Ordering,
) {
    match (old, new) {
        (None, Some(n)) => at.push(out, "constraint-tightened", format!("{} added", text(n)), Wire::TIGHTENS, false),
        (Some(o), None) => at.push(out, "constraint-loosened", format!("{} removed", text(o)), Wire::LOOSENS, false),
        (Some(o), Some(n)) if o != n => {
            let (kind, word, wire) = match tighter(&o, &n) {
                Ordering::Greater => ("constraint-tightened", "tightened", Wire::TIGHTENS),
                Ordering::Less => ("constraint-loosened", "loosened", Wire::LOOSENS),
                Ordering::Equal => ("constraint-changed", "changed", Wire::BOTH),
            };
            at.push(out, kind, format!("{} ({word})", moved(&text(o), &text(n))), wire, false);
        }
        _ => {}
    }
}

/// `maximum 10 → 20`, or `minimum 0 → exclusiveMinimum 0` when the keyword changes.
fn moved(old: &str, new: &str) -> String {
    match (old.split_once(' '), new.split_once(' ')) {
        (Some((was, _)), Some((now, value))) if was == now => format!("{old} → {value}"),
        _ => format!("{old} → {new}"),
    }
}

fn multiple(at: &At<'_>, out: &mut Vec<Change>, old: Option<Divisor>, new: Option<Divisor>) {
    let text = |d: Divisor| format!("multipleOf {d}");
    match (old, new) {
        (Some(o), Some(n)) if o != n => {
            // A multiple of n is a multiple of o when o divides n.
            let (kind, word, wire) = if o.divides(n.value()) {
                ("constraint-tightened", "tightened", Wire::TIGHTENS)
            } else if n.divides(o.value()) {
                ("constraint-loosened", "loosened", Wire::LOOSENS)
            } else {
                ("constraint-changed", "changed", Wire::BOTH)
            };
            at.push(out, kind, format!("{} ({word})", moved(&text(o), &text(n))), wire, false);
        }
        (o, n) => bound(at, out, o, n, text, minimum),
    }
}

/// `pattern`, and a `const` or `enum` added or removed: added tightens,
/// removed loosens, a pattern changed does both (which strings two patterns
/// both match is not decided here).
fn exact(at: &At<'_>, out: &mut Vec<Change>, keyword: &str, old: Option<String>, new: Option<String>) {
    match (old, new) {
        (None, Some(n)) => at.push(out, "constraint-tightened", format!("{keyword} {n} added"), Wire::TIGHTENS, false),
        (Some(o), None) => at.push(out, "constraint-loosened", format!("{keyword} {o} removed"), Wire::LOOSENS, false),
        (Some(o), Some(n)) if o != n => {
            at.push(out, "constraint-changed", format!("{keyword} {o} → {n} (changed)"), Wire::BOTH, false)
        }
        _ => {}
    }
}
