//! A parsed pattern in each engine's syntax. Every construct is spelled so
//! that the engine reads it as ECMA-262 with the `u` flag does: anchors are
//! the string's ends, classes are explicit code-point ranges (never `\d`,
//! `\w`, `\s` or `.`, whose meaning differs), groups capture nothing, and
//! every character a string literal or the engine could misread is escaped.

use std::fmt::Write as _;

use super::guard::transparent;
use super::{CharSet, Node};

/// The regular-expression engine a target compiles the pattern with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// ECMA-262 with the `u` flag: TypeScript, and the text of messages.
    EcmaScript,
    /// Python's `re` on `str`.
    Python,
    /// Go's `regexp` (RE2 syntax).
    Go,
    /// `java.util.regex.Pattern` (code points).
    Java,
    /// .NET's `System.Text.RegularExpressions.Regex` (UTF-16 units: an astral
    /// code point is matched as its surrogate pair).
    DotNet,
    /// Rust's `regex` crate (Unicode mode).
    Rust,
}

pub(super) fn render(node: &Node, dialect: Dialect) -> String {
    let mut out = String::new();
    Renderer { dialect, atomic: dialect == Dialect::DotNet }.node(node, &mut out);
    out
}

/// The spelling for an engine that reads the text from its end: the same,
/// but no repetition atomic (see `Pattern::render_from_end`).
pub(super) fn render_from_end(node: &Node, dialect: Dialect) -> String {
    let mut out = String::new();
    Renderer { dialect, atomic: false }.node(node, &mut out);
    out
}

struct Renderer {
    dialect: Dialect,
    /// Whether a repetition is written as an atomic group (.NET, read from the start).
    atomic: bool,
}

impl Renderer {
    fn node(&self, node: &Node, out: &mut String) {
        match node {
            Node::Empty => {}
            Node::Literal(c) => self.literal(*c, out),
            Node::Class(set) => self.class(set, out),
            Node::Start => out.push('^'),
            Node::End => out.push_str(match self.dialect {
                // `$` also matches before a final newline in these engines.
                Dialect::Python => "\\Z",
                Dialect::Java | Dialect::DotNet => "\\z",
                Dialect::EcmaScript | Dialect::Go | Dialect::Rust => "$",
            }),
            Node::Concat(nodes) => nodes.iter().for_each(|n| self.node(n, out)),
            Node::Alternation(branches) => {
                let mut ordered: Vec<&Node> = branches.iter().map(|b| &b.node).collect();
                if matches!(self.dialect, Dialect::Java | Dialect::DotNet) {
                    // A branch that can match nothing goes last, so that a
                    // possessive (or atomic) repetition around it never settles for it
                    // while another branch could read on (see below).
                    ordered.sort_by_key(|n| transparent(n));
                }
                for (i, branch) in ordered.into_iter().enumerate() {
                    if i > 0 {
                        out.push('|');
                    }
                    self.node(branch, out);
                }
            }
            Node::Group(inner) => {
                out.push_str("(?:");
                self.node(inner, out);
                out.push(')');
            }
            Node::Repeat { node, min, max, .. } => {
                if self.atomic {
                    // .NET's engine has no possessive quantifier; an atomic
                    // group means the same, for the reason below, and spares
                    // it from giving back a long run one character at a time
                    // when what follows fails.
                    out.push_str("(?>");
                }
                if let (Dialect::DotNet, Node::Class(set), 0 | 1, None) = (self.dialect, node.as_ref(), min, max) {
                    if holds_every_astral(set) {
                        self.units_class(set, out);
                    } else {
                        self.node(node, out);
                    }
                } else if self.is_atom(node) {
                    self.node(node, out);
                } else {
                    out.push_str("(?:");
                    self.node(node, out);
                    out.push(')');
                }
                match (min, max) {
                    (0, None) => out.push('*'),
                    (1, None) => out.push('+'),
                    (0, Some(1)) => out.push('?'),
                    (n, None) => write!(out, "{{{n},}}").unwrap_or_default(),
                    (n, Some(m)) if n == m => write!(out, "{{{n}}}").unwrap_or_default(),
                    (n, Some(m)) => write!(out, "{{{n},{m}}}").unwrap_or_default(),
                }
                if self.dialect == Dialect::Java {
                    // java.util.regex recurses once per repetition of a
                    // group, and overflows its stack on a long string; a
                    // possessive repetition loops instead. It means the same
                    // here: the guard lets no repetition give back a
                    // character that what follows could read.
                    out.push('+');
                }
                if self.atomic {
                    out.push(')');
                }
            }
        }
    }

    /// Whether a quantifier applies to the whole rendered node as it is.
    fn is_atom(&self, node: &Node) -> bool {
        match node {
            Node::Literal(c) => self.dialect != Dialect::DotNet || (*c as u32) < 0x10000,
            Node::Class(_) | Node::Group(_) => true,
            _ => false,
        }
    }

    fn literal(&self, c: char, out: &mut String) {
        if "^$\\.*+?()[]{}|/".contains(c) {
            out.push('\\');
            out.push(c);
        } else {
            self.code_point(c as u32, out);
        }
    }

    /// One code point outside a class or inside one (where the class's own
    /// syntax characters are escaped by the caller).
    fn code_point(&self, code: u32, out: &mut String) {
        let printable = (0x20..0x7F).contains(&code) && !matches!(code, 0x22 | 0x27 | 0x60);
        if printable {
            out.push(char::from(code as u8));
            return;
        }
        // Quotes and backticks are escaped too, so that no target's string
        // literal around the pattern needs escapes of its own.
        let _ = match (self.dialect, code) {
            (_, 0..=0xFF) => write!(out, "\\x{code:02X}"),
            (Dialect::Python, 0x100..=0xFFFF) | (Dialect::EcmaScript, 0x100..=0xFFFF) | (Dialect::DotNet, 0x100..=0xFFFF) => write!(out, "\\u{code:04X}"),
            (Dialect::Python, _) => write!(out, "\\U{code:08X}"),
            (Dialect::EcmaScript, _) => write!(out, "\\u{{{code:X}}}"),
            (Dialect::DotNet, _) => {
                let (high, low) = surrogates(code);
                write!(out, "\\u{high:04X}\\u{low:04X}")
            }
            (Dialect::Go | Dialect::Java | Dialect::Rust, _) => write!(out, "\\x{{{code:X}}}"),
        };
    }

    fn class(&self, set: &CharSet, out: &mut String) {
        if self.dialect == Dialect::DotNet {
            return self.utf16_class(set, out);
        }
        self.bracket(set, set.prefers_negation(), out);
    }

    /// `[...]` of the set, or `[^...]` of its complement.
    fn bracket(&self, set: &CharSet, negated: bool, out: &mut String) {
        let ranges = if negated { set.complement().ranges } else { set.ranges.clone() };
        out.push('[');
        if negated {
            out.push('^');
        }
        self.ranges(&ranges, out, Self::class_member);
        out.push(']');
    }

    /// Class ranges: `a`, `ab` or `a-z`, each end written by `member`.
    fn ranges(&self, ranges: &[(u32, u32)], out: &mut String, member: fn(&Self, u32, &mut String)) {
        for &(low, high) in ranges {
            member(self, low, out);
            if high > low + 1 {
                out.push('-');
            }
            if high > low {
                member(self, high, out);
            }
        }
    }

    fn class_member(&self, code: u32, out: &mut String) {
        let escaped = match char::from_u32(code) {
            Some(c @ ('\\' | ']' | '[' | '^' | '-')) => Some(c),
            // `&&` and `~~` are class operators in Java and Rust; ECMA with
            // the `u` flag refuses these escapes, and needs none.
            Some(c @ ('&' | '~')) if self.dialect != Dialect::EcmaScript => Some(c),
            _ => None,
        };
        match escaped {
            Some(c) => {
                out.push('\\');
                out.push(c);
            }
            None => self.code_point(code, out),
        }
    }

    /// .NET matches UTF-16 units: the set's BMP part is one class (which,
    /// negated, leaves the surrogates out), its astral part the surrogate
    /// pairs of its ranges.
    fn utf16_class(&self, set: &CharSet, out: &mut String) {
        let bmp = CharSet::of(set.ranges.iter().filter(|r| r.0 < 0x10000).map(|&(l, h)| (l, h.min(0xFFFF))));
        let astral: Vec<(u32, u32)> = set.ranges.iter().filter(|r| r.1 >= 0x10000).map(|&(l, h)| (l.max(0x10000), h)).collect();
        if astral.is_empty() {
            return self.bmp_bracket(&bmp, out);
        }
        out.push_str("(?:");
        let mut first = true;
        if !bmp.is_empty() {
            self.bmp_bracket(&bmp, out);
            first = false;
        }
        for (low, high) in astral {
            for (highs, lows) in surrogate_ranges(low, high) {
                if !first {
                    out.push('|');
                }
                first = false;
                self.unit_range(highs, out);
                self.unit_range(lows, out);
            }
        }
        out.push(')');
    }

    /// A set holding every astral code point, repeated without a bound
    /// from at most one, for .NET: one class of UTF-16 units that takes in
    /// the surrogates, so that it reads an astral code point as its two
    /// units (well-formed text always has both; a JSON string has no lone
    /// one) in one of .NET's tight loops, not an alternation per character,
    /// which took its interpreter over 10 ms on 100,000 characters.
    fn units_class(&self, set: &CharSet, out: &mut String) {
        let excluded = set.complement().ranges;
        out.push_str(if excluded.is_empty() { "[\\x00-\\uFFFF]" } else { "[^" });
        if !excluded.is_empty() {
            self.ranges(&excluded, out, Self::unit);
            out.push(']');
        }
    }

    /// A class of BMP code points for .NET; negated, it also excludes the
    /// surrogates, so that it never matches half of a pair.
    fn bmp_bracket(&self, set: &CharSet, out: &mut String) {
        let bmp_complement = CharSet::of(set.complement().ranges.into_iter().filter(|r| r.0 < 0x10000).map(|(l, h)| (l, h.min(0xFFFF))));
        if bmp_complement.ranges.len() + 1 < set.ranges.len() {
            let mut excluded = bmp_complement.ranges;
            excluded.push((0xD800, 0xDFFF));
            excluded.sort_unstable();
            out.push_str("[^");
            self.ranges(&excluded, out, Self::unit);
            out.push(']');
        } else {
            self.bracket(set, false, out);
        }
    }

    /// A UTF-16 unit range as one unit or a class.
    fn unit_range(&self, (low, high): (u32, u32), out: &mut String) {
        if low == high {
            self.unit(low, out);
        } else {
            out.push('[');
            self.unit(low, out);
            out.push('-');
            self.unit(high, out);
            out.push(']');
        }
    }

    /// One UTF-16 unit (a surrogate included) for .NET.
    fn unit(&self, code: u32, out: &mut String) {
        if (0xD800..0xE000).contains(&code) {
            let _ = write!(out, "\\u{code:04X}");
        } else {
            self.class_member(code, out);
        }
    }
}

/// Whether the set holds every astral code point (`\\S`, `.`, `[^"]`).
fn holds_every_astral(set: &CharSet) -> bool {
    set.ranges.iter().any(|&(low, high)| low <= 0x1_0000 && high >= 0x10_FFFF)
}

/// The surrogate pair of an astral code point.
fn surrogates(code: u32) -> (u32, u32) {
    let offset = code - 0x10000;
    (0xD800 + (offset >> 10), 0xDC00 + (offset & 0x3FF))
}

/// An astral range as (high-surrogate range, low-surrogate range) pairs.
fn surrogate_ranges(low: u32, high: u32) -> Vec<((u32, u32), (u32, u32))> {
    let (low_high, low_low) = surrogates(low);
    let (high_high, high_low) = surrogates(high);
    if low_high == high_high {
        return vec![((low_high, low_high), (low_low, high_low))];
    }
    // Pieces whose low surrogates cover the whole block join the middle one.
    let (start_full, end_full) = (low_low == 0xDC00, high_low == 0xDFFF);
    let mut out = Vec::new();
    if !start_full {
        out.push(((low_high, low_high), (low_low, 0xDFFF)));
    }
    let (middle_low, middle_high) = (if start_full { low_high } else { low_high + 1 }, if end_full { high_high } else { high_high - 1 });
    if middle_low <= middle_high {
        out.push(((middle_low, middle_high), (0xDC00, 0xDFFF)));
    }
    if !end_full {
        out.push(((high_high, high_high), (0xDC00, high_low)));
    }
    out
}
