// The JVM client's own CPU per call: the generated client against a coprocess
// that answers every `mcp.call` at once (tests/client_conformance/echo_coprocess.py),
// next to a raw loop that writes the same request line and reads one line back
// without decoding. After a warm-up of both (the JIT), each round opens both side
// by side in this one process and runs their calls in alternated blocks
// (BENCH_BLOCK, default 10,000 calls: the CPU clock ticks at 10 ms), so that both
// see the same state of the machine; a loop's figure is the process's CPU time
// (OperatingSystemMXBean: every thread, the JIT's and the GC's too) over its
// blocks, so the coprocess and the wait on the pipe do not count. Also the
// resident set (VmRSS) after 1k, 10k and 100k client calls.
//
//     bench.sh [CALLS [ROUNDS]]      (default 100000 5)

import dev.mcptest.Coprocess;
import dev.mcptest.CoprocessClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** The benchmark. */
public final class Bench {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private Bench() {}

    /** The process's CPU time so far, in nanoseconds (all its threads). */
    private static long cpuNanos() {
        return OS.getProcessCpuTime();
    }

    /** The process's resident set now, in KiB (Linux), or 0. */
    private static String rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return line.replaceAll("[^0-9]", "");
            }
        }
        return "0";
    }

    /** Reads up to the next newline (the answers are small: no line spans two reads here). */
    private static void readLine(InputStream in, byte[] buffer) throws IOException {
        while (true) {
            int count = in.read(buffer);
            if (count < 0) {
                throw new IOException("the coprocess closed its output");
            }
            if (count > 0 && buffer[count - 1] == '\n') {
                return;
            }
        }
    }

    /** The raw loop: the echo coprocess spawned with plain pipes, written the bench's request line and read one line back, nothing decoded. */
    private static final class RawLoop implements AutoCloseable {
        private final Process process;
        private final OutputStream writer;
        private final InputStream reader;
        private final byte[] buffer = new byte[65536];
        private final byte[] line;

        RawLoop(Path echo) throws IOException {
            process = new ProcessBuilder(echo.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            writer = process.getOutputStream();
            reader = process.getInputStream();
            writer.write((Coprocess.handshakeRequest(1, "jvm", "bench") + "\n").getBytes(StandardCharsets.UTF_8));
            writer.flush();
            readLine(reader, buffer);
            Coprocess.RequestOf<Coprocess.CallParams> request =
                    new Coprocess.RequestOf<>(
                            Coprocess.JsonRpcVersion.V2_0,
                            Coprocess.RequestId.of(2),
                            Coprocess.Methods.MCP_CALL,
                            new Coprocess.CallParams("bench", null, null, null));
            line = (request.toJson() + "\n").getBytes(StandardCharsets.UTF_8);
        }

        /** {@code calls} raw calls: the CPU nanoseconds they took. */
        long run(int calls) throws IOException {
            long started = cpuNanos();
            for (int i = 0; i < calls; i++) {
                writer.write(line);
                writer.flush();
                readLine(reader, buffer);
            }
            return cpuNanos() - started;
        }

        @Override
        public void close() throws IOException {
            writer.close();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@code calls} client calls after the round's first {@code done} (the resident set noted after the 1,000th, 10,000th and 100,000th): the CPU nanoseconds they took. */
    static long clientCalls(CoprocessClient client, int calls, int done, List<String> rss) throws IOException {
        Coprocess.CallParams params = new Coprocess.CallParams("bench", null, null, null);
        long started = cpuNanos();
        for (int call = done + 1; call <= done + calls; call++) {
            client.call(params);
            if (call == 1_000 || call == 10_000 || call == 100_000) {
                rss.add(rssKib());
            }
        }
        return cpuNanos() - started;
    }

    /**
     * One round: the raw loop and a client session open side by side, {@code calls} calls of each in alternated blocks
     * of {@code block} (which of the two goes first alternates too), so that both see the same state of the machine.
     * The CPU nanoseconds each took: raw, then client.
     */
    static long[] round(Path echo, int calls, int block, List<String> rss) throws IOException {
        long raw = 0;
        long client = 0;
        try (RawLoop loop = new RawLoop(echo);
                CoprocessClient session = CoprocessClient.start(echo, List.of("server"))) {
            rss.clear();
            boolean rawFirst = true;
            for (int done = 0; done < calls; done += block) {
                int n = Math.min(block, calls - done);
                if (rawFirst) {
                    raw += loop.run(n);
                    client += clientCalls(session, n, done, rss);
                } else {
                    client += clientCalls(session, n, done, rss);
                    raw += loop.run(n);
                }
                rawFirst = !rawFirst;
            }
        }
        return new long[] {raw, client};
    }

    /** Microseconds of CPU per call of the best and the median round. */
    private static double[] bestAndMedian(List<Long> rounds, int calls) {
        List<Long> ordered = new ArrayList<>(rounds);
        Collections.sort(ordered);
        return new double[] {ordered.get(0) / 1e3 / calls, ordered.get(ordered.size() / 2) / 1e3 / calls};
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int rounds = args.length > 1 ? Math.max(1, Integer.parseInt(args[1])) : 5;
        Path echo = Path.of(System.getenv("BENCH_ECHO"));
        // Calls of each loop in a row before the other's turn: the process's CPU clock ticks at 10 ms here, so a
        // block is tens of milliseconds.
        String given = System.getenv("BENCH_BLOCK");
        int block = given == null || given.isEmpty() ? 10_000 : Math.max(1, Integer.parseInt(given));
        // Both loops once first, so that both are measured compiled.
        round(echo, 20_000, block, new ArrayList<>());
        List<Long> raws = new ArrayList<>();
        List<Long> clients = new ArrayList<>();
        List<String> rss = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            long[] spent = round(echo, calls, block, rss);
            raws.add(spent[0]);
            clients.add(spent[1]);
        }
        double[] raw = bestAndMedian(raws, calls);
        double[] client = bestAndMedian(clients, calls);
        Locale c = Locale.ROOT;
        System.out.printf(c, "jvm: %d calls x %d rounds in alternated blocks, process CPU (user+system) per call%n", calls, rounds);
        System.out.printf(c, "raw loop: best %.2f us, median %.2f us%n", raw[0], raw[1]);
        System.out.printf(c, "client:   best %.2f us, median %.2f us%n", client[0], client[1]);
        System.out.printf(
                c,
                "client/raw: %.2f (bests), %.2f (medians); added: %.2f us (bests), %.2f us (medians)%n",
                client[0] / raw[0],
                client[1] / raw[1],
                client[0] - raw[0],
                client[1] - raw[1]);
        System.out.println("RSS (KiB) after 1k / 10k / 100k client calls: " + String.join(" / ", rss));
        System.out.printf(
                c,
                "summary jvm %.2f %.2f %.2f %.2f %s%n",
                raw[0],
                raw[1],
                client[0],
                client[1],
                String.join(" ", rss));
        // Each round's raw and client figures, in the order run (bench-all.sh
        // takes the median of the per-round ratios).
        StringBuilder pairs = new StringBuilder("rounds jvm");
        for (int i = 0; i < raws.size(); i++) {
            pairs.append(String.format(c, " %.2f %.2f", raws.get(i) / 1e3 / calls, clients.get(i) / 1e3 / calls));
        }
        System.out.println(pairs);
    }
}
