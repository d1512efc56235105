// The schema-independent part of Coprocess.cs: the decode errors, the strict JSON
// runtime on System.Text.Json and the codec plumbing every generated type calls.
// Codegen's .NET target splices the namespace body below into the generated file,
// after the generated types, with the usings of this file. It names two generated
// members, Coprocess.MaxDepth and CoprocessCodecs.Find. The .NET conformance build
// compiles this file on its own (C# 8, nullable, warnings as errors) against a stub
// for them.
#nullable enable

using System;
using System.Buffers;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Mcptest.Sdk
{
    /// <summary>
    /// The error a strict decoder throws. Its message is <c>{Type}: {problem}</c> for a problem at the
    /// root and <c>{Type}: {problem} at {path}</c> below it, where <c>{Type}</c> is the type being decoded.
    /// </summary>
    public sealed class CoprocessDecodeException : Exception
    {
        /// <summary>Creates the error with its complete message.</summary>
        public CoprocessDecodeException(string message)
            : base(message)
        {
        }
    }

    /// <summary>
    /// The fail-fast error of the handshake: the binary speaks another protocol version, or it
    /// answered the handshake with an error. The message is the contract's shared wording.
    /// </summary>
    public sealed class CoprocessVersionException : Exception
    {
        /// <summary>Creates the error with its complete message.</summary>
        public CoprocessVersionException(string message)
            : base(message)
        {
        }
    }

    /// <summary>A location inside a frame, from the root: <c>$.params["a b"][3]</c>.</summary>
    internal sealed class CoprocessPath
    {
        private readonly CoprocessPath? parent;
        private readonly string? key;
        private readonly int index;

        internal CoprocessPath(CoprocessPath? parent, string key)
        {
            this.parent = parent;
            this.key = key;
        }

        internal CoprocessPath(CoprocessPath? parent, int index)
        {
            this.parent = parent;
            this.index = index;
        }

        internal static string Format(CoprocessPath? path)
        {
            var segments = new List<CoprocessPath>();
            for (CoprocessPath? node = path; node != null; node = node.parent)
            {
                segments.Add(node);
            }
            var text = new StringBuilder("$");
            for (int i = segments.Count - 1; i >= 0; i--)
            {
                string? key = segments[i].key;
                if (key == null)
                {
                    text.Append('[').Append(segments[i].index.ToString(CultureInfo.InvariantCulture)).Append(']');
                }
                else if (IsIdentifier(key))
                {
                    text.Append('.').Append(key);
                }
                else
                {
                    text.Append('[');
                    CoprocessJson.WriteString(text, key);
                    text.Append(']');
                }
            }
            return text.ToString();
        }

        private static bool IsIdentifier(string key)
        {
            if (key.Length == 0 || char.IsDigit(key[0]))
            {
                return false;
            }
            foreach (char c in key)
            {
                bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
                if (!ok)
                {
                    return false;
                }
            }
            return true;
        }
    }

    /// <summary>A decoding problem before the public decoder names the type it was decoding.</summary>
    internal sealed class CoprocessShapeException : Exception
    {
        private readonly CoprocessPath? path;

        internal CoprocessShapeException(string problem, CoprocessPath? path)
            : base(problem)
        {
            this.path = path;
        }

        internal CoprocessDecodeException For(string typeName)
        {
            string at = path == null ? string.Empty : " at " + CoprocessPath.Format(path);
            return new CoprocessDecodeException(typeName + ": " + Message + at);
        }
    }

    /// <summary>
    /// The strict JSON-text rules, the shape readers and the one-line writers shared by every
    /// generated type.
    /// </summary>
    internal static class CoprocessJson
    {
        internal const long MaxSafeInteger = 9007199254740991L;

        private static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        /// <summary>
        /// Parses one frame's JSON text under the contract's JSON-text rules. The value owns its
        /// memory (nothing to dispose), so decoded <c>JsonElement</c> fields stay valid.
        /// </summary>
        internal static JsonElement Parse(string text)
        {
            if (text.Length > 0 && text[0] == '\uFEFF')
            {
                throw Text("invalid JSON: byte-order mark");
            }
            byte[] utf8;
            try
            {
                utf8 = StrictUtf8.GetBytes(text);
            }
            catch (ArgumentException)
            {
                throw Text("invalid JSON: the text is not valid UTF-16");
            }
            Scan(text, utf8, CoprocessTextScan.Frame);
            try
            {
                using (JsonDocument document = JsonDocument.Parse(utf8, new JsonDocumentOptions { MaxDepth = Coprocess.MaxDepth }))
                {
                    return document.RootElement.Clone();
                }
            }
            catch (JsonException error)
            {
                throw Classify(text, error, CoprocessTextScan.Frame);
            }
        }

        /// <summary>
        /// Applies the JSON-text rules to an already-parsed value (its raw text); returns a copy
        /// that does not depend on the caller's document staying undisposed.
        /// </summary>
        internal static JsonElement Validate(JsonElement value)
        {
            string text = value.GetRawText();
            Scan(text, StrictUtf8.GetBytes(text), CoprocessTextScan.Parsed);
            return value.Clone();
        }

        /// <summary>
        /// The rules System.Text.Json leaves to us, in one pass over the text before its own parser
        /// (which enforces the rest) runs; the error detail is worked out only on failure.
        /// </summary>
        private static void Scan(string text, byte[] utf8, JsonReaderOptions options)
        {
            try
            {
                CoprocessTextScan.Check(utf8, options);
            }
            catch (JsonException error)
            {
                throw Classify(text, error, options);
            }
        }

        internal static CoprocessShapeException IntegerOutOfRange()
        {
            return Text("invalid JSON: integer outside +-(2^53-1)");
        }

        internal static CoprocessShapeException DoubleOverflow()
        {
            return Text("invalid JSON: number overflows a double");
        }

        internal static CoprocessShapeException LoneSurrogate()
        {
            return Text("invalid JSON: lone surrogate in a string");
        }

        internal static CoprocessShapeException Duplicate(string name)
        {
            return Text("duplicate key `" + name + "`");
        }

        private static CoprocessShapeException Classify(string text, JsonException error, JsonReaderOptions options)
        {
            byte[] utf8 = Encoding.UTF8.GetBytes(text);
            options.MaxDepth = int.MaxValue;
            var reader = new Utf8JsonReader(utf8, options);
            try
            {
                while (reader.Read())
                {
                    bool opens = reader.TokenType == JsonTokenType.StartObject || reader.TokenType == JsonTokenType.StartArray;
                    if (opens && reader.CurrentDepth >= Coprocess.MaxDepth)
                    {
                        return Text("nesting deeper than " + Coprocess.MaxDepth.ToString(CultureInfo.InvariantCulture));
                    }
                }
            }
            catch (JsonException)
            {
            }
            return Text("invalid JSON: " + error.Message);
        }

        private static CoprocessShapeException Text(string problem)
        {
            return new CoprocessShapeException(problem, null);
        }

        /// <summary>The kind word of a value: <c>integer</c> for a number with an integral value.</summary>
        internal static string Kind(JsonElement value)
        {
            switch (value.ValueKind)
            {
                case JsonValueKind.Object:
                    return "object";
                case JsonValueKind.Array:
                    return "array";
                case JsonValueKind.String:
                    return "string";
                case JsonValueKind.True:
                case JsonValueKind.False:
                    return "boolean";
                case JsonValueKind.Number:
                    return IsIntegral(value) ? "integer" : "number";
                default:
                    return "null";
            }
        }

        private static bool IsIntegral(JsonElement value)
        {
            // An integer under the contract: an integral value within +-(2^53-1).
            const double maxSafe = 9007199254740991d;
            if (value.TryGetInt64(out long whole))
            {
                return whole >= -9007199254740991L && whole <= 9007199254740991L;
            }
            double number = value.GetDouble();
            return !double.IsInfinity(number) && Math.Floor(number) == number && Math.Abs(number) <= maxSafe;
        }

        internal static CoprocessShapeException Mismatch(JsonElement value, CoprocessPath? at, string expected)
        {
            return new CoprocessShapeException("expected " + expected + ", got " + Kind(value), at);
        }

        internal static CoprocessShapeException Unknown(string name, CoprocessPath? at)
        {
            return new CoprocessShapeException("unknown field `" + name + "`", at);
        }

        internal static CoprocessShapeException Missing(string name, CoprocessPath? at)
        {
            return new CoprocessShapeException("missing field `" + name + "`", at);
        }

        internal static void ExpectObject(JsonElement value, CoprocessPath? at, string expected)
        {
            if (value.ValueKind != JsonValueKind.Object)
            {
                throw Mismatch(value, at, expected);
            }
        }

        /// <summary>The tag of a tagged union's object: its member <paramref name="member"/>, a string.</summary>
        internal static string UnionTag(JsonElement value, CoprocessPath? at, string member)
        {
            if (!value.TryGetProperty(member, out JsonElement tag))
            {
                throw Missing(member, at);
            }
            return ReadString(tag, new CoprocessPath(at, member), "string");
        }

        internal static bool ReadBoolean(JsonElement value, CoprocessPath? at, string expected)
        {
            switch (value.ValueKind)
            {
                case JsonValueKind.True:
                    return true;
                case JsonValueKind.False:
                    return false;
                default:
                    throw Mismatch(value, at, expected);
            }
        }

        internal static string ReadString(JsonElement value, CoprocessPath? at, string expected)
        {
            if (value.ValueKind != JsonValueKind.String)
            {
                throw Mismatch(value, at, expected);
            }
            return value.GetString() ?? string.Empty;
        }

        /// <summary>Reads an integer; <c>1.0</c> and <c>1e2</c> are integers too.</summary>
        internal static bool TryReadInteger(JsonElement value, out long integer)
        {
            integer = 0;
            if (value.ValueKind != JsonValueKind.Number)
            {
                return false;
            }
            if (value.TryGetInt64(out integer))
            {
                return true;
            }
            double number = value.GetDouble();
            if (Math.Floor(number) != number || Math.Abs(number) > MaxSafeInteger)
            {
                return false;
            }
            integer = (long)number;
            return true;
        }

        internal static long ReadInteger(JsonElement value, CoprocessPath? at, string expected)
        {
            if (!TryReadInteger(value, out long integer))
            {
                throw Mismatch(value, at, expected);
            }
            return integer;
        }

        internal static long ReadInteger(JsonElement value, CoprocessPath? at, string expected, long minimum)
        {
            long integer = ReadInteger(value, at, expected);
            if (integer < minimum)
            {
                string problem = "expected integer >= " + minimum.ToString(CultureInfo.InvariantCulture)
                    + ", got " + integer.ToString(CultureInfo.InvariantCulture);
                throw new CoprocessShapeException(problem, at);
            }
            return integer;
        }

        internal static long ReadInteger(JsonElement value, CoprocessPath? at, string expected, long minimum, long maximum)
        {
            long integer = ReadInteger(value, at, expected, minimum);
            if (integer > maximum)
            {
                string problem = "expected integer <= " + maximum.ToString(CultureInfo.InvariantCulture)
                    + ", got " + integer.ToString(CultureInfo.InvariantCulture);
                throw new CoprocessShapeException(problem, at);
            }
            return integer;
        }

        /// <summary>Reads a number: any JSON number, <c>1</c> as well as <c>1.5</c>, as its double.</summary>
        internal static double ReadNumber(JsonElement value, CoprocessPath? at, string expected)
        {
            if (value.ValueKind != JsonValueKind.Number)
            {
                throw Mismatch(value, at, expected);
            }
            return value.GetDouble();
        }

        /// <summary>
        /// Reads a number within bounds, compared exactly, the minimum first; an exclusive bound
        /// is outside itself, an absent one an infinity (every number read is finite).
        /// </summary>
        internal static double ReadNumber(JsonElement value, CoprocessPath? at, string expected, double minimum, bool exclusiveMinimum, double maximum, bool exclusiveMaximum)
        {
            double number = ReadNumber(value, at, expected);
            if (exclusiveMinimum ? number <= minimum : number < minimum)
            {
                throw NumberOutside(exclusiveMinimum ? " > " : " >= ", minimum, number, at);
            }
            if (exclusiveMaximum ? number >= maximum : number > maximum)
            {
                throw NumberOutside(exclusiveMaximum ? " < " : " <= ", maximum, number, at);
            }
            return number;
        }

        private static CoprocessShapeException NumberOutside(string comparison, double bound, double number, CoprocessPath? at)
        {
            string problem = "expected number" + comparison + NumberText(bound) + ", got " + NumberText(number);
            return new CoprocessShapeException(problem, at);
        }

        /// <summary>
        /// A finite double as ECMAScript's <c>String(x)</c> writes it: the shortest digits that read
        /// back as the same double, positional from 1e-6 up to 1e21 and with an exponent outside
        /// (<c>1e+21</c>, <c>1.5e-7</c>), <c>-0</c> as <c>0</c>.
        /// </summary>
        internal static string NumberText(double number)
        {
            if (number == 0 || double.IsNaN(number) || double.IsInfinity(number))
            {
                return number == 0 ? "0" : number.ToString(CultureInfo.InvariantCulture);
            }
            // "R" gives the shortest round-trip digits on .NET Core 3.0 and later: 1E+21, 1.5E-07.
            string shortest = Math.Abs(number).ToString("R", CultureInfo.InvariantCulture);
            int e = shortest.IndexOf('E');
            string mantissa = e < 0 ? shortest : shortest.Substring(0, e);
            int exponent = e < 0 ? 0 : int.Parse(shortest.Substring(e + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
            int point = mantissa.IndexOf('.');
            string digits = point < 0 ? mantissa : mantissa.Remove(point, 1);
            // The number is 0.digits times 10^n.
            int n = (point < 0 ? mantissa.Length : point) + exponent;
            int lead = 0;
            while (digits[lead] == '0')
            {
                lead++;
            }
            digits = digits.Substring(lead).TrimEnd('0');
            n -= lead;
            int k = digits.Length;
            string text;
            if (k <= n && n <= 21)
            {
                text = digits + new string('0', n - k);
            }
            else if (0 < n && n <= 21)
            {
                text = digits.Substring(0, n) + "." + digits.Substring(n);
            }
            else if (-6 < n && n <= 0)
            {
                text = "0." + new string('0', -n) + digits;
            }
            else
            {
                string power = (n - 1 < 0 ? "-" : "+") + Math.Abs(n - 1).ToString(CultureInfo.InvariantCulture);
                text = digits.Substring(0, 1) + (k > 1 ? "." + digits.Substring(1) : string.Empty) + "e" + power;
            }
            return number < 0 ? "-" + text : text;
        }

        /// <summary>
        /// A string in which <paramref name="pattern"/> (a schema <c>pattern</c>, searched, not
        /// anchored) finds a match; <paramref name="problem"/> is the problem a string without one gets.
        /// </summary>
        internal static string Matching(string text, CoprocessPath? at, global::System.Text.RegularExpressions.Regex pattern, string problem)
        {
            if (!pattern.IsMatch(text))
            {
                throw new CoprocessShapeException(problem, at);
            }
            return text;
        }

        /// <summary>
        /// Checks that a value is the schema's <c>const</c>; <paramref name="shown"/> is it as JSON text.
        /// </summary>
        internal static T Constant<T>(T value, CoprocessPath? at, T expected, string shown)
            where T : notnull
        {
            if (!value.Equals(expected))
            {
                string got = value is string text ? Quote(text)
                    : value is bool flag ? (flag ? "true" : "false")
                    : value is long number ? number.ToString(CultureInfo.InvariantCulture)
                    : string.Empty;
                throw new CoprocessShapeException("expected " + shown + ", got " + got, at);
            }
            return value;
        }

        internal static long MultipleOf(long integer, CoprocessPath? at, long divisor)
        {
            if (integer % divisor != 0)
            {
                string problem = "expected multiple of " + divisor.ToString(CultureInfo.InvariantCulture)
                    + ", got " + integer.ToString(CultureInfo.InvariantCulture);
                throw new CoprocessShapeException(problem, at);
            }
            return integer;
        }

        /// <summary>
        /// Checks that a number is a multiple of <c>digits</c> times 10^<c>exponent</c>, the number
        /// read as the shortest decimal that reads back as its double (<see cref="IsMultiple"/>).
        /// </summary>
        internal static double NumberMultipleOf(double number, CoprocessPath? at, long digits, int exponent)
        {
            if (!IsMultiple(number, digits, exponent))
            {
                string written = digits.ToString(CultureInfo.InvariantCulture) + "E" + exponent.ToString(CultureInfo.InvariantCulture);
                double divisor = double.Parse(written, CultureInfo.InvariantCulture);
                string problem = "expected multiple of " + NumberText(divisor) + ", got " + NumberText(number);
                throw new CoprocessShapeException(problem, at);
            }
            return number;
        }

        /// <summary>
        /// Whether <c>D</c> times 10^<c>a</c> (the shortest digits of the number, without a trailing
        /// zero) is a multiple of <c>digits</c> times 10^<c>exponent</c>: zero is; a finer last
        /// digit than the divisor's is not; else <c>D</c> times 10^(<c>a</c> - <c>exponent</c>) is
        /// divided by <c>digits</c>, digit by digit.
        /// </summary>
        internal static bool IsMultiple(double number, long digits, int exponent)
        {
            if (number == 0)
            {
                return true;
            }
            string shortest = Math.Abs(number).ToString("R", CultureInfo.InvariantCulture);
            int e = shortest.IndexOf('E');
            string mantissa = e < 0 ? shortest : shortest.Substring(0, e);
            int a = e < 0 ? 0 : int.Parse(shortest.Substring(e + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
            int point = mantissa.IndexOf('.');
            string all = point < 0 ? mantissa : mantissa.Remove(point, 1);
            string significant = all.TrimEnd('0');
            a += all.Length - significant.Length - (point < 0 ? 0 : mantissa.Length - point - 1);
            if (a < exponent)
            {
                return false;
            }
            long rest = 0;
            foreach (char digit in significant)
            {
                rest = ((rest * 10) + (digit - '0')) % digits;
            }
            for (int i = 0; i < a - exponent && rest != 0; i++)
            {
                rest = rest * 10 % digits;
            }
            return rest == 0;
        }

        internal static string ReadString(JsonElement value, CoprocessPath? at, string expected, long minimum, long maximum)
        {
            string text = ReadString(value, at, expected);
            CheckLength(CountCodePoints(text), at, minimum, maximum, "character");
            return text;
        }

        internal static List<T> ItemsWithin<T>(List<T> items, CoprocessPath? at, long minimum, long maximum)
        {
            CheckLength(items.Count, at, minimum, maximum, "item");
            return items;
        }

        /// <summary>A member name whose length in Unicode code points is within the bounds.</summary>
        internal static string CharactersWithin(string text, CoprocessPath? at, long minimum, long maximum)
        {
            CheckLength(CountCodePoints(text), at, minimum, maximum, "character");
            return text;
        }

        /// <summary>
        /// Checks every member name (<c>propertyNames</c>); of the names that fail, the first in
        /// code-point order is reported.
        /// </summary>
        internal static void MemberNames(IEnumerable<string> names, CoprocessPath? at, Func<string, string> check)
        {
            string? first = null;
            string? failed = null;
            foreach (string name in names)
            {
                try
                {
                    check(name);
                }
                catch (CoprocessShapeException problem)
                {
                    if (first == null || CodePointLess(name, first))
                    {
                        first = name;
                        failed = problem.Message;
                    }
                }
            }
            if (first != null)
            {
                throw new CoprocessShapeException("member name " + Quote(first) + ": " + failed, at);
            }
        }

        /// <summary>Whether <paramref name="a"/> comes before <paramref name="b"/> in code-point order.</summary>
        private static bool CodePointLess(string a, string b)
        {
            int length = Math.Min(a.Length, b.Length);
            for (int i = 0; i < length; i++)
            {
                if (a[i] != b[i])
                {
                    return CodePointRank(a[i]) < CodePointRank(b[i]);
                }
            }
            return a.Length < b.Length;
        }

        /// <summary>A UTF-16 unit's rank in code-point order: the surrogates after U+FFFF.</summary>
        private static int CodePointRank(char unit)
        {
            if (char.IsSurrogate(unit))
            {
                return unit + 0x2000;
            }
            return unit >= 0xE000 ? unit - 0x800 : unit;
        }

        internal static List<T> UniqueItems<T>(List<T> items, CoprocessPath? at)
            where T : notnull
        {
            int repeat = FirstRepeat(items, out int first);
            if (repeat >= 0)
            {
                string problem = "expected unique items, got item " + repeat.ToString(CultureInfo.InvariantCulture)
                    + " equal to item " + first.ToString(CultureInfo.InvariantCulture);
                throw new CoprocessShapeException(problem, at);
            }
            return items;
        }

        /// <summary>The index of the first item equal to an earlier one (at <paramref name="first"/>), or -1.</summary>
        internal static int FirstRepeat<T>(List<T> items, out int first)
            where T : notnull
        {
            var seen = new Dictionary<T, int>(items.Count);
            for (int i = 0; i < items.Count; i++)
            {
                if (seen.TryGetValue(items[i], out first))
                {
                    return i;
                }
                seen.Add(items[i], i);
            }
            first = -1;
            return -1;
        }

        /// <summary>
        /// Checks that no item of an array read from <paramref name="value"/> (objects, arrays,
        /// nullable items) equals an earlier one, by JSON equality of the values they were read from.
        /// </summary>
        internal static List<T> UniqueRead<T>(List<T> items, JsonElement value, CoprocessPath? at)
        {
            UniqueJson(new List<JsonElement>(value.EnumerateArray()), at);
            return items;
        }

        internal static List<JsonElement> UniqueJson(List<JsonElement> items, CoprocessPath? at)
        {
            int repeat = FirstJsonRepeat(items, out int first);
            if (repeat >= 0)
            {
                string problem = "expected unique items, got item " + repeat.ToString(CultureInfo.InvariantCulture)
                    + " equal to item " + first.ToString(CultureInfo.InvariantCulture);
                throw new CoprocessShapeException(problem, at);
            }
            return items;
        }

        /// <summary>
        /// Checks each item's JSON kind: the first ones <paramref name="kinds"/>, the others
        /// <paramref name="rest"/> (<c>""</c>: any kind; an integer is a number too).
        /// </summary>
        internal static List<JsonElement> PrefixKinds(List<JsonElement> items, CoprocessPath? at, string[] kinds, string rest)
        {
            int wrong = FirstOfOtherKind(items, kinds, rest, out string kind, out string got);
            if (wrong >= 0)
            {
                throw new CoprocessShapeException("expected " + kind + ", got " + got, new CoprocessPath(at, wrong));
            }
            return items;
        }

        /// <summary>
        /// The index of the first item not of its kind (<see cref="PrefixKinds"/>), with the kind
        /// it should be and the kind it is, or -1.
        /// </summary>
        internal static int FirstOfOtherKind(List<JsonElement> items, string[] kinds, string rest, out string kind, out string got)
        {
            for (int i = 0; i < items.Count; i++)
            {
                kind = i < kinds.Length ? kinds[i] : rest;
                got = Kind(items[i]);
                if (kind.Length > 0 && kind != got && !(kind == "number" && got == "integer"))
                {
                    return i;
                }
            }
            kind = string.Empty;
            got = string.Empty;
            return -1;
        }

        /// <summary>
        /// The index of the first item equal to an earlier one by JSON equality (at
        /// <paramref name="first"/>, the earliest it equals), or -1.
        /// </summary>
        internal static int FirstJsonRepeat(List<JsonElement> items, out int first)
        {
            for (int i = 0; i < items.Count; i++)
            {
                for (first = 0; first < i; first++)
                {
                    if (JsonEqual(items[first], items[i]))
                    {
                        return i;
                    }
                }
            }
            first = -1;
            return -1;
        }

        /// <summary>The values of each <c>const</c> or <c>enum</c> read so far, by their JSON text.</summary>
        private static readonly ConcurrentDictionary<string, JsonElement> Listed = new ConcurrentDictionary<string, JsonElement>();

        /// <summary>
        /// The values of a <c>const</c> or an <c>enum</c> (JSON text joined by <c>", "</c>), read
        /// once and kept: every decode compares with the same values.
        /// </summary>
        internal static JsonElement ListedJson(string listed)
        {
            return Listed.GetOrAdd(listed, text => Parse("[" + text + "]"));
        }

        /// <summary>
        /// A value equal to the schema's <c>const</c> (any JSON value, <paramref name="shown"/> as
        /// JSON text) by JSON equality.
        /// </summary>
        internal static JsonElement ConstantJson(JsonElement value, CoprocessPath? at, string shown)
        {
            if (!JsonEqual(value, ListedJson(shown)[0]))
            {
                throw new CoprocessShapeException("expected " + shown + ", got " + Kind(value), at);
            }
            return value;
        }

        /// <summary>
        /// A value equal to one of the schema's <c>enum</c> values (any JSON values,
        /// <paramref name="listed"/> as JSON text joined by <c>", "</c>) by JSON equality.
        /// </summary>
        internal static JsonElement OneOfJson(JsonElement value, CoprocessPath? at, string listed)
        {
            if (IsOneOf(value, listed, out int count))
            {
                return value;
            }
            string wanted = count == 1 ? listed : "one of " + listed;
            throw new CoprocessShapeException("expected " + wanted + ", got " + Shown(value), at);
        }

        /// <summary>Whether a value equals one of the <c>enum</c> values listed, and how many there are.</summary>
        internal static bool IsOneOf(JsonElement value, string listed, out int count)
        {
            JsonElement allowed = ListedJson(listed);
            count = allowed.GetArrayLength();
            foreach (JsonElement option in allowed.EnumerateArray())
            {
                if (JsonEqual(value, option))
                {
                    return true;
                }
            }
            return false;
        }

        /// <summary>
        /// A value as a problem shows it: a string as JSON text, a number as ECMAScript writes it,
        /// <c>true</c>, <c>false</c>, <c>null</c>; an array or an object by its kind.
        /// </summary>
        internal static string Shown(JsonElement value)
        {
            switch (value.ValueKind)
            {
                case JsonValueKind.String:
                    return Quote(value.GetString() ?? "");
                case JsonValueKind.Number:
                    return NumberText(value.GetDouble());
                case JsonValueKind.True:
                    return "true";
                case JsonValueKind.False:
                    return "false";
                case JsonValueKind.Null:
                    return "null";
                default:
                    return Kind(value);
            }
        }

        /// <summary>
        /// JSON equality: numbers by value (<c>1</c> is <c>1.0</c>), objects whatever their member
        /// order, arrays item by item, <c>true</c> never <c>1</c>.
        /// </summary>
        internal static bool JsonEqual(JsonElement a, JsonElement b)
        {
            if (a.ValueKind != b.ValueKind)
            {
                return false;
            }
            switch (a.ValueKind)
            {
                case JsonValueKind.Number:
                    return a.GetDouble() == b.GetDouble();
                case JsonValueKind.String:
                    return a.GetString() == b.GetString();
                case JsonValueKind.Array:
                    int length = a.GetArrayLength();
                    if (length != b.GetArrayLength())
                    {
                        return false;
                    }
                    for (int i = 0; i < length; i++)
                    {
                        if (!JsonEqual(a[i], b[i]))
                        {
                            return false;
                        }
                    }
                    return true;
                case JsonValueKind.Object:
                    int members = 0;
                    foreach (JsonProperty member in a.EnumerateObject())
                    {
                        members++;
                        if (!b.TryGetProperty(member.Name, out JsonElement other) || !JsonEqual(member.Value, other))
                        {
                            return false;
                        }
                    }
                    foreach (JsonProperty _ in b.EnumerateObject())
                    {
                        members--;
                    }
                    return members == 0;
                default:
                    return true;
            }
        }

        /// <summary>The number of Unicode code points in <paramref name="text"/>: a surrogate pair counts once.</summary>
        internal static int CountCodePoints(string text)
        {
            int count = text.Length;
            foreach (char unit in text)
            {
                if (char.IsLowSurrogate(unit))
                {
                    count--;
                }
            }
            return count;
        }

        internal static T MembersWithin<T>(T members, CoprocessPath? at, long minimum, long maximum)
            where T : System.Collections.ICollection
        {
            CheckLength(members.Count, at, minimum, maximum, "member");
            return members;
        }

        /// <summary>
        /// Checks a string's length, an array's number of items or an object's number of members
        /// against inclusive bounds.
        /// </summary>
        private static void CheckLength(long length, CoprocessPath? at, long minimum, long maximum, string noun)
        {
            if (length < minimum)
            {
                string problem = "expected at least " + Counted(minimum, noun) + ", got " + length.ToString(CultureInfo.InvariantCulture);
                throw new CoprocessShapeException(problem, at);
            }
            if (length > maximum)
            {
                string problem = "expected at most " + Counted(maximum, noun) + ", got " + length.ToString(CultureInfo.InvariantCulture);
                throw new CoprocessShapeException(problem, at);
            }
        }

        private static string Counted(long count, string noun)
        {
            return count == 1 ? "1 " + noun : count.ToString(CultureInfo.InvariantCulture) + " " + noun + "s";
        }

        internal static List<T> ReadArray<T>(JsonElement value, CoprocessPath? at, string expected, Func<JsonElement, CoprocessPath, T> readItem)
        {
            if (value.ValueKind != JsonValueKind.Array)
            {
                throw Mismatch(value, at, expected);
            }
            var items = new List<T>(value.GetArrayLength());
            int index = 0;
            foreach (JsonElement item in value.EnumerateArray())
            {
                items.Add(readItem(item, new CoprocessPath(at, index)));
                index++;
            }
            return items;
        }

        /// <summary>The value as a JSON string literal.</summary>
        internal static string Quote(string text)
        {
            var builder = new StringBuilder(text.Length + 2);
            WriteString(builder, text);
            return builder.ToString();
        }

        internal static void WriteString(StringBuilder builder, string text)
        {
            builder.Append('"');
            int start = 0;
            for (int i = 0; i < text.Length; i++)
            {
                char c = text[i];
                if (c >= 0x20 && c != '"' && c != '\\')
                {
                    continue;
                }
                builder.Append(text, start, i - start);
                start = i + 1;
                switch (c)
                {
                    case '"':
                        builder.Append("\\\"");
                        break;
                    case '\\':
                        builder.Append("\\\\");
                        break;
                    case '\n':
                        builder.Append("\\n");
                        break;
                    case '\r':
                        builder.Append("\\r");
                        break;
                    case '\t':
                        builder.Append("\\t");
                        break;
                    case '\b':
                        builder.Append("\\b");
                        break;
                    case '\f':
                        builder.Append("\\f");
                        break;
                    default:
                        builder.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        break;
                }
            }
            builder.Append(text, start, text.Length - start);
            builder.Append('"');
        }

        internal static void WriteInteger(StringBuilder builder, long value)
        {
            builder.Append(value.ToString(CultureInfo.InvariantCulture));
        }

        /// <summary>
        /// Writes a double as System.Text.Json does, its shortest round-trip digits (<c>1.5</c>,
        /// <c>1E+21</c>), except that a whole number beyond +-(2^53-1), which it writes without an
        /// exponent, gets one (<c>1E+16</c>): without, it reads as an integer out of range.
        /// </summary>
        /// <exception cref="ArgumentException">The value is NaN or infinite, which JSON cannot write.</exception>
        internal static void WriteNumber(StringBuilder builder, double value)
        {
            if (double.IsNaN(value) || double.IsInfinity(value))
            {
                throw new ArgumentException("a JSON number is finite, not " + value.ToString(CultureInfo.InvariantCulture));
            }
            string text = value.ToString("R", CultureInfo.InvariantCulture);
            if (Math.Abs(value) > MaxSafeInteger && text.IndexOf('E') < 0)
            {
                int sign = value < 0 ? 1 : 0;
                string digits = text.Substring(sign).TrimEnd('0');
                string fraction = digits.Length > 1 ? "." + digits.Substring(1) : string.Empty;
                int exponent = text.Length - sign - 1;
                text = text.Substring(0, sign) + digits.Substring(0, 1) + fraction + "E+" + exponent.ToString(CultureInfo.InvariantCulture);
            }
            builder.Append(text);
        }

        internal static void WriteBoolean(StringBuilder builder, bool value)
        {
            builder.Append(value ? "true" : "false");
        }

        internal static void WriteAny(StringBuilder builder, JsonElement value)
        {
            switch (value.ValueKind)
            {
                case JsonValueKind.Object:
                    builder.Append('{');
                    bool first = true;
                    foreach (JsonProperty member in value.EnumerateObject())
                    {
                        if (!first)
                        {
                            builder.Append(',');
                        }
                        first = false;
                        WriteString(builder, member.Name);
                        builder.Append(':');
                        WriteAny(builder, member.Value);
                    }
                    builder.Append('}');
                    break;
                case JsonValueKind.Array:
                    builder.Append('[');
                    int index = 0;
                    foreach (JsonElement item in value.EnumerateArray())
                    {
                        if (index++ > 0)
                        {
                            builder.Append(',');
                        }
                        WriteAny(builder, item);
                    }
                    builder.Append(']');
                    break;
                case JsonValueKind.String:
                    WriteString(builder, value.GetString() ?? string.Empty);
                    break;
                case JsonValueKind.Number:
                    builder.Append(value.GetRawText());
                    break;
                case JsonValueKind.True:
                    builder.Append("true");
                    break;
                case JsonValueKind.False:
                    builder.Append("false");
                    break;
                default:
                    builder.Append("null");
                    break;
            }
        }

        internal static void WriteArray<T>(StringBuilder builder, List<T> items, Action<StringBuilder, T> writeItem)
        {
            builder.Append('[');
            for (int i = 0; i < items.Count; i++)
            {
                if (i > 0)
                {
                    builder.Append(',');
                }
                writeItem(builder, items[i]);
            }
            builder.Append(']');
        }
    }

    /// <summary>
    /// The JSON-text rules <c>Utf8JsonReader</c> does not enforce, checked in one pass of it:
    /// duplicate keys (after unescaping), lone surrogate escapes, integer literals outside
    /// +-(2^53-1) and numbers that overflow a double. The reader rejects the rest itself. Key
    /// bookkeeping is reused per thread, so a frame that passes allocates next to nothing.
    /// </summary>
    internal sealed class CoprocessTextScan
    {
        /// <summary>The reader options for a frame's text: strict syntax, <c>MaxDepth</c> containers.</summary>
        internal static readonly JsonReaderOptions Frame = new JsonReaderOptions { MaxDepth = Coprocess.MaxDepth };

        /// <summary>The containers a value one container encloses may nest (none left: below 1).</summary>
        internal static readonly int EnclosedDepth = Coprocess.MaxDepth - 1;

        /// <summary>The reader options for such a value's text (used only when <see cref="EnclosedDepth"/> is 1 or more).</summary>
        internal static readonly JsonReaderOptions Enclosed = new JsonReaderOptions { MaxDepth = Math.Max(EnclosedDepth, 1) };

        /// <summary>
        /// The options for the text of a value the caller already parsed: its syntax was the
        /// caller's choice, so comments and trailing commas pass (as they did into its tree).
        /// </summary>
        internal static readonly JsonReaderOptions Parsed = new JsonReaderOptions
        {
            MaxDepth = Coprocess.MaxDepth,
            CommentHandling = JsonCommentHandling.Skip,
            AllowTrailingCommas = true,
        };

        /// <summary>An object with more members than this checks them with a hash set.</summary>
        private const int LinearLimit = 16;

        private static readonly byte[] UnicodeEscape = { (byte)'\\', (byte)'u' };

        [ThreadStatic]
        private static CoprocessTextScan? current;

        // The keys of every open object, innermost last: where each starts in `names` and how long.
        private readonly int[] firstKey = new int[Coprocess.MaxDepth + 2];
        private readonly HashSet<string>?[] large = new HashSet<string>?[Coprocess.MaxDepth + 2];
        private int[] keyStart = new int[64];
        private int[] keyLength = new int[64];
        private int keyCount;
        private byte[] names = new byte[1024];
        private int namesLength;
        private int depth;

        /// <summary>
        /// The UTF-8 text the one-pass decoders are reading on this thread, from <see
        /// cref="TextOffset"/> on, or null: open values are parsed from slices of it.
        /// </summary>
        internal byte[]? Text;

        /// <summary>Where in <see cref="Text"/> the reader's text begins (its token indexes count from there).</summary>
        internal int TextOffset;

        /// <summary>This thread's scan: its bookkeeping is reused from frame to frame.</summary>
        internal static CoprocessTextScan Current => current ?? (current = new CoprocessTextScan());

        /// <summary>Throws the <c>invalid JSON</c> / <c>duplicate key</c> problem the text has, if any.</summary>
        /// <exception cref="JsonException">The reader's own rules (syntax, depth) fail.</exception>
        internal static void Check(byte[] utf8, JsonReaderOptions options)
        {
            CoprocessTextScan scan = Current;
            scan.Reset();
            scan.Run(utf8, options);
        }

        private void Reset()
        {
            keyCount = 0;
            namesLength = 0;
            depth = 0;
        }

        /// <summary>
        /// Checks the value the reader is on (up to its last token, where the reader is left) as
        /// <see cref="Check"/> checks a whole text.
        /// </summary>
        internal void CheckValue(ref Utf8JsonReader reader)
        {
            Reset();
            Token(ref reader);
            while (depth > 0 && reader.Read())
            {
                Token(ref reader);
            }
        }

        private void Run(byte[] utf8, JsonReaderOptions options)
        {
            var reader = new Utf8JsonReader(utf8, options);
            while (reader.Read())
            {
                Token(ref reader);
            }
        }

        private void Token(ref Utf8JsonReader reader)
        {
            switch (reader.TokenType)
            {
                case JsonTokenType.StartObject:
                case JsonTokenType.StartArray:
                    depth++;
                    firstKey[depth] = keyCount;
                    large[depth] = null;
                    break;
                case JsonTokenType.EndObject:
                case JsonTokenType.EndArray:
                    keyCount = firstKey[depth];
                    namesLength = keyCount == 0 ? 0 : keyStart[keyCount - 1] + keyLength[keyCount - 1];
                    large[depth] = null;
                    depth--;
                    break;
                case JsonTokenType.PropertyName:
                    AddKey(ref reader);
                    break;
                case JsonTokenType.String:
                    CheckString(ref reader);
                    break;
                case JsonTokenType.Number:
                    CheckNumber(ref reader);
                    break;
            }
        }

        private static void CheckString(ref Utf8JsonReader reader)
        {
            ReadOnlySpan<byte> raw = reader.ValueSpan;
            if (raw.IndexOf((byte)'\\') >= 0 && raw.IndexOf(UnicodeEscape) >= 0)
            {
                Unescape(ref reader);
            }
        }

        private static string Unescape(ref Utf8JsonReader reader)
        {
            try
            {
                return reader.GetString();
            }
            catch (InvalidOperationException)
            {
                throw CoprocessJson.LoneSurrogate();
            }
        }

        internal static void CheckNumber(ref Utf8JsonReader reader)
        {
            ReadOnlySpan<byte> literal = reader.ValueSpan;
            if (literal.IndexOfAny((byte)'.', (byte)'e', (byte)'E') < 0)
            {
                if (literal.Length <= 15)
                {
                    return; // at most 15 digits: within +-(2^53-1)
                }
                bool safe = reader.TryGetInt64(out long integer)
                    && integer <= CoprocessJson.MaxSafeInteger && integer >= -CoprocessJson.MaxSafeInteger;
                if (!safe)
                {
                    throw CoprocessJson.IntegerOutOfRange();
                }
            }
            else if (!reader.TryGetDouble(out double number) || double.IsInfinity(number) || double.IsNaN(number))
            {
                throw CoprocessJson.DoubleOverflow();
            }
        }

        private void AddKey(ref Utf8JsonReader reader)
        {
            ReadOnlySpan<byte> name = reader.ValueSpan;
            if (name.IndexOf((byte)'\\') >= 0)
            {
                name = Encoding.UTF8.GetBytes(Unescape(ref reader));
            }
            HashSet<string>? set = large[depth];
            if (set != null)
            {
                if (!set.Add(Encoding.UTF8.GetString(name)))
                {
                    throw CoprocessJson.Duplicate(Encoding.UTF8.GetString(name));
                }
                return;
            }
            for (int i = firstKey[depth]; i < keyCount; i++)
            {
                if (name.SequenceEqual(new ReadOnlySpan<byte>(names, keyStart[i], keyLength[i])))
                {
                    throw CoprocessJson.Duplicate(Encoding.UTF8.GetString(name));
                }
            }
            Push(name);
            if (keyCount - firstKey[depth] > LinearLimit)
            {
                large[depth] = Spill();
            }
        }

        private void Push(ReadOnlySpan<byte> name)
        {
            if (keyCount == keyStart.Length)
            {
                Array.Resize(ref keyStart, keyCount * 2);
                Array.Resize(ref keyLength, keyCount * 2);
            }
            if (namesLength + name.Length > names.Length)
            {
                Array.Resize(ref names, Math.Max(names.Length * 2, namesLength + name.Length));
            }
            name.CopyTo(new Span<byte>(names, namesLength, name.Length));
            keyStart[keyCount] = namesLength;
            keyLength[keyCount] = name.Length;
            namesLength += name.Length;
            keyCount++;
        }

        /// <summary>Moves the innermost object's keys into a hash set (a large object).</summary>
        private HashSet<string> Spill()
        {
            var set = new HashSet<string>(StringComparer.Ordinal);
            for (int i = firstKey[depth]; i < keyCount; i++)
            {
                set.Add(Encoding.UTF8.GetString(names, keyStart[i], keyLength[i]));
            }
            keyCount = firstKey[depth];
            namesLength = keyCount == 0 ? 0 : keyStart[keyCount - 1] + keyLength[keyCount - 1];
            return set;
        }
    }

    /// <summary>Reads one value in its plain forms; false when the reader gave up on it.</summary>
    internal delegate bool CoprocessPlainRead<T>(ref CoprocessPlainReader reader, out T value);

    /// <summary>
    /// The single-pass reader of a value in its plain forms, as the binary writes them: no
    /// whitespace, objects of booleans, strings without an escape or a control character, integers
    /// of plain digits (no sign on an unsigned one, no <c>-0</c>, no leading zero, no fraction or
    /// exponent, within 2^53 - 1), <c>null</c> and such objects, nesting within its room. The
    /// generated <c>ReadPlain</c> of each type the readers' plan gives one reads with it, and gives
    /// up (false) on anything else: a key seen twice, an undeclared or a missing member too. What it
    /// gives up on goes to the one-pass and careful decoders, which decide and word the problem.
    /// </summary>
    internal ref struct CoprocessPlainReader
    {
        private static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        private readonly ReadOnlySpan<byte> text;
        private int at;
        private int room;

        private CoprocessPlainReader(ReadOnlySpan<byte> text, int room)
        {
            this.text = text;
            at = 0;
            this.room = room;
        }

        /// <summary>Decodes one frame's text with <paramref name="read"/>; false when it gave up.</summary>
        internal static bool TryDecode<T>(string json, CoprocessPlainRead<T> read, out T value)
        {
            value = default!;
            byte[] utf8 = ArrayPool<byte>.Shared.Rent(StrictUtf8.GetMaxByteCount(json.Length));
            try
            {
                int length;
                try
                {
                    length = StrictUtf8.GetBytes(json, 0, json.Length, utf8, 0);
                }
                catch (ArgumentException)
                {
                    return false;
                }
                return TryRead(new ReadOnlySpan<byte>(utf8, 0, length), Coprocess.MaxDepth, read, out value);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(utf8);
            }
        }

        /// <summary>
        /// A reader of the text of a value one container of a frame encloses (valid UTF-8 already:
        /// the caller checked it), <paramref name="count"/> bytes from <paramref name="offset"/>, with
        /// one container's room less than a frame's. The value is read whole when <see cref="AtEnd"/>.
        /// </summary>
        internal static CoprocessPlainReader Enclosed(byte[] text, int offset, int count)
        {
            return new CoprocessPlainReader(new ReadOnlySpan<byte>(text, offset, count), Coprocess.MaxDepth - 1);
        }

        /// <summary>Whether the reader has read all of its text.</summary>
        internal bool AtEnd => at == text.Length;

        private static bool TryRead<T>(ReadOnlySpan<byte> text, int room, CoprocessPlainRead<T> read, out T value)
        {
            var reader = new CoprocessPlainReader(text, room);
            return read(ref reader, out value) && reader.AtEnd;
        }

        /// <summary>Opens an object: false when none starts here or there is no room for it; <paramref name="more"/> when it has members.</summary>
        internal bool Open(out bool more)
        {
            more = false;
            if (room < 1 || !Eat((byte)'{'))
            {
                return false;
            }
            more = !Eat((byte)'}');
            if (more)
            {
                room--;
            }
            return true;
        }

        /// <summary>
        /// Reads a member's key and its colon: the index of its key among <paramref name="keys"/>
        /// (an object's members' keys in declaration order as UTF-8 text, <c>"name":</c>: the
        /// readers' plan takes no name whose text would escape some of it), or -1 (no key here, or
        /// an undeclared one). The key at <paramref name="next"/>, the one after the last read, is
        /// looked for first, in place: members mostly come in declaration order (the binary writes
        /// them so). Its text holds no quote, so a string starting there is that name.
        /// </summary>
        internal int Member(byte[][] keys, int next)
        {
            if (next < keys.Length && text.Slice(at).StartsWith(keys[next]))
            {
                at += keys[next].Length;
                return next;
            }
            if (!Plain(out ReadOnlySpan<byte> key) || !Eat((byte)':'))
            {
                return -1;
            }
            for (int i = 0; i < keys.Length; i++)
            {
                if (key.SequenceEqual(new ReadOnlySpan<byte>(keys[i], 1, keys[i].Length - 3)))
                {
                    return i;
                }
            }
            return -1;
        }

        /// <summary>Marks the member of <paramref name="bit"/> as seen; false when it was (a key seen twice).</summary>
        internal bool Once(ref ulong seen, ulong bit)
        {
            if ((seen & bit) != 0)
            {
                return false;
            }
            seen |= bit;
            return true;
        }

        /// <summary>Reads what follows a member: a comma (<paramref name="more"/>) or the object's end.</summary>
        internal bool Next(out bool more)
        {
            more = Eat((byte)',');
            if (more)
            {
                return true;
            }
            if (!Eat((byte)'}'))
            {
                return false;
            }
            room++;
            return true;
        }

        internal bool Boolean(out bool value)
        {
            value = Literal(TrueText);
            return value || Literal(FalseText);
        }

        internal bool String(out string value)
        {
            value = string.Empty;
            if (!Plain(out ReadOnlySpan<byte> bytes))
            {
                return false;
            }
            try
            {
                value = bytes.Length == 0 ? string.Empty : StrictUtf8.GetString(bytes);
                return true;
            }
            catch (ArgumentException)
            {
                // Not UTF-8 (the callers' text always is): the other decoders word it.
                return false;
            }
        }

        internal bool NullableString(out string? value)
        {
            value = null;
            if (Literal(NullText))
            {
                return true;
            }
            bool read = String(out string text);
            value = text;
            return read;
        }

        /// <summary>Reads <c>null</c> as the value an "any" member holds.</summary>
        internal bool Null(out JsonElement value)
        {
            value = CoprocessReader.NullValue;
            return Literal(NullText);
        }

        /// <summary>Reads an integer of at least 0.</summary>
        internal bool Unsigned(out long value)
        {
            value = 0;
            return Digits(ref value);
        }

        internal bool Integer(out long value)
        {
            value = 0;
            bool negative = Eat((byte)'-');
            if (!Digits(ref value) || (negative && value == 0))
            {
                return false;
            }
            value = negative ? -value : value;
            return true;
        }

        private static ReadOnlySpan<byte> TrueText => new byte[] { (byte)'t', (byte)'r', (byte)'u', (byte)'e' };

        private static ReadOnlySpan<byte> FalseText => new byte[] { (byte)'f', (byte)'a', (byte)'l', (byte)'s', (byte)'e' };

        private static ReadOnlySpan<byte> NullText => new byte[] { (byte)'n', (byte)'u', (byte)'l', (byte)'l' };

        private bool Eat(byte expected)
        {
            if (at < text.Length && text[at] == expected)
            {
                at++;
                return true;
            }
            return false;
        }

        private bool Literal(ReadOnlySpan<byte> word)
        {
            if (!text.Slice(at).StartsWith(word))
            {
                return false;
            }
            at += word.Length;
            return true;
        }

        /// <summary>A string's bytes between its quotes: none an escape or a control character.</summary>
        private bool Plain(out ReadOnlySpan<byte> bytes)
        {
            bytes = default;
            if (!Eat((byte)'"'))
            {
                return false;
            }
            // Scanned from a local copy, so that the position is not stored at each byte.
            ReadOnlySpan<byte> rest = text.Slice(at);
            for (int i = 0; i < rest.Length; i++)
            {
                byte current = rest[i];
                if (current == (byte)'"')
                {
                    bytes = rest.Slice(0, i);
                    at += i + 1;
                    return true;
                }
                if (current == (byte)'\\' || current < 0x20)
                {
                    at += i;
                    return false;
                }
            }
            at = text.Length;
            return false;
        }

        /// <summary>Plain digits within 2^53 - 1, no leading zero, no fraction or exponent after them.</summary>
        private bool Digits(ref long value)
        {
            int start = at;
            while (at < text.Length && text[at] >= (byte)'0' && text[at] <= (byte)'9')
            {
                if (at - start == 16)
                {
                    return false;
                }
                value = (value * 10) + (text[at] - (byte)'0');
                at++;
            }
            int count = at - start;
            if (count == 0 || (count > 1 && text[start] == (byte)'0') || value > CoprocessJson.MaxSafeInteger)
            {
                return false;
            }
            return at == text.Length || (text[at] != (byte)'.' && text[at] != (byte)'e' && text[at] != (byte)'E');
        }
    }

    /// <summary>Reads one value off a reader positioned on its first token, leaving it on the last.</summary>
    internal delegate T CoprocessRead<T>(ref Utf8JsonReader reader);

    /// <summary>
    /// The one-pass decoders: typed values straight off <c>Utf8JsonReader</c>, with the JSON-text
    /// rules the reader does not enforce checked on the way. They only ever answer a valid frame:
    /// on anything doubtful they give up (<see cref="Fallback"/>) and the caller decodes again the
    /// careful way, which finds the problem and words it with its path.
    /// </summary>
    internal static class CoprocessReader
    {
        private static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        // The literals as values: an element never changes, so every decode can share them.
        internal static readonly JsonElement NullValue = Literal("null");
        private static readonly JsonElement TrueValue = Literal("true");
        private static readonly JsonElement FalseValue = Literal("false");

        /// <summary>Decodes one frame's text with <paramref name="read"/>; false when the careful way must decide.</summary>
        internal static bool TryDecode<T>(string text, CoprocessRead<T> read, out T value)
        {
            value = default!;
            if (text.Length > 0 && text[0] == '\uFEFF')
            {
                return false;
            }
            return TryDecode(text, CoprocessTextScan.Frame, read, out value);
        }

        /// <summary>As <see cref="TryDecode{T}(string, CoprocessRead{T}, out T)"/> for a value the caller already parsed.</summary>
        internal static bool TryDecode<T>(JsonElement json, CoprocessRead<T> read, out T value)
        {
            return TryDecode(json.GetRawText(), CoprocessTextScan.Parsed, read, out value);
        }

        /// <summary>
        /// As <see cref="TryDecode{T}(string, CoprocessRead{T}, out T)"/> for one frame's text as UTF-8
        /// bytes, <paramref name="count"/> of them from <paramref name="offset"/> (valid UTF-8 already:
        /// the caller checked it), read where they are, without a string or a copy of them.
        /// </summary>
        internal static bool TryDecode<T>(byte[] text, int offset, int count, CoprocessRead<T> read, out T value)
        {
            value = default!;
            if (count >= 3 && text[offset] == 0xEF && text[offset + 1] == 0xBB && text[offset + 2] == 0xBF)
            {
                return false;
            }
            return TryRead(text, offset, count, CoprocessTextScan.Frame, read, out value);
        }

        /// <summary>
        /// As <see cref="TryDecode{T}(byte[], int, int, CoprocessRead{T}, out T)"/> for the text of a
        /// value that one container encloses in its frame (a session answer's result, cut out of its
        /// answer): it may nest one container less than a frame.
        /// </summary>
        internal static bool TryDecodeEnclosed<T>(byte[] text, int offset, int count, CoprocessRead<T> read, out T value)
        {
            value = default!;
            if (CoprocessTextScan.EnclosedDepth < 1)
            {
                return false;
            }
            return TryRead(text, offset, count, CoprocessTextScan.Enclosed, read, out value);
        }

        private static bool TryDecode<T>(string text, JsonReaderOptions options, CoprocessRead<T> read, out T value)
        {
            value = default!;
            byte[] utf8 = ArrayPool<byte>.Shared.Rent(StrictUtf8.GetMaxByteCount(text.Length));
            try
            {
                int length;
                try
                {
                    length = StrictUtf8.GetBytes(text, 0, text.Length, utf8, 0);
                }
                catch (ArgumentException)
                {
                    return false;
                }
                return TryRead(utf8, 0, length, options, read, out value);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(utf8);
            }
        }

        /// <summary>Reads one value off <paramref name="length"/> bytes of <paramref name="utf8"/> from <paramref name="offset"/>.</summary>
        private static bool TryRead<T>(byte[] utf8, int offset, int length, JsonReaderOptions options, CoprocessRead<T> read, out T value)
        {
            value = default!;
            CoprocessTextScan scan = CoprocessTextScan.Current;
            try
            {
                scan.Text = utf8;
                scan.TextOffset = offset;
                var reader = new Utf8JsonReader(new ReadOnlySpan<byte>(utf8, offset, length), options);
                if (!reader.Read())
                {
                    return false;
                }
                T result = read(ref reader);
                if (reader.Read())
                {
                    return false;
                }
                value = result;
                return true;
            }
            catch (Exception error) when (error is JsonException || error is CoprocessShapeException
                || error is InvalidOperationException || error is ArgumentException)
            {
                return false;
            }
            finally
            {
                scan.Text = null;
            }
        }

        private static JsonElement Literal(string json)
        {
            using (JsonDocument document = JsonDocument.Parse(json))
            {
                return document.RootElement.Clone();
            }
        }

        /// <summary>The problem that sends a decode the careful way; it is never shown.</summary>
        internal static CoprocessShapeException Fallback()
        {
            return new CoprocessShapeException("fall back to the careful decoder", null);
        }

        internal static void Expect(ref Utf8JsonReader reader, JsonTokenType token)
        {
            if (reader.TokenType != token)
            {
                throw Fallback();
            }
        }

        /// <summary>Moves to the next member name of an object; false at its end.</summary>
        internal static bool NextName(ref Utf8JsonReader reader)
        {
            reader.Read();
            return reader.TokenType == JsonTokenType.PropertyName;
        }

        /// <summary>Marks a member as seen, giving up on a second one (a duplicate key).</summary>
        internal static void Once(ref ulong seen, ulong bit)
        {
            if ((seen & bit) != 0)
            {
                throw Fallback();
            }
            seen |= bit;
        }

        internal static bool ReadBoolean(ref Utf8JsonReader reader)
        {
            switch (reader.TokenType)
            {
                case JsonTokenType.True:
                    return true;
                case JsonTokenType.False:
                    return false;
                default:
                    throw Fallback();
            }
        }

        internal static string ReadString(ref Utf8JsonReader reader)
        {
            Expect(ref reader, JsonTokenType.String);
            return reader.GetString() ?? string.Empty;
        }

        /// <summary>Reads an integer; <c>1.0</c> and <c>1e2</c> are integers too.</summary>
        internal static bool TryReadInteger(ref Utf8JsonReader reader, out long integer)
        {
            integer = 0;
            if (reader.TokenType != JsonTokenType.Number)
            {
                return false;
            }
            CoprocessTextScan.CheckNumber(ref reader);
            if (reader.TryGetInt64(out integer))
            {
                return true;
            }
            double number = reader.GetDouble();
            if (Math.Floor(number) != number || Math.Abs(number) > CoprocessJson.MaxSafeInteger)
            {
                return false;
            }
            integer = (long)number;
            return true;
        }

        internal static long ReadInteger(ref Utf8JsonReader reader, long minimum = long.MinValue, long maximum = long.MaxValue)
        {
            if (!TryReadInteger(ref reader, out long integer) || integer < minimum || integer > maximum)
            {
                throw Fallback();
            }
            return integer;
        }

        /// <summary>Reads a number, <c>1</c> as well as <c>1.5</c>, as its double.</summary>
        internal static double ReadNumber(ref Utf8JsonReader reader)
        {
            Expect(ref reader, JsonTokenType.Number);
            CoprocessTextScan.CheckNumber(ref reader);
            if (!reader.TryGetDouble(out double number))
            {
                throw Fallback();
            }
            return number;
        }

        internal static double ReadNumber(ref Utf8JsonReader reader, double minimum, bool exclusiveMinimum, double maximum, bool exclusiveMaximum)
        {
            double number = ReadNumber(ref reader);
            bool low = exclusiveMinimum ? number <= minimum : number < minimum;
            bool high = exclusiveMaximum ? number >= maximum : number > maximum;
            if (low || high)
            {
                throw Fallback();
            }
            return number;
        }

        internal static string Matching(string text, global::System.Text.RegularExpressions.Regex pattern)
        {
            if (!pattern.IsMatch(text))
            {
                throw Fallback();
            }
            return text;
        }

        internal static T Constant<T>(T value, T expected)
            where T : notnull
        {
            if (!value.Equals(expected))
            {
                throw Fallback();
            }
            return value;
        }

        internal static long MultipleOf(long integer, long divisor)
        {
            if (integer % divisor != 0)
            {
                throw Fallback();
            }
            return integer;
        }

        internal static double NumberMultipleOf(double number, long digits, int exponent)
        {
            if (!CoprocessJson.IsMultiple(number, digits, exponent))
            {
                throw Fallback();
            }
            return number;
        }

        /// <summary>
        /// Reads any value as a <c>JsonElement</c> that owns its memory, checking the JSON-text
        /// rules inside it first.
        /// </summary>
        internal static JsonElement ReadAny(ref Utf8JsonReader reader)
        {
            switch (reader.TokenType)
            {
                case JsonTokenType.Null:
                    return NullValue;
                case JsonTokenType.True:
                    return TrueValue;
                case JsonTokenType.False:
                    return FalseValue;
            }
            int start = (int)reader.TokenStartIndex;
            CoprocessTextScan scan = CoprocessTextScan.Current;
            scan.CheckValue(ref reader);
            if (scan.Text == null)
            {
                throw Fallback();
            }
            var value = new ReadOnlyMemory<byte>(scan.Text, scan.TextOffset + start, (int)reader.BytesConsumed - start);
            JsonReaderOptions syntax = reader.CurrentState.Options;
            var options = new JsonDocumentOptions
            {
                MaxDepth = Coprocess.MaxDepth,
                CommentHandling = syntax.CommentHandling,
                AllowTrailingCommas = syntax.AllowTrailingCommas,
            };
            using (JsonDocument document = JsonDocument.Parse(value, options))
            {
                return document.RootElement.Clone();
            }
        }

        internal static string ReadString(ref Utf8JsonReader reader, long minimum, long maximum)
        {
            string text = ReadString(ref reader);
            int length = CoprocessJson.CountCodePoints(text);
            if (length < minimum || length > maximum)
            {
                throw Fallback();
            }
            return text;
        }

        internal static List<T> UniqueItems<T>(List<T> items)
            where T : notnull
        {
            if (CoprocessJson.FirstRepeat(items, out _) >= 0)
            {
                throw Fallback();
            }
            return items;
        }

        /// <summary>
        /// Reads a value as any JSON value, then with the careful reader <paramref name="read"/>
        /// (whose problems make the one-pass reader fall back): an array whose items are compared by
        /// JSON equality of the values they were read from.
        /// </summary>
        internal static T ReadCarefully<T>(ref Utf8JsonReader reader, Func<JsonElement, T> read)
        {
            return read(ReadAny(ref reader));
        }

        internal static List<JsonElement> PrefixKinds(List<JsonElement> items, string[] kinds, string rest)
        {
            if (CoprocessJson.FirstOfOtherKind(items, kinds, rest, out _, out _) >= 0)
            {
                throw Fallback();
            }
            return items;
        }

        internal static List<JsonElement> UniqueJson(List<JsonElement> items)
        {
            if (CoprocessJson.FirstJsonRepeat(items, out _) >= 0)
            {
                throw Fallback();
            }
            return items;
        }

        internal static JsonElement ConstantJson(JsonElement value, string shown)
        {
            if (!CoprocessJson.JsonEqual(value, CoprocessJson.ListedJson(shown)[0]))
            {
                throw Fallback();
            }
            return value;
        }

        internal static JsonElement OneOfJson(JsonElement value, string listed)
        {
            if (!CoprocessJson.IsOneOf(value, listed, out _))
            {
                throw Fallback();
            }
            return value;
        }

        internal static List<T> ItemsWithin<T>(List<T> items, long minimum, long maximum)
        {
            if (items.Count < minimum || items.Count > maximum)
            {
                throw Fallback();
            }
            return items;
        }

        internal static T MembersWithin<T>(T members, long minimum, long maximum)
            where T : System.Collections.ICollection
        {
            if (members.Count < minimum || members.Count > maximum)
            {
                throw Fallback();
            }
            return members;
        }

        internal static void MemberNames(IEnumerable<string> names, Func<string, string> check)
        {
            foreach (string name in names)
            {
                try
                {
                    check(name);
                }
                catch (CoprocessShapeException)
                {
                    throw Fallback();
                }
            }
        }

        internal static List<T> ReadArray<T>(ref Utf8JsonReader reader, CoprocessRead<T> readItem)
        {
            Expect(ref reader, JsonTokenType.StartArray);
            var items = new List<T>();
            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            {
                items.Add(readItem(ref reader));
            }
            return items;
        }

        /// <summary>Reads an object's members into <paramref name="map"/>; a repeated key gives up.</summary>
        internal static TMap ReadMap<TMap, T>(ref Utf8JsonReader reader, TMap map, CoprocessRead<T> readValue)
            where TMap : Dictionary<string, T>
        {
            Expect(ref reader, JsonTokenType.StartObject);
            while (NextName(ref reader))
            {
                string key = reader.GetString() ?? string.Empty;
                reader.Read();
                if (!map.TryAdd(key, readValue(ref reader)))
                {
                    throw Fallback();
                }
            }
            return map;
        }

        /// <summary>Reads an object of any values into <paramref name="map"/>, all in one document.</summary>
        internal static TMap ReadOpenMap<TMap>(ref Utf8JsonReader reader, TMap map)
            where TMap : Dictionary<string, JsonElement>
        {
            Expect(ref reader, JsonTokenType.StartObject);
            foreach (JsonProperty member in ReadAny(ref reader).EnumerateObject())
            {
                map.Add(member.Name, member.Value);
            }
            return map;
        }
    }

    /// <summary>
    /// The decoders and the encoder of one generated class, for the typed envelopes' open member.
    /// </summary>
    internal sealed class CoprocessCodec<T>
    {
        private static readonly CoprocessCodec<T>? Found = CoprocessCodecs.Find(typeof(T)) as CoprocessCodec<T>;

        private readonly Func<JsonElement, CoprocessPath?, string, T> careful;
        private readonly CoprocessRead<T> fast;
        private readonly Action<StringBuilder, T> write;
        private readonly CoprocessPlainRead<T>? plain;

        internal CoprocessCodec(Func<JsonElement, CoprocessPath?, string, T> careful, CoprocessRead<T> fast, Action<StringBuilder, T> write, CoprocessPlainRead<T>? plain = null)
        {
            this.careful = careful;
            this.fast = fast;
            this.write = write;
            this.plain = plain;
        }

        /// <summary>The codec of <typeparamref name="T"/>.</summary>
        /// <exception cref="ArgumentException"><typeparamref name="T"/> is not a generated class.</exception>
        internal static CoprocessCodec<T> Get()
        {
            // The throw is a call of its own, so that the JIT inlines this where T is known: there
            // the static is read in place, where shared generic code reads it through the runtime.
            return Found ?? NotGenerated();
        }

        private static CoprocessCodec<T> NotGenerated()
        {
            throw new ArgumentException(typeof(T).Name + " is not a generated coprocess class");
        }

        internal T Read(JsonElement json, CoprocessPath? at, string expected)
        {
            return careful(json, at, expected);
        }

        internal T Read(ref Utf8JsonReader reader)
        {
            return fast(ref reader);
        }

        internal void Write(StringBuilder builder, T value)
        {
            write(builder, value);
        }

        /// <summary>
        /// Reads the text of a value one container of a frame encloses with the type's single-pass
        /// reader (see <see cref="CoprocessPlainReader"/>); false when the type has none or it gave up.
        /// </summary>
        internal bool TryReadPlainEnclosed(byte[] text, int offset, int count, out T value)
        {
            if (plain == null)
            {
                value = default!;
                return false;
            }
            // No generic method is called: this shared generic code would look it up at every call
            // through the runtime on .NET Core 3.1.
            CoprocessPlainReader reader = CoprocessPlainReader.Enclosed(text, offset, count);
            return plain(ref reader, out value) && reader.AtEnd;
        }

        /// <summary>
        /// A completed task of <paramref name="value"/>, for the session client's call. Made here,
        /// where the codec's own type gives <typeparamref name="T"/>: the call's shared generic code
        /// would look <c>Task&lt;T&gt;</c> up through the runtime at every call on .NET Core 3.1.
        /// </summary>
        internal global::System.Threading.Tasks.Task<T> Completed(T value)
        {
            return global::System.Threading.Tasks.Task.FromResult(value);
        }

        /// <summary>
        /// Reads the text of a value one container of a frame encloses with the type's one-pass
        /// reader (see <see cref="CoprocessReader"/>); false when the careful way must decide.
        /// </summary>
        internal bool TryReadEnclosed(byte[] text, int offset, int count, out T value)
        {
            return CoprocessReader.TryDecodeEnclosed(text, offset, count, fast, out value);
        }
    }
}
