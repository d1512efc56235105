// Calls per second through the generated TypeScript client against a
// coprocess that answers every `mcp.call` at once
// (tests/client_conformance/echo_coprocess.py), next to a raw loop that writes
// the same request line and reads one line back without decoding; and the
// peak memory over the calls.
//
//   node target/client_conformance/typescript/dist/bench.js [CALLS]   (bench.sh; default 100000)

import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { CoprocessClient } from "./client.js";
import * as coprocess from "./coprocess.js";

const ECHO = join(
  process.env["CLIENT_ROOT"] ?? join(dirname(fileURLToPath(import.meta.url)), "../../../.."),
  "tests/client_conformance/echo_coprocess.py",
);

/** The peak resident set so far, in KiB. */
function peakKib(): number {
  return process.resourceUsage().maxRSS;
}

/** Wall-clock and this process's CPU milliseconds spent in `run`. */
interface Spent {
  readonly wall: number;
  readonly cpu: number;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function clientLoop(calls: number): Promise<[Spent, [number, number][]]> {
  const memory: [number, number][] = [];
  const client = await CoprocessClient.spawn(ECHO, ["server"]);
  try {
    const started = performance.now();
    const cpu = cpuMs();
    for (let done = 1; done <= calls; done++) {
      await client.call({ tool: "bench" });
      if (done % Math.floor(calls / 4) === 0) {
        memory.push([done, peakKib()]);
      }
    }
    return [{ wall: performance.now() - started, cpu: cpuMs() - cpu }, memory];
  } finally {
    await client.close();
  }
}

async function rawLoop(calls: number): Promise<Spent> {
  const child = spawn(ECHO, [], { stdio: ["pipe", "pipe", "inherit"] });
  let waiting: (() => void) | null = null;
  let lines = 0;
  child.stdout.on("data", (chunk: Buffer) => {
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) {
      lines++;
    }
    if (lines > 0 && waiting !== null) {
      const resume = waiting;
      waiting = null;
      resume();
    }
  });
  const oneLine = (): Promise<void> => {
    if (lines > 0) {
      lines--;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      waiting = () => {
        lines--;
        resolve();
      };
    });
  };
  child.stdin.write(coprocess.handshakeRequest(1, "typescript", "bench") + "\n");
  await oneLine();
  const request: coprocess.RequestOf<coprocess.CallParams> = {
    jsonrpc: "2.0",
    id: 2,
    method: coprocess.MethodName.McpCall,
    params: { tool: "bench" },
  };
  const line = Buffer.from(coprocess.encodeRequestOf(request, coprocess.encodeCallParams) + "\n");
  const started = performance.now();
  const cpu = cpuMs();
  for (let i = 0; i < calls; i++) {
    child.stdin.write(line);
    await oneLine();
  }
  const elapsed = { wall: performance.now() - started, cpu: cpuMs() - cpu };
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin.end();
  await exited;
  return elapsed;
}

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? "100000");
  const raw = await rawLoop(calls);
  const [client, memory] = await clientLoop(calls);
  const rate = (spent: Spent) =>
    `${Math.round((calls / spent.wall) * 1000).toLocaleString("en")} calls/s (${((spent.wall / calls) * 1000).toFixed(1)} us/call; ` +
    `node CPU ${((spent.cpu / calls) * 1000).toFixed(1)} us/call)`;
  process.stdout.write(`calls: ${String(calls)}\n`);
  process.stdout.write(`raw loop: ${rate(raw)}\n`);
  process.stdout.write(`client:   ${rate(client)}\n`);
  process.stdout.write(`client/raw time per call: ${(client.wall / raw.wall).toFixed(2)}; node CPU: ${(client.cpu / raw.cpu).toFixed(2)}\n`);
  process.stdout.write(`peak RSS (KiB) after N calls: ${memory.map(([n, kib]) => `${String(n)}: ${String(kib)}`).join(", ")}\n`);
}

void main();
