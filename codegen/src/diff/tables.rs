//! The `x-coprocess` tables other than the methods: the protocol version
//! and the limits, the error codes, the lanes, and the wording (title,
//! description, message templates, the client's defaults).

use super::{Change, Class};
use crate::model::{Contract, ErrorCode, Lane};

const SDK: Class = Class::BreaksOldSdk;
const BINARY: Class = Class::BreaksOldBinary;
const SOURCE: Class = Class::BreaksSource;

/// The version (the handshake refuses a peer of another one) and the line
/// and depth limits (both sides read lines: a raised limit lets a new
/// writer send what an old reader refuses, a lowered one the other way).
pub(crate) fn limits(old: &Contract, new: &Contract, out: &mut Vec<Change>) {
    if old.protocol_version != new.protocol_version {
        let text = format!(
            "protocol version {} → {} (the handshake refuses a peer of the other version)",
            old.protocol_version, new.protocol_version
        );
        out.push(Change::table("protocol-version-changed", "/x-coprocess/protocol_version".into(), text, &[SDK, BINARY]));
    }
    for (key, was, now) in [
        ("max_line_bytes", old.max_line_bytes, new.max_line_bytes),
        ("max_depth", u64::from(old.max_depth), u64::from(new.max_depth)),
    ] {
        if was != now {
            let text = format!("{key} {was} → {now} (both sides read frames within it)");
            out.push(Change::table("limit-changed", format!("/x-coprocess/{key}"), text, &[SDK, BINARY]));
        }
    }
}

/// Error codes, paired by name first (a renumbered code), then by code (a
/// renamed one). Only the code is on the wire and decoders read any
/// integer, so an added code breaks nothing: an old SDK reports it without
/// a name.
pub(crate) fn error_codes(old: &Contract, new: &Contract, out: &mut Vec<Change>) {
    let at = |i: usize| format!("/x-coprocess/error_codes/{i}");
    let paired = pairs(&old.error_codes, &new.error_codes);
    for (i, code) in new.error_codes.iter().enumerate() {
        let Some(j) = paired.iter().find(|(_, n)| *n == i).map(|(o, _)| *o) else {
            let text = format!("error code {} `{}`: added (an old SDK reports it by number, without a name)", code.code, code.name);
            out.push(Change::table("error-code-added", at(i), text, &[]));
            continue;
        };
        let before = &old.error_codes[j];
        if before.code != code.code {
            // Each side tells the condition by its number (the handshake's -32601 too).
            let text = format!("error code `{}`: renumbered {} → {}", code.name, before.code, code.code);
            out.push(Change::table("error-code-renumbered", at(i), text, &[SDK, BINARY]));
        } else if before.name != code.name {
            let text = format!("error code {}: renamed `{}` → `{}`", code.code, before.name, code.name);
            out.push(Change::table("error-code-renamed", at(i), text, &[SOURCE]));
        }
        if before.description != code.description {
            out.push(Change::table("description-changed", at(i), format!("error code `{}`: description changed", code.name), &[]));
        }
    }
    for (j, code) in old.error_codes.iter().enumerate().filter(|(j, _)| !paired.iter().any(|(o, _)| o == j)) {
        let text = format!("error code {} `{}`: removed", code.code, code.name);
        out.push(Change::table("error-code-removed", at(j), text, &[SOURCE]));
    }
}

/// (old row, new row) of each error code in both tables: the same name,
/// else the same code when neither row's name is in the other table.
fn pairs(old: &[ErrorCode], new: &[ErrorCode]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, code) in new.iter().enumerate() {
        let by_name = old.iter().position(|o| o.name == code.name);
        let by_code = || {
            old.iter().position(|o| o.code == code.code && !new.iter().any(|n| n.name == o.name)).filter(|_| by_name.is_none())
        };
        if let Some(j) = by_name.or_else(by_code) {
            out.push((j, i));
        }
    }
    out
}

/// Lanes, by key. The table says which lanes the binary serves over the
/// coprocess (`drivable`) and which command runs the others (`runs_via`);
/// each SDK decides by its own copy, and treats an unknown lane as drivable.
pub(crate) fn lanes(old: &Contract, new: &Contract, out: &mut Vec<Change>) {
    let at = |i: usize| format!("/x-coprocess/lanes/{i}");
    let find = |lanes: &[Lane], key: &str| lanes.iter().position(|l| l.key == key);
    for (i, lane) in new.lanes.iter().enumerate() {
        let key = &lane.key;
        let Some(j) = find(&old.lanes, key) else {
            if lane.drivable {
                // A new SDK drives it over an old binary, which does not serve it.
                out.push(Change::table("lane-added", at(i), format!("lane `{key}`: added, drivable"), &[BINARY]));
            } else {
                // An old SDK does not know it, so drives it over a binary that cannot.
                let text = format!("lane `{key}`: added, not drivable (runs via `{}`)", lane.runs_via);
                out.push(Change::table("lane-added", at(i), text, &[SDK]));
            }
            continue;
        };
        let before = &old.lanes[j];
        match (before.drivable, lane.drivable) {
            (false, true) => out.push(Change::table("lane-drivable-changed", at(i), format!("lane `{key}`: now drivable"), &[BINARY])),
            (true, false) => {
                let text = format!("lane `{key}`: no longer drivable (runs via `{}`)", lane.runs_via);
                out.push(Change::table("lane-drivable-changed", at(i), text, &[SDK]));
            }
            (false, false) if before.runs_via != lane.runs_via => {
                // Each SDK's hint names its own contract's command.
                let text = format!("lane `{key}`: runs via `{}` → `{}`", before.runs_via, lane.runs_via);
                out.push(Change::table("lane-command-changed", at(i), text, &[SDK, BINARY]));
            }
            (true, true) if before.runs_via != lane.runs_via => {
                let text = format!("lane `{key}`: runs via `{}` → `{}` (unused: the lane is drivable)", before.runs_via, lane.runs_via);
                out.push(Change::table("lane-command-changed", at(i), text, &[]));
            }
            _ => {}
        }
        if before.description != lane.description {
            out.push(Change::table("description-changed", at(i), format!("lane `{key}`: description changed"), &[]));
        }
    }
    for (j, lane) in old.lanes.iter().enumerate().filter(|(_, l)| find(&new.lanes, &l.key).is_none()) {
        // An old SDK still drives it, or points at its command.
        out.push(Change::table("lane-removed", at(j), format!("lane `{}`: removed", lane.key), &[SDK]));
    }
}

/// What only people read: the title, the top-level description, the
/// message templates (their holes are fixed by the loader) and the
/// client's defaults (each SDK's own, sent nowhere).
pub(crate) fn wording(old: &Contract, new: &Contract, out: &mut Vec<Change>) {
    if old.title != new.title {
        out.push(Change::table("title-changed", "/title".into(), "title changed".into(), &[]));
    }
    if old.description != new.description {
        out.push(Change::table("description-changed", "/description".into(), "top-level description changed".into(), &[]));
    }
    for (name, message) in &new.messages {
        let Some(before) = old.messages.get(name) else { continue };
        let at = format!("/x-coprocess/messages/{name}");
        if before.template != message.template {
            out.push(Change::table("message-changed", at.clone(), format!("message `{name}`: template changed"), &[]));
        }
        if before.description != message.description {
            out.push(Change::table("description-changed", at, format!("message `{name}`: description changed"), &[]));
        }
    }
    for (name, setting) in &new.client {
        let Some(before) = old.client.get(name) else { continue };
        let at = format!("/x-coprocess/client/{name}");
        if before.value != setting.value {
            let text = format!("client default `{name}`: {} → {}", before.value, setting.value);
            out.push(Change::table("client-default-changed", at.clone(), text, &[]));
        }
        if before.description != setting.description {
            out.push(Change::table("description-changed", at, format!("client default `{name}`: description changed"), &[]));
        }
    }
}
