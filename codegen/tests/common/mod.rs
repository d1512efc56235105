//! What the CLI tests share: running the `codegen` binary, and a snapshot
//! of a directory tree.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// `codegen --schema <schema> --out <out> [--check]`.
pub fn codegen(schema: &Path, out: &Path, check: bool) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_codegen"));
    cmd.arg("--schema").arg(schema).arg("--out").arg(out);
    if check {
        cmd.arg("--check");
    }
    let output = cmd.output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into(),
        stderr: String::from_utf8_lossy(&output.stderr).into(),
    }
}

/// Every file under `dir` with its bytes, sorted; a symbolic link (never
/// followed) as `-> <target>`.
pub fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let kind = std::fs::symlink_metadata(&path).unwrap().file_type();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_symlink() {
                out.push((path.clone(), format!("-> {}", std::fs::read_link(&path).unwrap().display()).into_bytes()));
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}
