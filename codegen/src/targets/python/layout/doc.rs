//! The document `ruff format` (0.7, Black's style) builds for a statement,
//! for the shared [`crate::printer`].
//!
//! Inside brackets every expression is a plain group: a call's or a
//! subscript's brackets break first, then the arguments one per line (with a
//! trailing comma when there are two or more); a literal's items break all at
//! once; boolean, comparison, binary and conditional expressions break before
//! each operator. A trailing comma in the source (the magic trailing comma)
//! keeps its brackets broken.
//!
//! At the top of a statement, ruff decides whether to add parentheses that
//! are not in the source ("optional parentheses"), by the kind of the
//! expression (`OptionalParentheses` in ruff's `expression/parentheses.rs`):
//! names, literals, and calls, subscripts and attributes of a name take the
//! *best fit* (flat; else split at their own last brackets when the line up
//! to the opening bracket fits; else parenthesized when that makes every line
//! fit; else split without parentheses); operator expressions are
//! parenthesized when they break, unless splitting at their own first or last
//! brackets keeps them in place (`can_omit_optional_parentheses`); literals
//! and comprehensions bring their own brackets. Assignments whose left side
//! can split (an annotation with brackets, a subscript target) try, in
//! order: one line, the value split at its own brackets, the value in
//! parentheses, the left side split (`FormatStatementsLastExpression`).

use super::parse::{flat, Expr, Items, Stmt};
use super::LINE_WIDTH;
use crate::printer::{print, Doc};

const INDENT: usize = 4;

/// `stmt` laid out at `indent` columns.
pub fn statement(indent: usize, stmt: &Stmt) -> String {
    let body = match stmt {
        // Without parameters to break, a return annotation too long for the
        // line is parenthesized (`def f() -> (`, the annotation, `):`), even
        // where the line up to its own brackets would fit.
        Stmt::Def(name, params, Some(returns)) if params.items.is_empty() => {
            let head = format!("def {name}() -> ");
            let body = doc(returns);
            let annotation = if !must_break(&body) && indent + width(&head) + width(&flat(returns)) + width(":") <= LINE_WIDTH { body } else { parenthesized(body) };
            Doc::concat([Doc::text(head), annotation, Doc::text(":")])
        }
        Stmt::Def(name, params, returns) => {
            let mut parts = vec![Doc::text(format!("def {name}")), bracketed("(", params, ")", Kind::Params)];
            // The return annotation stays on the line of the `)`: the
            // parameters break first.
            if let Some(returns) = returns {
                parts.push(Doc::text(format!(" -> {}", flat(returns))));
            }
            parts.push(Doc::text(":"));
            Doc::concat(parts)
        }
        Stmt::Keyword(keyword, value, colon) => {
            let tail = if *colon { ":" } else { "" };
            left_to_right(indent, &format!("{keyword} "), value, tail)
        }
        Stmt::Raise(value, cause) => {
            let mut parts = vec![Doc::text("raise "), optional(indent, "raise ", value)];
            if let Some(cause) = cause {
                parts.push(Doc::text(" from "));
                parts.push(doc(cause));
            }
            Doc::concat(parts)
        }
        Stmt::AnnAssign(target, annotation, None) => left_to_right(indent, &format!("{}: ", flat(target)), annotation, ""),
        Stmt::AnnAssign(target, annotation, Some(value)) if splittable(annotation) => {
            right_to_left(indent, &format!("{}: ", flat(target)), annotation, value)
        }
        Stmt::AnnAssign(target, annotation, Some(value)) => {
            left_to_right(indent, &format!("{}: {} = ", flat(target), flat(annotation)), value, "")
        }
        Stmt::Assign(target, value) if own_brackets(target) => right_to_left(indent, "", target, value),
        Stmt::Assign(target, value) => left_to_right(indent, &format!("{} = ", flat(target)), value, ""),
        Stmt::AddAssign(target, value) => left_to_right(indent, &format!("{} += ", flat(target)), value, ""),
        Stmt::Expr(value) => doc(value),
    };
    render(indent, body)
}

fn render(indent: usize, body: Doc) -> String {
    print(&Doc::concat([Doc::text(" ".repeat(indent)), Doc::align(indent, body)]), LINE_WIDTH, INDENT)
}

/// Whether every line of `doc` at `indent` fits.
fn all_lines_fit(indent: usize, doc: Doc) -> bool {
    render(indent, doc).lines().all(|line| line.chars().count() <= LINE_WIDTH)
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// How ruff parenthesizes an expression at the top of a statement.
#[derive(PartialEq)]
enum Optional {
    /// Parenthesize only if that makes it fit (names, literals, calls of names).
    BestFit,
    /// Parenthesize when it breaks (operators).
    Multiline,
    /// It brings its own brackets.
    Never,
}

fn optional_kind(expr: &Expr) -> Optional {
    match expr {
        Expr::Atom(_) => Optional::BestFit,
        Expr::Attr(value, _) | Expr::Call(value, _) | Expr::Subscript(value, _) => match optional_kind(value) {
            Optional::Multiline => Optional::Multiline,
            _ if matches!(**value, Expr::Paren(_)) => Optional::Never,
            other => other,
        },
        Expr::Paren(_) | Expr::Tuple(_) | Expr::List(_) | Expr::Dict(_) | Expr::Comp(..) => Optional::Never,
        _ => Optional::Multiline,
    }
}

/// Whether the expression has brackets of its own (ruff's `has_own_parentheses`).
fn own_brackets(expr: &Expr) -> bool {
    match expr {
        Expr::Call(_, items) | Expr::Subscript(_, items) | Expr::Tuple(items) | Expr::List(items) | Expr::Dict(items) => {
            !items.items.is_empty()
        }
        Expr::Comp(..) | Expr::Paren(_) => true,
        _ => false,
    }
}

/// ruff's `is_splittable_expression` (for an annotation before `=`).
fn splittable(expr: &Expr) -> bool {
    match expr {
        Expr::Atom(_) | Expr::Param(..) | Expr::Keyword(..) | Expr::Entry(..) => false,
        Expr::Attr(value, _) => splittable(value),
        Expr::Unary(_, value) => splittable(value),
        Expr::Call(_, items) | Expr::Tuple(items) | Expr::List(items) | Expr::Dict(items) => !items.items.is_empty(),
        _ => true,
    }
}

/// `head value tail` where the value may take optional parentheses
/// (`return`, `if`, the value of a plain assignment): ruff's
/// `maybe_parenthesize_expression(value, Parenthesize::IfBreaks)`.
fn left_to_right(indent: usize, head: &str, value: &Expr, tail: &str) -> Doc {
    let inner = match optional_kind(value) {
        Optional::Never => doc(value),
        Optional::Multiline => multiline(indent, head, value),
        Optional::BestFit => best_fit(indent, head, value, tail),
    };
    Doc::concat([Doc::text(head), inner, Doc::text(tail)])
}

/// `raise value`: ruff's `Parenthesize::Optional`, which never adds
/// parentheses to a best-fit expression.
fn optional(indent: usize, head: &str, value: &Expr) -> Doc {
    match optional_kind(value) {
        Optional::Multiline => multiline(indent, head, value),
        _ => doc(value),
    }
}

fn best_fit(indent: usize, head: &str, value: &Expr, tail: &str) -> Doc {
    let body = doc(value);
    let start = indent + width(head);
    if !must_break(&body) && start + width(&flat(value)) + width(tail) <= LINE_WIDTH {
        return body;
    }
    // Split at its own brackets when the line up to them fits.
    if let Some(prefix) = up_to_first_bracket(value) {
        if start + width(&prefix) <= LINE_WIDTH {
            return body;
        }
    }
    // Parenthesized, if every line fits with every group broken.
    if start + "(".len() <= LINE_WIDTH
        && indent + ")".len() + width(tail) <= LINE_WIDTH
        && all_lines_fit(indent + INDENT, expand_all(&body))
    {
        return parenthesized(body);
    }
    body
}

/// `(`, the contents on their own indented lines, `)`.
fn parenthesized(body: Doc) -> Doc {
    Doc::concat([Doc::text("("), Doc::indent(Doc::concat([Doc::hardline(), body])), Doc::hardline(), Doc::text(")")])
}

/// An operator expression at the top of a statement: ruff's
/// `optional_parentheses` when `can_omit_optional_parentheses`, else
/// `parenthesize_if_expands`.
fn multiline(indent: usize, head: &str, value: &Expr) -> Doc {
    if can_omit_parentheses(value) {
        let start = indent + width(head);
        let fits = match up_to_first_bracket(value) {
            Some(prefix) => start + width(&prefix) <= LINE_WIDTH,
            None => start + width(&flat(value)) <= LINE_WIDTH,
        };
        if fits {
            return top_flat(value);
        }
        return parenthesized(doc(value));
    }
    Doc::group(Doc::concat([
        Doc::if_break(Doc::text("("), Doc::nil()),
        Doc::indent(Doc::concat([Doc::softline(), doc(value)])),
        Doc::softline(),
        Doc::if_break(Doc::text(")"), Doc::nil()),
    ]))
}

/// The expression with its own operators kept on the line (the optional
/// parentheses are not there to break them); its brackets still break.
fn top_flat(expr: &Expr) -> Doc {
    let space = || Doc::text(" ");
    match expr {
        Expr::Bool(op, values) => operator_chain(values.iter().map(doc), values.iter().skip(1).map(|_| *op), space),
        Expr::Binary(operands, operators) => operator_chain(operands.iter().map(doc), operators.iter().copied(), space),
        Expr::Compare(left, rest) => {
            operator_chain(std::iter::once(doc(left)).chain(rest.iter().map(|(_, r)| doc(r))), rest.iter().map(|(op, _)| *op), space)
        }
        Expr::IfElse(body, test, orelse) => Doc::concat([doc(body), Doc::text(" if "), doc(test), Doc::text(" else "), doc(orelse)]),
        _ => doc(expr),
    }
}

/// `before = value` where `before` can split too (an annotation with
/// brackets, a subscript target): ruff's `RightToLeft` layout.
fn right_to_left(indent: usize, head: &str, before: &Expr, value: &Expr) -> Doc {
    let before_doc = if own_brackets(before) {
        doc(before)
    } else if can_omit_parentheses(before) {
        top_flat(before)
    } else {
        Doc::group(Doc::concat([
            Doc::if_break(Doc::text("("), Doc::nil()),
            Doc::indent(Doc::concat([Doc::softline(), doc(before)])),
            Doc::softline(),
            Doc::if_break(Doc::text(")"), Doc::nil()),
        ]))
    };
    let left = format!("{head}{} = ", flat(before));
    let best_fitting = match value {
        Expr::Atom(_) => true,
        Expr::Call(..) | Expr::Subscript(..) | Expr::Attr(..) => optional_kind(value) == Optional::BestFit,
        _ => false,
    };
    if !best_fitting {
        let value_doc = match optional_kind(value) {
            Optional::Multiline => multiline(indent, &left, value),
            _ => doc(value),
        };
        return Doc::concat([Doc::text(head), before_doc, Doc::text(" = "), value_doc]);
    }
    let start = indent + width(&left);
    let body = doc(value);
    if !must_break(&body) && start + width(&flat(value)) <= LINE_WIDTH {
        return Doc::concat([Doc::text(left), body]);
    }
    if matches!(value, Expr::Call(..) | Expr::Subscript(..)) {
        if let Some(prefix) = up_to_first_bracket(value) {
            if start + width(&prefix) <= LINE_WIDTH {
                return Doc::concat([Doc::text(left), doc_broken(value)]);
            }
        }
    }
    if start + "(".len() <= LINE_WIDTH {
        return Doc::concat([Doc::text(left), parenthesized(body)]);
    }
    Doc::concat([Doc::text(head), before_doc, Doc::text(" = "), body])
}

/// The expression's text up to and including the first bracket it can break
/// at (a call's, a subscript's or a literal's), if it has one.
fn up_to_first_bracket(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Call(callee, items) | Expr::Subscript(callee, items) => {
            if let Some(prefix) = up_to_first_bracket(callee) {
                return Some(prefix);
            }
            let open = if matches!(expr, Expr::Call(..)) { "(" } else { "[" };
            (!items.items.is_empty()).then(|| format!("{}{open}", flat(callee)))
        }
        Expr::Attr(value, _) => up_to_first_bracket(value),
        Expr::Tuple(items) | Expr::List(items) | Expr::Dict(items) if !items.items.is_empty() => {
            Some(flat(expr)[..1].to_string())
        }
        Expr::Comp(open, ..) => Some(open.to_string()),
        Expr::Paren(_) => Some("(".to_string()),
        Expr::Bool(op, values) => chain_prefix(values.iter().enumerate().map(|(i, v)| (if i == 0 { "" } else { op }, v))),
        Expr::Binary(operands, operators) => {
            chain_prefix(operands.iter().enumerate().map(|(i, v)| (if i == 0 { "" } else { operators[i - 1] }, v)))
        }
        Expr::Compare(left, rest) => {
            let mut text = String::new();
            if let Some(prefix) = up_to_first_bracket(left) {
                return Some(prefix);
            }
            text.push_str(&flat(left));
            for (op, right) in rest {
                text.push_str(&format!(" {op} "));
                if let Some(prefix) = up_to_first_bracket(right) {
                    return Some(text + &prefix);
                }
                text.push_str(&flat(right));
            }
            None
        }
        Expr::Unary(op, value) => up_to_first_bracket(value).map(|p| format!("{op}{p}")),
        Expr::IfElse(body, test, orelse) => {
            if let Some(prefix) = up_to_first_bracket(body) {
                return Some(prefix);
            }
            let mut text = format!("{} if ", flat(body));
            if let Some(prefix) = up_to_first_bracket(test) {
                return Some(text + &prefix);
            }
            text.push_str(&format!("{} else ", flat(test)));
            up_to_first_bracket(orelse).map(|prefix| text + &prefix)
        }
        Expr::Lambda(..) | Expr::Atom(_) | Expr::Entry(..) | Expr::Keyword(..) | Expr::Param(..) | Expr::Star(..) => {
            None
        }
        Expr::Tuple(_) | Expr::List(_) | Expr::Dict(_) => None,
    }
}

/// The flat text of an operator chain (each operand after its operator) up
/// to the first bracket of an operand.
fn chain_prefix<'a>(operands: impl Iterator<Item = (&'a str, &'a Expr)>) -> Option<String> {
    let mut text = String::new();
    for (op, operand) in operands {
        if !op.is_empty() {
            text.push_str(&format!(" {op} "));
        }
        if let Some(prefix) = up_to_first_bracket(operand) {
            return Some(text + &prefix);
        }
        text.push_str(&flat(operand));
    }
    None
}

/// ruff's `can_omit_optional_parentheses`: the expression keeps its place
/// without parentheses when it has at most one operator of its highest
/// precedence and starts or ends with brackets of its own.
fn can_omit_parentheses(expr: &Expr) -> bool {
    let mut visitor = Visitor::default();
    visitor.subexpression(expr);
    if !visitor.any_brackets || visitor.max_count > 1 {
        return false;
    }
    if visitor.max <= Precedence::Attribute {
        return true;
    }
    let bracketed = |e: &Expr| !matches!(e, Expr::Subscript(..)) && own_brackets(e);
    visitor.last.is_some_and(bracketed) || visitor.first.flatten().is_some_and(bracketed)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
enum Precedence {
    #[default]
    None,
    Attribute,
    Exponential,
    Multiplicative,
    Additive,
    BitwiseOr,
    Comparator,
    Boolean,
    Conditional,
}

#[derive(Default)]
struct Visitor<'a> {
    max: Precedence,
    max_count: u32,
    any_brackets: bool,
    last: Option<&'a Expr>,
    /// `Some(None)`: the expression starts with a token (`not`, `lambda`).
    first: Option<Option<&'a Expr>>,
}

impl<'a> Visitor<'a> {
    fn update(&mut self, precedence: Precedence, count: u32) {
        match self.max.cmp(&precedence) {
            std::cmp::Ordering::Less => {
                self.max = precedence;
                self.max_count = count;
            }
            std::cmp::Ordering::Equal => self.max_count += count,
            std::cmp::Ordering::Greater => {}
        }
    }

    fn expr(&mut self, expr: &'a Expr) {
        self.last = Some(expr);
        if matches!(expr, Expr::Paren(_)) {
            self.any_brackets = true;
        } else {
            self.subexpression(expr);
        }
        if self.first.is_none() {
            self.first = Some(Some(expr));
        }
    }

    fn subexpression(&mut self, expr: &'a Expr) {
        match expr {
            Expr::List(_) | Expr::Dict(_) | Expr::Comp(..) | Expr::Tuple(_) | Expr::Paren(_) => self.any_brackets = true,
            Expr::Bool(_, values) => {
                self.update(Precedence::Boolean, values.len().saturating_sub(1) as u32);
                values.iter().for_each(|v| self.expr(v));
            }
            Expr::Binary(operands, operators) => {
                for op in operators {
                    self.update(
                        match *op {
                            "|" => Precedence::BitwiseOr,
                            "+" | "-" => Precedence::Additive,
                            "**" => Precedence::Exponential,
                            _ => Precedence::Multiplicative,
                        },
                        1,
                    );
                }
                operands.iter().for_each(|o| self.expr(o));
            }
            Expr::IfElse(body, test, orelse) => {
                self.update(Precedence::Conditional, 2);
                self.expr(body);
                self.expr(test);
                self.expr(orelse);
            }
            Expr::Compare(left, rest) => {
                self.update(Precedence::Comparator, rest.len() as u32);
                self.expr(left);
                rest.iter().for_each(|(_, r)| self.expr(r));
            }
            Expr::Call(callee, _) | Expr::Subscript(callee, _) => {
                self.any_brackets = true;
                self.expr(callee);
                self.last = Some(expr);
            }
            Expr::Attr(value, _) => {
                self.expr(value);
                if own_brackets(value) {
                    self.update(Precedence::Attribute, 1);
                }
                self.last = Some(expr);
            }
            Expr::Unary(_, value) | Expr::Star(_, value) => {
                if self.first.is_none() {
                    self.first = Some(None);
                }
                self.expr(value);
            }
            Expr::Lambda(_, body) => {
                if self.first.is_none() {
                    self.first = Some(None);
                }
                self.expr(body);
            }
            Expr::Atom(_) | Expr::Entry(..) | Expr::Keyword(..) | Expr::Param(..) => {}
        }
    }
}

/// Which brackets: a call's or subscript's (the items on one line of their
/// own when they fit), a `def`'s (the same, but a lone parameter gets a
/// trailing comma too), or a literal's (its items break all at once).
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Call,
    Params,
    Literal,
}

fn bracketed(open: &str, items: &Items, close: &str, kind: Kind) -> Doc {
    bracketed_as(open, items, close, kind, false)
}

fn bracketed_as(open: &str, items: &Items, close: &str, kind: Kind, force: bool) -> Doc {
    if items.items.is_empty() {
        return Doc::text(format!("{open}{close}"));
    }
    let separator = || Doc::concat([Doc::text(","), Doc::line()]);
    let joined = Doc::join(separator(), items.items.iter().map(doc));
    let magic = items.trailing_comma;
    let group = |contents: Doc, broken: bool| if broken { Doc::broken_group(contents) } else { Doc::group(contents) };
    let comma = Doc::if_break(Doc::text(","), Doc::nil());
    let inner = match kind {
        Kind::Call if items.items.len() > 1 || magic => group(Doc::concat([joined, comma]), magic),
        Kind::Call => joined,
        Kind::Params if items.items.len() > 1 => group(Doc::concat([joined, comma]), magic),
        Kind::Params | Kind::Literal => Doc::concat([joined, comma]),
    };
    group(
        Doc::concat([Doc::text(open), Doc::indent(Doc::concat([Doc::softline(), inner])), Doc::softline(), Doc::text(close)]),
        magic || force,
    )
}

/// The expression with its outermost brackets broken.
fn doc_broken(expr: &Expr) -> Doc {
    match expr {
        Expr::Call(callee, items) => Doc::concat([doc(callee), bracketed_as("(", items, ")", Kind::Call, true)]),
        Expr::Subscript(value, items) => Doc::concat([doc(value), bracketed_as("[", items, "]", Kind::Call, true)]),
        _ => doc(expr),
    }
}

/// The expression inside brackets (or laid out by its own brackets).
pub fn doc(expr: &Expr) -> Doc {
    match expr {
        Expr::Atom(text) => Doc::text(text.clone()),
        Expr::Attr(value, name) => Doc::concat([doc(value), Doc::text(format!(".{name}"))]),
        Expr::Call(callee, items) => Doc::concat([doc(callee), bracketed("(", items, ")", Kind::Call)]),
        Expr::Subscript(value, items) => Doc::concat([doc(value), bracketed("[", items, "]", Kind::Call)]),
        Expr::Paren(inner) => Doc::group(Doc::concat([
            Doc::text("("),
            Doc::indent(Doc::concat([Doc::softline(), doc(inner)])),
            Doc::softline(),
            Doc::text(")"),
        ])),
        Expr::Tuple(items) if items.items.len() == 1 && !items.trailing_comma => {
            Doc::concat([Doc::text("("), doc(&items.items[0]), Doc::text(",)")])
        }
        Expr::Tuple(items) if items.items.len() == 1 => Doc::group(Doc::concat([
            Doc::text("("),
            Doc::indent(Doc::concat([Doc::softline(), doc(&items.items[0]), Doc::text(",")])),
            Doc::softline(),
            Doc::text(")"),
        ])),
        Expr::Tuple(items) => bracketed("(", items, ")", Kind::Literal),
        Expr::List(items) => bracketed("[", items, "]", Kind::Literal),
        Expr::Dict(items) => bracketed("{", items, "}", Kind::Literal),
        Expr::Comp(open, elt, target, iter, close) => Doc::group(Doc::concat([
            Doc::text(*open),
            Doc::indent(Doc::concat([
                Doc::softline(),
                doc(elt),
                Doc::line(),
                Doc::text(format!("for {target} in ")),
                doc(iter),
            ])),
            Doc::softline(),
            Doc::text(*close),
        ])),
        Expr::Entry(key, value) => Doc::concat([doc(key), Doc::text(": "), doc(value)]),
        Expr::Keyword(name, value) => Doc::concat([Doc::text(format!("{name}=")), doc(value)]),
        Expr::Param(name, annotation, default) => {
            let mut parts = vec![Doc::text(format!("{name}: ")), doc(annotation)];
            if let Some(default) = default {
                parts.push(Doc::text(" = "));
                parts.push(doc(default));
            }
            Doc::concat(parts)
        }
        Expr::Star(star, value) => Doc::concat([Doc::text(*star), doc(value)]),
        Expr::Bool(op, values) => {
            Doc::group(operator_chain(values.iter().map(doc), values.iter().skip(1).map(|_| *op), Doc::line))
        }
        Expr::Binary(operands, operators) => {
            Doc::group(operator_chain(operands.iter().map(doc), operators.iter().copied(), Doc::line))
        }
        Expr::Compare(left, rest) => Doc::group(operator_chain(
            std::iter::once(doc(left)).chain(rest.iter().map(|(_, r)| doc(r))),
            rest.iter().map(|(op, _)| *op),
            Doc::line,
        )),
        Expr::Unary(op, value) => Doc::concat([Doc::text(*op), doc(value)]),
        Expr::IfElse(body, test, orelse) => Doc::group(Doc::concat([
            doc(body),
            Doc::line(),
            Doc::text("if "),
            doc(test),
            Doc::line(),
            Doc::text("else "),
            doc(orelse),
        ])),
        Expr::Lambda(params, body) if params.is_empty() => Doc::concat([Doc::text("lambda: "), doc(body)]),
        Expr::Lambda(params, body) => Doc::concat([Doc::text(format!("lambda {params}: ")), doc(body)]),
    }
}

/// `a op b op c` with `separator` before each operator.
fn operator_chain(
    operands: impl Iterator<Item = Doc>,
    operators: impl Iterator<Item = &'static str>,
    separator: impl Fn() -> Doc,
) -> Doc {
    let mut operands = operands;
    let mut parts: Vec<Doc> = operands.next().into_iter().collect();
    for (op, operand) in operators.zip(operands) {
        parts.push(separator());
        parts.push(Doc::text(format!("{op} ")));
        parts.push(operand);
    }
    Doc::concat(parts)
}

/// Whether printing `doc` forces a line break.
fn must_break(doc: &Doc) -> bool {
    match doc {
        Doc::Text(_) => false,
        Doc::Line { hard, .. } => *hard,
        Doc::Group { contents, broken, .. } => *broken || must_break(contents),
        Doc::Conditional(states) => states.first().is_some_and(must_break),
        Doc::Concat(parts) | Doc::Fill(parts) => parts.iter().any(must_break),
        Doc::Indent(d) | Doc::Align(_, d) | Doc::IndentIfBroken { contents: d, .. } => must_break(d),
        Doc::IfBreak { broken, flat } => must_break(broken) || must_break(flat),
    }
}

/// `doc` with every group broken.
fn expand_all(doc: &Doc) -> Doc {
    match doc {
        Doc::Group { contents, id, .. } => Doc::Group { contents: std::rc::Rc::new(expand_all(contents)), broken: true, id: *id },
        Doc::Concat(parts) => Doc::Concat(parts.iter().map(expand_all).collect()),
        Doc::Fill(parts) => Doc::Fill(parts.iter().map(expand_all).collect()),
        Doc::Conditional(states) => states.last().map(expand_all).unwrap_or_else(Doc::nil),
        Doc::Indent(d) => Doc::indent(expand_all(d)),
        Doc::Align(n, d) => Doc::align(*n, expand_all(d)),
        Doc::IndentIfBroken { group, contents } => Doc::indent_if_broken(*group, expand_all(contents)),
        Doc::IfBreak { broken, flat } => Doc::if_break(expand_all(broken), expand_all(flat)),
        Doc::Text(_) | Doc::Line { .. } => doc.clone(),
    }
}
