// Decode throughput of the constrained frame, Turn of the golden constraints
// output (codegen/tests/golden/constraints), through the generated strict
// decoder (every length, pattern, range, item and divisor constraint checked)
// vs Jackson's plain readTree of the same text, with the method of Bench.java.
// Prints one markdown table row: | jvm | Turn (constrained) | strict fr/s | plain fr/s | plain/strict |.

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mcptest.Coprocess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.function.ToIntFunction;

/** The benchmark; see the file comment. */
public final class BenchConstrained {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final long ROUND_NANOS = 100_000_000L;
    private static final int ROUNDS = 25;

    /** The constrained frame, the same text in every language's bench. */
    private static final String TURN = "{\"tool\":\"search_docs\",\"server\":\"https://example.com/mcp\","
            + "\"max_turns\":12,\"rules\":[\"no_network\",\"read_only\",\"cite_sources\"],\"budget_ms\":30000}";

    private BenchConstrained() {}

    /**
     * Runs the benchmark.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        Long budget = Coprocess.Turn.fromJson(TURN).budgetMs();
        if (budget == null || budget != 30000L) {
            throw new IllegalStateException("the Turn frame did not decode to its budget");
        }
        run("Turn (constrained)", TURN, text -> Coprocess.Turn.fromJson(text).rules().size());
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
        long start = CPU.getCurrentThreadCpuTime();
        long frames = 0;
        long now;
        do {
            for (int i = 0; i < 1000; i++) {
                sink += decode.applyAsInt(text);
            }
            frames += 1000;
            now = CPU.getCurrentThreadCpuTime();
        } while (now - start < ROUND_NANOS);
        return frames * 1e9 / (now - start);
    }

    /** The thread's CPU time: what a round costs, without the time other work took the core. */
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
}
