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
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.parts import (
    Bookkeeping,
    EatApple,
    ItCat,
    MultiHeadToy,
    Office,
    PositionalTable,
    ProjectionProbe,
    ShuffleProbe,
    SqrtDProbe,
)
from model.reading import DataFileError, Matrix, Reader, Vector

__all__ = ["SCHEMA_VERSION", "DataFileError", "LectureData", "is_current", "write_json_atomic"]

SCHEMA_VERSION = 3

# The parts beyond the colour task: data-file path -> reader. A file may lack some (a
# scene asking for a missing part gets an error naming it); those present are validated.
PART_READERS = {
    "pitfalls.projection": ProjectionProbe.read,
    "pitfalls.sqrt_d": SqrtDProbe.read,
    "pitfalls.shuffle": ShuffleProbe.read,
    "positional": PositionalTable.read,
    "tokens.eat_apple": EatApple.read,
    "tokens.it_cat": ItCat.read,
    "office": Office.read,
    "multihead.toy": MultiHeadToy.read,
    "multihead.bookkeeping": Bookkeeping.read,
}


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


@dataclass(frozen=True)
class Training:
    """How the model was trained and how well it learned."""

    steps: int
    loss_curve: Vector
    train_ms: float
    val_mse: float
    baseline_mse: float
    val_size: int


@dataclass(frozen=True)
class Weights:
    """The learned matrices, in the X W convention (W_Q is d_in x d)."""

    w_q: Matrix
    w_k: Matrix
    w_v: Matrix
    readout_w: Vector
    readout_b: float


@dataclass(frozen=True)
class Example:
    """One named colour pattern run through the trained model."""

    name: str
    pattern: str
    colours: tuple[int, ...]
    values: Vector
    targets: Vector
    predictions: Vector
    attention: Matrix

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
    parts: dict[str, Any]

    def part(self, path: str) -> Any:
        """A validated part by its data-file path; a missing one is a DataFileError."""
        if path not in self.parts:
            raise DataFileError(
                f"{self.source}: has no part '{path}' (re-make it: python -m model --out FILE)"
            )
        return self.parts[path]

    @property
    def projection(self) -> ProjectionProbe:
        return self.part("pitfalls.projection")

    @property
    def sqrt_d(self) -> SqrtDProbe:
        return self.part("pitfalls.sqrt_d")

    @property
    def shuffle(self) -> ShuffleProbe:
        return self.part("pitfalls.shuffle")

    @property
    def positional(self) -> PositionalTable:
        return self.part("positional")

    @property
    def eat_apple(self) -> EatApple:
        return self.part("tokens.eat_apple")

    @property
    def it_cat(self) -> ItCat:
        return self.part("tokens.it_cat")

    @property
    def office(self) -> Office:
        return self.part("office")

    @property
    def multihead(self) -> MultiHeadToy:
        return self.part("multihead.toy")

    @property
    def bookkeeping(self) -> Bookkeeping:
        return self.part("multihead.bookkeeping")

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
        top = Reader(source, data)
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
        parts = {
            path: read(section)
            for path, read in PART_READERS.items()
            if (section := _find(top, path)) is not None
        }
        return cls(
            source=source,
            schema_version=version,
            source_hash=top.string("source_hash"),
            config=dict(config.data),
            colour_names=tuple(colour_list),
            training=training,
            weights=weights,
            examples=examples,
            parts=parts,
        )


def _find(top: Reader, path: str) -> Reader | None:
    """The object at a dotted path, or None where any step of the path is absent."""
    section = top
    for key in path.split("."):
        if not section.has(key):
            return None
        section = section.child(key)
    return section


def _reject_constant(name: str) -> float:
    raise ValueError(f"contains {name}, which the contract forbids")


def _read_example(ex: Reader, name: str, n: int, n_colours: int) -> Example:
    colours = ex.vector("colours", n)
    if any(c != int(c) or not 0 <= c < n_colours for c in colours):
        raise ex.fail("colours", f"must be colour indices 0..{n_colours - 1}")
    attention = ex.stochastic("attention", n, n)
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
