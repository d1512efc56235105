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
    /// <summary>The benchmark.</summary>
    public static class Bench
    {
        private static long PeakKib()
        {
            using Process self = Process.GetCurrentProcess();
            return self.PeakWorkingSet64 / 1024;
        }

        private static async Task<(double Seconds, List<string> Memory)> ClientLoop(string echo, int calls, bool quiet)
        {
            var parameters = new CallParams("bench");
            var memory = new List<string>();
            await using CoprocessClient client = await CoprocessClient.StartAsync(echo, new[] { "server" });
            var watch = Stopwatch.StartNew();
            for (int done = 1; done <= calls; done++)
            {
                await client.CallAsync(parameters);
                if (!quiet && done % (calls / 4) == 0)
                {
                    memory.Add(done.ToString(CultureInfo.InvariantCulture) + ": " + PeakKib().ToString(CultureInfo.InvariantCulture));
                }
            }
            return (watch.Elapsed.TotalSeconds, memory);
        }

        private static double RawLoop(string echo, int calls)
        {
            var start = new ProcessStartInfo(echo)
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
            };
            using Process process = Process.Start(start) ?? throw new InvalidOperationException("the coprocess did not start");
            Stream writer = process.StandardInput.BaseStream;
            var reader = new StreamReader(process.StandardOutput.BaseStream, new UTF8Encoding(false));
            byte[] hello = Encoding.UTF8.GetBytes(Coprocess.HandshakeRequest(new RequestId(1), "dotnet", "bench") + "\n");
            writer.Write(hello, 0, hello.Length);
            writer.Flush();
            reader.ReadLine();
            var request = new RequestOf<CallParams>(JsonRpcVersion.V2_0, new RequestId(2), Coprocess.Methods.McpCall) { Params = new CallParams("bench") };
            byte[] line = Encoding.UTF8.GetBytes(request.ToJson() + "\n");
            var watch = Stopwatch.StartNew();
            for (int i = 0; i < calls; i++)
            {
                writer.Write(line, 0, line.Length);
                writer.Flush();
                reader.ReadLine();
            }
            double seconds = watch.Elapsed.TotalSeconds;
            writer.Close();
            process.WaitForExit();
            return seconds;
        }

        /// <summary>Runs both loops and prints the figures.</summary>
        public static async Task<int> Main(string[] args)
        {
            string echo = args[0];
            int calls = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 100000;
            // Warm up both paths (the JIT) before measuring.
            RawLoop(echo, Math.Min(calls, 2000));
            await ClientLoop(echo, Math.Min(calls, 2000), true);
            double raw = RawLoop(echo, calls);
            (double client, List<string> memory) = await ClientLoop(echo, calls, false);
            string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
            Console.WriteLine("calls: " + calls);
            Console.WriteLine("raw loop: " + F(calls / raw, "0") + " calls/s (" + F(raw / calls * 1e6, "0.0") + " us/call)");
            Console.WriteLine("client:   " + F(calls / client, "0") + " calls/s (" + F(client / calls * 1e6, "0.0") + " us/call)");
            Console.WriteLine("client/raw time per call: " + F(client / raw, "0.00"));
            Console.WriteLine("peak working set (KiB) after N calls: " + string.Join(", ", memory));
            return 0;
        }
    }
}
