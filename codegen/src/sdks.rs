//! The support matrix, `x-coprocess.sdks`: one row per codegen target
//! saying how the SDK is called, where its two generated files go under the
//! output root (so that `--out` into an SDK monorepo writes each file where
//! that SDK keeps it) and what its language calls the frames' home.
//!
//! ```json
//! {"key": "go", "name": "Go", "frames": "go/coprocess.go", "client": "go/client.go", "package": "mcptest"}
//! ```
//!
//! The loader refuses a row whose path leaves the output root or meets
//! another generated file, a key that is no target, a target without a row,
//! and a name its language would not take or that disagrees with where the
//! language looks for the file (each target's [`crate::languages::Language::check`]).

use serde_json::{Map, Value};

use crate::error::SchemaError;
use crate::languages::{self, LANGUAGES};
use crate::reader::Reader;
use crate::model::Sdk;
use crate::root::path_problem;

/// The paths under the output root that are not an SDK's: the version lock
/// and the reference page.
pub fn reserved_paths() -> [&'static str; 2] {
    [crate::output::LOCK_PATH, crate::output::PAGE_PATH]
}

/// Reads `x-coprocess.sdks`: one row per target, each checked.
pub(crate) fn read(r: &Reader<'_>, x: &Map<String, Value>) -> Result<Vec<Sdk>, SchemaError> {
    let table = "/x-coprocess/sdks";
    let mut sdks: Vec<Sdk> = Vec::new();
    // Every file path so far, with the pointer that names it.
    let mut paths: Vec<(String, String)> = reserved_paths().iter().map(|p| (p.to_string(), String::new())).collect();
    for (i, row) in r.array(x, "sdks", "/x-coprocess")?.iter().enumerate() {
        let p = format!("{table}/{i}");
        let row = r.object(row, &p)?;
        let key = r.string(row, "key", &p)?;
        let Some(language) = languages::language(&key) else {
            let keys: Vec<&str> = LANGUAGES.iter().map(|language| language.key).collect();
            return Err(r.err(&format!("{p}/key"), format!("`{key}` is not a codegen target"), format!("use one of: {}", keys.join(", "))));
        };
        if sdks.iter().any(|s| s.key == key) {
            return Err(r.err(&format!("{p}/key"), format!("SDK `{key}` is listed twice"), "keep one row per SDK"));
        }
        r.only_keys(row, &["key", "name", "frames", "client", language.name_key], &p)?;
        let name = r.string(row, "name", &p)?;
        if name.contains(['\n', '|']) {
            return Err(r.err(&format!("{p}/name"), "the name has a line break or a `|`", "write the name on one line, without `|` (it heads a table row)"));
        }
        let sdk = Sdk {
            frames: r.string(row, "frames", &p)?,
            client: r.string(row, "client", &p)?,
            namespace: r.string(row, language.name_key, &p)?,
            key,
            name,
        };
        for (field, path) in [("frames", &sdk.frames), ("client", &sdk.client)] {
            let at = format!("{p}/{field}");
            if let Some(problem) = path_problem(path) {
                return Err(r.err(&at, problem, "write a relative path with `/` between plain names, like `go/coprocess.go`"));
            }
            if !path.ends_with(language.extension) {
                return Err(r.err(&at, format!("`{path}` does not end with `{}`", language.extension), format!("name a `{}` file", language.extension)));
            }
            let lower = path.to_ascii_lowercase();
            for (other, other_at) in &paths {
                let other_lower = other.to_ascii_lowercase();
                let (what, fix) = if other_lower == lower {
                    ("is the path of", "give every generated file a path of its own (paths differing only in case meet on some file systems)")
                } else if lower.starts_with(&format!("{other_lower}/")) || other_lower.starts_with(&format!("{lower}/")) {
                    ("is a directory of, or inside, the path of", "keep files and directories apart")
                } else {
                    continue;
                };
                let whose = if other_at.is_empty() { format!("`{other}`, which codegen writes itself") } else { format!("`{other}` at {other_at}") };
                return Err(r.err(&at, format!("`{path}` {what} {whose}"), fix));
            }
            paths.push((path.clone(), at));
        }
        if sdk.directory() != sdk.client.rsplit_once('/').map_or("", |(dir, _)| dir) {
            return Err(r.err(&format!("{p}/client"), format!("the client `{}` is not beside the frames `{}`", sdk.client, sdk.frames), "put both files in one directory: the client names the frames as its neighbour"));
        }
        if let Err(problem) = (language.check)(&sdk) {
            return Err(r.err(&format!("{p}/{}", problem.key), problem.problem, problem.fix));
        }
        sdks.push(sdk);
    }
    for target in LANGUAGES.iter().map(|language| language.key) {
        if !sdks.iter().any(|s| s.key == target) {
            return Err(r.err(table, format!("the support matrix has no row for `{target}`"), format!("add a row with \"key\": \"{target}\" saying where its files go")));
        }
    }
    Ok(sdks)
}
