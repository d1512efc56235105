//! The CLI end to end on copies of the repository's schema: version bumps,
//! the version lock, the drift check, and bad schemas.

mod common;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use common::{codegen, snapshot};

fn repo_schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn write_schema(dir: &Path, schema: &Value) -> PathBuf {
    let path = dir.join("v2.json");
    std::fs::write(&path, serde_json::to_string_pretty(schema).unwrap()).unwrap();
    path
}

#[test]
fn one_run_bumps_every_pin_and_unchanged_files_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let mut schema = repo_schema();
    let path = write_schema(dir.path(), &schema);
    let first = codegen(&path, &out, false);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let again = codegen(&path, &out, false);
    assert!(again.stdout.contains("0 changed"), "{}", again.stdout);
    let before = snapshot(&out);
    schema["x-coprocess"]["protocol_version"] = json!(3);
    schema["x-coprocess"]["history"].as_array_mut().unwrap().push(json!({"version": 3, "changes": "Adds `Verdict.retries`."}));
    schema["$defs"]["Verdict"]["properties"]["retries"] = json!({"description": "Retries.", "type": "integer", "minimum": 0});
    write_schema(dir.path(), &schema);
    let bumped = codegen(&path, &out, false);
    assert_eq!(bumped.code, 0, "{}", bumped.stderr);
    let after = snapshot(&out);
    // Every file that holds a pin (one per target: the frames file) bumps
    // with the version; a file without one (Python's session client, which
    // takes the pin from the frames module) need not change.
    let holds_pin = |text: &str| pin_line(text).is_some();
    let mut pinned = 0;
    // The lock keeps the v3 contract beside the v2 one: a file more.
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.iter().any(|(p, _)| p.ends_with("coprocess.contracts/v3.json")));
    for (p, old) in &before {
        let new = &after.iter().find(|(q, _)| q == p).unwrap_or_else(|| panic!("{} is gone", p.display())).1;
        if holds_pin(&String::from_utf8_lossy(new)) {
            assert_ne!(old, new, "{} did not change with the version", p.display());
            pinned += 1;
        }
    }
    assert_eq!(pinned, codegen::targets::TARGETS.len(), "one pinned file per target");
    for target in codegen::targets::TARGETS {
        let (contract, _) = codegen::load::load(&path, "v2.json").unwrap();
        let files = codegen::targets::generate_target(&contract, target).unwrap();
        let pins: Vec<(&String, &str)> = files.iter().filter_map(|(rel, text)| Some((rel, pin_line(text)?))).collect();
        assert_eq!(pins.len(), 1, "{target}: exactly one file holds the pin: {pins:?}");
        let (rel, pin) = pins[0];
        assert!(pin.contains('3') && !pin.contains('2'), "{rel}: pin line `{pin}`");
    }
}

/// The line that declares the protocol-version pin, in any target's spelling.
fn pin_line(text: &str) -> Option<&str> {
    text.lines().find(|line| {
        let normalized = line.to_ascii_lowercase().replace('_', "");
        normalized.contains("coprocessprotocolversion")
            && line.contains('=')
            && !line.trim_start().starts_with("//")
            && !line.trim_start().starts_with('*')
            && !line.trim_start().starts_with('#')
    })
}

#[test]
fn version_lock_refuses_a_shape_change_without_a_bump() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let mut schema = repo_schema();
    let path = write_schema(dir.path(), &schema);
    assert_eq!(codegen(&path, &out, false).code, 0);
    // A description edit is not a shape change.
    schema["$defs"]["Verdict"]["description"] = json!("Reworded.");
    write_schema(dir.path(), &schema);
    let reworded = codegen(&path, &out, false);
    assert_eq!(reworded.code, 0, "{}", reworded.stderr);
    let before = snapshot(&out);
    // The refusal is the diff report of the change against the contract the lock keeps.
    for (report, edit) in [
        (
            "\n    breaks-old-sdk /$defs/Verdict/properties/retries: `Verdict.retries`: added, optional: integer [binary → SDK]\n",
            json!({"retries": {"description": "Retries.", "type": "integer"}}),
        ),
        (
            "\n    breaks-old-sdk+breaks-source /$defs/Verdict/properties/duration_ms: `Verdict.duration_ms`: required → optional [binary → SDK]\n",
            json!(null),
        ),
    ] {
        let mut changed = schema.clone();
        match edit {
            Value::Null => {
                changed["$defs"]["Verdict"]["required"] = json!(["success", "data", "text", "error"]);
            }
            props => {
                for (k, v) in props.as_object().unwrap() {
                    changed["$defs"]["Verdict"]["properties"][k] = v.clone();
                }
            }
        }
        write_schema(dir.path(), &changed);
        let refused = codegen(&path, &out, false);
        assert_eq!(refused.code, 2, "{}", refused.stdout);
        assert!(refused.stderr.contains(report), "{}", refused.stderr);
        assert!(refused.stderr.contains("bump"), "{}", refused.stderr);
        assert_eq!(snapshot(&out), before, "a refused run changed the output");
    }
    let mut added = schema.clone();
    added["$defs"]["Extra"] = json!({"description": "New.", "type": "object", "properties": {}, "additionalProperties": false});
    write_schema(dir.path(), &added);
    let refused = codegen(&path, &out, false);
    // Nothing breaks, yet the shapes changed: the refusal names them too.
    assert!(refused.stderr.contains("\n    compatible /$defs/Extra: `Extra`: type added (closed object)\n"), "{}", refused.stderr);
    assert!(refused.stderr.contains("the shapes whose fingerprint changed: Extra (added)"), "{}", refused.stderr);
}

#[test]
fn check_names_stale_missing_and_extra_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let path = write_schema(dir.path(), &repo_schema());
    assert_eq!(codegen(&path, &out, false).code, 0);
    assert_eq!(codegen(&path, &out, true).code, 0);
    let rust = out.join("rust/mcptest-runner/src/coprocess.rs");
    let text = std::fs::read_to_string(&rust).unwrap();
    std::fs::write(&rust, text.replacen("pub const COPROCESS_PROTOCOL_VERSION: i64 = 2;", "pub const COPROCESS_PROTOCOL_VERSION: i64 = 1;", 1)).unwrap();
    let lock = out.join("coprocess.lock.json");
    let lock_text = std::fs::read_to_string(&lock).unwrap();
    std::fs::write(&lock, lock_text.replace("\"files\": [", "\"files\": [\n    \"old/leftover.txt\",")).unwrap();
    std::fs::create_dir_all(out.join("old")).unwrap();
    std::fs::write(out.join("old/leftover.txt"), "x").unwrap();
    let stale = codegen(&path, &out, true);
    assert_eq!(stale.code, 1);
    assert!(stale.stderr.contains("stale: rust/mcptest-runner/src/coprocess.rs"), "{}", stale.stderr);
    assert!(stale.stderr.contains("-pub const COPROCESS_PROTOCOL_VERSION: i64 = 1;"), "{}", stale.stderr);
    assert!(stale.stderr.contains("extra: old/leftover.txt"), "{}", stale.stderr);
    assert!(stale.stderr.contains("cargo run -p codegen"), "{}", stale.stderr);
    std::fs::remove_file(&rust).unwrap();
    let missing = codegen(&path, &out, true);
    assert!(missing.stderr.contains("missing: rust/mcptest-runner/src/coprocess.rs"), "{}", missing.stderr);
    assert_eq!(codegen(&path, &out, false).code, 0);
    assert!(!out.join("old/leftover.txt").exists());
    assert_eq!(codegen(&path, &out, true).code, 0);
}
