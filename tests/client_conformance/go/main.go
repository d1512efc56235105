// Command testee is the Go client's testee for the client conformance suite.
//
// It runs every scenario of CLIENT_SCENARIOS with the generated client,
// mcptest.Client, against the scripted fake (CLIENT_FAKE) or the real binary
// (CLIENT_BINARY), and prints one JSON line per scenario: its name and one
// outcome per step (a list of outcomes for a `parallel` step). See
// docs/client-scenarios.md and tests/client_conformance.rs.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"mcptest.local/client_conformance/mcptest"
)

type outcome map[string]any

type step struct {
	Start     *startOptions   `json:"start"`
	Call      string          `json:"call"`
	Params    json.RawMessage `json:"params"`
	TimeoutMs *float64        `json:"timeout_ms"`
	Parallel  []step          `json:"parallel"`
	Close     *struct{}       `json:"close"`
}

type startOptions struct {
	TimeoutMs      *float64 `json:"timeout_ms"`
	StartTimeoutMs *float64 `json:"start_timeout_ms"`
	CloseTimeoutMs *float64 `json:"close_timeout_ms"`
}

type scenario struct {
	Name      string            `json:"name"`
	Coprocess json.RawMessage   `json:"coprocess"`
	Transport string            `json:"transport"`
	Server    []json.RawMessage `json:"server"`
	Steps     []step            `json:"steps"`
}

type run struct {
	scenario scenario
	file     string
	client   *mcptest.Client
	process  *exec.Cmd
}

func milliseconds(ms float64) time.Duration {
	return time.Duration(ms * float64(time.Millisecond))
}

// failure is the outcome of a step that returned err.
func failure(err error) outcome {
	var (
		handshake *mcptest.HandshakeError
		rpc       *mcptest.RPCError
		protocol  *mcptest.ProtocolError
		timeout   *mcptest.TimeoutError
		closed    *mcptest.SessionClosedError
		exited    *mcptest.ExitedError
		spawn     *mcptest.SpawnError
	)
	switch {
	case errors.As(err, &handshake):
		return outcome{"kind": "handshake_error", "message": handshake.Message}
	case errors.As(err, &rpc):
		var name any
		if rpc.Name != "" {
			name = rpc.Name
		}
		return outcome{"kind": "rpc_error", "message": rpc.Message, "detail": "", "code": rpc.Code, "name": name, "data": rpc.Data}
	case errors.As(err, &protocol):
		return outcome{"kind": "protocol_error", "message": protocol.Message, "detail": protocol.Detail}
	case errors.As(err, &timeout):
		return outcome{"kind": "timeout", "message": timeout.Message, "detail": ""}
	case errors.As(err, &closed):
		return outcome{"kind": "closed", "message": closed.Message, "detail": ""}
	case errors.As(err, &exited):
		return outcome{"kind": "exited", "message": exited.Message, "detail": "", "status": exited.Status, "stderr": exited.Stderr}
	case errors.As(err, &spawn):
		return outcome{"kind": "spawn_error", "message": spawn.Message, "detail": ""}
	}
	return outcome{"kind": "crash", "message": fmt.Sprintf("%T: %v", err, err)}
}

func (r *run) start(options startOptions) (outcome, error) {
	root := os.Getenv("CLIENT_ROOT")
	binary := os.Getenv("CLIENT_FAKE")
	var coprocess struct {
		Path string `json:"path"`
	}
	switch {
	case string(r.scenario.Coprocess) == `"binary"`:
		binary = os.Getenv("CLIENT_BINARY")
	case json.Unmarshal(r.scenario.Coprocess, &coprocess) == nil && coprocess.Path != "":
		binary = filepath.Join(root, coprocess.Path)
	}
	argv := []string{"server"}
	if r.scenario.Server != nil {
		argv = argv[:0]
		for _, item := range r.scenario.Server {
			var text string
			var path struct {
				Path string `json:"path"`
			}
			if err := json.Unmarshal(item, &text); err == nil {
				argv = append(argv, text)
			} else if err := json.Unmarshal(item, &path); err == nil {
				argv = append(argv, filepath.Join(root, path.Path))
			} else {
				return nil, fmt.Errorf("a server argument is neither a string nor a path: %s", item)
			}
		}
	}
	env := append(os.Environ(), "CLIENT_SCENARIOS="+r.file, "CLIENT_SCENARIO="+r.scenario.Name)
	settings := mcptest.ClientOptions{Env: env}
	if options.TimeoutMs != nil {
		settings.Timeout = milliseconds(*options.TimeoutMs)
	}
	if options.StartTimeoutMs != nil {
		settings.StartTimeout = milliseconds(*options.StartTimeoutMs)
	}
	if options.CloseTimeoutMs != nil {
		settings.CloseTimeout = milliseconds(*options.CloseTimeoutMs)
	}
	ctx := context.Background()
	if r.scenario.Transport == "streams" {
		process := exec.Command(binary, "exec", "--connection-server", "--server-command", mcptest.ServerCommand(argv))
		process.Env = env
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
		r.process = process
		client, err := mcptest.NewOverStreams(ctx, stdout, stdin, settings)
		if err != nil {
			return nil, err
		}
		r.client = client
	} else {
		client, err := mcptest.Start(ctx, binary, argv, settings)
		if err != nil {
			return nil, err
		}
		r.client = client
	}
	return outcome{"kind": "ok"}, nil
}

// method is the client's method of a wire name (`mcp.cache.set_mode` ->
// CacheSetMode): the one whose name, lower-cased, is the wire name after its
// namespace without dots and underscores, lower-cased.
func method(client *mcptest.Client, wire string) (reflect.Value, bool) {
	_, rest, _ := strings.Cut(wire, ".")
	want := strings.ToLower(strings.NewReplacer(".", "", "_", "").Replace(rest))
	value := reflect.ValueOf(client)
	for i := 0; i < value.NumMethod(); i++ {
		if strings.ToLower(value.Type().Method(i).Name) == want {
			return value.Method(i), true
		}
	}
	return reflect.Value{}, false
}

func (r *run) call(s step) (outcome, error) {
	if r.client == nil {
		return outcome{"kind": "crash", "message": "no client: the scenario's start failed"}, nil
	}
	fn, ok := method(r.client, s.Call)
	if !ok {
		return outcome{"kind": "crash", "message": "no client method for " + s.Call}, nil
	}
	paramType := fn.Type().In(1)
	params := reflect.Zero(paramType)
	if s.Params != nil {
		// The params type's Go name is its schema name (DecodeByName's key).
		named := paramType
		if named.Kind() == reflect.Pointer {
			named = named.Elem()
		}
		decoded, err := mcptest.DecodeByName(named.Name(), s.Params)
		if err != nil {
			return outcome{"kind": "crash", "message": "params: " + err.Error()}, nil
		}
		value := reflect.ValueOf(decoded)
		if paramType.Kind() == reflect.Pointer {
			pointer := reflect.New(paramType.Elem())
			pointer.Elem().Set(value)
			value = pointer
		}
		params = value
	}
	ctx := context.Background()
	if s.TimeoutMs != nil {
		ctx = mcptest.WithCallTimeout(ctx, milliseconds(*s.TimeoutMs))
	}
	results := fn.Call([]reflect.Value{reflect.ValueOf(ctx), params})
	if err, _ := results[1].Interface().(error); err != nil {
		return nil, err
	}
	result := results[0].Interface()
	marshaler, ok := result.(json.Marshaler)
	if !ok {
		return outcome{"kind": "crash", "message": "the result is not a json.Marshaler"}, nil
	}
	text, err := marshaler.MarshalJSON()
	if err != nil {
		return nil, err
	}
	got := outcome{"kind": "ok", "result": json.RawMessage(text)}
	if callResult, ok := result.(mcptest.CallResult); ok {
		reading := mcptest.CallOutcomeOf(callResult)
		got["call_outcome"] = map[string]any{"success": reading.Success, "text": reading.Text, "error": reading.Error}
	}
	return got, nil
}

func (r *run) step(s step) outcome {
	started := time.Now()
	var got outcome
	var err error
	switch {
	case s.Start != nil:
		got, err = r.start(*s.Start)
	case s.Call != "":
		got, err = r.call(s)
	default:
		got = outcome{"kind": "ok"}
		if r.client != nil {
			err = r.client.Close()
		}
	}
	if err != nil {
		got = failure(err)
	}
	got["elapsed_ms"] = float64(time.Since(started).Microseconds()) / 1000
	return got
}

func (r *run) parallel(steps []step) []outcome {
	outcomes := make([]outcome, len(steps))
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for i := range steps {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-gate
			outcomes[i] = r.step(steps[i])
		}(i)
	}
	close(gate)
	wg.Wait()
	return outcomes
}

func (r *run) all() []any {
	defer func() {
		if r.client != nil {
			_ = r.client.Close()
		}
		if r.process != nil {
			_ = r.process.Process.Kill()
			_ = r.process.Wait()
		}
	}()
	var results []any
	for _, s := range r.scenario.Steps {
		if s.Parallel != nil {
			results = append(results, r.parallel(s.Parallel))
		} else {
			results = append(results, r.step(s))
		}
	}
	return results
}

func main() {
	file := os.Getenv("CLIENT_SCENARIOS")
	text, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var scenarios struct {
		Scenarios []scenario `json:"scenarios"`
	}
	if err := json.Unmarshal(text, &scenarios); err != nil {
		fmt.Fprintln(os.Stderr, file+":", err)
		os.Exit(1)
	}
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	for _, s := range scenarios.Scenarios {
		r := &run{scenario: s, file: file}
		if err := out.Encode(map[string]any{"scenario": s.Name, "steps": r.all()}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
