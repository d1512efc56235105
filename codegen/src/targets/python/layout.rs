//! Layout: Python emitted exactly as `ruff format` lays it out, so the
//! generated file is format-clean as written: string literals and the
//! one-line / hugged / exploded forms of calls and collections.

/// The line width `ruff format` uses by default.
pub const LINE_WIDTH: usize = 88;

/// An output buffer of lines.
#[derive(Default)]
pub struct Out {
    text: String,
}

impl Out {
    /// Appends one line (`line` may hold several `\n`-separated lines).
    pub fn line(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// Appends `n` empty lines.
    pub fn blank(&mut self, n: usize) {
        for _ in 0..n {
            self.text.push('\n');
        }
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

/// `head(args)tail` as `ruff format` lays it out: on one line when it fits,
/// else the arguments on one indented line, else one argument per line with a
/// trailing comma.
pub fn fit(indent: usize, head: &str, args: &[String], tail: &str) -> String {
    let prefix = pad(indent);
    let (open, close) = brackets(head);
    let joined = args.join(", ");
    let one = format!("{prefix}{head}{joined}{close}{tail}");
    if one.chars().count() <= LINE_WIDTH {
        return one;
    }
    let inner = pad(indent + 4);
    let hugged = format!("{inner}{joined}");
    if args.len() > 1 && hugged.chars().count() <= LINE_WIDTH && !(open == '(' && is_sequence(head)) {
        return format!("{prefix}{head}\n{hugged}\n{prefix}{close}{tail}");
    }
    exploded(indent, head, args, tail)
}

/// `head` + one element per line, with a trailing comma (kept by `ruff format`).
pub fn exploded(indent: usize, head: &str, args: &[String], tail: &str) -> String {
    let prefix = pad(indent);
    let (_, close) = brackets(head);
    if args.is_empty() {
        return format!("{prefix}{head}{close}{tail}");
    }
    let inner = pad(indent + 4);
    let mut out = format!("{prefix}{head}\n");
    for arg in args {
        out.push_str(&format!("{inner}{arg},\n"));
    }
    out.push_str(&format!("{prefix}{close}{tail}"));
    out
}

/// A collection literal: exploded (with the magic trailing comma) when it has
/// two or more elements, else on one line.
pub fn collection(indent: usize, head: &str, items: &[String], tail: &str) -> String {
    let (open, close) = brackets(head);
    match items.len() {
        0 => format!("{}{head}{close}{tail}", pad(indent)),
        1 if open == '(' && is_sequence(head) => {
            let one = format!("{}{head}{},{close}{tail}", pad(indent), items[0]);
            if one.contains('\n') || one.chars().count() > LINE_WIDTH {
                exploded(indent, head, items, tail)
            } else {
                one
            }
        }
        1 => fit(indent, head, items, tail),
        _ => exploded(indent, head, items, tail),
    }
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

/// `lhs = rhs` for an atom `rhs`: parenthesized on its own line when too long,
/// as `ruff format` does when that makes it fit.
pub fn assign_atom(indent: usize, lhs: &str, rhs: &str) -> String {
    let prefix = pad(indent);
    let one = format!("{prefix}{lhs} = {rhs}");
    let inner = format!("{prefix}    {rhs}");
    if one.chars().count() <= LINE_WIDTH || inner.chars().count() > LINE_WIDTH {
        return one;
    }
    format!("{prefix}{lhs} = (\n{inner}\n{prefix})")
}
