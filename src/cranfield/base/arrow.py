"""Arrow arrays to and from numpy without pandas (``pyarrow``'s own conversions import pandas,
a quarter of a second): zero-copy where the buffers allow it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "arrow_numpy",
    "bool_numpy",
    "numpy_arrow",
    "string_array",
    "string_buffers",
    "strings_arrow",
]


def bool_numpy(arr: Any) -> np.ndarray:
    """A null-free Arrow boolean array as numpy (bit-packed values unpacked)."""
    bits = np.frombuffer(arr.buffers()[1], dtype=np.uint8)
    return np.unpackbits(bits, bitorder="little")[arr.offset : arr.offset + len(arr)].astype(bool)


def numpy_arrow(values: np.ndarray | Sequence[int]) -> Any:
    """An integer numpy array as a zero-copy Arrow array (``pa.array`` would import pandas)."""
    import pyarrow as pa

    a = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(a), [None, pa.py_buffer(a)])


def strings_arrow(values: Sequence[str]) -> Any:
    """Python strings as an Arrow string array, built from buffers (``pa.array`` would
    import pandas, a quarter of a second)."""
    import pyarrow as pa

    encoded = [v.encode("utf-8") for v in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=offsets[1:])
    if offsets[-1] < 2**31:
        typ, offsets = pa.string(), offsets.astype(np.int32)
    else:
        typ = pa.large_string()
    return pa.Array.from_buffers(
        typ, len(encoded), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))]
    )


def string_buffers(arr: Any) -> tuple[np.ndarray, np.ndarray]:
    """The (offsets, bytes) of an Arrow string array without nulls (any string type, chunked
    or not), zero-copy for a large string array: string ``i`` is
    ``bytes[offsets[i]:offsets[i + 1]]``, offsets int64 (``len(arr) + 1`` of them)."""
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if not pa.types.is_large_string(arr.type):
        arr = arr.cast(pa.large_string())
    n = len(arr)
    buffers = arr.buffers()
    if n == 0:
        return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.uint8)
    offsets = np.frombuffer(buffers[1], dtype=np.int64, count=n + 1, offset=arr.offset * 8)
    data = buffers[2]
    data = np.zeros(0, dtype=np.uint8) if data is None else np.frombuffer(data, dtype=np.uint8)
    return offsets, data


def arrow_numpy(arr: Any, dtype: Any, fill: Any = None) -> np.ndarray:
    """A primitive Arrow array (or chunked array) as numpy, without pandas.

    ``pyarrow.Array.to_numpy`` and ``fill_null`` import pandas (a quarter of a second); this
    reads the buffers directly (zero-copy for a single chunk without nulls).  Nulls become
    ``fill`` (an error if it is None).
    """
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    dt = np.dtype(dtype)
    if arr.type.bit_width != dt.itemsize * 8:
        raise TypeError(f"{arr.type} is not {dt}")
    n, off = len(arr), arr.offset
    values = np.frombuffer(arr.buffers()[1], dtype=dt)[off : off + n]
    if arr.null_count:
        if fill is None:
            raise ValueError("the array has nulls and no fill value was given")
        bits = np.frombuffer(arr.buffers()[0], dtype=np.uint8)
        valid = np.unpackbits(bits, bitorder="little")[off : off + n].astype(bool)
        values = np.where(valid, values, np.asarray(fill, dtype=dt))
    return values


def string_array(values: Any) -> Any:
    import pyarrow as pa

    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if not isinstance(values, pa.Array):
        values = pa.array(values, type=pa.string())
    if values.type != pa.string():
        values = values.cast(pa.string())
    return values
