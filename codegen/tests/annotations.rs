//! The annotation keywords (`title`, `format`, `default`, `examples`,
//! `deprecated`) are documentation: they reach every target's doc comments,
//! `deprecated` becomes each language's own marker, and none of them is a
//! shape (the version lock's fingerprints do not move).

use std::path::Path;

use serde_json::{json, Value};

fn schema_path(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn generate(text: &str) -> codegen::targets::Files {
    let (contract, _) = codegen::load::load_str(text, Path::new("annotated.json"), "annotated.json").unwrap_or_else(|e| panic!("{e}"));
    codegen::targets::generate(&contract).unwrap_or_else(|e| panic!("{e}"))
}

/// The text of `file` from the line naming `declaration` back to the blank
/// line before its doc comment (the declaration with its docs and markers).
fn declared(files: &codegen::targets::Files, file: &str, declaration: &str) -> String {
    let text = files.get(file).unwrap_or_else(|| panic!("no {file}"));
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains(declaration)).unwrap_or_else(|| panic!("{file}: no line with {declaration:?}"));
    let start = lines[..at].iter().rposition(|l| l.trim().is_empty()).map_or(0, |i| i + 1);
    lines[start..=at].join("\n")
}

#[test]
fn deprecated_types_carry_each_languages_marker_and_the_note() {
    let text = std::fs::read_to_string(schema_path("tests/schemas/annotations.json")).unwrap();
    let files = generate(&text);
    let note = "Deprecated: the contract marks this deprecated";
    let cases = [
        ("rust/mcptest-runner/src/coprocess.rs", "pub struct Legacy {", "#[deprecated]"),
        ("python/mcptest/_coprocess.py", "class Legacy", ""),
        ("typescript/src/coprocess.ts", "export interface Legacy {", " * @deprecated"),
        ("go/coprocess.go", "type Legacy struct {", "// Deprecated: the contract marks"),
        ("jvm/src/main/java/dev/mcptest/Coprocess.java", "public record Legacy(", "@Deprecated"),
        ("dotnet/src/Mcptest.Sdk/Coprocess.cs", "public sealed class Legacy", "[global::System.Obsolete]"),
    ];
    for (file, declaration, marker) in cases {
        let text = files.get(file).unwrap_or_else(|| panic!("no {file}"));
        // Python's docstring follows the class line; every other doc precedes it.
        let shown = if file.ends_with(".py") {
            let at = text.find(declaration).unwrap_or_else(|| panic!("{file}: no {declaration:?}"));
            text[at..].split("\n\n\n").next().unwrap_or_default().to_string()
        } else {
            declared(&files, file, declaration)
        };
        assert!(flat(&shown).contains(note), "{file}: the note is missing:\n{shown}");
        assert!(shown.contains(marker), "{file}: the marker {marker:?} is missing:\n{shown}");
        // (Go's doc sentence starts with the name: `Legacy is legacy settings.`)
        assert!(shown.to_lowercase().contains("legacy settings.\n"), "{file}: the title is not the first paragraph:\n{shown}");
    }
    // Without `deprecated`, no marker and no note anywhere.
    let mut plain: Value = serde_json::from_str(&text).unwrap();
    strip_deprecated(&mut plain);
    let files = generate(&plain.to_string());
    for (file, text) in &files {
        for marker in ["#[deprecated]", "@deprecated", "@Deprecated", "Obsolete", "Deprecated:", "no-deprecated", "allow(deprecated)"] {
            assert!(!text.contains(marker), "{file}: {marker} without a deprecated item");
        }
    }
}

/// Doc comment text without its comment markers, blanks collapsed.
fn flat(text: &str) -> String {
    let words = text.split_whitespace().filter(|w| !matches!(*w, "///" | "//" | "*" | "#"));
    words.map(|w| w.trim_start_matches("///").trim_start_matches("<p>")).collect::<Vec<_>>().join(" ")
}

fn strip_deprecated(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("deprecated");
            map.values_mut().for_each(strip_deprecated);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_deprecated),
        _ => {}
    }
}

#[test]
fn annotations_are_documentation_in_every_target() {
    let text = std::fs::read_to_string(schema_path("tests/schemas/annotations.json")).unwrap();
    let files = generate(&text);
    for (file, text) in &files {
        if file.ends_with(".json") || file.contains("client") || file.contains("Client") {
            continue;
        }
        let flat = flat(text).to_lowercase();
        for said in ["Format:", "(an annotation: not checked).", "Default:", "(documentation only: an absent member is never filled in).", "Examples:", "u0060tick", "legacy settings.", "settings query."] {
            assert!(flat.contains(&said.to_lowercase()), "{file}: the doc comments do not say {said:?}");
        }
    }
}

#[test]
fn annotations_are_not_shapes_for_the_version_lock() {
    let path = schema_path("../schemas/ipc/v2.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let (plain, _) = codegen::load::load_str(&text, &path, "v2.json").unwrap();
    let mut annotated: Value = serde_json::from_str(&text).unwrap();
    let verdict = &mut annotated["$defs"]["Verdict"];
    verdict["title"] = json!("Verdict");
    verdict["deprecated"] = json!(true);
    let tool = &mut annotated["$defs"]["CallParams"]["properties"]["tool"];
    tool["format"] = json!("tool-name");
    tool["default"] = json!("echo");
    tool["examples"] = json!(["echo", "add"]);
    tool["deprecated"] = json!(true);
    let (annotated, _) = codegen::load::load_str(&annotated.to_string(), &path, "v2.json").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(codegen::lock::shapes(&plain), codegen::lock::shapes(&annotated));
    // ... while a shape change does move them (the comparison can fail).
    let mut reshaped: Value = serde_json::from_str(&text).unwrap();
    // (A member the schema's example exchanges leave out: the loader checks them against their types.)
    reshaped["$defs"]["CallParams"]["properties"]["passthrough"]["type"] = json!("string");
    let (reshaped, _) = codegen::load::load_str(&reshaped.to_string(), &path, "v2.json").unwrap();
    assert_ne!(codegen::lock::shapes(&plain), codegen::lock::shapes(&reshaped));
}
