//! The parser of the portable subset: ECMA-262 pattern syntax with the `u`
//! flag, and nothing whose meaning differs between the six engines.

use super::{Branch, CharSet, Node, PatternError, MAX_COUNT, MAX_DEPTH};

/// ECMA's SyntaxCharacter: what a literal must escape.
const SYNTAX: &str = "^$\\.*+?()[]{}|";

pub(super) fn parse(source: &str) -> Result<Node, PatternError> {
    let mut parser = Parser { chars: source.chars().collect(), at: 0, depth: 0 };
    let node = parser.disjunction()?;
    if let Some(c) = parser.peek() {
        // Only an unmatched `)` stops a disjunction before the end.
        return Err(parser.error(format!("unmatched `{c}`"), "remove it, or open a group before it with `(`"));
    }
    Ok(node)
}

struct Parser {
    chars: Vec<char>,
    at: usize,
    /// How many groups are open.
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn error(&self, problem: impl Into<String>, fix: impl Into<String>) -> PatternError {
        self.error_at(self.at, problem, fix)
    }

    fn error_at(&self, offset: usize, problem: impl Into<String>, fix: impl Into<String>) -> PatternError {
        PatternError { offset: Some(offset), problem: problem.into(), fix: fix.into() }
    }

    fn disjunction(&mut self) -> Result<Node, PatternError> {
        let mut branches = vec![self.branch()?];
        while self.eat('|') {
            branches.push(self.branch()?);
        }
        Ok(if branches.len() == 1 { branches.remove(0).node } else { Node::Alternation(branches) })
    }

    fn branch(&mut self) -> Result<Branch, PatternError> {
        let start = self.at;
        let node = self.alternative()?;
        Ok(Branch { node, text: self.text(start) })
    }

    /// The pattern's text from `start` to here.
    fn text(&self, start: usize) -> String {
        self.chars[start..self.at].iter().collect()
    }

    fn alternative(&mut self) -> Result<Node, PatternError> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            terms.push(self.term()?);
        }
        Ok(match terms.len() {
            0 => Node::Empty,
            1 => terms.remove(0),
            _ => Node::Concat(terms),
        })
    }

    fn term(&mut self) -> Result<Node, PatternError> {
        let start = self.at;
        let atom = match self.peek() {
            Some('^') => {
                self.at += 1;
                Node::Start
            }
            Some('$') => {
                self.at += 1;
                Node::End
            }
            _ => self.atom()?,
        };
        let Some((min, max)) = self.quantifier()? else { return Ok(atom) };
        if matches!(atom, Node::Start | Node::End) {
            return Err(self.error_at(start, "a quantifier on an anchor repeats nothing", "remove the quantifier"));
        }
        if matches!(self.peek(), Some('?') | Some('+')) {
            return Err(self.error(
                "a lazy or possessive quantifier is outside the portable subset",
                "drop the trailing `?` or `+`: a pattern only asks whether a match exists, which laziness does not change",
            ));
        }
        Ok(Node::Repeat { node: Box::new(atom), min, max, text: self.text(start) })
    }

    /// A quantifier after an atom, if there is one: `(min, max)`.
    fn quantifier(&mut self) -> Result<Option<(u32, Option<u32>)>, PatternError> {
        let quantified = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => return self.braces().map(Some),
            _ => return Ok(None),
        };
        self.at += 1;
        Ok(Some(quantified))
    }

    /// `{n}`, `{n,}` or `{n,m}` (a lone `{` is a syntax error with the `u` flag).
    fn braces(&mut self) -> Result<(u32, Option<u32>), PatternError> {
        let open = self.at;
        self.at += 1;
        let lone = |p: &Self| p.error_at(open, "a lone `{` is not a quantifier", "write `\\{` for the character, or a count such as `{2,5}`");
        let min = self.count().ok_or_else(|| lone(self))?;
        let max = if self.eat(',') {
            if self.peek() == Some('}') { None } else { Some(self.count().ok_or_else(|| lone(self))?) }
        } else {
            Some(min)
        };
        if !self.eat('}') {
            return Err(lone(self));
        }
        let too_big = |n: u64| n > u64::from(MAX_COUNT);
        if too_big(min) || max.is_some_and(too_big) {
            return Err(self.error_at(open, format!("a count above {MAX_COUNT}"), format!("Go's regexp refuses counts above {MAX_COUNT}: use a smaller count, or `*`/`+` with a `maxLength`")));
        }
        let (min, max) = (min as u32, max.map(|m| m as u32));
        if max.is_some_and(|m| m < min) {
            return Err(self.error_at(open, format!("`{{{min},{}}}` has its numbers out of order", max.unwrap_or_default()), "write the smaller count first"));
        }
        Ok((min, max))
    }

    fn count(&mut self) -> Option<u64> {
        let start = self.at;
        let mut n: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(u64::from(d));
            self.at += 1;
        }
        (self.at > start).then_some(n)
    }

    fn atom(&mut self) -> Result<Node, PatternError> {
        let start = self.at;
        let Some(c) = self.peek() else { return Ok(Node::Empty) };
        self.at += 1;
        match c {
            '.' => Ok(Node::Class(line_terminators().complement())),
            '(' => self.group(start),
            '[' => Ok(Node::Class(self.class(start)?)),
            '\\' => match self.escape(false)? {
                Escaped::Char(c) => Ok(Node::Literal(c)),
                Escaped::Set(set) => Ok(Node::Class(set)),
            },
            '*' | '+' | '?' => Err(self.error_at(start, format!("`{c}` repeats nothing"), format!("write `\\{c}` for the character, or put an atom before it"))),
            '{' => Err(self.error_at(start, "a lone `{` is a syntax error with the `u` flag", "write `\\{` for the character")),
            '}' | ']' => Err(self.error_at(start, format!("a lone `{c}` is a syntax error with the `u` flag"), format!("write `\\{c}` for the character"))),
            c => Ok(Node::Literal(c)),
        }
    }

    /// After `(`: a plain or non-capturing group.
    fn group(&mut self, start: usize) -> Result<Node, PatternError> {
        if self.peek() == Some('?') {
            let kind = (self.peek_at(1), self.peek_at(2));
            match kind {
                (Some(':'), _) => self.at += 2,
                (Some('=') | Some('!'), _) | (Some('<'), Some('=') | Some('!')) => {
                    return Err(self.error_at(start, "lookaround is outside the portable subset (Go's and Rust's engines have none)", "express the condition without lookaround, or check it in the binary and describe it"));
                }
                (Some('<'), _) => {
                    return Err(self.error_at(start, "a named group is outside the portable subset (its syntax differs by engine, and nothing is captured)", "write a non-capturing group `(?:...)`"));
                }
                _ => return Err(self.error_at(start, "a group modifier is outside the portable subset", "write `(...)` or `(?:...)`")),
            }
        }
        if self.depth == MAX_DEPTH {
            return Err(self.error_at(start, format!("groups nested deeper than {MAX_DEPTH}"), "nest fewer groups"));
        }
        self.depth += 1;
        let inner = self.disjunction()?;
        self.depth -= 1;
        if !self.eat(')') {
            return Err(self.error_at(start, "unclosed group", "close it with `)`"));
        }
        Ok(Node::Group(Box::new(inner)))
    }

    /// After `[`: a class, resolved to the set of code points it matches.
    fn class(&mut self, start: usize) -> Result<CharSet, PatternError> {
        let negated = self.eat('^');
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        let mut sets: Vec<CharSet> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error_at(start, "unclosed class", "close it with `]`"));
            };
            if c == ']' {
                self.at += 1;
                break;
            }
            let item_start = self.at;
            let low = self.class_atom()?;
            let is_range = self.peek() == Some('-') && self.peek_at(1).is_some_and(|n| n != ']');
            if !is_range {
                match low {
                    Escaped::Char(c) => ranges.push((c as u32, c as u32)),
                    Escaped::Set(set) => sets.push(set),
                }
                continue;
            }
            self.at += 1;
            let high = self.class_atom()?;
            match (low, high) {
                (Escaped::Char(low), Escaped::Char(high)) if low <= high => ranges.push((low as u32, high as u32)),
                (Escaped::Char(low), Escaped::Char(high)) => {
                    return Err(self.error_at(item_start, format!("the range `{low}-{high}` is out of order"), "write the lower code point first"));
                }
                _ => {
                    return Err(self.error_at(item_start, "a class escape such as `\\d` cannot bound a range", "list the escape apart, or write `\\-` for a hyphen"));
                }
            }
        }
        let set = sets.iter().fold(CharSet::of(ranges), |all, set| all.union(set));
        let set = if negated { set.complement() } else { set };
        if set.is_empty() {
            return Err(self.error_at(start, "the class matches no character", "remove it: an empty class never matches (and `[]` is read differently by some engines)"));
        }
        Ok(set)
    }

    fn class_atom(&mut self) -> Result<Escaped, PatternError> {
        let Some(c) = self.peek() else {
            return Err(self.error("unclosed class", "close it with `]`"));
        };
        self.at += 1;
        match c {
            '\\' => self.escape(true),
            '[' => Err(self.error_at(self.at - 1, "`[` inside a class is read as a nested class by Java, .NET and Rust", "write `\\[`")),
            c => Ok(Escaped::Char(c)),
        }
    }

    /// After `\`: a character or a class escape.
    fn escape(&mut self, in_class: bool) -> Result<Escaped, PatternError> {
        let start = self.at - 1;
        let Some(c) = self.peek() else {
            return Err(self.error_at(start, "the pattern ends in a lone `\\`", "write `\\\\` for a backslash"));
        };
        self.at += 1;
        let ch = match c {
            'd' => return Ok(Escaped::Set(digits())),
            'D' => return Ok(Escaped::Set(digits().complement())),
            'w' => return Ok(Escaped::Set(word())),
            'W' => return Ok(Escaped::Set(word().complement())),
            's' => return Ok(Escaped::Set(white_space())),
            'S' => return Ok(Escaped::Set(white_space().complement())),
            't' => '\t',
            'n' => '\n',
            'v' => '\u{b}',
            'f' => '\u{c}',
            'r' => '\r',
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => '\0',
            'x' => self.byte_escape(start)?,
            'u' => self.unicode_escape(start)?,
            '-' if in_class => '-',
            c if SYNTAX.contains(c) || c == '/' => c,
            'b' | 'B' => {
                return Err(self.error_at(start, format!("`\\{c}` is outside the portable subset (word boundaries and backspace differ by engine)"), "spell the boundary out with classes, e.g. `(^|[^0-9A-Za-z_])`"));
            }
            '1'..='9' | 'k' => return Err(self.error_at(start, "backreferences are outside the portable subset (Go's and Rust's engines have none)", "express it without a backreference")),
            'p' | 'P' => {
                return Err(self.error_at(start, "Unicode property escapes are outside the portable subset (engines differ in Unicode version and names)", "list the ranges in a class"));
            }
            'c' => return Err(self.error_at(start, "`\\c` control escapes are outside the portable subset", "write the control character as `\\xHH`")),
            c => return Err(self.error_at(start, format!("`\\{c}` is not an escape with the `u` flag"), format!("write `{c}` without the backslash (with the `u` flag only syntax characters may be escaped)"))),
        };
        Ok(Escaped::Char(ch))
    }

    /// `\uHHHH` (a high surrogate followed by `\uHHHH` of a low one is one
    /// code point) or `\u{H...}`.
    fn unicode_escape(&mut self, start: usize) -> Result<char, PatternError> {
        let code = if self.eat('{') {
            let digits_start = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                self.at += 1;
            }
            let digits: String = self.chars[digits_start..self.at].iter().collect();
            if digits.is_empty() || !self.eat('}') {
                return Err(self.error_at(start, "malformed `\\u{...}` escape", "write `\\u{` hex digits `}`, e.g. `\\u{1F600}`"));
            }
            u32::from_str_radix(&digits, 16).ok().filter(|&n| n <= super::MAX_CODE_POINT).ok_or_else(|| self.error_at(start, "`\\u{...}` beyond U+10FFFF", "write a code point up to 10FFFF"))?
        } else {
            let high = self.hex_value(start, 4)?;
            if (0xD800..0xDC00).contains(&high) && self.peek() == Some('\\') && self.peek_at(1) == Some('u') {
                let saved = self.at;
                self.at += 2;
                match self.hex_value(start, 4) {
                    Ok(low) if (0xDC00..0xE000).contains(&low) => 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00),
                    _ => {
                        self.at = saved;
                        high
                    }
                }
            } else {
                high
            }
        };
        char::from_u32(code).ok_or_else(|| {
            self.error_at(start, format!("`\\u{code:04X}` is a lone surrogate, which no JSON string holds"), "write the whole surrogate pair, or the code point as `\\u{...}`")
        })
    }

    /// `\xHH`: U+0000..U+00FF.
    fn byte_escape(&mut self, start: usize) -> Result<char, PatternError> {
        let value = self.hex_value(start, 2)?;
        Ok(char::from(value as u8))
    }

    fn hex_value(&mut self, start: usize, digits: usize) -> Result<u32, PatternError> {
        let end = self.at + digits;
        let text: Option<String> = self.chars.get(self.at..end).map(|s| s.iter().collect());
        match text.filter(|t| t.chars().all(|c| c.is_ascii_hexdigit())) {
            Some(text) => {
                self.at = end;
                u32::from_str_radix(&text, 16).map_err(|_| self.error_at(start, "malformed hex escape", "write hex digits"))
            }
            None => Err(self.error_at(start, format!("malformed escape: expected {digits} hex digits"), "write `\\xHH`, `\\uHHHH` or `\\u{H...}`")),
        }
    }
}

enum Escaped {
    Char(char),
    Set(CharSet),
}

/// ECMA's LineTerminator: what `.` does not match.
pub(super) fn line_terminators() -> CharSet {
    CharSet::of([(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)])
}

fn digits() -> CharSet {
    CharSet::of([(0x30, 0x39)])
}

fn word() -> CharSet {
    CharSet::of([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
}

/// ECMA's WhiteSpace and LineTerminator (`\s`): tab, LF, VT, FF, CR, space,
/// U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000
/// and U+FEFF.
fn white_space() -> CharSet {
    CharSet::of([
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ])
}
