//! `codegen diff OLD NEW` (NEW optional) and `codegen diff --against REV`: reads
//! the two contracts (the old one from a file or from git), loads each as
//! codegen does, and prints the report. It writes nothing. Exit codes: 0
//! nothing breaks, 1 something does, 2 bad input (a missing file, a bad
//! revision, a file that is not a contract, two unrelated contracts).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::render::{self, Labels};
use crate::error::SchemaError;

/// The `diff` subcommand's arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct DiffArgs {
    /// The contracts: OLD and NEW, or with --against only NEW. NEW defaults to --schema.
    #[arg(value_name = "CONTRACT", num_args = 0..=2)]
    pub contracts: Vec<PathBuf>,
    /// Read the old contract from this git revision: `git show <REV>:<schema>`.
    #[arg(long, value_name = "REV")]
    pub against: Option<String>,
    /// The contract schema: the default NEW, and the path read from git with --against.
    #[arg(long, default_value = "schemas/ipc/v2.json")]
    pub schema: PathBuf,
    /// `text`: a line per change; `json`: the report for machines (docs/diff.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// A contract's text and how the report names it.
struct Source {
    label: String,
    text: String,
}

/// Runs the command; returns the exit code.
pub fn run(args: &DiffArgs) -> i32 {
    match report(args) {
        Ok((text, code)) => {
            print!("{text}");
            code
        }
        Err(error) => {
            eprintln!("error: {error}");
            2
        }
    }
}

/// The rendered report and its exit code, or why there is none.
pub fn report(args: &DiffArgs) -> Result<(String, i32), SchemaError> {
    let (old, new) = match (&args.against, args.contracts.as_slice()) {
        (Some(rev), [] | [_]) => (from_git(rev, &args.schema)?, args.contracts.first().unwrap_or(&args.schema)),
        (None, [old]) => (from_file(old)?, &args.schema),
        (None, [old, new]) => (from_file(old)?, new),
        (Some(_), _) => return Err(usage("with --against, give at most one contract: the new one")),
        (None, _) => return Err(usage("give the old contract (a file), or --against <git revision>")),
    };
    let new = from_file(new)?;
    let (new_contract, new_raw) = crate::load::load_str(&new.text, Path::new(&new.label), &new.label)?;
    let (old_contract, completed) = super::older::load(&old.text, Path::new(&old.label), &old.label, &new_raw)?;
    let mut report = super::diff(&old_contract, &new_contract).map_err(|_| {
        SchemaError::new(
            Path::new(&new.label),
            "/$defs",
            format!("`{}` and `{}` share no $defs name: they are not two versions of one contract", old.label, new.label),
            "compare two versions of the same contract (for example `cargo run -p codegen -- diff --against HEAD`)",
        )
    })?;
    report.changes.extend(completed);
    let labels = Labels { old: &old.label, new: &new.label };
    let text = match args.format {
        Format::Text => render::text(&report, labels),
        Format::Json => render::json(&report, labels),
    };
    Ok((text, report.exit_code()))
}

fn usage(problem: &str) -> SchemaError {
    SchemaError::new(Path::new("codegen diff"), "", problem, "run `cargo run -p codegen -- diff --help`")
}

fn label_of(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

fn from_file(path: &Path) -> Result<Source, SchemaError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| SchemaError::new(path, "", format!("cannot read the schema: {e}"), "check the path"))?;
    Ok(Source { label: label_of(path), text })
}

/// The contract at `path` as of git revision `rev` (`git show`, so the
/// revision may be anything git names: `HEAD~1`, a tag, a branch).
fn from_git(rev: &str, path: &Path) -> Result<Source, SchemaError> {
    let spec = format!("{rev}:{}", git_path(path)?);
    let label = format!("{rev}:{}", label_of(path));
    let bad = |problem: String| {
        SchemaError::new(
            Path::new(&label),
            "",
            problem,
            "name a revision git knows (`git log --oneline`) at which the schema existed at that path (see --schema)",
        )
    };
    if rev.is_empty() || rev.starts_with('-') {
        return Err(bad(format!("`{rev}` is not a git revision")));
    }
    let output = Command::new("git")
        .args(["show", &spec])
        .output()
        .map_err(|e| bad(format!("cannot run git: {e}")))?;
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        return Err(bad(format!("`git show {spec}` failed: {}", said.trim())));
    }
    let text = String::from_utf8(output.stdout).map_err(|_| bad("the schema at that revision is not UTF-8".into()))?;
    Ok(Source { label, text })
}

/// The path as `git show` reads it: relative to the working directory
/// (`./path`), or, when absolute, relative to the repository's top.
fn git_path(path: &Path) -> Result<String, SchemaError> {
    let text = label_of(path);
    if !path.is_absolute() {
        return Ok(if text.starts_with("./") || text.starts_with("../") { text } else { format!("./{text}") });
    }
    let top = Command::new("git").args(["rev-parse", "--show-toplevel"]).output().ok().filter(|o| o.status.success());
    let top = top.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default();
    match path.strip_prefix(&top) {
        Ok(rel) if !top.is_empty() => Ok(label_of(rel)),
        _ => Err(SchemaError::new(
            path,
            "",
            "the schema is not inside the git repository of the working directory",
            "run from inside the repository, or give --schema relative to it",
        )),
    }
}
