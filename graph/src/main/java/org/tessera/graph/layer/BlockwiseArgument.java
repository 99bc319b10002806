package org.tessera.graph.layer;

import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;

/**
 * One argument of a blockwise function: the blocks of another layer under an index pattern, a
 * constant, or the output block's own index.
 */
public sealed interface BlockwiseArgument extends Serializable {

    /**
     * Blocks of layer {@code name}; {@code indices} names its block axes with letters ("ij", "ji",
     * "jk"). A letter that the output lacks is contracted: the function gets a list of blocks along
     * it. A block count of 1 where the layer has more broadcasts block 0.
     */
    record Blocks(String name, String indices, int[] blockCounts) implements BlockwiseArgument {
        @Serial
        private static final long serialVersionUID = 1L;

        public Blocks {
            if (indices.length() != blockCounts.length) {
                throw new IllegalArgumentException("input " + name + ": index pattern '" + indices + "' has " + indices.length()
                        + " letters but " + blockCounts.length + " block counts " + Arrays.toString(blockCounts));
            }
            blockCounts = blockCounts.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Blocks blocks && name.equals(blocks.name) && indices.equals(blocks.indices)
                    && Arrays.equals(blockCounts, blocks.blockCounts);
        }

        @Override
        public int hashCode() {
            return name.hashCode() * 31 + indices.hashCode() * 7 + Arrays.hashCode(blockCounts);
        }

        @Override
        public String toString() {
            return name + "[" + indices + "]" + Arrays.toString(blockCounts);
        }
    }

    /** The same value for every block. */
    record Constant(Object value) implements BlockwiseArgument {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /**
     * The block index along {@code indices}, as an {@code int[]}: how creation layers (random blocks,
     * reads of a region of a file) know which block they make without a task per block.
     */
    record BlockIndex(String indices) implements BlockwiseArgument {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    static BlockwiseArgument blocks(String name, String indices, int... blockCounts) {
        return new Blocks(name, indices, blockCounts);
    }

    static BlockwiseArgument constant(Object value) {
        return new Constant(value);
    }

    static BlockwiseArgument blockIndex(String indices) {
        return new BlockIndex(indices);
    }
}
