//! The names proof's part of the proof contract (`tests/names/proof.rs`): a
//! type of each name, members and enum values of the special names, and the
//! cases that round-trip a value of each through the testees.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Map, Value};

use codegen::names::{camel_case, pascal_case, snake_case};

/// Member names that are special in some language: object and prototype
/// members, `java.lang.Object` and `System.Object` methods, Rust's path
/// keywords, Python's dunder names, Go's methods on generated types, the
/// generated types' own methods.
pub const SPECIAL_MEMBERS: &[&str] = &[
    "constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype",
    "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "class", "hashCode", "equals",
    "getClass", "notify", "notifyAll", "wait", "finalize", "clone", "toJson", "appendJson",
    "fromJson", "fromNode", "Equals", "GetHashCode", "ToString", "GetType", "MemberwiseClone",
    "Finalize", "ToJson", "Decode", "self", "type", "crate", "Self", "super", "__init__",
    "__class__", "__dict__", "__eq__", "__hash__", "__repr__", "__slots__", "__post_init__",
    "__match_args__", "__dataclass_fields__", "__annotations__", "MarshalJSON", "UnmarshalJSON",
    "String", "Error", "Encode", "value", "path", "orNull", "key", "out", "err", "this", "new",
    "default", "Item", "Kind", "none", "None", "True", "null", "undefined", "object", "int", "str",
    "list", "dict", "bool", "float", "len", "print", "id", "json", "re", "math", "enum",
    "dataclass", "typing", "annotations", "cls", "builtins", "globalThis", "Symbol", "ok", "Ok",
    "Err", "Some", "Option", "Result", "Vec", "Box", "std", "core", "serde", "serde_json",
];

/// Type names that hide a value of some language's prelude where the type is
/// a map (Rust's tuple struct `Ok(..)` next to `Result::Ok`): added as map
/// types, so the value namespace is tested too.
pub const MAP_NAMES: &[&str] = &["Ok", "Err", "Some"];

/// At most this many members in one special-member type: the languages' own
/// limits (a JVM method takes at most 255 parameters) are not what is tested.
const MEMBERS_PER_TYPE: usize = 50;

/// Enum values that are special in some language.
pub const SPECIAL_VALUES: &[&str] = &[
    "class", "__proto__", "constructor", "toString", "null", "true", "type", "self", "default",
    "value", "String", "a b", "1st", "été", "None", "values", "valueOf", "name", "ordinal",
];

/// The `$defs` spelling of a declared name (`_MAX_SAFE_INTEGER` → `MaxSafeInteger`),
/// or None when it has no letters to start one.
pub fn def_name(name: &str) -> Option<String> {
    let def = pascal_case(name);
    def.starts_with(|c: char| c.is_ascii_uppercase()).then_some(def)
}

/// Whether `name` is a legal `$defs` name as it is (`[A-Z][A-Za-z0-9]*`).
pub fn is_def_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase()) && name.chars().all(|c| c.is_ascii_alphanumeric())
}

fn string(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

/// A closed object type named `name`, with a member named like itself.
pub fn object_type(name: &str) -> Value {
    let own = camel_case(name);
    let mut properties = Map::new();
    properties.insert(own.clone(), string("A member named like its own type."));
    let extras = [
        ("count", json!({"type": "integer", "minimum": 0, "description": "A count."})),
        ("tags", json!({"type": "array", "items": {"type": "string"}, "description": "Some tags."})),
        ("flag", json!({"type": "boolean", "description": "A flag."})),
        ("extra", json!({"description": "Any JSON value."})),
    ];
    for (key, schema) in extras {
        if snake_case(key) != snake_case(&own) {
            properties.insert(key.to_string(), schema);
        }
    }
    json!({
        "type": "object",
        "description": format!("A type named `{name}`, as a contract may call one."),
        "properties": properties,
        "required": [own],
        "additionalProperties": false,
    })
}

/// `base` plus a type of each candidate name (but the ones an SDK keeps, the
/// ones v2 has, and repeats after case conversion), the special-member
/// types and the special-value enum. Returns the schema and the added names.
pub fn with_names(base: &Value, candidates: &BTreeMap<String, String>, kept: &BTreeMap<String, Vec<String>>) -> (Value, Vec<String>) {
    let mut schema = base.clone();
    let defs = schema["$defs"].as_object_mut().expect("$defs");
    let mut taken: BTreeSet<String> = defs.keys().map(|k| snake_case(k)).collect();
    let mut added = Vec::new();
    for name in MAP_NAMES {
        if !kept.contains_key(*name) && taken.insert(snake_case(name)) {
            let description = format!("A map type named `{name}`.");
            defs.insert(name.to_string(), json!({"type": "object", "description": description, "additionalProperties": {"type": "string"}}));
            added.push(name.to_string());
        }
    }
    for name in candidates.keys() {
        let Some(def) = def_name(name) else { continue };
        if kept.contains_key(&def) || !taken.insert(snake_case(&def)) {
            continue;
        }
        defs.insert(def.clone(), object_type(&def));
        added.push(def);
    }
    // Special member names, and every candidate as a member name too, spread
    // over as many types as it takes for no two in one type to meet after
    // case conversion and none to hold more than MEMBERS_PER_TYPE.
    let mut members: Vec<String> = SPECIAL_MEMBERS.iter().map(|s| s.to_string()).collect();
    members.extend(candidates.keys().filter(|n| !snake_case(n).is_empty()).cloned());
    let mut groups: Vec<(BTreeSet<String>, Vec<String>)> = Vec::new();
    for member in members {
        let key = snake_case(&member);
        match groups.iter_mut().find(|(keys, list)| !keys.contains(&key) && list.len() < MEMBERS_PER_TYPE) {
            Some((keys, list)) => {
                keys.insert(key);
                list.push(member);
            }
            None => groups.push((BTreeSet::from([key]), vec![member])),
        }
    }
    for (i, (_, list)) in groups.iter().enumerate() {
        let name = format!("SpecialMembers{}", i + 1);
        let properties: Map<String, Value> = list.iter().map(|m| (m.clone(), string("A member with a special name."))).collect();
        defs.insert(
            name.clone(),
            json!({
                "type": "object",
                "description": "Members whose names are special in some language.",
                "properties": properties,
                "required": [list[0]],
                "additionalProperties": false,
            }),
        );
        added.push(name);
    }
    defs.insert(
        "SpecialValues".to_string(),
        json!({"type": "string", "description": "Enum values that are special in some language.", "enum": SPECIAL_VALUES}),
    );
    added.push("SpecialValues".to_string());
    (schema, added)
}

/// Method names a session client may hold for itself in some language (its
/// own members), besides the special members and the candidates.
pub const CLIENT_MEMBERS: &[&str] = &[
    "close", "start", "spawn", "overStreams", "stderrTail", "dispose", "disposeAsync", "closeAsync",
    "startAsync", "call", "request", "send", "lock", "process", "handshake", "handshakeResult",
    "callOutcome", "timeout", "options", "client", "session", "next", "then", "asyncDispose",
];

/// `schema` plus a method `mcp.<word>` for every word (special members, client
/// members, then `words`) whose client method would be new: a method name must
/// generate a client method in every SDK, whatever the word. Returns how many
/// were added.
pub fn with_methods<'a>(schema: &mut Value, words: impl Iterator<Item = &'a str>) -> usize {
    let methods = schema["x-coprocess"]["methods"].as_array_mut().expect("the method table");
    let mut taken: BTreeSet<Vec<String>> =
        methods.iter().filter_map(|m| m["name"].as_str()).map(codegen::load::method_words).collect();
    let mut added = 0;
    let all = SPECIAL_MEMBERS.iter().chain(CLIENT_MEMBERS).copied().chain(words);
    for word in all {
        let name = format!("mcp.{word}");
        let words = codegen::load::method_words(&name);
        if words.iter().any(String::is_empty) || !taken.insert(words) {
            continue;
        }
        methods.push(json!({
            "name": name,
            "params": "#/$defs/EmptyParams",
            "params_required": added % 2 == 0,
            "result": "#/$defs/EmptyParams",
            "description": format!("A method named `{word}`."),
        }));
        added += 1;
    }
    added
}

/// What a case must answer.
pub enum Expected {
    /// Accepted, re-encoded as this value.
    Value(Value),
    /// Rejected, with a message containing this.
    Rejected(&'static str),
}

/// The cases: each added type's sample (every field present) must round-trip;
/// the sample with an undeclared member must be refused; each special value
/// must round-trip and one that is not listed must be refused.
pub fn cases(schema: &Value, added: &[String]) -> Vec<(String, Expected)> {
    let mut cases = Vec::new();
    let mut case = |type_name: &str, value: &Value, expected: Expected| {
        cases.push((json!({"type": type_name, "json": value.to_string()}).to_string(), expected));
    };
    for name in added {
        if name == "SpecialValues" {
            for v in SPECIAL_VALUES {
                case(name, &json!(v), Expected::Value(json!(v)));
            }
            case(name, &json!("Class"), Expected::Rejected("expected one of"));
            continue;
        }
        if MAP_NAMES.contains(&name.as_str()) {
            case(name, &json!({"a": "one", "b": "two"}), Expected::Value(json!({"a": "one", "b": "two"})));
            case(name, &json!({"a": 1}), Expected::Rejected("expected string, got integer"));
            continue;
        }
        let sample = crate::support::sample(schema, &schema["$defs"][name]);
        case(name, &sample, Expected::Value(sample.clone()));
        let mut undeclared = sample.clone();
        undeclared["zz_undeclared"] = json!(1);
        case(name, &undeclared, Expected::Rejected("unknown field `zz_undeclared`"));
    }
    cases
}

/// None when `answer` is what `expected` says, else what is wrong.
pub fn check_answer(line: &str, expected: &Expected, answer: &Value) -> Option<String> {
    match expected {
        Expected::Value(value) if answer.get("ok") == Some(&json!(true)) && answer.get("value") == Some(value) => None,
        Expected::Rejected(text)
            if answer.get("ok") == Some(&json!(false)) && answer.get("error").and_then(Value::as_str).is_some_and(|e| e.contains(text)) =>
        {
            None
        }
        Expected::Value(value) => Some(format!("{line}: expected {value}, got {answer}")),
        Expected::Rejected(text) => Some(format!("{line}: expected a rejection with `{text}`, got {answer}")),
    }
}
