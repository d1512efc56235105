// Command testee answers the conformance cases of docs/targets.md over
// stdin/stdout with the generated package mcptest: one NDJSON case in, one
// answer line out.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"

	"mcptest.local/conformance/mcptest"
)

// testCase is one input line; which members matter depends on Op.
type testCase struct {
	Op         string          `json:"op"`
	Type       string          `json:"type"`
	JSON       string          `json:"json"`
	ID         json.RawMessage `json:"id"`
	SDK        string          `json:"sdk"`
	SDKVersion string          `json:"sdk_version"`
	Lane       string          `json:"lane"`
	Suite      string          `json:"suite"`
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for {
		line, err := in.ReadBytes('\n')
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			out.Write(answer(trimmed))
			out.WriteByte('\n')
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
	}
}

func answer(line []byte) []byte {
	var c testCase
	if err := json.Unmarshal(line, &c); err != nil {
		return failure(errors.New("bad case line: " + err.Error()))
	}
	switch c.Op {
	case "", "decode":
		text := []byte(c.JSON)
		answer := marshaled(mcptest.DecodeByName(c.Type, text))
		if typed := typedDisagreement(c.Type, text, answer); typed != nil {
			return failure(errors.New("testee: the typed envelope disagrees: " + string(typed)))
		}
		return answer
	case "handshake_request":
		id, err := mcptest.DecodeRequestID(c.ID)
		if err != nil {
			return failure(err)
		}
		return success([]byte(mcptest.HandshakeRequest(id, c.SDK, c.SDKVersion)))
	case "check_handshake":
		v, err := mcptest.CheckHandshakeResponse([]byte(c.JSON))
		return marshaled(v, err)
	case "lane_cli_hint":
		hint, ok := mcptest.LaneCLIHint(c.Lane, c.Suite)
		if !ok {
			return success([]byte("null"))
		}
		return success(quote(hint))
	case "constants":
		return success(constants())
	}
	return failure(errors.New("unknown op `" + c.Op + "`"))
}

// typedDisagreement checks the typed envelopes against the open ones on one
// case: RequestOf[Params] must answer exactly as Request, ResponseOf[MCPObject]
// as Response when the result is an object, from text and from a parsed value.
// With a generated member type (CallParams, Verdict, ...), a typed envelope
// must answer as the open envelope and then that type's decoder on the
// member's text do: a rejected frame stays rejected; an accepted one decodes
// to the same value, or fails with the decoder's problem at the member's path
// from the frame's root. A case of a member type is also checked wrapped in an
// envelope. Returns what a typed envelope answered when it disagrees, else nil.
func typedDisagreement(typeName string, text, answer []byte) []byte {
	switch typeName {
	case "Request":
		return firstOf(
			differs(marshaled(mcptest.DecodeRequestOf[mcptest.Params](text)), answer),
			sameFromValue(text, mcptest.DecodeRequestValue, mcptest.DecodeRequestOfValue[mcptest.Params]),
			requestAgrees(text, mcptest.DecodeParams),
			requestAgrees(text, mcptest.DecodeCallParams),
			requestAgrees(text, mcptest.DecodeHandshakeParams),
		)
	case "Response":
		return firstOf(
			openResponseAgrees(text, answer),
			sameFromValue(text, mcptest.DecodeResponseValue, openResponseOfValue),
			responseAgrees(text, mcptest.DecodeMCPObject),
			responseAgrees(text, mcptest.DecodeVerdict),
			responseAgrees(text, mcptest.DecodeCallResult),
			responseAgrees(text, mcptest.DecodeShutdownResult),
			responseAgrees(text, mcptest.DecodeHandshakeResult),
		)
	case "SuccessResponse":
		return firstOf(
			successAgrees(text, mcptest.DecodeMCPObject),
			successAgrees(text, mcptest.DecodeVerdict),
			successAgrees(text, mcptest.DecodeCallResult),
		)
	case "Params":
		return wrappedAgrees(text, `{"jsonrpc":"2.0","id":1,"method":"m","params":`, requestAgreesWith(mcptest.DecodeParams))
	case "CallParams":
		return wrappedAgrees(text, `{"jsonrpc":"2.0","id":1,"method":"m","params":`, requestAgreesWith(mcptest.DecodeCallParams))
	case "HandshakeParams":
		return wrappedAgrees(text, `{"jsonrpc":"2.0","id":1,"method":"m","params":`, requestAgreesWith(mcptest.DecodeHandshakeParams))
	case "McpObject":
		return wrappedAgrees(text, `{"jsonrpc":"2.0","id":"x","result":`, responseAgreesWith(mcptest.DecodeMCPObject))
	case "Verdict":
		return wrappedAgrees(text, `{"jsonrpc":"2.0","id":"x","result":`, responseAgreesWith(mcptest.DecodeVerdict))
	case "CallResult":
		return wrappedAgrees(text, `{"jsonrpc":"2.0","id":"x","result":`, responseAgreesWith(mcptest.DecodeCallResult))
	case "ShutdownResult":
		return wrappedAgrees(text, `{"jsonrpc":"2.0","id":"x","result":`, responseAgreesWith(mcptest.DecodeShutdownResult))
	case "HandshakeResult":
		return wrappedAgrees(text, `{"jsonrpc":"2.0","id":"x","result":`, responseAgreesWith(mcptest.DecodeHandshakeResult))
	}
	return nil
}

// firstOf is the first non-nil disagreement.
func firstOf(disagreements ...[]byte) []byte {
	for _, d := range disagreements {
		if d != nil {
			return d
		}
	}
	return nil
}

// differs is typed when it is not want, else nil.
func differs(typed, want []byte) []byte {
	if bytes.Equal(typed, want) {
		return nil
	}
	return typed
}

// unlessRejected is typed unless it is a rejection (the open frame was rejected).
func unlessRejected(typed []byte) []byte {
	if bytes.HasPrefix(typed, []byte(`{"ok":false`)) {
		return nil
	}
	return typed
}

// sameFromValue compares the open and typed from-value decoders on text's parsed value.
func sameFromValue[O, T json.Marshaler](text []byte, open func(any) (O, error), typed func(any) (T, error)) []byte {
	value, err := mcptest.ParseJSON(text)
	if err != nil {
		return nil
	}
	return differs(marshaled(typed(value)), marshaled(open(value)))
}

// openResponseOfValue is DecodeResponseOfValue[MCPObject] when the result is
// an object or absent, else Response's own answer, so that it answers as
// DecodeResponseValue.
func openResponseOfValue(value any) (json.Marshaler, error) {
	if m, ok := value.(map[string]any); ok {
		if result, ok := m["result"]; ok {
			if _, object := result.(map[string]any); !object {
				return mcptest.DecodeResponseValue(value)
			}
		}
	}
	return mcptest.DecodeResponseOfValue[mcptest.MCPObject](value)
}

// openResponseAgrees checks ResponseOf[MCPObject] against Response: the same
// answer when the response has no result or an object result, else a rejection.
func openResponseAgrees(text, answer []byte) []byte {
	typed := marshaled(mcptest.DecodeResponseOf[mcptest.MCPObject](text))
	raw, ok := member(text, "result")
	if !ok || bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return differs(typed, answer)
	}
	return unlessRejected(typed)
}

// member is the text of the top-level member key of a frame, in document order.
func member(text []byte, key string) (json.RawMessage, bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(text, &members) != nil {
		return nil, false
	}
	raw, ok := members[key]
	return raw, ok
}

// reRooted is the answer of a frame rejected for err, its decoder's problem
// at path (plus err's own path) from the frame's root.
func reRooted(frame, path string, err error) []byte {
	var de *mcptest.DecodingError
	if !errors.As(err, &de) {
		return failure(errors.New("testee: not a *DecodingError: " + err.Error()))
	}
	return failure(&mcptest.DecodingError{Type: frame, Problem: de.Problem, Path: path + strings.TrimPrefix(de.Path, "$")})
}

// requestAgrees checks RequestOf[P] against Request then decode on params.
func requestAgrees[P mcptest.EnvelopeMember[P]](text []byte, decode func([]byte) (P, error)) []byte {
	typed := marshaled(mcptest.DecodeRequestOf[P](text))
	open, err := mcptest.DecodeRequest(text)
	if err != nil {
		return unlessRejected(typed)
	}
	want := mcptest.RequestOf[P]{Jsonrpc: open.Jsonrpc, ID: open.ID, Method: open.Method}
	if open.Params != nil {
		raw, _ := member(text, "params")
		params, err := decode(raw)
		if err != nil {
			return differs(typed, reRooted("Request", "$.params", err))
		}
		want.Params = &params
	}
	return differs(typed, marshaled(want, nil))
}

// responseAgrees checks ResponseOf[R] against Response then decode on result.
func responseAgrees[R mcptest.EnvelopeMember[R]](text []byte, decode func([]byte) (R, error)) []byte {
	typed := marshaled(mcptest.DecodeResponseOf[R](text))
	open, err := mcptest.DecodeResponse(text)
	if err != nil {
		return unlessRejected(typed)
	}
	want := mcptest.ResponseOf[R]{ErrorResponse: open.ErrorResponse}
	if success := open.SuccessResponse; success != nil {
		raw, _ := member(text, "result")
		result, err := decode(raw)
		if err != nil {
			return differs(typed, reRooted("Response", "$.result", err))
		}
		want.SuccessResponse = &mcptest.SuccessResponseOf[R]{Jsonrpc: success.Jsonrpc, ID: success.ID, Result: result}
	}
	return differs(typed, marshaled(want, nil))
}

// successAgrees checks SuccessResponseOf[R] against SuccessResponse then decode on result.
func successAgrees[R mcptest.EnvelopeMember[R]](text []byte, decode func([]byte) (R, error)) []byte {
	typed := marshaled(mcptest.DecodeSuccessResponseOf[R](text))
	open, err := mcptest.DecodeSuccessResponse(text)
	if err != nil {
		return unlessRejected(typed)
	}
	raw, _ := member(text, "result")
	result, err := decode(raw)
	if err != nil {
		return differs(typed, reRooted("SuccessResponse", "$.result", err))
	}
	return differs(typed, marshaled(mcptest.SuccessResponseOf[R]{Jsonrpc: open.Jsonrpc, ID: open.ID, Result: result}, nil))
}

func requestAgreesWith[P mcptest.EnvelopeMember[P]](decode func([]byte) (P, error)) func([]byte) []byte {
	return func(text []byte) []byte { return requestAgrees(text, decode) }
}

func responseAgreesWith[R mcptest.EnvelopeMember[R]](decode func([]byte) (R, error)) func([]byte) []byte {
	return func(text []byte) []byte {
		return firstOf(responseAgrees(text, decode), successAgrees(text, decode))
	}
}

// wrappedAgrees checks a member type's case inside an envelope (prefix + text
// + "}"), when text is one valid JSON text that still is within the depth
// limit once wrapped.
func wrappedAgrees(text []byte, prefix string, agrees func([]byte) []byte) []byte {
	wrapped := append(append([]byte(prefix), text...), '}')
	if _, err := mcptest.ParseJSON(text); err != nil {
		return nil
	}
	if _, err := mcptest.ParseJSON(wrapped); err != nil {
		return nil
	}
	return agrees(wrapped)
}

func constants() []byte {
	b := []byte(`{"protocol_version":` + strconv.Itoa(mcptest.CoprocessProtocolVersion) + `,"methods":[`)
	for i, m := range mcptest.Methods {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, quote(m.Name)...)
	}
	b = append(b, `],"error_codes":{`...)
	for i, c := range mcptest.ErrorCodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, quote(c.Name)...)
		b = append(b, ':')
		b = strconv.AppendInt(b, c.Code, 10)
	}
	b = append(b, `},"unsupported_lanes":[`...)
	for i, lane := range mcptest.UnsupportedLanes {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, quote(lane)...)
	}
	return append(b, "]}"...)
}

func marshaled(v json.Marshaler, err error) []byte {
	if err != nil {
		return failure(err)
	}
	text, err := v.MarshalJSON()
	if err != nil {
		return failure(err)
	}
	return success(text)
}

func success(value []byte) []byte {
	return append(append([]byte(`{"ok":true,"value":`), value...), '}')
}

func failure(err error) []byte {
	return append(append([]byte(`{"ok":false,"error":`), quote(err.Error())...), '}')
}

func quote(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) != nil {
		return []byte(`""`)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}
