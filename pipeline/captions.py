"""Subtitles and chapter lists in the formats players and video sites read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import srt

from common.text import one_line, subtitle_text, vtt_text


@dataclass(frozen=True)
class Cue:
    """One subtitle cue in lecture time (seconds)."""

    start: float
    end: float
    text: str


def read_srt(path: Path, shift: float = 0.0) -> list[Cue]:
    """The cues of an .srt file, moved ``shift`` seconds later, their text as every subtitle
    format holds it (:func:`common.text.subtitle_text`)."""
    if not path.is_file():
        return []
    return [
        Cue(
            s.start.total_seconds() + shift,
            s.end.total_seconds() + shift,
            subtitle_text(s.content),
        )
        for s in srt.parse(path.read_text(encoding="utf-8"))
    ]


def to_srt(cues: list[Cue]) -> str:
    return srt.compose(
        [
            srt.Subtitle(
                k, timedelta(seconds=c.start), timedelta(seconds=c.end), subtitle_text(c.text)
            )
            for k, c in enumerate(cues, start=1)
        ],
        reindex=False,
    )


def _vtt_time(seconds: float) -> str:
    ms = round(seconds * 1000)
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def to_vtt(cues: list[Cue]) -> str:
    blocks = [
        f"{k}\n{_vtt_time(c.start)} --> {_vtt_time(c.end)}\n{vtt_text(c.text)}"
        for k, c in enumerate(cues, start=1)
    ]
    return "WEBVTT\n\n" + "\n\n".join(blocks) + "\n"


def chapter_stamp(seconds: float, long: bool) -> str:
    """``MM:SS`` (``H:MM:SS`` for lectures of an hour or more), as video sites read it."""
    total = int(seconds)
    if long:
        return f"{total // 3600}:{total // 60 % 60:02d}:{total % 60:02d}"
    return f"{total // 60:02d}:{total % 60:02d}"


def to_chapter_list(chapters: list[tuple[float, str]], duration: float) -> str:
    long = duration >= 3600
    # one line each: a title's newline would be a chapter of its own
    return "".join(f"{chapter_stamp(start, long)} {one_line(title)}\n" for start, title in chapters)
