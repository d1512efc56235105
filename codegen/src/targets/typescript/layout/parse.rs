//! Reads back the one-line statements the emitters write (a small subset of
//! TypeScript); `None` for anything outside it.

/// An expression of the subset.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An identifier, literal or `this`, printed as written.
    Atom(String),
    /// `object.name`.
    Member(Box<Expr>, String),
    /// `callee(args)`.
    Call(Box<Expr>, Vec<Expr>),
    /// `new callee(args)` (the call is the operand).
    New(Box<Expr>),
    /// A prefix operator (`!`, `typeof `, `-`) and its operand.
    Unary(&'static str, Box<Expr>),
    /// `left op right`.
    Binary(String, Box<Expr>, Box<Expr>),
    /// `test ? consequent : alternate`.
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(params) => body` (an expression body).
    Arrow(Vec<String>, Box<Expr>),
    /// `(expression)`.
    Paren(Box<Expr>),
    /// `[items]`.
    Array(Vec<Expr>),
    /// `{ key: value, shorthand }`: `None` for a shorthand member.
    Object(Vec<(String, Option<Expr>)>),
}

impl Expr {
    /// Whether this is a binary (or logical) operation, as Prettier's `isBinaryish`.
    pub fn is_binaryish(&self) -> bool {
        matches!(self, Expr::Binary(..))
    }
}

/// Whether `op` is a logical operator (a `LogicalExpression` in Prettier's tree).
pub fn is_logical(op: &str) -> bool {
    matches!(op, "&&" | "||" | "??")
}

/// A statement of the subset.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `head op rhs;`: `head` as written (`export const X: T`, `out`).
    Assign { head: String, op: String, rhs: Expr },
    /// `return expr;` or `throw expr;`.
    Return { keyword: &'static str, argument: Expr },
    /// `expr;` or, as an array element, `expr,`.
    Expression { expr: Expr, end: &'static str },
    /// `head(params): returns {`, `head` through the name and type parameters.
    Function { head: String, params: Vec<String>, returns: String },
    /// `head = a | b | c;`.
    Union { head: String, members: Vec<String> },
    /// `if (condition) {`.
    If { condition: Expr },
    /// `head = { member: type };`: an object type of one member.
    ObjectAlias { head: String, member: String, ty: Type },
    /// `[export ]type Name = type;`, one type that is not a union.
    TypeAlias { head: String, ty: Type },
    /// `head: type;` without a value (a `let` or an interface member).
    Annotated { head: String, ty: Type },
    /// `key: value,`: a member of a multi-line object literal.
    Property { key: String, value: Expr },
}

/// A type of the subset.
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// A name or keyword, or an object type literal kept as written.
    Name(String),
    /// `name<args>`.
    Generic(String, Vec<Type>),
    /// `element[]`.
    Array(Box<Type>),
    /// `readonly operand`.
    Readonly(Box<Type>),
    /// `a | b`.
    Union(Vec<Type>),
}

/// Reads one statement; `None` when it is outside the subset.
pub fn statement(text: &str) -> Option<Stmt> {
    if text.starts_with("function ") || text.starts_with("export function ") {
        return function(text);
    }
    if text.starts_with("export type ") || text.starts_with("type ") {
        return union(text);
    }
    if let Some(condition) = text.strip_prefix("if (").and_then(|r| r.strip_suffix(") {")) {
        return Some(Stmt::If { condition: expression_text(condition)? });
    }
    for keyword in ["return", "throw"] {
        if let Some(rest) = text.strip_prefix(keyword).and_then(|r| r.strip_prefix(' ')) {
            let argument = expression_text(rest.strip_suffix(';')?)?;
            return Some(Stmt::Return { keyword, argument });
        }
    }
    if let Some(body) = text.strip_suffix(';') {
        if let Some(annotated) = annotated(body) {
            return Some(annotated);
        }
        if let Some((head, op, rhs)) = split_assignment(body) {
            return Some(Stmt::Assign { head: head.to_string(), op: op.to_string(), rhs: expression_text(rhs)? });
        }
        return Some(Stmt::Expression { expr: expression_text(body)?, end: ";" });
    }
    let body = text.strip_suffix(',')?;
    if let Some((key, value)) = body.split_once(": ") {
        if key.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') || key.starts_with('"') {
            if let Some(value) = expression_text(value) {
                return Some(Stmt::Property { key: key.to_string(), value });
            }
        }
    }
    Some(Stmt::Expression { expr: expression_text(body)?, end: "," })
}

/// `let name: type` or `readonly name?: type` (no value).
fn annotated(body: &str) -> Option<Stmt> {
    if !(body.starts_with("let ") || body.starts_with("readonly ")) || split_assignment(body).is_some() {
        return None;
    }
    let (head, ty) = body.split_once(": ")?;
    Some(Stmt::Annotated { head: head.to_string(), ty: type_text(ty)? })
}

/// Parses a whole type.
fn type_text(text: &str) -> Option<Type> {
    let tokens: Vec<String> = tokenize(text)?.into_iter().map(|(t, _)| t).collect();
    let mut parser = Parser { tokens, at: 0 };
    let ty = parser.union_type()?;
    (parser.at == parser.tokens.len()).then_some(ty)
}

/// `[export ]function name<T>(a: A, b: B): R {`.
fn function(text: &str) -> Option<Stmt> {
    let body = text.strip_suffix(" {")?;
    let open = top_level_find(body, |c| c == '(')?;
    let close = matching(body, open)?;
    let returns = body[close + 1..].strip_prefix(": ")?.to_string();
    let params = split_top_level(&body[open + 1..close], ',');
    Some(Stmt::Function { head: body[..open].to_string(), params, returns })
}

/// `[export ]type Name = a | b | c;`.
fn union(text: &str) -> Option<Stmt> {
    let body = text.strip_suffix(';')?;
    let (head, rhs) = body.split_once(" = ")?;
    if let Some(inner) = rhs.strip_prefix("{ ").and_then(|r| r.strip_suffix(" }")) {
        let (member, ty) = inner.rsplit_once("]: ")?;
        let ty = type_text(ty)?;
        return Some(Stmt::ObjectAlias { head: head.to_string(), member: format!("{member}]: "), ty });
    }
    let members = split_top_level(rhs, '|');
    if members.len() == 1 {
        return Some(Stmt::TypeAlias { head: head.to_string(), ty: type_text(rhs)? });
    }
    Some(Stmt::Union { head: head.to_string(), members })
}

/// `head = rhs` or `head += rhs`, split at the first top-level assignment.
fn split_assignment(body: &str) -> Option<(&str, &'static str, &str)> {
    let tokens = tokenize(body)?;
    let mut depth = 0i32;
    for (i, (token, at)) in tokens.iter().enumerate() {
        match token.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "=" | "+=" if depth == 0 && i > 0 => {
                let op = if token == "=" { "=" } else { "+=" };
                let head = body[..*at].trim_end();
                let rhs = body[at + token.len()..].trim_start();
                return Some((head, op, rhs));
            }
            _ => {}
        }
    }
    None
}

/// The byte offset of the first character at bracket depth 0 for which `pred` holds.
fn top_level_find(text: &str, pred: impl Fn(char) -> bool) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text.char_indices() {
        if depth == 0 && pred(c) {
            return Some(i);
        }
        match c {
            '<' | '[' | '{' => depth += 1,
            '>' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The offset of the bracket closing the one at `open`.
fn matching(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` split at `separator` outside brackets and strings, each part trimmed.
fn split_top_level(text: &str, separator: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut start = 0;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '>' if i == 0 || !text[..i].ends_with('=') => depth -= 1,
            c if c == separator && depth == 0 => {
                parts.push(text[start..i].trim().to_string());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    let last = text[start..].trim();
    if !last.is_empty() || !parts.is_empty() {
        parts.push(last.to_string());
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// Splits `text` into tokens with their byte offsets; `None` on a character
/// outside the subset.
fn tokenize(text: &str) -> Option<Vec<(String, usize)>> {
    const PUNCTUATION: [&str; 33] = [
        "===", "!==", "...", "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "+=", "(", ")", "[", "]", "{", "}", ",", ";",
        ":", "?", ".", "<", ">", "+", "-", "*", "/", "%", "!", "=", "|",
    ];
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b' ' {
            i += 1;
            continue;
        }
        let start = i;
        if c == b'"' || c == b'\'' || c == b'`' {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            if i >= bytes.len() {
                return None;
            }
            i += 1;
        } else if c.is_ascii_digit() {
            // A number literal: digits, a fraction, an exponent (`1.5e-7`).
            let digits = |mut i: usize| {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                i
            };
            i = digits(i);
            if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                i = digits(i + 1);
            }
            if matches!(bytes.get(i), Some(b'e' | b'E')) {
                let sign = usize::from(matches!(bytes.get(i + 1), Some(b'+' | b'-')));
                if bytes.get(i + 1 + sign).is_some_and(u8::is_ascii_digit) {
                    i = digits(i + 1 + sign);
                }
            }
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$' || bytes[i] >= 0x80) {
                i += 1;
            }
        } else {
            let punct = PUNCTUATION.iter().find(|p| text[i..].starts_with(**p))?;
            i += punct.len();
        }
        tokens.push((text[start..i].to_string(), start));
    }
    Some(tokens)
}

/// Parses a whole expression.
fn expression_text(text: &str) -> Option<Expr> {
    let tokens: Vec<String> = tokenize(text)?.into_iter().map(|(t, _)| t).collect();
    let mut parser = Parser { tokens, at: 0 };
    let expr = parser.expression()?;
    (parser.at == parser.tokens.len()).then_some(expr)
}

struct Parser {
    tokens: Vec<String>,
    at: usize,
}

/// Binding power of a binary operator (higher binds tighter).
pub fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "??" => 1,
        "||" => 2,
        "&&" => 3,
        "===" | "!==" | "==" | "!=" => 7,
        "<" | ">" | "<=" | ">=" | "in" | "instanceof" => 8,
        "+" | "-" => 10,
        "*" | "/" | "%" => 11,
        _ => return None,
    })
}

impl Parser {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.at).map(String::as_str)
    }

    fn eat(&mut self, token: &str) -> bool {
        if self.peek() == Some(token) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn next(&mut self) -> Option<String> {
        let token = self.tokens.get(self.at)?.clone();
        self.at += 1;
        Some(token)
    }

    fn expression(&mut self) -> Option<Expr> {
        let test = self.binary(0)?;
        if !self.eat("?") {
            return Some(test);
        }
        let consequent = self.expression()?;
        if !self.eat(":") {
            return None;
        }
        let alternate = self.expression()?;
        Some(Expr::Conditional(Box::new(test), Box::new(consequent), Box::new(alternate)))
    }

    fn binary(&mut self, min: u8) -> Option<Expr> {
        let mut left = self.unary()?;
        while let Some(p) = self.peek().and_then(precedence) {
            if p <= min {
                break;
            }
            let op = self.next()?;
            let right = self.binary(p)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<Expr> {
        for (token, printed) in [("!", "!"), ("-", "-"), ("typeof", "typeof ")] {
            if self.eat(token) {
                return Some(Expr::Unary(printed, Box::new(self.unary()?)));
            }
        }
        if self.eat("new") {
            return Some(Expr::New(Box::new(self.postfix()?)));
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Option<Expr> {
        let mut expr = self.primary()?;
        loop {
            if self.eat(".") {
                let name = self.next()?;
                expr = Expr::Member(Box::new(expr), name);
            } else if self.eat("(") {
                let args = self.list(")")?;
                expr = Expr::Call(Box::new(expr), args);
            } else if let (Expr::Atom(object), Some(key)) = (&expr, self.string_index()) {
                // `obj["key"]`, which Prettier never breaks: one atom.
                expr = Expr::Atom(format!("{object}[{key}]"));
            } else {
                return Some(expr);
            }
        }
    }

    /// The key of a `["key"]` index by a string literal (consumed), else
    /// `None` (nothing consumed).
    fn string_index(&mut self) -> Option<String> {
        let key = self.tokens.get(self.at + 1)?;
        let literal = key.starts_with('"') || key.starts_with('\'');
        if self.peek() != Some("[") || !literal || self.tokens.get(self.at + 2).map(String::as_str) != Some("]") {
            return None;
        }
        let key = key.clone();
        self.at += 3;
        Some(key)
    }

    /// Comma-separated expressions up to `close` (consumed).
    fn list(&mut self, close: &str) -> Option<Vec<Expr>> {
        let mut items = Vec::new();
        while !self.eat(close) {
            items.push(self.expression()?);
            if !self.eat(",") && self.peek() != Some(close) {
                return None;
            }
        }
        Some(items)
    }

    fn primary(&mut self) -> Option<Expr> {
        let token = self.next()?;
        match token.as_str() {
            "(" => {
                if let Some(arrow) = self.arrow()? {
                    return Some(arrow);
                }
                let inner = self.expression()?;
                self.eat(")").then(|| Expr::Paren(Box::new(inner)))
            }
            "[" => Some(Expr::Array(self.list("]")?)),
            "{" => self.object(),
            t if t.chars().next().is_some_and(|c| c.is_alphanumeric() || "_$\"'`".contains(c) || !c.is_ascii()) => {
                Some(Expr::Atom(token))
            }
            _ => None,
        }
    }

    /// After `(`: an arrow's parameters and body, `Some(None)` when this is
    /// not an arrow (nothing consumed), `None` on a malformed arrow.
    fn arrow(&mut self) -> Option<Option<Expr>> {
        let start = self.at;
        let mut params = Vec::new();
        loop {
            match self.peek() {
                Some(")") => {
                    self.at += 1;
                    break;
                }
                Some(t) if t.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') => {
                    params.push(t.to_string());
                    self.at += 1;
                    if !self.eat(",") && self.peek() != Some(")") {
                        self.at = start;
                        return Some(None);
                    }
                }
                _ => {
                    self.at = start;
                    return Some(None);
                }
            }
        }
        if !self.eat("=>") {
            self.at = start;
            return Some(None);
        }
        if self.peek() == Some("{") {
            return None;
        }
        Some(Some(Expr::Arrow(params, Box::new(self.expression()?))))
    }

    fn union_type(&mut self) -> Option<Type> {
        let mut members = vec![self.postfix_type()?];
        while self.eat("|") {
            members.push(self.postfix_type()?);
        }
        Some(if members.len() == 1 { members.remove(0) } else { Type::Union(members) })
    }

    fn postfix_type(&mut self) -> Option<Type> {
        if self.eat("readonly") {
            return Some(Type::Readonly(Box::new(self.postfix_type()?)));
        }
        if self.eat("(") {
            // Parenthesized only as the element of an array type.
            let element = self.union_type()?;
            if !self.eat(")") || self.peek() != Some("[") {
                return None;
            }
            return Some(self.array_suffixes(element));
        }
        let name = self.next()?;
        if !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            return None;
        }
        let ty = if self.eat("<") {
            let mut args = vec![self.union_type()?];
            while self.eat(",") {
                args.push(self.union_type()?);
            }
            if !self.eat(">") {
                return None;
            }
            Type::Generic(name, args)
        } else {
            Type::Name(name)
        };
        Some(self.array_suffixes(ty))
    }

    /// `ty` followed by any number of `[]`.
    fn array_suffixes(&mut self, mut ty: Type) -> Type {
        while self.peek() == Some("[") && self.tokens.get(self.at + 1).map(String::as_str) == Some("]") {
            self.at += 2;
            ty = Type::Array(Box::new(ty));
        }
        ty
    }

    fn object(&mut self) -> Option<Expr> {
        let mut members = Vec::new();
        while !self.eat("}") {
            let key = self.next()?;
            let value = if self.eat(":") { Some(self.expression()?) } else { None };
            members.push((key, value));
            if !self.eat(",") && self.peek() != Some("}") {
                return None;
            }
        }
        Some(Expr::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(s: &str) -> Expr {
        Expr::Atom(s.to_string())
    }

    #[test]
    fn reads_calls_members_binaries_and_conditionals_with_their_precedence() {
        let Some(Stmt::Assign { head, op, rhs, .. }) = statement("x = a === null ? f(a.b, 1) : g + h * 2;") else {
            panic!("not an assignment")
        };
        assert_eq!((head.as_str(), op.as_str()), ("x", "="));
        let Expr::Conditional(test, then, otherwise) = rhs else { panic!("not a conditional") };
        assert_eq!(*test, Expr::Binary("===".into(), Box::new(atom("a")), Box::new(atom("null"))));
        assert_eq!(*then, Expr::Call(Box::new(atom("f")), vec![Expr::Member(Box::new(atom("a")), "b".into()), atom("1")]));
        let Expr::Binary(op, _, right) = *otherwise else { panic!("not binary") };
        assert_eq!(op, "+");
        assert!(matches!(*right, Expr::Binary(ref m, ..) if m == "*"));
    }

    #[test]
    fn reads_arrows_function_headers_and_unions_and_refuses_what_it_does_not_know() {
        let Some(Stmt::Expression { expr: Expr::Call(_, args), .. }) = statement("f((item, itemPath) => g(item));") else {
            panic!("not a call")
        };
        assert!(matches!(&args[0], Expr::Arrow(params, _) if params == &["item", "itemPath"]));
        let Some(Stmt::Function { head, params, returns }) =
            statement("export function encodeX<P>(value: X<P>, encodeP: (value: P) => string): string {")
        else {
            panic!("not a function")
        };
        assert_eq!((head.as_str(), returns.as_str()), ("export function encodeX<P>", "string"));
        assert_eq!(params, ["value: X<P>", "encodeP: (value: P) => string"]);
        assert_eq!(
            statement("export type T = \"a\" | \"b | c\";"),
            Some(Stmt::Union { head: "export type T".into(), members: vec!["\"a\"".into(), "\"b | c\"".into()] })
        );
        assert_eq!(statement("for (const key in obj) {"), None);
        assert_eq!(statement("x = a @ b;"), None);
    }

    #[test]
    fn reads_a_number_literal_as_one_atom() {
        let Some(Stmt::Expression { expr: Expr::Call(_, args), .. }) = statement("f(1.5e-7, -273.15, 1e21, 0.000001, 5E+2);") else {
            panic!("not a call")
        };
        let minus = |e: Expr| Expr::Unary("-", Box::new(e));
        assert_eq!(args, [atom("1.5e-7"), minus(atom("273.15")), atom("1e21"), atom("0.000001"), atom("5E+2")]);
    }
}
