// The .NET end-to-end client: drives the mcptest coprocess with the generated session client
// (CoprocessClient.cs) on the generated frame types (Coprocess.cs) and the base class library only.
// The real binary is started by CoprocessClient.StartAsync from the binary and the server argv that
// MCPTEST_ARGV carries; a fake coprocess (not a binary) is started here and driven with
// CoprocessClient.OverStreamsAsync. The scenario and the coprocess come from the environment (see
// tests/e2e.rs); the report is one JSON line on stdout.
#nullable enable

using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.Json;
using System.Threading.Tasks;
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

    /// <summary>The client: one scenario per run.</summary>
    public static class Client
    {
        private const int ExitTimeoutMs = 20000;

        private static readonly CoprocessClientOptions Options = new CoprocessClientOptions
        {
            Timeout = TimeSpan.FromSeconds(60),
            Sdk = "dotnet",
            SdkVersion = "0.0.0-e2e",
        };

        private static string Env(string name)
        {
            return Environment.GetEnvironmentVariable(name) ?? throw new FailedException(name + " is not set");
        }

        private static string Quote(string text) => JsonSerializer.Serialize(text);

        /// <summary>The words of a POSIX shell-style command line (quotes and backslashes as a shell reads them).</summary>
        private static List<string> ShellSplit(string line)
        {
            var words = new List<string>();
            var word = new StringBuilder();
            bool inWord = false;
            for (int i = 0; i < line.Length; i++)
            {
                char c = line[i];
                if (c == '\'')
                {
                    int close = line.IndexOf('\'', i + 1);
                    if (close < 0)
                    {
                        throw new FailedException("no closing quotation in " + line);
                    }
                    word.Append(line, i + 1, close - i - 1);
                    i = close;
                    inWord = true;
                }
                else if (c == '"')
                {
                    for (i++; i < line.Length && line[i] != '"'; i++)
                    {
                        if (line[i] == '\\' && i + 1 < line.Length && (line[i + 1] == '"' || line[i + 1] == '\\'))
                        {
                            i++;
                        }
                        word.Append(line[i]);
                    }
                    if (i >= line.Length)
                    {
                        throw new FailedException("no closing quotation in " + line);
                    }
                    inWord = true;
                }
                else if (c == '\\' && i + 1 < line.Length)
                {
                    word.Append(line[++i]);
                    inWord = true;
                }
                else if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                {
                    if (inWord)
                    {
                        words.Add(word.ToString());
                        word.Clear();
                        inWord = false;
                    }
                }
                else
                {
                    word.Append(c);
                    inWord = true;
                }
            }
            if (inWord)
            {
                words.Add(word.ToString());
            }
            return words;
        }

        /// <summary>A process started here from <paramref name="argv"/>, its stdin and stdout redirected.</summary>
        private static Process Start(IReadOnlyList<string> argv)
        {
            var start = new ProcessStartInfo(argv[0])
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
            };
            foreach (string arg in argv.Skip(1))
            {
                start.ArgumentList.Add(arg);
            }
            return Process.Start(start) ?? throw new FailedException("the coprocess did not start");
        }

        /// <summary>
        /// The generated client on the coprocess of <paramref name="argv"/>: started by the client when
        /// <paramref name="argv"/> is the binary's own command line, else over the streams of a process
        /// started here (returned too, to wait for).
        /// </summary>
        private static async Task<(CoprocessClient Session, Process? Process)> SpawnAsync(IReadOnlyList<string> argv)
        {
            if (argv.Count == 5 && argv[1] == "exec" && argv[2] == "--connection-server" && argv[3] == "--server-command")
            {
                return (await CoprocessClient.StartAsync(argv[0], ShellSplit(argv[4]), Options), null);
            }
            Process process = Start(argv);
            try
            {
                return (await CoprocessClient.OverStreamsAsync(process.StandardOutput.BaseStream, process.StandardInput.BaseStream, Options), process);
            }
            catch (Exception)
            {
                WaitExit(process);
                throw;
            }
        }

        private static int WaitExit(Process process)
        {
            try
            {
                process.StandardInput.Close();
            }
            catch (Exception error) when (error is IOException || error is ObjectDisposedException)
            {
                // The client closed it already.
            }
            if (!process.WaitForExit(ExitTimeoutMs))
            {
                process.Kill();
                throw new FailedException("the coprocess did not exit within " + ExitTimeoutMs + " ms");
            }
            return process.ExitCode;
        }

        private static string ToolNames(ListToolsResult tools)
        {
            IEnumerable<string> names = tools.Tools.Select(tool => tool.TryGetValue("name", out JsonElement name) ? name.GetRawText() : "null");
            return "[" + string.Join(",", names) + "]";
        }

        private static async Task<string> Full(IReadOnlyList<string> argv)
        {
            (CoprocessClient session, _) = await SpawnAsync(argv);
            await using (session)
            {
                HandshakeResult handshake = session.Handshake;
                InitializeResult initialize = await session.InitializeAsync();
                ListToolsResult tools = await session.ListToolsAsync();
                CallResult call = await session.CallAsync(new CallParams(Env("E2E_TOOL")) { Arguments = McpObject.Decode(Env("E2E_TOOL_ARGS")) });
                ReadResourceResult resource = await session.ReadResourceAsync(new ReadResourceParams(Env("E2E_RESOURCE_URI")));
                var promptParams = new CallPromptParams(Env("E2E_PROMPT")) { Arguments = PromptArguments.Decode(Env("E2E_PROMPT_ARGS")) };
                CallPromptResult prompt = await session.CallPromptAsync(promptParams);
                ShutdownResult shutdown = await session.ShutdownAsync();
                await session.CloseAsync();
                string exitCode = session.ExitStatus?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "null";
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
        }

        private static async Task<string> HandshakeOnly(IReadOnlyList<string> argv)
        {
            CoprocessClient session;
            Process? process;
            try
            {
                (session, process) = await SpawnAsync(argv);
            }
            catch (CoprocessVersionException e)
            {
                return "{\"scenario\":\"handshake\",\"ok\":false,\"error\":" + Quote(e.Message) + "}";
            }
            string value = session.Handshake.ToJson();
            if (process != null)
            {
                WaitExit(process);
            }
            return "{\"scenario\":\"handshake\",\"ok\":true,\"value\":" + value + "}";
        }

        /// <summary>
        /// The binary serving an SDK that never handshakes (a v1 SDK): a client that always handshakes
        /// cannot play it, so two raw request lines do.
        /// </summary>
        private static Task<string> NoHandshake(IReadOnlyList<string> argv)
        {
            Process process = Start(argv);
            var utf8 = new UTF8Encoding(false);
            var stdin = new StreamWriter(process.StandardInput.BaseStream, utf8) { NewLine = "\n" };
            var stdout = new StreamReader(process.StandardOutput.BaseStream, utf8);
            var answers = new List<JsonElement>();
            string[] methods = { Coprocess.Methods.McpListTools, Coprocess.Methods.McpShutdown };
            for (int i = 0; i < methods.Length; i++)
            {
                stdin.WriteLine(new Request(JsonRpcVersion.V2_0, new RequestId(i + 1), methods[i]).ToJson());
                stdin.Flush();
                Response response = Response.Decode(stdout.ReadLine() ?? throw new FailedException("the coprocess closed its stdout without answering"));
                ErrorResponse? failure = response.ErrorResponse;
                if (failure != null)
                {
                    throw new FailedException(methods[i] + " answered " + failure.Error.Code + ": " + failure.Error.Message);
                }
                answers.Add(response.SuccessResponse!.Result);
            }
            ListToolsResult tools = ListToolsResult.FromJson(answers[0]);
            return Task.FromResult("{\"scenario\":\"no_handshake\",\"tools\":" + ToolNames(tools) + ",\"exit_code\":" + WaitExit(process) + "}");
        }

        /// <summary>Runs the scenario named by <c>E2E_SCENARIO</c> and prints its report.</summary>
        public static async Task<int> Main()
        {
            string scenario = Environment.GetEnvironmentVariable("E2E_SCENARIO") ?? "";
            try
            {
                Func<IReadOnlyList<string>, Task<string>> run = scenario switch
                {
                    "full" => Full,
                    "handshake" => HandshakeOnly,
                    "no_handshake" => NoHandshake,
                    _ => throw new FailedException("unknown E2E_SCENARIO `" + scenario + "`"),
                };
                string[] argv = JsonSerializer.Deserialize<string[]>(Env("MCPTEST_ARGV")) ?? Array.Empty<string>();
                if (argv.Length == 0)
                {
                    throw new FailedException("MCPTEST_ARGV is empty");
                }
                Console.Out.Write(await run(argv) + "\n");
                return 0;
            }
            catch (Exception e) when (e is FailedException || e is CoprocessClientException || e is CoprocessDecodeException
                || e is CoprocessVersionException || e is IOException || e is JsonException || e is System.ComponentModel.Win32Exception)
            {
                Console.Out.Write("{\"scenario\":" + Quote(scenario) + ",\"failed\":" + Quote(e.GetType().Name + ": " + e.Message) + "}\n");
                return 1;
            }
        }
    }
}
