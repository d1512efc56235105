//! The cassette (`mcp.cassette.set_mode`): `record` writes every upstream MCP
//! exchange (the connection's opening `server/discover` or `initialize`, then
//! each request with its result or error) to the cassette file as JSON lines,
//! starting the file afresh; `replay` answers from that file without starting
//! the server under test, matching on method and params (repeated identical
//! requests get the recorded answers in order, then the last one again);
//! `off` talks to the server as usual.

use std::io::Write;

use mcptest_coprocess::envelope::invalid_params;
use mcptest_coprocess::frames::{CassetteMode, CassetteSetModeParams, CassetteSetModeResult, ErrorObject, McpEra};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::failure::Failure;
use crate::upstream::{Connected, Exchange, INITIALIZE, SERVER_DISCOVER};

/// One recorded exchange: a line of the cassette file.
#[derive(Serialize, Deserialize, Clone)]
struct Entry {
    method: String,
    params: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
}

pub struct Cassette {
    mode: CassetteMode,
    path: Option<String>,
    recording: Option<std::fs::File>,
    connection_recorded: bool,
    tape: Vec<(Entry, bool)>,
}

impl Cassette {
    pub fn new() -> Self {
        Self { mode: CassetteMode::Off, path: None, recording: None, connection_recorded: false, tape: Vec::new() }
    }

    pub fn replaying(&self) -> bool {
        self.mode == CassetteMode::Replay
    }

    pub fn set_mode(&mut self, params: CassetteSetModeParams) -> Result<CassetteSetModeResult, ErrorObject> {
        let previous_mode = self.mode;
        let path = match (params.mode, params.path) {
            (CassetteMode::Off, _) => None,
            (_, None) => return Err(invalid_params(&format!("`path` is required for cassette mode `{}`", params.mode))),
            (_, Some(path)) => Some(path),
        };
        self.recording = None;
        self.tape.clear();
        if let (CassetteMode::Record, Some(path)) = (params.mode, &path) {
            let file = std::fs::File::create(path).map_err(|e| invalid_params(&format!("`path` {path:?} cannot be written: {e}")))?;
            self.recording = Some(file);
            self.connection_recorded = false;
        }
        if let (CassetteMode::Replay, Some(path)) = (params.mode, &path) {
            self.tape = load(path)?.into_iter().map(|entry| (entry, false)).collect();
        }
        self.mode = params.mode;
        self.path = path.clone();
        Ok(CassetteSetModeResult { mode: self.mode, previous_mode, path })
    }

    fn write(&mut self, entry: Entry) {
        let Some(file) = self.recording.as_mut() else { return };
        let mut line = serde_json::to_string(&entry).unwrap_or_default();
        line.push('\n');
        if let Err(e) = file.write_all(line.as_bytes()) {
            eprintln!("mcptest: cannot write the cassette {:?}: {e}", self.path);
        }
    }

    /// Records the connection's opening exchange, once per recording.
    pub fn record_connection(&mut self, connected: &Connected) {
        if self.recording.is_some() && !self.connection_recorded {
            self.connection_recorded = true;
            let method = match connected.era {
                McpEra::Modern => SERVER_DISCOVER,
                McpEra::Legacy => INITIALIZE,
            };
            self.write(Entry { method: method.into(), params: Value::Object(Default::default()), result: Some(connected.info.clone()), error: None });
        }
    }

    /// Records a request and what came back (a result or the server's error;
    /// timeouts and drops are not exchanges and are not recorded).
    pub fn record(&mut self, exchange: &Exchange, answer: &Result<Value, Failure>) {
        let (result, error) = match answer {
            Ok(result) => (Some(result.clone()), None),
            Err(Failure::Server { error, .. }) => (None, Some(error.clone())),
            Err(_) => return,
        };
        self.write(Entry { method: exchange.method.into(), params: exchange.params.clone(), result, error });
    }

    fn not_recorded(&self, method: &str) -> Failure {
        Failure::NotRecorded { method: method.into(), cassette: self.path.clone().unwrap_or_default() }
    }

    /// The recorded connection.
    pub fn replay_connection(&self) -> Result<Connected, Failure> {
        self.tape
            .iter()
            .find_map(|(entry, _)| {
                let era = match entry.method.as_str() {
                    SERVER_DISCOVER => McpEra::Modern,
                    INITIALIZE => McpEra::Legacy,
                    _ => return None,
                };
                Some(Connected { era, info: entry.result.clone()? })
            })
            .ok_or_else(|| self.not_recorded(INITIALIZE))
    }

    /// The recorded answer to this request: the first not yet replayed, else the last.
    pub fn replay(&mut self, exchange: &Exchange) -> Result<Value, Failure> {
        let matching: Vec<usize> = (0..self.tape.len())
            .filter(|&i| self.tape[i].0.method == exchange.method && self.tape[i].0.params == exchange.params)
            .collect();
        let Some(&chosen) = matching.iter().find(|&&i| !self.tape[i].1).or(matching.last()) else {
            return Err(self.not_recorded(exchange.method));
        };
        self.tape[chosen].1 = true;
        let entry = &self.tape[chosen].0;
        match (&entry.result, &entry.error) {
            (Some(result), _) => Ok(result.clone()),
            (None, Some(error)) => Err(Failure::Server { method: exchange.method.into(), error: error.clone() }),
            (None, None) => Err(self.not_recorded(exchange.method)),
        }
    }
}

fn load(path: &str) -> Result<Vec<Entry>, ErrorObject> {
    let text = std::fs::read_to_string(path).map_err(|e| invalid_params(&format!("`path` {path:?} cannot be read: {e}")))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            serde_json::from_str(line).map_err(|e| invalid_params(&format!("`path` {path:?} is not a cassette: line {}: {e}", n + 1)))
        })
        .collect()
}
