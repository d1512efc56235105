//! `HandshakeRequest` and `CheckHandshakeResponse`.
//!
//! The only fixed names are the handshake types (`Request`, `Response`,
//! `HandshakeParams`, `HandshakeResult`, `ErrorObject`), the method
//! `coprocess/handshake` and the JSON-RPC / handshake member names the
//! contract documents (`id`, `method`, `params`, `result`, `error`, `code`,
//! `message`, `protocol_version`, `sdk`, `sdk_version`). Everything else
//! (field types, the version literal, codes, wording) comes from the model.
//! A schema without these shapes gets no handshake helpers.

use std::fmt::Write as _;

use crate::model::{Field, ObjectType, Segment, Ty, TypeKind};

use super::super::names::string_lit;
use super::super::Ctx;

const HANDSHAKE_METHOD: &str = "coprocess/handshake";

impl Ctx<'_> {
    fn object(&self, def: &str) -> Option<&ObjectType> {
        match &self.contract.type_def(def)?.kind {
            TypeKind::Object(object) => Some(object),
            _ => None,
        }
    }

    fn field_of(&self, def: &str, wire: &str) -> Option<&Field> {
        self.object(def)?.fields.iter().find(|f| f.name == wire)
    }

    /// The (variant type, field) of the Response variant whose discriminator is `wire`.
    fn response_variant(&self, wire: &str) -> Option<(String, &Field)> {
        let TypeKind::Union(variants) = &self.contract.type_def("Response")?.kind else { return None };
        let variant = variants.iter().find(|v| v.discriminator == wire)?;
        Some((variant.type_name.clone(), self.field_of(&variant.type_name, wire)?))
    }

    /// `target = value`, taking the address when the field is an optional pointer.
    fn assign(&self, field: &Field, target: &str, value: &str) -> String {
        if !field.required && self.optional_needs_pointer(&field.ty) {
            format!("\t{target}.{} = &{value}", self.field_name(field))
        } else {
            format!("\t{target}.{} = {value}", self.field_name(field))
        }
    }

    pub fn handshake(&mut self, out: &mut String) {
        let ok = ["Request", "HandshakeParams", "HandshakeResult", "ErrorObject"].iter().all(|d| self.object(d).is_some())
            && self.contract.methods.iter().any(|m| m.name == HANDSHAKE_METHOD);
        if !ok {
            return;
        }
        self.handshake_request(out);
        self.check_handshake_response(out);
    }

    fn handshake_request(&mut self, out: &mut String) {
        let Some(id) = self.field_of("Request", "id").cloned() else { return };
        let id_ty = self.go_ty(&id.ty);
        line!(out, "\n// HandshakeRequest returns the {HANDSHAKE_METHOD} Request frame (one line, no");
        line!(out, "// newline) announcing CoprocessProtocolVersion, naming this SDK as sdk at sdkVersion.");
        line!(out, "func HandshakeRequest(id {id_ty}, sdk, sdkVersion string) string {{\n\tvar params HandshakeParams");
        let params_fields = self.object("HandshakeParams").map(|o| o.fields.clone()).unwrap_or_default();
        for field in &params_fields {
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
        line!(out, "\tvar request Request");
        let request_fields = self.object("Request").map(|o| o.fields.clone()).unwrap_or_default();
        for field in &request_fields {
            self.request_member(out, field);
        }
        line!(out, "\treturn string(appendRequest(nil, request))\n}}");
    }

    fn request_member(&mut self, out: &mut String, field: &Field) {
        let single_enum = match &field.ty {
            Ty::Ref(name) => match &self.contract.type_def(name).map(|d| &d.kind) {
                Some(TypeKind::StringEnum(values)) if values.len() == 1 => Some(self.enum_consts(name, values).remove(0).0),
                _ => None,
            },
            _ => None,
        };
        let method = self.method_const(HANDSHAKE_METHOD);
        match (field.name.as_str(), single_enum) {
            (_, Some(constant)) => line!(out, "{}", self.assign(field, "request", &constant)),
            ("id", _) => line!(out, "{}", self.assign(field, "request", "id")),
            ("method", _) if field.ty == Ty::String => line!(out, "{}", self.assign(field, "request", &method)),
            ("params", _) => {
                let read = self.read_fn(&field.ty);
                line!(out, "\ttree, _ := parseStrict(appendHandshakeParams(nil, params))\n\tencoded, _ := {read}(tree)");
                line!(out, "{}", self.assign(field, "request", "encoded"));
            }
            _ => {}
        }
    }

    fn check_handshake_response(&mut self, out: &mut String) {
        let (Some((ok_type, result)), Some((err_type, error))) = (self.response_variant("result"), self.response_variant("error")) else {
            return;
        };
        let (result, error) = (result.clone(), error.clone());
        let (Some(version), Some(code), Some(message)) = (
            self.field_of("HandshakeResult", "protocol_version").cloned(),
            self.field_of("ErrorObject", "code").cloned(),
            self.field_of("ErrorObject", "message").cloned(),
        ) else {
            return;
        };
        if error.ty != Ty::Ref("ErrorObject".into()) || !version.required || !code.required || !message.required {
            return;
        }
        let write_result = self.write_fn(&result.ty);
        let (ok_name, err_name) = (self.type_name(&ok_type), self.type_name(&err_type));
        line!(out, "\n// CheckHandshakeResponse checks the binary's answer to HandshakeRequest: the");
        line!(out, "// HandshakeResult when the binary speaks CoprocessProtocolVersion, else the");
        line!(out, "// fail-fast error with the contract's wording (or the decoder's message when");
        line!(out, "// the frame does not decode).");
        line!(out, "func CheckHandshakeResponse(data []byte) (HandshakeResult, error) {{");
        line!(out, "\tresponse, err := DecodeResponse(data)\n\tif err != nil {{\n\t\treturn HandshakeResult{{}}, err\n\t}}");
        line!(out, "\tif success := response.{ok_name}; success != nil {{");
        line!(out, "\t\tresult, err := DecodeHandshakeResult({write_result}(nil, success.{}))", self.field_name(&result));
        line!(out, "\t\tif err != nil {{\n\t\t\treturn HandshakeResult{{}}, err\n\t\t}}");
        let version_name = self.field_name(&version);
        line!(out, "\t\tif result.{version_name} != CoprocessProtocolVersion {{");
        line!(out, "\t\t\treturn HandshakeResult{{}}, sdkMismatch(result.{version_name})\n\t\t}}\n\t\treturn result, nil\n\t}}");
        line!(out, "\tif failure := response.{err_name}; failure != nil {{");
        line!(
            out,
            "\t\treturn HandshakeResult{{}}, handshakeFailure(failure.{}.{}, failure.{}.{})\n\t}}",
            self.field_name(&error),
            self.field_name(&code),
            self.field_name(&error),
            self.field_name(&message)
        );
        line!(out, "\treturn HandshakeResult{{}}, errors.New(\"Response: neither `result` nor `error`\")\n}}");
        self.handshake_messages(out);
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
