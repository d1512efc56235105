//! Layout: Python emitted exactly as `ruff format` (0.7, line length 88)
//! prints it, so the generated file is format-clean as written. The emitters
//! write each statement on one line, in the form a person would type before
//! running the formatter (a trailing comma where they want the brackets
//! broken: ruff's magic trailing comma); [`statement`] reads it back
//! ([`parse`]) and lays it out ([`doc`]) with the shared
//! [`crate::printer`], as ruff does.
//!
//! A line [`parse`] cannot read is returned as written; the conformance
//! build's `ruff format --check` over the committed file and every golden is
//! what proves no such line is ever too wide.

mod doc;
mod parse;

/// The line width `ruff format` uses by default.
pub const LINE_WIDTH: usize = 88;

/// An output buffer of lines.
#[derive(Default)]
pub struct Out {
    text: String,
}

impl Out {
    /// Appends one line (`line` may hold several `\n`-separated lines). A
    /// single statement wider than the line is laid out by [`statement`].
    pub fn line(&mut self, line: &str) {
        let text = line.trim_start_matches(' ');
        let wide = line.chars().count() > LINE_WIDTH && !line.contains('\n');
        if wide && !text.starts_with('#') && !text.starts_with("\"\"\"") {
            self.text.push_str(&statement(line.len() - text.len(), text));
        } else {
            self.text.push_str(line);
        }
        self.text.push('\n');
    }

    /// Appends `n` empty lines.
    pub fn blank(&mut self, n: usize) {
        for _ in 0..n {
            self.text.push('\n');
        }
    }

    /// Appends what `other` holds.
    pub fn append(&mut self, other: Out) {
        self.text.push_str(&other.text);
    }

    pub fn into_string(self) -> String {
        self.text
    }
}

/// Indentation of `level` blocks.
pub fn pad(indent: usize) -> String {
    " ".repeat(indent)
}

/// A Python string literal, quoted the way `ruff format` prefers (double
/// quotes unless single quotes need fewer escapes).
pub fn string(text: &str) -> String {
    let doubles = text.matches('"').count();
    let singles = text.matches('\'').count();
    let quote = if doubles > singles { '\'' } else { '"' };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// `flat` (one statement, without its indentation) at `indent` columns,
/// laid out as `ruff format` lays it out.
pub fn statement(indent: usize, flat: &str) -> String {
    // A line that fits stays as it is, unless a trailing comma keeps its
    // brackets broken (or a one-element tuple's comma looks like one).
    let magic = [",)", ",]", ",}"].iter().any(|comma| flat.contains(comma));
    if !magic && indent + flat.chars().count() <= LINE_WIDTH {
        return format!("{}{flat}", pad(indent));
    }
    match parse::statement(flat) {
        Some(stmt) => mark_too_long(doc::statement(indent, &stmt)),
        None => format!("{}{flat}", pad(indent)),
    }
}

/// `head` + the arguments + the closing bracket + `tail`, on one line.
pub fn flat(head: &str, args: &[String], tail: &str) -> String {
    let (_, close) = brackets(head);
    format!("{head}{}{close}{tail}", args.join(", "))
}

/// The same with a trailing comma after the last argument, which keeps the
/// brackets broken, one argument per line (ruff's magic trailing comma).
pub fn flat_exploded(head: &str, args: &[String], tail: &str) -> String {
    let (_, close) = brackets(head);
    if args.is_empty() {
        return format!("{head}{close}{tail}");
    }
    format!("{head}{},{close}{tail}", args.join(", "))
}

/// A collection literal on one line: with a magic trailing comma (so one
/// element per line) when it has two or more elements.
pub fn flat_collection(head: &str, items: &[String], tail: &str) -> String {
    let (open, close) = brackets(head);
    match items.len() {
        1 if open == '(' && is_sequence(head) => format!("{head}{},{close}{tail}", items[0]),
        0 | 1 => flat(head, items, tail),
        _ => flat_exploded(head, items, tail),
    }
}

/// `head(args)tail` at `indent`, as `ruff format` lays it out.
pub fn fit(indent: usize, head: &str, args: &[String], tail: &str) -> String {
    statement(indent, &flat(head, args, tail))
}

/// `head(args,)tail` at `indent`: one argument per line.
pub fn exploded(indent: usize, head: &str, args: &[String], tail: &str) -> String {
    statement(indent, &flat_exploded(head, args, tail))
}

/// A collection literal statement at `indent` (see [`flat_collection`]).
pub fn collection(indent: usize, head: &str, items: &[String], tail: &str) -> String {
    statement(indent, &flat_collection(head, items, tail))
}

fn brackets(head: &str) -> (char, char) {
    match head.chars().last() {
        Some('[') => ('[', ']'),
        Some('{') => ('{', '}'),
        _ => ('(', ')'),
    }
}

/// Whether `head` opens a parenthesized tuple rather than a call.
fn is_sequence(head: &str) -> bool {
    head == "(" || head.ends_with(" (") || head.ends_with("= (")
}

/// `lhs = "text"` at `indent`. A string too long for a line of its own is
/// written as the implicit concatenation of parts that each fit, broken after
/// a space, in parentheses (which `ruff format` keeps as they are); one
/// without a space to break at stays whole.
pub fn assign_string(indent: usize, lhs: &str, text: &str) -> String {
    let inner = pad(indent + 4);
    let literal = string(text);
    if inner.len() + literal.chars().count() <= LINE_WIDTH {
        return statement(indent, &format!("{lhs} = {literal}"));
    }
    let parts = string_parts(text, LINE_WIDTH - inner.len());
    if parts.len() < 2 {
        return statement(indent, &format!("{lhs} = {literal}"));
    }
    let lines: Vec<String> = parts.iter().map(|part| format!("{inner}{}", string(part))).collect();
    format!("{}{lhs} = (\n{}\n{})", pad(indent), lines.join("\n"), pad(indent))
}

/// `text` cut after spaces into parts whose literals fit in `width` columns
/// (a word longer than that is a part of its own).
fn string_parts(text: &str, width: usize) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split_inclusive(' ') {
        let candidate = format!("{current}{word}");
        if !current.is_empty() && string(&candidate).chars().count() > width {
            parts.push(std::mem::take(&mut current));
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

/// The comment ending a line that stays wider than the 120 columns of the
/// MCP Python SDK's ruff configuration (E501): one name or string literal
/// there is longer than any layout could make room for.
const TOO_LONG: &str = "  # noqa: E501 - a name or string no layout can shorten";

/// The longest line E501 accepts under the MCP Python SDK's configuration.
const LINT_WIDTH: usize = 120;

/// `text` with [`TOO_LONG`] after each line E501 reports: wider than
/// [`LINT_WIDTH`] and not one word (E501 lets a line without a space pass).
fn mark_too_long(text: String) -> String {
    let reported = |line: &str| line.chars().count() > LINT_WIDTH && line.trim_start().contains(' ');
    if !text.lines().any(reported) {
        return text;
    }
    text.lines()
        .map(|line| if reported(line) { format!("{line}{TOO_LONG}") } else { line.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::statement;

    #[test]
    fn a_line_that_fits_is_left_alone() {
        assert_eq!(statement(4, "return _read_x(value)"), "    return _read_x(value)");
    }

    // Each expected layout is what ruff 0.7.4 prints for the flat line.
    #[test]
    fn a_returned_call_splits_at_its_brackets_when_the_line_up_to_them_fits_else_takes_parentheses() {
        let name = "x".repeat(76);
        assert_eq!(statement(4, &format!("return {name}(arg_x)")), format!("    return {name}(\n        arg_x\n    )"));
        let name = "x".repeat(78);
        assert_eq!(statement(4, &format!("return {name}(arg_x)")), format!("    return (\n        {name}(\n            arg_x\n        )\n    )"));
        // Parentheses that do not make it fit are left out.
        let name = "x".repeat(80);
        assert_eq!(statement(4, &format!("return {name}(arg_x)")), format!("    return {name}(\n        arg_x\n    )"));
    }

    #[test]
    fn arguments_share_one_line_when_they_fit_else_one_per_line_with_a_trailing_comma() {
        let laid = statement(8, "raise DecodeError(error.message(\"AMapFromStringsToListsOfNonNegativeIntegersWithALongName\")) from None");
        assert_eq!(laid, "        raise DecodeError(\n            error.message(\"AMapFromStringsToListsOfNonNegativeIntegersWithALongName\")\n        ) from None");
        let laid = statement(0, "x = f(a_long_argument_name_number_one, a_long_argument_name_number_two, and_a_third_argument)");
        assert_eq!(laid, "x = f(\n    a_long_argument_name_number_one,\n    a_long_argument_name_number_two,\n    and_a_third_argument,\n)");
        assert_eq!(statement(0, "x = f(a, b,)"), "x = f(\n    a,\n    b,\n)");
    }

    #[test]
    fn an_annotation_splits_at_its_brackets_and_a_union_takes_parentheses() {
        let laid = statement(4, "the_innermost_list_of_lists_of_nullable_strings_with_a_long_name: list[list[str | None]]");
        assert_eq!(laid, "    the_innermost_list_of_lists_of_nullable_strings_with_a_long_name: list[\n        list[str | None]\n    ]");
        let laid = statement(4, "a_nullable_reference_to_the_deeply_nested_inner_object_type: TheDeeplyNestedInnerObjectType | None = None");
        assert_eq!(laid, "    a_nullable_reference_to_the_deeply_nested_inner_object_type: (\n        TheDeeplyNestedInnerObjectType | None\n    ) = None");
    }

    #[test]
    fn a_return_annotation_without_parameters_takes_parentheses_when_the_line_is_too_long() {
        let def = |n: usize| format!("def _{}_shape() -> _ObjectShape[Some{}]:", "x".repeat(n), "x".repeat(n));
        assert_eq!(statement(0, &def(25)), def(25));
        let (x, some) = ("x".repeat(30), format!("Some{}", "x".repeat(30)));
        assert_eq!(statement(0, &def(30)), format!("def _{x}_shape() -> (\n    _ObjectShape[{some}]\n):"));
        let (x, some) = ("x".repeat(70), format!("Some{}", "x".repeat(70)));
        assert_eq!(statement(0, &def(70)), format!("def _{x}_shape() -> (\n    _ObjectShape[\n        {some}\n    ]\n):"));
    }

    #[test]
    fn a_condition_breaks_before_its_operators_inside_parentheses() {
        let laid = statement(4, "if value.another_remarkably_long_optional_field_name_holding_a_map_of_lists is not None:");
        assert_eq!(laid, "    if (\n        value.another_remarkably_long_optional_field_name_holding_a_map_of_lists\n        is not None\n    ):");
    }

    #[test]
    fn a_line_it_cannot_read_is_returned_as_written() {
        let line = format!("class {}(typing.Generic[P]):", "X".repeat(90));
        assert_eq!(statement(0, &line), line);
    }
}
