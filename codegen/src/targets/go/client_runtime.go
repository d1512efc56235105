// The schema-independent part of the generated Go session client (codegen's
// Go target splices everything below the import block into client.go, before
// the generated methods): spawning the binary, the handshake, one request in
// flight, every answer checked, timeouts from the context, exit reporting and
// Close. It names the generated frame helpers and message templates of
// coprocess.go (every error's wording is the contract's) and one name of
// client.go, clientShutdownMethod. Its unexported names start with client or
// session, which no schema-derived helper does.

package mcptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultCallTimeout is how long a call waits for its answer when its
// context has no deadline and ClientOptions.Timeout is zero (the contract's
// ClientCallTimeoutMs).
const DefaultCallTimeout = ClientCallTimeoutMs * time.Millisecond

// DefaultStartTimeout is how long the handshake waits for its answer when the
// context of Start or NewOverStreams has no deadline and
// ClientOptions.StartTimeout is zero (the contract's ClientStartTimeoutMs).
const DefaultStartTimeout = ClientStartTimeoutMs * time.Millisecond

// DefaultCloseTimeout is how long Close waits for the close method's answer and
// for the exit before it kills the coprocess, when ClientOptions.CloseTimeout
// is zero (the contract's ClientCloseTimeoutMs).
const DefaultCloseTimeout = ClientCloseTimeoutMs * time.Millisecond

// ExitDrain is how long a Client still reads the output of a coprocess that
// has exited, when the output does not end with the exit: a process it
// started may hold the pipes (the contract's ClientExitDrainMs).
const ExitDrain = ClientExitDrainMs * time.Millisecond

// StderrLines is how many of the coprocess's last stderr lines a Client keeps
// (the contract's ClientStderrTailLines).
const StderrLines = ClientStderrTailLines

// clientStderrLineBytes bounds one kept stderr line.
const clientStderrLineBytes = 4096

// The reasons a session is closed that no error message names: a client
// whose handshake failed is never handed out, and a call after the exit
// reports the exit.
const (
	clientClosedAfterHandshake = "after a failed handshake"
	clientClosedAfterExit      = "after the coprocess exited"
)

// clientNotSent wraps the context's error of a call that was never sent.
const clientNotSent = "%s: %w before the request was sent"

// ClientOptions says how a Client spawns, talks to and closes the coprocess.
// The zero value is ready to use.
type ClientOptions struct {
	// Timeout is how long a call waits for its answer when its context has
	// no deadline (zero: DefaultCallTimeout).
	Timeout time.Duration
	// StartTimeout is how long the handshake waits for its answer when the
	// context of Start or NewOverStreams has no deadline (zero:
	// DefaultStartTimeout); starting the binary is slower than a call, and
	// Timeout bounds every later call.
	StartTimeout time.Duration
	// CloseTimeout is how long Close waits for the shutdown answer and the
	// exit before it kills (zero: DefaultCloseTimeout).
	CloseTimeout time.Duration
	// Env is the coprocess's environment (replacing the inherited one), or
	// nil to inherit.
	Env []string
	// Dir is the coprocess's working directory, or empty for the current one.
	Dir string
	// SDK is the SDK name the handshake announces (empty: "go").
	SDK string
	// SDKVersion is the SDK version the handshake announces (empty: "0.0.0").
	SDKVersion string
}

// RPCError is a JSON-RPC error answer to a call; the session goes on.
type RPCError struct {
	// Method is the call's wire name.
	Method string
	// Code is the answer's error code.
	Code int64
	// Name is the code's name in the contract's error-code table, or empty
	// for another code.
	Name string
	// Message is the answer's message.
	Message string
	// Data is the answer's data, or nil when it had none.
	Data any
}

// Error returns the message.
func (e *RPCError) Error() string { return e.Message }

// ProtocolError is an answer that broke the protocol (another id, not JSON,
// too long, not the result's shape): the session is closed and the coprocess
// killed.
type ProtocolError struct {
	// Method is the call's wire name.
	Method string
	// Message says what was wrong, naming the method.
	Message string
	// Detail is what the decoder said, where it said more.
	Detail string
}

// Error returns the message and the detail, where there is one.
func (e *ProtocolError) Error() string { return sessionWithDetail(e.Message, e.Detail) }

// TimeoutError is a call that got no answer before its context's deadline
// (or the client's timeout), or whose context was cancelled while it waited:
// the session is closed and the coprocess killed. It unwraps to the
// context's error (context.DeadlineExceeded for a client timeout).
type TimeoutError struct {
	// Method is the call's wire name.
	Method string
	// Message says how long the call waited, naming the method.
	Message string
	// Timeout is how long the call waited.
	Timeout time.Duration
	err     error
}

// Error returns the message.
func (e *TimeoutError) Error() string { return e.Message }

// Unwrap returns context.DeadlineExceeded or context.Canceled.
func (e *TimeoutError) Unwrap() error { return e.err }

// SessionClosedError is a call on a session that was closed (by Close, by
// the close method, or after a timeout or a protocol error).
type SessionClosedError struct {
	// Method is the call's wire name.
	Method string
	// Message says why the session is closed, naming the method.
	Message string
	// Reason is why the session is closed ("by close()", "after a timeout", ...).
	Reason string
}

// Error returns the message.
func (e *SessionClosedError) Error() string { return e.Message }

// ExitedError is the coprocess ending before it answered: this call and every
// later one fail with it.
type ExitedError struct {
	// Method is the call's wire name.
	Method string
	// Message names the exit status (or signal) and the last stderr lines.
	Message string
	// Status is the exit status, or -1 when it is not known or a signal
	// ended the coprocess.
	Status int
	// Signal is the signal that ended the coprocess, or 0.
	Signal int
	// Stderr is the coprocess's last stderr lines (at most StderrLines).
	Stderr []string
}

// Error returns the message.
func (e *ExitedError) Error() string { return e.Message }

// SpawnError is a binary that could not be started: the message names its
// path and the system's reason. No Client is handed out.
type SpawnError struct {
	// Method is the handshake's wire name.
	Method string
	// Message names the path and the reason.
	Message string
	err     error
}

// Error returns the message.
func (e *SpawnError) Error() string { return e.Message }

// Unwrap returns the error of starting the binary.
func (e *SpawnError) Unwrap() error { return e.err }

// HandshakeError is the binary refusing the handshake (another protocol
// version, a v1 binary, another error answer): its message is the contract's.
// The coprocess is then gone.
type HandshakeError struct {
	// Message is the contract's message (sdk_mismatch or handshake_failed).
	Message string
}

// Error returns the message.
func (e *HandshakeError) Error() string { return e.Message }

func sessionWithDetail(message, detail string) string {
	if detail == "" {
		return message
	}
	return message + ": " + detail
}

// ServerCommand is the --server-command text the binary's shell-style split
// turns back into argv: each argument single-quoted, ' written as '"'"'.
func ServerCommand(argv []string) string {
	quoted := make([]string, len(argv))
	for i, argument := range argv {
		quoted[i] = "'" + strings.ReplaceAll(argument, "'", `'"'"'`) + "'"
	}
	return strings.Join(quoted, " ")
}

// Client is a session with the mcptest coprocess: Start or NewOverStreams,
// then one method per method-table entry, then Close. It is safe for
// concurrent use: one request is in flight at a time and concurrent callers
// are queued, each getting its own answer.
type Client struct {
	lock         chan struct{}
	reader       *sessionReader
	writer       io.Writer
	closers      []io.Closer
	cmd          *exec.Cmd
	waited       chan struct{}
	stderr       *sessionStderr
	timeout      time.Duration
	startTimeout time.Duration
	closeTimeout time.Duration
	nextID       int64
	closed       string
	exit         *sessionExit
	handshake    RoleHandshakeResult
	out          []byte
	// writeArmed is the write deadline set on writer (zero: none yet).
	writeArmed time.Time
	// layout is how the session's success answers are laid out, learnt
	// from the handshake's (nil: its encoder's text held no marks).
	layout *sessionAnswerLayout
	// epoch is when the session was made, the origin of clock.
	epoch time.Time
}

// sessionExit is how the coprocess ended: its status or signal when known.
type sessionExit struct {
	known  bool
	status int
	signal int
	stderr []string
}

// Start runs `<binary> exec --connection-server --server-command <argv>`
// (the argv quoted with ServerCommand) and handshakes within ctx's deadline,
// else within ClientOptions.StartTimeout. It returns a *HandshakeError when
// the binary refuses the handshake (the coprocess is then gone), one of the
// client's errors when the handshake fails otherwise (a *TimeoutError when no
// answer came in time), or a *SpawnError when the binary cannot be started.
func Start(ctx context.Context, binary string, serverArgv []string, options ClientOptions) (*Client, error) {
	var files []*os.File
	closeAll := func() {
		for _, file := range files {
			_ = file.Close()
		}
	}
	pipe := func() (*os.File, *os.File, error) {
		r, w, err := os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	stdinR, stdinW, err := pipe()
	if err != nil {
		return nil, err
	}
	stdoutR, stdoutW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	stderrR, stderrW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	cmd := exec.Command(binary, "exec", "--connection-server", "--server-command", ServerCommand(serverArgv))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	cmd.Env, cmd.Dir = options.Env, options.Dir
	err = cmd.Start()
	for _, file := range []*os.File{stdinR, stdoutW, stderrW} {
		_ = file.Close()
	}
	if err != nil {
		for _, file := range []*os.File{stdinW, stdoutR, stderrR} {
			_ = file.Close()
		}
		return nil, sessionSpawnError(binary, err)
	}
	c := newClient(stdoutR, stdinW, options)
	c.closers = []io.Closer{stdinW, stdoutR}
	c.cmd = cmd
	c.waited = make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(c.waited)
	}()
	c.stderr = &sessionStderr{done: make(chan struct{})}
	go c.stderr.read(stderrR)
	if err := c.handshakeFirst(ctx, options); err != nil {
		return nil, err
	}
	return c, nil
}

// NewOverStreams runs a session over a pair of byte streams (an in-process
// double, a socket): answers are read from r, requests written to w. It
// handshakes within ctx's deadline, else within ClientOptions.StartTimeout,
// before it returns. Close closes w and r where they are io.Closers.
func NewOverStreams(ctx context.Context, r io.Reader, w io.Writer, options ClientOptions) (*Client, error) {
	c := newClient(r, w, options)
	for _, stream := range []any{w, r} {
		if closer, ok := stream.(io.Closer); ok {
			c.closers = append(c.closers, closer)
		}
	}
	if err := c.handshakeFirst(ctx, options); err != nil {
		return nil, err
	}
	return c, nil
}

func newClient(r io.Reader, w io.Writer, options ClientOptions) *Client {
	c := &Client{
		lock:         make(chan struct{}, 1),
		reader:       newSessionReader(r),
		writer:       w,
		timeout:      options.Timeout,
		startTimeout: options.StartTimeout,
		closeTimeout: options.CloseTimeout,
		nextID:       1,
		epoch:        time.Now(),
	}
	if c.timeout <= 0 {
		c.timeout = DefaultCallTimeout
	}
	if c.startTimeout <= 0 {
		c.startTimeout = DefaultStartTimeout
	}
	if c.closeTimeout <= 0 {
		c.closeTimeout = DefaultCloseTimeout
	}
	return c
}

// RoleHandshakeResult is what the binary answered to the handshake (its protocol
// and binary version).
func (c *Client) RoleHandshakeResult() RoleHandshakeResult {
	return c.handshake
}

// ExitStatus is the coprocess's exit status once it has exited (false
// before, over streams, or when a signal ended it).
func (c *Client) ExitStatus() (int, bool) {
	if c.cmd == nil {
		return 0, false
	}
	select {
	case <-c.waited:
		status := c.cmd.ProcessState.ExitCode()
		return status, status >= 0
	default:
		return 0, false
	}
}

// StderrTail is the last lines the coprocess wrote to stderr (at most
// StderrLines); nil over streams.
func (c *Client) StderrTail() []string {
	if c.stderr == nil {
		return nil
	}
	return c.stderr.tail()
}

// Close sends the close method, waits a bounded time (ClientOptions.CloseTimeout)
// for the exit, then kills. Idempotent; later calls fail with a
// *SessionClosedError. It always returns nil.
func (c *Client) Close() error {
	c.lock <- struct{}{}
	defer func() { <-c.lock }()
	deadline := time.Now().Add(c.closeTimeout)
	if c.closed == "" {
		c.closed = MessageClientClosedByClose
		if clientShutdownMethod != "" {
			_, _ = c.exchange(clientShutdownMethod, c.closeTimeout)
		}
	}
	c.finish(time.Until(deadline))
	return nil
}

func (c *Client) handshakeFirst(ctx context.Context, options ClientOptions) error {
	sdk, version := options.SDK, options.SDKVersion
	if sdk == "" {
		sdk = "go"
	}
	if version == "" {
		version = "0.0.0"
	}
	method := RoleHandshakeMethod
	c.lock <- struct{}{}
	defer func() { <-c.lock }()
	id := c.takeID()
	request := HandshakeRequest(RoleRequestId{Int: id}, sdk, version)
	c.out = append(c.out[:0], request...)
	line, tree, err := c.answer(ctx, method, id, c.startTimeout, true)
	if err != nil {
		c.finish(0)
		return err
	}
	result, err := CheckHandshakeResponse(line)
	var decoding *DecodingError
	if errors.As(err, &decoding) {
		c.fail(MessageClientClosedAfterProtocolError)
		message := fillTemplate(MessageClientUndecodable, "method", method, "result_type", "RoleHandshakeResult")
		return &ProtocolError{Method: method, Message: message, Detail: err.Error()}
	}
	if err != nil {
		c.closed = clientClosedAfterHandshake
		c.finish(0)
		return &HandshakeError{Message: err.Error()}
	}
	c.handshake = result
	c.layout = sessionAnswerLayoutOf(tree)
	return nil
}

// WithCallTimeout returns a copy of ctx that bounds the wait of each call
// made with it by timeout, counted from when the call's request is written
// (the per-call timeout of the other SDKs): a call without an answer by then
// fails with a *TimeoutError whose message names timeout, and the session is
// closed. A deadline of ctx that comes sooner still ends the wait first.
func WithCallTimeout(ctx context.Context, timeout time.Duration) context.Context {
	return context.WithValue(ctx, callTimeoutKey{}, timeout)
}

// callTimeoutKey is the context key of WithCallTimeout's timeout.
type callTimeoutKey struct{}

// sessionCallWith is sessionCall with params that are always sent, taken by
// value: the caller's own params passed by address would be moved to the
// heap at each call from another package (the compiler cannot see through
// the generic encoder that it only reads them), one allocation per call.
func sessionCallWith[R EnvelopeMember[R], P EnvelopeMember[P]](ctx context.Context, c *Client, method string, params P, result string) (R, error) {
	return sessionCall[R](ctx, c, method, &params, result)
}

// sessionCall is one call of a typed method: params (nil: none) encoded as
// P, the answer decoded as R, whose $defs name is result.
func sessionCall[R EnvelopeMember[R], P EnvelopeMember[P]](ctx context.Context, c *Client, method string, params *P, result string) (R, error) {
	var zero R
	if err := ctx.Err(); err != nil {
		return zero, fmt.Errorf(clientNotSent, method, err)
	}
	select {
	case c.lock <- struct{}{}:
	default:
		// Another call holds the session: wait for it, or for ctx.
		select {
		case c.lock <- struct{}{}:
		case <-ctx.Done():
			return zero, fmt.Errorf(clientNotSent, method, ctx.Err())
		}
	}
	defer func() { <-c.lock }()
	if err := c.checkOpen(method); err != nil {
		return zero, err
	}
	id := c.takeID()
	request := RoleRequestOf[P]{Jsonrpc: RoleJsonRpcVersion20, ID: RoleRequestId{Int: id}, Method: method, Params: params}
	c.out = appendRoleRequestOf(c.out[:0], request)
	line, err := c.answerLine(ctx, method, c.timeout, true)
	if err != nil {
		return zero, err
	}
	if c.layout != nil {
		if result, ok := sessionDecodeLaidOut[R](c.layout, line, id); ok {
			c.answered(method)
			return result, nil
		}
	}
	tree, err := c.checked(method, id, line)
	if err != nil {
		return zero, err
	}
	response, problem := decodeRoleResponseOf[R](tree)
	if problem != nil {
		c.fail(MessageClientClosedAfterProtocolError)
		message := fillTemplate(MessageClientUndecodable, "method", method, "result_type", result)
		return zero, &ProtocolError{Method: method, Message: message, Detail: problem.toError("RoleResponse").Error()}
	}
	if failure := response.RoleErrorResponse; failure != nil {
		return zero, sessionRPCError(method, failure.Error)
	}
	c.answered(method)
	return response.RoleSuccessResponse.Result, nil
}

// answered follows a success answer to method.
func (c *Client) answered(method string) {
	if method == clientShutdownMethod {
		// The coprocess ends the session after answering: Close only waits.
		c.closed = MessageClientClosedAfterShutdown
	}
}

// sessionAnswerLayout is how a success answer's line is laid out around its
// id and its result: the generated encoder's text of the session's first
// success answer (the handshake's), its id and result replaced by marks, cut
// at them. An answer to call id laid out so is that envelope with the call's
// id, its other members as the first answer had them: only its result is
// left to decode, as the text between the parts (which the whole answer's
// decode reads the same, one container deeper).
type sessionAnswerLayout struct {
	// head comes before the id, middle between the id and the result,
	// tail after the result.
	head, middle, tail []byte
	// result reads the result of each answer in turn, one container deep
	// (one call is in flight at a time): a call allocates no parser.
	result parser
}

// The marks a layout is learnt with: the control character keeps them out
// of any text the encoder writes unescaped.
const (
	sessionIDMark     = "\x01id"
	sessionResultMark = "\x01result"
)

// sessionMarkedResult stands for the result while a layout is learnt: it
// reads any value, and writes the result mark.
type sessionMarkedResult struct{}

// MarshalJSON writes the result mark. (The type's methods are one block,
// which the runtime's pruning keeps whole: no name of the file calls
// readEnvelopeMember, which makes the type an EnvelopeMember.)
func (m sessionMarkedResult) MarshalJSON() ([]byte, error) {
	return m.appendEnvelopeMember(nil), nil
}
func (sessionMarkedResult) readEnvelopeMember(any) (sessionMarkedResult, *shapeError) {
	return sessionMarkedResult{}, nil
}
func (sessionMarkedResult) scanEnvelopeMember(p *parser) (sessionMarkedResult, bool) {
	_, err := p.value()
	return sessionMarkedResult{}, err == nil
}
func (sessionMarkedResult) appendEnvelopeMember(b []byte) []byte {
	return writeString(b, sessionResultMark)
}

// sessionAnswerLayoutOf is the layout of the success answer whose parsed
// tree is tree, or nil when the encoder's text does not hold the marks in
// that order.
func sessionAnswerLayoutOf(tree any) *sessionAnswerLayout {
	answer, problem := decodeRoleSuccessResponseOf[sessionMarkedResult](tree)
	if problem != nil {
		return nil
	}
	answer.ID = RoleRequestId{Str: sessionIDMark, IsString: true}
	text := appendRoleSuccessResponseOf(nil, answer)
	id, result := writeString(nil, sessionIDMark), writeString(nil, sessionResultMark)
	at := bytes.Index(text, id)
	if at < 0 {
		return nil
	}
	rest := text[at+len(id):]
	resultAt := bytes.Index(rest, result)
	if resultAt < 0 {
		return nil
	}
	return &sessionAnswerLayout{
		head:   text[:at],
		middle: rest[:resultAt],
		tail:   rest[resultAt+len(result):],
		result: parser{depth: sessionResultDepth},
	}
}

// sessionResultDepth is the containers around the result in its answer:
// the envelope object.
const sessionResultDepth = 1

// sessionDecodeLaidOut is the result of answer line, decoded as R, when line
// is laid out as a success answer to call id and its result decodes: what
// the decode of the whole answer gives. False sends the answer to that
// decode (which says what is wrong, if anything is).
func sessionDecodeLaidOut[R EnvelopeMember[R]](l *sessionAnswerLayout, line []byte, id int64) (R, bool) {
	var zero R
	var digits [20]byte
	idText := strconv.AppendInt(digits[:0], id, 10)
	fixed := len(l.head) + len(idText) + len(l.middle)
	if len(line) < fixed+len(l.tail) || !bytes.HasPrefix(line, l.head) || !bytes.HasSuffix(line, l.tail) {
		return zero, false
	}
	rest := line[len(l.head):]
	if !bytes.HasPrefix(rest, idText) || !bytes.HasPrefix(rest[len(idText):], l.middle) {
		return zero, false
	}
	// The result read in one pass (see valueAs), not through the tree.
	p := &l.result
	p.s, p.i, p.depth, p.failed = string(line[fixed:len(line)-len(l.tail)]), 0, sessionResultDepth, false
	result, ok := zero.scanEnvelopeMember(p)
	if p.skipSpace(); !ok || p.i < len(p.s) {
		return zero, false
	}
	return result, true
}

func sessionRPCError(method string, problem RoleErrorObject) *RPCError {
	e := &RPCError{Method: method, Code: problem.Code, Message: problem.Message}
	for _, known := range ErrorCodes {
		if known.Code == problem.Code {
			e.Name = known.Name
			break
		}
	}
	if problem.Data != nil {
		e.Data = *problem.Data
	}
	return e
}

// exchange sends a request without params and reads its answer, checked only
// for its id; a timeout does not end the session (Close does).
func (c *Client) exchange(method string, timeout time.Duration) (any, error) {
	id := c.takeID()
	request := RoleRequest{Jsonrpc: RoleJsonRpcVersion20, ID: RoleRequestId{Int: id}, Method: method}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c.out = appendRoleRequest(c.out[:0], request)
	_, tree, err := c.answer(ctx, method, id, timeout, false)
	return tree, err
}

func (c *Client) takeID() int64 {
	id := c.nextID
	c.nextID++
	return id
}

func (c *Client) checkOpen(method string) error {
	if c.exit != nil {
		return c.exitedError(method)
	}
	if c.closed != "" {
		message := fillTemplate(MessageClientClosed, "method", method, "reason", c.closed)
		return &SessionClosedError{Method: method, Message: message, Reason: c.closed}
	}
	return nil
}

// answer writes the request line in c.out and reads its answer: the line
// (valid until the next read) and its parsed tree, the id checked. Without a
// deadline on ctx, timeout bounds the wait; kill says whether a timeout ends
// the session.
func (c *Client) answer(ctx context.Context, method string, id int64, timeout time.Duration, kill bool) ([]byte, any, error) {
	line, err := c.answerLine(ctx, method, timeout, kill)
	if err != nil {
		return nil, nil, err
	}
	tree, err := c.checked(method, id, line)
	if err != nil {
		return nil, nil, err
	}
	return line, tree, nil
}

// answerLine writes the request line in c.out and reads its answer's line
// (valid until the next read), as answer does, unparsed.
func (c *Client) answerLine(ctx context.Context, method string, timeout time.Duration, kill bool) ([]byte, error) {
	started := c.clock()
	deadline, ok := ctx.Deadline()
	if ok {
		// ctx's deadline on started's clock: it may have no monotonic
		// reading (time.Date), and no deadline is compared by the wall
		// clock, which can be set back.
		deadline = started.Add(time.Until(deadline))
	}
	perCall, set := ctx.Value(callTimeoutKey{}).(time.Duration)
	switch {
	case set && (!ok || !deadline.Before(started.Add(perCall))):
		timeout, deadline = perCall, started.Add(perCall)
	case ok:
		timeout = deadline.Sub(started)
	default:
		deadline = started.Add(timeout)
	}
	c.out = append(c.out, '\n')
	if err := c.write(started, deadline); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, c.timedOut(method, timeout, context.DeadlineExceeded, kill)
		}
		return nil, c.ended(method)
	}
	read, expired := c.reader.line(ctx, started, deadline, c.waited)
	if expired {
		cause := ctx.Err()
		if cause == nil {
			cause = context.DeadlineExceeded
		} else if cause == context.Canceled {
			timeout = time.Since(started)
		}
		return nil, c.timedOut(method, timeout, cause, kill)
	}
	if read.err == errSessionTooLong {
		c.fail(MessageClientClosedAfterProtocolError)
		message := fillTemplate(MessageClientTooLong, "method", method, "max_line_bytes", strconv.Itoa(MaxLineBytes))
		return nil, &ProtocolError{Method: method, Message: message}
	}
	if read.err != nil {
		return nil, c.ended(method)
	}
	return read.line, nil
}

// clock is the time now for a call's start, read on the monotonic clock
// alone as the time since epoch: one clock read where time.Now makes two
// (the wall clock too). The deadlines made from it are compared only with
// times that have a monotonic reading, which such comparisons use.
func (c *Client) clock() time.Time {
	return c.epoch.Add(time.Since(c.epoch))
}

// checked is the parsed tree of answer line, its id checked against id.
func (c *Client) checked(method string, id int64, line []byte) (any, error) {
	tree, problem := parseStrict(line)
	if problem != nil {
		c.fail(MessageClientClosedAfterProtocolError)
		message := fillTemplate(MessageClientNotJSON, "method", method)
		return nil, &ProtocolError{Method: method, Message: message, Detail: problem.text()}
	}
	if object, ok := tree.(*jsonObject); ok {
		for i, key := range object.keys {
			if key != "id" {
				continue
			}
			got, isNumber := object.vals[i].(json.Number)
			if n, integral := numberInt(got); !isNumber || !integral || n != id {
				c.fail(MessageClientClosedAfterProtocolError)
				text := string(writeAny(nil, toPublic(object.vals[i])))
				message := fillTemplate(MessageClientWrongID, "method", method, "answer_id", text, "request_id", strconv.FormatInt(id, 10))
				return nil, &ProtocolError{Method: method, Message: message}
			}
		}
	}
	return tree, nil
}

// write writes the request line in c.out before deadline. A write deadline
// already set is kept while it comes no later than deadline and has not
// passed, as sessionReader.arm keeps a read deadline: a write it ends too
// early goes on under deadline.
func (c *Client) write(started, deadline time.Time) error {
	input, timed := c.writer.(interface{ SetWriteDeadline(t time.Time) error })
	if timed && (c.writeArmed.IsZero() || c.writeArmed.After(deadline) || !started.Before(c.writeArmed)) {
		c.writeArmed = deadline
		_ = input.SetWriteDeadline(deadline)
	}
	for out := c.out; ; {
		n, err := c.writer.Write(out)
		if err == nil || !timed || !errors.Is(err, os.ErrDeadlineExceeded) || !time.Now().Before(deadline) {
			return err
		}
		out = out[n:]
		c.writeArmed = deadline
		_ = input.SetWriteDeadline(deadline)
	}
}

func (c *Client) timedOut(method string, timeout time.Duration, cause error, kill bool) error {
	if kill {
		c.fail(MessageClientClosedAfterTimeout)
	}
	template := MessageClientTimeoutStreams
	if c.cmd != nil {
		template = MessageClientTimeout
	}
	ms := strconv.FormatInt(int64(math.Round(float64(timeout)/float64(time.Millisecond))), 10)
	message := fillTemplate(template, "method", method, "ms", ms)
	return &TimeoutError{Method: method, Message: message, Timeout: timeout, err: cause}
}

// ended is the coprocess exiting or closing its output: it waits (bounded)
// for the exit status and the stderr tail, and ends the session.
func (c *Client) ended(method string) error {
	exit := &sessionExit{status: -1}
	if c.cmd != nil {
		if sessionWait(c.waited, c.closeTimeout) {
			exit.known = true
			exit.status = c.cmd.ProcessState.ExitCode()
			if status, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && status.Signaled() {
				exit.signal = int(status.Signal())
			}
			// A process it started may hold stderr open past the exit.
			sessionWait(c.stderr.done, ExitDrain)
		}
		for _, line := range c.stderr.tail() {
			if line != "" {
				exit.stderr = append(exit.stderr, line)
			}
		}
	}
	c.exit = exit
	c.closed = clientClosedAfterExit
	c.finish(0)
	return c.exitedError(method)
}

func (c *Client) exitedError(method string) *ExitedError {
	exit := c.exit
	var message string
	switch {
	case !exit.known:
		message = fillTemplate(MessageClientOutputClosed, "method", method)
	case exit.signal != 0:
		message = fillTemplate(MessageClientKilled, "method", method, "signal", strconv.Itoa(exit.signal))
	default:
		message = fillTemplate(MessageClientExited, "method", method, "status", strconv.Itoa(exit.status))
	}
	if len(exit.stderr) > 0 {
		message = fillTemplate(MessageClientStderrTail, "message", message, "lines", strings.Join(exit.stderr, "\n"))
	}
	stderr := append([]string(nil), exit.stderr...)
	return &ExitedError{Method: method, Message: message, Status: exit.status, Signal: exit.signal, Stderr: stderr}
}

// fail ends the session after a failure: closed for reason, the coprocess killed.
func (c *Client) fail(reason string) {
	c.closed = reason
	c.finish(0)
}

// finish closes the input, waits up to grace for the exit, then kills; then
// closes the output.
func (c *Client) finish(grace time.Duration) {
	if len(c.closers) > 0 {
		_ = c.closers[0].Close()
	}
	if c.cmd != nil {
		if !sessionWait(c.waited, grace) {
			_ = c.cmd.Process.Kill()
			<-c.waited
		}
	}
	for i, closer := range c.closers {
		if i > 0 {
			_ = closer.Close()
		}
	}
}

// sessionSpawnError is the error of a binary that could not be started: its
// path and the system's reason.
func sessionSpawnError(binary string, err error) *SpawnError {
	reason := err.Error()
	var errno syscall.Errno
	if errors.As(err, &errno) {
		reason = errno.Error()
	}
	method := RoleHandshakeMethod
	message := fillTemplate(MessageClientSpawnFailed, "method", method, "path", binary, "reason", reason)
	return &SpawnError{Method: method, Message: message, err: err}
}

// sessionWait waits up to d for done to be closed; false when it was not.
func sessionWait(done <-chan struct{}, d time.Duration) bool {
	select {
	case <-done:
		return true
	default:
	}
	if d <= 0 {
		return false
	}
	bound := time.NewTimer(d)
	defer bound.Stop()
	select {
	case <-done:
		return true
	case <-bound.C:
		return false
	}
}

// errSessionTooLong is a line longer than MaxLineBytes.
var errSessionTooLong = errors.New("line too long")

// errSessionExited is the coprocess's exit, its output drained.
var errSessionExited = errors.New("the coprocess exited")

// sessionLine is one line of output (without its newline) or why there is none.
type sessionLine struct {
	line []byte
	err  error
}

// sessionReader reads one line of output each time it is asked (a line is
// never read ahead, and its bytes stay valid until the next ask), never
// holding more than MaxLineBytes plus its buffer. Output with read deadlines
// (a pipe) is read in the calling goroutine; any other reader by a goroutine
// of its own, which the caller waits for.
type sessionReader struct {
	r     *bufio.Reader
	buf   []byte
	file  sessionDeadline
	want  chan struct{}
	lines chan sessionLine
	// mu orders the read deadlines the calling goroutine and the watchers
	// set: armed is the one set on file (zero: none yet), exitedAt when the
	// exit watcher, started once, saw the coprocess exit (zero: not yet).
	mu       sync.Mutex
	watching bool
	exitedAt time.Time
	armed    time.Time
}

// sessionDeadline is output whose reads a deadline can end (*os.File).
type sessionDeadline interface {
	SetReadDeadline(t time.Time) error
}

func newSessionReader(r io.Reader) *sessionReader {
	reader := &sessionReader{r: bufio.NewReaderSize(r, 1<<16)}
	if file, ok := r.(sessionDeadline); ok && file.SetReadDeadline(time.Time{}) == nil {
		reader.file = file
		return reader
	}
	reader.want = make(chan struct{}, 1)
	reader.lines = make(chan sessionLine, 1)
	go reader.run()
	return reader
}

// line is the next line of output, or expired when none came before
// deadline or before ctx was done. Once exited is closed, only what the
// coprocess wrote before its exit is read, for ExitDrain at most (a process
// it started may hold its output open): then the line is errSessionExited.
// started is when the call began.
func (r *sessionReader) line(ctx context.Context, started, deadline time.Time, exited <-chan struct{}) (sessionLine, bool) {
	if r.file == nil {
		r.want <- struct{}{}
		bound := time.NewTimer(time.Until(deadline))
		defer bound.Stop()
		select {
		case read := <-r.lines:
			return read, false
		case <-bound.C:
		case <-ctx.Done():
		}
		return sessionLine{}, true
	}
	if err := r.arm(started, deadline, exited); err != nil {
		return sessionLine{err: err}, false
	}
	if done := ctx.Done(); done != nil {
		// A cancelled context ends the read too; the watcher is gone before
		// the next read sets its own deadline.
		finished, stopped := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(stopped)
			select {
			case <-done:
				r.mu.Lock()
				r.armed = time.Unix(1, 0)
				_ = r.file.SetReadDeadline(r.armed)
				r.mu.Unlock()
			case <-finished:
			}
		}()
		defer func() {
			close(finished)
			<-stopped
		}()
	}
	r.buf = r.buf[:0]
	for {
		line, err := r.next()
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return sessionLine{line: line, err: err}, false
		}
		if more, err := r.rearm(ctx, started, deadline); err != nil {
			return sessionLine{err: err}, false
		} else if more {
			continue
		}
		if sessionWait(exited, 0) {
			return sessionLine{err: errSessionExited}, false
		}
		return sessionLine{}, true
	}
}

// limit is when a read of the call that started at started ends: its
// deadline, or ExitDrain after the later of its start and the exit once the
// exit watcher has seen the coprocess exit. Called with mu held.
func (r *sessionReader) limit(started, deadline time.Time) time.Time {
	if !r.exitedAt.IsZero() {
		from := started
		if r.exitedAt.After(from) {
			from = r.exitedAt
		}
		if drained := from.Add(ExitDrain); drained.Before(deadline) {
			return drained
		}
	}
	return deadline
}

// arm sets the read deadline of a call before its first read. A deadline
// already set is kept while it comes no later than the call's limit and
// has not passed: a read it ends too early is resumed under the call's own
// limit (rearm), so the runtime's timer is changed once per timeout's worth
// of calls, not on every call. The first call starts the exit watcher (one
// goroutine for the session, not one per call).
func (r *sessionReader) arm(started, deadline time.Time, exited <-chan struct{}) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if exited != nil && !r.watching {
		r.watching = true
		go r.watchExit(exited)
	}
	limit := r.limit(started, deadline)
	if !r.armed.IsZero() && !r.armed.After(limit) && started.Before(r.armed) {
		return nil
	}
	r.armed = limit
	return r.file.SetReadDeadline(limit)
}

// rearm follows a read that a deadline ended: it sets the call's own limit
// and says whether to read on, which it does not once that limit has passed
// or ctx is done (checked under mu, which the cancelling watcher takes too,
// so that a cancellation is never undone).
func (r *sessionReader) rearm(ctx context.Context, started, deadline time.Time) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	limit := r.limit(started, deadline)
	if ctx.Err() != nil || !time.Now().Before(limit) {
		return false, nil
	}
	r.armed = limit
	return true, r.file.SetReadDeadline(limit)
}

// watchExit notes the exit and ends a read in progress ExitDrain after it,
// unless an earlier deadline is set.
func (r *sessionReader) watchExit(exited <-chan struct{}) {
	<-exited
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exitedAt = time.Now()
	if drained := r.exitedAt.Add(ExitDrain); r.armed.IsZero() || r.armed.After(drained) {
		r.armed = drained
		_ = r.file.SetReadDeadline(drained)
	}
}

func (r *sessionReader) run() {
	for range r.want {
		r.buf = r.buf[:0]
		line, err := r.next()
		r.lines <- sessionLine{line: line, err: err}
		if err != nil {
			return
		}
	}
}

// next reads on to the end of the line whose start r.buf holds (empty for a
// new line); at the end of output a last line without its newline is
// dropped (io.EOF). What a read ended by its deadline got stays in r.buf,
// for the next call to go on from.
func (r *sessionReader) next() ([]byte, error) {
	for {
		chunk, err := r.r.ReadSlice('\n')
		switch {
		case err == nil:
			if len(r.buf)+len(chunk)-1 > MaxLineBytes {
				return nil, errSessionTooLong
			}
			if len(r.buf) == 0 {
				return chunk[:len(chunk)-1], nil
			}
			r.buf = append(r.buf, chunk...)
			return r.buf[:len(r.buf)-1], nil
		case err == bufio.ErrBufferFull || errors.Is(err, os.ErrDeadlineExceeded):
			if len(r.buf)+len(chunk) > MaxLineBytes {
				return nil, errSessionTooLong
			}
			r.buf = append(r.buf, chunk...)
			if err != bufio.ErrBufferFull {
				return nil, err
			}
		default:
			return nil, err
		}
	}
}

// sessionStderr keeps the last StderrLines lines of the coprocess's stderr.
type sessionStderr struct {
	mu    sync.Mutex
	lines []string
	done  chan struct{}
}

func (s *sessionStderr) read(file *os.File) {
	defer close(s.done)
	defer file.Close()
	reader := bufio.NewReaderSize(file, clientStderrLineBytes)
	for {
		chunk, err := reader.ReadSlice('\n')
		if len(chunk) > 0 {
			s.add(strings.TrimRight(string(chunk), "\r\n"))
		}
		for err == bufio.ErrBufferFull {
			// The rest of an over-long line is dropped.
			_, err = reader.ReadSlice('\n')
		}
		if err != nil {
			return
		}
	}
}

func (s *sessionStderr) add(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.lines) == StderrLines {
		s.lines = append(s.lines[:0], s.lines[1:]...)
	}
	s.lines = append(s.lines, line)
}

func (s *sessionStderr) tail() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}
