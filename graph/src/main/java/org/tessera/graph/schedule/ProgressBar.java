package org.tessera.graph.schedule;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;

/**
 * A progress bar on a terminal: {@code [#####     ] 52% 520/1000 tasks, 3.1 s elapsed, ETA 2.9 s}.
 * Silent when the output is not a terminal (logs and pipes stay clean) unless forced; redraws at
 * most ten times a second.
 */
public final class ProgressBar implements Callback {
    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintStream output;
    private final boolean enabled;
    private final LongSupplier clock;
    private final AtomicInteger done = new AtomicInteger();
    private volatile int total;
    private volatile long startNanos;
    private volatile long lastDrawNanos;

    private ProgressBar(PrintStream output, boolean enabled, LongSupplier clock) {
        this.output = output;
        this.enabled = enabled;
        this.clock = clock;
    }

    /** A bar on standard error, shown only when the program runs on a terminal. */
    public static ProgressBar onTerminal() {
        java.io.Console console = System.console();
        return new ProgressBar(System.err, console != null && console.isTerminal(), System::nanoTime);
    }

    /** A bar that always draws on {@code output}, with the given nanosecond clock (tests pass their own). */
    public static ProgressBar forced(PrintStream output, LongSupplier nanoClock) {
        return new ProgressBar(output, true, nanoClock);
    }

    public boolean isEnabled() {
        return enabled;
    }

    @Override
    public void start(TaskGraph graph) {
        total = graph.size();
        done.set(0);
        startNanos = clock.getAsLong();
        lastDrawNanos = startNanos;
    }

    @Override
    public void afterTask(Key key, int worker, Throwable failure) {
        int finished = done.incrementAndGet();
        long now = clock.getAsLong();
        if (enabled && now - lastDrawNanos >= REDRAW_NANOS) {
            lastDrawNanos = now;
            draw(finished, now, false);
        }
    }

    @Override
    public void finish(boolean succeeded) {
        if (enabled) {
            draw(done.get(), clock.getAsLong(), true);
        }
    }

    private synchronized void draw(int finished, long now, boolean last) {
        output.print("\r" + line(finished, total, now - startNanos) + (last ? System.lineSeparator() : ""));
        output.flush();
    }

    /** The text of the bar after {@code finished} of {@code total} tasks in {@code elapsedNanos}. */
    static String line(int finished, int total, long elapsedNanos) {
        double fraction = total == 0 ? 1 : (double) finished / total;
        int filled = (int) Math.round(fraction * WIDTH);
        String eta = finished == 0 ? "?" : seconds((long) (elapsedNanos * (total - finished) / (double) finished));
        return "[" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] " + Math.round(fraction * 100) + "% "
                + finished + "/" + total + " tasks, " + seconds(elapsedNanos) + " elapsed, ETA " + eta;
    }

    private static String seconds(long nanos) {
        Duration duration = Duration.ofNanos(nanos);
        return duration.toSeconds() >= 60
                ? duration.toMinutes() + " min " + duration.toSecondsPart() + " s"
                : String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
