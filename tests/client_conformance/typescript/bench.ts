// The TypeScript client's own CPU per call: the generated client against a
// coprocess that answers every `mcp.call` at once
// (tests/client_conformance/echo_coprocess.py), next to a raw loop that writes
// the same request line and reads one line back without decoding. Each round
// opens both side by side in this one process and runs their calls in
// alternated blocks (BENCH_BLOCK, default 1,000 calls), so that both see the
// same state of the machine; a loop's figure is the process's user + system
// CPU time (`process.cpuUsage`) over its blocks, so the coprocess and the wait
// on the pipe do not count. Also the resident set
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

/** Calls of each loop in a row before the other's turn (`BENCH_BLOCK`; a few milliseconds). */
const BLOCK = Math.max(1, Number(process.env["BENCH_BLOCK"] ?? "1000") || 1000);

/** The calls after which the resident set is noted. */
const RSS_AT = new Set([1_000, 10_000, 100_000]);

/** The process's user + system CPU microseconds so far. */
function cpuUs(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** `calls` client calls after the round's first `done` (the resident set is
 * noted after each of `RSS_AT`): the CPU microseconds they took. */
async function clientCalls(client: CoprocessClient, calls: number, done: number, rss: string[]): Promise<number> {
  const started = cpuUs();
  for (let call = done + 1; call <= done + calls; call++) {
    await client.call({ tool: "bench" });
    if (RSS_AT.has(call)) {
      rss.push(String(Math.round(process.memoryUsage.rss() / 1024)));
    }
  }
  return cpuUs() - started;
}

/** The raw loop: the echo coprocess spawned with plain pipes, written the
 * bench's request line and read one line back, nothing decoded. */
class RawLoop {
  private readonly child = spawn(ECHO, [], { stdio: ["pipe", "pipe", "inherit"] });
  private waiting: (() => void) | null = null;
  private lines = 0;
  private line = Buffer.alloc(0);

  static async start(): Promise<RawLoop> {
    const raw = new RawLoop();
    raw.child.stdout.on("data", (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) {
        raw.lines++;
      }
      if (raw.lines > 0 && raw.waiting !== null) {
        const resume = raw.waiting;
        raw.waiting = null;
        resume();
      }
    });
    raw.child.stdin.write(coprocess.handshakeRequest(1, "typescript", "bench") + "\n");
    await raw.oneLine();
    const request: coprocess.RequestOf<coprocess.CallParams> = {
      jsonrpc: "2.0",
      id: 2,
      method: coprocess.MethodName.McpCall,
      params: { tool: "bench" },
    };
    raw.line = Buffer.from(coprocess.encodeRequestOf(request, coprocess.encodeCallParams) + "\n");
    return raw;
  }

  /** `calls` raw calls: the CPU microseconds they took. */
  async run(calls: number): Promise<number> {
    const started = cpuUs();
    for (let i = 0; i < calls; i++) {
      this.child.stdin.write(this.line);
      await this.oneLine();
    }
    return cpuUs() - started;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end();
    await exited;
  }

  private oneLine(): Promise<void> {
    if (this.lines > 0) {
      this.lines--;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting = () => {
        this.lines--;
        resolve();
      };
    });
  }
}

/** One round: the raw loop and a client session open side by side, `calls`
 * calls of each in alternated blocks of `block` (which of the two goes first
 * alternates too), so that both see the same state of the machine. The CPU
 * microseconds each took, raw then client. */
async function round(calls: number, block: number, rss: string[]): Promise<[number, number]> {
  const raw = await RawLoop.start();
  const client = await CoprocessClient.spawn(ECHO, ["server"]);
  let rawCpu = 0;
  let clientCpu = 0;
  try {
    rss.length = 0;
    let rawFirst = true;
    for (let done = 0; done < calls; done += block) {
      const n = Math.min(block, calls - done);
      if (rawFirst) {
        rawCpu += await raw.run(n);
        clientCpu += await clientCalls(client, n, done, rss);
      } else {
        clientCpu += await clientCalls(client, n, done, rss);
        rawCpu += await raw.run(n);
      }
      rawFirst = !rawFirst;
    }
  } finally {
    await client.close();
    await raw.close();
  }
  return [rawCpu, clientCpu];
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
  const rss: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const [raw, client] = await round(calls, BLOCK, rss);
    raws.push(raw);
    clients.push(client);
  }
  const [rawBest, rawMedian] = bestAndMedian(raws, calls);
  const [clientBest, clientMedian] = bestAndMedian(clients, calls);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`typescript: ${String(calls)} calls x ${String(rounds)} rounds in alternated blocks, process CPU (user+system) per call`);
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
