//! Every proof that the six SDKs' generated code keeps the contract, run on
//! one proof round (`conformance/round.rs`): one proof contract, generated
//! once, built and strictly checked once per language, its strict checks
//! covering `generated/` and every golden in the same tool runs. One test
//! per proof, each failure naming its corpus, its case and its target:
//! - `conformance::` the conformance corpus, the helper ops, the corpus again
//!   through the renamed types, and a fuzz slice on v2's types
//!   (`conformance/proof.rs`);
//! - `constraints::` every validation keyword, the JSON Schema Test Suite,
//!   long strings on every pattern, and a fuzz slice on the constrained types
//!   (`constraints/proof.rs`, `constraints/fuzz.rs`);
//! - `names::` any legal name generates code that compiles and round-trips,
//!   a kept name is refused, and a renamed contract keeps every declaration
//!   (`names/proof.rs`).
//!
//! `PROOF_TARGETS=python,go` builds and runs those testees only (for work on
//! one target; the default and CI run all six). Toolchains are installed by
//! `build.sh`; with `CI=true` a missing toolchain fails, elsewhere it is
//! reported loudly.
//!
//! Each `build.sh` also strict-checks the goldens, `generated/` as itself,
//! and the SDKs of v2.json renamed (every type `CpX`, every method `cp...`,
//! the roles naming the renamed types: `runner/renamed.rs`), in the same tool
//! runs: the roles proof of issue 32 without a round of its own.

mod support;

#[path = "conformance/runner/compare.rs"]
mod compare;
#[path = "conformance/proof.rs"]
mod conformance;
#[path = "constraints/proof.rs"]
mod constraints;
#[path = "conformance/runner/corpus.rs"]
mod corpus;
#[path = "names/declared.rs"]
mod declared;
#[path = "conformance/runner/differential.rs"]
mod differential;
#[path = "names/proof.rs"]
mod names;
#[path = "names/schema.rs"]
mod names_schema;
#[allow(dead_code)] // `BINARY` and `LIBRARY` are read through `missing` too
#[path = "../build/needs.rs"]
mod needs;
#[path = "conformance/runner/ops.rs"]
mod ops;
#[path = "constraints/patterns.rs"]
mod patterns;
#[path = "conformance/runner/renamed.rs"]
mod renamed;
#[path = "conformance/round.rs"]
mod round;
#[path = "constraints/suite.rs"]
mod suite;
#[path = "conformance/runner/targets.rs"]
mod targets;
