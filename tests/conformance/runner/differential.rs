//! Differential fuzzing (issue 17, part 2): random frames of every `$defs`
//! type (`tests/support/fuzz`: valid values with random spellings, then up to
//! three mutations) are sent in batches through the six testees, the library
//! and the validator; a case on which they do not all give the validator's
//! verdict, the same re-encoded value and the same shape error is a
//! disagreement. Each disagreement is minimized (the smallest one-step
//! reduction that still disagrees the same way, again and again) and given
//! back as a corpus line carrying the validator's verdict.
//!
//! Case `i` of seed `s` is drawn from its own PRNG, seeded by `s` and `i`, so
//! `(seed, index)` alone reproduces it.

use serde_json::{json, Value};

use crate::compare::{problems, verdict};
use crate::support::fuzz::{generate, mutate, shrink, Doc, Rng};
use crate::targets::{self, Outcome};

/// Runs a batch of input lines through every target (not the validator).
pub type Runner<'a> = &'a dyn Fn(&[String]) -> Vec<(String, Outcome)>;

/// The reference's answer to `(type, json)`; `None` where it cannot be one
/// (then the targets need only agree with each other).
pub type Validator<'a> = &'a dyn Fn(&str, &str) -> Option<Value>;

/// One fuzzed case.
pub struct Case {
    pub index: usize,
    pub type_name: String,
    pub doc: Doc,
    pub mutations: Vec<&'static str>,
}

/// A disagreement, minimized.
pub struct Finding {
    pub case: Case,
    pub minimized: Doc,
    pub problems: Vec<String>,
    /// The validator's verdict on the minimized case.
    pub valid: Option<bool>,
}

impl Finding {
    /// The minimized case as a corpus line.
    pub fn corpus_line(&self, seed: u64) -> String {
        let note = format!(
            "differential fuzzing, seed {seed} case {} ({}): {}",
            self.case.index,
            if self.case.mutations.is_empty() { "no mutation".to_string() } else { self.case.mutations.join(", ") },
            self.problems.join("; ")
        );
        json!({"type": self.case.type_name, "json": self.minimized.text(), "valid": self.valid, "note": note}).to_string()
    }
}

/// What a campaign did.
#[derive(Default)]
pub struct Report {
    pub cases: usize,
    pub mutated: usize,
    /// Cases the validator accepted.
    pub accepted: usize,
    /// Cases the validator could not decide (see [`Validator`]).
    pub unreferenced: usize,
    pub findings: Vec<Finding>,
    /// Disagreeing cases beyond the minimization cap, not minimized.
    pub unminimized: usize,
}

/// Case `index` of campaign `seed`.
pub fn case(schema: &Value, type_names: &[String], seed: u64, index: usize) -> Case {
    let mut rng = Rng::new(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let type_name = rng.pick(type_names).clone();
    let value = generate::value(schema, &schema["$defs"][&type_name], &mut rng, 0);
    let mut doc = generate::spell(&value, &mut rng);
    let count = *rng.pick(&[0, 1, 1, 1, 2, 2, 3]);
    let mutations = (0..count).map(|_| mutate::mutate(&mut doc, &mut rng)).collect();
    Case { index, type_name, doc, mutations }
}

fn line(type_name: &str, doc: &Doc) -> String {
    json!({"type": type_name, "json": doc.text()}).to_string()
}

/// Every target's answers to `docs` (of one type each), with the validator's
/// appended; an error when a testee failed.
fn answers(runner: Runner, validator: Validator, cases: &[(&str, &Doc)]) -> Result<Vec<Vec<(String, Value)>>, String> {
    let input: Vec<String> = cases.iter().map(|(t, d)| line(t, d)).collect();
    let outcomes = runner(&input);
    let mut per_case: Vec<Vec<(String, Value)>> = vec![Vec::new(); cases.len()];
    for (target, outcome) in outcomes {
        match outcome {
            Outcome::Answers(answers) => {
                for (slot, answer) in per_case.iter_mut().zip(answers) {
                    slot.push((target.clone(), answer));
                }
            }
            Outcome::Failed(e) => return Err(e),
            Outcome::Missing => {}
        }
    }
    for (slot, (type_name, doc)) in per_case.iter_mut().zip(cases) {
        if let Some(answer) = validator(type_name, &doc.text()) {
            slot.push((targets::VALIDATOR.to_string(), answer));
        }
    }
    Ok(per_case)
}

fn check(json: &str, answers: &[(String, Value)]) -> Vec<String> {
    let borrowed: Vec<(&str, Value)> = answers.iter().map(|(t, a)| (t.as_str(), a.clone())).collect();
    problems(None, json, &borrowed)
}

/// Shrinks `doc` while the targets keep disagreeing in the same way.
fn minimize(runner: Runner, validator: Validator, type_name: &str, doc: &Doc, signature: &[String]) -> Result<Doc, String> {
    let mut best = doc.clone();
    for _round in 0..400 {
        let candidates = shrink::candidates(&best);
        if candidates.is_empty() {
            break;
        }
        let batch: Vec<(&str, &Doc)> = candidates.iter().map(|d| (type_name, d)).collect();
        let answers = answers(runner, validator, &batch)?;
        let smaller = candidates.iter().zip(&answers).find(|(d, a)| check(&d.text(), a) == signature);
        match smaller {
            Some((d, _)) => best = d.clone(),
            None => break,
        }
    }
    Ok(best)
}

/// Runs cases `first..first + count` of campaign `seed` (frames of
/// `type_names`, `$defs` of `schema`) in batches of `batch`, minimizing at
/// most `minimize_cap` disagreements.
#[allow(clippy::too_many_arguments)]
pub fn campaign(
    schema: &Value,
    type_names: &[String],
    seed: u64,
    first: usize,
    count: usize,
    batch: usize,
    minimize_cap: usize,
    runner: Runner,
    validator: Validator,
) -> Result<Report, String> {
    let mut report = Report::default();
    let mut start = first;
    while start < first + count {
        let end = (start + batch).min(first + count);
        let cases: Vec<Case> = (start..end).map(|i| case(schema, type_names, seed, i)).collect();
        let batch_cases: Vec<(&str, &Doc)> = cases.iter().map(|c| (c.type_name.as_str(), &c.doc)).collect();
        let all = answers(runner, validator, &batch_cases)?;
        for (case, answers) in cases.into_iter().zip(all) {
            report.cases += 1;
            report.mutated += usize::from(!case.mutations.is_empty());
            let reference = answers.iter().find(|(t, _)| t == targets::VALIDATOR).and_then(|(_, a)| verdict(a));
            report.accepted += usize::from(reference == Some(true));
            report.unreferenced += usize::from(!answers.iter().any(|(t, _)| t == targets::VALIDATOR));
            let found = check(&case.doc.text(), &answers);
            if found.is_empty() {
                continue;
            }
            if report.findings.len() >= minimize_cap {
                report.unminimized += 1;
                continue;
            }
            let minimized = minimize(runner, validator, &case.type_name, &case.doc, &found)?;
            let valid = validator(&case.type_name, &minimized.text()).and_then(|a| verdict(&a));
            report.findings.push(Finding { case, minimized, problems: found, valid });
        }
        start = end;
    }
    Ok(report)
}

/// The cases (`(type, json)`, kept findings say) on which the targets still
/// disagree, each with its problems.
#[allow(dead_code)] // the conformance test reads its findings as corpus
pub fn recheck(runner: Runner, validator: Validator, cases: &[(String, String)]) -> Result<Vec<(usize, Vec<String>)>, String> {
    let docs: Vec<Doc> = cases.iter().map(|(_, json)| Doc::Scalar(json.clone())).collect();
    let batch: Vec<(&str, &Doc)> = cases.iter().zip(&docs).map(|((t, _), d)| (t.as_str(), d)).collect();
    let answers = answers(runner, validator, &batch)?;
    Ok(answers.iter().enumerate().map(|(i, a)| (i, check(&cases[i].1, a))).filter(|(_, p)| !p.is_empty()).collect())
}

/// The slice a fuzzing test runs: `FUZZ_SEED` (2026), `FUZZ_FIRST` (0) and
/// `FUZZ_CASES` (2,000) from the environment, defaults in parentheses.
pub fn slice() -> (u64, usize, usize) {
    let number = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    (number("FUZZ_SEED", 2026), number("FUZZ_FIRST", 0) as usize, number("FUZZ_CASES", 2000) as usize)
}

/// Appends the findings' corpus lines to the file the variable `env` names,
/// when it names one (`tests/conformance/fuzz.sh` sets it).
pub fn keep_findings(env: &str, lines: &[String]) {
    let Some(path) = std::env::var_os(env) else { return };
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let written = std::fs::OpenOptions::new().create(true).append(true).open(&path).and_then(|mut file| std::io::Write::write_all(&mut file, text.as_bytes()));
    if let Err(e) = written {
        panic!("{env}={}: {e}", path.to_string_lossy());
    }
}
