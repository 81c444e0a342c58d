"""The voice engines, one module each, and their registry keyed by :class:`VoiceKind`.

Adding an engine: its kind in :mod:`common.voices`, a module here with a
:class:`voice.engine.VoiceEngine` (and, if it synthesises, its speaker's ``identity`` and
``samples``), and its entry in :data:`ENGINES`. Nothing else in the project names it.
"""

from __future__ import annotations

from types import MappingProxyType

from common.settings import VoiceSettings
from common.voices import VoiceKind
from voice.engine import Choice, Speaker, VoiceEngine
from voice.engines.espeak import Espeak
from voice.engines.kokoro import KokoroVoice
from voice.engines.recordings import Recordings
from voice.engines.silent import Silent

# In this order the checks run: a chapter's recordings are asked for before a synthesiser's
# files are checked.
ENGINES: MappingProxyType[VoiceKind, type[VoiceEngine]] = MappingProxyType(
    {engine.kind: engine for engine in (Recordings, KokoroVoice, Espeak, Silent)}
)


def engine(kind: str) -> type[VoiceEngine]:
    """The engine of a kind of voice (``kokoro``, or :class:`VoiceKind`)."""
    return ENGINES[VoiceKind(kind)]


def engine_for(voice: VoiceSettings) -> Speaker | None:
    """The synthesiser the settings ask for (None: recordings only)."""
    if voice.engine is None:
        return None
    return engine(voice.engine).speaker(
        Choice(voice.name, voice.speed, voice.terms, voice.terms_mix, voice.terms_speed)
    )
