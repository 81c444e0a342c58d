"""Words of the lecture, kept out of the Python: one TOML table per language.

``scenes/locales/<lang>.toml`` has one table per scene (its ``scene_key``) plus shared
tables such as ``[colours]``. A rewording or a translation touches no Python. The
language comes from ``LECTURE_LANG`` (default ``zh-TW``).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locales"
DEFAULT_LANG = "zh-TW"


class LocaleError(KeyError):
    """A language, scene table or key is missing from the locale tables."""

    def __str__(self) -> str:
        return str(self.args[0])


def available_languages() -> list[str]:
    return sorted(p.stem for p in LOCALE_DIR.glob("*.toml"))


def current_language() -> str:
    return os.environ.get("LECTURE_LANG", DEFAULT_LANG)


@cache
def _table(lang: str) -> dict:
    path = LOCALE_DIR / f"{lang}.toml"
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


class Words(Mapping[str, str]):
    """The strings of one scene in one language; a missing key names file, scene and key."""

    def __init__(self, scene_key: str, lang: str | None = None) -> None:
        self.lang = lang or current_language()
        self.scene_key = scene_key
        table = _table(self.lang)
        if scene_key not in table:
            raise LocaleError(
                f"{LOCALE_DIR / self.lang}.toml: no table [{scene_key}] for scene '{scene_key}'"
            )
        self._strings: dict[str, str] = table[scene_key]

    def __getitem__(self, key: str) -> str:
        if key not in self._strings:
            raise LocaleError(
                f"{LOCALE_DIR / self.lang}.toml: [{self.scene_key}] has no key '{key}'"
            )
        return self._strings[key]

    def __iter__(self):
        return iter(self._strings)

    def __len__(self) -> int:
        return len(self._strings)


def colour_label(name: str, lang: str | None = None) -> str:
    """Short label of a task colour (``紅`` for red in zh-TW), else its initial."""
    labels = _table(lang or current_language()).get("colours", {})
    return labels.get(name, name[:1].upper())
