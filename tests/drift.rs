//! The committed `generated/` matches the schema (the drift check CI runs).

#[test]
fn generated_is_in_sync_with_the_schema() {
    let args = codegen::cli::Args {
        schema: "schemas/ipc/v2.json".into(),
        out: "generated".into(),
        check: true,
    };
    assert_eq!(codegen::cli::run(&args), 0, "generated/ is stale: run `cargo run -p codegen`");
}

#[test]
fn the_rust_sdk_file_pins_the_schema_version() {
    let sdk = std::fs::read_to_string("generated/rust/mcptest-runner/src/coprocess.rs").unwrap();
    let pin = format!("pub const COPROCESS_PROTOCOL_VERSION: i64 = {};", mcptest_coprocess::PROTOCOL_VERSION);
    assert!(sdk.contains(&pin), "the Rust SDK file does not carry `{pin}`");
}
