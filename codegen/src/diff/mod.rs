//! `codegen diff`: every change between two contracts, member by member,
//! each classified by whom it breaks. It compares the loaded models
//! ([`Contract`]), so it sees exactly what codegen generates from.
//!
//! Classes (a change may carry several; docs/diff.md has the full table):
//!
//! - `breaks-old-sdk`: an SDK generated from the old contract fails against
//!   a binary built on the new one (it rejects a frame the new binary may
//!   send, or sends one the new binary rejects);
//! - `breaks-old-binary`: a binary built on the old contract fails against
//!   an SDK generated from the new one (the same, the other way round);
//! - `breaks-source`: code written against the old SDK no longer compiles
//!   or means the same (a type, member, method or error code removed or
//!   renamed, a member retyped, made optional or nullable, a required member
//!   added), wire or not;
//! - `compatible`: nothing breaks (descriptions, annotations, order, a type
//!   no frame carries added).
//!
//! Direction comes from the method table (`flow.rs`): params are written by
//! SDKs and read by the binary, results the other way; `Request` is the
//! SDK's envelope and `Response` the binary's; a type reachable from both
//! goes both ways. Every decoder is strict (an undeclared member is
//! rejected), so a change is judged by the set of values each side accepts:
//!
//! - it *loosens* when the new contract accepts a value the old one
//!   rejects (a member added, even optional; required → optional; made
//!   nullable; an enum value or union variant added; a bound loosened);
//! - it *tightens* when the old contract accepts a value the new one
//!   rejects (a member removed, even optional; optional → required; a bound
//!   tightened; an enum value removed);
//! - a retype, a changed `pattern` or `const`, a required member added or
//!   removed does both.
//!
//! A loosening breaks the old reader (it rejects what the new writer may
//! send): on a frame the binary writes that is an old SDK, on one SDKs write
//! an old binary. A tightening breaks the old writer (the new reader rejects
//! what it sends): an old binary on the binary's frames, an old SDK on the
//! SDKs'. A shape change of a type no frame carries breaks source only.
//! Tables: a method added breaks an old binary (a new SDK's call is
//! answered -32601), removed an old SDK; an error code renumbered both,
//! renamed or removed source only, added nothing (decoders read any integer
//! code); the protocol version and the line and depth limits both ways.
//!
//! One module per concern: `flow` (directions), `types` (the `$defs`),
//! `facets` (one member's type), `methods`, `tables` (limits, error codes,
//! lanes, wording), [`older`] (loading an older contract), [`render`]
//! (text and JSON), [`command`] (the subcommand).

use std::collections::BTreeSet;

use crate::model::Contract;

pub mod command;
mod facets;
mod flow;
mod methods;
pub mod older;
pub mod render;
mod shapes;
mod tables;
mod types;

pub use flow::Flow;

/// Whom a change breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    BreaksOldSdk,
    BreaksOldBinary,
    BreaksSource,
    Compatible,
}

impl Class {
    pub const ALL: [Class; 4] = [Class::BreaksOldSdk, Class::BreaksOldBinary, Class::BreaksSource, Class::Compatible];

    /// The class's name in both output formats.
    pub fn name(self) -> &'static str {
        match self {
            Class::BreaksOldSdk => "breaks-old-sdk",
            Class::BreaksOldBinary => "breaks-old-binary",
            Class::BreaksSource => "breaks-source",
            Class::Compatible => "compatible",
        }
    }
}

/// What a change does to the set of values a frame's readers accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Wire {
    /// The new contract accepts a value the old one rejects.
    pub loosens: bool,
    /// The old contract accepts a value the new one rejects.
    pub tightens: bool,
}

impl Wire {
    pub const NONE: Wire = Wire { loosens: false, tightens: false };
    pub const LOOSENS: Wire = Wire { loosens: true, tightens: false };
    pub const TIGHTENS: Wire = Wire { loosens: false, tightens: true };
    pub const BOTH: Wire = Wire { loosens: true, tightens: true };
}

/// One change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// A stable identifier of the rule that classified it (`member-added`).
    pub kind: &'static str,
    /// JSON pointer into the new contract (into the old one for what was removed).
    pub pointer: String,
    /// What changed, in words.
    pub text: String,
    /// Which way the frames carrying it go, for a change inside a type.
    pub flow: Option<Flow>,
    /// Never empty: `compatible` alone when nothing breaks.
    pub classes: BTreeSet<Class>,
}

impl Change {
    /// A change of a table (methods, error codes, lanes, limits) with its classes.
    pub(crate) fn table(kind: &'static str, pointer: String, text: String, classes: &[Class]) -> Change {
        let mut set: BTreeSet<Class> = classes.iter().copied().collect();
        if set.is_empty() {
            set.insert(Class::Compatible);
        }
        Change { kind, pointer, text, flow: None, classes: set }
    }

    /// A change inside a type: its classes follow from what it does to the
    /// wire, the way the type's frames go, and whether it breaks source.
    pub(crate) fn shape(kind: &'static str, pointer: String, text: String, flow: Flow, wire: Wire, source: bool) -> Change {
        let mut classes = BTreeSet::new();
        let (sdk_writes, binary_writes) = (flow.sdk_writes(), flow.binary_writes());
        if (wire.loosens && binary_writes) || (wire.tightens && sdk_writes) {
            classes.insert(Class::BreaksOldSdk);
        }
        if (wire.loosens && sdk_writes) || (wire.tightens && binary_writes) {
            classes.insert(Class::BreaksOldBinary);
        }
        if source || ((wire.loosens || wire.tightens) && flow == Flow::None) {
            classes.insert(Class::BreaksSource);
        }
        if classes.is_empty() {
            classes.insert(Class::Compatible);
        }
        Change { kind, pointer, text, flow: Some(flow), classes }
    }

    /// Whether anything breaks.
    pub fn breaks(&self) -> bool {
        self.classes.iter().any(|c| *c != Class::Compatible)
    }
}

/// Every change between two contracts, in a fixed order: the protocol
/// version and limits, the method table, the error codes, the lanes, the
/// types by name (members in declaration order, removed ones after), then
/// the wording of the tables.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub old_version: i64,
    pub new_version: i64,
    pub changes: Vec<Change>,
}

impl Report {
    /// Whether any change breaks something.
    pub fn breaks(&self) -> bool {
        self.changes.iter().any(Change::breaks)
    }

    /// Whether an old SDK or an old binary breaks (what a version bump is for).
    pub fn breaks_wire(&self) -> bool {
        self.changes.iter().any(|c| c.classes.contains(&Class::BreaksOldSdk) || c.classes.contains(&Class::BreaksOldBinary))
    }

    /// How many changes carry the class.
    pub fn count(&self, class: Class) -> usize {
        self.changes.iter().filter(|c| c.classes.contains(&class)).count()
    }

    /// The command's exit code: 1 when something breaks, else 0.
    pub fn exit_code(&self) -> i32 {
        i32::from(self.breaks())
    }
}

/// Two contracts that are not two versions of one contract: they have no
/// `$defs` name in common.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrelated;

/// Every change from `old` to `new`.
pub fn diff(old: &Contract, new: &Contract) -> Result<Report, Unrelated> {
    if !old.types.keys().any(|name| new.types.contains_key(name)) {
        return Err(Unrelated);
    }
    let flows = flow::Flows::of(old, new);
    let shapes = shapes::Shapes::of(old, new);
    let mut changes = Vec::new();
    tables::limits(old, new, &mut changes);
    methods::compare(old, new, &shapes, &mut changes);
    tables::error_codes(old, new, &mut changes);
    tables::lanes(old, new, &mut changes);
    types::compare(old, new, &flows, &shapes, &mut changes);
    tables::wording(old, new, &mut changes);
    Ok(Report { old_version: old.protocol_version, new_version: new.protocol_version, changes })
}
