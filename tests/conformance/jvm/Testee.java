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
import java.nio.charset.StandardCharsets;

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
                    return ok(Coprocess.decode(text(testCase, "type"), text(testCase, "json")).toJson());
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
