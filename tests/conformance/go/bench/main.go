// Command bench measures the decode throughput of the generated strict
// decoders against encoding/json's json.Unmarshal into any, for three
// frames, and prints one markdown table row per frame.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"mcptest.local/conformance/mcptest"
)

const (
	handshakeFrame = `{"jsonrpc":"2.0","id":1,"method":"coprocess/handshake","params":{"protocol_version":2,"sdk":"go","sdk_version":"1.2.3"}}`
	callFrame      = `{"jsonrpc":"2.0","id":7,"method":"mcp.call","params":{"tool":"search","arguments":{"query":"weather in Paris","limit":10,"filters":{"lang":"fr","safe":true}},"timeout_ms":30000}}`
	verdictFrame   = `{"jsonrpc":"2.0","id":7,"result":{"success":true,"data":{"temperature":21.5,"unit":"C","tags":["sunny","warm"]},"text":"21.5 C and sunny","error":null,"duration_ms":42}}`
)

func strictHandshake(b []byte) error {
	_, err := mcptest.DecodeRequest(b)
	return err
}

// strictCall decodes the request with its params typed, in one pass, as the
// Rust and TypeScript rows do (RequestOf<CallParams>).
func strictCall(b []byte) error {
	_, err := mcptest.DecodeRequestOf[mcptest.CallParams](b)
	return err
}

// strictVerdict decodes the answer with its result typed, in one pass, as the
// session client does (ResponseOf<CallResult>).
func strictVerdict(b []byte) error {
	response, err := mcptest.DecodeResponseOf[mcptest.CallResult](b)
	if err == nil && response.SuccessResponse == nil {
		err = fmt.Errorf("not a success response")
	}
	return err
}

func plain(b []byte) error {
	var v any
	return json.Unmarshal(b, &v)
}

// rates measures strict and plain over frame in alternated rounds, so that
// both see the same load on a shared machine, and returns the best frames per
// second of each.
func rates(strict, plain func([]byte) error, frame []byte, budget time.Duration) (float64, float64) {
	for _, decode := range []func([]byte) error{strict, plain} {
		if err := decode(frame); err != nil {
			fmt.Fprintln(os.Stderr, "bench frame does not decode:", err)
			os.Exit(1)
		}
	}
	const rounds = 10
	var best [2]float64
	for round := 0; round < rounds; round++ {
		for i, decode := range []func([]byte) error{strict, plain} {
			if r := rate(decode, frame, budget/rounds); r > best[i] {
				best[i] = r
			}
		}
	}
	return best[0], best[1]
}

// rate runs decode repeatedly for about budget and returns frames per second.
func rate(decode func([]byte) error, frame []byte, budget time.Duration) float64 {
	n := 0
	start := time.Now()
	for time.Since(start) < budget {
		for i := 0; i < 1000; i++ {
			_ = decode(frame)
		}
		n += 1000
	}
	return float64(n) / time.Since(start).Seconds()
}

func main() {
	budget := time.Second
	if d, err := time.ParseDuration(os.Getenv("BENCH_BUDGET")); err == nil {
		budget = d
	}
	frames := []struct {
		name   string
		text   string
		strict func([]byte) error
	}{
		{"handshake Request", handshakeFrame, strictHandshake},
		{"mcp.call Request (CallParams)", callFrame, strictCall},
		{"Response with Verdict (CallResult)", verdictFrame, strictVerdict},
	}
	for _, f := range frames {
		strict, baseline := rates(f.strict, plain, []byte(f.text), budget)
		fmt.Printf("| go | %s | %.0f | %.0f | %.2f |\n", f.name, strict, baseline, baseline/strict)
	}
}
