//! What every engine compiles. Go's `regexp` refuses a repetition whose
//! count, times the counts of the repetitions inside it, passes 1000 (its
//! `repeatIsValid`: `(?:[0-9a-f]{2}){1,512}` panics at start-up); Rust's
//! `regex` refuses a program past its size limit (10 MiB: `(?:.{1000}){1000}`)
//! or nested past 250. The counts are checked here by Go's own rule; the
//! size and nesting by compiling the Rust spelling with the crate and
//! limits the generated code uses, so that its `Regex::new` cannot fail.
//! Go's own size limit (128 MiB of instructions) and the backtracking
//! engines' (none that counts up to 1000 reach) lie beyond Rust's.

use super::render::{render, Dialect};
use super::{Node, PatternError, MAX_COUNT};

pub(super) fn check(node: &Node) -> Result<(), PatternError> {
    counts(node, 1)?;
    let rust = render(node, Dialect::Rust);
    regex::Regex::new(&rust).map(drop).map_err(|e| {
        let reason = e.to_string();
        let reason = reason.lines().rfind(|l| !l.trim().is_empty()).unwrap_or_default().trim().to_string();
        PatternError {
            offset: None,
            problem: format!("the pattern is too large for Rust's `regex` crate ({reason})"),
            fix: "write fewer or smaller counts (a `+` or `*` with a `maxLength` in place of a large count), or fewer nested groups".to_string(),
        }
    })
}

/// Refuses a count that, times the counts around it (`within`), passes
/// [`MAX_COUNT`]. As in Go, `*`, `+` and `?` count as 1, an unbounded
/// `{n,}` as `n`.
fn counts(node: &Node, within: u64) -> Result<(), PatternError> {
    match node {
        Node::Concat(nodes) => nodes.iter().try_for_each(|n| counts(n, within)),
        Node::Alternation(branches) => branches.iter().try_for_each(|b| counts(&b.node, within)),
        Node::Group(inner) => counts(inner, within),
        Node::Repeat { node: inner, min, max, text } => {
            let count = match (min, max) {
                (0 | 1, None) | (0, Some(1)) => 1,
                (n, None) => *n,
                (_, Some(m)) => *m,
            };
            let within = within.saturating_mul(u64::from(count.max(1)));
            if within > u64::from(MAX_COUNT) {
                return Err(PatternError {
                    offset: None,
                    problem: format!("the counts around and in `{text}` multiply to {within}, above {MAX_COUNT}: Go's regexp refuses the pattern (a Go program using it stops at start-up)"),
                    fix: format!("keep the product of nested counts to {MAX_COUNT}: write `+` or `*` with a `maxLength` in place of the outer count, e.g. `^(?:[0-9a-f]{{2}})+$` with `maxLength: 1024`"),
                });
            }
            counts(inner, within)
        }
        _ => Ok(()),
    }
}
