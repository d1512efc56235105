// Decode throughput of the generated strict decoders against JSON.parse of
// the same text; prints one markdown table row per frame.

import { decodeCallParamsValue, decodeCallResultValue, decodeHandshakeParamsValue, decodeRequestOf, decodeResponseOf } from "./coprocess.js";

declare const performance: { now(): number };
declare const process: { readonly argv: readonly string[]; readonly stdout: { write(text: string): boolean } };

interface Frame {
  readonly name: string;
  readonly text: string;
  readonly strict: (text: string) => unknown;
}

const FRAMES: readonly Frame[] = [
  {
    name: "handshake Request (RequestOf<HandshakeParams>)",
    text: '{"jsonrpc":"2.0","id":1,"method":"coprocess/handshake","params":{"protocol_version":2,"sdk":"typescript","sdk_version":"1.2.3"}}',
    strict: (text) => decodeRequestOf(text, decodeHandshakeParamsValue),
  },
  {
    name: "mcp.call Request (RequestOf<CallParams>)",
    text: '{"jsonrpc":"2.0","id":42,"method":"mcp.call","params":{"tool":"search","arguments":{"query":"weather in Paris","limit":10,"filters":{"lang":"en","safe":true}},"timeout_ms":5000}}',
    strict: (text) => decodeRequestOf(text, decodeCallParamsValue),
  },
  {
    name: "Response with Verdict (ResponseOf<CallResult>)",
    text: '{"jsonrpc":"2.0","id":42,"result":{"success":true,"data":{"items":[{"title":"Paris","temp":21.5},{"title":"Lyon","temp":23}]},"text":"Paris 21.5C\\nLyon 23C","error":null,"duration_ms":137}}',
    strict: (text) => decodeResponseOf(text, decodeCallResultValue),
  },
];

let sink = 0;

/** Frames per second of `run` over `text` in one timed round of `ms`. */
function throughput(run: (text: string) => unknown, text: string, ms: number): number {
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 1000; i++) {
      if (run(text) !== null) {
        sink++;
      }
    }
    count += 1000;
    elapsed = performance.now() - start;
  }
  return (count * 1000) / elapsed;
}

/**
 * The best frames per second of the strict decoder and of `JSON.parse` over
 * `text`, measured in alternated rounds so that both see the same load on a
 * shared machine.
 */
function rates(strict: (text: string) => unknown, text: string, seconds: number): [number, number] {
  const rounds = 10;
  let bestStrict = 0;
  let bestPlain = 0;
  for (let round = 0; round < rounds; round++) {
    bestStrict = Math.max(bestStrict, throughput(strict, text, (seconds * 1000) / rounds));
    bestPlain = Math.max(bestPlain, throughput(JSON.parse, text, (seconds * 1000) / rounds));
  }
  return [bestStrict, bestPlain];
}

function format(perSecond: number): string {
  return Math.round(perSecond).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

const seconds = Number(process.argv[2] ?? "2");
for (const frame of FRAMES) {
  rates(frame.strict, frame.text, 0.3);
  const [strict, plain] = rates(frame.strict, frame.text, seconds);
  process.stdout.write(`| typescript | ${frame.name} | ${format(strict)} | ${format(plain)} | ${(plain / strict).toFixed(2)} |\n`);
}
if (sink < 0) {
  process.stdout.write("unreachable\n");
}
