// The TypeScript conformance testee: reads NDJSON cases on stdin and answers
// each with one line on stdout, using only the generated `coprocess.ts` and
// the Node.js runtime (see docs/targets.md, "Testees").

import {
  COPROCESS_PROTOCOL_VERSION,
  CoprocessHandshakeError,
  DecodeError,
  ErrorCode,
  METHOD_TABLE,
  UNSUPPORTED_SDK_LANES,
  checkHandshakeResponse,
  encodeHandshakeResult,
  handshakeRequest,
  isTypeName,
  laneCliHint,
  recode,
} from "./coprocess.js";

/** The part of Node's `process` this program uses (no @types/node needed). */
declare const process: {
  readonly stdin: {
    setEncoding(encoding: "utf8"): void;
    on(event: "data", listener: (chunk: string) => void): void;
    on(event: "end", listener: () => void): void;
  };
  readonly stdout: { write(text: string): boolean };
};

type Case = { readonly [key: string]: unknown };

function ok(valueText: string): string {
  return `{"ok":true,"value":${valueText}}`;
}

function failure(message: string): string {
  return JSON.stringify({ ok: false, error: message });
}

function text(testCase: Case, key: string): string {
  const value = testCase[key];
  if (typeof value !== "string") {
    throw new TypeError(`case field \`${key}\` must be a string`);
  }
  return value;
}

function decode(testCase: Case): string {
  const typeName = text(testCase, "type");
  if (!isTypeName(typeName)) {
    return failure(`unknown type \`${typeName}\``);
  }
  return ok(recode(typeName, text(testCase, "json")));
}

function handshake(testCase: Case): string {
  const id = testCase["id"];
  if (typeof id !== "number" && typeof id !== "string") {
    throw new TypeError("case field `id` must be a number or a string");
  }
  return ok(handshakeRequest(id, text(testCase, "sdk"), text(testCase, "sdk_version")));
}

function constants(): string {
  const errorCodes: { [name: string]: number } = {};
  for (const [name, code] of Object.entries(ErrorCode)) {
    errorCodes[name] = code;
  }
  return ok(
    JSON.stringify({
      protocol_version: COPROCESS_PROTOCOL_VERSION,
      methods: METHOD_TABLE.map((method) => method.name),
      error_codes: errorCodes,
      unsupported_lanes: UNSUPPORTED_SDK_LANES,
    }),
  );
}

function answer(line: string): string {
  let testCase: Case;
  try {
    testCase = JSON.parse(line) as Case;
  } catch (e) {
    return failure(`testee: the case line is not JSON: ${String(e)}`);
  }
  try {
    switch (testCase["op"] ?? "decode") {
      case "decode":
        return decode(testCase);
      case "handshake_request":
        return handshake(testCase);
      case "check_handshake":
        return ok(encodeHandshakeResult(checkHandshakeResponse(text(testCase, "json"))));
      case "lane_cli_hint":
        return ok(JSON.stringify(laneCliHint(text(testCase, "lane"), text(testCase, "suite"))));
      case "constants":
        return constants();
      default:
        return failure(`testee: unknown op ${JSON.stringify(testCase["op"])}`);
    }
  } catch (e) {
    if (e instanceof DecodeError || e instanceof CoprocessHandshakeError) {
      return failure(e.message);
    }
    return failure(`testee: ${String(e)}`);
  }
}

let pending = "";

function answerLines(final: boolean): void {
  let out = "";
  let newline = pending.indexOf("\n");
  while (newline >= 0) {
    const line = pending.slice(0, newline).replace(/\r$/, "");
    pending = pending.slice(newline + 1);
    if (line.trim() !== "") {
      out += answer(line) + "\n";
    }
    newline = pending.indexOf("\n");
  }
  if (final && pending.trim() !== "") {
    out += answer(pending) + "\n";
    pending = "";
  }
  if (out !== "") {
    process.stdout.write(out);
  }
}

process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  answerLines(false);
});
process.stdin.on("end", () => answerLines(true));
