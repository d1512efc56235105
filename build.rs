//! Generates the strict Rust frame types from `schemas/ipc/v2.json` into
//! OUT_DIR with the same code path as `cargo run -p codegen` (typify, then
//! prettyplease). A schema outside the supported subset fails the build with
//! the file, the JSON pointer and the fix — never a typify backtrace.

use std::path::{Path, PathBuf};

const SCHEMA: &str = "schemas/ipc/v2.json";

fn main() {
    println!("cargo:rerun-if-changed={SCHEMA}");
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let Some(out_dir) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        fail("OUT_DIR is not set: run this through cargo");
    };
    let rendered = codegen::load::load(&manifest.join(SCHEMA), SCHEMA).and_then(|(contract, _)| {
        codegen::targets::rust::render(&contract, codegen::targets::rust::Flavor::WithJsonSchema)
    });
    match rendered {
        Ok(text) => write_if_changed(&out_dir.join("coprocess.rs"), &text),
        Err(error) => fail(&error.to_string()),
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
