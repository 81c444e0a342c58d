"""Typed, validating access to parsed JSON, with one-line errors naming file and key.

Shared by the data file's loader (:mod:`model.datafile`) and its parts
(:mod:`model.parts`). Imports no torch.
"""

from __future__ import annotations

import math
from typing import Any

ROW_SUM_TOLERANCE = 1e-6

Vector = tuple[float, ...]
Matrix = tuple[Vector, ...]


class DataFileError(ValueError):
    """The data file is missing or does not satisfy the contract."""


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


class Reader:
    """One JSON object of a data file, read key by key with type and shape checks."""

    def __init__(self, source: str, data: Any, where: str = "") -> None:
        if not isinstance(data, dict):
            raise DataFileError(f"{source}: '{where or 'top level'}' must be an object")
        self.source, self.data, self.where = source, data, where

    def path(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def fail(self, key: str, problem: str) -> DataFileError:
        return DataFileError(f"{self.source}: '{self.path(key)}' {problem}")

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise self.fail(key, "is missing")
        return self.data[key]

    def child(self, key: str) -> Reader:
        return Reader(self.source, self.raw(key), self.path(key))

    def children(self, key: str) -> list[Reader]:
        """A list of objects."""
        items = self.raw(key)
        if not isinstance(items, list) or not items:
            raise self.fail(key, "must be a non-empty list")
        return [Reader(self.source, item, f"{self.path(key)}[{i}]") for i, item in enumerate(items)]

    def number(self, key: str) -> float:
        value = self.raw(key)
        if not _is_number(value):
            raise self.fail(key, f"must be a number, got {type(value).__name__}")
        if not math.isfinite(value):
            raise self.fail(key, "is not finite")
        return float(value)

    def integer(self, key: str) -> int:
        value = self.raw(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be an integer, got {value!r}")
        return value

    def string(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, got {type(value).__name__}")
        return value

    def strings(self, key: str, length: int | None = None) -> tuple[str, ...]:
        value = self.raw(key)
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise self.fail(key, "must be a list of strings")
        if length is not None and len(value) != length:
            raise self.fail(key, f"has length {len(value)}, expected {length}")
        return tuple(value)

    def integers(self, key: str, length: int | None = None) -> tuple[int, ...]:
        value = self.raw(key)
        if not isinstance(value, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in value
        ):
            raise self.fail(key, "must be a list of integers")
        if length is not None and len(value) != length:
            raise self.fail(key, f"has length {len(value)}, expected {length}")
        return tuple(value)

    def vector(self, key: str, length: int | None = None, allow_none: bool = False) -> Vector:
        return self._vector(self.raw(key), key, length, allow_none)

    def _vector(self, value: Any, key: str, length: int | None, allow_none: bool) -> Vector:
        if not isinstance(value, list) or not all(
            _is_number(x) or (allow_none and x is None) for x in value
        ):
            raise self.fail(key, "must be a list of numbers")
        if not all(x is None or math.isfinite(x) for x in value):
            raise self.fail(key, "contains NaN or infinity")
        if length is not None and len(value) != length:
            raise self.fail(key, f"has length {len(value)}, expected {length}")
        return tuple(None if x is None else float(x) for x in value)

    def matrix(self, key: str, rows: int, cols: int, allow_none: bool = False) -> Matrix:
        value = self.raw(key)
        if not isinstance(value, list) or len(value) != rows:
            raise self.fail(key, f"must be a {rows}x{cols} matrix")
        return tuple(
            self._vector(row, f"{key}[{i}]", cols, allow_none) for i, row in enumerate(value)
        )

    def stochastic(self, key: str, rows: int, cols: int) -> Matrix:
        """A matrix of attention weights: non-negative rows that each sum to 1."""
        weights = self.matrix(key, rows, cols)
        for i, row in enumerate(weights):
            if any(w < 0 for w in row) or abs(sum(row) - 1) > ROW_SUM_TOLERANCE:
                raise self.fail(key, f"row {i} sums to {sum(row):.6f}, not 1")
        return weights

    def distribution(self, key: str, length: int) -> Vector:
        """One row of attention weights: non-negative, summing to 1."""
        row = self.vector(key, length)
        if any(w < 0 for w in row) or abs(sum(row) - 1) > ROW_SUM_TOLERANCE:
            raise self.fail(key, f"sums to {sum(row):.6f}, not 1")
        return row
