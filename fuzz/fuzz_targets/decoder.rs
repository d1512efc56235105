//! cargo-fuzz target `decoder`: the properties are in `fuzz/src/lib.rs` (`decoder`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcptest_coprocess_fuzz::decoder(data));
