package org.tessera.ndarray.fft;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;

/** A small least-recently-used cache of plans by length, safe for concurrent use. */
final class PlanCache<P> {
    private final int capacity;
    private final IntFunction<P> factory;
    private final Map<Integer, P> plans;

    PlanCache(int capacity, IntFunction<P> factory) {
        this.capacity = capacity;
        this.factory = factory;
        this.plans = new LinkedHashMap<>(16, 0.75f, true);
    }

    P get(int n) {
        synchronized (plans) {
            P plan = plans.get(n);
            if (plan != null) {
                return plan;
            }
        }
        // Built outside the lock: a large plan takes a while, and two threads building the same one is harmless.
        P plan = factory.apply(n);
        synchronized (plans) {
            P existing = plans.putIfAbsent(n, plan);
            if (existing != null) {
                return existing;
            }
            if (plans.size() > capacity) {
                Integer eldest = plans.keySet().iterator().next();
                plans.remove(eldest);
            }
            return plan;
        }
    }
}
