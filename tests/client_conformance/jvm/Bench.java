// Calls per second through the generated JVM client against a coprocess that
// answers every `mcp.call` at once (tests/client_conformance/echo_coprocess.py),
// next to a raw loop that writes the same request line and reads one line back
// without decoding; and the peak memory (the process's peak RSS, VmHWM, and the
// heap in use after a GC) over the calls.
//
//     bench.sh [CALLS]      (default 100000)

import dev.mcptest.Coprocess;
import dev.mcptest.CoprocessClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The benchmark. */
public final class Bench {
    private Bench() {}

    private static long peakRssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    private static long heapKib() {
        Runtime runtime = Runtime.getRuntime();
        System.gc();
        return (runtime.totalMemory() - runtime.freeMemory()) / 1024;
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

    static double rawLoop(Path echo, int calls) throws IOException, InterruptedException {
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
        long started = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            writer.write(line);
            writer.flush();
            readLine(reader, buffer);
        }
        long elapsed = System.nanoTime() - started;
        writer.close();
        process.waitFor();
        return elapsed / 1e9;
    }

    static double clientLoop(Path echo, int calls, List<String> memory) throws IOException {
        Coprocess.CallParams params = new Coprocess.CallParams("bench", null, null, null);
        long elapsed;
        try (CoprocessClient client = CoprocessClient.start(echo, List.of("server"))) {
            long started = System.nanoTime();
            long paused = 0;
            for (int done = 1; done <= calls; done++) {
                client.call(params);
                if (done % (calls / 4) == 0) {
                    long before = System.nanoTime();
                    memory.add(done + ": " + peakRssKib() + " KiB peak RSS, " + heapKib() + " KiB heap");
                    paused += System.nanoTime() - before;
                }
            }
            elapsed = System.nanoTime() - started - paused;
        }
        return elapsed / 1e9;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Path echo = Path.of(System.getenv("BENCH_ECHO"));
        // Both loops once briefly first, so that both are measured compiled; then five
        // rounds, the two loops alternated (the machine is shared), the best of each kept.
        rawLoop(echo, Math.min(calls, 20_000));
        clientLoop(echo, Math.min(calls, 20_000), new ArrayList<>());
        double raw = Double.MAX_VALUE;
        double client = Double.MAX_VALUE;
        List<String> memory = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            raw = Math.min(raw, rawLoop(echo, calls));
            memory.clear();
            client = Math.min(client, clientLoop(echo, calls, memory));
        }
        System.out.printf("calls: %d (best of 5 rounds)%n", calls);
        System.out.printf("raw loop: %.0f calls/s (%.1f us/call)%n", calls / raw, raw / calls * 1e6);
        System.out.printf("client:   %.0f calls/s (%.1f us/call)%n", calls / client, client / calls * 1e6);
        System.out.printf("client/raw time per call: %.2f%n", client / raw);
        System.out.println("memory after N calls: " + String.join("; ", memory));
    }
}
