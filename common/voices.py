"""The kinds of voice a lecture may be said in: the key of the engines' registry
(:mod:`voice.engines`), which the lecture file checks its ``voice`` and ``chapter_voices``
against and the command takes ``--voice``'s choices from. Imports nothing of ours.

Adding an engine adds its kind here, its module to ``voice/engines/`` and its entry to the
registry; nothing else names it.
"""

from __future__ import annotations

from enum import StrEnum


class VoiceKind(StrEnum):
    """How a chapter is voiced (its value is what the lecture file and ``--voice`` write)."""

    KOKORO = "kokoro"
    ESPEAK = "espeak"
    NONE = "none"
    RECORDED = "recorded"

    @property
    def summary(self) -> str:
        """What it sounds like, in a few words (``--voice``'s help)."""
        return _SUMMARIES[self]


_SUMMARIES = {
    VoiceKind.KOKORO: "a natural neural voice",
    VoiceKind.ESPEAK: "a quick robotic draft",
    VoiceKind.NONE: "silent, timed for reading",
    VoiceKind.RECORDED: "the chapter's recordings only",
}
LECTURE_VOICES = (VoiceKind.KOKORO, VoiceKind.ESPEAK, VoiceKind.NONE)  # `voice`, --voice
CHAPTER_VOICES = (VoiceKind.RECORDED, *LECTURE_VOICES)  # a chapter's own `chapter_voices`
