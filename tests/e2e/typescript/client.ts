// End-to-end client: drives the mcptest coprocess with the generated
// TypeScript client (`sdk/client.ts`, its frame types in `sdk/coprocess.ts`)
// and Node.js's built-in modules only. The real binary is spawned by
// `CoprocessClient.spawn` from the binary and the server argv that
// MCPTEST_ARGV carries; a fake coprocess (not a binary) is spawned here and
// driven with `CoprocessClient.overStreams`. The scenario and the coprocess
// come from the environment (see tests/e2e.rs); the report is one JSON line on
// stdout.

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";

import { ClientError, CoprocessClient } from "./sdk/client.js";
import type { ClientOptions } from "./sdk/client.js";
import {
  CoprocessHandshakeError,
  DecodeError,
  MethodName,
  decodeListToolsResultValue,
  decodeMcpObject,
  decodePromptArguments,
  decodeResponse,
  encodeCallPromptResult,
  encodeCallResult,
  encodeHandshakeResult,
  encodeInitializeResult,
  encodeReadResourceResult,
  encodeRequest,
  encodeShutdownResult,
} from "./sdk/coprocess.js";
import type { JsonValue, ListToolsResult } from "./sdk/coprocess.js";

const OPTIONS: ClientOptions = { timeoutMs: 60_000, sdk: "typescript", sdkVersion: "0.0.0-e2e" };
const EXIT_TIMEOUT_MS = 20_000;

/** The scenario cannot go on; the message says what happened. */
class Failed extends Error {}

function env(name: string, fallback?: string): string {
  const value = process.env[name] ?? fallback;
  if (value === undefined) {
    throw new Failed(`${name} is not set`);
  }
  return value;
}

/** A POSIX shell-style split (quotes and backslashes), as the binary splits `--server-command`. */
function shellSplit(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) {
        throw new Failed(`unterminated quote in ${text}`);
      }
      word = (word ?? "") + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= "";
      for (i++; i < text.length && text.charAt(i) !== '"'; i++) {
        if (text.charAt(i) === "\\" && '"\\$`'.includes(text.charAt(i + 1))) {
          i++;
        }
        word += text.charAt(i);
      }
    } else if (c === "\\") {
      i++;
      word = (word ?? "") + text.charAt(i);
    } else if (c === " " || c === "\t" || c === "\n") {
      if (word !== null) {
        words.push(word);
        word = null;
      }
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) {
    words.push(word);
  }
  return words;
}

/** Resolves with the exit code of `child` once it has exited, closing its stdin first. */
async function waitExit(child: ChildProcess): Promise<number | null> {
  child.stdin?.end();
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve(child.exitCode)
      : new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Failed(`the coprocess did not exit within ${EXIT_TIMEOUT_MS} ms`));
    }, EXIT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The generated client on the coprocess of `argv`: spawned by the client when
 * `argv` is the binary's own command line, else over the streams of a process
 * started here (with the process, to wait for).
 */
async function open(argv: readonly string[]): Promise<[CoprocessClient, ChildProcess | null]> {
  const [command, exec, connection, flag, server, ...rest] = argv;
  if (command === undefined) {
    throw new Failed("MCPTEST_ARGV is empty");
  }
  if (exec === "exec" && connection === "--connection-server" && flag === "--server-command" && server !== undefined && rest.length === 0) {
    return [await CoprocessClient.spawn(command, shellSplit(server), OPTIONS), null];
  }
  const child = spawn(command, argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  try {
    return [await CoprocessClient.overStreams(child.stdout, child.stdin, OPTIONS), child];
  } catch (error) {
    await waitExit(child);
    throw error;
  }
}

function toolNames(tools: ListToolsResult): JsonValue[] {
  return tools.tools.map((tool) => tool["name"] ?? null);
}

/** The report's copy of a value: the generated encoder's text, parsed. */
function reported(text: string): JsonValue {
  return JSON.parse(text) as JsonValue;
}

async function full(argv: readonly string[]): Promise<JsonValue> {
  const [session] = await open(argv);
  try {
    const handshake = session.handshakeResult;
    const initialize = await session.initialize();
    const tools = await session.listTools();
    const call = await session.call({ tool: env("E2E_TOOL"), arguments: decodeMcpObject(env("E2E_TOOL_ARGS", "{}")) });
    const resource = await session.readResource({ uri: env("E2E_RESOURCE_URI") });
    const promptArgs = decodePromptArguments(env("E2E_PROMPT_ARGS", "{}"));
    const prompt = await session.callPrompt({ name: env("E2E_PROMPT"), arguments: promptArgs });
    const shutdown = await session.shutdown();
    await session.close();
    return {
      scenario: "full",
      handshake: reported(encodeHandshakeResult(handshake)),
      initialize: reported(encodeInitializeResult(initialize)),
      tools: toolNames(tools),
      call: reported(encodeCallResult(call)),
      resource: reported(encodeReadResourceResult(resource)),
      prompt: reported(encodeCallPromptResult(prompt)),
      shutdown: reported(encodeShutdownResult(shutdown)),
      exit_code: session.exitStatus,
    };
  } finally {
    await session.close();
  }
}

async function handshakeOnly(argv: readonly string[]): Promise<JsonValue> {
  let opened: [CoprocessClient, ChildProcess | null];
  try {
    opened = await open(argv);
  } catch (error) {
    if (!(error instanceof CoprocessHandshakeError)) {
      throw error;
    }
    return { scenario: "handshake", ok: false, error: error.message };
  }
  const [session, child] = opened;
  const handshake = session.handshakeResult;
  if (child !== null) {
    await waitExit(child);
  } else {
    await session.close();
  }
  return { scenario: "handshake", ok: true, value: reported(encodeHandshakeResult(handshake)) };
}

/**
 * The binary serving an SDK that never handshakes (a v1 SDK): a client that
 * always handshakes cannot play it, so two raw request lines do.
 */
async function noHandshake(argv: readonly string[]): Promise<JsonValue> {
  const [command, ...args] = argv;
  if (command === undefined) {
    throw new Failed("MCPTEST_ARGV is empty");
  }
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const next = waiting.shift();
      if (next === undefined) {
        lines.push(line);
      } else {
        next(line);
      }
    }
  });
  child.stdout.on("end", () => {
    waiting.splice(0).forEach((next) => {
      next(null);
    });
  });
  const answers: JsonValue[] = [];
  let id = 1;
  for (const method of [MethodName.McpListTools, MethodName.McpShutdown]) {
    child.stdin.write(encodeRequest({ jsonrpc: "2.0", id: id++, method }) + "\n");
    const line = lines.shift() ?? (await new Promise<string | null>((resolve) => waiting.push(resolve)));
    if (line === null) {
      throw new Failed(`${method}: the coprocess closed its stdout without answering`);
    }
    const response = decodeResponse(line);
    if ("error" in response) {
      throw new Failed(`${method} answered ${String(response.error.code)}: ${response.error.message}`);
    }
    answers.push(response.result);
  }
  const tools = decodeListToolsResultValue(answers[0] ?? null);
  return { scenario: "no_handshake", tools: toolNames(tools), exit_code: await waitExit(child) };
}

const SCENARIOS: Readonly<Record<string, (argv: readonly string[]) => Promise<JsonValue>>> = {
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
  try {
    const report = await run(JSON.parse(env("MCPTEST_ARGV")) as string[]);
    process.stdout.write(JSON.stringify(report) + "\n");
  } catch (error) {
    const known =
      error instanceof Failed || error instanceof ClientError || error instanceof DecodeError || error instanceof CoprocessHandshakeError;
    const what = known ? `${error.constructor.name}: ${error.message}` : `unexpected: ${String(error)}`;
    process.stdout.write(JSON.stringify({ scenario, failed: what }) + "\n");
    process.exitCode = 1;
  }
}

void main();
