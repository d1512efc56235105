//! XML doc comments from schema descriptions: `<`, `>` and `&` escaped,
//! `` `code` `` spans turned into `<c>code</c>`, wrapped to the line width.

use super::Out;
use crate::targets::wrap;

const WIDTH: usize = 100;

/// Escapes the XML metacharacters and turns backtick spans into `<c>` elements.
pub fn xml(text: &str) -> String {
    let escaped = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    if !escaped.matches('`').count().is_multiple_of(2) {
        return escaped;
    }
    let mut out = String::new();
    for (i, part) in escaped.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<c>");
            out.push_str(part);
            out.push_str("</c>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// A `<summary>` doc comment from plain text (a schema description).
pub fn summary(out: &mut Out, level: usize, text: &str) {
    summary_xml(out, level, &xml(text));
}

/// `[Obsolete]` on a type or property the contract deprecates (the summary's
/// `Deprecated:` paragraph says why).
pub fn obsolete(out: &mut Out, level: usize, deprecated: bool) {
    if deprecated {
        out.line(level, "[global::System.Obsolete]");
    }
}

/// The file-wide exception a contract with deprecated items needs: the
/// generated code reads, writes and names what it marks `[Obsolete]` (CS0612);
/// code outside the file is still warned.
pub fn allow_obsolete(out: &mut Out, contract: &crate::model::Contract) {
    if contract.has_deprecated() {
        out.line(0, "#pragma warning disable CS0612 // the contract's deprecated items, used by the generated code itself");
    }
}

/// A `<summary>` doc comment from text that is already XML (`<see cref=".."/>`).
pub fn summary_xml(out: &mut Out, level: usize, text: &str) {
    let width = WIDTH.saturating_sub(level * 4 + 4).max(40);
    let lines = wrap(text, width);
    out.line(level, "/// <summary>");
    for line in lines {
        if line.is_empty() {
            out.line(level, "///");
        } else {
            out.line(level, &format!("/// {line}"));
        }
    }
    out.line(level, "/// </summary>");
}
