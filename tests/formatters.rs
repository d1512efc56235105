//! The formatter checks can fail. Each target's conformance build runs its
//! ecosystem's formatter in check mode over the committed file and every
//! golden (`tests/conformance/<target>/format-check.sh`); here a copy of the
//! committed file with one statement joined back onto a single over-wide
//! line must be refused, with the formatter's diff showing that line, while
//! the untouched copy passes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Joins the first statement whose arguments are broken one per line
/// (`f(` / `a,` / `b,` / `);`) into one line; returns the text and that line.
fn unwrap_first_broken_call(text: &str, width: usize) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    for start in 0..lines.len() {
        if !lines[start].ends_with('(') {
            continue;
        }
        let mut args = Vec::new();
        let mut end = start + 1;
        while end < lines.len() && lines[end].trim_end().ends_with(',') && !lines[end].trim_start().starts_with(')') {
            args.push(lines[end].trim().trim_end_matches(','));
            end += 1;
        }
        let close = lines.get(end)?.trim();
        // Template literals are left out: Prettier keeps a call whose first
        // argument is one either way.
        if args.len() < 2 || !(close == ");" || close == ")") || args.iter().any(|a| a.ends_with('(') || a.contains('`')) {
            continue;
        }
        let joined = format!("{}{}{close}", lines[start], args.join(", "));
        if joined.chars().count() <= width {
            continue;
        }
        let mut out: Vec<String> = lines[..start].iter().map(|l| l.to_string()).collect();
        out.push(joined.clone());
        out.extend(lines[end + 1..].iter().map(|l| l.to_string()));
        return Some((out.join("\n") + "\n", joined));
    }
    None
}

/// Runs `script` on `file`: exit code and stderr.
fn check(script: &Path, file: &Path) -> (i32, String) {
    let output = Command::new("bash").arg(script).arg(file).current_dir(root()).output().expect("bash runs");
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// False (after a loud report) when the toolchain cannot be had outside CI.
fn formatter_available(code: i32, log: &str, target: &str) -> bool {
    if code == 3 {
        eprintln!("\n!!!!! TOOLCHAIN MISSING for {target}: its formatter check was NOT shown to fail (CI=true makes this fail) !!!!!\n{log}");
        return false;
    }
    true
}

#[test]
fn the_typescript_format_check_refuses_a_statement_left_on_one_over_wide_line() {
    let script = root().join("tests/conformance/typescript/format-check.sh");
    let committed = std::fs::read_to_string(root().join("generated/typescript/src/coprocess.ts")).expect("committed file");
    let (unwrapped, line) = unwrap_first_broken_call(&committed, 80).expect("the committed file has a call broken over lines");

    let dir = root().join("target/formatters/typescript");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let clean = dir.join("clean.ts");
    let broken = dir.join("unwrapped.ts");
    std::fs::write(&clean, &committed).expect("write clean copy");
    std::fs::write(&broken, &unwrapped).expect("write unwrapped copy");

    let (code, log) = check(&script, &clean);
    if !formatter_available(code, &log, "typescript") {
        return;
    }
    assert_eq!(code, 0, "the committed file must pass Prettier:\n{log}");

    let (code, log) = check(&script, &broken);
    assert_eq!(code, 1, "an over-wide line must fail the check:\n{log}");
    assert!(log.contains(&format!("-{line}")), "the diff must show the unwrapped line {line:?}:\n{log}");
    assert!(log.contains("is not what Prettier prints"), "the error must say why:\n{log}");
}

/// Joins the first Java call whose arguments google-java-format broke onto
/// lines of their own (`f(` / `a, b,` ... / `c);`) back into one line wider
/// than `width`; returns the text and that line.
fn unwrap_first_broken_java_call(text: &str, width: usize) -> Option<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    for start in 0..lines.len() {
        if !lines[start].ends_with('(') || lines[start].trim_start().starts_with('*') {
            continue;
        }
        let mut end = start + 1;
        while end < lines.len() && lines[end].ends_with(',') {
            end += 1;
        }
        let close = lines.get(end)?;
        if !close.ends_with(");") || close.trim_start().starts_with('+') {
            continue;
        }
        let args: Vec<&str> = lines[start + 1..=end].iter().map(|l| l.trim()).collect();
        let joined = format!("{}{}", lines[start], args.join(" "));
        if joined.chars().count() <= width {
            continue;
        }
        let mut out: Vec<String> = lines[..start].iter().map(|l| l.to_string()).collect();
        out.push(joined.clone());
        out.extend(lines[end + 1..].iter().map(|l| l.to_string()));
        return Some((out.join("\n") + "\n", joined));
    }
    None
}

#[test]
fn the_java_format_check_refuses_a_call_left_on_one_over_wide_line() {
    let script = root().join("tests/conformance/jvm/format-check.sh");
    let committed =
        std::fs::read_to_string(root().join("generated/jvm/src/main/java/dev/mcptest/Coprocess.java")).expect("committed file");
    let (unwrapped, line) = unwrap_first_broken_java_call(&committed, 100).expect("the committed file has a call broken over lines");

    let dir = root().join("target/formatters/jvm");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let clean = dir.join("Clean.java");
    let broken = dir.join("Unwrapped.java");
    std::fs::write(&clean, &committed).expect("write clean copy");
    std::fs::write(&broken, &unwrapped).expect("write unwrapped copy");

    let (code, log) = check(&script, &clean);
    if !formatter_available(code, &log, "jvm") {
        return;
    }
    assert_eq!(code, 0, "the committed file must pass google-java-format:\n{log}");

    let (code, log) = check(&script, &broken);
    assert_eq!(code, 1, "an over-wide line must fail the check:\n{log}");
    assert!(log.contains(&format!("-{line}")), "the diff must show the unwrapped line {line:?}:\n{log}");
    assert!(log.contains("is not what google-java-format prints"), "the error must say why:\n{log}");
}
