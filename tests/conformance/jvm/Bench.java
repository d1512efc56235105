// Decode throughput of the generated strict decoders vs Jackson's plain
// readTree of the same text, for three typical frames. Prints one markdown
// table row per frame: | jvm | frame | strict fr/s | plain fr/s | plain/strict |.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mcptest.Coprocess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.function.ToIntFunction;

/** The benchmark; see the file comment. */
public final class Bench {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long ROUND_NANOS = 300_000_000L;
    private static final int ROUNDS = 7;

    private Bench() {}

    /**
     * Runs the benchmark.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        String handshake = Coprocess.handshakeRequest(1, "jvm", "0.1.0");
        String call = "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"mcp.call\",\"params\":{\"tool\":\"search\","
                + "\"arguments\":{\"query\":\"weather in Paris\",\"limit\":10,\"filters\":{\"lang\":\"en\",\"safe\":true}},"
                + "\"timeout_ms\":30000}}";
        String verdict = "{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{\"success\":true,\"data\":{\"temperature\":21.5,"
                + "\"unit\":\"C\",\"conditions\":[\"sunny\",\"windy\"]},\"text\":\"21.5 C, sunny\",\"error\":null,"
                + "\"duration_ms\":137}}";
        run("handshake Request", handshake, text -> {
            Coprocess.Request request = Coprocess.Request.fromJson(text);
            return Coprocess.HandshakeParams.fromNode(request.params().node()) == null ? 0 : 1;
        });
        run("mcp.call Request + CallParams", call, text -> {
            Coprocess.Request request = Coprocess.Request.fromJson(text);
            return Coprocess.CallParams.fromNode(request.params().node()) == null ? 0 : 1;
        });
        run("Response + Verdict", verdict, text -> {
            Coprocess.Response response = Coprocess.Response.fromJson(text);
            JsonNode result = ((Coprocess.SuccessResponse) response).result();
            return Coprocess.CallResult.fromNode(result) == null ? 0 : 1;
        });
    }

    private static void run(String frame, String text, ToIntFunction<String> strict) {
        ToIntFunction<String> plain = t -> {
            try {
                return MAPPER.readTree(t).size();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        double bestStrict = 0;
        double bestPlain = 0;
        for (int round = 0; round < ROUNDS; round++) {
            bestStrict = Math.max(bestStrict, rate(text, strict));
            bestPlain = Math.max(bestPlain, rate(text, plain));
        }
        System.out.printf(Locale.ROOT, "| jvm | %s | %.0f | %.0f | %.2f |%n",
                frame, bestStrict, bestPlain, bestPlain / bestStrict);
    }

    private static int sink;

    /** Frames per second over one round. */
    private static double rate(String text, ToIntFunction<String> decode) {
        long start = System.nanoTime();
        long frames = 0;
        long now;
        do {
            for (int i = 0; i < 1000; i++) {
                sink += decode.applyAsInt(text);
            }
            frames += 1000;
            now = System.nanoTime();
        } while (now - start < ROUND_NANOS);
        return frames * 1e9 / (now - start);
    }
}
