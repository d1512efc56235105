// Command bench measures the Go session client's own CPU per call: the
// generated client against a coprocess that answers every mcp.call at once
// (tests/client_conformance/echo_coprocess.py), next to a raw loop that
// writes the same request line and reads one line back without decoding.
// Each of ROUNDS rounds opens both side by side in this one process and runs
// their calls in alternated blocks (BENCH_BLOCK, default 1,000 calls), so that
// both see the same state of the machine; a loop's figure is the process's
// user + system CPU time (getrusage) over its blocks, so the coprocess and
// the wait on the pipe do not count. Also the resident
// set (VmRSS) after 1k, 10k and 100k client calls.
//
//	bench ECHO [CALLS [ROUNDS]]   (default 100000 and 5; see bench.sh)
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mcptest.local/client_bench/mcptest"
)

// cpu is the process's user + system CPU time so far (all its threads).
func cpu() time.Duration {
	var usage syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &usage); err != nil {
		return 0
	}
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
}

// rssKiB is the process's resident set now (Linux), or 0.
func rssKiB() string {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "0"
	}
	for _, line := range strings.Split(string(status), "\n") {
		if fields := strings.Fields(line); len(fields) > 1 && fields[0] == "VmRSS:" {
			return fields[1]
		}
	}
	return "0"
}

// rssAt are the calls after which the resident set is noted.
var rssAt = map[int]bool{1000: true, 10000: true, 100000: true}

// rawLoop is the raw loop: the echo coprocess spawned with plain pipes,
// written the bench's request line and read one line back, nothing decoded.
type rawLoop struct {
	process *exec.Cmd
	stdin   io.WriteCloser
	reader  *bufio.Reader
	line    []byte
}

func startRaw(echo string) (*rawLoop, error) {
	process := exec.Command(echo)
	stdin, err := process.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := process.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := process.Start(); err != nil {
		return nil, err
	}
	reader := bufio.NewReaderSize(stdout, 1<<16)
	hello := mcptest.HandshakeRequest(mcptest.RequestID{Int: 1}, "go", "bench") + "\n"
	if _, err := stdin.Write([]byte(hello)); err != nil {
		return nil, err
	}
	if _, err := reader.ReadSlice('\n'); err != nil {
		return nil, err
	}
	params := mcptest.CallParams{Tool: "bench"}
	request := mcptest.RequestOf[mcptest.CallParams]{Jsonrpc: mcptest.JSONRPCVersion20, ID: mcptest.RequestID{Int: 2}, Method: mcptest.MethodMCPCall, Params: &params}
	line, err := request.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return &rawLoop{process: process, stdin: stdin, reader: reader, line: append(line, '\n')}, nil
}

// run makes calls raw calls: the CPU they took.
func (raw *rawLoop) run(calls int) (time.Duration, error) {
	started := cpu()
	for i := 0; i < calls; i++ {
		if _, err := raw.stdin.Write(raw.line); err != nil {
			return 0, err
		}
		if _, err := raw.reader.ReadSlice('\n'); err != nil {
			return 0, err
		}
	}
	return cpu() - started, nil
}

func (raw *rawLoop) close() error {
	_ = raw.stdin.Close()
	return raw.process.Wait()
}

// clientCalls makes calls client calls after the round's first done (the
// resident set is noted after each of rssAt): the CPU they took.
func clientCalls(client *mcptest.Client, calls, done int, rss *[]string) (time.Duration, error) {
	ctx := context.Background()
	params := mcptest.CallParams{Tool: "bench"}
	started := cpu()
	for call := done + 1; call <= done+calls; call++ {
		if _, err := client.Call(ctx, params); err != nil {
			return 0, err
		}
		if rssAt[call] {
			*rss = append(*rss, rssKiB())
		}
	}
	return cpu() - started, nil
}

// round opens the raw loop and a client session side by side and makes calls
// calls of each in alternated blocks of block (which of the two goes first
// alternates too), so that both see the same state of the machine: the CPU
// each took, and the resident set the client's calls noted.
func round(echo string, calls, block int) (rawCPU, clientCPU time.Duration, rss []string, err error) {
	raw, err := startRaw(echo)
	if err != nil {
		return 0, 0, nil, fmt.Errorf("raw loop: %w", err)
	}
	defer func() {
		if closed := raw.close(); err == nil && closed != nil {
			err = fmt.Errorf("raw loop: %w", closed)
		}
	}()
	client, err := mcptest.Start(context.Background(), echo, []string{"server"}, mcptest.ClientOptions{})
	if err != nil {
		return 0, 0, nil, fmt.Errorf("client: %w", err)
	}
	defer client.Close()
	rawFirst := true
	for done := 0; done < calls; done += block {
		n := block
		if calls-done < n {
			n = calls - done
		}
		for _, raws := range [2]bool{rawFirst, !rawFirst} {
			var spent time.Duration
			if raws {
				spent, err = raw.run(n)
				rawCPU += spent
			} else {
				spent, err = clientCalls(client, n, done, &rss)
				clientCPU += spent
			}
			if err != nil {
				return 0, 0, nil, err
			}
		}
		rawFirst = !rawFirst
	}
	return rawCPU, clientCPU, rss, nil
}

// bestAndMedian are the microseconds of CPU per call of the best and the median round.
func bestAndMedian(rounds []time.Duration, calls int) (float64, float64) {
	sort.Slice(rounds, func(i, j int) bool { return rounds[i] < rounds[j] })
	perCall := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(calls) }
	return perCall(rounds[0]), perCall(rounds[len(rounds)/2])
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench ECHO [CALLS [ROUNDS]]")
		os.Exit(2)
	}
	echo, calls, rounds := os.Args[1], 100000, 5
	for i, into := range []*int{&calls, &rounds} {
		if len(os.Args) > i+2 {
			n, err := strconv.Atoi(os.Args[i+2])
			if err != nil || n < 1 {
				fmt.Fprintln(os.Stderr, "CALLS and ROUNDS must be integers of at least 1")
				os.Exit(2)
			}
			*into = n
		}
	}
	var raws, clients []time.Duration
	var rss []string
	block := 1000
	if given, err := strconv.Atoi(os.Getenv("BENCH_BLOCK")); err == nil && given > 0 {
		block = given
	}
	for i := 1; i <= rounds; i++ {
		raw, client, used, err := round(echo, calls, block)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		raws, clients, rss = append(raws, raw), append(clients, client), used
	}
	perCall := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(calls) }
	pairs := make([]string, len(raws))
	for i := range raws {
		pairs[i] = fmt.Sprintf("%.2f %.2f", perCall(raws[i]), perCall(clients[i]))
	}
	rawBest, rawMedian := bestAndMedian(raws, calls)
	clientBest, clientMedian := bestAndMedian(clients, calls)
	fmt.Printf("go: %d calls x %d rounds in alternated blocks, process CPU (user+system) per call\n", calls, rounds)
	fmt.Printf("raw loop: best %.2f us, median %.2f us\n", rawBest, rawMedian)
	fmt.Printf("client:   best %.2f us, median %.2f us\n", clientBest, clientMedian)
	fmt.Printf("client/raw: %.2f (bests), %.2f (medians); added: %.2f us (bests), %.2f us (medians)\n",
		clientBest/rawBest, clientMedian/rawMedian, clientBest-rawBest, clientMedian-rawMedian)
	fmt.Printf("RSS (KiB) after 1k / 10k / 100k client calls: %s\n", strings.Join(rss, " / "))
	fmt.Printf("summary go %.2f %.2f %.2f %.2f %s\n", rawBest, rawMedian, clientBest, clientMedian, strings.Join(rss, " "))
	// Each round's raw and client figures, in the order run (bench-all.sh
	// takes the median of the per-round ratios).
	fmt.Printf("rounds go %s\n", strings.Join(pairs, " "))
}
