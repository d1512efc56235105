// Stands in for the generated part of CoprocessClient.cs when the .NET build compiles
// codegen/src/targets/dotnet/client_runtime.cs on its own (with the generated Coprocess.cs): the
// members the runtime names: CoprocessClient's defaults and ShutdownMethod, and
// CoprocessClientMessages. The values and the wording here are placeholders; the generated file
// renders the contract's.
#nullable enable

namespace Mcptest.Sdk
{
    /// <summary>The stub of the generated part.</summary>
    public sealed partial class CoprocessClient
    {
        /// <summary>A placeholder.</summary>
        public const int StderrLines = 20;

        /// <summary>A placeholder.</summary>
        public static readonly System.TimeSpan DefaultCallTimeout = System.TimeSpan.FromSeconds(30);

        /// <summary>A placeholder.</summary>
        public static readonly System.TimeSpan DefaultStartTimeout = System.TimeSpan.FromSeconds(10);

        /// <summary>A placeholder.</summary>
        public static readonly System.TimeSpan DefaultCloseTimeout = System.TimeSpan.FromSeconds(5);

        /// <summary>A placeholder.</summary>
        public static readonly System.TimeSpan ExitDrain = System.TimeSpan.FromMilliseconds(500);

        private const string? ShutdownMethod = null;
    }

    internal static class CoprocessClientMessages
    {
        internal static string Closed(string method, string reason) => method + reason;

        internal static string ClosedByClose() => string.Empty;

        internal static string ClosedAfterShutdown() => string.Empty;

        internal static string ClosedAfterTimeout() => string.Empty;

        internal static string ClosedAfterProtocolError() => string.Empty;

        internal static string Timeout(string method, string ms) => method + ms;

        internal static string TimeoutStreams(string method, string ms) => method + ms;

        internal static string Exited(string method, string status) => method + status;

        internal static string OutputClosed(string method) => method;

        internal static string StderrTail(string message, string lines) => message + lines;

        internal static string SpawnFailed(string method, string path, string reason) => method + path + reason;

        internal static string WrongId(string method, string answerId, string requestId) => method + answerId + requestId;

        internal static string NotJson(string method) => method;

        internal static string TooLong(string method, string maxLineBytes) => method + maxLineBytes;

        internal static string Undecodable(string method, string resultType) => method + resultType;
    }
}
