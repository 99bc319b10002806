package org.tessera.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Debian's Chromium, headless, driven over the Chrome DevTools Protocol with the JDK's own HTTP
 * client and WebSocket: enough of a browser for a test to open a page, read its DOM through
 * JavaScript, and take a screenshot, with no dependency beyond the JDK.
 *
 * <p>The binary is {@code /usr/bin/chromium}, or the path in the environment variable
 * {@code TESSERA_CHROMIUM}. Its output goes to a log file under {@code target/} (see
 * {@link #log()}) for diagnosis. Every wait is bounded by {@link #TIMEOUT}. {@link #close()} kills
 * the browser and all its processes and deletes its temporary profile.
 */
final class HeadlessChromium implements AutoCloseable {
    /** The bound on every wait: for the browser to start, for a reply, for a page to load. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String DEFAULT_BINARY = "/usr/bin/chromium";

    private final Process process;
    private final Path profile;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).connectTimeout(TIMEOUT).build();
    private WebSocket socket;
    private final AtomicInteger nextId = new AtomicInteger();
    private final Map<Integer, CompletableFuture<Map<String, Object>>> replies = new ConcurrentHashMap<>();
    private final List<String> pageErrors = Collections.synchronizedList(new ArrayList<>());
    private volatile Throwable socketFailure;

    private HeadlessChromium(Path binary, Path logDirectory) throws IOException {
        Files.createDirectories(logDirectory);
        profile = Files.createTempDirectory("tessera-chromium-");
        log = logDirectory.resolve("chromium-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + ".log");
        List<String> command = List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "--window-size=1400,1000", "about:blank");
        Process started;
        try {
            started = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException failure) {
            deleteProfile();
            throw new IOException("cannot start " + binary + ": " + failure.getMessage(), failure);
        }
        process = started;
        try {
            int port = awaitPort();
            URI pageSocket = pageTarget(port);
            socket = http.newWebSocketBuilder().connectTimeout(TIMEOUT).buildAsync(pageSocket, new Listener()).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            // Uncaught exceptions and console errors of the pages this browser shows, for errors().
            call("Runtime.enable", "{}");
        } catch (IOException | RuntimeException | Error failure) {
            close();
            throw failure;
        } catch (InterruptedException | ExecutionException | TimeoutException failure) {
            close();
            throw new IOException("cannot connect to the DevTools of " + binary + " (its output is in " + log + ")", failure);
        }
    }

    /**
     * Starts a headless Chromium, failing with what to do when it is not installed.
     *
     * @param logDirectory where the browser's output is written, one file per browser
     */
    static HeadlessChromium start(Path logDirectory) throws IOException {
        String configured = System.getenv("TESSERA_CHROMIUM");
        Path binary = Path.of(configured == null || configured.isBlank() ? DEFAULT_BINARY : configured);
        if (!Files.isExecutable(binary)) {
            throw new AssertionError("this test needs Chromium, and there is no executable " + binary
                    + (configured == null || configured.isBlank() ? "" : " (from TESSERA_CHROMIUM)")
                    + ": install it with `apt-get install chromium` (Debian, Ubuntu), or set TESSERA_CHROMIUM to the path of a Chromium or Chrome binary");
        }
        return new HeadlessChromium(binary, logDirectory);
    }

    /** The file the browser's standard output and error go to. */
    Path log() {
        return log;
    }

    /** Opens {@code address} in the page and waits until its document is parsed. */
    void navigate(URI address) {
        // The current document gets a mark; the page has moved on when a document without it is ready.
        evaluate("window.__tesseraPreviousDocument = true");
        Map<String, Object> result = call("Page.navigate", "{\"url\":" + MiniJson.quote(address.toString()) + "}");
        Object error = result.get("errorText");
        if (error != null && !error.toString().isEmpty()) {
            throw new AssertionError("the browser cannot open " + address + ": " + error);
        }
        awaitTrue("the page to load " + address, () -> {
            try {
                return evaluate("!window.__tesseraPreviousDocument && document.readyState === 'complete'").equals("true");
            } catch (AssertionError betweenDocuments) {
                // "Execution context was destroyed" and its kin, while the old document goes away.
                return false;
            }
        });
    }

    /**
     * Evaluates a JavaScript expression in the page and returns its value as text: a string as it
     * is, a number, boolean or null as JavaScript's {@code String()} writes it, anything else as JSON.
     * A promise is awaited.
     *
     * @throws AssertionError if the expression throws
     */
    String evaluate(String expression) {
        Map<String, Object> reply = call("Runtime.evaluate",
                "{\"expression\":" + MiniJson.quote(expression) + ",\"returnByValue\":true,\"awaitPromise\":true}");
        Object thrown = reply.get("exceptionDetails");
        if (thrown != null) {
            throw new AssertionError("the page threw evaluating `" + expression + "`: " + MiniJson.write(thrown));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> value = (Map<String, Object>) reply.get("result");
        if ("undefined".equals(value.get("type"))) {
            return "undefined";
        }
        if (value.containsKey("unserializableValue")) {
            return String.valueOf(value.get("unserializableValue"));
        }
        Object result = value.get("value");
        if (result instanceof String text) {
            return text;
        }
        if (result instanceof Double number && number == Math.rint(number) && Math.abs(number) < 1e15) {
            return Long.toString(number.longValue());
        }
        return result == null || result instanceof Number || result instanceof Boolean ? String.valueOf(result) : MiniJson.write(result);
    }

    /** Waits until {@code condition} holds, checking every 50 ms, for at most {@link #TIMEOUT}. */
    void awaitTrue(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + TIMEOUT.toSeconds() + " s waiting for " + what + " (browser output: " + log + ")");
            }
            sleep(50);
        }
    }

    /** A PNG of the page's viewport. */
    byte[] screenshot() {
        Map<String, Object> reply = call("Page.captureScreenshot", "{\"format\":\"png\"}");
        return Base64.getDecoder().decode((String) reply.get("data"));
    }

    /** Uncaught exceptions and console errors and assertions of the pages shown so far, as text. */
    List<String> errors() {
        synchronized (pageErrors) {
            return List.copyOf(pageErrors);
        }
    }

    /** Sends a DevTools command and waits for its result. */
    Map<String, Object> call(String method, String paramsJson) {
        if (socketFailure != null) {
            throw new AssertionError("the DevTools connection failed (browser output: " + log + ")", socketFailure);
        }
        int id = nextId.incrementAndGet();
        CompletableFuture<Map<String, Object>> reply = new CompletableFuture<>();
        replies.put(id, reply);
        try {
            socket.sendText("{\"id\":" + id + ",\"method\":" + MiniJson.quote(method) + ",\"params\":" + paramsJson + "}", true)
                    .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            Map<String, Object> message = reply.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            Object error = message.get("error");
            if (error != null) {
                throw new AssertionError("DevTools " + method + " failed: " + MiniJson.write(error));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) message.getOrDefault("result", Map.of());
            return result;
        } catch (TimeoutException timeout) {
            throw new AssertionError("no reply to DevTools " + method + " within " + TIMEOUT.toSeconds() + " s (browser alive: " + process.isAlive()
                    + ", output: " + log + ")", timeout);
        } catch (ExecutionException failure) {
            throw new AssertionError("DevTools " + method + " failed (browser output: " + log + ")", failure.getCause());
        } catch (InterruptedException interrupt) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for DevTools " + method, interrupt);
        } finally {
            replies.remove(id);
        }
    }

    private int awaitPort() throws IOException {
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            if (Files.isRegularFile(portFile)) {
                List<String> lines = Files.readAllLines(portFile, StandardCharsets.UTF_8);
                // The file may be seen half written: the port is there once a second line is.
                if (lines.size() >= 2 && !lines.getFirst().isBlank()) {
                    return Integer.parseInt(lines.getFirst().trim());
                }
            }
            if (!process.isAlive()) {
                throw new IOException("Chromium exited with status " + process.exitValue() + " before it opened its DevTools port; its output ("
                        + log + "):\n" + tail(log));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("Chromium wrote no " + portFile + " within " + TIMEOUT.toSeconds() + " s; its output (" + log + "):\n" + tail(log));
            }
            sleep(50);
        }
    }

    /** The WebSocket address of a page target: the first one listed, or a new one. */
    private URI pageTarget(int port) throws IOException, InterruptedException {
        URI base = URI.create("http://127.0.0.1:" + port);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            String list = http.send(HttpRequest.newBuilder(base.resolve("/json/list")).timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
            for (Object target : (List<?>) MiniJson.parse(list)) {
                Map<?, ?> fields = (Map<?, ?>) target;
                if ("page".equals(fields.get("type")) && fields.get("webSocketDebuggerUrl") != null) {
                    return URI.create((String) fields.get("webSocketDebuggerUrl"));
                }
            }
            if (System.nanoTime() > deadline) {
                String created = http.send(HttpRequest.newBuilder(base.resolve("/json/new?about:blank")).timeout(TIMEOUT)
                        .PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).body();
                Object address = ((Map<?, ?>) MiniJson.parse(created)).get("webSocketDebuggerUrl");
                if (address == null) {
                    throw new IOException("Chromium lists no page target and made none: " + list + " / " + created);
                }
                return URI.create((String) address);
            }
            // The first page target may be listed a moment after the port file is written; give it 3 s, then make one.
            deadline = Math.min(deadline, System.nanoTime() + Duration.ofSeconds(3).toNanos());
            sleep(100);
        }
    }

    private void onMessage(String text) {
        Map<String, Object> message;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> parsed = (Map<String, Object>) MiniJson.parse(text);
            message = parsed;
        } catch (RuntimeException unreadable) {
            socketFailure = new IllegalStateException("unreadable DevTools message: " + text, unreadable);
            replies.values().forEach(reply -> reply.completeExceptionally(socketFailure));
            return;
        }
        Object id = message.get("id");
        if (id instanceof Number number) {
            CompletableFuture<Map<String, Object>> reply = replies.get(number.intValue());
            if (reply != null) {
                reply.complete(message);
            }
            return;
        }
        Object method = message.get("method");
        Map<?, ?> params = (Map<?, ?>) message.getOrDefault("params", Map.of());
        if ("Runtime.exceptionThrown".equals(method)) {
            pageErrors.add("uncaught: " + MiniJson.write(params.get("exceptionDetails")));
        } else if ("Runtime.consoleAPICalled".equals(method) && ("error".equals(params.get("type")) || "assert".equals(params.get("type")))) {
            pageErrors.add("console." + params.get("type") + ": " + MiniJson.write(params.get("args")));
        }
    }

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder parts = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            parts.append(data);
            if (last) {
                String message = parts.toString();
                parts.setLength(0);
                onMessage(message);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            failAll(new IllegalStateException("the browser closed the DevTools connection: " + statusCode + " " + reason));
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            failAll(error);
        }

        private void failAll(Throwable failure) {
            socketFailure = failure;
            replies.values().forEach(reply -> reply.completeExceptionally(failure));
        }
    }

    /** Kills the browser and every process it started, then deletes its profile. */
    @Override
    public void close() {
        if (socket != null) {
            socket.abort();
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException interrupt) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle child : children) {
            child.destroyForcibly();
        }
        for (ProcessHandle child : children) {
            child.onExit().completeOnTimeout(child, 5, TimeUnit.SECONDS).join();
        }
        deleteProfile();
    }

    private void deleteProfile() {
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Stream<Path> paths = Files.walk(profile)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    try {
                        Files.deleteIfExists(path);
                    } catch (NoSuchFileException gone) {
                        // Deleted by a browser process on its way out.
                    }
                }
                return;
            } catch (NoSuchFileException gone) {
                return;
            } catch (IOException | UncheckedIOException notYet) {
                // A process still writing into it: try again in a moment.
                sleep(200);
            }
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException | UncheckedIOException unreadable) {
            return "(unreadable: " + unreadable.getMessage() + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException interrupt) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", interrupt);
        }
    }

    /**
     * The little JSON the DevTools protocol needs: parse to maps, lists, strings, doubles, booleans
     * and null; write those back; quote a string.
     */
    static final class MiniJson {
        private final String text;
        private int at;

        private MiniJson(String text) {
            this.text = text;
        }

        static Object parse(String text) {
            MiniJson parser = new MiniJson(text);
            Object value = parser.value();
            parser.skipSpace();
            if (parser.at != text.length()) {
                throw parser.error("text after the value");
            }
            return value;
        }

        static String quote(String value) {
            return org.tessera.graph.render.JsonStrings.quoted(value);
        }

        static String write(Object value) {
            if (value == null) {
                return "null";
            }
            if (value instanceof String text) {
                return quote(text);
            }
            if (value instanceof Map<?, ?> map) {
                StringBuilder json = new StringBuilder("{");
                map.forEach((key, field) -> json.append(json.length() > 1 ? "," : "").append(quote(String.valueOf(key))).append(':').append(write(field)));
                return json.append('}').toString();
            }
            if (value instanceof List<?> list) {
                StringBuilder json = new StringBuilder("[");
                list.forEach(item -> json.append(json.length() > 1 ? "," : "").append(write(item)));
                return json.append(']').toString();
            }
            return String.valueOf(value);
        }

        private Object value() {
            skipSpace();
            if (at >= text.length()) {
                throw error("a value");
            }
            char first = text.charAt(at);
            switch (first) {
                case '{' -> {
                    at++;
                    Map<String, Object> object = new LinkedHashMap<>();
                    skipSpace();
                    if (peek('}')) {
                        return object;
                    }
                    do {
                        skipSpace();
                        String key = string();
                        skipSpace();
                        expect(':');
                        object.put(key, value());
                        skipSpace();
                    } while (peek(','));
                    expect('}');
                    return object;
                }
                case '[' -> {
                    at++;
                    List<Object> array = new ArrayList<>();
                    skipSpace();
                    if (peek(']')) {
                        return array;
                    }
                    do {
                        array.add(value());
                        skipSpace();
                    } while (peek(','));
                    expect(']');
                    return array;
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    if (text.startsWith("true", at)) {
                        at += 4;
                        return Boolean.TRUE;
                    }
                    if (text.startsWith("false", at)) {
                        at += 5;
                        return Boolean.FALSE;
                    }
                    if (text.startsWith("null", at)) {
                        at += 4;
                        return null;
                    }
                    int start = at;
                    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
                        at++;
                    }
                    if (start == at) {
                        throw error("a value");
                    }
                    return Double.parseDouble(text.substring(start, at));
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder value = new StringBuilder();
            while (true) {
                if (at >= text.length()) {
                    throw error("the end of a string");
                }
                char character = text.charAt(at++);
                if (character == '"') {
                    return value.toString();
                }
                if (character != '\\') {
                    value.append(character);
                    continue;
                }
                char escaped = text.charAt(at++);
                switch (escaped) {
                    case 'b' -> value.append('\b');
                    case 'f' -> value.append('\f');
                    case 'n' -> value.append('\n');
                    case 'r' -> value.append('\r');
                    case 't' -> value.append('\t');
                    case 'u' -> {
                        value.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> value.append(escaped);
                }
            }
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private boolean peek(char wanted) {
            if (at < text.length() && text.charAt(at) == wanted) {
                at++;
                return true;
            }
            return false;
        }

        private void expect(char wanted) {
            if (!peek(wanted)) {
                throw error("'" + wanted + "'");
            }
        }

        private IllegalArgumentException error(String wanted) {
            int from = Math.max(0, at - 30);
            return new IllegalArgumentException("malformed JSON: expected " + wanted + " at " + at + " near `"
                    + text.substring(from, Math.min(text.length(), at + 30)) + "`");
        }
    }
}
