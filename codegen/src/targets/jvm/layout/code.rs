//! A small line writer for Java source: four-space indentation, Javadoc
//! blocks ([`super::super::docs`]), statements too wide for one line laid out by
//! [`super::layout`].

use super::super::docs::javadoc;
use super::{layout, WIDTH};

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
        if depth * 4 + line.len() > WIDTH {
            if let Some(laid_out) = layout(depth * 4, line) {
                self.text.push_str(&laid_out);
                self.text.push('\n');
                return;
            }
        }
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
    /// (`tag`, name, description) after it, as google-java-format lays it out.
    pub fn doc(&mut self, depth: usize, description: &str, tags: &[(&str, String, String)]) {
        for line in javadoc(depth * 4, description, tags) {
            self.text.push_str(&line);
            self.text.push('\n');
        }
    }

    /// A `//` comment at column 0, wrapped as google-java-format wraps a line
    /// comment past the limit (`JavaCommentsHelper.wrapLineComments`): at the
    /// last blank at or before the limit, the rest on a new `//` line.
    pub fn line_comment(&mut self, text: &str) {
        let mut line = format!("// {text}");
        while line.len() > WIDTH {
            let bytes = line.as_bytes();
            let mut at = WIDTH;
            while at >= 2 && bytes[at] != b' ' {
                at -= 1;
            }
            if at <= 2 {
                break;
            }
            self.text.push_str(&line[..at]);
            self.text.push('\n');
            line = format!("//{}", &line[at..]);
        }
        self.text.push_str(&line);
        self.text.push('\n');
    }

    pub fn finish(self) -> String {
        self.text
    }
}
