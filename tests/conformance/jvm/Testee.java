// The JVM conformance testee: speaks the testee protocol of docs/targets.md on
// stdin/stdout using only the generated dev.mcptest.Coprocess and Jackson.
// One JSON case per input line, one JSON answer per output line.

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptest.Coprocess;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.util.function.Supplier;

/** The testee: reads cases on stdin until end of input. */
public final class Testee {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Testee() {}

    /**
     * Answers every case line of stdin on stdout.
     *
     * @param args ignored
     * @throws IOException when stdin or stdout fails
     */
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            out.write(answer(line));
            out.write('\n');
            if (!in.ready()) {
                out.flush();
            }
        }
        out.flush();
    }

    static String answer(String line) {
        JsonNode testCase;
        try {
            testCase = MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            return error("unreadable case line: " + e.getOriginalMessage());
        }
        String op = testCase.path("op").asText("decode");
        try {
            switch (op) {
                case "decode":
                    return decode(text(testCase, "type"), text(testCase, "json"));
                case "handshake_request":
                    JsonNode id = testCase.path("id");
                    Coprocess.RequestId requestId =
                            id.isTextual() ? Coprocess.RequestId.of(id.asText()) : Coprocess.RequestId.of(id.asLong());
                    return ok(Coprocess.handshakeRequest(requestId, text(testCase, "sdk"), text(testCase, "sdk_version")));
                case "check_handshake":
                    return ok(Coprocess.checkHandshakeResponse(text(testCase, "json")).toJson());
                case "lane_cli_hint":
                    return ok(Coprocess.laneCliHint(text(testCase, "lane"), text(testCase, "suite"))
                            .map(Testee::quote)
                            .orElse("null"));
                case "constants":
                    return ok(constants());
                default:
                    return error("unknown op `" + op + "`");
            }
        } catch (Coprocess.HandshakeException | IllegalArgumentException e) {
            return error(e.getMessage());
        }
    }

    /**
     * The answer to a decode case, unless a typed envelope disagrees with the open ones
     * (then an error that says so, which no expected answer matches).
     */
    private static String decode(String type, String json) {
        String answer = answerOf(() -> Coprocess.decode(type, json).toJson());
        String typed = typedDisagreement(type, json, answer);
        return typed == null ? answer : error("testee: the typed envelope disagrees: " + typed);
    }

    /** The answer line of a decode: its value, or its {@code DecodeException}. */
    private static String answerOf(Supplier<String> decode) {
        try {
            return ok(decode.get());
        } catch (Coprocess.DecodeException e) {
            return error(e.getMessage());
        }
    }

    private static boolean rejected(String answer) {
        return answer.startsWith("{\"ok\":false");
    }

    /**
     * Checks the typed envelopes against the open ones. {@code RequestOf<Params>} must answer
     * exactly as {@code Request}, and {@code ResponseOf<JsonNode>} exactly as {@code Response};
     * {@code ResponseOf<McpObject>} must accept a response exactly when {@code Response} does and
     * its result (if any) is an object, with the same encoding. With a narrower type
     * ({@code CallParams}, {@code HandshakeParams}, {@code CallResult}, {@code Verdict},
     * {@code ShutdownResult}), a typed envelope must answer as the open envelope followed by that
     * type's {@code fromNode} on its member, the problem re-rooted at {@code $.params} /
     * {@code $.result}. Every other case of a generated type {@code T} is also wrapped as the
     * {@code result} of a response (and, when it is an object, as the {@code params} of a
     * request) and checked the same way with {@code T}. Returns what a typed envelope answered
     * when it disagrees, else null.
     */
    private static String typedDisagreement(String type, String json, String answer) {
        if (type.equals("Request")) {
            String typed = answerOf(() -> Coprocess.RequestOf.fromJson(json, Coprocess.Params.class).toJson());
            if (!typed.equals(answer)) {
                return typed;
            }
            return firstOf(
                    () -> requestDisagreement(json, Coprocess.CallParams.class),
                    () -> requestDisagreement(json, Coprocess.HandshakeParams.class));
        }
        if (type.equals("Response")) {
            String open = answerOf(() -> Coprocess.ResponseOf.fromJson(json, JsonNode.class).toJson());
            if (!open.equals(answer)) {
                return open;
            }
            String typed = answerOf(() -> Coprocess.ResponseOf.fromJson(json, Coprocess.McpObject.class).toJson());
            if (objectResult(json) ? !typed.equals(answer) : !rejected(typed)) {
                return typed;
            }
            return firstOf(
                    () -> responseDisagreement(json, Coprocess.CallResult.class),
                    () -> responseDisagreement(json, Coprocess.Verdict.class),
                    () -> responseDisagreement(json, Coprocess.ShutdownResult.class));
        }
        return wrappedDisagreement(type, json);
    }

    @SafeVarargs
    private static String firstOf(Supplier<String>... checks) {
        for (Supplier<String> check : checks) {
            String found = check.get();
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** The case's text as a response's {@code result} and a request's {@code params}, typed by its type. */
    private static String wrappedDisagreement(String type, String json) {
        Class<? extends Coprocess.Encodable> generated = generatedClass(type);
        if (generated == null) {
            return null;
        }
        String found = responseDisagreement("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + json + "}", generated);
        if (found != null || !isObjectText(json)) {
            return found;
        }
        return requestDisagreement("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\",\"params\":" + json + "}", generated);
    }

    /**
     * The nested class of {@code Coprocess} for a schema type, or null when it has another name.
     * A type named like one the file uses ({@code String}, {@code Encodable}) is {@code String_}.
     */
    private static Class<? extends Coprocess.Encodable> generatedClass(String type) {
        for (String name : new String[] {type + "_", type}) {
            for (Class<?> nested : Coprocess.class.getClasses()) {
                if (nested.getSimpleName().equals(name) && Coprocess.Encodable.class.isAssignableFrom(nested)) {
                    return nested.asSubclass(Coprocess.Encodable.class);
                }
            }
        }
        return null;
    }

    /** Whether the text is (leniently) a JSON object: a request's {@code params} must be one. */
    private static boolean isObjectText(String json) {
        try {
            return MAPPER.readTree(json).isObject();
        } catch (JsonProcessingException e) {
            return true;
        }
    }

    /** {@code composedDisagreement} of {@code RequestOf<T>}. */
    private static <T> String requestDisagreement(String json, Class<T> type) {
        String typed = answerOf(() -> Coprocess.RequestOf.fromJson(json, type).toJson());
        return composedDisagreement(typed, "Request", "params", type, () -> {
            Coprocess.Request request = Coprocess.Request.fromJson(json);
            JsonNode params = request.params() == null ? null : request.params().node();
            return new Open<T>(params, value -> new Coprocess.RequestOf<>(
                    request.jsonrpc(), request.id(), request.method(), value).toJson());
        });
    }

    /** {@code composedDisagreement} of {@code ResponseOf<T>}. */
    private static <T> String responseDisagreement(String json, Class<T> type) {
        String typed = answerOf(() -> Coprocess.ResponseOf.fromJson(json, type).toJson());
        return composedDisagreement(typed, "Response", "result", type, () -> {
            Coprocess.Response response = Coprocess.Response.fromJson(json);
            if (response instanceof Coprocess.SuccessResponse success) {
                return new Open<T>(success.result(), value -> new Coprocess.SuccessResponseOf<>(
                        success.jsonrpc(), success.id(), value).toJson());
            }
            return new Open<T>(null, value -> response.toJson());
        });
    }

    /**
     * An open envelope: its typed member's value (null when absent), and how to encode it with
     * that member decoded.
     */
    private record Open<T>(JsonNode member, Function<T, String> encodeWith) {}

    /**
     * A typed envelope's answer ({@code typed}) against the open envelope ({@code open}) followed
     * by {@code type}'s {@code fromNode} on its member: a rejected frame stays rejected; an
     * accepted one decodes to the same value, or fails with that decoder's problem at the
     * member's path from the frame's root. Returns {@code typed} when it disagrees, else null.
     */
    private static <T> String composedDisagreement(
            String typed, String envelope, String member, Class<T> type, Supplier<Open<T>> open) {
        Open<T> frame;
        try {
            frame = open.get();
        } catch (Coprocess.DecodeException e) {
            return rejected(typed) ? null : typed;
        }
        String expected;
        try {
            T value = frame.member() == null ? null : fromNode(type, frame.member());
            expected = ok(frame.encodeWith().apply(value));
        } catch (Coprocess.DecodeException e) {
            String path = e.path().substring(1);
            expected = error(envelope + ": " + e.problem() + " at $." + member + path);
        }
        return typed.equals(expected) ? null : typed;
    }

    /** {@code type.fromNode(node)}: the generated type's own from-value decoder. */
    private static <T> T fromNode(Class<T> type, JsonNode node) {
        try {
            return type.cast(type.getMethod("fromNode", JsonNode.class).invoke(null, node));
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Coprocess.DecodeException decode) {
                throw decode;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code json} decodes as a {@code Response} whose result, if any, is an object. */
    private static boolean objectResult(String json) {
        try {
            return !(Coprocess.Response.fromJson(json) instanceof Coprocess.SuccessResponse success)
                    || success.result().isObject();
        } catch (Coprocess.DecodeException e) {
            return false;
        }
    }

    private static String text(JsonNode testCase, String field) {
        JsonNode value = testCase.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static String constants() {
        ObjectNode value = MAPPER.createObjectNode();
        value.put("protocol_version", Coprocess.COPROCESS_PROTOCOL_VERSION);
        ArrayNode methods = value.putArray("methods");
        Coprocess.Methods.ALL.forEach(m -> methods.add(m.name()));
        ObjectNode codes = value.putObject("error_codes");
        Coprocess.ErrorCodes.ALL.forEach(c -> codes.put(c.name(), c.code()));
        ArrayNode lanes = value.putArray("unsupported_lanes");
        Coprocess.UNSUPPORTED_LANES.forEach(lanes::add);
        return value.toString();
    }

    private static String ok(String valueJson) {
        return "{\"ok\":true,\"value\":" + valueJson + "}";
    }

    private static String error(String message) {
        return "{\"ok\":false,\"error\":" + quote(message) + "}";
    }

    private static String quote(String text) {
        try {
            return MAPPER.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
