//! The protocol roles as the Go target reads them: the object type that
//! plays a role and its members, which the loader has checked
//! ([`crate::roles`]). A role whose shape the Go code cannot render is
//! refused by name, never skipped.

use std::path::Path;

use crate::model::{Field, ObjectType, TypeKind};
use crate::SchemaError;

use super::Ctx;

impl<'a> Ctx<'a> {
    /// The closed object `name` that plays `role` (the loader's guarantee).
    pub fn role_object(&self, name: &str, role: &str) -> Result<&'a ObjectType, SchemaError> {
        let contract: &'a crate::model::Contract = self.contract;
        match contract.type_def(name).map(|d| &d.kind) {
            Some(TypeKind::Object(object)) => Ok(object),
            _ => Err(self.refuse(&format!("/$defs/{name}"), &format!("`{name}`, the {role}, is not a closed object, which the Go target renders it as"), "make it an object with `additionalProperties: false`")),
        }
    }

    /// The member `wire` of the object `name` that plays `role`.
    pub fn role_field(&self, name: &str, wire: &str, role: &str) -> Result<&'a Field, SchemaError> {
        let object = self.role_object(name, role)?;
        object.fields.iter().find(|f| f.name == wire).ok_or_else(|| {
            self.refuse(&format!("/$defs/{name}/properties"), &format!("`{name}`, the {role}, has no `{wire}`, which the Go target reads"), &format!("add the member `{wire}`"))
        })
    }

    /// A refusal of the Go target at `pointer` of the schema.
    pub fn refuse(&self, pointer: &str, problem: &str, fix: &str) -> SchemaError {
        SchemaError::new(Path::new(&self.contract.source), pointer, format!("go: {problem}"), fix)
    }
}

#[cfg(test)]
mod tests {
    use crate::targets::client::renamed_contract;

    /// With every type and method renamed, the Go files keep every feature a
    /// role carries, under the new names: the typed envelopes, the handshake
    /// helpers, the call outcome, the close method, and the runtime's uses.
    #[test]
    fn the_roles_features_follow_renamed_types_and_methods() {
        let contract = renamed_contract();
        let files = crate::targets::go::generate(&contract).expect("the Go files render");
        let sdk = contract.sdk("go").expect("a go row");
        let (frames, client) = (&files[&sdk.frames], &files[&sdk.client]);
        for declaration in [
            "func HandshakeRequest(id CpRequestID, sdk, sdkVersion string) string {\n\tvar params CpHandshakeParams\n",
            "\tvar request CpRequest\n",
            "\trequest.Method = MethodCpcoprocessHandshake\n",
            "func CheckHandshakeResponse(data []byte) (CpHandshakeResult, error) {\n\tresponse, err := DecodeCpResponse(data)\n",
            "errors.New(\"CpResponse: neither `result` nor `error`\")",
            "type CpRequestOf[P EnvelopeMember[P]] struct {",
            "type CpSuccessResponseOf[R EnvelopeMember[R]] struct {",
            "type CpResponseOf[R EnvelopeMember[R]] struct {",
            "func decodeCpResponseOf[R EnvelopeMember[R]](v any) (CpResponseOf[R], *shapeError) {",
            "func (CpVerdict) readEnvelopeMember(v any) (CpVerdict, *shapeError) {",
        ] {
            assert!(frames.contains(declaration), "{declaration}");
        }
        for declaration in [
            "const clientShutdownMethod = MethodCpmcpShutdown\n",
            "func CallOutcomeOf(result CpCallResult) CallOutcome {\n\tif verdict := result.CpVerdict; verdict != nil {",
            "CallOutcomeOf reads `cpmcp.call`'s result uniformly",
            "func (c *Client) CpHandshakeResult() CpHandshakeResult {",
            "\tmethod := MethodCpcoprocessHandshake\n",
            "request := CpRequestOf[P]{Jsonrpc: CpJSONRPCVersion20, ID: CpRequestID{Int: id}, Method: method, Params: params}",
            "\"result_type\", \"CpHandshakeResult\")",
            "problem.toError(\"CpResponse\")",
            "if failure := response.CpErrorResponse; failure != nil {",
            "func sessionRPCError(method string, problem CpErrorObject) *RPCError {",
            "c.out = appendCpRequest(c.out[:0], request)",
            "func (c *Client) Call(ctx context.Context, params CpCallParams) (CpCallResult, error) {",
        ] {
            assert!(client.contains(declaration), "{declaration}");
        }
        assert!(!format!("{frames}{client}").contains("Role"), "a placeholder left unfilled");
    }

    /// A passthrough whose `content` is no array of open objects, which
    /// `CallOutcomeOf` reads text blocks from, is refused by name.
    #[test]
    fn a_call_outcome_it_cannot_read_is_refused_by_name() {
        let contract = crate::targets::client::renamed_contract_with_string_content();
        let Err(e) = crate::targets::go::generate(&contract) else { panic!("content of strings is refused") };
        assert_eq!(e.pointer, "/$defs/CpToolCallPassthrough/properties/content", "{e}");
        assert!(e.problem.starts_with("go: ") && e.problem.contains("CallOutcomeOf"), "{e}");
    }
}
