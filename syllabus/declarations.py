"""What a scene declares on its class, read without importing it (no Manim).

A scene class says which locale table holds its words (``scene_key``), which parts of the
data file it shows (``reads``) and, when its layout holds only so many, the most colour-task
positions it can draw (``max_positions``), the lecture file's ``[task]`` keys it cannot do
without (``needs``), the ``[task]`` lists whose people its words must name (``named``), and
the words tables of other chapters it shows (``tables``: caveat writes multihead's head
names) and the lines of its words it reads as whole numbers (``word_numbers``); variants
override class attributes. The lecture file is checked against them, so
what a chapter needs is said by the chapter. The scene itself uses these attributes at
render time (:class:`scenes.kit.base.LectureScene`); render.py needs the same facts to
decide whether a segment is current, without paying Manim's import time. :func:`declaration`
reads them from the source with :mod:`ast`, following base classes through the project's
imports, and :func:`expand_reads` is shared by both sides, so the two cannot disagree (a
test renders nothing and checks that they agree).

``reads`` entries may name string attributes in braces, ``"examples.{example_name}"``; an
attribute holding a tuple of names expands to one entry per name.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

from common.closure import module_file


class DeclarationError(ValueError):
    """A scene class that cannot be found, or whose declarations cannot be read."""


@dataclass(frozen=True)
class Declaration:
    """A scene's words table (None for a plain Manim scene) and the data-file paths it reads."""

    scene_key: str | None
    reads: tuple[str, ...]
    max_positions: int | None = None  # the most colour-task positions its layout holds
    needs: tuple[str, ...] = ()  # [task] keys it cannot do without ("walkthrough.other_sense")
    named: tuple[str, ...] = ()  # [task] lists whose every ``id`` its words table must name
    tables: tuple[str, ...] = ()  # other chapters' words tables it shows ("multihead")
    # lines of its words table it reads as whole numbers: (key, least, most), most a number
    # or the keys of comma-separated lists the number is a position in
    word_numbers: tuple[tuple[str, int, int | tuple[str, ...]], ...] = ()


def expand_reads(reads: tuple[str, ...], attributes: Mapping[str, Any]) -> tuple[str, ...]:
    """``reads`` with ``{attribute}`` filled from the class (tuples give one path each)."""
    paths: list[str] = []
    for template in reads:
        names = [f for _, f, _, _ in Formatter().parse(template) if f]
        if not names:
            paths.append(template)
            continue
        if len(names) > 1:
            raise DeclarationError(f"reads entry {template!r} may name one attribute only")
        value = attributes.get(names[0])
        values = value if isinstance(value, tuple | list) else (value,)
        if not all(isinstance(v, str) for v in values):
            raise DeclarationError(
                f"reads entry {template!r}: attribute '{names[0]}' must be a string or a tuple"
            )
        paths += [template.format(**{names[0]: v}) for v in values]
    return tuple(dict.fromkeys(paths))


@cache
def _parse(file: Path) -> ast.Module:
    return ast.parse(file.read_text(encoding="utf-8"), filename=str(file))


def _class_attributes(file: Path, class_name: str, depth: int = 0) -> dict[str, Any]:
    """Literal class-level attributes of a class and its project base classes."""
    if depth > 20:
        raise DeclarationError(f"{file}: class {class_name}: base classes nest too deep")
    tree = _parse(file)
    node = next(
        (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None
    )
    if node is None:
        raise DeclarationError(f"{file}: no class {class_name}")
    imported = {
        alias.asname or alias.name: (n.module, alias.name)
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and n.module and n.level == 0
        for alias in n.names
    }
    attributes: dict[str, Any] = {}
    for base in reversed(node.bases):
        if not isinstance(base, ast.Name):
            continue
        if base.id in imported:
            module, name = imported[base.id]
            base_file = module_file(module)
            if base_file is not None:
                attributes |= _class_attributes(base_file, name, depth + 1)
        elif any(isinstance(n, ast.ClassDef) and n.name == base.id for n in tree.body):
            attributes |= _class_attributes(file, base.id, depth + 1)
    for statement in node.body:
        _assign(statement, attributes)
    return attributes


def _assign(statement: ast.stmt, attributes: dict[str, Any]) -> None:
    """A class-level assignment of a literal, into ``attributes`` (anything else assigned
    removes the name: not a literal, not a declaration)."""
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets, value = statement.targets, statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        targets, value = [statement.target], statement.value
    for target in targets:
        if isinstance(target, ast.Name):
            try:
                attributes[target.id] = ast.literal_eval(value)
            except ValueError:
                attributes.pop(target.id, None)


def declaration(file: Path, class_name: str) -> Declaration:
    """The scene class's ``scene_key`` and expanded ``reads``, read from its source."""
    try:
        attributes = _class_attributes(file.resolve(), class_name)
    except UnicodeDecodeError:
        raise DeclarationError(f"{file}: not UTF-8 text (save the scene as UTF-8)") from None
    except (OSError, SyntaxError, RecursionError, ValueError) as err:
        raise DeclarationError(f"{file}: cannot be read ({err})") from None
    scene_key, reads = attributes.get("scene_key"), attributes.get("reads", ())
    if scene_key is not None and (not isinstance(scene_key, str) or not scene_key):
        raise DeclarationError(f"{file}: class {class_name}: 'scene_key' must be a table name")
    if not isinstance(reads, tuple | list) or not all(isinstance(r, str) for r in reads):
        raise DeclarationError(f"{file}: class {class_name}: 'reads' must be a tuple of paths")
    most = attributes.get("max_positions")
    if most is not None and (not isinstance(most, int) or isinstance(most, bool) or most < 2):
        raise DeclarationError(f"{file}: class {class_name}: 'max_positions' must be 2 or more")
    paths = {}
    for key in ("needs", "named", "tables"):
        value = attributes.get(key, ())
        if not isinstance(value, tuple | list) or not all(isinstance(v, str) for v in value):
            raise DeclarationError(f"{file}: class {class_name}: '{key}' must be a tuple of keys")
        paths[key] = tuple(value)
    numbers = _word_numbers(attributes.get("word_numbers", ()), f"{file}: class {class_name}")
    return Declaration(
        scene_key, expand_reads(tuple(reads), attributes), most, **paths, word_numbers=numbers
    )


def _word_numbers(declared: Any, where: str) -> tuple[tuple[str, int, int | tuple[str, ...]], ...]:
    """A class's ``word_numbers``, each (key, least, most), ``most`` a number or keys."""
    found = []
    for entry in declared if isinstance(declared, tuple | list) else [None]:
        key, least, most = entry if isinstance(entry, tuple) and len(entry) == 3 else (0, 0, 0)
        most = (most,) if isinstance(most, str) else most
        keys = isinstance(most, tuple) and most and all(isinstance(k, str) for k in most)
        if not (
            isinstance(key, str) and isinstance(least, int) and (isinstance(most, int) or keys)
        ):
            raise DeclarationError(
                f"{where}: 'word_numbers' must be (key, least, most) entries, most a number or keys"
            )
        found.append((key, least, most))
    return tuple(found)
