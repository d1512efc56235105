//! One conformance testee built on a contract's output (generated under
//! target/) and run: the proof round (`tests/conformance/round.rs`) builds
//! every testee once with it and runs every proof's cases through them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use codegen::targets::TARGETS;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// How one testee's build ended.
#[derive(Clone)]
pub enum Build {
    /// Built, every strict check passed.
    Ready,
    /// No toolchain outside CI (`build.sh` exited 3): loudly reported, not checked.
    Missing(String),
    /// A build or a strict check failed.
    Failed(String),
}

/// Builds one testee on the output under `out_root` and runs its strict
/// checks on it and on the files under `goldens` (each a folder laid out like
/// an output root), with more variables for the build script (the Rust
/// testee builds the library's testee beside it from `CONFORMANCE_LIBRARY`).
pub fn build(target: &str, out_root: &Path, build: &Path, goldens: &Path, vars: &[(&str, &Path)]) -> Build {
    let output = Command::new("bash")
        .arg(format!("tests/conformance/{target}/build.sh"))
        .arg(out_root)
        .env("OUTPUT_ROOT", out_root)
        .env("CONFORMANCE_BUILD", build)
        .env("CONFORMANCE_GOLDENS", goldens)
        .envs(vars.iter().copied())
        .current_dir(root())
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => return Build::Failed(format!("{target}: cannot start build.sh: {e}")),
    };
    let log = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    match output.status.code() {
        Some(0) => Build::Ready,
        Some(3) if std::env::var("CI").as_deref() != Ok("true") => Build::Missing(log),
        _ => Build::Failed(format!("{target}: build.sh failed on the proof contract\n{log}")),
    }
}

/// Runs one testee, already built by [`build`], over `input` (NDJSON case
/// lines), with arguments for the run script (`--library`: the Rust testee's
/// library twin).
pub fn run(target: &str, args: &[&str], out_root: &Path, build: &Path, input: &str) -> Result<Vec<Value>, String> {
    let mut child = Command::new("bash")
        .arg(format!("tests/conformance/{target}/run.sh"))
        .args(args)
        .env("OUTPUT_ROOT", out_root)
        .env("CONFORMANCE_BUILD", build)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{target}: cannot start run.sh: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let text = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(format!("{target}: run.sh exited with {}: {}", output.status, String::from_utf8_lossy(&output.stderr)));
    }
    // Split on `\n` only: answers may carry a raw U+2028 inside strings.
    String::from_utf8_lossy(&output.stdout)
        .split('\n')
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("{target}: bad answer line {l}: {e}")))
        .collect()
}

/// The testees a proof runs: all six, or those the variable `env` lists
/// (comma-separated), for work on one target.
pub fn chosen(env: &str) -> Vec<&'static str> {
    match std::env::var(env) {
        Ok(list) => TARGETS.iter().copied().filter(|t| list.split(',').any(|l| l.trim() == *t)).collect(),
        Err(_) => TARGETS.to_vec(),
    }
}

/// Writes a contract's output under `out_root`, each file only where it
/// changed, so that a warm run's build scripts find their output up to date.
pub fn write_output(files: &codegen::targets::Files, out_root: &Path) {
    for (rel, text) in files {
        let path = out_root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(path, text).unwrap();
        }
    }
}
