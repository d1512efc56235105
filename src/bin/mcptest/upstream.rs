//! The MCP client side: the server under test over stdio, through the official
//! Rust SDK (`rmcp`). The first connection probes the era (`server/discover`
//! with `_meta` first, `initialize` + `notifications/initialized` on a
//! non-modern error or a timeout: rmcp's `ClientLifecycleMode::Auto`); the era
//! found is remembered for the life of the process, so a restart after a
//! dropped connection goes straight to it. Unsolicited notifications are
//! handled by rmcp's client loop.

use std::process::Stdio;
use std::time::Duration;

use mcptest_coprocess::frames::McpEra;
use rmcp::model::{ClientConfig, Implementation, ProtocolVersion};
use rmcp::service::{Peer, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::Value;

use crate::failure::{self, Failure};

/// One MCP request to the server under test: its method and params (without
/// `_meta`, which rmcp adds in the modern era). Also the cassette's key.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    pub method: &'static str,
    pub params: Value,
}

pub const TOOLS_LIST: &str = "tools/list";
pub const TOOLS_CALL: &str = "tools/call";
pub const RESOURCES_LIST: &str = "resources/list";
pub const RESOURCES_READ: &str = "resources/read";
pub const PROMPTS_GET: &str = "prompts/get";
/// The connection itself, as a cassette records it: the era's opening request.
pub const SERVER_DISCOVER: &str = "server/discover";
pub const INITIALIZE: &str = "initialize";

/// What the server said about itself when the connection opened.
#[derive(Debug, Clone)]
pub struct Connected {
    pub era: McpEra,
    /// rmcp's `ServerPeerInfo`, as JSON (`protocolVersion`, `capabilities`, `serverInfo`, `instructions`).
    pub info: Value,
}

/// The server under test: started on first use, restarted after a drop.
pub struct Upstream {
    argv: Vec<String>,
    era: Option<McpEra>,
    live: Option<(RunningService<RoleClient, ClientConfig>, Connected)>,
}

impl Upstream {
    pub fn new(argv: Vec<String>) -> Self {
        Self { argv, era: None, live: None }
    }

    /// Connects unless connected; reports what the server said about itself.
    pub async fn connect(&mut self, timeout: Duration) -> Result<Connected, Failure> {
        if let Some((service, connected)) = &self.live {
            if !service.is_transport_closed() {
                return Ok(connected.clone());
            }
            self.live = None;
        }
        let service = match tokio::time::timeout(timeout, self.start()).await {
            Ok(result) => result?,
            Err(_) => return Err(Failure::Start { reason: format!("no handshake within {} ms", timeout.as_millis()) }),
        };
        let info = service.peer().peer_info().ok_or_else(|| Failure::Start { reason: "the handshake left no server info".into() })?;
        let era = if info.protocol_version.has_initialize() { McpEra::Legacy } else { McpEra::Modern };
        self.era = Some(era);
        let connected = Connected { era, info: serde_json::to_value(&*info).unwrap_or(Value::Null) };
        eprintln!("mcptest: connected to {:?} ({era} era, MCP {})", self.argv[0], info.protocol_version);
        self.live = Some((service, connected.clone()));
        Ok(connected)
    }

    async fn start(&self) -> Result<RunningService<RoleClient, ClientConfig>, Failure> {
        let mut command = tokio::process::Command::new(&self.argv[0]);
        command.args(&self.argv[1..]).kill_on_drop(true);
        let (transport, _) = TokioChildProcess::builder(command)
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Failure::Start { reason: format!("cannot spawn {:?}: {e}", self.argv[0]) })?;
        let (client, lifecycle) = lifecycle(self.era);
        client.serve_with_lifecycle(transport, lifecycle).await.map_err(|e| Failure::Start { reason: e.to_string() })
    }

    /// Sends one request (connecting first if needed) and waits up to `timeout`.
    /// A dropped connection is forgotten, so the next request starts the server again.
    pub async fn request(&mut self, exchange: &Exchange, timeout: Duration) -> Result<Value, Failure> {
        self.connect(timeout).await?;
        let Some((service, _)) = &self.live else {
            return Err(Failure::Start { reason: "not connected".into() });
        };
        let answer = match tokio::time::timeout(timeout, send(service.peer(), exchange)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(SendError::Service(e))) => Err(failure::from_service_error(exchange.method, e, timeout)),
            Ok(Err(SendError::Shape(reason))) => Err(Failure::Other { method: exchange.method.into(), reason }),
            Err(_) => Err(Failure::Timeout { method: exchange.method.into(), after: timeout }),
        };
        if matches!(&answer, Err(f) if f.is_dropped()) {
            self.live = None;
        }
        answer
    }

    /// Closes the server under test (rmcp closes its stdin, then SIGTERM, then kills).
    pub async fn close(&mut self) {
        if let Some((service, _)) = self.live.take() {
            let _ = service.cancel().await;
        }
    }
}

fn lifecycle(era: Option<McpEra>) -> (ClientConfig, ClientLifecycleMode) {
    let mut client = ClientConfig::default();
    client.client_info = Implementation::new("mcptest", env!("CARGO_PKG_VERSION"));
    match era {
        None => (
            client,
            ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::LATEST],
                legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
            },
        ),
        Some(McpEra::Modern) => (client, ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::LATEST] }),
        Some(McpEra::Legacy) => {
            client.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
            (client, ClientLifecycleMode::Initialize)
        }
    }
}

enum SendError {
    Service(rmcp::ServiceError),
    Shape(String),
}

impl From<rmcp::ServiceError> for SendError {
    fn from(e: rmcp::ServiceError) -> Self {
        SendError::Service(e)
    }
}

fn params<T: serde::de::DeserializeOwned>(exchange: &Exchange) -> Result<T, SendError> {
    serde_json::from_value(exchange.params.clone()).map_err(|e| SendError::Shape(format!("bad {} params: {e}", exchange.method)))
}

fn answer<T: serde::Serialize>(result: T) -> Result<Value, SendError> {
    serde_json::to_value(result).map_err(|e| SendError::Shape(e.to_string()))
}

async fn send(peer: &Peer<RoleClient>, exchange: &Exchange) -> Result<Value, SendError> {
    match exchange.method {
        TOOLS_CALL => answer(peer.call_tool(params(exchange)?).await?),
        TOOLS_LIST => answer(peer.list_tools(Some(params(exchange)?)).await?),
        RESOURCES_LIST => answer(peer.list_resources(Some(params(exchange)?)).await?),
        RESOURCES_READ => answer(peer.read_resource(params(exchange)?).await?),
        PROMPTS_GET => answer(peer.get_prompt(params(exchange)?).await?),
        other => Err(SendError::Shape(format!("no MCP request {other}"))),
    }
}
