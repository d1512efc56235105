//! The method table, row by row by wire name. What a params or result type
//! itself changes is reported at the type ([`super::types`]); here only
//! which type a method names, whether its params must be sent, and whether
//! the method is there at all.

use super::shapes::Shapes;
use super::{Change, Class};
use crate::model::{Contract, Method};

const SDK: Class = Class::BreaksOldSdk;
const BINARY: Class = Class::BreaksOldBinary;
const SOURCE: Class = Class::BreaksSource;

pub(crate) fn compare(old: &Contract, new: &Contract, shapes: &Shapes<'_>, out: &mut Vec<Change>) {
    let find = |methods: &[Method], name: &str| methods.iter().position(|m| m.name == name);
    for (i, method) in new.methods.iter().enumerate() {
        let at = format!("/x-coprocess/methods/{i}");
        let name = &method.name;
        let Some(j) = find(&old.methods, name) else {
            // A new SDK calls it; an old binary answers -32601.
            let text = format!("method `{name}`: added (params {}, result {})", method.params, method.result);
            out.push(Change::table("method-added", at, text, &[BINARY]));
            continue;
        };
        let before = &old.methods[j];
        for (kind, role, was, now) in [
            ("method-params-changed", "params", &before.params, &method.params),
            ("method-result-changed", "result", &before.result, &method.result),
        ] {
            if was == now {
                continue;
            }
            if shapes.same(was, now) {
                let text = format!("method `{name}`: {role} type {was} → {now} (the same shape)");
                out.push(Change::table(kind, at.clone(), text, &[SOURCE]));
            } else {
                let text = format!("method `{name}`: {role} type {was} → {now}");
                out.push(Change::table(kind, at.clone(), text, &[SDK, BINARY, SOURCE]));
            }
        }
        match (before.params_required, method.params_required) {
            // An old SDK may omit them; the new binary refuses that.
            (false, true) => {
                let text = format!("method `{name}`: params now required");
                out.push(Change::table("method-params-now-required", at.clone(), text, &[SDK, SOURCE]));
            }
            // A new SDK may omit them; an old binary refuses that.
            (true, false) => {
                let text = format!("method `{name}`: params now optional");
                out.push(Change::table("method-params-now-optional", at.clone(), text, &[BINARY, SOURCE]));
            }
            _ => {}
        }
        if before.description != method.description {
            out.push(Change::table("description-changed", at, format!("method `{name}`: description changed"), &[]));
        }
    }
    for (j, method) in old.methods.iter().enumerate().filter(|(_, m)| find(&new.methods, &m.name).is_none()) {
        // An old SDK still calls it; the new binary answers -32601.
        let text = format!("method `{}`: removed", method.name);
        out.push(Change::table("method-removed", format!("/x-coprocess/methods/{j}"), text, &[SDK, SOURCE]));
    }
    let kept_old: Vec<&str> = old.methods.iter().map(|m| m.name.as_str()).filter(|n| find(&new.methods, n).is_some()).collect();
    let kept_new: Vec<&str> = new.methods.iter().map(|m| m.name.as_str()).filter(|n| find(&old.methods, n).is_some()).collect();
    if kept_old != kept_new {
        let text = "method table reordered (methods are called by name)".to_string();
        out.push(Change::table("method-order-changed", "/x-coprocess/methods".into(), text, &[]));
    }
}
