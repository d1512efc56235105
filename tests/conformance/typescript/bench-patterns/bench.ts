// Issue 36's pattern benchmark in TypeScript: every probe of probes.tsv (the
// probe type's name, a tab, a frame whose text is a long string; written by
// pattern_bench_inputs of tests/constraints/proof.rs) decoded by the generated
// decoder of its type, through `recode`, the by-name entry the testee uses
// (it encodes the value again: linear, and counted), the given number of
// times, and as many times as PatternProbePlain (the same object without a
// pattern). One line per probe: "<number>\t<best ms>\t<1 decoded, 0 refused>\t<best ms, plain>".
// Compiled apart from the testee by ../bench-patterns.sh.

import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

import { DecodeError, isTypeName, recode } from "./coprocess.js";

function decodes(typeName: string, frame: string): boolean {
  if (!isTypeName(typeName)) {
    throw new Error(`unknown type ${typeName}`);
  }
  try {
    return recode(typeName, frame).length > 0;
  } catch (error) {
    if (error instanceof DecodeError) {
      return false;
    }
    throw error;
  }
}

/** The best of `repeats` decodes of `frame` as `typeName`, in milliseconds. */
function bestOf(typeName: string, frame: string, repeats: number): number {
  let best = Infinity;
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    decodes(typeName, frame);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

async function main(): Promise<void> {
  const [path, repeatsText] = process.argv.slice(2);
  const repeats = Number(repeatsText);
  if (path === undefined || !Number.isInteger(repeats) || repeats < 1) {
    throw new Error("usage: bench.js PROBES.tsv REPEATS");
  }
  const lines: string[] = [];
  let number = 0;
  for await (const line of createInterface({ input: createReadStream(path, "utf8"), crlfDelay: Infinity })) {
    const tab = line.indexOf("\t");
    if (tab < 0) {
      throw new Error(`line ${String(number + 1)} of ${path} has no tab`);
    }
    const typeName = line.slice(0, tab);
    const frame = line.slice(tab + 1);
    const best = bestOf(typeName, frame, repeats);
    const plain = bestOf("PatternProbePlain", frame, repeats);
    const decoded = decodes(typeName, frame);
    lines.push(`${String(number)}\t${best.toFixed(3)}\t${decoded ? "1" : "0"}\t${plain.toFixed(3)}\n`);
    number++;
  }
  process.stdout.write(lines.join(""));
}

await main();
