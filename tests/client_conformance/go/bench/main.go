// Command bench measures the Go session client: calls per second through the
// generated client against a coprocess that answers every mcp.call at once
// (tests/client_conformance/echo_coprocess.py), next to a raw loop that
// writes the same request line and reads one line back without decoding; and
// the peak memory over the calls. The two loops alternate for ROUNDS rounds
// (the machine's load shifts under a single pair); each round is printed
// and the best time per call of each is compared.
//
//	bench ECHO [CALLS [ROUNDS]]   (default 100000 and 3; see bench.sh)
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mcptest.local/client_bench/mcptest"
)

// peakKiB is the process's peak resident set size.
func peakKiB() int64 {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return -1
	}
	return int64(usage.Maxrss)
}

func clientLoop(echo string, calls int) (time.Duration, []string, error) {
	ctx := context.Background()
	client, err := mcptest.Start(ctx, echo, []string{"server"}, mcptest.ClientOptions{})
	if err != nil {
		return 0, nil, err
	}
	defer client.Close()
	params := mcptest.CallParams{Tool: "bench"}
	var memory []string
	started := time.Now()
	for done := 1; done <= calls; done++ {
		if _, err := client.Call(ctx, params); err != nil {
			return 0, nil, err
		}
		if done%(calls/4) == 0 {
			var stats runtime.MemStats
			runtime.ReadMemStats(&stats)
			memory = append(memory, fmt.Sprintf("%d: %d KiB (heap in use %d KiB)", done, peakKiB(), stats.HeapInuse/1024))
		}
	}
	return time.Since(started), memory, nil
}

func rawLoop(echo string, calls int) (time.Duration, error) {
	process := exec.Command(echo)
	stdin, err := process.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := process.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := process.Start(); err != nil {
		return 0, err
	}
	reader := bufio.NewReaderSize(stdout, 1<<16)
	hello := mcptest.HandshakeRequest(mcptest.RequestID{Int: 1}, "go", "bench") + "\n"
	if _, err := stdin.Write([]byte(hello)); err != nil {
		return 0, err
	}
	if _, err := reader.ReadSlice('\n'); err != nil {
		return 0, err
	}
	params := mcptest.CallParams{Tool: "bench"}
	request := mcptest.RequestOf[mcptest.CallParams]{Jsonrpc: mcptest.JSONRPCVersion20, ID: mcptest.RequestID{Int: 2}, Method: mcptest.MethodMCPCall, Params: &params}
	line, err := request.MarshalJSON()
	if err != nil {
		return 0, err
	}
	line = append(line, '\n')
	started := time.Now()
	for i := 0; i < calls; i++ {
		if _, err := stdin.Write(line); err != nil {
			return 0, err
		}
		if _, err := reader.ReadSlice('\n'); err != nil {
			return 0, err
		}
	}
	elapsed := time.Since(started)
	_ = stdin.Close()
	return elapsed, process.Wait()
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench ECHO [CALLS]")
		os.Exit(2)
	}
	echo, calls, rounds := os.Args[1], 100000, 3
	for i, into := range []*int{&calls, &rounds} {
		if len(os.Args) > i+2 {
			n, err := strconv.Atoi(os.Args[i+2])
			if err != nil || n < 1 || (into == &calls && n < 4) {
				fmt.Fprintln(os.Stderr, "CALLS must be an integer of at least 4, ROUNDS at least 1")
				os.Exit(2)
			}
			*into = n
		}
	}
	perCall := func(d time.Duration) string {
		return fmt.Sprintf("%.0f calls/s (%.1f us/call)", float64(calls)/d.Seconds(), float64(d.Microseconds())/float64(calls))
	}
	var bestRaw, bestClient time.Duration
	var memory []string
	fmt.Printf("calls: %d per loop, %d rounds\n", calls, rounds)
	for round := 1; round <= rounds; round++ {
		raw, err := rawLoop(echo, calls)
		if err != nil {
			fmt.Fprintln(os.Stderr, "raw loop:", err)
			os.Exit(1)
		}
		client, used, err := clientLoop(echo, calls)
		if err != nil {
			fmt.Fprintln(os.Stderr, "client:", err)
			os.Exit(1)
		}
		fmt.Printf("round %d: raw loop %s, client %s, client/raw %.2f\n", round, perCall(raw), perCall(client), client.Seconds()/raw.Seconds())
		if bestRaw == 0 || raw < bestRaw {
			bestRaw = raw
		}
		if bestClient == 0 || client < bestClient {
			bestClient = client
		}
		memory = used
	}
	fmt.Printf("best raw loop: %s\n", perCall(bestRaw))
	fmt.Printf("best client:   %s\n", perCall(bestClient))
	fmt.Printf("client/raw time per call (best of each): %.2f\n", bestClient.Seconds()/bestRaw.Seconds())
	fmt.Printf("peak RSS after N calls (last round): %s\n", strings.Join(memory, ", "))
}
