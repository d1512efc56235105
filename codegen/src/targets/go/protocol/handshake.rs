//! `HandshakeRequest` and `CheckHandshakeResponse`.
//!
//! Every type and the method come from the contract's roles: the request
//! and response envelopes, the error object and the handshake method with
//! its params and result (`contract.roles`, checked by the loader). The only
//! fixed names are the JSON-RPC / handshake member names the roles document
//! (`id`, `method`, `params`, `result`, `error`, `code`, `message`,
//! `protocol_version`) and the optional `sdk`, `sdk_version` of the params.
//! Everything else (field types, the version literal, codes, wording) comes
//! from the model.

use std::fmt::Write as _;

use crate::model::{Field, Segment, Ty, TypeKind};
use crate::SchemaError;

use super::super::names::string_lit;
use super::super::Ctx;

impl Ctx<'_> {
    /// `target = value`, taking the address when the field is an optional pointer.
    fn assign(&self, field: &Field, target: &str, value: &str) -> String {
        if !field.required && self.optional_needs_pointer(&field.ty) {
            format!("\t{target}.{} = &{value}", self.field_name(field))
        } else {
            format!("\t{target}.{} = {value}", self.field_name(field))
        }
    }

    pub fn handshake(&mut self, out: &mut String) -> Result<(), SchemaError> {
        self.handshake_request(out)?;
        self.check_handshake_response(out)
    }

    fn handshake_request(&mut self, out: &mut String) -> Result<(), SchemaError> {
        let contract = self.contract;
        let roles = &contract.roles;
        let (request, params) = (roles.request.as_str(), roles.handshake.params.as_str());
        let id = self.role_field(request, "id", "request envelope")?;
        let (id_ty, request_ty, params_ty) = (self.go_ty(&id.ty), self.type_name(request), self.type_name(params));
        let method = &roles.handshake.method;
        line!(out, "\n// HandshakeRequest returns the {method} {request_ty} frame (one line, no");
        line!(out, "// newline) announcing CoprocessProtocolVersion, naming this SDK as sdk at sdkVersion.");
        line!(out, "func HandshakeRequest(id {id_ty}, sdk, sdkVersion string) string {{\n\tvar params {params_ty}");
        for field in &self.role_object(params, "handshake's params")?.fields {
            let value = match (field.name.as_str(), &field.ty) {
                ("protocol_version", Ty::Integer { .. }) => "int64(CoprocessProtocolVersion)",
                ("sdk", Ty::String) => "sdk",
                ("sdk_version", Ty::String) => "sdkVersion",
                _ => continue,
            };
            let pointer = !field.required && self.optional_needs_pointer(&field.ty);
            if pointer && value.contains('(') {
                line!(out, "\tversion := {value}\n{}", self.assign(field, "params", "version"));
            } else {
                line!(out, "{}", self.assign(field, "params", value));
            }
        }
        line!(out, "\tvar request {request_ty}");
        for field in &self.role_object(request, "request envelope")?.fields {
            self.request_member(out, field);
        }
        line!(out, "\treturn string(append{request_ty}(nil, request))\n}}");
        Ok(())
    }

    fn request_member(&mut self, out: &mut String, field: &Field) {
        let single_enum = match &field.ty {
            Ty::Ref(name) => match &self.contract.type_def(name).map(|d| &d.kind) {
                Some(TypeKind::StringEnum(values)) if values.len() == 1 => Some(self.enum_consts(name, values).remove(0).0),
                _ => None,
            },
            _ => None,
        };
        let contract = self.contract;
        let method = self.method_const(&contract.roles.handshake.method);
        match (field.name.as_str(), single_enum) {
            (_, Some(constant)) => line!(out, "{}", self.assign(field, "request", &constant)),
            ("id", _) => line!(out, "{}", self.assign(field, "request", "id")),
            ("method", _) => line!(out, "{}", self.assign(field, "request", &method)),
            ("params", _) => {
                let read = self.read_fn(&field.ty);
                let params = self.type_name(&contract.roles.handshake.params);
                line!(out, "\ttree, _ := parseStrict(append{params}(nil, params))\n\tencoded, _ := {read}(tree)");
                line!(out, "{}", self.assign(field, "request", "encoded"));
            }
            _ => {}
        }
    }

    fn check_handshake_response(&mut self, out: &mut String) -> Result<(), SchemaError> {
        let contract = self.contract;
        let roles = &contract.roles;
        let (ok_type, err_type, object, shake) = (&roles.success_response, &roles.error_response, &roles.error_object, &roles.handshake.result);
        let result = self.role_field(ok_type, "result", "success response")?;
        let error = self.role_field(err_type, "error", "error response")?;
        let version = self.role_field(shake, "protocol_version", "handshake's result")?;
        let code = self.role_field(object, "code", "error object")?;
        let message = self.role_field(object, "message", "error object")?;
        let write_result = self.write_fn(&result.ty);
        let (ok_name, err_name, shake_name) = (self.type_name(ok_type), self.type_name(err_type), self.type_name(shake));
        line!(out, "\n// CheckHandshakeResponse checks the binary's answer to HandshakeRequest: the");
        line!(out, "// {shake_name} when the binary speaks CoprocessProtocolVersion, else the");
        line!(out, "// fail-fast error with the contract's wording (or the decoder's message when");
        line!(out, "// the frame does not decode).");
        line!(out, "func CheckHandshakeResponse(data []byte) ({shake_name}, error) {{");
        line!(out, "\tresponse, err := Decode{}(data)\n\tif err != nil {{\n\t\treturn {shake_name}{{}}, err\n\t}}", self.type_name(&roles.response));
        line!(out, "\tif success := response.{ok_name}; success != nil {{");
        line!(out, "\t\tresult, err := Decode{shake_name}({write_result}(nil, success.{}))", self.field_name(result));
        line!(out, "\t\tif err != nil {{\n\t\t\treturn {shake_name}{{}}, err\n\t\t}}");
        let version_name = self.field_name(version);
        line!(out, "\t\tif result.{version_name} != CoprocessProtocolVersion {{");
        line!(out, "\t\t\treturn {shake_name}{{}}, sdkMismatch(result.{version_name})\n\t\t}}\n\t\treturn result, nil\n\t}}");
        line!(out, "\tif failure := response.{err_name}; failure != nil {{");
        line!(
            out,
            "\t\treturn {shake_name}{{}}, handshakeFailure(failure.{}.{}, failure.{}.{})\n\t}}",
            self.field_name(error),
            self.field_name(code),
            self.field_name(error),
            self.field_name(message)
        );
        let neither = format!("{}: neither `result` nor `error`", roles.response);
        line!(out, "\treturn {shake_name}{{}}, errors.New({})\n}}", string_lit(&neither));
        self.handshake_messages(out);
        Ok(())
    }

    fn handshake_messages(&self, out: &mut String) {
        let c = self.contract;
        let mismatch_prefix = c.messages.get("binary_mismatch").map(|m| m.segments()).and_then(|s| match s.first() {
            Some(Segment::Text(text)) => Some(text.clone()),
            _ => None,
        });
        line!(out, "\n// sdkMismatch is the sdk_mismatch error for a binary speaking binaryProtocol.");
        line!(out, "func sdkMismatch(binaryProtocol int64) error {{\n\tadvice := {}", self.message_const("upgrade_sdk"));
        line!(out, "\tif binaryProtocol < CoprocessProtocolVersion {{\n\t\tadvice = {}\n\t}}", self.message_const("upgrade_binary"));
        line!(out, "\treturn errors.New(fillTemplate({},", self.message_const("sdk_mismatch"));
        line!(out, "\t\t\"binary_protocol\", strconv.FormatInt(binaryProtocol, 10),");
        line!(out, "\t\t\"sdk_protocol\", strconv.Itoa(CoprocessProtocolVersion),\n\t\t\"advice\", advice))\n}}");
        line!(out, "\n// handshakeFailure is the fail-fast error for an error answer to the handshake.");
        line!(out, "func handshakeFailure(code int64, message string) error {{\n\tswitch {{");
        if let Some(name) = c.error_codes.iter().find(|e| e.name == "MethodNotFound").map(|e| &e.name) {
            line!(out, "\tcase code == {}:\n\t\treturn sdkMismatch(1)", self.code_const(name));
        }
        if let (Some(name), Some(prefix)) = (c.error_codes.iter().find(|e| e.name == "InvalidParams").map(|e| &e.name), mismatch_prefix) {
            line!(out, "\tcase code == {} && strings.HasPrefix(message, {}):", self.code_const(name), string_lit(&prefix));
            line!(out, "\t\treturn errors.New(message)");
        }
        line!(out, "\t}}\n\treturn errors.New(fillTemplate({},", self.message_const("handshake_failed"));
        line!(out, "\t\t\"code\", strconv.FormatInt(code, 10), \"message\", message))\n}}");
    }
}
