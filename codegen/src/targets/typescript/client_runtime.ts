import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { constants } from "node:os";
import type { Readable, Writable } from "node:stream";
import { getSystemErrorMap } from "node:util";

import * as coprocess from "./coprocess.js";

/** Milliseconds a call waits for its answer unless the client or the call says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = coprocess.CLIENT_CALL_TIMEOUT_MS;

/** Milliseconds the handshake waits for its answer unless the client says otherwise. */
export const DEFAULT_START_TIMEOUT_MS = coprocess.CLIENT_START_TIMEOUT_MS;

/** Milliseconds `close` waits for the close method's answer and for the exit before it kills. */
export const DEFAULT_CLOSE_TIMEOUT_MS = coprocess.CLIENT_CLOSE_TIMEOUT_MS;

/**
 * Milliseconds a client still reads the output of a coprocess that has exited,
 * when the output does not end with the exit (a process it started may hold the pipes).
 */
export const EXIT_DRAIN_MS = coprocess.CLIENT_EXIT_DRAIN_MS;

/** How many of the coprocess's last stderr lines the client keeps. */
export const STDERR_LINES = coprocess.CLIENT_STDERR_TAIL_LINES;

/** The longest stderr line kept whole; a longer one is kept in pieces. */
const _STDERR_LINE_BYTES = 4096;

/** The longest delay `setTimeout` takes; a longer timeout waits without a timer. */
const _MAX_TIMER_MS = 2_147_483_647;

/** How a client spawns, talks to and closes the coprocess. */
export interface ClientOptions {
  /** Milliseconds a call waits for its answer (a call's own `timeoutMs` overrides it). */
  readonly timeoutMs?: number;
  /**
   * Milliseconds the handshake waits for its answer (starting the binary is
   * slower than a call); the call timeout bounds every later call.
   */
  readonly startTimeoutMs?: number;
  /** Milliseconds `close` waits for the shutdown answer and the exit before it kills. */
  readonly closeTimeoutMs?: number;
  /** The coprocess's environment (replacing the inherited one); inherited when absent. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The coprocess's working directory; the current one when absent. */
  readonly cwd?: string;
  /** The SDK name the handshake announces. */
  readonly sdk?: string;
  /** The SDK version the handshake announces. */
  readonly sdkVersion?: string;
}

/** What one call may say besides its params. */
export interface CallOptions {
  /** Milliseconds this call waits for its answer, instead of the client's. */
  readonly timeoutMs?: number;
  /**
   * Aborts the call: while it waits for its turn, it is dropped; once sent, the
   * session is closed (and a spawned coprocess killed) as after a timeout.
   */
  readonly signal?: AbortSignal;
}

/**
 * The wording of the client's errors: the contract's (`x-coprocess.messages`),
 * and the two reasons that only this client has.
 */
const _messages = {
  closed: coprocess.clientClosedMessage,
  timeout: coprocess.clientTimeoutMessage,
  timeoutStreams: coprocess.clientTimeoutStreamsMessage,
  aborted: coprocess.clientAbortedMessage,
  exited: coprocess.clientExitedMessage,
  killed: coprocess.clientKilledMessage,
  outputClosed: coprocess.clientOutputClosedMessage,
  spawnFailed: coprocess.clientSpawnFailedMessage,
  stderrTail: coprocess.clientStderrTailMessage,
  wrongId: coprocess.clientWrongIdMessage,
  notJson: coprocess.clientNotJsonMessage,
  tooLong: (method: string) =>
    coprocess.clientTooLongMessage(method, coprocess.MAX_LINE_BYTES),
  undecodable: coprocess.clientUndecodableMessage,
  byClose: coprocess.CLIENT_CLOSED_BY_CLOSE_MESSAGE,
  afterShutdown: coprocess.CLIENT_CLOSED_AFTER_SHUTDOWN_MESSAGE,
  afterTimeout: coprocess.CLIENT_CLOSED_AFTER_TIMEOUT_MESSAGE,
  afterAbort: coprocess.CLIENT_CLOSED_AFTER_ABORT_MESSAGE,
  afterProtocolError: coprocess.CLIENT_CLOSED_AFTER_PROTOCOL_ERROR_MESSAGE,
  afterExit: "after the coprocess exited",
  afterFailedHandshake: "after a failed handshake",
};

/** One method-table entry as the client calls it. */
interface _Method<P, R> {
  /** The wire name. */
  readonly name: string;
  /** The params' encoder. */
  readonly encodeParams: (value: P) => string;
  /** The result's decoder. */
  readonly decodeResult: coprocess.ValueDecoder<R>;
  /**
   * The result's plain reader (its text in the plain forms the binary writes,
   * else undefined), or null when its type has none.
   */
  readonly plainResult: ((text: string) => R | undefined) | null;
  /** The result's encoder (which lays out the session's answers). */
  readonly encodeResult: (value: R) => string;
  /** The result's type name, for the error of an answer that does not decode. */
  readonly result: string;
}

/**
 * A call that failed; `method` is its wire name, `message` says what happened.
 * `detail` holds what the decoder or the stream said, where there is more to say.
 */
export class ClientError extends Error {
  override readonly name: string = "ClientError";

  constructor(
    /** The method's wire name. */
    readonly method: string,
    message: string,
    /** What the decoder or the stream said, or "". */
    readonly detail = "",
  ) {
    super(message);
  }
}

/** The coprocess answered the call with a JSON-RPC error; the session goes on. */
export class RpcError extends ClientError {
  override readonly name: string = "RpcError";

  /** The code's name in the contract's error-code table, or null for another code. */
  readonly codeName: string | null;

  constructor(
    method: string,
    /** The JSON-RPC error code. */
    readonly code: number,
    message: string,
    /** The error's `data`, or undefined when it had none. */
    readonly data: coprocess.JsonValue | undefined,
  ) {
    super(method, message);
    const known = Object.entries(coprocess.ErrorCode).find(
      ([, value]) => value === code,
    );
    this.codeName = known === undefined ? null : known[0];
  }
}

/**
 * The answer broke the protocol (another id, not JSON, too long, not the
 * result's shape); the session is closed and the coprocess killed.
 */
export class ProtocolError extends ClientError {
  override readonly name: string = "ProtocolError";
}

/** No answer within the call's timeout; the session is closed and the coprocess killed. */
export class CallTimeoutError extends ClientError {
  override readonly name: string = "CallTimeoutError";
}

/** The call's `AbortSignal` aborted it; once sent, the session is closed. */
export class CallAbortedError extends ClientError {
  override readonly name: string = "CallAbortedError";
}

/** A call on a session that was closed (by `close`, or after a timeout or a protocol error). */
export class SessionClosedError extends ClientError {
  override readonly name: string = "SessionClosedError";
}

/** The coprocess could not be started: the message names the path and the reason. */
export class SpawnError extends ClientError {
  override readonly name: string = "SpawnError";
}

/** The coprocess ended before answering: its exit status and last stderr lines are kept. */
export class CoprocessExitedError extends ClientError {
  override readonly name: string = "CoprocessExitedError";

  constructor(
    method: string,
    message: string,
    /** The exit status (a signal as its negative number), or null when unknown. */
    readonly status: number | null,
    /** The last lines the coprocess wrote to stderr. */
    readonly stderr: readonly string[],
  ) {
    super(method, message);
  }
}

/** Why the reader stopped: end of output, an over-long line, or a read error. */
class _Failure {
  constructor(
    readonly reason: "end of output" | "too long" | "read error",
    readonly detail = "",
  ) {}
}

/** What a wait for the next line gives besides a line: none in time, or aborted. */
type _Missing = "timeout" | "aborted";

/** The `--server-command` text the binary's shell-style split turns back into `argv`. */
export function serverCommand(argv: readonly string[]): string {
  return argv
    .map((argument) => "'" + argument.split("'").join(`'"'"'`) + "'")
    .join(" ");
}

/** Whether `promise` settled within `ms` milliseconds. */
async function _within(
  promise: Promise<unknown>,
  ms: number,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(
      () => {
        resolve(false);
      },
      Math.min(Math.max(ms, 0), _MAX_TIMER_MS),
    );
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

function _noop(): void {
  // Nothing to do.
}

const _utf8 = new TextDecoder("utf-8", { fatal: true });

/** The text of an answer's line, or null when it is not UTF-8. */
function _utf8Text(line: Buffer): string | null {
  try {
    return _utf8.decode(line);
  } catch {
    return null;
  }
}

/** What the decoder says of a line that is not UTF-8. */
function _utf8Problem(line: Buffer): string {
  try {
    _utf8.decode(line);
    return "";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** What `_send` gives when the coprocess's input was closed before the request. */
const _INPUT_CLOSED: unique symbol = Symbol("input closed");

/** What `_AnswerLayout.read` gives for an answer it cannot vouch for. */
const _UNREAD: unique symbol = Symbol("unread");

/**
 * The id the request lines and the answer layout are learnt with: the control
 * character keeps it out of any text the encoder writes unescaped.
 */
const _ID_MARK = "\u0001id";

/** The params' text a method's request line is laid out with (see `_RequestLine`). */
const _PARAMS_MARK = '"\\u0001params"';

/**
 * A method's request line laid out once: the generated encoder's text of a
 * request with marks for its id and its params (each found once, and only
 * once), cut at them. A call joins the parts with its id's text and its
 * params' text between them, in the order of `idFirst`: the encoder's text of
 * that request.
 */
class _RequestLine {
  private constructor(
    private readonly head: string,
    private readonly middle: string,
    private readonly tail: string,
    private readonly idFirst: boolean,
  ) {}

  /** The layout of `method`'s request with params, or null when its text does not cut so. */
  static of(method: string): _RequestLine | null {
    const text = coprocess.encodeRoleRequestOf(
      { jsonrpc: "2.0", id: _ID_MARK, method, params: _PARAMS_MARK },
      (params: string) => params,
    );
    const id = coprocess.encodeRoleRequestId(_ID_MARK);
    const idAt = text.indexOf(id);
    const paramsAt = text.indexOf(_PARAMS_MARK);
    if (
      idAt < 0 ||
      paramsAt < 0 ||
      text.includes(id, idAt + 1) ||
      text.includes(_PARAMS_MARK, paramsAt + 1)
    ) {
      return null;
    }
    const idEnd = idAt + id.length;
    const paramsEnd = paramsAt + _PARAMS_MARK.length;
    return idAt < paramsAt
      ? new _RequestLine(
          text.slice(0, idAt),
          text.slice(idEnd, paramsAt),
          text.slice(paramsEnd),
          true,
        )
      : new _RequestLine(
          text.slice(0, paramsAt),
          text.slice(paramsEnd, idAt),
          text.slice(idEnd),
          false,
        );
  }

  /** The line of call `id` whose params' text is `params`. */
  line(id: number, params: string): string {
    return this.idFirst
      ? this.head + String(id) + this.middle + params + this.tail
      : this.head + params + this.middle + String(id) + this.tail;
  }
}

/** Each method's request line with params, laid out on its first call with params. */
const _REQUEST_LINES = new WeakMap<object, _RequestLine | null>();

/** The request line (without its newline) of call `id` of `method` with `params`. */
function _requestLine<P, R>(
  method: _Method<P, R>,
  id: number,
  params: P | undefined,
): string {
  const name = method.name;
  if (params === undefined) {
    return coprocess.encodeRoleRequestOf(
      { jsonrpc: "2.0", id, method: name },
      method.encodeParams,
    );
  }
  let layout = _REQUEST_LINES.get(method);
  if (layout === undefined) {
    layout = _RequestLine.of(name);
    _REQUEST_LINES.set(method, layout);
  }
  return layout !== null
    ? layout.line(id, method.encodeParams(params))
    : coprocess.encodeRoleRequestOf(
        { jsonrpc: "2.0", id, method: name, params },
        method.encodeParams,
      );
}

/**
 * How a success answer's line is laid out around its id and its result: the
 * generated encoder's text of the session's first success answer, its id
 * replaced by a mark, cut at the mark and at its result's own text (found
 * once, and only once, after the mark). An answer to call `id` laid out so is
 * that envelope with the call's id, its other members as the first answer had
 * them: only its result is left to decode, as the text between the parts
 * (which the whole answer's decode reads the same, one container deeper).
 */
class _AnswerLayout {
  private constructor(
    private readonly head: string,
    private readonly middle: string,
    private readonly tail: string,
  ) {}

  /** The layout of `success`, or null when its text does not cut so. */
  static of<R>(
    success: coprocess.RoleSuccessResponseOf<R>,
    encodeResult: (value: R) => string,
  ): _AnswerLayout | null {
    const text = coprocess.encodeRoleSuccessResponseOf(
      { ...success, id: _ID_MARK },
      encodeResult,
    );
    const mark = coprocess.encodeRoleRequestId(_ID_MARK);
    const result = encodeResult(success.result);
    const at = text.indexOf(mark);
    if (at < 0) {
      return null;
    }
    const from = at + mark.length;
    const resultAt = text.indexOf(result, from);
    if (resultAt < 0 || text.includes(result, resultAt + 1)) {
      return null;
    }
    return new _AnswerLayout(
      text.slice(0, at),
      text.slice(from, resultAt),
      text.slice(resultAt + result.length),
    );
  }

  /**
   * The result of the answer `text`, decoded, when it is laid out as a success
   * answer to call `id` and its result decodes: what the decode of the whole
   * answer gives. `_UNREAD` sends the answer to that decode (which says what is
   * wrong, if anything is).
   */
  read<R>(
    text: string,
    id: number,
    decode: coprocess.ValueDecoder<R>,
    plain: ((text: string) => R | undefined) | null,
  ): R | typeof _UNREAD {
    const number = String(id);
    const start = this.head.length + number.length + this.middle.length;
    const end = text.length - this.tail.length;
    if (
      end < start ||
      !text.startsWith(this.head) ||
      !text.startsWith(number, this.head.length) ||
      !text.startsWith(this.middle, this.head.length + number.length) ||
      !text.endsWith(this.tail)
    ) {
      return _UNREAD;
    }
    const result = text.slice(start, end);
    // A result in its plain forms is read from its text; any other goes
    // through the enclosed parse and the value's decode.
    const read = plain === null ? undefined : plain(result);
    if (read !== undefined) {
      return read;
    }
    const value = coprocess.parseEnclosedJson(result);
    if (value === undefined) {
      return _UNREAD;
    }
    try {
      return decode(value);
    } catch (error) {
      if (error instanceof coprocess.DecodeError) {
        return _UNREAD;
      }
      throw error;
    }
  }
}

/** The constructor a session class is called with by `spawn` and `overStreams`. */
type _SessionClass<C> = new (
  reader: Readable,
  writer: Writable,
  child: ChildProcess | null,
  options: ClientOptions,
) => C;

/**
 * The schema-independent session: one request in flight (concurrent callers
 * wait their turn and each get their own answer), every answer checked.
 */
export class CoprocessSession {
  /** The method `close` sends first, or null when the table has none. */
  protected readonly _shutdown: string | null = null;
  private readonly _reader: Readable;
  private readonly _writer: Writable;
  private readonly _child: ChildProcess | null;
  private readonly _timeoutMs: number;
  private readonly _startTimeoutMs: number;
  private readonly _closeTimeoutMs: number;
  private _busy = false;
  private readonly _turns: (() => void)[] = [];
  private _nextId = 1;
  private _closed: string | null = null;
  private _exit: { status: number | null; lines: string } | null = null;
  private _handshakeResult: coprocess.RoleHandshakeResult | null = null;
  private readonly _stderr: string[] = [];
  private _stderrPiece = "";
  private readonly _stderrEnded: Promise<void>;
  private readonly _exited: Promise<void>;
  private _status: number | null = null;
  private _exitedAt: number | null = null;
  private _chunks: Buffer[] = [];
  private _pending = 0;
  private readonly _lines: (Buffer | _Failure)[] = [];
  private _stopped = false;
  private _paused = false;
  private _waiter: ((line: Buffer | _Failure | _Missing) => void) | null = null;
  /**
   * The timer that ends a wait at its deadline, kept from call to call (a new
   * timer and its clearing cost more than the rest of a call's timing); it
   * holds the event loop only while a call waits.
   */
  private _timer: ReturnType<typeof setTimeout> | null = null;
  /** When `_timer` fires (`performance.now()` time). */
  private _timerDue = 0;
  /** The deadline of the call that waits, or null when none does. */
  private _deadline: number | null = null;
  /** How the session's success answers are laid out, learnt from its first (null: not learnt, or not to be). */
  private _answerLayout: _AnswerLayout | null = null;
  /** Whether the layout was sought (from the session's first success answer). */
  private _answerLayoutSought = false;

  /**
   * A session over `reader` (the coprocess's stdout) and `writer` (its stdin),
   * not yet handshaken: use `spawn` or `overStreams`, which handshake.
   */
  constructor(
    reader: Readable,
    writer: Writable,
    child: ChildProcess | null,
    options: ClientOptions,
  ) {
    this._reader = reader;
    this._writer = writer;
    this._child = child;
    this._timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    this._startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this._closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    writer.on("error", _noop);
    // A failed kill is reported as an event; the exit is what the client waits for.
    child?.on("error", _noop);
    reader.on("data", (chunk: Buffer | string) => {
      this._take(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    });
    reader.on("end", () => {
      this._stop(new _Failure("end of output"));
    });
    reader.on("error", (error: Error) => {
      this._stop(new _Failure("read error", error.message));
    });
    const stderr = child?.stderr ?? null;
    this._stderrEnded =
      stderr === null
        ? Promise.resolve()
        : new Promise((resolve) => {
            stderr.on("data", (chunk: Buffer) => {
              this._takeStderr(chunk);
            });
            stderr.on("error", _noop);
            stderr.on("close", () => {
              if (this._stderrPiece !== "") {
                this._keepStderr(this._stderrPiece);
              }
              resolve();
            });
          });
    this._exited =
      child === null
        ? Promise.resolve()
        : new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) {
              this._status = _statusOf(child.exitCode, child.signalCode);
              resolve();
              return;
            }
            child.on("exit", (code, signal) => {
              this._status = _statusOf(code, signal);
              this._exitedAt = performance.now();
              resolve();
              // Only what the coprocess wrote before its exit is still read: a
              // process it started may hold its output open, and it is let go,
              // so that such a process keeps neither the session nor this
              // process's event loop waiting.
              setTimeout(() => {
                this._stop(new _Failure("end of output"));
                this._reader.destroy();
                stderr?.destroy();
              }, EXIT_DRAIN_MS).unref();
            });
          });
  }

  /**
   * Starts `<binary> exec --connection-server --server-command <argv>` and
   * handshakes. Rejects with a `CoprocessHandshakeError` (the coprocess is then
   * gone) or a `ClientError`: a `SpawnError` when the binary cannot be started.
   */
  static async spawn<C extends CoprocessSession>(
    this: _SessionClass<C>,
    binary: string,
    serverArgv: readonly string[],
    options: ClientOptions = {},
  ): Promise<C> {
    const command = [
      "exec",
      "--connection-server",
      "--server-command",
      serverCommand(serverArgv),
    ];
    const child = spawn(binary, command, {
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    try {
      await once(child, "spawn");
    } catch (error) {
      throw _spawnError(binary, error);
    }
    const client = new this(child.stdout, child.stdin, child, options);
    await client._handshake(options);
    return client;
  }

  /**
   * A session over a pair of byte streams (an in-process double, a socket):
   * answers are read from `reader`, requests written to `writer`. Handshakes
   * before it resolves.
   */
  static async overStreams<C extends CoprocessSession>(
    this: _SessionClass<C>,
    reader: Readable,
    writer: Writable,
    options: ClientOptions = {},
  ): Promise<C> {
    const client = new this(reader, writer, null, options);
    await client._handshake(options);
    return client;
  }

  /** What the binary answered to the handshake (its protocol and binary version). */
  get handshakeResult(): coprocess.RoleHandshakeResult {
    if (this._handshakeResult === null) {
      throw new Error("the session has not handshaken");
    }
    return this._handshakeResult;
  }

  /**
   * The coprocess's exit status once it has exited (a signal as its negative
   * number); null before, or over streams.
   */
  get exitStatus(): number | null {
    return this._status;
  }

  /** The last lines the coprocess wrote to stderr (at most `STDERR_LINES`). */
  get stderrTail(): readonly string[] {
    return [...this._stderr];
  }

  /**
   * Sends the close method, waits a bounded time for the exit, then kills.
   * Idempotent; later calls reject with a `SessionClosedError`.
   */
  close(): Promise<void> {
    return this._turn(async () => {
      const deadline = performance.now() + this._closeTimeoutMs;
      if (this._closed === null) {
        this._closed = _messages.byClose;
        if (this._shutdown !== null) {
          try {
            await this._exchange(this._shutdown, this._closeTimeoutMs);
          } catch (error) {
            if (!(error instanceof ClientError)) {
              throw error;
            }
          }
        }
      }
      await this._finish(deadline - performance.now());
    });
  }

  /** `close`, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Runs `run` when the calls before it have ended (one at a time, in order). */
  private async _turn<T>(run: () => Promise<T>): Promise<T> {
    const wait = this._takeTurn();
    if (wait !== null) {
      await wait;
    }
    try {
      return await run();
    } finally {
      this._passTurn();
    }
  }

  /**
   * Takes the session's turn: null when it was free (and is now taken), else a
   * promise that settles when the turn passes to this caller. (Null, not a
   * settled promise: each `await` costs the call a pass of the microtask queue.)
   */
  private _takeTurn(): Promise<void> | null {
    if (!this._busy) {
      this._busy = true;
      return null;
    }
    return new Promise<void>((resolve) => {
      this._turns.push(resolve);
    });
  }

  /** Passes the turn to the next waiting caller, or frees it. */
  private _passTurn(): void {
    const next = this._turns.shift();
    if (next === undefined) {
      this._busy = false;
    } else {
      next();
    }
  }

  private _handshake(options: ClientOptions): Promise<void> {
    const method = coprocess.MethodName.RoleHandshake;
    return this._turn(async () => {
      try {
        const id = this._nextId++;
        const line = coprocess.handshakeRequest(
          id,
          options.sdk ?? "typescript",
          options.sdkVersion ?? "0.0.0",
        );
        const type = "RoleHandshakeResult";
        const text = await this._answer(method, line, this._startTimeoutMs);
        let response: coprocess.RoleResponse;
        try {
          response = coprocess.decodeRoleResponse(text);
        } catch (error) {
          throw await this._unreadable(method, id, text, type, error);
        }
        if (response.id !== id) {
          throw await this._wrongId(method, id, response.id);
        }
        try {
          this._handshakeResult = coprocess.checkHandshakeResponse(response);
        } catch (error) {
          if (error instanceof coprocess.DecodeError) {
            await this._fail(_messages.afterProtocolError);
            const message = _messages.undecodable(method, type);
            throw new ProtocolError(method, message, error.message);
          }
          throw error;
        }
      } catch (error) {
        if (error instanceof coprocess.CoprocessHandshakeError) {
          this._closed = _messages.afterFailedHandshake;
          await this._finish(0);
        } else if (error instanceof ClientError) {
          await this._finish(0);
        }
        throw error;
      }
    });
  }

  /** Calls `method` with `params`: its result, or a `ClientError`. */
  protected _call<P, R>(
    method: _Method<P, R>,
    params: P | undefined,
    options: CallOptions = {},
  ): Promise<R> {
    const name = method.name;
    const signal = options.signal;
    const timeoutMs = options.timeoutMs ?? this._timeoutMs;
    const turn = this._callInTurn(method, params, timeoutMs, signal);
    if (signal === undefined) {
      return turn;
    }
    // Aborted while it waits its turn: the call gives up at once (and does
    // nothing when its turn comes).
    return Promise.race([
      turn,
      new Promise<never>((_resolve, reject) => {
        const abort = () => {
          reject(new CallAbortedError(name, _messages.aborted(name)));
        };
        if (signal.aborted) {
          abort();
          return;
        }
        signal.addEventListener("abort", abort, { once: true });
        turn.then(
          () => {
            signal.removeEventListener("abort", abort);
          },
          () => {
            signal.removeEventListener("abort", abort);
          },
        );
      }),
    ]);
  }

  /**
   * Calls `method` when the calls before it have ended. The turn, the request
   * and the answer's wait are inline (not `_turn` and `_answer`): each `await`
   * of another async function costs the call a pass of the microtask queue,
   * which in a loop of calls is a part of the client's CPU to be reckoned with.
   */
  private async _callInTurn<P, R>(
    method: _Method<P, R>,
    params: P | undefined,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<R> {
    const wait = this._takeTurn();
    if (wait !== null) {
      await wait;
    }
    try {
      const name = method.name;
      this._checkOpen(name);
      if (signal?.aborted === true) {
        throw new CallAbortedError(name, _messages.aborted(name));
      }
      const id = this._nextId++;
      const answer = await this._send(
        _requestLine(method, id, params),
        timeoutMs,
        signal,
      );
      const text = answer instanceof Buffer ? _utf8Text(answer) : null;
      if (text === null) {
        throw await this._noAnswer(name, answer, timeoutMs, true);
      }
      const layout = this._answerLayout;
      if (layout !== null) {
        const result = layout.read(
          text,
          id,
          method.decodeResult,
          method.plainResult,
        );
        if (result !== _UNREAD) {
          this._answered(name);
          return result;
        }
      }
      return await this._decodeAnswer(method, id, text);
    } finally {
      this._passTurn();
    }
  }

  /**
   * The result of the answer `text` to call `id` of `method` by the whole
   * answer's decode, or its error; the session's first success answer lays
   * out the later ones.
   */
  private async _decodeAnswer<P, R>(
    method: _Method<P, R>,
    id: number,
    text: string,
  ): Promise<R> {
    const name = method.name;
    let response: coprocess.RoleResponseOf<R>;
    try {
      response = coprocess.decodeRoleResponseOf(text, method.decodeResult);
    } catch (error) {
      throw await this._unreadable(name, id, text, method.result, error);
    }
    if (response.id !== id) {
      throw await this._wrongId(name, id, response.id);
    }
    if ("error" in response) {
      const problem = response.error;
      throw new RpcError(name, problem.code, problem.message, problem.data);
    }
    if (!this._answerLayoutSought) {
      this._answerLayoutSought = true;
      this._answerLayout = _AnswerLayout.of(response, method.encodeResult);
    }
    this._answered(name);
    return response.result;
  }

  /** Follows a success answer to `method`. */
  private _answered(method: string): void {
    if (method === this._shutdown) {
      // The coprocess ends the session after answering: close only waits.
      this._closed = _messages.afterShutdown;
    }
  }

  /** Sends a request without params and reads one answer line (close ignores it). */
  private async _exchange(method: string, timeoutMs: number): Promise<void> {
    const id = this._nextId++;
    const line = coprocess.encodeRoleRequest({ jsonrpc: "2.0", id, method });
    await this._answer(method, line, timeoutMs, undefined, false);
  }

  private _checkOpen(method: string): void {
    if (this._exit !== null) {
      throw this._exitedError(method);
    }
    if (this._closed !== null) {
      throw new SessionClosedError(
        method,
        _messages.closed(method, this._closed),
      );
    }
  }

  /** Writes one request line and reads its answer's text. */
  private async _answer(
    method: string,
    line: string,
    timeoutMs: number,
    signal?: AbortSignal,
    kill = true,
  ): Promise<string> {
    const answer = await this._send(line, timeoutMs, signal);
    const text = answer instanceof Buffer ? _utf8Text(answer) : null;
    if (text === null) {
      throw await this._noAnswer(method, answer, timeoutMs, kill);
    }
    return text;
  }

  /**
   * Writes one request line: the next line of output, or why none came
   * (`_INPUT_CLOSED`: the coprocess's input was closed, nothing was written).
   */
  private _send(
    line: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Buffer | _Failure | _Missing | typeof _INPUT_CLOSED> {
    if (this._writer.destroyed || this._writer.writableEnded) {
      return Promise.resolve(_INPUT_CLOSED);
    }
    this._writer.write(line + "\n");
    return this._nextLine(timeoutMs, signal);
  }

  /**
   * The error of a request that got no answer's text: its input closed, no
   * line in time, aborted, the reader's end, or a line that is not UTF-8. A
   * timeout or an abort closes the session (and kills) when `kill` says so,
   * the other protocol errors always.
   */
  private async _noAnswer(
    method: string,
    answer: Buffer | _Failure | _Missing | typeof _INPUT_CLOSED,
    timeoutMs: number,
    kill: boolean,
  ): Promise<ClientError> {
    if (answer === _INPUT_CLOSED) {
      return this._ended(method);
    }
    if (answer === "timeout" || answer === "aborted") {
      if (kill) {
        const reason =
          answer === "timeout" ? _messages.afterTimeout : _messages.afterAbort;
        await this._fail(reason);
      }
      if (answer === "aborted") {
        return new CallAbortedError(method, _messages.aborted(method));
      }
      const ms = Math.round(timeoutMs);
      const message =
        this._child === null
          ? _messages.timeoutStreams(method, ms)
          : _messages.timeout(method, ms);
      return new CallTimeoutError(method, message);
    }
    if (answer instanceof _Failure) {
      if (answer.reason === "too long") {
        await this._fail(_messages.afterProtocolError);
        return new ProtocolError(method, _messages.tooLong(method));
      }
      return this._ended(method);
    }
    await this._fail(_messages.afterProtocolError);
    return new ProtocolError(
      method,
      _messages.notJson(method),
      _utf8Problem(answer),
    );
  }

  /**
   * The error of an answer that did not decode: not JSON, another id, or not
   * the result's shape (in that order); the session is closed.
   */
  private async _unreadable(
    method: string,
    id: number,
    text: string,
    type: string,
    error: unknown,
  ): Promise<unknown> {
    if (!(error instanceof coprocess.DecodeError)) {
      return error;
    }
    let value: coprocess.JsonValue;
    try {
      value = coprocess.parseStrictJson(text);
    } catch (problem) {
      await this._fail(_messages.afterProtocolError);
      const detail =
        problem instanceof Error ? problem.message : String(problem);
      return new ProtocolError(method, _messages.notJson(method), detail);
    }
    if (
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      "id" in value &&
      value["id"] !== id
    ) {
      return this._wrongId(method, id, value["id"]);
    }
    await this._fail(_messages.afterProtocolError);
    const message = _messages.undecodable(method, type);
    return new ProtocolError(method, message, error.message);
  }

  private async _wrongId(
    method: string,
    id: number,
    got: coprocess.JsonValue | undefined,
  ): Promise<ProtocolError> {
    await this._fail(_messages.afterProtocolError);
    const text = JSON.stringify(got ?? null);
    return new ProtocolError(method, _messages.wrongId(method, text, id));
  }

  /** The next line of output, or why none came. */
  private _nextLine(
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Buffer | _Failure | _Missing> {
    const queued = this._lines.shift();
    if (queued !== undefined) {
      return Promise.resolve(queued);
    }
    if (this._paused) {
      this._paused = false;
      this._reader.resume();
    }
    return new Promise((resolve) => {
      const abort = () => {
        give("aborted");
      };
      const give = (line: Buffer | _Failure | _Missing) => {
        this._waiter = null;
        this._deadline = null;
        this._timer?.unref();
        signal?.removeEventListener("abort", abort);
        resolve(line);
      };
      this._waiter = give;
      if (timeoutMs <= _MAX_TIMER_MS) {
        this._waitUntil(performance.now() + Math.max(timeoutMs, 0));
      }
      if (signal !== undefined) {
        signal.addEventListener("abort", abort, { once: true });
      }
    });
  }

  /**
   * Ends the wait that begins now at `deadline`: the kept timer stays when it
   * fires no later (it then sets itself for what is left), else it is set anew.
   */
  private _waitUntil(deadline: number): void {
    this._deadline = deadline;
    const timer = this._timer;
    if (timer !== null && this._timerDue <= deadline) {
      timer.ref();
      return;
    }
    if (timer !== null) {
      clearTimeout(timer);
    }
    this._setTimer(deadline);
  }

  private _setTimer(due: number): void {
    this._timerDue = due;
    this._timer = setTimeout(
      () => {
        this._timerFired();
      },
      Math.max(due - performance.now(), 0),
    );
  }

  /** The kept timer fired: the waiting call times out at its deadline, or waits on. */
  private _timerFired(): void {
    this._timer = null;
    const deadline = this._deadline;
    const waiter = this._waiter;
    if (deadline === null || waiter === null) {
      // No call waits: the next one sets a timer.
      return;
    }
    if (performance.now() >= deadline) {
      waiter("timeout");
    } else {
      this._setTimer(deadline);
    }
  }

  /** Splits stdout into lines, buffering at most `MAX_LINE_BYTES` of a line. */
  private _take(chunk: Buffer): void {
    if (this._stopped) {
      return;
    }
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (end < 0) {
        break;
      }
      const piece = chunk.subarray(start, end);
      const length = this._pending + piece.length;
      if (length > coprocess.MAX_LINE_BYTES) {
        this._stop(new _Failure("too long"));
        return;
      }
      const line =
        this._chunks.length === 0
          ? piece
          : Buffer.concat([...this._chunks, piece], length);
      this._chunks = [];
      this._pending = 0;
      this._give(line);
      start = end + 1;
    }
    if (start < chunk.length) {
      this._pending += chunk.length - start;
      if (this._pending > coprocess.MAX_LINE_BYTES) {
        this._stop(new _Failure("too long"));
        return;
      }
      this._chunks.push(chunk.subarray(start));
    }
  }

  /** Hands a line to the waiting call, or keeps it (and reads no further). */
  private _give(line: Buffer | _Failure): void {
    const waiter = this._waiter;
    if (waiter !== null) {
      waiter(line);
      return;
    }
    this._lines.push(line);
    if (!this._paused && !this._stopped) {
      this._paused = true;
      this._reader.pause();
    }
  }

  /** The reader's end: a last line without its newline is dropped. */
  private _stop(failure: _Failure): void {
    if (this._stopped) {
      return;
    }
    this._stopped = true;
    this._chunks = [];
    this._pending = 0;
    if (failure.reason === "too long") {
      this._reader.pause();
    }
    this._give(failure);
  }

  private _takeStderr(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      if (end < 0) {
        break;
      }
      this._keepStderr(this._stderrPiece + chunk.toString("utf8", start, end));
      this._stderrPiece = "";
      start = end + 1;
    }
    let rest = this._stderrPiece + chunk.toString("utf8", start);
    while (Buffer.byteLength(rest) >= _STDERR_LINE_BYTES) {
      const cut = Buffer.from(rest).subarray(0, _STDERR_LINE_BYTES);
      this._keepStderr(cut.toString("utf8"));
      rest = Buffer.from(rest).subarray(_STDERR_LINE_BYTES).toString("utf8");
    }
    this._stderrPiece = rest;
  }

  private _keepStderr(line: string): void {
    this._stderr.push(line.replace(/[\r\n]+$/, ""));
    if (this._stderr.length > STDERR_LINES) {
      this._stderr.shift();
    }
  }

  /** The coprocess closed its output: wait (bounded) for its status and stderr. */
  private async _ended(method: string): Promise<CoprocessExitedError> {
    let status: number | null = null;
    if (this._child !== null) {
      if (await _within(this._exited, this._closeTimeoutMs)) {
        status = this._status;
        const drained = (this._exitedAt ?? 0) + EXIT_DRAIN_MS;
        await _within(this._stderrEnded, drained - performance.now());
      }
    }
    const lines = this._stderr.filter((line) => line !== "").join("\n");
    this._exit = { status, lines };
    this._closed = _messages.afterExit;
    await this._finish(0);
    return this._exitedError(method);
  }

  /** The error of a call after the coprocess ended, naming `method`. */
  private _exitedError(method: string): CoprocessExitedError {
    const status = this._exit?.status ?? null;
    const lines = this._exit?.lines ?? "";
    const ending =
      status === null
        ? _messages.outputClosed(method)
        : status < 0
          ? _messages.killed(method, -status)
          : _messages.exited(method, status);
    const message = lines === "" ? ending : _messages.stderrTail(ending, lines);
    return new CoprocessExitedError(method, message, status, this.stderrTail);
  }

  /** Ends the session after a failure: closed for `reason`, the coprocess killed. */
  private async _fail(reason: string): Promise<void> {
    this._closed = reason;
    await this._finish(0);
  }

  /** Closes the input, waits up to `graceMs` for the exit, then kills. */
  private async _finish(graceMs: number): Promise<void> {
    if (this._timer !== null) {
      clearTimeout(this._timer);
      this._timer = null;
    }
    if (!this._writer.writableEnded) {
      this._writer.end();
    }
    const child = this._child;
    if (child === null) {
      return;
    }
    if (!(await _within(this._exited, graceMs))) {
      child.kill("SIGKILL");
      await this._exited;
    }
    this._reader.destroy();
    child.stderr?.destroy();
  }
}

/** The error of a binary that could not be started: its path and the system's reason. */
function _spawnError(binary: string, error: unknown): SpawnError {
  const method = coprocess.MethodName.RoleHandshake;
  const errno = (error as NodeJS.ErrnoException).errno;
  const known =
    errno === undefined ? undefined : getSystemErrorMap().get(errno);
  const reason =
    known?.[1] ?? (error instanceof Error ? error.message : String(error));
  return new SpawnError(method, _messages.spawnFailed(method, binary, reason));
}

/** An exit's status as Python's `returncode` has it: a signal as its negative number. */
function _statusOf(
  code: number | null,
  signal: NodeJS.Signals | null,
): number | null {
  if (code !== null) {
    return code;
  }
  return signal === null ? null : -constants.signals[signal];
}
