//! A small line writer for Java source: four-space indentation, Javadoc blocks.

use super::naming::{doc_lines, doc_text};
use crate::targets::wrap;

/// The widest a Javadoc line may get, markers and indentation included.
const DOC_WIDTH: usize = 100;

#[derive(Default)]
pub struct Code {
    text: String,
}

impl Code {
    pub fn new() -> Self {
        Self::default()
    }

    /// One line at `depth` levels of indentation (an empty `line` gives a blank line).
    pub fn line(&mut self, depth: usize, line: impl AsRef<str>) {
        let line = line.as_ref();
        if !line.is_empty() {
            for _ in 0..depth {
                self.text.push_str("    ");
            }
            self.text.push_str(line);
        }
        self.text.push('\n');
    }

    pub fn blank(&mut self) {
        self.text.push('\n');
    }

    /// Appends text verbatim (static parts of the file).
    pub fn raw(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// A Javadoc block from a schema description, with `@param`-style tags
    /// (`tag`, name, description) after it.
    pub fn doc(&mut self, depth: usize, description: &str, tags: &[(&str, String, String)]) {
        let width = DOC_WIDTH.saturating_sub(depth * 4 + 3).max(40);
        let lines = doc_lines(description, width);
        if let ([only], true) = (lines.as_slice(), tags.is_empty()) {
            if depth * 4 + only.len() + 7 <= DOC_WIDTH {
                self.line(depth, format!("/** {only} */"));
                return;
            }
        }
        self.line(depth, "/**");
        let mut paragraph_start = false;
        for line in lines {
            if line.is_empty() {
                paragraph_start = true;
                self.doc_line(depth, "");
            } else if std::mem::take(&mut paragraph_start) {
                self.doc_line(depth, &format!("<p>{line}"));
            } else {
                self.doc_line(depth, &line);
            }
        }
        if !tags.is_empty() {
            self.doc_line(depth, "");
        }
        for (tag, name, text) in tags {
            let head = if name.is_empty() {
                format!("@{tag}")
            } else {
                format!("@{tag} {name}")
            };
            let lines = wrap(&format!("{head} {}", doc_text(text)), width);
            for (i, line) in lines.iter().enumerate() {
                let line = if i == 0 {
                    line.clone()
                } else {
                    format!("    {line}")
                };
                self.doc_line(depth, &line);
            }
        }
        self.line(depth, " */");
    }

    fn doc_line(&mut self, depth: usize, line: &str) {
        if line.is_empty() {
            self.line(depth, " *");
        } else {
            self.line(depth, format!(" * {line}"));
        }
    }

    pub fn finish(self) -> String {
        self.text
    }
}
