// End-to-end client: drives the mcptest coprocess with the generated
// `coprocess.ts` and the Node.js runtime only. Every request line is built
// with the generated types and encoders, every response line decoded with the
// generated strict decoders. The scenario and the coprocess come from the
// environment (see tests/e2e.rs); the report is one JSON line on stdout.

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import {
  CoprocessHandshakeError,
  DecodeError,
  MethodName,
  checkHandshakeResponse,
  decodeCallPromptResultValue,
  decodeCallResultValue,
  decodeInitializeResultValue,
  decodeListToolsResultValue,
  decodeMcpObject,
  decodeParams,
  decodePromptArguments,
  decodeReadResourceResultValue,
  decodeResponseOf,
  decodeShutdownResultValue,
  encodeCallParams,
  encodeCallPromptParams,
  encodeCallPromptResult,
  encodeCallResult,
  encodeHandshakeResult,
  encodeInitializeResult,
  encodeReadResourceParams,
  encodeReadResourceResult,
  encodeRequest,
  encodeShutdownResult,
  handshakeRequest,
} from "./coprocess.js";
import type { HandshakeResult, JsonValue, ListToolsResult, Params, ValueDecoder } from "./coprocess.js";

const SDK = "typescript";
const SDK_VERSION = "0.0.0-e2e";
const EXIT_TIMEOUT_MS = 20_000;

/** The scenario cannot go on; the message says what happened. */
class Failed extends Error {}

/** The coprocess and a minimal stdio loop: write one line, read one line. */
class Session {
  private readonly child: ChildProcess;
  private buffered = "";
  private waiting: ((line: string | null) => void) | null = null;
  private closed = false;
  private exited: Promise<number | null>;
  private nextId = 1;

  constructor(argv: readonly string[]) {
    const [command, ...args] = argv;
    if (command === undefined) {
      throw new Failed("MCPTEST_ARGV is empty");
    }
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
    this.child.on("error", () => this.finish());
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk) => {
      this.buffered += chunk;
      this.deliver();
    });
    this.child.stdout.on("end", () => this.finish());
  }

  private finish(): void {
    this.closed = true;
    this.deliver();
  }

  private deliver(): void {
    if (this.waiting === null) {
      return;
    }
    const end = this.buffered.indexOf("\n");
    if (end < 0 && !this.closed) {
      return;
    }
    const resolve = this.waiting;
    this.waiting = null;
    if (end < 0) {
      resolve(null);
      return;
    }
    const line = this.buffered.slice(0, end);
    this.buffered = this.buffered.slice(end + 1);
    resolve(line.endsWith("\r") ? line.slice(0, -1) : line);
  }

  async exchange(line: string): Promise<string> {
    this.child.stdin.write(line + "\n");
    const answer = await new Promise<string | null>((resolve) => {
      this.waiting = resolve;
      this.deliver();
    });
    if (answer === null) {
      throw new Failed("the coprocess closed its stdout without answering");
    }
    return answer;
  }

  takeId(): number {
    return this.nextId++;
  }

  async handshake(): Promise<HandshakeResult> {
    return checkHandshakeResponse(await this.exchange(handshakeRequest(this.takeId(), SDK, SDK_VERSION)));
  }

  /** Sends `method` (params built by the caller with the generated encoder) and
   * decodes the response with its result read by `decode`, the method's result
   * decoder, in the same pass. */
  async call<T>(method: MethodName, params: Params | undefined, decode: ValueDecoder<T>): Promise<T> {
    const id = this.takeId();
    const request = params === undefined ? { jsonrpc: "2.0", id, method } as const : { jsonrpc: "2.0", id, method, params } as const;
    const response = decodeResponseOf(await this.exchange(encodeRequest(request)), decode);
    if ("error" in response) {
      throw new Failed(`${method} answered ${response.error.code}: ${response.error.message}`);
    }
    if (response.id !== id) {
      throw new Failed(`${method}: answer has id ${JSON.stringify(response.id)}, request had ${id}`);
    }
    return response.result;
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  async waitExit(): Promise<number | null> {
    let timer: unknown;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Failed(`the coprocess did not exit within ${EXIT_TIMEOUT_MS} ms`)), EXIT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  kill(): void {
    if (this.child.exitCode === null) {
      this.child.kill();
    }
  }
}

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined) {
    throw new Failed(`${name} is not set`);
  }
  return value;
}

function toolNames(tools: ListToolsResult): JsonValue[] {
  return tools.tools.map((tool) => tool["name"] ?? null);
}

/** The report's copy of a value: the generated encoder's text, parsed. */
function reported(text: string): JsonValue {
  return JSON.parse(text) as JsonValue;
}

async function full(session: Session): Promise<JsonValue> {
  const handshake = await session.handshake();
  const initialize = await session.call(MethodName.McpInitialize, undefined, decodeInitializeResultValue);
  const tools = await session.call(MethodName.McpListTools, undefined, decodeListToolsResultValue);
  const callParams = encodeCallParams({ tool: env("E2E_TOOL"), arguments: decodeMcpObject(env("E2E_TOOL_ARGS")) });
  const call = await session.call(MethodName.McpCall, decodeParams(callParams), decodeCallResultValue);
  const resourceParams = encodeReadResourceParams({ uri: env("E2E_RESOURCE_URI") });
  const resource = await session.call(MethodName.McpReadResource, decodeParams(resourceParams), decodeReadResourceResultValue);
  const promptParams = encodeCallPromptParams({ name: env("E2E_PROMPT"), arguments: decodePromptArguments(env("E2E_PROMPT_ARGS")) });
  const prompt = await session.call(MethodName.McpCallPrompt, decodeParams(promptParams), decodeCallPromptResultValue);
  const shutdown = await session.call(MethodName.McpShutdown, undefined, decodeShutdownResultValue);
  const exitCode = await session.waitExit();
  return {
    scenario: "full",
    handshake: reported(encodeHandshakeResult(handshake)),
    initialize: reported(encodeInitializeResult(initialize)),
    tools: toolNames(tools),
    call: reported(encodeCallResult(call)),
    resource: reported(encodeReadResourceResult(resource)),
    prompt: reported(encodeCallPromptResult(prompt)),
    shutdown: reported(encodeShutdownResult(shutdown)),
    exit_code: exitCode,
  };
}

async function handshakeOnly(session: Session): Promise<JsonValue> {
  let handshake: HandshakeResult;
  try {
    handshake = await session.handshake();
  } catch (error) {
    if (!(error instanceof CoprocessHandshakeError)) {
      throw error;
    }
    session.closeStdin();
    await session.waitExit();
    return { scenario: "handshake", ok: false, error: error.message };
  }
  session.closeStdin();
  await session.waitExit();
  return { scenario: "handshake", ok: true, value: reported(encodeHandshakeResult(handshake)) };
}

async function noHandshake(session: Session): Promise<JsonValue> {
  const tools = await session.call(MethodName.McpListTools, undefined, decodeListToolsResultValue);
  await session.call(MethodName.McpShutdown, undefined, decodeShutdownResultValue);
  return { scenario: "no_handshake", tools: toolNames(tools), exit_code: await session.waitExit() };
}

const SCENARIOS: { readonly [name: string]: (session: Session) => Promise<JsonValue> } = {
  full,
  handshake: handshakeOnly,
  no_handshake: noHandshake,
};

async function main(): Promise<void> {
  const scenario = process.env["E2E_SCENARIO"] ?? "";
  const run = SCENARIOS[scenario];
  if (run === undefined) {
    process.stdout.write(JSON.stringify({ scenario, failed: `unknown E2E_SCENARIO \`${scenario}\`` }) + "\n");
    process.exitCode = 1;
    return;
  }
  let session: Session | undefined;
  try {
    session = new Session(JSON.parse(env("MCPTEST_ARGV")) as string[]);
    const report = await run(session);
    process.stdout.write(JSON.stringify(report) + "\n");
  } catch (error) {
    session?.kill();
    const known = error instanceof Failed || error instanceof DecodeError || error instanceof CoprocessHandshakeError;
    const what = known ? `${error.constructor.name}: ${error.message}` : `unexpected: ${String(error)}`;
    process.stdout.write(JSON.stringify({ scenario, failed: what }) + "\n");
    process.exitCode = 1;
  }
}

void main();
