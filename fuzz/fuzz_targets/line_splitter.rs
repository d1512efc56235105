//! cargo-fuzz target `line_splitter`: the properties are in `fuzz/src/lib.rs` (`line_splitter`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcptest_coprocess_fuzz::line_splitter(data));
