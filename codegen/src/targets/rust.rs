//! The Rust target (typify).

use crate::model::Contract;
use crate::targets::Files;

pub fn generate(_contract: &Contract) -> Result<Files, crate::SchemaError> {
    Ok(Files::new())
}
