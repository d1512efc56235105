//! The JSON Schema Test Suite (draft 2020-12) as constraints-proof cases.
//!
//! For every file of a keyword the contract supports, every test group
//! becomes a type of the test contract: the group's schema, with the type its
//! keyword is about added (`string` for lengths and patterns, `number` for
//! bounds and divisors, `array` for item counts, a map for member counts),
//! as the member `value` of a closed object (a map is the frame itself, and
//! so is a group's object with properties of its own, closed as every
//! contract object is).
//! Codegen decides, as for any contract, whether the group is inside the
//! supported subset; a refused group is reported with the refusal. Each data
//! test whose instance has that type becomes a case carrying the suite's
//! `valid`; one of another kind is reported as typed out (the suite's
//! schema is untyped and says such an instance is valid; a contract member
//! has a type and refuses it with `expected string, got integer`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Map, Value};

/// The keyword files read, each with the kind of value the keyword is about.
const FILES: &[(&str, Kind)] = &[
    ("minLength", Kind::String),
    ("maxLength", Kind::String),
    ("pattern", Kind::String),
    ("minimum", Kind::Number),
    ("maximum", Kind::Number),
    ("exclusiveMinimum", Kind::Number),
    ("exclusiveMaximum", Kind::Number),
    ("multipleOf", Kind::Number),
    ("minItems", Kind::Array),
    ("maxItems", Kind::Array),
    ("uniqueItems", Kind::Array),
    ("minProperties", Kind::Map),
    ("maxProperties", Kind::Map),
    ("propertyNames", Kind::Map),
    ("const", Kind::Const),
    ("enum", Kind::Enum),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    String,
    Integer,
    /// Any number (an integer-written one within ±(2^53-1), as the JSON-text rules say).
    Number,
    Array,
    Map,
    /// The kind of the group's `const` value (a string, integer or boolean),
    /// or any JSON value (for any other `const`, read as any JSON value).
    Const,
    /// Any JSON value (an inline `enum` is read as any JSON value), or the
    /// group's `type` when it writes one.
    Enum,
}

/// One data test of the suite, as a frame of its group's type.
pub struct SuiteCase {
    pub type_name: String,
    pub value: Value,
    pub valid: bool,
    /// The contract's JSON-text rules refuse the frame where the suite says
    /// valid (an integer literal beyond ±(2^53-1)): `valid` is the
    /// contract's answer, and the validator, which has no such rule, must
    /// still say valid.
    pub decided_by_text_rules: bool,
}

/// The suite's groups inside the subset and their cases, and the coverage
/// report (Markdown).
pub struct Suite {
    pub defs: Map<String, Value>,
    pub cases: Vec<SuiteCase>,
    pub report: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The suite's folder, installed by `suite.sh` (`Err`: why it could not be).
fn folder() -> Result<PathBuf, String> {
    let output = Command::new("bash").arg("tests/constraints/suite.sh").current_dir(root()).output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()))
}

/// Reads the suite into the test contract's terms. `base` is the contract
/// the groups' types are added to, to ask codegen about each alone.
pub fn load(base: &Value) -> Suite {
    let dir = match folder() {
        Ok(dir) => dir,
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => panic!("the JSON Schema Test Suite could not be installed: {e}"),
        Err(e) => {
            eprintln!("\n==== NOT CHECKED: the JSON Schema Test Suite could not be installed ({e}); its cases are left out of this run ====\n");
            return Suite { defs: Map::new(), cases: Vec::new(), report: String::new() };
        }
    };
    let mut defs = Map::new();
    let mut cases = Vec::new();
    let mut rows = Vec::new();
    let mut outside = Vec::new();
    let (mut doubled, mut decided) = (Vec::new(), Vec::new());
    for &(file, kind) in FILES {
        let groups = read(&dir.join("draft2020-12").join(format!("{file}.json")));
        let mut row = Row { file, ..Row::default() };
        for (index, group) in groups.iter().enumerate() {
            let tests = group["tests"].as_array().cloned().unwrap_or_default();
            row.groups += 1;
            row.cases += tests.len();
            let type_name = format!("Suite{}{index}", upper_first(file));
            let schema = doubled_const(&group["schema"]);
            if schema != group["schema"] {
                doubled.push(format!("| `{file}` | {} | `{}` → `{}` |", group["description"].as_str().unwrap_or_default(), group["schema"]["const"], schema["const"]));
            }
            let def = definition(kind, &schema, &group["description"]);
            if let Err(refusal) = accepted(base, &type_name, &def) {
                outside.push(format!("| `{file}` | {} | {} | {refusal} |", group["description"].as_str().unwrap_or_default(), tests.len()));
                continue;
            }
            row.groups_in += 1;
            for test in &tests {
                let data = &test["data"];
                if !of_kind(kind, data, &group["schema"]) {
                    row.typed_out += 1;
                    continue;
                }
                row.cases_in += 1;
                let value = if kind == Kind::Map || own_object(&group["schema"]) { data.clone() } else { json!({ "value": data }) };
                let valid = test["valid"] == json!(true);
                let decided_by_text_rules = valid && beyond_safe_integer(data);
                if decided_by_text_rules {
                    decided.push(format!("| `{file}` | {} | {} | `{data}` |", group["description"].as_str().unwrap_or_default(), test["description"].as_str().unwrap_or_default()));
                }
                cases.push(SuiteCase { type_name: type_name.clone(), value, valid: valid && !decided_by_text_rules, decided_by_text_rules });
            }
            defs.insert(type_name, def);
        }
        rows.push(row);
    }
    Suite { defs, cases, report: report(&rows, &outside, &doubled, &decided) }
}

/// An integer literal beyond ±(2^53-1): no frame carries one (the contract's
/// JSON-text rules refuse it).
fn beyond_safe_integer(data: &Value) -> bool {
    const SAFE: u64 = (1 << 53) - 1;
    data.as_u64().is_some_and(|n| n > SAFE) || data.as_i64().is_some_and(|n| n.unsigned_abs() > SAFE)
}

/// The group's schema with a `const` integer literal beyond ±(2^53-1)
/// written as the equal double (`9007199254740992` as `9007199254740992.0`):
/// the same schema by JSON Schema's reading of numbers, which the contract
/// accepts (codegen refuses the literal, since no frame could carry it).
fn doubled_const(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(constant) = schema.get_mut("const") {
        if beyond_safe_integer(constant) {
            *constant = constant.as_f64().map_or(Value::Null, |x| json!(x));
        }
    }
    schema
}

#[derive(Default)]
struct Row {
    file: &'static str,
    groups: usize,
    groups_in: usize,
    cases: usize,
    cases_in: usize,
    typed_out: usize,
}

fn read(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str::<Value>(&text).ok().and_then(|v| v.as_array().cloned()).unwrap_or_else(|| panic!("{}: not a list of groups", path.display()))
}

fn upper_first(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

/// The group's schema as a type of the contract: typed, described, and
/// (but for a map) the member `value` of a closed object.
fn definition(kind: Kind, schema: &Value, description: &Value) -> Value {
    let mut typed: Map<String, Value> = schema.as_object().cloned().unwrap_or_default();
    typed.remove("$schema");
    let note = format!("The JSON Schema Test Suite's group {description}.");
    typed.insert("description".to_string(), json!(note));
    match kind {
        Kind::String => {
            typed.insert("type".to_string(), json!("string"));
        }
        Kind::Integer => {
            typed.entry("type").or_insert(json!("integer"));
        }
        Kind::Number => {
            typed.entry("type").or_insert(json!("number"));
        }
        Kind::Array => {
            typed.insert("type".to_string(), json!("array"));
            typed.entry("items").or_insert(json!({}));
        }
        Kind::Map => {
            typed.insert("type".to_string(), json!("object"));
            typed.insert("additionalProperties".to_string(), json!(true));
            return Value::Object(typed);
        }
        // An object of its own (`enums in properties`): the group's type is
        // that object, closed as every contract object is, each property
        // described; the frame is the data itself.
        Kind::Const | Kind::Enum if own_object(schema) => {
            typed.entry("additionalProperties").or_insert(json!(false));
            if let Some(Value::Object(properties)) = typed.get_mut("properties") {
                for (name, property) in properties.iter_mut() {
                    if let Value::Object(property) = property {
                        property.entry("description").or_insert(json!(format!("The group's property `{name}`.")));
                    }
                }
            }
            return Value::Object(typed);
        }
        // The subset reads the type off the value; an `enum` is any JSON value.
        Kind::Const | Kind::Enum => {}
    }
    json!({
        "description": note,
        "type": "object",
        "properties": { "value": Value::Object(typed) },
        "required": ["value"],
        "additionalProperties": false,
    })
}

/// Whether a group's schema is an object with properties of its own, which
/// becomes the group's type itself rather than a member of one.
fn own_object(schema: &Value) -> bool {
    schema["type"] == json!("object") && schema.get("properties").is_some_and(Value::is_object)
}

/// Whether codegen accepts the type in the base contract (`Err`: its refusal).
fn accepted(base: &Value, name: &str, def: &Value) -> Result<(), String> {
    let mut schema = base.clone();
    schema["$defs"][name] = def.clone();
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = dir.path().join("suite-group.json");
    std::fs::write(&path, schema.to_string()).map_err(|e| e.to_string())?;
    codegen::load::load(&path, "suite-group.json").map(|_| ()).map_err(|e| {
        let pointer = e.pointer.replacen(&format!("/$defs/{name}/properties/value"), "", 1).replacen(&format!("/$defs/{name}"), "", 1);
        format!("`{}`: {}", if pointer.is_empty() { "/" } else { &pointer }, e.problem.replace('|', "\\|"))
    })
}

/// Whether the instance has the kind the group's type gives its value.
fn of_kind(kind: Kind, data: &Value, schema: &Value) -> bool {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    match kind {
        Kind::String => data.is_string(),
        Kind::Integer => data.as_f64().is_some_and(|x| x.fract() == 0.0 && x.abs() <= SAFE),
        Kind::Number => data.as_f64().is_some_and(|x| data.is_f64() || x.abs() <= SAFE),
        Kind::Array => data.is_array(),
        Kind::Map => data.is_object(),
        Kind::Const => match &schema["const"] {
            Value::String(_) => data.is_string(),
            Value::Bool(_) => data.is_boolean(),
            constant @ Value::Number(_) if of_kind(Kind::Integer, constant, schema) => of_kind(Kind::Integer, data, schema),
            _ => true,
        },
        Kind::Enum => match schema.get("type").and_then(Value::as_str) {
            Some("string") => data.is_string(),
            Some("boolean") => data.is_boolean(),
            Some("null") => data.is_null(),
            Some("integer") => of_kind(Kind::Integer, data, schema),
            Some("number") => of_kind(Kind::Number, data, schema),
            Some("array") => data.is_array(),
            Some("object") => data.is_object(),
            _ => true,
        },
    }
}

fn report(rows: &[Row], outside: &[String], doubled: &[String], decided: &[String]) -> String {
    let mut out = String::from(
        "# The JSON Schema Test Suite, draft 2020-12\n\n\
         Written by `EXPECTORATE=overwrite cargo test --test conformance constraints::`, which\n\
         then runs every case counted here through the six targets' testees and\n\
         the jsonschema validator (`tests/constraints/suite.rs`). The suite is\n\
         json-schema-org/JSON-Schema-Test-Suite as PyPI's jsonschema 4.23.0 source\n\
         distribution ships it (`tests/constraints/suite.sh` installs it under\n\
         `target/`, with its MIT license; none of it is committed here).\n\n\
         Each group's schema gets the type its keyword is about; a data test\n\
         whose instance is of another kind is *typed out* (the suite's untyped\n\
         schema accepts it, a typed contract member refuses its kind).\n\n\
         | keyword file | groups | groups in the subset | cases | cases run | typed out |\n\
         |---|---|---|---|---|---|\n",
    );
    let mut totals = [0usize; 5];
    for row in rows {
        out.push_str(&format!("| `{}` | {} | {} | {} | {} | {} |\n", row.file, row.groups, row.groups_in, row.cases, row.cases_in, row.typed_out));
        for (total, n) in totals.iter_mut().zip([row.groups, row.groups_in, row.cases, row.cases_in, row.typed_out]) {
            *total += n;
        }
    }
    let [groups, groups_in, cases, cases_in, typed_out] = totals;
    out.push_str(&format!("| all | {groups} | {groups_in} | {cases} | {cases_in} | {typed_out} |\n"));
    out.push_str("\n## Groups outside the subset\n\n");
    if outside.is_empty() {
        out.push_str("None: codegen accepts every group's schema.\n");
    } else {
        out.push_str("Each is refused by codegen, as any contract would be, with this problem:\n\n| keyword file | group | cases | refusal (at the pointer in the group's schema) |\n|---|---|---|---|\n");
    }
    for line in outside {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(
        "\n## A `const` written as the equal double\n\n\
         Codegen refuses an integer literal beyond ±(2^53-1) in a `const` (no\n\
         frame could carry it). The proof writes the group's `const` as the\n\
         equal double, which JSON Schema reads as the same number:\n\n\
         | keyword file | group | `const` |\n|---|---|---|\n",
    );
    for line in doubled {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(
        "\n## Cases the JSON-text rules decide\n\n\
         The suite says valid; every target refuses the frame, since the\n\
         contract's JSON-text rules allow no integer literal beyond ±(2^53-1)\n\
         (docs/targets.md). The proof expects the refusal from every target and\n\
         checks that the validator, which has no such rule, still says valid:\n\n\
         | keyword file | group | case | instance |\n|---|---|---|---|\n",
    );
    for line in decided {
        out.push_str(line);
        out.push('\n');
    }
    out
}
