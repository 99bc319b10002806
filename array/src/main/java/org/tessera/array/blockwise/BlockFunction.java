package org.tessera.array.blockwise;

import java.io.Serializable;
import java.util.List;

/**
 * What a blockwise operation computes for one output block. Each argument is a block (an NDArray,
 * or an array of the input's chunk family), a list of blocks (along a contracted index, unless
 * they are concatenated), or a constant. The result is a block of the output's chunk family.
 */
@FunctionalInterface
public interface BlockFunction extends Serializable {
    Object apply(List<Object> arguments) throws Exception;
}
