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
