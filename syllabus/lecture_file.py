"""The lecture file: the one TOML file an instructor edits to make the lecture theirs.

It holds the chapters and their order (any subset of the scenes the plan knows), the
languages, the theme, the default quality, and under ``[task]`` everything the model's run
depends on (the colour task and the √d range; see :class:`model.config.LectureConfig`).
The built-in default, ``common/default_lecture.toml``, is itself such a file:
``render.py --print-config`` prints it as a starting point. Imports neither Manim nor torch.

Every key is checked on load; a problem is one :class:`LectureFileError` line naming the
file, the key and what is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from common.schema import Shape, one_line, read_toml
from model.config import ConfigError, LectureConfig
from model.sentences import names_in
from syllabus.locale import Words, available_languages, locale_path
from syllabus.plan import DEFAULT_PLAN, Chapter, PlanError, load_plan
from syllabus.presets import PRESETS
from syllabus.themes import TASK_PALETTE, THEMES

DEFAULT_LECTURE = Path(__file__).resolve().parent / "default_lecture.toml"


class LectureFileError(ValueError):
    """The lecture file is missing, not TOML, or a key is unknown or has a bad value."""


class _Keys(Shape):
    """The lecture file's own keys, with their types (``[task]`` is checked by the model)."""

    chapters: list[str] | None = None
    languages: list[str] = Field(default_factory=lambda: ["zh-TW"])
    theme: str = "dark"
    quality: str = "high"
    task: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class Lecture:
    """A loaded, checked lecture file."""

    path: Path
    chapters: tuple[Chapter, ...]
    languages: tuple[str, ...]
    theme: str
    quality: str
    config: LectureConfig


def _one_of(source: str, key: str, value: str, allowed: list[str]) -> None:
    if value not in allowed:
        raise LectureFileError(f"{source}: '{key}' is '{value}' (allowed: {', '.join(allowed)})")


def _check_sentences(
    source: str, config: LectureConfig, chapters: Sequence[Chapter], languages: Sequence[str]
) -> None:
    """The hand-made sentences name their dimensions (and senses) in every language shown."""
    reads = {path for chapter in chapters for path in chapter.reads}
    names = []
    if "tokens.eat_apple" in reads:
        names.append(("task.walkthrough.dims", config.walkthrough.dims))
    if "tokens.it_cat" in reads:
        names.append(("task.pronoun.dims", config.pronoun.dims))
    if any(chapter.scene_key == "why" for chapter in chapters):
        sense = config.walkthrough.other_sense
        if sense is None:
            raise LectureFileError(
                f"{source}: 'task.walkthrough.other_sense' is missing: the 'why' chapter shows "
                "the asking word in a sentence where it means something else (or drop 'why')"
            )
        names.append(("task.walkthrough.other_sense.means", sense.means))
    for key, table in names:
        for lang in languages:
            if names_in(table, lang) is None:
                raise LectureFileError(
                    f"{source}: '{key}' has no names in '{lang}' (add {lang} = [...], or "
                    "give one list for every language)"
                )


def load_lecture(
    path: Path | None = None, plan: Path | None = None, languages: Sequence[str] | None = None
) -> Lecture:
    """Read and check a lecture file (the built-in default when ``path`` is None), for its
    own languages or for ``languages`` (``--lang``), which then replace them.

    ``plan`` is the list of scenes the chapters are chosen from (scenes/chapters/plan.toml). With
    another plan and no lecture file of one's own, the lecture is every scene of that plan.
    """
    own_plan = plan is not None and Path(plan).resolve() != DEFAULT_PLAN.resolve()
    every_scene = path is None and own_plan
    path = Path(path or DEFAULT_LECTURE)
    source = f"lecture file {path}"
    data = read_toml(path, "lecture file", LectureFileError)
    model_keys = sorted(set(data) & set(LectureConfig.model_fields))
    if model_keys:
        raise LectureFileError(
            f"{source}: '{model_keys[0]}' belongs under [task] now (the model's settings are a "
            "part of the lecture file; render.py --print-config shows one)"
        )
    unknown = sorted(set(data) - set(_Keys.model_fields))
    if unknown:
        allowed = ", ".join(_Keys.model_fields)
        raise LectureFileError(f"{source}: unknown key '{unknown[0]}' (allowed: {allowed})")
    try:
        keys = _Keys.model_validate(data)
    except ValidationError as err:
        raise LectureFileError(one_line(source, err)) from None
    known = available_languages()
    if not keys.languages:
        raise LectureFileError(f"{source}: 'languages' is empty (allowed: {', '.join(known)})")
    for lang in keys.languages:
        _one_of(source, "languages", lang, known)
    twice = next((lang for lang in keys.languages if keys.languages.count(lang) > 1), None)
    if twice:
        raise LectureFileError(f"{source}: 'languages' lists '{twice}' twice")
    _one_of(source, "theme", keys.theme, list(THEMES))
    _one_of(source, "quality", keys.quality, list(PRESETS))
    if keys.chapters is not None and not keys.chapters:
        raise LectureFileError(f"{source}: 'chapters' is empty: list at least one")
    try:
        chapters = load_plan(plan, None if every_scene else keys.chapters)
        config = LectureConfig.from_dict(keys.task, source, prefix="task")
    except (PlanError, ConfigError) as err:
        message = str(err)
        raise LectureFileError(
            message if message.startswith(source) else f"{source}: 'chapters': {message}"
        ) from None
    for colour in config.colours:
        _one_of(source, "task.colours", colour, list(TASK_PALETTE))
    rendered = list(languages or keys.languages)
    for chapter in chapters:
        try:
            chapter.check(source, list(rendered))
        except PlanError as err:
            raise LectureFileError(str(err)) from None
    if any(chapter.scene_key == "office" for chapter in chapters):
        for lang in rendered:
            names = Words("office", lang)
            for k, person in enumerate(config.office, 1):
                if person.id not in names:
                    raise LectureFileError(
                        f"{source}: 'task.office' person {k}: '{person.id}' has no name in "
                        f'{locale_path(lang)} [office] (add {person.id} = "...")'
                    )
    _check_sentences(source, config, chapters, rendered)
    for chapter in chapters:
        most = chapter.max_positions
        if most is not None and config.positions > most:
            raise LectureFileError(
                f"{source}: 'chapters': '{chapter.name}' is laid out for at most {most} "
                f"positions, and 'task.positions' is {config.positions}: drop the chapter or "
                f"use {most} positions or fewer"
            )
    return Lecture(path, chapters, tuple(rendered), keys.theme, keys.quality, config)
