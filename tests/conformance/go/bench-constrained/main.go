// Command bench-constrained measures the decode throughput of the constrained
// frame, Turn of the golden constraints output
// (codegen/tests/golden/constraints), through the generated strict decoder
// (every length, pattern, range, item and divisor constraint checked) against
// encoding/json's json.Unmarshal into any, and prints one markdown table row.
// The two alternate over five rounds; the best round of each counts.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"time"

	"mcptest.local/conformance/mcptest"
)

// turnFrame is the constrained frame, the same text in every language's bench.
const turnFrame = `{"tool":"search_docs","server":"https://example.com/mcp","max_turns":12,"rules":["no_network","read_only","cite_sources"],"budget_ms":30000}`

func strictTurn(b []byte) error {
	_, err := mcptest.DecodeTurn(b)
	return err
}

func plain(b []byte) error {
	var v any
	return json.Unmarshal(b, &v)
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
	frame := []byte(turnFrame)
	turn, err := mcptest.DecodeTurn(frame)
	if err != nil || turn.BudgetMs == nil || *turn.BudgetMs != 30000 {
		fmt.Fprintln(os.Stderr, "bench frame does not decode:", err)
		os.Exit(1)
	}
	const rounds = 5
	strict, baseline := 0.0, 0.0
	for round := 0; round < rounds; round++ {
		strict = math.Max(strict, rate(strictTurn, frame, budget/rounds))
		baseline = math.Max(baseline, rate(plain, frame, budget/rounds))
	}
	fmt.Printf("| go | Turn (constrained) | %.0f | %.0f | %.2f |\n", strict, baseline, baseline/strict)
}
