//! The goldens the build scripts check, plus the renamed contract's SDKs
//! (issue 32): v2.json with every type and method renamed
//! ([`crate::support::rename::renamed`]), whose roles name the renamed
//! types, generated here with codegen as a library. Each `build.sh` checks
//! the golden folders it is given (`CONFORMANCE_GOLDENS`) in the same tool
//! runs as the generated files, so the renamed SDKs pass every strict check
//! of every target (formatters, linters, type checkers, compilers) with no
//! round of their own.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The folder of golden folders: a link to each of codegen/tests/golden/*,
/// one to `generated/` (v2's output, checked as itself), and `renamed-v2`,
/// the renamed contract's output.
pub fn goldens() -> Result<&'static Path, String> {
    static GOLDENS: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    GOLDENS.get_or_init(write).as_deref().map_err(Clone::clone)
}

fn write() -> Result<PathBuf, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let work = root.join("target/conformance/renamed");
    let folders = work.join("goldens");
    std::fs::create_dir_all(&folders).map_err(|e| format!("{}: {e}", folders.display()))?;
    let schema = crate::support::rename::renamed(&crate::support::schema());
    let path = work.join("renamed-v2.json");
    let text = serde_json::to_string_pretty(&schema).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    let (contract, _) = codegen::load::load(&path, "renamed-v2.json").map_err(|e| format!("the renamed contract is refused: {e}"))?;
    let files = codegen::targets::generate(&contract).map_err(|e| format!("the renamed contract does not generate: {e}"))?;
    crate::support::testee::write_output(&files, &folders.join("renamed-v2"));
    let goldens = root.join("codegen/tests/golden");
    let mut linked = vec![(std::ffi::OsString::from("generated"), root.join("generated"))];
    for entry in std::fs::read_dir(&goldens).map_err(|e| format!("{}: {e}", goldens.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        linked.push((entry.file_name(), entry.path()));
    }
    for (name, folder) in linked {
        let link = folders.join(name);
        if std::fs::read_link(&link).ok() != Some(folder.clone()) {
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&folder, &link).map_err(|e| format!("{}: {e}", link.display()))?;
        }
    }
    Ok(folders)
}
