//! A reader for the small subset of Python the emitters write on one line:
//! names, numbers and string literals, attribute access, calls, subscripts,
//! tuple, list and dict literals (a trailing comma is kept: it is `ruff
//! format`'s magic trailing comma), comprehensions, lambdas, conditional,
//! boolean, comparison and binary (`|`, `+`, `-`, `*`, `**`) expressions,
//! and the statements around them (`def` headers, `return`, `raise ...
//! from ...`, `if`/`elif`/`while`, plain, annotated, subscript and `+=`
//! assignments, expression statements). Anything else is `None`.

/// An expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A name, number, string literal, `...`, `True`, `None`: no split point.
    Atom(String),
    /// `value.name`.
    Attr(Box<Expr>, String),
    /// `callee(arguments)`.
    Call(Box<Expr>, Items),
    /// `value[items]`.
    Subscript(Box<Expr>, Items),
    /// `(expr)`, parentheses around one expression.
    Paren(Box<Expr>),
    /// `(a, b)`, a parenthesized tuple.
    Tuple(Items),
    /// `[a, b]`.
    List(Items),
    /// `{k: v}` (its items are [`Expr::Entry`]) or `{a, b}`.
    Dict(Items),
    /// `[elt for target in iter]` (or `{...}`): the brackets, the element,
    /// the target and the iterable.
    Comp(&'static str, Box<Expr>, String, Box<Expr>, &'static str),
    /// `key: value` in a dict literal.
    Entry(Box<Expr>, Box<Expr>),
    /// `name=value` in a call, `name: annotation = default` in a `def`.
    Keyword(String, Box<Expr>),
    /// `name: annotation` (and `= default`) in a `def`'s parameters.
    Param(String, Box<Expr>, Option<Box<Expr>>),
    /// `*value` or `**value`.
    Star(&'static str, Box<Expr>),
    /// `a and b and c` / `a or b`.
    Bool(&'static str, Vec<Expr>),
    /// `a | b | c`: operands and the operator between each two.
    Binary(Vec<Expr>, Vec<&'static str>),
    /// `a is not None`, `a in b`, `a == b`.
    Compare(Box<Expr>, Vec<(&'static str, Expr)>),
    /// `not value`, `-value`.
    Unary(&'static str, Box<Expr>),
    /// `body if test else orelse`.
    IfElse(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `lambda params: body`.
    Lambda(String, Box<Expr>),
}

/// The items between a pair of brackets, and whether a trailing comma
/// follows the last one.
#[derive(Debug, Clone, PartialEq)]
pub struct Items {
    pub items: Vec<Expr>,
    pub trailing_comma: bool,
}

/// A statement on one logical line.
#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `def name(params) -> returns:`
    Def(String, Items, Option<Expr>),
    /// `keyword value` with a `:` after it when `colon` (`return x`, `if x:`).
    Keyword(&'static str, Expr, bool),
    /// `raise value from cause`.
    Raise(Expr, Option<Expr>),
    /// `target: annotation = value`.
    AnnAssign(Expr, Expr, Option<Expr>),
    /// `target = value`.
    Assign(Expr, Expr),
    /// `target += value`.
    AddAssign(Expr, Expr),
    /// An expression on its own.
    Expr(Expr),
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Name(String),
    Num(String),
    Str(String),
    Op(&'static str),
}

const OPS: &[&str] = &[
    "+=", "**", "==", "!=", "<=", ">=", "->", "...", "(", ")", "[", "]", "{", "}", ",", ":", "=", ".", "|", "+", "-", "*", "<", ">", "@",
];

fn tokens(text: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == ' ' {
            i += 1;
        } else if c == '"' || c == '\'' || (c == 'r' && matches!(chars.get(i + 1), Some('"'))) {
            // A string, or a raw one (`r"..."`, which the regular-expression
            // constants use): the same scan finds its end.
            let start = i;
            let c = if c == 'r' {
                i += 1;
                '"'
            } else {
                c
            };
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            if i >= chars.len() {
                return None;
            }
            i += 1;
            out.push(Tok::Str(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.') {
                // The sign of a float's exponent (`1.5e-7`, `1e+21`) is the number's.
                let exponent = matches!(chars[i], 'e' | 'E') && !matches!(chars.get(start + 1), Some('x' | 'X'));
                i += if exponent && matches!(chars.get(i + 1), Some('+' | '-')) { 2 } else { 1 };
            }
            out.push(Tok::Num(chars[start..i].iter().collect()));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // Other string prefixes (`b'...'`, `f"..."`) are not written on lines read here.
            if i < chars.len() && (chars[i] == '"' || chars[i] == '\'') {
                return None;
            }
            out.push(Tok::Name(word));
        } else {
            let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
            let op = OPS.iter().find(|op| rest.starts_with(**op))?;
            out.push(Tok::Op(op));
            i += op.chars().count();
        }
    }
    Some(out)
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

/// Reads one statement (without its indentation).
pub fn statement(text: &str) -> Option<Stmt> {
    let mut p = Parser { toks: tokens(text)?, pos: 0 };
    let stmt = p.statement()?;
    (p.pos == p.toks.len()).then_some(stmt)
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Some(Tok::Op(o)) if *o == op)
    }

    fn is_name(&self, name: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(n)) if n == name)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        let yes = self.is_op(op);
        if yes {
            self.pos += 1;
        }
        yes
    }

    fn eat_name(&mut self, name: &str) -> bool {
        let yes = self.is_name(name);
        if yes {
            self.pos += 1;
        }
        yes
    }

    fn expect_op(&mut self, op: &str) -> Option<()> {
        self.eat_op(op).then_some(())
    }

    fn name(&mut self) -> Option<String> {
        match self.peek()? {
            Tok::Name(name) => {
                let name = name.clone();
                self.pos += 1;
                Some(name)
            }
            _ => None,
        }
    }

    fn statement(&mut self) -> Option<Stmt> {
        if self.eat_name("def") {
            let name = self.name()?;
            self.expect_op("(")?;
            let params = self.items(")", Self::param)?;
            let returns = if self.eat_op("->") { Some(self.expr()?) } else { None };
            self.expect_op(":")?;
            return Some(Stmt::Def(name, params, returns));
        }
        for keyword in ["return", "if", "elif", "while"] {
            if self.eat_name(keyword) {
                let value = self.expr()?;
                let colon = keyword != "return";
                if colon {
                    self.expect_op(":")?;
                }
                return Some(Stmt::Keyword(keyword, value, colon));
            }
        }
        if self.eat_name("raise") {
            let value = self.expr()?;
            let cause = if self.eat_name("from") { Some(self.expr()?) } else { None };
            return Some(Stmt::Raise(value, cause));
        }
        let first = self.expr()?;
        if self.eat_op(":") {
            let annotation = self.expr()?;
            let value = if self.eat_op("=") { Some(self.expr()?) } else { None };
            return Some(Stmt::AnnAssign(first, annotation, value));
        }
        if self.eat_op("=") {
            return Some(Stmt::Assign(first, self.expr()?));
        }
        if self.eat_op("+=") {
            return Some(Stmt::AddAssign(first, self.expr()?));
        }
        Some(Stmt::Expr(first))
    }

    fn param(&mut self) -> Option<Expr> {
        if self.eat_op("**") {
            return Some(Expr::Star("**", Box::new(Expr::Atom(self.name()?))));
        }
        if self.eat_op("*") {
            return Some(Expr::Star("*", Box::new(Expr::Atom(self.name()?))));
        }
        let name = self.name()?;
        self.expect_op(":")?;
        let annotation = self.expr()?;
        let default = if self.eat_op("=") { Some(Box::new(self.expr()?)) } else { None };
        Some(Expr::Param(name, Box::new(annotation), default))
    }

    /// Items up to `close` (consumed), each read by `item`, comma-separated.
    fn items(&mut self, close: &str, item: fn(&mut Self) -> Option<Expr>) -> Option<Items> {
        let mut items = Vec::new();
        let mut trailing_comma = false;
        while !self.eat_op(close) {
            items.push(item(self)?);
            trailing_comma = self.eat_op(",");
            if !trailing_comma {
                self.expect_op(close)?;
                break;
            }
        }
        Some(Items { items, trailing_comma })
    }

    fn argument(&mut self) -> Option<Expr> {
        if self.eat_op("**") {
            return Some(Expr::Star("**", Box::new(self.expr()?)));
        }
        if self.eat_op("*") {
            return Some(Expr::Star("*", Box::new(self.expr()?)));
        }
        if let (Some(Tok::Name(name)), Some(Tok::Op("="))) = (self.toks.get(self.pos), self.toks.get(self.pos + 1)) {
            let name = name.clone();
            self.pos += 2;
            return Some(Expr::Keyword(name, Box::new(self.expr()?)));
        }
        self.expr()
    }

    fn dict_item(&mut self) -> Option<Expr> {
        if self.eat_op("**") {
            return Some(Expr::Star("**", Box::new(self.expr()?)));
        }
        let key = self.expr()?;
        if self.eat_op(":") {
            return Some(Expr::Entry(Box::new(key), Box::new(self.expr()?)));
        }
        Some(key)
    }

    fn expr(&mut self) -> Option<Expr> {
        if self.eat_name("lambda") {
            let mut params = Vec::new();
            while !self.eat_op(":") {
                params.push(self.name()?);
                if !self.eat_op(",") {
                    self.expect_op(":")?;
                    break;
                }
            }
            return Some(Expr::Lambda(params.join(", "), Box::new(self.expr()?)));
        }
        let body = self.or_expr()?;
        if self.eat_name("if") {
            let test = self.or_expr()?;
            if !self.eat_name("else") {
                return None;
            }
            let orelse = self.expr()?;
            return Some(Expr::IfElse(Box::new(body), Box::new(test), Box::new(orelse)));
        }
        Some(body)
    }

    fn or_expr(&mut self) -> Option<Expr> {
        self.bool_chain("or", Self::and_expr)
    }

    fn and_expr(&mut self) -> Option<Expr> {
        self.bool_chain("and", Self::not_expr)
    }

    fn bool_chain(&mut self, op: &'static str, operand: fn(&mut Self) -> Option<Expr>) -> Option<Expr> {
        let mut values = vec![operand(self)?];
        while self.eat_name(op) {
            values.push(operand(self)?);
        }
        Some(if values.len() == 1 { values.remove(0) } else { Expr::Bool(op, values) })
    }

    fn not_expr(&mut self) -> Option<Expr> {
        if self.eat_name("not") {
            return Some(Expr::Unary("not ", Box::new(self.not_expr()?)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Option<Expr> {
        let left = self.binary(0)?;
        let mut rest = Vec::new();
        loop {
            let op = if self.eat_name("in") {
                "in"
            } else if self.is_name("not") && matches!(self.toks.get(self.pos + 1), Some(Tok::Name(n)) if n == "in") {
                self.pos += 2;
                "not in"
            } else if self.eat_name("is") {
                if self.eat_name("not") {
                    "is not"
                } else {
                    "is"
                }
            } else if let Some(op) = ["==", "!=", "<=", ">=", "<", ">"].into_iter().find(|op| self.is_op(op)) {
                self.pos += 1;
                op
            } else {
                break;
            };
            rest.push((op, self.binary(0)?));
        }
        Some(if rest.is_empty() { left } else { Expr::Compare(Box::new(left), rest) })
    }

    /// Binary operators by precedence level: `|`, then `+ -`, then `*`, then `**`.
    fn binary(&mut self, level: usize) -> Option<Expr> {
        const LEVELS: &[&[&str]] = &[&["|"], &["+", "-"], &["*", "@"], &["**"]];
        let Some(ops) = LEVELS.get(level) else { return self.unary() };
        let mut operands = vec![self.binary(level + 1)?];
        let mut operators = Vec::new();
        while let Some(op) = ops.iter().find(|op| self.is_op(op)) {
            self.pos += 1;
            operators.push(*op);
            operands.push(self.binary(level + 1)?);
        }
        Some(if operators.is_empty() { operands.remove(0) } else { Expr::Binary(operands, operators) })
    }

    fn unary(&mut self) -> Option<Expr> {
        if self.eat_op("-") {
            return Some(match self.unary()? {
                Expr::Atom(text) => Expr::Atom(format!("-{text}")),
                other => Expr::Unary("-", Box::new(other)),
            });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Option<Expr> {
        let mut expr = self.atom()?;
        loop {
            if self.eat_op(".") {
                expr = Expr::Attr(Box::new(expr), self.name()?);
            } else if self.eat_op("(") {
                expr = Expr::Call(Box::new(expr), self.items(")", Self::argument)?);
            } else if self.eat_op("[") {
                expr = Expr::Subscript(Box::new(expr), self.items("]", Self::expr)?);
            } else {
                return Some(expr);
            }
        }
    }

    fn atom(&mut self) -> Option<Expr> {
        match self.peek()?.clone() {
            Tok::Name(name) => {
                const RESERVED: &[&str] = &["and", "or", "not", "in", "is", "if", "else", "for", "lambda", "from", "return", "def"];
                if RESERVED.contains(&name.as_str()) {
                    return None;
                }
                self.pos += 1;
                Some(Expr::Atom(name))
            }
            Tok::Num(text) | Tok::Str(text) => {
                self.pos += 1;
                Some(Expr::Atom(text))
            }
            Tok::Op("...") => {
                self.pos += 1;
                Some(Expr::Atom("...".to_string()))
            }
            Tok::Op("(") => {
                self.pos += 1;
                let items = self.items(")", Self::expr)?;
                Some(match items.items.as_slice() {
                    [only] if !items.trailing_comma => Expr::Paren(Box::new(only.clone())),
                    _ => Expr::Tuple(items),
                })
            }
            Tok::Op("[") => {
                self.pos += 1;
                self.comprehension_or("[", "]", Self::expr).map(|r| r.unwrap_or_else(Expr::List))
            }
            Tok::Op("{") => {
                self.pos += 1;
                self.comprehension_or("{", "}", Self::dict_item).map(|r| r.unwrap_or_else(Expr::Dict))
            }
            _ => None,
        }
    }

    /// After `open`: a comprehension (`Ok`), else the literal's items (`Err`).
    fn comprehension_or(
        &mut self,
        open: &'static str,
        close: &'static str,
        item: fn(&mut Self) -> Option<Expr>,
    ) -> Option<Result<Expr, Items>> {
        if self.eat_op(close) {
            return Some(Err(Items { items: Vec::new(), trailing_comma: false }));
        }
        let first = item(self)?;
        if self.eat_name("for") {
            let mut target = vec![self.name()?];
            while self.eat_op(",") {
                target.push(self.name()?);
            }
            if !self.eat_name("in") {
                return None;
            }
            let iter = self.or_expr()?;
            self.expect_op(close)?;
            return Some(Ok(Expr::Comp(open, Box::new(first), target.join(", "), Box::new(iter), close)));
        }
        let mut items = vec![first];
        let mut trailing_comma = false;
        while self.eat_op(",") {
            trailing_comma = true;
            if self.is_op(close) {
                break;
            }
            items.push(item(self)?);
            trailing_comma = false;
        }
        self.expect_op(close)?;
        Some(Err(Items { items, trailing_comma }))
    }
}

/// The expression on one line, as written.
pub fn flat(expr: &Expr) -> String {
    match expr {
        Expr::Atom(text) => text.clone(),
        Expr::Attr(value, name) => format!("{}.{name}", flat(value)),
        Expr::Call(callee, items) => format!("{}({})", flat(callee), flat_items(items)),
        Expr::Subscript(value, items) => format!("{}[{}]", flat(value), flat_items(items)),
        Expr::Paren(inner) => format!("({})", flat(inner)),
        Expr::Tuple(items) if items.items.len() == 1 => format!("({},)", flat(&items.items[0])),
        Expr::Tuple(items) => format!("({})", flat_items(items)),
        Expr::List(items) => format!("[{}]", flat_items(items)),
        Expr::Dict(items) => format!("{{{}}}", flat_items(items)),
        Expr::Comp(open, elt, target, iter, close) => format!("{open}{} for {target} in {}{close}", flat(elt), flat(iter)),
        Expr::Entry(key, value) => format!("{}: {}", flat(key), flat(value)),
        Expr::Keyword(name, value) => format!("{name}={}", flat(value)),
        Expr::Param(name, annotation, default) => match default {
            Some(default) => format!("{name}: {} = {}", flat(annotation), flat(default)),
            None => format!("{name}: {}", flat(annotation)),
        },
        Expr::Star(star, value) => format!("{star}{}", flat(value)),
        Expr::Bool(op, values) => values.iter().map(flat).collect::<Vec<_>>().join(&format!(" {op} ")),
        Expr::Binary(operands, operators) => {
            let mut out = flat(&operands[0]);
            for (op, operand) in operators.iter().zip(&operands[1..]) {
                out.push_str(&format!(" {op} {}", flat(operand)));
            }
            out
        }
        Expr::Compare(left, rest) => {
            let mut out = flat(left);
            for (op, right) in rest {
                out.push_str(&format!(" {op} {}", flat(right)));
            }
            out
        }
        Expr::Unary(op, value) => format!("{op}{}", flat(value)),
        Expr::IfElse(body, test, orelse) => format!("{} if {} else {}", flat(body), flat(test), flat(orelse)),
        Expr::Lambda(params, body) if params.is_empty() => format!("lambda: {}", flat(body)),
        Expr::Lambda(params, body) => format!("lambda {params}: {}", flat(body)),
    }
}

/// Items joined by `, ` (the trailing comma dropped: a flat layout has none).
fn flat_items(items: &Items) -> String {
    items.items.iter().map(flat).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_read_back_as_written() {
        for line in [
            "return _read_x(_parse(text))",
            "raise DecodeError(error.message(\"T\")) from None",
            "if len(value) == 1 + (\"a\" in value) and type(name) is str:",
            "x: typing.Final[tuple[int, ...]] = (1, 2)",
            "out[\"k\"] = None if value.k is None else k_to_value(value.k)",
            "y = [[list(item1) for item1 in item] for item in value.m]",
            "f(a=lambda v: _array(v, _str), b=c if \"c\" in value else None)",
            "def f(value: JsonValue, to: Callable[[int], str | None]) -> dict[str, int]:",
            "z = {\"a\": -1, **rest}",
            "if not isinstance(value.x, Absent):",
            "g = _float_below(_float_at_least(_float(v), -1.5e-7), 1e+21) - 0x1E - 1",
            "text += ',\"timeout_ms\":' + _int_text(value.timeout_ms)",
        ] {
            let stmt = statement(line).unwrap_or_else(|| panic!("reads {line}"));
            let text = match &stmt {
                Stmt::Keyword(k, e, colon) => format!("{k} {}{}", flat(e), if *colon { ":" } else { "" }),
                Stmt::Raise(e, Some(c)) => format!("raise {} from {}", flat(e), flat(c)),
                Stmt::AnnAssign(t, a, Some(v)) => format!("{}: {} = {}", flat(t), flat(a), flat(v)),
                Stmt::Assign(t, v) => format!("{} = {}", flat(t), flat(v)),
                Stmt::AddAssign(t, v) => format!("{} += {}", flat(t), flat(v)),
                Stmt::Expr(e) => flat(e),
                Stmt::Def(name, params, Some(r)) => format!("def {name}({}) -> {}:", flat_items(params), flat(r)),
                other => panic!("unexpected {other:?}"),
            };
            assert_eq!(text, line);
        }
    }

    #[test]
    fn a_trailing_comma_is_kept_and_a_one_element_tuple_is_a_tuple() {
        let Some(Stmt::Expr(Expr::Call(_, items))) = statement("f(a, b,)") else { panic!() };
        assert!(items.trailing_comma);
        let Some(Stmt::Expr(Expr::Tuple(items))) = statement("(a,)") else { panic!() };
        assert_eq!(items.items.len(), 1);
        assert!(statement("f(a").is_none());
        assert!(statement("x = b\"bytes\"").is_none());
        assert!(statement("x = r\"raw\\Z\"").is_some());
    }
}
