//! The page's overview sections: the version and its history, the support
//! matrix, the frame and JSON-text rules, and the compatibility rule.

use super::markdown::{code_span, inline, Page};
use super::Links;
use crate::model::Contract;

pub fn version(page: &mut Page, _: &Links, contract: &Contract) {
    page.paragraph(&format!(
        "The protocol version is **{}** (`x-coprocess.protocol_version`): every SDK file below pins it, and the \
         handshake carries it. What each version changed (`x-coprocess.history`):",
        contract.protocol_version
    ));
    let rows: Vec<Vec<String>> = contract.history.iter().map(|v| vec![format!("v{}", v.version), inline(&v.changes)]).collect();
    page.table(&["Version", "Changes"], &rows);
}

pub fn matrix(page: &mut Page, _: &Links, contract: &Contract) {
    page.paragraph(
        "Where codegen writes each SDK's files, relative to the output root (`--out`), and what the SDK's language \
         calls them (`x-coprocess.sdks`). Every SDK speaks the version above.",
    );
    let rows: Vec<Vec<String>> = contract
        .sdks
        .iter()
        .map(|sdk| {
            let what = crate::languages::language(&sdk.key).map_or("name", |l| l.what);
            vec![
                inline(&sdk.name),
                code_span(&sdk.key),
                format!("v{}", contract.protocol_version),
                code_span(&sdk.frames),
                code_span(&sdk.client),
                format!("{what} {}", code_span(&sdk.namespace)),
            ]
        })
        .collect();
    page.table(&["SDK", "Key", "Protocol", "Frames and pin", "Session client", "Name"], &rows);
}

pub fn frames(page: &mut Page, _: &Links, contract: &Contract) {
    page.prose(&contract.description);
    page.paragraph(&format!(
        "A frame line is at most {} bytes without its `\\n` (`x-coprocess.max_line_bytes`), and a frame nests at \
         most {} containers deep (`x-coprocess.max_depth`).",
        contract.max_line_bytes, contract.max_depth
    ));
}

pub fn compatibility(page: &mut Page, _: &Links, contract: &Contract) {
    page.paragraph("The rule between versions (`x-coprocess.compatibility`):");
    page.bullets(&contract.compatibility.iter().map(|clause| inline(clause)).collect::<Vec<_>>());
}
