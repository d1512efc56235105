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
        private const long MaxSafeInteger = 9007199254740991L;

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
            JsonDocument document;
            try
            {
                document = JsonDocument.Parse(text, new JsonDocumentOptions { MaxDepth = Coprocess.MaxDepth });
            }
            catch (JsonException error)
            {
                throw Classify(text, error);
            }
            catch (ArgumentException)
            {
                throw Text("invalid JSON: the text is not valid UTF-16");
            }
            using (document)
            {
                Check(document.RootElement, text.IndexOf("\\u", StringComparison.Ordinal) >= 0, 1);
                return document.RootElement.Clone();
            }
        }

        /// <summary>
        /// Applies the JSON-text rules to an already-parsed value; returns a copy that does not
        /// depend on the caller's document staying undisposed.
        /// </summary>
        internal static JsonElement Validate(JsonElement value)
        {
            Check(value, true, 1);
            return value.Clone();
        }

        private static void Check(JsonElement value, bool checkStrings, int depth)
        {
            switch (value.ValueKind)
            {
                case JsonValueKind.Object:
                    CheckDepth(depth);
                    CheckObject(value, checkStrings, depth);
                    break;
                case JsonValueKind.Array:
                    CheckDepth(depth);
                    foreach (JsonElement item in value.EnumerateArray())
                    {
                        Check(item, checkStrings, depth + 1);
                    }
                    break;
                case JsonValueKind.String:
                    if (checkStrings)
                    {
                        Unescape(value);
                    }
                    break;
                case JsonValueKind.Number:
                    CheckNumber(value);
                    break;
            }
        }

        private static void CheckDepth(int depth)
        {
            if (depth > Coprocess.MaxDepth)
            {
                throw Text("nesting deeper than " + Coprocess.MaxDepth.ToString(CultureInfo.InvariantCulture));
            }
        }

        private static void CheckObject(JsonElement value, bool checkStrings, int depth)
        {
            List<string>? names = null;
            HashSet<string>? large = null;
            foreach (JsonProperty member in value.EnumerateObject())
            {
                string name = UnescapeName(member);
                if (large != null)
                {
                    if (!large.Add(name))
                    {
                        throw Text("duplicate key `" + name + "`");
                    }
                }
                else
                {
                    names = names ?? new List<string>();
                    foreach (string seen in names)
                    {
                        if (string.Equals(seen, name, StringComparison.Ordinal))
                        {
                            throw Text("duplicate key `" + name + "`");
                        }
                    }
                    names.Add(name);
                    if (names.Count == 16)
                    {
                        large = new HashSet<string>(names, StringComparer.Ordinal);
                    }
                }
                Check(member.Value, checkStrings, depth + 1);
            }
        }

        private static string UnescapeName(JsonProperty member)
        {
            try
            {
                return member.Name;
            }
            catch (InvalidOperationException)
            {
                throw Text("invalid JSON: lone surrogate in a string");
            }
        }

        private static void Unescape(JsonElement value)
        {
            try
            {
                value.GetString();
            }
            catch (InvalidOperationException)
            {
                throw Text("invalid JSON: lone surrogate in a string");
            }
        }

        private static void CheckNumber(JsonElement value)
        {
            if (value.TryGetInt64(out long integer))
            {
                if (integer > MaxSafeInteger || integer < -MaxSafeInteger)
                {
                    throw Text("invalid JSON: integer outside +-(2^53-1)");
                }
                return;
            }
            double number = value.GetDouble();
            if (double.IsInfinity(number) || double.IsNaN(number))
            {
                throw Text("invalid JSON: number overflows a double");
            }
            if (Math.Abs(number) >= 9.2e18 && value.GetRawText().IndexOfAny(new[] { '.', 'e', 'E' }) < 0)
            {
                throw Text("invalid JSON: integer outside +-(2^53-1)");
            }
        }

        private static CoprocessShapeException Classify(string text, JsonException error)
        {
            byte[] utf8 = Encoding.UTF8.GetBytes(text);
            var reader = new Utf8JsonReader(utf8, new JsonReaderOptions { MaxDepth = int.MaxValue });
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
