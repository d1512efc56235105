// Decode throughput of the constrained frame, `Turn` of the golden
// constraints output (codegen/tests/golden/constraints), through the
// generated strict decoder (every length, pattern, range, item and divisor
// constraint checked) against JSON.parse of the same text, with the method of
// ../bench.ts; prints one markdown table row. Compiled apart from the testee
// (build.sh compiles every ../*.ts against generated/, which has no `Turn`).

import { decodeTurn } from "./coprocess.js";

declare const performance: { now(): number };
declare const process: { readonly argv: readonly string[]; readonly stdout: { write(text: string): boolean } };

// The constrained frame, the same text in every language's bench.
const TURN =
  '{"tool":"search_docs","server":"https://example.com/mcp","max_turns":12,"rules":["no_network","read_only","cite_sources"],"budget_ms":30000}';

let sink = 0;

/** Frames per second of `run` over `text`, best of a few timed rounds. */
function throughput(run: (text: string) => unknown, text: string, seconds: number): number {
  let best = 0;
  const rounds = 5;
  for (let round = 0; round < rounds; round++) {
    let count = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < (seconds * 1000) / rounds) {
      for (let i = 0; i < 1000; i++) {
        if (run(text) !== null) {
          sink++;
        }
      }
      count += 1000;
      elapsed = performance.now() - start;
    }
    best = Math.max(best, (count * 1000) / elapsed);
  }
  return best;
}

function format(perSecond: number): string {
  return Math.round(perSecond).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

if (decodeTurn(TURN).budgetMs !== 30000) {
  throw new Error("bench: the Turn frame did not decode to its budget");
}
const seconds = Number(process.argv[2] ?? "2");
throughput(decodeTurn, TURN, 0.3);
throughput(JSON.parse, TURN, 0.3);
const strict = throughput(decodeTurn, TURN, seconds);
const plain = throughput(JSON.parse, TURN, seconds);
process.stdout.write(`| typescript | Turn (constrained) | ${format(strict)} | ${format(plain)} | ${(plain / strict).toFixed(2)} |\n`);
if (sink < 0) {
  process.stdout.write("unreachable\n");
}
