//! The proof round: one proof contract, generated once under `target/proof`,
//! built and strictly checked once per language, and shared by every proof of
//! this binary (the conformance corpus, the renamed corpus, the constraints
//! corpus, the JSON Schema Test Suite, the long-string patterns, the names
//! round trip and both fuzz slices), each answering through the same builds.
//!
//! # The proof contract
//!
//! Composed here, in this order:
//! - the constraints proof's test contract ([`crate::constraints::test_schema`]):
//!   v2.json, the constrained `$defs` of the golden `constraints.json`, the
//!   JSON Schema Test Suite's groups and the pattern probes;
//! - a renamed copy of v2.json ([`support::rename::renamed`]): every type
//!   `CpX` beside `X`, every method `cp...` appended to the method table;
//! - on top of both, the names proof's types, special members and methods
//!   ([`crate::names::proof`]: its refusals are met on this whole contract).
//!
//! One thing cannot be unioned: the `x-coprocess` tables are single. The
//! roles stay v2's (`Request`, `coprocess/handshake`, ...): the testees'
//! helper ops, the typed envelopes they call and the library's own roles are
//! v2's, so the Cp copy is ordinary types and methods here. The renamed roles
//! keep their proofs where they are single: every SDK's surface under the
//! renamed roles (`names::a_renamed_contract_generates_every_declaration_under_the_new_names`)
//! and the client scenarios on the renamed contract (`tests/client_conformance.rs`).
//! The other tables (pin, error codes, lanes, messages, client, sdks) are v2's.
//!
//! # The round
//!
//! Each chosen testee (`PROOF_TARGETS=python,go`: those only, for work on one
//! target; the default and CI build all six) is built by its `build.sh` on the
//! proof contract's output, in parallel, with the strict checks run in the same
//! invocations over that output, every golden, `generated/` (v2 as itself)
//! and the renamed contract's SDKs (the folder `runner/renamed.rs` lays out).
//! The Rust testee's build makes the library's testee (`rust-lib`) too, on
//! the proof contract but the names (`target/proof/library`: the frames as
//! the library's build.rs renders them; typify's and schemars' derives take
//! names the six SDKs leave free), in the one target directory of every Rust
//! testee (`target/conformance-rust`). A build script skips its checks when
//! their inputs' content stamp is unchanged (`tests/toolchain.sh`), so a warm
//! run rebuilds a target only when its output changed.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use crate::support::{self, testee};
use crate::targets::{self, Outcome};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The proof contract but the names proof's additions: the constraints
/// proof's test contract and the renamed copy of v2.json.
pub fn base() -> Value {
    let mut schema = crate::constraints::test_schema();
    let renamed = support::rename::renamed(&support::schema());
    let defs = schema["$defs"].as_object_mut().expect("$defs");
    for (name, def) in renamed["$defs"].as_object().expect("renamed $defs") {
        assert!(defs.insert(name.clone(), def.clone()).is_none(), "the renamed `{name}` is already a type of the proof contract");
    }
    let methods = schema["x-coprocess"]["methods"].as_array_mut().expect("the method table");
    methods.extend(renamed["x-coprocess"]["methods"].as_array().expect("the renamed method table").iter().cloned());
    schema
}

/// The proof contract's output, and each chosen testee built on it (the
/// library's, `rust-lib`, with the Rust testee, in its build).
pub struct Round {
    pub out_root: PathBuf,
    pub build: PathBuf,
    pub testees: Vec<(&'static str, testee::Build)>,
}

/// One testee's answers and how long its run took.
pub struct Timed {
    pub target: &'static str,
    pub answers: Result<Vec<Value>, String>,
    pub seconds: f64,
}

/// The run script and its arguments for a testee: the library's is the Rust
/// testee's script with `--library`.
fn script(testee: &str) -> (&str, &'static [&'static str]) {
    if testee == targets::LIBRARY {
        ("rust", &["--library"])
    } else {
        (testee, &[])
    }
}

impl Round {
    /// The testees that built (no missing toolchain, no failed check).
    pub fn ready(&self) -> Vec<&'static str> {
        self.testees.iter().filter(|(_, b)| matches!(b, testee::Build::Ready)).map(|(t, _)| *t).collect()
    }

    /// The build failures, each naming its target.
    pub fn failed(&self) -> Vec<String> {
        self.testees.iter().filter_map(|(_, b)| if let testee::Build::Failed(e) = b { Some(e.clone()) } else { None }).collect()
    }

    /// Every testee's outcome on `input` (case lines), run in parallel: its
    /// answers (one per line), its missing toolchain or its failure.
    pub fn outcomes(&self, input: &[String]) -> Vec<(String, Outcome)> {
        let text: String = input.iter().map(|l| format!("{l}\n")).collect();
        self.run_each(&text)
            .into_iter()
            .map(|Timed { target, answers, .. }| {
                let outcome = match answers {
                    Ok(answers) if answers.len() == input.len() => Outcome::Answers(answers),
                    Ok(answers) => Outcome::Failed(format!("{target}: {} answer lines for {} cases", answers.len(), input.len())),
                    Err(e) if e.starts_with(MISSING) => Outcome::Missing,
                    Err(e) => Outcome::Failed(e),
                };
                (target.to_string(), outcome)
            })
            .collect()
    }

    /// Every testee's answers to `input` (NDJSON case lines), run in
    /// parallel; a testee that failed to build answers with its build error;
    /// one without its toolchain is left out (reported when built).
    pub fn run(&self, input: &str) -> Vec<(&'static str, Result<Vec<Value>, String>)> {
        self.run_timed(input).into_iter().map(|t| (t.target, t.answers)).collect()
    }

    /// [`Round::run`], timing each testee's run.
    pub fn run_timed(&self, input: &str) -> Vec<Timed> {
        self.run_each(input).into_iter().filter(|t| !t.answers.as_ref().is_err_and(|e| e.starts_with(MISSING))).collect()
    }

    /// Every testee's answers to `input`, timed, a missing toolchain's too.
    fn run_each(&self, input: &str) -> Vec<Timed> {
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .testees
                .iter()
                .map(|(t, built)| {
                    let (target, args) = script(t);
                    let run = scope.spawn(move || {
                        let start = std::time::Instant::now();
                        let answers = match built {
                            testee::Build::Ready => testee::run(target, args, &self.out_root, &self.build.join(target), input),
                            testee::Build::Missing(log) => Err(format!("{MISSING}{log}")),
                            testee::Build::Failed(e) => Err(e.clone()),
                        };
                        (answers, start.elapsed().as_secs_f64())
                    });
                    (*t, run)
                })
                .collect();
            handles
                .into_iter()
                .map(|(target, h)| {
                    let (answers, seconds) = h.join().unwrap_or_else(|_| (Err(format!("{target}: thread panicked")), 0.0));
                    Timed { target, answers, seconds }
                })
                .collect()
        })
    }
}

/// How a missing toolchain's answers begin.
const MISSING: &str = "TOOLCHAIN MISSING: ";

/// What the library's `build.rs` does with a contract, for the library's
/// contract: the names `src/` needs are checked (`build/needs.rs`), the frames
/// rendered with the same call, and the contract's text kept beside them
/// (`coprocess.rs` and `schema.json`, what `src/lib.rs` includes).
fn library_frames(contract: &codegen::Contract, schema: String) -> codegen::targets::Files {
    if let Some(missing) = crate::needs::missing(contract, false) {
        panic!("the library's proof contract cannot build the library: {missing}");
    }
    let frames = codegen::targets::rust::render(contract, codegen::targets::rust::Flavor::WithJsonSchema).unwrap_or_else(|e| panic!("{e}"));
    [("coprocess.rs".to_string(), frames), ("schema.json".to_string(), schema)].into_iter().collect()
}

/// Generates the proof contract's output and builds the testees on it, once
/// for every test of this binary.
pub fn round() -> &'static Round {
    static ROUND: OnceLock<Round> = OnceLock::new();
    ROUND.get_or_init(|| {
        let schema = crate::names::proof().schema.clone();
        let work = root().join("target/proof");
        // Each rewritten only when it changes, so that a warm run does not
        // render the frames again.
        let path = work.join("proof.json");
        testee::write_output(&[("proof.json".to_string(), text(&schema))].into_iter().collect(), &work);
        let (contract, _) = codegen::load::load(&path, "proof.json").unwrap_or_else(|e| panic!("the proof contract is refused: {e}"));
        let files = codegen::targets::generate(&contract).unwrap_or_else(|e| panic!("the proof contract is refused: {e}"));
        let out_root = work.join("out");
        testee::write_output(&files, &out_root);
        // The library's frames, as its build.rs renders them, for the Rust
        // testee's build of the library's testee: on the proof contract but
        // the names (its frames are typify's and schemars', whose derives
        // take names the SDKs leave free: `Default`, `InstanceType`; the
        // names proof is about the six SDKs).
        let library = work.join("library");
        let library_text = text(&base());
        let library_path = work.join("library.json");
        testee::write_output(&[("library.json".to_string(), library_text.clone())].into_iter().collect(), &work);
        let (library_contract, _) =
            codegen::load::load(&library_path, "library.json").unwrap_or_else(|e| panic!("the library's proof contract is refused: {e}"));
        testee::write_output(&library_frames(&library_contract, library_text), &library);
        let build = work.join("build");
        let goldens = crate::renamed::goldens().unwrap_or_else(|e| panic!("{e}"));
        let chosen = testee::chosen("PROOF_TARGETS");
        assert!(!chosen.is_empty(), "PROOF_TARGETS names no target of {:?}", codegen::targets::TARGETS);
        let built: Vec<(&str, testee::Build)> = std::thread::scope(|scope| {
            let handles: Vec<_> = chosen
                .iter()
                .map(|&t| {
                    let (out_root, build, library) = (&out_root, &build, &library);
                    // The Rust testee's build makes the library's testee too.
                    let vars: Vec<(&str, &Path)> = if t == "rust" { vec![("CONFORMANCE_LIBRARY", library.as_path())] } else { Vec::new() };
                    (t, scope.spawn(move || {
                        let started = std::time::Instant::now();
                        let built = testee::build(t, out_root, &build.join(t), goldens, &vars);
                        (built, started.elapsed().as_secs_f64())
                    }))
                })
                .collect();
            handles
                .into_iter()
                .map(|(t, h)| {
                    let (built, seconds) = h.join().unwrap_or_else(|_| (testee::Build::Failed(format!("{t}: thread panicked")), 0.0));
                    eprintln!("proof round: {t} built and checked in {seconds:.1} s");
                    (t, built)
                })
                .collect()
        });
        for (target, build) in &built {
            if let testee::Build::Missing(log) = build {
                eprintln!("\n!!!!! TOOLCHAIN MISSING for {target}: its proofs were NOT checked (CI=true makes this fail) !!!!!\n{log}");
            }
        }
        let library = built.iter().find(|(t, _)| *t == "rust").map(|(_, build)| (targets::LIBRARY, build.clone()));
        let testees = built.into_iter().chain(library).collect();
        Round { out_root, build, testees }
    })
}

/// A contract's text as the round writes it.
fn text(schema: &Value) -> String {
    serde_json::to_string_pretty(schema).unwrap_or_else(|e| panic!("{e}"))
}
