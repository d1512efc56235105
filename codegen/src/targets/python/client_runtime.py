from __future__ import annotations

import collections
import collections.abc
import contextlib
import dataclasses
import json
import math
import os
import queue
import select
import shlex
import subprocess
import sys
import threading
import time
import types
import typing
from dataclasses import dataclass

from mcptest import _coprocess

DEFAULT_CALL_TIMEOUT: typing.Final = _coprocess.CLIENT_CALL_TIMEOUT_MS / 1000
"""Seconds a call waits for its answer unless the client or the call says otherwise."""

DEFAULT_START_TIMEOUT: typing.Final = _coprocess.CLIENT_START_TIMEOUT_MS / 1000
"""Seconds the handshake waits for its answer unless the client says otherwise."""

DEFAULT_CLOSE_TIMEOUT: typing.Final = _coprocess.CLIENT_CLOSE_TIMEOUT_MS / 1000
"""Seconds `close` waits for the close method's answer and for the exit before it kills."""

EXIT_DRAIN: typing.Final = _coprocess.CLIENT_EXIT_DRAIN_MS / 1000
"""Seconds a client still reads the output of a coprocess that has exited, when the
output does not end with the exit (a process it started may hold the pipes)."""

STDERR_LINES: typing.Final = _coprocess.CLIENT_STDERR_TAIL_LINES
"""How many of the coprocess's last stderr lines the client keeps."""

_STDERR_LINE_BYTES: typing.Final = 4096
_CHUNK: typing.Final = 65536
_ID_MARK: typing.Final = "\x00"
_PARAMS_MARK: typing.Final = "\x01"
_RESULT_MARK: typing.Final = "\x02"
_Params = typing.TypeVar("_Params")
_Result = typing.TypeVar("_Result")
_Client = typing.TypeVar("_Client", bound="_Session")


@dataclass(frozen=True)
class ClientOptions:
    """How a client spawns, talks to and closes the coprocess."""

    timeout: float = DEFAULT_CALL_TIMEOUT
    """Seconds a call waits for its answer (a call's own `timeout` overrides it)."""

    start_timeout: float = DEFAULT_START_TIMEOUT
    """Seconds the handshake waits for its answer (starting the binary is slower than a call)."""

    close_timeout: float = DEFAULT_CLOSE_TIMEOUT
    """Seconds `close` waits for the shutdown answer and the exit before it kills."""

    env: collections.abc.Mapping[str, str] | None = None
    """The coprocess's environment (replacing the inherited one), or None to inherit."""

    cwd: str | None = None
    """The coprocess's working directory, or None for the current one."""

    sdk: str = "python"
    """The SDK name the handshake announces."""

    sdk_version: str = "0.0.0"
    """The SDK version the handshake announces."""


class _Method(typing.Generic[_Params, _Result]):
    """One method-table entry as the client calls it, with its request line laid out
    once: a call writes its id and its params (`encode`d) into `line` (without params)
    or `line_with_params`. `in_place` is the result type's single-pass reader, when it
    has one.
    """

    def __init__(
        self,
        name: str,
        encode: collections.abc.Callable[[_Params], str],
        from_value: collections.abc.Callable[[_coprocess.JsonValue], _Result],
        result: str,
        in_place: collections.abc.Callable[[bytes, int, int], _Result | None]
        | None = None,
    ) -> None:
        self.name = name
        self.encode = encode
        self.from_value = from_value
        self.result = result
        self.in_place = in_place
        self.line = _RequestLine(name, params=False)
        self.line_with_params = _RequestLine(name, params=True)


class _RequestLine:
    """The request line of a method, with its newline, laid out once: the generated
    encoder's text of the request with markers for its id and (with params) its
    params, cut at them. A call joins the parts with its id's text and its params'
    text between them (an empty text for none), in the order of `id_first`.
    """

    def __init__(self, name: str, *, params: bool) -> None:
        request = _coprocess.RoleRequestOf(
            jsonrpc="2.0",
            id=_ID_MARK,
            method=name,
            params=_PARAMS_MARK if params else None,
        )
        text = _coprocess.encode_role_request_of(request, lambda mark: mark)
        text += "\n"
        id_mark, params_mark = json.dumps(_ID_MARK), json.dumps(_PARAMS_MARK)
        self.id_first = not params or text.find(id_mark) < text.find(params_mark)
        marks = (id_mark, params_mark) if self.id_first else (params_mark, id_mark)
        self.head, _, rest = text.partition(marks[0])
        self.middle, _, self.tail = ("", "", rest)
        if params:
            self.middle, _, self.tail = rest.partition(marks[1])


class _AnswerLayout:
    """How a success answer's line is laid out around its id and its result: the
    generated encoder's text of the session's first success answer, its id and result
    replaced by markers, cut at them. An answer to request `id` laid out so is that
    envelope with the request's id, its other members as the first answer had them:
    only its result is left to decode, as the text between the parts (which the
    whole answer's decode reads the same, one container deeper).
    """

    def __init__(self, head: str, middle: str, tail: str) -> None:
        self.head = head
        self.middle = middle
        # The line's newline is part of the tail.
        self.tail = tail + "\n"
        self.parts = (head.encode(), middle.encode(), self.tail.encode())

    @staticmethod
    def of(value: _coprocess.JsonValue) -> _AnswerLayout | None:
        """The layout of the success answer `value` (decoded already), or None when
        the encoder's text does not hold the markers in that order."""

        def keep(member: _coprocess.JsonValue) -> _coprocess.JsonValue:
            return member

        try:
            answer = _coprocess.role_success_response_of_from_value(value, keep)
        except _coprocess.DecodeError:
            return None
        marked = dataclasses.replace(answer, id=_ID_MARK, result=_RESULT_MARK)
        text = _coprocess.encode_role_success_response_of(marked, keep)
        head, found, rest = text.partition(json.dumps(_ID_MARK))
        if not found:
            return None
        middle, found, tail = rest.partition(json.dumps(_RESULT_MARK))
        return _AnswerLayout(head, middle, tail) if found else None

    def read(
        self, answer: bytes, number: str, method: _Method[typing.Any, _Result]
    ) -> _Result:
        """The result of the line `answer` when it is laid out as a success answer to
        the request whose id's text is `number`: read in one pass when its text is in
        the plain forms (`method.in_place`), else parsed where it is (`result_of`) and
        decoded. Raises `ValueError` when it is not laid out so or cannot be vouched
        for: the whole answer's decode then says what is wrong."""
        in_place = method.in_place
        if in_place is not None:
            head, middle, tail = self.parts
            envelope = head + number.encode() + middle
            if answer.startswith(envelope) and answer.endswith(tail):
                read = in_place(answer, len(envelope), len(answer) - len(tail))
                if read is not None:
                    return read
        return method.from_value(self.result_of(answer, number))

    def result_of(self, answer: bytes, number: str) -> _coprocess.JsonValue:
        """The strict value of the result in the line `answer` when it is laid out as
        a success answer to the request whose id's text is `number` (read where it is:
        `parse_member`). Raises `ValueError` when it is not laid out so or the quick
        checks cannot vouch for its result (nesting included: fewer brackets than
        `MAX_DEPTH`, which the envelope leaves room for)."""
        line = answer.decode("utf-8")
        head, middle, tail = self.head, self.middle, self.tail
        start = len(head) + len(number)
        if not (
            line.startswith(head)
            and line.startswith(number, len(head))
            and line.startswith(middle, start)
            and line.endswith(tail)
        ):
            raise ValueError("not laid out as the first answer")
        start += len(middle)
        return _coprocess.parse_member(answer, line, start, len(line) - len(tail))


class ClientError(RuntimeError):
    """A call that failed; `method` is its wire name, `message` says what happened.

    `detail` holds what the decoder or the stream said, where there is more to say.
    """

    def __init__(self, method: str, message: str, detail: str = "") -> None:
        super().__init__(f"{message}: {detail}" if detail else message)
        self.method = method
        self.message = message
        self.detail = detail


class RpcError(ClientError):
    """The coprocess answered the call with a JSON-RPC error; the session goes on."""

    def __init__(
        self, method: str, code: int, message: str, data: _coprocess.JsonValue
    ) -> None:
        super().__init__(method, message)
        self.code = code
        self.name = next(
            (name for name, known in _coprocess.ERROR_CODES if known == code), None
        )
        """The code's name in the contract's error-code table, or None for another code."""
        self.data = data


class ProtocolError(ClientError):
    """The answer broke the protocol (another id, not JSON, too long, not the result's
    shape); the session is closed and the coprocess killed.
    """


class CallTimeoutError(ClientError):
    """No answer within the call's timeout; the session is closed and the coprocess killed."""


class SessionClosedError(ClientError):
    """A call on a session that was closed (by `close`, or after a timeout or a protocol error)."""


class SpawnError(ClientError):
    """The coprocess could not be started: the message names the path and the reason."""


class CoprocessExitedError(ClientError):
    """The coprocess ended before answering: its exit status and last stderr lines are kept."""

    def __init__(
        self, method: str, message: str, status: int | None, stderr: tuple[str, ...]
    ) -> None:
        super().__init__(method, message)
        self.status = status
        self.stderr = stderr


class _Failure:
    """Why the reader stopped: end of output, an over-long line, or a read error."""

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail


def _has_interpreter_lock() -> bool:
    """Whether the interpreter lock is on: always before Python 3.13, and on a
    free-threaded build only when it was asked for."""
    enabled = getattr(sys, "_is_gil_enabled", None)
    return True if enabled is None else bool(enabled())


class _Watchdog:
    """Ends the blocking read of a spawned coprocess's stdout once the waiting call's
    deadline passes (after the coprocess exited, once its drain has): a newline
    through a write end opened by the pipe's path (Linux's `/proc/self/fd`), after
    which the session reads no more. It wakes only when a deadline or an exit is
    due.

    A call neither takes the lock nor makes a system call unless the watchdog sleeps
    past its deadline. Each side writes its own attribute before it reads the other's
    (the call `_deadline` then `_wakes` or `fired`; the watchdog `_wakes` or `fired`
    then `_deadline`), and the interpreter lock orders the two threads' attribute
    accesses, so at least one side sees the other: a call that misses a watchdog
    about to sleep indefinitely is seen by it, and a call that stopped waiting is
    never ended after it has read that its read was not. A free-threaded build
    without that lock does not promise the order, and polls instead.
    """

    def __init__(self, process: subprocess.Popen[bytes], stdout: int) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        # Its own descriptor of the pipe, so that the path it opens stays the pipe's
        # whenever the session closes its reader.
        self._wake = os.dup(stdout)
        self._deadline: float | None = None
        # When the watchdog wakes next (None: when told).
        self._wakes: float | None = None
        self._stopped = False
        self.exited_at: float | None = None
        self.fired = False
        threading.Thread(
            target=self._watch_exit, args=(process,), name="coprocess-exit", daemon=True
        ).start()
        threading.Thread(
            target=self._watch, name="coprocess-watchdog", daemon=True
        ).start()

    def arm(self, deadline: float) -> None:
        """A call waits until `deadline`: tells the watchdog only when it sleeps past
        it."""
        self._deadline = deadline
        if self.exited_at is not None:
            # An exit seen before this call: its drain counts from the call.
            self.exited_at = time.monotonic()
        wakes = self._wakes
        if wakes is None or deadline < wakes:
            with self._lock:
                self._changed.notify()

    def disarm(self) -> bool:
        """The call stops waiting: whether the watchdog ended its read."""
        self._deadline = None
        return self.fired

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._changed.notify()

    def _watch_exit(self, process: subprocess.Popen[bytes]) -> None:
        process.wait()
        with self._lock:
            self.exited_at = time.monotonic()
            self._changed.notify()

    def _watch(self) -> None:
        with self._lock:
            while not self._stopped:
                self._wakes = None
                waiting = self._deadline
                now = time.monotonic()
                due = waiting
                if due is not None and self.exited_at is not None:
                    due = self.exited_at + EXIT_DRAIN
                if due is not None and due <= now:
                    self.fired = True
                    if self._deadline is waiting:
                        break
                    # The call stopped waiting meanwhile: its read was not ended.
                    self.fired = False
                    continue
                self._wakes = due
                self._changed.wait(None if due is None else due - now)
        if self.fired:
            with contextlib.suppress(OSError):
                end = os.open(
                    f"/proc/self/fd/{self._wake}", os.O_WRONLY | os.O_NONBLOCK
                )
                try:
                    os.write(end, b"\n")
                finally:
                    os.close(end)
        os.close(self._wake)


def server_command(argv: collections.abc.Sequence[str]) -> str:
    """The `--server-command` text the binary's shell-style split turns back into `argv`."""
    return " ".join(shlex.quote(argument) for argument in argv)


class _Session:
    """The schema-independent session: one request in flight, every answer checked."""

    def __init__(
        self,
        reader: typing.IO[bytes],
        writer: typing.IO[bytes],
        process: subprocess.Popen[bytes] | None,
        options: ClientOptions,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._process = process
        self._timeout = options.timeout
        self._start_timeout = options.start_timeout
        self._close_timeout = options.close_timeout
        self._lock = threading.Lock()
        self._next_id = 1
        self._answer_layout: _AnswerLayout | None = None
        self._answer_layout_sought = False
        self._closed: str | None = None
        self._exit: tuple[int | None, list[str]] | None = None
        self._handshake_result: _coprocess.RoleHandshakeResult | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        # A spawned coprocess's stdout is read in the calling thread: on Linux with a
        # blocking read that a watchdog ends at the timeout, elsewhere polled for it;
        # other streams (and where poll is missing) by a reader thread.
        self._watchdog: _Watchdog | None = None
        self._poll: select.poll | None = None
        self._input: int | None = None
        self._output = -1
        self._exits: int | None = None
        self._exited_at: float | None = None
        if process is not None and self._READS_END_BY_PATH:
            self._input = writer.fileno()
            self._output = reader.fileno()
            self._watchdog = _Watchdog(process, reader.fileno())
        elif process is not None and hasattr(select, "poll"):
            # Its stdin is written with os.write, without the buffered writer.
            self._input = writer.fileno()
            self._poll = select.poll()
            self._poll.register(reader.fileno(), select.POLLIN)
            # The exit is learnt from the process, not from the end of its output.
            self._exits, exited = os.pipe()
            self._poll.register(self._exits, select.POLLIN)
            threading.Thread(
                target=self._watch_exit,
                args=(process, exited),
                name="coprocess-exit",
                daemon=True,
            ).start()
        self._buffer = bytearray()
        self._scanned = 0
        self._lines: queue.SimpleQueue[bytes | _Failure] = queue.SimpleQueue()
        if self._poll is None and self._watchdog is None:
            threading.Thread(
                target=self._read, name="coprocess-stdout", daemon=True
            ).start()
        self._stderr_thread: threading.Thread | None = None
        if process is not None and process.stderr is not None:
            self._stderr_thread = threading.Thread(
                target=self._read_stderr,
                args=(process.stderr,),
                name="coprocess-stderr",
                daemon=True,
            )
            self._stderr_thread.start()

    @classmethod
    def spawn(
        cls: type[_Client],
        binary: str,
        server_argv: collections.abc.Sequence[str],
        options: ClientOptions | None = None,
    ) -> _Client:
        """Starts `<binary> exec --connection-server --server-command <argv>` and
        handshakes. Raises `HandshakeError` (the coprocess is then gone), or a
        `ClientError`: `SpawnError` when the binary cannot be started.
        """
        options = options or ClientOptions()
        command = [
            binary,
            "exec",
            "--connection-server",
            "--server-command",
            server_command(server_argv),
        ]
        try:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=None if options.env is None else dict(options.env),
                cwd=options.cwd,
            )
        except OSError as error:
            method = _coprocess.METHOD_ROLE_HANDSHAKE
            reason = error.strerror or str(error)
            message = _coprocess.CLIENT_SPAWN_FAILED_MESSAGE.format(
                method=method, path=binary, reason=reason[:1].lower() + reason[1:]
            )
            raise SpawnError(method, message) from None
        if process.stdin is None or process.stdout is None:
            process.kill()
            raise OSError("the coprocess has no pipes")
        client = cls(process.stdout, process.stdin, process, options)
        client._handshake(options.sdk, options.sdk_version)
        return client

    @classmethod
    def over_streams(
        cls: type[_Client],
        reader: typing.IO[bytes],
        writer: typing.IO[bytes],
        options: ClientOptions | None = None,
    ) -> _Client:
        """A session over a pair of byte streams (an in-process double, a socket's
        files): answers are read from `reader`, requests written to `writer`.
        Handshakes before it returns.
        """
        options = options or ClientOptions()
        client = cls(reader, writer, None, options)
        client._handshake(options.sdk, options.sdk_version)
        return client

    _SHUTDOWN: typing.ClassVar[str | None] = None

    # Whether a read of a pipe can be ended through the pipe's path (Linux) and the
    # interpreter lock orders the watchdog's attribute accesses (see `_Watchdog`):
    # then a watchdog ends a read past its deadline, else each read is polled first.
    _READS_END_BY_PATH: typing.ClassVar[bool] = (
        os.path.isdir("/proc/self/fd") and _has_interpreter_lock()
    )

    @property
    def handshake_result(self) -> _coprocess.RoleHandshakeResult:
        """What the binary answered to the handshake (its protocol and binary version)."""
        if self._handshake_result is None:
            raise RuntimeError("the session has not handshaken")
        return self._handshake_result

    @property
    def exit_status(self) -> int | None:
        """The coprocess's exit status once it has exited (None before, or over streams)."""
        return None if self._process is None else self._process.poll()

    @property
    def stderr_tail(self) -> tuple[str, ...]:
        """The last lines the coprocess wrote to stderr (at most `STDERR_LINES`)."""
        return tuple(self._stderr)

    def __enter__(self: _Client) -> _Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: types.TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Sends the close method, waits a bounded time for the exit, then kills.
        Idempotent; later calls raise `SessionClosedError`.
        """
        with self._lock:
            deadline = time.monotonic() + self._close_timeout
            if self._closed is None:
                self._closed = _coprocess.CLIENT_CLOSED_BY_CLOSE_MESSAGE
                if self._SHUTDOWN is not None:
                    with contextlib.suppress(ClientError):
                        self._exchange(self._SHUTDOWN, self._close_timeout)
            self._finish(max(0.0, deadline - time.monotonic()))

    def _handshake(self, sdk: str, sdk_version: str) -> None:
        method = _coprocess.METHOD_ROLE_HANDSHAKE
        with self._lock:
            try:
                request_id = self._take_id()
                line = _coprocess.handshake_request(request_id, sdk, sdk_version) + "\n"
                value = self._answer(
                    method, request_id, line.encode("utf-8"), self._start_timeout
                )
                response = _coprocess.role_response_from_value(value)
                self._handshake_result = _coprocess.check_handshake_response(response)
            except _coprocess.HandshakeError:
                self._closed = "after a failed handshake"
                self._finish(0)
                raise
            except _coprocess.DecodeError as error:
                self._fail(_coprocess.CLIENT_CLOSED_AFTER_PROTOCOL_ERROR_MESSAGE)
                message = _coprocess.CLIENT_UNDECODABLE_MESSAGE.format(
                    method=method, result_type="RoleHandshakeResult"
                )
                raise ProtocolError(method, message, str(error)) from None
            except ClientError:
                self._finish(0)
                raise

    def _call(
        self,
        method: _Method[_Params, _Result],
        params: _Params | None,
        timeout: float | None,
    ) -> _Result:
        name = method.name
        with self._lock:
            if self._closed is not None or self._exit is not None:
                self._check_open(name)
            request_id = self._next_id
            self._next_id += 1
            number = str(request_id)
            if params is None:
                line, encoded = method.line, ""
            else:
                line, encoded = method.line_with_params, method.encode(params)
            if line.id_first:
                text = line.head + number + line.middle + encoded + line.tail
            else:
                text = line.head + encoded + line.middle + number + line.tail
            answer = self._answer_line(
                name,
                text.encode("utf-8"),
                self._timeout if timeout is None else timeout,
            )
            layout = self._answer_layout
            if layout is not None:
                try:
                    decoded = layout.read(answer, number, method)
                except ValueError:
                    pass  # The whole answer's decode says what is wrong.
                else:
                    self._answered(name)
                    return decoded
            value = self._checked_answer(name, request_id, answer)
            try:
                response = _coprocess.role_response_of_from_value(value, method.from_value)
            except _coprocess.DecodeError as error:
                self._fail(_coprocess.CLIENT_CLOSED_AFTER_PROTOCOL_ERROR_MESSAGE)
                message = _coprocess.CLIENT_UNDECODABLE_MESSAGE.format(
                    method=name, result_type=method.result
                )
                raise ProtocolError(name, message, str(error)) from None
            if isinstance(response, _coprocess.RoleErrorResponse):
                problem = response.error
                data = (
                    None
                    if isinstance(problem.data, _coprocess.Absent)
                    else problem.data
                )
                raise RpcError(name, problem.code, problem.message, data)
            if not self._answer_layout_sought:
                self._answer_layout_sought = True
                self._answer_layout = _AnswerLayout.of(value)
            self._answered(name)
            return response.result

    def _answered(self, method: str) -> None:
        """A call of `method` was answered with success."""
        if method == self._SHUTDOWN:
            # The coprocess ends the session after answering: close only waits.
            self._closed = _coprocess.CLIENT_CLOSED_AFTER_SHUTDOWN_MESSAGE

    def _exchange(self, method: str, timeout: float) -> _coprocess.JsonValue:
        """Sends a request without params; its answer's value, checked only for its id."""
        request_id = self._take_id()
        request = _coprocess.RoleRequest(jsonrpc="2.0", id=request_id, method=method)
        line = (_coprocess.encode_role_request(request) + "\n").encode("utf-8")
        return self._answer(method, request_id, line, timeout, kill=False)

    def _take_id(self) -> int:
        request_id = self._next_id
        self._next_id += 1
        return request_id

    def _check_open(self, method: str) -> None:
        if self._exit is not None:
            raise self._exited(method)
        if self._closed is not None:
            raise SessionClosedError(
                method,
                _coprocess.CLIENT_CLOSED_MESSAGE.format(
                    method=method, reason=self._closed
                ),
            )

    def _answer(
        self,
        method: str,
        request_id: int,
        line: bytes,
        timeout: float,
        *,
        kill: bool = True,
    ) -> _coprocess.JsonValue:
        """Writes one request line (with its newline) and reads its answer: parsed, its
        id checked.
        """
        answer = self._answer_line(method, line, timeout, kill=kill)
        return self._checked_answer(method, request_id, answer)

    def _answer_line(
        self, method: str, line: bytes, timeout: float, *, kill: bool = True
    ) -> bytes:
        """Writes one request line (with its newline) and reads its answer's line."""
        try:
            self._send(line)
        except (OSError, ValueError):
            raise self._ended(method) from None
        answer = self._next_line(timeout)
        if answer is None:
            if kill:
                self._fail(_coprocess.CLIENT_CLOSED_AFTER_TIMEOUT_MESSAGE)
            milliseconds = round(timeout * 1000)
            template = (
                _coprocess.CLIENT_TIMEOUT_MESSAGE
                if self._process
                else _coprocess.CLIENT_TIMEOUT_STREAMS_MESSAGE
            )
            message = template.format(method=method, ms=milliseconds)
            raise CallTimeoutError(method, message) from None
        if isinstance(answer, _Failure):
            if answer.reason == "too long":
                self._fail(_coprocess.CLIENT_CLOSED_AFTER_PROTOCOL_ERROR_MESSAGE)
                message = _coprocess.CLIENT_TOO_LONG_MESSAGE.format(
                    method=method, max_line_bytes=_coprocess.MAX_LINE_BYTES
                )
                raise ProtocolError(method, message)
            raise self._ended(method)
        return answer

    def _checked_answer(
        self, method: str, request_id: int, answer: bytes
    ) -> _coprocess.JsonValue:
        """The answer's line parsed, its id checked."""
        try:
            value = _coprocess.parse_json(answer)
        except ValueError as error:
            self._fail(_coprocess.CLIENT_CLOSED_AFTER_PROTOCOL_ERROR_MESSAGE)
            raise ProtocolError(
                method,
                _coprocess.CLIENT_NOT_JSON_MESSAGE.format(method=method),
                str(error),
            ) from None
        if isinstance(value, dict) and "id" in value:
            got = value["id"]
            if type(got) is not int or got != request_id:
                self._fail(_coprocess.CLIENT_CLOSED_AFTER_PROTOCOL_ERROR_MESSAGE)
                message = _coprocess.CLIENT_WRONG_ID_MESSAGE.format(
                    method=method, answer_id=json.dumps(got), request_id=request_id
                )
                raise ProtocolError(method, message)
        return value

    def _send(self, line: bytes) -> None:
        """Writes a request line whole: straight to a spawned coprocess's stdin (a
        write that a signal cuts short goes on), else through the writer."""
        if self._input is None:
            self._writer.write(line)
            self._writer.flush()
            return
        written = os.write(self._input, line)
        while written < len(line):
            written += os.write(self._input, line[written:])

    def _next_line(self, timeout: float) -> bytes | _Failure | None:
        """The next line of the coprocess's output, however this session reads it, or
        None when none came within `timeout` seconds."""
        if self._watchdog is not None:
            return self._watched_line(self._watchdog, timeout)
        if self._poll is not None:
            return self._polled_line(self._poll, timeout)
        return self._queued_line(timeout)

    def _queued_line(self, timeout: float) -> bytes | _Failure | None:
        """The next line the reader thread read, or None when none came within
        `timeout` seconds."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def _watched_line(
        self, watchdog: _Watchdog, timeout: float
    ) -> bytes | _Failure | None:
        """The next line of the coprocess's stdout, or None when none came within
        `timeout` seconds: read here, blocking, with at most `MAX_LINE_BYTES` + one
        chunk buffered, while the watchdog ends the read once the deadline (after an
        exit, the drain) has passed."""
        if watchdog.fired:
            # What is left of a read the watchdog ended is not output.
            return _Failure("end of output")
        watchdog.arm(time.monotonic() + timeout)
        line: bytes | _Failure | None = None
        while line is None and not watchdog.fired:
            if self._buffer:
                line = self._buffered_line()
                if line is not None:
                    break
            line = self._read_chunk(self._output)
        fired = watchdog.disarm()
        exited_at = watchdog.exited_at
        if exited_at is not None:
            self._exited_at = exited_at
        if fired:
            return None if exited_at is None else _Failure("exited")
        return line

    def _polled_line(
        self, poll: select.poll, timeout: float
    ) -> bytes | _Failure | None:
        """The next line of the coprocess's stdout, or None when none came within
        `timeout` seconds: read here with at most
        `MAX_LINE_BYTES` + one chunk buffered."""
        deadline = time.monotonic() + timeout
        # The first wait is the whole timeout: no second clock read per call.
        remaining = timeout
        fd = self._reader.fileno()
        while True:
            if self._buffer:
                line = self._buffered_line()
                if line is not None:
                    return line
            if self._exited_at is not None:
                # Only what the coprocess wrote before its exit is still read.
                deadline = self._exited_at + EXIT_DRAIN
                remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None if self._exited_at is None else _Failure("exited")
            readable = False
            for ready, _ in poll.poll(math.ceil(remaining * 1000)):
                if ready == fd:
                    readable = True
                else:
                    # The only other descriptor polled: the exit's pipe, polled
                    # no more once it has said so.
                    poll.unregister(ready)
                    self._exited_at = time.monotonic()
            if readable:
                line = self._read_chunk(fd)
                if line is not None:
                    return line
            remaining = deadline - time.monotonic()

    def _read_chunk(self, fd: int) -> bytes | _Failure | None:
        """Reads what the coprocess wrote: the line when one whole line came (as a
        prompt answer does; kept without a copy), else None with the chunk buffered;
        a failure at the end of output or on a read error."""
        try:
            chunk = os.read(fd, _CHUNK)
        except OSError as error:
            return _Failure("read error", str(error))
        if not chunk:
            # The end of output; a last line without its newline is dropped.
            return _Failure("end of output")
        if not self._buffer and chunk.find(b"\n") == len(chunk) - 1:
            return chunk
        self._buffer += chunk
        return None

    def _buffered_line(self) -> bytes | _Failure | None:
        """The first line of the buffer, taken out of it; a failure when the buffer
        holds more than `MAX_LINE_BYTES` without a whole line, else None."""
        end = self._buffer.find(b"\n", self._scanned)
        if end > _coprocess.MAX_LINE_BYTES or (
            end < 0 and len(self._buffer) > _coprocess.MAX_LINE_BYTES
        ):
            return _Failure("too long")
        if end < 0:
            self._scanned = len(self._buffer)
            return None
        line = bytes(self._buffer[: end + 1])
        del self._buffer[: end + 1]
        self._scanned = 0
        return line

    def _read(self) -> None:
        """The stdout reader: one line at a time, never more than MAX_LINE_BYTES + 1 bytes."""
        self._lines.put(self._read_lines())
        if self._process is not None:
            with contextlib.suppress(OSError, ValueError):
                self._reader.close()

    def _read_lines(self) -> _Failure:
        limit = _coprocess.MAX_LINE_BYTES + 1
        while True:
            try:
                line = self._reader.readline(limit)
            except (OSError, ValueError) as error:
                return _Failure("read error", str(error))
            if not line:
                return _Failure("end of output")
            if not line.endswith(b"\n"):
                # Longer than the limit, or cut short by the end of output.
                return _Failure("too long" if len(line) == limit else "end of output")
            self._lines.put(line)

    def _watch_exit(self, process: subprocess.Popen[bytes], exited: int) -> None:
        """Waits for the coprocess's exit and says so on the `exited` pipe."""
        process.wait()
        with contextlib.suppress(OSError):
            os.write(exited, b"x")
        os.close(exited)

    def _read_stderr(self, stream: typing.IO[bytes]) -> None:
        while True:
            try:
                line = stream.readline(_STDERR_LINE_BYTES)
            except (OSError, ValueError):
                break
            if not line:
                break
            self._stderr.append(line.decode("utf-8", "replace").rstrip("\r\n"))
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def _ended(self, method: str) -> CoprocessExitedError:
        """The coprocess closed its output: wait (bounded) for its status and stderr."""
        status: int | None = None
        if self._process is not None:
            try:
                status = self._process.wait(timeout=self._close_timeout)
            except subprocess.TimeoutExpired:
                status = None
            exited_at = self._exited_at or time.monotonic()
            if status is not None and self._stderr_thread is not None:
                self._stderr_thread.join(
                    timeout=max(0.0, exited_at + EXIT_DRAIN - time.monotonic())
                )
        self._exit = (status, [line for line in self._stderr if line])
        self._closed = "after the coprocess exited"
        self._finish(0)
        return self._exited(method)

    def _exited(self, method: str) -> CoprocessExitedError:
        status, lines = self._exit or (None, [])
        if status is None:
            message = _coprocess.CLIENT_OUTPUT_CLOSED_MESSAGE.format(method=method)
        elif status < 0:
            message = _coprocess.CLIENT_KILLED_MESSAGE.format(
                method=method, signal=-status
            )
        else:
            message = _coprocess.CLIENT_EXITED_MESSAGE.format(
                method=method, status=status
            )
        if lines:
            message = _coprocess.CLIENT_STDERR_TAIL_MESSAGE.format(
                message=message, lines="\n".join(lines)
            )
        return CoprocessExitedError(method, message, status, self.stderr_tail)

    def _fail(self, reason: str) -> None:
        """Ends the session after a failure: closed for `reason`, the coprocess killed."""
        self._closed = reason
        self._finish(0)

    def _finish(self, grace: float) -> None:
        """Closes the input, waits up to `grace` seconds for the exit, then kills."""
        with contextlib.suppress(OSError, ValueError):
            self._writer.close()
        # Its descriptor may be another file's from now on.
        self._input = None
        process = self._process
        if process is None:
            return
        deadline = time.monotonic() + grace
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._watchdog is not None:
            self._watchdog.stop()
        if self._poll is not None or self._watchdog is not None:
            with contextlib.suppress(OSError, ValueError):
                self._reader.close()
        if self._exits is not None:
            os.close(self._exits)
            self._exits = None
