// What the hand-written code in `src/` names of the contract (included by
// `build.rs`, and by the test that checks these lists against `src/`).
// Until the schema declares roles for them, these are the names themselves.

/// The `$defs` types, error codes (by table name), methods and messages the
/// library (`src/*.rs`) uses.
pub const LIBRARY: Needs = Needs {
    types: &["ErrorObject", "ErrorResponse", "HandshakeParams", "HandshakeResult", "JsonRpcVersion", "Request", "RequestId"],
    error_codes: &["ParseError", "InvalidRequest", "MethodNotFound", "InvalidParams"],
    methods: &[],
    messages: &[],
};

/// What the `mcptest` binary (`src/bin/mcptest/`, the `binary` feature) uses besides.
pub const BINARY: Needs = Needs {
    types: &[
        "CacheMode",
        "CacheSetModeParams",
        "CacheSetModeResult",
        "CallParams",
        "CallPromptParams",
        "CallPromptResult",
        "CassetteMode",
        "CassetteSetModeParams",
        "CassetteSetModeResult",
        "InitializeResult",
        "ListResourcesResult",
        "ListToolsResult",
        "McpEra",
        "McpObject",
        "ReadResourceParams",
        "ReadResourceResult",
        "ReporterFlushResult",
        "ReporterSetUploadParams",
        "ReporterStatus",
        "ShutdownResult",
        "SuccessResponse",
        "ToolCallPassthrough",
        "Verdict",
    ],
    error_codes: &["InternalError", "UpstreamError", "UpstreamConnectionDropped"],
    methods: &[
        "coprocess/handshake",
        "mcp.initialize",
        "mcp.call",
        "mcp.listTools",
        "mcp.listResources",
        "mcp.readResource",
        "mcp.callPrompt",
        "mcp.reporter.setUpload",
        "mcp.reporter.flush",
        "mcp.cache.set_mode",
        "mcp.cassette.set_mode",
        "mcp.shutdown",
    ],
    messages: &["answer_too_long"],
};

/// Names of the contract, by the table that holds them.
pub struct Needs {
    pub types: &'static [&'static str],
    pub error_codes: &'static [&'static str],
    pub methods: &'static [&'static str],
    pub messages: &'static [&'static str],
}

/// What `contract` lacks of what the library (and, with `binary`, the
/// binary) names, as one paragraph with the fix; `None` when it has it all.
pub fn missing(contract: &codegen::model::Contract, binary: bool) -> Option<String> {
    let wanted: &[(&Needs, &str)] = if binary { &[(&LIBRARY, "the library"), (&BINARY, "the mcptest binary")] } else { &[(&LIBRARY, "the library")] };
    let mut lines = Vec::new();
    for (needs, who) in wanted {
        let absent = |names: &[&'static str], has: &dyn Fn(&str) -> bool| -> Vec<&'static str> { names.iter().copied().filter(|n| !has(n)).collect() };
        let tables: [(&str, Vec<&str>); 4] = [
            ("type (`$defs`)", absent(needs.types, &|n| contract.types.contains_key(n))),
            ("error code (`x-coprocess.error_codes`)", absent(needs.error_codes, &|n| contract.error_code(n).is_some())),
            ("method (`x-coprocess.methods`)", absent(needs.methods, &|n| contract.methods.iter().any(|m| m.name == n))),
            ("message (`x-coprocess.messages`)", absent(needs.messages, &|n| contract.messages.contains_key(n))),
        ];
        for (table, names) in tables.iter().filter(|(_, names)| !names.is_empty()) {
            let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            lines.push(format!("{who} needs the {table} {}", listed.join(", ")));
        }
    }
    if lines.is_empty() {
        return None;
    }
    Some(format!(
        "the contract lacks names the hand-written code in src/ uses:\n  {}\nadd them to the contract (as schemas/ipc/v2.json has them){}",
        lines.join("\n  "),
        if binary { ", or build the library alone (`default-features = false`) when only the binary's names are missing" } else { "" }
    ))
}
