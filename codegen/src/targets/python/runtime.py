JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
"""Any JSON value, as :mod:`json` represents it."""

_T = typing.TypeVar("_T")

_MAX_SAFE_INTEGER: typing.Final = 2**53 - 1
# An integer literal of at most 15 characters is within ±_MAX_SAFE_INTEGER
# (16 digits); one of more than 17 (16 digits and a sign) is not.
_SAFE_INTEGER_CHARS: typing.Final = 15
_MAX_INTEGER_CHARS: typing.Final = 17
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_INFINITIES = (math.inf, -math.inf)


class DecodeError(builtins.ValueError):
    """A frame that is not strict JSON text or not of the expected shape.

    The message is ``{Type}: {problem}``, followed by `` at {path}`` below the root.
    """


class HandshakeError(builtins.RuntimeError):
    """The fail-fast error of :func:`check_handshake_response`.

    The SDK must end the session before any test traffic.
    """


class Absent(enum.Enum):
    """The type of :data:`ABSENT`."""

    ABSENT = "absent"


ABSENT: typing.Final = Absent.ABSENT
"""An optional field whose type admits null, left out (as opposed to null)."""


class _Problem(builtins.Exception):
    """A decoding problem and where it is, innermost path segment first."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.path: list[str | int] = []

    def message(self, type_name: str) -> str:
        if not self.path:
            return f"{type_name}: {self.problem}"
        return f"{type_name}: {self.problem} at {_render_path(reversed(self.path))}"


class _KindError(_Problem):
    """A value of the wrong JSON kind."""

    def __init__(self, expected: str, value: JsonValue) -> None:
        super().__init__(f"expected {expected}, got {_kind(value)}")
        self.expected = expected
        self.value = value


def _render_path(segments: collections.abc.Iterable[str | int]) -> str:
    out = ["$"]
    for segment in segments:
        if isinstance(segment, int):
            out.append(f"[{segment}]")
        elif _IDENTIFIER.fullmatch(segment):
            out.append(f".{segment}")
        else:
            out.append(f"[{_quote(segment)}]")
    return "".join(out)


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


_KINDS: typing.Final[dict[type[object], str]] = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    str: "string",
    list: "array",
    dict: "object",
}


def _kind(value: JsonValue) -> str:
    if isinstance(value, float):
        return "integer" if _integral(value) else "number"
    return _KINDS.get(type(value), "object")


def _integral(value: float) -> bool:
    return value.is_integer() and abs(value) <= _MAX_SAFE_INTEGER


# JSON text.


def _object_pairs(pairs: list[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Problem(f"duplicate key `{key}`")
            seen.add(key)
    return obj


def _reject_constant(name: str) -> typing.NoReturn:
    raise _Problem(f"invalid JSON: {name} is not allowed")


def _checked_int(literal: str) -> int:
    if len(literal) <= _SAFE_INTEGER_CHARS:
        return int(literal)
    # The length check first: no int() of a literal too long to be in range.
    if len(literal) > _MAX_INTEGER_CHARS or abs(int(literal)) > _MAX_SAFE_INTEGER:
        raise _Problem(f"invalid JSON: integer {literal} is out of range")
    return int(literal)


def _checked_float(literal: str) -> float:
    number = float(literal)
    if number in _INFINITIES:
        raise _Problem(f"invalid JSON: number {literal} overflows a double")
    return number


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object_pairs,
    parse_constant=_reject_constant,
    parse_int=_checked_int,
    parse_float=_checked_float,
)


def parse_json(text: str | bytes) -> JsonValue:
    """Parses one frame's JSON text strictly (see the module docstring).

    Raises :class:`ValueError` (not :class:`DecodeError`, which names a type).
    """
    try:
        return _parse(text)
    except _Problem as error:
        raise builtins.ValueError(error.problem) from None


def parse_member(data: bytes, frame: str, start: int, end: int) -> JsonValue:
    """The strict value of ``frame[start:end]``, the text of a member that one
    container encloses in the frame ``frame`` (``data`` as UTF-8), read where it is:
    a session answer's result.

    The quick checks of :func:`parse_json`, on that text (on the whole frame for
    escapes). Raises :class:`ValueError` where they cannot vouch for it (or the text
    is not one value): the caller decodes the whole frame, which says what is wrong.
    """
    if len(data) != len(frame):
        # Not ASCII: the offsets of bytes and of characters differ.
        raise builtins.ValueError("not ASCII")
    marks = data.translate(_MARKS)
    if (
        marks.find(_LONG_DIGITS, start, end) >= 0
        or ("\\" in frame and "\\u" in frame)
        or marks.count(b"{", start, end) >= MAX_DEPTH
    ):
        raise builtins.ValueError("not vouched for")
    try:
        scanner = _IDLE_SCANNERS.pop()
    except builtins.IndexError:
        scanner = _KeyCountingScanner()
    scanner.keys = 0
    try:
        value, stop = scanner.scan_once(frame, start)
        keys = scanner.keys
    except (builtins.StopIteration, _Problem):
        raise builtins.ValueError("not vouched for") from None
    finally:
        _IDLE_SCANNERS.append(scanner)
    if stop > end or frame[stop:end].strip(_WHITESPACE):
        raise builtins.ValueError("not one value")
    # As in `_parse`: the colons bound the keys from above.
    if keys != frame.count(":", start, end) and keys != marks.count(b'":', start, end):
        raise builtins.ValueError("not vouched for")
    return value


def _parse(text: str | bytes) -> JsonValue:
    """The strict value of a frame's text.

    :mod:`json`'s own scanner rejects what is not JSON text, raw control characters,
    ``NaN``/``Infinity`` and overflowing doubles (hooks). What it lets through is
    ruled out on the text, with C-speed checks: a byte-order mark and leading
    whitespace (the scanner does not start there), text after the value, lone
    surrogates (any ``\\u`` escape, or a surrogate in ``str`` text that cannot be
    UTF-8), integers of 16 or more digits, more than ``MAX_DEPTH`` brackets, and
    duplicate keys (the key count). Text these checks cannot vouch for
    is parsed again, thoroughly, which also words the rejection.
    """
    try:
        if isinstance(text, bytes):
            data, frame = text, text.decode("utf-8")
        else:
            data, frame = text.encode("utf-8"), text
    except builtins.UnicodeError:
        return _parse_thoroughly(text)
    marks = data.translate(_MARKS)
    if (
        marks.find(_LONG_DIGITS) >= 0
        or ("\\" in frame and "\\u" in frame)
        or (len(marks) > 2 * MAX_DEPTH and marks.count(b"{") > MAX_DEPTH)
    ):
        return _parse_thoroughly(text)
    try:
        scanner = _IDLE_SCANNERS.pop()
    except builtins.IndexError:
        scanner = _KeyCountingScanner()
    scanner.keys = 0
    try:
        value, end = scanner.scan_once(frame, 0)
        keys = scanner.keys
    except (builtins.StopIteration, builtins.ValueError, _Problem):
        return _parse_thoroughly(text)
    finally:
        _IDLE_SCANNERS.append(scanner)
    if end != len(frame) and frame[end:].strip(_WHITESPACE):
        return _parse_thoroughly(text)
    # Every key is a string followed by `:` with at most whitespace between, so
    # the colons of the text, and more tightly its quote-or-whitespace-then-colon
    # pairs (`":` in `marks`), bound its keys from above; when the objects hold
    # that many, no key was lost to a duplicate.
    if keys != frame.count(":") and keys != marks.count(b'":'):
        return _parse_thoroughly(text)
    return value


def _marks() -> bytes:
    """A ``bytes.translate`` table keeping what the quick checks count: every digit
    becomes ``0``, a quote or whitespace ``"``, ``[`` becomes ``{``, ``:`` stays."""
    table = bytearray(b"." * 256)
    table[ord("0") : ord("9") + 1] = b"0" * 10
    for char in b'" \t\n\r':
        table[char] = ord('"')
    table[ord("{")] = table[ord("[")] = ord("{")
    table[ord(":")] = ord(":")
    return bytes(table)


_MARKS: typing.Final = _marks()
_LONG_DIGITS: typing.Final = b"0" * 16
"""16 digits in a row: an integer literal that may be beyond 2^53 - 1."""

_WHITESPACE: typing.Final = " \t\n\r"


class _KeyCountingScanner(json.JSONDecoder):
    """:mod:`json`'s own decoder (which rejects ``NaN``, ``Infinity`` and doubles that
    overflow), counting the keys of every object it builds."""

    scan_once: collections.abc.Callable[[str, int], tuple[JsonValue, int]]
    """Set by ``JSONDecoder``: the value at an index and the index after it."""

    def __init__(self) -> None:
        super().__init__(
            object_hook=self._count,
            parse_constant=_reject_constant,
            parse_float=_checked_float,
        )
        self.keys = 0

    def _count(self, obj: dict[str, JsonValue]) -> dict[str, JsonValue]:
        self.keys += len(obj)
        return obj


_IDLE_SCANNERS: typing.Final[list[_KeyCountingScanner]] = []
"""Scanners not in use; a parse takes one (or makes one) and gives it back, so
threads and re-entrant calls never share a key count."""


def _parse_thoroughly(text: str | bytes) -> JsonValue:
    text = _unicode_text(text)
    try:
        value: JsonValue = _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise _Problem(f"invalid JSON: {error}") from None
    except builtins.RecursionError:
        raise _Problem(f"nesting deeper than {MAX_DEPTH}") from None
    escaped = "\\u" in text and ("\\ud" in text or "\\uD" in text)
    if escaped and _has_lone_surrogate(value):
        raise _Problem("invalid JSON: lone surrogate")
    if text.count("{") + text.count("[") > MAX_DEPTH and _too_deep(value, MAX_DEPTH):
        raise _Problem(f"nesting deeper than {MAX_DEPTH}")
    return value


def _unicode_text(text: str | bytes) -> str:
    """The frame as text: UTF-8 without a byte-order mark, no lone surrogate."""
    if isinstance(text, bytes):
        if text.startswith(b"\xef\xbb\xbf"):
            raise _Problem("invalid JSON: byte-order mark")
        try:
            return text.decode("utf-8")
        except builtins.UnicodeDecodeError as error:
            raise _Problem(f"invalid JSON: {error.reason}") from None
    if text.startswith("\ufeff"):
        raise _Problem("invalid JSON: byte-order mark")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except builtins.UnicodeEncodeError:
            raise _Problem("invalid JSON: lone surrogate") from None
    return text


def _has_lone_surrogate(value: JsonValue) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, list):
        return any(_has_lone_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(
            _SURROGATE.search(key) is not None or _has_lone_surrogate(item)
            for key, item in value.items()
        )
    return False


def _too_deep(value: JsonValue, budget: int) -> bool:
    items: collections.abc.Iterable[JsonValue]
    if isinstance(value, dict):
        items = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return False
    if budget == 0:
        return True
    return any(_too_deep(item, budget - 1) for item in items)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _one_shot_encoder() -> (
    collections.abc.Callable[[JsonValue, int], typing.Any] | None
):
    """The C encoder ``_ENCODER.encode`` makes on every call, made once, or None
    where there is none. It keeps no state between calls: without the circular
    check (``markers``), a cycle recurses until a :class:`RecursionError`."""
    try:
        import _json
    except ImportError:
        return None
    return _json.make_encoder(
        None,
        _ENCODER.default,
        json.encoder.encode_basestring,
        None,
        _ENCODER.key_separator,
        _ENCODER.item_separator,
        _ENCODER.sort_keys,
        _ENCODER.skipkeys,
        _ENCODER.allow_nan,
    )


_ONE_SHOT: typing.Final = _one_shot_encoder()


def _dumps(value: JsonValue) -> str:
    if _ONE_SHOT is None:
        return _ENCODER.encode(value)
    try:
        return "".join(_ONE_SHOT(value, 0))
    except builtins.RecursionError:
        # A cycle, or nesting deeper than the interpreter's limit: the encoder
        # with the circular check says which.
        return _ENCODER.encode(value)


def _string_text(value: JsonValue) -> str:
    """The JSON text of a string member (of anything else, as `_dumps` writes it)."""
    if isinstance(value, str):
        return json.encoder.encode_basestring(value)
    return _dumps(value)


def _bool_text(value: JsonValue) -> str:
    """The JSON text of a boolean member (of anything else, as `_dumps` writes it)."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return _dumps(value)


def _int_text(value: JsonValue) -> str:
    """The JSON text of an integer member (of anything else, as `_dumps` writes it)."""
    if type(value) is int:
        return int.__repr__(value)
    return _dumps(value)


# Shapes.


def _decode(
    text: str | bytes,
    type_name: str,
    decoder: collections.abc.Callable[[JsonValue], _T],
) -> _T:
    try:
        return decoder(_parse(text))
    except _Problem as error:
        raise DecodeError(error.message(type_name)) from None


def _from_value(
    value: JsonValue, type_name: str, decoder: collections.abc.Callable[[JsonValue], _T]
) -> _T:
    try:
        return decoder(value)
    except _Problem as error:
        raise DecodeError(error.message(type_name)) from None


def _any(value: JsonValue) -> JsonValue:
    return value


def _bool(value: JsonValue) -> bool:
    if isinstance(value, bool):
        return value
    raise _KindError("boolean", value)


def _str(value: JsonValue) -> str:
    if isinstance(value, str):
        return value
    raise _KindError("string", value)


def _int(value: JsonValue) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and _integral(value):
        return int(value)
    raise _KindError("integer", value)


def _int_at_least(value: JsonValue, minimum: int) -> int:
    number = _int(value)
    if number < minimum:
        raise _Problem(f"expected integer >= {minimum}, got {number}")
    return number


def _int_within(value: JsonValue, minimum: int | None, maximum: int) -> int:
    number = _int(value) if minimum is None else _int_at_least(value, minimum)
    if number > maximum:
        raise _Problem(f"expected integer <= {maximum}, got {number}")
    return number


def _float(value: JsonValue) -> float:
    """A JSON number as a double: one written as an integer (``1``, ``-0``) too."""
    if isinstance(value, float):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    raise _KindError("number", value)


def _float_at_least(number: float, minimum: float) -> float:
    if number < minimum:
        raise _number_problem(">=", minimum, number)
    return number


def _float_above(number: float, minimum: float) -> float:
    if number <= minimum:
        raise _number_problem(">", minimum, number)
    return number


def _float_at_most(number: float, maximum: float) -> float:
    if number > maximum:
        raise _number_problem("<=", maximum, number)
    return number


def _float_below(number: float, maximum: float) -> float:
    if number >= maximum:
        raise _number_problem("<", maximum, number)
    return number


def _number_problem(operator: str, bound: float, number: float) -> _Problem:
    return _Problem(
        f"expected number {operator} {_number_text(bound)}, got {_number_text(number)}"
    )


_POSITIONAL_POINTS: typing.Final = range(-5, 22)
"""Where the decimal point of a double ``0.digits * 10**point`` lies when
``String(x)`` writes it without an exponent: from 1e-6 up to (not at) 1e21."""


def _number_text(number: float) -> str:
    """A double as ECMAScript's ``String(x)`` writes it: the shortest digits that
    read back as it (``repr``'s), positional from 1e-6 up to 1e21 and with an
    exponent outside (``1e+21``, ``1.5e-7``), ``-0`` as ``0``."""
    if number == 0:
        return "0"
    if number < 0:
        return f"-{_number_text(-number)}"
    mantissa, _, exponent = repr(number).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # number = 0.digits * 10**point
    point = len(whole) + int(exponent or "0") - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0")
    if point not in _POSITIONAL_POINTS:
        rest = f".{digits[1:]}" if len(digits) > 1 else ""
        return f"{digits[0]}{rest}e{point - 1:+d}"
    if len(digits) <= point:
        return digits + "0" * (point - len(digits))
    if point > 0:
        return f"{digits[:point]}.{digits[point:]}"
    return f"0.{'0' * -point}{digits}"


def _multiple_of(number: int, divisor: int) -> int:
    if number % divisor:
        raise _Problem(f"expected multiple of {divisor}, got {number}")
    return number


def _float_multiple_of(number: float, digits: int, exponent: int) -> float:
    """The number, if it is a multiple of ``digits * 10**exponent``, read as the
    shortest decimal that reads back as its double (``repr``'s digits)."""
    if not _is_multiple(number, digits, exponent):
        divisor = _number_text(float(f"{digits}e{exponent}"))
        raise _Problem(f"expected multiple of {divisor}, got {_number_text(number)}")
    return number


def _is_multiple(number: float, digits: int, exponent: int) -> bool:
    """``D * 10**a`` over ``digits * 10**exponent``, ``D`` without a trailing zero:
    zero is a multiple; a finer last digit than the divisor's is none; else
    ``D * 10**(a - exponent)`` is divided by ``digits``, digit by digit."""
    mantissa, _, power = repr(abs(number)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    significant = (whole + fraction).rstrip("0")
    if not significant.strip("0"):
        return True
    a = int(power or "0") - len(fraction) + len(whole + fraction) - len(significant)
    if a < exponent:
        return False
    rest = 0
    for digit in significant:
        rest = (rest * 10 + int(digit)) % digits
    for _ in range(a - exponent):
        if not rest:
            break
        rest = rest * 10 % digits
    return not rest


def _str_within(value: JsonValue, minimum: int | None, maximum: int | None) -> str:
    text = _str(value)
    _length_within(len(text), minimum, maximum, "character")
    return text


def _constant(value: _T, expected: _T, shown: str) -> _T:
    """Checks that a value is the schema's `const`; `shown` is it as JSON text."""
    if value != expected:
        raise _Problem(f"expected {shown}, got {json.dumps(value, ensure_ascii=False)}")
    return value


def _matching(text: str, pattern: tuple[re.Pattern[str], str]) -> str:
    """Checks that a schema `pattern` finds a match in the string; the tuple
    holds the compiled pattern and the problem a string without one gets."""
    regex, problem = pattern
    if regex.search(text) is None:
        raise _Problem(problem)
    return text


def _array_within(
    value: JsonValue,
    decoder: collections.abc.Callable[[JsonValue], _T],
    minimum: int | None,
    maximum: int | None,
) -> list[_T]:
    items = _array(value, decoder)
    _length_within(len(items), minimum, maximum, "item")
    return items


def _length_within(
    length: int, minimum: int | None, maximum: int | None, noun: str
) -> None:
    """Checks a string's length in code points, an array's number of items or
    an object's number of members."""
    if minimum is not None and length < minimum:
        raise _Problem(f"expected at least {_counted(minimum, noun)}, got {length}")
    if maximum is not None and length > maximum:
        raise _Problem(f"expected at most {_counted(maximum, noun)}, got {length}")


def _members_within(
    members: dict[str, _T], minimum: int | None, maximum: int | None
) -> dict[str, _T]:
    _length_within(len(members), minimum, maximum, "member")
    return members


def _member_names(
    members: dict[str, _T], check: collections.abc.Callable[[str], object]
) -> dict[str, _T]:
    """Checks every member name (`propertyNames`); of the names that fail, the
    first in code-point order is reported."""
    failed: tuple[str, str] | None = None
    for name in members:
        problem = _problem_of(check, name)
        if problem is not None and (failed is None or name < failed[0]):
            failed = (name, problem)
    if failed is not None:
        raise _Problem(f"member name {_quote(failed[0])}: {failed[1]}")
    return members


def _problem_of(
    check: collections.abc.Callable[[str], object], name: str
) -> str | None:
    """The problem `check` finds with `name`, if any."""
    try:
        check(name)
    except _Problem as problem:
        return problem.problem
    return None


def _unique(items: list[_T]) -> list[_T]:
    """Checks that no item equals an earlier one (as decoded: 1.0 is 1)."""
    seen: dict[_T, int] = {}
    for index, item in enumerate(items):
        first = seen.setdefault(item, index)
        if first != index:
            raise _Problem(
                f"expected unique items, got item {index} equal to item {first}"
            )
    return items


def _unique_json(items: list[JsonValue]) -> list[JsonValue]:
    """Checks that no item equals an earlier one by JSON equality."""
    for index, item in enumerate(items):
        for first in range(index):
            if _json_equal(items[first], item):
                raise _Problem(
                    f"expected unique items, got item {index} equal to item {first}"
                )
    return items


def _prefix_kinds(
    items: list[JsonValue], kinds: tuple[str, ...], rest: str
) -> list[JsonValue]:
    """Checks each item's JSON kind: the first ones ``kinds``, the others
    ``rest`` (``""``: any kind; an integer is a number too)."""
    for index, item in enumerate(items):
        kind = kinds[index] if index < len(kinds) else rest
        got = _kind(item)
        if kind and kind != got and not (kind == "number" and got == "integer"):
            error = _Problem(f"expected {kind}, got {got}")
            error.path.append(index)
            raise error
    return items


def _unique_read(items: list[_T], value: JsonValue) -> list[_T]:
    """Checks that no item of an array read from `value` (objects, arrays,
    nullable items) equals an earlier one, by JSON equality of the values
    they were read from."""
    if isinstance(value, list):
        _unique_json(value)
    return items


_LISTED_JSON: dict[str, list[JsonValue]] = {}


def _listed_json(listed: str) -> list[JsonValue]:
    """The values of a `const` or an `enum` (JSON text joined by `, `), read
    once and kept: every decode compares with the same values."""
    values = _LISTED_JSON.get(listed)
    if values is None:
        values = _LISTED_JSON[listed] = json.loads(f"[{listed}]")
    return values


def _constant_json(value: JsonValue, shown: str) -> JsonValue:
    """Checks that a value equals the schema's `const` (any JSON value, `shown`
    as JSON text) by JSON equality."""
    if not _json_equal(value, _listed_json(shown)[0]):
        raise _Problem(f"expected {shown}, got {_kind(value)}")
    return value


def _one_of_json(value: JsonValue, listed: str) -> JsonValue:
    """Checks that a value equals one of the schema's `enum` values (any JSON
    values, `listed` as JSON text joined by `, `) by JSON equality."""
    allowed = _listed_json(listed)
    if any(_json_equal(value, option) for option in allowed):
        return value
    wanted = listed if len(allowed) == 1 else f"one of {listed}"
    raise _Problem(f"expected {wanted}, got {_shown(value)}")


def _shown(value: JsonValue) -> str:
    """A value as a problem shows it: a string as JSON text, a number as
    ECMAScript writes it, `true`, `false`, `null`; an array or an object by
    its kind."""
    if isinstance(value, str):
        return _quote(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int | float):
        return _number_text(float(value))
    return _kind(value)


def _json_equal(a: JsonValue, b: JsonValue) -> bool:
    """JSON equality: numbers by value (`1` is `1.0`), objects whatever their
    member order, arrays item by item, `true` never `1`."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(
            _json_equal(x, y) for x, y in zip(a, b, strict=True)
        )
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _int_or_str(value: JsonValue) -> int | str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and _integral(value):
        return int(value)
    raise _KindError("integer or string", value)


def _enum(value: JsonValue, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise _KindError("string", value)
    if value in allowed:
        return value
    if len(allowed) == 1:
        raise _Problem(f"expected {_quote(allowed[0])}, got {_quote(value)}")
    listed = ", ".join(_quote(option) for option in allowed)
    raise _Problem(f"expected one of {listed}, got {_quote(value)}")


def _nullable(
    value: JsonValue, decoder: collections.abc.Callable[[JsonValue], _T]
) -> _T | None:
    if value is None:
        return None
    try:
        return decoder(value)
    except _KindError as error:
        if error.path:
            raise
        raise _KindError(f"{error.expected} or null", error.value) from None


def _array(
    value: JsonValue, decoder: collections.abc.Callable[[JsonValue], _T]
) -> list[_T]:
    if not isinstance(value, list):
        raise _KindError("array", value)
    out: list[_T] = []
    try:
        out.extend(map(decoder, value))
    except _Problem as error:
        # `extend` keeps the items decoded before the one that failed.
        error.path.append(len(out))
        raise
    return out


def _object(value: JsonValue) -> dict[str, JsonValue]:
    if isinstance(value, dict):
        return value
    raise _KindError("object", value)


def _map(
    value: JsonValue, decoder: collections.abc.Callable[[JsonValue], _T]
) -> dict[str, _T]:
    obj = _object(value)
    out: dict[str, _T] = {}
    key = ""
    try:
        for key, item in obj.items():
            out[key] = decoder(item)
    except _Problem as error:
        error.path.append(key)
        raise
    return out


class _ObjectShape(typing.Generic[_T]):
    """A closed object: its dataclass, a decoder per declared field, the required
    fields, the value of each optional field when it is absent, and the attribute
    of each field not named as on the wire."""

    def __init__(
        self,
        cls: type[_T],
        fields: dict[str, collections.abc.Callable[[JsonValue], object]],
        required: tuple[str, ...],
        absent: dict[str, object] | None = None,
        attributes: dict[str, str] | None = None,
    ) -> None:
        self.cls = cls
        self.fields = fields
        self.required = required
        self.absent = absent or {}
        self.attributes = attributes or {}
        self.names = frozenset(fields)

    def members(self, value: JsonValue) -> dict[str, JsonValue]:
        """The object, when it has no undeclared member."""
        if isinstance(value, dict) and self.names.issuperset(value):
            return value
        raise self.problem(value)

    def read(self, value: JsonValue) -> _T:
        """The dataclass of an object its reader's quick path does not take: each
        member decoded, absent optional fields at their defaults."""
        obj = self.members(value)
        try:
            decoded = {key: self.fields[key](item) for key, item in obj.items()}
        except _Problem:
            raise self.problem(obj) from None
        if any(name not in obj for name in self.required):
            raise self.problem(obj)
        instance: _T = object.__new__(self.cls)
        attributes = instance.__dict__
        for key, item in {**self.absent, **decoded}.items():
            attributes[self.attributes.get(key, key)] = item
        return instance

    def problem(self, value: JsonValue) -> _Problem:
        """The first problem of an object that does not decode."""
        try:
            self._walk(value)
        except _Problem as problem:
            return problem
        return _Problem("internal error: the object decodes")

    def _walk(self, value: JsonValue) -> None:
        """Raises the first problem of an object that does not decode.

        Walks the members in document order (an undeclared one is unknown, a
        declared one is decoded), then the required fields in declaration order.
        """
        obj = _object(value)
        for key, item in obj.items():
            decoder = self.fields.get(key)
            if decoder is None:
                raise _Problem(f"unknown field `{key}`")
            try:
                decoder(item)
            except _Problem as error:
                error.path.append(key)
                raise
        for name in self.required:
            if name not in obj:
                raise _Problem(f"missing field `{name}`")


def _new(cls: type[_T], /, **fields: object) -> _T:
    """An instance of a frozen dataclass from decoded fields, without the
    per-field ``object.__setattr__`` of its generated ``__init__``."""
    instance: _T = object.__new__(cls)
    instance.__dict__.update(fields)
    return instance


_STRING_TEXT: typing.Final = rb'"([^"\\\x00-\x1f]*)"'
"""A string in a single-pass reader's plain forms: no escape, no control character
(its text, a group, is checked as UTF-8 when read: `bytes.decode` raises
`UnicodeDecodeError`, a `ValueError`, when it is not)."""


_BOOLEAN_TEXT: typing.Final = rb"(?:(true)|false)"
"""A boolean: the group is there when it is `true`."""


_NULLABLE_STRING_TEXT: typing.Final = rb"(?:null|" + _STRING_TEXT + rb")"


_UNSIGNED_TEXT: typing.Final = rb"(0|[1-9][0-9]{0,14})"
"""An integer of at least 0 as plain digits, no leading zero: at most 15 digits,
within 2^53 - 1."""


_INTEGER_TEXT: typing.Final = rb"(0|-?[1-9][0-9]{0,14})"
"""An integer as plain digits after an optional minus (not `-0`)."""


_NULL_TEXT: typing.Final = rb"null"
"""`null`, as a member of any JSON value reads it (no group)."""


def _object_text(*members: tuple[str, bytes]) -> re.Pattern[bytes]:
    """The pattern of an object's text in a single-pass reader's plain forms: its
    `members` (wire name, value pattern) all there, in declaration order, with no
    whitespace, as the binary writes them. Every part is linear: a text it does not
    match is left to the strict decode."""
    parts = [
        re.escape(json.dumps(name, ensure_ascii=False).encode() + b":") + value
        for name, value in members
    ]
    return re.compile(rb"\{" + b",".join(parts) + rb"\}")


def _whole_in_place(
    read: collections.abc.Callable[[bytes, int, int], _T], text: str | bytes
) -> _T | None:
    """What a single-pass reader reads of a whole frame's `text`, or None (the
    strict decode then reads it and says what is wrong)."""
    try:
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        return read(data, 0, len(data))
    except UnicodeError:
        return None


def _no_variant(value: JsonValue, discriminators: tuple[str, ...]) -> _Problem:
    """Why a value is not the object of exactly one union variant (told apart by
    the discriminating fields)."""
    if not isinstance(value, dict):
        return _KindError("object", value)
    several = sum(name in value for name in discriminators) > 1
    listed = [f"`{name}`" for name in discriminators]
    match listed:
        case [first, second]:
            problem = "both {} and {}" if several else "neither {} nor {}"
            return _Problem(problem.format(first, second))
        case _:
            problem = "more than one of {}" if several else "none of {}"
            return _Problem(problem.format(", ".join(listed)))


def _tag(value: JsonValue, member: str, tags: tuple[str, ...]) -> str:
    """The tag of a tagged union's value: its member ``member``, one of ``tags``."""
    obj = _object(value)
    if member not in obj:
        raise _Problem(f"missing field `{member}`")
    try:
        return _enum(obj[member], tags)
    except _Problem as error:
        error.path.append(member)
        raise


class _Codec(typing.Generic[_T]):
    """Decodes and encodes one ``$defs`` type by name."""

    def __init__(
        self,
        name: str,
        decoder: collections.abc.Callable[[JsonValue], _T],
        encoder: collections.abc.Callable[[_T], JsonValue],
        in_place: collections.abc.Callable[[bytes, int, int], _T | None] | None = None,
        *,
        writer: collections.abc.Callable[[_T], str] | None = None,
    ) -> None:
        self.name = name
        self.decoder = decoder
        self._encoder = encoder
        self._in_place = in_place
        # The type's `encode_...` where it writes its text member by member.
        self._writer = writer

    def decode(self, text: str | bytes) -> _T:
        """Decodes one frame's JSON text strictly (first with the type's single-pass
        reader, when it has one); raises :class:`DecodeError`."""
        if self._in_place is not None:
            read = _whole_in_place(self._in_place, text)
            if read is not None:
                return read
        return _decode(text, self.name, self.decoder)

    def from_value(self, value: JsonValue) -> _T:
        """Decodes an already-parsed JSON value; raises :class:`DecodeError`."""
        return _from_value(value, self.name, self.decoder)

    def to_value(self, value: _T) -> JsonValue:
        """The JSON value of ``value``."""
        return self._encoder(value)

    def encode(self, value: _T) -> str:
        """One line of JSON text, without the trailing newline."""
        if self._writer is not None:
            return self._writer(value)
        return _dumps(self._encoder(value))


@dataclass(frozen=True)
class MethodSpec:
    """One row of the method table."""

    name: str
    """The wire name."""

    params: str
    """The ``$defs`` name of the params type (a key of :data:`CODECS`)."""

    params_required: bool
    """Whether ``params`` must be present (otherwise it may be omitted)."""

    result: str
    """The ``$defs`` name of the result type (a key of :data:`CODECS`)."""


@dataclass(frozen=True)
class LaneSpec:
    """One row of the lane table."""

    key: str
    """The suite YAML key."""

    drivable: bool
    """Whether an SDK can drive the lane over the coprocess."""

    runs_via: str
    """Who runs it: ``the SDK``, or the CLI command with a ``<suite>`` placeholder."""


_HOLE = re.compile(r"\{([^}]*)\}")


def _fill(template: str, values: dict[str, str]) -> str:
    """Fills the ``{name}`` holes of a message template in one pass."""
    return _HOLE.sub(lambda hole: values.get(hole.group(1), hole.group(0)), template)
