//! Where an MCP request goes: the cassette in replay, else the server under
//! test (with the cassette recording the exchange when in record mode).

use std::time::Duration;

use serde_json::Value;

use crate::cassette::Cassette;
use crate::failure::Failure;
use crate::upstream::{Connected, Exchange, Upstream};

pub struct Backend {
    pub upstream: Upstream,
    pub cassette: Cassette,
}

impl Backend {
    pub async fn connect(&mut self, timeout: Duration) -> Result<Connected, Failure> {
        if self.cassette.replaying() {
            return self.cassette.replay_connection();
        }
        let connected = self.upstream.connect(timeout).await?;
        self.cassette.record_connection(&connected);
        Ok(connected)
    }

    pub async fn request(&mut self, exchange: &Exchange, timeout: Duration) -> Result<Value, Failure> {
        if self.cassette.replaying() {
            return self.cassette.replay(exchange);
        }
        self.connect(timeout).await?;
        let answer = self.upstream.request(exchange, timeout).await;
        self.cassette.record(exchange, &answer);
        answer
    }
}
