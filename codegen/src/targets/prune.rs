//! Keeps only the runtime helpers a generated file uses, so that no schema
//! gives a file with dead code (`tsc --noUnusedLocals`, staticcheck's U1000).
//! Shared by the targets whose runtime is one text of top-level declarations.
//!
//! The runtime text is split into top-level chunks at blank lines followed by
//! an unindented line. A chunk that declares a private name (as the target's
//! `private_name` reads its first declaration line) is kept when the rest of
//! the file, or another kept chunk, mentions that name; every other chunk is
//! kept.

use super::claims::identifier;

/// One top-level piece of the runtime text.
struct Chunk<'a> {
    text: &'a str,
    /// The name it declares, when it is a private (prunable) declaration.
    private_name: Option<&'a str>,
}

/// The runtime text without the private declarations `rest` does not need.
/// `private_name` reads a chunk's first declaration line (comments skipped)
/// and gives the private name it declares, if it declares one.
pub fn prune(runtime: &str, rest: &str, private_name: impl Fn(&str) -> Option<&str>) -> String {
    prune_indented(runtime, rest, 0, private_name)
}

/// [`prune`] for a runtime whose declarations are `indent` spaces in (class
/// members, as in Java): chunks start at a blank line followed by a line
/// indented exactly that much, and `private_name` reads the first
/// declaration line without the indent (comments and, when indented,
/// annotations skipped).
pub fn prune_indented(runtime: &str, rest: &str, indent: usize, private_name: impl Fn(&str) -> Option<&str>) -> String {
    let chunks = split(runtime, indent, &private_name);
    // A name inside a string or a comment (a field's wire name `"writeComma"`)
    // is not a use.
    // What is used: the identifiers of the rest of the file and of every kept
    // chunk, grown until no unkept chunk's name is among them. A chunk's own
    // text does not count for itself (a recursive helper is not a use), so
    // a private chunk's identifiers join only once it is kept.
    let mut kept: Vec<bool> = chunks.iter().map(|c| c.private_name.is_none()).collect();
    let mut private: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    for (i, chunk) in chunks.iter().enumerate() {
        if let Some(name) = chunk.private_name {
            private.entry(name).or_default().push(i);
        }
    }
    // Each text is read once: the rest, every chunk kept from the start,
    // then each chunk as a name in a text already read keeps it.
    let mut to_read: Vec<&str> = vec![rest];
    to_read.extend(chunks.iter().zip(&kept).filter(|(_, k)| **k).map(|(c, _)| c.text));
    while let Some(text) = to_read.pop() {
        for word in code_identifiers(text) {
            for &i in private.get(word).into_iter().flatten() {
                if !kept[i] {
                    kept[i] = true;
                    to_read.push(chunks[i].text);
                }
            }
        }
    }
    let texts: Vec<&str> = chunks.iter().zip(&kept).filter(|(_, k)| **k).map(|(c, _)| c.text).collect();
    texts.join("\n\n")
}

fn split<'a>(runtime: &'a str, indent: usize, private_name: &impl Fn(&'a str) -> Option<&'a str>) -> Vec<Chunk<'a>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let bytes = runtime.as_bytes();
    let mut i = 0;
    while let Some(found) = runtime[i..].find("\n\n") {
        let at = i + found;
        let indented = bytes.get(at + 2..at + 2 + indent).is_some_and(|pad| pad.iter().all(|b| *b == b' '));
        let next = bytes.get(at + 2 + indent).copied().unwrap_or(b' ');
        if indented && !next.is_ascii_whitespace() {
            chunks.push(chunk(&runtime[start..at], indent, private_name));
            start = at + 2;
        }
        i = at + 1;
    }
    chunks.push(chunk(&runtime[start..], indent, private_name));
    chunks
}

fn chunk<'a>(text: &'a str, indent: usize, private_name: &impl Fn(&'a str) -> Option<&'a str>) -> Chunk<'a> {
    let declaration = text.lines().map(|line| line.get(indent..).unwrap_or(line)).find(|line| {
        let annotation = indent > 0 && line.starts_with('@');
        !(line.starts_with("//") || line.starts_with("/*") || line.starts_with(" *") || line.is_empty() || annotation)
    });
    Chunk { text, private_name: declaration.and_then(private_name) }
}

/// `text` with the contents of its string and character literals (`"..."`,
/// `'...'`, escapes honoured; `{...}` inside them kept) blanked out and its
/// `//` and `/* */` comments left out. One pass, so that an apostrophe in a
/// comment (`the SDK's`) or `/*` in a string is read as what it is.
pub fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    // Every byte the scan acts on is ASCII, never part of a longer UTF-8
    // sequence: runs between them are copied whole, and a blanked character
    // becomes one space whatever its length, so the text stays UTF-8.
    while i < bytes.len() {
        let next = bytes[i..].iter().position(|b| matches!(b, b'"' | b'\'' | b'/')).map_or(bytes.len(), |n| i + n);
        out.extend_from_slice(&bytes[i..next]);
        let Some(&c) = bytes.get(next) else { break };
        i = next + 1;
        match c {
            b'"' | b'\'' => {
                out.push(c);
                i = literal(bytes, i, c, &mut out);
            }
            b'/' if bytes.get(i) == Some(&b'/') => match bytes[i..].iter().position(|b| *b == b'\n') {
                Some(n) => {
                    out.push(b'\n');
                    i += n + 1;
                }
                None => i = bytes.len(),
            },
            b'/' if bytes.get(i) == Some(&b'*') => {
                let body = i + 1;
                i = bytes[body..].windows(2).position(|w| w == b"*/").map_or(bytes.len(), |n| body + n + 2);
                out.push(b' ');
            }
            _ => out.push(c),
        }
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Blanks a string or character literal whose opening `quote` was just
/// read, up to its closing quote or the line's end (kept); gives the index
/// after it. `{...}` inside is kept: a Python f-string's `{_render_path(p)}`
/// is code, a use.
fn literal(bytes: &[u8], mut i: usize, quote: u8, out: &mut Vec<u8>) -> usize {
    let mut interpolating = false;
    while let Some(&inner) = bytes.get(i) {
        i += 1;
        if inner == quote || inner == b'\n' {
            out.push(inner);
            break;
        }
        interpolating = match inner {
            b'{' => true,
            b'}' => false,
            _ => interpolating,
        };
        if interpolating || inner == b'}' {
            out.push(inner);
            continue;
        }
        if inner == b'\\' && i < bytes.len() {
            // The escaped character, whole.
            i += 1;
            while bytes.get(i).is_some_and(|b| is_continuation(*b)) {
                i += 1;
            }
            out.push(b' ');
        }
        if !is_continuation(inner) {
            out.push(b' ');
        }
    }
    i
}

/// The identifiers of [`code_only`]'s text, in order, read off `text`
/// itself: the same words without the copy (a generated file is some
/// hundred kilobytes, and a fresh copy of it is fresh memory).
pub fn code_identifiers(text: &str) -> impl Iterator<Item = &str> {
    code_spans(text).into_iter().flat_map(identifiers)
}

/// The runs of `text` that [`code_only`] keeps as they are: code between
/// literals and comments, and the `{...}` inside literals. Whatever
/// `code_only` blanks or leaves out parts words, as a span's end does.
fn code_spans(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let next = bytes[i..].iter().position(|b| matches!(b, b'"' | b'\'' | b'/')).map_or(bytes.len(), |n| i + n);
        spans.push(&text[i..next]);
        let Some(&c) = bytes.get(next) else { break };
        i = next + 1;
        match c {
            b'"' | b'\'' => i = literal_spans(text, i, c, &mut spans),
            b'/' if bytes.get(i) == Some(&b'/') => i = bytes[i..].iter().position(|b| *b == b'\n').map_or(bytes.len(), |n| i + n + 1),
            b'/' if bytes.get(i) == Some(&b'*') => {
                let body = i + 1;
                i = bytes[body..].windows(2).position(|w| w == b"*/").map_or(bytes.len(), |n| body + n + 2);
            }
            _ => {}
        }
    }
    spans
}

/// [`literal`]'s kept runs as spans of `text`; gives the index after the
/// literal, as `literal` does.
fn literal_spans<'a>(text: &'a str, mut i: usize, quote: u8, spans: &mut Vec<&'a str>) -> usize {
    let bytes = text.as_bytes();
    let mut interpolating = false;
    let mut run: Option<usize> = None;
    let mut end = bytes.len();
    while let Some(&inner) = bytes.get(i) {
        let at = i;
        i += 1;
        if inner == quote || inner == b'\n' {
            end = at;
            break;
        }
        interpolating = match inner {
            b'{' => true,
            b'}' => false,
            _ => interpolating,
        };
        if interpolating || inner == b'}' {
            run.get_or_insert(at);
            continue;
        }
        if let Some(start) = run.take() {
            spans.push(&text[start..at]);
        }
        if inner == b'\\' && i < bytes.len() {
            i += 1;
            while bytes.get(i).is_some_and(|b| is_continuation(*b)) {
                i += 1;
            }
        }
    }
    if let Some(start) = run {
        spans.push(&text[start..end]);
    }
    i
}

/// A UTF-8 continuation byte (`10xxxxxx`): part of the character before it.
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// The name `line` declares after one of `keywords` (`"func "`, `"class "`),
/// if it starts with one: what a target's `private_name` reads.
pub fn declared<'a>(line: &'a str, keywords: &[&str]) -> Option<&'a str> {
    keywords.iter().find_map(|keyword| line.strip_prefix(keyword).and_then(identifier))
}

/// The identifiers of `text`, in order, repeats included: runs of ASCII
/// letters, digits, `_` and `$` (identifier characters are ASCII: any other
/// byte parts words).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_identifier_char(c)).filter(|word| !word.is_empty())
}

fn is_identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `code_only` as first written, one `char` at a time: the oracle of
    /// the byte scan.
    fn code_only_by_chars(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '"' | '\'' => {
                    out.push(c);
                    let mut interpolating = false;
                    while let Some(inner) = chars.next() {
                        if inner == c || inner == '\n' {
                            out.push(inner);
                            break;
                        }
                        interpolating = match inner {
                            '{' => true,
                            '}' => false,
                            _ => interpolating,
                        };
                        if interpolating || inner == '}' {
                            out.push(inner);
                            continue;
                        }
                        if inner == '\\' && chars.next().is_some() {
                            out.push(' ');
                        }
                        out.push(' ');
                    }
                }
                '/' if chars.peek() == Some(&'/') => {
                    for inner in chars.by_ref() {
                        if inner == '\n' {
                            out.push('\n');
                            break;
                        }
                    }
                }
                '/' if chars.peek() == Some(&'*') => {
                    chars.next();
                    let mut star = false;
                    for inner in chars.by_ref() {
                        if star && inner == '/' {
                            break;
                        }
                        star = inner == '*';
                    }
                    out.push(' ');
                }
                _ => out.push(c),
            }
        }
        out
    }

    #[test]
    fn the_byte_scan_reads_every_runtime_as_the_char_scan_does() {
        let mut texts: Vec<&str> = crate::targets::TARGETS.iter().flat_map(|target| crate::targets::runtime_sources(target)).collect();
        let tricky = [
            "s = \"é\\ü{x}ß\" // 💥 'n\nt = 'ä' /* ö * / */ u",
            "\"\\😀\" '\\", // an escaped astral character, an escape at the end
            "a /* unclosed ü",
            "b // unclosed ü",
            "\"unclosed ü",
            "f\"{ü}\" '}' \"}ä{\"",
            "/",
            "",
        ];
        texts.extend(tricky);
        assert!(texts.len() > tricky.len() + 6, "every target has a runtime");
        for text in texts {
            assert_eq!(code_only(text), code_only_by_chars(text), "{text}");
            let code = code_only(text);
            assert_eq!(code_identifiers(text).collect::<Vec<_>>(), identifiers(&code).collect::<Vec<_>>(), "{text}");
        }
    }

    /// The words read off the text are the words of its copy, on every
    /// file generated from v2.json (what `prune` and the imports read).
    #[test]
    fn the_code_identifiers_of_every_generated_file_are_those_of_its_copy() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated");
        let mut files = vec![root];
        let mut read = 0;
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).expect("generated/ is readable").map(|entry| entry.expect("an entry").path()));
            } else if let Ok(text) = std::fs::read_to_string(&path) {
                let code = code_only(&text);
                assert_eq!(code_identifiers(&text).collect::<Vec<_>>(), identifiers(&code).collect::<Vec<_>>(), "{}", path.display());
                read += 1;
            }
        }
        assert!(read >= 12, "read {read} generated files");
    }

    #[test]
    fn keeps_what_is_used() {
        let runtime = "// head\n\nfunction a(): void {\n  b();\n}\n\nfunction b(): void {}\n\nfunction c(): void {}\n\nexport function d(): void {}";
        fn private(line: &str) -> Option<&str> {
            line.strip_prefix("function ").and_then(identifier)
        }
        let pruned = prune(runtime, "a();", private);
        assert!(pruned.contains("function a") && pruned.contains("function b"));
        assert!(!pruned.contains("function c") && pruned.contains("function d"));
        // Named in a string or a comment only: not a use.
        let pruned = prune(runtime, "x = \"c\"; // c\na();", private);
        assert!(!pruned.contains("function c"), "{pruned}");
        assert_eq!(code_only("f('\"', \"a\\\"b\") // g\nh"), "f(' ', \"    \") \nh");
        assert_eq!(code_only("f\"at {_path(p)}\" 'x'"), "f\"   {_path(p)}\" ' '");
        assert_eq!(code_only("a /** The SDK's {@code HashMap} */ b \"/*\" // d\ne"), "a   b \"  \" \ne");
    }
}
