//! A method added to the table appears, typed, in every SDK's session client:
//! the minimal golden schema is generated with and without `mcp.fresh.doThing`
//! (params optional, a result type of its own), and each target's client must
//! gain that method spelled in its language's idiom with the params and result
//! types, while the handshake never becomes a method.

use std::path::Path;

use serde_json::{json, Value};

/// Per target: what its client holds for `mcp.fresh.doThing(EmptyParams?) -> HandshakeParams`.
/// Every target of `codegen::targets::TARGETS` must have a row.
const EXPECTED: &[(&str, &[&str])] = &[
    (
        "rust",
        &[
            "    pub fn fresh_do_thing(\n        &self,\n        params: Option<coprocess::EmptyParams>,\n        timeout: Option<Duration>,\n    ) -> Result<coprocess::HandshakeParams, ClientError> {\n",
            "coprocess::methods::MCP_FRESH_DO_THING",
        ],
    ),
    (
        "python",
        &[
            "    def fresh_do_thing(\n        self,\n        params: _coprocess.EmptyParams | None = None,\n",
            "    ) -> _coprocess.HandshakeParams:\n",
            "_coprocess.METHOD_MCP_FRESH_DO_THING,",
        ],
    ),
    (
        "typescript",
        &[
            "  freshDoThing(\n    params?: coprocess.EmptyParams,\n    options?: CallOptions,\n  ): Promise<coprocess.HandshakeParams> {\n",
            "  name: \"mcp.fresh.doThing\",\n",
        ],
    ),
    (
        "go",
        &["func (c *Client) FreshDoThing(ctx context.Context, params *EmptyParams) (HandshakeParams, error) {\n"],
    ),
    (
        "jvm",
        &[
            "    public Coprocess.HandshakeParams freshDoThing(Coprocess.EmptyParams params, Duration timeout) {\n",
            "    public Coprocess.HandshakeParams freshDoThing() {\n",
        ],
    ),
    (
        "dotnet",
        &[
            "        public Task<HandshakeParams> FreshDoThingAsync(EmptyParams? parameters = null, TimeSpan? timeout = null, CancellationToken cancellationToken = default)\n",
            "InvokeMethodAsync<EmptyParams, HandshakeParams>(Coprocess.Methods.McpFreshDoThing, parameters, CoprocessCodec<EmptyParams>.Get(), CoprocessCodec<HandshakeParams>.Get(), \"HandshakeParams\", timeout, cancellationToken)",
        ],
    ),
];

fn minimal_with(extra: &Value) -> codegen::Contract {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/minimal.json");
    let text = std::fs::read_to_string(&path).expect("the minimal schema is readable");
    let mut schema: Value = serde_json::from_str(&text).expect("the minimal schema is JSON");
    if let (Some(methods), Some(extra)) = (schema["x-coprocess"]["methods"].as_array_mut(), extra.as_array()) {
        methods.extend(extra.iter().cloned());
    }
    codegen::load::load_str(&schema.to_string(), &path, "minimal.json").map(|(c, _)| c).expect("the schema loads")
}

/// Every file one target generates, joined (the client may be a file of its own).
fn all_text(contract: &codegen::Contract, target: &str) -> String {
    let files = codegen::targets::generate_target(contract, target).expect("the target renders");
    files.into_values().collect::<Vec<_>>().join("\n")
}

#[test]
fn a_method_added_to_the_table_appears_typed_in_every_client() {
    let fresh = json!([{
        "name": "mcp.fresh.doThing",
        "params": "#/$defs/EmptyParams",
        "params_required": false,
        "result": "#/$defs/HandshakeParams",
        "description": "A method the table gained."
    }]);
    let (before, after) = (minimal_with(&json!([])), minimal_with(&fresh));
    let mut problems = Vec::new();
    for target in codegen::targets::TARGETS {
        let Some((_, expected)) = EXPECTED.iter().find(|(t, _)| t == target) else {
            problems.push(format!("{target}: no row in EXPECTED (every target has a client)"));
            continue;
        };
        let (old, new) = (all_text(&before, target), all_text(&after, target));
        for needle in *expected {
            if old.contains(needle) {
                problems.push(format!("{target}: {needle:?} is there before the method is added"));
            }
            if !new.contains(needle) {
                problems.push(format!("{target}: {needle:?} is missing after the method is added"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
