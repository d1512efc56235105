//! No emitter and no runtime knows a contract name: the targets reach the
//! contract's types and methods through `contract.roles` and
//! `targets::client`. An emitter (`codegen/src/**/*.rs` outside test
//! modules and `tests.rs`) has no string literal equal to a `$defs` type
//! name or a method name of schemas/ipc/v2.json; a runtime file (`runtime.*`,
//! `client_runtime.*`, `Runtime.java`, `ClientRuntime.java`, the Rust
//! `templates/`) has none as a whole word outside comments.

use std::path::{Path, PathBuf};

/// The `$defs` type names and the method names of the repository's contract.
fn contract_names() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut names: Vec<String> = schema["$defs"].as_object().unwrap().keys().cloned().collect();
    for method in schema["x-coprocess"]["methods"].as_array().unwrap() {
        names.push(method["name"].as_str().unwrap().to_string());
    }
    names
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn is_runtime(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let stem = name.split('.').next().unwrap_or_default();
    ["runtime", "client_runtime", "Runtime", "ClientRuntime"].contains(&stem)
        || path.parent().is_some_and(|p| p.ends_with("rust/templates"))
}

/// The string literals of Rust source outside `#[cfg(test)] mod` blocks,
/// each with its line: (line, content as written between the quotes).
fn string_literals(text: &str) -> Vec<(usize, String)> {
    let bytes = text.as_bytes();
    let (mut i, mut line, mut out) = (0, 1, Vec::new());
    // Brace depth, and the depth at which a skipped test module closes.
    let (mut depth, mut skip_until): (usize, Option<usize>) = (0, None);
    let mut test_module_next = false;
    while i < bytes.len() {
        let rest = &text[i..];
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |e| e + 2);
            line += rest[..end].matches('\n').count();
            i += end;
        } else if rest.starts_with("#[cfg(test)]") {
            test_module_next = true;
            i += "#[cfg(test)]".len();
        } else if c == b'{' {
            if test_module_next && skip_until.is_none() {
                skip_until = Some(depth);
            }
            test_module_next = false;
            depth += 1;
            i += 1;
        } else if c == b'}' {
            depth = depth.saturating_sub(1);
            if skip_until == Some(depth) {
                skip_until = None;
            }
            i += 1;
        } else if c == b';' {
            // `#[cfg(test)] use ...;` or `mod tests;`: no block follows.
            test_module_next = false;
            i += 1;
        } else if let Some(hashes) = raw_string_start(rest) {
            let open = 1 + hashes.len() + 1 + usize::from(rest.starts_with('b'));
            let close = format!("\"{hashes}");
            let end = rest[open..].find(&close).map_or(rest.len(), |e| open + e);
            if skip_until.is_none() {
                out.push((line, rest[open..end].to_string()));
            }
            line += rest[..end].matches('\n').count();
            i += (end + close.len()).min(rest.len());
        } else if c == b'"' {
            let mut j = 1;
            while j < rest.len() && bytes[i + j] != b'"' {
                j += if bytes[i + j] == b'\\' { 2 } else { 1 };
            }
            let content = &rest[1..j.min(rest.len())];
            if skip_until.is_none() {
                out.push((line, content.to_string()));
            }
            line += content.matches('\n').count();
            i += j + 1;
        } else if c == b'\'' {
            // A char literal ('"', '\'', '\u{..}') or a lifetime.
            let end = if rest[1..].starts_with('\\') { rest[2..].find('\'').map(|e| e + 3) } else { rest[1..].char_indices().nth(1).filter(|(_, ch)| *ch == '\'').map(|(e, _)| e + 2) };
            i += end.unwrap_or(1);
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            // A whole identifier, so that `br` or `r` inside one starts no string.
            let end = rest.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).unwrap_or(rest.len());
            if raw_string_start(rest).is_none() {
                i += end.max(1);
            }
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

/// The hashes of a raw string (`r#"` gives `#`) starting `rest`.
fn raw_string_start(rest: &str) -> Option<&str> {
    let after = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r'))?;
    let hashes = &after[..after.find(|c| c != '#').unwrap_or(after.len())];
    after[hashes.len()..].starts_with('"').then_some(hashes)
}

/// A runtime file's lines without their comments (`//`, `/* */`, and `#`
/// in Python).
fn code_lines(path: &Path, text: &str) -> Vec<(usize, String)> {
    let python = path.extension().is_some_and(|e| e == "py");
    let mut in_block = false;
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let mut line = String::new();
        let mut rest = raw;
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(end) => {
                        in_block = false;
                        rest = &rest[end + 2..];
                    }
                    None => break,
                }
            } else if let Some(start) = ["//", "/*"].iter().filter_map(|m| rest.find(m).map(|at| (at, *m))).min() {
                line.push_str(&rest[..start.0]);
                if start.1 == "//" {
                    break;
                }
                in_block = true;
                rest = &rest[start.0 + 2..];
            } else {
                line.push_str(rest);
                break;
            }
        }
        if python {
            line = line.split('#').next().unwrap_or_default().to_string();
        }
        out.push((n + 1, line));
    }
    out
}

/// Whether `word` is in `line` as a whole word (not inside a longer name
/// or a dotted or slashed path), and not as a member being initialized
/// (`{ Params = p }`, `, Params: p`: the envelope's `params` member, whose
/// field name may equal a type's).
fn has_word(line: &str, word: &str) -> bool {
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '/';
    line.match_indices(word).any(|(at, _)| {
        let (before, after) = (&line[..at], &line[at + word.len()..]);
        let member = before.trim_end().ends_with(['{', ',']) && {
            let next = after.trim_start();
            (next.starts_with(':') && !next.starts_with("::")) || (next.starts_with('=') && !next.starts_with("==") && !next.starts_with("=>"))
        };
        !member && !before.chars().next_back().is_some_and(part) && !after.chars().next().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/' || (c == '.' && after[1..].starts_with(|d: char| d.is_ascii_alphanumeric())))
    })
}

/// Every place an emitter or a runtime names the contract, as `file:line: name`.
fn findings() -> Vec<String> {
    let names = contract_names();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    files(&root.join("src"), &mut all);
    all.sort();
    let mut found = Vec::new();
    for path in &all {
        let shown = path.strip_prefix(root).unwrap_or(path).display().to_string();
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        if is_runtime(path) {
            for (line, code) in code_lines(path, &text) {
                for name in names.iter().filter(|name| has_word(&code, name)) {
                    found.push(format!("codegen/{shown}:{line}: `{name}` (runtime)"));
                }
            }
        } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().is_some_and(|n| n != "tests.rs") {
            for (line, literal) in string_literals(&text) {
                if let Some(name) = names.iter().find(|name| **name == literal) {
                    found.push(format!("codegen/{shown}:{line}: \"{name}\""));
                }
            }
        }
    }
    found
}

#[test]
fn no_emitter_or_runtime_names_the_contract() {
    let found = findings();
    assert!(found.is_empty(), "{} places name a type or method of v2.json instead of reading contract.roles:\n{}", found.len(), found.join("\n"));
}

/// The scanner itself: literals outside test modules, words outside comments.
#[test]
fn the_scanner_finds_literals_and_words() {
    let source = "fn a() { let x = \"Request\"; let y = r#\"mcp.call\"#; let c = '\"'; }\n// \"Verdict\"\n#[cfg(test)]\nmod tests { fn t() { let _ = \"Response\"; } }\nfn b<'a>(s: &'a str) -> &'a str { \"ErrorObject\" }\n";
    let literals: Vec<String> = string_literals(source).into_iter().map(|(_, s)| s).collect();
    assert_eq!(literals, ["Request", "mcp.call", "ErrorObject"]);
    assert!(has_word("x: Request)", "Request") && !has_word("RequestOf", "Request") && !has_word("p.Request", "Request"));
    assert!(has_word("send(\"mcp.call\")", "mcp.call") && !has_word("mcp.callPrompt", "mcp.call"));
    assert!(!has_word("f(x, Params: p}", "Params") && !has_word("new T() { Params = p }", "Params"));
    assert!(has_word("var x = new Params(p)", "Params") && has_word("Params::decode(p)", "Params") && has_word("{ x = Params }", "Params"));
    let lines = code_lines(Path::new("runtime.go"), "a := 1 // Request\n/* Response\n */ b := Verdict");
    assert_eq!(lines.iter().map(|(_, l)| l.trim()).collect::<Vec<_>>(), ["a := 1", "", "b := Verdict"]);
    // The repository's contract and sources are read.
    assert!(contract_names().len() > 10);
    let _ = findings();
}
