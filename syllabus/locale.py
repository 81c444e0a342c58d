"""Words of the lecture, kept out of the Python: one TOML table per language.

``syllabus/locales/<lang>.toml`` has one table per scene (its ``scene_key``) plus shared
tables such as ``[colours]``. A rewording or a translation touches no Python. The
language is the settings' ``lang`` (:mod:`common.settings`; by default the built-in
lecture file's first language).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, ValidationError

from common.schema import Shape, one_line
from common.settings import settings

LOCALE_DIR = Path(__file__).parent / "locales"


class LocaleError(KeyError):
    """A language, scene table or key is missing from the locale tables."""

    def __str__(self) -> str:
        return str(self.args[0])


def locale_dirs() -> list[Path]:
    """Where locale tables are found: syllabus/locales, then the settings' ``locales`` (an
    instructor's own languages; ``LECTURE_LOCALES``, separated by ``os.pathsep``)."""
    return [LOCALE_DIR, *settings().locales]


def locale_path(lang: str) -> Path:
    """The locale table of ``lang`` (the first folder that has one wins)."""
    found = (d / f"{lang}.toml" for d in locale_dirs())
    return next((p for p in found if p.is_file()), LOCALE_DIR / f"{lang}.toml")


def available_languages() -> list[str]:
    return sorted({p.stem for d in locale_dirs() for p in d.glob("*.toml")})


def current_language() -> str:
    """The language in force (the settings' ``lang``)."""
    return settings().lang


@cache
def _table(lang: str) -> dict:
    path = locale_path(lang)
    if not path.is_file():
        raise LocaleError(
            f"no locale table for language '{lang}' (have: {', '.join(available_languages())})"
        )
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise LocaleError(f"{path}: not valid TOML: {err}") from None


def locale_table(lang: str) -> dict:
    """The whole locale table of a language (every scene's strings)."""
    return _table(lang)


def shared_tables(lang: str) -> dict:
    """The tables of a language that belong to no scene (a scene's table has a title)."""
    return {k: v for k, v in _table(lang).items() if not (isinstance(v, dict) and "title" in v)}


class Language(Shape):
    """Everything that differs between languages but the words: the ``[meta]`` table.

    Attributes
    ----------
    code
        The locale file's name (``zh-TW``).
    name
        The language's own name, for menus and the README.
    iso639_2
        The three-letter code of the MP4 subtitle track (``zho``, ``eng``).
    spaces
        Whether words are separated by spaces (False for Chinese: subtitle lines may
        break between any two characters, and clauses join without a space).
    chars_per_line, chars_per_second
        Subtitle limits: a line's length and the reading speed.
    voice, voice_speed
        The draft voice (``render.py --voice espeak``): an espeak-ng voice and its speed in
        words a minute. Mandarin needs ``cmn-latn-pinyin``: plain ``cmn`` spells characters
        it does not know, such as 蘋果, as English-spelled pinyin.
    numbers
        How the voice reads numbers (:data:`voice.speech.READERS`: ``zh`` or ``en``).
    """

    code: str
    name: str
    iso639_2: Annotated[str, StringConstraints(pattern=r"^[a-z]{3}$")]
    spaces: bool
    chars_per_line: Annotated[int, Field(ge=8, le=80)]
    chars_per_second: Annotated[float, Field(gt=1, le=40)]
    voice: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_+-]+$")] = "en-us"
    voice_speed: Annotated[int, Field(ge=80, le=400)] = 160
    numbers: Literal["zh", "en"] = "en"


@cache
def language(lang: str) -> Language:
    """The ``[meta]`` table of a language; a missing or wrong key is a LocaleError."""
    meta = _table(lang).get("meta")
    if not isinstance(meta, dict):
        raise LocaleError(f"{locale_path(lang)}: table [meta] is missing")
    try:
        return Language.model_validate({**meta, "code": lang})
    except ValidationError as err:
        raise LocaleError(one_line(str(locale_path(lang)), err, ["meta"])) from None


class Words(Mapping[str, str]):
    """The strings of one scene in one language; a missing key names file, scene and key."""

    def __init__(self, scene_key: str, lang: str | None = None) -> None:
        self.lang = lang or current_language()
        self.scene_key = scene_key
        table = _table(self.lang)
        if scene_key not in table:
            raise LocaleError(
                f"{locale_path(self.lang)}: no table [{scene_key}] for scene '{scene_key}'"
            )
        self._strings: dict[str, str] = table[scene_key]

    def __getitem__(self, key: str) -> str:
        if key not in self._strings:
            raise LocaleError(f"{locale_path(self.lang)}: [{self.scene_key}] has no key '{key}'")
        return self._strings[key]

    def format(self, key: str, **fields: object) -> str:
        """The string ``key`` with its ``{placeholders}`` filled; an unknown one is named."""
        text = self[key]
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError) as err:
            raise LocaleError(
                f"{locale_path(self.lang)}: [{self.scene_key}] {key}: placeholder {err} "
                f"is not one this scene fills (it fills: {', '.join(sorted(fields)) or 'none'})"
            ) from None

    def __iter__(self):
        return iter(self._strings)

    def __len__(self) -> int:
        return len(self._strings)


def colour_label(name: str, lang: str | None = None) -> str:
    """Short label of a task colour (``紅`` for red in zh-TW), else its initial."""
    labels = _table(lang or current_language()).get("colours", {})
    return labels.get(name, name[:1].upper())
