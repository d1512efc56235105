// Issue 36's pattern benchmark on the JVM: every probe of probes.tsv (the
// probe type's name, a tab, a frame whose text is a long string; written by
// pattern_bench_inputs of tests/constraints/proof.rs) decoded by the generated
// decoder of its type, through Coprocess.decode(type, json), the entry the
// testee uses, the given number of times, and as many times as
// PatternProbePlain (the same object without a pattern). One line per probe:
// "<number>\t<best ms>\t<1 decoded, 0 refused>\t<best ms, plain>".

import dev.mcptest.Coprocess;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The benchmark; see the file comment. */
public final class BenchPatterns {
    private BenchPatterns() {}

    /**
     * Runs the benchmark.
     *
     * @param args the probes file and the number of decodes per probe
     * @throws IOException when the probes cannot be read or the lines written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: BenchPatterns PROBES.tsv REPEATS");
            System.exit(2);
        }
        int repeats = Integer.parseInt(args[1]);
        try (BufferedReader probes = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8);
                BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))) {
            int number = 0;
            for (String line = probes.readLine(); line != null; line = probes.readLine(), number++) {
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    throw new IOException("line " + (number + 1) + " of " + args[0] + " has no tab");
                }
                String type = line.substring(0, tab);
                String frame = line.substring(tab + 1);
                double best = bestOf(type, frame, repeats);
                double plain = bestOf("PatternProbePlain", frame, repeats);
                boolean decoded = decodes(type, frame);
                out.write(String.format(Locale.ROOT, "%d\t%.3f\t%d\t%.3f%n", number, best, decoded ? 1 : 0, plain));
            }
        }
    }

    /** The best of {@code repeats} decodes of {@code frame} as {@code type}, in milliseconds. */
    private static double bestOf(String type, String frame, int repeats) {
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < repeats; i++) {
            long started = System.nanoTime();
            decodes(type, frame);
            best = Math.min(best, (System.nanoTime() - started) / 1e6);
        }
        return best;
    }

    private static boolean decodes(String type, String frame) {
        try {
            return Coprocess.decode(type, frame) != null;
        } catch (Coprocess.DecodeException e) {
            return false;
        }
    }
}
