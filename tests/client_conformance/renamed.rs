//! The client scenarios on the renamed contract of the roles proof (issue 32;
//! the rule is `tests/support/rename.rs`): its six SDKs are generated under
//! `target/client_conformance/renamed/generated`, each client testee's source
//! is rewritten by the rule beside them (the same layout as the repository's,
//! so a testee's relative paths find the renamed SDK), and so is the scenario
//! file. Each `build.sh` builds both testees in one round when
//! `CLIENT_RENAMED` names that tree; `run.sh renamed` runs the renamed one.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::rename;

/// Each language's testee sources, under `tests/client_conformance/<lang>/`:
/// the files its `build.sh` compiles with the SDK (not the benchmark's).
pub const TESTEE_SOURCES: &[(&str, &[&str])] = &[
    ("rust", &["src/main.rs"]),
    ("python", &["testee.py"]),
    ("typescript", &["testee.ts"]),
    ("go", &["main.go"]),
    ("jvm", &["Testee.java"]),
    ("dotnet", &["Testee.cs"]),
];

/// The rule as a whole-word rewrite: each v2 type name and method name with
/// its renamed form, longest first (so `mcp.callPrompt` is not `mcp.call`'s).
#[derive(Clone)]
pub struct Rule {
    words: Vec<(String, String)>,
}

impl Rule {
    /// The words of `v2` and what `renamed` (the rule applied to it) calls
    /// them: the methods by their place in the method table, each type `X`
    /// by `CpX`, which `renamed` must declare.
    pub fn new(v2: &Value, renamed: &Value) -> Result<Rule, String> {
        let methods = |schema: &Value| -> Vec<String> {
            schema["x-coprocess"]["methods"].as_array().into_iter().flatten().filter_map(|m| m["name"].as_str().map(str::to_string)).collect()
        };
        let (old, new) = (methods(v2), methods(renamed));
        if old.len() != new.len() || old.is_empty() {
            return Err(format!("the renamed contract has {} methods, v2.json {}", new.len(), old.len()));
        }
        let mut words: Vec<(String, String)> = old.into_iter().zip(new).collect();
        for name in v2["$defs"].as_object().into_iter().flatten().map(|(k, _)| k) {
            let renamed_name = format!("{}{name}", rename::TYPE_PREFIX);
            if renamed["$defs"].get(&renamed_name).is_none() {
                return Err(format!("the renamed contract has no `$defs/{renamed_name}` for `{name}`"));
            }
            words.push((name.clone(), renamed_name));
        }
        words.sort_by_key(|(old, _)| std::cmp::Reverse(old.len()));
        Ok(Rule { words })
    }

    /// `text` with every whole-word v2 name renamed (a word is a run of
    /// letters, digits and `_`; a method name's dots and slash are its own).
    pub fn text(&self, text: &str) -> String {
        let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let mut out = String::with_capacity(text.len() + text.len() / 8);
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            if out.chars().next_back().is_none_or(|p| !is_word(p)) {
                let found = self.words.iter().find(|(old, _)| rest.starts_with(old.as_str()) && !rest[old.len()..].starts_with(is_word));
                if let Some((old, new)) = found {
                    out.push_str(new);
                    rest = &rest[old.len()..];
                    continue;
                }
            }
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
        out
    }

    /// `value` with every string in it rewritten by [`Rule::text`] (member
    /// names are kept: they are the protocol's, which the rule leaves alone).
    pub fn value(&self, value: &Value) -> Value {
        match value {
            Value::String(s) => Value::String(self.text(s)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.value(v)).collect()),
            Value::Object(fields) => Value::Object(fields.iter().map(|(k, v)| (k.clone(), self.value(v))).collect()),
            other => other.clone(),
        }
    }
}

/// The renamed tree, ready for the build scripts.
pub struct Tree {
    /// `CLIENT_RENAMED`: the tree's root.
    pub root: PathBuf,
    /// The renamed contract (for the fake: `CLIENT_CONTRACT`).
    pub contract_file: PathBuf,
    pub contract: Value,
    /// The scenario file, rewritten by the rule (each scenario's name kept).
    pub scenarios_file: PathBuf,
    pub rule: Rule,
}

/// Writes `text` to `path` only where it differs, so that a warm run's
/// build scripts find their inputs up to date.
fn write(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Generates the renamed contract's SDKs, rewrites the testees and the
/// scenario file `scenarios` into the tree under `repo/target`.
pub fn prepare(repo: &Path, v2: &Value, scenarios: &[Value]) -> Result<Tree, String> {
    let root = repo.join("target/client_conformance/renamed");
    let contract = rename::renamed(v2);
    let rule = Rule::new(v2, &contract)?;
    let contract_file = root.join("contract.json");
    let text = serde_json::to_string_pretty(&contract).map_err(|e| e.to_string())?;
    write(&contract_file, &(text + "\n"))?;
    let (model, _) = codegen::load::load(&contract_file, "renamed contract").map_err(|e| format!("the renamed contract is refused: {e}"))?;
    let files = codegen::targets::generate(&model).map_err(|e| format!("the renamed contract is refused: {e}"))?;
    for (rel, text) in &files {
        write(&root.join("generated").join(rel), text)?;
    }
    for (lang, sources) in TESTEE_SOURCES {
        for source in *sources {
            let rel = format!("tests/client_conformance/{lang}/{source}");
            let text = std::fs::read_to_string(repo.join(&rel)).map_err(|e| format!("{rel}: {e}"))?;
            write(&root.join(&rel), &rule.text(&text))?;
        }
    }
    let renamed: Vec<Value> = scenarios
        .iter()
        .map(|scenario| {
            let mut out = rule.value(scenario);
            out["name"] = scenario["name"].clone();
            out
        })
        .collect();
    let scenarios_file = root.join("scenarios.json");
    let text = serde_json::to_string_pretty(&serde_json::json!({ "scenarios": renamed })).map_err(|e| e.to_string())?;
    write(&scenarios_file, &(text + "\n"))?;
    Ok(Tree { root, contract_file, contract, scenarios_file, rule })
}

#[test]
fn the_rule_renames_whole_words_only() {
    let v2 = crate::support::schema();
    let rule = Rule::new(&v2, &rename::renamed(&v2)).unwrap_or_else(|e| panic!("{e}"));
    let before = r#"x.(mcptest.CallResult); "mcp.call" "mcp.callPrompt" CallResults MyCallResult Call_Result coprocess/handshake"#;
    let after = r#"x.(mcptest.CpCallResult); "cpmcp.call" "cpmcp.callPrompt" CallResults MyCallResult Call_Result cpcoprocess/handshake"#;
    assert_eq!(rule.text(before), after);
}
