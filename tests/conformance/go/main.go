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
		v, err := mcptest.DecodeByName(c.Type, []byte(c.JSON))
		return marshaled(v, err)
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
