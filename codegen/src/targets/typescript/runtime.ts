// ---------------------------------------------------------------------------
// JSON values and the strict JSON text reader

/** Any JSON value, as the strict reader produces it. */
export type JsonValue =
  null | boolean | number | string | JsonArray | JsonObject;

/** A JSON array. */
export type JsonArray = readonly JsonValue[];

/** A JSON object. Every key is an own property (`__proto__` included). */
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/**
 * A frame that does not decode as the type asked for. The message is
 * `{Type}: {problem}` at the root and `{Type}: {problem} at {path}` below it.
 */
export class DecodeError extends Error {
  override readonly name: string = "DecodeError";

  constructor(
    /** The `$defs` name being decoded (`JSON` for bare JSON text). */
    readonly typeName: string,
    /** What is wrong, for example ``unknown field `x` ``. */
    readonly problem: string,
    /** Where: `$` for the root, then `.key`, `["key"]` and `[3]` steps. */
    readonly path: string,
  ) {
    super(
      path === "$"
        ? `${typeName}: ${problem}`
        : `${typeName}: ${problem} at ${path}`,
    );
  }
}

/**
 * `Record<string, T>`, written out: a `$defs` type named `Record` would shadow
 * the global one in the generated module.
 */
// eslint-disable-next-line @typescript-eslint/consistent-indexed-object-style -- a $defs type named Record would shadow the global one in this module
type _Entries<T> = { [key in string]: T };

/**
 * A problem found while decoding; the public decoders add the type name. Not
 * an `Error`: it is thrown and caught inside the decoders, where capturing a
 * stack trace that nobody sees would halve the rate at which they reject
 * frames (docs/benchmarks.md).
 */
class _Problem {
  constructor(
    readonly problem: string,
    readonly path: string,
  ) {}
}

/** Stops a read with a `Problem`. */
function _throwProblem(problem: string, path: string): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a Problem captures no stack trace; the public decoders turn it into a DecodeError
  throw new _Problem(problem, path);
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- always called as `_hasOwn.call(obj, key)` (`Object.hasOwn` is ES2022); a wrapper function decodes 1-2% slower (docs/benchmarks.md)
const _hasOwn = Object.prototype.hasOwnProperty;

/**
 * The document order of the objects whose keys JavaScript enumerates in
 * another order (integer-like keys come first in `Object.keys`).
 */
const _documentOrder = new WeakMap<JsonObject, readonly string[]>();

/** Whether `documentOrder` was ever written (so most lookups are skipped). */
let _documentOrderUsed = false;

/** The keys of `obj` in document order. */
function _memberKeys(obj: JsonObject): readonly string[] {
  const order = _documentOrderUsed ? _documentOrder.get(obj) : undefined;
  return order ?? Object.keys(obj);
}

/**
 * Reads an object for a reader's `for (const key in obj)` loop: the object
 * itself, or, in a traced read of an object whose integer-like keys
 * JavaScript enumerates first, a view listing its keys as written, so that
 * the first problem reported is the first one written. (The loop, its
 * `hasOwn` check and its member loads all use what this returns, which lets
 * the engine use its fast paths for them.)
 */
function _readMembers(
  value: JsonValue,
  path: string,
  orNull: boolean,
): JsonObject {
  const obj = _readObject(value, path, orNull);
  const order =
    path !== _UNTRACED && _documentOrderUsed
      ? _documentOrder.get(obj)
      : undefined;
  return order === undefined
    ? obj
    : new Proxy(obj, { ownKeys: () => [...order] });
}

function _isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A recursive-descent parser of one strict I-JSON text. */
class _StrictJsonParser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  parseDocument(): JsonValue {
    const value = this.parseValue();
    this.skipWhitespace();
    if (this.pos < this.text.length) {
      this.throwInvalid("text after the JSON value");
    }
    return value;
  }

  private throwInvalid(what: string): never {
    _throwProblem(`invalid JSON: ${what} at offset ${String(this.pos)}`, "$");
  }

  private throwUnexpected(): never {
    if (this.pos >= this.text.length) {
      _throwProblem("invalid JSON: unexpected end of input", "$");
    }
    const c = this.text.charCodeAt(this.pos);
    const shown =
      c > 0x20 && c < 0x7f
        ? JSON.stringify(this.text.charAt(this.pos))
        : `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
    this.throwInvalid(`unexpected character ${shown}`);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let i = this.pos;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
      } else {
        break;
      }
    }
    this.pos = i;
  }

  private parseValue(): JsonValue {
    this.skipWhitespace();
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b:
        return this.parseObject();
      case 0x5b:
        return this.parseArray();
      case 0x22:
        return this.parseString();
      case 0x74:
        return this.parseLiteral("true", true);
      case 0x66:
        return this.parseLiteral("false", false);
      case 0x6e:
        return this.parseLiteral("null", null);
      default:
        if (c === 0x2d || _isDigit(c)) {
          return this.parseNumber();
        }
        this.throwUnexpected();
    }
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) {
      _throwProblem(`nesting deeper than ${String(MAX_DEPTH)}`, "$");
    }
    this.pos++;
  }

  private parseObject(): JsonObject {
    this.enter();
    const text = this.text;
    const obj: _Entries<JsonValue> = {};
    let order: string[] | undefined;
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return obj;
    }
    for (;;) {
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== 0x22) {
        this.throwUnexpected();
      }
      const key = this.parseString();
      if (_hasOwn.call(obj, key)) {
        _throwProblem(`duplicate key \`${key}\``, "$");
      }
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== 0x3a) {
        this.throwUnexpected();
      }
      this.pos++;
      const value = this.parseValue();
      if (order !== undefined) {
        order.push(key);
      } else if (_isDigit(key.charCodeAt(0))) {
        order = Object.keys(obj);
        order.push(key);
      }
      if (key === "__proto__") {
        Object.defineProperty(obj, key, {
          value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else {
        obj[key] = value;
      }
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
      } else if (c === 0x7d) {
        this.pos++;
        break;
      } else {
        this.throwUnexpected();
      }
    }
    if (order !== undefined) {
      _documentOrder.set(obj, order);
      _documentOrderUsed = true;
    }
    this.depth--;
    return obj;
  }

  private parseArray(): JsonArray {
    this.enter();
    const text = this.text;
    const items: JsonValue[] = [];
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return items;
    }
    for (;;) {
      items.push(this.parseValue());
      this.skipWhitespace();
      const c = text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
      } else if (c === 0x5d) {
        this.pos++;
        break;
      } else {
        this.throwUnexpected();
      }
    }
    this.depth--;
    return items;
  }

  private parseLiteral<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) {
      this.throwUnexpected();
    }
    this.pos += word.length;
    return value;
  }

  private parseNumber(): number {
    const text = this.text;
    const start = this.pos;
    let i = start;
    const negative = text.charCodeAt(i) === 0x2d;
    if (negative) {
      i++;
    }
    let c = text.charCodeAt(i);
    let magnitude = 0;
    if (c === 0x30) {
      i++;
    } else if (_isDigit(c)) {
      do {
        magnitude = magnitude * 10 + (c - 0x30);
        c = text.charCodeAt(++i);
      } while (_isDigit(c));
    } else {
      this.pos = i;
      this.throwUnexpected();
    }
    const integerEnd = i;
    c = text.charCodeAt(i);
    if (c === 0x2e) {
      i = this.skipDigits(i + 1);
      c = text.charCodeAt(i);
    }
    if (c === 0x65 || c === 0x45) {
      c = text.charCodeAt(++i);
      if (c === 0x2b || c === 0x2d) {
        i++;
      }
      i = this.skipDigits(i);
    }
    this.pos = i;
    if (i === integerEnd) {
      if (magnitude > Number.MAX_SAFE_INTEGER) {
        this.pos = start;
        this.throwInvalid("integer outside +-(2^53-1)");
      }
      return negative ? -magnitude : magnitude;
    }
    const value = Number(text.slice(start, i));
    if (!Number.isFinite(value)) {
      this.pos = start;
      this.throwInvalid("number overflows a double");
    }
    return value;
  }

  /** Skips one or more digits from `i`; returns the index after them. */
  private skipDigits(i: number): number {
    const text = this.text;
    if (!_isDigit(text.charCodeAt(i))) {
      this.pos = i;
      this.throwUnexpected();
    }
    do {
      i++;
    } while (_isDigit(text.charCodeAt(i)));
    return i;
  }

  private parseString(): string {
    const text = this.text;
    const start = this.pos + 1;
    const end = text.length;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return text.slice(start, i);
      }
      if (c === 0x5c || c < 0x20 || (c & 0xf800) === 0xd800) {
        return this.parseStringSlowly(text.slice(start, i), i);
      }
    }
    return this.parseStringSlowly(text.slice(start, end), end);
  }

  /** The rest of a string from `i`, after the plain prefix `out`. */
  private parseStringSlowly(out: string, i: number): string {
    const text = this.text;
    for (;;) {
      this.pos = i;
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return out;
      }
      if (c === 0x5c) {
        const escaped = this.parseEscape(i);
        out += escaped;
        i = this.pos;
      } else if (c < 0x20 || c !== c) {
        if (c !== c) {
          this.throwUnexpected();
        }
        this.throwInvalid("control character in string");
      } else if (c >= 0xd800 && c <= 0xdbff) {
        const next = text.charCodeAt(i + 1);
        if (!(next >= 0xdc00 && next <= 0xdfff)) {
          this.throwInvalid("lone surrogate");
        }
        out += text.slice(i, i + 2);
        i += 2;
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        this.throwInvalid("lone surrogate");
      } else {
        let j = i + 1;
        for (;;) {
          const d = text.charCodeAt(j);
          if (
            d === 0x22 ||
            d === 0x5c ||
            d < 0x20 ||
            (d >= 0xd800 && d <= 0xdfff) ||
            d !== d
          ) {
            break;
          }
          j++;
        }
        out += text.slice(i, j);
        i = j;
      }
    }
  }

  /** Reads the escape at `i` (a backslash); leaves `pos` after it. */
  private parseEscape(i: number): string {
    const e = this.text.charCodeAt(i + 1);
    this.pos = i + 2;
    switch (e) {
      case 0x22:
        return '"';
      case 0x5c:
        return "\\";
      case 0x2f:
        return "/";
      case 0x62:
        return "\b";
      case 0x66:
        return "\f";
      case 0x6e:
        return "\n";
      case 0x72:
        return "\r";
      case 0x74:
        return "\t";
      case 0x75:
        return this.parseUnicodeEscape(i);
      default:
        this.pos = i;
        this.throwInvalid("invalid escape");
    }
  }

  /** Reads `\uXXXX` at `i`, with its low half when it is a high surrogate. */
  private parseUnicodeEscape(i: number): string {
    const unit = this.hex4(i + 2);
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      this.pos = i;
      this.throwInvalid("lone surrogate");
    }
    if (unit < 0xd800 || unit > 0xdbff) {
      this.pos = i + 6;
      return String.fromCharCode(unit);
    }
    const text = this.text;
    const low =
      text.charCodeAt(i + 6) === 0x5c && text.charCodeAt(i + 7) === 0x75
        ? this.hex4(i + 8)
        : -1;
    if (!(low >= 0xdc00 && low <= 0xdfff)) {
      this.pos = i;
      this.throwInvalid("lone surrogate");
    }
    this.pos = i + 12;
    return String.fromCharCode(unit, low);
  }

  private hex4(i: number): number {
    let unit = 0;
    for (let k = i; k < i + 4; k++) {
      const c = this.text.charCodeAt(k);
      const digit = _isDigit(c)
        ? c - 0x30
        : c >= 0x61 && c <= 0x66
          ? c - 0x57
          : c >= 0x41 && c <= 0x46
            ? c - 0x37
            : -1;
      if (digit < 0) {
        this.pos = k;
        this.throwInvalid("invalid \\u escape");
      }
      unit = unit * 16 + digit;
    }
    return unit;
  }
}

/** An escaped surrogate, `\uD800` to `\uDFFF` (judged by the strict parser). */
const _ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

/** A raw surrogate code unit without its other half. */
const _LONE_SURROGATE =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A surrogate code unit (half of a pair, or lone). */
const _ANY_SURROGATE = /[\ud800-\udfff]/;

/**
 * `String.prototype.isWellFormed` (ES2024: no lone surrogates), where the
 * platform has it; it answers in constant time for most strings.
 */
const _isWellFormed: ((this: string) => boolean) | undefined = (
  String.prototype as { isWellFormed?: (this: string) => boolean }
).isWellFormed;

/** Whether the raw text of `text` holds a surrogate without its other half. */
function _hasLoneSurrogate(text: string): boolean {
  if (_isWellFormed !== undefined) {
    return !_isWellFormed.call(text);
  }
  return _ANY_SURROGATE.test(text) && _LONE_SURROGATE.test(text);
}

/**
 * Whether `JSON.parse` could let a lone surrogate through: any escaped
 * surrogate (the strict parser judges it), or a raw one without its other half.
 */
function _mayHoldLoneSurrogate(text: string): boolean {
  return (
    (_hasUnicodeEscape(text) && _ESCAPED_SURROGATE.test(text)) ||
    _hasLoneSurrogate(text)
  );
}

/**
 * Whether JSON text has a `\uXXXX` escape: a backslash followed by `u`, each
 * escape skipped as a whole (a one-character search, which engines run
 * faster than a two-character one). On text that is not JSON the answer does
 * not matter: `JSON.parse` rejects it.
 */
function _hasUnicodeEscape(text: string): boolean {
  for (let i = text.indexOf("\\"); i >= 0; i = text.indexOf("\\", i + 2)) {
    if (text.charCodeAt(i + 1) === 0x75) {
      return true;
    }
  }
  return false;
}

/**
 * `text` read by the platform's `JSON.parse` when that gives exactly the value
 * the strict parser gives (up to the enumeration order of integer-like keys,
 * which JavaScript fixes anyway); undefined when it may not, and the strict
 * parser must judge. `JSON.parse` enforces the grammar, the whitespace, the
 * escapes and the byte-order mark; what it lets through is checked here, with
 * native string searches and one walk over the value: lone surrogates, numbers
 * beyond +-(2^53-1) or overflowing, nesting deeper than `MAX_DEPTH`, and
 * duplicate keys (see `keysMatch`).
 */
function _parsePlainly(text: string): JsonValue | undefined {
  const value = _parseUnchecked(text);
  return value !== undefined && _keysMatch(text, value, _keysBelow(value, 0))
    ? value
    : undefined;
}

/**
 * `text` read by `JSON.parse`, unless it is not JSON or may hold a lone
 * surrogate; the other rules of `parsePlainly` are still to be checked.
 */
function _parseUnchecked(text: string): JsonValue | undefined {
  if (_mayHoldLoneSurrogate(text)) {
    return undefined;
  }
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/**
 * Whether `value`, read from `text` by `JSON.parse` and holding `keys` object
 * keys (-1: a number or nesting the strict parser must judge), lost no
 * duplicate key: the text has a colon for every key, so a value with fewer
 * keys, colons inside strings aside, lost one.
 */
function _keysMatch(text: string, value: JsonValue, keys: number): boolean {
  if (keys < 0) {
    return false;
  }
  const colons = _countColons(text);
  if (colons === keys) {
    return true;
  }
  // An escaped colon (`\u003a`) would be a colon in a string but not in the text.
  return !text.includes("\\u003") && colons - keys === _colonsInStrings(value);
}

/**
 * The number of object keys in the container `value`, nested inside `outer`
 * containers; -1 when it nests deeper than `MAX_DEPTH` or holds a number
 * beyond +-(2^53-1) (an integer literal the strict parser rejects, or a number
 * it may accept: it decides).
 */
function _countKeys(value: JsonObject | JsonArray, outer: number): number {
  if (outer === MAX_DEPTH) {
    return -1;
  }
  let keys = 0;
  if (Array.isArray(value)) {
    for (const item of value as JsonArray) {
      const inner =
        typeof item === "object" && item !== null
          ? _countKeys(item, outer + 1)
          : _isSafeScalar(item)
            ? 0
            : -1;
      if (inner < 0) {
        return -1;
      }
      keys += inner;
    }
    return keys;
  }
  const obj = value as JsonObject;
  for (const key in obj) {
    if (!_hasOwn.call(obj, key)) {
      return -1;
    }
    const member = obj[key] as JsonValue;
    const inner =
      typeof member === "object" && member !== null
        ? _countKeys(member, outer + 1)
        : _isSafeScalar(member)
          ? 0
          : -1;
    if (inner < 0) {
      return -1;
    }
    keys += inner + 1;
  }
  return keys;
}

/** `countKeys` of any value: 0 for a string, boolean, null or safe number. */
function _keysBelow(value: JsonValue, outer: number): number {
  if (typeof value === "object" && value !== null) {
    return _countKeys(value, outer);
  }
  return _isSafeScalar(value) ? 0 : -1;
}

/** Whether a string, boolean, null or number is not a number beyond +-(2^53-1). */
function _isSafeScalar(value: JsonValue): boolean {
  return (
    typeof value !== "number" ||
    (value <= Number.MAX_SAFE_INTEGER && value >= -Number.MAX_SAFE_INTEGER)
  );
}

/** The number of colons in `text`. */
function _countColons(text: string): number {
  let count = 0;
  for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) {
    count++;
  }
  return count;
}

/** The number of colons in the strings (keys included) of `value`. */
function _colonsInStrings(value: JsonValue): number {
  if (typeof value === "string") {
    return _countColons(value);
  }
  if (typeof value !== "object" || value === null) {
    return 0;
  }
  let colons = 0;
  if (Array.isArray(value)) {
    for (const item of value as JsonArray) {
      colons += _colonsInStrings(item);
    }
    return colons;
  }
  const obj = value as JsonObject;
  for (const key of Object.keys(obj)) {
    colons += _countColons(key) + _colonsInStrings(obj[key] as JsonValue);
  }
  return colons;
}

/**
 * Reads one strict JSON text, with `JSON.parse` where it agrees (see
 * `parsePlainly`). Throws a `Problem`.
 */
function _readJsonText(text: string): JsonValue {
  const value = _parsePlainly(text);
  return value !== undefined
    ? value
    : new _StrictJsonParser(text).parseDocument();
}

/**
 * Reads one strict JSON text: no byte-order mark, nothing after the value, no
 * duplicate keys, no lone surrogates, no `NaN`/`Infinity`, no number that
 * overflows a double, no integer literal outside +-(2^53-1), at most
 * `MAX_DEPTH` nested containers.
 *
 * @throws {@link DecodeError} (type name `JSON`) when the text breaks a rule.
 */
export function parseStrictJson(text: string): JsonValue {
  try {
    return _readJsonText(text);
  } catch (e) {
    throw e instanceof _Problem
      ? new DecodeError("JSON", e.problem, e.path)
      : e;
  }
}

/**
 * The value of JSON text that one container of a frame encloses (a laid-out
 * answer's `result`), read by `JSON.parse` where it gives exactly the value
 * the strict parser gives there (see `parsePlainly`), with one container's
 * room less than a frame's; undefined where the strict parser must judge, or
 * the text is not JSON: the frame's whole decode then says what is wrong.
 */
export function parseEnclosedJson(text: string): JsonValue | undefined {
  const value = _parseUnchecked(text);
  return value !== undefined && _keysMatch(text, value, _keysBelow(value, 1))
    ? value
    : undefined;
}

// ---------------------------------------------------------------------------
// Single-pass readers of plain forms (the generated `plain<Type>`)

/**
 * A string in a plain reader's forms: no escape, no control character, and no
 * surrogate (a pair, like a lone one, is left to the strict decode).
 */
const _PLAIN_STRING = /"([^"\\\u0000-\u001f\ud800-\udfff]*)"/.source;

/** A boolean: the group is `true` or `false`. */
const _PLAIN_BOOLEAN = /(true|false)/.source;

/** `null` (no group) or a plain string (its group). */
const _PLAIN_NULLABLE_STRING = `(?:null|${_PLAIN_STRING})`;

/**
 * An integer of at least 0 as plain digits, no leading zero: at most 15
 * digits, within 2^53 - 1.
 */
const _PLAIN_UNSIGNED = /(0|[1-9][0-9]{0,14})/.source;

/** An integer as plain digits after an optional minus (not `-0`). */
const _PLAIN_INTEGER = /(0|-?[1-9][0-9]{0,14})/.source;

/** `null`, as a member of any JSON value reads it (no group). */
const _PLAIN_NULL = "null";

/**
 * The pattern of an object's whole text in a plain reader's forms: its
 * `members` (wire name, value pattern) all there, in declaration order, with
 * no whitespace, as the binary writes them. Every part is linear: a text it
 * does not match is left to the strict decode. (Its return type is inferred:
 * a `$defs` type may be named `RegExp`.)
 */
function _objectText(...members: [string, string][]) {
  const parts = members.map(
    ([name, value]) => _escapeRegExp(JSON.stringify(name) + ":") + value,
  );
  return new RegExp("^\\{" + parts.join(",") + "\\}$");
}

/** `text` with every character a `RegExp` gives a meaning escaped. */
function _escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

// ---------------------------------------------------------------------------
// Shape checks shared by the generated decoders

/**
 * Reads a value of one type at `path`; `orNull` says the field also admits
 * null. `path` is `UNTRACED` in a first, quick read, which builds no paths and
 * is read again with them when it fails.
 */
type _Reader<T> = (value: JsonValue, path: string, orNull: boolean) => T;

/** The path of a quick read (see `Reader`); a traced path starts with `$`. */
const _UNTRACED = "";

/** `T` with its fields writable, while a decoder builds it. */
type _Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Whether a read is counting: the quick read of `decodeText` sets it, and
 * then `openValue` walks each open value for the checks of `parsePlainly`
 * (nesting it as if `OPEN_DEPTH` containers held it).
 */
let _counting = false;

/**
 * The object keys a counting read met: every reader of a closed object or of
 * a map adds its keys, `openValue` those of an open value.
 */
let _keysMet = 0;

/** A `Problem` that only sends a quick read to the strict parser. */
const _DOUBTFUL = new _Problem("the strict parser decides", "$");

/**
 * An open value (any JSON) met by a reader; a counting read adds its keys, or
 * leaves a number or nesting the strict parser must judge to it.
 */
function _openValue<T extends JsonValue>(value: T): T {
  if (_counting) {
    const keys = _keysBelow(value, _OPEN_DEPTH);
    if (keys < 0) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the one preallocated Problem (not an Error: see Problem); the quick read's catch sends it to the strict parser
      throw _DOUBTFUL;
    }
    _keysMet += keys;
  }
  return value;
}

/**
 * Decodes JSON text with `read`, naming `typeName` in errors. Quickly when
 * `JSON.parse` agrees with the strict parser and the value fits: the read
 * itself meets every key (closed objects key by key, open values by a walk),
 * so only the colons of the text are left to count (see `keysMatch`). Else
 * again with the strict parser's value (which keeps integer-like keys in
 * document order, so the first problem found is the first one written) and
 * paths.
 */
function _decodeText<T>(typeName: string, read: _Reader<T>, text: string): T {
  const value = _parseUnchecked(text);
  if (value !== undefined) {
    _counting = _OPEN_DEPTH >= 0;
    _keysMet = 0;
    try {
      const decoded = read(value, _UNTRACED, false);
      if (
        _keysMatch(text, value, _counting ? _keysMet : _keysBelow(value, 0))
      ) {
        return decoded;
      }
    } catch (e) {
      _passOnUnlessProblem(e);
    } finally {
      _counting = false;
    }
  }
  try {
    return read(new _StrictJsonParser(text).parseDocument(), "$", false);
  } catch (e) {
    throw e instanceof _Problem
      ? new DecodeError(typeName, e.problem, e.path)
      : e;
  }
}

/**
 * Decodes an already-parsed value with `read`, naming `typeName` in errors:
 * quickly, else again with paths.
 */
function _decodeParsed<T>(
  typeName: string,
  read: _Reader<T>,
  value: JsonValue,
): T {
  try {
    return read(value, _UNTRACED, false);
  } catch (e) {
    _passOnUnlessProblem(e);
  }
  try {
    return read(value, "$", false);
  } catch (e) {
    throw e instanceof _Problem
      ? new DecodeError(typeName, e.problem, e.path)
      : e;
  }
}

/** Throws `e` again unless it is a `Problem` (which a traced read redoes). */
function _passOnUnlessProblem(e: unknown): void {
  if (!(e instanceof _Problem)) {
    throw e;
  }
}

function _kindOf(value: JsonValue): string {
  if (value === null) {
    return "null";
  }
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "string":
      return "string";
    case "number":
      return Number.isSafeInteger(value) ? "integer" : "number";
    default:
      return Array.isArray(value) ? "array" : "object";
  }
}

function _throwExpected(
  what: string,
  value: JsonValue,
  path: string,
  orNull: boolean,
): never {
  _throwProblem(
    `expected ${what}${orNull ? " or null" : ""}, got ${_kindOf(value)}`,
    path,
  );
}

function _throwUnknownField(key: string, path: string): never {
  _throwProblem(`unknown field \`${key}\``, path);
}

function _throwMissingField(key: string, path: string): never {
  _throwProblem(`missing field \`${key}\``, path);
}

const _IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The path of member `key` of the object at `path`. */
function _pathOfKey(path: string, key: string): string {
  if (path === _UNTRACED) {
    return _UNTRACED;
  }
  return _IDENTIFIER.test(key)
    ? `${path}.${key}`
    : `${path}[${JSON.stringify(key)}]`;
}

/** `path` followed by `step` (`.key`, `["key"]` or `[3]`). */
function _pathTo(path: string, step: string): string {
  return path === _UNTRACED ? _UNTRACED : path + step;
}

function _readBoolean(
  value: JsonValue,
  path: string,
  orNull: boolean,
): boolean {
  if (typeof value === "boolean") {
    return value;
  }
  _throwExpected("boolean", value, path, orNull);
}

function _readString(value: JsonValue, path: string, orNull: boolean): string {
  if (typeof value === "string") {
    return value;
  }
  _throwExpected("string", value, path, orNull);
}

function _readStringWithin(
  value: JsonValue,
  path: string,
  orNull: boolean,
  minimum: number | null,
  maximum: number | null,
): string {
  const text = _readString(value, path, orNull);
  // `text.length` counts UTF-16 units: between the number of code points and
  // twice it. The code points are counted only when that leaves it open.
  if (
    (minimum !== null && text.length < 2 * minimum) ||
    (maximum !== null && text.length > maximum)
  ) {
    _lengthWithin(_codePoints(text), path, minimum, maximum, "character");
  }
  return text;
}

/** The number of Unicode code points in `text` (a surrogate pair counts once). */
function _codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // The JSON-text rules refuse a lone surrogate: a low one ends a pair.
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      count--;
    }
  }
  return count;
}

function _itemsWithin<A extends readonly unknown[]>(
  items: A,
  path: string,
  minimum: number | null,
  maximum: number | null,
): A {
  _lengthWithin(items.length, path, minimum, maximum, "item");
  return items;
}

/** Checks an object's number of members. */
function _membersWithin<T extends object>(
  members: T,
  path: string,
  minimum: number | null,
  maximum: number | null,
): T {
  _lengthWithin(Object.keys(members).length, path, minimum, maximum, "member");
  return members;
}

/**
 * Checks every member name (`propertyNames`); of the names that fail, the
 * first in code-point order is reported.
 */
function _memberNames<T extends object>(
  members: T,
  path: string,
  check: (name: string) => unknown,
): T {
  let failed: [string, string] | null = null;
  for (const name of Object.keys(members)) {
    try {
      check(name);
    } catch (e) {
      if (!(e instanceof _Problem)) {
        throw e;
      }
      if (failed === null || _codePointLess(name, failed[0])) {
        failed = [name, e.problem];
      }
    }
  }
  if (failed !== null) {
    _throwProblem(
      `member name ${JSON.stringify(failed[0])}: ${failed[1]}`,
      path,
    );
  }
  return members;
}

/** Whether `a` comes before `b` in code-point order (`<` compares UTF-16 units). */
function _codePointLess(a: string, b: string): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      return _codePointRank(x) < _codePointRank(y);
    }
  }
  return a.length < b.length;
}

/** A UTF-16 unit's rank in code-point order: the surrogates after U+FFFF. */
function _codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) {
    return unit + 0x2000;
  }
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/**
 * Checks a string's length in code points, an array's number of items or an
 * object's number of members.
 */
function _lengthWithin(
  length: number,
  path: string,
  minimum: number | null,
  maximum: number | null,
  noun: string,
): void {
  if (minimum !== null && length < minimum) {
    _throwProblem(
      `expected at least ${_counted(minimum, noun)}, got ${String(length)}`,
      path,
    );
  }
  if (maximum !== null && length > maximum) {
    _throwProblem(
      `expected at most ${_counted(maximum, noun)}, got ${String(length)}`,
      path,
    );
  }
}

/** Throws the problem of item `i` that equals the earlier item `first`. */
function _throwNotUnique(i: number, first: number, path: string): never {
  return _throwProblem(
    `expected unique items, got item ${String(i)} equal to item ${String(first)}`,
    path,
  );
}

/**
 * Checks that no item equals an earlier one (as decoded: 1.0 is 1; -0 is 0):
 * up to 8 items each against the earlier ones (`indexOf`, by `===`), with no
 * map to make.
 */
function _uniqueItems<A extends readonly unknown[]>(items: A, path: string): A {
  if (items.length <= 8) {
    for (let i = 1; i < items.length; i++) {
      const first = items.indexOf(items[i]);
      if (first < i) {
        _throwNotUnique(i, first, path);
      }
    }
    return items;
  }
  const seen = new Map<unknown, number>();
  for (let i = 0; i < items.length; i++) {
    const first = seen.get(items[i]);
    if (first !== undefined) {
      _throwNotUnique(i, first, path);
    }
    seen.set(items[i], i);
  }
  return items;
}

/** Checks that no item equals an earlier one by JSON equality. */
function _uniqueJson(items: JsonArray, path: string): JsonArray {
  for (const [i, item] of items.entries()) {
    const first = items.findIndex((other) => _jsonEqual(other, item));
    if (first < i) {
      _throwNotUnique(i, first, path);
    }
  }
  return items;
}

/**
 * Checks each item's JSON kind: the first ones `kinds`, the others `rest`
 * (`""`: any kind; an integer is a number too).
 */
function _prefixKinds<T extends readonly JsonValue[]>(
  items: T,
  path: string,
  kinds: readonly string[],
  rest: string,
): T {
  for (let i = 0; i < items.length; i++) {
    const kind = i < kinds.length ? kinds[i] : rest;
    const got = _kindOf(items[i] as JsonValue);
    if (kind && kind !== got && !(kind === "number" && got === "integer")) {
      _throwProblem(
        `expected ${kind}, got ${got}`,
        path === _UNTRACED ? _UNTRACED : `${path}[${String(i)}]`,
      );
    }
  }
  return items;
}

/**
 * Checks that no item of an array read from `value` (objects, arrays,
 * nullable items) equals an earlier one, by JSON equality of the values they
 * were read from.
 */
function _uniqueRead<T>(items: T, value: JsonValue, path: string): T {
  if (Array.isArray(value)) {
    _uniqueJson(value, path);
  }
  return items;
}

const _listed = new Map<string, JsonArray>();

/**
 * The values of a `const` or an `enum` (JSON text joined by `, `), read once
 * and kept: every decode compares with the same values.
 */
function _listedJson(listed: string): JsonArray {
  let values = _listed.get(listed);
  if (values === undefined) {
    values = JSON.parse(`[${listed}]`) as JsonArray;
    _listed.set(listed, values);
  }
  return values;
}

/**
 * Checks that a value equals the schema's `const` (any JSON value, `shown` as
 * JSON text) by JSON equality.
 */
function _constantJson(
  value: JsonValue,
  path: string,
  shown: string,
): JsonValue {
  if (!_jsonEqual(value, _listedJson(shown)[0] as JsonValue)) {
    _throwProblem(`expected ${shown}, got ${_kindOf(value)}`, path);
  }
  return value;
}

/**
 * Checks that a value equals one of the schema's `enum` values (any JSON
 * values, `listed` as JSON text joined by `, `) by JSON equality.
 */
function _oneOfJson(value: JsonValue, path: string, listed: string): JsonValue {
  const allowed = _listedJson(listed);
  if (!allowed.some((option) => _jsonEqual(value, option))) {
    const wanted = allowed.length === 1 ? listed : `one of ${listed}`;
    _throwProblem(`expected ${wanted}, got ${_shown(value)}`, path);
  }
  return value;
}

/**
 * Checks that a value is one of the schema's `enum` values, all strings,
 * all numbers or all booleans, returned as their literal type; `listed` is
 * them as JSON text joined by `, ` (with `null` when the member is nullable,
 * which its reader has taken before). `===` is JSON equality on these
 * (`JSON.parse` reads `1.0` as `1`; `-0 === 0`).
 */
function _oneOf<const T extends string | number | boolean>(
  value: JsonValue,
  path: string,
  values: readonly T[],
  listed: string,
): T {
  for (const option of values) {
    if (option === value) {
      return option;
    }
  }
  const wanted = _listedJson(listed).length === 1 ? listed : `one of ${listed}`;
  return _throwProblem(`expected ${wanted}, got ${_shown(value)}`, path);
}

/**
 * A value as a problem shows it: a string as JSON text, a number as
 * ECMAScript writes it, `true`, `false`, `null`; an array or an object by
 * its kind.
 */
function _shown(value: JsonValue): string {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value);
  }
  return _kindOf(value);
}

/**
 * JSON equality: numbers by value (`1` is `1.0`), objects whatever their
 * member order, arrays item by item, `true` never `1`.
 */
function _jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null
  ) {
    return a === b;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    const left = a as JsonArray;
    const right = b as JsonArray;
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      left.length === right.length &&
      left.every((item, i) => _jsonEqual(item, right[i] as JsonValue))
    );
  }
  const left = a as JsonObject;
  const right = b as JsonObject;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every(
      (key) =>
        _hasOwn.call(right, key) &&
        _jsonEqual(left[key] as JsonValue, right[key] as JsonValue),
    )
  );
}

function _counted(count: number, noun: string): string {
  return count === 1 ? `1 ${noun}` : `${String(count)} ${noun}s`;
}

function _readInteger(value: JsonValue, path: string, orNull: boolean): number {
  if (typeof value === "number" && Number.isSafeInteger(value)) {
    return value === 0 ? 0 : value;
  }
  _throwExpected("integer", value, path, orNull);
}

function _readIntegerAtLeast(
  value: JsonValue,
  path: string,
  orNull: boolean,
  minimum: number,
): number {
  const n = _readInteger(value, path, orNull);
  if (n < minimum) {
    _throwProblem(
      `expected integer >= ${String(minimum)}, got ${String(n)}`,
      path,
    );
  }
  return n;
}

function _readIntegerWithin(
  value: JsonValue,
  path: string,
  orNull: boolean,
  minimum: number | null,
  maximum: number,
): number {
  const n =
    minimum === null
      ? _readInteger(value, path, orNull)
      : _readIntegerAtLeast(value, path, orNull, minimum);
  if (n > maximum) {
    _throwProblem(
      `expected integer <= ${String(maximum)}, got ${String(n)}`,
      path,
    );
  }
  return n;
}

/**
 * Reads any number (one written as an integer too). A counting read leaves a
 * number beyond +-(2^53-1) to the strict parser: `JSON.parse` also reads an
 * integer literal that far out, which the strict rules reject.
 */
function _readNumber(value: JsonValue, path: string, orNull: boolean): number {
  if (typeof value === "number") {
    if (_counting && !_isSafeScalar(value)) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the one preallocated Problem (not an Error: see Problem); the quick read's catch sends it to the strict parser
      throw _DOUBTFUL;
    }
    return value;
  }
  _throwExpected("number", value, path, orNull);
}

/**
 * Reads a number and compares it with its bounds, exactly: the minimum (an
 * absent one is `>= -Infinity`), then the maximum (`<= Infinity`). A problem
 * writes both numbers as `String` does.
 */
function _readNumberWithin(
  value: JsonValue,
  path: string,
  orNull: boolean,
  above: ">=" | ">",
  minimum: number,
  below: "<=" | "<",
  maximum: number,
): number {
  const n = _readNumber(value, path, orNull);
  if (above === ">" ? n <= minimum : n < minimum) {
    _throwProblem(
      `expected number ${above} ${String(minimum)}, got ${String(n)}`,
      path,
    );
  }
  if (below === "<" ? n >= maximum : n > maximum) {
    _throwProblem(
      `expected number ${below} ${String(maximum)}, got ${String(n)}`,
      path,
    );
  }
  return n;
}

/**
 * Checks that a value is the schema's `const`, returned as its literal type;
 * `shown` is it as JSON text.
 */
function _constant<T extends string | number | boolean>(
  value: string | number | boolean,
  path: string,
  expected: T,
  shown: string,
): T {
  if (value !== expected) {
    _throwProblem(`expected ${shown}, got ${JSON.stringify(value)}`, path);
  }
  return expected;
}

/**
 * The index of the tagged-union variant whose tag `obj`'s member `member`
 * holds: the member must be present and one of `tags`.
 */
function _pickTag(
  obj: JsonObject,
  member: string,
  tags: readonly string[],
  path: string,
): number {
  if (!_hasOwn.call(obj, member)) {
    _throwProblem(`missing field \`${member}\``, path);
  }
  const tag = _readEnum(
    obj[member] as JsonValue,
    _pathOfKey(path, member),
    false,
    tags,
  );
  return tags.indexOf(tag);
}

/**
 * A schema `pattern` (ECMA-262 with the `u` flag, searched, not anchored) and
 * the problem a string it finds no match in gets (the global `RegExp`: a
 * `$defs` type named `RegExp` would shadow it in the generated module).
 */
type _Pattern = readonly [regex: globalThis.RegExp, problem: string];

function _matching(text: string, path: string, pattern: _Pattern): string {
  if (!pattern[0].test(text)) {
    _throwProblem(pattern[1], path);
  }
  return text;
}

function _multipleOf(n: number, path: string, divisor: number): number {
  if (n % divisor !== 0) {
    _throwProblem(
      `expected multiple of ${String(divisor)}, got ${String(n)}`,
      path,
    );
  }
  return n;
}

/**
 * The number, if it is a multiple of `digits` × 10^`exponent`, read as the
 * shortest decimal that reads back as its double (`String`'s digits).
 */
function _numberMultipleOf(
  n: number,
  path: string,
  digits: number,
  exponent: number,
): number {
  if (!_isMultiple(n, digits, exponent)) {
    const divisor = Number(`${String(digits)}e${String(exponent)}`);
    _throwProblem(
      `expected multiple of ${String(divisor)}, got ${String(n)}`,
      path,
    );
  }
  return n;
}

/**
 * `D` × 10^`a` over `digits` × 10^`exponent`, `D` without a trailing zero:
 * zero is a multiple; a finer last digit than the divisor's is none; else
 * `D` × 10^(`a` - `exponent`) is divided by `digits`, digit by digit (every
 * step below 2^53, as `digits` is below 10^14).
 */
function _isMultiple(n: number, digits: number, exponent: number): boolean {
  const written = String(Math.abs(n));
  const e = written.indexOf("e");
  const mantissa = e < 0 ? written : written.slice(0, e);
  const power = e < 0 ? 0 : Number(written.slice(e + 1));
  const point = mantissa.indexOf(".");
  const fraction = point < 0 ? 0 : mantissa.length - point - 1;
  const all = point < 0 ? mantissa : mantissa.replace(".", "");
  let end = all.length;
  while (end > 0 && all.charCodeAt(end - 1) === 48) {
    end -= 1;
  }
  const significant = all.slice(0, end);
  if (/^0*$/.test(significant)) {
    return true;
  }
  const a = power - fraction + all.length - end;
  if (a < exponent) {
    return false;
  }
  let rest = 0;
  for (let i = 0; i < significant.length; i += 1) {
    rest = (rest * 10 + significant.charCodeAt(i) - 48) % digits;
  }
  for (let i = 0; i < a - exponent && rest !== 0; i += 1) {
    rest = (rest * 10) % digits;
  }
  return rest === 0;
}

function _readIntegerOrString(
  value: JsonValue,
  path: string,
  orNull: boolean,
): number | string {
  if (typeof value === "string") {
    return value;
  }
  if (typeof value === "number" && Number.isSafeInteger(value)) {
    return value === 0 ? 0 : value;
  }
  _throwExpected("integer or string", value, path, orNull);
}

function _readEnum<T extends string>(
  value: JsonValue,
  path: string,
  orNull: boolean,
  allowed: readonly T[],
): T {
  if (typeof value !== "string") {
    _throwExpected("string", value, path, orNull);
  }
  // A loop of `===` (`includes` costs a builtin call per read).
  let i = 0;
  while (i < allowed.length && allowed[i] !== value) {
    i++;
  }
  if (i === allowed.length) {
    const wanted =
      allowed.length === 1
        ? JSON.stringify(allowed[0])
        : `one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
    _throwProblem(`expected ${wanted}, got ${JSON.stringify(value)}`, path);
  }
  return value as T;
}

function _readObject(
  value: JsonValue,
  path: string,
  orNull: boolean,
): JsonObject {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return value as JsonObject;
  }
  _throwExpected("object", value, path, orNull);
}

function _readArray(
  value: JsonValue,
  path: string,
  orNull: boolean,
): JsonArray {
  if (Array.isArray(value)) {
    return value as JsonArray;
  }
  _throwExpected("array", value, path, orNull);
}

function _readArrayOf<T>(
  value: JsonValue,
  path: string,
  orNull: boolean,
  readItem: (item: JsonValue, itemPath: string) => T,
): T[] {
  const items = _readArray(value, path, orNull);
  const out: T[] = new Array<T>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = readItem(
      items[i] as JsonValue,
      path === _UNTRACED ? _UNTRACED : `${path}[${String(i)}]`,
    );
  }
  return out;
}

function _readMapOf<T>(
  value: JsonValue,
  path: string,
  orNull: boolean,
  readEntry: (entry: JsonValue, entryPath: string) => T,
): _Entries<T> {
  const obj = _readObject(value, path, orNull);
  const out: _Entries<T> = {};
  for (const key of _memberKeys(obj)) {
    _keysMet++;
    const entry = readEntry(obj[key] as JsonValue, _pathOfKey(path, key));
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value: entry,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else {
      out[key] = entry;
    }
  }
  return out;
}

/**
 * The index of the union variant whose discriminator `obj` has: exactly one
 * must be present. `present` has bit `i` set (2^`i` added) when discriminator
 * `i` reads as a value (an inherited member too; 0 tells nothing): no JSON value is
 * `undefined`, so a clear bit is an absent member, and a single set bit needs
 * only that member looked up as the object's own (a constant-key read is much
 * cheaper than `hasOwnProperty`; docs/benchmarks.md). Any other case, and the
 * problems, take the lookup of every discriminator.
 */
function _pickVariant(
  obj: JsonObject,
  discriminators: readonly string[],
  present: number,
  path: string,
): number {
  if (present !== 0 && (present & (present - 1)) === 0) {
    const sole = 31 - Math.clz32(present);
    const discriminator = discriminators[sole];
    if (discriminator !== undefined && _hasOwn.call(obj, discriminator)) {
      return sole;
    }
  }
  let found = -1;
  for (let i = 0; i < discriminators.length; i++) {
    const discriminator = discriminators[i];
    if (discriminator !== undefined && _hasOwn.call(obj, discriminator)) {
      if (found >= 0) {
        _throwProblem(
          discriminators.length === 2
            ? `both ${_listOf(discriminators, " and ")}`
            : `more than one of ${_listOf(discriminators, ", ")}`,
          path,
        );
      }
      found = i;
    }
  }
  if (found < 0) {
    _throwProblem(
      discriminators.length === 2
        ? `neither ${_listOf(discriminators, " nor ")}`
        : `none of ${_listOf(discriminators, ", ")}`,
      path,
    );
  }
  return found;
}

function _listOf(names: readonly string[], separator: string): string {
  return names.map((name) => `\`${name}\``).join(separator);
}

// ---------------------------------------------------------------------------
// Writers shared by the generated encoders

function _writeArray<T>(
  items: readonly T[],
  writeItem: (item: T) => string,
): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) {
      out += ",";
    }
    out += writeItem(items[i] as T);
  }
  return out + "]";
}

function _writeMap<T>(
  entries: _Entries<T>,
  writeEntry: (entry: T) => string,
): string {
  let out = "{";
  for (const key of Object.keys(entries)) {
    if (out.length > 1) {
      out += ",";
    }
    out += JSON.stringify(key) + ":" + writeEntry(entries[key] as T);
  }
  return out + "}";
}
