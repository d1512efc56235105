// The generated TypeScript decoders with a polluted Object.prototype: a union
// reads its discriminators with constant keys and looks up as the object's own
// only the one that reads as a value (`pickVariant`); an inherited member reads
// as a value too, and must not pick a variant. Each case's answer must be what
// the lookup of every discriminator gives.
//   node tests/conformance/typescript/prototype.mjs [DIST]   (default: target/conformance/typescript/dist)
// Exit 0 when every case holds, 1 with the cases that do not.

import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const dist = resolve(process.argv[2] ?? "target/conformance/typescript/dist");
const m = await import(pathToFileURL(`${dist}/coprocess.js`).href);

/** The answer to `decode()`: the value as JSON text, or the error's message. */
function answer(decode) {
  try {
    return `ok ${JSON.stringify(decode())}`;
  } catch (e) {
    return e instanceof m.DecodeError ? `error ${e.message}` : `threw ${String(e)}`;
  }
}

const ERROR = '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no such method"}}';
const NEITHER = '{"jsonrpc":"2.0","id":1}';
const PASSTHROUGH = '{"content":[],"isError":false}';
const VERDICT = '{"success":true,"data":null,"text":null,"error":null,"duration_ms":5}';

// [note, inherited member, decode, expected answer]
const CASES = [
  ["a response with neither member, `result` inherited", "result", () => m.decodeResponse(NEITHER), "error Response: neither `result` nor `error`"],
  ["the same through the typed envelope", "result", () => m.decodeResponseOf(NEITHER, m.decodeCallResultValue), "error Response: neither `result` nor `error`"],
  ["an error response, `result` inherited", "result", () => m.decodeResponse(ERROR).error.code, "ok -32601"],
  ["a verdict's object with neither member, `success` inherited", "success", () => m.decodeCallResult('{"data":null}'), "error CallResult: neither `success` nor `content`"],
  ["a passthrough, `success` inherited", "success", () => "content" in m.decodeCallResult(PASSTHROUGH), "ok true"],
  ["a verdict, `content` inherited", "content", () => m.decodeCallResult(VERDICT).success, "ok true"],
];

const wrong = [];
for (const [note, inherited, decode, expected] of CASES) {
  // Enumerable, as a plain assignment makes it; then non-enumerable.
  for (const enumerable of [true, false]) {
    Object.defineProperty(Object.prototype, inherited, { value: 1, enumerable, configurable: true, writable: true });
    let got;
    try {
      got = answer(decode);
    } finally {
      delete Object.prototype[inherited];
    }
    if (got !== expected) {
      wrong.push(`${note} (${enumerable ? "enumerable" : "not enumerable"}): got ${got}, expected ${expected}`);
    }
  }
  // And the same answer without the pollution.
  const clean = answer(decode);
  if (clean !== expected) {
    wrong.push(`${note} (no pollution): got ${clean}, expected ${expected}`);
  }
}
if (wrong.length > 0) {
  process.stderr.write(`${wrong.length} wrong answer(s):\n${wrong.join("\n")}\n`);
  process.exit(1);
}
process.stdout.write(`prototype: ${CASES.length} cases hold\n`);
