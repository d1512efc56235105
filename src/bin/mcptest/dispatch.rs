//! One checked request in, its result or error out: the method table's
//! handlers. Forwarded methods go through the backend (server or cassette).

use std::time::{Duration, Instant};

use mcptest_coprocess::envelope::CheckedRequest;
use mcptest_coprocess::frames::{
    error_codes, methods, CallParams, CallPromptParams, CacheSetModeParams, CassetteSetModeParams, ErrorObject,
    HandshakeParams, ListResourcesResult, ListToolsResult, McpObject, ReadResourceParams, ReporterSetUploadParams,
    ShutdownResult,
};
use mcptest_coprocess::handshake::answer_handshake;
use serde_json::{json, Map, Value};

use crate::backend::Backend;
use crate::cache::{self, Cache};
use crate::call;
use crate::cassette::Cassette;
use crate::cli::Config;
use crate::failure::Failure;
use crate::forward;
use crate::reporter::Reporter;
use crate::upstream::{Exchange, Upstream, PROMPTS_GET, RESOURCES_LIST, RESOURCES_READ, TOOLS_CALL, TOOLS_LIST};

pub struct Session {
    timeout: Duration,
    backend: Backend,
    cache: Cache,
    reporter: Reporter,
}

fn result<T: serde::Serialize>(value: T) -> Result<Value, ErrorObject> {
    serde_json::to_value(value).map_err(|e| ErrorObject { code: error_codes::INTERNAL_ERROR, message: format!("cannot encode the result: {e}"), data: None })
}

fn upstream(failure: Failure) -> ErrorObject {
    failure.to_error()
}

impl Session {
    pub fn new(config: Config) -> Self {
        let backend = Backend { upstream: Upstream::new(config.server_argv), cassette: Cassette::new() };
        Self { timeout: config.timeout, backend, cache: Cache::new(), reporter: Reporter::default() }
    }

    pub async fn handle(&mut self, request: &CheckedRequest) -> Result<Value, ErrorObject> {
        match request.method.name {
            methods::COPROCESS_HANDSHAKE => result(answer_handshake(&request.params::<HandshakeParams>()?, env!("CARGO_PKG_VERSION"))?),
            methods::MCP_INITIALIZE => {
                let connected = self.backend.connect(self.timeout).await.map_err(upstream)?;
                result(forward::initialize_result(&connected).map_err(upstream)?)
            }
            methods::MCP_CALL => self.call(request.params()?).await,
            methods::MCP_LIST_TOOLS => result(ListToolsResult { tools: self.list_all(TOOLS_LIST, "tools").await? }),
            methods::MCP_LIST_RESOURCES => result(ListResourcesResult { resources: self.list_all(RESOURCES_LIST, "resources").await? }),
            methods::MCP_READ_RESOURCE => {
                let params: ReadResourceParams = request.params()?;
                let answer = self.forward(RESOURCES_READ, json!({ "uri": params.uri })).await?;
                result(forward::read_resource_result(&answer).map_err(upstream)?)
            }
            methods::MCP_CALL_PROMPT => {
                let params: CallPromptParams = request.params()?;
                let mut mcp = json!({ "name": params.name });
                if let Some(arguments) = params.arguments {
                    mcp["arguments"] = json!(arguments.0);
                }
                let answer = self.forward(PROMPTS_GET, mcp).await?;
                result(forward::call_prompt_result(&answer).map_err(upstream)?)
            }
            methods::MCP_REPORTER_SET_UPLOAD => result(self.reporter.set_upload(request.params::<ReporterSetUploadParams>()?)?),
            methods::MCP_REPORTER_FLUSH => result(self.reporter.flush()?),
            methods::MCP_CACHE_SET_MODE => result(self.cache.set_mode(request.params::<CacheSetModeParams>()?.mode)),
            methods::MCP_CASSETTE_SET_MODE => result(self.backend.cassette.set_mode(request.params::<CassetteSetModeParams>()?)?),
            methods::MCP_SHUTDOWN => {
                self.close().await;
                result(ShutdownResult {})
            }
            other => Err(ErrorObject { code: error_codes::INTERNAL_ERROR, message: format!("no handler for `{other}`"), data: None }),
        }
    }

    /// Closes the server under test.
    pub async fn close(&mut self) {
        self.backend.upstream.close().await;
    }

    async fn forward(&mut self, method: &'static str, params: Value) -> Result<Value, ErrorObject> {
        self.backend.request(&Exchange { method, params }, self.timeout).await.map_err(upstream)
    }

    /// Every page of a paginated list, following `nextCursor` (a repeated cursor ends it).
    async fn list_all(&mut self, method: &'static str, key: &str) -> Result<Vec<McpObject>, ErrorObject> {
        let mut items = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut params = json!({});
        loop {
            let page = self.forward(method, params).await?;
            items.extend(forward::objects(method, &page, key).map_err(upstream)?);
            match forward::next_cursor(&page) {
                Some(cursor) if seen.insert(cursor.clone()) => params = json!({ "cursor": cursor }),
                _ => return Ok(items),
            }
        }
    }

    /// `mcp.call`: from the cache when it holds the call, else from the server;
    /// `duration_ms` covers the `tools/call` exchange (not starting the server).
    async fn call(&mut self, params: CallParams) -> Result<Value, ErrorObject> {
        let timeout = params.timeout_ms.map_or(self.timeout, |ms| Duration::from_millis(ms.get()));
        let arguments = params.arguments.map(|a| a.0);
        let key = cache::key(&params.tool, &Value::Object(arguments.clone().unwrap_or_default()));
        let (answer, started) = match self.cache.lookup(&key) {
            Some(stored) => (stored.clone(), Instant::now()),
            None => {
                self.backend.connect(self.timeout.max(timeout)).await.map_err(upstream)?;
                let mut mcp = Map::new();
                mcp.insert("name".into(), Value::String(params.tool.clone()));
                if let Some(arguments) = arguments {
                    mcp.insert("arguments".into(), Value::Object(arguments));
                }
                let started = Instant::now();
                let exchange = Exchange { method: TOOLS_CALL, params: Value::Object(mcp) };
                let answer = self.backend.request(&exchange, timeout).await.map_err(upstream)?;
                self.cache.store(key, &answer);
                (answer, started)
            }
        };
        let verdict = call::verdict(&answer, started.elapsed().as_millis() as u64);
        self.reporter.keep(&verdict);
        if params.passthrough == Some(true) {
            return result(call::passthrough(&answer).map_err(upstream)?);
        }
        result(verdict)
    }
}
