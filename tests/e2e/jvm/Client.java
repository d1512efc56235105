// The JVM end-to-end client: drives the mcptest coprocess with the generated
// dev.mcptest.Coprocess, Jackson (for the report) and the JDK only. Every
// request line is built with the generated types and encoders, every response
// line decoded with the generated strict decoders (the typed envelopes, the
// result read as the method's result type in the same pass). The scenario and the
// coprocess come from the environment (see tests/e2e.rs); the report is one
// JSON line on stdout.

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptest.Coprocess;
import dev.mcptest.Coprocess.CallParams;
import dev.mcptest.Coprocess.CallPromptParams;
import dev.mcptest.Coprocess.CallPromptResult;
import dev.mcptest.Coprocess.CallResult;
import dev.mcptest.Coprocess.Encodable;
import dev.mcptest.Coprocess.ErrorResponseOf;
import dev.mcptest.Coprocess.HandshakeResult;
import dev.mcptest.Coprocess.InitializeResult;
import dev.mcptest.Coprocess.JsonRpcVersion;
import dev.mcptest.Coprocess.ListToolsResult;
import dev.mcptest.Coprocess.McpObject;
import dev.mcptest.Coprocess.Methods;
import dev.mcptest.Coprocess.PromptArguments;
import dev.mcptest.Coprocess.ReadResourceParams;
import dev.mcptest.Coprocess.ReadResourceResult;
import dev.mcptest.Coprocess.RequestId;
import dev.mcptest.Coprocess.RequestOf;
import dev.mcptest.Coprocess.ResponseOf;
import dev.mcptest.Coprocess.ShutdownResult;
import dev.mcptest.Coprocess.SuccessResponseOf;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The client: one scenario per run. */
public final class Client {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String SDK = "jvm";
    private static final String SDK_VERSION = "0.0.0-e2e";
    private static final long EXIT_TIMEOUT_S = 20;

    private Client() {}

    /** The scenario cannot go on; the message says what happened. */
    static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message);
        }
    }

    /** The coprocess and a minimal stdio loop: write one line, read one line. */
    static final class Session {
        private final Process process;
        private final Writer stdin;
        private final BufferedReader stdout;
        private long nextId = 1;

        Session(List<String> argv) throws IOException {
            process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        String exchange(String line) throws IOException, Failed {
            stdin.write(line);
            stdin.write('\n');
            stdin.flush();
            String answer = stdout.readLine(); // strips "\n" and a "\r" before it
            if (answer == null) {
                throw new Failed("the coprocess closed its stdout without answering");
            }
            return answer;
        }

        long takeId() {
            return nextId++;
        }

        HandshakeResult handshake() throws IOException, Failed {
            return Coprocess.checkHandshakeResponse(exchange(Coprocess.handshakeRequest(takeId(), SDK, SDK_VERSION)));
        }

        /**
         * Sends {@code method} with {@code params} (null: none) and decodes the answer as a
         * {@code ResponseOf<T>}: its result is read as {@code resultType}, the method's result
         * type, in the same pass as the frame.
         */
        <T> T call(String method, Encodable params, Class<T> resultType) throws IOException, Failed {
            RequestId id = RequestId.of(takeId());
            RequestOf<Encodable> request = new RequestOf<>(JsonRpcVersion.V2_0, id, method, params);
            ResponseOf<T> response = ResponseOf.fromJson(exchange(request.toJson()), resultType);
            if (response instanceof ErrorResponseOf<T> failure) {
                throw new Failed(method + " answered " + failure.error().code() + ": " + failure.error().message());
            }
            SuccessResponseOf<T> success = (SuccessResponseOf<T>) response;
            if (!success.id().equals(id)) {
                throw new Failed(method + ": answer has id " + success.id().toJson() + ", request had " + id.toJson());
            }
            return success.result();
        }

        void closeStdin() throws IOException {
            stdin.close();
        }

        int waitExit() throws Failed {
            try {
                if (!process.waitFor(EXIT_TIMEOUT_S, TimeUnit.SECONDS)) {
                    throw new Failed("the coprocess did not exit within " + EXIT_TIMEOUT_S + " s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Failed("interrupted while waiting for the coprocess");
            }
            return process.exitValue();
        }

        void kill() {
            process.destroyForcibly();
        }
    }

    /** The report's copy of a value: the generated encoder's text, parsed. */
    private static JsonNode reported(Encodable value) throws JsonProcessingException {
        return MAPPER.readTree(value.toJson());
    }

    private static ArrayNode toolNames(ListToolsResult tools) {
        ArrayNode names = MAPPER.createArrayNode();
        for (McpObject tool : tools.tools()) {
            names.add(tool.node().get("name"));
        }
        return names;
    }

    private static String env(String name) throws Failed {
        String value = System.getenv(name);
        if (value == null) {
            throw new Failed(name + " is not set");
        }
        return value;
    }

    static ObjectNode full(Session session) throws IOException, Failed {
        HandshakeResult handshake = session.handshake();
        InitializeResult initialize = session.call(Methods.MCP_INITIALIZE, null, InitializeResult.class);
        ListToolsResult tools = session.call(Methods.MCP_LIST_TOOLS, null, ListToolsResult.class);
        CallParams callParams = new CallParams(env("E2E_TOOL"), McpObject.fromJson(env("E2E_TOOL_ARGS")), null, null);
        CallResult call = session.call(Methods.MCP_CALL, callParams, CallResult.class);
        ReadResourceParams resourceParams = new ReadResourceParams(env("E2E_RESOURCE_URI"));
        ReadResourceResult resource = session.call(Methods.MCP_READ_RESOURCE, resourceParams, ReadResourceResult.class);
        CallPromptParams promptParams =
                new CallPromptParams(env("E2E_PROMPT"), PromptArguments.fromJson(env("E2E_PROMPT_ARGS")));
        CallPromptResult prompt = session.call(Methods.MCP_CALL_PROMPT, promptParams, CallPromptResult.class);
        ShutdownResult shutdown = session.call(Methods.MCP_SHUTDOWN, null, ShutdownResult.class);
        int exitCode = session.waitExit();
        ObjectNode report = MAPPER.createObjectNode().put("scenario", "full");
        report.set("handshake", reported(handshake));
        report.set("initialize", reported(initialize));
        report.set("tools", toolNames(tools));
        report.set("call", reported(call));
        report.set("resource", reported(resource));
        report.set("prompt", reported(prompt));
        report.set("shutdown", reported(shutdown));
        return report.put("exit_code", exitCode);
    }

    static ObjectNode handshakeOnly(Session session) throws IOException, Failed {
        ObjectNode report = MAPPER.createObjectNode().put("scenario", "handshake");
        try {
            HandshakeResult handshake = session.handshake();
            report.put("ok", true).set("value", reported(handshake));
        } catch (Coprocess.HandshakeException e) {
            report.put("ok", false).put("error", e.getMessage());
        }
        session.closeStdin();
        session.waitExit();
        return report;
    }

    static ObjectNode noHandshake(Session session) throws IOException, Failed {
        ListToolsResult tools = session.call(Methods.MCP_LIST_TOOLS, null, ListToolsResult.class);
        session.call(Methods.MCP_SHUTDOWN, null, ShutdownResult.class);
        ObjectNode report = MAPPER.createObjectNode().put("scenario", "no_handshake");
        report.set("tools", toolNames(tools));
        return report.put("exit_code", session.waitExit());
    }

    /**
     * Runs the scenario named by {@code E2E_SCENARIO} and prints its report.
     *
     * @param args ignored
     * @throws IOException when stdout fails
     */
    public static void main(String[] args) throws IOException {
        String scenario = System.getenv().getOrDefault("E2E_SCENARIO", "");
        Session session = null;
        try {
            List<String> argv = new ArrayList<>();
            for (JsonNode arg : MAPPER.readTree(env("MCPTEST_ARGV"))) {
                argv.add(arg.asText());
            }
            ObjectNode report;
            switch (scenario) {
                case "full" -> report = full(session = new Session(argv));
                case "handshake" -> report = handshakeOnly(session = new Session(argv));
                case "no_handshake" -> report = noHandshake(session = new Session(argv));
                default -> throw new Failed("unknown E2E_SCENARIO `" + scenario + "`");
            }
            System.out.println(MAPPER.writeValueAsString(report));
        } catch (Failed | IOException | Coprocess.DecodeException | Coprocess.HandshakeException e) {
            if (session != null) {
                session.kill();
            }
            ObjectNode report = MAPPER.createObjectNode().put("scenario", scenario);
            report.put("failed", e.getClass().getSimpleName() + ": " + e.getMessage());
            System.out.println(MAPPER.writeValueAsString(report));
            System.exit(1);
        }
    }
}
