//! One-step smaller versions of a document, smallest first within each kind:
//! a member or item removed, a container replaced by one of its children,
//! a long string or deep nest cut in half, a spelled number or string written
//! plainly. The minimizer keeps the first that still shows the disagreement.

use super::Doc;

/// Every one-step reduction of `doc`.
pub fn candidates(doc: &Doc) -> Vec<Doc> {
    let mut out = Vec::new();
    for path in doc.paths() {
        let node = doc.clone().at_mut(&path).clone();
        let mut put = |replacement: Doc| {
            let mut copy = doc.clone();
            *copy.at_mut(&path) = replacement;
            out.push(copy);
        };
        match &node {
            Doc::Object(members) => {
                for i in 0..members.len() {
                    let mut fewer = members.clone();
                    fewer.remove(i);
                    put(Doc::Object(fewer));
                }
                for (_, child) in members {
                    put(child.clone());
                }
            }
            Doc::Array(items) => {
                if items.len() > 1 {
                    put(Doc::Array(items[..items.len() / 2].to_vec()));
                }
                for i in 0..items.len() {
                    let mut fewer = items.clone();
                    fewer.remove(i);
                    put(Doc::Array(fewer));
                }
                for child in items {
                    put(child.clone());
                }
            }
            Doc::Scalar(text) => {
                if let Some(shorter) = halved_string(text) {
                    put(Doc::Scalar(shorter));
                }
                if let Some(plain) = plainly(text) {
                    put(Doc::Scalar(plain));
                }
            }
        }
    }
    out.sort_by_key(Doc::size);
    out.dedup();
    out
}

/// A string literal of more than one character cut to its first half (whole
/// escapes only).
fn halved_string(text: &str) -> Option<String> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut units = Vec::new();
    let mut chars = inner.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let len = match (c, chars.peek()) {
            ('\\', Some((_, 'u'))) => 6,
            ('\\', _) => 2,
            _ => c.len_utf8(),
        };
        units.push(&inner[start..(start + len).min(inner.len())]);
        for _ in 1..inner[start..(start + len).min(inner.len())].chars().count() {
            chars.next();
        }
    }
    (units.len() > 1).then(|| format!("\"{}\"", units[..units.len() / 2].concat()))
}

/// The literal as serde_json writes it, when that is another spelling.
fn plainly(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let plain = value.to_string();
    (plain != text).then_some(plain)
}
