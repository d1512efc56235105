//! Comparing generated files with the output root, writing only what
//! changed, and the drift report. Everything is generated in memory first, so
//! an error leaves the output root untouched; files are written through a
//! temporary sibling and renamed into place. Every path is resolved under
//! the output root first ([`crate::root`]).

use std::path::{Path, PathBuf};

use crate::error::SchemaError;
use crate::root::{Entry, OutputRoot};
use crate::targets::{Files, REGENERATE_COMMAND};

/// How a generated file relates to what is on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Unchanged,
    Stale { old: String },
    Missing,
    /// On disk, listed in the previous lock, no longer generated.
    Extra,
}

/// The plan: every path with its status, sorted. Each path, generated or
/// listed in the previous lock, is resolved under the root first
/// ([`OutputRoot::resolve`]): a link out of the root or in a file's place is
/// refused before anything is read.
pub fn plan(root: &OutputRoot, files: &Files, previous: &[String]) -> Result<Vec<(String, Status)>, SchemaError> {
    let mut out = Vec::new();
    for (rel, contents) in files {
        let (path, entry) = root.resolve(rel)?;
        let status = match entry {
            Entry::Missing => Status::Missing,
            Entry::File => match std::fs::read_to_string(path) {
                Ok(old) if &old == contents => Status::Unchanged,
                Ok(old) => Status::Stale { old },
                Err(_) => Status::Missing,
            },
        };
        out.push((rel.clone(), status));
    }
    for rel in previous {
        if !files.contains_key(rel) && root.resolve(rel)?.1 == Entry::File {
            out.push((rel.clone(), Status::Extra));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Writes the plan; returns the report lines. Each file goes to a temporary
/// file created new beside it ([`crate::root::create_new`]), renamed into
/// place once every file is staged.
pub fn write(root: &OutputRoot, files: &Files, plan: &[(String, Status)]) -> Result<Vec<String>, SchemaError> {
    let io_error = |path: &Path, e: std::io::Error| {
        SchemaError::new(path, "", format!("cannot write: {e}"), "check the output root's permissions and free space")
    };
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let unstage = |staged: &[(PathBuf, PathBuf)]| {
        for (temp, _) in staged {
            let _ = std::fs::remove_file(temp);
        }
    };
    // Each directory is made once, and only when it is missing (a `mkdir`
    // that fails on an existing directory costs more than a `stat`).
    let mut made: std::collections::BTreeSet<PathBuf> = std::collections::BTreeSet::new();
    for (rel, status) in plan {
        if matches!(status, Status::Stale { .. } | Status::Missing) {
            let target = root.path().join(rel);
            let parent = target.parent().unwrap_or(root.path()).to_path_buf();
            if !made.contains(&parent) && !parent.is_dir() {
                if let Err(e) = std::fs::create_dir_all(&parent) {
                    unstage(&staged);
                    return Err(io_error(&parent, e));
                }
            }
            made.insert(parent);
            match crate::root::create_new(&target, &files[rel]) {
                Ok(temp) => staged.push((temp, target)),
                Err(e) => {
                    unstage(&staged);
                    return Err(io_error(&target, e));
                }
            }
        }
    }
    for (temp, target) in &staged {
        std::fs::rename(temp, target).map_err(|e| io_error(target, e))?;
    }
    let mut report = Vec::new();
    for (rel, status) in plan {
        let line = match status {
            Status::Unchanged => format!("unchanged {rel}"),
            Status::Stale { .. } => format!("wrote     {rel}"),
            Status::Missing => format!("created   {rel}"),
            Status::Extra => {
                let path = root.path().join(rel);
                std::fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
                format!("removed   {rel} (no longer generated)")
            }
        };
        report.push(line);
    }
    Ok(report)
}

/// A short unified diff of a stale file (at most `max_lines` lines).
pub fn short_diff(rel: &str, old: &str, new: &str, max_lines: usize) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff.unified_diff().context_radius(2).header(&format!("a/{rel}"), &format!("b/{rel}")).to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = lines.iter().take(max_lines).copied().collect::<Vec<_>>().join("\n");
    if lines.len() > max_lines {
        out.push_str(&format!("\n... ({} more diff lines)", lines.len() - max_lines));
    }
    out
}

/// The drift report of `--check`; empty when everything is in sync.
pub fn drift(root: &Path, files: &Files, plan: &[(String, Status)]) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, status) in plan {
        match status {
            Status::Unchanged => {}
            Status::Stale { old } => out.push(format!("stale: {rel}\n{}", short_diff(rel, old, &files[rel], 40))),
            Status::Missing => out.push(format!("missing: {rel}")),
            Status::Extra => out.push(format!("extra: {rel} (no longer generated)")),
        }
    }
    if !out.is_empty() {
        out.push(format!("{} is out of sync with the schema: run `{REGENERATE_COMMAND}` and commit the result", root.display()));
    }
    out
}
