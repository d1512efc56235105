// Issue 36's pattern benchmark in .NET: every probe of probes.tsv (the probe
// type's name, a tab, a frame whose text is a long string; written by
// pattern_bench_inputs of tests/constraints/proof.rs) decoded by the generated
// decoder of its type, through Coprocess.Decode(type, json), the entry the
// testee uses, the given number of times, and as many times as
// PatternProbePlain (the same object without a pattern). One line per probe:
// "<number>\t<best ms>\t<1 decoded, 0 refused>\t<best ms, plain>".
#nullable enable

using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Text;
using Mcptest.Sdk;

namespace Mcptest.Conformance
{
    public static class BenchPatterns
    {
        public static int Main(string[] args)
        {
            if (args.Length != 2 || !int.TryParse(args[1], NumberStyles.None, CultureInfo.InvariantCulture, out int repeats) || repeats < 1)
            {
                Console.Error.WriteLine("usage: bench-patterns PROBES.tsv REPEATS");
                return 2;
            }
            using var probes = new StreamReader(args[0], new UTF8Encoding(false, true));
            using var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
            int number = 0;
            for (string? line = probes.ReadLine(); line != null; line = probes.ReadLine(), number++)
            {
                int tab = line.IndexOf('\t');
                if (tab < 0)
                {
                    Console.Error.WriteLine("bench-patterns: line " + (number + 1).ToString(CultureInfo.InvariantCulture) + " has no tab");
                    return 2;
                }
                string type = line.Substring(0, tab);
                string frame = line.Substring(tab + 1);
                double best = BestOf(type, frame, repeats);
                double plain = BestOf("PatternProbePlain", frame, repeats);
                bool decoded = Decodes(type, frame);
                output.Write(string.Format(CultureInfo.InvariantCulture, "{0}\t{1:F3}\t{2}\t{3:F3}\n", number, best, decoded ? 1 : 0, plain));
            }
            return 0;
        }

        private static double BestOf(string type, string frame, int repeats)
        {
            double best = double.PositiveInfinity;
            for (int i = 0; i < repeats; i++)
            {
                var watch = Stopwatch.StartNew();
                Decodes(type, frame);
                best = Math.Min(best, watch.Elapsed.TotalMilliseconds);
            }
            return best;
        }

        private static bool Decodes(string type, string frame)
        {
            try
            {
                return Coprocess.Decode(type, frame) != null;
            }
            catch (CoprocessDecodeException)
            {
                return false;
            }
        }
    }
}
