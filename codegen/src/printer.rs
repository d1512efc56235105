//! A Wadler-style document printer, shared by every target that must print
//! exactly what its language's formatter prints (issue 13): a target builds a
//! [`Doc`] (text, line breaks that may or may not break, groups that break as
//! a whole, indentation) and [`print`] lays it out within a width. The
//! algorithm is the one Prettier's `printDocToString` and prettyplease use:
//! a group is printed flat when everything up to the next possible line break
//! after it fits in the rest of the line, else broken; a hard line breaks
//! every group around it.
//!
//! ```
//! use codegen::printer::{print, Doc};
//! let call = Doc::group(Doc::concat([
//!     Doc::text("f("),
//!     Doc::indent(Doc::concat([Doc::softline(), Doc::join(Doc::concat([Doc::text(","), Doc::line()]), ["a", "b"].map(Doc::text))])),
//!     Doc::if_break(Doc::text(","), Doc::nil()),
//!     Doc::softline(),
//!     Doc::text(")"),
//! ]));
//! assert_eq!(print(&call, 80, 2), "f(a, b)");
//! assert_eq!(print(&call, 5, 2), "f(\n  a,\n  b,\n)");
//! ```

use std::rc::Rc;

/// A document: what to print, and where it may break.
///
/// A document shares its parts (`Rc`): cloning one is a pointer copy, so a
/// layout may put one part into several alternatives (the states of a
/// [`Doc::Conditional`]) without copying it. Nested alternatives that each
/// copied their parts would grow exponentially with the nesting (issue 36:
/// an array type nested 14 deep took gigabytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Doc {
    /// Text without a newline.
    Text(String),
    /// One after the other.
    Concat(Rc<[Doc]>),
    /// Printed flat if it fits, else broken; `broken` forces the break. A
    /// group with an `id` has its mode remembered for [`Doc::IndentIfBroken`].
    Group { contents: Rc<Doc>, broken: bool, id: Option<usize> },
    /// Prettier's `conditionalGroup`: the first state flat if it fits, else
    /// the first later state that fits up to its first line break (its own
    /// broken groups broken), else the last state broken.
    Conditional(Rc<[Doc]>),
    /// Indented one level more when the group `id` (printed before) broke.
    IndentIfBroken { group: usize, contents: Rc<Doc> },
    /// Lines broken inside are indented one level more.
    Indent(Rc<Doc>),
    /// Lines broken inside are indented by this many more spaces.
    Align(usize, Rc<Doc>),
    /// A line break: in a flat group, `flat` (a space or nothing) instead.
    Line { flat: &'static str, hard: bool },
    /// `broken` when the enclosing group is broken, `flat` when it is flat.
    IfBreak { broken: Rc<Doc>, flat: Rc<Doc> },
    /// Parts separated by lines, each line broken only when the next part
    /// does not fit (text wrapping): `[part, line, part, line, part]`.
    Fill(Rc<[Doc]>),
}

impl Doc {
    pub fn nil() -> Doc {
        Doc::Concat(Rc::new([]))
    }

    pub fn text(text: impl Into<String>) -> Doc {
        let text = text.into();
        debug_assert!(!text.contains('\n'), "Doc::text with a newline: {text:?}");
        Doc::Text(text)
    }

    pub fn concat(parts: impl IntoIterator<Item = Doc>) -> Doc {
        Doc::Concat(parts.into_iter().collect())
    }

    pub fn group(contents: Doc) -> Doc {
        Doc::Group { contents: Rc::new(contents), broken: false, id: None }
    }

    /// A group whose mode [`Doc::indent_if_broken`] can ask for.
    pub fn group_with_id(id: usize, contents: Doc) -> Doc {
        Doc::Group { contents: Rc::new(contents), broken: false, id: Some(id) }
    }

    pub fn indent_if_broken(group: usize, contents: Doc) -> Doc {
        Doc::IndentIfBroken { group, contents: Rc::new(contents) }
    }

    pub fn conditional(states: impl IntoIterator<Item = Doc>) -> Doc {
        Doc::Conditional(states.into_iter().collect())
    }

    /// A group that is always broken (its lines always break).
    pub fn broken_group(contents: Doc) -> Doc {
        Doc::Group { contents: Rc::new(contents), broken: true, id: None }
    }

    pub fn indent(contents: Doc) -> Doc {
        Doc::Indent(Rc::new(contents))
    }

    pub fn align(spaces: usize, contents: Doc) -> Doc {
        Doc::Align(spaces, Rc::new(contents))
    }

    /// A space when flat, a line break when broken.
    pub fn line() -> Doc {
        Doc::Line { flat: " ", hard: false }
    }

    /// Nothing when flat, a line break when broken.
    pub fn softline() -> Doc {
        Doc::Line { flat: "", hard: false }
    }

    /// Always a line break; breaks every enclosing group.
    pub fn hardline() -> Doc {
        Doc::Line { flat: "", hard: true }
    }

    pub fn if_break(broken: Doc, flat: Doc) -> Doc {
        Doc::IfBreak { broken: Rc::new(broken), flat: Rc::new(flat) }
    }

    pub fn fill(parts: impl IntoIterator<Item = Doc>) -> Doc {
        Doc::Fill(parts.into_iter().collect())
    }

    /// `items` with `separator` between each two.
    pub fn join(separator: Doc, items: impl IntoIterator<Item = Doc>) -> Doc {
        let mut parts = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                parts.push(separator.clone());
            }
            parts.push(item);
        }
        Doc::Concat(parts.into())
    }

    /// Whether printing this forces a break (it holds a hard line or a broken group).
    fn must_break(&self) -> bool {
        match self {
            Doc::Text(_) => false,
            Doc::Line { hard, .. } => *hard,
            Doc::Group { contents, broken, .. } => *broken || contents.must_break(),
            Doc::Conditional(states) => states.first().is_some_and(Doc::must_break),
            Doc::IndentIfBroken { contents, .. } => contents.must_break(),
            Doc::Concat(parts) | Doc::Fill(parts) => parts.iter().any(Doc::must_break),
            Doc::Indent(d) | Doc::Align(_, d) => d.must_break(),
            Doc::IfBreak { broken, flat } => broken.must_break() || flat.must_break(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flat,
    Break,
}

/// What is left to print: a document, or the rest of a fill's parts.
#[derive(Debug, Clone, Copy)]
enum Cmd<'a> {
    Doc(&'a Doc),
    Fill(&'a [Doc]),
}

type Item<'a> = (usize, Mode, Cmd<'a>);

/// Prints `doc` in lines of at most `width` columns where it can, with
/// `indent_width` spaces per [`Doc::Indent`]. Lines carry no trailing spaces.
pub fn print(doc: &Doc, width: usize, indent_width: usize) -> String {
    let mut out = String::new();
    let mut column = 0usize;
    let mut group_modes: std::collections::HashMap<usize, Mode> = std::collections::HashMap::new();
    // The last item is printed next.
    let mut stack: Vec<Item<'_>> = vec![(0, Mode::Break, Cmd::Doc(doc))];
    while let Some((ind, mode, cmd)) = stack.pop() {
        let doc = match cmd {
            Cmd::Doc(doc) => doc,
            Cmd::Fill(parts) => {
                fill(parts, ind, mode, width.saturating_sub(column), &mut stack);
                continue;
            }
        };
        match doc {
            Doc::Text(text) => {
                out.push_str(text);
                column += text.chars().count();
            }
            Doc::Concat(parts) => stack.extend(parts.iter().rev().map(|p| (ind, mode, Cmd::Doc(p)))),
            Doc::Indent(d) => stack.push((ind + indent_width, mode, Cmd::Doc(d))),
            Doc::Align(n, d) => stack.push((ind + n, mode, Cmd::Doc(d))),
            Doc::Group { contents, broken, id } => {
                let must_break = *broken || contents.must_break();
                let flat = !must_break
                    && (mode == Mode::Flat
                        || fits(&[(ind, Mode::Flat, Cmd::Doc(contents))], &stack, width.saturating_sub(column)));
                let chosen = if flat { Mode::Flat } else { Mode::Break };
                if let Some(id) = id {
                    group_modes.insert(*id, chosen);
                }
                stack.push((ind, chosen, Cmd::Doc(contents)));
            }
            Doc::Conditional(states) => {
                let remaining = width.saturating_sub(column);
                let Some(first) = states.first() else { continue };
                if mode == Mode::Flat || (!first.must_break() && fits(&[(ind, Mode::Flat, Cmd::Doc(first))], &stack, remaining)) {
                    stack.push((ind, Mode::Flat, Cmd::Doc(first)));
                    continue;
                }
                let chosen = states[1..].iter().find(|state| fits(&[(ind, Mode::Flat, Cmd::Doc(state))], &stack, remaining));
                match chosen {
                    Some(state) => stack.push((ind, Mode::Flat, Cmd::Doc(state))),
                    None => stack.push((ind, Mode::Break, Cmd::Doc(states.last().unwrap_or(first)))),
                }
            }
            Doc::IndentIfBroken { group, contents } => {
                let extra = if group_modes.get(group) == Some(&Mode::Break) { indent_width } else { 0 };
                stack.push((ind + extra, mode, Cmd::Doc(contents)));
            }
            Doc::IfBreak { broken, flat } => stack.push((ind, mode, Cmd::Doc(if mode == Mode::Break { broken } else { flat }))),
            Doc::Line { flat, hard } => {
                if mode == Mode::Flat && !*hard {
                    out.push_str(flat);
                    column += flat.len();
                } else {
                    newline(&mut out, ind);
                    column = ind;
                }
            }
            Doc::Fill(parts) => stack.push((ind, mode, Cmd::Fill(parts))),
        }
    }
    while out.ends_with(' ') {
        out.pop();
    }
    out
}

fn newline(out: &mut String, indent: usize) {
    while out.ends_with(' ') {
        out.pop();
    }
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', indent));
}

/// Schedules the first part of a fill, then the separator after it, flat
/// when the next part fits on the line too and broken otherwise, then the
/// rest of the fill. The last part must fit with what follows the fill up to
/// its next line break (google-java-format's `);` after the last argument).
fn fill<'a>(parts: &'a [Doc], ind: usize, mode: Mode, remaining: usize, stack: &mut Vec<Item<'a>>) {
    let Some((first, rest)) = parts.split_first() else { return };
    let first_mode = if fits(&[(ind, Mode::Flat, Cmd::Doc(first))], &[], remaining) { Mode::Flat } else { Mode::Break };
    let Some((separator, after)) = rest.split_first() else {
        stack.push((ind, first_mode, Cmd::Doc(first)));
        return;
    };
    let separator_mode = match after.first() {
        Some(next) => {
            let pair = [(ind, Mode::Flat, Cmd::Doc(first)), (ind, Mode::Flat, Cmd::Doc(separator)), (ind, Mode::Flat, Cmd::Doc(next))];
            let trailing: &[Item<'a>] = if after.len() == 1 { stack } else { &[] };
            if fits(&pair, trailing, remaining) {
                Mode::Flat
            } else {
                Mode::Break
            }
        }
        None => mode,
    };
    stack.push((ind, mode, Cmd::Fill(after)));
    stack.push((ind, separator_mode, Cmd::Doc(separator)));
    stack.push((ind, first_mode, Cmd::Doc(first)));
}

/// Whether `next` (then what is on `rest`, in its own modes, up to its first
/// line break in break mode) fits in `remaining` columns.
fn fits(next: &[Item<'_>], rest: &[Item<'_>], remaining: usize) -> bool {
    let mut remaining = remaining as isize;
    let mut todo: Vec<(Mode, Cmd<'_>)> = next.iter().rev().map(|(_, m, c)| (*m, *c)).collect();
    let mut rest_index = rest.len();
    loop {
        let (mode, cmd) = match todo.pop() {
            Some(item) => item,
            None => {
                if rest_index == 0 {
                    return true;
                }
                rest_index -= 1;
                (rest[rest_index].1, rest[rest_index].2)
            }
        };
        let doc = match cmd {
            Cmd::Doc(doc) => doc,
            Cmd::Fill(parts) => {
                todo.extend(parts.iter().rev().map(|p| (mode, Cmd::Doc(p))));
                continue;
            }
        };
        match doc {
            Doc::Text(text) => {
                remaining -= text.chars().count() as isize;
                if remaining < 0 {
                    return false;
                }
            }
            Doc::Concat(parts) | Doc::Fill(parts) => todo.extend(parts.iter().rev().map(|p| (mode, Cmd::Doc(p)))),
            Doc::Indent(d) | Doc::Align(_, d) => todo.push((mode, Cmd::Doc(d))),
            Doc::Group { contents, broken, .. } => {
                let mode = if *broken || contents.must_break() { Mode::Break } else { mode };
                todo.push((mode, Cmd::Doc(contents)));
            }
            Doc::Conditional(states) => {
                let state = if mode == Mode::Break { states.last() } else { states.first() };
                if let Some(state) = state {
                    todo.push((mode, Cmd::Doc(state)));
                }
            }
            Doc::IndentIfBroken { contents, .. } => todo.push((mode, Cmd::Doc(contents))),
            Doc::IfBreak { broken, flat } => todo.push((mode, Cmd::Doc(if mode == Mode::Break { broken } else { flat }))),
            Doc::Line { flat, hard } => {
                if mode == Mode::Break || *hard {
                    return true;
                }
                remaining -= flat.len() as isize;
                if remaining < 0 {
                    return false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(items: &[&str]) -> Doc {
        Doc::group(Doc::concat([
            Doc::text("call("),
            Doc::indent(Doc::concat([Doc::softline(), Doc::join(Doc::concat([Doc::text(","), Doc::line()]), items.iter().map(|i| Doc::text(*i)))])),
            Doc::if_break(Doc::text(","), Doc::nil()),
            Doc::softline(),
            Doc::text(");"),
        ]))
    }

    #[test]
    fn a_group_that_fits_is_flat_and_one_that_does_not_breaks_every_line() {
        assert_eq!(print(&args(&["a", "b"]), 80, 4), "call(a, b);");
        assert_eq!(print(&args(&["alpha", "beta"]), 12, 4), "call(\n    alpha,\n    beta,\n);");
        // Exactly at the width fits; one over does not.
        assert_eq!(print(&args(&["abc", "d"]), 13, 2), "call(abc, d);");
        assert_eq!(print(&args(&["abc", "de"]), 13, 2), "call(\n  abc,\n  de,\n);");
    }

    #[test]
    fn what_follows_a_group_up_to_the_next_break_counts_against_it() {
        let doc = Doc::concat([args(&["a"]), Doc::text(" // a trailing comment")]);
        assert_eq!(print(&doc, 20, 2), "call(\n  a,\n); // a trailing comment");
        let doc = Doc::concat([args(&["a"]), Doc::hardline(), Doc::text("next line is not counted")]);
        assert_eq!(print(&doc, 20, 2), "call(a);\nnext line is not counted");
    }

    #[test]
    fn a_hard_line_breaks_its_groups_and_lines_carry_no_trailing_spaces() {
        let doc = Doc::group(Doc::concat([Doc::text("{"), Doc::indent(Doc::concat([Doc::line(), Doc::text("x")])), Doc::hardline(), Doc::text("}")]));
        assert_eq!(print(&doc, 80, 4), "{\n    x\n}");
        let doc = Doc::concat([Doc::text("a "), Doc::hardline(), Doc::text("b")]);
        assert_eq!(print(&doc, 80, 4), "a\nb");
    }

    #[test]
    fn nested_groups_break_from_the_outside_in() {
        let inner = args(&["x", "y"]);
        let outer = Doc::group(Doc::concat([
            Doc::text("outer("),
            Doc::indent(Doc::concat([Doc::softline(), inner, Doc::text(","), Doc::line(), Doc::text("zzzz")])),
            Doc::softline(),
            Doc::text(")"),
        ]));
        assert_eq!(print(&outer, 80, 2), "outer(call(x, y);, zzzz)");
        assert_eq!(print(&outer, 20, 2), "outer(\n  call(x, y);,\n  zzzz\n)");
    }

    #[test]
    fn a_fill_wraps_like_text() {
        let words = "the quick brown fox jumps over the lazy dog".split(' ').map(Doc::text);
        let doc = Doc::concat([Doc::text("// "), Doc::align(3, Doc::fill(Doc::join(Doc::line(), words).into_parts()))]);
        assert_eq!(print(&doc, 16, 4), "// the quick\n   brown fox\n   jumps over\n   the lazy dog");
    }

    impl Doc {
        fn into_parts(self) -> Vec<Doc> {
            match self {
                Doc::Concat(parts) => parts.to_vec(),
                other => vec![other],
            }
        }
    }
}
