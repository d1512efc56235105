//! Typed envelopes: `RequestOf[P]`, `SuccessResponseOf[R]` and
//! `ResponseOf[R]`, the `Request`, `SuccessResponse` and `Response` frames
//! with their open `params` / `result` member typed.
//!
//! `DecodeRequestOf[CallParams](line)` parses the frame once and reads that
//! member with the generated type's own internal decoder (no walk of it as an
//! open value first), so a wrong `params` is the `Request`'s problem at
//! `$.params.…`. The member type is any generated type: each one implements
//! `EnvelopeMember` through two unexported methods that call its decoder and
//! writer, so only generated types can be named.

use std::fmt::Write as _;

use crate::model::{Contract, ObjectType, Ty, TypeDef, TypeKind, UnionVariant};

use super::codecs::pick_variant;
use super::docs::comment;
use super::names::string_lit;
use super::Ctx;

/// The JSON-RPC envelopes, the member each one leaves open, and its type parameter.
const OPEN_MEMBERS: &[(&str, &str, &str)] = &[("Request", "params", "P"), ("SuccessResponse", "result", "R")];

/// The constraint every envelope member satisfies, and its two helpers.
const MEMBER: &str = r#"
// EnvelopeMember is implemented by every generated type: a type a typed
// envelope (RequestOf, SuccessResponseOf, ResponseOf) can carry as its params
// or result, read by the type's own decoder and written by its own encoder.
// Its methods are unexported, so only the types of this file satisfy it.
type EnvelopeMember[T any] interface {
	json.Marshaler
	readEnvelopeMember(v any) (T, *shapeError)
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
    /// The envelopes of the contract that have their open member: (type, member, parameter).
    fn open_envelopes(&self) -> Vec<(&'a TypeDef, &'static str, &'static str)> {
        let contract: &'a Contract = self.contract;
        OPEN_MEMBERS
            .iter()
            .filter_map(|&(def, member, param)| {
                contract.type_def(def).filter(|d| has_field(d, member)).map(|d| (d, member, param))
            })
            .collect()
    }

    /// Whether the file has typed envelopes (and so `EnvelopeMember`).
    pub fn has_envelopes(&self) -> bool {
        !self.open_envelopes().is_empty()
    }

    /// The `EnvelopeMember` methods of the type `name` (none without envelopes).
    pub fn member_methods(&self, out: &mut String, name: &str) {
        if !self.has_envelopes() {
            return;
        }
        line!(out, "\nfunc ({name}) readEnvelopeMember(v any) ({name}, *shapeError) {{\n\treturn decode{name}(v)\n}}");
        line!(out, "\nfunc (v {name}) appendEnvelopeMember(b []byte) []byte {{\n\treturn append{name}(b, v)\n}}");
    }

    /// The typed envelopes section: the constraint, `RequestOf`, `SuccessResponseOf`, `ResponseOf`.
    pub fn envelopes(&mut self, out: &mut String) {
        let envelopes = self.open_envelopes();
        if envelopes.is_empty() {
            return;
        }
        out.push_str(MEMBER);
        for &(def, member, param) in &envelopes {
            self.typed_object(out, def, member, param);
        }
        if envelopes.iter().any(|(def, _, _)| def.name == "SuccessResponse") {
            self.response_of(out);
        }
    }

    /// A generated type to name in examples: the first method's params or result type.
    fn example(&self, param: &str) -> String {
        let method = self.contract.methods.first();
        let def = method.map(|m| if param == "P" { &m.params } else { &m.result });
        def.map_or_else(|| "T".to_string(), |d| self.type_name(d))
    }

    /// `RequestOf[P]` or `SuccessResponseOf[R]`: the type, its decoders and encoder.
    fn typed_object(&mut self, out: &mut String, def: &TypeDef, member: &str, param: &str) {
        let TypeKind::Object(object) = &def.kind else { return };
        let mut typed: ObjectType = object.clone();
        for field in typed.fields.iter_mut().filter(|f| f.name == member) {
            field.ty = Ty::Ref(param.to_string());
        }
        let base = self.type_name(&def.name);
        let (name, head) = (format!("{base}Of[{param}]"), format!("{base}Of[{param} EnvelopeMember[{param}]]"));
        let field = typed.fields.iter().find(|f| f.name == member).map(|f| self.field_name(f)).unwrap_or_default();
        out.push('\n');
        comment(out, 0, &format!(
            "{base}Of is a {base} whose {field} is decoded as {param}, a generated type such as the one the method table names for the method (see Methods)."
        ));
        self.struct_decl(out, &head, &typed);
        self.typed_public_api(out, &def.name, &format!("{base}Of"), param, member);
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
        line!(out, "func Decode{stem}{head}(data []byte) ({name}, error) {{\n\treturn fromText({lit}, data, decode{name})\n}}\n");
        comment(out, 0, &format!(
            "Decode{stem}Value decodes a {def} from an already-parsed JSON value (as ParseJSON or encoding/json produce it), its `{member}` as {param}, under the same rules; objects are read in sorted key order."
        ));
        line!(out, "func Decode{stem}Value{head}(value any) ({name}, error) {{\n\treturn fromValue({lit}, value, decode{name})\n}}\n");
        line!(out, "// MarshalJSON writes v as one line of JSON, fields in schema order, `{member}`");
        line!(out, "// as {param} writes itself.");
        line!(out, "func (v {name}) MarshalJSON() ([]byte, error) {{\n\treturn append{name}(nil, v), nil\n}}");
    }

    /// `ResponseOf[R]`: the `Response` union with its success variant typed.
    fn response_of(&mut self, out: &mut String) {
        let Some(TypeKind::Union(variants)) = self.contract.type_def("Response").map(|d| &d.kind) else { return };
        let typed: Vec<TypedVariant> = variants
            .iter()
            .map(|v| {
                let field = self.type_name(&v.type_name);
                let ty = if v.type_name == "SuccessResponse" { format!("{field}Of[R]") } else { field.clone() };
                TypedVariant { variant: v.clone(), field, ty }
            })
            .collect();
        out.push('\n');
        comment(out, 0, "ResponseOf is a Response whose success variant's result is decoded as R (see SuccessResponseOf). Exactly one variant is non-nil; the wire shape decides which. A ResponseOf with none set is written as null.");
        line!(out, "type ResponseOf[R EnvelopeMember[R]] struct {{");
        for v in &typed {
            comment(out, 1, &format!("{} is set when the object has `{}`.", v.field, v.variant.discriminator));
            line!(out, "\t{} *{}", v.field, v.ty);
        }
        line!(out, "}}");
        self.typed_public_api(out, "Response", "ResponseOf", "R", "result");
        response_of_codec(out, &typed);
    }
}

/// A variant of `ResponseOf[R]`: the `Response` variant, its field and its Go type.
struct TypedVariant {
    variant: UnionVariant,
    field: String,
    ty: String,
}

/// `decodeResponseOf` and `appendResponseOf`, as the `Response` union's own.
fn response_of_codec(out: &mut String, typed: &[TypedVariant]) {
    let variants: Vec<UnionVariant> = typed.iter().map(|v| v.variant.clone()).collect();
    line!(out, "\nfunc decodeResponseOf[R EnvelopeMember[R]](v any) (ResponseOf[R], *shapeError) {{\n\tvar out ResponseOf[R]");
    pick_variant(out, &variants);
    for (i, v) in typed.iter().enumerate() {
        line!(out, "\tcase {i}:\n\t\tvar x {}\n\t\tx, err = decode{}(v)\n\t\tout.{} = &x", v.ty, v.ty, v.field);
    }
    line!(out, "\t}}\n\treturn out, err\n}}");
    line!(out, "\nfunc appendResponseOf[R EnvelopeMember[R]](b []byte, v ResponseOf[R]) []byte {{\n\tswitch {{");
    for v in typed {
        let append = v.ty.strip_suffix("[R]").unwrap_or(&v.ty);
        line!(out, "\tcase v.{} != nil:\n\t\treturn append{append}(b, *v.{})", v.field, v.field);
    }
    line!(out, "\t}}\n\treturn append(b, \"null\"...)\n}}");
}

/// Whether `def` is a closed object with a field `member`.
fn has_field(def: &TypeDef, member: &str) -> bool {
    matches!(&def.kind, TypeKind::Object(object) if object.fields.iter().any(|f| f.name == member))
}
