package org.tessera.graph.schedule;

import java.util.Map;

import org.tessera.graph.Key;

/** The values of the requested keys, with what it took to compute them. */
public record Computation(Map<Key, Object> results, ExecutionStatistics statistics) {
}
