package org.tessera.array.blockwise;

import java.io.Serializable;
import java.util.List;

import org.tessera.ndarray.NDArray;

/**
 * What a blockwise operation computes for one output block. Each argument is an NDArray block, a
 * list of blocks (along a contracted index, unless they are concatenated), or a constant.
 */
@FunctionalInterface
public interface BlockFunction extends Serializable {
    NDArray apply(List<Object> arguments) throws Exception;
}
