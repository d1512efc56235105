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
  decodeMcpObjectValue,
  decodeParamsValue,
  decodeRequestOf,
  decodeResponse,
  decodeResponseOf,
  encodeHandshakeResult,
  encodeMcpObject,
  encodeParams,
  encodeRequestOf,
  encodeResponseOf,
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
  const json = text(testCase, "json");
  const answer = answerOf(() => recode(typeName, json));
  const typed = typedDisagreement(typeName, json, answer);
  return typed === null ? answer : failure(`testee: the typed envelope disagrees: ${typed}`);
}

/** The answer line of `decode`: its value, or its `DecodeError`. */
function answerOf(decode: () => string): string {
  try {
    return ok(decode());
  } catch (e) {
    if (e instanceof DecodeError) {
      return failure(e.message);
    }
    throw e;
  }
}

/**
 * Checks the typed envelopes against the open ones: `RequestOf<Params>` must
 * answer exactly as `Request`, and so must a params decoder of the caller's
 * (not a generated one); `ResponseOf<McpObject>` must accept a response
 * exactly when `Response` does and its result is an object, with the same
 * encoding, and a result decoder of the caller's must answer exactly as
 * `Response`. Returns what a typed envelope answered when it disagrees, else
 * null.
 */
function typedDisagreement(typeName: string, json: string, answer: string): string | null {
  const answers: string[] = [];
  if (typeName === "Request") {
    answers.push(answerOf(() => encodeRequestOf(decodeRequestOf(json, decodeParamsValue), encodeParams)));
    answers.push(answerOf(() => encodeRequestOf(decodeRequestOf(json, (value) => decodeParamsValue(value)), encodeParams)));
  } else if (typeName === "Response") {
    answers.push(answerOf(() => encodeResponseOf(decodeResponseOf(json, (value) => value), JSON.stringify)));
    const typed = answerOf(() => encodeResponseOf(decodeResponseOf(json, decodeMcpObjectValue), encodeMcpObject));
    const agrees = objectResult(json) ? typed === answer : typed.startsWith('{"ok":false');
    if (!agrees) {
      return typed;
    }
  }
  return answers.find((typed) => typed !== answer) ?? null;
}

/** Whether `json` decodes as a `Response` whose result, if any, is an object. */
function objectResult(json: string): boolean {
  try {
    const response = decodeResponse(json);
    return !("result" in response) || (typeof response.result === "object" && response.result !== null && !Array.isArray(response.result));
  } catch (e) {
    if (e instanceof DecodeError) {
      return false;
    }
    throw e;
  }
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
