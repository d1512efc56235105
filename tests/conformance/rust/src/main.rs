//! Conformance testee for the generated Rust SDK file: NDJSON cases on stdin,
//! one answer line per case on stdout (docs/targets.md, "Testees").

use conformance_testee_rust::answer;

fn main() {
    conformance_testee_rust::serve("testee", answer::answer);
}
