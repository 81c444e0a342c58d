"""The lecture's chapters, in order, read from ``scenes/lecture.toml``. Imports no Manim.

``LECTURE_PLAN`` names another lecture file (an instructor's own plan, or a test's).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCENES_DIR = Path(__file__).resolve().parent
DEFAULT_PLAN = SCENES_DIR / "lecture.toml"


class PlanError(ValueError):
    """The lecture file is missing, not TOML, or a chapter is incomplete."""


@dataclass(frozen=True)
class Chapter:
    """One segment of the lecture: a Manim scene class in a file, with its chapter titles."""

    name: str
    file: Path
    class_name: str
    titles: dict[str, str] = field(default_factory=dict)
    reads: tuple[str, ...] | None = None  # None: not declared, the whole data file
    words: str = ""

    @property
    def module(self) -> str:
        """The module name: ``scenes.<stem>`` for the project's scenes, else the stem."""
        if self.file.parent == SCENES_DIR:
            return f"scenes.{self.file.stem}"
        return self.file.stem

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.name

    def load_class(self) -> type:
        """Import the scene class (the project's scenes as ``scenes.<module>``)."""
        if self.file.parent == SCENES_DIR:
            module = importlib.import_module(self.module)
        else:
            spec = importlib.util.spec_from_file_location(self.file.stem, self.file)
            module = importlib.util.module_from_spec(spec)
            sys.modules[self.file.stem] = module
            spec.loader.exec_module(module)
        return getattr(module, self.class_name)


def plan_path() -> Path:
    return Path(os.environ.get("LECTURE_PLAN", DEFAULT_PLAN))


def load_plan(path: Path | None = None) -> tuple[Chapter, ...]:
    """The chapters of a lecture file; every problem is a one-line PlanError."""
    path = Path(path or plan_path())
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PlanError(f"lecture file {path} not found") from None
    except tomllib.TOMLDecodeError as err:
        raise PlanError(f"lecture file {path} is not valid TOML: {err}") from None
    chapters = [_chapter(path, k, entry) for k, entry in enumerate(data.get("chapter", []), 1)]
    if not chapters:
        raise PlanError(f"lecture file {path} lists no [[chapter]]")
    names = [c.name for c in chapters]
    if len(set(names)) != len(names):
        raise PlanError(f"lecture file {path} lists a scene twice: {names}")
    return tuple(chapters)


def _chapter(path: Path, k: int, entry: dict[str, Any]) -> Chapter:
    where = f"lecture file {path}, chapter {k}"
    for key in ("scene", "file", "class"):
        if not isinstance(entry.get(key), str):
            raise PlanError(f"{where}: key '{key}' must be a string")
    reads = entry.get("reads")
    if reads is not None and not (
        isinstance(reads, list) and all(isinstance(r, str) for r in reads)
    ):
        raise PlanError(f"{where}: key 'reads' must be a list of data-file paths")
    titles = entry.get("title", {})
    if not isinstance(titles, dict):
        raise PlanError(f"{where}: key 'title' must be a table of language = title")
    file = (path.parent / entry["file"]).resolve()
    if not file.is_file():
        raise PlanError(f"{where}: file {file} not found")
    return Chapter(
        name=entry["scene"],
        file=file,
        class_name=entry["class"],
        titles={str(lang): str(t) for lang, t in titles.items()},
        reads=None if reads is None else tuple(reads),
        words=str(entry.get("words", entry["scene"])),
    )


# Not part of the lecture, but held to the same gates: the starting point of a new scene.
TEMPLATE = Chapter("template", SCENES_DIR / "template.py", "TemplateScene", words="template")


def lecture() -> tuple[Chapter, ...]:
    """The chapters of the lecture file in force."""
    return load_plan()


def checked() -> tuple[Chapter, ...]:
    """Every scene the quality gates run on: the lecture's and the template."""
    return (*load_plan(DEFAULT_PLAN), TEMPLATE)


def chapter_of(scene_class: type) -> Chapter | None:
    """The lecture chapter rendering this scene class, if any."""
    try:
        chapters = load_plan()
    except PlanError:
        return None
    return next((c for c in chapters if c.class_name == scene_class.__name__), None)
