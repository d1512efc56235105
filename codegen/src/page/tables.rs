//! The page's tables of `x-coprocess`: methods, error codes, lanes (with
//! the skip wording), messages and the session client's settings.

use super::markdown::{code_span, inline, paragraphs, Page};
use super::Links;
use crate::model::{Contract, Segment};

/// The keys of an `x-coprocess` table in schema order (the model keeps
/// them sorted).
fn schema_order<'c>(contract: &'c Contract, table: &str) -> Vec<&'c str> {
    contract.raw["x-coprocess"][table].as_object().map(|t| t.keys().map(String::as_str).collect()).unwrap_or_default()
}

/// A description in a table cell: its paragraphs on one line.
fn cell(text: &str) -> String {
    paragraphs(text).iter().map(|p| inline(p)).collect::<Vec<_>>().join(" ")
}

pub fn methods(page: &mut Page, links: &Links, contract: &Contract) {
    page.paragraph("Every method a request may name (`x-coprocess.methods`):");
    let rows: Vec<Vec<String>> = contract
        .methods
        .iter()
        .map(|m| {
            vec![
                code_span(&m.name),
                links.type_link(&m.params),
                if m.params_required { "yes" } else { "no" }.to_string(),
                links.type_link(&m.result),
                cell(&m.description),
            ]
        })
        .collect();
    page.table(&["Method", "Params type", "Params required", "Result type", "Description"], &rows);
}

pub fn error_codes(page: &mut Page, _: &Links, contract: &Contract) {
    page.paragraph("The JSON-RPC error codes this contract uses (`x-coprocess.error_codes`):");
    let rows: Vec<Vec<String>> = contract.error_codes.iter().map(|c| vec![c.code.to_string(), inline(&c.name), cell(&c.description)]).collect();
    page.table(&["Code", "Name", "Description"], &rows);
}

/// A message template with its holes filled (`{lane}` → `tools`).
fn fill(template: &str, hole: impl Fn(&str) -> String) -> String {
    crate::model::split_template(template)
        .into_iter()
        .map(|s| match s {
            Segment::Text(text) => text,
            Segment::Hole(name) => hole(&name),
        })
        .collect()
}

pub fn lanes(page: &mut Page, links: &Links, contract: &Contract) {
    page.paragraph("The suite lanes, and whether an SDK can drive each over the coprocess (`x-coprocess.lanes`):");
    let rows: Vec<Vec<String>> = contract
        .lanes
        .iter()
        .map(|l| {
            // Who runs it: `the SDK`, or else the CLI command.
            let runs_via = if l.drivable { inline(&l.runs_via) } else { code_span(&l.runs_via) };
            vec![code_span(&format!("{}:", l.key)), if l.drivable { "yes" } else { "no" }.to_string(), runs_via, cell(&l.description)]
        })
        .collect();
    page.table(&["Lane (YAML key)", "Drivable", "Runs via", "Description"], &rows);
    let Some(skip) = contract.messages.get("lane_skip") else { return };
    let unsupported: Vec<String> = contract
        .unsupported_lanes()
        .map(|lane| fill(&skip.template, |hole| if hole == "lane" { lane.key.clone() } else { lane.runs_via.clone() }))
        .collect();
    if unsupported.is_empty() {
        return;
    }
    page.paragraph(&format!(
        "An SDK reports each lane it cannot drive as a skipped or ignored test, worded by the message `lane_skip` \
         (see {}):",
        links.section("Messages")
    ));
    page.code("text", &unsupported.join("\n"));
    page.prose(&skip.description);
}

pub fn messages(page: &mut Page, _: &Links, contract: &Contract) {
    page.paragraph(
        "The wording every side shares (`x-coprocess.messages`): each `{hole}` is filled in as the description says.",
    );
    let rows: Vec<Vec<String>> = schema_order(contract, "messages")
        .into_iter()
        .filter_map(|name| contract.messages.get(name).map(|m| vec![code_span(name), code_span(&m.template), cell(&m.description)]))
        .collect();
    page.table(&["Message", "Template", "Description"], &rows);
}

pub fn client(page: &mut Page, _: &Links, contract: &Contract) {
    page.paragraph("The defaults of every SDK's session client (`x-coprocess.client`):");
    let rows: Vec<Vec<String>> = schema_order(contract, "client")
        .into_iter()
        .filter_map(|name| contract.client.get(name).map(|s| vec![code_span(name), s.value.to_string(), cell(&s.description)]))
        .collect();
    page.table(&["Setting", "Default", "Description"], &rows);
}

pub fn roles(page: &mut Page, links: &Links, contract: &Contract) {
    page.paragraph(
        "Which type or method plays each protocol role (`x-coprocess.roles`). Every SDK, runtime and tool reaches \
         these parts by their role, never by name; codegen refuses a role that is missing or lacks the members it \
         needs. `request`, `response`, `error_object` and `handshake` are required, `call` and `close` optional.",
    );
    let rows: Vec<Vec<String>> = contract
        .roles
        .table
        .iter()
        .map(|row| {
            let names: Vec<String> = row
                .names
                .iter()
                .map(|(key, name, _)| match key.as_str() {
                    "method" => code_span(name),
                    "type" => links.type_link(name),
                    arm => format!("{arm}: {}", links.type_link(name)),
                })
                .collect();
            vec![code_span(&row.role), names.join(", "), cell(&row.description)]
        })
        .collect();
    page.table(&["Role", "Played by", "Description"], &rows);
}
