//! Reading the schema's JSON with precise pointers: the helpers every part
//! of the front end ([`crate::load`], [`crate::subset`], [`crate::sdks`],
//! [`crate::annotations`], [`crate::examples`], [`crate::roles`]) reads its
//! table with. A leaf: it imports nothing of the crate but the error.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{push_pointer, SchemaError};

/// Small helpers to read the `x-coprocess` tables with precise pointers.
pub(crate) struct Reader<'a> {
    pub path: &'a Path,
}

impl<'a> Reader<'a> {
    pub fn err(&self, pointer: &str, problem: impl Into<String>, fix: impl Into<String>) -> SchemaError {
        SchemaError::new(self.path, pointer, problem, fix)
    }

    pub fn object<'v>(&self, value: &'v Value, pointer: &str) -> Result<&'v Map<String, Value>, SchemaError> {
        value.as_object().ok_or_else(|| self.err(pointer, "expected an object", "make it a JSON object"))
    }

    pub fn field<'v>(
        &self,
        object: &'v Map<String, Value>,
        key: &str,
        pointer: &str,
    ) -> Result<&'v Value, SchemaError> {
        object.get(key).ok_or_else(|| {
            self.err(pointer, format!("missing `{key}`"), format!("add `{key}` to this object"))
        })
    }

    pub fn string(&self, object: &Map<String, Value>, key: &str, pointer: &str) -> Result<String, SchemaError> {
        let value = self.field(object, key, pointer)?;
        match value.as_str() {
            Some(s) if !s.trim().is_empty() => Ok(s.to_string()),
            _ => Err(self.err(
                &push_pointer(pointer, key),
                format!("`{key}` must be a non-empty string"),
                "write it as a non-empty JSON string",
            )),
        }
    }

    pub fn integer(&self, object: &Map<String, Value>, key: &str, pointer: &str) -> Result<i64, SchemaError> {
        self.field(object, key, pointer)?.as_i64().ok_or_else(|| {
            self.err(&push_pointer(pointer, key), format!("`{key}` must be an integer"), "write it as a JSON integer")
        })
    }

    pub fn boolean(&self, object: &Map<String, Value>, key: &str, pointer: &str) -> Result<bool, SchemaError> {
        self.field(object, key, pointer)?.as_bool().ok_or_else(|| {
            self.err(&push_pointer(pointer, key), format!("`{key}` must be true or false"), "write it as a JSON boolean")
        })
    }

    pub fn array<'v>(&self, object: &'v Map<String, Value>, key: &str, pointer: &str) -> Result<&'v Vec<Value>, SchemaError> {
        self.field(object, key, pointer)?.as_array().ok_or_else(|| {
            self.err(&push_pointer(pointer, key), format!("`{key}` must be an array"), "write it as a JSON array")
        })
    }

    /// Rejects keys outside `allowed`.
    pub fn only_keys(&self, object: &Map<String, Value>, allowed: &[&str], pointer: &str) -> Result<(), SchemaError> {
        for key in object.keys() {
            if !allowed.contains(&key.as_str()) {
                return Err(self.err(
                    &push_pointer(pointer, key),
                    format!("unknown key `{key}`"),
                    format!("remove it; the keys allowed here are: {}", allowed.join(", ")),
                ));
            }
        }
        Ok(())
    }
}
