//! Typed envelopes: `RequestOf[P]`, `SuccessResponseOf[R]` and
//! `ResponseOf[R]`, the request envelope, the success response and the
//! response envelope of the contract's roles (`Request`, `SuccessResponse`
//! and `Response` in v2.json) with their open `params` / `result` member
//! typed.
//!
//! `DecodeRequestOf[CallParams](line)` parses the frame once and reads that
//! member with the generated type's own internal decoder (no walk of it as an
//! open value first), so a wrong `params` is the `Request`'s problem at
//! `$.params.…`. The member type is any generated type: each one implements
//! `EnvelopeMember` through two unexported methods that call its decoder and
//! writer, so only generated types can be named.

use std::fmt::Write as _;

use crate::model::{ObjectType, Ty, TypeKind, UnionVariant};
use crate::SchemaError;

use super::codecs::pick_variant;
use super::docs::comment;
use super::names::string_lit;
use super::Ctx;

/// The constraint every envelope member satisfies, and its two helpers.
const MEMBER: &str = r#"
// EnvelopeMember is implemented by every generated type: a type a typed
// envelope (RequestOf, SuccessResponseOf, ResponseOf) can carry as its params
// or result, read by the type's own decoder and written by its own encoder.
// Its methods are unexported, so only the types of this file satisfy it.
type EnvelopeMember[T any] interface {
	json.Marshaler
	readEnvelopeMember(v any) (T, *shapeError)
	scanEnvelopeMember(p *parser) (T, bool)
	appendEnvelopeMember(b []byte) []byte
}

func readEnvelopeMember[T EnvelopeMember[T]](v any) (T, *shapeError) {
	var zero T
	return zero.readEnvelopeMember(v)
}

func writeEnvelopeMember[T EnvelopeMember[T]](b []byte, v T) []byte {
	return v.appendEnvelopeMember(b)
}
"#;

impl<'a> Ctx<'a> {
    /// The envelopes with their open member, from the roles: (type, its
    /// object, member, type parameter); the request's `params` and the
    /// success response's `result`, which the loader guarantees.
    fn open_envelopes(&self) -> Result<[(&'a str, &'a ObjectType, &'static str, &'static str); 2], SchemaError> {
        let roles = &self.contract.roles;
        let (request, success) = (roles.request.as_str(), roles.success_response.as_str());
        self.role_field(request, "params", "request envelope")?;
        self.role_field(success, "result", "success response")?;
        Ok([
            (request, self.role_object(request, "request envelope")?, "params", "P"),
            (success, self.role_object(success, "success response")?, "result", "R"),
        ])
    }

    /// The `EnvelopeMember` methods of the type `name`.
    pub fn member_methods(&self, out: &mut String, name: &str) {
        line!(out, "\nfunc ({name}) readEnvelopeMember(v any) ({name}, *shapeError) {{\n\treturn decode{name}(v)\n}}");
        line!(out, "\nfunc ({name}) scanEnvelopeMember(p *parser) ({name}, bool) {{\n\treturn scan{name}(p)\n}}");
        line!(out, "\nfunc (v {name}) appendEnvelopeMember(b []byte) []byte {{\n\treturn append{name}(b, v)\n}}");
    }

    /// The typed envelopes section: the constraint, `RequestOf`, `SuccessResponseOf`, `ResponseOf`.
    pub fn envelopes(&mut self, out: &mut String) -> Result<(), SchemaError> {
        let envelopes = self.open_envelopes()?;
        out.push_str(MEMBER);
        for (def, object, member, param) in envelopes {
            self.typed_object(out, def, object, member, param);
        }
        self.response_of(out)
    }

    /// A generated type to name in examples: the first method's params or result type.
    fn example(&self, param: &str) -> String {
        let method = self.contract.methods.first();
        let def = method.map(|m| if param == "P" { &m.params } else { &m.result });
        def.map_or_else(|| "T".to_string(), |d| self.type_name(d))
    }

    /// `RequestOf[P]` or `SuccessResponseOf[R]`: the type, its decoders and encoder.
    fn typed_object(&mut self, out: &mut String, def: &str, object: &ObjectType, member: &str, param: &str) {
        let mut typed: ObjectType = object.clone();
        for field in typed.fields.iter_mut().filter(|f| f.name == member) {
            field.ty = Ty::Ref(param.to_string());
        }
        let base = self.type_name(def);
        let (name, head) = (format!("{base}Of[{param}]"), format!("{base}Of[{param} EnvelopeMember[{param}]]"));
        let field = typed.fields.iter().find(|f| f.name == member).map(|f| self.field_name(f)).unwrap_or_default();
        out.push('\n');
        comment(out, 0, &format!(
            "{base}Of is a {base} whose {field} is decoded as {param}, a generated type such as the one the method table names for the method (see Methods)."
        ));
        self.struct_decl(out, &head, &typed);
        self.typed_public_api(out, def, &format!("{base}Of"), param, member);
        self.type_param = Some(param.to_string());
        self.decode_object(out, &head, &name, &typed);
        self.append_object(out, &head, &name, &typed);
        self.type_param = None;
    }

    /// `Decode<Envelope>Of`, `Decode<Envelope>OfValue` and `MarshalJSON` of a typed envelope.
    fn typed_public_api(&self, out: &mut String, def: &str, stem: &str, param: &str, member: &str) {
        let (lit, example) = (string_lit(def), self.example(param));
        let name = format!("{stem}[{param}]");
        let head = format!("[{param} EnvelopeMember[{param}]]");
        out.push('\n');
        comment(out, 0, &format!(
            "Decode{stem} decodes a {def} from one frame's JSON text under the strict rules of the contract, its `{member}` as {param} (Decode{stem}[{example}](line)) in the same pass. A problem anywhere, `{member}` included, is the {def}'s, at its path from the frame's root (\"$.{member}.x\"). The error is a *DecodingError."
        ));
        line!(out, "func Decode{stem}{head}(data []byte) ({name}, error) {{\n\treturn fromText({lit}, data, decode{name}, nil)\n}}\n");
        comment(out, 0, &format!(
            "Decode{stem}Value decodes a {def} from an already-parsed JSON value (as ParseJSON or encoding/json produce it), its `{member}` as {param}, under the same rules; objects are read in sorted key order."
        ));
        line!(out, "func Decode{stem}Value{head}(value any) ({name}, error) {{\n\treturn fromValue({lit}, value, decode{name})\n}}\n");
        line!(out, "// MarshalJSON writes v as one line of JSON, fields in schema order, `{member}`");
        line!(out, "// as {param} writes itself.");
        line!(out, "func (v {name}) MarshalJSON() ([]byte, error) {{\n\treturn append{name}(nil, v), nil\n}}");
    }

    /// `ResponseOf[R]`: the response envelope's union with its success variant typed.
    fn response_of(&mut self, out: &mut String) -> Result<(), SchemaError> {
        let contract = self.contract;
        let roles = &contract.roles;
        let Some(TypeKind::Union(variants)) = contract.type_def(&roles.response).map(|d| &d.kind) else {
            let problem = format!("`{}`, the response envelope, is not a union, which the Go target renders it as", roles.response);
            return Err(self.refuse(&format!("/$defs/{}", roles.response), &problem, "make it a `oneOf` of the success and the error response"));
        };
        let typed: Vec<TypedVariant> = variants
            .iter()
            .map(|v| {
                let field = self.type_name(&v.type_name);
                let ty = if v.type_name == roles.success_response { format!("{field}Of[R]") } else { field.clone() };
                TypedVariant { variant: v.clone(), field, ty }
            })
            .collect();
        out.push('\n');
        let (response, success) = (self.type_name(&roles.response), self.type_name(&roles.success_response));
        comment(out, 0, &format!("{response}Of is a {response} whose success variant's result is decoded as R (see {success}Of). Exactly one variant is non-nil; the wire shape decides which. A {response}Of with none set is written as null."));
        line!(out, "type {response}Of[R EnvelopeMember[R]] struct {{");
        for v in &typed {
            comment(out, 1, &format!("{} is set when the object has `{}`.", v.field, v.variant.discriminator));
            line!(out, "\t{} *{}", v.field, v.ty);
        }
        line!(out, "}}");
        self.typed_public_api(out, &roles.response, &format!("{response}Of"), "R", "result");
        response_of_codec(out, &response, &typed);
        Ok(())
    }
}

/// A variant of `ResponseOf[R]`: the response envelope's variant, its field and its Go type.
struct TypedVariant {
    variant: UnionVariant,
    field: String,
    ty: String,
}

/// `decodeResponseOf` and `appendResponseOf`, as the response envelope's own
/// (`response` is its Go name).
fn response_of_codec(out: &mut String, response: &str, typed: &[TypedVariant]) {
    let variants: Vec<UnionVariant> = typed.iter().map(|v| v.variant.clone()).collect();
    line!(out, "\nfunc decode{response}Of[R EnvelopeMember[R]](v any) ({response}Of[R], *shapeError) {{\n\tvar out {response}Of[R]");
    pick_variant(out, &variants);
    for (i, v) in typed.iter().enumerate() {
        line!(out, "\tcase {i}:\n\t\tvar x {}\n\t\tx, err = decode{}(v)\n\t\tout.{} = &x", v.ty, v.ty, v.field);
    }
    line!(out, "\t}}\n\treturn out, err\n}}");
    line!(out, "\nfunc append{response}Of[R EnvelopeMember[R]](b []byte, v {response}Of[R]) []byte {{\n\tswitch {{");
    for v in typed {
        let append = v.ty.strip_suffix("[R]").unwrap_or(&v.ty);
        line!(out, "\tcase v.{} != nil:\n\t\treturn append{append}(b, *v.{})", v.field, v.field);
    }
    line!(out, "\t}}\n\treturn append(b, \"null\"...)\n}}");
}
