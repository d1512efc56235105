//! Differential fuzzing's frames (issue 17, part 2): random frames made from a
//! contract schema, kept as [`Doc`]s (JSON text as a tree that remembers how
//! every key, string and number is spelled), mutated, and shrunk again when
//! the targets disagree on one.
//!
//! - [`generate`]: a valid value of a schema, written with random spellings
//!   (`\u0061` for `a`, `1.0` and `10e-1` for `1`, `5e-1` for `0.5`);
//! - [`mutate`]: what the contract must reject or accept alike everywhere
//!   (kind swaps, undeclared and dropped members, boundary numbers, long and
//!   odd Unicode, deep nesting, duplicate keys written differently);
//! - [`shrink`]: the one-step smaller versions of a document, for minimizing.
//!
//! Everything is drawn from one seeded [`Rng`], so a seed names a campaign.

pub mod generate;
pub mod mutate;
pub mod shrink;

/// A small, fast PRNG (splitmix64): the same seed gives the same frames on
/// every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// JSON text as a tree that keeps its spelling: a scalar's and a key's exact
/// text (string literals with their quotes and escapes), members in order,
/// duplicates allowed.
#[derive(Debug, Clone, PartialEq)]
pub enum Doc {
    Scalar(String),
    Array(Vec<Doc>),
    Object(Vec<(String, Doc)>),
}

impl Doc {
    /// The compact JSON text.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Doc::Scalar(text) => out.push_str(text),
            Doc::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Doc::Object(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(key);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }

    /// How many nodes the tree has (the minimizer's measure of size).
    pub fn size(&self) -> usize {
        1 + match self {
            Doc::Scalar(_) => 0,
            Doc::Array(items) => items.iter().map(Doc::size).sum(),
            Doc::Object(members) => members.iter().map(|(_, v)| v.size()).sum(),
        }
    }

    /// The node at `path` (child indexes from the root).
    pub fn at_mut(&mut self, path: &[usize]) -> &mut Doc {
        path.iter().fold(self, |doc, &i| match doc {
            Doc::Array(items) => &mut items[i],
            Doc::Object(members) => &mut members[i].1,
            Doc::Scalar(_) => unreachable!("a path never goes through a scalar"),
        })
    }

    /// Every node's path, parents before children.
    pub fn paths(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new()];
        let children: Vec<&Doc> = match self {
            Doc::Scalar(_) => Vec::new(),
            Doc::Array(items) => items.iter().collect(),
            Doc::Object(members) => members.iter().map(|(_, v)| v).collect(),
        };
        for (i, child) in children.into_iter().enumerate() {
            out.extend(child.paths().into_iter().map(|mut p| {
                p.insert(0, i);
                p
            }));
        }
        out
    }
}

/// A string literal spelled plainly (JSON's required escapes only).
pub fn plain_literal(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

/// A string literal with characters escaped at random: `\uXXXX` (astral
/// characters as an escaped surrogate pair), `\/`, or raw.
pub fn literal(text: &str, rng: &mut Rng) -> String {
    if !rng.chance(30) {
        return plain_literal(text);
    }
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' if rng.chance(50) => out.push_str("\\/"),
            c if (c as u32) < 0x20 || rng.chance(25) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
