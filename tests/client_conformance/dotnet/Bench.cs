// The .NET client's own CPU per call: the generated client against a coprocess that answers every
// mcp.call at once (tests/client_conformance/echo_coprocess.py), next to a raw loop that writes the
// same request line and reads one line back without decoding. After a warm-up of both (the JIT),
// the two loops alternate in this one process for several rounds; a round's figure is the
// process's CPU time (Process.TotalProcessorTime: every thread) over its calls, so the coprocess
// and the wait on the pipe do not count. Also the resident set after 1k, 10k and 100k client calls.
//   dotnet bench.dll ECHO [CALLS [ROUNDS]]   (see bench.sh; default 100000 5)
#nullable enable

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using Mcptest.Sdk;

namespace Mcptest.ClientBench
{
    /// <summary>The benchmark.</summary>
    public static class Bench
    {
        /// <summary>The process's CPU time so far (all its threads).</summary>
        private static TimeSpan Cpu()
        {
            using Process self = Process.GetCurrentProcess();
            return self.TotalProcessorTime;
        }

        /// <summary>The process's resident set now, in KiB.</summary>
        private static string RssKib()
        {
            using Process self = Process.GetCurrentProcess();
            return (self.WorkingSet64 / 1024).ToString(CultureInfo.InvariantCulture);
        }

        private static TimeSpan RawLoop(string echo, int calls)
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
            TimeSpan started = Cpu();
            for (int i = 0; i < calls; i++)
            {
                writer.Write(line, 0, line.Length);
                writer.Flush();
                reader.ReadLine();
            }
            TimeSpan spent = Cpu() - started;
            writer.Close();
            process.WaitForExit();
            return spent;
        }

        private static async Task<TimeSpan> ClientLoop(string echo, int calls, List<string> rss)
        {
            var parameters = new CallParams("bench");
            await using CoprocessClient client = await CoprocessClient.StartAsync(echo, new[] { "server" });
            rss.Clear();
            TimeSpan started = Cpu();
            for (int done = 1; done <= calls; done++)
            {
                await client.CallAsync(parameters);
                if (done == 1000 || done == 10000 || done == 100000)
                {
                    rss.Add(RssKib());
                }
            }
            return Cpu() - started;
        }

        /// <summary>Microseconds of CPU per call of the best and the median round.</summary>
        private static (double Best, double Median) BestAndMedian(List<TimeSpan> rounds, int calls)
        {
            List<double> ordered = rounds.Select(spent => spent.TotalMilliseconds * 1000 / calls).OrderBy(us => us).ToList();
            return (ordered[0], ordered[ordered.Count / 2]);
        }

        /// <summary>Runs both loops and prints the figures.</summary>
        public static async Task<int> Main(string[] args)
        {
            string echo = args[0];
            int calls = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 100000;
            int rounds = args.Length > 2 ? Math.Max(1, int.Parse(args[2], CultureInfo.InvariantCulture)) : 5;
            // Both loops once first, so that both are measured compiled.
            RawLoop(echo, 20000);
            await ClientLoop(echo, 20000, new List<string>());
            var raws = new List<TimeSpan>();
            var clients = new List<TimeSpan>();
            var rss = new List<string>();
            for (int round = 0; round < rounds; round++)
            {
                raws.Add(RawLoop(echo, calls));
                clients.Add(await ClientLoop(echo, calls, rss));
            }
            (double rawBest, double rawMedian) = BestAndMedian(raws, calls);
            (double clientBest, double clientMedian) = BestAndMedian(clients, calls);
            string F(double value) => value.ToString("0.00", CultureInfo.InvariantCulture);
            Console.WriteLine("dotnet: " + calls + " calls x " + rounds + " alternated rounds, process CPU (user+system) per call");
            Console.WriteLine("raw loop: best " + F(rawBest) + " us, median " + F(rawMedian) + " us");
            Console.WriteLine("client:   best " + F(clientBest) + " us, median " + F(clientMedian) + " us");
            Console.WriteLine(
                "client/raw: " + F(clientBest / rawBest) + " (bests), " + F(clientMedian / rawMedian) + " (medians); added: "
                + F(clientBest - rawBest) + " us (bests), " + F(clientMedian - rawMedian) + " us (medians)");
            Console.WriteLine("RSS (KiB) after 1k / 10k / 100k client calls: " + string.Join(" / ", rss));
            Console.WriteLine(
                "summary dotnet " + F(rawBest) + " " + F(rawMedian) + " " + F(clientBest) + " " + F(clientMedian) + " " + string.Join(" ", rss));
            // Each round's raw and client figures, in the order run (bench-all.sh
            // takes the median of the per-round ratios).
            Console.WriteLine(
                "rounds dotnet " + string.Join(" ", raws.Select((raw, i) => F(raw.TotalMilliseconds * 1000 / calls) + " " + F(clients[i].TotalMilliseconds * 1000 / calls))));
            return 0;
        }
    }
}
