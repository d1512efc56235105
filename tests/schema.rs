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
