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
//! invocations over that output, every golden and `generated/` (v2 as itself):
//! `target/proof/goldens` links each golden folder and `generated`. The Rust
//! testee's build makes the library's testee (`rust-lib`) too, on the proof
//! contract but the names (`library.json`: typify's and schemars' derives
//! take names the six SDKs leave free), both in one cargo target dir (`target/proof/build/rust/target`, dev
//! profile). A build script skips its checks when their inputs' content stamp
//! is unchanged (`tests/toolchain.sh`), so a warm run rebuilds a target only
//! when its output changed.

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

/// A folder of links, laid out like `codegen/tests/golden`: every golden and
/// `generated/`, whose files the build scripts check beside the proof output.
fn goldens(work: &Path) -> PathBuf {
    let dir = work.join("goldens");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let golden = root().join("codegen/tests/golden");
    let mut folders: Vec<(String, PathBuf)> = std::fs::read_dir(&golden)
        .unwrap_or_else(|e| panic!("{}: {e}", golden.display()))
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_dir())
        .map(|entry| (entry.file_name().to_string_lossy().into_owned(), entry.path()))
        .collect();
    folders.push(("generated".to_string(), root().join("generated")));
    for (name, folder) in folders {
        std::os::unix::fs::symlink(&folder, dir.join(name)).unwrap_or_else(|e| panic!("cannot link {}: {e}", folder.display()));
    }
    dir
}

/// Generates the proof contract's output and builds the testees on it, once
/// for every test of this binary.
pub fn round() -> &'static Round {
    static ROUND: OnceLock<Round> = OnceLock::new();
    ROUND.get_or_init(|| {
        let schema = crate::names::proof().schema.clone();
        let work = root().join("target/proof");
        // Each rewritten only when it changes, so that a warm run does not
        // render the frames again. The library's (read by its build script)
        // is the proof contract but the names: its frames are typify's and
        // schemars', whose derives take names the SDKs leave free (`Default`,
        // `InstanceType`); the names proof is about the six SDKs.
        let path = work.join("proof.json");
        let library_path = work.join("library.json");
        let text = |schema: &Value| serde_json::to_string_pretty(schema).unwrap();
        testee::write_output(&[("proof.json".to_string(), text(&schema)), ("library.json".to_string(), text(&base()))].into_iter().collect(), &work);
        let (contract, _) = codegen::load::load(&path, "proof.json").unwrap_or_else(|e| panic!("the proof contract is refused: {e}"));
        let files = codegen::targets::generate(&contract).unwrap_or_else(|e| panic!("the proof contract is refused: {e}"));
        let out_root = work.join("out");
        testee::write_output(&files, &out_root);
        let build = work.join("build");
        let goldens = goldens(&work);
        let chosen = testee::chosen("PROOF_TARGETS");
        assert!(!chosen.is_empty(), "PROOF_TARGETS names no target of {:?}", codegen::targets::TARGETS);
        let built: Vec<(&str, testee::Build)> = std::thread::scope(|scope| {
            let handles: Vec<_> = chosen
                .iter()
                .map(|&t| {
                    let (out_root, build, path, goldens) = (&out_root, &build, &library_path, &goldens);
                    // The Rust testee's build makes the library's testee too.
                    let vars: Vec<(&str, &Path)> = if t == "rust" { vec![("CONFORMANCE_SCHEMA", path.as_path())] } else { Vec::new() };
                    (t, scope.spawn(move || testee::build(t, out_root, &build.join(t), goldens, &vars)))
                })
                .collect();
            handles.into_iter().map(|(t, h)| (t, h.join().unwrap_or_else(|_| testee::Build::Failed(format!("{t}: thread panicked"))))).collect()
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
