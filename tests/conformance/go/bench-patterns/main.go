// Command bench-patterns is issue 36's pattern benchmark in Go: every probe
// of probes.tsv (the probe type's name, a tab, a frame whose text is a long
// string; written by pattern_bench_inputs of tests/constraints/proof.rs) decoded
// by the generated decoder of its type, through DecodeByName, the entry the
// testee uses, the given number of times, and as many times as
// PatternProbePlain (the same object without a pattern). One line per probe:
// "<number>\t<best ms>\t<1 decoded, 0 refused>\t<best ms, plain>".
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"mcptest.local/conformance/mcptest"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bench-patterns PROBES.tsv REPEATS")
		os.Exit(2)
	}
	repeats, err := strconv.Atoi(os.Args[2])
	if err != nil || repeats < 1 {
		fmt.Fprintln(os.Stderr, "bench-patterns: REPEATS must be a positive integer")
		os.Exit(2)
	}
	file, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-patterns:", err)
		os.Exit(2)
	}
	defer file.Close()
	probes := bufio.NewReaderSize(file, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for number := 0; ; number++ {
		line, err := probes.ReadBytes('\n')
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) == 0 {
			if err != nil {
				return
			}
			continue
		}
		typeName, frame, found := bytes.Cut(line, []byte("\t"))
		if !found {
			fmt.Fprintf(os.Stderr, "bench-patterns: line %d has no tab\n", number+1)
			os.Exit(2)
		}
		best, decoded := bestOf(string(typeName), frame, repeats)
		plain, _ := bestOf("PatternProbePlain", frame, repeats)
		verdict := 0
		if decoded {
			verdict = 1
		}
		fmt.Fprintf(out, "%d\t%.3f\t%d\t%.3f\n", number, best, verdict, plain)
	}
}

// bestOf is the best of repeats decodes of frame as typeName, in
// milliseconds, and whether it decoded.
func bestOf(typeName string, frame []byte, repeats int) (float64, bool) {
	best, decoded := math.Inf(1), false
	for i := 0; i < repeats; i++ {
		started := time.Now()
		_, err := mcptest.DecodeByName(typeName, frame)
		best = math.Min(best, float64(time.Since(started).Nanoseconds())/1e6)
		decoded = err == nil
	}
	return best, decoded
}
