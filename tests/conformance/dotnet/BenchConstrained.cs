// Decode throughput of the constrained frame, Turn of the golden constraints
// output (codegen/tests/golden/constraints), through the generated strict
// decoder (every length, pattern, range, item and divisor constraint checked)
// against a plain JsonDocument.Parse of the same text, with the method of
// Bench.cs. Prints one markdown row.
#nullable enable

using System;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Mcptest.Sdk;

namespace Mcptest.Conformance
{
    public static class BenchConstrained
    {
        // The constrained frame, the same text in every language's bench.
        private const string TurnFrame = "{\"tool\":\"search_docs\",\"server\":\"https://example.com/mcp\",\"max_turns\":12,\"rules\":[\"no_network\",\"read_only\",\"cite_sources\"],\"budget_ms\":30000}";

        public static void Main()
        {
            if (Turn.Decode(TurnFrame).BudgetMs != 30000)
            {
                throw new InvalidOperationException("the Turn frame did not decode to its budget");
            }
            Row("Turn (constrained)", TurnFrame, text => Turn.Decode(text));
        }

        private static void Row(string frame, string text, Action<string> strict)
        {
            Action<string> plain = t =>
            {
                using (JsonDocument.Parse(t))
                {
                }
            };
            double strictRate = Rate(strict, text);
            double plainRate = Rate(plain, text);
            strictRate = Math.Max(strictRate, Rate(strict, text));
            plainRate = Math.Max(plainRate, Rate(plain, text));
            Console.WriteLine(string.Format(CultureInfo.InvariantCulture, "| dotnet | {0} | {1:N0} | {2:N0} | {3:F2} |",
                frame, strictRate, plainRate, plainRate / strictRate));
        }

        private static double Rate(Action<string> decode, string text)
        {
            for (int i = 0; i < 20000; i++)
            {
                decode(text);
            }
            const int n = 200000;
            var clock = Stopwatch.StartNew();
            for (int i = 0; i < n; i++)
            {
                decode(text);
            }
            return n / clock.Elapsed.TotalSeconds;
        }
    }
}
