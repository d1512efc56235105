//! One conformance testee built and run on another contract's output (a test
//! schema's, generated under target/): the names proof and the constraints
//! proof use it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use codegen::targets::TARGETS;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One testee's build and answers, run on the test schema's output.
pub fn run_on(target: &str, out_root: &Path, build: &Path, input: &str) -> Result<Vec<Value>, String> {
    build_on(target, out_root, build)?;
    run_only(target, out_root, build, input)
}

/// Builds one testee (and runs its strict checks) on the test schema's output.
pub fn build_on(target: &str, out_root: &Path, build: &Path) -> Result<(), String> {
    build_with(target, out_root, build, &[])
}

/// [`build_on`] with more variables for the build script (the Rust testee
/// builds the library's testee beside it from `CONFORMANCE_LIBRARY`).
pub fn build_with(target: &str, out_root: &Path, build: &Path, vars: &[(&str, &Path)]) -> Result<(), String> {
    // The goldens are the conformance build's to check: here an empty folder
    // stands in for them, so only the names schema's output is checked.
    let no_goldens = build.join("no-goldens");
    std::fs::create_dir_all(&no_goldens).map_err(|e| e.to_string())?;
    let status = Command::new("bash")
        .arg(format!("tests/conformance/{target}/build.sh"))
        .arg(out_root)
        .env("OUTPUT_ROOT", out_root)
        .env("CONFORMANCE_BUILD", build)
        .env("CONFORMANCE_GOLDENS", &no_goldens)
        .envs(vars.iter().copied())
        .current_dir(root())
        .output()
        .map_err(|e| e.to_string())?;
    if !status.status.success() {
        return Err(format!(
            "{target}: build.sh failed on the test schema\n{}{}",
            String::from_utf8_lossy(&status.stdout),
            String::from_utf8_lossy(&status.stderr)
        ));
    }
    Ok(())
}

/// Runs one testee, already built by [`build_on`], over `input` (NDJSON case lines).
pub fn run_only(target: &str, out_root: &Path, build: &Path, input: &str) -> Result<Vec<Value>, String> {
    run_with(target, &[], out_root, build, input)
}

/// [`run_only`] with arguments for the run script (`--library`: the Rust
/// testee's library twin).
pub fn run_with(target: &str, args: &[&str], out_root: &Path, build: &Path, input: &str) -> Result<Vec<Value>, String> {
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
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let text = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if !output.status.success() {
        return Err(format!("{target}: run.sh failed: {}", String::from_utf8_lossy(&output.stderr)));
    }
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

/// Writes a test contract's output under `out_root`, each file only where it
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

/// [`run_on`] for each of `testees` at once, each building under `build/<target>`.
pub fn run_all_on<'t>(testees: &[&'t str], out_root: &Path, build: &Path, input: &str) -> Vec<(&'t str, Result<Vec<Value>, String>)> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = testees.iter().map(|&t| (t, scope.spawn(move || run_on(t, out_root, &build.join(t), input)))).collect();
        handles.into_iter().map(|(t, h)| (t, h.join().unwrap_or_else(|_| Err(format!("{t}: thread panicked"))))).collect()
    })
}
