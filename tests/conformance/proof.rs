//! The conformance proof (`conformance::`): six testees (`tests/conformance/<target>/`,
//! one per SDK language, each built and strict-checked by its own toolchain
//! through `build.sh`, once, in the proof round), the library's own frames
//! (`rust-lib`, rendered from the proof contract but the names) and the jsonschema validator (`jsonschema`, see
//! `runner/targets.rs` for how it sees the JSON-text rules) are run over the
//! corpus, `tests/conformance/corpus/*.jsonl`, or only over
//! `$CONFORMANCE_CORPUS`. Each case's verdicts must equal the line's `valid`
//! (or, when it is absent, agree with each other); every accepted frame must
//! re-encode to the same JSON value everywhere; and a frame that is rejected
//! for its shape must be rejected with the same message by every decoder.
//! The testees also answer the helper ops (handshake, lanes, constants),
//! checked against expectations computed from the schema's tables. With
//! `CONFORMANCE_REPORT=<out.json>` the per-case report is written there.
//! The corpus runs a second time through the renamed copy of v2 (`CpX` for
//! each type `X`): every target must answer each case as it answers through
//! `X`, but for the type names in its messages.

use std::sync::OnceLock;

use serde_json::{json, Value};

use crate::compare::{self, brief, same_value, verdict, word};
use crate::targets::{self, Outcome};
use crate::{corpus, differential, ops, round, support};

/// Everything the targets answered, computed once for all tests: the
/// corpus's cases, then the helper ops, then the corpus's cases again
/// through the renamed copy's types (`CpX` for `X`).
struct Run {
    files: Vec<String>,
    cases: Vec<corpus::Case>,
    ops: Vec<ops::OpCase>,
    outcomes: Vec<(String, Outcome)>,
}

fn run() -> &'static Result<Run, String> {
    static RUN: OnceLock<Result<Run, String>> = OnceLock::new();
    RUN.get_or_init(|| {
        let files = corpus::files()?;
        let mut cases = Vec::new();
        for file in &files {
            cases.extend(corpus::load(file)?);
        }
        // The proof contract's tables: its method table holds the other proofs' methods too.
        let ops = ops::cases(&crate::names::proof().schema);
        let line = |type_name: &str, json: &str| json!({"type": type_name, "json": json}).to_string();
        let input: Vec<String> = cases
            .iter()
            .map(|c| line(&c.type_name, &c.json))
            .chain(ops.iter().map(|o| o.input.to_string()))
            .chain(cases.iter().map(|c| line(&renamed_type(&c.type_name), &c.json)))
            .collect();
        let outcomes = round::round().outcomes(&input);
        Ok(Run { files: files.iter().map(|f| f.display().to_string()).collect(), cases, ops, outcomes })
    })
}

/// A v2 type's name in the renamed copy.
fn renamed_type(type_name: &str) -> String {
    format!("{}{type_name}", support::rename::TYPE_PREFIX)
}

/// Per target, the answer to input line `index` (missing targets left out).
fn answers_at(run: &Run, index: usize) -> Vec<(&str, Value)> {
    run.outcomes
        .iter()
        .filter_map(|(target, outcome)| match outcome {
            Outcome::Answers(answers) => Some((target.as_str(), answers[index].clone())),
            _ => None,
        })
        .collect()
}

fn failed_targets(run: &Run) -> Vec<String> {
    run.outcomes.iter().filter_map(|(_, o)| if let Outcome::Failed(e) = o { Some(e.clone()) } else { None }).collect()
}

#[test]
fn every_target_gives_the_contracts_verdict_on_the_corpus() {
    let run = match run() {
        Ok(run) => run,
        Err(e) => panic!("{e}"),
    };
    assert!(!run.cases.is_empty(), "the corpus has no case");
    let mut listing = Vec::new();
    let mut report_cases = Vec::new();
    let mut disagreements = 0;
    for (index, case) in run.cases.iter().enumerate() {
        let mut answers = answers_at(run, index);
        answers.push((targets::VALIDATOR, targets::validator(&case.type_name, &case.json)));
        let problems = compare::problems(case.valid, &case.json, &answers);
        if !problems.is_empty() {
            disagreements += 1;
            let expected = case.valid.map_or("agreement", word);
            let mut block = format!("{} {} ({}), expected {expected}: {}", case.place, case.type_name, case.note, problems.join("; "));
            for (target, answer) in &answers {
                block.push_str(&format!("\n      {target:<11} {}", brief(answer)));
            }
            listing.push(block);
        }
        report_cases.push(json!({
            "place": case.place, "type": case.type_name, "json": case.json, "note": case.note, "expected": case.valid,
            "answers": answers.iter().map(|(t, a)| (t.to_string(), a.clone())).collect::<serde_json::Map<_, _>>(),
            "problems": problems,
        }));
    }
    let failed = failed_targets(run);
    if let Some(path) = std::env::var_os("CONFORMANCE_REPORT") {
        let base = run.cases.len();
        let ops: Vec<Value> = run
            .ops
            .iter()
            .enumerate()
            .map(|(i, op)| {
                let answers: serde_json::Map<String, Value> = answers_at(run, base + i).into_iter().map(|(t, a)| (t.to_string(), a)).collect();
                json!({"note": op.note, "input": op.input, "expected": op.expected, "answers": answers})
            })
            .collect();
        let missing: Vec<&str> = run.outcomes.iter().filter(|(_, o)| matches!(o, Outcome::Missing)).map(|(t, _)| t.as_str()).collect();
        let report = json!({
            "corpus": run.files, "targets": run.outcomes.iter().map(|(t, _)| t.as_str()).chain([targets::VALIDATOR]).collect::<Vec<_>>(),
            "missing_toolchains": missing, "failed_targets": failed, "disagreements": disagreements, "cases": report_cases, "ops": ops,
        });
        let text = serde_json::to_string_pretty(&report).expect("report serializes");
        std::fs::write(&path, text + "\n").unwrap_or_else(|e| panic!("cannot write {}: {e}", path.to_string_lossy()));
        eprintln!("conformance report written to {}", path.to_string_lossy());
    }
    let shown = listing.iter().take(40).cloned().collect::<Vec<_>>().join("\n");
    assert!(
        failed.is_empty() && listing.is_empty(),
        "{} target(s) failed:\n{}\n{disagreements} of {} cases with disagreements{}:\n{shown}",
        failed.len(),
        failed.join("\n"),
        run.cases.len(),
        if listing.len() > 40 { " (first 40 shown; set CONFORMANCE_REPORT=<out.json> for all)" } else { "" },
    );
}

#[test]
fn every_target_answers_the_helper_ops_as_the_schema_says() {
    let run = match run() {
        Ok(run) => run,
        Err(e) => panic!("{e}"),
    };
    // The library's tables are its contract's: the proof contract but the names (round.rs).
    let library_ops = ops::cases(&round::base());
    assert_eq!(library_ops.len(), run.ops.len(), "the library's op cases are the others'");
    let mut problems = Vec::new();
    for (i, (op, library_op)) in run.ops.iter().zip(&library_ops).enumerate() {
        for (target, answer) in answers_at(run, run.cases.len() + i) {
            let op = if target == targets::LIBRARY { library_op } else { op };
            let same = verdict(&answer) == verdict(&op.expected)
                && match verdict(&answer) {
                    Some(true) => same_value(&answer["value"], &op.expected["value"]),
                    _ if op.prefix => answer["error"].as_str().unwrap_or_default().starts_with(op.expected["error"].as_str().unwrap_or("?")),
                    _ => answer["error"] == op.expected["error"],
                };
            if !same {
                problems.push(format!("{} ({}): {target} answered {answer}, expected {}", op.note, op.input, op.expected));
            }
        }
    }
    let failed = failed_targets(run);
    assert!(failed.is_empty() && problems.is_empty(), "failed targets:\n{}\n{} wrong op answers:\n{}", failed.join("\n"), problems.len(), problems.join("\n"));
}

/// `file` holds `rendered` (what `source` generates from the schema), or is
/// overwritten with it under `EXPECTORATE=overwrite`.
fn generated_corpus(file: &str, rendered: &str, source: &str, test: &str) {
    let committed = std::fs::read_to_string(file).unwrap_or_default();
    if committed == rendered {
        return;
    }
    if std::env::var("EXPECTORATE").as_deref() == Ok("overwrite") {
        std::fs::write(file, rendered).unwrap_or_else(|e| panic!("cannot write {file}: {e}"));
        return;
    }
    let first = committed.lines().zip(rendered.lines()).position(|(a, b)| a != b).unwrap_or(committed.lines().count().min(rendered.lines().count()));
    panic!(
        "{file} is not what {source} generates from the schema (first difference at line {}: committed {:?}, generated {:?}); regenerate with EXPECTORATE=overwrite cargo test --test conformance conformance::{test}",
        first + 1,
        committed.lines().nth(first),
        rendered.lines().nth(first),
    );
}

/// Differential fuzzing: a fixed-seed slice of random and mutated frames
/// (`FUZZ_SEED`, `FUZZ_CASES`, `FUZZ_FIRST` choose another; `FUZZ_FINDINGS=<file>`
/// appends the minimized disagreements there as corpus lines), through every
/// built testee, the library and the validator. `tests/conformance/fuzz.sh`
/// runs long campaigns.
#[test]
fn every_target_agrees_on_fuzzed_frames() {
    let run = match run() {
        Ok(run) => run,
        Err(e) => panic!("{e}"),
    };
    let failed = failed_targets(run);
    assert!(failed.is_empty(), "failed targets:\n{}", failed.join("\n"));
    let built: Vec<&str> = run.outcomes.iter().filter(|(_, o)| matches!(o, Outcome::Answers(_))).map(|(t, _)| t.as_str()).collect();
    let (seed, first, cases) = differential::slice();
    let runner = |input: &[String]| round::round().outcomes(input);
    let started = std::time::Instant::now();
    let schema = support::schema();
    let type_names: Vec<String> = schema["$defs"].as_object().map(|d| d.keys().cloned().collect()).unwrap_or_default();
    let validator = |type_name: &str, json: &str| Some(targets::validator(type_name, json));
    let report =
        differential::campaign(&schema, &type_names, seed, first, cases, 5000, 8, &runner, &validator).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "differential fuzzing, seed {seed}, cases {first}..{}: {} cases ({} mutated, {} valid) through {} testees (the library's among them) and the validator in {:.1} s: {} disagreements ({} minimized)",
        first + cases,
        report.cases,
        report.mutated,
        report.accepted,
        built.len(),
        started.elapsed().as_secs_f64(),
        report.findings.len() + report.unminimized,
        report.findings.len(),
    );
    assert_eq!(report.cases, cases, "every case ran");
    let lines: Vec<String> = report.findings.iter().map(|f| f.corpus_line(seed)).collect();
    differential::keep_findings("FUZZ_FINDINGS", &lines);
    assert!(
        lines.is_empty() && report.unminimized == 0,
        "{} disagreements; minimized, as corpus lines:\n{}",
        report.findings.len() + report.unminimized,
        lines.join("\n")
    );
}

#[test]
fn the_mutation_corpus_is_what_the_schema_generates() {
    generated_corpus(corpus::MUTATIONS, &corpus::render_mutations(), "tests/support", "the_mutation_corpus");
}

#[test]
fn the_example_corpus_is_every_example_of_the_schema() {
    let rendered = corpus::render_examples();
    assert!(rendered.lines().count() >= 8, "the schema has too few examples:\n{rendered}");
    generated_corpus(corpus::EXAMPLES, &rendered, "codegen::examples", "the_example_corpus");
}

/// `answer` with every v2 type name in its message renamed by the rule
/// (`Verdict: ...` → `CpVerdict: ...`).
fn with_renamed_types(answer: &Value, types: &Value) -> Value {
    let mut answer = answer.clone();
    if let Some(error) = answer.get("error").and_then(Value::as_str) {
        let renamed = support::rename::renamed(&json!({"$defs": types, "description": error}));
        answer["error"] = renamed["description"].clone();
    }
    answer
}

/// The renamed copy decodes alike: each corpus case through `CpX` gets, in
/// every target, the answer it gets through `X` (its messages naming `CpX`).
#[test]
fn every_target_answers_the_corpus_alike_through_the_renamed_types() {
    let run = match run() {
        Ok(run) => run,
        Err(e) => panic!("{e}"),
    };
    let types: serde_json::Map<String, Value> =
        support::schema()["$defs"].as_object().into_iter().flatten().map(|(name, _)| (name.clone(), json!({}))).collect();
    let types = Value::Object(types);
    let base = run.cases.len() + run.ops.len();
    let mut problems = Vec::new();
    let mut compared = 0;
    for (index, case) in run.cases.iter().enumerate() {
        let renamed: Vec<(&str, Value)> = answers_at(run, base + index);
        for ((target, plain), (_, through_copy)) in answers_at(run, index).iter().zip(&renamed) {
            compared += 1;
            let expected = with_renamed_types(plain, &types);
            if !same_value(&expected, through_copy) {
                problems.push(format!(
                    "{} {} ({}): {target} answered {} through {}, expected {}",
                    case.place,
                    case.type_name,
                    case.note,
                    brief(through_copy),
                    renamed_type(&case.type_name),
                    brief(&expected)
                ));
            }
        }
    }
    let failed = failed_targets(run);
    assert!(failed.is_empty(), "failed targets:\n{}", failed.join("\n"));
    assert!(compared >= run.cases.len(), "only {compared} renamed answers compared");
    let shown = problems.iter().take(40).cloned().collect::<Vec<_>>().join("\n");
    assert!(problems.is_empty(), "{} of {compared} answers differ through the renamed types (first 40):\n{shown}", problems.len());
}

/// TypeScript's union reader picks a variant by the one discriminator that
/// reads as a value, looked up as the object's own (`pickVariant`): with a
/// discriminator inherited from a polluted `Object.prototype`, every decode
/// answers as the lookup of every discriminator does
/// (`tests/conformance/typescript/prototype.mjs`; a fast path that skips the
/// own lookup answers "missing field" where it must answer "neither").
///
/// It runs on the proof round's own build of the testee, which built it
/// once for every test here: a build of its own would run build.sh beside
/// that one, into the same directory, with other inputs.
#[test]
fn typescript_picks_a_variant_by_own_discriminators_only() {
    let round = round::round();
    match round.testees.iter().find(|(t, _)| *t == "typescript").map(|(_, b)| b) {
        Some(support::testee::Build::Ready) => {}
        Some(support::testee::Build::Missing(_)) => {
            eprintln!("\n!!!!! TOOLCHAIN MISSING for typescript: the variant pick was NOT checked (CI=true makes this fail) !!!!!");
            return;
        }
        Some(support::testee::Build::Failed(log)) => panic!("the typescript testee was not built:\n{log}"),
        None => {
            eprintln!("typescript is not among PROOF_TARGETS: the variant pick was not run");
            return;
        }
    }
    let dist = round.build.join("typescript/dist");
    let pick = std::process::Command::new("node").arg("tests/conformance/typescript/prototype.mjs").arg(&dist).output().expect("cannot start node");
    assert!(pick.status.success(), "{}{}", String::from_utf8_lossy(&pick.stdout), String::from_utf8_lossy(&pick.stderr));
}
