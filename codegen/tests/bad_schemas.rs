//! Every kind of bad schema gets exit code 2, an error naming the file, the
//! JSON pointer and the fix, and leaves the output root untouched.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

fn repo_schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn edit(f: impl Fn(&mut Value)) -> String {
    let mut schema = repo_schema();
    f(&mut schema);
    serde_json::to_string_pretty(&schema).unwrap()
}

#[test]
fn bad_schemas_are_refused_with_file_pointer_and_fix() {
    let verdict_prop = |name: &'static str, schema: Value| edit(move |s| s["$defs"]["Verdict"]["properties"][name] = schema.clone());
    let cases: Vec<(&str, String, &str)> = vec![
        ("invalid JSON", "{\"$schema\": ".to_string(), "not valid JSON"),
        ("meta-schema", edit(|s| s["$defs"]["Verdict"]["required"] = json!("success")), "/$defs/Verdict/required"),
        ("an object const", verdict_prop("x", json!({"description": "d", "const": {"a": 1}})), "/$defs/Verdict/properties/x/const"),
        ("a fractional const", verdict_prop("x", json!({"description": "d", "const": 1.5})), "/$defs/Verdict/properties/x/const"),
        ("a const of another type", verdict_prop("x", json!({"description": "d", "type": "string", "const": 1})), "/$defs/Verdict/properties/x/type"),
        ("a const on array items", verdict_prop("x", json!({"description": "d", "type": "array", "items": {"const": 1}})), "/$defs/Verdict/properties/x/items/const"),
        ("a const with a bound", verdict_prop("x", json!({"description": "d", "const": 1, "maximum": 3})), "/$defs/Verdict/properties/x"),
        ("unevaluatedProperties", edit(|s| s["$defs"]["Verdict"]["unevaluatedProperties"] = json!(false)), "/$defs/Verdict/unevaluatedProperties"),
        ("nested $defs", edit(|s| s["$defs"]["Verdict"]["$defs"] = json!({"X": {"type": "string"}})), "/$defs/Verdict/$defs"),
        ("patternProperties", edit(|s| s["$defs"]["Params"]["patternProperties"] = json!({"^x": {}})), "/$defs/Params/patternProperties"),
        ("unresolvable $ref", verdict_prop("x", json!({"description": "d", "$ref": "#/$defs/Nope"})), "/$defs/Verdict/properties/x/$ref"),
        ("non-local $ref", verdict_prop("x", json!({"description": "d", "$ref": "other.json#/$defs/Verdict"})), "/$defs/Verdict/properties/x/$ref"),
        ("case collision", verdict_prop("durationMs", json!({"description": "d", "type": "integer"})), "/$defs/Verdict/properties/durationMs"),
        ("missing description", verdict_prop("x", json!({"type": "string"})), "/$defs/Verdict/properties/x"),
        ("open object with properties", edit(|s| s["$defs"]["Verdict"]["additionalProperties"] = json!(true)), "/$defs/Verdict/additionalProperties"),
        ("object not closed", edit(|s| { s["$defs"]["Verdict"].as_object_mut().unwrap().remove("additionalProperties"); }), "/$defs/Verdict"),
        ("bounds no integer meets", verdict_prop("x", json!({"description": "d", "type": "integer", "minimum": 5, "exclusiveMaximum": 5})), "/$defs/Verdict/properties/x"),
        ("a fractional bound", verdict_prop("x", json!({"description": "d", "type": "integer", "maximum": 2.5})), "/$defs/Verdict/properties/x/maximum"),
        ("a bound beyond 2^53", verdict_prop("x", json!({"description": "d", "type": "integer", "minimum": 9007199254740992_i64})), "/$defs/Verdict/properties/x/minimum"),
        ("a maximum on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "integer", "maximum": 3})), "/$defs/PromptArguments/additionalProperties/maximum"),
        ("a length on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "string", "minLength": 1})), "/$defs/PromptArguments/additionalProperties/minLength"),
        ("a length on nested array items", verdict_prop("x", json!({"description": "d", "type": "array", "items": {"type": "array", "items": {"type": "string", "minLength": 1}}})), "/$defs/Verdict/properties/x/items/items/minLength"),
        ("lengths no string meets", verdict_prop("x", json!({"description": "d", "type": "string", "minLength": 3, "maxLength": 2})), "/$defs/Verdict/properties/x/minLength"),
        ("a fractional item count", verdict_prop("x", json!({"description": "d", "type": "array", "items": {"type": "string"}, "maxItems": 1.5})), "/$defs/Verdict/properties/x/maxItems"),
        ("a negative length", verdict_prop("x", json!({"description": "d", "type": "string", "maxLength": -1})), "/$defs/Verdict/properties/x/maxLength"),
        ("a fractional multipleOf", verdict_prop("x", json!({"description": "d", "type": "integer", "multipleOf": 0.5})), "/$defs/Verdict/properties/x/multipleOf"),
        ("multipleOf on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "integer", "multipleOf": 2})), "/$defs/PromptArguments/additionalProperties/multipleOf"),
        ("bounds with no multiple between", verdict_prop("x", json!({"description": "d", "type": "integer", "minimum": 1, "maximum": 4, "multipleOf": 5})), "/$defs/Verdict/properties/x/multipleOf"),
        ("multipleOf on a string", verdict_prop("x", json!({"description": "d", "type": "string", "multipleOf": 2})), "/$defs/Verdict/properties/x/multipleOf"),
        ("minProperties on a closed object", edit(|s| s["$defs"]["Verdict"]["minProperties"] = json!(1)), "/$defs/Verdict/minProperties"),
        ("member counts no map meets", edit(|s| { s["$defs"]["PromptArguments"]["minProperties"] = json!(3); s["$defs"]["PromptArguments"]["maxProperties"] = json!(2) }), "/$defs/PromptArguments/minProperties"),
        ("a fractional member count", edit(|s| s["$defs"]["PromptArguments"]["maxProperties"] = json!(2.5)), "/$defs/PromptArguments/maxProperties"),
        ("uniqueItems on arrays of objects", verdict_prop("x", json!({"description": "d", "type": "array", "items": {"$ref": "#/$defs/Verdict"}, "uniqueItems": true})), "/$defs/Verdict/properties/x/uniqueItems"),
        ("uniqueItems on array items", verdict_prop("x", json!({"description": "d", "type": "array", "items": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}})), "/$defs/Verdict/properties/x/items/uniqueItems"),
        ("pattern lookahead", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "^(?=a)"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern backreference", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "(a)\\1"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern word boundary", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "\\bword"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern nested repetition", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "^(a+)+$"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern unclosed group", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "(ab"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "string", "pattern": "a"})), "/$defs/PromptArguments/additionalProperties/pattern"),
        ("pattern on an integer", verdict_prop("x", json!({"description": "d", "type": "integer", "pattern": "1"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern not a string", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": 1})), "/$defs/Verdict/properties/x/pattern"),
        ("propertyNames on a closed object", edit(|s| s["$defs"]["Verdict"]["propertyNames"] = json!({"maxLength": 3})), "/$defs/Verdict/propertyNames"),
        ("propertyNames with an enum", edit(|s| s["$defs"]["PromptArguments"]["propertyNames"] = json!({"enum": ["a"]})), "/$defs/PromptArguments/propertyNames"),
        ("propertyNames false", edit(|s| s["$defs"]["PromptArguments"]["propertyNames"] = json!(false)), "/$defs/PromptArguments/propertyNames"),
        ("propertyNames of another type", edit(|s| s["$defs"]["PromptArguments"]["propertyNames"] = json!({"type": "integer"})), "/$defs/PromptArguments/propertyNames/type"),
        ("propertyNames with a bad pattern", edit(|s| s["$defs"]["PromptArguments"]["propertyNames"] = json!({"pattern": "(?=x)"})), "/$defs/PromptArguments/propertyNames/pattern"),
        ("optional nullable", verdict_prop("x", json!({"description": "d", "type": ["string", "null"]})), "/$defs/Verdict/properties/x"),
        ("two variants with one tag", edit(|s| {
            for variant in ["Verdict", "ToolCallPassthrough"] {
                s["$defs"][variant]["properties"]["kind"] = json!({"description": "d", "const": "same"});
                s["$defs"][variant]["required"].as_array_mut().unwrap().push(json!("kind"));
            }
        }), "/$defs/CallResult/oneOf/1"),
        ("indistinguishable union", edit(|s| s["$defs"]["CallResult"]["oneOf"] = json!([{"$ref": "#/$defs/Verdict"}, {"$ref": "#/$defs/Verdict"}])), "/$defs/CallResult/oneOf/0"),
        ("unknown method table key", edit(|s| s["x-coprocess"]["methods"][0]["timeout"] = json!(1)), "/x-coprocess/methods/0/timeout"),
        ("method params unresolvable", edit(|s| s["x-coprocess"]["methods"][1]["params"] = json!("#/$defs/Gone")), "/x-coprocess/methods/1/params"),
        ("message with a wrong hole", edit(|s| s["x-coprocess"]["messages"]["lane_skip"]["template"] = json!("lane {lane}")), "/x-coprocess/messages/lane_skip/template"),
        ("inline object", verdict_prop("x", json!({"description": "d", "type": "object", "properties": {}})), "/$defs/Verdict/properties/x"),
        ("multipleOf on a number", verdict_prop("x", json!({"description": "d", "type": "number", "multipleOf": 0.5})), "/$defs/Verdict/properties/x/multipleOf"),
        ("bounds no number meets", verdict_prop("x", json!({"description": "d", "type": "number", "minimum": 1.5, "exclusiveMaximum": 1.5})), "/$defs/Verdict/properties/x"),
        ("a number bound that is no number", verdict_prop("x", json!({"description": "d", "type": "number", "maximum": "2"})), "/$defs/Verdict/properties/x/maximum"),
        ("a number bound on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "number", "minimum": 0})), "/$defs/PromptArguments/additionalProperties/minimum"),
        ("envelope name", edit(|s| { s["$defs"]["ResponseOf"] = s["$defs"]["Verdict"].clone(); }), "/$defs/ResponseOf"),
        ("methods meeting as one client method", edit(|s| {
            let twin = json!({"name": "mcp.list_tools", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "d"});
            s["x-coprocess"]["methods"].as_array_mut().unwrap().push(twin);
        }), "/x-coprocess/methods/12/name"),
        ("methods whose words join alike", edit(|s| {
            let twin = json!({"name": "mcp.cache_set.mode", "params": "#/$defs/EmptyParams", "params_required": false, "result": "#/$defs/EmptyParams", "description": "d"});
            s["x-coprocess"]["methods"].as_array_mut().unwrap().push(twin);
        }), "/x-coprocess/methods/12/name"),
        ("method segment without letters", edit(|s| s["x-coprocess"]["methods"][1]["name"] = json!("mcp..x")), "/x-coprocess/methods/1/name"),
        ("client setting out of range", edit(|s| s["x-coprocess"]["client"]["call_timeout_ms"]["value"] = json!(0)), "/x-coprocess/client/call_timeout_ms/value"),
        ("client setting missing", edit(|s| { s["x-coprocess"]["client"].as_object_mut().unwrap().remove("start_timeout_ms"); }), "/x-coprocess/client"),
        ("title not a string", verdict_prop("x", json!({"description": "d", "type": "string", "title": 3})), "/$defs/Verdict/properties/x/title"),
        ("deprecated not a boolean", edit(|s| s["$defs"]["Verdict"]["deprecated"] = json!("yes")), "/$defs/Verdict/deprecated"),
        ("examples not an array", verdict_prop("x", json!({"description": "d", "type": "string", "examples": "a"})), "/$defs/Verdict/properties/x/examples"),
        ("an example of another type", verdict_prop("x", json!({"description": "d", "type": "integer", "examples": [1, "two"]})), "/$defs/Verdict/properties/x/examples/1"),
        ("a default of another type", verdict_prop("x", json!({"description": "d", "type": "integer", "minimum": 0, "default": -1})), "/$defs/Verdict/properties/x/default"),
        ("a type example with an undeclared member", edit(|s| s["$defs"]["Verdict"]["examples"] = json!([{"zz": 1}])), "/$defs/Verdict/examples/0"),
        ("an annotation no doc comment carries", verdict_prop("x", json!({"description": "d", "type": "array", "items": {"type": "string", "title": "t"}})), "/$defs/Verdict/properties/x/items/title"),
        ("format with a backtick", verdict_prop("x", json!({"description": "d", "type": "string", "format": "u`ri"})), "/$defs/Verdict/properties/x/format"),
        ("enum values meeting after case conversion", edit(|s| s["$defs"]["CacheMode"]["enum"] = json!(["off", "read_write", "readWrite"])), "/$defs/CacheMode/enum/2"),
    ];
    assert!(cases.len() >= 12);
    for (kind, text, pointer) in cases {
        let dir = tempfile::tempdir().unwrap();
        let schema = dir.path().join("bad.json");
        std::fs::write(&schema, &text).unwrap();
        let out = dir.path().join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("keep.txt"), "untouched").unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_codegen")).arg("--schema").arg(&schema).arg("--out").arg(&out).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{kind}: {stderr}");
        assert!(stderr.contains("bad.json"), "{kind}: no file in {stderr}");
        assert!(stderr.contains(pointer), "{kind}: no pointer {pointer} in {stderr}");
        assert!(stderr.contains("fix: "), "{kind}: no fix in {stderr}");
        assert!(!stderr.contains("panicked"), "{kind}: {stderr}");
        let entries: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(entries.len(), 1, "{kind}: the output root changed");
    }
}
