/// Why an SDK must not go on after the handshake: the contract's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandshakeFailure {
    /// The fail-fast message, worded as the contract's templates say.
    pub message: ::std::string::String,
}
impl ::std::fmt::Display for HandshakeFailure {
    fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
        f.write_str(&self.message)
    }
}
impl ::std::error::Error for HandshakeFailure {}
/// The `RoleHandshakeMethod` request frame, one line.
#[must_use]
pub fn handshake_request(
    id: RoleRequestId,
    sdk: ::std::option::Option<&str>,
    sdk_version: ::std::option::Option<&str>,
) -> ::std::string::String {
    let mut params = ::serde_json::Map::new();
    params.insert("protocol_version".into(), COPROCESS_PROTOCOL_VERSION.into());
    if let Some(sdk) = sdk {
        params.insert("sdk".into(), sdk.into());
    }
    if let Some(v) = sdk_version {
        params.insert("sdk_version".into(), v.into());
    }
    let request = RoleRequest {
        jsonrpc: RoleJsonRpcVersion::default(),
        id,
        method: methods::ROLE_HANDSHAKE_METHOD.to_string(),
        params: Some(RoleRequestParams(params)),
    };
    request.encode()
}
/// The advice of a mismatch: upgrade whichever side speaks the older version.
#[must_use]
pub fn upgrade_advice(binary_protocol: i64, sdk_protocol: i64) -> &'static str {
    if binary_protocol < sdk_protocol {
        messages::UPGRADE_BINARY
    } else {
        messages::UPGRADE_SDK
    }
}
/// Checks the binary's answer to the handshake; any failure carries the
/// contract's exact message, and the SDK must stop before test traffic.
///
/// # Errors
///
/// A [`HandshakeFailure`] with the contract's message when the answer is not
/// a handshake result of this version.
pub fn check_handshake_response(
    text: &str,
) -> ::std::result::Result<RoleHandshakeResult, HandshakeFailure> {
    let fail = |message: ::std::string::String| HandshakeFailure { message };
    let response = RoleResponse::decode(text).map_err(|e| fail(e.to_string()))?;
    let sdk_mismatch = |binary: i64| {
        fail(messages::render_sdk_mismatch(
            &binary.to_string(),
            &COPROCESS_PROTOCOL_VERSION.to_string(),
            upgrade_advice(binary, COPROCESS_PROTOCOL_VERSION),
        ))
    };
    match response {
        RoleResponse::RoleSuccessResponse(success) => {
            let result =
                RoleHandshakeResult::from_value(success.result).map_err(|e| fail(e.to_string()))?;
            if result.protocol_version == COPROCESS_PROTOCOL_VERSION {
                Ok(result)
            } else {
                Err(sdk_mismatch(result.protocol_version))
            }
        }
        RoleResponse::RoleErrorResponse(error) => {
            let error = error.error;
            let mismatch_prefix = messages::BINARY_MISMATCH
                .split('{')
                .next()
                .unwrap_or_default();
            if error.code == error_codes::METHOD_NOT_FOUND {
                Err(sdk_mismatch(1))
            } else if error.code == error_codes::INVALID_PARAMS
                && error.message.starts_with(mismatch_prefix)
            {
                Err(fail(error.message))
            } else {
                Err(fail(messages::render_handshake_failed(
                    &error.code.to_string(),
                    &error.message,
                )))
            }
        }
    }
}
/// The binary's side: the -32602 message for a handshake with another version.
#[must_use]
pub fn binary_mismatch_message(
    sdk: ::std::option::Option<&str>,
    sdk_protocol: i64,
) -> ::std::string::String {
    let peer = match sdk {
        Some(name) => format!("{name} SDK"),
        None => "SDK".to_string(),
    };
    messages::render_binary_mismatch(
        &COPROCESS_PROTOCOL_VERSION.to_string(),
        &peer,
        &sdk_protocol.to_string(),
        upgrade_advice(COPROCESS_PROTOCOL_VERSION, sdk_protocol),
    )
}
/// The shared skip message for an undrivable lane, naming the CLI command
/// that runs it with `<suite>` replaced by `suite`; `None` for a lane the
/// SDK drives itself or does not know.
#[must_use]
pub fn lane_cli_hint(lane: &str, suite: &str) -> ::std::option::Option<::std::string::String> {
    let row = LANES.iter().find(|l| l.key == lane && !l.drivable)?;
    Some(messages::render_lane_skip(
        row.key,
        &row.runs_via.replace("<suite>", suite),
    ))
}
