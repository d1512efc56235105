//! Docstrings and comments from the schema's descriptions, wrapped to the
//! width `ruff format` keeps.

use super::layout::{pad, LINE_WIDTH};
use crate::model::Contract;
use crate::targets::wrap;

/// A docstring at `indent`, wrapped to the line width.
pub fn docstring(indent: usize, text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace("\"\"\"", "\\\"\\\"\\\"");
    let width = LINE_WIDTH.saturating_sub(indent + 3).max(40);
    let mut lines = wrap(&escaped, width);
    if lines.is_empty() {
        lines.push(String::new());
    }
    let prefix = pad(indent);
    if let Some(last) = lines.last_mut() {
        if last.ends_with('"') {
            last.push(' ');
        }
    }
    if lines.len() == 1 {
        return format!("{prefix}\"\"\"{}\"\"\"", lines[0]);
    }
    let mut out = format!("{prefix}\"\"\"{}", lines[0]);
    for line in &lines[1..] {
        out.push('\n');
        if !line.is_empty() {
            out.push_str(&prefix);
            out.push_str(line);
        }
    }
    out.push('\n');
    out.push_str(&prefix);
    out.push_str("\"\"\"");
    out
}

/// Comment lines (`# ...`) wrapped to the line width.
pub fn comment(indent: usize, text: &str) -> String {
    let prefix = pad(indent);
    wrap(text, LINE_WIDTH.saturating_sub(indent + 2))
        .iter()
        .map(|line| if line.is_empty() { format!("{prefix}#") } else { format!("{prefix}# {line}") })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module docstring: what the file holds and how its functions are named.
pub fn module_docstring(contract: &Contract) -> String {
    let text = format!(
        "{}: frame types, strict decoders and encoders, handshake and lane helpers.\n\n{}\n\n\
         Every `$defs` type `T` has `decode_t(text)` and `t_from_value(value)` (strict, raising \
         `DecodeError` with the contract's wording), `t_to_value(t)` and `encode_t(t)` (one line \
         of JSON text); `CODECS` has them all by name. The typed envelopes `RequestOf[P]`, \
         `SuccessResponseOf[R]` and `ResponseOf[R]` read a frame's `params` / `result` as a \
         generated type in the same read: `decode_response_of(text, verdict_from_value)`, \
         `encode_request_of(request, call_params_to_value)`.",
        contract.title,
        contract.description
    );
    docstring(0, &text)
}
