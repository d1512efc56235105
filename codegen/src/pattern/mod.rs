//! `pattern`: the portable regular-expression subset every target reads the
//! same way, and its spelling in each target's engine.
//!
//! A schema's `pattern` is ECMA-262 syntax with the `u` flag (code points,
//! not UTF-16 units), searched, not anchored, as JSON Schema says. Codegen
//! parses it into a [`Node`] tree ([`parse`]), refuses what some engine
//! would read otherwise, could not compile ([`limits`]) or could not decide
//! in time linear in the string ([`guard`], [`search`]), and renders the
//! tree once per engine ([`render`]): Python `re`, ECMAScript with `u`, Go
//! `regexp`, `java.util.regex`, .NET `Regex` and Rust `regex`.
//!
//! | written | meaning in every target |
//! |---|---|
//! | a literal, `\t \n \v \f \r \0`, `\xHH`, `\uHHHH` (a surrogate pair is one code point), `\u{H…}` | that code point |
//! | `\^ \$ \\ \. \* \+ \? \( \) \[ \] \{ \} \| \/` (and `\-` in a class) | that character |
//! | `.` | any code point but the ECMA line terminators U+000A, U+000D, U+2028, U+2029 |
//! | `\d` / `\D` | `[0-9]` / anything else |
//! | `\w` / `\W` | `[0-9A-Z_a-z]` / anything else |
//! | `\s` / `\S` | ECMA white space and line terminators / anything else |
//! | `[…]`, `[^…]` | the code points listed, ranges and the escapes above included / all others |
//! | `^`, `$` | the start, the end of the string (never of a line; never before a final newline) |
//! | `(…)`, `(?:…)`, `a\|b` | grouping (nothing is captured), alternation |
//! | `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` | greedy repetition, counts up to 1000 |
//!
//! Refused, with the character offset and a fix: lookaround, backreferences,
//! named groups, `\b`/`\B`, `\p{…}`, `\cX`, lazy or possessive quantifiers,
//! an empty class `[]` or `[^]`, a quantifier on nothing or on an anchor, a
//! lone `]`, `{` or `}`, a count above 1000 and groups nested deeper than
//! [`MAX_DEPTH`]. Then, so that every engine compiles the pattern and
//! decides any string in linear time:
//!
//! - nested counts multiplying past 1000 (Go's limit), and a pattern Rust's
//!   `regex` will not compile (its size and nesting limits) ([`limits`]);
//! - any choice not decided by the next code point: a repetition that can
//!   stop or go on at the same character (`^\d*\d*$`, `^.*\.json$`), an
//!   alternation whose branches start alike, a repetition of what can match
//!   nothing ([`guard`]): backtracking engines (Python, JavaScript, Java,
//!   .NET) take exponential or polynomial time on them;
//! - in a pattern without `^`, which is tried at every position: an
//!   unbounded repetition that something must still follow (`[a-z]+:`), a
//!   try reading more than [`MAX_TRY`] code points, and `^` after a
//!   character ([`search`]).
//!
//! Java's engine recurses once per repetition of a group; the Java spelling
//! repeats possessively, which the guard makes mean the same, and the .NET
//! spelling atomically, reading a run of any code point as UTF-16 units
//! ([`render`]).

mod guard;
mod limits;
mod parse;
mod render;
mod search;

pub use render::Dialect;
pub use search::{Tries, MAX_TRY};

/// A parsed `pattern`: the schema's text and the tree every target renders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// The pattern exactly as the schema writes it.
    pub source: String,
    /// The parsed expression.
    pub node: Node,
    /// Its number among the contract's distinct patterns (from 1, in the
    /// order of [`crate::model::Contract::patterns`]): each target compiles
    /// each distinct pattern once, into a constant named with it.
    pub number: usize,
}

/// A problem in a pattern: where (a character offset into the pattern, for
/// a syntax problem), what, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    pub offset: Option<usize>,
    pub problem: String,
    pub fix: String,
}

/// A node of the expression tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Matches the empty string (an empty pattern, alternative or group).
    Empty,
    /// One code point.
    Literal(char),
    /// One code point out of a set (`.`, `\d`, `[a-z]`, `[^"]`).
    Class(CharSet),
    /// `^`: the start of the string.
    Start,
    /// `$`: the end of the string.
    End,
    /// Each node after the other.
    Concat(Vec<Node>),
    /// Any one of the branches, each with its text in the pattern.
    Alternation(Vec<Branch>),
    /// A parenthesized node (rendered as a non-capturing group).
    Group(Box<Node>),
    /// The node `min` to `max` times (`None`: unbounded), greedily; `text`
    /// is the repetition as the pattern writes it (`[a-z]+`), for messages.
    Repeat { node: Box<Node>, min: u32, max: Option<u32>, text: String },
}

/// A branch of an alternation and its text in the pattern (`ab` of `ab|cd`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    pub node: Node,
    pub text: String,
}

/// The largest repetition count every engine accepts (Go's `regexp` refuses
/// more), and the largest product of nested counts.
pub const MAX_COUNT: u32 = 1000;

/// The deepest nesting of groups the parser reads (Rust's `regex` refuses
/// nesting past 250, counting repetitions too).
pub const MAX_DEPTH: usize = 100;

/// The largest Unicode code point.
const MAX_CODE_POINT: u32 = 0x10_FFFF;

/// A set of code points: sorted, disjoint, non-adjacent inclusive ranges,
/// never including a surrogate (a JSON string holds none: the JSON-text rules
/// refuse lone surrogates).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CharSet {
    pub ranges: Vec<(u32, u32)>,
}

impl CharSet {
    /// The set of the given ranges (in any order, overlapping or not).
    pub fn of(ranges: impl IntoIterator<Item = (u32, u32)>) -> Self {
        let mut all: Vec<(u32, u32)> = ranges.into_iter().collect();
        all.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::new();
        for (low, high) in all {
            match out.last_mut() {
                Some(last) if low <= last.1.saturating_add(1) => last.1 = last.1.max(high),
                _ => out.push((low, high)),
            }
        }
        Self { ranges: without_surrogates(out) }
    }

    /// Every code point not in the set (surrogates aside).
    pub fn complement(&self) -> Self {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(low, high) in &self.ranges {
            if low > next {
                out.push((next, low - 1));
            }
            next = high + 1;
        }
        if next <= MAX_CODE_POINT {
            out.push((next, MAX_CODE_POINT));
        }
        Self { ranges: without_surrogates(out) }
    }

    pub fn union(&self, other: &CharSet) -> Self {
        Self::of(self.ranges.iter().chain(&other.ranges).copied())
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether the two sets share a code point.
    pub fn overlaps(&self, other: &CharSet) -> bool {
        self.ranges.iter().any(|&(a, b)| other.ranges.iter().any(|&(c, d)| a <= d && c <= b))
    }

    /// How many ranges the set has, and how many its complement has: the
    /// renderers write whichever form is shorter.
    pub fn prefers_negation(&self) -> bool {
        self.complement().ranges.len() < self.ranges.len()
    }
}

/// The ranges with the surrogate block U+D800..U+DFFF cut out.
fn without_surrogates(ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (low, high) in ranges {
        if high < 0xD800 || low > 0xDFFF {
            out.push((low, high));
            continue;
        }
        if low < 0xD800 {
            out.push((low, 0xD7FF));
        }
        if high > 0xDFFF {
            out.push((0xE000, high));
        }
    }
    out
}

impl Pattern {
    /// Parses and checks a schema `pattern`.
    pub fn parse(source: &str) -> Result<Pattern, PatternError> {
        let node = parse::parse(source)?;
        limits::check(&node)?;
        guard::check(&node)?;
        search::check(&node)?;
        Ok(Pattern { source: source.to_string(), node, number: 0 })
    }

    /// The pattern in the given engine's syntax, meaning what `source` means
    /// in ECMA-262 with the `u` flag (without the quoting of a string literal).
    pub fn render(&self, dialect: Dialect) -> String {
        render::render(&self.node, dialect)
    }

    /// The same, written for an engine that reads the text from its end
    /// towards its start (.NET's `RegexOptions.RightToLeft`), for a pattern
    /// whose tries are [`Tries::AtEnd`]: no repetition is atomic, since what
    /// keeps an atomic repetition from giving back a character that the rest
    /// needs holds for a reading from the start only (`aa?$` on `a`).
    pub fn render_from_end(&self, dialect: Dialect) -> String {
        render::render_from_end(&self.node, dialect)
    }

    /// Where the tries of a search that can find a match start.
    pub fn tries(&self) -> Tries {
        search::tries(&self.node)
    }

    /// Whether the pattern finds a match in `text`, as the Rust spelling
    /// (an automaton engine, linear in the text) reads it: the verdict the
    /// proofs hold every engine to.
    pub fn finds(&self, text: &str) -> bool {
        regex::Regex::new(&self.render(Dialect::Rust)).is_ok_and(|regex| regex.is_match(text))
    }

    /// The problem every target reports for a string the pattern does not
    /// find a match in: `expected string matching /^[a-z]+$/`.
    pub fn problem(&self) -> String {
        format!("expected string matching {}", self.display())
    }

    /// The pattern as a regular-expression literal, `/^[a-z]+$/`: the source
    /// as written (a `/` in it needs no escape: the slashes only frame it),
    /// with a control character written as `\xHH`, which means the same.
    pub fn display(&self) -> String {
        let mut out = String::from("/");
        for c in self.source.chars() {
            if c.is_control() {
                out.push_str(&format!("\\x{:02X}", c as u32));
            } else {
                out.push(c);
            }
        }
        out.push('/');
        out
    }
}

#[cfg(test)]
mod tests;
