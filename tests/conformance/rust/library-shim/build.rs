//! The protocol library's build script in the constraints proof's library
//! testee (tests/conformance/rust/build.sh, `CONFORMANCE_LIBRARY`): the proof
//! renders the library's frames for its contract itself, with the call the
//! crate's own `build.rs` makes, into the folder `MCPTEST_COPROCESS_RENDERED`
//! names; this copies them into OUT_DIR, where `src/lib.rs` includes them, so
//! that the library's sources build on them without codegen and its
//! dependencies being compiled a second time.

use std::path::Path;

const RENDERED: &str = "MCPTEST_COPROCESS_RENDERED";

fn main() {
    println!("cargo:rerun-if-env-changed={RENDERED}");
    let (Some(rendered), Some(out_dir)) = (std::env::var_os(RENDERED), std::env::var_os("OUT_DIR")) else {
        fail(&format!("{RENDERED} (the folder of the rendered frames) and OUT_DIR must be set"));
    };
    for name in ["coprocess.rs", "schema.json"] {
        let from = Path::new(&rendered).join(name);
        println!("cargo:rerun-if-changed={}", from.display());
        let text = std::fs::read(&from).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", from.display())));
        let to = Path::new(&out_dir).join(name);
        // An unchanged file keeps its mtime, so that nothing is rebuilt for it.
        if std::fs::read(&to).ok().as_deref() != Some(text.as_slice()) {
            std::fs::write(&to, &text).unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", to.display())));
        }
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}
