//! The page's example exchanges ([`crate::examples`]): the handshake's
//! first, with the handshake method's row of the table, then the others.

use super::markdown::{code_span, inline, one_line, Page};
use super::Links;
use crate::examples::{exchanges, Example, Exchange};
use crate::model::Contract;

pub fn handshake(page: &mut Page, links: &Links, contract: &Contract) {
    let name = contract.roles.handshake.method.as_str();
    if let Some(method) = contract.methods.iter().find(|m| m.name == name) {
        page.paragraph(&format!(
            "{} takes {}{} and answers {}.",
            code_span(name),
            links.type_link(&method.params),
            if method.params_required { "" } else { " (optional)" },
            links.type_link(&method.result)
        ));
        page.prose(&method.description);
    }
    page.paragraph(&format!(
        "The wording of a mismatch on either side is in {}. The example exchanges of the handshake (a response \
         answers the request with its `id`):",
        links.section("Messages")
    ));
    for exchange in exchanges(contract).iter().filter(|e| e.method.is_some_and(|m| m.name == name)) {
        write(page, links, contract, exchange);
    }
}

pub fn others(page: &mut Page, links: &Links, contract: &Contract) {
    page.paragraph(
        "The schema's other example requests, each with the example responses that carry its `id`. Every frame \
         is one line on the wire.",
    );
    let handshake = contract.roles.handshake.method.as_str();
    for exchange in exchanges(contract).iter().filter(|e| e.method.is_none_or(|m| m.name != handshake)) {
        write(page, links, contract, exchange);
    }
}

fn write(page: &mut Page, links: &Links, contract: &Contract, exchange: &Exchange<'_>) {
    let method = exchange.request.value["method"].as_str().unwrap_or_default();
    page.paragraph(&format!("Request ({}, {}):", links.type_link(&exchange.request.type_name), code_span(method)));
    page.code("json", &one_line(&exchange.request.value));
    for answer in &exchange.answers {
        page.paragraph(&format!("Answer ({}{}):", links.type_link(&answer.type_name), error_name(contract, answer)));
        page.code("json", &one_line(&answer.value));
    }
}

/// `, InvalidParams` for an error answer whose code is in the table.
fn error_name(contract: &Contract, answer: &Example) -> String {
    let code = answer.value.get("error").and_then(|e| e.get("code")).and_then(serde_json::Value::as_i64);
    match contract.error_codes.iter().find(|c| Some(c.code) == code) {
        Some(c) => format!(", {} {}", c.code, inline(&c.name)),
        None => String::new(),
    }
}
