// The .NET conformance testee: reads NDJSON cases on stdin and answers one
// line per case using only the generated Coprocess.cs and the standard library
// (see docs/targets.md, "Testees").
#nullable enable

using System;
using System.IO;
using System.Linq;
using System.Text;
using System.Text.Json;
using Mcptest.Sdk;
// The System types used here that no generated name escapes: a schema may name
// a type Console, and an alias wins over both imported namespaces.
using Console = System.Console;
using StreamReader = System.IO.StreamReader;
using StreamWriter = System.IO.StreamWriter;

namespace Mcptest.Conformance
{
    public static class Testee
    {
        public static int Main()
        {
            var utf8 = new UTF8Encoding(false);
            using var input = new StreamReader(Console.OpenStandardInput(), utf8);
            using var output = new StreamWriter(Console.OpenStandardOutput(), utf8) { NewLine = "\n" };
            string? line;
            while ((line = input.ReadLine()) != null)
            {
                if (line.Trim().Length == 0)
                {
                    continue;
                }
                output.WriteLine(Answer(line));
                output.Flush();
            }
            return 0;
        }

        private static string Answer(string line)
        {
            try
            {
                using JsonDocument document = JsonDocument.Parse(line);
                JsonElement request = document.RootElement;
                string op = request.TryGetProperty("op", out JsonElement opValue) ? opValue.GetString() ?? "decode" : "decode";
                switch (op)
                {
                    case "decode":
                        return Decode(request);
                    case "handshake_request":
                        return Ok(HandshakeRequest(request));
                    case "check_handshake":
                        return CheckHandshake(request);
                    case "lane_cli_hint":
                        string? hint = Coprocess.LaneCliHint(Text(request, "lane"), Text(request, "suite"));
                        return Ok(hint == null ? "null" : Quote(hint));
                    case "constants":
                        return Ok(Constants());
                    default:
                        return Fail("unknown op `" + op + "`");
                }
            }
            catch (Exception error) when (!(error is CoprocessDecodeException))
            {
                return Fail("testee: " + error.GetType().Name + ": " + error.Message);
            }
        }

        private static string Decode(JsonElement request)
        {
            string type = Text(request, "type");
            string json = Text(request, "json");
            string answer = Answer(() => Coprocess.Encode(Coprocess.Decode(type, json)));
            string? typed = Typed(type, json, answer);
            return typed == null ? answer : Fail("testee: the typed envelope disagrees: " + typed);
        }

        private static string Answer(Func<string> decode)
        {
            try
            {
                return Ok(decode());
            }
            catch (CoprocessDecodeException error)
            {
                return Fail(error.Message);
            }
        }

        /// <summary>
        /// Checks the typed envelopes against the open ones: <c>RequestOf&lt;Params&gt;</c> must answer
        /// exactly as <c>Request</c>; <c>ResponseOf&lt;McpObject&gt;</c> must accept a response exactly
        /// when <c>Response</c> does and its result is an object, with the same encoding. Returns what
        /// the typed envelope answered when it disagrees, else null.
        /// </summary>
        private static string? Typed(string type, string json, string answer)
        {
            if (type == "Request")
            {
                string typed = Answer(() => RequestOf<Params>.Decode(json).ToJson());
                return typed == answer ? null : typed;
            }
            if (type == "Response")
            {
                bool objectResult = false;
                try
                {
                    Response response = Response.Decode(json);
                    objectResult = response.ErrorResponse != null || response.SuccessResponse?.Result.ValueKind == JsonValueKind.Object;
                }
                catch (CoprocessDecodeException)
                {
                }
                string typed = Answer(() => ResponseOf<McpObject>.Decode(json).ToJson());
                bool agrees = objectResult ? typed == answer : typed.StartsWith("{\"ok\":false", StringComparison.Ordinal);
                return agrees ? null : typed;
            }
            return null;
        }

        private static string HandshakeRequest(JsonElement request)
        {
            JsonElement id = request.GetProperty("id");
            RequestId requestId = id.ValueKind == JsonValueKind.String ? new RequestId(id.GetString() ?? "") : new RequestId(id.GetInt64());
            return Coprocess.HandshakeRequest(requestId, Text(request, "sdk"), Text(request, "sdk_version"));
        }

        private static string CheckHandshake(JsonElement request)
        {
            try
            {
                return Ok(Coprocess.CheckHandshakeResponse(Text(request, "json")).ToJson());
            }
            catch (CoprocessDecodeException error)
            {
                return Fail(error.Message);
            }
            catch (CoprocessVersionException error)
            {
                return Fail(error.Message);
            }
        }

        private static string Constants()
        {
            string methods = string.Join(",", Coprocess.MethodTable.Select(m => Quote(m.Name)));
            string codes = string.Join(",", Coprocess.ErrorCodeTable.Select(c => Quote(c.Name) + ":" + c.Code));
            string lanes = string.Join(",", Coprocess.UnsupportedLanes.Select(Quote));
            return "{\"protocol_version\":" + Coprocess.CoprocessProtocolVersion + ",\"methods\":[" + methods
                + "],\"error_codes\":{" + codes + "},\"unsupported_lanes\":[" + lanes + "]}";
        }

        private static string Text(JsonElement request, string name)
        {
            return request.GetProperty(name).GetString() ?? "";
        }

        private static string Ok(string valueJson) => "{\"ok\":true,\"value\":" + valueJson + "}";

        private static string Fail(string message) => "{\"ok\":false,\"error\":" + Quote(message) + "}";

        private static string Quote(string text)
        {
            var builder = new StringBuilder("\"");
            foreach (char c in text)
            {
                switch (c)
                {
                    case '"': builder.Append("\\\""); break;
                    case '\\': builder.Append("\\\\"); break;
                    case '\n': builder.Append("\\n"); break;
                    case '\r': builder.Append("\\r"); break;
                    case '\t': builder.Append("\\t"); break;
                    default:
                        if (c < 0x20 || char.IsSurrogate(c))
                        {
                            builder.Append("\\u").Append(((int)c).ToString("x4"));
                        }
                        else
                        {
                            builder.Append(c);
                        }
                        break;
                }
            }
            return builder.Append('"').ToString();
        }
    }
}
