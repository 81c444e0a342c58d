"""A chapter of the instructor's recordings only (``chapter_voices.<name> = "recorded"``):
every line is said by its recording (``--narration``), and a missing one is an error."""

from __future__ import annotations

from typing import ClassVar

from common.voices import VoiceKind
from voice.engine import PreflightError, Use, VoiceEngine


class Recordings(VoiceEngine):
    """Says nothing itself: the recordings say every line."""

    kind: ClassVar[VoiceKind] = VoiceKind.RECORDED

    @classmethod
    def check_ready(cls, use: Use) -> None:
        """Recordings are given when a chapter rendered is to be said by them alone."""
        if use.chapters and not use.narration:
            raise PreflightError(
                f"{use.source}: 'chapter_voices.{use.chapters[0]}' is '{cls.kind}': render "
                "with --narration FOLDER (its recordings)"
            )
