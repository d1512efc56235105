//! One module per target language behind one entry point, [`generate`].
//! Each target turns the [`Contract`] into files under the output root, at
//! the paths its row of the support matrix (`x-coprocess.sdks`) gives; the
//! reference page ([`crate::page`]) is written beside them.

use std::collections::BTreeMap;

use crate::model::{Contract, Sdk};
use crate::languages::Language;

pub mod claims;
pub mod client;
pub mod dotnet;
pub mod go;
pub mod jvm;
mod prune;
pub mod python;
pub mod readers;
pub mod rust;
pub mod typescript;

pub use crate::output::{header_text, REGENERATE_COMMAND};

/// One target language: what the generator, the support matrix and the
/// names proof ask of it. Each target module has these as functions of the
/// same names; [`REGISTRY`] holds one of each, and nothing else dispatches
/// on a target's key.
pub trait Target: Sync {
    /// What the support matrix knows of its language, the key first.
    fn language(&self) -> &'static Language;
    /// Its row's key in the support matrix (`go`).
    fn key(&self) -> &'static str {
        self.language().key
    }
    /// Its files, at the paths its row of the support matrix gives.
    fn render(&self, contract: &Contract) -> Result<Files, crate::SchemaError>;
    /// Every name it declares where a schema name can reach ([`claims`]).
    fn declare(&self, contract: &Contract) -> Result<Vec<claims::Scope>, crate::SchemaError>;
    /// The word lists it escapes or avoids (keywords, reserved names).
    fn keyword_sets(&self) -> Vec<&'static [&'static str]>;
    /// Its runtime as written in its template(s).
    fn runtime_sources(&self) -> Vec<&'static str>;
}

/// A target module as a [`Target`]: its language's facts and its functions.
macro_rules! target {
    ($name:ident, $module:ident) => {
        struct $name;

        impl Target for $name {
            fn language(&self) -> &'static Language {
                &crate::languages::$module::LANGUAGE
            }
            fn render(&self, contract: &Contract) -> Result<Files, crate::SchemaError> {
                $module::generate(contract)
            }
            fn declare(&self, contract: &Contract) -> Result<Vec<claims::Scope>, crate::SchemaError> {
                $module::declare(contract)
            }
            fn keyword_sets(&self) -> Vec<&'static [&'static str]> {
                $module::keyword_sets()
            }
            fn runtime_sources(&self) -> Vec<&'static str> {
                $module::runtime_sources()
            }
        }
    };
}

target!(RustTarget, rust);
target!(PythonTarget, python);
target!(TypeScriptTarget, typescript);
target!(GoTarget, go);
target!(JvmTarget, jvm);
target!(DotnetTarget, dotnet);

/// The target registry, in the order the targets are generated and reported
/// (the order of [`crate::languages::LANGUAGES`]).
pub const REGISTRY: &[&dyn Target] = &[&RustTarget, &PythonTarget, &TypeScriptTarget, &GoTarget, &JvmTarget, &DotnetTarget];

/// The keys of [`REGISTRY`], in its order, for the harnesses that pick
/// targets by key (`PROOF_TARGETS=go,jvm`).
pub const TARGETS: &[&str] = &["rust", "python", "typescript", "go", "jvm", "dotnet"];

/// The target with this key.
pub fn target(key: &str) -> Option<&'static dyn Target> {
    REGISTRY.iter().copied().find(|target| target.key() == key)
}

/// Every generated file, by path relative to the output root (`/`-separated).
pub type Files = BTreeMap<String, String>;

/// Renders every target, and the reference page.
///
/// The targets are independent: they render on a few worker threads
/// ([`crate::parallel::all`]), the page on this one. The Rust target comes in
/// three parts (its items, its types, its client: [`rust::assemble`]), so
/// that the workers share out even pieces, longest first. The first error
/// in [`TARGETS`] order is the one returned.
pub fn generate(contract: &Contract) -> Result<Files, crate::SchemaError> {
    type Job<'c> = crate::parallel::Job<'c, Piece>;
    let text = |part: fn(&Contract) -> Result<String, crate::SchemaError>| -> Job<'_> { Box::new(move || Piece::Text(part(contract))) };
    let target = |target: &'static str| -> Job<'_> { Box::new(move || Piece::Files(generate_target(contract, target))) };
    let jobs: Vec<(&str, Job<'_>)> = JOBS
        .iter()
        .map(|name| {
            let job = match *name {
                "rust-items" => text(rust::items_part),
                "rust-types" => text(rust::types_part),
                "rust-client" => text(rust::client_part),
                other => target(other),
            };
            (*name, job)
        })
        .collect();
    let (pieces, page) = crate::parallel::all(&contract.source, jobs, || crate::page::render(contract))?;
    let mut pieces: BTreeMap<&str, Piece> = JOBS.into_iter().zip(pieces).collect();
    let mut take = |name: &str| pieces.remove(name).unwrap_or(Piece::Files(Ok(Files::new())));
    let mut files = Files::new();
    for name in TARGETS {
        let rendered = match *name {
            "rust" => rust::assemble(contract, take("rust-types").text(), take("rust-items").text(), take("rust-client").text()),
            other => take(other).files(),
        };
        files.extend(rendered?);
    }
    files.insert(crate::page::PATH.to_string(), page);
    Ok(files)
}

/// The jobs of [`generate`], longest first (by CPU time, docs/benchmarks.md):
/// each worker takes the next one not taken.
const JOBS: [&str; 8] = ["rust-items", "rust-types", "jvm", "python", "typescript", "go", "dotnet", "rust-client"];

/// What one job of [`generate`] renders: a target's files, or a part of the
/// Rust target's.
enum Piece {
    Files(Result<Files, crate::SchemaError>),
    Text(Result<String, crate::SchemaError>),
}

impl Piece {
    fn files(self) -> Result<Files, crate::SchemaError> {
        match self {
            Piece::Files(files) => files,
            Piece::Text(text) => text.map(|_| Files::new()),
        }
    }

    fn text(self) -> Result<String, crate::SchemaError> {
        match self {
            Piece::Text(text) => text,
            Piece::Files(files) => files.map(|_| String::new()),
        }
    }
}

/// A target's row of the support matrix; a contract without one (built by
/// hand: the loader requires every row) is refused.
pub fn sdk<'c>(contract: &'c Contract, target: &str) -> Result<&'c Sdk, crate::SchemaError> {
    contract.sdk(target).ok_or_else(|| {
        crate::SchemaError::new(
            std::path::Path::new(&contract.source),
            "/x-coprocess/sdks",
            format!("the support matrix has no row for `{target}`"),
            format!("add a row with \"key\": \"{target}\""),
        )
    })
}

/// What a target's language calls its frames (the row's name), for
/// messages; empty without a row.
pub fn namespace<'c>(contract: &'c Contract, target: &str) -> &'c str {
    contract.sdk(target).map_or("", |sdk| sdk.namespace.as_str())
}

/// Renders one target by name.
pub fn generate_target(contract: &Contract, target: &str) -> Result<Files, crate::SchemaError> {
    self::target(target).map_or_else(|| Ok(Files::new()), |target| target.render(contract))
}

/// Every name one target declares where a schema name can reach, scope by
/// scope, with who declares it ([`claims`]). `generate` of each target makes
/// these claims before it renders anything, so a clash is refused whole.
pub fn declare(contract: &Contract, target: &str) -> Result<Vec<claims::Scope>, crate::SchemaError> {
    self::target(target).map_or_else(|| Ok(Vec::new()), |target| target.declare(contract))
}

/// The word lists one target escapes or avoids (keywords, reserved names):
/// `tests/names/proof.rs` uses each word as a type name and as a member name.
pub fn keyword_sets(target: &str) -> Vec<&'static [&'static str]> {
    self::target(target).map_or_else(Vec::new, |target| target.keyword_sets())
}

/// The runtime of one target as it is written in its template(s): the helpers
/// every generated file carries. `tests/names/proof.rs` reads every top-level name
/// it declares from this text, so a runtime that gains a name is covered.
pub fn runtime_sources(target: &str) -> Vec<&'static str> {
    self::target(target).map_or_else(Vec::new, |target| target.runtime_sources())
}

/// Word-wraps `text` to lines of at most `width` characters (longer words stay whole).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    wrap_keeping(text, width, |_| false)
}

/// [`wrap`], except that a word for which `must_not_start_a_line` holds stays on
/// the line before it even when that line grows past `width`.
pub fn wrap_keeping(text: &str, width: usize, must_not_start_a_line: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() > width && !must_not_start_a_line(word) {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every target is rendered by the jobs: the Rust target by its three
    /// parts, each other by its name, none twice.
    #[test]
    fn the_jobs_cover_every_target_once() {
        let mut jobs = JOBS.to_vec();
        jobs.sort_unstable();
        jobs.dedup();
        assert_eq!(jobs.len(), JOBS.len(), "a job twice: {JOBS:?}");
        let mut named: Vec<&str> = JOBS.iter().map(|job| if job.starts_with("rust-") { "rust" } else { job }).collect();
        assert_eq!(named.iter().filter(|n| **n == "rust").count(), 3, "{JOBS:?}");
        named.sort_unstable();
        named.dedup();
        let mut targets = TARGETS.to_vec();
        targets.sort_unstable();
        assert_eq!(named, targets);
    }

    /// The registry, its keys and the support matrix's languages are one
    /// list, in one order.
    #[test]
    fn the_registry_is_the_languages_in_order() {
        let keys: Vec<&str> = REGISTRY.iter().map(|target| target.key()).collect();
        assert_eq!(keys, TARGETS);
        let languages: Vec<&str> = crate::languages::LANGUAGES.iter().map(|language| language.key).collect();
        assert_eq!(keys, languages);
    }

    /// The parts put together are the target rendered whole, and every
    /// target's files are the ones it renders alone.
    #[test]
    fn generating_all_gives_each_target_as_it_renders_alone() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let (contract, _) = crate::load::load_str(&text, &path, "schemas/ipc/v2.json").unwrap();
        let mut all = generate(&contract).unwrap();
        assert!(all.remove(crate::page::PATH).is_some());
        let mut alone = Files::new();
        for target in TARGETS {
            alone.extend(generate_target(&contract, target).unwrap());
        }
        assert_eq!(all.keys().collect::<Vec<_>>(), alone.keys().collect::<Vec<_>>());
        for (path, text) in &alone {
            assert!(all[path] == *text, "{path} differs");
        }
    }
}
