// The JVM client's own CPU per call: the generated client against a coprocess
// that answers every `mcp.call` at once (tests/client_conformance/echo_coprocess.py),
// next to a raw loop that writes the same request line and reads one line back
// without decoding. After a warm-up of both (the JIT), the two loops alternate in
// this one process for several rounds; a round's figure is the process's CPU
// time (OperatingSystemMXBean: every thread, the JIT's and the GC's too) over
// its calls, so the coprocess and the wait on the pipe do not count. Also the
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

    static long rawLoop(Path echo, int calls) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(echo.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        OutputStream writer = process.getOutputStream();
        InputStream reader = process.getInputStream();
        byte[] buffer = new byte[65536];
        writer.write((Coprocess.handshakeRequest(1, "jvm", "bench") + "\n").getBytes(StandardCharsets.UTF_8));
        writer.flush();
        readLine(reader, buffer);
        Coprocess.RequestOf<Coprocess.CallParams> request =
                new Coprocess.RequestOf<>(
                        Coprocess.JsonRpcVersion.V2_0,
                        Coprocess.RequestId.of(2),
                        Coprocess.Methods.MCP_CALL,
                        new Coprocess.CallParams("bench", null, null, null));
        byte[] line = (request.toJson() + "\n").getBytes(StandardCharsets.UTF_8);
        long started = cpuNanos();
        for (int i = 0; i < calls; i++) {
            writer.write(line);
            writer.flush();
            readLine(reader, buffer);
        }
        long spent = cpuNanos() - started;
        writer.close();
        process.waitFor();
        return spent;
    }

    static long clientLoop(Path echo, int calls, List<String> rss) throws IOException {
        Coprocess.CallParams params = new Coprocess.CallParams("bench", null, null, null);
        long spent;
        try (CoprocessClient client = CoprocessClient.start(echo, List.of("server"))) {
            rss.clear();
            long started = cpuNanos();
            for (int done = 1; done <= calls; done++) {
                client.call(params);
                if (done == 1_000 || done == 10_000 || done == 100_000) {
                    rss.add(rssKib());
                }
            }
            spent = cpuNanos() - started;
        }
        return spent;
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
        // Both loops once first, so that both are measured compiled.
        rawLoop(echo, 20_000);
        clientLoop(echo, 20_000, new ArrayList<>());
        List<Long> raws = new ArrayList<>();
        List<Long> clients = new ArrayList<>();
        List<String> rss = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            raws.add(rawLoop(echo, calls));
            clients.add(clientLoop(echo, calls, rss));
        }
        double[] raw = bestAndMedian(raws, calls);
        double[] client = bestAndMedian(clients, calls);
        Locale c = Locale.ROOT;
        System.out.printf(c, "jvm: %d calls x %d alternated rounds, process CPU (user+system) per call%n", calls, rounds);
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
