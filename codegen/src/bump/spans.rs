//! Where each value of a JSON text is, byte for byte, so that `bump` can edit
//! a hand-formatted schema in place: only the bytes of the values it changes
//! move, and every other byte (indentation, inline arrays, key order) stays.

use std::ops::Range;

/// A value of the text and the bytes it spans.
#[derive(Debug)]
pub struct Node {
    pub span: Range<usize>,
    pub kind: Kind,
}

#[derive(Debug)]
pub enum Kind {
    Object(Vec<(String, Node)>),
    Array(Vec<Node>),
    Scalar,
}

impl Node {
    /// The node at `pointer` (its reference tokens, unescaped).
    pub fn at(&self, pointer: &[&str]) -> Option<&Node> {
        let Some((first, rest)) = pointer.split_first() else { return Some(self) };
        match &self.kind {
            Kind::Object(members) => members.iter().find(|(k, _)| k == first).and_then(|(_, v)| v.at(rest)),
            Kind::Array(items) => first.parse::<usize>().ok().and_then(|i| items.get(i)).and_then(|v| v.at(rest)),
            Kind::Scalar => None,
        }
    }
}

/// Parses `text` (already known to be JSON) into spans; `None` if it is not.
pub fn parse(text: &str) -> Option<Node> {
    let mut parser = Parser { bytes: text.as_bytes(), text, pos: 0 };
    let node = parser.value()?;
    parser.space();
    (parser.pos == text.len()).then_some(node)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.bytes.get(self.pos).is_some_and(|b| b" \t\r\n".contains(b)) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.space();
        let found = self.bytes.get(self.pos) == Some(&byte);
        self.pos += usize::from(found);
        found
    }

    fn value(&mut self) -> Option<Node> {
        self.space();
        let start = self.pos;
        let kind = match self.bytes.get(self.pos)? {
            b'{' => {
                self.pos += 1;
                let mut members = Vec::new();
                if !self.eat(b'}') {
                    loop {
                        self.space();
                        let key_start = self.pos;
                        self.string()?;
                        let key: String = serde_json::from_str(&self.text[key_start..self.pos]).ok()?;
                        if !self.eat(b':') {
                            return None;
                        }
                        members.push((key, self.value()?));
                        if self.eat(b'}') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                Kind::Object(members)
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                if !self.eat(b']') {
                    loop {
                        items.push(self.value()?);
                        if self.eat(b']') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                Kind::Array(items)
            }
            b'"' => {
                self.string()?;
                Kind::Scalar
            }
            _ => {
                while self.bytes.get(self.pos).is_some_and(|b| !b" \t\r\n,]}:".contains(b)) {
                    self.pos += 1;
                }
                serde_json::from_str::<serde_json::Value>(&self.text[start..self.pos]).ok()?;
                Kind::Scalar
            }
        };
        Some(Node { span: start..self.pos, kind })
    }

    /// Skips a string literal (at its opening quote).
    fn string(&mut self) -> Option<()> {
        if self.bytes.get(self.pos) != Some(&b'"') {
            return None;
        }
        self.pos += 1;
        loop {
            match self.bytes.get(self.pos)? {
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                b'\\' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_at_the_values_as_written() {
        let text = "{\n  \"a\": [1, {\"b\\u0063\": \"x\"}],\n  \"n\": -2.5e1 }";
        let node = parse(text).expect("JSON");
        let span = |p: &[&str]| node.at(p).map(|n| &text[n.span.clone()]);
        assert_eq!(span(&["a", "1", "bc"]), Some("\"x\""));
        assert_eq!(span(&["a", "0"]), Some("1"));
        assert_eq!(span(&["n"]), Some("-2.5e1"));
        assert_eq!(span(&["a"]), Some("[1, {\"b\\u0063\": \"x\"}]"));
        assert_eq!(span(&["missing"]), None);
        assert!(parse("{\"a\": }").is_none());
        assert!(parse("[1] x").is_none());
    }
}
