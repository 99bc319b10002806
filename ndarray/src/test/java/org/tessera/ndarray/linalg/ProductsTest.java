package org.tessera.ndarray.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.blas.Blas;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ShapeMismatchException;

class ProductsTest {
    @Test
    void selectedProviderFollowsTheSystemProperty() {
        String requested = System.getProperty("tessera.blas", "auto");
        String expected = switch (requested) {
            case "java" -> "java";
            case "openblas" -> "openblas";
            default -> Blas.openBlas().isPresent() ? "openblas" : "java";
        };
        assertEquals(expected, Blas.selected().name());
    }

    @Test
    void dotNamesMisalignedShapesAsNumPyDoes() {
        ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class,
                () -> NDArrays.dot(NDArray.zeros(DType.FLOAT64, 2, 3), NDArray.zeros(DType.FLOAT64, 4, 5)));
        assertEquals("shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)", thrown.getMessage());
    }

    @Test
    void tensordotNamesTheAxesThatDisagree() {
        ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class,
                () -> NDArrays.tensordot(NDArray.zeros(DType.FLOAT64, 2, 3), NDArray.zeros(DType.FLOAT64, 4, 5), 1));
        assertEquals("tensordot: shape-mismatch for sum: axis 1 of (2,3) has length 3 but axis 0 of (4,5) has 4",
                thrown.getMessage());
    }

    @Test
    void einsumTracesTransposesAndContracts() {
        NDArray matrix = NDArrays.arange(9).reshape(3, 3);
        assertEquals("array(12)", NDArrays.einsum("ii->", matrix).toString());
        assertEquals("array([[0, 3, 6],\n       [1, 4, 7],\n       [2, 5, 8]])", NDArrays.einsum("ij->ji", matrix).toString());
        assertEquals(NDArrays.matmul(matrix, matrix).toString(), NDArrays.einsum("ij,jk", matrix, matrix).toString());
        assertEquals("array(12)", NDArrays.trace(matrix).toString());
    }

    @Test
    void einsumNamesTheLabelWhoseLengthsDisagree() {
        ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class,
                () -> NDArrays.einsum("ij,jk->ik", NDArray.zeros(DType.FLOAT64, 2, 3), NDArray.zeros(DType.FLOAT64, 4, 5)));
        assertEquals("einsum: label 'j' has length 3 and, in operand 1, 4 ('ij,jk->ik')", thrown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NDArrays.einsum("ij->k", NDArray.zeros(DType.FLOAT64, 2, 3)));
    }
}
