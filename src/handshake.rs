//! The handshake, both sides, with the contract's exact messages.
//!
//! The binary tolerates a missing handshake (a v1 SDK never sends one) and
//! answers a handshake with another version with -32602 naming both versions
//! and the side to upgrade. The SDK fails fast on a mismatch, or on -32601
//! from a v1 binary, with the upgrade message.

use crate::frames::{self, error_codes, ErrorObject, HandshakeParams, HandshakeResult};

pub use crate::frames::{check_handshake_response, handshake_request, HandshakeFailure};

/// The binary's answer to `coprocess/handshake`: the result when the versions
/// match, else the -32602 error whose message names both versions.
pub fn answer_handshake(params: &HandshakeParams, binary_version: &str) -> Result<HandshakeResult, ErrorObject> {
    if params.protocol_version == crate::PROTOCOL_VERSION {
        return Ok(HandshakeResult {
            protocol_version: crate::PROTOCOL_VERSION,
            binary_version: binary_version.to_string(),
        });
    }
    Err(ErrorObject {
        code: error_codes::INVALID_PARAMS,
        message: frames::binary_mismatch_message(params.sdk.as_deref(), params.protocol_version),
        data: None,
    })
}
