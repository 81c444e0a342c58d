"""The lecture's chapters, in order, read from ``scenes/chapters/plan.toml``. Imports no Manim.

A plan lists, per chapter, the scene's name, its file and its class. Everything else
about a chapter has one home elsewhere: its title and words are in the locale table named
by the class's ``scene_key``, and the data it reads is the class's ``reads``
(:mod:`syllabus.declarations`). ``LECTURE_PLAN`` names another plan (an instructor's own,
or a test's).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, StringConstraints, ValidationError

from common.files import resolved
from common.schema import Shape, one_line, read_toml
from common.settings import settings
from model.datafile import covering_part
from syllabus.declarations import Declaration, DeclarationError, declaration
from syllabus.locale import LocaleError, Words

CHAPTERS_DIR = Path(__file__).resolve().parent.parent / "scenes" / "chapters"
DEFAULT_PLAN = CHAPTERS_DIR / "plan.toml"

# A name that becomes a file name: no path separators, no dots at the start.
SafeName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")]
Identifier = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
_MOVED = {
    "title": "chapter titles live in the locale tables, as 'title' in the scene's table",
    "reads": "what a scene reads is declared on its class ('reads')",
    "words": "a scene's words table is its class's 'scene_key'",
}


class PlanError(ValueError):
    """The plan is missing, not TOML, or a chapter is incomplete."""


class _ChapterEntry(Shape):
    scene: SafeName
    file: Annotated[str, Field(min_length=1)]
    class_: Identifier = Field(alias="class")
    part: Identifier | None = None


class _Plan(Shape):
    chapter: Annotated[list[_ChapterEntry], Field(min_length=1)]


@dataclass(frozen=True)
class Chapter:
    """One segment of the lecture: a Manim scene class in a file.

    ``part`` names the part of the lecture this chapter begins (its heading is the key of
    that name in the locale's ``[contents]`` table), and ``parts`` lists every part of the
    plan in order: the contents list the opening shows and each part's first chapter
    shows again, its own part highlighted.
    """

    name: str
    file: Path
    class_name: str
    part: str | None = None
    parts: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Chapter({self.name!r}, {self.class_name})"

    @cached_property
    def declared(self) -> Declaration:
        """The class's ``scene_key`` and ``reads``, read from its source."""
        return declaration(self.file, self.class_name)

    @property
    def scene_key(self) -> str | None:
        return self.declared.scene_key

    @property
    def reads(self) -> tuple[str, ...]:
        return self.declared.reads

    @property
    def max_positions(self) -> int | None:
        return self.declared.max_positions

    @property
    def needs(self) -> tuple[str, ...]:
        return self.declared.needs

    @property
    def named(self) -> tuple[str, ...]:
        return self.declared.named

    @property
    def tables(self) -> tuple[str, ...]:
        """Other chapters' words tables it shows, besides its own and the shared ones."""
        return self.declared.tables

    @property
    def word_numbers(self) -> tuple[tuple[str, int, int | tuple[str, ...]], ...]:
        """Lines of its words it reads as whole numbers, with their bounds."""
        return self.declared.word_numbers

    @property
    def in_project(self) -> bool:
        """Whether its file is one of the project's chapters (in :data:`CHAPTERS_DIR`), not
        one of an instructor's own: the one place that says where the project's chapters are."""
        return self.file.parent == CHAPTERS_DIR

    @property
    def module(self) -> str:
        """The module name: ``scenes.chapters.<stem>`` for the project's scenes, else the stem."""
        if self.in_project:
            return f"scenes.chapters.{self.file.stem}"
        return self.file.stem

    def title(self, lang: str) -> str:
        """The chapter's title: ``title`` in its locale table (on screen and in the MP4).

        A plain Manim scene, with no locale table, is titled by its name.
        """
        return Words(self.scene_key, lang)["title"] if self.scene_key else self.name

    def check(self, where: str, languages: list[str]) -> None:
        """Its class exists, declares a words table with a title, and reads known parts."""
        try:
            declared = self.declared
            for lang in languages:
                self.title(lang)
                for table in declared.tables:  # another chapter's words: a scene's table
                    Words(table, lang)["title"]
            for lang in languages:
                contents = Words("contents", lang)
                for part in self.parts:
                    contents[part]
        except (DeclarationError, LocaleError) as err:
            raise PlanError(f"{where}: scene '{self.name}': {err}") from None
        for path in declared.reads:
            if covering_part(path) is None:
                raise PlanError(
                    f"{where}: scene '{self.name}' reads '{path}', which is no part of the "
                    "data file (see docs/data-file.md)"
                )


def plan_path() -> Path:
    """The plan in force: the settings' ``plan``, else the project's."""
    return settings().plan or DEFAULT_PLAN


def load_plan(path: Path | None = None, only: Sequence[str] | None = None) -> tuple[Chapter, ...]:
    """The chapters of a plan, every problem a one-line PlanError; ``only`` picks and orders
    some of them (the lecture file's ``chapters``, by default the settings').

    A chapter belongs to the part named last before it in the plan. In a selection, each
    part begins at its first chosen chapter, and parts with none chosen are not listed.
    """
    if only is None and path is None:
        only = settings().chapters
    path = Path(path or plan_path())
    plan = _read_plan(path)
    entries, member, current = {}, {}, None
    for k, entry in enumerate(plan.chapter, 1):
        file = resolved(path.parent / entry.file, f"plan {path}, chapter {k}:", PlanError)
        if file.is_dir():
            raise PlanError(f"plan {path}, chapter {k}: {file} is a folder, not a scene file")
        if not file.is_file():
            raise PlanError(f"plan {path}, chapter {k}: file {file} not found")
        entries[entry.scene] = (file, entry.class_)
        current = entry.part or current
        member[entry.scene] = current
    only = list(entries) if only is None else list(only)
    _check_choice(only, list(entries))
    chosen = [member[name] for name in only]
    parts = tuple(dict.fromkeys(p for p in chosen if p))
    starts = {p: next(n for n in only if member[n] == p) for p in parts}
    return tuple(
        Chapter(
            name, *entries[name], member[name] if starts.get(member[name]) == name else None, parts
        )
        for name in only
    )


def _read_plan(path: Path) -> _Plan:
    """The plan file, its shape checked, no scene or part listed twice."""
    data: Any = read_toml(path, "plan", PlanError)
    for k, entry in enumerate(data.get("chapter", []) if isinstance(data, dict) else []):
        moved = next((key for key in _MOVED if isinstance(entry, dict) and key in entry), None)
        if moved:
            raise PlanError(f"plan {path}, chapter {k + 1}: '{moved}': {_MOVED[moved]}")
    try:
        plan = _Plan.model_validate(data)
    except ValidationError as err:
        raise PlanError(one_line(f"plan {path}", err)) from None
    parts = [entry.part for entry in plan.chapter if entry.part]
    for kind, names in (("scene", [e.scene for e in plan.chapter]), ("part", parts)):
        twice = next((n for n in names if names.count(n) > 1), None)
        if twice:
            raise PlanError(f"plan {path} lists the {kind} '{twice}' twice")
    return plan


def _check_choice(only: list[str], known: list[str]) -> None:
    """The chapters chosen are the plan's, each once."""
    unknown = next((name for name in only if name not in known), None)
    if unknown:
        raise PlanError(f"no chapter '{unknown}' (allowed: {', '.join(known)})")
    twice = next((n for n in only if only.count(n) > 1), None)
    if twice:
        raise PlanError(f"the chapter '{twice}' is listed twice")


def chapter_of(scene_class: type) -> Chapter | None:
    """The chapter of the plan in force that renders ``scene_class`` (None if none does)."""
    file = Path(inspect.getfile(scene_class)).resolve()
    return next(
        (c for c in load_plan() if c.class_name == scene_class.__name__ and c.file == file),
        None,
    )


# Not part of the lecture, but held to the same gates: the starting point of a new scene.
TEMPLATE = Chapter("template", CHAPTERS_DIR / "template.py", "TemplateScene")


def checked() -> tuple[Chapter, ...]:
    """Every scene the quality gates run on: the lecture's and the template."""
    return (*load_plan(DEFAULT_PLAN), TEMPLATE)
