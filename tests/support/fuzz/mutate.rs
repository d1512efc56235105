//! Mutations of a document: each picks a node at random and changes it in a
//! way the contract decides on (most make the frame invalid, some keep it
//! valid: a member dropped may be optional, a number rewritten may still be
//! in range). The targets need only agree; the validator is the reference.

use super::generate::{any, spell, text_between};
use super::{literal, plain_literal, Doc, Rng};

/// Numbers at the edges of what the contract and the languages can hold.
const BOUNDARY_NUMBERS: &[&str] = &[
    "0", "-0", "-0.0", "1", "-1", "1.0", "1e0", "1E2", "10e-1", "0.5", "-1.5", "1.5e-7", "2147483647", "2147483648", "-2147483649",
    "4294967296", "9007199254740991", "-9007199254740991", "9007199254740992", "-9007199254740993", "9.007199254740991e15",
    "9007199254740991.0", "1e16", "9223372036854775807", "9223372036854775808", "18446744073709551616",
    "100000000000000000000000000000", "1e308", "1.7976931348623157e308", "1e309", "-1e309", "5e-324", "2e-324", "1e-400",
    "0.1", "123456789.123456789", "1.000000000000000000001",
];

/// Strings that languages read differently if they are careless: lone and
/// reversed surrogates (escaped), noncharacters, NUL, BOM, separators.
const ODD_STRINGS: &[&str] = &[
    "\"\\ud800\"",
    "\"\\udc00\"",
    "\"\\udc00\\ud800\"",
    "\"\\ud83d\\ude00\"",
    "\"\\uD83D\\uDE00\"",
    "\"😀\"",
    "\"\\u0000\"",
    "\"\\ufeff\"",
    "\"\\uffff\"",
    "\"\u{2028}\u{2029}\"",
    "\"e\u{301}\"",
    "\"\"",
    "\" \"",
    "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
    "\"true\"",
    "\"42\"",
    "\"null\"",
];

/// The kinds of mutation, for reports.
pub const KINDS: &[&str] = &[
    "kind swap",
    "undeclared member",
    "member dropped",
    "null",
    "boundary number",
    "long string",
    "odd string",
    "deep nesting",
    "duplicate key",
    "empty container",
    "any value",
];

/// Applies one random mutation; returns its kind.
pub fn mutate(doc: &mut Doc, rng: &mut Rng) -> &'static str {
    let paths = doc.paths();
    let path = rng.pick(&paths).clone();
    let kind = rng.below(KINDS.len());
    let node = doc.at_mut(&path);
    match kind {
        0 => *node = swapped(node, rng),
        1 => {
            let key = if rng.chance(50) { plain_literal("zz_undeclared") } else { {
                let key = text_between(rng, 1, 4);
                literal(&key, rng)
            } };
            let value = spell(&any(rng, 2), rng);
            match node {
                Doc::Object(members) => {
                    let at = rng.below(members.len() + 1);
                    members.insert(at, (key, value));
                }
                other => *other = Doc::Object(vec![(key, value)]),
            }
        }
        2 => match node {
            Doc::Object(members) if !members.is_empty() => {
                members.remove(rng.below(members.len()));
            }
            Doc::Array(items) if !items.is_empty() => {
                items.remove(rng.below(items.len()));
            }
            other => *other = Doc::Scalar("null".into()),
        },
        3 => *node = Doc::Scalar("null".into()),
        4 => *node = Doc::Scalar(rng.pick(BOUNDARY_NUMBERS).to_string()),
        5 => {
            let unit = text_between(rng, 1, 3);
            let repeat = *rng.pick(&[100, 1000, 70_000]);
            *node = Doc::Scalar(plain_literal(&unit.repeat(repeat / unit.chars().count().max(1))));
        }
        6 => *node = Doc::Scalar(rng.pick(ODD_STRINGS).to_string()),
        7 => {
            let levels = 55 + rng.below(20);
            let object = rng.chance(50);
            let mut nested = std::mem::replace(node, Doc::Scalar("null".into()));
            for _ in 0..levels {
                nested = if object { Doc::Object(vec![(plain_literal("a"), nested)]) } else { Doc::Array(vec![nested]) };
            }
            *node = nested;
        }
        8 => match node {
            Doc::Object(members) if !members.is_empty() => {
                let (key, value) = members[rng.below(members.len())].clone();
                let respelled = respell(&key);
                let value = if rng.chance(50) { value } else { spell(&any(rng, 2), rng) };
                members.push((respelled, value));
            }
            _ => *node = Doc::Object(vec![(plain_literal("a"), Doc::Scalar("1".into())), ("\"\\u0061\"".into(), Doc::Scalar("1".into()))]),
        },
        9 => *node = if rng.chance(50) { Doc::Object(Vec::new()) } else { Doc::Array(Vec::new()) },
        _ => *node = spell(&any(rng, 1), rng),
    }
    KINDS[kind]
}

/// Another kind of JSON value in place of `node`.
fn swapped(node: &Doc, rng: &mut Rng) -> Doc {
    let choices: &[&str] = match node {
        Doc::Scalar(t) if t.starts_with('"') => &["42", "true", "[]", "{}", "null"],
        Doc::Scalar(t) if t == "true" || t == "false" => &["\"true\"", "1", "0", "[]"],
        Doc::Scalar(t) if t == "null" => &["0", "\"\"", "false", "{}"],
        Doc::Scalar(_) => &["\"42\"", "true", "[42]", "{}"],
        Doc::Array(_) => &["{}", "\"[]\"", "0"],
        Doc::Object(_) => &["[]", "\"{}\"", "0", "[{}]"],
    };
    let text = rng.pick(choices);
    match *text {
        "[]" => Doc::Array(Vec::new()),
        "{}" => Doc::Object(Vec::new()),
        "[42]" => Doc::Array(vec![Doc::Scalar("42".into())]),
        "[{}]" => Doc::Array(vec![Doc::Object(Vec::new())]),
        t => Doc::Scalar(t.to_string()),
    }
}

/// The same key written otherwise: its first character (or, for the empty
/// key, nothing more) as a `\u` escape.
fn respell(key: &str) -> String {
    let inner = &key[1..key.len() - 1];
    match inner.chars().next() {
        Some(c) if c != '\\' => {
            let mut units = [0u16; 2];
            let escaped: String = c.encode_utf16(&mut units).iter().map(|u| format!("\\u{u:04x}")).collect();
            format!("\"{escaped}{}\"", &inner[c.len_utf8()..])
        }
        _ => key.to_string(),
    }
}
