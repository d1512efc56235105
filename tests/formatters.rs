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
    check_with(script, &[], file)
}

/// [`check`] with options before the file (`lint.sh --check`).
fn check_with(script: &Path, options: &[&str], file: &Path) -> (i32, String) {
    let output = Command::new("bash").arg(script).args(options).arg(file).current_dir(root()).output().expect("bash runs");
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

/// How a target's formatter breaks a call over lines, undone: the text with
/// the first broken call joined onto one line wider than the width, and that line.
type Unwrap = fn(&str, usize) -> Option<(String, String)>;

/// The check of `target` (`tests/conformance/<target>/format-check.sh`)
/// passes the committed file at `committed`, copied to `clean`, and refuses
/// a copy whose first broken call `unwrap` joined onto one line wider than
/// `width`, written to `broken`, with a diff showing that line and an error
/// saying the file is not what `formatter` prints.
fn assert_refuses_unwrapped(target: &str, committed: &str, (width, unwrap): (usize, Unwrap), (clean, broken): (&str, &str), formatter: &str) {
    let script = root().join(format!("tests/conformance/{target}/format-check.sh"));
    let text = std::fs::read_to_string(root().join(committed)).expect("committed file");
    let (unwrapped, line) = unwrap(&text, width).expect("the committed file has a call broken over lines");
    let dir = root().join("target/formatters").join(target);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let (clean, broken) = (dir.join(clean), dir.join(broken));
    std::fs::write(&clean, &text).expect("write clean copy");
    std::fs::write(&broken, &unwrapped).expect("write unwrapped copy");

    let (code, log) = check(&script, &clean);
    if !formatter_available(code, &log, target) {
        return;
    }
    assert_eq!(code, 0, "the committed file must pass {formatter}:\n{log}");

    let (code, log) = check(&script, &broken);
    assert_eq!(code, 1, "an over-wide line must fail the check:\n{log}");
    assert!(log.contains(&format!("-{line}")), "the diff must show the unwrapped line {line:?}:\n{log}");
    assert!(log.contains(&format!("is not what {formatter} prints")), "the error must say why:\n{log}");
}

#[test]
fn the_typescript_format_check_refuses_a_statement_left_on_one_over_wide_line() {
    assert_refuses_unwrapped("typescript", "generated/typescript/src/coprocess.ts", (80, unwrap_first_broken_call), ("clean.ts", "unwrapped.ts"), "Prettier");
}

#[test]
fn the_typescript_format_check_refuses_a_session_client_statement_left_on_one_over_wide_line() {
    assert_refuses_unwrapped("typescript", "generated/typescript/src/client.ts", (80, unwrap_first_broken_call), ("client.ts", "client-unwrapped.ts"), "Prettier");
}

/// C# has no formatter here: its conventions are checked as rules
/// (`tests/conformance/dotnet/format-check.sh`). A copy of the committed file
/// whose first `else` is pulled up onto the closing brace (`} else`, K&R
/// style) and one with a tab-indented line are refused, naming the line.
#[test]
fn the_dotnet_conventions_check_refuses_k_and_r_braces_and_tabs() {
    let script = root().join("tests/conformance/dotnet/format-check.sh");
    let committed = std::fs::read_to_string(root().join("generated/dotnet/src/Mcptest.Sdk/Coprocess.cs")).expect("committed file");
    let lines: Vec<&str> = committed.lines().collect();
    let at = lines
        .windows(2)
        .position(|pair| pair[0].trim() == "}" && pair[1].trim() == "else")
        .expect("the committed file has an else on its own line");
    let mut k_and_r: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let joined = format!("{} else", k_and_r[at].trim_end());
    k_and_r[at] = joined;
    k_and_r.remove(at + 1);
    let mut tabbed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let indented = tabbed.iter().position(|l| l.starts_with("        ")).expect("an indented line");
    tabbed[indented] = format!("\t{}", &tabbed[indented][4..]);

    let dir = root().join("target/formatters/dotnet");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let clean = dir.join("clean.cs");
    std::fs::write(&clean, &committed).expect("write clean copy");
    let (code, log) = check(&script, &clean);
    assert_eq!(code, 0, "the committed file must keep the conventions:\n{log}");

    for (name, text, line, rule) in [
        ("k_and_r.cs", k_and_r.join("\n") + "\n", at + 1, "Allman braces"),
        ("tabbed.cs", tabbed.join("\n") + "\n", indented + 1, "tab character"),
    ] {
        let file = dir.join(name);
        std::fs::write(&file, text).expect("write broken copy");
        let (code, log) = check(&script, &file);
        assert_eq!(code, 1, "{name} must fail the check:\n{log}");
        assert!(log.contains(&format!("{name}:{line}: ")) && log.contains(rule), "{name}: line {line} and {rule:?} must be named:\n{log}");
    }
}

/// The typescript-eslint check (`tests/conformance/typescript/lint.sh --check`,
/// the pinned tsc's check and the lint on one program, as the TypeScript
/// conformance build runs it) can fail too: a copy of the committed file
/// without the reasoned exception above its one throw of a plain object is
/// refused, the finding named, while the untouched copy passes.
#[test]
fn the_typescript_lint_refuses_a_copy_whose_throw_of_a_plain_object_lost_its_reasoned_exception() {
    let script = root().join("tests/conformance/typescript/lint.sh");
    let committed = std::fs::read_to_string(root().join("generated/typescript/src/coprocess.ts")).expect("committed file");
    // The one line that throws the runtime's plain `_Problem`, and the
    // comment above it that disables `only-throw-error` there, saying why.
    let exception = "  // eslint-disable-next-line @typescript-eslint/only-throw-error -- ";
    let lines: Vec<&str> = committed.lines().collect();
    let at = lines.iter().position(|l| l.starts_with(exception)).expect("the committed file disables only-throw-error above one throw");
    assert_eq!(lines[at + 1], "  throw new _Problem(problem, path);", "the exception covers the throw of a Problem");
    let mut stripped: Vec<&str> = lines.clone();
    stripped.remove(at);
    let stripped = stripped.join("\n") + "\n";

    let dir = root().join("target/formatters/typescript-lint");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let clean = dir.join("clean.ts");
    let broken = dir.join("unexcepted.ts");
    std::fs::write(&clean, &committed).expect("write clean copy");
    std::fs::write(&broken, &stripped).expect("write copy without the exception");

    let (code, log) = check_with(&script, &["--check"], &clean);
    if !formatter_available(code, &log, "typescript (eslint)") {
        return;
    }
    assert_eq!(code, 0, "the committed file must pass typescript-eslint:\n{log}");

    let (code, log) = check_with(&script, &["--check"], &broken);
    assert_eq!(code, 1, "a throw of a plain object without its exception must fail the lint:\n{log}");
    // ESLint names the line (1-based: the throw moved up into the removed
    // comment's place) and the rule.
    let finding = log.lines().find(|l| l.trim_start().starts_with(&format!("{}:", at + 1)));
    let finding = finding.unwrap_or_else(|| panic!("the finding must point at the throw, line {}:\n{log}", at + 1));
    assert!(finding.contains("@typescript-eslint/only-throw-error"), "the finding must name the rule:\n{log}");
    assert!(log.contains("typescript-eslint has findings"), "the error must say why:\n{log}");
}

#[test]
fn the_python_format_check_refuses_a_statement_left_on_one_over_wide_line() {
    assert_refuses_unwrapped("python", "generated/python/mcptest/_coprocess.py", (88, unwrap_first_broken_call), ("clean.py", "unwrapped.py"), "ruff format");
}

#[test]
fn the_rust_format_check_refuses_a_statement_left_on_one_over_wide_line() {
    assert_refuses_unwrapped("rust", "generated/rust/mcptest-runner/src/coprocess.rs", (100, unwrap_first_broken_call), ("clean.rs", "unwrapped.rs"), "rustfmt");
}

#[test]
fn the_rust_layout_is_rustfmt_at_every_indentation() {
    // The generated items (the runtime left out) of the committed file and
    // the goldens, nested one to seven modules deep: every line-fitting
    // decision is taken again with up to 28 columns less, and rustfmt must
    // agree with each.
    let script = root().join("tests/conformance/rust/format-check.sh");
    let dir = root().join("target/formatters/rust");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let sources = [
        ("committed", "generated/rust/mcptest-runner/src/coprocess.rs"),
        ("long", "codegen/tests/golden/long/rust/mcptest-runner/src/coprocess.rs"),
        ("keywords", "codegen/tests/golden/keywords/rust/mcptest-runner/src/coprocess.rs"),
    ];
    let mut files = Vec::new();
    for (name, path) in sources {
        let text = std::fs::read_to_string(root().join(path)).expect("generated file");
        let generated = text.split("/// The strict decoding runtime").next().expect("split yields one part");
        assert!(generated.len() < text.len(), "{path}: the runtime's marker moved; update this test");
        let generated = generated.replace("#![allow(clippy::self_named_constructors)]", "");
        for depth in 1..=depth_max() {
            let mut code = generated.clone();
            for level in 0..depth {
                code = format!("mod level{level} {{ {code} }}");
            }
            let printed = codegen::targets::rust::layout_source(&code).unwrap_or_else(|e| panic!("{name} at depth {depth}: {e}"));
            let file = dir.join(format!("nested-{name}-{depth}.rs"));
            std::fs::write(&file, printed).expect("write nested copy");
            files.push(file);
        }
    }
    let output = Command::new("bash").arg(&script).args(&files).current_dir(root()).output().expect("bash runs");
    let (code, log) = (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stderr).into_owned());
    if !formatter_available(code, &log, "rust") {
        return;
    }
    assert_eq!(code, 0, "the layout must print what rustfmt prints at every depth:\n{log}");
}

/// How deep the nesting test goes (`RUST_LAYOUT_DEPTH` to explore further).
fn depth_max() -> usize {
    std::env::var("RUST_LAYOUT_DEPTH").ok().and_then(|d| d.parse().ok()).unwrap_or(7)
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
    assert_refuses_unwrapped("jvm", "generated/jvm/src/main/java/dev/mcptest/Coprocess.java", (100, unwrap_first_broken_java_call), ("Clean.java", "Unwrapped.java"), "google-java-format");
}
