// The .NET end-to-end client: drives the mcptest coprocess with the generated
// Coprocess.cs and the base class library only. Every request line is built
// with the generated types and encoders, every response line decoded with the
// generated strict decoders. The scenario and the coprocess come from the
// environment (see tests/e2e.rs); the report is one JSON line on stdout.
#nullable enable

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.Json;
using Mcptest.Sdk;

namespace Mcptest.E2e
{
    /// <summary>The scenario cannot go on; the message says what happened.</summary>
    public sealed class FailedException : Exception
    {
        /// <summary>Creates the failure.</summary>
        public FailedException(string message)
            : base(message)
        {
        }
    }

    /// <summary>The coprocess and a minimal stdio loop: write one line, read one line.</summary>
    public sealed class Session
    {
        private const string Sdk = "dotnet";
        private const string SdkVersion = "0.0.0-e2e";
        private const int ExitTimeoutMs = 20000;
        private readonly Process process;
        private readonly StreamWriter stdin;
        private readonly StreamReader stdout;
        private long nextId = 1;

        /// <summary>Starts the coprocess.</summary>
        public Session(IReadOnlyList<string> argv)
        {
            if (argv.Count == 0)
            {
                throw new FailedException("MCPTEST_ARGV is empty");
            }
            var start = new ProcessStartInfo(argv[0])
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = false,
            };
            foreach (string arg in argv.Skip(1))
            {
                start.ArgumentList.Add(arg);
            }
            process = Process.Start(start) ?? throw new FailedException("the coprocess did not start");
            var utf8 = new UTF8Encoding(false);
            stdin = new StreamWriter(process.StandardInput.BaseStream, utf8) { NewLine = "\n", AutoFlush = false };
            stdout = new StreamReader(process.StandardOutput.BaseStream, utf8);
        }

        /// <summary>Writes one line, reads the answer line.</summary>
        public string Exchange(string line)
        {
            stdin.Write(line);
            stdin.Write('\n');
            stdin.Flush();
            // ReadLine strips "\n" and a "\r" before it.
            return stdout.ReadLine() ?? throw new FailedException("the coprocess closed its stdout without answering");
        }

        private RequestId TakeId() => new RequestId(nextId++);

        /// <summary>The handshake, checked by the generated helper.</summary>
        public HandshakeResult Handshake()
        {
            return Coprocess.CheckHandshakeResponse(Exchange(Coprocess.HandshakeRequest(TakeId(), Sdk, SdkVersion)));
        }

        /// <summary>
        /// Sends <paramref name="method"/> with <paramref name="paramsJson"/> (the generated
        /// encoder's text of the method's params, or null) and decodes the result with
        /// <paramref name="decode"/>, the method's result decoder.
        /// </summary>
        public T Call<T>(string method, string? paramsJson, Func<JsonElement, T> decode)
        {
            MethodSpec spec = Coprocess.MethodTable.First(row => row.Name == method);
            if (spec.ResultType != typeof(T))
            {
                throw new FailedException(method + " answers " + spec.ResultType.Name + ", not " + typeof(T).Name);
            }
            RequestId id = TakeId();
            var request = new Request(JsonRpcVersion.V2_0, id, method);
            if (paramsJson != null)
            {
                request.Params = Params.Decode(paramsJson);
            }
            Response response = Response.Decode(Exchange(request.ToJson()));
            ErrorResponse? failure = response.ErrorResponse;
            if (failure != null)
            {
                throw new FailedException(method + " answered " + failure.Error.Code + ": " + failure.Error.Message);
            }
            SuccessResponse success = response.SuccessResponse!;
            if (success.Id.ToJson() != id.ToJson())
            {
                throw new FailedException(method + ": answer has id " + success.Id.ToJson() + ", request had " + id.ToJson());
            }
            return decode(success.Result);
        }

        /// <summary>Closes the coprocess's stdin (end of input).</summary>
        public void CloseStdin() => stdin.Close();

        /// <summary>Waits for the coprocess to exit; its exit code.</summary>
        public int WaitExit()
        {
            if (!process.WaitForExit(ExitTimeoutMs))
            {
                throw new FailedException("the coprocess did not exit within " + ExitTimeoutMs + " ms");
            }
            return process.ExitCode;
        }

        /// <summary>Kills the coprocess if it still runs.</summary>
        public void Kill()
        {
            if (!process.HasExited)
            {
                process.Kill();
            }
        }
    }

    /// <summary>The client: one scenario per run.</summary>
    public static class Client
    {
        private static string Env(string name)
        {
            return Environment.GetEnvironmentVariable(name) ?? throw new FailedException(name + " is not set");
        }

        private static string Quote(string text) => JsonSerializer.Serialize(text);

        private static string ToolNames(ListToolsResult tools)
        {
            IEnumerable<string> names = tools.Tools.Select(tool => tool.TryGetValue("name", out JsonElement name) ? name.GetRawText() : "null");
            return "[" + string.Join(",", names) + "]";
        }

        private static string Full(Session session)
        {
            HandshakeResult handshake = session.Handshake();
            InitializeResult initialize = session.Call(Coprocess.Methods.McpInitialize, null, InitializeResult.FromJson);
            ListToolsResult tools = session.Call(Coprocess.Methods.McpListTools, null, ListToolsResult.FromJson);
            var callParams = new CallParams(Env("E2E_TOOL")) { Arguments = McpObject.Decode(Env("E2E_TOOL_ARGS")) };
            CallResult call = session.Call(Coprocess.Methods.McpCall, callParams.ToJson(), CallResult.FromJson);
            var resourceParams = new ReadResourceParams(Env("E2E_RESOURCE_URI"));
            ReadResourceResult resource = session.Call(Coprocess.Methods.McpReadResource, resourceParams.ToJson(), ReadResourceResult.FromJson);
            var promptParams = new CallPromptParams(Env("E2E_PROMPT")) { Arguments = PromptArguments.Decode(Env("E2E_PROMPT_ARGS")) };
            CallPromptResult prompt = session.Call(Coprocess.Methods.McpCallPrompt, promptParams.ToJson(), CallPromptResult.FromJson);
            ShutdownResult shutdown = session.Call(Coprocess.Methods.McpShutdown, null, ShutdownResult.FromJson);
            int exitCode = session.WaitExit();
            return "{\"scenario\":\"full\""
                + ",\"handshake\":" + handshake.ToJson()
                + ",\"initialize\":" + initialize.ToJson()
                + ",\"tools\":" + ToolNames(tools)
                + ",\"call\":" + call.ToJson()
                + ",\"resource\":" + resource.ToJson()
                + ",\"prompt\":" + prompt.ToJson()
                + ",\"shutdown\":" + shutdown.ToJson()
                + ",\"exit_code\":" + exitCode + "}";
        }

        private static string HandshakeOnly(Session session)
        {
            string report;
            try
            {
                report = "{\"scenario\":\"handshake\",\"ok\":true,\"value\":" + session.Handshake().ToJson() + "}";
            }
            catch (CoprocessVersionException e)
            {
                report = "{\"scenario\":\"handshake\",\"ok\":false,\"error\":" + Quote(e.Message) + "}";
            }
            session.CloseStdin();
            session.WaitExit();
            return report;
        }

        private static string NoHandshake(Session session)
        {
            ListToolsResult tools = session.Call(Coprocess.Methods.McpListTools, null, ListToolsResult.FromJson);
            session.Call(Coprocess.Methods.McpShutdown, null, ShutdownResult.FromJson);
            return "{\"scenario\":\"no_handshake\",\"tools\":" + ToolNames(tools) + ",\"exit_code\":" + session.WaitExit() + "}";
        }

        /// <summary>Runs the scenario named by <c>E2E_SCENARIO</c> and prints its report.</summary>
        public static int Main()
        {
            string scenario = Environment.GetEnvironmentVariable("E2E_SCENARIO") ?? "";
            Session? session = null;
            try
            {
                Func<Session, string> run = scenario switch
                {
                    "full" => Full,
                    "handshake" => HandshakeOnly,
                    "no_handshake" => NoHandshake,
                    _ => throw new FailedException("unknown E2E_SCENARIO `" + scenario + "`"),
                };
                string[] argv = JsonSerializer.Deserialize<string[]>(Env("MCPTEST_ARGV")) ?? Array.Empty<string>();
                session = new Session(argv);
                Console.Out.Write(run(session) + "\n");
                return 0;
            }
            catch (Exception e) when (e is FailedException || e is CoprocessDecodeException || e is CoprocessVersionException
                || e is IOException || e is JsonException || e is System.ComponentModel.Win32Exception)
            {
                session?.Kill();
                Console.Out.Write("{\"scenario\":" + Quote(scenario) + ",\"failed\":" + Quote(e.GetType().Name + ": " + e.Message) + "}\n");
                return 1;
            }
        }
    }
}
