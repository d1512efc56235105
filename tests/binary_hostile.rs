//! The `mcptest` binary under hostile streams (issue 17, part 3): invalid
//! UTF-8, NUL bytes, CR-only line ends, 100,000 tiny lines, lines exactly at
//! and one byte over `MAX_LINE_BYTES`, seeded random bytes, a stream cut
//! mid-line. Each stream is written as a pipe delivers it (large writes, not
//! line by line), and its answers are read after: every non-blank line gets
//! exactly one answer of the right class (a blank line none), in order, and
//! every valid request among the garbage gets its own answer with its id.
//! Then end of input exits 0 with nothing more written. An error answer
//! that would quote the line past `MAX_LINE_BYTES` is `answer_too_long`.

mod binary_support;

use std::io::Write;
use std::time::Duration;

use binary_support::{Coprocess, MISBEHAVING};
use mcptest_coprocess::frames::{error_codes, messages, methods};
use mcptest_coprocess::MAX_LINE_BYTES;
use serde_json::{json, Value};

/// What one line of a stream must get.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Answer {
    /// A JSON-RPC error of this code, with a null id (the line names none).
    Error(i64),
    /// The result of the valid request with this id.
    Result(i64),
}

/// A hostile stream and the answers it must get, in order.
#[derive(Default)]
struct Stream {
    bytes: Vec<u8>,
    answers: Vec<Answer>,
    next_id: i64,
}

impl Stream {
    /// Raw bytes (their own line ends included) and the answers they must get.
    fn raw(&mut self, bytes: &[u8], answers: &[Answer]) -> &mut Self {
        self.bytes.extend_from_slice(bytes);
        self.answers.extend_from_slice(answers);
        self
    }

    /// The text of the next valid request, and its id.
    fn next_request(&mut self) -> (String, i64) {
        self.next_id += 1;
        (json!({"jsonrpc": "2.0", "id": self.next_id, "method": methods::MCP_LIST_TOOLS, "params": {}}).to_string(), self.next_id)
    }

    /// A valid request on its own line: the session must still answer it.
    fn request(&mut self) -> &mut Self {
        let (text, id) = self.next_request();
        self.raw(format!("{text}\n").as_bytes(), &[Answer::Result(id)])
    }

    /// Writes the stream in 64 KiB writes and ends the input, then reads
    /// every answer it must get and checks each in order, and the exit.
    fn check(&self) {
        let mut coprocess = Coprocess::spawn(MISBEHAVING);
        let stdin = coprocess.stdin();
        for chunk in self.bytes.chunks(1 << 16) {
            stdin.write_all(chunk).expect("write the stream");
        }
        stdin.flush().expect("flush the stream");
        // End of input right after the stream: an unterminated last line
        // still counts, and every answer comes before the exit.
        coprocess.close_stdin();
        for (i, expected) in self.answers.iter().enumerate() {
            let response = coprocess.read_response();
            assert_eq!(answer_of(&response), Some(*expected), "answer {i} of {}: {response}", self.answers.len());
        }
        let status = coprocess.wait(Duration::from_secs(30));
        assert!(status.success(), "mcptest exited with {status} after the stream");
    }
}

/// The class of a response: its error code (with a null id), or its id.
fn answer_of(response: &Value) -> Option<Answer> {
    match (&response["error"]["code"], &response["id"]) {
        (Value::Number(code), Value::Null) => code.as_i64().map(Answer::Error),
        (Value::Null, Value::Number(id)) if response.get("result").is_some() => id.as_i64().map(Answer::Result),
        _ => None,
    }
}

const PARSE: Answer = Answer::Error(error_codes::PARSE_ERROR);
const INVALID: Answer = Answer::Error(error_codes::INVALID_REQUEST);

#[test]
fn bytes_that_are_not_text_get_a_parse_error_each_and_the_session_goes_on() {
    let mut stream = Stream::default();
    stream.request();
    stream.raw(b"\xff\xfe\xfd\n", &[PARSE]).request();
    stream.raw(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"mcp.listTools\xc3\"}\n", &[PARSE]).request();
    stream.raw(b"\0\0\0\n", &[PARSE]).request();
    stream.raw(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"mcp.list\0Tools\"}\n", &[PARSE]).request();
    // A UTF-16 byte order mark and text, as a misconfigured writer sends it.
    stream.raw(b"\xff\xfe{\0}\0\n", &[PARSE]).request();
    stream.check();
}

#[test]
fn cr_only_line_ends_make_one_line_and_crlf_ends_a_line() {
    let mut stream = Stream::default();
    let (first, _) = stream.next_request();
    let (second, _) = stream.next_request();
    // Two requests separated by CR alone are one line: JSON with text after it.
    stream.raw(format!("{first}\r{second}\r\n").as_bytes(), &[PARSE]).request();
    let (text, id) = stream.next_request();
    stream.raw(format!("{text}\r\n").as_bytes(), &[Answer::Result(id)]);
    // Blank lines, a lone CR, spaces and tabs get no answer.
    stream.raw(b"\n\r\n   \n\t\r\n\r\r\n", &[]).request();
    stream.check();
}

#[test]
fn a_hundred_thousand_tiny_lines_are_each_answered_or_skipped_in_order() {
    let mut stream = Stream::default();
    for i in 0..100_000 {
        match i % 100 {
            // Valid JSON that is not a request: -32600.
            0 => stream.raw(b"0\n", &[INVALID]),
            1 => stream.raw(b"}\n", &[PARSE]),
            _ => stream.raw(b"\n", &[]),
        };
        if i % 10_000 == 5_000 {
            stream.request();
        }
    }
    stream.request();
    assert_eq!(stream.answers.len(), 2000 + 11, "the stream's answers are counted wrong");
    stream.check();
}

#[test]
fn a_line_at_the_limit_is_read_and_one_byte_over_is_skipped() {
    let mut stream = Stream::default();
    // A valid request padded with whitespace inside the object to `length`
    // bytes, then `line_end`.
    fn padded(stream: &mut Stream, length: usize, line_end: &[u8], answer: Option<Answer>) {
        let (text, id) = stream.next_request();
        let mut line = text.replacen('{', &format!("{{{}", " ".repeat(length - text.len())), 1).into_bytes();
        assert_eq!(line.len(), length);
        line.extend_from_slice(line_end);
        stream.raw(&line, &[answer.unwrap_or(Answer::Result(id))]);
    }
    padded(&mut stream, MAX_LINE_BYTES, b"\n", None);
    stream.request();
    padded(&mut stream, MAX_LINE_BYTES, b"\r\n", None);
    stream.request();
    padded(&mut stream, MAX_LINE_BYTES + 1, b"\n", Some(INVALID));
    stream.request();
    padded(&mut stream, MAX_LINE_BYTES + 1, b"\r\n", Some(INVALID));
    stream.request();
    stream.check();
}

#[test]
fn seeded_random_bytes_get_parse_errors_and_never_swallow_a_request() {
    // xorshift64*: the same bytes on every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut stream = Stream::default();
    for _ in 0..500 {
        let length = (next() % 200) as usize;
        // A line that starts with `}` is never JSON nor blank: a parse error,
        // whether the rest is UTF-8 or not.
        let mut line = vec![b'}'];
        line.extend((0..length).map(|_| (next() >> 56) as u8).filter(|b| *b != b'\n'));
        line.push(b'\n');
        stream.raw(&line, &[PARSE]);
        if next() % 7 == 0 {
            stream.request();
        }
    }
    stream.request();
    stream.check();
}

#[test]
fn a_stream_cut_mid_line_answers_the_last_line_and_exits_0() {
    let mut stream = Stream::default();
    stream.request();
    let (text, id) = stream.next_request();
    // A complete request without its `\n`: end of input ends the line.
    stream.raw(text.as_bytes(), &[Answer::Result(id)]);
    stream.check();

    let mut cut = Stream::default();
    cut.request();
    let (text, _) = cut.next_request();
    // Half a request: a parse error, then exit 0.
    cut.raw(&text.as_bytes()[..text.len() / 2], &[PARSE]);
    cut.check();
}

/// Sends `line` and returns its answer's line length (without the `\n`) and
/// the answer.
fn answer_sized(coprocess: &mut Coprocess, line: &str) -> (usize, Value) {
    coprocess.write_line(line);
    let (answer, value) = coprocess.read_response_line();
    (answer.len(), value)
}

/// The `answer_too_long` error in place of the error answer to a line the
/// binary could not serve, whose line would have been `bytes` long.
fn unserved_too_long(bytes: usize) -> Value {
    json!({"code": error_codes::UPSTREAM_ERROR, "message": messages::render_answer_too_long("request", &bytes.to_string(), &MAX_LINE_BYTES.to_string())})
}

/// The binary still serves a request after a hostile line.
fn still_serves(coprocess: &mut Coprocess) {
    let answer = coprocess.send_line(&json!({"jsonrpc": "2.0", "id": "next", "method": methods::MCP_LIST_TOOLS, "params": {}}).to_string());
    assert!(answer.get("result").is_some(), "the next request is served: {answer:.300}");
}

#[test]
fn an_error_answer_quoting_the_line_of_exactly_max_line_bytes_is_written_and_one_byte_more_is_answer_too_long() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    // -32601 quotes the method; its answer is longer than the request line,
    // which stays within the limit.
    let line = |method_bytes: usize| json!({"jsonrpc": "2.0", "id": 7, "method": "m".repeat(method_bytes)}).to_string();
    let (length, answer) = answer_sized(&mut coprocess, &line(10));
    assert_eq!(answer["error"]["code"], json!(error_codes::METHOD_NOT_FOUND), "{answer}");
    let at_limit = 10 + (MAX_LINE_BYTES - length);
    assert!(line(at_limit + 1).len() <= MAX_LINE_BYTES, "the request line itself is within the limit");

    let (length, answer) = answer_sized(&mut coprocess, &line(at_limit));
    assert_eq!(length, MAX_LINE_BYTES, "the answer at the limit: {:.300}", answer.to_string());
    assert_eq!((&answer["id"], &answer["error"]["code"]), (&json!(7), &json!(error_codes::METHOD_NOT_FOUND)));

    let (length, answer) = answer_sized(&mut coprocess, &line(at_limit + 1));
    assert_eq!(answer["id"], json!(7), "{:.300}", answer.to_string());
    assert!(answer["error"] == unserved_too_long(MAX_LINE_BYTES + 1), "{:.300}", answer.to_string());
    assert!(length < 200, "the error is a short line: {length} bytes");
    still_serves(&mut coprocess);
}

#[test]
fn an_id_too_long_to_echo_gets_answer_too_long_with_a_null_id() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    // An id filling the request line: the -32601 answer and even the
    // `answer_too_long` error with that id would pass the limit.
    let shell = json!({"jsonrpc": "2.0", "id": "", "method": "nope"}).to_string();
    let id = "i".repeat(MAX_LINE_BYTES - shell.len());
    let line = json!({"jsonrpc": "2.0", "id": id, "method": "nope"}).to_string();
    assert_eq!(line.len(), MAX_LINE_BYTES);
    let (length, answer) = answer_sized(&mut coprocess, &line);
    assert!(length <= MAX_LINE_BYTES, "the answer is within the limit: {length} bytes");
    assert_eq!(answer["id"], Value::Null, "{:.300}", answer.to_string());
    let bytes = MAX_LINE_BYTES + (r#"{"jsonrpc":"2.0","id":"","error":{"code":-32601,"message":"method not found: `nope`"}}"#.len() - shell.len());
    assert!(answer["error"] == unserved_too_long(bytes), "{:.300}", answer.to_string());
    still_serves(&mut coprocess);
}

#[test]
fn a_parse_error_quoting_a_long_key_is_answer_too_long() {
    let mut coprocess = Coprocess::spawn(MISBEHAVING);
    // A 5 Mi-character key of quotes, 10 MiB as written (`\"` each): the
    // parse error's path quotes it as JSON (`\"`), and the answer writes that
    // message as JSON again (`\\\"`): 20 MiB, over the limit.
    let key = "\\\"".repeat(5 << 20);
    let line = format!(r#"{{"{key}":{{"a":1,"a":2}}}}"#);
    assert!(line.len() <= MAX_LINE_BYTES);
    let (length, answer) = answer_sized(&mut coprocess, &line);
    assert!(length < 200, "the error is a short line: {length} bytes");
    assert_eq!(answer["id"], Value::Null, "{:.300}", answer.to_string());
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    let bytes: usize = message.split(' ').nth(4).and_then(|b| b.parse().ok()).unwrap_or_else(|| panic!("no byte count in {answer:.300}"));
    assert!(bytes > 2 * key.len(), "{message}");
    assert!(answer["error"] == unserved_too_long(bytes), "{:.300}", answer.to_string());
    still_serves(&mut coprocess);
}
