//! `codegen diff`: the catalogue of `codegen/tests/diff/cases.json` (each
//! case's classes and exit code asserted on their own, and its report
//! against golden text and JSON), the lock's refusal, and the command on
//! bad input and on git.
//! Accept new goldens with `EXPECTORATE=overwrite cargo test -p codegen --test diff`.

use std::path::{Path, PathBuf};
use std::process::Command;

use codegen::diff::render::{self, Labels};
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff")
}

fn overwrite() -> bool {
    std::env::var("EXPECTORATE").as_deref() == Ok("overwrite")
}

fn base() -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir().join("base.json")).unwrap()).unwrap()
}

/// Applies one RFC 6902 `add`, `replace` or `remove`.
fn apply(doc: &mut Value, edit: &Value) {
    let op = edit["op"].as_str().unwrap();
    let path = edit["path"].as_str().unwrap();
    let (parent, last) = path.rsplit_once('/').unwrap();
    let last = last.replace("~1", "/").replace("~0", "~");
    let target = doc.pointer_mut(parent).unwrap_or_else(|| panic!("no {parent}"));
    match (op, target) {
        ("remove", Value::Object(map)) => {
            map.shift_remove(&last).unwrap_or_else(|| panic!("no {path}"));
        }
        ("remove", Value::Array(items)) => {
            items.remove(last.parse().unwrap());
        }
        ("add" | "replace", Value::Object(map)) => {
            assert!(op == "add" || map.contains_key(&last), "replace of a missing {path}");
            map.insert(last, edit["value"].clone());
        }
        ("add", Value::Array(items)) if last == "-" => items.push(edit["value"].clone()),
        ("add", Value::Array(items)) => items.insert(last.parse().unwrap(), edit["value"].clone()),
        ("replace", Value::Array(items)) => items[last.parse::<usize>().unwrap()] = edit["value"].clone(),
        (op, _) => panic!("cannot {op} {path}"),
    }
}

fn load(value: &Value, label: &str) -> codegen::Contract {
    let text = serde_json::to_string_pretty(value).unwrap();
    codegen::load::load_str(&text, Path::new(label), label).unwrap_or_else(|e| panic!("{label}: {e}")).0
}

/// Compares `actual` with the golden file, or writes it under EXPECTORATE=overwrite.
fn golden(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if overwrite() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, actual).unwrap();
    } else if std::fs::read_to_string(path).unwrap_or_default() != actual {
        failures.push(format!("{}: differs from the golden file:\n{actual}", path.display()));
    }
}

#[test]
fn every_case_of_the_catalogue_has_its_classes_exit_code_and_report() {
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(dir().join("cases.json")).unwrap()).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() >= 40, "the catalogue lost cases");
    let old = load(&base(), "base.json");
    let mut failures = Vec::new();
    let mut names = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        names.push(format!("{name}.txt"));
        names.push(format!("{name}.json"));
        let mut doc = base();
        for edit in case["edits"].as_array().unwrap() {
            apply(&mut doc, edit);
        }
        let new = load(&doc, name);
        let report = codegen::diff::diff(&old, &new).unwrap();
        let mut got: Vec<String> = report
            .changes
            .iter()
            .map(|c| format!("{} {}", c.classes.iter().map(|c| c.name()).collect::<Vec<_>>().join("+"), c.pointer))
            .collect();
        let mut want: Vec<String> = case["changes"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
        got.sort();
        want.sort();
        if got != want {
            failures.push(format!("{name}: classes and pointers\n  want {want:?}\n  got  {got:?}"));
        }
        let exit = case["exit"].as_i64().unwrap() as i32;
        if report.exit_code() != exit {
            failures.push(format!("{name}: exit code {} (want {exit})", report.exit_code()));
        }
        let labels = Labels { old: "base.json", new: name };
        golden(&dir().join("golden").join(format!("{name}.txt")), &render::text(&report, labels), &mut failures);
        golden(&dir().join("golden").join(format!("{name}.json")), &render::json(&report, labels), &mut failures);
    }
    // No golden file outlives its case.
    names.push("lock-refusal.txt".into());
    let mut on_disk: Vec<String> =
        std::fs::read_dir(dir().join("golden")).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    on_disk.sort();
    names.sort();
    if !overwrite() {
        assert_eq!(on_disk, names, "golden files without a case, or cases without golden files");
    }
    assert!(failures.is_empty(), "{}\nrun `EXPECTORATE=overwrite cargo test -p codegen --test diff` to accept a report", failures.join("\n"));
}

#[test]
fn the_json_report_has_its_documented_shape() {
    let mut doc = base();
    apply(&mut doc, &serde_json::json!({"op": "remove", "path": "/$defs/RunResult/properties/log"}));
    let report = codegen::diff::diff(&load(&base(), "old"), &load(&doc, "new")).unwrap();
    let json: Value = serde_json::from_str(&render::json(&report, Labels { old: "old", new: "new" })).unwrap();
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["diff_format", "old", "new", "changes", "counts", "breaks", "breaks_wire"]);
    let change = &json["changes"][0];
    let keys: Vec<&str> = change.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["classes", "kind", "pointer", "change", "flow"]);
    assert_eq!(change["kind"], "optional-member-removed");
    assert_eq!(change["flow"], "binary-to-sdk");
    assert_eq!(json["counts"]["breaks-old-binary"], 1);
    assert_eq!(json["breaks"], true);
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn codegen(args: &[&str], cwd: &Path) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_codegen")).args(args).current_dir(cwd).output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into(),
        stderr: String::from_utf8_lossy(&output.stderr).into(),
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

#[test]
fn the_command_reads_files_prints_both_formats_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let mut doc = base();
    apply(&mut doc, &serde_json::json!({"op": "replace", "path": "/$defs/Mode/enum", "value": ["fast", "safe", "slow"]}));
    let new = tmp.path().join("new.json");
    std::fs::write(&new, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let old = dir().join("base.json");
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let text = codegen(&["diff", old, new], tmp.path());
    assert_eq!(text.code, 1, "{}", text.stderr);
    assert!(text.stdout.contains("breaks-old-binary /$defs/Mode/enum: `Mode`: value \"slow\" added [SDK → binary]"), "{}", text.stdout);
    let json = codegen(&["diff", "--format", "json", old, new], tmp.path());
    assert_eq!(json.code, 1, "{}", json.stderr);
    let value: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["changes"][0]["kind"], "enum-value-added");
    let same = codegen(&["diff", old, old], tmp.path());
    assert_eq!((same.code, same.stdout.lines().nth(2)), (0, Some("no changes")), "{}", same.stderr);
    // --schema names the default new contract.
    let default_new = codegen(&["diff", "--schema", new, old], tmp.path());
    assert_eq!(default_new.code, 1, "{}", default_new.stderr);
    assert!(default_new.stdout.contains(&format!("new: {new} ")), "{}", default_new.stdout);
    assert!(default_new.stdout.contains("value \"slow\" added"), "{}", default_new.stdout);
    let entries: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(entries, vec![std::ffi::OsString::from("new.json")], "diff wrote a file");
}

#[test]
fn an_older_contract_without_a_template_this_codegen_requires_still_loads() {
    let tmp = tempfile::tempdir().unwrap();
    let mut older = base();
    apply(&mut older, &serde_json::json!({"op": "remove", "path": "/x-coprocess/messages/upgrade_sdk"}));
    apply(&mut older, &serde_json::json!({"op": "remove", "path": "/x-coprocess/client"}));
    apply(&mut older, &serde_json::json!({"op": "add", "path": "/x-coprocess/messages/retired", "value": {"template": "x", "description": "Gone."}}));
    let old = tmp.path().join("old.json");
    std::fs::write(&old, serde_json::to_string_pretty(&older).unwrap()).unwrap();
    let strict = codegen::load::load(&old, "old.json");
    assert!(strict.is_err(), "the loader takes it as it is: the test proves nothing");
    let new = dir().join("base.json");
    let run = codegen(&["diff", old.to_str().unwrap(), new.to_str().unwrap()], tmp.path());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    for line in [
        "compatible /x-coprocess/messages/upgrade_sdk: message `upgrade_sdk`: added (the old contract predates it)",
        "compatible /x-coprocess/client/call_timeout_ms: client default `call_timeout_ms`: added (the old contract predates it)",
        "compatible /x-coprocess/messages/retired: message `retired`: removed",
    ] {
        assert!(run.stdout.contains(line), "want `{line}` in\n{}", run.stdout);
    }
    // A newer contract is loaded as codegen loads it: no completing.
    let run = codegen(&["diff", new.to_str().unwrap(), old.to_str().unwrap()], tmp.path());
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("at /x-coprocess/messages/retired: unknown key `retired`"), "{}", run.stderr);
}

#[test]
fn bad_input_exits_2_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let base = dir().join("base.json");
    let base = base.to_str().unwrap();
    let not_contract = tmp.path().join("package.json");
    std::fs::write(&not_contract, "{\"name\": \"x\"}").unwrap();
    let unrelated = tmp.path().join("unrelated.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(Path::new(base)).unwrap()).unwrap();
    let defs = std::mem::take(doc["$defs"].as_object_mut().unwrap());
    for (name, def) in defs {
        let renamed = format!("X{name}");
        doc["$defs"][renamed.as_str()] = def;
    }
    let text = serde_json::to_string_pretty(&doc).unwrap().replace("#/$defs/", "#/$defs/X");
    std::fs::write(&unrelated, text).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["diff", "nope.json", base], "nope.json: at (document root): cannot read the schema"),
        (vec!["diff", base, "nope.json"], "nope.json: at (document root): cannot read the schema"),
        (vec!["diff", not_contract.to_str().unwrap(), base], "at /$schema: the schema does not declare JSON Schema draft 2020-12"),
        (vec!["diff", base, unrelated.to_str().unwrap()], "share no $defs name: they are not two versions of one contract"),
        (vec!["diff", "--against", "no-such-revision", "--schema", "schemas/ipc/v2.json"], "no-such-revision:schemas/ipc/v2.json: at (document root): `git show no-such-revision:./schemas/ipc/v2.json` failed"),
        (vec!["diff", "--against", "HEAD", "--schema", "schemas/ipc/nope.json"], "`git show HEAD:./schemas/ipc/nope.json` failed"),
        (vec!["diff", "--against=--output=x"], "`--output=x` is not a git revision"),
        (vec!["diff"], "give the old contract (a file), or --against <git revision>"),
        (vec!["diff", "--against", "HEAD", base, base], "with --against, give at most one contract"),
    ];
    for (args, message) in cases {
        let run = codegen(&args, &repo());
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(message), "{args:?}: want `{message}` in\n{}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
    assert!(!repo().join("x").exists(), "a revision was read as an option");
}

fn git_show_head() -> String {
    let output = Command::new("git").args(["show", "HEAD:schemas/ipc/v2.json"]).current_dir(repo()).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn against_head_reports_nothing_on_the_unchanged_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let head = tmp.path().join("head.json");
    std::fs::write(&head, git_show_head()).unwrap();
    let run = codegen(&["diff", "--against", "HEAD", head.to_str().unwrap()], &repo());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("old: HEAD:schemas/ipc/v2.json (protocol version "), "{}", run.stdout);
    assert!(run.stdout.ends_with("no changes\nverdict: nothing breaks\n"), "{}", run.stdout);
    // From a subdirectory, the path is the working directory's.
    let sub = codegen(&["diff", "--against", "HEAD", "--schema", "../schemas/ipc/v2.json", head.to_str().unwrap()], &repo().join("codegen"));
    assert_eq!(sub.code, 0, "{}{}", sub.stdout, sub.stderr);
    // The working tree's schema itself, when it is HEAD's (it is in CI).
    let clean = Command::new("git").args(["diff", "--quiet", "HEAD", "--", "schemas/ipc/v2.json"]).current_dir(repo()).status().unwrap();
    if clean.success() {
        let run = codegen(&["diff", "--against", "HEAD"], &repo());
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("\nno changes\n"), "{}", run.stdout);
    } else {
        eprintln!("schemas/ipc/v2.json differs from HEAD: `diff --against HEAD` on the working tree not checked");
    }
}

#[test]
fn the_lock_refusal_prints_the_report() {
    let tmp = tempfile::tempdir().unwrap();
    let schema = tmp.path().join("v2.json");
    let out = tmp.path().join("generated");
    let mut doc = base();
    std::fs::write(&schema, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let (schema_arg, out_arg) = (schema.to_str().unwrap(), out.to_str().unwrap());
    let first = codegen(&["--schema", schema_arg, "--out", out_arg], tmp.path());
    assert_eq!(first.code, 0, "{}", first.stderr);
    let kept = std::fs::read_to_string(out.join("coprocess.contracts/v2.json")).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&kept).unwrap(), doc, "the lock keeps the contract as read");
    for edit in [
        serde_json::json!({"op": "add", "path": "/$defs/JobList/properties/total", "value": {"description": "How many.", "type": "integer"}}),
        serde_json::json!({"op": "remove", "path": "/$defs/RunParams/properties/retries"}),
        serde_json::json!({"op": "replace", "path": "/$defs/RunParams/description", "value": "Reworded."}),
    ] {
        apply(&mut doc, &edit);
    }
    std::fs::write(&schema, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let refused = codegen(&["--schema", schema_arg, "--out", out_arg], tmp.path());
    assert_eq!(refused.code, 2, "{}", refused.stdout);
    assert!(refused.stderr.contains("breaks-old-sdk /$defs/JobList/properties/total"), "{}", refused.stderr);
    let stderr = refused.stderr.replace(tmp.path().to_str().unwrap(), "<tmp>");
    let mut failures = Vec::new();
    golden(&dir().join("golden/lock-refusal.txt"), &stderr, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Without its contract, the lock names the shapes (a lock of before).
    std::fs::remove_dir_all(out.join("coprocess.contracts")).unwrap();
    let named = codegen(&["--schema", schema_arg, "--out", out_arg], tmp.path());
    assert_eq!(named.code, 2);
    assert!(named.stderr.contains("JobList (changed), RunParams (changed) (no "), "{}", named.stderr);
}
