// The schema-independent part of the generated Coprocess.java (codegen/src/targets/jvm/runtime.rs
// splices the members between the `// runtime:` markers into it), kept as a Java file of its own
// so that javac and google-java-format check it directly (tests/conformance/jvm/build.sh).

package dev.mcptest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The runtime of {@code Coprocess}: its public support types and its private helpers. */
final class Runtime {
    private Runtime() {}

    // runtime: support types

    /** A value of one of the contract's types: it writes itself as one line of JSON. */
    public interface Encodable {
        /**
         * Appends this value as JSON: no newline inside or at the end, fields in schema declaration
         * order, absent optional fields omitted.
         *
         * @param out where the JSON goes
         */
        void appendJson(StringBuilder out);

        /**
         * Encodes this value as one frame line (without the terminating newline).
         *
         * @return the JSON text
         */
        default String toJson() {
            StringBuilder out = new StringBuilder(128);
            appendJson(out);
            return out.toString();
        }
    }

    /**
     * A frame that is not strict JSON text or does not have the shape of its type. The message is
     * {@code Type: problem} at the root and {@code Type: problem at path} below it, with the path
     * written {@code $.key}, {@code $["odd key"]}, {@code $[3]}.
     */
    public static final class DecodeException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        private final String typeName;
        private final String problem;
        private final String path;

        DecodeException(String typeName, String problem, String path) {
            super(typeName + ": " + problem + ("$".equals(path) ? "" : " at " + path));
            this.typeName = typeName;
            this.problem = problem;
            this.path = path;
        }

        /**
         * Returns the name of the type that was being decoded, as in the schema.
         *
         * @return the name of the type that was being decoded, as in the schema
         */
        public String typeName() {
            return typeName;
        }

        /**
         * Returns what was wrong, without the type name and the path.
         *
         * @return what was wrong, without the type name and the path
         */
        public String problem() {
            return problem;
        }

        /**
         * Returns where it was wrong: {@code $} for the value itself.
         *
         * @return where it was wrong: {@code $} for the value itself
         */
        public String path() {
            return path;
        }
    }

    /** The SDK's fail-fast error for a handshake that failed or reported another version. */
    public static final class HandshakeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HandshakeException(String message) {
            super(message);
        }
    }

    // runtime: helpers

    // ---------------------------------------------------------------------
    // Strict JSON text: Jackson's streaming parser (which already refuses
    // NaN/Infinity, comments, leading zeros, control characters and bad
    // escapes) plus the rules it does not enforce.
    // ---------------------------------------------------------------------

    private static final long MAX_SAFE_INTEGER = 9007199254740991L;

    private static final JsonFactory JSON = JsonFactory.builder().build();

    /** A decoder from an already parsed value at a path. */
    @FunctionalInterface
    private interface Decoder<T> {
        T decode(JsonNode node, Path path);
    }

    /** Where a value sits in the frame; rendered only when an error names it. */
    private static final class Path {
        static final Path ROOT = new Path(null, null, -1);

        private final Path parent;
        private final String key;
        private final int index;

        private Path(Path parent, String key, int index) {
            this.parent = parent;
            this.key = key;
            this.index = index;
        }

        Path key(String name) {
            return new Path(this, name, -1);
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder();
            render(out);
            return out.toString();
        }

        private void render(StringBuilder out) {
            if (parent == null) {
                out.append('$');
                return;
            }
            parent.render(out);
            if (key == null) {
                out.append('[').append(index).append(']');
            } else if (isIdentifier(key)) {
                out.append('.').append(key);
            } else {
                out.append('[');
                writeString(out, key);
                out.append(']');
            }
        }

        private static boolean isIdentifier(String key) {
            if (key.isEmpty()) {
                return false;
            }
            for (int i = 0; i < key.length(); i++) {
                char c = key.charAt(i);
                boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
                if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A decoding problem before the type name is known; no stack trace, it is cheap. */
    private static final class Problem extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final transient Path path;

        /** For a wrong-kind problem: what was expected (so that "or null" can be added). */
        final String expected;

        final String got;

        Problem(Path path, String text, String expected, String got) {
            super(text, null, false, false);
            this.path = path;
            this.expected = expected;
            this.got = got;
        }
    }

    private static Problem problem(Path path, String text) {
        return new Problem(path, text, null, null);
    }

    private static Problem wrongKind(Path path, String expected, JsonNode node) {
        String got = kindOf(node);
        return new Problem(path, "expected " + expected + ", got " + got, expected, got);
    }

    private static Problem unknownField(Path path, String name) {
        return problem(path, "unknown field `" + name + "`");
    }

    private static Problem missingField(Path path, String name) {
        return problem(path, "missing field `" + name + "`");
    }

    private static String kindOf(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case BOOLEAN -> "boolean";
            case NUMBER ->
                    node.isIntegralNumber() || isSafeIntegral(node.doubleValue())
                            ? "integer"
                            : "number";
            default -> "null";
        };
    }

    private static boolean isSafeIntegral(double value) {
        return value == Math.rint(value) && Math.abs(value) <= MAX_SAFE_INTEGER;
    }

    /** Decodes one frame's text with {@code decoder}, naming {@code typeName} in errors. */
    static <T> T readText(String json, String typeName, Decoder<T> decoder) {
        try {
            return decoder.decode(parseStrict(json), Path.ROOT);
        } catch (Problem problem) {
            throw new DecodeException(typeName, problem.getMessage(), problem.path.toString());
        }
    }

    /** Decodes an already parsed value with {@code decoder}, naming {@code typeName} in errors. */
    static <T> T readTree(JsonNode node, String typeName, Decoder<T> decoder) {
        try {
            return decoder.decode(Objects.requireNonNull(node, "node"), Path.ROOT);
        } catch (Problem problem) {
            throw new DecodeException(typeName, problem.getMessage(), problem.path.toString());
        }
    }

    /**
     * Parses one frame's text as strict JSON (the rules of the schema's top-level description),
     * without reading it as any type: the session client checks an answer's id before its shape.
     *
     * @param json the frame text, without the line terminator
     * @return the parsed value
     * @throws DecodeException when the text is not strict JSON
     */
    public static JsonNode parseJson(String json) {
        return readText(json, "JSON", (node, path) -> node);
    }

    private static JsonNode parseStrict(String json) {
        return parseStrict(json, 0);
    }

    /**
     * Parses strict JSON text that {@code enclosing} containers enclose in its frame, so that it
     * may nest that many containers fewer: as deep as the parse of the whole frame allows it.
     */
    private static JsonNode parseStrict(String json, int enclosing) {
        if (!json.isEmpty() && json.charAt(0) == '\uFEFF') {
            throw problem(Path.ROOT, "invalid JSON: byte-order mark");
        }
        try (JsonParser parser = JSON.createParser(json)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw problem(Path.ROOT, "invalid JSON: no value");
            }
            JsonNode root = readValue(parser, first, enclosing);
            if (parser.nextToken() != null) {
                throw problem(Path.ROOT, "invalid JSON: trailing characters after the value");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw problem(Path.ROOT, "invalid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw problem(Path.ROOT, "invalid JSON: " + e.getMessage());
        }
    }

    private static JsonNode readValue(JsonParser parser, JsonToken token, int depth)
            throws IOException {
        return switch (token) {
            case START_OBJECT -> readObject(parser, depth + 1);
            case START_ARRAY -> readArray(parser, depth + 1);
            case VALUE_STRING -> TextNode.valueOf(checkText(parser.getText()));
            case VALUE_NUMBER_INT -> readInteger(parser);
            case VALUE_NUMBER_FLOAT -> readFloat(parser);
            case VALUE_TRUE -> BooleanNode.TRUE;
            case VALUE_FALSE -> BooleanNode.FALSE;
            case VALUE_NULL -> NullNode.instance;
            default -> throw problem(Path.ROOT, "invalid JSON: unexpected " + token);
        };
    }

    private static ObjectNode readObject(JsonParser parser, int depth) throws IOException {
        checkDepth(depth);
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        String name;
        while ((name = parser.nextFieldName()) != null) {
            if (object.has(checkText(name))) {
                throw problem(Path.ROOT, "duplicate key `" + name + "`");
            }
            object.replace(name, readValue(parser, parser.nextToken(), depth));
        }
        return object;
    }

    private static ArrayNode readArray(JsonParser parser, int depth) throws IOException {
        checkDepth(depth);
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            array.add(readValue(parser, token, depth));
        }
        return array;
    }

    private static JsonNode readInteger(JsonParser parser) throws IOException {
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw problem(Path.ROOT, "invalid JSON: integer out of range: " + parser.getText());
        }
        long value = parser.getLongValue();
        if (value > MAX_SAFE_INTEGER || value < -MAX_SAFE_INTEGER) {
            throw problem(Path.ROOT, "invalid JSON: integer out of range: " + parser.getText());
        }
        return value == (int) value ? IntNode.valueOf((int) value) : LongNode.valueOf(value);
    }

    private static JsonNode readFloat(JsonParser parser) throws IOException {
        double value = parser.getDoubleValue();
        if (Double.isInfinite(value)) {
            throw problem(Path.ROOT, "invalid JSON: number out of range: " + parser.getText());
        }
        return DoubleNode.valueOf(value);
    }

    private static void checkDepth(int depth) {
        if (depth > MAX_DEPTH) {
            throw problem(Path.ROOT, "nesting deeper than " + MAX_DEPTH);
        }
    }

    /** Refuses a string holding a lone surrogate (escaped or not). */
    private static String checkText(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                boolean paired =
                        Character.isHighSurrogate(c)
                                && i + 1 < text.length()
                                && Character.isLowSurrogate(text.charAt(i + 1));
                if (!paired) {
                    throw problem(Path.ROOT, "invalid JSON: lone surrogate in a string");
                }
                i++;
            }
        }
        return text;
    }

    // ---------------------------------------------------------------------
    // Decoding helpers shared by the generated decoders.
    // ---------------------------------------------------------------------

    private static ObjectNode expectObject(JsonNode node, Path path) {
        if (node instanceof ObjectNode object) {
            return object;
        }
        throw wrongKind(path, "object", node);
    }

    /** The tag of a tagged union's object: its member {@code member}, a string. */
    private static String unionTag(ObjectNode object, Path path, String member) {
        JsonNode tag = object.get(member);
        if (tag == null) {
            throw missingField(path, member);
        }
        return decodeString(tag, path.key(member));
    }

    private static boolean decodeBoolean(JsonNode node, Path path) {
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        throw wrongKind(path, "boolean", node);
    }

    private static String decodeString(JsonNode node, Path path) {
        if (node.isTextual()) {
            return node.textValue();
        }
        throw wrongKind(path, "string", node);
    }

    private static long decodeInteger(JsonNode node, Path path) {
        return integerValue(node, path, "integer");
    }

    /** An integer, or a wrong-kind problem that says what was {@code expected}. */
    private static long integerValue(JsonNode node, Path path, String expected) {
        if (node.isIntegralNumber()) {
            return node.longValue();
        }
        if (node.isNumber() && isSafeIntegral(node.doubleValue())) {
            return (long) node.doubleValue();
        }
        throw wrongKind(path, expected, node);
    }

    private static long integerWithin(JsonNode node, Path path, long minimum, long maximum) {
        long value = decodeInteger(node, path);
        if (value < minimum) {
            throw problem(path, "expected integer >= " + minimum + ", got " + value);
        }
        if (value > maximum) {
            throw problem(path, "expected integer <= " + maximum + ", got " + value);
        }
        return value;
    }

    private static double decodeNumber(JsonNode node, Path path) {
        if (node.isNumber()) {
            return node.doubleValue();
        }
        throw wrongKind(path, "number", node);
    }

    /**
     * A number within its bounds, compared as doubles: {@code lower} ({@code ">="} or {@code ">"})
     * the minimum, {@code upper} ({@code "<="} or {@code "<"}) the maximum, an infinity where the
     * schema has none. The minimum is checked first.
     */
    private static double numberWithin(
            JsonNode node, Path path, String lower, double minimum, String upper, double maximum) {
        double value = decodeNumber(node, path);
        if (value < minimum || (value == minimum && ">".equals(lower))) {
            throw problem(path, numberProblem(lower, minimum, value));
        }
        if (value > maximum || (value == maximum && "<".equals(upper))) {
            throw problem(path, numberProblem(upper, maximum, value));
        }
        return value;
    }

    private static String numberProblem(String operator, double bound, double value) {
        String expected = "expected number " + operator + " " + numberText(bound);
        return expected + ", got " + numberText(value);
    }

    /**
     * A finite double as ECMAScript's {@code String(value)} writes it: the shortest digits that
     * read back as the same double, positional from 1e-6 up to 1e21 and with an exponent outside
     * ({@code 1e+21}, {@code 1.5e-7}), -0 as {@code 0}.
     */
    private static String numberText(double value) {
        if (value == 0) {
            return "0";
        }
        if (value < 0) {
            return "-" + numberText(-value);
        }
        BigDecimal shortest = shortestDecimal(value);
        String digits = shortest.unscaledValue().toString();
        int length = digits.length();
        // value = 0.digits * 10^point
        int point = length - shortest.scale();
        if (length <= point && point <= 21) {
            return digits + "0".repeat(point - length);
        }
        if (0 < point && point <= 21) {
            return digits.substring(0, point) + "." + digits.substring(point);
        }
        if (-6 < point && point <= 0) {
            return "0." + "0".repeat(-point) + digits;
        }
        String fraction = length == 1 ? "" : "." + digits.substring(1);
        return digits.charAt(0) + fraction + (point > 0 ? "e+" : "e-") + Math.abs(point - 1);
    }

    /**
     * The decimal with the fewest digits that reads back as {@code value} (finite, positive), the
     * nearest of two such: Java 17's {@code Double.toString} is not always the shortest. At a power
     * of two the neighbour below may be too far while the one above reads back, so both are tried.
     */
    private static BigDecimal shortestDecimal(double value) {
        BigDecimal exact = new BigDecimal(value);
        List<RoundingMode> modes =
                List.of(RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING);
        for (int precision = 1; precision < 17; precision++) {
            for (RoundingMode mode : modes) {
                BigDecimal rounded = exact.round(new MathContext(precision, mode));
                if (rounded.doubleValue() == value) {
                    return rounded.stripTrailingZeros();
                }
            }
        }
        // Seventeen significant digits always read back.
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }

    private static long multipleOf(long value, Path path, long divisor) {
        if (value % divisor != 0) {
            throw problem(path, "expected multiple of " + divisor + ", got " + value);
        }
        return value;
    }

    /**
     * Checks that a number is a multiple of {@code digits} × 10^{@code exponent}, the number read
     * as the shortest decimal that reads back as its double: {@code D} × 10^{@code a}, {@code D}
     * without a trailing zero. Zero is a multiple; a finer last digit than the divisor's is none;
     * else {@code D} × 10^({@code a} - {@code exponent}) must be a multiple of {@code digits}.
     */
    private static double numberMultipleOf(double value, Path path, long digits, int exponent) {
        if (value != 0 && !isMultiple(shortestDecimal(Math.abs(value)), digits, exponent)) {
            double divisor = BigDecimal.valueOf(digits).scaleByPowerOfTen(exponent).doubleValue();
            String shown = numberText(divisor) + ", got " + numberText(value);
            throw problem(path, "expected multiple of " + shown);
        }
        return value;
    }

    private static boolean isMultiple(BigDecimal shortest, long digits, int exponent) {
        int a = -shortest.scale();
        if (a < exponent) {
            return false;
        }
        BigInteger scaled = shortest.unscaledValue().multiply(BigInteger.TEN.pow(a - exponent));
        return scaled.mod(BigInteger.valueOf(digits)).signum() == 0;
    }

    /** Checks that a value is the schema's {@code const}; {@code shown} is it as JSON text. */
    private static <T> T constant(T value, Path path, T expected, String shown) {
        if (!value.equals(expected)) {
            String got = value instanceof String text ? quote(text) : String.valueOf(value);
            throw problem(path, "expected " + shown + ", got " + got);
        }
        return value;
    }

    /**
     * A string in which {@code pattern} (a schema {@code pattern}, searched, not anchored) finds a
     * match; {@code problem} is the problem a string without one gets.
     */
    private static String matching(String text, Path path, Regex pattern, String problem) {
        if (!pattern.finds(text)) {
            throw problem(path, problem);
        }
        return text;
    }

    /**
     * A schema {@code pattern}, compiled once, with a {@link Matcher} kept per thread that each
     * search resets (making one per string costs more than the search of a short string).
     */
    private static final class Regex {
        private final ThreadLocal<Matcher> matcher;

        Regex(String regex) {
            Pattern pattern = Pattern.compile(regex);
            this.matcher = ThreadLocal.withInitial(() -> pattern.matcher(""));
        }

        /** Whether the pattern finds a match in {@code text} (searched, not anchored). */
        boolean finds(String text) {
            return matcher.get().reset(text).find();
        }
    }

    /**
     * Checks every member name ({@code propertyNames}); of the names that fail, the first in
     * code-point order is reported.
     */
    private static void memberNames(Iterable<String> names, Path path, Decoder<String> check) {
        String first = null;
        String failed = null;
        for (String name : names) {
            try {
                check.decode(TextNode.valueOf(name), path);
            } catch (Problem problem) {
                if (first == null || codePointLess(name, first)) {
                    first = name;
                    failed = problem.getMessage();
                }
            }
        }
        if (first != null) {
            throw problem(path, "member name " + quote(first) + ": " + failed);
        }
    }

    /** Whether {@code a} comes before {@code b} in code-point order. */
    private static boolean codePointLess(String a, String b) {
        int length = Math.min(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return codePointRank(x) < codePointRank(y);
            }
        }
        return a.length() < b.length();
    }

    /** A UTF-16 unit's rank in code-point order: the surrogates after U+FFFF. */
    private static int codePointRank(char unit) {
        if (Character.isSurrogate(unit)) {
            return unit + 0x2000;
        }
        return unit >= 0xE000 ? unit - 0x800 : unit;
    }

    /** A string whose length in Unicode code points is within the bounds. */
    private static String stringWithin(JsonNode node, Path path, long minimum, long maximum) {
        String text = decodeString(node, path);
        lengthWithin(path, text.codePointCount(0, text.length()), minimum, maximum, "character");
        return text;
    }

    /** An array whose number of items is within the bounds. */
    private static <T> List<T> itemsWithin(List<T> items, Path path, long minimum, long maximum) {
        lengthWithin(path, items.size(), minimum, maximum, "item");
        return items;
    }

    /** Checks a string's length, an array's number of items or an object's number of members. */
    private static void lengthWithin(
            Path path, long length, long minimum, long maximum, String noun) {
        if (length < minimum) {
            throw problem(path, "expected at least " + counted(minimum, noun) + ", got " + length);
        }
        if (length > maximum) {
            throw problem(path, "expected at most " + counted(maximum, noun) + ", got " + length);
        }
    }

    /** Checks that no item equals an earlier one (as decoded: 1.0 is 1). */
    private static <T> List<T> uniqueItems(List<T> items, Path path) {
        int size = items.size();
        if (size <= FEW_ITEMS) {
            // Each item against every earlier one: no map, no boxed index.
            for (int i = 1; i < size; i++) {
                Object key = distinctKey(items.get(i));
                for (int first = 0; first < i; first++) {
                    if (key.equals(distinctKey(items.get(first)))) {
                        throw notUnique(path, i, first);
                    }
                }
            }
            return items;
        }
        Map<Object, Integer> seen = new HashMap<>();
        for (int i = 0; i < size; i++) {
            Integer first = seen.putIfAbsent(distinctKey(items.get(i)), i);
            if (first != null) {
                throw notUnique(path, i, first);
            }
        }
        return items;
    }

    /** Up to this many items, {@link #uniqueItems} compares them pairwise. */
    private static final int FEW_ITEMS = 8;

    /** An item as {@link #uniqueItems} compares it: -0.0 is the 0.0 it equals. */
    private static Object distinctKey(Object item) {
        // Double.equals tells -0.0 from 0.0.
        return item instanceof Double number ? number + 0.0 : item;
    }

    private static Problem notUnique(Path path, int item, int first) {
        return problem(path, "expected unique items, got item " + item + " equal to item " + first);
    }

    /** Items of which none equals an earlier one by JSON equality. */
    private static List<JsonNode> uniqueJson(List<JsonNode> items, Path path) {
        for (int i = 0; i < items.size(); i++) {
            for (int first = 0; first < i; first++) {
                if (jsonEqual(items.get(first), items.get(i))) {
                    throw notUnique(path, i, first);
                }
            }
        }
        return items;
    }

    /**
     * Checks each item's JSON kind: the first ones {@code kinds}, the others {@code rest} ({@code
     * ""}: any kind; an integer is a number too).
     */
    private static List<JsonNode> prefixKinds(
            List<JsonNode> items, Path path, List<String> kinds, String rest) {
        for (int i = 0; i < items.size(); i++) {
            String kind = i < kinds.size() ? kinds.get(i) : rest;
            String got = kindOf(items.get(i));
            boolean number = kind.equals("number") && got.equals("integer");
            if (!kind.isEmpty() && !kind.equals(got) && !number) {
                throw problem(element(path, i), "expected " + kind + ", got " + got);
            }
        }
        return items;
    }

    /**
     * Items read from {@code node} (objects, arrays, nullable items) of which none equals an
     * earlier one by JSON equality of the values they were read from.
     */
    private static <T> List<T> uniqueRead(List<T> items, JsonNode node, Path path) {
        List<JsonNode> values = new ArrayList<>(node.size());
        node.forEach(values::add);
        uniqueJson(values, path);
        return items;
    }

    /** The values of each {@code const} or {@code enum} read so far, by their JSON text. */
    private static final ConcurrentHashMap<String, JsonNode> LISTED = new ConcurrentHashMap<>();

    /**
     * The values of a {@code const} or an {@code enum} (JSON text joined by {@code ", "}), read
     * once and kept: every decode compares with the same values.
     */
    private static JsonNode listedJson(String listed) {
        return LISTED.computeIfAbsent(listed, text -> parseStrict("[" + text + "]"));
    }

    /**
     * A value equal to the schema's {@code const} (any JSON value, {@code shown} as JSON text) by
     * JSON equality.
     */
    private static JsonNode constantJson(JsonNode value, Path path, String shown) {
        if (!jsonEqual(value, listedJson(shown).get(0))) {
            throw problem(path, "expected " + shown + ", got " + kindOf(value));
        }
        return value;
    }

    /**
     * A value equal to one of the schema's {@code enum} values (any JSON values, {@code listed} as
     * JSON text joined by {@code ", "}) by JSON equality.
     */
    private static JsonNode oneOfJson(JsonNode value, Path path, String listed) {
        JsonNode allowed = listedJson(listed);
        for (JsonNode option : allowed) {
            if (jsonEqual(value, option)) {
                return value;
            }
        }
        String wanted = allowed.size() == 1 ? listed : "one of " + listed;
        throw problem(path, "expected " + wanted + ", got " + shown(value));
    }

    /**
     * A value as a problem shows it: a string as JSON text, a number as ECMAScript writes it,
     * {@code true}, {@code false}, {@code null}; an array or an object by its kind.
     */
    private static String shown(JsonNode value) {
        return switch (value.getNodeType()) {
            case STRING -> quote(value.textValue());
            case NUMBER -> numberText(value.doubleValue());
            case BOOLEAN -> value.booleanValue() ? "true" : "false";
            case NULL -> "null";
            default -> kindOf(value);
        };
    }

    /**
     * JSON equality: numbers by value ({@code 1} is {@code 1.0}), objects whatever their member
     * order, arrays item by item, {@code true} never {@code 1}.
     */
    private static boolean jsonEqual(JsonNode a, JsonNode b) {
        if (a.getNodeType() != b.getNodeType()) {
            return false;
        }
        return switch (a.getNodeType()) {
            case NUMBER -> a.doubleValue() == b.doubleValue();
            case ARRAY -> {
                boolean same = a.size() == b.size();
                for (int i = 0; same && i < a.size(); i++) {
                    same = jsonEqual(a.get(i), b.get(i));
                }
                yield same;
            }
            case OBJECT -> {
                boolean same = a.size() == b.size();
                for (var names = a.fieldNames(); same && names.hasNext(); ) {
                    String name = names.next();
                    same = b.has(name) && jsonEqual(a.get(name), b.get(name));
                }
                yield same;
            }
            default -> a.equals(b);
        };
    }

    private static String counted(long count, String noun) {
        return count == 1 ? "1 " + noun : count + " " + noun + "s";
    }

    /** The path of an array's element (its own helper, pruned with the arrays). */
    private static Path element(Path array, int position) {
        return new Path(array, null, position);
    }

    private static <T> List<T> decodeList(JsonNode node, Path path, Decoder<T> item) {
        if (!node.isArray()) {
            throw wrongKind(path, "array", node);
        }
        List<T> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            out.add(item.decode(node.get(i), element(path, i)));
        }
        return Collections.unmodifiableList(out);
    }

    private static <T> Map<String, T> decodeMap(JsonNode node, Path path, Decoder<T> value) {
        ObjectNode object = expectObject(node, path);
        Map<String, T> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> member : object.properties()) {
            out.put(member.getKey(), value.decode(member.getValue(), path.key(member.getKey())));
        }
        return Collections.unmodifiableMap(out);
    }

    /** JSON null is Java null; a value of the wrong kind is "expected T or null". */
    private static <T> T decodeNullable(JsonNode node, Path path, Decoder<T> inner) {
        if (node.isNull()) {
            return null;
        }
        try {
            return inner.decode(node, path);
        } catch (Problem problem) {
            if (problem.path == path && problem.expected != null) {
                String expected = problem.expected + " or null";
                throw new Problem(
                        path,
                        "expected " + expected + ", got " + problem.got,
                        expected,
                        problem.got);
            }
            throw problem;
        }
    }

    // ---------------------------------------------------------------------
    // Encoding helpers: one line, strings escaped as JSON requires.
    // ---------------------------------------------------------------------

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Appends {@code text} as a JSON string, or {@code null}. */
    static void writeString(StringBuilder out, String text) {
        if (text == null) {
            out.append("null");
            return;
        }
        out.append('"');
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(text, start, i);
            start = i + 1;
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        out.append(text, start, text.length()).append('"');
    }

    /** Returns {@code text} as a JSON string literal. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2);
        writeString(out, text);
        return out.toString();
    }

    /** Appends any JSON value; Java null is written as JSON null. */
    static void writeNode(StringBuilder out, JsonNode node) {
        if (node == null) {
            out.append("null");
            return;
        }
        switch (node.getNodeType()) {
            case OBJECT -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonNode> member : node.properties()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    writeString(out, member.getKey());
                    out.append(':');
                    writeNode(out, member.getValue());
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    writeNode(out, node.get(i));
                }
                out.append(']');
            }
            case STRING -> writeString(out, node.textValue());
            case BOOLEAN -> out.append(node.booleanValue());
            case NUMBER ->
                    out.append(
                            node.isIntegralNumber()
                                    ? node.asText()
                                    : Double.toString(node.doubleValue()));
            default -> out.append("null");
        }
    }

    /** Appends a value of one of the contract's types; Java null is written as JSON null. */
    static void writeValue(StringBuilder out, Encodable value) {
        if (value == null) {
            out.append("null");
        } else {
            value.appendJson(out);
        }
    }

    static <T> void writeList(StringBuilder out, List<T> items, BiConsumer<StringBuilder, T> item) {
        if (items == null) {
            out.append("null");
            return;
        }
        out.append('[');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            item.accept(out, items.get(i));
        }
        out.append(']');
    }

    static <T> void writeMap(
            StringBuilder out, Map<String, T> entries, BiConsumer<StringBuilder, T> value) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, T> entry : entries.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            writeString(out, entry.getKey());
            out.append(':');
            value.accept(out, entry.getValue());
        }
        out.append('}');
    }

    // runtime: typed envelope members

    private static <T> Map.Entry<Class<?>, Decoder<?>> member(Class<T> type, Decoder<T> decoder) {
        return Map.entry(type, decoder);
    }

    /** The decoder of a typed envelope's member, or an {@code IllegalArgumentException}. */
    private static <T> Decoder<T> memberDecoder(Class<T> type) {
        Decoder<?> decoder = MEMBER_DECODERS.get(Objects.requireNonNull(type, "type"));
        if (decoder == null) {
            throw new IllegalArgumentException(
                    "a typed envelope's member is a generated type or JsonNode, not "
                            + type.getName());
        }
        return (node, path) -> type.cast(decoder.decode(node, path));
    }

    /**
     * Reads a session answer's result, as {@code type}, from its text cut out of the answer (which
     * encloses it: it may nest one container fewer than a frame). Null when the text is not strict
     * JSON or the result does not decode: the session then decodes the whole answer, which says
     * what is wrong.
     */
    static <R> R readEnclosed(String json, Class<R> type) {
        try {
            return memberDecoder(type).decode(parseStrict(json, 1), Path.ROOT);
        } catch (Problem problem) {
            return null;
        }
    }

    /** Refuses a member that {@code writeMember} could not write. */
    private static void checkMember(Object value, String name) {
        if (value != null && !(value instanceof Encodable) && !(value instanceof JsonNode)) {
            throw new IllegalArgumentException(
                    "`"
                            + name
                            + "` must be a generated type or a JsonNode, not "
                            + value.getClass().getName());
        }
    }

    /** Appends a typed envelope's member: a generated type or a {@code JsonNode}. */
    private static void writeMember(StringBuilder out, Object value) {
        if (value instanceof Encodable encodable) {
            encodable.appendJson(out);
        } else {
            writeNode(out, (JsonNode) value);
        }
    }

    // runtime: end

    // Stand-ins for what the generated file declares.

    private static final int MAX_DEPTH = 64;

    private static final Map<Class<?>, Decoder<?>> MEMBER_DECODERS = Map.of();
}
