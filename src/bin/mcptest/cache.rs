//! The result cache of `mcp.call` (`mcp.cache.set_mode`): `off` always calls
//! the server; `read_write` answers an identical call (same tool, same
//! arguments, key order aside) from the stored result and stores new results;
//! `refresh` always calls the server and stores the new result. It lives in
//! memory for the life of the process; only results the tool did not flag as
//! errors (`isError` false) are stored, so a failure is always retried.

use std::collections::HashMap;

use mcptest_coprocess::frames::{CacheMode, CacheSetModeResult};
use serde_json::Value;

pub struct Cache {
    mode: CacheMode,
    stored: HashMap<String, Value>,
}

/// The cache key: the tool and its arguments with object keys sorted.
pub fn key(tool: &str, arguments: &Value) -> String {
    fn canonical(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), canonical(v))).collect())
            }
            Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
            other => other.clone(),
        }
    }
    format!("{tool}\n{}", canonical(arguments))
}

impl Cache {
    pub fn new() -> Self {
        Self { mode: CacheMode::Off, stored: HashMap::new() }
    }

    pub fn set_mode(&mut self, mode: CacheMode) -> CacheSetModeResult {
        let previous_mode = std::mem::replace(&mut self.mode, mode);
        CacheSetModeResult { mode, previous_mode, entries: self.stored.len() as u64 }
    }

    /// The stored result for this key, when the mode reads the cache.
    pub fn lookup(&self, key: &str) -> Option<&Value> {
        match self.mode {
            CacheMode::ReadWrite => self.stored.get(key),
            CacheMode::Off | CacheMode::Refresh => None,
        }
    }

    /// Stores a fresh upstream result, when the mode writes the cache.
    pub fn store(&mut self, key: String, result: &Value) {
        let tool_error = result.get("isError").and_then(Value::as_bool).unwrap_or(false);
        if self.mode != CacheMode::Off && !tool_error {
            self.stored.insert(key, result.clone());
        }
    }
}
