// Calls per second through the generated .NET client against a coprocess that answers every
// mcp.call at once (tests/client_conformance/echo_coprocess.py), next to a raw loop that writes the
// same request line and reads one line back without decoding; and the peak memory over the calls.
//   dotnet bench.dll ECHO [CALLS]   (see bench.sh; default 100000 calls)
#nullable enable

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Text;
using System.Threading.Tasks;
using Mcptest.Sdk;

namespace Mcptest.ClientBench
{
    /// <summary>
    /// The benchmark. The machine may be shared, so the two loops take turns: ten rounds, each a
    /// tenth of the calls through the raw loop, then as many through the client, both on one
    /// coprocess each for the whole run. Reported: the whole time of each, and its best round.
    /// </summary>
    public static class Bench
    {
        private const int Rounds = 10;

        private static long PeakKib()
        {
            using Process self = Process.GetCurrentProcess();
            return self.PeakWorkingSet64 / 1024;
        }

        /// <summary>The raw loop's coprocess, handshaken, and the request line it writes.</summary>
        private sealed class Raw : IDisposable
        {
            private readonly Process process;
            private readonly Stream writer;
            private readonly StreamReader reader;
            private readonly byte[] line;

            public Raw(string echo)
            {
                var start = new ProcessStartInfo(echo)
                {
                    UseShellExecute = false,
                    RedirectStandardInput = true,
                    RedirectStandardOutput = true,
                };
                process = Process.Start(start) ?? throw new InvalidOperationException("the coprocess did not start");
                writer = process.StandardInput.BaseStream;
                reader = new StreamReader(process.StandardOutput.BaseStream, new UTF8Encoding(false));
                byte[] hello = Encoding.UTF8.GetBytes(Coprocess.HandshakeRequest(new RequestId(1), "dotnet", "bench") + "\n");
                writer.Write(hello, 0, hello.Length);
                writer.Flush();
                reader.ReadLine();
                var request = new RequestOf<CallParams>(JsonRpcVersion.V2_0, new RequestId(2), Coprocess.Methods.McpCall) { Params = new CallParams("bench") };
                line = Encoding.UTF8.GetBytes(request.ToJson() + "\n");
            }

            public double Loop(int calls)
            {
                var watch = Stopwatch.StartNew();
                for (int i = 0; i < calls; i++)
                {
                    writer.Write(line, 0, line.Length);
                    writer.Flush();
                    reader.ReadLine();
                }
                return watch.Elapsed.TotalSeconds;
            }

            public void Dispose()
            {
                writer.Close();
                process.WaitForExit();
                process.Dispose();
            }
        }

        private static async Task<double> ClientLoop(CoprocessClient client, CallParams parameters, int calls, int before, int total, List<string> memory)
        {
            var watch = Stopwatch.StartNew();
            for (int i = 1; i <= calls; i++)
            {
                await client.CallAsync(parameters);
                int done = before + i;
                if (memory.Count < 4 && done % (total / 4) == 0)
                {
                    memory.Add(done.ToString(CultureInfo.InvariantCulture) + ": " + PeakKib().ToString(CultureInfo.InvariantCulture));
                }
            }
            return watch.Elapsed.TotalSeconds;
        }

        /// <summary>Runs both loops and prints the figures.</summary>
        public static async Task<int> Main(string[] args)
        {
            string echo = args[0];
            int calls = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 100000;
            int chunk = Math.Max(1, calls / Rounds);
            var parameters = new CallParams("bench");
            var memory = new List<string>();
            using var raw = new Raw(echo);
            await using CoprocessClient client = await CoprocessClient.StartAsync(echo, new[] { "server" });
            // Warm up both paths (the JIT) before measuring.
            raw.Loop(2000);
            await ClientLoop(client, parameters, 2000, 0, int.MaxValue, new List<string>());
            double rawTotal = 0;
            double clientTotal = 0;
            double rawBest = double.MaxValue;
            double clientBest = double.MaxValue;
            for (int round = 0; round < Rounds; round++)
            {
                double rawTime = raw.Loop(chunk);
                double clientTime = await ClientLoop(client, parameters, chunk, round * chunk, chunk * Rounds, memory);
                rawTotal += rawTime;
                clientTotal += clientTime;
                rawBest = Math.Min(rawBest, rawTime);
                clientBest = Math.Min(clientBest, clientTime);
            }
            int measured = chunk * Rounds;
            string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
            string Us(double seconds, int count) => F(seconds / count * 1e6, "0.0") + " us/call";
            Console.WriteLine("calls: " + measured + " each, in " + Rounds + " alternating rounds");
            Console.WriteLine("raw loop: " + F(measured / rawTotal, "0") + " calls/s (" + Us(rawTotal, measured) + "; best round " + Us(rawBest, chunk) + ")");
            Console.WriteLine("client:   " + F(measured / clientTotal, "0") + " calls/s (" + Us(clientTotal, measured) + "; best round " + Us(clientBest, chunk) + ")");
            Console.WriteLine("client/raw time per call: " + F(clientTotal / rawTotal, "0.00") + " (best rounds: " + F(clientBest / rawBest, "0.00") + ")");
            Console.WriteLine("peak working set (KiB) after N client calls: " + string.Join(", ", memory));
            return 0;
        }
    }
}
