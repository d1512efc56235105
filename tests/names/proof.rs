//! The names proof (`names::`): any legal schema name generates code that
//! compiles (issue 12).
//!
//! The proof is generated, not listed: its additions to the proof contract
//! (`conformance/round.rs`, which builds on v2.json) are
//! - a `$defs` type named after every top-level name each target's runtime
//!   declares (read from the runtime templates with
//!   `codegen::targets::runtime_sources`, so a runtime that gains a name is
//!   covered without touching this file), after every name each target keeps
//!   for itself (`codegen::targets::declare`), after the standard names a
//!   language's own code uses and after every keyword set the targets keep;
//!   each type has a member named like itself;
//! - object types whose members are the names that are special in some
//!   language (`constructor`, `__proto__`, `hashCode`, `GetType`, `self`,
//!   dunder names, the keyword sets, ...), and a string enum of such values;
//! - a method `mcp.<word>` for each of those words and each member a session
//!   client may hold for itself (`close`, `start`, `dispose`, ...), so that
//!   every SDK's client gains a method of each name.
//!
//! A name an SDK keeps for itself must be refused cleanly (exit 2 from the
//! CLI, both names, the target, the pointer, a fix, nothing written); every
//! other one must generate code that passes each target's strict checks
//! (`tests/conformance/<target>/build.sh` on the proof contract's output, in
//! the proof round) and round-trips a value of each new type through each
//! conformance testee, all six answering alike. The ordinary words a protocol's types are called
//! (`Path`, `Result`, `Error`, `String`, `Codec`, ...) must never be kept.
//!
//! `NAMES_SCHEMA_OUT=<file>` writes the proof contract there.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use codegen::targets::TARGETS;
use serde_json::Value;

use crate::names_schema as schema;
use crate::{declared, round, support};

/// Words a protocol's types are called: no SDK may keep one for itself.
const ORDINARY_WORDS: &[&str] = &[
    "Path", "Method", "Reader", "Shape", "Problem", "Json", "Lanes", "Result", "Error", "Record",
    "Object", "String", "Task", "Optional", "Any", "Codec", "Members", "JsonText", "Boolean",
    "Integer", "List", "Map", "Exception", "Option", "Vec", "Box", "Value", "Number", "Array",
    "Promise", "Type", "Int", "Bool", "Default", "Error", "Context", "Writer", "Bytes",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn v2() -> Value {
    support::schema()
}

/// The names every SDK keeps for itself, by `$defs` spelling, with the targets that keep it.
fn sdk_names(contract: &codegen::Contract) -> BTreeMap<String, Vec<String>> {
    let mut kept: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for target in TARGETS {
        let scopes = codegen::targets::declare(contract, target).unwrap_or_else(|e| panic!("{target}: {e}"));
        for scope in &scopes {
            // A name in another case style (`parse_json`, `MAX_DEPTH`) can only be
            // met through a derived name, which the target claims as the schema's.
            for (name, _) in scope.sdk_names() {
                if schema::is_def_name(name) {
                    kept.entry(name.to_string()).or_default().push(target.to_string());
                }
            }
        }
    }
    kept
}

fn load(schema: &Value, dir: &Path) -> Result<codegen::Contract, codegen::SchemaError> {
    let path = dir.join("names.json");
    std::fs::write(&path, serde_json::to_string_pretty(schema).unwrap()).unwrap();
    codegen::load::load(&path, "names.json").map(|(c, _)| c)
}

/// Every name the test schema adds, with where it came from.
fn candidates() -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for target in TARGETS {
        for source in codegen::targets::runtime_sources(target) {
            for name in declared::top_level(target, source) {
                names.entry(name).or_insert_with(|| format!("declared by the {target} runtime"));
            }
        }
    }
    for word in ORDINARY_WORDS.iter().chain(declared::STANDARD_NAMES) {
        names.entry(word.to_string()).or_insert_with(|| "a standard or ordinary name".to_string());
    }
    for word in declared::keyword_sets() {
        names.entry(word).or_insert_with(|| "a keyword of some target".to_string());
    }
    names
}

/// The `$defs` names a refusal mentions (`` `$defs/Name` ``).
fn mentioned_defs(problem: &str) -> Vec<String> {
    problem.split("`$defs/").skip(1).filter_map(|rest| rest.split('`').next()).map(str::to_string).collect()
}

/// Leaves out of the test schema every added name `check` refuses at its
/// pointer with a rename, one at a time, recording the refusal; any other
/// refusal fails the proof.
///
/// The schema is loaded once: an added name is a type no other type or method
/// refers to, so the loaded contract without it (its `types` and its raw
/// `$defs`, which the Rust target reads) is what loading the schema without it
/// gives. The round trip loads the final schema afresh.
fn leave_out_refused(schema: &mut Value, added: &mut Vec<String>, refused: &mut Vec<(String, String)>, dir: &Path, check: impl Fn(&codegen::Contract) -> Result<(), codegen::SchemaError>) {
    let mut contract = load(schema, dir);
    loop {
        let Err(e) = contract.as_ref().map_err(Clone::clone).and_then(&check) else { return };
        match e.pointer.strip_prefix("/$defs/").map(str::to_string) {
            Some(name) if e.fix.starts_with("rename") && added.contains(&name) && refused.len() < 100 => {
                // Of two added names that meet, the one left out is not an
                // ordinary word (`DecodeException` goes, `Exception` stays).
                let name = if ORDINARY_WORDS.contains(&name.as_str()) {
                    mentioned_defs(&e.problem)
                        .into_iter()
                        .find(|other| *other != name && added.contains(other) && !ORDINARY_WORDS.contains(&other.as_str()))
                        .unwrap_or(name)
                } else {
                    name
                };
                schema["$defs"].as_object_mut().unwrap().remove(&name);
                match &mut contract {
                    Ok(c) => {
                        c.types.remove(&name);
                        c.raw["$defs"].as_object_mut().unwrap().remove(&name);
                    }
                    Err(_) => contract = load(schema, dir),
                }
                added.retain(|n| *n != name);
                refused.push((name, e.problem));
            }
            _ => panic!("the names schema is refused, and not for one of its own names: {e}\n(after {} refusals: {refused:#?})", refused.len()),
        }
    }
}

/// The proof contract, with what the names proof added to it.
pub struct Proof {
    pub schema: Value,
    added: Vec<String>,
    kept: BTreeMap<String, Vec<String>>,
    /// Added names some target refused, with the refusal.
    refused: Vec<(String, String)>,
}

/// The proof contract: [`round::base`] plus the names, each name some
/// target refuses left out with its refusal recorded.
pub fn proof() -> &'static Proof {
    static PROOF: OnceLock<Proof> = OnceLock::new();
    PROOF.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let contract = load(&v2(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let kept = sdk_names(&contract);
        let base = round::base();
        let (mut schema, mut added) = schema::with_names(&base, &candidates(), &kept);
        // Method names: the words a method may meet in a client (keywords,
        // standard names, ordinary words); the runtimes' own type names are
        // type names, which no client method can meet.
        let keywords = declared::keyword_sets();
        let words = ORDINARY_WORDS.iter().chain(declared::STANDARD_NAMES).copied().chain(keywords.iter().map(String::as_str));
        let methods = schema::with_methods(&mut schema, words);
        assert!(methods > 100, "only {methods} methods were added");
        // An added name that meets a name some SDK keeps in that target's own
        // spelling (`ParseJson` is Go's `ParseJSON`, the SDK's function), or
        // whose derived names meet another added name's (`Decode` and
        // `FromValue` both give Python's `decode_from_value`), is refused at
        // its pointer with a fix: it is left out, and the refusal recorded.
        // Each target's claims are met first, one target at a time (rendering
        // one target costs a sixth of rendering all six), then all six
        // generate together.
        let mut refused: Vec<(String, String)> = Vec::new();
        for target in TARGETS {
            leave_out_refused(&mut schema, &mut added, &mut refused, dir.path(), |c| codegen::targets::declare(c, target).map(drop));
        }
        leave_out_refused(&mut schema, &mut added, &mut refused, dir.path(), |c| codegen::targets::generate(c).map(drop));
        eprintln!(
            "{} names and {methods} methods added; {} refused:\n{}",
            added.len(),
            refused.len(),
            refused.iter().map(|(_, p)| p.as_str()).collect::<Vec<_>>().join("\n")
        );
        if let Ok(path) = std::env::var("NAMES_SCHEMA_OUT") {
            std::fs::write(&path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
            eprintln!("the proof contract is in {path}");
        }
        Proof { schema, added, kept, refused }
    })
}

#[test]
fn no_sdk_keeps_an_ordinary_word() {
    let p = proof();
    let kept: Vec<_> = ORDINARY_WORDS.iter().filter(|w| p.kept.contains_key(**w)).map(|w| format!("{w} ({:?})", p.kept[*w])).collect();
    assert!(kept.is_empty(), "ordinary words kept by an SDK: {kept:?}");
    let refused: Vec<_> = p.refused.iter().filter(|(n, _)| ORDINARY_WORDS.contains(&n.as_str())).collect();
    assert!(refused.is_empty(), "ordinary words refused by some target: {refused:#?}");
    assert!(p.added.len() > 100, "only {} names were added: is a runtime scan broken?", p.added.len());
}

#[test]
fn every_name_an_sdk_keeps_is_refused_with_both_names_the_target_the_pointer_and_a_fix() {
    let p = proof();
    assert!(!p.kept.is_empty(), "no SDK declares a name: declare() is not wired");
    let dir = tempfile::tempdir().unwrap();
    for (name, targets) in &p.kept {
        let mut schema = v2();
        schema["$defs"][name] = schema::object_type(name);
        let contract = load(&schema, dir.path()).unwrap_or_else(|e| panic!("`{name}` is refused by the loader: {e}"));
        let e = codegen::targets::generate(&contract).err().unwrap_or_else(|| panic!("`{name}` (kept by {targets:?}) was not refused"));
        assert_eq!(e.pointer, format!("/$defs/{name}"), "`{name}`: {e}");
        assert!(targets.iter().any(|t| e.problem.contains(&format!("the {t} SDK"))), "`{name}`: no target named: {e}");
        assert!(e.problem.contains(&format!("`$defs/{name}`")), "`{name}`: the schema's name is not named: {e}");
        assert!(e.fix.starts_with("rename"), "`{name}`: no fix: {e}");
    }
}

#[test]
fn the_cli_refuses_a_kept_name_with_exit_2_and_writes_nothing() {
    let p = proof();
    let Some(name) = p.kept.keys().next() else { panic!("no SDK declares a name: declare() is not wired") };
    let mut schema = v2();
    schema["$defs"][name] = schema::object_type(name);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.json");
    std::fs::write(&path, serde_json::to_string_pretty(&schema).unwrap()).unwrap();
    let out = dir.path().join("out");
    let code = codegen::cli::run(&codegen::cli::Args { schema: path, out: out.clone(), check: false });
    assert_eq!(code, 2, "`{name}` was not refused");
    assert!(!out.exists(), "`{name}`: something was written");
}

#[test]
fn every_other_name_compiles_under_strict_checks_and_round_trips_in_every_target() {
    let p = proof();
    let built = round::round();
    let cases = schema::cases(&p.schema, &p.added);
    let input: String = cases.iter().map(|(line, _)| format!("{line}\n")).collect();
    // The six SDKs' testees: the library is built without the names (round.rs).
    let answers: Vec<_> = built.run(&input).into_iter().filter(|(t, _)| *t != crate::targets::LIBRARY).collect();
    let mut failures = Vec::new();
    let mut checked = BTreeSet::new();
    for (target, result) in &answers {
        match result {
            Err(e) => failures.push(e.clone()),
            Ok(lines) if lines.len() != cases.len() => failures.push(format!("{target}: {} answers for {} cases", lines.len(), cases.len())),
            Ok(lines) => {
                for ((line, expected), answer) in cases.iter().zip(lines) {
                    if let Some(problem) = schema::check_answer(line, expected, answer) {
                        failures.push(format!("{target}: {problem}"));
                    } else {
                        checked.insert(*target);
                    }
                }
            }
        }
    }
    // All six must also word each rejection identically.
    for (i, (line, _)) in cases.iter().enumerate() {
        let errors: BTreeSet<String> = answers
            .iter()
            .filter_map(|(_, r)| r.as_ref().ok())
            .filter_map(|lines| lines.get(i))
            .filter_map(|a| a.get("error").map(Value::to_string))
            .collect();
        if errors.len() > 1 {
            failures.push(format!("{line}: the targets word the rejection differently: {errors:?}"));
        }
    }
    assert!(failures.is_empty(), "{} problems, first 40:\n{}", failures.len(), failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    let testees = built.ready().into_iter().filter(|t| *t != crate::targets::LIBRARY).count();
    assert_eq!(checked.len(), testees, "not every target answered: {checked:?}");
}

/// The roles proof (issue 32): a contract whose every type and method is
/// renamed ([`support::rename::renamed`]) generates, in every SDK file, the same
/// declarations as v2.json under the new names: no target reaches a contract
/// type or method by its name, so none loses a feature to a rename.
#[test]
fn a_renamed_contract_generates_every_declaration_under_the_new_names() {
    let dir = tempfile::tempdir().unwrap();
    let base = v2();
    let words = support::rename::renamed_words(&base);
    let renamed = support::rename::renamed(&base);
    assert!(renamed["$defs"].as_object().is_some_and(|d| d.keys().all(|k| k.starts_with(support::rename::TYPE_PREFIX))));
    let old = load(&base, dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let new = load(&renamed, dir.path()).unwrap_or_else(|e| panic!("the renamed contract is refused: {e}"));
    let old_files = codegen::targets::generate(&old).unwrap_or_else(|e| panic!("{e}"));
    let new_files = codegen::targets::generate(&new).unwrap_or_else(|e| panic!("the renamed contract is refused: {e}"));
    let mut problems = Vec::new();
    let mut compared = 0;
    for target in TARGETS {
        let sdk = old.sdk(target).unwrap_or_else(|| panic!("no SDK row for {target}"));
        for path in [&sdk.frames, &sdk.client] {
            let declared = |files: &codegen::targets::Files| -> BTreeMap<String, Vec<String>> {
                let text = files.get(path.as_str()).unwrap_or_else(|| panic!("{target}: no {path}"));
                let mut by_form: BTreeMap<String, Vec<String>> = BTreeMap::new();
                for name in declared::top_level(target, text) {
                    by_form.entry(support::rename::normalized(&name, &words)).or_default().push(name);
                }
                by_form
            };
            let (before, after) = (declared(&old_files), declared(&new_files));
            compared += before.values().map(Vec::len).sum::<usize>();
            for (form, names) in &before {
                if after.get(form).map(Vec::len) != Some(names.len()) {
                    problems.push(format!("{target} {path}: {names:?} has no renamed counterpart"));
                }
            }
            for (form, names) in &after {
                if !before.contains_key(form) {
                    problems.push(format!("{target} {path}: {names:?} is new under the renamed contract"));
                }
            }
        }
    }
    assert!(compared > 500, "only {compared} declarations compared: is a reader broken?");
    assert!(problems.is_empty(), "{} of {compared} declarations differ:\n{}", problems.len(), problems.join("\n"));
}

/// docs/targets.md lists the names each SDK keeps (between its `sdk-names`
/// markers) exactly as the targets claim them; `EXPECTORATE=overwrite`
/// rewrites the list.
#[test]
fn the_docs_list_the_names_each_sdk_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let contract = load(&v2(), dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let mut by_target: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (name, targets) in sdk_names(&contract) {
        for target in targets {
            let target = TARGETS.iter().find(|t| **t == target).copied().unwrap_or("?");
            by_target.entry(target).or_default().push(format!("`{name}`"));
        }
    }
    let mut table = String::from("| target | names a `$defs` name cannot take |\n|---|---|\n");
    for target in TARGETS {
        let names = by_target.get(target).map(|n| n.join(", ")).unwrap_or_else(|| "(none)".to_string());
        table.push_str(&format!("| {target} | {names} |\n"));
    }
    let path = root().join("docs/targets.md");
    let docs = std::fs::read_to_string(&path).unwrap();
    let (start, end) = ("<!-- sdk-names:start -->\n", "<!-- sdk-names:end -->");
    let (Some(a), Some(b)) = (docs.find(start), docs.find(end)) else { panic!("docs/targets.md has no sdk-names markers") };
    let listed = &docs[a + start.len()..b];
    if listed != table {
        if std::env::var("EXPECTORATE").as_deref() == Ok("overwrite") {
            std::fs::write(&path, format!("{}{table}{}", &docs[..a + start.len()], &docs[b..])).unwrap();
        } else {
            panic!("docs/targets.md lists other SDK names than the targets claim; EXPECTORATE=overwrite to accept:\n{table}");
        }
    }
}
