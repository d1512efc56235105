//! The contract tables as Go: the pin and limits, the method table, the
//! error codes, the message templates, the lanes and (in [`handshake`]) the
//! handshake helpers.

use std::fmt::Write as _;

use super::docs::{comment, doc_sentence};
use super::names::{exported, string_lit};
use super::Ctx;

mod handshake;

impl Ctx<'_> {
    /// The Go constant naming a method (`MethodMCPCall`).
    pub fn method_const(&self, method: &str) -> String {
        format!("Method{}", exported(method))
    }

    /// The Go constant naming an error code (`CodeParseError`).
    pub fn code_const(&self, name: &str) -> String {
        format!("Code{}", exported(name))
    }

    /// The Go constant holding a message template (`MessageLaneSkip`).
    pub fn message_const(&self, key: &str) -> String {
        format!("Message{}", exported(key))
    }

    /// The Go constant holding a client setting (`ClientCallTimeoutMs`).
    pub fn client_const(&self, key: &str) -> String {
        format!("Client{}", exported(key))
    }

    pub fn limits(&self, out: &mut String) {
        let c = self.contract;
        line!(out, "// CoprocessProtocolVersion is the coprocess protocol version this file speaks,");
        line!(out, "// sent in the handshake and checked in its answer.");
        line!(out, "const CoprocessProtocolVersion = {}\n", c.protocol_version);
        line!(out, "// MaxLineBytes is the longest frame line a reader accepts, in bytes (without the");
        line!(out, "// newline).");
        line!(out, "const MaxLineBytes = {}\n", c.max_line_bytes);
        line!(out, "// MaxDepth is the deepest container nesting a frame may have ({{\"a\":1}} is depth 1).");
        line!(out, "const MaxDepth = {}", c.max_depth);
        line!(out, "\n// The session client's defaults, one constant per setting of the contract's\n// client table.\nconst (");
        for (i, (key, setting)) in c.client.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let name = self.client_const(key);
            comment(out, 1, &doc_sentence(&name, &format!("The `{key}` setting. {}", setting.description)));
            line!(out, "\t{name} = {}", setting.value);
        }
        line!(out, ")");
    }

    pub fn methods(&self, out: &mut String) {
        line!(out, "\n// The method names, one constant per row of the method table.\nconst (");
        for (i, method) in self.contract.methods.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let name = self.method_const(&method.name);
            comment(out, 1, &format!("{name} is `{}`. {}", method.name, method.description));
            line!(out, "\t{name} = {}", string_lit(&method.name));
        }
        line!(out, ")\n");
        line!(out, "// MethodSpec is one row of the method table; Params and Result are $defs");
        line!(out, "// names (see DecodeByName).");
        line!(out, "type MethodSpec struct {{\n\t// Name is the wire name.\n\tName string");
        line!(out, "\t// Params is the type of the request's params.\n\tParams string");
        line!(out, "\t// ParamsRequired says whether params must be present.\n\tParamsRequired bool");
        line!(out, "\t// Result is the type of the response's result.\n\tResult string\n}}\n");
        line!(out, "// Methods is the method table, in table order.\nvar Methods = []MethodSpec{{");
        for method in &self.contract.methods {
            line!(
                out,
                "\t{{Name: {}, Params: {}, ParamsRequired: {}, Result: {}}},",
                self.method_const(&method.name),
                string_lit(&method.params),
                method.params_required,
                string_lit(&method.result)
            );
        }
        line!(out, "}}");
    }

    pub fn error_codes(&self, out: &mut String) {
        line!(out, "\n// The error codes, one constant per row of the error-code table.\nconst (");
        for (i, code) in self.contract.error_codes.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let name = self.code_const(&code.name);
            comment(out, 1, &format!("{name} is {}. {}", code.code, code.description));
            line!(out, "\t{name} = {}", code.code);
        }
        line!(out, ")\n");
        line!(out, "// ErrorCodeSpec is one row of the error-code table.");
        line!(out, "type ErrorCodeSpec struct {{\n\t// Name is the code's name in the table.\n\tName string");
        line!(out, "\t// Code is the JSON-RPC error code.\n\tCode int64\n}}\n");
        line!(out, "// ErrorCodes is the error-code table, in table order.\nvar ErrorCodes = []ErrorCodeSpec{{");
        for code in &self.contract.error_codes {
            line!(out, "\t{{Name: {}, Code: {}}},", string_lit(&code.name), self.code_const(&code.name));
        }
        line!(out, "}}");
    }

    pub fn messages(&self, out: &mut String) {
        line!(out, "\n// The shared message templates; {{name}} marks a hole.\nconst (");
        for (i, (key, message)) in self.contract.messages.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            let name = self.message_const(key);
            comment(out, 1, &doc_sentence(&name, &format!("The `{key}` template. {}", message.description)));
            line!(out, "\t{name} = {}", string_lit(&message.template));
        }
        line!(out, ")");
    }

    pub fn lanes(&self, out: &mut String) {
        let unsupported: Vec<String> = self.contract.unsupported_lanes().map(|l| string_lit(&l.key)).collect();
        line!(out, "\n// UnsupportedLanes are the suite lanes an SDK cannot drive over the coprocess,");
        line!(out, "// in table order.\nvar UnsupportedLanes = []string{{{}}}\n", unsupported.join(", "));
        line!(out, "// laneCliHint returns the lane_skip message for a lane an SDK cannot drive,");
        line!(out, "// naming the command that runs it for suite; false for a drivable or unknown lane.");
        line!(out, "func laneCliHint(lane, suite string) (string, bool) {{\n\tswitch lane {{");
        for lane in self.contract.unsupported_lanes() {
            line!(out, "\tcase {}:", string_lit(&lane.key));
            comment(out, 2, &lane.description);
            line!(out, "\t\treturn laneSkip(lane, {}, suite), true", string_lit(&lane.runs_via));
        }
        line!(out, "\t}}\n\treturn \"\", false\n}}\n");
        line!(out, "// LaneCLIHint is laneCliHint for other packages.");
        line!(out, "func LaneCLIHint(lane, suite string) (string, bool) {{\n\treturn laneCliHint(lane, suite)\n}}\n");
        let lane_skip = self.message_const("lane_skip");
        line!(out, "func laneSkip(lane, runsVia, suite string) string {{");
        line!(out, "\treturn fillTemplate({lane_skip}, \"lane\", lane, \"command\", strings.ReplaceAll(runsVia, \"<suite>\", suite))\n}}");
    }

}
