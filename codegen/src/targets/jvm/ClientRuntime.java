// The schema-independent part of the generated CoprocessClient.java (client.rs splices the members
// between the `// client:` markers into it), kept as a Java file of its own so that
// google-java-format checks it directly (tests/conformance/jvm/build.sh). It names the contract's
// role types by placeholders (Coprocess.RoleRequest, Coprocess.Methods.RoleHandshakeMethod, ...)
// that client.rs fills with the contract's names, so javac and Error Prone check it as rendered,
// in every generated CoprocessClient.java. What client.rs renders from the schema (the messages,
// the shutdown method) has stand-ins at the end.

package dev.mcptest;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The session client as written; client.rs renders the real class around its members. */
final class CoprocessClient implements AutoCloseable {
    // client: members

    /**
     * How long a call waits for its answer unless the client or the call says otherwise (the
     * contract's {@code CLIENT_CALL_TIMEOUT_MS}).
     */
    public static final Duration DEFAULT_CALL_TIMEOUT =
            Duration.ofMillis(Coprocess.CLIENT_CALL_TIMEOUT_MS);

    /**
     * How long the handshake waits for its answer unless the client says otherwise (the contract's
     * {@code CLIENT_START_TIMEOUT_MS}).
     */
    public static final Duration DEFAULT_START_TIMEOUT =
            Duration.ofMillis(Coprocess.CLIENT_START_TIMEOUT_MS);

    /**
     * How long {@code close} waits for the shutdown answer and for the exit before it kills (the
     * contract's {@code CLIENT_CLOSE_TIMEOUT_MS}).
     */
    public static final Duration DEFAULT_CLOSE_TIMEOUT =
            Duration.ofMillis(Coprocess.CLIENT_CLOSE_TIMEOUT_MS);

    /**
     * How many of the coprocess's last stderr lines the client keeps (the contract's {@code
     * CLIENT_STDERR_TAIL_LINES}).
     */
    public static final int STDERR_LINES = Coprocess.CLIENT_STDERR_TAIL_LINES;

    /**
     * How long a client still reads the output of a coprocess that has exited, when the output does
     * not end with the exit: a process it started may hold the pipes (the contract's {@code
     * CLIENT_EXIT_DRAIN_MS}).
     */
    public static final Duration EXIT_DRAIN = Duration.ofMillis(Coprocess.CLIENT_EXIT_DRAIN_MS);

    private static final int STDERR_LINE_BYTES = 4096;

    private static final int CHUNK = 65536;

    /** How many lines the stdout reader reads before a caller has taken them. */
    private static final int LINES_AHEAD = 4;

    /** What the exit hands the caller waiting for a line: the coprocess has exited. */
    private static final Object EXITED = new Object();

    /** The operating system's reason in the JDK's message of a process that cannot start. */
    private static final Pattern OS_REASON = Pattern.compile("error=\\d+, (.+)$");

    private static final Duration LONGEST_WAIT = Duration.ofDays(365);

    /**
     * How a client starts, talks to and closes the coprocess. {@link #defaults()} and the {@code
     * with} methods build one.
     *
     * @param timeout how long a call waits for its answer (a call's own timeout overrides it)
     * @param startTimeout how long the handshake waits for its answer (starting the binary is
     *     slower than a call)
     * @param closeTimeout how long {@code close} waits for the shutdown answer and the exit before
     *     it kills
     * @param env the coprocess's environment (replacing the inherited one), or null to inherit
     * @param cwd the coprocess's working directory, or null for the current one
     * @param sdk the SDK name the handshake announces
     * @param sdkVersion the SDK version the handshake announces
     */
    public record Options(
            Duration timeout,
            Duration startTimeout,
            Duration closeTimeout,
            Map<String, String> env,
            Path cwd,
            String sdk,
            String sdkVersion) {

        /**
         * Refuses null where a value is needed and a negative duration.
         *
         * @param timeout how long a call waits for its answer
         * @param startTimeout how long the handshake waits for its answer
         * @param closeTimeout how long {@code close} waits before it kills
         * @param env the coprocess's environment, or null to inherit
         * @param cwd the coprocess's working directory, or null for the current one
         * @param sdk the SDK name the handshake announces
         * @param sdkVersion the SDK version the handshake announces
         */
        public Options {
            if (timeout.isNegative() || startTimeout.isNegative() || closeTimeout.isNegative()) {
                throw new IllegalArgumentException("a timeout is never negative");
            }
            env = env == null ? null : Map.copyOf(env);
            Objects.requireNonNull(sdk, "sdk");
            Objects.requireNonNull(sdkVersion, "sdkVersion");
        }

        /**
         * The defaults: {@code DEFAULT_CALL_TIMEOUT}, {@code DEFAULT_START_TIMEOUT}, {@code
         * DEFAULT_CLOSE_TIMEOUT}, the inherited environment and working directory, and the SDK name
         * {@code jvm}.
         *
         * @return the default options
         */
        public static Options defaults() {
            return new Options(
                    DEFAULT_CALL_TIMEOUT,
                    DEFAULT_START_TIMEOUT,
                    DEFAULT_CLOSE_TIMEOUT,
                    null,
                    null,
                    "jvm",
                    "0.0.0");
        }

        /**
         * Returns these options with another call timeout.
         *
         * @param value how long a call waits for its answer
         * @return the new options
         */
        public Options withTimeout(Duration value) {
            return new Options(value, startTimeout, closeTimeout, env, cwd, sdk, sdkVersion);
        }

        /**
         * Returns these options with another start timeout.
         *
         * @param value how long the handshake waits for its answer
         * @return the new options
         */
        public Options withStartTimeout(Duration value) {
            return new Options(timeout, value, closeTimeout, env, cwd, sdk, sdkVersion);
        }

        /**
         * Returns these options with another close timeout.
         *
         * @param value how long {@code close} waits before it kills
         * @return the new options
         */
        public Options withCloseTimeout(Duration value) {
            return new Options(timeout, startTimeout, value, env, cwd, sdk, sdkVersion);
        }

        /**
         * Returns these options with another environment.
         *
         * @param value the coprocess's whole environment, or null to inherit
         * @return the new options
         */
        public Options withEnv(Map<String, String> value) {
            return new Options(timeout, startTimeout, closeTimeout, value, cwd, sdk, sdkVersion);
        }

        /**
         * Returns these options with another working directory.
         *
         * @param value the coprocess's working directory, or null for the current one
         * @return the new options
         */
        public Options withCwd(Path value) {
            return new Options(timeout, startTimeout, closeTimeout, env, value, sdk, sdkVersion);
        }

        /**
         * Returns these options with another SDK name and version for the handshake.
         *
         * @param name the SDK name
         * @param version the SDK version
         * @return the new options
         */
        public Options withSdk(String name, String version) {
            return new Options(timeout, startTimeout, closeTimeout, env, cwd, name, version);
        }
    }

    /**
     * A call that failed. {@code getMessage()} says what happened and names the method; {@code
     * detail()} holds what the decoder or the stream said, where there is more to say.
     */
    public static class ClientException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String method;
        private final String detail;

        ClientException(String method, String message, String detail) {
            super(message);
            this.method = method;
            this.detail = detail;
        }

        /**
         * Returns the wire name of the method that failed.
         *
         * @return the wire name of the method that failed
         */
        public String method() {
            return method;
        }

        /**
         * Returns what the decoder or the stream said, or the empty string.
         *
         * @return what the decoder or the stream said, or the empty string
         */
        public String detail() {
            return detail;
        }
    }

    /** The coprocess answered the call with a JSON-RPC error; the session goes on. */
    public static final class RpcException extends ClientException {
        private static final long serialVersionUID = 1L;

        private final long code;
        private final String name;
        private final transient JsonNode data;

        RpcException(String method, long code, String message, JsonNode data) {
            super(method, message, "");
            this.code = code;
            this.name = codeName(code);
            this.data = data;
        }

        private static String codeName(long code) {
            for (Coprocess.ErrorCodeSpec spec : Coprocess.ErrorCodes.ALL) {
                if (spec.code() == code) {
                    return spec.name();
                }
            }
            return null;
        }

        /**
         * Returns the JSON-RPC error code.
         *
         * @return the JSON-RPC error code
         */
        public long code() {
            return code;
        }

        /**
         * Returns the code's name in the contract's error-code table, or null for another code.
         *
         * @return the code's name in the contract's error-code table, or null for another code
         */
        public String name() {
            return name;
        }

        /**
         * Returns the error's {@code data}, or null when the answer had none.
         *
         * @return the error's {@code data}, or null when the answer had none
         */
        public JsonNode data() {
            return data;
        }
    }

    /**
     * The answer broke the protocol (another id, not JSON, too long, not the result's shape); the
     * session is closed and the coprocess killed.
     */
    public static final class ProtocolException extends ClientException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String method, String message, String detail) {
            super(method, message, detail);
        }
    }

    /** No answer within the call's timeout; the session is closed and the coprocess killed. */
    public static final class CallTimeoutException extends ClientException {
        private static final long serialVersionUID = 1L;

        CallTimeoutException(String method, String message) {
            super(method, message, "");
        }
    }

    /** A call on a closed session (by {@code close}, or after a timeout or a protocol error). */
    public static final class SessionClosedException extends ClientException {
        private static final long serialVersionUID = 1L;

        SessionClosedException(String method, String message) {
            super(method, message, "");
        }
    }

    /** The coprocess could not be started: the message names the path and the reason. */
    public static final class SpawnException extends ClientException {
        private static final long serialVersionUID = 1L;

        SpawnException(String method, String message, String detail) {
            super(method, message, detail);
        }
    }

    /**
     * The coprocess ended before answering: its exit status and last stderr lines are kept. The JDK
     * reports a process that a signal ended as 128 + the signal, so a status from 129 to 192 is
     * said as "killed by signal" (status - 128), as is a coprocess that exited with such a status
     * itself.
     */
    public static final class CoprocessExitedException extends ClientException {
        private static final long serialVersionUID = 1L;

        private final Integer status;
        private final List<String> stderr;

        CoprocessExitedException(
                String method, String message, Integer status, List<String> stderr) {
            super(method, message, "");
            this.status = status;
            this.stderr = List.copyOf(stderr);
        }

        /**
         * Returns the coprocess's exit status, or empty when none is known.
         *
         * @return the coprocess's exit status, or empty when none is known
         */
        public OptionalInt status() {
            return status == null ? OptionalInt.empty() : OptionalInt.of(status);
        }

        /**
         * Returns the last lines the coprocess wrote to stderr.
         *
         * @return the last lines the coprocess wrote to stderr
         */
        public List<String> stderr() {
            return stderr;
        }
    }

    /** Why the stdout reader stopped: the end of output, an over-long line, or a read error. */
    private record Failure(boolean tooLong, String detail) {}

    /** How the coprocess ended: its status (null: unknown) and its last stderr lines. */
    private record Exit(Integer status, List<String> stderr) {}

    /**
     * Bounds the calling thread's own read of the coprocess's stdout channel: it closes the channel,
     * which ends a read blocked in it, when a read passes its deadline or {@code EXIT_DRAIN} after
     * the coprocess has exited. A call arms it and disarms it without waking it, unless the call's
     * deadline comes before the one it sleeps toward (a call with a shorter timeout than the
     * client's).
     */
    private static final class Watchdog {
        /** No read in progress. */
        private static final Object IDLE = new Object();

        /** The channel is closed: no read ever ends in time again. */
        private static final Object CUT = new Object();

        /** The shortest an idle watchdog sleeps (a call due sooner wakes it): never a busy loop. */
        private static final long SHORTEST_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

        /** One read in progress and its deadline ({@code System.nanoTime}). */
        private record Read(long deadline) {}

        private final FileChannel channel;
        private final long idleNanos;
        private final AtomicReference<Object> state = new AtomicReference<>(IDLE);
        private final Thread thread;
        private volatile long sleepsUntil = System.nanoTime();
        private volatile long exitedAt;
        private volatile boolean exited;
        private volatile boolean cutByExit;
        private volatile boolean stopped;

        /**
         * Starts the watchdog of {@code channel}.
         *
         * @param channel the channel it closes
         * @param idleNanos how long it sleeps while no read is in progress: the client's call
         *     timeout, so that a call of that timeout, due no sooner, does not wake it
         */
        Watchdog(FileChannel channel, long idleNanos) {
            this.channel = channel;
            this.idleNanos = Math.max(idleNanos, SHORTEST_IDLE_NANOS);
            thread = new Thread(this::watch, "coprocess-watchdog");
            thread.setDaemon(true);
            thread.start();
        }

        /** Starts a read due by {@code deadline}; null when the channel is closed already. */
        Read arm(long deadline) {
            Read read = new Read(deadline);
            if (!state.compareAndSet(IDLE, read)) {
                return null;
            }
            if (deadline - sleepsUntil < 0) {
                LockSupport.unpark(thread);
            }
            return read;
        }

        /** Ends {@code read}: false when the watchdog closed the channel first. */
        boolean disarm(Read read) {
            return state.compareAndSet(read, IDLE);
        }

        /** Whether the channel was closed for the exit (not for a read's deadline). */
        boolean cutByExit() {
            return cutByExit;
        }

        /** The coprocess has exited: the channel is closed {@code EXIT_DRAIN} from now. */
        void exited() {
            exitedAt = System.nanoTime();
            exited = true;
            LockSupport.unpark(thread);
        }

        void stop() {
            stopped = true;
            LockSupport.unpark(thread);
        }

        private void watch() {
            long drain = EXIT_DRAIN.toNanos();
            while (!stopped) {
                long now = System.nanoTime();
                if (exited && now - (exitedAt + drain) >= 0) {
                    cutByExit = true;
                    state.set(CUT);
                    closeQuietly(channel);
                    return;
                }
                Object current = state.get();
                if (current instanceof Read read && now - read.deadline() >= 0) {
                    if (state.compareAndSet(read, CUT)) {
                        closeQuietly(channel);
                        return;
                    }
                    continue;
                }
                long until = current instanceof Read read ? read.deadline() : now + idleNanos;
                if (exited && exitedAt + drain - until < 0) {
                    until = exitedAt + drain;
                }
                sleepsUntil = until;
                // A read armed after `current` was read may be due sooner: look again.
                if (state.get() == current) {
                    LockSupport.parkNanos(this, until - now);
                }
            }
        }
    }

    private final InputStream reader;
    private final OutputStream writer;
    private final Process process;
    private final Options options;
    private final ReentrantLock lock = new ReentrantLock(true);
    private final ArrayDeque<String> stderr = new ArrayDeque<>();
    private final Thread stderrThread;

    // A spawned coprocess's stdout is read by the caller itself, from a channel on the pipe (see
    // stdoutChannel) that the watchdog closes at the read's deadline or after the exit's drain: a
    // call costs a write and a read, and wakes no other thread.
    private final FileChannel channel;
    private final Watchdog watchdog;

    // Otherwise (over streams, or where the pipe cannot be opened as a channel) stdout is read by
    // a reader thread, at most LINES_AHEAD lines before a caller takes them (a read nothing can
    // end: a process the coprocess started may hold the pipe; reading ahead, it is already waiting
    // in the read when a call writes, so a call wakes the caller only); the coprocess's exit is
    // put beside the lines, so that a caller learns of it from the process itself.
    private final Thread stdoutThread;
    private final Semaphore room = new Semaphore(LINES_AHEAD);
    private final LinkedBlockingQueue<Object> lines = new LinkedBlockingQueue<>();
    private long exitedAt;
    private boolean exitSeen;

    // The stdout reader's state: the chunk read last and the line begun in it.
    private final byte[] chunk = new byte[CHUNK];
    private final ByteBuffer chunkBuffer = ByteBuffer.wrap(chunk);
    private int chunkStart;
    private int chunkEnd;
    private byte[] partial = new byte[0];
    private int partialLength;
    private long nextId = 1;
    private String closed;
    private Exit exit;
    private Coprocess.RoleHandshakeResult handshakeResult;

    // How a success answer is laid out (see AnswerLayout), learnt from the session's first success
    // answer to a typed call: null before, or when it cannot be.
    private AnswerLayout answerLayout;
    private boolean answerLayoutSought;

    private CoprocessClient(
            InputStream reader, OutputStream writer, Process process, Options options) {
        this.reader = reader;
        this.writer = writer;
        this.process = process;
        this.options = options;
        channel = process == null ? null : stdoutChannel(process);
        if (channel == null) {
            watchdog = null;
            stdoutThread = new Thread(this::readStdout, "coprocess-stdout");
            stdoutThread.setDaemon(true);
            stdoutThread.start();
        } else {
            watchdog = new Watchdog(channel, nanos(options.timeout()));
            stdoutThread = null;
        }
        if (process == null) {
            stderrThread = null;
        } else {
            InputStream errors = process.getErrorStream();
            stderrThread = new Thread(() -> readStderr(errors), "coprocess-stderr");
            stderrThread.setDaemon(true);
            stderrThread.start();
            Runnable exited = channel == null ? () -> lines.add(EXITED) : watchdog::exited;
            var unused = process.onExit().thenRun(exited);
        }
    }

    /**
     * A channel on {@code process}'s stdout pipe, or null where none can be opened. A read of the
     * JDK's stream of a process's pipe ends only with data or the end of output, which a process
     * the coprocess started may hold off; a read of a {@code FileChannel} also ends when another
     * thread closes the channel. Linux opens another process's open file at {@code
     * /proc/<pid>/fd/<n>}: for a pipe, another reader of the same pipe. The JDK's stream is closed
     * then, so that nothing else reads the pipe (at the exit the JDK would drain what is left into
     * it).
     */
    private static FileChannel stdoutChannel(Process process) {
        Path stdout = Path.of("/proc", Long.toString(process.pid()), "fd", "1");
        FileChannel channel;
        try {
            channel = FileChannel.open(stdout, StandardOpenOption.READ);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // No /proc (not Linux), or not this user's to open: the reader thread reads the stream.
            return null;
        }
        if (!process.isAlive()) {
            // Reaped already: the pid may have been another process's when the file was opened.
            closeQuietly(channel);
            return null;
        }
        closeQuietly(process.getInputStream());
        return channel;
    }

    /**
     * Starts {@code <binary> exec --connection-server --server-command <argv>} and handshakes.
     *
     * @param binary the mcptest binary
     * @param serverArgv the server under test's argv, quoted for the binary's shell-style split
     * @param options how to start, talk to and close the coprocess
     * @return the session, handshaken
     * @throws Coprocess.HandshakeException when the binary speaks another version (the coprocess is
     *     then gone)
     * @throws ClientException when the handshake's answer breaks the protocol or never comes
     *     ({@code SpawnException} when the binary cannot be started)
     */
    public static CoprocessClient start(Path binary, List<String> serverArgv, Options options) {
        List<String> command =
                List.of(
                        binary.toString(),
                        "exec",
                        "--connection-server",
                        "--server-command",
                        serverCommand(serverArgv));
        ProcessBuilder builder = new ProcessBuilder(command);
        if (options.env() != null) {
            builder.environment().clear();
            builder.environment().putAll(options.env());
        }
        if (options.cwd() != null) {
            builder.directory(options.cwd().toFile());
        }
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw spawnFailed(binary, e);
        }
        CoprocessClient client =
                new CoprocessClient(
                        process.getInputStream(), process.getOutputStream(), process, options);
        client.handshake(options.sdk(), options.sdkVersion());
        return client;
    }

    /**
     * {@link #start(Path, List, Options)} with {@link Options#defaults()}.
     *
     * @param binary the mcptest binary
     * @param serverArgv the server under test's argv
     * @return the session, handshaken
     */
    public static CoprocessClient start(Path binary, List<String> serverArgv) {
        return start(binary, serverArgv, Options.defaults());
    }

    /**
     * A session over a pair of byte streams (an in-process double, a socket's streams): answers are
     * read from {@code reader}, requests written to {@code writer}. Handshakes before it returns;
     * {@code close} closes {@code writer}.
     *
     * @param reader where the answers come from
     * @param writer where the requests go
     * @param options the timeouts and the handshake's SDK name (the rest is not used)
     * @return the session, handshaken
     */
    public static CoprocessClient overStreams(
            InputStream reader, OutputStream writer, Options options) {
        CoprocessClient client =
                new CoprocessClient(
                        Objects.requireNonNull(reader, "reader"),
                        Objects.requireNonNull(writer, "writer"),
                        null,
                        options);
        client.handshake(options.sdk(), options.sdkVersion());
        return client;
    }

    /**
     * {@link #overStreams(InputStream, OutputStream, Options)} with {@link Options#defaults()}.
     *
     * @param reader where the answers come from
     * @param writer where the requests go
     * @return the session, handshaken
     */
    public static CoprocessClient overStreams(InputStream reader, OutputStream writer) {
        return overStreams(reader, writer, Options.defaults());
    }

    /**
     * The {@code --server-command} text the binary's shell-style split turns back into {@code
     * argv}: each argument single-quoted ({@code '} written {@code '"'"'}), an empty one {@code
     * ''}.
     *
     * @param argv the server's argv
     * @return the quoted command line
     */
    public static String serverCommand(List<String> argv) {
        StringBuilder out = new StringBuilder();
        for (String argument : argv) {
            if (out.length() > 0) {
                out.append(' ');
            }
            if (!argument.isEmpty() && argument.chars().allMatch(CoprocessClient::isSafe)) {
                out.append(argument);
            } else {
                out.append('\'').append(argument.replace("'", "'\"'\"'")).append('\'');
            }
        }
        return out.toString();
    }

    /** The characters a shell word needs no quotes for (as Python's {@code shlex.quote}). */
    private static boolean isSafe(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || "@%+=:,./-_".indexOf(c) >= 0;
    }

    /**
     * Returns what the binary answered to the handshake (its protocol and binary version).
     *
     * @return what the binary answered to the handshake
     */
    public Coprocess.RoleHandshakeResult handshakeResult() {
        return handshakeResult;
    }

    /**
     * Returns the coprocess's exit status once it has exited (empty before, or over streams).
     *
     * @return the coprocess's exit status once it has exited
     */
    public OptionalInt exitStatus() {
        if (process == null || process.isAlive()) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(process.exitValue());
    }

    /**
     * Returns the last lines the coprocess wrote to stderr (at most {@code STDERR_LINES}).
     *
     * @return the last lines the coprocess wrote to stderr
     */
    public List<String> stderrTail() {
        synchronized (stderr) {
            return List.copyOf(stderr);
        }
    }

    /**
     * Sends the close method, waits a bounded time for the exit, then kills. Idempotent; later
     * calls throw {@code SessionClosedException}.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            long until = System.nanoTime() + nanos(options.closeTimeout());
            if (closed == null) {
                closed = CLIENT_CLOSED_BY_CLOSE;
                if (SHUTDOWN != null) {
                    try {
                        exchange(SHUTDOWN, options.closeTimeout());
                    } catch (ClientException e) {
                        // The session ends either way.
                    }
                }
            }
            finish(Math.max(0L, until - System.nanoTime()));
        } finally {
            lock.unlock();
        }
    }

    private void handshake(String sdk, String sdkVersion) {
        String method = Coprocess.Methods.RoleHandshakeMethod;
        lock.lock();
        try {
            long id = nextId++;
            String line = Coprocess.handshakeRequest(id, sdk, sdkVersion);
            JsonNode value = answer(method, id, line, options.startTimeout(), true);
            try {
                handshakeResult =
                        Coprocess.checkHandshakeResponse(Coprocess.RoleResponse.fromNode(value));
            } catch (Coprocess.DecodeException e) {
                fail(CLIENT_CLOSED_AFTER_PROTOCOL_ERROR);
                String message = clientUndecodable(method, "RoleHandshakeResult");
                throw new ProtocolException(method, message, e.getMessage());
            }
        } catch (RuntimeException e) {
            // A failed handshake: the coprocess is gone and no client is handed out.
            if (closed == null) {
                closed = CLIENT_CLOSED_BY_CLOSE;
            }
            finish(0L);
            throw e;
        } finally {
            lock.unlock();
        }
    }

    /** Sends one request and returns its result, decoded as {@code resultType}. */
    private <R> R invoke(
            String method,
            Coprocess.Encodable params,
            Class<R> resultType,
            String resultName,
            Duration callTimeout) {
        lock.lock();
        try {
            checkOpen(method);
            long id = nextId++;
            Coprocess.RoleRequestOf<Coprocess.Encodable> request =
                    new Coprocess.RoleRequestOf<>(
                            Coprocess.RoleJsonRpcVersion.V2_0,
                            Coprocess.RoleRequestId.of(id),
                            method,
                            params);
            Duration wait = callTimeout == null ? options.timeout() : callTimeout;
            String text = answerText(method, request.toJson(), wait, true);
            if (answerLayout != null) {
                R laidOut = answerLayout.decode(text, id, resultType);
                if (laidOut != null) {
                    answered(method);
                    return laidOut;
                }
            }
            JsonNode value = checked(method, id, text);
            Coprocess.RoleResponseOf<R> response;
            try {
                response = Coprocess.RoleResponseOf.fromNode(value, resultType);
            } catch (Coprocess.DecodeException e) {
                fail(CLIENT_CLOSED_AFTER_PROTOCOL_ERROR);
                String message = clientUndecodable(method, resultName);
                throw new ProtocolException(method, message, e.getMessage());
            }
            if (response instanceof Coprocess.RoleErrorResponseOf<R> failure) {
                Coprocess.RoleErrorObject error = failure.error();
                throw new RpcException(method, error.code(), error.message(), error.data());
            }
            var success = (Coprocess.RoleSuccessResponseOf<R>) response;
            if (!answerLayoutSought) {
                answerLayoutSought = true;
                answerLayout = AnswerLayout.of(success);
            }
            answered(method);
            return success.result();
        } finally {
            lock.unlock();
        }
    }

    /** Follows a success answer to {@code method}. */
    private void answered(String method) {
        if (method.equals(SHUTDOWN)) {
            // The coprocess ends the session after answering: close only waits.
            closed = CLIENT_CLOSED_AFTER_SHUTDOWN;
        }
    }

    /**
     * How a success answer's line is laid out around its id and its result: the generated
     * encoder's text of the session's first success answer, its id and result replaced by marks,
     * cut at them. An answer to call {@code id} laid out so is that envelope with the call's id,
     * its other members as the first answer had them: only its result is left to decode, as the
     * text between the parts (which the whole answer's decode reads the same, one container
     * deeper).
     */
    private record AnswerLayout(String head, String middle, String tail) {
        /**
         * The marks a layout is learnt with: the control character keeps them out of any text the
         * encoder writes unescaped.
         */
        private static final String ID_MARK = "\u0001id";

        private static final String RESULT_MARK = "\u0001result";

        /**
         * The layout of success answer {@code answer}, or null when the encoder's text does not
         * hold the marks in that order.
         */
        static AnswerLayout of(Coprocess.RoleSuccessResponseOf<?> answer) {
            Coprocess.RoleRequestId id = Coprocess.RoleRequestId.of(ID_MARK);
            Coprocess.RoleRequestId result = Coprocess.RoleRequestId.of(RESULT_MARK);
            var marked = new Coprocess.RoleSuccessResponseOf<>(answer.jsonrpc(), id, result);
            String text = marked.toJson();
            String idText = id.toJson();
            String resultText = result.toJson();
            int at = text.indexOf(idText);
            int resultAt = at < 0 ? -1 : text.indexOf(resultText, at + idText.length());
            if (resultAt < 0) {
                return null;
            }
            return new AnswerLayout(
                    text.substring(0, at),
                    text.substring(at + idText.length(), resultAt),
                    text.substring(resultAt + resultText.length()));
        }

        /**
         * The result of answer line {@code text}, decoded as {@code type} when it is laid out as a
         * success answer to call {@code id} and its result decodes: what the decode of the whole
         * answer gives. Null sends the answer to that decode (which says what is wrong, if anything
         * is).
         */
        <R> R decode(String text, long id, Class<R> type) {
            String number = Long.toString(id);
            int start = head.length() + number.length();
            int end = text.length() - tail.length();
            if (end < start + middle.length()
                    || !text.startsWith(head)
                    || !text.startsWith(number, head.length())
                    || !text.startsWith(middle, start)
                    || !text.endsWith(tail)) {
                return null;
            }
            return Coprocess.readEnclosed(text.substring(start + middle.length(), end), type);
        }
    }

    /** Sends a request without params; its answer's value, checked only for its id. */
    private JsonNode exchange(String method, Duration wait) {
        long id = nextId++;
        String line =
                new Coprocess.RoleRequest(
                                Coprocess.RoleJsonRpcVersion.V2_0,
                                Coprocess.RoleRequestId.of(id),
                                method,
                                null)
                        .toJson();
        return answer(method, id, line, wait, false);
    }

    private void checkOpen(String method) {
        if (exit != null) {
            throw exited(method);
        }
        if (closed != null) {
            throw new SessionClosedException(method, clientClosed(method, closed));
        }
    }

    /** Writes one request line and reads its answer: parsed, its id checked. */
    private JsonNode answer(String method, long id, String line, Duration wait, boolean kill) {
        return checked(method, id, answerText(method, line, wait, kill));
    }

    /** Writes one request line and reads its answer's line, as text. */
    private String answerText(String method, String line, Duration wait, boolean kill) {
        try {
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            byte[] framed = Arrays.copyOf(bytes, bytes.length + 1);
            framed[bytes.length] = '\n';
            writer.write(framed);
            writer.flush();
        } catch (IOException e) {
            throw ended(method);
        }
        Object next = nextLine(wait);
        if (next == null) {
            if (kill) {
                fail(CLIENT_CLOSED_AFTER_TIMEOUT);
            }
            String ms = Long.toString(wait.toMillis());
            String message =
                    process == null ? clientTimeoutStreams(method, ms) : clientTimeout(method, ms);
            throw new CallTimeoutException(method, message);
        }
        if (next instanceof Failure failure) {
            if (failure.tooLong()) {
                fail(CLIENT_CLOSED_AFTER_PROTOCOL_ERROR);
                String limit = Long.toString(Coprocess.MAX_LINE_BYTES);
                throw new ProtocolException(method, clientTooLong(method, limit), "");
            }
            throw ended(method);
        }
        try {
            return utf8((byte[]) next);
        } catch (CharacterCodingException e) {
            fail(CLIENT_CLOSED_AFTER_PROTOCOL_ERROR);
            throw new ProtocolException(method, clientNotJson(method), e.getMessage());
        }
    }

    /** The answer line {@code text} parsed, its id checked. */
    private JsonNode checked(String method, long id, String text) {
        JsonNode value;
        try {
            value = Coprocess.parseJson(text);
        } catch (Coprocess.DecodeException e) {
            fail(CLIENT_CLOSED_AFTER_PROTOCOL_ERROR);
            throw new ProtocolException(method, clientNotJson(method), e.getMessage());
        }
        JsonNode got = value.get("id");
        if (value.isObject() && got != null && !(got.isIntegralNumber() && got.longValue() == id)) {
            fail(CLIENT_CLOSED_AFTER_PROTOCOL_ERROR);
            String message = clientWrongId(method, got.toString(), Long.toString(id));
            throw new ProtocolException(method, message, "");
        }
        return value;
    }

    /** The line's text, refusing bytes that are not UTF-8. */
    private static String utf8(byte[] line) throws CharacterCodingException {
        String text = new String(line, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') >= 0) {
            // Only a line holding a replacement character is decoded again, strictly.
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(line))
                    .toString();
        }
        return text;
    }

    /**
     * The next line of output, or null when none came within {@code wait}. Once the coprocess has
     * exited, only what it wrote before is read, for {@code EXIT_DRAIN} at most: then the end of
     * output.
     */
    private Object nextLine(Duration wait) {
        return channel == null ? takeLine(wait) : readOwnLine(wait);
    }

    /** {@code nextLine} from the channel, read in the calling thread under the watchdog. */
    private Object readOwnLine(Duration wait) {
        Watchdog.Read read = watchdog.arm(System.nanoTime() + nanos(wait));
        Object next = readLine();
        if (read != null && watchdog.disarm(read)) {
            // An interrupted caller's read closes the channel: it ends the call as a timeout.
            boolean interrupted = next instanceof Failure && Thread.currentThread().isInterrupted();
            return interrupted ? null : next;
        }
        // The watchdog closed the channel: at the deadline (a timeout), or after the exit's drain
        // (the end of output, but a line read before, or already read ahead, is still returned).
        return watchdog.cutByExit() ? next : null;
    }

    /** {@code nextLine} from the lines the reader thread hands over. */
    private Object takeLine(Duration wait) {
        long at = System.nanoTime() + nanos(wait);
        try {
            while (true) {
                long until = exitSeen ? exitedAt + EXIT_DRAIN.toNanos() : at;
                Object next = lines.poll(until - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (next == EXITED) {
                    exitSeen = true;
                    exitedAt = System.nanoTime();
                } else if (next == null) {
                    return exitSeen ? new Failure(false, "") : null;
                } else {
                    room.release();
                    return next;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** A duration in nanoseconds, at most a year (so that a deadline never overflows). */
    private static long nanos(Duration wait) {
        return wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT.toNanos() : wait.toNanos();
    }

    /** The reader thread: hands over each line (room for it permitting), then why it stopped. */
    private void readStdout() {
        try {
            Object next;
            do {
                room.acquire();
                next = readLine();
                lines.put(next);
            } while (!(next instanceof Failure));
        } catch (InterruptedException e) {
            // The session is over.
        }
    }

    /**
     * The next line of stdout without its newline, or the {@code Failure} that ends the output.
     * Never holds more than {@code MAX_LINE_BYTES} of a line (and one chunk).
     */
    private Object readLine() {
        while (true) {
            for (int i = chunkStart; i < chunkEnd; i++) {
                if (chunk[i] != '\n') {
                    continue;
                }
                int count = i - chunkStart;
                if (partialLength + count > Coprocess.MAX_LINE_BYTES) {
                    return new Failure(true, "");
                }
                byte[] line;
                if (partialLength == 0) {
                    line = Arrays.copyOfRange(chunk, chunkStart, i);
                } else {
                    line = Arrays.copyOf(partial, partialLength + count);
                    System.arraycopy(chunk, chunkStart, line, partialLength, count);
                    partialLength = 0;
                }
                chunkStart = i + 1;
                return line;
            }
            int rest = chunkEnd - chunkStart;
            if (partialLength + rest > Coprocess.MAX_LINE_BYTES) {
                return new Failure(true, "");
            }
            if (partialLength + rest > partial.length) {
                long grown = Math.max(2L * partial.length, partialLength + rest);
                partial = Arrays.copyOf(partial, (int) Math.min(Coprocess.MAX_LINE_BYTES, grown));
            }
            System.arraycopy(chunk, chunkStart, partial, partialLength, rest);
            partialLength += rest;
            chunkStart = 0;
            chunkEnd = 0;
            int count;
            try {
                count = channel == null ? reader.read(chunk) : channel.read(chunkBuffer.clear());
            } catch (IOException e) {
                return new Failure(false, String.valueOf(e.getMessage()));
            }
            if (count < 0) {
                // The end of output; a last line without its newline is dropped.
                return new Failure(false, "");
            }
            chunkEnd = count;
        }
    }

    private void readStderr(InputStream errors) {
        byte[] line = new byte[STDERR_LINE_BYTES];
        int length = 0;
        try {
            int c;
            while ((c = errors.read()) >= 0) {
                if (c != '\n') {
                    line[length++] = (byte) c;
                }
                if (c == '\n' || length == STDERR_LINE_BYTES) {
                    keepStderr(line, length);
                    length = 0;
                }
            }
        } catch (IOException e) {
            // The pipe is gone: the lines kept so far are the tail.
        }
        if (length > 0) {
            keepStderr(line, length);
        }
        closeQuietly(errors);
    }

    private void keepStderr(byte[] line, int length) {
        int end = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
        String text = new String(line, 0, end, StandardCharsets.UTF_8);
        synchronized (stderr) {
            if (stderr.size() == STDERR_LINES) {
                stderr.removeFirst();
            }
            stderr.addLast(text);
        }
    }

    /** The coprocess closed its output: wait (bounded) for its status and stderr. */
    private CoprocessExitedException ended(String method) {
        Integer status = null;
        if (process != null) {
            try {
                if (process.waitFor(nanos(options.closeTimeout()), TimeUnit.NANOSECONDS)) {
                    status = process.exitValue();
                    // A process the coprocess started may hold stderr open past the exit.
                    stderrThread.join(Math.max(1L, EXIT_DRAIN.toMillis()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<String> tail = new ArrayList<>();
        for (String line : stderrTail()) {
            if (!line.isEmpty()) {
                tail.add(line);
            }
        }
        exit = new Exit(status, tail);
        if (closed == null) {
            closed = CLIENT_CLOSED_BY_CLOSE;
        }
        finish(0L);
        return exited(method);
    }

    private CoprocessExitedException exited(String method) {
        Integer status = exit.status();
        String message;
        if (status == null) {
            message = clientOutputClosed(method);
        } else if (status > 128 && status < 128 + 65) {
            // The JDK reports a process a signal ended as 128 + the signal.
            message = clientKilled(method, Integer.toString(status - 128));
        } else {
            message = clientExited(method, Integer.toString(status));
        }
        if (!exit.stderr().isEmpty()) {
            message = clientStderrTail(message, String.join("\n", exit.stderr()));
        }
        return new CoprocessExitedException(method, message, status, exit.stderr());
    }

    /** Ends the session after a failure: closed for {@code reason}, the coprocess killed. */
    private void fail(String reason) {
        closed = reason;
        finish(0L);
    }

    /** Closes the input, waits up to {@code graceNanos} for the exit, then kills. */
    private void finish(long graceNanos) {
        closeQuietly(writer);
        if (channel == null) {
            stdoutThread.interrupt();
        } else {
            watchdog.stop();
        }
        if (process == null) {
            return;
        }
        try {
            if (!process.waitFor(graceNanos, TimeUnit.NANOSECONDS)) {
                kill();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
        }
        closeQuietly(reader);
        if (channel != null) {
            closeQuietly(channel);
        }
    }

    /**
     * The error of a binary that could not be started: its path and the operating system's reason
     * (the JDK's message says {@code error=2, No such file or directory}).
     */
    private static SpawnException spawnFailed(Path binary, IOException error) {
        String method = Coprocess.Methods.RoleHandshakeMethod;
        String detail = String.valueOf(error.getMessage());
        Matcher found = OS_REASON.matcher(detail);
        String reason = found.find() ? found.group(1) : detail;
        if (!reason.isEmpty()) {
            reason = reason.substring(0, 1).toLowerCase(Locale.ROOT) + reason.substring(1);
        }
        return new SpawnException(
                method, clientSpawnFailed(method, binary.toString(), reason), detail);
    }

    /**
     * Kills the coprocess and what it started (the server under test), so that nothing it leaves
     * behind holds the pipe the reader is blocked on.
     */
    private void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static void closeQuietly(AutoCloseable stream) {
        try {
            stream.close();
        } catch (Exception e) {
            // Already closed, or the other end is gone: nothing is left to do.
        }
    }

    // client: call outcome

    /**
     * A {@code RoleCallResult} read the same way whichever variant it is.
     *
     * @param success whether the tool ran and did not report an error
     * @param text the text content joined with newlines, or null when there was none
     * @param error the error text when {@code success} is false, else null
     */
    public record CallOutcome(boolean success, String text, String error) {}

    /**
     * {@code RoleCallMethod}'s result read uniformly: a {@code RoleVerdict} as it is; a {@code
     * RolePassthrough}'s success derived from {@code isError}, its text the text blocks joined
     * with newlines, and its error that text when the tool reported one.
     *
     * @param result the answer of {@code RoleCallMethod}
     * @return its success, text and error
     */
    public static CallOutcome callOutcome(Coprocess.RoleCallResult result) {
        if (result instanceof Coprocess.RoleVerdict verdict) {
            return new CallOutcome(verdict.success(), verdict.text(), verdict.error());
        }
        Coprocess.RolePassthrough passthrough = (Coprocess.RolePassthrough) result;
        List<String> texts = new ArrayList<>();
        for (Coprocess.RoleContentBlock block : passthrough.content()) {
            JsonNode type = block.node().get("type");
            JsonNode text = block.node().get("text");
            if (type != null
                    && "text".equals(type.textValue())
                    && text != null
                    && text.isTextual()) {
                texts.add(text.textValue());
            }
        }
        String text = texts.isEmpty() ? null : String.join("\n", texts);
        boolean success = !Boolean.TRUE.equals(passthrough.isError());
        return new CallOutcome(success, text, success ? null : text);
    }

    // client: end

    // Stand-ins for what client.rs renders from the schema: the shutdown method and the
    // contract's messages (the real wording is in the schema's message table).

    private static final String SHUTDOWN = null;

    private static final String CLIENT_CLOSED_BY_CLOSE = "client_closed_by_close";

    private static final String CLIENT_CLOSED_AFTER_SHUTDOWN = "client_closed_after_shutdown";

    private static final String CLIENT_CLOSED_AFTER_TIMEOUT = "client_closed_after_timeout";

    private static final String CLIENT_CLOSED_AFTER_PROTOCOL_ERROR =
            "client_closed_after_protocol_error";

    private static String clientClosed(String method, String reason) {
        return String.join(" ", "client_closed", method, reason);
    }

    private static String clientTimeout(String method, String ms) {
        return String.join(" ", "client_timeout", method, ms);
    }

    private static String clientTimeoutStreams(String method, String ms) {
        return String.join(" ", "client_timeout_streams", method, ms);
    }

    private static String clientExited(String method, String status) {
        return String.join(" ", "client_exited", method, status);
    }

    private static String clientKilled(String method, String signal) {
        return String.join(" ", "client_killed", method, signal);
    }

    private static String clientOutputClosed(String method) {
        return String.join(" ", "client_output_closed", method);
    }

    private static String clientStderrTail(String message, String lines) {
        return String.join(" ", "client_stderr_tail", message, lines);
    }

    private static String clientWrongId(String method, String answerId, String requestId) {
        return String.join(" ", "client_wrong_id", method, answerId, requestId);
    }

    private static String clientSpawnFailed(String method, String path, String reason) {
        return String.join(" ", "client_spawn_failed", method, path, reason);
    }

    private static String clientNotJson(String method) {
        return String.join(" ", "client_not_json", method);
    }

    private static String clientTooLong(String method, String maxLineBytes) {
        return String.join(" ", "client_too_long", method, maxLineBytes);
    }

    private static String clientUndecodable(String method, String resultType) {
        return String.join(" ", "client_undecodable", method, resultType);
    }
}
