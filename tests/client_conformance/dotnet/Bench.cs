// The .NET client's own CPU per call: the generated client against a coprocess that answers every
// mcp.call at once (tests/client_conformance/echo_coprocess.py), next to a raw loop that writes the
// same request line and reads one line back without decoding. After a warm-up of both (the JIT and
// its background tier-up: see Main), each round opens both side by side in this one process and
// runs their calls in alternated blocks (BENCH_BLOCK, default 1,000 calls), so that both see the
// same state of the machine; a loop's figure is the process's CPU time (every thread's) over its
// blocks, so the coprocess and the wait on the pipe do not count. Also the resident set after 1k, 10k and 100k client calls.
//   dotnet bench.dll ECHO [CALLS [ROUNDS]]   (see bench.sh; default 100000 5)
#nullable enable

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading.Tasks;
using Mcptest.Sdk;

namespace Mcptest.ClientBench
{
    /// <summary>The benchmark.</summary>
    public static class Bench
    {
        /// <summary>Warm-up rounds before the measured ones, each followed by <see cref="WarmUpPause"/>.</summary>
        private const int WarmUpRounds = 5;

        /// <summary>How long the warm-up leaves the thread pool to the runtime's background compiler after each of its rounds.</summary>
        private static readonly TimeSpan WarmUpPause = TimeSpan.FromMilliseconds(200);

        /// <summary>clock_gettime(2)'s clock of the calling process's CPU time (all its threads).</summary>
        private const int ProcessCpuClock = 2;

        /// <summary>
        /// The process's CPU time so far (all its threads), to the nanosecond from
        /// clock_gettime(2) where libc has it: Process.TotalProcessorTime counts the kernel's ticks
        /// of 10 ms, tens of a block's microseconds per call.
        /// </summary>
        private static TimeSpan Cpu()
        {
            try
            {
                if (ClockGetTime(ProcessCpuClock, out TimeSpec now) == 0)
                {
                    return TimeSpan.FromTicks((now.Seconds.ToInt64() * TimeSpan.TicksPerSecond) + (now.Nanoseconds.ToInt64() / 100));
                }
            }
            catch (Exception error) when (error is DllNotFoundException || error is EntryPointNotFoundException)
            {
            }
            using Process self = Process.GetCurrentProcess();
            return self.TotalProcessorTime;
        }

        [DllImport("libc", EntryPoint = "clock_gettime")]
        private static extern int ClockGetTime(int clock, out TimeSpec time);

        /// <summary>clock_gettime(2)'s timespec.</summary>
        [StructLayout(LayoutKind.Sequential)]
        private struct TimeSpec
        {
            public IntPtr Seconds;
            public IntPtr Nanoseconds;
        }

        /// <summary>The process's resident set now, in KiB.</summary>
        private static string RssKib()
        {
            using Process self = Process.GetCurrentProcess();
            return (self.WorkingSet64 / 1024).ToString(CultureInfo.InvariantCulture);
        }

        /// <summary>
        /// The raw loop: the echo coprocess spawned with plain pipes, written the bench's request line
        /// and read one line back, nothing decoded.
        /// </summary>
        private sealed class RawLoop : IDisposable
        {
            private readonly Process process;
            private readonly Stream writer;
            private readonly StreamReader reader;
            private readonly byte[] line;

            internal RawLoop(string echo)
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

            /// <summary><paramref name="calls"/> raw calls: the CPU time they took.</summary>
            internal TimeSpan Run(int calls)
            {
                TimeSpan started = Cpu();
                for (int i = 0; i < calls; i++)
                {
                    writer.Write(line, 0, line.Length);
                    writer.Flush();
                    reader.ReadLine();
                }
                return Cpu() - started;
            }

            public void Dispose()
            {
                writer.Close();
                process.WaitForExit();
                process.Dispose();
            }
        }

        /// <summary>
        /// <paramref name="calls"/> client calls after the round's first <paramref name="done"/> (the
        /// resident set noted after the 1,000th, 10,000th and 100,000th): the CPU time they took.
        /// </summary>
        private static async Task<TimeSpan> ClientCalls(CoprocessClient client, int calls, int done, List<string> rss)
        {
            var parameters = new CallParams("bench");
            TimeSpan started = Cpu();
            for (int call = done + 1; call <= done + calls; call++)
            {
                await client.CallAsync(parameters);
                if (call == 1000 || call == 10000 || call == 100000)
                {
                    rss.Add(RssKib());
                }
            }
            return Cpu() - started;
        }

        /// <summary>
        /// One round: the raw loop and a client session open side by side, <paramref name="calls"/>
        /// calls of each in alternated blocks of <paramref name="block"/> (which of the two goes first
        /// alternates too), so that both see the same state of the machine. The CPU time each took.
        /// </summary>
        private static async Task<(TimeSpan Raw, TimeSpan Client)> Round(string echo, int calls, int block, List<string> rss)
        {
            TimeSpan raw = TimeSpan.Zero;
            TimeSpan client = TimeSpan.Zero;
            using var loop = new RawLoop(echo);
            await using CoprocessClient session = await CoprocessClient.StartAsync(echo, new[] { "server" });
            rss.Clear();
            bool rawFirst = true;
            for (int done = 0; done < calls; done += block)
            {
                int n = Math.Min(block, calls - done);
                if (rawFirst)
                {
                    raw += loop.Run(n);
                    client += await ClientCalls(session, n, done, rss);
                }
                else
                {
                    client += await ClientCalls(session, n, done, rss);
                    raw += loop.Run(n);
                }
                rawFirst = !rawFirst;
            }
            return (raw, client);
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
            // Calls of each loop in a row before the other's turn: a few milliseconds.
            string? given = Environment.GetEnvironmentVariable("BENCH_BLOCK");
            int block = string.IsNullOrEmpty(given) ? 1000 : Math.Max(1, int.Parse(given, CultureInfo.InvariantCulture));
            // Both loops first, so that both are measured compiled, optimized: the runtime compiles
            // a hot method's optimized code (tier 1) in the background, on a thread-pool thread. A
            // loop whose awaits all complete at once keeps its pool thread, and on one CPU the pool
            // has one, so the warm-up hands the pool its thread back between its rounds. (bench.sh
            // also has the runtime count calls at once: see there.)
            for (int i = 0; i < WarmUpRounds; i++)
            {
                await Round(echo, 5000, block, new List<string>());
                await Task.Delay(WarmUpPause);
            }
            var raws = new List<TimeSpan>();
            var clients = new List<TimeSpan>();
            var rss = new List<string>();
            for (int i = 0; i < rounds; i++)
            {
                (TimeSpan raw, TimeSpan client) = await Round(echo, calls, block, rss);
                raws.Add(raw);
                clients.Add(client);
            }
            (double rawBest, double rawMedian) = BestAndMedian(raws, calls);
            (double clientBest, double clientMedian) = BestAndMedian(clients, calls);
            string F(double value) => value.ToString("0.00", CultureInfo.InvariantCulture);
            Console.WriteLine("dotnet: " + calls + " calls x " + rounds + " rounds in alternated blocks, process CPU (user+system) per call");
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
