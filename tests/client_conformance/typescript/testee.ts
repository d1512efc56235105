// The TypeScript client's testee for the client conformance suite.
//
// Runs every scenario of CLIENT_SCENARIOS with the generated client,
// `CoprocessClient` of client.ts, against the scripted fake (CLIENT_FAKE) or
// the real binary (CLIENT_BINARY), and prints one JSON line per scenario: its
// name and one outcome per step (a list of outcomes for a `parallel` step).
// See docs/client-scenarios.md and tests/client_conformance.rs.

import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import {
  CallAbortedError,
  CallTimeoutError,
  ClientError,
  CoprocessClient,
  CoprocessExitedError,
  ProtocolError,
  RpcError,
  SessionClosedError,
  SpawnError,
  callOutcome,
  serverCommand,
} from "./client.js";
import type { ClientOptions } from "./client.js";
import * as coprocess from "./coprocess.js";

type Json = coprocess.JsonValue;
type Outcome = Record<string, Json>;
type Step = Record<string, Json>;
type Method = (params: unknown, options: { timeoutMs?: number }) => Promise<unknown>;

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined) {
    throw new Error(`${name} is not set`);
  }
  return value;
}

/** The client method of a wire name: `mcp.listTools` -> `listTools`. */
function tsName(wire: string): string {
  const words = wire
    .split(".")
    .slice(1)
    .flatMap((part) => part.split("_"))
    .filter((word) => word !== "");
  return words.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join("");
}

/** A generated function of coprocess.ts by its name (`encodeCallResult`). */
function generated(name: string): (value: unknown) => unknown {
  const found = (coprocess as unknown as Record<string, unknown>)[name];
  if (typeof found !== "function") {
    throw new Error(`coprocess.ts has no ${name}`);
  }
  return found as (value: unknown) => unknown;
}

function failure(error: unknown): Outcome {
  if (error instanceof coprocess.CoprocessHandshakeError) {
    return { kind: "handshake_error", message: error.message };
  }
  if (!(error instanceof ClientError)) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { kind: "crash", message: text };
  }
  const kinds: [new (...args: never[]) => ClientError, string][] = [
    [RpcError, "rpc_error"],
    [ProtocolError, "protocol_error"],
    [CallTimeoutError, "timeout"],
    [CallAbortedError, "aborted"],
    [SessionClosedError, "closed"],
    [CoprocessExitedError, "exited"],
    [SpawnError, "spawn_error"],
  ];
  const kind = kinds.find(([type]) => error instanceof type)?.[1] ?? "crash";
  const outcome: Outcome = { kind, message: error.message, detail: error.detail };
  if (error instanceof RpcError) {
    outcome["code"] = error.code;
    outcome["name"] = error.codeName;
    outcome["data"] = error.data ?? null;
  }
  if (error instanceof CoprocessExitedError) {
    outcome["status"] = error.status;
    outcome["stderr"] = [...error.stderr];
  }
  return outcome;
}

class Scenario {
  client: CoprocessClient | null = null;
  child: ChildProcess | null = null;

  constructor(
    readonly scenario: Step,
    readonly file: string,
  ) {}

  async start(options: Step): Promise<Outcome> {
    const root = env("CLIENT_ROOT");
    const coprocessPath = (this.scenario["coprocess"] as coprocess.JsonObject | undefined)?.["path"];
    const binary =
      typeof coprocessPath === "string"
        ? join(root, coprocessPath)
        : this.scenario["coprocess"] === "binary"
          ? env("CLIENT_BINARY")
          : env("CLIENT_FAKE");
    const server = (this.scenario["server"] ?? ["server"]) as Json[];
    const argv = server.map((item) => {
      if (typeof item === "object" && item !== null && !Array.isArray(item)) {
        return join(root, String((item as coprocess.JsonObject)["path"]));
      }
      return String(item);
    });
    const childEnv: Record<string, string | undefined> = {
      ...process.env,
      CLIENT_SCENARIOS: this.file,
      CLIENT_SCENARIO: String(this.scenario["name"]),
    };
    let settings: ClientOptions = { env: childEnv };
    if (typeof options["timeout_ms"] === "number") {
      settings = { ...settings, timeoutMs: options["timeout_ms"] };
    }
    if (typeof options["start_timeout_ms"] === "number") {
      settings = { ...settings, startTimeoutMs: options["start_timeout_ms"] };
    }
    if (typeof options["close_timeout_ms"] === "number") {
      settings = { ...settings, closeTimeoutMs: options["close_timeout_ms"] };
    }
    if (this.scenario["transport"] === "streams") {
      const args = ["exec", "--connection-server", "--server-command", serverCommand(argv)];
      const child = spawn(binary, args, { stdio: ["pipe", "pipe", "inherit"], env: childEnv });
      this.child = child;
      this.client = await CoprocessClient.overStreams(child.stdout, child.stdin, settings);
    } else {
      this.client = await CoprocessClient.spawn(binary, argv, settings);
    }
    return { kind: "ok" };
  }

  async call(step: Step): Promise<Outcome> {
    const spec = coprocess.METHOD_TABLE.find((row) => row.name === step["call"]);
    if (spec === undefined) {
      return { kind: "crash", message: `no method ${String(step["call"])}` };
    }
    if (this.client === null) {
      return { kind: "crash", message: "no client: the scenario's start failed" };
    }
    const params = "params" in step ? generated(`decode${spec.params}Value`)(step["params"]) : undefined;
    const options = typeof step["timeout_ms"] === "number" ? { timeoutMs: step["timeout_ms"] } : {};
    const method = (this.client as unknown as Record<string, Method>)[tsName(spec.name)];
    if (method === undefined) {
      return { kind: "crash", message: `the client has no ${tsName(spec.name)}` };
    }
    const result = await method.call(this.client, params, options);
    const text = generated(`encode${spec.result}`)(result) as string;
    const outcome: Outcome = { kind: "ok", result: JSON.parse(text) as Json };
    if (spec.name === "mcp.call") {
      const read = callOutcome(result as coprocess.CallResult);
      outcome["call_outcome"] = { success: read.success, text: read.text, error: read.error };
    }
    return outcome;
  }

  async close(): Promise<Outcome> {
    if (this.client !== null) {
      await this.client.close();
    }
    return { kind: "ok" };
  }

  async step(step: Step): Promise<Outcome> {
    const started = performance.now();
    let outcome: Outcome;
    try {
      if ("start" in step) {
        outcome = await this.start(step["start"] as Step);
      } else if ("call" in step) {
        outcome = await this.call(step);
      } else {
        outcome = await this.close();
      }
    } catch (error) {
      outcome = failure(error);
    }
    outcome["elapsed_ms"] = Math.round((performance.now() - started) * 10) / 10;
    return outcome;
  }

  async run(): Promise<Json[]> {
    const results: Json[] = [];
    try {
      for (const step of this.scenario["steps"] as Step[]) {
        if ("parallel" in step) {
          const steps = step["parallel"] as Step[];
          results.push(await Promise.all(steps.map((one) => this.step(one))));
        } else {
          results.push(await this.step(step));
        }
      }
    } finally {
      if (this.client !== null) {
        await this.client.close();
      }
      const child = this.child;
      if (child !== null && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      }
    }
    return results;
  }
}

async function main(): Promise<void> {
  const file = env("CLIENT_SCENARIOS");
  const scenarios = (JSON.parse(readFileSync(file, "utf8")) as { scenarios: Step[] }).scenarios;
  for (const scenario of scenarios) {
    const steps = await new Scenario(scenario, file).run();
    process.stdout.write(JSON.stringify({ scenario: scenario["name"] ?? null, steps }) + "\n");
  }
}

void main();
