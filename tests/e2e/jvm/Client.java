// The JVM end-to-end client: drives the mcptest coprocess with the generated
// session client, dev.mcptest.CoprocessClient (on the generated frame types
// of dev.mcptest.Coprocess), Jackson (for the report) and the JDK only. The
// real binary is started by CoprocessClient.start from the binary and the
// server argv that MCPTEST_ARGV carries; a fake coprocess (not a binary) is
// started here and driven with CoprocessClient.overStreams. The scenario and
// the coprocess come from the environment (see tests/e2e.rs); the report is
// one JSON line on stdout.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptest.Coprocess;
import dev.mcptest.Coprocess.CallParams;
import dev.mcptest.Coprocess.CallPromptParams;
import dev.mcptest.Coprocess.Encodable;
import dev.mcptest.Coprocess.ErrorResponse;
import dev.mcptest.Coprocess.JsonRpcVersion;
import dev.mcptest.Coprocess.ListToolsResult;
import dev.mcptest.Coprocess.McpObject;
import dev.mcptest.Coprocess.Methods;
import dev.mcptest.Coprocess.PromptArguments;
import dev.mcptest.Coprocess.ReadResourceParams;
import dev.mcptest.Coprocess.Request;
import dev.mcptest.Coprocess.RequestId;
import dev.mcptest.Coprocess.Response;
import dev.mcptest.Coprocess.SuccessResponse;
import dev.mcptest.CoprocessClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The client: one scenario per run. */
public final class Client {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final CoprocessClient.Options OPTIONS =
            CoprocessClient.Options.defaults().withTimeout(Duration.ofSeconds(60)).withSdk("jvm", "0.0.0-e2e");
    private static final long EXIT_TIMEOUT_S = 20;

    private Client() {}

    /** The scenario cannot go on; the message says what happened. */
    static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;

        Failed(String message) {
            super(message);
        }
    }

    /** The generated client on a coprocess, and the process when it was started here. */
    record Session(CoprocessClient client, Process process) {}

    /**
     * The generated client on the coprocess of {@code argv}: started by the client when
     * {@code argv} is the binary's own command line, else over the streams of a process
     * started here.
     */
    static Session spawn(List<String> argv) throws IOException, Failed {
        if (argv.size() == 5 && argv.subList(1, 4).equals(List.of("exec", "--connection-server", "--server-command"))) {
            return new Session(CoprocessClient.start(Path.of(argv.get(0)), shellSplit(argv.get(4)), OPTIONS), null);
        }
        Process process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            return new Session(
                    CoprocessClient.overStreams(process.getInputStream(), process.getOutputStream(), OPTIONS), process);
        } catch (RuntimeException e) {
            waitExit(process);
            throw e;
        }
    }

    /** The words of a POSIX shell-style command line (quotes and backslashes), as the binary splits it. */
    static List<String> shellSplit(String line) throws Failed {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n') {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
                continue;
            }
            if (word == null) {
                word = new StringBuilder();
            }
            if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new Failed("unclosed ' in " + line);
                }
                word.append(line, i + 1, end);
                i = end;
            } else if (c == '"') {
                for (i++; i < line.length() && line.charAt(i) != '"'; i++) {
                    char d = line.charAt(i);
                    if (d == '\\' && i + 1 < line.length() && "\\\"$`\n".indexOf(line.charAt(i + 1)) >= 0) {
                        d = line.charAt(++i);
                    }
                    word.append(d);
                }
                if (i >= line.length()) {
                    throw new Failed("unclosed \" in " + line);
                }
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(line.charAt(++i));
            } else {
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    static int waitExit(Process process) throws Failed {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // Already closed by the client.
        }
        try {
            if (!process.waitFor(EXIT_TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new Failed("the coprocess did not exit within " + EXIT_TIMEOUT_S + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failed("interrupted while waiting for the coprocess");
        }
        return process.exitValue();
    }

    /** The report's copy of a value: the generated encoder's text, parsed. */
    private static JsonNode reported(Encodable value) throws IOException {
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

    static ObjectNode full(List<String> argv) throws IOException, Failed {
        Session session = spawn(argv);
        ObjectNode report = MAPPER.createObjectNode().put("scenario", "full");
        CoprocessClient client = session.client();
        try {
            report.set("handshake", reported(client.handshakeResult()));
            report.set("initialize", reported(client.initialize()));
            ListToolsResult tools = client.listTools();
            CallParams callParams = new CallParams(env("E2E_TOOL"), McpObject.fromJson(env("E2E_TOOL_ARGS")), null, null);
            Encodable call = client.call(callParams);
            Encodable resource = client.readResource(new ReadResourceParams(env("E2E_RESOURCE_URI")));
            CallPromptParams promptParams =
                    new CallPromptParams(env("E2E_PROMPT"), PromptArguments.fromJson(env("E2E_PROMPT_ARGS")));
            Encodable prompt = client.callPrompt(promptParams);
            Encodable shutdown = client.shutdown();
            report.set("tools", toolNames(tools));
            report.set("call", reported(call));
            report.set("resource", reported(resource));
            report.set("prompt", reported(prompt));
            report.set("shutdown", reported(shutdown));
        } finally {
            client.close();
        }
        int exitCode = session.process() == null ? client.exitStatus().orElse(-1) : waitExit(session.process());
        return report.put("exit_code", exitCode);
    }

    static ObjectNode handshakeOnly(List<String> argv) throws IOException, Failed {
        ObjectNode report = MAPPER.createObjectNode().put("scenario", "handshake");
        Session session;
        try {
            session = spawn(argv);
        } catch (Coprocess.HandshakeException e) {
            return report.put("ok", false).put("error", e.getMessage());
        }
        JsonNode handshake = reported(session.client().handshakeResult());
        if (session.process() != null) {
            waitExit(session.process());
        }
        session.client().close();
        report.put("ok", true).set("value", handshake);
        return report;
    }

    /**
     * The binary serving an SDK that never handshakes (a v1 SDK): a client that always
     * handshakes cannot play it, so two raw request lines do.
     */
    static ObjectNode noHandshake(List<String> argv) throws IOException, Failed {
        Process process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        OutputStream stdin = process.getOutputStream();
        BufferedReader stdout =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        List<JsonNode> answers = new ArrayList<>();
        long id = 1;
        for (String method : List.of(Methods.MCP_LIST_TOOLS, Methods.MCP_SHUTDOWN)) {
            Request request = new Request(JsonRpcVersion.V2_0, RequestId.of(id++), method, null);
            stdin.write((request.toJson() + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            String line = stdout.readLine();
            if (line == null) {
                throw new Failed("the coprocess closed its stdout without answering " + method);
            }
            Response response = Response.fromJson(line);
            if (response instanceof ErrorResponse error) {
                throw new Failed(method + " answered " + error.error().code() + ": " + error.error().message());
            }
            answers.add(((SuccessResponse) response).result());
        }
        ObjectNode report = MAPPER.createObjectNode().put("scenario", "no_handshake");
        report.set("tools", toolNames(ListToolsResult.fromNode(answers.get(0))));
        return report.put("exit_code", waitExit(process));
    }

    /**
     * Runs the scenario named by {@code E2E_SCENARIO} and prints its report.
     *
     * @param args ignored
     * @throws IOException when stdout fails
     */
    public static void main(String[] args) throws IOException {
        String scenario = System.getenv().getOrDefault("E2E_SCENARIO", "");
        try {
            List<String> argv = new ArrayList<>();
            for (JsonNode arg : MAPPER.readTree(env("MCPTEST_ARGV"))) {
                argv.add(arg.asText());
            }
            ObjectNode report;
            switch (scenario) {
                case "full" -> report = full(argv);
                case "handshake" -> report = handshakeOnly(argv);
                case "no_handshake" -> report = noHandshake(argv);
                default -> throw new Failed("unknown E2E_SCENARIO `" + scenario + "`");
            }
            System.out.println(MAPPER.writeValueAsString(report));
        } catch (Failed | IOException | RuntimeException e) {
            ObjectNode report = MAPPER.createObjectNode().put("scenario", scenario);
            report.put("failed", e.getClass().getSimpleName() + ": " + e.getMessage());
            System.out.println(MAPPER.writeValueAsString(report));
            System.exit(1);
        }
    }
}
