//! The NDJSON channel and the binary's envelope errors.

use mcptest_coprocess::envelope::{read_request, too_long};
use mcptest_coprocess::frames::{error_codes, RequestId};
use mcptest_coprocess::ndjson::{Line, LineReader, LineSplitter};

fn frame(s: &str) -> Line {
    Line::Frame(s.to_string())
}

#[test]
fn partial_reads_several_frames_blank_lines_and_crlf() {
    let mut s = LineSplitter::new(1024);
    assert_eq!(s.push(b"{\"a\""), vec![]);
    assert_eq!(s.push(b":1}\r\n\n  \r\n{\"b\":2}\n{\"c\""), vec![frame("{\"a\":1}"), frame("{\"b\":2}")]);
    assert_eq!(s.push(b":3}"), vec![]);
    assert_eq!(s.finish(), Some(frame("{\"c\":3}")));
    assert_eq!(s.finish(), None);
}

#[test]
fn an_over_long_line_is_skipped_with_bounded_memory_and_the_session_goes_on() {
    let mut s = LineSplitter::new(16);
    let mut lines = Vec::new();
    for _ in 0..1000 {
        lines.extend(s.push(&[b'x'; 1000]));
    }
    lines.extend(s.push(b"\n{\"ok\":1}\n"));
    assert_eq!(lines, vec![Line::TooLong { length: 1_000_000 }, frame("{\"ok\":1}")]);
    // Exactly at the limit is fine; one byte over is not.
    assert_eq!(s.push(&[b'y'; 16]), vec![]);
    assert_eq!(s.push(b"\n"), vec![frame(&"y".repeat(16))]);
    assert_eq!(s.push(&[b'y'; 17]), vec![]);
    assert_eq!(s.push(b"\n"), vec![Line::TooLong { length: 17 }]);
}

#[test]
fn reader_over_a_byte_source() {
    let input: &[u8] = b"{\"a\":1}\n\xff\xfe\n{\"b\":2}";
    let mut reader = LineReader::new(input, 1024);
    assert_eq!(reader.next_line().unwrap(), Some(frame("{\"a\":1}")));
    assert_eq!(reader.next_line().unwrap(), Some(Line::NotUtf8));
    assert_eq!(reader.next_line().unwrap(), Some(frame("{\"b\":2}")));
    assert_eq!(reader.next_line().unwrap(), None);
}

fn code_and_id(line: &str) -> (i64, Option<RequestId>) {
    let response = read_request(line).expect_err(line);
    (response.error.code, response.id)
}

#[test]
fn each_bad_line_gets_the_right_error() {
    assert_eq!(code_and_id("{not json").0, error_codes::PARSE_ERROR);
    assert!(code_and_id("{not json").1.is_none());
    assert_eq!(code_and_id(r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"mcp.shutdown"}"#).0, error_codes::PARSE_ERROR);
    let (code, id) = code_and_id(r#"{"jsonrpc":"2.0","id":5,"method":"mcp.shutdown","extra":1}"#);
    assert_eq!(code, error_codes::INVALID_REQUEST);
    assert!(matches!(id, Some(RequestId::Integer(5))));
    assert_eq!(code_and_id(r#"[1,2]"#).0, error_codes::INVALID_REQUEST);
    assert_eq!(code_and_id(r#"{"jsonrpc":"2.0","method":"mcp.shutdown"}"#).0, error_codes::INVALID_REQUEST);
    assert_eq!(code_and_id(r#"{"jsonrpc":"2.0","id":"a","method":"mcp.nope"}"#).0, error_codes::METHOD_NOT_FOUND);
    let bad_params = read_request(r#"{"jsonrpc":"2.0","id":3,"method":"mcp.call","params":{"arguments":{}}}"#).unwrap_err();
    assert_eq!(bad_params.error.code, error_codes::INVALID_PARAMS);
    assert!(bad_params.error.message.contains("missing field `tool`"), "{}", bad_params.error.message);
    assert_eq!(code_and_id(r#"{"jsonrpc":"2.0","id":3,"method":"mcp.call"}"#).0, error_codes::INVALID_PARAMS);
    assert_eq!(too_long(99).error.code, error_codes::INVALID_REQUEST);
    let ok = read_request(r#"{"jsonrpc":"2.0","id":4,"method":"mcp.shutdown"}"#).unwrap();
    assert_eq!(ok.method.name, "mcp.shutdown");
    let call = read_request(r#"{"jsonrpc":"2.0","id":4,"method":"mcp.call","params":{"tool":"t"}}"#).unwrap();
    let params: mcptest_coprocess::frames::CallParams = call.params().unwrap();
    assert_eq!(params.tool, "t");
}
