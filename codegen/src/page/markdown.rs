//! Writing CommonMark (with GitHub's tables) that markdownlint accepts as
//! emitted: ATX headings with GitHub's anchors, paragraphs wrapped at
//! [`WIDTH`], tables, fenced code blocks and lists, each block set off by one
//! blank line. The schema's text is Markdown already (code spans in
//! backticks); [`inline`] keeps its code spans and escapes what would
//! otherwise turn into markup it does not mean (HTML, emphasis, links).

use std::collections::BTreeMap;

/// Where prose wraps (markdownlint's MD013 default).
pub const WIDTH: usize = 80;

/// The page being written.
#[derive(Default)]
pub struct Page {
    text: String,
}

impl Page {
    /// Starts a block: one blank line after the one before.
    fn block(&mut self) {
        if !self.text.is_empty() {
            self.text.push('\n');
        }
    }

    fn line(&mut self, line: &str) {
        self.text.push_str(line.trim_end());
        self.text.push('\n');
    }

    /// `# text` at `level` (the text is Markdown).
    pub fn heading(&mut self, level: usize, text: &str) {
        self.block();
        self.line(&format!("{} {text}", "#".repeat(level)));
    }

    /// An HTML comment, wrapped.
    pub fn comment(&mut self, text: &str) {
        self.block();
        self.line("<!--");
        for line in crate::targets::wrap(text, WIDTH) {
            self.line(&line);
        }
        self.line("-->");
    }

    /// A paragraph of Markdown, wrapped so that no line starts a block.
    pub fn paragraph(&mut self, markdown: &str) {
        self.block();
        for line in wrap(markdown, WIDTH) {
            self.line(&line);
        }
    }

    /// The schema's text: each of its paragraphs (blank-line separated) escaped and wrapped.
    pub fn prose(&mut self, text: &str) {
        for paragraph in paragraphs(text) {
            self.paragraph(&inline(&paragraph));
        }
    }

    /// A bullet list of Markdown items, each wrapped under its marker.
    pub fn bullets(&mut self, items: &[String]) {
        self.block();
        for item in items {
            for (i, line) in wrap(item, WIDTH - 2).iter().enumerate() {
                self.line(&format!("{}{line}", if i == 0 { "- " } else { "  " }));
            }
        }
    }

    /// A table; cells are Markdown on one line (a `|` in them is escaped).
    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>]) {
        self.block();
        let row = |cells: &[String]| format!("| {} |", cells.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "));
        self.line(&row(&header.iter().map(|h| h.to_string()).collect::<Vec<_>>()));
        self.line(&format!("| {} |", header.iter().map(|_| "---").collect::<Vec<_>>().join(" | ")));
        for cells in rows {
            self.line(&row(cells));
        }
    }

    /// A fenced code block, its fence longer than any backtick run in `text`.
    pub fn code(&mut self, language: &str, text: &str) {
        self.block();
        let fence = "`".repeat(3.max(longest_run(text, '`') + 1));
        self.line(&format!("{fence}{language}"));
        for line in text.lines() {
            self.text.push_str(line);
            self.text.push('\n');
        }
        self.line(&fence);
    }

    pub fn finish(self) -> String {
        self.text
    }
}

/// A JSON value on one line as people write it (`{"a": 1, "b": [2, 3]}`):
/// still one frame line, members in the order the schema writes them.
pub fn one_line(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Object(members) => {
            let members: Vec<String> = members.iter().map(|(k, v)| format!("{}: {}", serde_json::Value::from(k.as_str()), one_line(v))).collect();
            format!("{{{}}}", members.join(", "))
        }
        serde_json::Value::Array(items) => format!("[{}]", items.iter().map(one_line).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// The text's paragraphs: split at blank lines, each on one line.
pub fn paragraphs(text: &str) -> Vec<String> {
    text.split("\n\n").map(|p| p.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|p| !p.is_empty()).collect()
}

/// A table cell: the paragraphs on one line, `|` escaped (in code spans too,
/// as GitHub's tables require).
fn cell(markdown: &str) -> String {
    markdown.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "\\|")
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// `text` as a code span: delimited by more backticks than it has in a row,
/// padded with a space when it starts or ends with a backtick.
pub fn code_span(text: &str) -> String {
    let ticks = "`".repeat(longest_run(text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// Whether a word at the start of a line would start a block (a list item,
/// a heading, a quote, a fence, a table row, a setext underline or a
/// thematic break) instead of continuing the paragraph.
fn starts_block(word: &str) -> bool {
    let Some(first) = word.chars().next() else { return false };
    let digits = word.trim_end_matches(['.', ')']);
    (matches!(first, '-' | '+' | '*' | '=' | '_') && word.chars().all(|c| c == first))
        || (word.len() <= 6 && word.chars().all(|c| c == '#'))
        || first == '>'
        || word.starts_with("```")
        || word.starts_with("~~~")
        || (!digits.is_empty() && digits.len() + 1 == word.len() && digits.chars().all(|c| c.is_ascii_digit()))
}

/// Word-wraps Markdown so that no continuation line starts a block.
pub fn wrap(markdown: &str, width: usize) -> Vec<String> {
    crate::targets::wrap_keeping(markdown, width, starts_block)
}

/// The schema's text as inline Markdown: its code spans kept, and outside
/// them `\`, `*`, `[`, `]`, `<`, `>` and `~` escaped, `_` escaped where it could
/// open or close emphasis, `http(s)://` words made autolinks, and a first word
/// that would start a block escaped.
pub fn inline(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            let run = chars[i..].iter().take_while(|&&x| x == '`').count();
            if let Some(end) = closing_run(&chars, i + run, run) {
                out.extend(&chars[i..end + run]);
                i = end + run;
            } else {
                out.push_str(&"\\`".repeat(run));
                i += run;
            }
            continue;
        }
        let at_word_start = i == 0 || chars[i - 1].is_whitespace();
        if at_word_start && (starts_with(&chars[i..], "https://") || starts_with(&chars[i..], "http://")) {
            let end = chars[i..].iter().position(|c| c.is_whitespace()).map_or(chars.len(), |n| i + n);
            let url: String = chars[i..end].iter().collect();
            let url_end = url.trim_end_matches(['.', ',', ';', ':', ')']);
            out.push_str(&format!("<{url_end}>{}", &url[url_end.len()..]));
            i = end;
            continue;
        }
        match c {
            '\\' | '*' | '[' | ']' | '<' | '>' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '_' => {
                let before = i.checked_sub(1).map(|j| chars[j]).is_some_and(char::is_alphanumeric);
                let after = chars.get(i + 1).is_some_and(|c| c.is_alphanumeric());
                if !(before && after) {
                    out.push('\\');
                }
                out.push('_');
            }
            _ => out.push(c),
        }
        i += 1;
    }
    if out.split_whitespace().next().is_some_and(starts_block) && !out.starts_with(['\\', '`']) {
        out.insert(0, '\\');
    }
    out
}

fn starts_with(chars: &[char], prefix: &str) -> bool {
    prefix.chars().enumerate().all(|(i, p)| chars.get(i) == Some(&p))
}

/// Where the backtick run of exactly `run` that closes a code span opened
/// before `from` starts, if any.
fn closing_run(chars: &[char], from: usize, run: usize) -> Option<usize> {
    let mut i = from;
    while i < chars.len() {
        if chars[i] == '`' {
            let length = chars[i..].iter().take_while(|&&x| x == '`').count();
            if length == run {
                return Some(i);
            }
            i += length;
        } else {
            i += 1;
        }
    }
    None
}

/// GitHub's anchor of a heading: lower case, punctuation but `-` and `_`
/// dropped, spaces as `-`.
pub fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of headings in document order, a repeated one numbered as
/// GitHub numbers it (`x`, `x-1`, `x-2`).
#[derive(Default)]
pub struct Anchors {
    /// Every anchor given, and for each base how many times it was asked for.
    used: BTreeMap<String, usize>,
}

impl Anchors {
    pub fn next(&mut self, heading: &str) -> String {
        let base = slug(heading);
        let mut n = self.used.get(&base).copied().unwrap_or(0);
        let mut candidate = if n == 0 { base.clone() } else { format!("{base}-{n}") };
        while n > 0 && self.used.contains_key(&candidate) {
            n += 1;
            candidate = format!("{base}-{n}");
        }
        *self.used.entry(base.clone()).or_insert(0) = n + 1;
        self.used.entry(candidate.clone()).or_insert(1);
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_text_keeps_its_code_spans_and_escapes_markup() {
        assert_eq!(inline("a `<suite>` and <suite>"), "a `<suite>` and \\<suite\\>");
        assert_eq!(inline("`a_b` a_b _x_ *y* [z](w)"), "`a_b` a_b \\_x\\_ \\*y\\* \\[z\\](w)");
        assert_eq!(inline("see https://example.com/x."), "see <https://example.com/x>.");
        assert_eq!(inline("lone ` tick"), "lone \\` tick");
        assert_eq!(inline("`` a ` b ``"), "`` a ` b ``");
        assert_eq!(inline("1. first"), "\\1. first");
        assert_eq!(inline("- x"), "\\- x");
        assert_eq!(inline("+-(2^53-1) and -32602"), "+-(2^53-1) and -32602");
        assert_eq!(inline("-- x"), "\\-- x");
    }

    #[test]
    fn json_is_written_on_one_line_with_spaces() {
        let value = serde_json::json!({"a": [1, {"b": null}], "c\"": "x y"});
        assert_eq!(one_line(&value), r#"{"a": [1, {"b": null}], "c\"": "x y"}"#);
        assert_eq!(serde_json::from_str::<serde_json::Value>(&one_line(&value)).ok(), Some(value));
    }

    #[test]
    fn code_spans_outlast_the_backticks_inside() {
        assert_eq!(code_span("a"), "`a`");
        assert_eq!(code_span("lane `{lane}:` run `{command}`"), "`` lane `{lane}:` run `{command}` ``");
    }

    #[test]
    fn no_continuation_line_starts_a_block() {
        let text = "aaaa bbbb - cccc 1. dddd # eeee >ffff --- gggg ``` hhhh";
        for width in 1..text.len() {
            for line in wrap(text, width).iter().skip(1) {
                assert!(!starts_block(line.split_whitespace().next().unwrap_or("")), "{width}: {line:?}");
            }
        }
    }

    #[test]
    fn anchors_are_githubs() {
        let mut anchors = Anchors::default();
        assert_eq!(anchors.next("Type `Verdict`"), "type-verdict");
        assert_eq!(anchors.next("Error codes"), "error-codes");
        assert_eq!(anchors.next("Type `ABc`"), "type-abc");
        assert_eq!(anchors.next("Type `Abc`"), "type-abc-1");
        assert_eq!(anchors.next("Type `aBC`"), "type-abc-2");
    }
}
