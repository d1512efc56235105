//! What the search adds to a pattern's cost. JSON Schema searches a pattern:
//! an engine tries it from position 0, and, unless it starts with `^`, from
//! every later position too. Each try is linear ([`super::guard`]), but
//! tries that each read far and fail add up to time quadratic in the
//! string: `[a-z]+:` on 100,000 letters took 12 s in Python, and even a
//! bounded try is paid at every position (`\S{40}$` took 350 ms in Java).
//! So, in a pattern not anchored with `^`:
//!
//! - an unbounded repetition is followed by nothing that must still match
//!   (neither a character nor `$`), so that a try that gets past its least
//!   count has found a match, and the search ends;
//! - a try reads at most [`MAX_TRY`] code points before it has (every
//!   unbounded repetition taken at its least count).
//!
//! And `^` stands only where nothing can have been read before it (where
//! else it never matches, and it would make the analysis of the choices
//! wrong).

use super::guard::transparent;
use super::{Node, PatternError};

/// The most code points a try of a pattern searched without `^` may read
/// before it is decided: the search then costs at most this many steps per
/// position of the string. The pattern benchmark
/// (tests/conformance/bench-patterns.sh) measured a try of 3 at 8 to 25 ms
/// on 100,000 characters in .NET, and of 40 at 70 to 350 ms in Go, Java and
/// .NET, against a goal of 10 ms: a search may read two.
pub const MAX_TRY: u64 = 2;

pub(super) fn check(node: &Node) -> Result<(), PatternError> {
    start_anchors(node, false)?;
    if anchored(node) {
        return Ok(());
    }
    accepting(node, true).map_err(|text| PatternError {
        offset: None,
        problem: format!("searched without `^`, the pattern is tried at every position, and a try through `{text}` can read to the end of the string and still fail on what follows it: backtracking engines take time quadratic in the string's length"),
        fix: "anchor the pattern with `^`, or end it with the repetition: a search needs no repetition before what it looks for (`[a-z]+:` finds what `[a-z]:` finds, `x+$` what `x$` finds)".to_string(),
    })?;
    let longest = longest(node);
    if longest > MAX_TRY {
        return Err(PatternError {
            offset: None,
            problem: format!("searched without `^`, the pattern is tried at every position, and one try can read {longest} characters (above {MAX_TRY}) before it fails: backtracking engines take that many steps per character of the string"),
            fix: format!("anchor the pattern with `^`, or keep what a pattern searched anywhere reads before it is decided to {MAX_TRY} characters (`ab`, `\\w$`, `a[0-9]+`)"),
        });
    }
    Ok(())
}

/// Where the tries of a search that can find a match start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tries {
    /// Only at position 0: every try passes a `^` before it reads.
    AtStart,
    /// Only where the match ends at the string's end: the pattern is a
    /// sequence that ends with `$`, without `^`. Read from its end, one try
    /// decides it; by [`check`] such a pattern has no unbounded repetition
    /// and reads at most [`MAX_TRY`] code points.
    AtEnd,
    /// At every position of the string.
    Everywhere,
}

/// Where the tries of a search of `node`, a checked pattern, start.
pub(super) fn tries(node: &Node) -> Tries {
    if anchored(node) {
        return Tries::AtStart;
    }
    match node {
        Node::End => Tries::AtEnd,
        Node::Concat(nodes) if nodes.last() == Some(&Node::End) => Tries::AtEnd,
        _ => Tries::Everywhere,
    }
}

/// Refuses a `^` that can come after a code point was read.
fn start_anchors(node: &Node, after_text: bool) -> Result<(), PatternError> {
    match node {
        Node::Start if after_text => Err(PatternError {
            offset: None,
            problem: "a `^` can come after a character, where it never matches".to_string(),
            fix: "put `^` at the start of the pattern (or of each alternative that starts there)".to_string(),
        }),
        Node::Concat(nodes) => {
            let mut after = after_text;
            for n in nodes {
                start_anchors(n, after)?;
                after |= reads(n);
            }
            Ok(())
        }
        Node::Alternation(branches) => branches.iter().try_for_each(|b| start_anchors(&b.node, after_text)),
        Node::Group(inner) => start_anchors(inner, after_text),
        Node::Repeat { node: inner, max, .. } => start_anchors(inner, after_text || (*max != Some(1) && reads(inner))),
        _ => Ok(()),
    }
}

/// Whether the node can read a code point.
fn reads(node: &Node) -> bool {
    match node {
        Node::Literal(_) | Node::Class(_) => true,
        Node::Empty | Node::Start | Node::End => false,
        Node::Concat(nodes) => nodes.iter().any(reads),
        Node::Alternation(branches) => branches.iter().any(|b| reads(&b.node)),
        Node::Group(inner) => reads(inner),
        Node::Repeat { node, max, .. } => *max != Some(0) && reads(node),
    }
}

/// Whether every try passes a `^` before it reads anything: then only the
/// try from position 0 gets past it.
fn anchored(node: &Node) -> bool {
    match node {
        Node::Start => true,
        Node::Concat(nodes) => {
            for n in nodes {
                if anchored(n) {
                    return true;
                }
                if reads(n) {
                    return false;
                }
            }
            false
        }
        Node::Alternation(branches) => branches.iter().all(|b| anchored(&b.node)),
        Node::Group(inner) => anchored(inner),
        Node::Repeat { node, min, .. } => *min > 0 && anchored(node),
        _ => false,
    }
}

/// Refuses an unbounded repetition after which something must still match;
/// `accepts` says whether what follows the node can match nothing up to the
/// pattern's end. `Err` is the repetition's text.
fn accepting(node: &Node, accepts: bool) -> Result<(), String> {
    match node {
        Node::Concat(nodes) => {
            let mut after = accepts;
            for n in nodes.iter().rev() {
                accepting(n, after)?;
                after = after && transparent(n);
            }
            Ok(())
        }
        Node::Alternation(branches) => branches.iter().try_for_each(|b| accepting(&b.node, accepts)),
        Node::Group(inner) => accepting(inner, accepts),
        Node::Repeat { node: inner, min, max, text } => {
            if max.is_none() && !accepts {
                return Err(text.clone());
            }
            // After a repetition the loop may stop only once it has its least count.
            accepting(inner, accepts && *min <= 1)
        }
        _ => Ok(()),
    }
}

/// The most code points a try can read before it is decided, an unbounded
/// repetition taken at its least count (past it, [`accepting`] makes the
/// try a match).
fn longest(node: &Node) -> u64 {
    match node {
        Node::Literal(_) | Node::Class(_) => 1,
        Node::Empty | Node::Start | Node::End => 0,
        Node::Concat(nodes) => nodes.iter().map(longest).fold(0, u64::saturating_add),
        Node::Alternation(branches) => branches.iter().map(|b| longest(&b.node)).max().unwrap_or(0),
        Node::Group(inner) => longest(inner),
        Node::Repeat { node, min, max, .. } => longest(node).saturating_mul(u64::from(max.unwrap_or(*min))),
    }
}
