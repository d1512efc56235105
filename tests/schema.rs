//! The schema itself: valid 2020-12, and the typed decoders agree with the
//! jsonschema validator over a corpus of mutated frames.

mod support;

use mcptest_coprocess::{frames, validate};

#[test]
fn the_schema_is_valid_json_schema_2020_12() {
    let schema = support::schema();
    jsonschema::draft202012::meta::validate(&schema).unwrap();
}

#[test]
fn typed_decoders_and_the_validator_agree_on_mutated_frames() {
    let cases = support::cases();
    assert!(cases.len() >= 100, "only {} cases", cases.len());
    let mut disagreements = Vec::new();
    for case in &cases {
        let text = case.value.to_string();
        let decoded = frames::decode_and_encode(&case.type_name, &text).expect("known type");
        let validated = validate::validate_text(&case.type_name, &text);
        if decoded.is_ok() != case.valid || validated.is_ok() != case.valid {
            disagreements.push(format!("{} {} ({}): expected {}, decoder {:?}, validator {:?}", case.type_name, text, case.note, case.valid, decoded.err().map(|e| e.to_string()), validated.err()));
        }
        if let Ok(encoded) = frames::decode_and_encode(&case.type_name, &text).unwrap() {
            let back: serde_json::Value = serde_json::from_str(&encoded).unwrap();
            if back != case.value {
                disagreements.push(format!("{}: {text} re-encoded as {encoded}", case.type_name));
            }
        }
    }
    assert!(disagreements.is_empty(), "{} of {} cases:\n{}", disagreements.len(), cases.len(), disagreements.join("\n"));
}

#[test]
fn unknown_fields_are_rejected_at_every_level_of_every_closed_shape() {
    let undeclared: Vec<_> = support::cases().into_iter().filter(|c| c.note.starts_with("undeclared")).collect();
    assert!(undeclared.len() >= 25, "{}", undeclared.len());
    for case in undeclared {
        let error = frames::decode_and_encode(&case.type_name, &case.value.to_string()).unwrap().unwrap_err();
        assert!(error.problem.contains("unknown field `zz_undeclared`"), "{}: {error}", case.note);
    }
}

/// The keys of every object in `value`, in document order, with their paths.
fn key_orders(value: &serde_json::Value, path: &str, out: &mut Vec<(String, Vec<String>)>) {
    match value {
        serde_json::Value::Object(map) => {
            out.push((path.to_string(), map.keys().cloned().collect()));
            for (k, v) in map {
                key_orders(v, &format!("{path}/{k}"), out);
            }
        }
        serde_json::Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| key_orders(v, &format!("{path}/{i}"), out)),
        _ => {}
    }
}

#[test]
fn encoders_write_fields_in_schema_declaration_order() {
    // Samples are built by walking the schema's `properties` in declaration
    // order (the schema is read with order preserved), so the sample's key
    // order is the declaration order; the encoder must reproduce it exactly.
    let schema = support::schema();
    let defs = schema["$defs"].as_object().unwrap();
    let mut checked = 0;
    for (name, def) in defs {
        let sample = support::sample(&schema, def);
        let encoded = frames::decode_and_encode(name, &sample.to_string()).unwrap().unwrap();
        let back: serde_json::Value = serde_json::from_str(&encoded).unwrap();
        let (mut expected, mut actual) = (Vec::new(), Vec::new());
        key_orders(&sample, "", &mut expected);
        key_orders(&back, "", &mut actual);
        assert_eq!(actual, expected, "{name}: fields out of schema order in {encoded}");
        checked += expected.iter().filter(|(_, keys)| keys.len() > 1).count();
    }
    assert!(checked >= 20, "only {checked} multi-field objects checked");
}

#[allow(dead_code)] // `BINARY` and `LIBRARY` are read through `missing` too
#[path = "../build/needs.rs"]
mod needs;

/// The contract names `src/` uses (the files under `dir`): each `Name` a
/// `frames::` path or import brings in (but the items every contract gets),
/// each error code, method and message constant it reads.
fn names_used(dir: &str) -> std::collections::BTreeSet<String> {
    const ALWAYS: &[&str] = &["COPROCESS_PROTOCOL_VERSION", "MAX_DEPTH", "MAX_LINE_BYTES", "TYPE_NAMES", "HandshakeFailure", "Frame", "DecodeError", "MethodInfo"];
    let imports = regex::Regex::new(r"frames::(?:\{([^}]*)\}|([A-Za-z_]+))").unwrap();
    let tables = regex::Regex::new(r"(error_codes|methods)::([A-Z_]+)|messages::render_([a-z_]+)").unwrap();
    let mut used = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for found in imports.captures_iter(&text) {
            let list = found.get(1).or(found.get(2)).unwrap().as_str();
            let names = list.split(',').map(str::trim).filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase()) && n.chars().any(|c| c.is_ascii_lowercase()));
            used.extend(names.filter(|n| !ALWAYS.contains(n)).map(|n| format!("type {n}")));
        }
        for found in tables.captures_iter(&text) {
            match (found.get(1).map(|m| m.as_str()), found.get(2), found.get(3)) {
                (Some(table), Some(name), _) => used.insert(format!("{table} {}", name.as_str())),
                (_, _, Some(message)) => used.insert(format!("message {}", message.as_str())),
                _ => unreachable!(),
            };
        }
    }
    used
}

/// The names `needs` lists, in the words of [`names_used`].
fn names_listed(lists: &[&needs::Needs]) -> std::collections::BTreeSet<String> {
    // `InvalidRequest` → `INVALID_REQUEST`, `mcp.listTools` → `MCP_LIST_TOOLS`.
    let screaming = |name: &str| {
        let name = name.replace(['.', '/'], "_");
        let mut out = String::new();
        for (i, c) in name.char_indices() {
            if c.is_ascii_uppercase() && name[..i].ends_with(|l: char| l.is_ascii_lowercase()) {
                out.push('_');
            }
            out.push(c.to_ascii_uppercase());
        }
        out
    };
    let mut listed = std::collections::BTreeSet::new();
    for needs in lists {
        listed.extend(needs.types.iter().map(|n| format!("type {n}")));
        listed.extend(needs.error_codes.iter().map(|n| format!("error_codes {}", screaming(n))));
        listed.extend(needs.methods.iter().map(|n| format!("methods {}", screaming(n))));
        listed.extend(needs.messages.iter().map(|n| format!("message {n}")));
    }
    listed
}

/// build.rs refuses a contract without a name `src/` uses (issue 33): its
/// lists are exactly what the library and the binary name.
#[test]
fn the_build_scripts_needs_are_what_src_names() {
    let library = names_used("src");
    assert_eq!(names_listed(&[&needs::LIBRARY]), library, "build/needs.rs LIBRARY is not what src/*.rs names");
    let binary: std::collections::BTreeSet<String> = names_used("src/bin/mcptest").union(&library).cloned().collect();
    assert_eq!(names_listed(&[&needs::LIBRARY, &needs::BINARY]), binary, "build/needs.rs BINARY is not what src/bin/mcptest names");
}

#[test]
fn the_build_script_names_what_a_contract_lacks() {
    let (v2, _) = codegen::load::load(std::path::Path::new("schemas/ipc/v2.json"), "v2.json").unwrap();
    assert_eq!(needs::missing(&v2, true), None);
    let (golden, _) = codegen::load::load(std::path::Path::new("codegen/tests/schemas/constraints.json"), "constraints.json").unwrap();
    let library = needs::missing(&golden, false).expect("the golden lacks InvalidRequest");
    assert!(library.contains("the library needs the error code (`x-coprocess.error_codes`) `InvalidRequest`"), "{library}");
    assert!(!library.contains("binary"), "{library}");
    let binary = needs::missing(&golden, true).expect("the golden lacks the binary's names");
    assert!(binary.contains("the mcptest binary needs the type (`$defs`) `CacheMode`, `CacheSetModeParams`"), "{binary}");
    assert!(binary.contains("`mcp.call`") && binary.contains("`answer_too_long`"), "{binary}");
}

/// `answer_too_long`, the binary's own message, is optional to codegen (no
/// SDK renders it) and checked for its holes when present; without it the
/// library still builds, and the binary is refused by name.
#[test]
fn the_binarys_message_is_optional_to_codegen_and_needed_by_the_binary() {
    let path = std::path::Path::new("schemas/ipc/v2.json");
    let mut schema = support::schema();
    schema["x-coprocess"]["messages"]["answer_too_long"]["template"] = serde_json::json!("{method}: too long");
    let refused = codegen::load::load_str(&schema.to_string(), path, "v2.json").expect_err("a template without {bytes}");
    assert_eq!(refused.pointer, "/x-coprocess/messages/answer_too_long/template", "{refused}");
    schema["x-coprocess"]["messages"].as_object_mut().unwrap().remove("answer_too_long");
    let (contract, _) = codegen::load::load_str(&schema.to_string(), path, "v2.json").unwrap();
    assert_eq!(needs::missing(&contract, false), None);
    let binary = needs::missing(&contract, true).expect("the binary needs answer_too_long");
    assert!(binary.contains("the mcptest binary needs the message (`x-coprocess.messages`) `answer_too_long`"), "{binary}");
}
