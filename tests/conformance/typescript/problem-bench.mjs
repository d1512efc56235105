// Why the decoders throw a plain `_Problem` and not an `Error` (the
// `only-throw-error` exceptions in the runtime, codegen/src/targets/
// typescript/runtime.ts): rejected frames per second through the built
// testee's coprocess.js as generated, and through a copy whose `_Problem`
// extends `Error` (so every throw inside a decoder captures a stack trace).
// Run once by hand, figures in docs/benchmarks.md:
//   tests/conformance/typescript/build.sh
//   node tests/conformance/typescript/problem-bench.mjs [DIST] [SECONDS]
// (DIST defaults to target/conformance/typescript/dist).
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const dist = process.argv[2] ?? join(root, "target/conformance/typescript/dist");
const seconds = Number(process.argv[3] ?? "2");

const plainClass = "class _Problem {\n    constructor(problem, path) {\n";
const errorClass = "class _Problem extends Error {\n    constructor(problem, path) {\n        super(problem);\n";
const source = readFileSync(join(dist, "coprocess.js"), "utf8");
if (!source.includes(plainClass)) {
  throw new Error(`${dist}/coprocess.js has no plain _Problem class to compare`);
}
const variant = join(dist, "coprocess-problem-is-error.js");
writeFileSync(variant, source.replace(plainClass, errorClass));

const generated = await import(pathToFileURL(join(dist, "coprocess.js")).href);
const withError = await import(pathToFileURL(variant).href);
unlinkSync(variant);

const FRAMES = [
  {
    name: "valid mcp.call Request (for reference)",
    text: '{"jsonrpc":"2.0","id":42,"method":"mcp.call","params":{"tool":"search","arguments":{"query":"weather in Paris"},"timeout_ms":5000}}',
  },
  {
    name: "mcp.call Request, unknown field in params",
    text: '{"jsonrpc":"2.0","id":42,"method":"mcp.call","params":{"tool":"search","arguments":{"query":"weather in Paris"},"timeout_ms":5000,"retry":true}}',
  },
  {
    name: "mcp.call Request, string where an integer belongs",
    text: '{"jsonrpc":"2.0","id":42,"method":"mcp.call","params":{"tool":"search","arguments":{"query":"weather in Paris"},"timeout_ms":"5000"}}',
  },
  {
    name: "mcp.call Request, duplicate key (strict parser)",
    text: '{"jsonrpc":"2.0","id":42,"method":"mcp.call","params":{"tool":"search","tool":"fetch","arguments":{}}}',
  },
];

let sink = 0;

function decodeWith(module) {
  return (text) => {
    try {
      return module.decodeRequestOf(text, module.decodeCallParamsValue);
    } catch (e) {
      if (!(e instanceof module.DecodeError)) {
        throw e;
      }
      return e;
    }
  };
}

/**
 * Frames per second of `run` over `text` in one round of `ms` milliseconds of
 * this process's CPU time (steadier than wall time on a shared machine).
 */
function round(run, text, ms) {
  let count = 0;
  const start = process.cpuUsage();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 200; i++) {
      if (run(text) !== null) {
        sink++;
      }
    }
    count += 200;
    const used = process.cpuUsage(start);
    elapsed = (used.user + used.system) / 1000;
  }
  return (count * 1000) / elapsed;
}

const format = (n) => Math.round(n).toLocaleString("en-US");
console.log("| frame | plain `_Problem` fr/s | `_Problem extends Error` fr/s | plain / Error |");
console.log("|---|---|---|---|");
const plain = decodeWith(generated);
const error = decodeWith(withError);
for (const frame of FRAMES) {
  if (String(plain(frame.text)) !== String(error(frame.text))) {
    throw new Error(`the two copies disagree on ${frame.name}`);
  }
  round(plain, frame.text, 300);
  round(error, frame.text, 300);
  // The two copies in alternating rounds, the best of each.
  let a = 0;
  let b = 0;
  for (let i = 0; i < 20; i++) {
    a = Math.max(a, round(plain, frame.text, (seconds * 1000) / 20));
    b = Math.max(b, round(error, frame.text, (seconds * 1000) / 20));
  }
  console.log(`| ${frame.name} | ${format(a)} | ${format(b)} | ${(a / b).toFixed(2)} |`);
}
if (sink < 0) {
  console.log("unreachable");
}
