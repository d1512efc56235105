//! A small line writer with TSDoc comments.

use crate::targets::wrap;

// Doc comments are wrapped to Prettier's width (indentation included).
use super::layout::WIDTH;

/// The text of the file being generated.
#[derive(Default)]
pub(super) struct Out {
    buf: String,
}

impl Out {
    /// Appends one statement, written on one line; one too wide for Prettier's
    /// width is laid out as Prettier lays it out ([`super::layout`]).
    pub fn line(&mut self, text: impl AsRef<str>) {
        self.buf.push_str(&super::layout::statement(text.as_ref()));
        self.buf.push('\n');
    }

    /// Appends an empty line, unless the text already ends with one (Prettier
    /// keeps at most one).
    pub fn blank(&mut self) {
        if !self.buf.ends_with("\n\n") {
            self.buf.push('\n');
        }
    }

    /// A section banner.
    pub fn section(&mut self, title: &str) {
        self.blank();
        self.line("// ---------------------------------------------------------------------------");
        self.line(format!("// {title}"));
        self.blank();
    }

    /// A `/** ... */` comment at `indent`, wrapped, one line when it fits.
    pub fn doc(&mut self, indent: &str, text: &str) {
        let text = escape_doc(text);
        let width = WIDTH.saturating_sub(indent.len() + 3).max(20);
        let lines = wrap(&text, width);
        if lines.len() == 1 && indent.len() + lines[0].len() + 7 <= WIDTH {
            self.line(format!("{indent}/** {} */", lines[0]));
            return;
        }
        self.line(format!("{indent}/**"));
        for line in lines {
            if line.is_empty() {
                self.line(format!("{indent} *"));
            } else {
                self.line(format!("{indent} * {line}"));
            }
        }
        self.line(format!("{indent} */"));
    }

    pub fn finish(self) -> String {
        self.buf
    }
}

/// Keeps a description from closing the comment or starting a TSDoc tag.
fn escape_doc(text: &str) -> String {
    text.replace("*/", "*\\/").replace('@', "\\@")
}
