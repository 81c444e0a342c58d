"""One typed settings object for a scene process, the way Manim has one ``config``.

render.py decides everything a scene needs to know besides the data file's contents (the
language, the theme, which data file, which plan and chapters, extra locale folders, the
shared formula cache, the voice) and hands it to each worker as environment variables,
:meth:`Settings.to_env`. A scene process reads them once, :func:`settings`, into a frozen
:class:`Settings`; nothing else reads ``LECTURE_*`` variables. In-process callers (the
gates, tests) change them for a while with :func:`tempsettings`, as Manim's ``tempconfig``.
The defaults of the language and theme are the built-in lecture file's
(:mod:`common.defaults`). Imports nothing of ours but that.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from common.defaults import default
from common.voices import VoiceKind

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT / "out" / "data.json"
PREFIX = "LECTURE_"


@dataclass(frozen=True)
class VoiceSettings:
    """Where a line's voice comes from.

    ``engine``: the kind of voice that says the lines without a recording (an engine that
    synthesises, :data:`VoiceKind.KOKORO` or :data:`VoiceKind.ESPEAK`; a string is read as
    its kind), None for recordings only; ``name`` and ``speed``: its voice (a Kokoro voice
    such as ``zf_xiaobei`` and its speed, or an espeak-ng voice and its words a minute);
    ``narration``: the folder of recordings; ``cache``: the folder of finished clips.
    """

    engine: VoiceKind | None
    name: str
    speed: float
    narration: str | None
    cache: str
    terms: str = ""  # Kokoro: the English voice of a Mandarin line's terms (voice.engine.Choice)
    terms_mix: float = 0.0
    terms_speed: float = 1.0

    def __post_init__(self) -> None:
        if self.engine is not None:  # from the environment's JSON: its value
            object.__setattr__(self, "engine", VoiceKind(self.engine))


def _default_lang() -> str:
    return default("languages")[0]


def _default_theme() -> str:
    return default("theme")


@dataclass(frozen=True)
class Settings:
    """What one scene process renders with. Each field is one ``LECTURE_<FIELD>`` variable.

    Attributes
    ----------
    lang, theme
        The language (a locale table) and the theme (syllabus/themes.py).
    data
        The data file scenes read.
    plan, chapters
        The plan of chapters (None: the project's), and the chosen ones in order (None: all).
    locales
        Folders of an instructor's own locale tables (``LECTURE_LOCALES``, and the lecture
        file's ``locales``): each ``<lang>.toml`` there is merged over the project's.
    words
        The lecture file whose ``[words.<lang>.<table>]`` keys are merged over all of them
        (None: none).
    cache
        The folder render.py's workers share formulas and texts through (None: Manim's own).
    fast_frames
        Whether Manim's drawing and encoding take the fast way (off only to measure Manim).
    voice
        Where the narration's sound comes from (None: a silent lecture timed for reading).
    profile
        The folder each worker writes where its CPU time went, and render.py its own
        (:mod:`common.timers`; None: nothing timed).
    """

    lang: str = field(default_factory=_default_lang)
    theme: str = field(default_factory=_default_theme)
    data: Path = DEFAULT_DATA
    plan: Path | None = None
    chapters: tuple[str, ...] | None = None
    locales: tuple[Path, ...] = ()
    words: Path | None = None
    cache: Path | None = None
    fast_frames: bool = True
    voice: VoiceSettings | None = None
    profile: Path | None = None

    def to_env(self) -> dict[str, str]:
        """The environment variables that give a worker these settings (defaults left out)."""
        env: dict[str, str] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or value == ():
                continue
            if isinstance(value, VoiceSettings):
                text = json.dumps(asdict(value))
            elif isinstance(value, bool):
                text = "1" if value else "0"
            elif isinstance(value, tuple) and f.name == "locales":
                text = os.pathsep.join(str(p) for p in value)
            elif isinstance(value, tuple):
                text = ",".join(value)
            else:
                text = str(value)
            env[PREFIX + f.name.upper()] = text
        return env

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment gives (``os.environ`` by default)."""
        environ = os.environ if environ is None else environ
        found: dict[str, Any] = {}
        for f in fields(cls):
            text = environ.get(PREFIX + f.name.upper())
            if not text:
                continue
            if f.name in ("data", "plan", "cache", "words", "profile"):
                found[f.name] = Path(text)
            elif f.name == "chapters":
                found[f.name] = tuple(text.split(","))
            elif f.name == "locales":
                found[f.name] = tuple(Path(p) for p in text.split(os.pathsep) if p)
            elif f.name == "fast_frames":
                found[f.name] = text != "0"
            elif f.name == "voice":
                found[f.name] = VoiceSettings(**json.loads(text))
            else:
                found[f.name] = text
        return cls(**found)


_current: list[Settings] = []


def settings() -> Settings:
    """The settings in force: read from the environment once per process."""
    if not _current:
        _current.append(Settings.from_env())
    return _current[-1]


@contextmanager
def tempsettings(**changes: Any) -> Iterator[Settings]:
    """The settings in force with ``changes``, until the block ends."""
    _current.append(replace(settings(), **changes))
    try:
        yield _current[-1]
    finally:
        _current.pop()
