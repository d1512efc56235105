//! The report as text (a line per change, for people) and as JSON (for
//! machines; the shape is documented in docs/diff.md and versioned by
//! `diff_format`).

use serde_json::{json, Value};

use super::{Change, Class, Report};

/// The version of the JSON shape; bumped when a member changes meaning.
pub const JSON_FORMAT: u64 = 1;

/// How the two contracts are named in the report's header.
#[derive(Debug, Clone, Copy)]
pub struct Labels<'a> {
    pub old: &'a str,
    pub new: &'a str,
}

/// One change: `<classes> <pointer>: <what>[ [<flow>]]`, the classes joined
/// with `+`, the flow shown when the change breaks something.
pub fn line(change: &Change) -> String {
    let classes: Vec<&str> = change.classes.iter().map(|c| c.name()).collect();
    let flow = match change.flow {
        Some(flow) if change.breaks() => format!(" [{}]", flow.words()),
        _ => String::new(),
    };
    format!("{} {}: {}{flow}", classes.join("+"), change.pointer, change.text)
}

/// The counts per class, in class order.
fn counts(report: &Report) -> String {
    let parts: Vec<String> = Class::ALL.iter().map(|c| format!("{} {}", report.count(*c), c.name())).collect();
    parts.join(", ")
}

/// The last line: whether anything breaks and what to do about it.
pub fn verdict(report: &Report) -> String {
    if report.breaks_wire() {
        if report.old_version == report.new_version {
            format!(
                "verdict: breaks the wire; bump x-coprocess.protocol_version to {}",
                report.new_version + 1
            )
        } else {
            format!("verdict: breaks the wire (protocol version {} → {})", report.old_version, report.new_version)
        }
    } else if report.breaks() {
        "verdict: breaks SDK source only; the frames are unchanged".to_string()
    } else {
        "verdict: nothing breaks".to_string()
    }
}

/// The whole text report.
pub fn text(report: &Report, labels: Labels<'_>) -> String {
    let mut out = format!(
        "old: {} (protocol version {})\nnew: {} (protocol version {})\n",
        labels.old, report.old_version, labels.new, report.new_version
    );
    for change in &report.changes {
        out.push_str(&line(change));
        out.push('\n');
    }
    if report.changes.is_empty() {
        out.push_str("no changes\n");
    } else {
        let n = report.changes.len();
        out.push_str(&format!("{n} change{}: {}\n", if n == 1 { "" } else { "s" }, counts(report)));
    }
    out.push_str(&verdict(report));
    out.push('\n');
    out
}

/// The whole JSON report (pretty-printed, members in a fixed order).
pub fn json(report: &Report, labels: Labels<'_>) -> String {
    let changes: Vec<Value> = report
        .changes
        .iter()
        .map(|c| {
            json!({
                "classes": c.classes.iter().map(|c| c.name()).collect::<Vec<_>>(),
                "kind": c.kind,
                "pointer": c.pointer,
                "change": c.text,
                "flow": c.flow.map(|f| f.name()),
            })
        })
        .collect();
    let counts: serde_json::Map<String, Value> =
        Class::ALL.iter().map(|c| (c.name().to_string(), Value::from(report.count(*c)))).collect();
    let value = json!({
        "diff_format": JSON_FORMAT,
        "old": {"contract": labels.old, "protocol_version": report.old_version},
        "new": {"contract": labels.new, "protocol_version": report.new_version},
        "changes": changes,
        "counts": counts,
        "breaks": report.breaks(),
        "breaks_wire": report.breaks_wire(),
    });
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}
