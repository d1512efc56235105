//! The support matrix decides where every SDK's files go and what their
//! language calls them: moving every row of the repository's schema into an
//! SDK monorepo layout, with other names, moves every file and renames every
//! name, and nothing of the default layout is left in the output.

use std::path::Path;

use serde_json::{json, Value};

fn repo_schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn generate(schema: &Value) -> codegen::targets::Files {
    let (contract, _) = codegen::load::load_str(&schema.to_string(), Path::new("moved.json"), "moved.json").unwrap_or_else(|e| panic!("{e}"));
    codegen::targets::generate(&contract).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_file_goes_where_its_row_says_under_the_names_it_gives() {
    let mut schema = repo_schema();
    schema["x-coprocess"]["sdks"] = json!([
        {"key": "rust", "name": "Rust", "frames": "sdks/rust/src/frames.rs", "client": "sdks/rust/src/session.rs", "module": "acme_wire::frames"},
        {"key": "python", "name": "Python", "frames": "sdks/py/src/acme/wire/frames.py", "client": "sdks/py/src/acme/wire/session.py", "module": "acme.wire.frames"},
        {"key": "typescript", "name": "TypeScript", "frames": "sdks/ts/lib/frames.ts", "client": "sdks/ts/lib/session.ts", "module": "@acme/wire"},
        {"key": "go", "name": "Go", "frames": "sdks/go/wire/frames.go", "client": "sdks/go/wire/session.go", "package": "wire"},
        {"key": "jvm", "name": "JVM", "frames": "sdks/jvm/src/org/acme/wire/Coprocess.java", "client": "sdks/jvm/src/org/acme/wire/CoprocessClient.java", "package": "org.acme.wire"},
        {"key": "dotnet", "name": ".NET", "frames": "sdks/dotnet/Acme.Wire/Frames.cs", "client": "sdks/dotnet/Acme.Wire/Session.cs", "namespace": "Acme.Wire"},
    ]);
    let files = generate(&schema);
    let sdk_files: Vec<&str> = files.keys().map(String::as_str).filter(|p| p.starts_with("sdks/")).collect();
    assert_eq!(sdk_files.len(), 12, "two files per SDK, all under sdks/: {:?}", files.keys());
    let file = |path: &str| files.get(path).unwrap_or_else(|| panic!("{path} is not generated: {:?}", files.keys()));
    let expect = [
        ("sdks/rust/src/session.rs", "use super::frames::{self as coprocess, messages, Frame};\n"),
        ("sdks/rust/src/session.rs", "the session client (a module beside `frames`)"),
        ("sdks/py/src/acme/wire/session.py", "\nfrom acme.wire import frames as _coprocess\n"),
        ("sdks/ts/lib/session.ts", "\nimport * as coprocess from \"./frames.js\";\n"),
        ("sdks/ts/lib/session.ts", "// beside frames.ts.\n"),
        ("sdks/go/wire/frames.go", "\npackage wire\n"),
        ("sdks/go/wire/frames.go", "// Package wire holds the"),
        ("sdks/go/wire/session.go", "\npackage wire\n"),
        ("sdks/jvm/src/org/acme/wire/Coprocess.java", "\npackage org.acme.wire;\n"),
        ("sdks/jvm/src/org/acme/wire/CoprocessClient.java", "\npackage org.acme.wire;\n"),
        ("sdks/dotnet/Acme.Wire/Frames.cs", "\nnamespace Acme.Wire\n"),
        ("sdks/dotnet/Acme.Wire/Frames.cs", "throw global::Acme.Wire.CoprocessReader.Fallback();"),
        ("sdks/dotnet/Acme.Wire/Session.cs", "\nnamespace Acme.Wire\n"),
    ];
    for (path, text) in expect {
        assert!(file(path).contains(text), "{path} lacks {text:?}");
    }
    // Nothing of the default names is left in any SDK file.
    for (path, text) in files.iter().filter(|(p, _)| p.starts_with("sdks/")) {
        for default in ["Mcptest.Sdk", "dev.mcptest", "package mcptest", "from mcptest import", "super::coprocess", "./coprocess.js", "beside coprocess", "beside `coprocess`"] {
            assert!(!text.contains(default), "{path} still says {default:?}");
        }
    }
}

/// The targets write what the lock lists, but for the lock's own files (the
/// lock and the contract it keeps per version).
#[test]
fn the_default_rows_keep_the_generated_layout() {
    let files = generate(&repo_schema());
    let lock: Value = serde_json::from_str(&std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated/coprocess.lock.json")).unwrap()).unwrap();
    let locked: Vec<&str> = lock["files"].as_array().unwrap().iter().filter_map(Value::as_str).filter(|p| *p != "coprocess.lock.json" && !p.starts_with("coprocess.contracts/")).collect();
    let generated: Vec<&str> = files.keys().map(String::as_str).collect();
    assert_eq!(generated, locked);
}
