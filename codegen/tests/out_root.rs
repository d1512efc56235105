//! codegen reads, writes and deletes only inside `--out` (issue 36, rows 1
//! and 2): a hostile version lock or a symbolic link planted in the output
//! root is refused (exit 2, naming it) and nothing outside is touched.

mod common;

use std::path::{Path, PathBuf};

use common::snapshot;

/// codegen on the repository's schema.
fn codegen(out: &Path, check: bool) -> common::Run {
    common::codegen(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json"), out, check)
}

/// A scratch directory with a generated output root `out` in it, and a
/// file `victim.txt` beside `out`, which codegen must never touch.
struct Scratch {
    _dir: tempfile::TempDir,
    top: PathBuf,
    out: PathBuf,
    victim: PathBuf,
}

fn scratch() -> Scratch {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().to_path_buf();
    let out = top.join("out");
    let first = codegen(&out, false);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let victim = top.join("victim.txt");
    std::fs::write(&victim, "not codegen's").unwrap();
    Scratch { _dir: dir, top, out, victim }
}

/// Lists `entry` in the lock's `files` as if an earlier run had written it.
fn list_in_lock(out: &Path, entry: &str) {
    let path = out.join("coprocess.lock.json");
    let mut lock: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    lock["files"].as_array_mut().unwrap().push(entry.into());
    std::fs::write(&path, serde_json::to_string_pretty(&lock).unwrap()).unwrap();
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::os::unix::fs::symlink(target, link).unwrap();
}

#[test]
fn a_lock_entry_outside_the_root_is_refused_by_name_and_nothing_is_deleted() {
    let s = scratch();
    let absolute = s.victim.to_string_lossy().replace('\\', "/");
    for entry in ["../victim.txt", absolute.as_str(), "python/../../victim.txt", "./../victim.txt"] {
        let s = scratch();
        list_in_lock(&s.out, entry);
        let before = snapshot(&s.top);
        for check in [false, true] {
            let run = codegen(&s.out, check);
            assert_eq!(run.code, 2, "{entry} (check: {check}): {}{}", run.stdout, run.stderr);
            assert!(run.stderr.contains(&format!("`{entry}`")), "{entry} (check: {check}): the refusal does not name it: {}", run.stderr);
            assert!(run.stderr.contains("coprocess.lock.json") && run.stderr.contains("/files/"), "{entry}: not located in the lock: {}", run.stderr);
            assert!(run.stderr.contains("fix: "), "{}", run.stderr);
            assert_eq!(snapshot(&s.top), before, "{entry} (check: {check}): something changed");
        }
        assert!(s.victim.exists(), "{entry}: the victim was deleted");
    }
    assert!(s.victim.exists());
}

#[cfg(unix)]
#[test]
fn a_symlinked_directory_leading_out_of_the_root_is_refused_not_written_through() {
    let s = scratch();
    let elsewhere = s.top.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::remove_dir_all(s.out.join("python")).unwrap();
    symlink(&elsewhere, &s.out.join("python"));
    let before = snapshot(&s.top);
    for check in [false, true] {
        let run = codegen(&s.out, check);
        assert_eq!(run.code, 2, "check: {check}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("`python`") && run.stderr.contains("symbolic link"), "check: {check}: {}", run.stderr);
        assert!(run.stderr.contains("fix: "), "{}", run.stderr);
        assert_eq!(snapshot(&s.top), before, "check: {check}: something changed");
    }
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0, "codegen wrote through the link");
}

#[cfg(unix)]
#[test]
fn a_symlinked_file_in_the_root_is_refused_whether_generated_or_listed_in_the_lock() {
    // A generated file that is a link (to outside the root, or inside it).
    for target in ["../../victim.txt", "client.go"] {
        let s = scratch();
        let link = s.out.join("go/coprocess.go");
        std::fs::remove_file(&link).unwrap();
        symlink(Path::new(target), &link);
        let before = snapshot(&s.top);
        for check in [false, true] {
            let run = codegen(&s.out, check);
            assert_eq!(run.code, 2, "{target} (check: {check}): {}{}", run.stdout, run.stderr);
            assert!(run.stderr.contains("`go/coprocess.go`") && run.stderr.contains("symbolic link"), "{}", run.stderr);
            assert_eq!(snapshot(&s.top), before, "{target} (check: {check}): something changed");
        }
    }
    // A file the lock lists as no longer generated, that is a link out.
    let s = scratch();
    symlink(&s.victim, &s.out.join("go/old.go"));
    list_in_lock(&s.out, "go/old.go");
    let before = snapshot(&s.top);
    let run = codegen(&s.out, false);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("`go/old.go`"), "{}", run.stderr);
    assert_eq!(snapshot(&s.top), before);
}

#[cfg(unix)]
#[test]
fn a_link_planted_at_a_temporary_file_name_is_not_written_through() {
    let s = scratch();
    let frames = s.out.join("go/coprocess.go");
    let generated = std::fs::read(&frames).unwrap();
    std::fs::write(&frames, "stale").unwrap();
    let planted = s.out.join("go/.coprocess.go.codegen-tmp");
    symlink(&s.victim, &planted);
    let run = codegen(&s.out, false);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(std::fs::read_to_string(&s.victim).unwrap() == "not codegen's", "codegen wrote through the planted link");
    let kind = std::fs::symlink_metadata(&frames).unwrap().file_type();
    assert!(kind.is_file(), "the generated file is not a plain file: {kind:?}");
    assert!(std::fs::read(&frames).unwrap() == generated, "the generated file is not what codegen generates");
    // The planted link is left as it was, and no temporary file stays behind.
    assert_eq!(std::fs::read_link(&planted).unwrap(), s.victim);
    let temps: Vec<_> = std::fs::read_dir(s.out.join("go")).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.contains("codegen-tmp")).collect();
    assert_eq!(temps, [".coprocess.go.codegen-tmp"]);
}

#[cfg(unix)]
#[test]
fn a_symlinked_directory_that_stays_inside_the_root_is_followed() {
    let s = scratch();
    std::fs::rename(s.out.join("python"), s.out.join("python-real")).unwrap();
    symlink(Path::new("python-real"), &s.out.join("python"));
    std::fs::write(s.out.join("python-real/mcptest/_coprocess.py"), "stale").unwrap();
    let run = codegen(&s.out, false);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("wrote     python/mcptest/_coprocess.py"), "{}", run.stdout);
    assert!(std::fs::symlink_metadata(s.out.join("python")).unwrap().file_type().is_symlink());
    assert_eq!(codegen(&s.out, true).code, 0);
}
