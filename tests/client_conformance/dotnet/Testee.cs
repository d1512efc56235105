// The .NET client's testee for the client conformance suite. Runs every scenario of
// CLIENT_SCENARIOS with the generated client, Mcptest.Sdk.CoprocessClient, against the scripted
// fake (CLIENT_FAKE) or the real binary (CLIENT_BINARY), and prints one JSON line per scenario:
// its name and one outcome per step (a list of outcomes for a `parallel` step). See
// docs/client-scenarios.md and tests/client_conformance.rs.
#nullable enable

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text;
using System.Text.Json;
using System.Threading;
using System.Threading.Tasks;
using Mcptest.Sdk;

namespace Mcptest.ClientConformance
{
    /// <summary>One step's outcome, as JSON members in order.</summary>
    public sealed class Outcome
    {
        private readonly List<KeyValuePair<string, string>> members = new List<KeyValuePair<string, string>>();

        /// <summary>An outcome of that kind.</summary>
        public Outcome(string kind)
        {
            Add("kind", Quote(kind));
        }

        /// <summary>Adds a member whose value is JSON text.</summary>
        public Outcome Add(string key, string json)
        {
            members.Add(new KeyValuePair<string, string>(key, json));
            return this;
        }

        /// <summary>A JSON string literal.</summary>
        public static string Quote(string? text) => text == null ? "null" : JsonSerializer.Serialize(text);

        /// <summary>The outcome as one JSON object.</summary>
        public override string ToString()
        {
            return "{" + string.Join(",", members.Select(m => Quote(m.Key) + ":" + m.Value)) + "}";
        }
    }

    /// <summary>One scenario, run step by step.</summary>
    public sealed class ScenarioRun
    {
        private readonly JsonElement scenario;
        private readonly string file;
        private CoprocessClient? client;
        private Process? process;

        /// <summary>Prepares the run.</summary>
        public ScenarioRun(JsonElement scenario, string file)
        {
            this.scenario = scenario;
            this.file = file;
        }

        private static string Env(string name) => Environment.GetEnvironmentVariable(name) ?? throw new InvalidOperationException(name + " is not set");

        /// <summary>The client method of a wire name: <c>mcp.listTools</c> → <c>ListToolsAsync</c>.</summary>
        public static string MethodName(string wire)
        {
            var name = new StringBuilder();
            foreach (string segment in wire.Split('.').Skip(1))
            {
                foreach (string word in segment.Split('_'))
                {
                    if (word.Length > 0)
                    {
                        name.Append(char.ToUpperInvariant(word[0])).Append(word.Substring(1));
                    }
                }
            }
            return name.Append("Async").ToString();
        }

        private static Outcome Failure(Exception error)
        {
            Outcome outcome;
            switch (error)
            {
                case CoprocessVersionException version:
                    return new Outcome("handshake_error").Add("message", Outcome.Quote(version.Message));
                case RpcException rpc:
                    outcome = new Outcome("rpc_error")
                        .Add("code", rpc.Code.ToString(System.Globalization.CultureInfo.InvariantCulture))
                        .Add("name", Outcome.Quote(rpc.Name))
                        .Add("data", rpc.ErrorData?.GetRawText() ?? "null");
                    break;
                case ProtocolException _:
                    outcome = new Outcome("protocol_error");
                    break;
                case CallTimeoutException _:
                    outcome = new Outcome("timeout");
                    break;
                case SessionClosedException _:
                    outcome = new Outcome("closed");
                    break;
                case SpawnException _:
                    outcome = new Outcome("spawn_error");
                    break;
                case CoprocessExitedException exited:
                    outcome = new Outcome("exited")
                        .Add("status", exited.Status?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "null")
                        .Add("stderr", "[" + string.Join(",", exited.Stderr.Select(Outcome.Quote)) + "]");
                    break;
                default:
                    return new Outcome("crash").Add("message", Outcome.Quote(error.GetType().Name + ": " + error.Message));
            }
            var failed = (CoprocessClientException)error;
            return outcome.Add("message", Outcome.Quote(failed.Message)).Add("detail", Outcome.Quote(failed.Detail));
        }

        private async Task<Outcome> StartAsync(JsonElement options)
        {
            string root = Env("CLIENT_ROOT");
            bool named = scenario.TryGetProperty("coprocess", out JsonElement kind);
            string binary = named && kind.ValueKind == JsonValueKind.Object
                ? Path.Combine(root, kind.GetProperty("path").GetString() ?? string.Empty)
                : named && kind.GetString() == "binary" ? Env("CLIENT_BINARY") : Env("CLIENT_FAKE");
            var argv = new List<string>();
            if (scenario.TryGetProperty("server", out JsonElement server))
            {
                foreach (JsonElement item in server.EnumerateArray())
                {
                    argv.Add(item.ValueKind == JsonValueKind.Object ? Path.Combine(root, item.GetProperty("path").GetString() ?? string.Empty) : item.GetString() ?? string.Empty);
                }
            }
            else
            {
                argv.Add("server");
            }
            var env = new Dictionary<string, string>();
            System.Collections.IDictionary inherited = Environment.GetEnvironmentVariables();
            foreach (object? key in inherited.Keys)
            {
                if (key is string name && inherited[name] is string value)
                {
                    env[name] = value;
                }
            }
            env["CLIENT_SCENARIOS"] = file;
            env["CLIENT_SCENARIO"] = scenario.GetProperty("name").GetString() ?? string.Empty;
            var settings = new CoprocessClientOptions { Environment = env };
            if (options.TryGetProperty("timeout_ms", out JsonElement timeout))
            {
                settings.Timeout = TimeSpan.FromMilliseconds(timeout.GetDouble());
            }
            if (options.TryGetProperty("start_timeout_ms", out JsonElement startTimeout))
            {
                settings.StartTimeout = TimeSpan.FromMilliseconds(startTimeout.GetDouble());
            }
            if (options.TryGetProperty("close_timeout_ms", out JsonElement closeTimeout))
            {
                settings.CloseTimeout = TimeSpan.FromMilliseconds(closeTimeout.GetDouble());
            }
            if (scenario.TryGetProperty("transport", out JsonElement transport) && transport.GetString() == "streams")
            {
                var start = new ProcessStartInfo(binary)
                {
                    UseShellExecute = false,
                    RedirectStandardInput = true,
                    RedirectStandardOutput = true,
                };
                foreach (string argument in new[] { "exec", "--connection-server", "--server-command", CoprocessClient.ServerCommand(argv) })
                {
                    start.ArgumentList.Add(argument);
                }
                start.Environment.Clear();
                foreach (KeyValuePair<string, string> pair in env)
                {
                    start.Environment[pair.Key] = pair.Value;
                }
                process = Process.Start(start) ?? throw new InvalidOperationException("the coprocess did not start");
                client = await CoprocessClient.OverStreamsAsync(process.StandardOutput.BaseStream, process.StandardInput.BaseStream, settings);
            }
            else
            {
                client = await CoprocessClient.StartAsync(binary, argv, settings);
            }
            return new Outcome("ok");
        }

        private async Task<Outcome> CallAsync(JsonElement step)
        {
            string wire = step.GetProperty("call").GetString() ?? string.Empty;
            MethodSpec spec = Coprocess.MethodTable.First(row => row.Name == wire);
            object? parameters = step.TryGetProperty("params", out JsonElement given) ? Coprocess.Decode(spec.ParamsType.Name, given.GetRawText()) : null;
            TimeSpan? timeout = step.TryGetProperty("timeout_ms", out JsonElement ms) ? TimeSpan.FromMilliseconds(ms.GetDouble()) : (TimeSpan?)null;
            if (client == null)
            {
                return new Outcome("crash").Add("message", Outcome.Quote("no client: the scenario's start failed"));
            }
            MethodInfo method = typeof(CoprocessClient).GetMethod(MethodName(wire)) ?? throw new InvalidOperationException("no client method for " + wire);
            Task task;
            try
            {
                task = (Task)(method.Invoke(client, new object?[] { parameters, timeout, CancellationToken.None }) ?? throw new InvalidOperationException("no task"));
            }
            catch (TargetInvocationException error) when (error.InnerException != null)
            {
                throw error.InnerException;
            }
            await task;
            object result = task.GetType().GetProperty("Result")?.GetValue(task) ?? throw new InvalidOperationException("no result");
            var outcome = new Outcome("ok").Add("result", Coprocess.Encode(result));
            if (result is CallResult callResult)
            {
                CallOutcome read = CallOutcome.Of(callResult);
                string success = read.Success ? "true" : "false";
                outcome.Add("call_outcome", "{\"success\":" + success + ",\"text\":" + Outcome.Quote(read.Text) + ",\"error\":" + Outcome.Quote(read.Error) + "}");
            }
            return outcome;
        }

        private async Task<Outcome> StepAsync(JsonElement step)
        {
            var watch = Stopwatch.StartNew();
            Outcome outcome;
            try
            {
                if (step.TryGetProperty("start", out JsonElement start))
                {
                    outcome = await StartAsync(start);
                }
                else if (step.TryGetProperty("call", out _))
                {
                    outcome = await CallAsync(step);
                }
                else
                {
                    if (client != null)
                    {
                        await client.CloseAsync();
                    }
                    outcome = new Outcome("ok");
                }
            }
            catch (Exception error)
            {
                outcome = Failure(error);
            }
            double elapsed = Math.Round(watch.Elapsed.TotalMilliseconds, 1);
            return outcome.Add("elapsed_ms", elapsed.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture));
        }

        /// <summary>Runs every step; the steps' outcomes as a JSON array.</summary>
        public async Task<string> RunAsync()
        {
            var results = new List<string>();
            try
            {
                foreach (JsonElement step in scenario.GetProperty("steps").EnumerateArray())
                {
                    if (step.TryGetProperty("parallel", out JsonElement calls))
                    {
                        Task<Outcome>[] tasks = calls.EnumerateArray().Select(call => Task.Run(() => StepAsync(call))).ToArray();
                        Outcome[] outcomes = await Task.WhenAll(tasks);
                        results.Add("[" + string.Join(",", outcomes.Select(o => o.ToString())) + "]");
                    }
                    else
                    {
                        results.Add((await StepAsync(step)).ToString());
                    }
                }
            }
            finally
            {
                if (client != null)
                {
                    await client.CloseAsync();
                }
                if (process != null)
                {
                    try
                    {
                        process.Kill();
                    }
                    catch (InvalidOperationException)
                    {
                        // It has exited.
                    }
                    process.WaitForExit();
                }
            }
            return "[" + string.Join(",", results) + "]";
        }
    }

    /// <summary>The testee: every scenario of <c>CLIENT_SCENARIOS</c>, one line each.</summary>
    public static class Testee
    {
        /// <summary>Runs the scenarios.</summary>
        public static async Task<int> Main()
        {
            string file = Environment.GetEnvironmentVariable("CLIENT_SCENARIOS") ?? throw new InvalidOperationException("CLIENT_SCENARIOS is not set");
            using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(file));
            foreach (JsonElement scenario in document.RootElement.GetProperty("scenarios").EnumerateArray())
            {
                string steps = await new ScenarioRun(scenario, file).RunAsync();
                string name = scenario.GetProperty("name").GetString() ?? string.Empty;
                Console.Out.Write("{\"scenario\":" + Outcome.Quote(name) + ",\"steps\":" + steps + "}\n");
                Console.Out.Flush();
            }
            return 0;
        }
    }
}
