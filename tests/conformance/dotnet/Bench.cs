// Decode throughput of the generated strict decoders against a plain
// JsonDocument.Parse of the same text. Prints one markdown row per frame.
#nullable enable

using System;
using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Mcptest.Sdk;

namespace Mcptest.Conformance
{
    public static class Bench
    {
        private const string Handshake = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"coprocess/handshake\",\"params\":{\"protocol_version\":2,\"sdk\":\"dotnet\",\"sdk_version\":\"0.1.0\"}}";
        private const string Call = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"mcp.call\",\"params\":{\"tool\":\"search\",\"arguments\":{\"query\":\"weather in Paris\",\"limit\":10,\"filters\":{\"lang\":\"en\",\"safe\":true}},\"timeout_ms\":30000}}";
        private const string Verdict = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"success\":true,\"data\":{\"items\":[{\"title\":\"Paris\",\"temp\":21.5},{\"title\":\"Lyon\",\"temp\":19}]},\"text\":\"Sunny, 21.5 C\",\"error\":null,\"duration_ms\":42}}";

        public static void Main()
        {
            Row("handshake Request (RequestOf<HandshakeParams>)", Handshake, text => RequestOf<HandshakeParams>.Decode(text));
            Row("mcp.call Request (RequestOf<CallParams>)", Call, text => RequestOf<CallParams>.Decode(text));
            Row("Response with Verdict (ResponseOf<CallResult>)", Verdict, text => ResponseOf<CallResult>.Decode(text));
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
