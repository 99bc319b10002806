"""The conformance corpus encoding of arrays (FORMAT.md): dtype, shape and flat C-order data, with
"nan", "inf" and "-inf" as strings. Shared by the fixture scripts in the folders below."""
import numpy as np


def real(v):
    return "nan" if v != v else "inf" if v == float("inf") else "-inf" if v == float("-inf") else v


def encode(a):
    a = np.asarray(a)
    flat = []
    for v in np.ascontiguousarray(a).reshape(-1).tolist():
        if isinstance(v, float):
            flat.append(real(v))
        elif isinstance(v, complex):
            flat.append([real(v.real), real(v.imag)])
        else:
            flat.append(v)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "data": flat}
