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
  decodeCallParamsValue,
  decodeHandshakeParamsValue,
  decodeMcpObjectValue,
  decodeParamsValue,
  decodeRequest,
  decodeRequestOf,
  decodeResponse,
  decodeResponseOf,
  decodeShutdownResultValue,
  decodeVerdictValue,
  encodeCallParams,
  encodeRequest,
  encodeResponse,
  encodeHandshakeParams,
  encodeHandshakeResult,
  encodeMcpObject,
  encodeParams,
  encodeRequestOf,
  encodeResponseOf,
  encodeShutdownResult,
  encodeVerdict,
  handshakeRequest,
  isTypeName,
  laneCliHint,
  recode,
} from "./coprocess.js";
import type { JsonValue, ValueDecoder } from "./coprocess.js";

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
 * `Response`. With a narrower type (`CallParams`, `Verdict`, ...), a typed
 * envelope must answer as the open envelope and then that type's decoder on
 * its member do. Returns what a typed envelope answered when it disagrees,
 * else null.
 */
function typedDisagreement(typeName: string, json: string, answer: string): string | null {
  const answers: string[] = [];
  if (typeName === "Request") {
    answers.push(answerOf(() => encodeRequestOf(decodeRequestOf(json, decodeParamsValue), encodeParams)));
    answers.push(answerOf(() => encodeRequestOf(decodeRequestOf(json, (value) => decodeParamsValue(value)), encodeParams)));
    return (
      answers.find((typed) => typed !== answer) ??
      requestDisagreement(json, decodeCallParamsValue, encodeCallParams) ??
      requestDisagreement(json, decodeHandshakeParamsValue, encodeHandshakeParams)
    );
  }
  if (typeName === "Response") {
    answers.push(answerOf(() => encodeResponseOf(decodeResponseOf(json, (value) => value), JSON.stringify)));
    const typed = answerOf(() => encodeResponseOf(decodeResponseOf(json, decodeMcpObjectValue), encodeMcpObject));
    const agrees = objectResult(json) ? typed === answer : typed.startsWith('{"ok":false');
    if (!agrees) {
      return typed;
    }
    return (
      answers.find((typed) => typed !== answer) ??
      responseDisagreement(json, decodeVerdictValue, encodeVerdict) ??
      responseDisagreement(json, decodeShutdownResultValue, encodeShutdownResult)
    );
  }
  return null;
}

/** An integer-like key, which JavaScript enumerates before the others. */
const INTEGER_KEY = /^(0|[1-9]\d*)$/;

/** Whether `json` has an integer-like key anywhere, however it is spelled (`"\u0030"` is `"0"`). */
function hasIntegerKey(json: string): boolean {
  const walk = (value: unknown): boolean => {
    if (Array.isArray(value)) {
      return value.some(walk);
    }
    if (typeof value === "object" && value !== null) {
      return Object.entries(value).some(([key, member]) => INTEGER_KEY.test(key) || walk(member));
    }
    return false;
  };
  try {
    return walk(JSON.parse(json));
  } catch {
    return true;
  }
}

/** `composedDisagreement` of `RequestOf<T>`. */
function requestDisagreement<T>(json: string, decode: ValueDecoder<T>, encode: (value: T) => string): string | null {
  return composedDisagreement(json, "Request", "params", answerOf(() => encodeRequestOf(decodeRequestOf(json, decode), encode)), decode, () => {
    const request = decodeRequest(json);
    const encodeWith = (params: T | undefined): string => (params === undefined ? encodeRequest(request) : encodeRequestOf({ ...request, params }, encode));
    return { member: request.params, encodeWith };
  });
}

/** `composedDisagreement` of `ResponseOf<T>`. */
function responseDisagreement<T>(json: string, decode: ValueDecoder<T>, encode: (value: T) => string): string | null {
  return composedDisagreement(json, "Response", "result", answerOf(() => encodeResponseOf(decodeResponseOf(json, decode), encode)), decode, () => {
    const response = decodeResponse(json);
    if (!("result" in response)) {
      return { member: undefined, encodeWith: () => encodeResponse(response) };
    }
    return { member: response.result, encodeWith: (result: T | undefined) => encodeResponseOf({ ...response, result: result as T }, encode) };
  });
}

/** An open envelope: its typed member's value, and how to encode it with that member decoded. */
interface OpenEnvelope<T> {
  readonly member: JsonValue | undefined;
  readonly encodeWith: (member: T | undefined) => string;
}

/**
 * A typed envelope's answer (`typed`) to `json` against the open one (`open`) followed
 * by `decode` on its member: a rejected frame stays rejected; an accepted one
 * decodes to the same value, or fails with `decode`'s problem at the member's
 * path from the frame's root (compared unless integer-like keys, which
 * JavaScript enumerates first, may change which problem is met first).
 * Returns `typed` when it disagrees, else null.
 */
function composedDisagreement<T>(json: string, envelope: string, member: string, typed: string, decode: ValueDecoder<T>, open: () => OpenEnvelope<T>): string | null {
  const rejected = typed.startsWith('{"ok":false');
  let frame: OpenEnvelope<T>;
  try {
    frame = open();
  } catch (e) {
    passOnUnlessDecodeError(e);
    return rejected ? null : typed;
  }
  let expected: string;
  try {
    expected = ok(frame.encodeWith(frame.member === undefined ? undefined : decode(frame.member)));
  } catch (e) {
    passOnUnlessDecodeError(e);
    if (hasIntegerKey(json)) {
      return rejected ? null : typed;
    }
    expected = failure(`${envelope}: ${e.problem} at $.${member}${e.path.slice(1)}`);
  }
  return typed === expected ? null : typed;
}

/** Throws `e` again unless it is a `DecodeError`. */
function passOnUnlessDecodeError(e: unknown): asserts e is DecodeError {
  if (!(e instanceof DecodeError)) {
    throw e;
  }
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
