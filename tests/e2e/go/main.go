// Command client drives the mcptest coprocess end to end with the generated
// package mcptest and the standard library only. Every request line is built
// with the generated types and encoders, every response line decoded with the
// generated strict decoders. The scenario and the coprocess come from the
// environment (see tests/e2e.rs); the report is one JSON line on stdout.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"mcptest.local/e2e/mcptest"
)

const (
	sdk         = "go"
	sdkVersion  = "0.0.0-e2e"
	exitTimeout = 20 * time.Second
)

// session is the coprocess and a minimal stdio loop: write one line, read one line.
type session struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	nextID int64
}

func start(argv []string) (*session, error) {
	if len(argv) == 0 {
		return nil, errors.New("MCPTEST_ARGV is empty")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &session{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 1<<16), nextID: 1}
	return s, nil
}

func (s *session) exchange(line string) (string, error) {
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		return "", fmt.Errorf("writing to the coprocess: %w", err)
	}
	answer, err := s.stdout.ReadString('\n')
	if err != nil {
		return "", errors.New("the coprocess closed its stdout without answering")
	}
	return strings.TrimSuffix(strings.TrimSuffix(answer, "\n"), "\r"), nil
}

func (s *session) takeID() mcptest.RequestID {
	id := mcptest.RequestID{Int: s.nextID}
	s.nextID++
	return id
}

func (s *session) handshake() (mcptest.HandshakeResult, error) {
	answer, err := s.exchange(mcptest.HandshakeRequest(s.takeID(), sdk, sdkVersion))
	if err != nil {
		return mcptest.HandshakeResult{}, err
	}
	return mcptest.CheckHandshakeResponse([]byte(answer))
}

// call sends method with params (nil: none) and decodes the response as a
// ResponseOf[R], R the method's result type, read in the same pass.
func call[R mcptest.EnvelopeMember[R]](s *session, method string, params json.Marshaler) (R, error) {
	var zero R
	request := mcptest.Request{Jsonrpc: mcptest.JSONRPCVersion20, ID: s.takeID(), Method: method}
	if params != nil {
		encoded, err := params.MarshalJSON()
		if err != nil {
			return zero, err
		}
		if request.Params, err = mcptest.DecodeParams(encoded); err != nil {
			return zero, err
		}
	}
	line, err := request.MarshalJSON()
	if err != nil {
		return zero, err
	}
	answer, err := s.exchange(string(line))
	if err != nil {
		return zero, err
	}
	response, err := mcptest.DecodeResponseOf[R]([]byte(answer))
	if err != nil {
		return zero, err
	}
	if failure := response.ErrorResponse; failure != nil {
		return zero, fmt.Errorf("%s answered %d: %s", method, failure.Error.Code, failure.Error.Message)
	}
	success := response.SuccessResponse
	if success.ID != request.ID {
		return zero, fmt.Errorf("%s: answer has id %v, request had %v", method, success.ID, request.ID)
	}
	return success.Result, nil
}

func (s *session) closeStdin() { _ = s.stdin.Close() }

func (s *session) waitExit() (int, error) {
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		var exitErr *exec.ExitError
		if err != nil && !errors.As(err, &exitErr) {
			return 0, err
		}
		return s.cmd.ProcessState.ExitCode(), nil
	case <-time.After(exitTimeout):
		return 0, fmt.Errorf("the coprocess did not exit within %v", exitTimeout)
	}
}

func (s *session) kill() {
	if s.cmd.ProcessState == nil {
		_ = s.cmd.Process.Kill()
	}
}

// reported is the report's copy of a value: the generated encoder's text.
func reported(value json.Marshaler) json.RawMessage {
	text, err := value.MarshalJSON()
	if err != nil {
		return json.RawMessage(`null`)
	}
	return text
}

func toolNames(tools mcptest.ListToolsResult) []any {
	names := make([]any, 0, len(tools.Tools))
	for _, tool := range tools.Tools {
		names = append(names, tool["name"])
	}
	return names
}

func env(name string) (string, error) {
	value, ok := os.LookupEnv(name)
	if !ok {
		return "", fmt.Errorf("%s is not set", name)
	}
	return value, nil
}

func full(s *session) (map[string]any, error) {
	handshake, err := s.handshake()
	if err != nil {
		return nil, err
	}
	initialize, err := call[mcptest.InitializeResult](s, mcptest.MethodMCPInitialize, nil)
	if err != nil {
		return nil, err
	}
	tools, err := call[mcptest.ListToolsResult](s, mcptest.MethodMCPListTools, nil)
	if err != nil {
		return nil, err
	}
	var callParams mcptest.CallParams
	var resourceParams mcptest.ReadResourceParams
	var promptParams mcptest.CallPromptParams
	var toolArgs, promptArgs string
	for name, into := range map[string]*string{
		"E2E_TOOL": &callParams.Tool, "E2E_TOOL_ARGS": &toolArgs, "E2E_RESOURCE_URI": &resourceParams.URI,
		"E2E_PROMPT": &promptParams.Name, "E2E_PROMPT_ARGS": &promptArgs,
	} {
		if *into, err = env(name); err != nil {
			return nil, err
		}
	}
	if callParams.Arguments, err = mcptest.DecodeMCPObject([]byte(toolArgs)); err != nil {
		return nil, err
	}
	if promptParams.Arguments, err = mcptest.DecodePromptArguments([]byte(promptArgs)); err != nil {
		return nil, err
	}
	result, err := call[mcptest.CallResult](s, mcptest.MethodMCPCall, callParams)
	if err != nil {
		return nil, err
	}
	resource, err := call[mcptest.ReadResourceResult](s, mcptest.MethodMCPReadResource, resourceParams)
	if err != nil {
		return nil, err
	}
	prompt, err := call[mcptest.CallPromptResult](s, mcptest.MethodMCPCallPrompt, promptParams)
	if err != nil {
		return nil, err
	}
	shutdown, err := call[mcptest.ShutdownResult](s, mcptest.MethodMCPShutdown, nil)
	if err != nil {
		return nil, err
	}
	exitCode, err := s.waitExit()
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"scenario":   "full",
		"handshake":  reported(handshake),
		"initialize": reported(initialize),
		"tools":      toolNames(tools),
		"call":       reported(result),
		"resource":   reported(resource),
		"prompt":     reported(prompt),
		"shutdown":   reported(shutdown),
		"exit_code":  exitCode,
	}, nil
}

func handshakeOnly(s *session) (map[string]any, error) {
	answer, err := s.exchange(mcptest.HandshakeRequest(s.takeID(), sdk, sdkVersion))
	if err != nil {
		return nil, err
	}
	handshake, err := mcptest.CheckHandshakeResponse([]byte(answer))
	var decodeErr *mcptest.DecodingError
	if errors.As(err, &decodeErr) {
		return nil, err
	}
	s.closeStdin()
	if _, waitErr := s.waitExit(); waitErr != nil {
		return nil, waitErr
	}
	if err != nil {
		return map[string]any{"scenario": "handshake", "ok": false, "error": err.Error()}, nil
	}
	return map[string]any{"scenario": "handshake", "ok": true, "value": reported(handshake)}, nil
}

func noHandshake(s *session) (map[string]any, error) {
	tools, err := call[mcptest.ListToolsResult](s, mcptest.MethodMCPListTools, nil)
	if err != nil {
		return nil, err
	}
	if _, err := call[mcptest.ShutdownResult](s, mcptest.MethodMCPShutdown, nil); err != nil {
		return nil, err
	}
	exitCode, err := s.waitExit()
	if err != nil {
		return nil, err
	}
	return map[string]any{"scenario": "no_handshake", "tools": toolNames(tools), "exit_code": exitCode}, nil
}

func main() {
	scenario := os.Getenv("E2E_SCENARIO")
	scenarios := map[string]func(*session) (map[string]any, error){
		"full": full, "handshake": handshakeOnly, "no_handshake": noHandshake,
	}
	report, err := func() (map[string]any, error) {
		run, ok := scenarios[scenario]
		if !ok {
			return nil, fmt.Errorf("unknown E2E_SCENARIO `%s`", scenario)
		}
		var argv []string
		if err := json.Unmarshal([]byte(os.Getenv("MCPTEST_ARGV")), &argv); err != nil {
			return nil, fmt.Errorf("MCPTEST_ARGV: %w", err)
		}
		s, err := start(argv)
		if err != nil {
			return nil, err
		}
		report, err := run(s)
		if err != nil {
			s.kill()
		}
		return report, err
	}()
	if err != nil {
		report = map[string]any{"scenario": scenario, "failed": err.Error()}
	}
	line, marshalErr := json.Marshal(report)
	if marshalErr != nil {
		line = []byte(fmt.Sprintf(`{"scenario":%q,"failed":%q}`, scenario, marshalErr.Error()))
		err = marshalErr
	}
	fmt.Println(string(line))
	if err != nil {
		os.Exit(1)
	}
}
