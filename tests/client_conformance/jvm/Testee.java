// The JVM client's testee for the client conformance suite.
//
// Runs every scenario of CLIENT_SCENARIOS with the generated client,
// dev.mcptest.CoprocessClient, against the scripted fake (CLIENT_FAKE) or the
// real binary (CLIENT_BINARY), and prints one JSON line per scenario: its name
// and one outcome per step (a list of outcomes for a `parallel` step). See
// docs/client-scenarios.md and tests/client_conformance.rs.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptest.Coprocess;
import dev.mcptest.CoprocessClient;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;

/** The testee: every scenario of the file, one JSON line each. */
public final class Testee {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Testee() {}

    /** The client method of a wire name: {@code mcp.cache.set_mode} -> {@code cacheSetMode}. */
    static String javaName(String wire) {
        String[] segments = wire.split("[./]");
        StringBuilder out = new StringBuilder();
        for (int i = 1; i < segments.length; i++) {
            for (String word : segments[i].split("_|(?<=[a-z0-9])(?=[A-Z])")) {
                if (word.isEmpty()) {
                    continue;
                }
                String lower = word.toLowerCase(Locale.ROOT);
                out.append(out.length() == 0 ? lower : Character.toUpperCase(lower.charAt(0)) + lower.substring(1));
            }
        }
        return out.toString();
    }

    static ObjectNode failure(Throwable error) {
        ObjectNode outcome = NODES.objectNode();
        String kind = null;
        if (error instanceof Coprocess.HandshakeException) {
            kind = "handshake_error";
        } else if (error instanceof CoprocessClient.RpcException) {
            kind = "rpc_error";
        } else if (error instanceof CoprocessClient.ProtocolException) {
            kind = "protocol_error";
        } else if (error instanceof CoprocessClient.CallTimeoutException) {
            kind = "timeout";
        } else if (error instanceof CoprocessClient.SessionClosedException) {
            kind = "closed";
        } else if (error instanceof CoprocessClient.CoprocessExitedException) {
            kind = "exited";
        } else if (error instanceof CoprocessClient.SpawnException) {
            kind = "spawn_error";
        }
        if (kind == null) {
            outcome.put("kind", "crash");
            outcome.put("message", error.getClass().getName() + ": " + error.getMessage());
            return outcome;
        }
        outcome.put("kind", kind);
        outcome.put("message", error.getMessage());
        if (error instanceof CoprocessClient.ClientException client) {
            outcome.put("detail", client.detail());
        }
        if (error instanceof CoprocessClient.RpcException rpc) {
            outcome.put("code", rpc.code());
            outcome.put("name", rpc.name());
            outcome.set("data", rpc.data() == null ? NODES.nullNode() : rpc.data());
        }
        if (error instanceof CoprocessClient.CoprocessExitedException exited) {
            if (exited.status().isPresent()) {
                outcome.put("status", exited.status().getAsInt());
            } else {
                outcome.putNull("status");
            }
            ArrayNode lines = outcome.putArray("stderr");
            exited.stderr().forEach(lines::add);
        }
        return outcome;
    }

    /** One scenario's run. */
    static final class Scenario {
        private final JsonNode scenario;
        private final String file;
        private CoprocessClient client;
        private Process process;

        Scenario(JsonNode scenario, String file) {
            this.scenario = scenario;
            this.file = file;
        }

        ObjectNode start(JsonNode options) throws IOException {
            Path root = Path.of(System.getenv("CLIENT_ROOT"));
            JsonNode coprocess = scenario.path("coprocess");
            String binary =
                    coprocess.has("path")
                            ? root.resolve(coprocess.get("path").asText()).toString()
                            : "binary".equals(coprocess.asText("fake"))
                                    ? System.getenv("CLIENT_BINARY")
                                    : System.getenv("CLIENT_FAKE");
            List<String> argv = new ArrayList<>();
            JsonNode server = scenario.get("server");
            if (server == null) {
                argv.add("server");
            } else {
                for (JsonNode item : server) {
                    argv.add(item.isObject() ? root.resolve(item.get("path").asText()).toString() : item.asText());
                }
            }
            Map<String, String> env = new HashMap<>(System.getenv());
            env.put("CLIENT_SCENARIOS", file);
            env.put("CLIENT_SCENARIO", scenario.get("name").asText());
            CoprocessClient.Options settings = CoprocessClient.Options.defaults().withEnv(env);
            if (options.has("timeout_ms")) {
                settings = settings.withTimeout(Duration.ofMillis(options.get("timeout_ms").asLong()));
            }
            if (options.has("start_timeout_ms")) {
                settings = settings.withStartTimeout(Duration.ofMillis(options.get("start_timeout_ms").asLong()));
            }
            if (options.has("close_timeout_ms")) {
                settings = settings.withCloseTimeout(Duration.ofMillis(options.get("close_timeout_ms").asLong()));
            }
            if ("streams".equals(scenario.path("transport").asText())) {
                ProcessBuilder builder =
                        new ProcessBuilder(
                                binary,
                                "exec",
                                "--connection-server",
                                "--server-command",
                                CoprocessClient.serverCommand(argv));
                builder.environment().clear();
                builder.environment().putAll(env);
                builder.redirectError(ProcessBuilder.Redirect.INHERIT);
                process = builder.start();
                client = CoprocessClient.overStreams(process.getInputStream(), process.getOutputStream(), settings);
            } else {
                client = CoprocessClient.start(Path.of(binary), argv, settings);
            }
            ObjectNode outcome = NODES.objectNode();
            outcome.put("kind", "ok");
            return outcome;
        }

        ObjectNode call(JsonNode step) throws ReflectiveOperationException, IOException {
            String wire = step.get("call").asText();
            Coprocess.MethodSpec spec =
                    Coprocess.Methods.ALL.stream()
                            .filter(m -> m.name().equals(wire))
                            .findFirst()
                            .orElseThrow(() -> new IllegalArgumentException("no method " + wire));
            Coprocess.Encodable params =
                    step.has("params") ? Coprocess.decode(spec.params(), MAPPER.writeValueAsString(step.get("params"))) : null;
            Duration timeout = step.has("timeout_ms") ? Duration.ofMillis(step.get("timeout_ms").asLong()) : null;
            if (client == null) {
                ObjectNode outcome = NODES.objectNode();
                outcome.put("kind", "crash");
                outcome.put("message", "no client: the scenario's start failed");
                return outcome;
            }
            Method method = null;
            for (Method candidate : CoprocessClient.class.getMethods()) {
                if (candidate.getName().equals(javaName(wire)) && candidate.getParameterCount() == 2) {
                    method = candidate;
                }
            }
            if (method == null) {
                throw new IllegalArgumentException("no client method for " + wire);
            }
            Object result;
            try {
                result = method.invoke(client, params, timeout);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof RuntimeException cause) {
                    throw cause;
                }
                throw e;
            }
            ObjectNode outcome = NODES.objectNode();
            outcome.put("kind", "ok");
            outcome.set("result", MAPPER.readTree(((Coprocess.Encodable) result).toJson()));
            if (result instanceof Coprocess.CallResult callResult) {
                CoprocessClient.CallOutcome read = CoprocessClient.callOutcome(callResult);
                ObjectNode fields = outcome.putObject("call_outcome");
                fields.put("success", read.success());
                fields.put("text", read.text());
                fields.put("error", read.error());
            }
            return outcome;
        }

        ObjectNode close() {
            if (client != null) {
                client.close();
            }
            ObjectNode outcome = NODES.objectNode();
            outcome.put("kind", "ok");
            return outcome;
        }

        ObjectNode step(JsonNode step) {
            long started = System.nanoTime();
            ObjectNode outcome;
            try {
                if (step.has("start")) {
                    outcome = start(step.get("start"));
                } else if (step.has("call")) {
                    outcome = call(step);
                } else {
                    outcome = close();
                }
            } catch (Exception e) {
                outcome = failure(e);
            }
            double elapsed = (System.nanoTime() - started) / 1e6;
            outcome.put("elapsed_ms", Math.round(elapsed * 10) / 10.0);
            return outcome;
        }

        ArrayNode parallel(JsonNode steps) throws InterruptedException {
            int count = steps.size();
            ObjectNode[] outcomes = new ObjectNode[count];
            CyclicBarrier barrier = new CyclicBarrier(count);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                Thread thread =
                        new Thread(
                                () -> {
                                    try {
                                        barrier.await();
                                    } catch (Exception e) {
                                        // Started anyway.
                                    }
                                    outcomes[index] = step(steps.get(index));
                                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            ArrayNode out = NODES.arrayNode();
            for (ObjectNode outcome : outcomes) {
                out.add(outcome);
            }
            return out;
        }

        ArrayNode run() throws InterruptedException {
            ArrayNode results = NODES.arrayNode();
            try {
                for (JsonNode step : scenario.get("steps")) {
                    results.add(step.has("parallel") ? parallel(step.get("parallel")) : step(step));
                }
            } finally {
                if (client != null) {
                    client.close();
                }
                if (process != null) {
                    process.destroyForcibly();
                    process.waitFor();
                }
            }
            return results;
        }
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String file = System.getenv("CLIENT_SCENARIOS");
        JsonNode scenarios = MAPPER.readTree(Files.readString(Path.of(file), StandardCharsets.UTF_8)).get("scenarios");
        for (JsonNode scenario : scenarios) {
            ObjectNode line = NODES.objectNode();
            line.put("scenario", scenario.get("name").asText());
            line.set("steps", new Scenario(scenario, file).run());
            System.out.println(MAPPER.writeValueAsString(line));
            System.out.flush();
        }
    }
}
