"""What a voice engine is: the one interface every kind of voice (:class:`VoiceKind`)
implements, one module each in ``voice/engines/``, found through the registry
(:mod:`voice.engines`).

An engine is a class. What it says of a run, it says as class attributes and class
methods: whether it says the lines no recording holds (:attr:`VoiceEngine.says_unrecorded`),
the command that installs it (:attr:`VoiceEngine.setup`), its pre-flight checks, run before
anything renders (:meth:`VoiceEngine.check`, :meth:`VoiceEngine.check_ready`: a problem is
one :class:`PreflightError` line naming the lecture-file key or the file and what is
allowed), which voice it says a language with (:meth:`VoiceEngine.choose`), and the
:class:`Speaker` that says a cue (:meth:`VoiceEngine.speaker`; None for an engine that
synthesises nothing). A speaker is an instance: its words as samples
(:meth:`Speaker.samples`) and its identity for the cache (:meth:`Speaker.identity`).

Light to import (no numpy, no PyAV): an engine imports what it speaks with when it speaks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Protocol

from common.closure import code_digest, package_versions
from common.voices import VoiceKind

if TYPE_CHECKING:
    import numpy as np

HERE = Path(__file__).parent


class VoiceError(ValueError):
    """A recording that cannot be used, or a line with no voice; the message names it."""


class PreflightError(ValueError):
    """A voice the run cannot use as it asks: one line naming the key or file, and what is
    allowed or the command that fixes it."""


@dataclass(frozen=True)
class Choice:
    """A voice of an engine and its speed: a Kokoro voice (``zf_xiaobei``) and its speed
    (1: its own pace), or an espeak-ng voice (``cmn-latn-pinyin``) and its words a minute;
    for Kokoro, the English voice that says a Mandarin line's terms (``""``: the line's own),
    the share of the line voice's intonation in them, and their speed."""

    name: str
    speed: float
    terms: str = ""
    terms_mix: float = 0.0
    terms_speed: float = 1.0


@dataclass(frozen=True)
class Use:
    """How a run uses one kind of voice: what its pre-flight checks read."""

    source: str  # the lecture file, as a message names it
    langs: tuple[str, ...]  # the languages rendered
    chosen: Mapping[str, Choice]  # the lecture file's [voices.<lang>]
    chapters: tuple[str, ...]  # the chapters rendered that are voiced so
    narration: bool  # whether --narration gives recordings


class Speaker(Protocol):
    """A synthesiser set to one voice: the words of one cue as float samples at
    :data:`voice.audio.SAMPLE_RATE`."""

    kind: ClassVar[VoiceKind]  # its clips' prefix in the cache

    def identity(self) -> tuple[str, ...]:
        """Everything its sound depends on besides the words (voice, speed, model, code)."""
        ...

    def samples(self, text: str) -> np.ndarray:
        """``text`` said, as float samples."""
        ...


class VoiceEngine:
    """One kind of voice. The defaults are an engine that synthesises nothing, needs
    nothing installed and has nothing to check."""

    kind: ClassVar[VoiceKind]
    says_unrecorded: ClassVar[bool] = False  # whether it says the lines not recorded
    setup: ClassVar[str | None] = None  # the command that installs it (None: nothing to)

    @classmethod
    def check(cls, use: Use) -> None:
        """Before anything (a listing too): the lecture file's keys it reads are good."""

    @classmethod
    def check_ready(cls, use: Use) -> None:
        """Before anything renders: what it speaks with is there and whole."""

    @classmethod
    def voiced(cls, own: bool, narration: bool) -> bool:
        """Whether a chapter in this voice has a sound track; ``own``: the chapter's own
        ``chapter_voices`` entry chose it; ``narration``: recordings are given."""
        return True

    @classmethod
    def choose(cls, lang: str, chosen: Mapping[str, Choice], locale: Choice) -> Choice:
        """The voice it says ``lang`` with, of the lecture file's ``chosen`` ones
        (``[voices.<lang>]``) and the language's own (its locale's ``[meta] voice``)."""
        return locale

    @classmethod
    def speaker(cls, choice: Choice) -> Speaker | None:
        """Its synthesiser set to ``choice`` (None: it says no line itself)."""
        return None


def digest(*parts: str | bytes) -> str:
    """A short hash of ``parts``, as the cache names a clip."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8") if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:24]


@cache
def code_of(*modules: str) -> str:
    """The digest of these modules of voice/ (``clips``, ``engines.espeak``) and of every
    project module they import (:func:`common.closure.code_digest`): the code that turns
    words into a cue's samples."""
    return code_digest(*(HERE / f"{m.replace('.', '/')}.py" for m in modules))


def versions(*packages: str) -> tuple[str, ...]:
    """``name==version`` of Python and of each installed package
    (:func:`common.closure.package_versions`)."""
    return tuple(f"{name}=={found}" for name, found in package_versions(packages).items())
