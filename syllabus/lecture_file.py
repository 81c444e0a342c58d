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
from itertools import product
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, StringConstraints, ValidationError

from common.defaults import DEFAULT_LECTURE, default
from common.files import resolved
from common.schema import Shape, one_line, read_toml
from common.settings import settings, tempsettings
from common.text import ALLOWED, Where, dotted, refused
from common.voices import CHAPTER_VOICES, LECTURE_VOICES, VoiceKind
from model.config import ConfigError, LectureConfig
from model.sentences import names_in
from syllabus.locale import (
    WHOLE_NUMBER,
    LocaleError,
    Words,
    available_languages,
    check_line,
    check_tables,
    check_value,
    locale_path,
    locale_table,
    may_break,
    said_table,
)
from syllabus.plan import Chapter, PlanError, load_plan, plan_path
from syllabus.presets import PRESETS
from syllabus.themes import TASK_PALETTE, THEMES


class LectureFileError(ValueError):
    """The lecture file is missing, not TOML, or a key is unknown or has a bad value."""


class _Keys(Shape):
    """The lecture file's own keys, with their types (``[task]`` is checked by the model).

    No defaults here: an omitted key takes the built-in lecture file's value, and omitted
    ``chapters`` mean every chapter of the plan, in its order.
    """

    chapters: list[str] | None = None
    languages: list[str]
    theme: str
    quality: str
    voice: str
    voices: dict[str, KokoroChoice]
    task: dict[str, Any]
    locales: list[str]  # folders of its own locale files
    words: dict[str, dict[str, dict[str, Any]]]  # its own lines, by language and table
    chapter_voices: dict[str, str]  # a chapter's own voice (CHAPTER_VOICES)


class KokoroChoice(Shape):
    """One language's natural voice: a Kokoro voice and its speed (1: the voice's own)."""

    name: Annotated[str, StringConstraints(pattern=r"^[a-z]{2}_[a-z]+$")]
    speed: Annotated[float, Field(ge=0.5, le=2.0)]
    # A Mandarin voice's English terms: said by this English voice ("": by `name` itself),
    # with this share of `name`'s intonation, at this speed (docs/voice.md measures them).
    terms: Annotated[str, StringConstraints(pattern=r"^([a-z]{2}_[a-z]+)?$")] = ""
    terms_mix: Annotated[float, Field(ge=0.0, le=1.0)] = 0.0
    terms_speed: Annotated[float, Field(ge=0.5, le=2.0)] = 1.0


@dataclass(frozen=True)
class LectureFile:
    """A loaded, checked lecture file."""

    path: Path
    chapters: tuple[Chapter, ...]
    languages: tuple[str, ...]
    theme: str
    quality: str
    config: LectureConfig
    voice: VoiceKind  # every chapter's, unless chapter_voices says otherwise (LECTURE_VOICES)
    voices: dict[str, KokoroChoice]  # each rendered language's Kokoro voice
    overlay: dict[str, Any]  # the settings its own words need: tempsettings(**overlay)
    chapter_voices: dict[str, VoiceKind]  # chapters voiced otherwise than `voice`
    first: str  # the file's own first language: its lecture goes into out/ itself


_NO_DEFAULT = ("chapters", "task")  # keys given their own way below


def _one_of(source: str, key: str, value: str, allowed: list[str]) -> None:
    if value not in allowed:
        raise LectureFileError(f"{source}: '{key}' is '{value}' (allowed: {', '.join(allowed)})")


def _check_sentences(
    source: str, config: LectureConfig, chapters: Sequence[Chapter], languages: Sequence[str]
) -> None:
    """What the chapters need from ``[task]`` is there (their ``needs``), and the hand-made
    sentences name their dimensions (and senses) in every language shown; a language's own
    walkthrough (``[task.walkthroughs.<lang>]``) stands in for ``walkthrough`` in it."""
    known = available_languages()
    for lang in config.walkthroughs:
        if lang not in known:
            raise LectureFileError(
                f"{source}: 'task.walkthroughs.{lang}': no language '{lang}' "
                f"(allowed: {', '.join(known)})"
            )
    reads = {path for chapter in chapters for path in chapter.reads}
    for lang in languages:
        key = f"walkthroughs.{lang}" if lang in config.walkthroughs else "walkthrough"
        names = []
        if "tokens.eat_apple" in reads:
            names.append((f"task.{key}.dims", config.walkthrough_in(lang).dims))
        if "tokens.it_cat" in reads:
            names.append(("task.pronoun.dims", config.pronoun.dims))
        for chapter in chapters:
            for need in chapter.needs:
                own = (
                    need.replace("walkthrough", key, 1) if need.startswith("walkthrough.") else need
                )
                value = _task_value(config, own)
                if value is None:
                    raise LectureFileError(
                        f"{source}: 'task.{own}' is missing: the chapter '{chapter.name}' needs "
                        f"it (common/default_lecture.toml shows one), or drop '{chapter.name}'"
                    )
                if hasattr(value, "means"):  # a sense names itself in every language
                    names.append((f"task.{own}.means", value.means))
        for where, table in names:
            if names_in(table, lang) is None:
                raise LectureFileError(
                    f"{source}: '{where}' has no names in '{lang}' (add {lang} = [...], or "
                    "give one list for every language)"
                )


def _task_value(config: LectureConfig, key: str) -> Any:
    """The value of a dotted ``[task]`` key (``walkthrough.other_sense``,
    ``walkthroughs.en.other_sense``), None if unset."""
    value: Any = config
    for name in key.split("."):
        value = value.get(name) if isinstance(value, dict) else getattr(value, name, None)
    return value


def load_lecture(
    path: Path | None = None, plan: Path | None = None, languages: Sequence[str] | None = None
) -> LectureFile:
    """Read and check a lecture file (the built-in default when ``path`` is None), for its
    own languages or for ``languages`` (``--lang``), which then replace them.

    ``plan`` is the list of scenes the chapters are chosen from (scenes/chapters/plan.toml by
    default). A lecture file without ``chapters`` (the built-in one) is every chapter of it;
    every other omitted key takes the built-in lecture file's value.
    """
    path = Path(path or DEFAULT_LECTURE)
    source = f"lecture file {path}"
    data = read_toml(path, "lecture file", LectureFileError)
    _check_characters(source, data)
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
    for table in ("task", "voices"):
        if not isinstance(data.get(table, {}), dict):
            raise LectureFileError(f"{source}: '{table}' must be a table ([{table}])")
    try:
        keys = _Keys.model_validate(
            {k: default(k) for k in _Keys.model_fields if k not in _NO_DEFAULT}
            | data
            | {"task": data.get("task", {}), "voices": _voices(data.get("voices", {}))}
        )
    except ValidationError as err:
        raise LectureFileError(one_line(source, err)) from None
    overlay = _overlay(path, source, keys)
    with tempsettings(**overlay):
        return _checked(path, source, keys, plan, languages, overlay)


def _own_line_may_break(where: Where) -> bool:
    """``words.<lang>.<table>.<key>`` may hold a newline where the built-in words do."""
    return len(where) == 4 and where[0] == "words" and may_break(where[2:])


def _check_characters(source: str, data: dict) -> None:
    """No key or text of the file holds a control character, a bidi override or a line
    separator, and a newline only its own words that replace a label of several lines
    (:func:`syllabus.locale.multiline_keys`): checked first, so that no later message
    prints such a key as it is."""
    found = refused(data, _own_line_may_break)
    if found:
        where, problem = found
        raise LectureFileError(f"{source}: '{dotted(where)}' {problem} (allowed: {ALLOWED})")


def _voices(own: dict[str, Any]) -> dict[str, Any]:
    """Each language's ``[voices.<lang>]``: the built-in file's keys, then the file's own
    (a table of its own keeps the built-in ``terms`` unless it names its own)."""
    built_in = default("voices")
    return built_in | {
        lang: built_in.get(lang, {}) | table if isinstance(table, dict) else table
        for lang, table in own.items()
    }


def _overlay(path: Path, source: str, keys: _Keys) -> dict[str, Any]:
    """The settings under which the lecture file's own words are in force: its ``locales``
    folders (relative to it) after the environment's, and itself for its ``[words]``."""
    folders = []
    for k, name in enumerate(keys.locales):
        folder = resolved(path.parent / name, f"{source}: 'locales[{k}]':", LectureFileError)
        if not folder.is_dir():
            raise LectureFileError(f"{source}: 'locales[{k}]' is '{name}': no such folder")
        folders.append(folder)
    for lang, tables in keys.words.items():
        for table, words in tables.items():
            if not isinstance(words, dict):
                raise LectureFileError(
                    f"{source}: 'words.{lang}.{table}' must be a table of lines "
                    f"([words.{lang}.{table}])"
                )
    return {
        "locales": (*settings().locales, *folders),
        "words": path.resolve() if keys.words else None,
    }


def _check_words(source: str, keys: _Keys) -> None:
    """Each of the lecture file's own words replaces a key the language has, with the same
    kind (a line for a line), only the placeholders the line there has, and what its scene
    will need of it (:func:`~syllabus.locale.check_line`)."""
    for lang, tables in keys.words.items():
        if lang not in available_languages():
            raise LectureFileError(
                f"{source}: 'words.{lang}': no language '{lang}' "
                f"(allowed: {', '.join(available_languages())})"
            )
        with tempsettings(words=None):  # the words as they are without the lecture's own
            base = locale_table(lang)
        for table, words in tables.items():
            if not isinstance(base.get(table), dict):
                raise LectureFileError(
                    f"{source}: 'words.{lang}.{table}': {locale_path(lang)} has no table [{table}]"
                )
            for key, value in words.items():
                if key not in base[table]:
                    raise LectureFileError(
                        f"{source}: 'words.{lang}.{table}.{key}': [{table}] has no key '{key}' "
                        f"(allowed: {', '.join(sorted(base[table]))[:300]})"
                    )
                where = f"{source}: 'words.{lang}.{table}.{key}'"
                try:
                    check_value(where, value, base[table][key])
                    check_line(where, value, base[table][key], said_table(base[table]))
                except LocaleError as err:
                    raise LectureFileError(str(err)) from None


def _chapter_voices(
    source: str, chosen: dict[str, str], chapters: Sequence[Chapter]
) -> dict[str, VoiceKind]:
    """The ``chapter_voices`` entries, each a chapter of the lecture and a kind of voice."""
    names = [chapter.name for chapter in chapters]
    for name, kind in chosen.items():
        if name not in names:
            raise LectureFileError(
                f"{source}: 'chapter_voices.{name}': no chapter '{name}' in this lecture "
                f"(allowed: {', '.join(names)})"
            )
        _one_of(source, f"chapter_voices.{name}", kind, list(CHAPTER_VOICES))
    return {name: VoiceKind(kind) for name, kind in chosen.items()}


def _check_asked(languages: Sequence[str] | None) -> None:
    """``--lang``'s languages are known."""
    known = available_languages()
    for lang in languages or ():
        if lang not in known:
            raise LectureFileError(f"unknown language '{lang}' (allowed: {', '.join(known)})")


def _check_languages(source: str, keys: _Keys) -> None:
    """The file's ``languages`` are known, each once."""
    known = available_languages()
    if not keys.languages:
        raise LectureFileError(f"{source}: 'languages' is empty (allowed: {', '.join(known)})")
    for lang in keys.languages:
        _one_of(source, "languages", lang, known)
    twice = next((lang for lang in keys.languages if keys.languages.count(lang) > 1), None)
    if twice:
        raise LectureFileError(f"{source}: 'languages' lists '{twice}' twice")


def _check_named(
    source: str, config: LectureConfig, chapters: Sequence[Chapter], rendered: Sequence[str]
) -> None:
    """The people a chapter names (its ``named``) have names in every language rendered."""
    for chapter in chapters:
        for key, lang in ((key, lang) for key in chapter.named for lang in rendered):
            names = Words(chapter.scene_key, lang)
            for k, person in enumerate(_task_value(config, key) or (), 1):
                if person.id not in names:
                    raise LectureFileError(
                        f"{source}: 'task.{key}' person {k}: '{person.id}' has no name in "
                        f'{lang} [{chapter.scene_key}] (add {person.id} = "..." to that '
                        "table in a folder of your own words, the lecture file's 'locales')"
                    )


def _check_numbers(source: str, chapters: Sequence[Chapter], rendered: Sequence[str]) -> None:
    """The lines a chapter reads as whole numbers (its ``word_numbers``) are within its bounds in
    every language rendered: a count it draws, or a position in a list of its words."""
    for chapter in chapters:
        for (key, least, most), lang in product(chapter.word_numbers, rendered):
            words = Words(chapter.scene_key, lang)
            if isinstance(most, int):
                top, what = most, ""
            else:  # a position: below the shortest of the lists it points into
                top = min(len(words[name].split(",")) for name in most) - 1
                what = f" (a position in {', '.join(most)})"
            text = words[key].strip()
            if not WHOLE_NUMBER.fullmatch(text) or not least <= int(text) <= top:
                raise LectureFileError(
                    f"{source}: [{chapter.scene_key}] {key} in {lang} is {text[:20]!r}: the "
                    f"chapter '{chapter.name}' needs a whole number from {least} to {top}{what}"
                )


def _check_positions(source: str, config: LectureConfig, chapters: Sequence[Chapter]) -> None:
    """Each chapter's layout holds the task's positions (its ``max_positions``)."""
    for chapter in chapters:
        most = chapter.max_positions
        if most is not None and config.positions > most:
            raise LectureFileError(
                f"{source}: 'chapters': '{chapter.name}' is laid out for at most {most} "
                f"positions, and 'task.positions' is {config.positions}: drop the chapter or "
                f"use {most} positions or fewer"
            )


def _checked(
    path: Path,
    source: str,
    keys: _Keys,
    plan: Path | None,
    languages: Sequence[str] | None,
    overlay: dict[str, Any],
) -> LectureFile:
    """The rest of :func:`load_lecture`, with the lecture file's own words in force."""
    _check_asked(languages)
    _check_words(source, keys)
    _check_languages(source, keys)
    _one_of(source, "theme", keys.theme, list(THEMES))
    _one_of(source, "quality", keys.quality, list(PRESETS))
    _one_of(source, "voice", keys.voice, list(LECTURE_VOICES))
    if keys.chapters is not None and not keys.chapters:
        raise LectureFileError(f"{source}: 'chapters' is empty: list at least one")
    try:
        chapters = load_plan(plan or plan_path(), keys.chapters)
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
    check_tables(rendered, [chapter.scene_key for chapter in chapters])  # before any render
    _check_named(source, config, chapters, rendered)
    _check_numbers(source, chapters, rendered)
    _check_sentences(source, config, chapters, rendered)
    _check_positions(source, config, chapters)
    return LectureFile(
        path,
        chapters,
        tuple(rendered),
        keys.theme,
        keys.quality,
        config,
        VoiceKind(keys.voice),
        keys.voices,
        overlay,
        _chapter_voices(source, keys.chapter_voices, chapters),
        keys.languages[0],
    )
