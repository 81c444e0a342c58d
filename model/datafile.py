"""The data file: the one contract between model/ and scenes/.

``python -m model --out PATH`` writes it; :meth:`LectureData.from_file` is the one typed
loader that reads it. This module imports no torch, so a scene worker loads the data
without paying torch's import time, and cannot train by accident.

Every problem with a file (missing, truncated, not JSON, unknown schema version, a key
missing, shapes that disagree, a NaN, an attention row that does not sum to 1) raises a
:class:`DataFileError` whose message is one line naming the file and what is wrong.
The format is documented in README.md ("The data file").
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
ROW_SUM_TOLERANCE = 1e-6


class DataFileError(ValueError):
    """The data file is missing or does not satisfy the contract."""


def write_json_atomic(path: str | Path, data: dict[str, Any]) -> None:
    """Write JSON to a temporary file beside ``path``, then rename it into place.

    An interrupted run leaves either the old file or the new one, never half a file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1, allow_nan=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Reader:
    """Typed access to one JSON object, with errors that name the file and the key."""

    def __init__(self, source: str, data: Any, where: str = "") -> None:
        if not isinstance(data, dict):
            raise DataFileError(f"{source}: '{where or 'top level'}' must be an object")
        self.source, self.data, self.where = source, data, where

    def _key(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def fail(self, key: str, problem: str) -> DataFileError:
        return DataFileError(f"{self.source}: '{self._key(key)}' {problem}")

    def raw(self, key: str) -> Any:
        if key not in self.data:
            raise self.fail(key, "is missing")
        return self.data[key]

    def child(self, key: str) -> _Reader:
        return _Reader(self.source, self.raw(key), self._key(key))

    def number(self, key: str) -> float:
        value = self.raw(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
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

    def vector(self, key: str, length: int | None = None) -> tuple[float, ...]:
        value = self.raw(key)
        if not isinstance(value, list) or not all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in value
        ):
            raise self.fail(key, "must be a list of numbers")
        if not all(math.isfinite(x) for x in value):
            raise self.fail(key, "contains NaN or infinity")
        if length is not None and len(value) != length:
            raise self.fail(key, f"has length {len(value)}, expected {length}")
        return tuple(float(x) for x in value)

    def matrix(self, key: str, rows: int, cols: int) -> tuple[tuple[float, ...], ...]:
        value = self.raw(key)
        if not isinstance(value, list) or len(value) != rows:
            raise self.fail(key, f"must be a {rows}x{cols} matrix")
        sub = _Reader(self.source, {str(i): row for i, row in enumerate(value)}, self._key(key))
        return tuple(sub.vector(str(i), cols) for i in range(rows))


@dataclass(frozen=True)
class Training:
    """How the model was trained and how well it learned."""

    steps: int
    loss_curve: tuple[float, ...]
    train_ms: float
    val_mse: float
    baseline_mse: float
    val_size: int


@dataclass(frozen=True)
class Weights:
    """The learned matrices, in the X W convention (W_Q is d_in x d)."""

    w_q: tuple[tuple[float, ...], ...]
    w_k: tuple[tuple[float, ...], ...]
    w_v: tuple[tuple[float, ...], ...]
    readout_w: tuple[float, ...]
    readout_b: float


@dataclass(frozen=True)
class Example:
    """One named colour pattern run through the trained model."""

    name: str
    pattern: str
    colours: tuple[int, ...]
    values: tuple[float, ...]
    targets: tuple[float, ...]
    predictions: tuple[float, ...]
    attention: tuple[tuple[float, ...], ...]

    @property
    def n(self) -> int:
        return len(self.colours)


@dataclass(frozen=True)
class LectureData:
    """Everything the scenes may show, validated on load."""

    source: str
    schema_version: int
    source_hash: str
    config: dict[str, Any]
    colour_names: tuple[str, ...]
    training: Training
    weights: Weights
    examples: dict[str, Example]

    def example(self, name: str) -> Example:
        """The named example; a missing one is a :class:`DataFileError` naming it."""
        if name not in self.examples:
            raise DataFileError(
                f"{self.source}: no example '{name}' (has: {', '.join(self.examples)})"
            )
        return self.examples[name]

    @classmethod
    def from_file(cls, path: str | Path) -> LectureData:
        """Read and validate a data file; every problem is a one-line DataFileError."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise DataFileError(
                f"{path}: data file not found (make it with: python -m model --out {path})"
            ) from None
        except (OSError, UnicodeDecodeError) as err:
            raise DataFileError(f"{path}: cannot be read ({err})") from None
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as err:
            raise DataFileError(
                f"{path}: not valid JSON (truncated or damaged?) at line {err.lineno}: {err.msg}"
            ) from None
        except ValueError as err:
            raise DataFileError(f"{path}: {err}") from None
        return cls.from_dict(data, source=str(path))

    @classmethod
    def from_dict(cls, data: Any, source: str = "<data>") -> LectureData:
        top = _Reader(source, data)
        version = top.integer("schema_version")
        if version != SCHEMA_VERSION:
            raise top.fail(
                "schema_version", f"is {version}; this loader reads version {SCHEMA_VERSION}"
            )
        config = top.child("config")
        n = config.integer("positions")
        d = config.integer("d")
        colour_list = config.raw("colours")
        if not isinstance(colour_list, list) or not all(isinstance(c, str) for c in colour_list):
            raise config.fail("colours", "must be a list of names")
        n_colours = len(colour_list)

        tr = top.child("training")
        training = Training(
            steps=tr.integer("steps"),
            loss_curve=tr.vector("loss_curve"),
            train_ms=tr.number("train_ms"),
            val_mse=tr.number("val_mse"),
            baseline_mse=tr.number("baseline_mse"),
            val_size=tr.integer("val_size"),
        )
        if len(training.loss_curve) != training.steps:
            raise tr.fail(
                "loss_curve", f"has {len(training.loss_curve)} points for {training.steps} steps"
            )

        w = top.child("weights")
        d_in = n_colours + 1
        weights = Weights(
            w_q=w.matrix("w_q", d_in, d),
            w_k=w.matrix("w_k", d_in, d),
            w_v=w.matrix("w_v", d_in, d),
            readout_w=w.vector("readout_w", d),
            readout_b=w.number("readout_b"),
        )

        ex_all = top.child("examples")
        examples = {
            name: _read_example(ex_all.child(name), name, n, n_colours) for name in ex_all.data
        }
        if not examples:
            raise top.fail("examples", "is empty")
        return cls(
            source=source,
            schema_version=version,
            source_hash=top.string("source_hash"),
            config=dict(config.data),
            colour_names=tuple(colour_list),
            training=training,
            weights=weights,
            examples=examples,
        )


def _reject_constant(name: str) -> float:
    raise ValueError(f"contains {name}, which the contract forbids")


def _read_example(ex: _Reader, name: str, n: int, n_colours: int) -> Example:
    colours = ex.vector("colours", n)
    if any(c != int(c) or not 0 <= c < n_colours for c in colours):
        raise ex.fail("colours", f"must be colour indices 0..{n_colours - 1}")
    attention = ex.matrix("attention", n, n)
    for i, row in enumerate(attention):
        if any(w < 0 for w in row) or abs(sum(row) - 1) > ROW_SUM_TOLERANCE:
            raise ex.fail("attention", f"row {i} sums to {sum(row):.6f}, not 1")
    return Example(
        name=name,
        pattern=ex.string("pattern"),
        colours=tuple(int(c) for c in colours),
        values=ex.vector("values", n),
        targets=ex.vector("targets", n),
        predictions=ex.vector("predictions", n),
        attention=attention,
    )


def model_source_hash() -> str:
    """SHA-256 of model/'s Python sources: a data file made by other code is stale."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def is_current(path: str | Path, config: dict[str, Any]) -> bool:
    """True when ``path`` is a valid data file made by this code from this config."""
    try:
        data = LectureData.from_file(path)
    except DataFileError:
        return False
    return data.source_hash == model_source_hash() and data.config == config
