//! Refuses what a backtracking engine (Python, JavaScript, Java, .NET) could
//! take more than linear time on, so that no frame can stall a decoder.
//!
//! Such an engine tries a pattern's choices in order (an alternation's
//! branches, a repetition's "go on" before "stop") and, when the rest fails,
//! comes back to try the next. That costs time only where two choices can
//! both go on with the same text: inside a loop it compounds per repetition
//! (`^(a+)+$`: exponential), between loops per split of the text
//! (`^\d*\d*\d*$`: polynomial). So every choice in a pattern must be decided
//! by the next code point, `$` counting as a code point of its own (the end
//! of the string) and the pattern's end as taking anything:
//!
//! - the branches of an alternation start with different code points (a
//!   branch that can match nothing starts with whatever follows it);
//! - a repetition (or `?`) never starts with a code point that can also
//!   follow it, and never repeats what can match the empty string.
//!
//! Then one try of the pattern reads each code point once, and every choice
//! it leaves behind fails at its first code point: the try takes time
//! linear in the string (times the pattern's size). `^[a-z]+(?:-[a-z]+)*$`
//! is accepted (`-` decides); `(a+)+`, `(\w+\s?)*`, `\d*\d*` and
//! `^.*:$` are refused (`:$`, searched, says the last). The same
//! rule makes a possessive repetition mean what the greedy one means, which
//! the Java spelling relies on ([`super::render`]). What the search adds
//! (a try at every position) is checked in [`super::search`].

use super::{CharSet, Node, PatternError};

/// A code point past Unicode standing for the end of the string, `$`: it
/// follows the last code point and no class holds it.
const END_OF_TEXT: u32 = 0x11_0000;

pub(super) fn check(node: &Node) -> Result<(), PatternError> {
    loops(node, &CharSet::default())?;
    decided(node, &CharSet::default()).map_err(|choice| PatternError {
        offset: None,
        problem: format!("{choice}: a backtracking engine (Python, JavaScript, Java, .NET) tries every way to split the text between them, which takes polynomial time"),
        fix: "make every choice decided by the next character: merge repetitions of the same characters (`\\d*\\d*` is `\\d*`), let what follows a repetition start with a character it cannot repeat (`[^.]*\\.` rather than `.*\\.`), or start the branches of an alternation differently (`a(?:b|c)` rather than `ab|ac`); a pattern searched without `^` needs no repetition at its start (`:$` finds what `^.*:$` finds)".to_string(),
    })
}

/// Finds every repetition, with the code points that can follow it: choices
/// undecided inside a loop are exponential, and get a message of their own.
fn loops(node: &Node, follow: &CharSet) -> Result<(), PatternError> {
    match node {
        Node::Empty | Node::Literal(_) | Node::Class(_) | Node::Start | Node::End => Ok(()),
        Node::Concat(nodes) => nodes.iter().zip(follows(nodes, follow)).try_for_each(|(n, f)| loops(n, &f)),
        Node::Alternation(branches) => branches.iter().try_for_each(|b| loops(&b.node, follow)),
        Node::Group(inner) => loops(inner, follow),
        Node::Repeat { node: inner, max, text, .. } => {
            if *max == Some(1) {
                return loops(inner, follow);
            }
            if nullable(inner) {
                return Err(exponential(format!("`{text}` repeats something that can match the empty string, which backtracking engines can take exponential time on")));
            }
            let within = first(inner).union(follow);
            decided(inner, &within).map_err(|choice| {
                exponential(format!(
                    "`{text}` can consume the same text in more than one way ({choice}): backtracking engines (Python, JavaScript, Java, .NET) can take exponential time on it"
                ))
            })
        }
    }
}

fn exponential(problem: String) -> PatternError {
    PatternError {
        offset: None,
        problem,
        fix: "make each choice inside the repetition decided by the next character, e.g. `(\\w+\\s?)*` becomes `\\w+(?:\\s\\w+)*`; or check the shape in the binary and describe it".to_string(),
    }
}

/// What can follow each of `nodes`, followed by `follow` (right to left,
/// so that a long sequence costs one pass).
fn follows(nodes: &[Node], follow: &CharSet) -> Vec<CharSet> {
    let mut out = vec![CharSet::default(); nodes.len()];
    let mut next = follow.clone();
    for (i, n) in nodes.iter().enumerate().rev() {
        out[i] = next.clone();
        next = if transparent(n) { first(n).union(&next) } else { first(n) };
    }
    out
}

/// Whether every choice inside `node`, followed by `follow`, is decided by
/// the next code point; `Err` says which is not.
fn decided(node: &Node, follow: &CharSet) -> Result<(), String> {
    match node {
        Node::Empty | Node::Literal(_) | Node::Class(_) | Node::Start | Node::End => Ok(()),
        Node::Concat(nodes) => nodes.iter().zip(follows(nodes, follow)).try_for_each(|(n, f)| decided(n, &f)),
        Node::Alternation(branches) => {
            let after: Vec<CharSet> = branches.iter().map(|b| if transparent(&b.node) { first(&b.node).union(follow) } else { first(&b.node) }).collect();
            let mut before = CharSet::default();
            for (i, b) in branches.iter().enumerate() {
                if after[i].overlaps(&before) {
                    let a = branches.iter().zip(&after).find(|(_, set)| set.overlaps(&after[i])).map_or("", |(a, _)| a.text.as_str());
                    return Err(format!("`{a}` and `{}` can start alike", b.text));
                }
                before = before.union(&after[i]);
                decided(&b.node, follow)?;
            }
            Ok(())
        }
        Node::Group(inner) => decided(inner, follow),
        Node::Repeat { node: inner, min, max, text } => {
            if nullable(inner) {
                let ways = if *max == Some(1) { "can match the empty string in two ways" } else { "can repeat the empty string" };
                return Err(format!("`{text}` {ways}"));
            }
            if *max != Some(*min) && first(inner).overlaps(follow) {
                return Err(format!("`{text}` can stop or go on at the same character"));
            }
            let within = if *max == Some(1) { follow.clone() } else { first(inner).union(follow) };
            decided(inner, &within)
        }
    }
}

/// Whether the node can match the empty string (`^` and `$` match nothing).
pub(super) fn nullable(node: &Node) -> bool {
    match node {
        Node::Empty | Node::Start | Node::End => true,
        Node::Literal(_) | Node::Class(_) => false,
        Node::Concat(nodes) => nodes.iter().all(nullable),
        Node::Alternation(branches) => branches.iter().any(|b| nullable(&b.node)),
        Node::Group(inner) => nullable(inner),
        Node::Repeat { node, min, .. } => *min == 0 || nullable(node),
    }
}

/// Whether a try can pass the node without reading a code point or the
/// end of the string: [`nullable`] but for `$`, which reads the end.
pub(super) fn transparent(node: &Node) -> bool {
    match node {
        Node::Empty | Node::Start => true,
        Node::End | Node::Literal(_) | Node::Class(_) => false,
        Node::Concat(nodes) => nodes.iter().all(transparent),
        Node::Alternation(branches) => branches.iter().any(|b| transparent(&b.node)),
        Node::Group(inner) => transparent(inner),
        Node::Repeat { node, min, .. } => *min == 0 || transparent(node),
    }
}

/// The code points a match of the node can start with ([`END_OF_TEXT`] for
/// one that can start at `$`).
fn first(node: &Node) -> CharSet {
    match node {
        Node::Empty | Node::Start => CharSet::default(),
        Node::End => CharSet::of([(END_OF_TEXT, END_OF_TEXT)]),
        Node::Literal(c) => CharSet::of([(*c as u32, *c as u32)]),
        Node::Class(set) => set.clone(),
        Node::Concat(nodes) => {
            let mut out = CharSet::default();
            for n in nodes {
                out = out.union(&first(n));
                if !transparent(n) {
                    break;
                }
            }
            out
        }
        Node::Alternation(branches) => branches.iter().fold(CharSet::default(), |all, b| all.union(&first(&b.node))),
        Node::Group(inner) | Node::Repeat { node: inner, .. } => first(inner),
    }
}
