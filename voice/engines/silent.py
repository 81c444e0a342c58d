"""No voice (``voice = "none"``, ``--voice none``): subtitles timed for reading; with
recordings (``--narration``), those alone, and a missing one is an error. A chapter's own
``chapter_voices.<name> = "none"`` is silent, its recordings unused."""

from __future__ import annotations

from typing import ClassVar

from common.voices import VoiceKind
from voice.engine import VoiceEngine


class Silent(VoiceEngine):
    """Says nothing; the lecture's recordings, if any, say their lines."""

    kind: ClassVar[VoiceKind] = VoiceKind.NONE

    @classmethod
    def voiced(cls, own: bool, narration: bool) -> bool:
        return narration and not own
