//! The single-pass readers: `ReadPlain(ref CoprocessPlainReader, out T)` per type the
//! readers' plan ([`crate::targets::readers`]) gives one, reading the plain forms the binary
//! writes straight off the UTF-8 text. They never word a problem: on anything else they give up
//! (false), and the one-pass and careful decoders run as before.

use super::super::docs::summary_xml;
use super::super::mapping::{bare, field_type};
use super::super::names::{local_name, member_name, string_literal, type_name};
use super::super::Out;
use super::reader_of;
use crate::model::{Contract, ObjectType, Ty};
use crate::targets::readers::{Member, Read};

/// The signature of a type's single-pass reader.
pub fn signature(ns: &str, class: &str) -> String {
    format!("internal static bool ReadPlain(ref {ns}.CoprocessPlainReader reader, out {class} value)")
}

/// A lambda reading one value with `class`'s single-pass reader (for `CoprocessPlainReader.TryDecode`
/// and the codec).
pub fn lambda(ns: &str, class: &str, reader: &str) -> String {
    format!("(ref {ns}.CoprocessPlainReader reader, out {class} read) => {reader}.ReadPlain(ref reader, out read)")
}

/// `Decode`'s first try, for a type with a single-pass reader.
pub fn decode_first(out: &mut Out, class: &str) {
    let ns = out.ns.clone();
    let read = lambda(&ns, class, class);
    out.block(3, &format!("if ({ns}.CoprocessPlainReader.TryDecode(json, {read}, out {class} plain))"), |out| out.line(4, "return plain;"));
}

/// The single-pass reader of a closed object whose members the plan reads (`members`, in
/// declaration order, as `object.fields`): each member at most once, in any order, every
/// required one.
pub fn object_reader(out: &mut Out, contract: &Contract, class: &str, object: &ObjectType, members: &[Member]) {
    let ns = out.ns.clone();
    let keys = super::fast::object_keys(class, object);
    let in_order = keys_in_order(class, object, &keys);
    if !object.fields.is_empty() && object.fields.len() <= 64 {
        // The readers' plan takes only objects whose member names JSON writes as themselves
        // (`readers::plans`), so each key's text is its name between quotes, then the colon.
        summary_xml(out, 2, "The members' keys in declaration order as the text holds them (<c>\"name\":</c>), for <see cref=\"ReadPlain\"/>.");
        out.line(2, &format!("private static readonly byte[][] {in_order} ="));
        out.line(2, "{");
        for field in &object.fields {
            out.line(3, &format!("global::System.Text.Encoding.UTF8.GetBytes({}),", string_literal(&format!("\"{}\":", field.name))));
        }
        out.line(2, "};");
        out.blank();
    }
    out.block(2, &signature(&ns, class), |out| {
        if object.fields.len() > 64 {
            // More members than one bit mask tracks: the other decoders decide.
            out.line(3, "value = null!;");
            out.line(3, "return false;");
            return;
        }
        out.line(3, "value = null!;");
        if object.fields.is_empty() {
            out.block(3, "if (!reader.Open(out bool more) || more)", |out| out.line(4, "return false;"));
            super::construct_into(out, "value =", class, object);
            out.line(3, "return true;");
            return;
        }
        out.block(3, "if (!reader.Open(out bool more))", |out| out.line(4, "return false;"));
        out.line(3, "ulong seen = 0;");
        for field in &object.fields {
            let init = if field.required && !matches!(field.ty, Ty::Nullable(_)) { "default!" } else { "null" };
            out.line(3, &format!("{} {} = {init};", field_type(field), local_name(&field.name)));
        }
        // Each key is compared first with the member after the last one read (see Member).
        out.line(3, "int member = -1;");
        out.block(3, "while (more)", |out| {
            out.line(4, &format!("member = reader.Member({in_order}, member + 1);"));
            out.block(4, "switch (member)", |out| {
                for (bit, (field, member)) in object.fields.iter().zip(members).enumerate() {
                    out.line(5, &format!("case {bit}:"));
                    let read = format!("read{bit}");
                    let call = read_call(contract, &member.read, &read);
                    out.block(6, &format!("if (!reader.Once(ref seen, 1UL << {bit}) || !{call})"), |out| out.line(7, "return false;"));
                    out.line(6, &format!("{} = {read};", local_name(&field.name)));
                    out.line(6, "break;");
                }
                out.line(5, "default:");
                out.line(6, "return false;");
            });
            out.block(4, "if (!reader.Next(out more))", |out| out.line(5, "return false;"));
        });
        let mask: u64 = object.fields.iter().enumerate().filter(|(_, f)| f.required).map(|(bit, _)| 1u64 << bit).sum();
        if mask != 0 {
            out.block(3, &format!("if ((seen & {mask}UL) != {mask}UL)"), |out| out.line(4, "return false;"));
        }
        super::construct_into(out, "value =", class, object);
        out.line(3, "return true;");
    });
}

/// The name of the class's static array of its member keys in declaration order (`KeysInOrder`),
/// clear of its properties', its key fields' and its own name.
fn keys_in_order(class: &str, object: &ObjectType, keys: &[(String, &str)]) -> String {
    let members: Vec<String> = object.fields.iter().map(|f| member_name(&f.name, bare(class))).collect();
    let mut name = "KeysInOrder".to_string();
    while members.contains(&name) || keys.iter().any(|(key, _)| *key == name) || name == bare(class) {
        name.push('_');
    }
    name
}

/// The call reading one member's value into a new local `read`.
fn read_call(contract: &Contract, read: &Read, local: &str) -> String {
    match read {
        Read::Boolean => format!("reader.Boolean(out bool {local})"),
        Read::String => format!("reader.String(out string {local})"),
        Read::NullableString => format!("reader.NullableString(out string? {local})"),
        Read::Unsigned => format!("reader.Unsigned(out long {local})"),
        Read::Integer => format!("reader.Integer(out long {local})"),
        Read::Null => format!("reader.Null(out global::System.Text.Json.JsonElement {local})"),
        Read::Object(name) => format!("{}.ReadPlain(ref reader, out {} {local})", reader_of(contract, name), type_name(name)),
    }
}

/// The single-pass reader of a union told apart by shape: its variants that have one
/// (`variants`, by type name, in declaration order) tried in turn from the same place; the
/// first that reads the text is the variant the other decoders pick (each requires its own
/// discriminator).
pub fn union_reader(out: &mut Out, contract: &Contract, class: &str, variants: &[String]) {
    let ns = out.ns.clone();
    out.block(2, &signature(&ns, class), |out| {
        if variants.len() > 1 {
            out.line(3, &format!("{ns}.CoprocessPlainReader start = reader;"));
        }
        for (i, variant) in variants.iter().enumerate() {
            if i > 0 {
                out.line(3, "reader = start;");
            }
            let read = format!("variant{i}");
            out.block(3, &format!("if ({}.ReadPlain(ref reader, out {} {read}))", reader_of(contract, variant), type_name(variant)), |out| {
                out.line(4, &format!("value = new {class}({read});"));
                out.line(4, "return true;");
            });
        }
        out.line(3, "value = null!;");
        out.line(3, "return false;");
    });
}

#[cfg(test)]
mod tests {
    fn v2_frames() -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/ipc/v2.json");
        let (contract, _) = crate::load::load(&path, "schemas/ipc/v2.json").expect("the schema loads");
        let files = crate::targets::dotnet::generate(&contract).expect("renders");
        files.into_iter().find(|(path, _)| path.ends_with("Coprocess.cs")).map(|(_, text)| text).expect("the frames file")
    }

    /// The body of `class`'s member whose signature line contains `signature`.
    fn member<'a>(text: &'a str, class: &str, signature: &str) -> Option<&'a str> {
        let class_at = text.find(&format!("public sealed class {class}\n"))?;
        let rest = &text[class_at..];
        let end = rest.find("\n    }\n").unwrap_or(rest.len());
        let body = &rest[..end];
        let at = body.find(signature)?;
        let tail = &body[at..];
        Some(&tail[..tail.find("\n        }\n").unwrap_or(tail.len())])
    }

    #[test]
    fn v2s_planned_types_read_plain_and_the_rest_do_not() {
        let text = v2_frames();
        let verdict = member(&text, "Verdict", "internal static bool ReadPlain(").expect("Verdict has a reader");
        for read in ["reader.Boolean(out bool read0)", "reader.Null(out global::System.Text.Json.JsonElement read1)", "reader.NullableString(out string? read2)", "reader.Unsigned(out long read4)"] {
            assert!(verdict.contains(read), "{read} in {verdict}");
        }
        assert!(verdict.contains("if ((seen & 31UL) != 31UL)"), "{verdict}");
        // The call result reads its verdict variant in place; the passthrough (an array of content) has no reader.
        let call = member(&text, "CallResult", "internal static bool ReadPlain(").expect("CallResult has a reader");
        assert!(call.contains("Verdict.ReadPlain(ref reader, out Verdict variant0)") && !call.contains("ToolCallPassthrough"), "{call}");
        assert!(member(&text, "ToolCallPassthrough", "ReadPlain(").is_none());
        assert!(member(&text, "CallResult", "public static CallResult Decode(string json)").is_some_and(|d| d.contains("CoprocessPlainReader.TryDecode(json")));
        // A typed envelope decodes its type parameter through the codec: no reader of its own.
        assert!(member(&text, "RequestOf<TParams> where TParams : class", "ReadPlain(").is_none());
        assert!(text.contains("new global::Mcptest.Sdk.CoprocessCodec<Verdict>(Verdict.Read, (ref global::System.Text.Json.Utf8JsonReader reader) => Verdict.Read(ref reader), (builder, value) => value.Write(builder), (ref global::Mcptest.Sdk.CoprocessPlainReader reader, out Verdict read) => Verdict.ReadPlain(ref reader, out read));"));
    }
}
