//! The import graph of `codegen/src` has no circle: each file's `use crate::`
//! and `use super::` lines and its other `crate::` paths (outside tests),
//! resolved to the file they name, never lead back to the file. The layers are in docs/adding-a-target.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, but `tests.rs` files.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().is_some_and(|n| n != "tests.rs") {
            out.push(path);
        }
    }
}

/// A file's module path (`targets::go::names`), and whether the file is a
/// module's root (`mod.rs`, `lib.rs`), in which `super` is its parent.
fn module_of(root: &Path, file: &Path) -> (Vec<String>, bool) {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let mut segments: Vec<String> = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    let last = segments.pop().unwrap_or_default();
    let root_file = ["mod", "lib", "main"].contains(&last.as_str());
    if !root_file {
        segments.push(last);
    }
    (segments, root_file)
}

/// The code of a file before its tests, without line comments.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The paths one `use` tree names, braces expanded (`a::{b, c::d}` is
/// `a::b` and `a::c::d`), each as segments.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split("::").filter(|s| !s.is_empty() && *s != "*").map(|s| s.split(" as ").next().unwrap_or(s).to_string()).collect()];
    };
    let prefix: Vec<String> = tree[..open].split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
    let inner = &tree[open + 1..tree.len() - 1];
    let (mut items, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    items.push(current);
    let mut paths = Vec::new();
    for item in items.iter().filter(|i| !i.is_empty()) {
        for tail in expand(item) {
            let mut path = prefix.clone();
            path.extend(tail.into_iter().filter(|s| s != "self"));
            paths.push(path);
        }
    }
    paths
}

/// Each file's imports of other files, by module path.
fn graph() -> BTreeMap<String, Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let modules: BTreeMap<Vec<String>, (PathBuf, bool)> = files
        .iter()
        .map(|file| {
            let (module, root_file) = module_of(&root, file);
            (module, (file.clone(), root_file))
        })
        .collect();
    let mut edges: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (module, (file, root_file)) in &modules {
        let text = code(&std::fs::read_to_string(file).unwrap());
        let mut targets: Vec<String> = Vec::new();
        for (at, _) in text.match_indices("use ") {
            // A `use` that starts its line (after `pub` or `pub(crate)`), up to its `;`.
            let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
            let before = text[line_start..at].trim();
            if !["", "pub", "pub(crate)"].contains(&before) {
                continue;
            }
            let tree = text[at + 4..].split(';').next().unwrap_or_default();
            for path in expand(tree) {
                // Where the path starts: the crate, or this module (`self`) and its parents (`super`).
                let mut base: Vec<String> = if *root_file { module.clone() } else { module[..module.len().saturating_sub(1)].to_vec() };
                let mut rest = path.as_slice();
                match rest.first().map(String::as_str) {
                    Some("crate") => {
                        base.clear();
                        rest = &rest[1..];
                    }
                    Some("super") | Some("self") => {
                        // `self` is the file's own module, `super` its parent.
                        base = module.clone();
                        while let Some(first) = rest.first().filter(|s| *s == "super" || *s == "self") {
                            if first == "super" {
                                base.pop();
                            }
                            rest = &rest[1..];
                        }
                    }
                    _ => continue,
                }
                let full: Vec<String> = base.into_iter().chain(rest.iter().cloned()).collect();
                // The longest prefix that is a file.
                if let Some(target) = (0..=full.len()).rev().map(|n| full[..n].to_vec()).find(|prefix| modules.contains_key(prefix)) {
                    let target = target.join("::");
                    if target != module.join("::") && !targets.contains(&target) {
                        targets.push(target);
                    }
                }
            }
        }
        // And every `crate::` path in the code (`crate::sdks::read(..)`).
        for (at, _) in text.match_indices("crate::") {
            if text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: Vec<String> = text[at + 7..].split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).next().unwrap_or_default().split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
            if let Some(target) = (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|prefix| modules.contains_key(prefix)) {
                let target = target.join("::");
                if target != module.join("::") && !targets.contains(&target) {
                    targets.push(target);
                }
            }
        }
        edges.insert(module.join("::"), targets);
    }
    edges
}

/// One circle of the graph, if it has one: the files in order, the first again at the end.
fn find_cycle(edges: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    // 0 unseen, 1 on the path, 2 done.
    fn visit(node: &str, edges: &BTreeMap<String, Vec<String>>, state: &mut BTreeMap<String, u8>, path: &mut Vec<String>) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|n| n == next).unwrap_or(0);
                    let mut cycle = path[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(cycle) = visit(next, edges, state, path) {
                        return Some(cycle);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if state.get(node).copied().unwrap_or(0) == 0 {
            if let Some(cycle) = visit(node, edges, &mut state, &mut Vec::new()) {
                return Some(cycle);
            }
        }
    }
    None
}

#[test]
fn the_import_graph_has_no_circle() {
    let edges = graph();
    assert!(edges.len() > 50, "the walk found only {} files", edges.len());
    assert!(edges["load"].contains(&"subset".to_string()), "the `use` lines are not read: load -> {:?}", edges["load"]);
    if let Some(cycle) = find_cycle(&edges) {
        panic!("the import graph of codegen/src has a circle: {} (each file's `use crate::`/`use super::` lines and `crate::` paths)", cycle.join(" -> "));
    }
}

#[test]
fn a_circle_is_found() {
    let edges: BTreeMap<String, Vec<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])].into_iter().map(|(k, v)| (k.to_string(), v.into_iter().map(str::to_string).collect())).collect();
    assert_eq!(find_cycle(&edges), Some(vec!["a".to_string(), "b".to_string(), "c".to_string(), "a".to_string()]));
    assert_eq!(expand("crate::model::{self, Contract, a::{B, C}}").len(), 4);
}

/// The front end never imports a back end: the loader and what it uses
/// reach no target, the page or the lock.
#[test]
fn the_front_end_imports_no_back_end() {
    let edges = graph();
    let mut reached = vec!["load".to_string()];
    let mut i = 0;
    while i < reached.len() {
        for next in edges.get(&reached[i]).into_iter().flatten() {
            if !reached.contains(next) {
                reached.push(next.clone());
            }
        }
        i += 1;
    }
    let back: Vec<&String> = reached.iter().filter(|m| m.starts_with("targets") || m.starts_with("page") || *m == "lock" || m.starts_with("diff")).collect();
    assert!(back.is_empty(), "the loader reaches {back:?} through its imports");
}
