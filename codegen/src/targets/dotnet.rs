//! The dotnet target (not yet written).

use crate::model::Contract;
use crate::targets::Files;

pub fn generate(_contract: &Contract) -> Files {
    Files::new()
}
