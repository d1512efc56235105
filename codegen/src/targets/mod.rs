//! One module per target language behind one entry point, [`generate`].
//! Each target turns the [`Contract`] into files under the output root, at
//! the paths its row of the support matrix (`x-coprocess.sdks`) gives; the
//! reference page ([`crate::page`]) is written beside them.

use std::collections::BTreeMap;

use crate::model::{Contract, Sdk};
use crate::sdks::Language;

pub mod claims;
pub mod client;
pub mod dotnet;
pub mod go;
pub mod jvm;
mod prune;
pub mod python;
pub mod rust;
pub mod typescript;

pub use crate::output::{header_text, REGENERATE_COMMAND};

/// The target languages, in the order they are generated and reported.
pub const TARGETS: &[&str] = &["rust", "python", "typescript", "go", "jvm", "dotnet"];

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

/// What the support matrix needs to know of a target's language.
pub fn language(target: &str) -> Option<Language> {
    Some(match target {
        "rust" => rust::LANGUAGE,
        "python" => python::LANGUAGE,
        "typescript" => typescript::LANGUAGE,
        "go" => go::LANGUAGE,
        "jvm" => jvm::LANGUAGE,
        "dotnet" => dotnet::LANGUAGE,
        _ => return None,
    })
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
    Ok(match target {
        "rust" => rust::generate(contract)?,
        "python" => python::generate(contract)?,
        "typescript" => typescript::generate(contract)?,
        "go" => go::generate(contract)?,
        "jvm" => jvm::generate(contract)?,
        "dotnet" => dotnet::generate(contract)?,
        _ => Files::new(),
    })
}

/// Every name one target declares where a schema name can reach, scope by
/// scope, with who declares it ([`claims`]). `generate` of each target makes
/// these claims before it renders anything, so a clash is refused whole.
pub fn declare(contract: &Contract, target: &str) -> Result<Vec<claims::Scope>, crate::SchemaError> {
    match target {
        "rust" => rust::declare(contract),
        "python" => python::declare(contract),
        "typescript" => typescript::declare(contract),
        "go" => go::declare(contract),
        "jvm" => jvm::declare(contract),
        "dotnet" => dotnet::declare(contract),
        _ => Ok(Vec::new()),
    }
}

/// The word lists one target escapes or avoids (keywords, reserved names):
/// `tests/names.rs` uses each word as a type name and as a member name.
pub fn keyword_sets(target: &str) -> Vec<&'static [&'static str]> {
    match target {
        "rust" => rust::keyword_sets(),
        "python" => python::keyword_sets(),
        "typescript" => typescript::keyword_sets(),
        "go" => go::keyword_sets(),
        "jvm" => jvm::keyword_sets(),
        "dotnet" => dotnet::keyword_sets(),
        _ => Vec::new(),
    }
}

/// The runtime of one target as it is written in its template(s): the helpers
/// every generated file carries. `tests/names.rs` reads every top-level name
/// it declares from this text, so a runtime that gains a name is covered.
pub fn runtime_sources(target: &str) -> Vec<&'static str> {
    match target {
        "rust" => rust::runtime_sources(),
        "python" => python::runtime_sources(),
        "typescript" => typescript::runtime_sources(),
        "go" => go::runtime_sources(),
        "jvm" => jvm::runtime_sources(),
        "dotnet" => dotnet::runtime_sources(),
        _ => Vec::new(),
    }
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
