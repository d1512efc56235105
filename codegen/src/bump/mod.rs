//! `codegen bump`: moves the contract to its next protocol version in one
//! step. The schema is edited in place, byte for byte, in two values only:
//! `/x-coprocess/protocol_version` becomes N+1 and `/x-coprocess/history`
//! gains a row for N+1 (a copy of the last row, formatted like it, with the
//! given `changes`). Then everything is generated as `cargo run -p codegen`
//! does: the SDK files speak N+1, the lock gains N+1's fingerprints, and the
//! contract last generated under N stays recorded beside the lock as the
//! released N, so that `diff` and the lock compare against what was released.
//!
//! The schema keeps its path (`schemas/ipc/v2.json` is where the contract
//! lives, which build.rs and the library read; renaming it is a decision of
//! its own). What bump does not rewrite is listed: every other place the
//! schema still says N (`protocol_version` members of examples, and so on),
//! for the maintainer to review. If anything fails, the schema is put back
//! as it was and nothing is written.

mod spans;

use std::path::PathBuf;

use serde_json::{json, Value};

/// `codegen bump`'s arguments.
#[derive(Debug, clap::Args)]
pub struct BumpArgs {
    /// The contract schema, edited in place.
    #[arg(long, default_value = "schemas/ipc/v2.json")]
    pub schema: PathBuf,
    /// The output root.
    #[arg(long, default_value = "generated")]
    pub out: PathBuf,
    /// What the new version changes: its row in the version history (and so
    /// on the reference page).
    #[arg(long)]
    pub changes: String,
}

/// The schema text moved to the next version.
#[derive(Debug)]
pub struct Bumped {
    pub text: String,
    pub from: i64,
    pub to: i64,
    /// JSON pointers of the other members that still say `from` as a
    /// protocol version.
    pub stale: Vec<String>,
}

/// Moves `text` (a contract schema) to the next protocol version, with
/// `changes` as the new version's history row.
pub fn bumped(text: &str, changes: &str) -> Result<Bumped, String> {
    if changes.trim().is_empty() {
        return Err("--changes is empty: say what the new version changes (it becomes its row in x-coprocess.history)".into());
    }
    let root = spans::parse(text).ok_or("the schema is not a JSON text")?;
    let version = root.at(&["x-coprocess", "protocol_version"]).ok_or("no /x-coprocess/protocol_version")?;
    let from: i64 = text[version.span.clone()].parse().map_err(|_| "/x-coprocess/protocol_version is not an integer")?;
    let to = from.checked_add(1).ok_or("/x-coprocess/protocol_version cannot grow")?;
    let history = root.at(&["x-coprocess", "history"]).ok_or("no /x-coprocess/history: add the version history first")?;
    let spans::Kind::Array(rows) = &history.kind else { return Err("/x-coprocess/history is not an array".into()) };
    let last = rows.last().ok_or("/x-coprocess/history is empty")?;
    let row = new_row(&text[last.span.clone()], to, changes)?;
    let separator = match rows.len() {
        1 => ", ".to_string(),
        n => text[rows[n - 2].span.end..last.span.start].to_string(),
    };
    // Edits from the end of the text backwards, so earlier spans stay valid.
    let mut edits = vec![(last.span.end..last.span.end, format!("{separator}{row}")), (version.span.clone(), to.to_string())];
    edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
    let mut out = text.to_string();
    for (span, replacement) in edits {
        out.replace_range(span, &replacement);
    }
    // The edit must be exactly the intended change of the value.
    let mut expected: Value = serde_json::from_str(text).map_err(|e| format!("the schema is not JSON: {e}"))?;
    expected["x-coprocess"]["protocol_version"] = json!(to);
    if let Some(rows) = expected["x-coprocess"]["history"].as_array_mut() {
        rows.push(json!({"version": to, "changes": changes}));
    }
    let got: Value = serde_json::from_str(&out).map_err(|e| format!("the edited schema is not JSON ({e}): report this as a codegen bug"))?;
    if got != expected {
        return Err("the edited schema is not the intended change: report this as a codegen bug".into());
    }
    let mut stale = Vec::new();
    stale_mentions(&got, from, "", &mut stale);
    stale.retain(|p| !p.starts_with("/x-coprocess/history/"));
    Ok(Bumped { text: out, from, to, stale })
}

/// The last history row's text with its `version` and `changes` replaced.
fn new_row(last: &str, to: i64, changes: &str) -> Result<String, String> {
    let row = spans::parse(last).ok_or("the last history row is not JSON")?;
    let version = row.at(&["version"]).ok_or("the last history row has no `version`")?;
    let said = row.at(&["changes"]).ok_or("the last history row has no `changes`")?;
    let mut edits = vec![(version.span.clone(), to.to_string()), (said.span.clone(), Value::String(changes.to_string()).to_string())];
    edits.sort_by_key(|(span, _)| std::cmp::Reverse(span.start));
    let mut out = last.to_string();
    for (span, replacement) in edits {
        out.replace_range(span, &replacement);
    }
    Ok(out)
}

/// Pointers of `protocol_version` members equal to `version`.
fn stale_mentions(value: &Value, version: i64, at: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, member) in map {
                let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                if (key == "protocol_version" || key == "version") && member.as_i64() == Some(version) {
                    out.push(here.clone());
                }
                stale_mentions(member, version, &here, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                stale_mentions(item, version, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Runs `codegen bump`. Exit codes: 0 bumped and generated, 2 bad input or
/// a refusal (the schema is left as it was).
pub fn run(args: &BumpArgs) -> i32 {
    let schema = args.schema.display();
    let text = match std::fs::read_to_string(&args.schema) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: {schema}: {e}");
            return 2;
        }
    };
    let source = args.schema.to_string_lossy().replace('\\', "/");
    if let Err(error) = crate::load::load(&args.schema, &source) {
        eprintln!("error: {error}");
        eprintln!("fix the contract before bumping it; nothing was written");
        return 2;
    }
    let bumped = match bumped(&text, &args.changes) {
        Ok(bumped) => bumped,
        Err(error) => {
            eprintln!("error: {schema}: {error}; nothing was written");
            return 2;
        }
    };
    if let Err(e) = std::fs::write(&args.schema, &bumped.text) {
        eprintln!("error: {schema}: {e}; nothing was written");
        return 2;
    }
    let generated = crate::generate::run(&crate::generate::Args { schema: args.schema.clone(), out: args.out.clone(), check: false });
    if generated != 0 {
        let restored = std::fs::write(&args.schema, &text);
        eprintln!("error: generation failed after the bump; {schema} {}", if restored.is_ok() { "is restored as it was" } else { "could NOT be restored" });
        return 2;
    }
    println!("{schema}: protocol version {} -> {} (/x-coprocess/protocol_version, and /x-coprocess/history gained its row)", bumped.from, bumped.to);
    println!("the contract released as v{} stays recorded beside the lock under {}", bumped.from, args.out.display());
    if !bumped.stale.is_empty() {
        println!("still v{} (review them: examples of older frames may well stay as they are):", bumped.from);
        for pointer in &bumped.stale {
            println!("  {pointer}");
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &str = "{\n  \"x-coprocess\": {\n    \"protocol_version\": 2,\n    \"history\": [\n      {\"version\": 1, \"changes\": \"First.\"},\n      {\"version\": 2, \"changes\": \"Second.\"}\n    ]\n  },\n  \"examples\": [{\"protocol_version\": 2}]\n}\n";

    #[test]
    fn a_bump_edits_two_values_and_keeps_every_other_byte() {
        let bumped = bumped(SCHEMA, "Third \"quoted\".").expect("bumps");
        assert_eq!((bumped.from, bumped.to), (2, 3));
        let want = SCHEMA.replace("\"protocol_version\": 2,\n", "\"protocol_version\": 3,\n").replace(
            "{\"version\": 2, \"changes\": \"Second.\"}\n",
            "{\"version\": 2, \"changes\": \"Second.\"},\n      {\"version\": 3, \"changes\": \"Third \\\"quoted\\\".\"}\n",
        );
        assert_eq!(bumped.text, want);
        assert_eq!(bumped.stale, vec!["/examples/0/protocol_version".to_string()]);
    }

    #[test]
    fn a_bump_refuses_what_it_cannot_edit() {
        assert!(bumped(SCHEMA, "  ").unwrap_err().contains("--changes is empty"));
        assert!(bumped("{\"x-coprocess\": {\"protocol_version\": 2}}", "x").unwrap_err().contains("no /x-coprocess/history"));
        assert!(bumped("{\"x-coprocess\": {\"protocol_version\": \"2\", \"history\": []}}", "x").unwrap_err().contains("not an integer"));
        assert!(bumped("{", "x").unwrap_err().contains("not a JSON text"));
    }
}
