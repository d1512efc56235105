//! Line fitting for Java statements, as google-java-format (`--aosp`: four
//! spaces per block, eight per continuation) lays them out. The emitters write
//! every statement on one line; a line wider than 100 columns is read back
//! here (only the subset of Java the emitters write: calls, `new`, member
//! chains, method references, lambdas, binary and conditional expressions,
//! `return`/`throw`, declarations and assignments, `if` heads, switch rules,
//! method, record and sealed-interface headers) and printed with the shared
//! printer ([`crate::printer`]) from the document google-java-format builds
//! for it (`JavaInputAstVisitor`): a call breaks after `(` with its arguments
//! eight columns in, on one line if they fit there and else one per line; a
//! binary expression breaks before every operator of its precedence; a
//! conditional before `?` and `:`; an initializer or an assigned value after
//! `=`; a lambda after `->`; a switch rule after `->`; a record header before
//! `implements`, a sealed interface before `extends` and `permits` as each
//! needs. A line outside the subset is left as written; the conformance
//! build's google-java-format check is what shows none is left too wide.

mod code;

pub use code::Code;

use crate::printer::{print, Doc};

/// google-java-format's column limit.
pub const WIDTH: usize = 100;

/// AOSP's continuation indent.
const CONTINUATION: usize = 8;

/// `line` (without indentation) laid out at `indent` columns, when it is one
/// statement or header of the subset; `None` otherwise.
pub fn layout(indent: usize, line: &str) -> Option<String> {
    // google-java-format's last pass (`StringWrapper`) splits a string
    // literal left on a line past the limit into a concatenation; the file
    // it writes is formatted again by the next run, so what is written here
    // is the fixed point: laid out, strings wrapped, read back, again, until
    // nothing changes.
    let printed = print_statement(indent, line)?;
    let mut text = wrap_long_strings(&printed)?;
    if text == printed {
        return Some(text);
    }
    for _ in 0..4 {
        let next = wrap_long_strings(&print_statement(indent, &one_line(&text))?)?;
        if next == text {
            break;
        }
        text = next;
    }
    Some(text)
}

fn print_statement(indent: usize, line: &str) -> Option<String> {
    let tokens = tokenize(line)?;
    let mut parser = Parser { line, tokens: &tokens, at: 0, ids: 0, indent };
    let doc = parser.statement()?;
    let doc = Doc::concat([Doc::text(" ".repeat(indent)), Doc::align(indent, doc)]);
    Some(print(&doc, WIDTH, CONTINUATION))
}

/// A laid-out statement back on one line (without its indentation).
fn one_line(text: &str) -> String {
    let mut out = String::new();
    for line in text.split('\n').map(str::trim) {
        let tight = out.is_empty()
            || out.ends_with('(')
            || out.ends_with('[')
            || [")", "]", ".", "::", ",", ";"].iter().any(|p| line.starts_with(p));
        if !tight {
            out.push(' ');
        }
        out.push_str(line);
    }
    out
}

/// StringWrapper: every run of string literals joined by `+` that has a
/// literal on a line ending past the limit is reflowed as one text, from the
/// column of its first literal: split before blanks, the first piece as wide
/// as fits (less what follows the run on its line when the rest fits), the
/// others on lines of their own starting `+ "`, four columns in from the run
/// (two columns back when the run is not the first operand of its
/// concatenation).
fn wrap_long_strings(text: &str) -> Option<String> {
    if text.split('\n').all(|line| line.len() <= WIDTH) {
        return Some(text.to_string());
    }
    struct Lit {
        start: usize,
        end: usize,
        column: usize,
        line: usize,
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut tokens: Vec<(Token, usize, usize)> = Vec::new(); // token (absolute offsets), column, line
    let mut offset = 0;
    for (n, line) in lines.iter().enumerate() {
        for t in tokenize(line)? {
            let column = t.start;
            let absolute = Token { start: t.start + offset, end: t.end + offset, ..t };
            tokens.push((absolute, column, n));
        }
        offset += line.len() + 1;
    }
    let is_string = |t: &Token| t.kind == Kind::Literal && t.text.starts_with('"');
    let mut replacements: Vec<(usize, usize, String)> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if !is_string(&tokens[i].0) {
            i += 1;
            continue;
        }
        // The run of literals joined by `+`.
        let mut run = vec![i];
        while let (Some(plus), Some(next)) = (tokens.get(run[run.len() - 1] + 1), tokens.get(run[run.len() - 1] + 2)) {
            if plus.0.text == "+" && is_string(&next.0) {
                run.push(run[run.len() - 1] + 2);
            } else {
                break;
            }
        }
        let last = run[run.len() - 1];
        i = last + 1;
        let selected = tokens.get(last + 1).is_some_and(|t| t.0.text == ".");
        let long = run.iter().any(|&k| lines[tokens[k].2].len() > WIDTH);
        if selected || !long {
            continue;
        }
        let literals: Vec<Lit> = run.iter().map(|&k| Lit { start: tokens[k].0.start, end: tokens[k].0.end, column: tokens[k].1, line: tokens[k].2 }).collect();
        let first_in_chain = run[0] == 0 || tokens[run[0] - 1].0.text != "+";
        let body: String = literals.iter().map(|l| &text[l.start + 1..l.end - 1]).collect();
        let (head, tail) = (&literals[0], &literals[literals.len() - 1]);
        let trailing = lines[tail.line].len() - (tail.column + (tail.end - tail.start));
        let pieces = reflow(&body, head.column, trailing, first_in_chain);
        let indent = if first_in_chain { head.column + 4 } else { head.column.saturating_sub(2) };
        let joiner = format!("\"\n{}+ \"", " ".repeat(indent));
        replacements.push((head.start, tail.end, format!("\"{}\"", pieces.join(&joiner))));
    }
    let mut out = text.to_string();
    for (start, end, with) in replacements.into_iter().rev() {
        out.replace_range(start..end, &with);
    }
    Some(out)
}

/// StringWrapper.reflow: the pieces `body` (a literal without its quotes)
/// at `column` is split into.
fn reflow(body: &str, column: usize, trailing: usize, first_in_chain: bool) -> Vec<String> {
    // The words: each blank (or `\t`, or run of `\n`/`\r` escapes) starts a new one.
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let escape = |at: usize| -> usize {
            let mut n = 0;
            while body[at + n..].starts_with("\\r") || body[at + n..].starts_with("\\n") {
                n += 2;
            }
            n
        };
        let starts = bytes[i] == b' ' || body[i..].starts_with("\\t") || escape(i) > 0;
        if starts && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        let step = if bytes[i] == b'\\' { if escape(i) > 0 { escape(i) } else { 2 } } else { 1 };
        let step = step.min(bytes.len() - i);
        word.push_str(&body[i..i + step]);
        i += step;
    }
    if !word.is_empty() {
        words.push(word);
    }
    let mut width = WIDTH as isize - column as isize - 2;
    let mut lines: Vec<String> = Vec::new();
    let mut first = first_in_chain;
    let mut rest = words.as_slice();
    while !rest.is_empty() {
        let total: usize = rest.iter().map(String::len).sum();
        if total as isize <= width {
            width -= trailing as isize;
        }
        let mut length = 0usize;
        let mut line = String::new();
        while let Some((next, after)) = rest.split_first() {
            if !(length <= 4 || (length + next.len()) as isize <= width) {
                break;
            }
            line.push_str(next);
            length += next.len();
            rest = after;
            if next.ends_with("\\n") || next.ends_with("\\r") {
                break;
            }
        }
        lines.push(line);
        if first {
            width -= 6;
            first = false;
        }
    }
    lines
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Word,
    Literal,
    Punct,
}

#[derive(Debug, Clone)]
struct Token {
    kind: Kind,
    text: String,
    start: usize,
    end: usize,
}

const PUNCTS: &[&str] = &[
    "->", "::", "==", "!=", "<=", ">=", "&&", "||", "+=", "(", ")", "[", "]", "{", "}", ",", ";", ".", "=", "<", ">", "+", "-",
    "*", "/", "%", "!", "?", ":", "&", "|", "^", "@",
];

fn tokenize(line: &str) -> Option<Vec<Token>> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b' ' {
            i += 1;
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_digit() {
            // A number literal, one token: `0L`, `-273.15` after its `-`,
            // `1.5e-7`, `0x1.b1ae4d6e2ef5p69` (an exponent's sign included).
            let hex = line[i..].starts_with("0x") || line[i..].starts_with("0X");
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.') {
                let exponent = if hex { matches!(bytes[i], b'p' | b'P') } else { matches!(bytes[i], b'e' | b'E') };
                i += 1;
                if exponent && i < bytes.len() && matches!(bytes[i], b'+' | b'-') {
                    i += 1;
                }
            }
            Kind::Word
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$') {
                i += 1;
            }
            Kind::Word
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            if i > bytes.len() {
                return None;
            }
            Kind::Literal
        } else {
            let punct = PUNCTS.iter().find(|p| line[i..].starts_with(**p))?;
            i += punct.len();
            Kind::Punct
        };
        out.push(Token { kind, text: line[start..i].to_string(), start, end: i });
    }
    Some(out)
}

/// An expression, as far as its layout goes.
enum Expr {
    /// Printed as written.
    Atom(String),
    /// `callee(args)`: `callee` (`f`, `a.b().c`, `new T<>`) is printed as written.
    Call { callee: String, args: Vec<Expr> },
    /// Operands joined by operators of one precedence.
    Binary { first: Box<Expr>, rest: Vec<(String, Expr)> },
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    Lambda { params: String, body: Box<Expr> },
    /// `a.b`, `A::b`: no call on the way; breaks before each `.` or `::`.
    Select { first: String, rest: Vec<String> },
}

struct Parser<'a> {
    line: &'a str,
    tokens: &'a [Token],
    at: usize,
    /// The next group id (for the breaks whose indent depends on another's).
    ids: usize,
    /// The column the statement starts at.
    indent: usize,
}

/// Binary operators by precedence, loosest first.
const PRECEDENCE: &[&[&str]] = &[&["||"], &["&&"], &["|"], &["^"], &["&"], &["==", "!="], &["<", ">", "<=", ">=", "instanceof"], &["+", "-"], &["*", "/", "%"]];

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.at)
    }

    fn peek_is(&self, text: &str) -> bool {
        self.peek().is_some_and(|t| t.text == text)
    }

    fn nth_is(&self, n: usize, text: &str) -> bool {
        self.tokens.get(self.at + n).is_some_and(|t| t.text == text)
    }

    fn eat(&mut self, text: &str) -> Option<()> {
        if self.peek_is(text) {
            self.at += 1;
            Some(())
        } else {
            None
        }
    }

    /// The source text from token `from` up to (not including) the current one.
    fn slice(&self, from: usize) -> String {
        let start = self.tokens[from].start;
        let end = self.tokens[self.at - 1].end;
        self.line[start..end].to_string()
    }

    fn next_id(&mut self) -> usize {
        self.ids += 1;
        self.ids
    }

    fn at_end(&self) -> bool {
        self.at == self.tokens.len()
    }

    /// A statement or a header, the whole line.
    fn statement(&mut self) -> Option<Doc> {
        let first = self.peek()?.text.clone();
        let last = self.tokens.last()?.text.clone();
        if last == "{" || (last == "}" && self.tokens.len() > 1 && self.tokens[self.tokens.len() - 2].text == "{") {
            if first == "if" {
                return self.if_head("if (");
            }
            if first == "}" && self.nth_is(1, "else") && self.nth_is(2, "if") {
                self.at = 3;
                return self.if_head("} else if (");
            }
            return self.header();
        }
        let doc = self.simple()?;
        self.at_end().then_some(doc)
    }

    /// `if (condition) {`, after the words before `(`.
    fn if_head(&mut self, head: &str) -> Option<Doc> {
        if head == "if (" {
            self.at = 1;
        }
        self.eat("(")?;
        let condition = self.expr()?;
        self.eat(")")?;
        self.eat("{")?;
        self.at_end().then(|| Doc::concat([Doc::text(head), condition.doc(), Doc::text(") {")]))
    }

    /// `return e;`, `throw e;`, `case x -> s`, `default -> s`, `lhs = e;`, `e;`.
    fn simple(&mut self) -> Option<Doc> {
        let first = self.peek()?.text.clone();
        if first == "return" || first == "throw" || first == "yield" {
            self.at += 1;
            let value = self.expr()?;
            self.eat(";")?;
            return Some(Doc::concat([Doc::text(format!("{first} ")), value.doc(), Doc::text(";")]));
        }
        if first == "case" || first == "default" {
            let from = self.at;
            while !self.peek_is("->") {
                self.peek()?;
                self.at += 1;
            }
            let label = self.slice(from);
            self.at += 1;
            let body = self.simple()?;
            return Some(Doc::group(Doc::concat([Doc::text(format!("{label} ->")), Doc::indent(Doc::concat([Doc::line(), body]))])));
        }
        // A declaration or an assignment: `=` outside any brackets.
        let mut depth = 0i32;
        let mut assign = None;
        for (i, t) in self.tokens.iter().enumerate().skip(self.at) {
            match t.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "=" if depth == 0 => {
                    assign = Some(i);
                    break;
                }
                _ => {}
            }
        }
        if let Some(equals) = assign {
            let lhs = self.line[self.tokens[self.at].start..self.tokens[equals - 1].end].to_string();
            let declares = equals >= self.at + 2
                && self.tokens[equals - 1].kind == Kind::Word
                && (self.tokens[equals - 2].kind == Kind::Word || [">", "]"].contains(&self.tokens[equals - 2].text.as_str()));
            let from = self.at;
            self.at = equals + 1;
            let value = self.expr()?;
            self.eat(";")?;
            if declares {
                // A declaration: the name moves to the next line only if
                // `name =` does not fit after the type (an INDEPENDENT break),
                // and then the value's break goes eight columns further in.
                let ty = self.line[self.tokens[from].start..self.tokens[equals - 2].end].to_string();
                let name = &self.tokens[equals - 1].text;
                let id = self.next_id();
                return Some(Doc::concat([
                    Doc::text(ty),
                    Doc::indent(Doc::group_with_id(id, Doc::concat([Doc::line(), Doc::text(format!("{name} ="))]))),
                    Doc::indent(Doc::indent_if_broken(id, Doc::group(Doc::concat([Doc::line(), value.doc()])))),
                    Doc::text(";"),
                ]));
            }
            return Some(Doc::group(Doc::concat([
                Doc::text(format!("{lhs} =")),
                Doc::indent(Doc::concat([Doc::line(), value.doc()])),
                Doc::text(";"),
            ])));
        }
        let value = self.expr()?;
        // `;` ends a statement, `,` an enum constant that is not the last.
        let end = if self.eat(";").is_some() { ";" } else { self.eat(",").map(|_| ",")? };
        Some(Doc::concat([value.doc(), Doc::text(end)]))
    }

    /// A method, record or sealed-interface header ending in `{` (or `{}`).
    fn header(&mut self) -> Option<Doc> {
        let tokens = self.tokens;
        let words: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
        let brace = if words.last() == Some(&"}") { " {}" } else { " {" };
        let body_at = words.len() - if brace == " {}" { 2 } else { 1 };
        if words.contains(&"interface") {
            return self.interface_header(body_at, brace);
        }
        let open = words.iter().position(|w| *w == "(")?;
        let close = matching(tokens, open)?;
        let params: Vec<(String, String)> = split_top_level(self.line, &tokens[open + 1..close])
            .into_iter()
            .map(|p| match p.rsplit_once(' ') {
                Some((ty, name)) => (ty.to_string(), name.to_string()),
                None => (String::new(), p),
            })
            .collect();
        let tail = if close + 1 < body_at { self.line[tokens[close + 1].start..tokens[body_at - 1].end].to_string() } else { String::new() };
        // The name is the word before `(`, with its type parameters (`RequestOf<P>`).
        let mut name_at = open.checked_sub(1)?;
        if tokens[name_at].text == ">" {
            name_at = tokens[..name_at].iter().rposition(|t| t.text == "<")?.checked_sub(1)?;
        }
        let name_start = tokens[name_at].start;
        let header = Header { start: self.indent, before_name: self.line[..name_start].trim_end(), name: &self.line[name_start..tokens[open].start], params, tail: &tail, brace };
        Some(if words.contains(&"record") { header.record() } else { header.method() })
    }

    /// `... interface Name<T> extends A permits B, C {`.
    fn interface_header(&self, body_at: usize, brace: &str) -> Option<Doc> {
        let tokens = self.tokens;
        let find = |word: &str| tokens[..body_at].iter().position(|t| t.text == word);
        let extends = find("extends");
        let permits = find("permits");
        let name_end = extends.or(permits).unwrap_or(body_at);
        let mut parts = vec![Doc::text(self.line[..tokens[name_end - 1].end].to_string())];
        if let Some(e) = extends {
            let end = permits.unwrap_or(body_at);
            parts.push(Doc::line());
            parts.push(Doc::text(self.line[tokens[e].start..tokens[end - 1].end].to_string()));
        }
        if let Some(p) = permits {
            let names = split_top_level(self.line, &tokens[p + 1..body_at]);
            parts.push(Doc::line());
            parts.push(Doc::concat([
                Doc::text("permits "),
                Doc::indent(Doc::group(Doc::join(Doc::concat([Doc::text(","), Doc::line()]), names.into_iter().map(Doc::text)))),
            ]));
        }
        let head = parts.remove(0);
        Some(Doc::concat([head, Doc::indent(Doc::fill(std::iter::once(Doc::nil()).chain(parts))), Doc::text(brace)]))
    }

    fn expr(&mut self) -> Option<Expr> {
        // A lambda: `x ->` or `(a, b) ->`.
        let from = self.at;
        if self.peek()?.kind == Kind::Word && self.nth_is(1, "->") {
            self.at += 2;
            return self.lambda_body(from);
        }
        if self.peek_is("(") {
            let mut n = 1;
            while self.tokens.get(self.at + n).is_some_and(|t| t.kind == Kind::Word || t.text == ",") {
                n += 1;
            }
            if self.nth_is(n, ")") && self.nth_is(n + 1, "->") {
                self.at += n + 2;
                return self.lambda_body(from);
            }
        }
        let condition = self.binary(0)?;
        if self.eat("?").is_none() {
            return Some(condition);
        }
        let yes = self.expr()?;
        self.eat(":")?;
        let no = self.expr()?;
        Some(Expr::Conditional(Box::new(condition), Box::new(yes), Box::new(no)))
    }

    fn lambda_body(&mut self, from: usize) -> Option<Expr> {
        let params = {
            let arrow = self.at - 1;
            self.line[self.tokens[from].start..self.tokens[arrow - 1].end].to_string()
        };
        let body = self.expr()?;
        Some(Expr::Lambda { params, body: Box::new(body) })
    }

    fn binary(&mut self, level: usize) -> Option<Expr> {
        if level == PRECEDENCE.len() {
            return self.unary();
        }
        let first = self.binary(level + 1)?;
        let mut rest = Vec::new();
        while let Some(op) = self.peek().filter(|t| PRECEDENCE[level].contains(&t.text.as_str())) {
            let op = op.text.clone();
            self.at += 1;
            let operand = if op == "instanceof" { self.type_pattern()? } else { self.binary(level + 1)? };
            rest.push((op, operand));
        }
        if rest.is_empty() {
            Some(first)
        } else {
            Some(Expr::Binary { first: Box::new(first), rest })
        }
    }

    /// The type (and binding) after `instanceof`, as written.
    fn type_pattern(&mut self) -> Option<Expr> {
        let from = self.at;
        while self.peek().is_some_and(|t| t.kind == Kind::Word || [".", "<", ">", ","].contains(&t.text.as_str())) {
            self.at += 1;
        }
        (self.at > from).then(|| Expr::Atom(self.slice(from)))
    }

    fn unary(&mut self) -> Option<Expr> {
        let from = self.at;
        if self.peek_is("!") || self.peek_is("-") {
            self.at += 1;
            self.unary()?;
            return Some(Expr::Atom(self.slice(from)));
        }
        // A cast: `(Type) operand`.
        if self.peek_is("(") && self.tokens.get(self.at + 1).is_some_and(|t| t.kind == Kind::Word && t.text.starts_with(|c: char| c.is_ascii_uppercase())) {
            let mut n = 1;
            while self.tokens.get(self.at + n).is_some_and(|t| t.kind == Kind::Word || [".", "<", ">", "?", ","].contains(&t.text.as_str())) {
                n += 1;
            }
            let after = self.tokens.get(self.at + n + 1);
            if self.nth_is(n, ")") && after.is_some_and(|t| t.kind != Kind::Punct || t.text == "(") {
                self.at += n + 1;
                self.unary()?;
                return Some(Expr::Atom(self.slice(from)));
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Option<Expr> {
        let from = self.at;
        let token = self.peek()?;
        match (&token.kind, token.text.as_str()) {
            (Kind::Word, "new") => {
                self.at += 1;
                self.type_pattern()?;
                if !self.peek_is("(") {
                    return None;
                }
            }
            (Kind::Word, "switch") => return None,
            (Kind::Word, _) | (Kind::Literal, _) => self.at += 1,
            (Kind::Punct, "(") => {
                self.at += 1;
                self.expr()?;
                self.eat(")")?;
            }
            _ => return None,
        }
        let mut last: Option<Expr> = None;
        let head = self.slice(from);
        let mut selects: Option<Vec<String>> = Some(Vec::new());
        loop {
            if self.peek_is(".") || self.peek_is("::") {
                let op = self.peek()?.text.clone();
                self.at += 1;
                let name = self.peek()?;
                if name.kind != Kind::Word {
                    return None;
                }
                if let Some(s) = selects.as_mut() {
                    s.push(format!("{op}{}", name.text));
                }
                self.at += 1;
                last = None;
            } else if self.peek_is("(") {
                let callee = self.slice(from);
                self.at += 1;
                let mut args = Vec::new();
                if self.eat(")").is_none() {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(",").is_some() {
                            continue;
                        }
                        self.eat(")")?;
                        break;
                    }
                }
                last = Some(Expr::Call { callee, args });
                selects = None;
            } else if self.peek_is("[") {
                self.at += 1;
                self.expr()?;
                self.eat("]")?;
                last = None;
                selects = None;
            } else {
                break;
            }
        }
        if let Some(rest) = selects.filter(|s| !s.is_empty() && last.is_none()) {
            if self.tokens[from].kind == Kind::Word && self.tokens[from].text != "new" {
                return Some(Expr::Select { first: head, rest });
            }
        }
        Some(last.unwrap_or_else(|| Expr::Atom(self.slice(from))))
    }
}

/// A method or record header, laid out by hand: google-java-format's breaks
/// here are INDEPENDENT (taken only when what follows up to the next break
/// does not fit) and the one after the parameters is also taken when they
/// did not fit on their line ("break after, too"), which the printer's groups
/// do not express. Returned as a [`Doc`] of text and hard lines.
struct Header<'h> {
    start: usize,
    before_name: &'h str,
    name: &'h str,
    params: Vec<(String, String)>,
    tail: &'h str,
    brace: &'h str,
}

impl Header<'_> {
    fn params_flat(&self) -> String {
        let params: Vec<String> = self.params.iter().map(|(t, n)| if t.is_empty() { n.clone() } else { format!("{t} {n}") }).collect();
        params.join(", ")
    }

    /// `Type name` parameters from `column` (the line's indent is `indent`):
    /// on one line if they fit with the `after` columns that follow them, else one per line, each breaking before its
    /// name when the name does not fit after its type.
    fn formals(&self, lines: &mut Vec<String>, column: &mut usize, indent: usize, after: usize) {
        let flat = self.params_flat();
        if *column + flat.len() + after <= WIDTH {
            push(lines, column, &flat);
            return;
        }
        for (i, (ty, name)) in self.params.iter().enumerate() {
            if i > 0 {
                push(lines, column, ",");
                newline(lines, column, indent);
            }
            push(lines, column, ty);
            if *column + 1 + name.len() > WIDTH {
                newline(lines, column, indent + CONTINUATION);
            } else {
                push(lines, column, " ");
            }
            push(lines, column, name);
        }
    }

    /// `mods Type name(params) throws X {` (JavaInputAstVisitor.visitMethod).
    fn method(&self) -> Doc {
        let flat = format!("{} {}({}){}", self.before_name, self.name, self.params_flat(), tail_text(self.tail));
        let mut lines = vec![String::new()];
        let mut column = self.start;
        if self.start + flat.len() + self.brace.len() <= WIDTH {
            push(&mut lines, &mut column, &flat);
            push(&mut lines, &mut column, self.brace);
            return hard_lines(self.start, lines);
        }
        push(&mut lines, &mut column, self.before_name);
        let mut base = self.start;
        if column + 1 + self.name.len() + 1 > WIDTH {
            base = self.start + CONTINUATION;
            newline(&mut lines, &mut column, base);
        } else {
            push(&mut lines, &mut column, " ");
        }
        push(&mut lines, &mut column, &format!("{}(", self.name));
        let mut room = true;
        if !self.params.is_empty() {
            let flat = self.params_flat();
            let after = if self.tail.is_empty() { self.brace.len() } else { 0 };
            if column + flat.len() + 1 + after > WIDTH {
                newline(&mut lines, &mut column, base + CONTINUATION);
            }
            room = column + flat.len() < WIDTH; // `)` fits too
            self.formals(&mut lines, &mut column, base + CONTINUATION, 1 + after);
        }
        push(&mut lines, &mut column, ")");
        if !self.tail.is_empty() {
            if !room || column + 1 + self.tail.len() + self.brace.len() > WIDTH {
                newline(&mut lines, &mut column, base + CONTINUATION);
            } else {
                push(&mut lines, &mut column, " ");
            }
            push(&mut lines, &mut column, self.tail);
        }
        push(&mut lines, &mut column, self.brace);
        hard_lines(self.start, lines)
    }

    /// `mods record Name(components) implements X {`
    /// (JavaInputAstVisitor.visitRecordDeclaration).
    fn record(&self) -> Doc {
        let head = format!("{} {}", self.before_name, self.name);
        let level = format!("({}){}", self.params_flat(), tail_text(self.tail));
        let mut lines = vec![String::new()];
        let mut column = self.start;
        if self.start + head.len() + level.len() + self.brace.len() <= WIDTH {
            push(&mut lines, &mut column, &format!("{head}{level}{}", self.brace));
            return hard_lines(self.start, lines);
        }
        push(&mut lines, &mut column, &format!("{head}("));
        let mut room = true;
        if !self.params.is_empty() {
            let flat = self.params_flat();
            let after = if self.tail.is_empty() { self.brace.len() } else { 0 };
            if column + flat.len() + 1 + after > WIDTH {
                newline(&mut lines, &mut column, self.start + CONTINUATION);
            }
            room = column + flat.len() < WIDTH; // `)` fits too
            self.formals(&mut lines, &mut column, self.start + CONTINUATION, 1 + after);
        }
        push(&mut lines, &mut column, ")");
        if !self.tail.is_empty() {
            if !room || column + 1 + self.tail.len() + self.brace.len() > WIDTH {
                newline(&mut lines, &mut column, self.start + CONTINUATION);
            } else {
                push(&mut lines, &mut column, " ");
            }
            push(&mut lines, &mut column, self.tail);
        }
        push(&mut lines, &mut column, self.brace);
        hard_lines(self.start, lines)
    }
}

fn tail_text(tail: &str) -> String {
    if tail.is_empty() {
        String::new()
    } else {
        format!(" {tail}")
    }
}

fn push(lines: &mut [String], column: &mut usize, text: &str) {
    if let Some(line) = lines.last_mut() {
        line.push_str(text);
    }
    *column += text.len();
}

fn newline(lines: &mut Vec<String>, column: &mut usize, indent: usize) {
    lines.push(" ".repeat(indent));
    *column = indent;
}

/// Lines already laid out (indented absolutely; the first starts at
/// `start`), as a document printed at `start`.
fn hard_lines(start: usize, lines: Vec<String>) -> Doc {
    let mut parts = Vec::new();
    for (i, line) in lines.into_iter().enumerate() {
        let text = Doc::text(line.trim_start().to_string());
        if i == 0 {
            parts.push(text);
        } else {
            let indent = line.len() - line.trim_start().len();
            parts.push(Doc::align(indent.saturating_sub(start), Doc::concat([Doc::hardline(), text])));
        }
    }
    Doc::concat(parts)
}

/// The index of the `)` that closes the `(` at `open`.
fn matching(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match t.text.as_str() {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The comma-separated parts of `tokens` (commas inside `()` or `<>` kept),
/// each as written.
fn split_top_level(line: &str, tokens: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start: Option<usize> = None;
    let mut end = 0;
    for t in tokens {
        match t.text.as_str() {
            "(" | "<" => depth += 1,
            ")" | ">" => depth -= 1,
            "," if depth == 0 => {
                if let Some(s) = start.take() {
                    out.push(line[s..end].to_string());
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(t.start);
        end = t.end;
    }
    if let Some(s) = start {
        out.push(line[s..end].to_string());
    }
    out
}

/// Items separated by `,` and a line: on one line if they fit, else one per
/// line, or, when every item is shorter than ten columns
/// (`MAX_ITEM_LENGTH_FOR_FILLING`), as many per line as fit.
fn items<'e>(items: impl Iterator<Item = (&'static str, &'e Expr)>) -> Doc {
    let items: Vec<(&str, &Expr)> = items.collect();
    if items.iter().all(|(_, e)| e.is_short()) {
        let mut parts = Vec::new();
        for (i, (_, e)) in items.iter().enumerate() {
            if i > 0 {
                parts.push(Doc::line());
            }
            let comma = if i + 1 < items.len() { "," } else { "" };
            parts.push(Doc::concat([e.doc(), Doc::text(comma)]));
        }
        return Doc::fill(parts);
    }
    Doc::group(Doc::join(Doc::concat([Doc::text(","), Doc::line()]), items.iter().map(|(_, e)| e.doc())))
}

impl Expr {
    /// Written on one line, this is shorter than ten columns.
    fn is_short(&self) -> bool {
        self.flat().len() < 10
    }

    /// The expression written on one line.
    fn flat(&self) -> String {
        match self {
            Expr::Atom(text) => text.clone(),
            Expr::Call { callee, args } => {
                format!("{callee}({})", args.iter().map(Expr::flat).collect::<Vec<_>>().join(", "))
            }
            Expr::Binary { first, rest } => {
                let mut out = first.flat();
                for (op, e) in rest {
                    out.push_str(&format!(" {op} {}", e.flat()));
                }
                out
            }
            Expr::Conditional(c, y, n) => format!("{} ? {} : {}", c.flat(), y.flat(), n.flat()),
            Expr::Lambda { params, body } => format!("{params} -> {}", body.flat()),
            Expr::Select { first, rest } => format!("{first}{}", rest.concat()),
        }
    }

    fn doc(&self) -> Doc {
        match self {
            Expr::Atom(text) => Doc::text(text.clone()),
            Expr::Call { callee, args } if args.is_empty() => Doc::text(format!("{callee}()")),
            Expr::Call { callee, args } => Doc::group(Doc::concat([
                Doc::text(format!("{callee}(")),
                Doc::indent(Doc::concat([Doc::softline(), items(args.iter().map(|a| (",", a)))])),
                Doc::text(")"),
            ])),
            Expr::Binary { first, rest } => {
                if std::iter::once(first.as_ref()).chain(rest.iter().map(|(_, e)| e)).all(Expr::is_short) {
                    // Short operands fill the lines (FillMode.INDEPENDENT).
                    let mut parts = vec![first.doc()];
                    for (op, operand) in rest {
                        parts.push(Doc::line());
                        parts.push(Doc::concat([Doc::text(format!("{op} ")), operand.doc()]));
                    }
                    return Doc::indent(Doc::fill(parts));
                }
                let mut tail = Vec::new();
                for (op, operand) in rest {
                    tail.push(Doc::line());
                    tail.push(Doc::text(format!("{op} ")));
                    tail.push(operand.doc());
                }
                Doc::group(Doc::concat([first.doc(), Doc::indent(Doc::concat(tail))]))
            }
            Expr::Conditional(condition, yes, no) => Doc::group(Doc::concat([
                condition.doc(),
                Doc::indent(Doc::concat([Doc::line(), Doc::text("? "), yes.doc(), Doc::line(), Doc::text(": "), no.doc()])),
            ])),
            Expr::Select { first, rest } => Doc::group(Doc::concat([
                Doc::text(first.clone()),
                Doc::indent(Doc::concat(rest.iter().map(|r| Doc::concat([Doc::softline(), Doc::text(r.clone())])))),
            ])),
            Expr::Lambda { params, body } => {
                Doc::group(Doc::concat([Doc::text(format!("{params} ->")), Doc::indent(Doc::concat([Doc::line(), body.doc()]))]))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_break_after_the_parenthesis_then_one_argument_per_line() {
        let a = "a".repeat(75);
        assert_eq!(layout(8, &format!("return foo(bar, {a});")).unwrap(), format!("        return foo(\n                bar, {a});"));
        let long = "a".repeat(80);
        assert_eq!(
            layout(8, &format!("int x = foo(bar, {long});")).unwrap(),
            format!("        int x =\n                foo(\n                        bar,\n                        {long});")
        );
    }

    #[test]
    fn headers_and_concatenation() {
        let out = layout(4, "public record CallParams(String tool, McpObject arguments, Boolean passthrough, Long timeoutMs) implements Encodable {").unwrap();
        assert_eq!(out, "    public record CallParams(String tool, McpObject arguments, Boolean passthrough, Long timeoutMs)\n            implements Encodable {");
        // One column past the limit only with its brace: google-java-format breaks before `implements`.
        let out = layout(4, "public record CpCallPromptParams(String name, CpPromptArguments arguments) implements Encodable {").unwrap();
        assert_eq!(out, "    public record CpCallPromptParams(String name, CpPromptArguments arguments)\n            implements Encodable {");
        let out = layout(8, "return Optional.of(\"lane `\" + lane + \":` is not drivable over the mcptest coprocess; run it with `\" + command + \"`\");").unwrap();
        assert!(out.starts_with("        return Optional.of(\n                \"lane `\"\n                        + lane\n"), "{out}");
        assert!(layout(8, "String x = switch (y) {").is_none() || layout(8, "String x = switch (y) {").is_some());
    }

    #[test]
    fn a_number_literal_is_one_token_with_its_exponent_sign() {
        let tokens = tokenize("f(1.5e-7, -273.15, 0x1.b1ae4d6e2ef5p-69, 1E+2 - 0L)").unwrap();
        let texts: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["f", "(", "1.5e-7", ",", "-", "273.15", ",", "0x1.b1ae4d6e2ef5p-69", ",", "1E+2", "-", "0L", ")"]);
        let a = "a".repeat(60);
        let out = layout(20, &format!("gain = numberWithin({a}, \">=\", 1.5e-7, \"<\", 1e21);")).unwrap();
        assert!(out.contains("1.5e-7") && out.contains("1e21"), "{out}");
    }
}
