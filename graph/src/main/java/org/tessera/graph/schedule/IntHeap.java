package org.tessera.graph.schedule;

import java.util.Arrays;

/** A min-heap of task numbers: task numbers are priorities, so the smallest runs first. */
final class IntHeap {
    private int[] items = new int[64];
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(int item) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        int position = size++;
        while (position > 0) {
            int parent = (position - 1) >>> 1;
            if (items[parent] <= item) {
                break;
            }
            items[position] = items[parent];
            position = parent;
        }
        items[position] = item;
    }

    /** The smallest item, left in the heap. */
    int peek() {
        return items[0];
    }

    int poll() {
        int smallest = items[0];
        int last = items[--size];
        int position = 0;
        while (true) {
            int child = 2 * position + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && items[child + 1] < items[child]) {
                child++;
            }
            if (last <= items[child]) {
                break;
            }
            items[position] = items[child];
            position = child;
        }
        items[position] = last;
        return smallest;
    }
}
