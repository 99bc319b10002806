package org.tessera.bench.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

import com.sun.management.HotSpotDiagnosticMXBean;

import org.tessera.array.ChunkedArray;
import org.tessera.array.plan.PlanObservers;
import org.tessera.dashboard.Dashboard;
import org.tessera.graph.schedule.Callback;
import org.tessera.ndarray.blas.Blas;
import org.tessera.ndarray.kernel.VectorMath;

/**
 * {@code ./tessera bench NAME [--json FILE] [--repeat R] [--scheduler NAME]}: runs one workload
 * in this JVM and prints (and writes) the JSON object WORKLOADS.md describes, so the result sits
 * beside the one of bench_dask.py or bench_numpy.py for the same workload. The {@code tessera}
 * command starts one such JVM per workload; {@code --scheduler} names one of {@link Schedulers}.
 */
public final class WorkloadRunner {
    private static final Map<String, Supplier<Workload>> WORKLOADS = new TreeMap<>();
    /** Projected and measured memory of the timed runs (see {@link MemoryRecord}). */
    private static final MemoryRecord MEMORY = new MemoryRecord();

    static {
        WORKLOADS.put("W1", TransposeMeanWorkload::new);
        WORKLOADS.put("W2", GramWorkload::new);
        WORKLOADS.put("W3", StoreStatisticsWorkload::new);
        WORKLOADS.put("W4", RechunkSumWorkload::new);
        WORKLOADS.put("W5", BlockSumWorkload::new);
        WORKLOADS.put("W6", FancyIndexSumWorkload::new);
        WORKLOADS.put("W7", CumulativeSumWorkload::new);
        WORKLOADS.put("W8", StencilWorkload::new);
        WORKLOADS.put("S1", SortWorkload::new);
        WORKLOADS.put("F1", StoredFftWorkload::new);
        WORKLOADS.putAll(KernelWorkload.all());
    }

    private WorkloadRunner() {
    }

    /** The out-of-core sort and transform, listed after the stored-data workloads. */
    private static final List<String> OUT_OF_CORE = List.of("S1", "F1");

    /** The names this runner accepts: the workloads of WORKLOADS.md (N*, W*, R*, H1, S1, F1) and the out-of-core {@code AtA}. */
    public static List<String> names() {
        List<String> names = new ArrayList<>(WORKLOADS.keySet());
        names.removeAll(OUT_OF_CORE);
        names.addAll(StoredArrayWorkload.all(null).keySet());
        names.add("H1");
        names.addAll(OUT_OF_CORE);
        names.add("AtA");
        return List.copyOf(names);
    }

    public static void main(String[] arguments) throws Exception {
        if (arguments.length > 0 && arguments[0].equals("AtA")) {
            // The headline out-of-core run has its own options (sizes, where the store goes) and is run once, so it is its own main.
            OutOfCoreGram.main(Arrays.copyOfRange(arguments, 1, arguments.length));
            return;
        }
        if (arguments.length == 0 || !names().contains(arguments[0])) {
            System.err.println("usage: tessera bench NAME [--json FILE] [--repeat R] [--scheduler threads|sync|spark] [--dashboard PORT]   (NAME one of " + WORKLOADS.keySet() + ")\n"
                    + "       tessera bench R1..R7 [--store DIR|s3://BUCKET/PATH] [--json FILE] [--repeat R] [--scheduler threads|sync|spark]\n"
                    + "       tessera bench H1 [--store FILE.h5] [--json FILE] [--repeat R] [--scheduler threads|sync|spark]\n"
                    + "       tessera bench AtA [--rows N] [--columns M] [--block-rows R] [--keep DIR] [--json FILE]");
            System.exit(2);
        }
        List<String> options = Arrays.asList(arguments);
        String store = option(options, "--store").orElse(null);
        Path json = option(options, "--json").map(Path::of).orElse(null);
        int repeat = option(options, "--repeat").map(Integer::parseInt).orElse(arguments[0].startsWith("N") ? 3 : 1);
        String scheduler = option(options, "--scheduler").orElse("threads");
        Dashboard dashboard = option(options, "--dashboard").map(port -> Dashboard.open(Integer.parseInt(port))).orElse(null);
        if (dashboard != null) {
            System.err.println("tessera bench: dashboard at " + dashboard.url());
        }
        // Every chunked workload computes with the default scheduler, so choosing one is setting it.
        List<Callback> callbacks = new ArrayList<>(List.of(MEMORY));
        if (dashboard != null) {
            callbacks.add(dashboard);
        }
        ChunkedArray.setDefaultScheduler(Schedulers.named(scheduler, callbacks));
        Map<String, Object> measured;
        if (arguments[0].startsWith("R") || arguments[0].equals("H1")) {
            StoredWorkload stored = arguments[0].equals("H1") ? new StoredHdf5Workload(store == null ? null : Path.of(store)) : StoredArrayWorkload.all(store).get(arguments[0]);
            try {
                measured = measure(stored, repeat);
                measured.put("floor_seconds", stored.floorSeconds());
                measured.put("floor_slab_seconds", stored.slabFloorSeconds());
            } finally {
                stored.close();
            }
        } else if (arguments[0].equals("S1")) {
            // The out-of-core sort writes a 4 GB input first and reports the sort apart from its check (SortWorkload).
            SortWorkload sort = new SortWorkload();
            try {
                measured = measure(sort, repeat);
                measured.putAll(sort.figures());
            } finally {
                sort.close();
            }
        } else {
            measured = measure(WORKLOADS.get(arguments[0]).get(), repeat);
        }
        if (!scheduler.equals("threads") || dashboard != null) {
            Map<String, Object> params = new LinkedHashMap<>();
            ((Map<?, ?>) measured.get("params")).forEach((key, value) -> params.put(key.toString(), value));
            if (!scheduler.equals("threads")) {
                params.put("scheduler", scheduler);
            }
            if (dashboard != null) {
                params.put("dashboard", true);
            }
            measured.put("params", params);
        }
        String result = toJson(measured);
        System.out.println(result);
        if (json != null) {
            Files.writeString(json, result + "\n");
        }
    }

    private static java.util.Optional<String> option(List<String> options, String name) {
        int at = options.indexOf(name);
        if (at >= 0 && at + 1 >= options.size()) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return at < 0 ? java.util.Optional.empty() : java.util.Optional.of(options.get(at + 1));
    }

    /** Warms up, then times {@code repeat} runs; the result object of WORKLOADS.md. */
    static Map<String, Object> measure(Workload workload, int repeat) throws Exception {
        workload.warmUp();
        settleAfterWarmUp();
        List<Double> runs = new ArrayList<>();
        Object check = null;
        boolean ok = true;
        for (int run = 0; run < repeat; run++) {
            long start = System.nanoTime();
            Workload.Check outcome = workload.run();
            runs.add((System.nanoTime() - start) / 1e9);
            check = outcome.value();
            ok &= outcome.ok();
        }
        // Before the planning run below, which computes the workload once more: the peak is the timed runs'.
        long peakResident = ProcessMemory.peakResidentBytes();
        Map<String, Object> memory = Map.of();
        if (workload.name().startsWith("W") || workload.name().startsWith("R") || workload.name().equals("H1")) {
            // Planning is a pass over the graph, so the plans come from one more run, not timed.
            MEMORY.clear();
            try (AutoCloseable planning = PlanObservers.observe(MEMORY)) {
                ok &= workload.run().ok();
            }
            memory = MEMORY.figures();
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("workload", workload.name());
        result.put("impl", "tessera");
        result.put("seconds", median(runs));
        result.put("runs", runs);
        result.put("peak_rss_bytes", peakResident);
        result.putAll(memory);
        result.put("check", check);
        result.put("check_ok", ok);
        result.put("params", workload.params());
        result.put("machine", machine());
        if (workload.flops() > 0) {
            result.put("gflops", workload.flops() / median(runs) / 1e9);
        }
        return result;
    }

    /**
     * Where the figures come from, since they move between CPUs and JVM settings: the CPU model, the
     * SIMD kernels in use (the Vector API provider names its vector width, and each kernel family's;
     * HotSpot's -XX:UseAVX caps them), the BLAS and the kernels it chose for this CPU, the JVM's
     * options and the Java version.
     */
    static Map<String, Object> machine() {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cpu", cpuModel());
        machine.put("simd", VectorMath.selected().name());
        machine.put("simd_kernels", new TreeMap<>(VectorMath.selected().kernelWidths()));
        machine.put("use_avx", hotSpotOption("UseAVX"));
        machine.put("blas", Blas.selected().name());
        machine.put("blas_kernels", Blas.selectedKernels());
        machine.put("jvm_options", ManagementFactory.getRuntimeMXBean().getInputArguments());
        machine.put("java_version", Runtime.version().toString());
        return machine;
    }

    /** The "model name" line of /proc/cpuinfo, else the architecture. */
    private static String cpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(line -> line.startsWith("model name")).map(line -> line.substring(line.indexOf(':') + 1).strip()).findFirst()
                    .orElse(System.getProperty("os.arch"));
        } catch (IOException | UncheckedIOException unreadable) {
            return System.getProperty("os.arch");
        }
    }

    /** A HotSpot flag's value (UseAVX: the x86 SIMD level the JIT may use), or null on another JVM. */
    private static String hotSpotOption(String name) {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        try {
            return hotSpot == null ? null : hotSpot.getVMOption(name).getValue();
        } catch (IllegalArgumentException absent) {
            return null;
        }
    }

    /** The longest wait for the JIT compiler to go idle after the warm-up. */
    private static final long SETTLE_LIMIT_MILLIS = 5_000;

    /** Process CPU time in a poll of {@link #SETTLE_POLL_MILLIS} below which the JVM counts as idle: a fifth of a core. */
    private static final long SETTLE_POLL_MILLIS = 50;
    private static final long IDLE_CPU_NANOS = SETTLE_POLL_MILLIS * 1_000_000 / 5;

    /**
     * The end of the JVM warm-up, before the timed runs: waits until the JIT compiler has compiled
     * what the warm-up made hot. On two cores the compiler otherwise works through its queue during
     * the first timed run, on one of the cores the run computes with. The compiler's total time
     * grows only when a compilation ends, and one C2 compilation of a method that inlines a chain
     * of calls takes half a second (W5's task dispatch ran 0.17 s into the timed run), so the JVM
     * counts as settled when that total has stopped growing and the process, whose thread sleeps
     * here, uses less than a fifth of a core: twice in a row. No collection is forced: the
     * collector would shrink the heap, and the run would then fault in fresh pages again.
     */
    static void settleAfterWarmUp() throws InterruptedException {
        java.lang.management.CompilationMXBean compiler = java.lang.management.ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return;
        }
        java.lang.management.OperatingSystemMXBean system = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        com.sun.management.OperatingSystemMXBean process = system instanceof com.sun.management.OperatingSystemMXBean measured ? measured : null;
        long deadline = System.nanoTime() + SETTLE_LIMIT_MILLIS * 1_000_000;
        long compiled = compiler.getTotalCompilationTime();
        long cpu = process == null ? 0 : process.getProcessCpuTime();
        int quietPolls = 0;
        while (quietPolls < 2 && System.nanoTime() < deadline) {
            Thread.sleep(SETTLE_POLL_MILLIS);
            long now = compiler.getTotalCompilationTime();
            long cpuNow = process == null ? 0 : process.getProcessCpuTime();
            quietPolls = now == compiled && cpuNow - cpu < IDLE_CPU_NANOS ? quietPolls + 1 : 0;
            compiled = now;
            cpu = cpuNow;
        }
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    static String toJson(Object value) {
        return switch (value) {
            case null -> "null";
            case String text -> "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            case Boolean flag -> flag.toString();
            case Double number when number.isNaN() || number.isInfinite() -> "null";
            case Number number -> number.toString();
            case Map<?, ?> map -> {
                StringBuilder text = new StringBuilder("{");
                map.forEach((key, item) -> text.append(text.length() > 1 ? ", " : "").append(toJson(key.toString())).append(": ").append(toJson(item)));
                yield text.append('}').toString();
            }
            case List<?> list -> "[" + String.join(", ", list.stream().map(WorkloadRunner::toJson).toList()) + "]";
            default -> toJson(value.toString());
        };
    }
}
