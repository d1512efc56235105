//! TSDoc comments from the schema's descriptions, wrapped to Prettier's width.

use crate::targets::wrap;

use super::layout::{Out, WIDTH};

impl Out {
    /// A `/** ... */` comment at `indent`, wrapped, one line when it fits.
    pub fn doc(&mut self, indent: &str, text: &str) {
        self.doc_tagged(indent, text, false);
    }

    /// A TSDoc comment that ends with the `@deprecated` tag when `deprecated`
    /// (the description's own `Deprecated:` paragraph says why).
    pub fn doc_tagged(&mut self, indent: &str, text: &str, deprecated: bool) {
        let text = escape_doc(text);
        let width = WIDTH.saturating_sub(indent.len() + 3).max(20);
        let lines = wrap(&text, width);
        if !deprecated && lines.len() == 1 && indent.len() + lines[0].len() + 7 <= WIDTH {
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
        if deprecated {
            self.line(format!("{indent} * @deprecated"));
        }
        self.line(format!("{indent} */"));
    }
}

/// Keeps a description from closing the comment or starting a TSDoc tag.
fn escape_doc(text: &str) -> String {
    text.replace("*/", "*\\/").replace('@', "\\@")
}
