"""What a segment was made from, so that an unchanged segment is never rendered again.

A segment's record holds hashes of the scene's source and every project module it imports,
of the parts of the data file it reads, and of its locale strings, with the language, the
size, the frame rate and the Manim version. A segment whose record matches what it would
be made from now is current.
"""

from __future__ import annotations

import ast
import hashlib
import json
from importlib.metadata import version
from pathlib import Path
from typing import Any

from lecture.presets import Preset
from model.datafile import write_json_atomic
from scenes.locale import locale_table
from scenes.numbers import resolve
from scenes.registry import Chapter

RECORD_VERSION = 1
ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("scenes", "model")


def _module_file(name: str) -> Path | None:
    """The project file of a dotted module name, or None for anything outside the project."""
    parts = name.split(".")
    if parts[0] not in PROJECT_PACKAGES:
        return None
    base = ROOT.joinpath(*parts)
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def _imported_modules(source: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    # importing a.b.c runs a/__init__.py and a/b/__init__.py too
    return names | {".".join(n.split(".")[:k]) for n in names for k in range(1, n.count(".") + 1)}


def scene_sources(scene_file: Path) -> list[Path]:
    """The scene's file and every project module it imports, transitively."""
    seen: set[Path] = set()
    todo = [scene_file.resolve()]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo += [p for n in _imported_modules(current) if (p := _module_file(n)) is not None]
    return sorted(seen)


def _digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def sources_hash(scene_file: Path) -> str:
    digest = hashlib.sha256()
    for path in scene_sources(scene_file):
        digest.update(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def data_hash(chapter: Chapter, data: dict[str, Any]) -> str:
    """Hash of the data-file parts the chapter reads (all of it when it declares none)."""
    if chapter.reads is None:
        return _digest(_without_timings(data))
    parts = {path: resolve(data, path) for path in chapter.reads}
    parts["config.colours"] = data["config"]["colours"]
    return _digest(parts)


def _without_timings(data: dict[str, Any]) -> dict[str, Any]:
    """The data without its wall-clock timings, which change at every training."""
    training = {k: v for k, v in data.get("training", {}).items() if k != "train_ms"}
    return {k: v for k, v in data.items() if k != "run_ms"} | {"training": training}


def words_hash(chapter: Chapter, lang: str) -> str:
    table = locale_table(lang)
    return _digest({"scene": table.get(chapter.words), "colours": table.get("colours")})


def expected_record(
    chapter: Chapter, data: dict[str, Any], lang: str, preset: Preset
) -> dict[str, Any]:
    """The record a segment made now would carry."""
    return {
        "record_version": RECORD_VERSION,
        "scene": chapter.name,
        "class": chapter.class_name,
        "lang": lang,
        "width": preset.width,
        "height": preset.height,
        "fps": preset.fps,
        "manim": version("manim"),
        "sources": sources_hash(chapter.file),
        "data": data_hash(chapter, data),
        "words": words_hash(chapter, lang),
    }


def read_record(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_record(path: Path, record: dict[str, Any]) -> None:
    write_json_atomic(path, record)
