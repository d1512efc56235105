//! The output root (`--out`): the one place codegen reads, writes and
//! deletes. Every path it acts on, wherever it comes from (the support
//! matrix, the version lock an earlier run left, codegen's own names), is a
//! relative path checked by [`path_problem`] and then resolved here, one
//! segment at a time, before anything is read, written or removed:
//!
//! - a segment that is a symbolic link is followed only when it is a
//!   directory that resolves inside the root (an SDK repository may link
//!   `python` to `packages/python`); one that leads anywhere else is refused;
//! - the file itself must be a plain file or not exist: a link there is
//!   refused (codegen would write through it, or replace it);
//! - a temporary file is created new ([`create_new`]), never opened where a
//!   link may already stand, and renamed into place.
//!
//! A refusal names the path relative to the root, says what is there and
//! exits 2 before anything is written.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::SchemaError;

/// The characters a path segment may have: portable on every file system
/// and needing no quoting in any target's string literals.
fn portable(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+')
}

/// Why `path` is not a file path inside the output root, if it is not:
/// absolute, with `\`, a drive, an empty, `.` or `..` segment, or a
/// character outside [`portable`].
pub fn path_problem(path: &str) -> Option<String> {
    if path.starts_with('/') || path.contains('\\') || path.as_bytes().get(1) == Some(&b':') {
        return Some(format!("`{path}` is not relative to the output root"));
    }
    for segment in path.split('/') {
        match segment {
            "" => return Some(format!("`{path}` has an empty segment (a leading, doubled or trailing `/`)")),
            "." | ".." => return Some(format!("`{path}` has a `{segment}` segment: every file stays inside the output root, named without detours")),
            _ if !segment.chars().all(portable) => {
                return Some(format!("`{path}` has a segment `{segment}` with a character outside letters, digits and `._-@+`"))
            }
            _ => {}
        }
    }
    None
}

/// What a resolved path holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// Nothing yet (some of its directories may be missing too).
    Missing,
    /// A plain file.
    File,
}

/// The output root, and where it really is.
#[derive(Debug, Clone)]
pub struct OutputRoot {
    path: PathBuf,
    /// The root with every link resolved, when it exists: a link under it
    /// must resolve inside this.
    real: Option<PathBuf>,
}

impl OutputRoot {
    pub fn new(path: &Path) -> OutputRoot {
        OutputRoot { path: path.to_path_buf(), real: std::fs::canonicalize(path).ok() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of `rel` under the root and what is there, once every
    /// segment is checked (see the module documentation).
    pub fn resolve(&self, rel: &str) -> Result<(PathBuf, Entry), SchemaError> {
        if let Some(problem) = path_problem(rel) {
            return Err(self.refusal(&self.path, problem, "codegen acts only on relative paths inside the output root"));
        }
        let segments: Vec<&str> = rel.split('/').collect();
        let mut here = self.path.clone();
        for (i, segment) in segments.iter().enumerate() {
            here.push(segment);
            let shown = segments[..=i].join("/");
            let last = i + 1 == segments.len();
            let meta = match std::fs::symlink_metadata(&here) {
                Ok(meta) => meta,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    here.extend(&segments[i + 1..]);
                    return Ok((here, Entry::Missing));
                }
                Err(e) => return Err(self.refusal(&here, format!("`{shown}` cannot be inspected: {e}"), "check the output root's permissions")),
            };
            let kind = meta.file_type();
            if kind.is_symlink() {
                let target = std::fs::read_link(&here).map_or_else(|_| "?".to_string(), |t| t.display().to_string());
                if last {
                    return Err(self.refusal(
                        &here,
                        format!("`{shown}` is a symbolic link (to `{target}`): codegen writes a generated file as a plain file, never through a link"),
                        format!("remove the link `{shown}`, then rerun (codegen writes the file there)"),
                    ));
                }
                if !self.inside(&here) {
                    return Err(self.refusal(
                        &here,
                        format!("`{shown}` is a symbolic link (to `{target}`) that leads out of the output root: codegen writes and deletes only inside it"),
                        format!("replace the link `{shown}` with a directory, or point --out at the real location"),
                    ));
                }
            } else if last && !kind.is_file() {
                return Err(self.refusal(&here, format!("`{shown}` is not a plain file, where codegen writes one"), format!("move `{shown}` out of the way, then rerun")));
            } else if !last && !kind.is_dir() {
                return Err(self.refusal(&here, format!("`{shown}` is not a directory, where codegen needs one"), format!("move `{shown}` out of the way, then rerun")));
            }
        }
        Ok((here, Entry::File))
    }

    /// Whether the link `link` resolves to a directory inside the root.
    fn inside(&self, link: &Path) -> bool {
        match (std::fs::canonicalize(link), &self.real) {
            (Ok(target), Some(real)) => target.starts_with(real) && target.is_dir(),
            _ => false,
        }
    }

    fn refusal(&self, at: &Path, problem: String, fix: impl Into<String>) -> SchemaError {
        SchemaError::new(at, "", format!("{problem} (output root {})", self.path.display()), fix)
    }
}

/// Writes `contents` to a temporary file beside `target` that this call
/// creates (`create_new`: nothing that stands at a name, a planted link
/// included, is opened), and returns its path. A name that is taken moves
/// on to the next (`.name.codegen-tmp`, `.name.codegen-tmp1`, ...).
pub fn create_new(target: &Path, contents: &str) -> std::io::Result<PathBuf> {
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy());
    for attempt in 0..100 {
        let suffix = if attempt == 0 { String::new() } else { attempt.to_string() };
        let temp = dir.join(format!(".{name}.codegen-tmp{suffix}"));
        let mut file = match std::fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        };
        if let Err(e) = file.write_all(contents.as_bytes()) {
            let _ = std::fs::remove_file(&temp);
            return Err(e);
        }
        return Ok(temp);
    }
    Err(std::io::Error::new(std::io::ErrorKind::AlreadyExists, format!("every temporary name beside {} is taken", target.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_output_root() {
        for bad in ["/abs/x.go", "C:/x.go", "a\\b.go", "../x.go", "a/../x.go", "a/./x.go", "a//x.go", "a/", "", "a b/x.go", "a/x$.go"] {
            assert!(path_problem(bad).is_some(), "{bad:?}");
        }
        for good in ["x.go", "go/coprocess.go", "sdks/@scope/pkg/src/a.b-c_d+e.ts"] {
            assert_eq!(path_problem(good), None, "{good:?}");
        }
    }

    #[test]
    fn a_path_resolves_to_a_file_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/b/c.txt"), "c").unwrap();
        let root = OutputRoot::new(dir.path());
        assert_eq!(root.resolve("a/b/c.txt").unwrap(), (dir.path().join("a/b/c.txt"), Entry::File));
        assert_eq!(root.resolve("a/x/y.txt").unwrap(), (dir.path().join("a/x/y.txt"), Entry::Missing));
        assert!(root.resolve("a/b").unwrap_err().problem.contains("not a plain file"));
        assert!(root.resolve("a/b/c.txt/d").unwrap_err().problem.contains("`a/b/c.txt` is not a directory"));
        assert!(root.resolve("../a").unwrap_err().problem.contains("`../a`"));
    }

    #[test]
    fn a_temporary_file_is_created_new_beside_what_stands_at_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("f.txt");
        std::fs::write(dir.path().join(".f.txt.codegen-tmp"), "someone else's").unwrap();
        let temp = create_new(&target, "mine").unwrap();
        assert_eq!(temp, dir.path().join(".f.txt.codegen-tmp1"));
        assert_eq!(std::fs::read_to_string(&temp).unwrap(), "mine");
        assert_eq!(std::fs::read_to_string(dir.path().join(".f.txt.codegen-tmp")).unwrap(), "someone else's");
    }
}
