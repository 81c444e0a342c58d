"""Shapes declared once, with pydantic: the base of every validated file in the project.

The data file's parts (:mod:`model.parts`), the model's configuration
(:mod:`model.config`) and the lecture plan (:mod:`syllabus.plan`) are pydantic models
built on :class:`Shape`. Whatever is wrong with a file, :func:`one_line` turns pydantic's
report into one line naming the key (``'office.sweep[0].weights' sums to 2.000000, not 1``).
Imports no torch and no Manim.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, ValidationError

# A language's code, as its locale table is named (en, zh-TW): BCP-47-like, never a path.
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$")

ROW_SUM_TOLERANCE = 1e-6

Number = FiniteFloat
Vector = list[FiniteFloat]
Matrix = list[Vector]
MaskedMatrix = list[list[FiniteFloat | None]]  # None: a masked score (minus infinity)
# A number an instructor writes into a vector or matrix of the lecture file: finite (TOML
# has inf and nan) and at most this large, so that everything the model computes from it
# (products, sums, the scores the model bounds besides) stays finite in the data file.
MAX_GIVEN = 100.0
Given = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_GIVEN, le=MAX_GIVEN)]
GivenVector = list[Given]
GivenMatrix = list[GivenVector]
NonEmpty = Field(min_length=1)  # use as Annotated[list[X], NonEmpty]


class Shape(BaseModel):
    """A strictly typed, frozen part of a file: unknown keys are an error."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class ShapeError(ValueError):
    """A check that a validator failed, at ``key`` below the model being validated."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"'{key}' {problem}")
        self.key, self.problem = key, problem


def need_length(key: str, seq: Sequence, length: int) -> None:
    if len(seq) != length:
        raise ShapeError(key, f"has length {len(seq)}, expected {length}")


def need_matrix(key: str, matrix: Sequence[Sequence], rows: int, cols: int) -> None:
    if len(matrix) != rows or any(len(row) != cols for row in matrix):
        raise ShapeError(key, f"must be a {rows}x{cols} matrix")


def need_distribution(key: str, row: Sequence[float]) -> None:
    """One row of attention weights: non-negative, summing to 1."""
    if any(w < 0 for w in row) or abs(sum(row) - 1) > ROW_SUM_TOLERANCE:
        raise ShapeError(key, f"sums to {sum(row):.6f}, not 1")


def need_stochastic(key: str, matrix: Sequence[Sequence[float]], rows: int, cols: int) -> None:
    """A matrix of attention weights: non-negative rows that each sum to 1."""
    need_matrix(key, matrix, rows, cols)
    for i, row in enumerate(matrix):
        if any(w < 0 for w in row) or abs(sum(row) - 1) > ROW_SUM_TOLERANCE:
            raise ShapeError(key, f"row {i} sums to {sum(row):.6f}, not 1")


def context_value(info: Any, key: str) -> Any:
    """A value the caller passed in the validation context (the task's size, say)."""
    return (info.context or {})[key]


def _path(loc: Sequence[str | int]) -> str:
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "top level"


_PROBLEMS = {
    "missing": "is missing",
    "extra_forbidden": "is not allowed here",
    "finite_number": "contains NaN or infinity",
    "float_type": "must be a number",
    "int_type": "must be an integer",
    "string_type": "must be a string",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "too_short": "must be a non-empty list",
    "bool_type": "must be true or false",
}


_BOUNDS = {"ge": "at least", "gt": "more than", "le": "at most", "lt": "less than"}


def describe(err: ValidationError, prefix: Sequence[str | int] = ()) -> tuple[str, str]:
    """The first problem of a validation error: (the key's path, what is wrong). A key not
    allowed comes first: a misspelt key explains the key then missing ("dayz", "days")."""
    errors = err.errors(include_url=False)
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = [*prefix, *(p for p in first["loc"] if not str(p).startswith("function-"))]
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, ShapeError):
        keys = [int(k) if k.isdigit() else k for k in cause.key.split(".")]
        return _path([*loc, *keys]), cause.problem
    kind = first["type"]
    bounds = first.get("ctx") or {}
    for bound, words in _BOUNDS.items():
        if bound in bounds:
            return _path(loc), f"must be {words} {bounds[bound]}, got {first.get('input')!r}"
    if kind in _PROBLEMS:
        problem = _PROBLEMS[kind]
        if kind.endswith("_type") and "input" in first:
            problem += f", got {first['input']!r}"[:80]
        return _path(loc), problem
    return _path(loc), str(first["msg"]).removeprefix("Value error, ")


def one_line(source: str, err: ValidationError, prefix: Sequence[str | int] = ()) -> str:
    """``source: 'key.path' problem`` on one line."""
    path, problem = describe(err, prefix)
    return f"{source}: '{path}' {problem}".replace("\n", " ")


def read_toml(path: str | Path, what: str, error: type[Exception]) -> dict[str, Any]:
    """A TOML file's tables; a missing, unreadable or broken file is one line of ``error``."""
    path = Path(path)
    if path.exists() and not path.is_file() and not path.is_dir():  # a pipe: never read
        raise error(f"{what} {path} is not a regular file")
    try:
        text = path.read_bytes().decode("utf-8")
        return tomllib.loads(text)
    except FileNotFoundError:
        raise error(f"{what} {path} not found") from None
    except IsADirectoryError:
        raise error(f"{what} {path} is a folder, not a file") from None
    except OSError as err:
        raise error(f"{what} {path} cannot be read ({err.strerror})") from None
    except UnicodeDecodeError:
        raise error(f"{what} {path} is not UTF-8 text (is it a TOML file?)") from None
    except tomllib.TOMLDecodeError as err:
        raise error(f"{what} {path} is not valid TOML: {err}") from None
    except RecursionError:
        raise error(f"{what} {path} is nested too deep to be one") from None
