// The TypeScript client's own CPU per call: the generated client against a
// coprocess that answers every `mcp.call` at once
// (tests/client_conformance/echo_coprocess.py), next to a raw loop that writes
// the same request line and reads one line back without decoding. The two
// loops alternate in this one process for several rounds; a round's figure is
// the process's user + system CPU time (`process.cpuUsage`) over its calls, so
// the coprocess and the wait on the pipe do not count. Also the resident set
// after 1k, 10k and 100k client calls.
//
//   node target/client_conformance/typescript/dist/bench.js [CALLS [ROUNDS]]   (bench.sh; default 100000 5)

import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { CoprocessClient } from "./client.js";
import * as coprocess from "./coprocess.js";

const ECHO = join(
  process.env["CLIENT_ROOT"] ?? join(dirname(fileURLToPath(import.meta.url)), "../../../.."),
  "tests/client_conformance/echo_coprocess.py",
);

/** The calls after which the resident set is noted. */
const RSS_AT = new Set([1_000, 10_000, 100_000]);

/** The process's user + system CPU microseconds so far. */
function cpuUs(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function clientLoop(calls: number): Promise<[number, string[]]> {
  const rss: string[] = [];
  const client = await CoprocessClient.spawn(ECHO, ["server"]);
  try {
    const started = cpuUs();
    for (let done = 1; done <= calls; done++) {
      await client.call({ tool: "bench" });
      if (RSS_AT.has(done)) {
        rss.push(String(Math.round(process.memoryUsage.rss() / 1024)));
      }
    }
    return [cpuUs() - started, rss];
  } finally {
    await client.close();
  }
}

async function rawLoop(calls: number): Promise<number> {
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
  const started = cpuUs();
  for (let i = 0; i < calls; i++) {
    child.stdin.write(line);
    await oneLine();
  }
  const spent = cpuUs() - started;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin.end();
  await exited;
  return spent;
}

/** Microseconds of CPU per call of the best and the median round. */
function bestAndMedian(rounds: number[], calls: number): [number, number] {
  const ordered = rounds.map((us) => us / calls).sort((a, b) => a - b);
  return [ordered[0] ?? 0, ordered[Math.floor(ordered.length / 2)] ?? 0];
}

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? "100000");
  const rounds = Math.max(1, Number(process.argv[3] ?? "5"));
  const raws: number[] = [];
  const clients: number[] = [];
  let rss: string[] = [];
  for (let round = 0; round < rounds; round++) {
    raws.push(await rawLoop(calls));
    const [spent, used] = await clientLoop(calls);
    clients.push(spent);
    rss = used;
  }
  const [rawBest, rawMedian] = bestAndMedian(raws, calls);
  const [clientBest, clientMedian] = bestAndMedian(clients, calls);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`typescript: ${String(calls)} calls x ${String(rounds)} alternated rounds, process CPU (user+system) per call`);
  out(`raw loop: best ${rawBest.toFixed(2)} us, median ${rawMedian.toFixed(2)} us`);
  out(`client:   best ${clientBest.toFixed(2)} us, median ${clientMedian.toFixed(2)} us`);
  out(
    `client/raw: ${(clientBest / rawBest).toFixed(2)} (bests), ${(clientMedian / rawMedian).toFixed(2)} (medians); ` +
      `added: ${(clientBest - rawBest).toFixed(2)} us (bests), ${(clientMedian - rawMedian).toFixed(2)} us (medians)`,
  );
  out(`RSS (KiB) after 1k / 10k / 100k client calls: ${rss.join(" / ")}`);
  out(
    `summary typescript ${rawBest.toFixed(2)} ${rawMedian.toFixed(2)} ${clientBest.toFixed(2)} ${clientMedian.toFixed(2)} ${rss.join(" ")}`,
  );
  // Each round's raw and client figures, in the order run (bench-all.sh
  // takes the median of the per-round ratios).
  const pairs = raws.map((raw, i) => `${(raw / calls).toFixed(2)} ${((clients[i] ?? 0) / calls).toFixed(2)}`);
  out(`rounds typescript ${pairs.join(" ")}`);
}

void main();
