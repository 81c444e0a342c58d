"""The data file: the one contract between model/ and scenes/.

``python -m model --out PATH`` writes it; :meth:`LectureData.from_file` is the one typed
loader that reads it. This module imports no torch, so a scene worker loads the data
without paying torch's import time, and cannot train by accident.

:data:`PARTS` is the one list of the file's parts: their paths in the file, the names
scenes use, and their shapes (pydantic models in :mod:`model.parts`). The lab builds the
file from it (:func:`nest`), the loader validates by it, and a scene's declared ``reads``
are checked against it. Every problem with a file (missing, truncated, not JSON, unknown
schema version, a key missing, shapes that disagree, a NaN, an attention row that does not
sum to 1) raises a :class:`DataFileError` whose message is one line naming the file and
the key. The format is documented in docs/data-file.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from common.closure import code_digest
from common.schema import one_line
from model import parts
from model.config import ConfigError, LectureConfig

__all__ = [
    "PARTS",
    "SCHEMA_VERSION",
    "DataFileError",
    "LectureData",
    "in_language",
    "is_current",
    "nest",
]

SCHEMA_VERSION = 13


class DataFileError(ValueError):
    """The data file is missing or does not satisfy the contract."""


@dataclass(frozen=True)
class Part:
    """One part of the data file: where it is, what scenes call it, and its shape."""

    path: str  # dotted path in the file
    name: str  # attribute of LectureData
    model: type[BaseModel]
    required: bool = False  # the colour task's parts; the others may be absent


PARTS: tuple[Part, ...] = (
    Part("training", "training", parts.Training, required=True),
    Part("weights", "weights", parts.Weights, required=True),
    Part("examples", "examples", parts.Examples, required=True),
    Part("pitfalls.projection", "projection", parts.ProjectionProbe),
    Part("pitfalls.sqrt_d", "sqrt_d", parts.SqrtDProbe),
    Part("pitfalls.shuffle", "shuffle", parts.ShuffleProbe),
    Part("positional", "positional", parts.PositionalTable),
    Part("tokens.eat_apple", "eat_apple", parts.EatApple),
    Part("tokens.it_cat", "it_cat", parts.ItCat),
    Part("office", "office", parts.Office),
    Part("causal", "causal", parts.CausalRun),
    Part("multihead.two", "two_heads", parts.HeadsRun),
    Part("multihead.four", "four_heads", parts.HeadsRun),
    Part("multihead.bookkeeping", "bookkeeping", parts.Bookkeeping),
    Part("dead_ends", "dead_ends", parts.DeadEnds),
    Part("own", "own", parts.OwnSentences),  # each language's own walkthrough: parts.OWN_PARTS
)
PART_BY_NAME = {p.name: p for p in PARTS}
PART_BY_PATH = {p.path: p for p in PARTS}

_PATH_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def resolve(data: Any, path: str) -> Any:
    """The value at a dotted data-file path such as ``examples.mixed.attention[2][5]``."""
    node = data
    for key, index in _PATH_TOKEN.findall(path):
        node = node[int(index)] if index else node[key]
    return node


def covering_part(path: str) -> Part | None:
    """The registered part a data-file path lies in (``examples.mixed`` -> examples)."""
    return next(
        (p for p in PARTS if path == p.path or path.startswith((p.path + ".", p.path + "["))),
        None,
    )


def in_language(data: dict[str, Any], lang: str) -> dict[str, Any]:
    """The data file's JSON as ``lang``'s chapters read it: where the language has a
    walkthrough sentence of its own, the parts made from it (``own.<lang>``) stand at their
    usual paths, so that a scene names every number by the same path in every language."""
    own = data.get("own", {}).get(lang)
    if not own:
        return data
    view = dict(data)
    for path, content in own.items():
        *parents, last = path.split(".")
        node = view
        for key in parents:
            node[key] = node = dict(node[key])  # copied on the way: the file's JSON is kept
        node[last] = content
    return view


def nest(header: dict[str, Any], contents: dict[str, Any]) -> dict[str, Any]:
    """The data file's JSON from its header and its parts' contents by path.

    ``contents`` must hold exactly the registered parts: a part the builder forgot, or one
    it made up, is an error here rather than a file the loader half understands.
    """
    if set(contents) != set(PART_BY_PATH):
        missing, extra = set(PART_BY_PATH) - set(contents), set(contents) - set(PART_BY_PATH)
        raise DataFileError(
            f"parts not in the registry: {sorted(extra)}; missing: {sorted(missing)}"
        )
    data = dict(header)
    for path, content in contents.items():
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = content
    return data


def json_schema() -> dict[str, Any]:
    """The JSON schema of every part, by path (written to docs/data-file.schema.json)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "config": LectureConfig.model_json_schema(),
        "parts": {p.path: p.model.model_json_schema() for p in PARTS},
    }


class LectureData:
    """Everything the scenes may show, validated on load.

    Parts are attributes by their registered name (``data.sqrt_d``) or found by path
    (``data.part("pitfalls.sqrt_d")``); a part the file lacks is a DataFileError naming it.
    """

    def __init__(
        self,
        source: str,
        source_hash: str,
        config: LectureConfig,
        found: dict[str, Any],
        raw: dict[str, Any],
    ) -> None:
        self.source, self.source_hash, self.config = source, source_hash, config
        self._raw = raw  # the validated JSON, for values named by their path
        self.schema_version = SCHEMA_VERSION
        self._parts = found

    @property
    def colour_names(self) -> tuple[str, ...]:
        return self.config.colours

    def in_language(self, lang: str) -> LectureData:
        """The data as ``lang``'s chapters read it (:func:`in_language`)."""
        own = self._parts.get("own")
        if own is None or lang not in own.root:
            return self
        found = {**self._parts, **own.root[lang]}
        return LectureData(
            self.source, self.source_hash, self.config, found, in_language(self._raw, lang)
        )

    def value(self, path: str) -> Any:
        """The value at a data-file path (``tokens.eat_apple.dots[2]``), as the file holds it."""
        try:
            return resolve(self._raw, path)
        except (KeyError, IndexError, TypeError):
            raise DataFileError(f"{self.source}: no value at '{path}'") from None

    @property
    def raw(self) -> dict[str, Any]:
        """The file's JSON (read only: the numbers' sources compute from it)."""
        return self._raw

    def part(self, path: str) -> Any:
        """A validated part by its data-file path."""
        if path not in self._parts:
            raise DataFileError(
                f"{self.source}: has no part '{path}' (re-make it: python -m model --out FILE)"
            )
        return self._parts[path]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in PART_BY_NAME:
            raise AttributeError(name)
        found = self.part(PART_BY_NAME[name].path)
        return found.root if isinstance(found, parts.Examples) else found

    def example(self, name: str) -> parts.Example:
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
        if path.exists() and not path.is_file():  # a folder or a pipe: never read
            raise DataFileError(f"{path}: cannot be read (not a regular file)")
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise DataFileError(
                f"{path}: data file not found (make it with: python -m model --out {path})"
            ) from None
        except (OSError, UnicodeDecodeError) as err:
            reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
            raise DataFileError(f"{path}: cannot be read ({reason})") from None
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as err:
            raise DataFileError(
                f"{path}: not valid JSON (truncated or damaged?) at line {err.lineno}: {err.msg}"
            ) from None
        except ValueError as err:
            raise DataFileError(f"{path}: {err}") from None
        except RecursionError:
            raise DataFileError(f"{path}: nested too deep to be a data file") from None
        try:
            return cls.from_dict(data, source=str(path))
        except RecursionError:
            raise DataFileError(f"{path}: nested too deep to be a data file") from None

    @classmethod
    def from_dict(cls, data: Any, source: str = "<data>") -> LectureData:
        if not isinstance(data, dict):
            raise DataFileError(f"{source}: 'top level' must be an object")
        for key in ("schema_version", "source_hash", "config"):
            if key not in data:
                raise DataFileError(f"{source}: '{key}' is missing")
        version = data["schema_version"]
        if version != SCHEMA_VERSION:
            raise DataFileError(
                f"{source}: 'schema_version' is {version!r}; this loader reads version "
                f"{SCHEMA_VERSION} (re-make it: python -m model --out FILE)"
            )
        try:
            config = LectureConfig.from_dict(data["config"], source=source, prefix="config")
        except ConfigError as err:
            raise DataFileError(str(err)) from None
        context = {"positions": config.positions, "colours": len(config.colours), "d": config.d}
        found: dict[str, Any] = {}
        for part in PARTS:
            try:
                content = resolve(data, part.path)
            except (KeyError, TypeError):
                if part.required:
                    raise DataFileError(f"{source}: '{part.path}' is missing") from None
                continue
            try:
                found[part.path] = part.model.model_validate(content, context=context)
            except ValidationError as err:
                raise DataFileError(one_line(source, err, part.path.split("."))) from None
        return cls(source, str(data["source_hash"]), config, found, data)


def _reject_constant(name: str) -> float:
    raise ValueError(f"contains {name}, which the contract forbids")


BUILDER = Path(__file__).resolve().parent / "lab.py"  # the data file is made by lab.build


def model_source_hash() -> str:
    """The digest of the builder's import closure: a data file made by other code is stale
    (a change to a module the builder does not import, such as the atomic writer, is not)."""
    return code_digest(BUILDER)


def is_current(path: str | Path, config: LectureConfig) -> bool:
    """True when ``path`` is a valid data file made by this code from this config."""
    try:
        data = LectureData.from_file(path)
    except DataFileError:
        return False
    return data.source_hash == model_source_hash() and data.config == config
