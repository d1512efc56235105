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

/// Arrays nested `depth` deep, of strings (issue 36: the TypeScript layout
/// once took gigabytes at 14).
fn nested_arrays(depth: usize) -> Value {
    let mut ty = json!({"type": "string"});
    for _ in 0..depth {
        ty = json!({"type": "array", "items": ty});
    }
    ty["description"] = json!("d");
    ty
}

/// The pointer to the 64th of arrays nested at `at`: the first past what a
/// frame can hold with v2.json's `max_depth` of 64.
fn deep_items(at: &str) -> String {
    format!("{at}{}", "/items".repeat(63))
}

#[test]
fn bad_schemas_are_refused_with_file_pointer_and_fix() {
    let verdict_prop = |name: &'static str, schema: Value| edit(move |s| s["$defs"]["Verdict"]["properties"][name] = schema.clone());
    // A required property of Verdict (an inline `enum` is on a required member only).
    let verdict_required = |name: &'static str, schema: Value| {
        edit(move |s| {
            s["$defs"]["Verdict"]["properties"][name] = schema.clone();
            s["$defs"]["Verdict"]["required"].as_array_mut().unwrap().push(json!(name));
        })
    };
    // Rows of the support matrix: 0 rust, 1 python, 2 typescript, 3 go, 4 jvm, 5 dotnet.
    let sdk = |row: usize, key: &'static str, value: Value| edit(move |s| s["x-coprocess"]["sdks"][row][key] = value.clone());
    let (verdict_deep, map_deep) = (deep_items("/$defs/Verdict/properties/x"), deep_items("/$defs/PromptArguments/additionalProperties"));
    let cases: Vec<(&str, String, &str)> = vec![
        ("invalid JSON", "{\"$schema\": ".to_string(), "not valid JSON"),
        ("meta-schema", edit(|s| s["$defs"]["Verdict"]["required"] = json!("success")), "/$defs/Verdict/required"),
        ("an object const on an optional member", verdict_prop("x", json!({"description": "d", "const": {"a": 1}})), "/$defs/Verdict/properties/x/const"),
        ("a fractional const on an optional member", verdict_prop("x", json!({"description": "d", "const": 1.5})), "/$defs/Verdict/properties/x/const"),
        ("a null const on an optional member", verdict_prop("x", json!({"description": "d", "const": null})), "/$defs/Verdict/properties/x/const"),
        ("a const integer beyond 2^53-1", verdict_prop("x", json!({"description": "d", "const": {"a": [1, 9007199254740992_u64]}})), "/$defs/Verdict/properties/x/const/a/1"),
        ("a const of another type", verdict_prop("x", json!({"description": "d", "type": "string", "const": 1})), "/$defs/Verdict/properties/x/type"),
        ("a const on array items", verdict_prop("x", json!({"description": "d", "type": "array", "items": {"const": 1}})), "/$defs/Verdict/properties/x/items/const"),
        ("a const with a bound", verdict_prop("x", json!({"description": "d", "const": 1, "maximum": 3})), "/$defs/Verdict/properties/x"),
        ("an inline enum on an optional member", verdict_prop("x", json!({"description": "d", "enum": [1, "a", null]})), "/$defs/Verdict/properties/x/enum"),
        ("an inline enum listing null on an optional member", verdict_prop("x", json!({"description": "d", "enum": ["a", null]})), "/$defs/Verdict/properties/x/enum"),
        ("an empty inline enum", verdict_required("x", json!({"description": "d", "enum": []})), "/$defs/Verdict/properties/x/enum"),
        ("an inline enum repeating a value", verdict_required("x", json!({"description": "d", "enum": [1, "a", 1.0]})), "/$defs/Verdict/properties/x/enum/2"),
        ("an inline enum repeating an object in another member order", verdict_required("x", json!({"description": "d", "enum": [{"a": 1, "b": [true]}, {"b": [true], "a": 1.0}]})), "/$defs/Verdict/properties/x/enum/1"),
        ("an inline enum integer beyond 2^53-1", verdict_required("x", json!({"description": "d", "enum": [1, [9007199254740992_u64]]})), "/$defs/Verdict/properties/x/enum/1/0"),
        ("an inline enum value outside its type", verdict_required("x", json!({"description": "d", "type": "integer", "enum": [1, 2.5]})), "/$defs/Verdict/properties/x/enum/1"),
        ("an inline enum with a type list", verdict_required("x", json!({"description": "d", "type": ["integer", "null"], "enum": [1, null]})), "/$defs/Verdict/properties/x/type"),
        ("an inline enum on array items", verdict_required("x", json!({"description": "d", "type": "array", "items": {"enum": [1, 2]}})), "/$defs/Verdict/properties/x/items/enum"),
        ("an inline enum on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"enum": [1, 2]})), "/$defs/PromptArguments/additionalProperties/enum"),
        ("a named enum of integers", edit(|s| s["$defs"]["CacheMode"] = json!({"description": "d", "type": "integer", "enum": [1, 2]})), "/$defs/CacheMode/enum"),
        ("an inline enum with a bound", verdict_required("x", json!({"description": "d", "enum": [1, 2], "maximum": 3})), "/$defs/Verdict/properties/x"),
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
        ("a multipleOf of 0", verdict_prop("x", json!({"description": "d", "type": "integer", "multipleOf": 0})), "/$defs/Verdict/properties/x/multipleOf"),
        ("a negative multipleOf", verdict_prop("x", json!({"description": "d", "type": "integer", "multipleOf": -2.5})), "/$defs/Verdict/properties/x/multipleOf"),
        ("a multipleOf past 2^53", verdict_prop("x", json!({"description": "d", "type": "integer", "multipleOf": 1e16})), "/$defs/Verdict/properties/x/multipleOf"),
        ("multipleOf on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "integer", "multipleOf": 2})), "/$defs/PromptArguments/additionalProperties/multipleOf"),
        ("bounds with no multiple between", verdict_prop("x", json!({"description": "d", "type": "integer", "minimum": 1, "maximum": 4, "multipleOf": 5})), "/$defs/Verdict/properties/x/multipleOf"),
        ("multipleOf on a string", verdict_prop("x", json!({"description": "d", "type": "string", "multipleOf": 2})), "/$defs/Verdict/properties/x/multipleOf"),
        ("minProperties on a closed object", edit(|s| s["$defs"]["Verdict"]["minProperties"] = json!(1)), "/$defs/Verdict/minProperties"),
        ("member counts no map meets", edit(|s| { s["$defs"]["PromptArguments"]["minProperties"] = json!(3); s["$defs"]["PromptArguments"]["maxProperties"] = json!(2) }), "/$defs/PromptArguments/minProperties"),
        ("a fractional member count", edit(|s| s["$defs"]["PromptArguments"]["maxProperties"] = json!(2.5)), "/$defs/PromptArguments/maxProperties"),
        ("uniqueItems on array items", verdict_prop("x", json!({"description": "d", "type": "array", "items": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}})), "/$defs/Verdict/properties/x/items/uniqueItems"),
        ("pattern lookahead", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "^(?=a)"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern backreference", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "(a)\\1"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern word boundary", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "\\bword"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern nested repetition", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "^(a+)+$"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern repetitions splitting the same text", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "^\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*$"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern searched through a repetition", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "[a-z]+:"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern searched with a long try", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "\\S{40}$"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern nested counts past Go's", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "^(?:[0-9a-f]{2}){1,512}$"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern past Rust's size limit", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": format!("^{}$", "(?:.{1000})".repeat(40))})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern groups nested too deep", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": format!("{}a{}", "(".repeat(5000), ")".repeat(5000))})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern unclosed group", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": "(ab"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "string", "pattern": "a"})), "/$defs/PromptArguments/additionalProperties/pattern"),
        ("pattern on an integer", verdict_prop("x", json!({"description": "d", "type": "integer", "pattern": "1"})), "/$defs/Verdict/properties/x/pattern"),
        ("pattern not a string", verdict_prop("x", json!({"description": "d", "type": "string", "pattern": 1})), "/$defs/Verdict/properties/x/pattern"),
        ("propertyNames on a closed object", edit(|s| s["$defs"]["Verdict"]["propertyNames"] = json!({"maxLength": 3})), "/$defs/Verdict/propertyNames"),
        ("propertyNames with an enum", edit(|s| s["$defs"]["PromptArguments"]["propertyNames"] = json!({"enum": ["a"]})), "/$defs/PromptArguments/propertyNames"),
        ("prefixItems on a string", verdict_prop("x", json!({"description": "d", "type": "string", "prefixItems": [{"type": "string"}]})), "/$defs/Verdict/properties/x/prefixItems"),
        ("prefixItems on map values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "array", "prefixItems": [{"type": "string"}]})), "/$defs/PromptArguments/additionalProperties/prefixItems"),
        ("prefixItems empty", verdict_prop("x", json!({"description": "d", "type": "array", "prefixItems": []})), "/$defs/Verdict/properties/x/prefixItems"),
        ("prefixItems of 16 items", verdict_prop("x", json!({"description": "d", "type": "array", "prefixItems": vec![json!({"type": "string"}); 16]})), "/$defs/Verdict/properties/x/prefixItems"),
        ("a prefixItems item with a length", verdict_prop("x", json!({"description": "d", "type": "array", "prefixItems": [{"type": "string", "minLength": 1}]})), "/$defs/Verdict/properties/x/prefixItems/0/minLength"),
        ("a prefixItems item of two types", verdict_prop("x", json!({"description": "d", "type": "array", "prefixItems": [{"type": ["string", "null"]}]})), "/$defs/Verdict/properties/x/prefixItems/0/type"),
        ("a prefixItems item $ref", verdict_prop("x", json!({"description": "d", "type": "array", "prefixItems": [{"$ref": "#/$defs/Verdict"}]})), "/$defs/Verdict/properties/x/prefixItems/0/$ref"),
        ("items after prefixItems with a pattern", verdict_prop("x", json!({"description": "d", "type": "array", "prefixItems": [{}], "items": {"type": "string", "pattern": "a"}})), "/$defs/Verdict/properties/x/items/pattern"),
        ("items false with a minItems past the prefix", verdict_prop("x", json!({"description": "d", "type": "array", "prefixItems": [{}, {}], "items": false, "minItems": 3})), "/$defs/Verdict/properties/x/minItems"),
        ("propertyNames false with a minProperties", edit(|s| {
            s["$defs"]["PromptArguments"]["propertyNames"] = json!(false);
            s["$defs"]["PromptArguments"]["minProperties"] = json!(1);
        }), "/$defs/PromptArguments/propertyNames"),
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
        ("multipleOf of 0 on a number", verdict_prop("x", json!({"description": "d", "type": "number", "multipleOf": 0})), "/$defs/Verdict/properties/x/multipleOf"),
        ("multipleOf of 15 digits on a number", verdict_prop("x", json!({"description": "d", "type": "number", "multipleOf": 0.123456789012345})), "/$defs/Verdict/properties/x/multipleOf"),
        ("multipleOf on map number values", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = json!({"type": "number", "multipleOf": 0.5})), "/$defs/PromptArguments/additionalProperties/multipleOf"),
        ("number bounds with no multiple between", verdict_prop("x", json!({"description": "d", "type": "number", "minimum": 0.1, "maximum": 0.4, "multipleOf": 0.5})), "/$defs/Verdict/properties/x/multipleOf"),
        ("exclusive number bounds with no multiple between", verdict_prop("x", json!({"description": "d", "type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.5, "multipleOf": 0.5})), "/$defs/Verdict/properties/x/multipleOf"),
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
        ("no roles table", edit(|s| { s["x-coprocess"].as_object_mut().unwrap().remove("roles"); }), "/x-coprocess"),
        ("a required role missing", edit(|s| { s["x-coprocess"]["roles"].as_object_mut().unwrap().remove("request"); }), "/x-coprocess/roles"),
        ("an unknown role", edit(|s| s["x-coprocess"]["roles"]["stream"] = json!({"method": "mcp.call", "description": "d"})), "/x-coprocess/roles/stream"),
        ("an unknown key in a role", edit(|s| s["x-coprocess"]["roles"]["close"]["params"] = json!("#/$defs/EmptyParams")), "/x-coprocess/roles/close/params"),
        ("a role without its description", edit(|s| { s["x-coprocess"]["roles"]["close"].as_object_mut().unwrap().remove("description"); }), "/x-coprocess/roles/close"),
        ("a role type that does not resolve", edit(|s| s["x-coprocess"]["roles"]["error_object"]["type"] = json!("#/$defs/Nope")), "/x-coprocess/roles/error_object/type"),
        ("a role type written as a bare name", edit(|s| s["x-coprocess"]["roles"]["request"]["type"] = json!("Request")), "/x-coprocess/roles/request/type"),
        ("a role method not in the table", edit(|s| s["x-coprocess"]["roles"]["handshake"]["method"] = json!("coprocess/hello")), "/x-coprocess/roles/handshake/method"),
        ("an error object whose code is optional", edit(|s| s["$defs"]["ErrorObject"]["required"] = json!(["message"])), "/x-coprocess/roles/error_object/type"),
        ("an error object whose message is optional", edit(|s| s["$defs"]["ErrorObject"]["required"] = json!(["code"])), "/x-coprocess/roles/error_object/type"),
        ("a request envelope as the error object", edit(|s| s["x-coprocess"]["roles"]["error_object"]["type"] = json!("#/$defs/Request")), "/x-coprocess/roles/error_object/type"),
        ("response arms that are not the union's", edit(|s| s["x-coprocess"]["roles"]["response"]["success"] = json!("#/$defs/Verdict")), "/x-coprocess/roles/response/type"),
        ("a verdict whose text is not nullable", edit(|s| s["$defs"]["Verdict"]["properties"]["text"] = json!({"description": "d", "type": "string"})), "/x-coprocess/roles/call/verdict"),
        ("a passthrough whose isError is required", edit(|s| s["$defs"]["ToolCallPassthrough"]["required"] = json!(["content", "isError"])), "/x-coprocess/roles/call/passthrough"),
        ("a call whose result is not the verdict union", edit(|s| s["x-coprocess"]["roles"]["call"]["method"] = json!("mcp.listTools")), "/x-coprocess/roles/call/method"),
        ("a close method that requires params", edit(|s| s["x-coprocess"]["roles"]["close"]["method"] = json!("mcp.readResource")), "/x-coprocess/roles/close/method"),
        ("the handshake as the close method", edit(|s| {
            s["x-coprocess"]["methods"][0]["params_required"] = json!(false);
            s["x-coprocess"]["roles"]["close"]["method"] = json!("coprocess/handshake");
        }), "/x-coprocess/roles/close/method"),
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
        ("an absolute SDK path", sdk(3, "frames", json!("/go/coprocess.go")), "/x-coprocess/sdks/3/frames"),
        ("an SDK path leaving the output root", sdk(1, "client", json!("python/../../_client.py")), "/x-coprocess/sdks/1/client"),
        ("an SDK path on a drive", sdk(5, "frames", json!("C:/dotnet/Coprocess.cs")), "/x-coprocess/sdks/5/frames"),
        ("two SDK files at one path", sdk(5, "client", json!("dotnet/src/Mcptest.Sdk/Coprocess.cs")), "/x-coprocess/sdks/5/client"),
        ("SDK paths differing only in case", sdk(5, "client", json!("dotnet/src/Mcptest.Sdk/coprocess.cs")), "/x-coprocess/sdks/5/client"),
        ("an SDK file where another's directory is", edit(|s| {
            s["x-coprocess"]["sdks"][2]["frames"] = json!("go/coprocess.go/coprocess.ts");
            s["x-coprocess"]["sdks"][2]["client"] = json!("go/coprocess.go/client.ts");
        }), "/x-coprocess/sdks/3/frames"),
        ("an SDK file inside the lock", sdk(1, "frames", json!("coprocess.lock.json/mcptest/_coprocess.py")), "/x-coprocess/sdks/1/frames"),
        ("an SDK file of another language", sdk(3, "frames", json!("go/coprocess.rs")), "/x-coprocess/sdks/3/frames"),
        ("an SDK client away from its frames", sdk(3, "client", json!("go/session/client.go")), "/x-coprocess/sdks/3/client"),
        ("an SDK listed twice", sdk(5, "key", json!("go")), "/x-coprocess/sdks/5/key"),
        ("an SDK that is no target", sdk(5, "key", json!("kotlin")), "/x-coprocess/sdks/5/key"),
        ("a target without an SDK row", edit(|s| { s["x-coprocess"]["sdks"].as_array_mut().unwrap().pop(); }), "/x-coprocess/sdks"),
        ("an unknown SDK row key", sdk(0, "version", json!(2)), "/x-coprocess/sdks/0/version"),
        ("another language's name key", sdk(3, "namespace", json!("mcptest")), "/x-coprocess/sdks/3/namespace"),
        ("an SDK name with a pipe", sdk(0, "name", json!("Rust | crate")), "/x-coprocess/sdks/0/name"),
        ("a Python module with a keyword", sdk(1, "module", json!("mcptest.class")), "/x-coprocess/sdks/1/module"),
        ("a Python module its file is not", sdk(1, "module", json!("mcptest.frames")), "/x-coprocess/sdks/1/frames"),
        ("an npm package name in capitals", sdk(2, "module", json!("@MCPTest/SDK")), "/x-coprocess/sdks/2/module"),
        ("a Go package main", sdk(3, "package", json!("main")), "/x-coprocess/sdks/3/package"),
        ("a Go package with a dash", sdk(3, "package", json!("mcp-test")), "/x-coprocess/sdks/3/package"),
        ("a Go test file", edit(|s| { s["x-coprocess"]["sdks"][3]["frames"] = json!("go/coprocess_test.go"); }), "/x-coprocess/sdks/3/frames"),
        ("a Java package segment starting with a digit", sdk(4, "package", json!("dev.1mcptest")), "/x-coprocess/sdks/4/package"),
        ("a Java class outside its package's directory", sdk(4, "package", json!("org.mcptest")), "/x-coprocess/sdks/4/frames"),
        ("a .NET namespace with a keyword", sdk(5, "namespace", json!("Mcptest.namespace")), "/x-coprocess/sdks/5/namespace"),
        ("a Rust module path with a dash", sdk(0, "module", json!("mcptest-runner::coprocess")), "/x-coprocess/sdks/0/module"),
        ("a Rust module its file is not", sdk(0, "module", json!("mcptest_runner::frames")), "/x-coprocess/sdks/0/frames"),
        ("a Rust client at the crate root", sdk(0, "client", json!("rust/mcptest-runner/src/lib.rs")), "/x-coprocess/sdks/0/client"),
        ("a history without the current version", edit(|s| { s["x-coprocess"]["history"].as_array_mut().unwrap().pop(); }), "/x-coprocess/history"),
        ("a history skipping a version", edit(|s| s["x-coprocess"]["history"][1]["version"] = json!(3)), "/x-coprocess/history/1/version"),
        ("an empty compatibility rule", edit(|s| s["x-coprocess"]["compatibility"] = json!([])), "/x-coprocess/compatibility"),
        ("an example request whose params its method refuses", edit(|s| s["$defs"]["Request"]["examples"][2]["params"] = json!({"tool": 7})), "/$defs/Request/examples/2/params"),
        ("an example answer whose result its method refuses", edit(|s| s["$defs"]["SuccessResponse"]["examples"][0]["result"] = json!({"protocol_version": 2})), "/$defs/SuccessResponse/examples/0/result"),
        ("arrays nested max_depth deep", verdict_prop("x", nested_arrays(64)), &verdict_deep),
        ("arrays nested 100 deep", verdict_prop("x", nested_arrays(100)), &verdict_deep),
        ("map values nesting arrays max_depth deep", edit(|s| s["$defs"]["PromptArguments"]["additionalProperties"] = nested_arrays(64)), &map_deep),
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
