//! Go doc comments: the first sentence Go's conventions want (`Name is
//! ...`), and `//` comment blocks wrapped so gofmt leaves them as they are.

/// The first sentence of a doc comment: `Name is <description>` when the
/// description starts with a plain capitalized word (`The`, `A`, `True`),
/// else `Name: <description>`.
pub fn doc_sentence(name: &str, description: &str) -> String {
    let description = description.trim();
    let first = description.split_whitespace().next().unwrap_or("");
    let mut chars = first.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_lowercase() || c == '-')
        && !matches!(first, "When" | "If" | "Optional");
    if description.is_empty() {
        name.to_string()
    } else if plain {
        let mut rest = description.chars();
        let head = rest.next().map(|c| c.to_ascii_lowercase()).unwrap_or_default();
        format!("{name} is {head}{}", rest.as_str())
    } else {
        format!("{name}: {description}")
    }
}

/// Whether a word at the start of a comment line would make gofmt read the
/// line as a list item or heading (and rewrite it).
fn is_marker(word: &str) -> bool {
    if matches!(word, "-" | "+" | "*" | "•" | "#") {
        return true;
    }
    let digits = word.trim_end_matches(['.', ')']);
    digits.len() + 1 == word.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// Word-wraps `text` into lines of at most `width` characters (longer words
/// stay whole), never starting a line with a list marker.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    crate::targets::wrap_keeping(text, width, is_marker)
}

/// Appends a `//` comment holding `text`, indented by `indent` tabs.
pub fn comment(out: &mut String, indent: usize, text: &str) {
    let tabs = "\t".repeat(indent);
    for line in wrap(text, 77 - 4 * indent) {
        if line.is_empty() {
            out.push_str(&format!("{tabs}//\n"));
        } else {
            out.push_str(&format!("{tabs}// {line}\n"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_avoids_list_markers() {
        let lines = wrap("aaaa bbbb - cccc", 9);
        assert_eq!(lines, vec!["aaaa bbbb -", "cccc"]);
        assert!(is_marker("2."));
        assert!(!is_marker("2.0"));
    }

    #[test]
    fn sentences() {
        assert_eq!(doc_sentence("Verdict", "The outcome."), "Verdict is the outcome.");
        assert_eq!(doc_sentence("Error", "When x."), "Error: When x.");
        assert_eq!(doc_sentence("X", "`a` b"), "X: `a` b");
    }
}
