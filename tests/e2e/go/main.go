// Command client drives the mcptest coprocess end to end with the generated
// session client, mcptest.Client, its frame types and the standard library
// only. The real binary is started by mcptest.Start from the binary and the
// server argv that MCPTEST_ARGV carries; a fake coprocess (not a binary) is
// started here and driven with mcptest.NewOverStreams. The scenario and the
// coprocess come from the environment (see tests/e2e.rs); the report is one
// JSON line on stdout.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"mcptest.local/e2e/mcptest"
)

var options = mcptest.ClientOptions{Timeout: 60 * time.Second, SDK: "go", SDKVersion: "0.0.0-e2e"}

const exitTimeout = 20 * time.Second

// splitShell splits a --server-command the way the binary does (POSIX
// shell words: single quotes, double quotes, backslashes).
func splitShell(text string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(text[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unclosed single quote in the server command")
			}
			word.WriteString(text[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' && i+1 < len(text) && strings.IndexByte("\\\"$`\n", text[i+1]) >= 0 {
					i++
				}
				word.WriteByte(text[i])
			}
			if i >= len(text) {
				return nil, errors.New("unclosed double quote in the server command")
			}
			inWord = true
		case c == '\\' && i+1 < len(text):
			i++
			word.WriteByte(text[i])
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// start is the generated client on the coprocess of argv: started by the
// client when argv is the binary's own command line, else over the streams
// of a process started here (returned, to wait for).
func start(ctx context.Context, argv []string) (*mcptest.Client, *exec.Cmd, error) {
	if len(argv) == 5 && strings.Join(argv[1:4], " ") == "exec --connection-server --server-command" {
		serverArgv, err := splitShell(argv[4])
		if err != nil {
			return nil, nil, err
		}
		client, err := mcptest.Start(ctx, argv[0], serverArgv, options)
		return client, nil, err
	}
	if len(argv) == 0 {
		return nil, nil, errors.New("MCPTEST_ARGV is empty")
	}
	process := exec.Command(argv[0], argv[1:]...)
	process.Stderr = os.Stderr
	stdin, err := process.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := process.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := process.Start(); err != nil {
		return nil, nil, err
	}
	client, err := mcptest.NewOverStreams(ctx, stdout, stdin, options)
	if err != nil {
		_, _ = waitExit(process)
		return nil, nil, err
	}
	return client, process, nil
}

// waitExit waits a bounded time for process to exit (its stdin closed).
func waitExit(process *exec.Cmd) (int, error) {
	done := make(chan error, 1)
	go func() { done <- process.Wait() }()
	select {
	case err := <-done:
		var exitErr *exec.ExitError
		if err != nil && !errors.As(err, &exitErr) {
			return 0, err
		}
		return process.ProcessState.ExitCode(), nil
	case <-time.After(exitTimeout):
		_ = process.Process.Kill()
		return 0, fmt.Errorf("the coprocess did not exit within %v", exitTimeout)
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

func full(ctx context.Context, argv []string) (map[string]any, error) {
	client, _, err := start(ctx, argv)
	if err != nil {
		return nil, err
	}
	defer client.Close()
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
	initialize, err := client.Initialize(ctx, nil)
	if err != nil {
		return nil, err
	}
	tools, err := client.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	result, err := client.Call(ctx, callParams)
	if err != nil {
		return nil, err
	}
	resource, err := client.ReadResource(ctx, resourceParams)
	if err != nil {
		return nil, err
	}
	prompt, err := client.CallPrompt(ctx, promptParams)
	if err != nil {
		return nil, err
	}
	shutdown, err := client.Shutdown(ctx, nil)
	if err != nil {
		return nil, err
	}
	if err := client.Close(); err != nil {
		return nil, err
	}
	exitCode, exited := client.ExitStatus()
	if !exited {
		return nil, errors.New("the coprocess has no exit status after close")
	}
	return map[string]any{
		"scenario":   "full",
		"handshake":  reported(client.HandshakeResult()),
		"initialize": reported(initialize),
		"tools":      toolNames(tools),
		"call":       reported(result),
		"resource":   reported(resource),
		"prompt":     reported(prompt),
		"shutdown":   reported(shutdown),
		"exit_code":  exitCode,
	}, nil
}

func handshakeOnly(ctx context.Context, argv []string) (map[string]any, error) {
	client, process, err := start(ctx, argv)
	var refused *mcptest.HandshakeError
	if errors.As(err, &refused) {
		return map[string]any{"scenario": "handshake", "ok": false, "error": refused.Message}, nil
	}
	if err != nil {
		return nil, err
	}
	defer client.Close()
	handshake := client.HandshakeResult()
	if process != nil {
		if err := client.Close(); err != nil {
			return nil, err
		}
		if _, err := waitExit(process); err != nil {
			return nil, err
		}
	}
	return map[string]any{"scenario": "handshake", "ok": true, "value": reported(handshake)}, nil
}

// noHandshake plays the binary serving an SDK that never handshakes (a v1
// SDK): a client that always handshakes cannot, so two raw request lines do.
func noHandshake(_ context.Context, argv []string) (map[string]any, error) {
	if len(argv) == 0 {
		return nil, errors.New("MCPTEST_ARGV is empty")
	}
	process := exec.Command(argv[0], argv[1:]...)
	process.Stderr = os.Stderr
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
	defer func() { _ = process.Process.Kill() }()
	reader := bufio.NewReader(stdout)
	var answers []mcptest.SuccessResponse
	for id, method := range []string{mcptest.MethodMCPListTools, mcptest.MethodMCPShutdown} {
		request := mcptest.Request{Jsonrpc: mcptest.JSONRPCVersion20, ID: mcptest.RequestID{Int: int64(id + 1)}, Method: method}
		line, err := request.MarshalJSON()
		if err != nil {
			return nil, err
		}
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			return nil, err
		}
		answer, err := reader.ReadBytes('\n')
		if err != nil {
			return nil, errors.New("the coprocess closed its stdout without answering")
		}
		response, err := mcptest.DecodeResponse(answer)
		if err != nil {
			return nil, err
		}
		if failure := response.ErrorResponse; failure != nil {
			return nil, fmt.Errorf("%s answered %d: %s", method, failure.Error.Code, failure.Error.Message)
		}
		answers = append(answers, *response.SuccessResponse)
	}
	tools, err := mcptest.DecodeListToolsResultValue(answers[0].Result)
	if err != nil {
		return nil, err
	}
	_ = stdin.Close()
	exitCode, err := waitExit(process)
	if err != nil {
		return nil, err
	}
	return map[string]any{"scenario": "no_handshake", "tools": toolNames(tools), "exit_code": exitCode}, nil
}

func main() {
	scenario := os.Getenv("E2E_SCENARIO")
	scenarios := map[string]func(context.Context, []string) (map[string]any, error){
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
		return run(context.Background(), argv)
	}()
	if err != nil {
		report = map[string]any{"scenario": scenario, "failed": fmt.Sprintf("%T: %v", err, err)}
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
