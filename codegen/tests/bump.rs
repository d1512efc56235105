//! `codegen bump` end to end, in a copy of the repository's schema and
//! generated output: the version moves, the lock gains it, the released
//! contract stays recorded, `--check` is green afterwards, and a refusal
//! leaves every byte as it was.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// A copy of the schema and of `generated/` in a temporary directory.
fn copy_of_the_repo() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("v2.json");
    std::fs::copy(repo().join("schemas/ipc/v2.json"), &schema).unwrap();
    let out = dir.path().join("generated");
    copy_dir(&repo().join("generated"), &out);
    (dir, schema, out)
}

fn codegen(args: &[&str], schema: &Path, out: &Path) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_codegen")).args(args).arg("--schema").arg(schema).arg("--out").arg(out).output().unwrap();
    (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stdout).into(), String::from_utf8_lossy(&output.stderr).into())
}

fn snapshot(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((path.clone(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn bump_moves_the_contract_and_check_is_green_afterwards() {
    let (_dir, schema, out) = copy_of_the_repo();
    let before: Value = serde_json::from_str(&std::fs::read_to_string(&schema).unwrap()).unwrap();
    let version = before["x-coprocess"]["protocol_version"].as_i64().unwrap();
    let contracts = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().path()).find(|p| p.is_dir() && p.file_name().unwrap().to_string_lossy().contains("contracts"));
    let released = contracts.as_ref().map(|dir| (dir.join(format!("v{version}.json")), std::fs::read(dir.join(format!("v{version}.json"))).unwrap()));

    let (code, stdout, stderr) = codegen(&["bump", "--changes", "Adds nothing yet: a test of bump."], &schema, &out);
    assert_eq!(code, 0, "bump failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains(&format!("protocol version {version} -> {}", version + 1)), "{stdout}");

    let after: Value = serde_json::from_str(&std::fs::read_to_string(&schema).unwrap()).unwrap();
    assert_eq!(after["x-coprocess"]["protocol_version"], version + 1);
    let history = after["x-coprocess"]["history"].as_array().unwrap();
    assert_eq!(history.last().unwrap()["version"], version + 1);
    assert_eq!(history.last().unwrap()["changes"], "Adds nothing yet: a test of bump.");
    // Nothing else in the schema moved.
    let mut expected = before.clone();
    expected["x-coprocess"]["protocol_version"] = (version + 1).into();
    expected["x-coprocess"]["history"].as_array_mut().unwrap().push(history.last().unwrap().clone());
    assert_eq!(after, expected);

    let lock: Value = serde_json::from_str(&std::fs::read_to_string(out.join("coprocess.lock.json")).unwrap()).unwrap();
    assert!(lock["versions"].get(version.to_string()).is_some() && lock["versions"].get((version + 1).to_string()).is_some(), "the lock keeps both versions: {}", lock["versions"]);
    if let Some((path, bytes)) = released {
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "the released contract {} must stay as it was", path.display());
    }
    let pin = std::fs::read_to_string(out.join("go/coprocess.go")).unwrap();
    assert!(pin.contains(&format!("const CoprocessProtocolVersion = {}\n", version + 1)), "the Go pin speaks the new version");

    let (code, stdout, stderr) = codegen(&["--check"], &schema, &out);
    assert_eq!(code, 0, "--check after bump:\n{stdout}\n{stderr}");
}

#[test]
fn a_refused_bump_changes_nothing() {
    let (_dir, schema, out) = copy_of_the_repo();
    let before = (std::fs::read(&schema).unwrap(), snapshot(&out));
    let (code, _, stderr) = codegen(&["bump", "--changes", " "], &schema, &out);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--changes is empty"), "{stderr}");
    assert_eq!((std::fs::read(&schema).unwrap(), snapshot(&out)), before);

    // A schema that is not a contract: named, nothing written.
    std::fs::write(&schema, "{\"x-coprocess\": {\"protocol_version\": 2}}").unwrap();
    let (code, _, stderr) = codegen(&["bump", "--changes", "x"], &schema, &out);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("v2.json"), "the error names the file: {stderr}");
    assert_eq!(snapshot(&out), before.1);
    assert_eq!(std::fs::read_to_string(&schema).unwrap(), "{\"x-coprocess\": {\"protocol_version\": 2}}");

    let missing = schema.with_file_name("missing.json");
    let (code, _, stderr) = codegen(&["bump", "--changes", "x"], &missing, &out);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.json"), "{stderr}");
}
