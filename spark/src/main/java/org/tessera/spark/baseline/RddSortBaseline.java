package org.tessera.spark.baseline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import java.util.function.IntFunction;

import org.tessera.ndarray.NDArray;

/**
 * The Spark baseline of the out-of-core sort (S1 of bench/WORKLOADS.md): the values of a stored 1-d
 * float64 array sorted by Spark itself, as a Spark user writes it, {@code JavaRDD<Double>.sortBy(v -> v)}
 * with one partition per stored chunk, on the Spark context already running in this JVM. Each task
 * reads its chunk through the reader it is given (the bench passes Tessera's Zarr reader, which this
 * module does not depend on); each sorted partition is written as a file of raw
 * float64 values and reports its count, sum and ends, so the check is the workload's: non-decreasing
 * within and across partitions, the input's length and sum. Not part of Tessera's API: the bench
 * module calls it by reflection when a workload runs on Spark.
 */
public final class RddSortBaseline {
    private RddSortBaseline() {
    }

    /**
     * Sorts the {@code length} values that {@code chunks} reads, chunk by chunk ({@code chunkCount} of
     * them; the reader must be serializable), into part files under {@code output} and returns the
     * figures: {@code seconds} (read, sort, write), {@code partitions}, the {@code check} and {@code check_ok}.
     */
    public static Map<String, Object> sortBy(IntFunction<NDArray> reader, int chunkCount, long length, String output, double inputSum) throws IOException {
        JavaSparkContext context = JavaSparkContext.fromSparkContext(SparkContext.getOrCreate());
        int chunks = chunkCount;
        List<Integer> indices = new ArrayList<>();
        for (int index = 0; index < chunks; index++) {
            indices.add(index);
        }
        Files.createDirectories(Path.of(output));
        long start = System.nanoTime();
        JavaRDD<Double> values = context.parallelize(indices, chunks).flatMap(index -> chunkValues(reader.apply(index)));
        JavaRDD<Double> sorted = values.sortBy(value -> value, true, chunks);
        List<double[]> parts = new ArrayList<>(sorted.mapPartitionsWithIndex((index, partition) -> write(output, index, partition), true).collect());
        double seconds = (System.nanoTime() - start) / 1e9;

        parts.sort(Comparator.comparingDouble(part -> part[0]));
        long count = 0;
        double sum = 0;
        boolean nonDecreasing = true;
        double previousLast = Double.NEGATIVE_INFINITY;
        for (double[] part : parts) {
            count += (long) part[1];
            sum += part[2];
            nonDecreasing &= part[5] == 1;
            if (part[1] > 0) {
                nonDecreasing &= part[3] >= previousLast;
                previousLast = part[4];
            }
        }
        Map<String, Object> check = new LinkedHashMap<>();
        check.put("non_decreasing", nonDecreasing);
        check.put("length", count);
        check.put("sum", sum);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("impl", "spark RDD.sortBy");
        figures.put("spark_version", context.version());
        figures.put("seconds", seconds);
        figures.put("partitions", chunks);
        figures.put("operation", "JavaRDD<Double> of the stored chunks (one partition each), sortBy(v -> v, true, partitions), "
                + "each sorted partition written as raw float64");
        figures.put("check", check);
        figures.put("check_ok", nonDecreasing && count == length && Math.abs(sum - inputSum) <= 1e-9 * Math.abs(inputSum));
        return figures;
    }

    /** The values of stored chunk {@code index}, one boxed Double at a time, as Spark's records. */
    private static Iterator<Double> chunkValues(NDArray values) {
        return new Iterator<>() {
            private long next;

            @Override
            public boolean hasNext() {
                return next < values.size();
            }

            @Override
            public Double next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return values.getDouble(next++);
            }
        };
    }

    /** Writes one sorted partition as raw little-endian float64; returns {index, count, sum, first, last, sorted (1 or 0)}. */
    private static Iterator<double[]> write(String output, int index, Iterator<Double> partition) {
        Path file = Path.of(output, String.format("part-%05d.f64", index));
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        long count = 0;
        double sum = 0;
        double compensation = 0;
        double first = Double.NaN;
        double previous = Double.NEGATIVE_INFINITY;
        boolean sorted = true;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            while (partition.hasNext()) {
                double value = partition.next();
                if (count == 0) {
                    first = value;
                }
                sorted &= value >= previous;
                previous = value;
                double term = value - compensation;
                double next = sum + term;
                compensation = (next - sum) - term;
                sum = next;
                count++;
                buffer.putDouble(value);
                if (!buffer.hasRemaining()) {
                    flush(channel, buffer);
                }
            }
            flush(channel, buffer);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot write " + file, failure);
        }
        return List.of(new double[] {index, count, sum, first, previous, sorted ? 1 : 0}).iterator();
    }

    private static void flush(FileChannel channel, ByteBuffer buffer) throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }
}
