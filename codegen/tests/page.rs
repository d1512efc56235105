//! The reference page, `docs/coprocess-protocol.md`: written with every
//! other output from the schema alone (an edit of a description shows at its
//! place), holding every table row and example of the schema, and clean
//! under the pinned markdownlint-cli2 (`tests/markdown/lint.sh`), which is
//! shown to refuse a broken page.

use std::path::{Path, PathBuf};
use std::process::Command;

use codegen::page::markdown::one_line;
use serde_json::{json, Value};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn repo_schema() -> Value {
    serde_json::from_str(&std::fs::read_to_string(repo().join("schemas/ipc/v2.json")).unwrap()).unwrap()
}

/// The page generated from `schema`, with every other output.
fn page(schema: &Value) -> String {
    let (contract, _) = codegen::load::load_str(&schema.to_string(), Path::new("v2.json"), "schemas/ipc/v2.json").unwrap_or_else(|e| panic!("{e}"));
    let mut files = codegen::targets::generate(&contract).unwrap_or_else(|e| panic!("{e}"));
    files.remove(codegen::page::PATH).expect("the page is generated with the SDK files")
}

/// The lines of `page` from the heading `heading` to the next heading of
/// its level or above.
fn section<'p>(page: &'p str, heading: &str) -> Vec<&'p str> {
    let level = heading.split(' ').next().unwrap_or_default().len();
    let mut lines = page.lines().skip_while(|l| *l != heading);
    let first = lines.next().unwrap_or_else(|| panic!("no heading {heading:?}"));
    let ends = |l: &&str| l.starts_with('#') && l.split(' ').next().is_some_and(|h| h.len() <= level && h.chars().all(|c| c == '#'));
    std::iter::once(first).chain(lines.take_while(|l| !ends(l))).collect()
}

#[test]
fn a_description_edit_shows_at_its_place_and_nowhere_else() {
    let schema = repo_schema();
    let before = page(&schema);
    let mut edited = schema.clone();
    edited["$defs"]["Verdict"]["properties"]["duration_ms"]["description"] = json!("Milliseconds, edited for the page test.");
    edited["x-coprocess"]["error_codes"][1]["description"] = json!("Edited: not a request envelope.");
    let after = page(&edited);
    let verdict = section(&after, "### Type `Verdict`");
    let row = verdict.iter().find(|l| l.starts_with("| `duration_ms` |")).expect("the duration_ms row");
    assert!(row.ends_with("| Milliseconds, edited for the page test. |"), "{row}");
    let codes = section(&after, "## Error codes");
    assert!(codes.contains(&"| -32600 | InvalidRequest | Edited: not a request envelope. |"), "{codes:?}");
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(before.lines().count(), after.lines().count());
    assert_eq!(changed.len(), 2, "only the two rows change: {changed:#?}");
}

#[test]
fn the_page_holds_every_row_and_example_of_the_schema() {
    let schema = repo_schema();
    let text = page(&schema);
    let x = &schema["x-coprocess"];
    let version = x["protocol_version"].as_i64().unwrap();
    assert!(text.contains(&format!("The protocol version is **{version}**")));
    for row in x["history"].as_array().unwrap() {
        assert!(text.contains(&format!("| v{} |", row["version"])), "history {row}");
    }
    for sdk in x["sdks"].as_array().unwrap() {
        let line = section(&text, "## Support matrix").into_iter().find(|l| l.contains(&format!("| `{}` |", sdk["key"].as_str().unwrap()))).expect("a matrix row");
        for key in ["frames", "client"] {
            assert!(line.contains(&format!("`{}`", sdk[key].as_str().unwrap())), "{line}");
        }
        assert!(line.contains(&format!("| v{version} |")), "{line}");
    }
    for method in x["methods"].as_array().unwrap() {
        assert!(text.contains(&format!("| `{}` |", method["name"].as_str().unwrap())), "method {method}");
    }
    for code in x["error_codes"].as_array().unwrap() {
        assert!(text.contains(&format!("| {} | {} |", code["code"], code["name"].as_str().unwrap())), "code {code}");
    }
    for lane in x["lanes"].as_array().unwrap() {
        assert!(text.contains(&format!("| `{}:` |", lane["key"].as_str().unwrap())), "lane {lane}");
    }
    for name in x["messages"].as_object().unwrap().keys().chain(x["client"].as_object().unwrap().keys()) {
        assert!(text.contains(&format!("| `{name}` |")), "{name}");
    }
    for clause in x["compatibility"].as_array().unwrap() {
        let first_words: String = clause.as_str().unwrap().split_whitespace().take(4).collect::<Vec<_>>().join(" ");
        assert!(section(&text, "## Compatibility rule").join(" ").contains(&first_words), "{first_words}");
    }
    let mut examples = 0;
    for (name, def) in schema["$defs"].as_object().unwrap() {
        let own = section(&text, &format!("### Type `{name}`")).join("\n");
        for example in def.get("examples").and_then(Value::as_array).into_iter().flatten() {
            assert!(own.contains(&one_line(example)), "{name}'s example {example} is not in its section");
            examples += 1;
        }
    }
    assert!(examples >= 8, "{examples} examples");
    // The handshake's exchanges are in its section, its error answer too.
    let handshake = section(&text, "## Handshake").join("\n");
    assert!(handshake.contains("\"method\": \"coprocess/handshake\"") && handshake.contains("\"code\": -32602"), "{handshake}");
}

#[test]
fn goldens_hold_a_page_each() {
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")).unwrap().flatten() {
        assert!(entry.path().join(codegen::page::PATH).is_file(), "{} has no page", entry.path().display());
    }
}

/// Runs the lint script on `files` (none: its defaults): exit code and output.
fn lint(files: &[&Path]) -> (i32, String) {
    let output = Command::new("bash").arg(repo().join("tests/markdown/lint.sh")).args(files).current_dir(repo()).output().expect("bash runs");
    (output.status.code().unwrap_or(-1), format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr)))
}

/// False (after a loud report) when the toolchain cannot be had outside CI
/// (with CI=true the script fails instead).
fn linter_available(code: i32, log: &str) -> bool {
    if code == 3 {
        eprintln!("\n!!!!! TOOLCHAIN MISSING for markdownlint-cli2: the reference page was NOT linted (CI=true makes this fail) !!!!!\n{log}");
        return false;
    }
    true
}

#[test]
fn the_generated_page_and_every_golden_page_pass_the_pinned_linter() {
    let (code, log) = lint(&[]);
    if linter_available(code, &log) {
        assert_eq!(code, 0, "markdownlint-cli2 refuses the page (regenerate with `cargo run -p codegen` if it is stale):\n{log}");
        assert!(log.contains("6 file(s) pass") || log.contains("file(s) pass"), "{log}");
    }
}

#[test]
fn the_linter_refuses_a_broken_page() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("coprocess-protocol.md");
    let text = std::fs::read_to_string(repo().join("generated").join(codegen::page::PATH)).unwrap();
    let prose = "A sentence of prose that runs on and on, well past the eighty columns the page keeps, and on.";
    std::fs::write(&broken, format!("{text}\n{prose}\n\nSome <b>inline HTML</b>.\n")).unwrap();
    let (code, log) = lint(&[&broken]);
    if linter_available(code, &log) {
        assert_eq!(code, 1, "{log}");
        assert!(log.contains("MD013") && log.contains("MD033"), "{log}");
    }
}
