// The schema-independent part of CoprocessClient.cs: the session client's options, its errors
// and the session itself (spawn, handshake, one request in flight, every answer checked,
// timeouts, exit reporting, close). Codegen's .NET target splices the namespace body below into
// the generated CoprocessClient.cs, before the per-method part it renders from the method table
// (client.rs): that part adds the rest of the partial class CoprocessClient (the defaults of the
// contract's x-coprocess.client, one typed method per method-table entry and ShutdownMethod) and
// CoprocessClientMessages, the wording of every error, rendered from the contract's message table. It names the
// contract's role types by placeholders (RoleRequest, RoleResponseOf<TResult>, ...; codegen/src/targets/dotnet/roles.rs),
// so the .NET conformance build compiles it as rendered, in every CoprocessClient.cs (C# 8, nullable, warnings as errors).
#nullable enable

using System;
using System.Buffers.Text;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.IO.Pipes;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using System.Threading;
using System.Threading.Tasks;

namespace Mcptest.Sdk
{
    /// <summary>How a client spawns, talks to and closes the coprocess.</summary>
    public sealed class CoprocessClientOptions
    {
        /// <summary>
        /// How long a call waits for its answer (a call's own <c>timeout</c> overrides it); by default
        /// <see cref="CoprocessClient.DefaultCallTimeout"/>. <c>Timeout.InfiniteTimeSpan</c> (or
        /// anything over 24 days) waits 24 days.
        /// </summary>
        public TimeSpan Timeout { get; set; } = CoprocessClient.DefaultCallTimeout;

        /// <summary>
        /// How long <see cref="CoprocessClient.CloseAsync"/> waits for the shutdown answer and the exit
        /// before it kills; by default <see cref="CoprocessClient.DefaultCloseTimeout"/>.
        /// </summary>
        public TimeSpan CloseTimeout { get; set; } = CoprocessClient.DefaultCloseTimeout;

        /// <summary>
        /// How long starting waits for the handshake's answer (the coprocess's own startup included),
        /// apart from <see cref="Timeout"/>; by default <see cref="CoprocessClient.DefaultStartTimeout"/>.
        /// </summary>
        public TimeSpan StartTimeout { get; set; } = CoprocessClient.DefaultStartTimeout;

        /// <summary>The coprocess's environment (replacing the inherited one), or null to inherit.</summary>
        public IDictionary<string, string>? Environment { get; set; }

        /// <summary>The coprocess's working directory, or null for the current one.</summary>
        public string? WorkingDirectory { get; set; }

        /// <summary>The SDK name the handshake announces.</summary>
        public string Sdk { get; set; } = "dotnet";

        /// <summary>The SDK version the handshake announces.</summary>
        public string SdkVersion { get; set; } = "0.0.0";
    }

    /// <summary>
    /// A call that failed: <see cref="Method"/> is its wire name, the message says what happened and
    /// <see cref="Detail"/> what the decoder or the stream said, where there is more to say.
    /// </summary>
    public class CoprocessClientException : Exception
    {
        /// <summary>Creates the error.</summary>
        public CoprocessClientException(string method, string message, string detail)
            : base(message)
        {
            Method = method;
            Detail = detail;
        }

        /// <summary>The wire name of the method whose call failed.</summary>
        public string Method { get; }

        /// <summary>What the decoder or the stream said, or an empty string.</summary>
        public string Detail { get; }
    }

    /// <summary>The coprocess answered the call with a JSON-RPC error; the session goes on.</summary>
    public sealed class RpcException : CoprocessClientException
    {
        /// <summary>Creates the error from the error answer's members.</summary>
        public RpcException(string method, long code, string message, JsonElement? data)
            : base(method, message, string.Empty)
        {
            Code = code;
            ErrorData = data;
            foreach (ErrorCodeSpec row in Coprocess.ErrorCodeTable)
            {
                if (row.Code == code)
                {
                    Name = row.Name;
                    break;
                }
            }
        }

        /// <summary>The JSON-RPC error code.</summary>
        public long Code { get; }

        /// <summary>The code's name in the contract's error-code table, or null for another code.</summary>
        public string? Name { get; }

        /// <summary>The error's <c>data</c>, or null when the answer has none.</summary>
        public JsonElement? ErrorData { get; }
    }

    /// <summary>
    /// The answer broke the protocol (another id, not JSON, too long, not the result's shape); the
    /// session is closed and the coprocess killed.
    /// </summary>
    public sealed class ProtocolException : CoprocessClientException
    {
        /// <summary>Creates the error.</summary>
        public ProtocolException(string method, string message, string detail)
            : base(method, message, detail)
        {
        }
    }

    /// <summary>No answer within the call's timeout; the session is closed and the coprocess killed.</summary>
    public sealed class CallTimeoutException : CoprocessClientException
    {
        /// <summary>Creates the error.</summary>
        public CallTimeoutException(string method, string message)
            : base(method, message, string.Empty)
        {
        }
    }

    /// <summary>
    /// A call on a session that was closed (by <see cref="CoprocessClient.CloseAsync"/>, or after
    /// the close method, a timeout or a protocol error).
    /// </summary>
    public sealed class SessionClosedException : CoprocessClientException
    {
        /// <summary>Creates the error.</summary>
        public SessionClosedException(string method, string message)
            : base(method, message, string.Empty)
        {
        }
    }

    /// <summary>The coprocess could not be started: the message names the path and the reason.</summary>
    public sealed class SpawnException : CoprocessClientException
    {
        /// <summary>Creates the error.</summary>
        public SpawnException(string method, string message, string detail)
            : base(method, message, detail)
        {
        }
    }

    /// <summary>The coprocess ended before answering: its exit status and last stderr lines are kept.</summary>
    public sealed class CoprocessExitedException : CoprocessClientException
    {
        /// <summary>Creates the error.</summary>
        public CoprocessExitedException(string method, string message, int? status, IReadOnlyList<string> stderr)
            : base(method, message, string.Empty)
        {
            Status = status;
            Stderr = stderr;
        }

        /// <summary>The exit status, or null where none is known (over streams).</summary>
        public int? Status { get; }

        /// <summary>The last lines the coprocess wrote to stderr.</summary>
        public IReadOnlyList<string> Stderr { get; }
    }

    /// <summary>
    /// A session with the mcptest coprocess: one request in flight (concurrent callers are queued),
    /// every answer checked, every call bounded by a timeout. <see cref="StartAsync"/> spawns the
    /// binary, <see cref="OverStreamsAsync"/> runs over any pair of byte streams; both handshake
    /// before they hand the client out. <see cref="CloseAsync"/> (and <c>Dispose</c>,
    /// <c>DisposeAsync</c>) is idempotent. Over a spawned coprocess a call's write and read are
    /// bounded by a watchdog thread that kills the coprocess when the call's time is up (a read also
    /// by the exit drain once the coprocess has exited), with no timer per call; over other streams
    /// each read has a timer of its own.
    /// </summary>
    public sealed partial class CoprocessClient : IDisposable, IAsyncDisposable
    {
        private const int StderrLineBytes = 4096;
        private static readonly TimeSpan LongestWait = TimeSpan.FromDays(24);
        private const int Chunk = 65536;

        /// <summary>The longest request line, in UTF-16 code units, whose text and bytes the session keeps arrays for.</summary>
        private const int KeptRequestChars = 4096;

        /// <summary>
        /// How long a call waits for its answer in its own thread (see <see cref="OutputReady"/>)
        /// before it reads asynchronously, in milliseconds.
        /// </summary>
        private const int SyncWaitMilliseconds = 1;

        /// <summary>The low bits of <see cref="timerState"/>: armed, or fired (the coprocess killed).</summary>
        private const long TimerArmed = 1;
        private const long TimerFired = 2;

        private static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);
        private static readonly UTF8Encoding LenientUtf8 = new UTF8Encoding(false, false);

        private readonly Stream reader;
        private readonly Stream writer;
        private readonly Process? process;
        private readonly TimeSpan timeout;
        private readonly TimeSpan closeTimeout;
        private readonly SemaphoreSlim gate = new SemaphoreSlim(1, 1);
        private readonly Queue<string> stderr = new Queue<string>();
        private readonly Task stderrDone = Task.CompletedTask;
        private readonly TaskCompletionSource<bool> exited = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly Task drained;
        private readonly object timerLock = new object();
        private readonly Thread? watchdog;
        private readonly StringBuilder requestText = new StringBuilder();
        private Pipes? pipes;
        /// <summary>
        /// The watchdog's timer: its arming's number times four, plus <see cref="TimerArmed"/> or
        /// <see cref="TimerFired"/> (neither: disarmed). A call arms and disarms it with one
        /// interlocked operation each, no lock; the number keeps the watchdog from firing a later
        /// arming on an earlier one's deadline.
        /// </summary>
        private long timerState;

        /// <summary>The state the call's <see cref="Arm"/> wrote, which its <see cref="Disarm"/> expects.</summary>
        private long timerArming;
        private long timerDeadline;

        /// <summary>When the watchdog wakes next (<c>long.MaxValue</c>: when pulsed).</summary>
        private long watchUntil = long.MaxValue;
        private bool watchStopped;
        private byte[] buffer = new byte[Chunk];
        private char[]? requestChars;
        private byte[]? requestBytes;
        private int start;
        private int end;
        private int scanned;
        private long nextId = 1;
        private string? closed;
        private bool ended;

        /// <summary>How each method's requests with params are laid out, learnt from its first (null: not to be).</summary>
        private readonly Dictionary<string, RequestLayout?> requestLayouts = new Dictionary<string, RequestLayout?>(StringComparer.Ordinal);

        /// <summary>The layout of the method called last (its method compared first by reference: the method table's own string).</summary>
        private RequestLayout? lastRequestLayout;

        /// <summary>How the session's success answers are laid out, learnt from its first (null: not learnt, or not to be).</summary>
        private AnswerLayout? answerLayout;

        /// <summary>Whether the layout was sought (from the session's first success answer).</summary>
        private bool answerLayoutSought;
        private int? endStatus;
        private IReadOnlyList<string> endLines = Array.Empty<string>();
        private RoleHandshakeResult? handshake;

        private CoprocessClient(Stream reader, Stream writer, Process? process, CoprocessClientOptions options)
        {
            this.reader = reader;
            this.writer = writer;
            this.process = process;
            timeout = options.Timeout;
            closeTimeout = options.CloseTimeout;
            if (process != null)
            {
                process.EnableRaisingEvents = true;
                process.Exited += (sender, args) => exited.TrySetResult(true);
                if (process.HasExited)
                {
                    exited.TrySetResult(true);
                }
                // Two threads of the client's own, not the thread pool's: a call blocks its thread in
                // the read, so neither the stderr reader nor the timeout may wait for a pool thread.
                Stream errors = process.StandardError.BaseStream;
                var stderrEnded = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
                stderrDone = stderrEnded.Task;
                new Thread(() => ReadStderr(errors, stderrEnded)) { IsBackground = true, Name = "coprocess-stderr" }.Start();
                watchdog = new Thread(Watch) { IsBackground = true, Name = "coprocess-watchdog" };
                watchdog.Start();
                pipes = RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? null : Pipes.For(reader, writer);
            }
            // Once the coprocess has exited, only what it wrote before is read, for ExitDrain at most:
            // a process it started may hold its output open.
            drained = exited.Task.ContinueWith(_ => Task.Delay(ExitDrain), TaskScheduler.Default).Unwrap();
        }

        /// <summary>What the binary answered to the handshake (its protocol and binary version).</summary>
        public RoleHandshakeResult Handshake => handshake ?? throw new InvalidOperationException("the session has not handshaken");

        /// <summary>The coprocess's exit status once it has exited (null before, or over streams).</summary>
        public int? ExitStatus => process != null && process.HasExited ? process.ExitCode : (int?)null;

        /// <summary>The last lines the coprocess wrote to stderr (at most <see cref="StderrLines"/>).</summary>
        public IReadOnlyList<string> StderrTail
        {
            get
            {
                lock (stderr)
                {
                    return stderr.ToArray();
                }
            }
        }

        /// <summary>
        /// Starts <c>&lt;binary&gt; exec --connection-server --server-command &lt;argv&gt;</c> (the argv
        /// quoted so the binary's shell-style split gives it back) and handshakes.
        /// </summary>
        /// <exception cref="CoprocessVersionException">The binary speaks another version or refused the handshake; the coprocess is gone.</exception>
        /// <exception cref="CoprocessClientException">The handshake's answer broke the protocol, or the coprocess ended or did not answer in time.</exception>
        /// <exception cref="SpawnException">The binary cannot be started.</exception>
        public static async Task<CoprocessClient> StartAsync(string binary, IEnumerable<string> serverArgv, CoprocessClientOptions? options = null, CancellationToken cancellationToken = default)
        {
            options ??= new CoprocessClientOptions();
            var start = new ProcessStartInfo(binary)
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            start.ArgumentList.Add("exec");
            start.ArgumentList.Add("--connection-server");
            start.ArgumentList.Add("--server-command");
            start.ArgumentList.Add(ServerCommand(serverArgv));
            if (options.Environment != null)
            {
                start.Environment.Clear();
                foreach (KeyValuePair<string, string> pair in options.Environment)
                {
                    start.Environment[pair.Key] = pair.Value;
                }
            }
            if (options.WorkingDirectory != null)
            {
                start.WorkingDirectory = options.WorkingDirectory;
            }
            Process process;
            try
            {
                process = Process.Start(start) ?? throw new InvalidOperationException("the coprocess did not start");
            }
            catch (System.ComponentModel.Win32Exception error)
            {
                // The system's reason alone (the exception's message may wrap it in its own words).
                string reason = new System.ComponentModel.Win32Exception(error.NativeErrorCode).Message;
                reason = reason.Length == 0 ? reason : char.ToLowerInvariant(reason[0]) + reason.Substring(1);
                string method = Coprocess.Methods.RoleHandshakeMethod;
                throw new SpawnException(method, CoprocessClientMessages.SpawnFailed(method, binary, reason), error.Message);
            }
            var client = new CoprocessClient(process.StandardOutput.BaseStream, process.StandardInput.BaseStream, process, options);
            await client.HandshakeAsync(options, cancellationToken).ConfigureAwait(false);
            return client;
        }

        /// <summary>
        /// A session over a pair of byte streams (an in-process double, a socket): answers are read
        /// from <paramref name="reader"/>, requests written to <paramref name="writer"/>. Handshakes
        /// before it returns; closing closes <paramref name="writer"/>.
        /// </summary>
        /// <exception cref="CoprocessVersionException">The other side speaks another version or refused the handshake.</exception>
        /// <exception cref="CoprocessClientException">The handshake's answer broke the protocol, or the output ended or no answer came in time.</exception>
        public static async Task<CoprocessClient> OverStreamsAsync(Stream reader, Stream writer, CoprocessClientOptions? options = null, CancellationToken cancellationToken = default)
        {
            options ??= new CoprocessClientOptions();
            var client = new CoprocessClient(reader, writer, null, options);
            await client.HandshakeAsync(options, cancellationToken).ConfigureAwait(false);
            return client;
        }

        /// <summary>
        /// The <c>--server-command</c> text the binary's shell-style split turns back into
        /// <paramref name="argv"/>: each argument single-quoted where it needs quoting
        /// (<c>'</c> written as <c>'"'"'</c>, an empty one as <c>''</c>).
        /// </summary>
        public static string ServerCommand(IEnumerable<string> argv)
        {
            var text = new StringBuilder();
            foreach (string argument in argv)
            {
                if (text.Length > 0)
                {
                    text.Append(' ');
                }
                if (argument.Length > 0 && IsShellSafe(argument))
                {
                    text.Append(argument);
                }
                else
                {
                    text.Append('\'').Append(argument.Replace("'", "'\"'\"'", StringComparison.Ordinal)).Append('\'');
                }
            }
            return text.ToString();
        }

        private static bool IsShellSafe(string argument)
        {
            foreach (char c in argument)
            {
                bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "_@%+=:,./-".IndexOf(c) >= 0;
                if (!safe)
                {
                    return false;
                }
            }
            return true;
        }

        /// <summary>
        /// Sends the close method (where the contract has one), waits a bounded time for the
        /// exit, then kills. Idempotent; later calls throw <see cref="SessionClosedException"/>.
        /// </summary>
        public async Task CloseAsync()
        {
            await gate.WaitAsync().ConfigureAwait(false);
            try
            {
                long deadline = Stopwatch.GetTimestamp() + Ticks(closeTimeout);
                if (closed == null)
                {
                    closed = CoprocessClientMessages.ClosedByClose();
                    string? shutdown = ShutdownMethod;
                    if (shutdown != null)
                    {
                        try
                        {
                            long id = nextId++;
                            ArraySegment<byte> line = Line(new RoleRequest(RoleJsonRpcVersion.V2_0, new RoleRequestId(id), shutdown).ToJson());
                            await ExchangeAsync(shutdown, line, closeTimeout, false, CancellationToken.None).ConfigureAwait(false);
                        }
                        catch (CoprocessClientException)
                        {
                            // The session ends either way.
                        }
                    }
                }
                await FinishAsync(Remaining(deadline)).ConfigureAwait(false);
            }
            finally
            {
                gate.Release();
            }
        }

        /// <summary>Closes the session: see <see cref="CloseAsync"/>.</summary>
        public void Dispose()
        {
            CloseAsync().GetAwaiter().GetResult();
        }

        /// <summary>Closes the session: see <see cref="CloseAsync"/>.</summary>
        public ValueTask DisposeAsync()
        {
            return new ValueTask(CloseAsync());
        }

        private async Task HandshakeAsync(CoprocessClientOptions options, CancellationToken cancellationToken)
        {
            string method = Coprocess.Methods.RoleHandshakeMethod;
            await gate.WaitAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                long id = nextId++;
                ArraySegment<byte> line = Line(Coprocess.HandshakeRequest(new RoleRequestId(id), options.Sdk, options.SdkVersion));
                (int first, int length) = await ExchangeAsync(method, line, options.StartTimeout, true, cancellationToken).ConfigureAwait(false);
                string text = await TextAsync(method, first, length).ConfigureAwait(false);
                RoleResponse response;
                try
                {
                    response = RoleResponse.Decode(text);
                }
                catch (CoprocessDecodeException error)
                {
                    throw await RefusedAsync(method, id, text, nameof(RoleHandshakeResult), error.Message).ConfigureAwait(false);
                }
                RoleRequestId? answered = response.RoleSuccessResponse?.Id ?? response.RoleErrorResponse?.Id;
                if (answered == null || answered.Integer != id)
                {
                    throw await RefusedAsync(method, id, text, nameof(RoleHandshakeResult), string.Empty).ConfigureAwait(false);
                }
                try
                {
                    handshake = Coprocess.CheckHandshakeResponse(response);
                }
                catch (CoprocessDecodeException error)
                {
                    await FailAsync(CoprocessClientMessages.ClosedAfterProtocolError()).ConfigureAwait(false);
                    throw new ProtocolException(method, CoprocessClientMessages.Undecodable(method, nameof(RoleHandshakeResult)), error.Message);
                }
            }
            catch (Exception)
            {
                closed ??= CoprocessClientMessages.ClosedAfterProtocolError();
                await FinishAsync(TimeSpan.Zero).ConfigureAwait(false);
                throw;
            }
            finally
            {
                gate.Release();
            }
        }

        /// <summary>
        /// A call of <paramref name="method"/>, its params written with <paramref
        /// name="paramsCodec"/> and its result read with <paramref name="resultCodec"/>: the typed
        /// method passes the codecs, which this shared generic code would otherwise look up at
        /// every call (<c>CoprocessCodec&lt;T&gt;.Get</c> reads a generic class's static through
        /// the runtime on .NET Core 3.1).
        /// </summary>
        private Task<TResult> InvokeMethodAsync<TParams, TResult>(string method, TParams? parameters, CoprocessCodec<TParams> paramsCodec, CoprocessCodec<TResult> resultCodec, string resultType, TimeSpan? callTimeout, CancellationToken cancellationToken)
            where TParams : class
            where TResult : class
        {
            // A call the gate lets in at once, whose answer comes at once laid out as the session's
            // first, completes here, without a state machine of its own: a generic asynchronous
            // method's looks its types up at every call (0.1 µs, .NET Core 3.1), and so does this
            // method for each generic method or type it names on the way (its result's task is the
            // codec's). Anything else goes on in the asynchronous methods below.
            if (cancellationToken.IsCancellationRequested || !gate.Wait(0))
            {
                return InvokeQueuedAsync(method, parameters, paramsCodec, resultCodec, resultType, callTimeout, cancellationToken);
            }
            bool handedOn = false;
            try
            {
                if (ended || closed != null)
                {
                    // The queued call says why, once the gate is free again.
                    return InvokeQueuedAsync(method, parameters, paramsCodec, resultCodec, resultType, callTimeout, cancellationToken);
                }
                long id = nextId++;
                ValueTask<(int First, int Length)> exchange = ExchangeAsync(method, RequestLine(method, id, parameters, paramsCodec), callTimeout ?? timeout, true, cancellationToken);
                if (exchange.IsCompletedSuccessfully)
                {
                    (int first, int length) = exchange.Result;
                    if (TryLaidOut(first, length, id, resultCodec, out TResult laidOut))
                    {
                        Answered(method);
                        return resultCodec.Completed(laidOut);
                    }
                    exchange = new ValueTask<(int First, int Length)>((first, length));
                }
                handedOn = true;
                return AnswerReleasingAsync(method, id, exchange, resultCodec, resultType);
            }
            catch (Exception error)
            {
                return Task.FromException<TResult>(error);
            }
            finally
            {
                if (!handedOn)
                {
                    gate.Release();
                }
            }
        }

        /// <summary>A call that waits for the gate (or finds the session closed): see <see cref="InvokeMethodAsync"/>.</summary>
        private async Task<TResult> InvokeQueuedAsync<TParams, TResult>(string method, TParams? parameters, CoprocessCodec<TParams> paramsCodec, CoprocessCodec<TResult> resultCodec, string resultType, TimeSpan? callTimeout, CancellationToken cancellationToken)
            where TParams : class
            where TResult : class
        {
            await gate.WaitAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                CheckOpen(method);
                long id = nextId++;
                (int first, int length) = await ExchangeAsync(method, RequestLine(method, id, parameters, paramsCodec), callTimeout ?? timeout, true, cancellationToken).ConfigureAwait(false);
                return await AnswerAsync(method, id, first, length, resultCodec, resultType).ConfigureAwait(false);
            }
            finally
            {
                gate.Release();
            }
        }

        /// <summary>The rest of a call <see cref="InvokeMethodAsync"/> began: its exchange awaited, its answer read, the gate released.</summary>
        private async Task<TResult> AnswerReleasingAsync<TResult>(string method, long id, ValueTask<(int First, int Length)> exchange, CoprocessCodec<TResult> resultCodec, string resultType)
            where TResult : class
        {
            try
            {
                (int first, int length) = await exchange.ConfigureAwait(false);
                return await AnswerAsync(method, id, first, length, resultCodec, resultType).ConfigureAwait(false);
            }
            finally
            {
                gate.Release();
            }
        }

        /// <summary>
        /// The request line of call <paramref name="id"/> to <paramref name="method"/>: laid out as
        /// the method's first (see <see cref="RequestLayout"/>) in the session's own arrays, else as
        /// <see cref="RequestLine()"/> writes it.
        /// </summary>
        private ArraySegment<byte> RequestLine<TParams>(string method, long id, TParams? parameters, CoprocessCodec<TParams> codec)
            where TParams : class
        {
            // The layout of the method called last is taken without a generic call (see InvokeMethodAsync).
            RequestLayout? layout = lastRequestLayout;
            if (parameters != null && (layout == null || !ReferenceEquals(layout.Method, method)))
            {
                layout = RequestLayoutFor(method, parameters);
            }
            if (parameters != null && layout != null)
            {
                codec.Write(requestText.Clear(), parameters);
                int count = requestText.Length;
                if (count <= KeptRequestChars)
                {
                    requestChars ??= new char[KeptRequestChars];
                    requestText.CopyTo(0, requestChars, 0, count);
                    int most = layout.MostBytes(count);
                    if (requestBytes == null || requestBytes.Length < most)
                    {
                        requestBytes = new byte[Math.Max(most, StrictUtf8.GetMaxByteCount(KeptRequestChars))];
                    }
                    return new ArraySegment<byte>(requestBytes, 0, layout.Write(requestBytes, id, requestChars, count));
                }
            }
            var request = new RoleRequestOf<TParams>(RoleJsonRpcVersion.V2_0, new RoleRequestId(id), method) { Params = parameters };
            request.Write(requestText.Clear());
            return RequestLine();
        }

        /// <summary>
        /// The layout of <paramref name="method"/>'s requests (not the method called last), learnt now
        /// from <paramref name="parameters"/> if it is the method's first.
        /// </summary>
        private RequestLayout? RequestLayoutFor<TParams>(string method, TParams parameters)
            where TParams : class
        {
            if (!requestLayouts.TryGetValue(method, out RequestLayout? layout))
            {
                layout = RequestLayout.Of(method, parameters);
                requestLayouts.Add(method, layout);
            }
            if (layout != null)
            {
                lastRequestLayout = layout;
            }
            return layout;
        }

        /// <summary>
        /// The result of the answer line at <paramref name="first"/> to call <paramref name="id"/>,
        /// when it is valid UTF-8 laid out as the session's first success answer and its result
        /// decodes: what the decode of the whole answer gives. False sends the answer to that decode
        /// (which says what is wrong, if anything is).
        /// </summary>
        private bool TryLaidOut<TResult>(int first, int length, long id, CoprocessCodec<TResult> codec, out TResult result)
            where TResult : class
        {
            result = default!;
            return answerLayout != null
                && IsUtf8(first, length)
                && answerLayout.Encloses(buffer, first, length, id, out int offset, out int count)
                && (codec.TryReadPlainEnclosed(buffer, offset, count, out result) || codec.TryReadEnclosed(buffer, offset, count, out result));
        }

        /// <summary>The answer line at <paramref name="first"/> to call <paramref name="id"/>: its result, or what is wrong with it.</summary>
        private async Task<TResult> AnswerAsync<TResult>(string method, long id, int first, int length, CoprocessCodec<TResult> resultCodec, string resultType)
            where TResult : class
        {
            if (TryLaidOut(first, length, id, resultCodec, out TResult laidOut))
            {
                Answered(method);
                return laidOut;
            }
            bool utf8 = IsUtf8(first, length);
            RoleResponseOf<TResult> response;
            if (!utf8 || !CoprocessReader.TryDecode(buffer, first, length, ResponseReader<TResult>.Read, out response))
            {
                // The careful way, which words what is wrong.
                string text = await TextAsync(method, first, length).ConfigureAwait(false);
                try
                {
                    response = RoleResponseOf<TResult>.Decode(text);
                }
                catch (CoprocessDecodeException error)
                {
                    throw await RefusedAsync(method, id, text, resultType, error.Message).ConfigureAwait(false);
                }
            }
            RoleSuccessResponseOf<TResult>? success = response.RoleSuccessResponse;
            RoleRequestId? answered = success != null ? success.Id : response.RoleErrorResponse?.Id;
            if (answered == null || answered.Integer != id)
            {
                string text = StrictUtf8.GetString(buffer, first, length);
                throw await RefusedAsync(method, id, text, resultType, string.Empty).ConfigureAwait(false);
            }
            if (success == null)
            {
                RoleErrorObject error = response.RoleErrorResponse!.Error;
                throw new RpcException(method, error.Code, error.Message, error.Data);
            }
            if (!answerLayoutSought)
            {
                answerLayoutSought = true;
                answerLayout = AnswerLayout.Of(success);
            }
            Answered(method);
            return success.Result;
        }

        /// <summary>Follows a success answer to <paramref name="method"/>.</summary>
        private void Answered(string method)
        {
            if (method == ShutdownMethod)
            {
                // The coprocess ends the session after answering: closing only waits.
                closed = CoprocessClientMessages.ClosedAfterShutdown();
            }
        }

        private void CheckOpen(string method)
        {
            if (ended)
            {
                throw Exited(method);
            }
            if (closed != null)
            {
                throw new SessionClosedException(method, CoprocessClientMessages.Closed(method, closed));
            }
        }

        private bool IsUtf8(int first, int length)
        {
            try
            {
                StrictUtf8.GetCharCount(buffer, first, length);
                return true;
            }
            catch (ArgumentException)
            {
                return false;
            }
        }

        /// <summary>The answer line as text; a line that is not UTF-8 is not a JSON text.</summary>
        private async Task<string> TextAsync(string method, int first, int length)
        {
            try
            {
                return StrictUtf8.GetString(buffer, first, length);
            }
            catch (ArgumentException error)
            {
                await FailAsync(CoprocessClientMessages.ClosedAfterProtocolError()).ConfigureAwait(false);
                throw new ProtocolException(method, CoprocessClientMessages.NotJson(method), error.Message);
            }
        }

        private static ArraySegment<byte> Line(string json)
        {
            int length = StrictUtf8.GetByteCount(json);
            var bytes = new byte[length + 1];
            StrictUtf8.GetBytes(json, 0, json.Length, bytes, 0);
            bytes[length] = (byte)'\n';
            return new ArraySegment<byte>(bytes);
        }

        /// <summary>
        /// The request in <see cref="requestText"/> as a line of UTF-8, in the session's own arrays
        /// (one request is in flight at a time): a call makes no string or array of its request. A
        /// longer request than <see cref="KeptRequestChars"/> gets an array of its own, and the
        /// text's room shrinks back.
        /// </summary>
        private ArraySegment<byte> RequestLine()
        {
            int count = requestText.Append('\n').Length;
            if (count > KeptRequestChars)
            {
                string json = requestText.ToString(0, count - 1);
                requestText.Clear().Capacity = KeptRequestChars;
                return Line(json);
            }
            requestChars ??= new char[KeptRequestChars];
            requestBytes ??= new byte[StrictUtf8.GetMaxByteCount(KeptRequestChars)];
            requestText.CopyTo(0, requestChars, 0, count);
            return new ArraySegment<byte>(requestBytes, 0, StrictUtf8.GetBytes(requestChars, 0, count, requestBytes, 0));
        }

        /// <summary>
        /// Writes one request line and reads the next answer line: where it is in the buffer. An
        /// answer whose line comes at once, whole, is read here, with no state machine (see <see
        /// cref="AnswerNow"/>); anything else goes on in <see cref="AnswerLineAsync"/>.
        /// </summary>
        private ValueTask<(int First, int Length)> ExchangeAsync(string method, ArraySegment<byte> line, TimeSpan wait, bool kill, CancellationToken cancellationToken)
        {
            long began = Stopwatch.GetTimestamp();
            long deadline = began + Ticks(wait);
            long syncUntil = began + (Stopwatch.Frequency * SyncWaitMilliseconds / 1000);
            // A spawned coprocess that stops reading cannot block the write past the call's time. Nor
            // the read: the watchdog stays armed until the answer (close's own exchange, which does
            // not kill, aside), so the read needs no timer of its own.
            CancellationTokenRegistration registration = default;
            bool guarded = false;
            bool failed;
            bool waited = false;
            try
            {
                guarded = process != null && Arm(wait, deadline, cancellationToken, out registration);
                failed = !WriteNow(line);
                if (guarded && kill && !failed && !Fired() && AnswerNow(syncUntil, out int first, out int length, out waited))
                {
                    // Disarmed here, as the loop of AnswerLineAsync does.
                    guarded = false;
                    if (Disarm(registration))
                    {
                        // The watchdog killed the coprocess meanwhile.
                        return TimedOutExchangeAsync(method, wait, kill, cancellationToken);
                    }
                    return new ValueTask<(int First, int Length)>((first, length));
                }
            }
            catch (Exception error)
            {
                if (guarded)
                {
                    Disarm(registration);
                }
                return new ValueTask<(int First, int Length)>(Task.FromException<(int First, int Length)>(error));
            }
            return AnswerLineAsync(method, wait, kill, cancellationToken, deadline, syncUntil, registration, guarded, failed, waited);
        }

        /// <summary>
        /// The answer's line read in the calling thread, when it comes at once, whole, in one read
        /// (most do): where it is in the buffer. False when bytes were buffered before (the loop of
        /// <see cref="AnswerLineAsync"/> scans them), when the output had nothing to read within
        /// the wait (<paramref name="waited"/>: that loop reads asynchronously at once), or when
        /// the read ended it, failed or brought no whole line of at most the longest length,
        /// leaving what it read in the buffer: that loop goes on from there, and finds the same.
        /// </summary>
        private bool AnswerNow(long syncUntil, out int first, out int length, out bool waited)
        {
            first = 0;
            length = 0;
            waited = false;
            if (scanned < end || end - start > Coprocess.MaxLineBytes)
            {
                return false;
            }
            MakeRoom();
            if (!OutputReady(syncUntil))
            {
                waited = true;
                return false;
            }
            int count = ReadNow();
            if (count <= 0)
            {
                return false;
            }
            end += count;
            int newline = Array.IndexOf(buffer, (byte)'\n', scanned, end - scanned);
            if (newline < 0)
            {
                return false;
            }
            int lineLength = LineLength(newline);
            if (lineLength > Coprocess.MaxLineBytes)
            {
                return false;
            }
            first = TakeLine(newline);
            length = lineLength;
            return true;
        }

        /// <summary>The length of the buffered line that ends at <paramref name="newline"/>, without a <c>\r</c> before it.</summary>
        private int LineLength(int newline)
        {
            int length = newline - start;
            return length > 0 && buffer[newline - 1] == (byte)'\r' ? length - 1 : length;
        }

        /// <summary>Takes the buffered line that ends at <paramref name="newline"/>: where it begins; the next begins after it.</summary>
        private int TakeLine(int newline)
        {
            int first = start;
            start = newline + 1;
            scanned = start;
            return first;
        }

        /// <summary>An exchange whose answer came after the watchdog killed the coprocess.</summary>
        private async ValueTask<(int First, int Length)> TimedOutExchangeAsync(string method, TimeSpan wait, bool kill, CancellationToken cancellationToken)
        {
            throw await TimedOutAsync(method, wait, kill, cancellationToken).ConfigureAwait(false);
        }

        /// <summary>
        /// The rest of <see cref="ExchangeAsync"/> after its write (<paramref name="failed"/>: the
        /// input was closed): reads the next answer line, waiting as long as the exchange may
        /// (<paramref name="waited"/>: the wait in the calling thread is over already).
        /// </summary>
        private async ValueTask<(int First, int Length)> AnswerLineAsync(string method, TimeSpan wait, bool kill, CancellationToken cancellationToken, long deadline, long syncUntil, CancellationTokenRegistration registration, bool guarded, bool failed, bool waited)
        {
            bool watched = guarded && kill;
            try
            {
                if (guarded && (watched ? Fired() : Disarm(registration)))
                {
                    throw await TimedOutAsync(method, wait, kill, cancellationToken).ConfigureAwait(false);
                }
                if (failed)
                {
                    throw await EndedAsync(method).ConfigureAwait(false);
                }
                while (true)
                {
                    int newline = scanned < end ? Array.IndexOf(buffer, (byte)'\n', scanned, end - scanned) : -1;
                    if (newline >= 0)
                    {
                        int length = LineLength(newline);
                        int first = TakeLine(newline);
                        if (length > Coprocess.MaxLineBytes)
                        {
                            throw await TooLongAsync(method).ConfigureAwait(false);
                        }
                        if (watched)
                        {
                            // Disarmed here, and not again at the end.
                            guarded = false;
                            if (Disarm(registration))
                            {
                                // The watchdog killed the coprocess meanwhile.
                                throw await TimedOutAsync(method, wait, kill, cancellationToken).ConfigureAwait(false);
                            }
                        }
                        return (first, length);
                    }
                    scanned = end;
                    if (end - start > Coprocess.MaxLineBytes)
                    {
                        throw await TooLongAsync(method).ConfigureAwait(false);
                    }
                    MakeRoom();
                    int count;
                    bool late = false;
                    bool ready = !waited && OutputReady(syncUntil);
                    waited = false;
                    if (ready)
                    {
                        count = ReadNow();
                    }
                    else
                    {
                        (count, late) = await ReadAsync(watched ? (TimeSpan?)null : Remaining(deadline), cancellationToken).ConfigureAwait(false);
                    }
                    if (late || (watched && Fired()))
                    {
                        throw await TimedOutAsync(method, wait, kill, cancellationToken).ConfigureAwait(false);
                    }
                    if (count <= 0)
                    {
                        // The end of output; a last line without its newline is never an answer.
                        throw await EndedAsync(method).ConfigureAwait(false);
                    }
                    end += count;
                }
            }
            finally
            {
                if (guarded)
                {
                    Disarm(registration);
                }
            }
        }

        /// <summary>
        /// Arms the timer (and the cancellation) to kill the spawned coprocess at
        /// <paramref name="deadline"/>, <paramref name="wait"/> after the exchange began; false, arming
        /// nothing, when there is no time to wait.
        /// </summary>
        private bool Arm(TimeSpan wait, long deadline, CancellationToken cancellationToken, out CancellationTokenRegistration registration)
        {
            registration = default;
            if (Bounded(wait) == TimeSpan.Zero || cancellationToken.IsCancellationRequested || watchdog == null)
            {
                return false;
            }
            Volatile.Write(ref timerDeadline, deadline);
            timerArming = (((timerState >> 2) + 1) << 2) | TimerArmed;
            // A full fence: the watchdog sees the deadline before the state, and the state before
            // this reads when it wakes (see Watch).
            Interlocked.Exchange(ref timerState, timerArming);
            if (deadline < Volatile.Read(ref watchUntil))
            {
                // The watchdog sleeps past this deadline: wake it (rarely: calls of one timeout
                // arm ever later deadlines, which it finds when it wakes).
                lock (timerLock)
                {
                    Monitor.Pulse(timerLock);
                }
            }
            if (cancellationToken.CanBeCanceled)
            {
                registration = cancellationToken.Register(state => ((CoprocessClient)state!).Expire(), this);
            }
            return true;
        }

        /// <summary>
        /// Whether the armed timer fired (the coprocess was killed): the watchdog sets it before it
        /// kills, so a call that saw the kill's effect (its write failed, its read ended) sees it.
        /// </summary>
        private bool Fired()
        {
            return (Volatile.Read(ref timerState) & TimerFired) != 0;
        }

        /// <summary>Disarms the timer; whether it fired (the coprocess was killed) meanwhile.</summary>
        private bool Disarm(CancellationTokenRegistration registration)
        {
            registration.Dispose();
            long was = Interlocked.CompareExchange(ref timerState, timerArming & ~(TimerArmed | TimerFired), timerArming);
            return (was & TimerFired) != 0;
        }

        /// <summary>The call's time is up: the session is closed (the coprocess killed) unless this is close's own exchange.</summary>
        private async Task<CallTimeoutException> TimedOutAsync(string method, TimeSpan wait, bool kill, CancellationToken cancellationToken)
        {
            if (kill)
            {
                await FailAsync(CoprocessClientMessages.ClosedAfterTimeout()).ConfigureAwait(false);
            }
            cancellationToken.ThrowIfCancellationRequested();
            string ms = Math.Round(wait.TotalMilliseconds).ToString(CultureInfo.InvariantCulture);
            string message = process != null ? CoprocessClientMessages.Timeout(method, ms) : CoprocessClientMessages.TimeoutStreams(method, ms);
            return new CallTimeoutException(method, message);
        }

        /// <summary>The watchdog: kills the coprocess when an armed deadline passes, until the session ends.</summary>
        private void Watch()
        {
            lock (timerLock)
            {
                while (!watchStopped)
                {
                    long state = Volatile.Read(ref timerState);
                    long until = long.MaxValue;
                    long now = Stopwatch.GetTimestamp();
                    if ((state & (TimerArmed | TimerFired)) == TimerArmed)
                    {
                        until = Volatile.Read(ref timerDeadline);
                        if (Volatile.Read(ref timerState) != state)
                        {
                            // Disarmed or armed anew meanwhile: the deadline read may be another's.
                            continue;
                        }
                        if (now >= until)
                        {
                            if (Interlocked.CompareExchange(ref timerState, state + (TimerFired - TimerArmed), state) == state)
                            {
                                Kill();
                            }
                            continue;
                        }
                    }
                    // A full fence, then the state again: an arming this look missed either is seen
                    // now or sees this wake-up time, and pulses the lock held until the wait.
                    Interlocked.Exchange(ref watchUntil, until);
                    if (Volatile.Read(ref timerState) != state)
                    {
                        continue;
                    }
                    if (until == long.MaxValue)
                    {
                        Monitor.Wait(timerLock);
                    }
                    else
                    {
                        double milliseconds = (double)(until - now) * 1000 / Stopwatch.Frequency;
                        Monitor.Wait(timerLock, (int)Math.Min(int.MaxValue, Math.Ceiling(milliseconds) + 1));
                    }
                }
            }
        }

        /// <summary>The call was cancelled: kills the coprocess, which ends the read.</summary>
        private void Expire()
        {
            long state = Volatile.Read(ref timerState);
            if ((state & (TimerArmed | TimerFired)) == TimerArmed && Interlocked.CompareExchange(ref timerState, state + (TimerFired - TimerArmed), state) == state)
            {
                Kill();
            }
        }

        /// <summary>
        /// Whether the spawned coprocess's output has bytes, or its end, to read before
        /// <paramref name="until"/> (a <see cref="Stopwatch"/> timestamp, <see
        /// cref="SyncWaitMilliseconds"/> after the exchange began): see <see cref="Pipes"/>. False,
        /// and the read is asynchronous, for an answer that takes longer (the read then waits on the
        /// exit, the drain and the watchdog as ever), over streams and on Windows.
        /// </summary>
        private bool OutputReady(long until)
        {
            if (pipes == null)
            {
                return false;
            }
            try
            {
                return pipes.Ready(until);
            }
            catch (Exception error) when (error is ObjectDisposedException || IsMissing(error))
            {
                // Closed, or no poll(2) here: every read and write goes through the streams from now on.
                DropPipes();
                return false;
            }
        }

        /// <summary>Reads what <see cref="OutputReady"/> found, at once: its count, 0 at the end of output.</summary>
        private int ReadNow()
        {
            try
            {
                return pipes != null ? pipes.Read(buffer, end, buffer.Length - end) : reader.Read(buffer, end, buffer.Length - end);
            }
            catch (Exception error) when (IsMissing(error))
            {
                DropPipes();
                return ReadNow();
            }
            catch (Exception error) when (error is IOException || error is ObjectDisposedException || error is NotSupportedException)
            {
                return 0;
            }
        }

        /// <summary>Writes the request line whole (and flushes it); false when the input is closed.</summary>
        private bool WriteNow(ArraySegment<byte> line)
        {
            try
            {
                if (pipes != null)
                {
                    return pipes.Write(line.Array!, line.Offset, line.Count);
                }
                writer.Write(line.Array!, line.Offset, line.Count);
                writer.Flush();
                return true;
            }
            catch (Exception error) when (IsMissing(error))
            {
                DropPipes();
                return WriteNow(line);
            }
            catch (Exception error) when (error is IOException || error is ObjectDisposedException || error is NotSupportedException)
            {
                return false;
            }
        }

        /// <summary>Whether <paramref name="error"/> says libc, or a function of it, is not there.</summary>
        private static bool IsMissing(Exception error)
        {
            return error is DllNotFoundException || error is EntryPointNotFoundException;
        }

        /// <summary>Gives the pipes' descriptors up: the streams read and write from now on.</summary>
        private void DropPipes()
        {
            pipes?.Dispose();
            pipes = null;
        }

        /// <summary>
        /// Reads the output asynchronously, abandoning the read when <paramref name="wait"/> passes
        /// (late), or when the coprocess has exited and its output has not ended within
        /// <see cref="ExitDrain"/> (read as the end of output). No wait (null): the watchdog bounds
        /// the read by killing the coprocess.
        /// </summary>
        private async Task<(int Count, bool Late)> ReadAsync(TimeSpan? wait, CancellationToken cancellationToken)
        {
            Task<int> read;
            try
            {
                read = reader.ReadAsync(buffer, end, buffer.Length - end, CancellationToken.None);
            }
            catch (Exception error) when (error is IOException || error is ObjectDisposedException || error is NotSupportedException)
            {
                return (0, false);
            }
            if (!read.IsCompleted && wait == null)
            {
                // The watchdog's kill ends the wait at the exit; any other exit leaves the drain (a
                // process the coprocess started may hold its output open).
                if (await Task.WhenAny(read, exited.Task).ConfigureAwait(false) != read && !Fired())
                {
                    await Task.WhenAny(read, drained).ConfigureAwait(false);
                }
                if (!read.IsCompleted)
                {
                    return (0, false);
                }
            }
            if (!read.IsCompleted && wait != null && !await CompletesAsync(read, drained, wait.Value, cancellationToken).ConfigureAwait(false))
            {
                return (0, !drained.IsCompleted);
            }
            try
            {
                return (await read.ConfigureAwait(false), false);
            }
            catch (Exception error) when (error is IOException || error is ObjectDisposedException || error is NotSupportedException)
            {
                return (0, false);
            }
        }

        /// <summary>Whether <paramref name="read"/> completes within <paramref name="wait"/> and before <paramref name="drained"/> (false on cancellation too).</summary>
        private static async Task<bool> CompletesAsync(Task<int> read, Task drained, TimeSpan wait, CancellationToken cancellationToken)
        {
            if (wait <= TimeSpan.Zero)
            {
                return false;
            }
            using (var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
            {
                timer.CancelAfter(Bounded(wait));
                var cancelled = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
                using (timer.Token.Register(() => cancelled.TrySetResult(false)))
                {
                    Task first = await Task.WhenAny(read, cancelled.Task, drained).ConfigureAwait(false);
                    return first == read;
                }
            }
        }

        /// <summary>Makes room for the next chunk: moves the unread bytes to the front, or grows.</summary>
        private void MakeRoom()
        {
            if (buffer.Length - end >= Chunk / 2)
            {
                return;
            }
            int unread = end - start;
            if (start > 0 && unread <= buffer.Length / 2)
            {
                Buffer.BlockCopy(buffer, start, buffer, 0, unread);
            }
            else
            {
                var bigger = new byte[Math.Min(buffer.Length * 2, Coprocess.MaxLineBytes + (2 * Chunk))];
                Buffer.BlockCopy(buffer, start, bigger, 0, unread);
                buffer = bigger;
            }
            scanned -= start;
            end = unread;
            start = 0;
        }

        private async Task<ProtocolException> TooLongAsync(string method)
        {
            await FailAsync(CoprocessClientMessages.ClosedAfterProtocolError()).ConfigureAwait(false);
            string limit = Coprocess.MaxLineBytes.ToString(CultureInfo.InvariantCulture);
            return new ProtocolException(method, CoprocessClientMessages.TooLong(method, limit), string.Empty);
        }

        /// <summary>
        /// An answer refused: not a JSON text, another id, or not the method's result (checked in that
        /// order, as the careful reading finds them). The session is closed and the coprocess killed.
        /// </summary>
        private async Task<ProtocolException> RefusedAsync(string method, long id, string text, string resultType, string detail)
        {
            await FailAsync(CoprocessClientMessages.ClosedAfterProtocolError()).ConfigureAwait(false);
            JsonElement value;
            try
            {
                value = CoprocessJson.Parse(text);
            }
            catch (CoprocessShapeException error)
            {
                return new ProtocolException(method, CoprocessClientMessages.NotJson(method), error.Message);
            }
            if (value.ValueKind == JsonValueKind.Object && value.TryGetProperty("id", out JsonElement got))
            {
                bool same = got.ValueKind == JsonValueKind.Number && got.TryGetInt64(out long number) && number == id;
                if (!same)
                {
                    string expected = id.ToString(CultureInfo.InvariantCulture);
                    return new ProtocolException(method, CoprocessClientMessages.WrongId(method, got.GetRawText(), expected), string.Empty);
                }
            }
            return new ProtocolException(method, CoprocessClientMessages.Undecodable(method, resultType), detail);
        }

        /// <summary>The coprocess closed its output: waits (bounded) for its status and stderr.</summary>
        private async Task<CoprocessExitedException> EndedAsync(string method)
        {
            int? status = null;
            if (process != null)
            {
                if (await WithinAsync(exited.Task, closeTimeout).ConfigureAwait(false))
                {
                    status = process.ExitCode;
                    // A process the coprocess started may hold stderr open past the exit.
                    await WithinAsync(stderrDone, ExitDrain).ConfigureAwait(false);
                }
            }
            ended = true;
            endStatus = status;
            var lines = new List<string>();
            foreach (string text in StderrTail)
            {
                if (text.Length > 0)
                {
                    lines.Add(text);
                }
            }
            endLines = lines;
            closed ??= CoprocessClientMessages.ClosedAfterProtocolError();
            await FinishAsync(TimeSpan.Zero).ConfigureAwait(false);
            return Exited(method);
        }

        private CoprocessExitedException Exited(string method)
        {
            string message = endStatus == null
                ? CoprocessClientMessages.OutputClosed(method)
                : CoprocessClientMessages.Exited(method, endStatus.Value.ToString(CultureInfo.InvariantCulture));
            if (endLines.Count > 0)
            {
                message = CoprocessClientMessages.StderrTail(message, string.Join("\n", endLines));
            }
            return new CoprocessExitedException(method, message, endStatus, endLines);
        }

        private static async Task<bool> WithinAsync(Task task, TimeSpan wait)
        {
            if (task.IsCompleted)
            {
                return true;
            }
            wait = Bounded(wait);
            if (wait == TimeSpan.Zero)
            {
                return false;
            }
            using (var timer = new CancellationTokenSource())
            {
                Task first = await Task.WhenAny(task, Task.Delay(wait, timer.Token)).ConfigureAwait(false);
                timer.Cancel();
                return first == task;
            }
        }

        /// <summary>Ends the session after a failure: closed for <paramref name="reason"/>, the coprocess killed.</summary>
        private Task FailAsync(string reason)
        {
            closed = reason;
            return FinishAsync(TimeSpan.Zero);
        }

        /// <summary>Closes the input, waits up to <paramref name="grace"/> for the exit, then kills.</summary>
        private async Task FinishAsync(TimeSpan grace)
        {
            // First: the pipes hold the input open.
            DropPipes();
            try
            {
                writer.Dispose();
            }
            catch (Exception error) when (error is IOException || error is ObjectDisposedException)
            {
                // Already closed by the other side.
            }
            if (process == null)
            {
                return;
            }
            if (!await WithinAsync(exited.Task, grace).ConfigureAwait(false))
            {
                Kill();
                await WithinAsync(exited.Task, Bounded(closeTimeout) + TimeSpan.FromSeconds(5)).ConfigureAwait(false);
            }
            lock (timerLock)
            {
                watchStopped = true;
                Monitor.Pulse(timerLock);
            }
        }

        private void Kill()
        {
            try
            {
                process?.Kill();
            }
            catch (Exception error) when (error is InvalidOperationException || error is System.ComponentModel.Win32Exception)
            {
                // It exited meanwhile.
            }
        }

        private void ReadStderr(Stream errors, TaskCompletionSource<bool> ended)
        {
            var chunk = new byte[StderrLineBytes];
            var line = new byte[StderrLineBytes];
            int length = 0;
            try
            {
                while (true)
                {
                    int count = errors.Read(chunk, 0, chunk.Length);
                    if (count <= 0)
                    {
                        break;
                    }
                    for (int i = 0; i < count; i++)
                    {
                        byte b = chunk[i];
                        if (b != (byte)'\n')
                        {
                            line[length++] = b;
                        }
                        if (b == (byte)'\n' || length == line.Length)
                        {
                            KeepStderr(line, length);
                            length = 0;
                        }
                    }
                }
            }
            catch (Exception error) when (error is IOException || error is ObjectDisposedException)
            {
                // The pipe went away with the coprocess.
            }
            if (length > 0)
            {
                KeepStderr(line, length);
            }
            ended.TrySetResult(true);
        }

        private void KeepStderr(byte[] line, int length)
        {
            if (length > 0 && line[length - 1] == (byte)'\r')
            {
                length--;
            }
            string text = LenientUtf8.GetString(line, 0, length);
            lock (stderr)
            {
                stderr.Enqueue(text);
                while (stderr.Count > StderrLines)
                {
                    stderr.Dequeue();
                }
            }
        }

        private static long Ticks(TimeSpan wait)
        {
            return (long)(Bounded(wait).TotalSeconds * Stopwatch.Frequency);
        }

        /// <summary>
        /// A wait the timers can hold: <c>Timeout.InfiniteTimeSpan</c> (any negative span) and anything
        /// longer than <see cref="LongestWait"/> wait that long.
        /// </summary>
        private static TimeSpan Bounded(TimeSpan wait)
        {
            return wait < TimeSpan.Zero || wait > LongestWait ? LongestWait : wait;
        }

        private static TimeSpan Remaining(long deadline)
        {
            long left = deadline - Stopwatch.GetTimestamp();
            return left <= 0 ? TimeSpan.Zero : TimeSpan.FromSeconds((double)left / Stopwatch.Frequency);
        }

        /// <summary>
        /// A spawned coprocess's input and output pipes as descriptors (not on Windows), written and
        /// read with write(2) and read(2), P/Invoked from libc, rather than through the streams
        /// (whose buffer and checks cost 0.3 µs a call), and the wait for an answer in the calling
        /// thread (see <see cref="AnswerWait"/>), so that an answer that comes at once (most do) is
        /// read at once, without the asynchronous read's hand-off to a pool thread (on .NET Core 3.1
        /// a pipe's ReadAsync is a blocking read there) and back; that read goes through the stream,
        /// which keeps no bytes of its own for reads as long as ours.
        /// </summary>
        private sealed class Pipes : IDisposable
        {
            /// <summary>EINTR: a signal came before the system call did anything.</summary>
            private const int Interrupted = 4;

            private readonly SafeHandle output;
            private readonly SafeHandle input;

            /// <summary>
            /// The output's and the input's descriptors, held open from <see cref="For"/> to <see
            /// cref="Dispose"/> (each handle's count raised once), so that a call passes the numbers
            /// and no handle is counted up and down around each system call.
            /// </summary>
            private readonly int outputDescriptor;
            private readonly int inputDescriptor;

            private readonly AnswerWait wait;

            private bool disposed;

            private Pipes(SafeHandle output, SafeHandle input)
            {
                this.output = output;
                this.input = input;
                outputDescriptor = (int)output.DangerousGetHandle();
                inputDescriptor = (int)input.DangerousGetHandle();
                wait = new AnswerWait(outputDescriptor);
            }

            /// <summary>A spawned coprocess's pipes, or null when either stream has no descriptor (or it is closed).</summary>
            internal static Pipes? For(Stream output, Stream input)
            {
                SafeHandle? outputHandle = Handle(output);
                SafeHandle? inputHandle = Handle(input);
                if (outputHandle == null || inputHandle == null)
                {
                    return null;
                }
                bool outputHeld = false;
                bool inputHeld = false;
                try
                {
                    outputHandle.DangerousAddRef(ref outputHeld);
                    inputHandle.DangerousAddRef(ref inputHeld);
                }
                catch (ObjectDisposedException)
                {
                    if (outputHeld)
                    {
                        outputHandle.DangerousRelease();
                    }
                    return null;
                }
                return new Pipes(outputHandle, inputHandle);
            }

            /// <summary>Writes all of <paramref name="count"/> bytes from <paramref name="offset"/>; false when the input is closed.</summary>
            internal bool Write(byte[] bytes, int offset, int count)
            {
                ThrowIfDisposed();
                while (count > 0)
                {
                    long written = WriteDescriptor(inputDescriptor, ref bytes[offset], (UIntPtr)count).ToInt64();
                    if (written < 0 && Marshal.GetLastWin32Error() != Interrupted)
                    {
                        return false;
                    }
                    if (written > 0)
                    {
                        offset += (int)written;
                        count -= (int)written;
                    }
                }
                return true;
            }

            /// <summary>Reads up to <paramref name="count"/> bytes into <paramref name="offset"/>: their count, 0 at the end of output.</summary>
            internal int Read(byte[] bytes, int offset, int count)
            {
                ThrowIfDisposed();
                while (true)
                {
                    long read = ReadDescriptor(outputDescriptor, ref bytes[offset], (UIntPtr)count).ToInt64();
                    if (read >= 0 || Marshal.GetLastWin32Error() != Interrupted)
                    {
                        return (int)Math.Max(0, read);
                    }
                }
            }

            /// <summary>Whether the output has bytes, or its end, to read before <paramref name="until"/>.</summary>
            internal bool Ready(long until)
            {
                ThrowIfDisposed();
                return wait.Ready(until);
            }

            /// <summary>Ends the wait and lets the streams close the pipes.</summary>
            public void Dispose()
            {
                if (disposed)
                {
                    return;
                }
                disposed = true;
                wait.Dispose();
                output.DangerousRelease();
                input.DangerousRelease();
            }

            /// <summary>Refuses a use after <see cref="Dispose"/>: the descriptors' numbers may name other files by then.</summary>
            private void ThrowIfDisposed()
            {
                if (disposed)
                {
                    throw new ObjectDisposedException(nameof(Pipes));
                }
            }

            private static SafeHandle? Handle(Stream stream)
            {
                return stream switch
                {
                    FileStream file => file.SafeFileHandle,
                    PipeStream pipe => pipe.SafePipeHandle,
                    _ => null,
                };
            }

            [DllImport("libc", EntryPoint = "write", SetLastError = true)]
            private static extern IntPtr WriteDescriptor(int descriptor, ref byte bytes, UIntPtr count);

            [DllImport("libc", EntryPoint = "read", SetLastError = true)]
            private static extern IntPtr ReadDescriptor(int descriptor, ref byte bytes, UIntPtr count);
        }

        /// <summary>
        /// The wait in the calling thread for the output to have bytes (or their end) to read, which
        /// ends <see cref="SyncWaitMilliseconds"/> after the exchange began. On Linux an epoll(7)
        /// instance holds the output and a timerfd that keeps that time: a wait with a timeout of its
        /// own sets a kernel timer each time it sleeps (0.6 µs a call, a loop in C measured), whereas
        /// the timerfd stays set from call to call and is set again only when it fires, about once a
        /// millisecond of calls; and epoll_wait(2) sleeps on both without poll(2)'s setting up of a
        /// wait on each descriptor at every call (0.2 to 0.3 µs a call, the same loop). Elsewhere, or
        /// without epoll or a timerfd, poll's own timeout keeps the time.
        /// </summary>
        private sealed class AnswerWait : IDisposable
        {
            /// <summary>poll(2)'s and epoll(7)'s event of a descriptor with bytes to read (or the end of them).</summary>
            private const short ReadableEvent = 1;

            /// <summary>timerfd_create(2)'s clock and flags: CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC.</summary>
            private const int MonotonicClock = 1;
            private const int TimerFlags = 0x800 | 0x80000;

            /// <summary>epoll_create1(2)'s flag EPOLL_CLOEXEC, and epoll_ctl(2)'s EPOLL_CTL_ADD.</summary>
            private const int EpollFlags = 0x80000;
            private const int EpollAdd = 1;

            /// <summary>What the epoll instance says of the output and of the timer, in its events' data.</summary>
            private const ulong OutputMark = 0;
            private const ulong TimerMark = 1;

            /// <summary>
            /// Where an epoll_event's data follows its events: the kernel packs the struct on x86-64
            /// (and x86 aligns the data to 4), elsewhere the data is aligned to 8.
            /// </summary>
            private static readonly int DataOffset =
                RuntimeInformation.ProcessArchitecture == Architecture.X64 || RuntimeInformation.ProcessArchitecture == Architecture.X86 ? 4 : 8;

            private readonly int output;
            private readonly Descriptor? timer;
            private readonly Descriptor? epoll;

            /// <summary>One epoll_event, as the kernel lays it out (see <see cref="DataOffset"/>).</summary>
            private readonly byte[] happened = new byte[16];

            /// <summary>Whether the timer is set and has not been read since it last fired.</summary>
            private bool set;

            /// <summary>Whether the epoll instance and the timer keep the time (until they are given up).</summary>
            private bool timed;

            internal AnswerWait(int output)
            {
                this.output = output;
                timer = Descriptor.Timer();
                epoll = timer == null ? null : Descriptor.Epoll();
                timed = epoll != null && Watch(epoll, output, OutputMark) && Watch(epoll, Number(timer!), TimerMark);
                if (!timed)
                {
                    GiveUp();
                }
            }

            /// <summary>Whether the output has bytes, or its end, to read before <paramref name="until"/>.</summary>
            internal bool Ready(long until)
            {
                if (!timed)
                {
                    var single = new PollDescriptor { Descriptor = output, Events = ReadableEvent };
                    return Poll(ref single, (UIntPtr)1, SyncWaitMilliseconds) > 0;
                }
                int epollNumber = Number(epoll!);
                while (set || Set(until))
                {
                    if (WaitEpoll(epollNumber, ref happened[0], 1, -1) != 1)
                    {
                        // A signal: the asynchronous read waits on.
                        return false;
                    }
                    if (BitConverter.ToUInt64(happened, DataOffset) == OutputMark)
                    {
                        return true;
                    }
                    if (ReadTimer(Number(timer!), out _, (UIntPtr)sizeof(ulong)) != (IntPtr)sizeof(ulong))
                    {
                        // Never seen: the timer is given up, and poll keeps the time from now on.
                        GiveUp();
                        return false;
                    }
                    // Fired: set for an earlier exchange, it is set again for what is left of this one's wait.
                    set = false;
                }
                return false;
            }

            /// <inheritdoc/>
            public void Dispose()
            {
                GiveUp();
            }

            /// <summary>Closes the epoll instance and the timer: poll keeps the time from now on.</summary>
            private void GiveUp()
            {
                timed = false;
                epoll?.Dispose();
                timer?.Dispose();
            }

            /// <summary>Sets the timer to fire at <paramref name="until"/>; false, setting nothing, when that has passed.</summary>
            private bool Set(long until)
            {
                long left = until - Stopwatch.GetTimestamp();
                if (left <= 0)
                {
                    return false;
                }
                long nanoseconds = Math.Max(1, (long)((double)left * 1e9 / Stopwatch.Frequency));
                var value = new TimerSpec
                {
                    Seconds = new IntPtr(nanoseconds / 1000000000),
                    Nanoseconds = new IntPtr(nanoseconds % 1000000000),
                };
                set = SetTimer(Number(timer!), 0, ref value, IntPtr.Zero) == 0;
                return set;
            }

            /// <summary>Adds <paramref name="descriptor"/> to the epoll instance, its readiness marked <paramref name="mark"/>.</summary>
            private static bool Watch(Descriptor epoll, int descriptor, ulong mark)
            {
                var watched = new byte[16];
                BitConverter.TryWriteBytes(new Span<byte>(watched, 0, sizeof(uint)), (uint)ReadableEvent);
                BitConverter.TryWriteBytes(new Span<byte>(watched, DataOffset, sizeof(ulong)), mark);
                return ControlEpoll(Number(epoll), EpollAdd, descriptor, ref watched[0]) == 0;
            }

            /// <summary>
            /// The number of a descriptor only this class closes (in <see cref="GiveUp"/>, after which
            /// it is not used), so no count is kept around its uses.
            /// </summary>
            private static int Number(Descriptor descriptor)
            {
                return (int)descriptor.DangerousGetHandle();
            }

            [DllImport("libc", EntryPoint = "poll")]
            private static extern int Poll(ref PollDescriptor descriptors, UIntPtr count, int milliseconds);

            [DllImport("libc", EntryPoint = "epoll_ctl")]
            private static extern int ControlEpoll(int epoll, int operation, int descriptor, ref byte watched);

            [DllImport("libc", EntryPoint = "epoll_wait")]
            private static extern int WaitEpoll(int epoll, ref byte happened, int count, int milliseconds);

            [DllImport("libc", EntryPoint = "timerfd_settime")]
            private static extern int SetTimer(int timer, int flags, ref TimerSpec value, IntPtr old);

            [DllImport("libc", EntryPoint = "read")]
            private static extern IntPtr ReadTimer(int timer, out ulong expirations, UIntPtr count);

            /// <summary>One entry of poll(2)'s array: the descriptor, the events asked, the events found.</summary>
            [StructLayout(LayoutKind.Sequential)]
            private struct PollDescriptor
            {
                public int Descriptor;
                public short Events;
                public short Returned;
            }

            /// <summary>timerfd_settime(2)'s itimerspec: no interval, one expiry after the value.</summary>
            [StructLayout(LayoutKind.Sequential)]
            private struct TimerSpec
            {
                public IntPtr IntervalSeconds;
                public IntPtr IntervalNanoseconds;
                public IntPtr Seconds;
                public IntPtr Nanoseconds;
            }

            /// <summary>A descriptor of the wait's own (the timerfd, the epoll instance), closed with it (or by the finalizer).</summary>
            private sealed class Descriptor : SafeHandle
            {
                private Descriptor(int number)
                    : base(new IntPtr(-1), true)
                {
                    SetHandle(new IntPtr(number));
                }

                /// <inheritdoc/>
                public override bool IsInvalid => handle == new IntPtr(-1);

                /// <summary>A new timerfd, or null where there is none (not Linux, or out of descriptors).</summary>
                internal static Descriptor? Timer()
                {
                    return Made(() => CreateTimer(MonotonicClock, TimerFlags));
                }

                /// <summary>A new epoll instance, or null where there is none.</summary>
                internal static Descriptor? Epoll()
                {
                    return Made(() => CreateEpoll(EpollFlags));
                }

                /// <inheritdoc/>
                protected override bool ReleaseHandle()
                {
                    return CloseDescriptor(handle.ToInt32()) == 0;
                }

                private static Descriptor? Made(Func<int> create)
                {
                    try
                    {
                        int number = create();
                        return number < 0 ? null : new Descriptor(number);
                    }
                    catch (Exception error) when (IsMissing(error))
                    {
                        return null;
                    }
                }

                [DllImport("libc", EntryPoint = "timerfd_create")]
                private static extern int CreateTimer(int clock, int flags);

                [DllImport("libc", EntryPoint = "epoll_create1")]
                private static extern int CreateEpoll(int flags);

                [DllImport("libc", EntryPoint = "close")]
                private static extern int CloseDescriptor(int descriptor);
            }
        }

        /// <summary>What the answer and request layouts are learnt with, and how a line is cut for them.</summary>
        private static class LineLayouts
        {
            /// <summary>The id a layout is learnt with: the control character keeps it out of any text the encoder writes unescaped.</summary>
            internal const string IdMark = "\u0001id";

            private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false, true);

            /// <summary>
            /// <paramref name="text"/>, written with its id set to <see cref="IdMark"/>, cut at the
            /// mark's text and at <paramref name="inner"/>, which must occur once and only once after
            /// it: the UTF-8 before the mark, between the two, and after <paramref name="inner"/>. Null
            /// when the text does not cut so.
            /// </summary>
            internal static (byte[] Head, byte[] Middle, byte[] Tail)? Cut(string text, string inner)
            {
                var mark = new StringBuilder();
                new RoleRequestId(IdMark).Write(mark);
                string idText = mark.ToString();
                int at = text.IndexOf(idText, StringComparison.Ordinal);
                if (at < 0)
                {
                    return null;
                }
                int from = at + idText.Length;
                int innerAt = text.IndexOf(inner, from, StringComparison.Ordinal);
                if (innerAt < 0 || text.IndexOf(inner, innerAt + 1, StringComparison.Ordinal) >= 0)
                {
                    return null;
                }
                return (
                    Utf8.GetBytes(text.Substring(0, at)),
                    Utf8.GetBytes(text.Substring(from, innerAt - from)),
                    Utf8.GetBytes(text.Substring(innerAt + inner.Length)));
            }
        }

        /// <summary>
        /// How a method's request line is laid out around its id and its params: the generated
        /// encoder's text of the session's first request of the method with params, written with its
        /// id set to a mark, cut at the mark and at the text the params' own codec writes (see
        /// <see cref="LineLayouts.Cut"/>; else no layout). A call's line is the parts joined with its
        /// id's digits and its params' text, which is the encoder's text of that request, so that a
        /// call writes neither the envelope nor its id as objects.
        /// </summary>
        private sealed class RequestLayout
        {
            private readonly byte[] head;
            private readonly byte[] middle;
            private readonly byte[] tail;

            private RequestLayout(string method, byte[] head, byte[] middle, byte[] tail)
            {
                Method = method;
                this.head = head;
                this.middle = middle;
                this.tail = tail;
            }

            /// <summary>The method whose requests are laid out so.</summary>
            internal string Method { get; }

            /// <summary>The layout of a request of <paramref name="method"/> with <paramref name="parameters"/>, or null when its text does not cut so.</summary>
            internal static RequestLayout? Of<TParams>(string method, TParams parameters)
                where TParams : class
            {
                var envelope = new StringBuilder();
                new RoleRequestOf<TParams>(RoleJsonRpcVersion.V2_0, new RoleRequestId(LineLayouts.IdMark), method) { Params = parameters }.Write(envelope);
                var text = new StringBuilder();
                CoprocessCodec<TParams>.Get().Write(text, parameters);
                (byte[] Head, byte[] Middle, byte[] Tail)? parts = LineLayouts.Cut(envelope.ToString(), text.ToString());
                return parts == null ? null : new RequestLayout(method, parts.Value.Head, parts.Value.Middle, parts.Value.Tail);
            }

            /// <summary>The most bytes a line takes whose params' text is <paramref name="chars"/> UTF-16 code units.</summary>
            internal int MostBytes(int chars)
            {
                // An id's digits (and sign) take 20 bytes at most, the newline one.
                return head.Length + 20 + middle.Length + StrictUtf8.GetMaxByteCount(chars) + tail.Length + 1;
            }

            /// <summary>
            /// Writes the line (with its newline) of call <paramref name="id"/> whose params' text is
            /// the first <paramref name="count"/> of <paramref name="chars"/> into <paramref name="bytes"/>
            /// (at least <see cref="MostBytes"/> long): its length.
            /// </summary>
            internal int Write(byte[] bytes, long id, char[] chars, int count)
            {
                int at = Copy(head, bytes, 0);
                Utf8Formatter.TryFormat(id, new Span<byte>(bytes, at, 20), out int digits);
                at = Copy(middle, bytes, at + digits);
                at += StrictUtf8.GetBytes(chars, 0, count, bytes, at);
                at = Copy(tail, bytes, at);
                bytes[at] = (byte)'\n';
                return at + 1;
            }

            private static int Copy(byte[] part, byte[] bytes, int at)
            {
                Buffer.BlockCopy(part, 0, bytes, at, part.Length);
                return at + part.Length;
            }
        }

        /// <summary>
        /// How a success answer's line is laid out around its id and its result: the generated
        /// encoder's text of the session's first success answer, its id replaced by a mark, cut at
        /// the mark and at its result's own text (found once, and only once, after the mark). An
        /// answer to call <c>id</c> laid out so is that envelope with the call's id, its other
        /// members as the first answer had them: only its result is left to decode, as the bytes
        /// between the parts (which the whole answer's decode reads the same, one container deeper).
        /// </summary>
        private sealed class AnswerLayout
        {
            private readonly byte[] head;
            private readonly byte[] middle;
            private readonly byte[] tail;

            private AnswerLayout(byte[] head, byte[] middle, byte[] tail)
            {
                this.head = head;
                this.middle = middle;
                this.tail = tail;
            }

            /// <summary>The layout of <paramref name="success"/>, or null when its text does not cut so.</summary>
            internal static AnswerLayout? Of<TResult>(RoleSuccessResponseOf<TResult> success)
                where TResult : class
            {
                RoleRequestId id = success.Id;
                var envelope = new StringBuilder();
                try
                {
                    success.Id = new RoleRequestId(LineLayouts.IdMark);
                    success.Write(envelope);
                }
                finally
                {
                    success.Id = id;
                }
                var result = new StringBuilder();
                CoprocessCodec<TResult>.Get().Write(result, success.Result);
                (byte[] Head, byte[] Middle, byte[] Tail)? parts = LineLayouts.Cut(envelope.ToString(), result.ToString());
                return parts == null ? null : new AnswerLayout(parts.Value.Head, parts.Value.Middle, parts.Value.Tail);
            }

            /// <summary>
            /// Whether the answer line in <paramref name="line"/> is laid out as a success answer to
            /// call <paramref name="id"/>: then its result's text is the <paramref name="count"/> bytes
            /// from <paramref name="offset"/>, which the whole answer's decode reads the same.
            /// </summary>
            internal bool Encloses(byte[] line, int first, int length, long id, out int offset, out int count)
            {
                offset = 0;
                count = 0;
                Span<byte> digits = stackalloc byte[20];
                if (!Utf8Formatter.TryFormat(id, digits, out int idLength))
                {
                    return false;
                }
                ReadOnlySpan<byte> idText = digits.Slice(0, idLength);
                var text = new ReadOnlySpan<byte>(line, first, length);
                int fixedLength = head.Length + idLength + middle.Length;
                if (length < fixedLength + tail.Length
                    || !text.StartsWith(new ReadOnlySpan<byte>(head))
                    || !text.Slice(head.Length).StartsWith(idText)
                    || !text.Slice(head.Length + idLength).StartsWith(new ReadOnlySpan<byte>(middle))
                    || !text.EndsWith(new ReadOnlySpan<byte>(tail)))
                {
                    return false;
                }
                offset = first + fixedLength;
                count = length - fixedLength - tail.Length;
                return true;
            }
        }

        /// <summary>The one-pass reader of a typed response, made once per result type.</summary>
        private static class ResponseReader<TResult>
            where TResult : class
        {
            internal static readonly CoprocessRead<RoleResponseOf<TResult>> Read = (ref Utf8JsonReader reader) => RoleResponseOf<TResult>.Read(ref reader);
        }
    }
}
