//! Golden files: every schema under `codegen/tests/schemas/` is generated for
//! every target and compared with `codegen/tests/golden/<schema>/`. Run with
//! `EXPECTORATE=overwrite` to accept new output. The goldens are compiled by
//! each language's toolchain in `tests/conformance/<target>/build.sh`.

use std::path::{Path, PathBuf};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn golden_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(rel) = path.strip_prefix(dir) {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn goldens_match_generated_output() {
    let overwrite = std::env::var("EXPECTORATE").as_deref() == Ok("overwrite");
    let schemas_dir = manifest_dir().join("tests/schemas");
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(&schemas_dir)
        .expect("codegen/tests/schemas exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    schemas.sort();
    assert!(schemas.len() >= 2, "expected golden schemas in {}", schemas_dir.display());
    let mut failures = Vec::new();
    for schema in schemas {
        let stem = schema.file_stem().unwrap().to_string_lossy().to_string();
        let source = format!("codegen/tests/schemas/{stem}.json");
        let (contract, _) = codegen::load::load(&schema, &source).unwrap_or_else(|e| panic!("{e}"));
        let files = codegen::targets::generate(&contract).unwrap_or_else(|e| panic!("{e}"));
        let golden_dir = manifest_dir().join("tests/golden").join(&stem);
        if overwrite {
            let _ = std::fs::remove_dir_all(&golden_dir);
            for (rel, contents) in &files {
                let path = golden_dir.join(rel);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, contents).unwrap();
            }
            continue;
        }
        let on_disk = golden_files(&golden_dir);
        let expected: Vec<String> = files.keys().cloned().collect();
        if on_disk != expected {
            failures.push(format!("{stem}: golden files {on_disk:?} but generated {expected:?}"));
        }
        for (rel, contents) in &files {
            let disk = std::fs::read_to_string(golden_dir.join(rel)).unwrap_or_default();
            if &disk != contents {
                failures.push(format!("{stem}/{rel}: differs from the golden file"));
            }
        }
    }
    assert!(failures.is_empty(), "{}\nrun `EXPECTORATE=overwrite cargo test -p codegen --test golden` to accept", failures.join("\n"));
}
