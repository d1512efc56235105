//! cargo-fuzz target `request_lines`: the properties are in `fuzz/src/lib.rs` (`request_lines`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcptest_coprocess_fuzz::request_lines(data));
