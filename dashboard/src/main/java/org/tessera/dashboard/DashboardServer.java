package org.tessera.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The JDK's HTTP server on the loopback interface, serving the page, its live feed as server-sent
 * events, the state as JSON, and the page with the state built in (to be saved as one file). Each
 * exchange runs on a virtual thread, so an open event stream costs a parked thread, not a worker.
 */
final class DashboardServer implements AutoCloseable {
    /** How often an open event stream is sent what changed. */
    static final long PUSH_MILLIS = 250;
    /** Where the page's script looks for a state built into the page instead of connecting. */
    private static final String SNAPSHOT_MARK = "/*TESSERA_SNAPSHOT*/";

    private final RunRecord record;
    private final HttpServer server;
    private final ExecutorService exchanges = Executors.newVirtualThreadPerTaskExecutor();
    private final String page;
    private volatile boolean closing;

    DashboardServer(RunRecord record, int port) {
        this.record = record;
        this.page = pageTemplate();
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        } catch (IOException failure) {
            throw new UncheckedIOException("the dashboard cannot listen on port " + port + " of " + InetAddress.getLoopbackAddress().getHostAddress()
                    + ": " + failure.getMessage() + (port != 0 ? " (port 0 takes any free port)" : ""), failure);
        }
        server.setExecutor(exchanges);
        server.createContext("/", this::servePage);
        server.createContext("/events", this::serveEvents);
        server.createContext("/state.json", exchange -> send(exchange, 200, "application/json", record.json(new RunRecord.Cursor())));
        server.createContext("/report.html", exchange -> {
            exchange.getResponseHeaders().set("Content-Disposition", "attachment; filename=\"tessera-dashboard.html\"");
            send(exchange, 200, "text/html; charset=utf-8", selfContainedPage());
        });
        startAsDaemon(server);
    }

    /**
     * Starts the server from a daemon thread: its dispatcher thread takes the daemon status of the
     * thread that starts it, and a dashboard the program never closed must not keep the JVM alive.
     */
    private static void startAsDaemon(HttpServer server) {
        Thread starter = Thread.ofPlatform().daemon().name("tessera-dashboard-start").start(server::start);
        boolean interrupted = false;
        while (true) {
            try {
                starter.join();
                break;
            } catch (InterruptedException again) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** The page with the whole state written into it: it shows the run without a server. */
    String selfContainedPage() {
        return page.replace(SNAPSHOT_MARK, "window.TESSERA_SNAPSHOT = " + record.json(new RunRecord.Cursor()) + ";");
    }

    private void servePage(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestURI().getPath().equals("/")) {
            send(exchange, 404, "text/plain; charset=utf-8", "no such page: " + exchange.getRequestURI().getPath());
            return;
        }
        send(exchange, 200, "text/html; charset=utf-8", page);
    }

    /**
     * A stream of JSON states: the first has every task so far, each later one what changed. It
     * ends when the client goes away or the dashboard closes; between runs a comment line every
     * few seconds finds out whether the client is still there.
     */
    private void serveEvents(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(200, 0);
        RunRecord.Cursor cursor = new RunRecord.Cursor();
        try (OutputStream body = exchange.getResponseBody()) {
            boolean wasRunning = true;
            int quietPushes = 0;
            while (!closing) {
                boolean running = record.isRunning();
                // wasRunning: the push after a run ends carries its final figures even when no task or sample is new.
                if (record.hasNews(cursor) || wasRunning) {
                    body.write(("data: " + record.json(cursor) + "\n\n").getBytes(StandardCharsets.UTF_8));
                    quietPushes = 0;
                } else if (++quietPushes % 8 == 0) {
                    body.write(": idle\n\n".getBytes(StandardCharsets.UTF_8));
                }
                body.flush();
                wasRunning = running;
                Thread.sleep(PUSH_MILLIS);
            }
        } catch (IOException clientLeft) {
            // The page was closed or reloaded: nothing to clean up but this stream.
        } catch (InterruptedException stopped) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream body = exchange.getResponseBody()) {
            body.write(bytes);
        }
    }

    private static String pageTemplate() {
        try (InputStream resource = DashboardServer.class.getResourceAsStream("dashboard.html")) {
            if (resource == null) {
                throw new IllegalStateException("dashboard.html is missing from the tessera-dashboard jar");
            }
            return new String(resource.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read dashboard.html from the tessera-dashboard jar", failure);
        }
    }

    @Override
    public void close() {
        closing = true;
        server.stop(0);
        exchanges.shutdownNow();
    }
}
