//! Javadoc blocks laid out exactly as google-java-format's Javadoc formatter
//! (`JavadocLexer`, `JavadocWriter`, `JavadocFormatter`) lays them out: the
//! text is read as tokens (runs of non-blank text; `<code>` and `</code>` are
//! tokens of their own, and inside `<code>...</code>` blanks do not separate
//! tokens), tokens are written one after the other and a line is broken before
//! a token that would pass column 100; a blank line plus `<p>` opens each
//! paragraph after the first, a blank line separates the description from the
//! block tags, a tag's continuation lines are indented four more spaces, and a
//! block with one line of text that fits is written `/** text */`. The text
//! comes from schema descriptions made safe for `javac` (no `*/`, no `\u`
//! escapes, HTML-escaped text, code spans as `{@code ...}`).

use crate::model::Contract;

/// google-java-format's column limit (`JavadocFormatter.MAX_LINE_LENGTH`).
pub const WIDTH: usize = 100;

/// The class Javadoc: the schema's title and description, how the types
/// decode and encode, and the typed envelopes when there are any.
pub fn class_doc(contract: &Contract) -> String {
    let text = format!(
        "{}.\n\n{}\n\nEach type has `fromJson(String)` and `fromNode(JsonNode)`, which decode strictly and throw \
         `DecodeException` with the contract's wording, and `toJson()`, which writes one line.",
        contract.title, contract.description
    );
    match super::envelopes::class_doc(contract) {
        Some(envelopes) => format!("{text}\n\n{envelopes}"),
        None => text,
    }
}

/// A description as Javadoc text (escaped, not wrapped).
pub fn doc_text(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        let is_code = i % 2 == 1;
        if is_code && code_is_plain(part) {
            out.push_str("{@code ");
            out.push_str(part);
            out.push('}');
        } else if is_code {
            out.push_str("<code>");
            out.push_str(&html_escape(part));
            out.push_str("</code>");
        } else {
            out.push_str(&html_escape(part));
        }
    }
    out
}

/// A code span can go into `{@code ..}` as is when its braces balance and it
/// holds nothing that Java or Javadoc would read specially.
fn code_is_plain(code: &str) -> bool {
    let mut depth = 0i32;
    for c in code.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            '@' => return false,
            c if !c.is_ascii() || c.is_ascii_control() => return false,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0 && !code.is_empty() && !code.contains("*/") && !code.contains("\\u")
}

fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '@' => out.push_str("&#64;"),
            '\\' => out.push_str("&#92;"),
            c if !c.is_ascii() => out.push_str(&format!("&#x{:x};", c as u32)),
            c => out.push(c),
        }
    }
    out.replace("*/", "*&#47;")
}

/// A Javadoc token, as the writer sees it.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// Text that is never broken; `spaced` when blanks came before it.
    Text { text: String, spaced: bool },
    /// `<p>` (pinned to the text after it).
    Paragraph,
    /// A block tag and what it names on the same line (`@param name`).
    Tag(String),
}

/// The lines of a Javadoc block at `indent` columns (each line indented):
/// `description` (a schema description, Markdown code spans allowed) and the
/// block tags `(tag, name, text)` after it.
pub fn javadoc(indent: usize, description: &str, tags: &[(&str, String, String)]) -> Vec<String> {
    let mut tokens = Vec::new();
    for (i, paragraph) in paragraphs(&doc_text(description)).iter().enumerate() {
        if i > 0 {
            tokens.push(Token::Paragraph);
        }
        // The blank line before a paragraph is the `<p>`'s, not a space.
        lex(paragraph, i == 0, &mut tokens);
    }
    for (tag, name, text) in tags {
        let head = if name.is_empty() { format!("@{tag}") } else { format!("@{tag} {name}") };
        // `@param <P>` is one token for the lexer; `@param name` is the tag
        // and then the name, which the writer keeps on the tag's line anyway.
        tokens.push(Token::Tag(head));
        lex(&doc_text(text), true, &mut tokens);
    }
    framed(indent, write(indent, &tokens))
}

/// The written `lines` framed as a block at `indent` columns: `/** text */`
/// when one line of text fits (JavadocFormatter.makeSingleLineIfPossible),
/// else ` * ` before each line between `/**` and ` */`.
fn framed(indent: usize, lines: Vec<String>) -> Vec<String> {
    let pad = " ".repeat(indent);
    if let [only] = lines.as_slice() {
        if only.len() + "/**  */".len() + indent <= WIDTH && !only.starts_with('@') {
            return vec![format!("{pad}/** {only} */")];
        }
    }
    let mut out = vec![format!("{pad}/**")];
    out.extend(lines.into_iter().map(|line| if line.is_empty() { format!("{pad} *") } else { format!("{pad} * {line}") }));
    out.push(format!("{pad} */"));
    out
}

/// `source` (Java text) with every Javadoc block laid out again as
/// [`javadoc`] lays out a description: for runtime text whose placeholders
/// were filled with names of another length than the placeholders', so that
/// it stays what google-java-format prints. The blocks' text is Javadoc
/// already (it is not escaped again); a block of one line of text that fits
/// is written `/** text */`.
pub fn reflow(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut lines = source.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if !trimmed.starts_with("/**") {
            out.push_str(line);
            continue;
        }
        let indent = line.len() - trimmed.len();
        let mut body = Vec::new();
        let mut rest = Some(trimmed.trim_end());
        while let Some(text) = rest.take() {
            let text = text.strip_prefix("/**").unwrap_or(text);
            let (text, closed) = match text.trim_end().strip_suffix("*/") {
                Some(inner) => (inner, true),
                None => (text, false),
            };
            let text = text.trim();
            body.push(text.strip_prefix('*').map_or(text, str::trim_start).to_string());
            if !closed {
                rest = lines.next().map(str::trim);
            }
        }
        for block_line in block(indent, &body) {
            out.push_str(&block_line);
            out.push('\n');
        }
    }
    out
}

/// The Javadoc block of `body` (the text lines between `/**` and `*/`,
/// without their ` * `): its description's paragraphs (`<p>` opens each after
/// the first) and its block tags.
fn block(indent: usize, body: &[String]) -> Vec<String> {
    let mut description = Vec::<String>::new();
    let mut tags = Vec::<String>::new();
    for line in body.iter().map(|l| l.trim()) {
        if line.starts_with('@') {
            tags.push(line.to_string());
        } else if let Some(tag) = tags.last_mut() {
            tag.push(' ');
            tag.push_str(line);
        } else {
            description.push(line.to_string());
        }
    }
    let description = description.join("\n");
    let mut tokens = Vec::new();
    for (i, paragraph) in description.split("<p>").map(str::trim).filter(|p| !p.is_empty()).enumerate() {
        if i > 0 {
            tokens.push(Token::Paragraph);
        }
        lex(paragraph, i == 0, &mut tokens);
    }
    for tag in &tags {
        let mut words = tag.splitn(3, ' ');
        let name = words.next().unwrap_or_default();
        let (head, text) = match name {
            "@param" | "@throws" | "@exception" => {
                let what = words.next().unwrap_or_default();
                (format!("{name} {what}"), words.next().unwrap_or_default().to_string())
            }
            _ => (name.to_string(), tag[name.len()..].trim().to_string()),
        };
        tokens.push(Token::Tag(head));
        lex(&text, true, &mut tokens);
    }
    framed(indent, write(indent, &tokens))
}

/// Paragraphs: text separated by a blank line (a run of blanks holding two
/// line breaks, which the lexer reads as a paragraph break).
fn paragraphs(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut blanks = String::new();
    for c in text.chars() {
        if c.is_whitespace() {
            blanks.push(c);
            continue;
        }
        if !blanks.is_empty() {
            let current = out.last_mut().map(|p| !p.is_empty()).unwrap_or(false);
            if blanks.matches('\n').count() >= 2 && current {
                out.push(String::new());
            } else if current {
                if let Some(p) = out.last_mut() {
                    p.push(' ');
                }
            }
            blanks.clear();
        }
        if let Some(p) = out.last_mut() {
            p.push(c);
        }
    }
    out.retain(|p| !p.is_empty());
    out
}

/// Appends the tokens of one paragraph's text (no paragraph breaks inside).
fn lex(text: &str, spaced: bool, tokens: &mut Vec<Token>) {
    let lower = text.to_ascii_lowercase();
    let (mut braces, mut code) = (0usize, 0usize);
    let mut spaced = spaced;
    let mut current = String::new();
    let flush = |current: &mut String, spaced: &mut bool, tokens: &mut Vec<Token>| {
        if !current.is_empty() {
            tokens.push(Token::Text { text: std::mem::take(current), spaced: *spaced });
            *spaced = false;
        }
    };
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let c = rest.chars().next().unwrap_or(' ');
        if code == 0 && (c == ' ' || c == '\t' || c == '\n') {
            flush(&mut current, &mut spaced, tokens);
            spaced = true;
            i += c.len_utf8();
            continue;
        }
        if braces == 0 {
            let tag = |name: &str| lower[i..].starts_with(name) && html_tag_end(&lower[i + name.len()..]).is_some();
            let open = tag("<code");
            let close = tag("</code");
            if open || close {
                // `<code>` and `</code>` are tokens of their own: a line may
                // break before or after them even with no blank around.
                let name = if open { "<code" } else { "</code" };
                let end = i + name.len() + html_tag_end(&lower[i + name.len()..]).unwrap_or(0);
                flush(&mut current, &mut spaced, tokens);
                tokens.push(Token::Text { text: text[i..end].to_string(), spaced });
                spaced = false;
                if open {
                    code += 1;
                } else {
                    code = code.saturating_sub(1);
                }
                i = end;
                continue;
            }
        }
        if rest.starts_with("{@") || (c == '{' && braces > 0) {
            braces += 1;
        } else if c == '}' {
            braces = braces.saturating_sub(1);
        }
        current.push(c);
        i += c.len_utf8();
    }
    flush(&mut current, &mut spaced, tokens);
}

/// Where an HTML tag whose name was just read ends (after its `>`), when the
/// name ends there (`<code>`, `<code class="x">`, not `<codex>`).
fn html_tag_end(after_name: &str) -> Option<usize> {
    let next = after_name.chars().next()?;
    if next.is_ascii_alphanumeric() || next == '_' {
        return None;
    }
    after_name.find('>').map(|end| end + 1)
}

/// What the writer was asked to put before the next token (JavadocWriter's
/// `RequestedWhitespace`, lowest priority first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Whitespace {
    None,
    Space,
    Newline,
    BlankLine,
}

/// JavadocWriter: the content lines (without ` * `), `""` for a blank line.
fn write(indent: usize, tokens: &[Token]) -> Vec<String> {
    struct Writer {
        lines: Vec<String>,
        full: usize,
        remaining: usize,
        at_start: bool,
        wrote: bool,
        in_tag: bool,
        request: Whitespace,
    }
    impl Writer {
        fn newline(&mut self) {
            let inner = if self.in_tag { 4 } else { 0 };
            self.lines.push(" ".repeat(inner));
            self.remaining = self.full.saturating_sub(inner);
            self.at_start = true;
        }
        fn token(&mut self, text: &str, pinned: bool) {
            if self.request == Whitespace::BlankLine && self.in_tag {
                self.request = Whitespace::Newline;
            }
            match self.request {
                Whitespace::BlankLine => {
                    self.lines.push(String::new());
                    self.newline();
                    self.request = Whitespace::None;
                }
                Whitespace::Newline => {
                    self.newline();
                    self.request = Whitespace::None;
                }
                _ => {}
            }
            let space = self.request == Whitespace::Space;
            if !self.at_start && text.len() + usize::from(space) > self.remaining {
                self.newline();
            }
            let line = self.lines.last_mut().expect("a line");
            if !self.at_start && space {
                line.push(' ');
                self.remaining = self.remaining.saturating_sub(1);
            }
            line.push_str(text);
            if !pinned {
                self.at_start = false;
            }
            self.remaining = self.remaining.saturating_sub(text.len());
            self.request = Whitespace::None;
            self.wrote = true;
        }
    }
    let full = WIDTH.saturating_sub(indent + 3);
    let mut w = Writer { lines: vec![String::new()], full, remaining: full, at_start: true, wrote: false, in_tag: false, request: Whitespace::None };
    for token in tokens {
        match token {
            Token::Paragraph => {
                if w.wrote {
                    w.request = w.request.max(Whitespace::BlankLine);
                    w.token("<p>", true);
                }
            }
            Token::Tag(head) => {
                if w.wrote {
                    if w.in_tag {
                        w.in_tag = false;
                        w.request = w.request.max(Whitespace::Newline);
                    } else {
                        w.request = w.request.max(Whitespace::BlankLine);
                    }
                }
                w.token(head, false);
                w.in_tag = true;
            }
            Token::Text { text, spaced } => {
                if *spaced {
                    w.request = w.request.max(Whitespace::Space);
                }
                w.token(text, false);
            }
        }
    }
    w.lines.iter().map(|l| l.trim_end().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block laid out for short names is laid out again for longer ones,
    /// and a block already laid out is left as it is.
    #[test]
    fn reflow_lays_out_blocks_again() {
        let short = "    /**\n     * {@code A}'s result read uniformly: a {@code B} as it is; a {@code C}'s success derived from\n     * {@code isError}.\n     *\n     * @param result the answer of {@code A}\n     * @return its success\n     */\n    int f();\n";
        assert_eq!(reflow(short), short);
        let long = short.replace("{@code C}", "{@code CpToolCallPassthroughLonger}");
        let relaid = reflow(&long);
        assert_ne!(relaid, long);
        assert!(relaid.lines().all(|l| l.len() <= WIDTH), "{relaid}");
        assert!(relaid.contains("a {@code\n     * CpToolCallPassthroughLonger}'s success derived from {@code isError}.\n"), "{relaid}");
        assert_eq!(reflow("    /** One line. */\n"), "    /** One line. */\n");
    }

    #[test]
    fn docs() {
        assert_eq!(
            doc_text("`{advice}` when <suite> & `a*/b`"),
            "{@code {advice}} when &lt;suite&gt; &amp; <code>a*&#47;b</code>"
        );
    }

    #[test]
    fn a_short_text_is_one_line_and_a_long_one_breaks_before_the_word_past_column_100() {
        assert_eq!(javadoc(4, "Short.", &[]), ["    /** Short. */"]);
        let words = "word ".repeat(30);
        let lines = javadoc(4, words.trim(), &[]);
        assert!(lines.iter().all(|l| l.len() <= WIDTH), "{lines:#?}");
        assert_eq!(lines[1].len(), 4 + 3 + 18 * 5 - 1);
    }

    #[test]
    fn paragraphs_tags_and_code_tags() {
        let lines = javadoc(0, "One.\n\nTwo `a b`.", &[("param", "x".into(), "the x".into()), ("return", String::new(), "it".into())]);
        assert_eq!(lines, ["/**", " * One.", " *", " * <p>Two {@code a b}.", " *", " * @param x the x", " * @return it", " */"]);
        let mut tokens = Vec::new();
        lex("(<code>a b</code>).", true, &mut tokens);
        let texts: Vec<String> = tokens.iter().map(|t| match t { Token::Text { text, .. } => text.clone(), _ => String::new() }).collect();
        assert_eq!(texts, ["(", "<code>", "a b", "</code>", ")."]);
    }
}
