//! Generates the strict Rust frame types from the contract into OUT_DIR with
//! the same code path as `cargo run -p codegen` (typify, then prettyplease).
//! A schema outside the supported subset fails the build with the file, the
//! JSON pointer and the fix — never a typify backtrace.
//!
//! The contract is `schemas/ipc/v2.json`, or the file the environment
//! variable `MCPTEST_COPROCESS_SCHEMA` names (relative to this crate). A copy
//! of it goes beside the frames (`schema.json`, the library's `SCHEMA_JSON`).
//! The proof round renders the frames of its contract with the same call
//! and builds `src/` on them without this script
//! (tests/conformance/round.rs, `library_frames`), so that codegen is not
//! compiled a second time for it. The hand-written code in `src/` names some of the
//! contract's types, error codes, methods and messages ([`needs`]): a
//! contract without one of them is refused here, naming each missing name,
//! not by a compile error inside the generated code.

mod needs {
    include!("build/needs.rs");
}

use std::path::{Path, PathBuf};

const SCHEMA: &str = "schemas/ipc/v2.json";
const SCHEMA_ENV: &str = "MCPTEST_COPROCESS_SCHEMA";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/needs.rs");
    println!("cargo:rerun-if-env-changed={SCHEMA_ENV}");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let source = std::env::var(SCHEMA_ENV).ok().filter(|s| !s.is_empty()).unwrap_or_else(|| SCHEMA.to_string());
    println!("cargo:rerun-if-changed={source}");
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        fail("OUT_DIR is not set: run this through cargo");
    };
    let path = manifest.join(&source);
    let loaded = codegen::load::load(&path, &source);
    let rendered = loaded.and_then(|(contract, _)| {
        let binary = std::env::var_os("CARGO_FEATURE_BINARY").is_some();
        if let Some(missing) = needs::missing(&contract, binary) {
            fail(&format!("{source}: {missing}"));
        }
        codegen::targets::rust::render(&contract, codegen::targets::rust::Flavor::WithJsonSchema)
    });
    match rendered {
        Ok(text) => write_if_changed(&out_dir.join("coprocess.rs"), &text),
        Err(error) => fail(&error.to_string()),
    }
    match std::fs::read_to_string(&path) {
        Ok(text) => write_if_changed(&out_dir.join("schema.json"), &text),
        Err(e) => fail(&format!("cannot read {}: {e}", path.display())),
    }
}

/// Leaves an unchanged file alone, so its mtime does not trigger rebuilds.
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    if let Err(e) = std::fs::write(path, text) {
        fail(&format!("cannot write {}: {e}", path.display()));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: the coprocess schema cannot be turned into Rust types\n{message}");
    for line in message.lines() {
        println!("cargo:warning={line}");
    }
    std::process::exit(1);
}
