//! The reference page, `docs/coprocess-protocol.md`: the contract as a
//! reader wants it, written with every other output (so `--check` keeps it
//! current) and from the schema alone: the version and its history, the
//! support matrix, the frame and JSON-text rules, the handshake and the other
//! example exchanges, the method, role, error-code, lane, message and client
//! tables, the compatibility rule, and every `$defs` type with a field table
//! and its examples. One module per part: [`markdown`] (writing Markdown
//! markdownlint accepts), [`overview`], [`exchanges`], [`tables`], [`types`].

mod exchanges;
pub mod markdown;
mod overview;
mod tables;
mod types;

use std::collections::BTreeMap;

use crate::model::Contract;
use crate::output::{header_text, REGENERATE_COMMAND};
use markdown::{Anchors, Page};

/// Where the page goes under the output root.
pub use crate::output::PAGE_PATH as PATH;

/// A section: its heading and what writes its body.
type Section = (&'static str, fn(&mut Page, &Links, &Contract));

/// The sections, in page order.
const SECTIONS: &[Section] = &[
    ("Protocol version", overview::version),
    ("Support matrix", overview::matrix),
    ("Frames and JSON text", overview::frames),
    ("Handshake", exchanges::handshake),
    ("Example exchanges", exchanges::others),
    ("Methods", tables::methods),
    ("Roles", tables::roles),
    ("Error codes", tables::error_codes),
    ("Lanes", tables::lanes),
    ("Messages", tables::messages),
    ("Session client settings", tables::client),
    ("Compatibility rule", overview::compatibility),
    ("Types", types::render),
];

/// The heading of a type's section.
fn type_heading(name: &str) -> String {
    format!("Type `{name}`")
}

/// The anchors of the page's headings, computed in document order as
/// GitHub (and markdownlint) computes them, so that links made before a
/// heading is written land on it.
pub struct Links {
    sections: BTreeMap<&'static str, String>,
    types: BTreeMap<String, String>,
}

impl Links {
    fn new(contract: &Contract) -> Self {
        let mut anchors = Anchors::default();
        anchors.next(&contract.title);
        anchors.next("Contents");
        let sections = SECTIONS.iter().map(|(heading, _)| (*heading, anchors.next(heading))).collect();
        let types = types::order(contract).into_iter().map(|name| (name.to_string(), anchors.next(&type_heading(name)))).collect();
        Links { sections, types }
    }

    /// A link to a section.
    pub fn section(&self, heading: &str) -> String {
        format!("[{heading}](#{})", self.sections.get(heading).map_or("", String::as_str))
    }

    /// A link to a type's section, its name in code.
    pub fn type_link(&self, name: &str) -> String {
        match self.types.get(name) {
            Some(anchor) => format!("[`{name}`](#{anchor})"),
            None => format!("`{name}`"),
        }
    }
}

/// The page's text.
pub fn render(contract: &Contract) -> String {
    let links = Links::new(contract);
    let mut page = Page::default();
    page.heading(1, &markdown::inline(&contract.title));
    page.comment(&header_text(contract));
    page.paragraph(&format!(
        "The reference of the {} (protocol version {}), generated from `{}` by `{REGENERATE_COMMAND}` together with \
         the SDK files it describes: every table, rule and example below is the schema's.",
        markdown::inline(&contract.title),
        contract.protocol_version,
        contract.source
    ));
    page.heading(2, "Contents");
    page.bullets(&SECTIONS.iter().map(|(heading, _)| links.section(heading)).collect::<Vec<_>>());
    for (heading, write) in SECTIONS {
        page.heading(2, heading);
        write(&mut page, &links, contract);
    }
    page.finish()
}
