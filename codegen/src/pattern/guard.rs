//! Refuses the repetitions a backtracking engine (Python, JavaScript, Java,
//! .NET) can take exponential time on, so that no frame can stall a decoder.
//! Such time comes from a repeated expression that can consume the same text
//! in more than one way. So inside a repeated expression (any quantifier
//! allowing more than one repetition) nothing may match the empty string,
//! and every choice must be decided by the next code point: the branches of
//! an alternation start with different code points, and a nested repetition
//! (or `?`) never starts with a code point that can also follow it, within
//! the loop (`^[a-z]+(?:-[a-z]+)*$` is accepted: `-` decides; `(a+)+` and
//! `(\w+\s?)*` are refused). What remains is at worst polynomial in the
//! string's length, which a `maxLength` bounds (docs/targets.md).

use super::{CharSet, Node, PatternError};

pub(super) fn check(node: &Node) -> Result<(), PatternError> {
    loops(node, &CharSet::default())
}

/// Finds every repetition, with the code points that can follow it.
fn loops(node: &Node, follow: &CharSet) -> Result<(), PatternError> {
    match node {
        Node::Empty | Node::Literal(_) | Node::Class(_) | Node::Start | Node::End => Ok(()),
        Node::Concat(nodes) => {
            for (i, n) in nodes.iter().enumerate() {
                loops(n, &follow_of(&nodes[i + 1..], follow))?;
            }
            Ok(())
        }
        Node::Alternation(branches) => branches.iter().try_for_each(|b| loops(&b.node, follow)),
        Node::Group(inner) => loops(inner, follow),
        Node::Repeat { node: inner, max, text, .. } => {
            if *max == Some(1) {
                return loops(inner, follow);
            }
            let shown = text;
            if nullable(inner) {
                return Err(refuse(format!("`{shown}` repeats something that can match the empty string, which backtracking engines can take exponential time on")));
            }
            let within = first(inner).union(follow);
            decided(inner, &within).map_err(|choice| {
                refuse(format!(
                    "`{shown}` can consume the same text in more than one way ({choice}): backtracking engines (Python, JavaScript, Java, .NET) can take exponential time on it"
                ))
            })
        }
    }
}

fn refuse(problem: String) -> PatternError {
    PatternError {
        offset: None,
        problem,
        fix: "make each choice inside the repetition decided by the next character, e.g. `(\\w+\\s?)*` becomes `\\w+(?:\\s\\w+)*`; or check the shape in the binary and describe it".to_string(),
    }
}

/// The code points that can follow `rest` and then `follow`.
fn follow_of(rest: &[Node], follow: &CharSet) -> CharSet {
    let mut out = CharSet::default();
    for n in rest {
        out = out.union(&first(n));
        if !nullable(n) {
            return out;
        }
    }
    out.union(follow)
}

/// Whether every choice inside `node`, followed by `follow`, is decided by
/// the next code point; `Err` says which is not.
fn decided(node: &Node, follow: &CharSet) -> Result<(), String> {
    match node {
        Node::Empty | Node::Literal(_) | Node::Class(_) | Node::Start | Node::End => Ok(()),
        Node::Concat(nodes) => {
            for (i, n) in nodes.iter().enumerate() {
                decided(n, &follow_of(&nodes[i + 1..], follow))?;
            }
            Ok(())
        }
        Node::Alternation(branches) => {
            let after = |x: &Node| if nullable(x) { first(x).union(follow) } else { first(x) };
            for (i, a) in branches.iter().enumerate() {
                for b in &branches[i + 1..] {
                    if after(&a.node).overlaps(&after(&b.node)) {
                        return Err(format!("`{}` and `{}` can start alike", a.text, b.text));
                    }
                }
                decided(&a.node, follow)?;
            }
            Ok(())
        }
        Node::Group(inner) => decided(inner, follow),
        Node::Repeat { node: inner, min, max, text } => {
            if nullable(inner) {
                return Err(format!("`{text}` can repeat the empty string"));
            }
            if *max != Some(*min) && first(inner).overlaps(follow) {
                return Err(format!("`{text}` can stop or go on at the same character"));
            }
            let within = if *max == Some(1) { follow.clone() } else { first(inner).union(follow) };
            decided(inner, &within)
        }
    }
}

/// Whether the node can match the empty string.
fn nullable(node: &Node) -> bool {
    match node {
        Node::Empty | Node::Start | Node::End => true,
        Node::Literal(_) | Node::Class(_) => false,
        Node::Concat(nodes) => nodes.iter().all(nullable),
        Node::Alternation(branches) => branches.iter().any(|b| nullable(&b.node)),
        Node::Group(inner) => nullable(inner),
        Node::Repeat { node, min, .. } => *min == 0 || nullable(node),
    }
}

/// The code points a match of the node can start with.
fn first(node: &Node) -> CharSet {
    match node {
        Node::Empty | Node::Start | Node::End => CharSet::default(),
        Node::Literal(c) => CharSet::of([(*c as u32, *c as u32)]),
        Node::Class(set) => set.clone(),
        Node::Concat(nodes) => {
            let mut out = CharSet::default();
            for n in nodes {
                out = out.union(&first(n));
                if !nullable(n) {
                    break;
                }
            }
            out
        }
        Node::Alternation(branches) => branches.iter().fold(CharSet::default(), |all, b| all.union(&first(&b.node))),
        Node::Group(inner) | Node::Repeat { node: inner, .. } => first(inner),
    }
}
