//! Keeps only the runtime helpers a generated file uses, so that a small
//! schema gives a file without dead code (`tsc --noUnusedLocals` passes).
//!
//! The runtime text is split into top-level chunks at blank lines followed by
//! an unindented line. A chunk that declares a non-exported name is kept when
//! the rest of the file, or another kept chunk, mentions that name.

/// One top-level piece of the runtime text.
struct Chunk<'a> {
    text: &'a str,
    /// The name it declares, when it is a private (prunable) declaration.
    private_name: Option<&'a str>,
}

/// The runtime text without the private declarations `rest` does not need.
pub fn prune(runtime: &str, rest: &str) -> String {
    let chunks = split(runtime);
    let mut kept: Vec<bool> = chunks.iter().map(|c| c.private_name.is_none()).collect();
    loop {
        let mut changed = false;
        for (i, chunk) in chunks.iter().enumerate() {
            let Some(name) = chunk.private_name else { continue };
            if kept[i] {
                continue;
            }
            let used = mentions(rest, name)
                || chunks.iter().enumerate().any(|(j, other)| j != i && kept[j] && mentions(other.text, name));
            if used {
                kept[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let texts: Vec<&str> = chunks.iter().zip(&kept).filter(|(_, k)| **k).map(|(c, _)| c.text).collect();
    texts.join("\n\n")
}

fn split(runtime: &str) -> Vec<Chunk<'_>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    let bytes = runtime.as_bytes();
    let mut i = 0;
    while let Some(found) = runtime[i..].find("\n\n") {
        let at = i + found;
        let next = bytes.get(at + 2).copied().unwrap_or(b' ');
        if !next.is_ascii_whitespace() {
            chunks.push(chunk(&runtime[start..at]));
            start = at + 2;
        }
        i = at + 1;
    }
    chunks.push(chunk(&runtime[start..]));
    chunks
}

fn chunk(text: &str) -> Chunk<'_> {
    let declaration = text.lines().find(|line| {
        !(line.starts_with("//") || line.starts_with("/*") || line.starts_with(" *") || line.is_empty())
    });
    let private_name = declaration.and_then(|line| {
        ["function ", "const ", "type ", "class "].iter().find_map(|keyword| {
            let rest = line.strip_prefix(keyword)?;
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            Some(&rest[..end])
        })
    });
    Chunk { text, private_name }
}

/// Whether `text` contains `name` as a whole identifier.
fn mentions(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut from = 0;
    while let Some(found) = text[from..].find(name) {
        let at = from + found;
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return true;
        }
        from = at + name.len();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_what_is_used() {
        let runtime = "// head\n\nfunction a(): void {\n  b();\n}\n\nfunction b(): void {}\n\nfunction c(): void {}\n\nexport function d(): void {}";
        let pruned = prune(runtime, "a();");
        assert!(pruned.contains("function a") && pruned.contains("function b"));
        assert!(!pruned.contains("function c") && pruned.contains("function d"));
    }
}
