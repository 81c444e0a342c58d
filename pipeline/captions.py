"""Subtitles and chapter lists in the formats players and video sites read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import srt


@dataclass(frozen=True)
class Cue:
    """One subtitle cue in lecture time (seconds)."""

    start: float
    end: float
    text: str


def read_srt(path: Path, shift: float = 0.0) -> list[Cue]:
    """The cues of an .srt file, moved ``shift`` seconds later."""
    if not path.is_file():
        return []
    return [
        Cue(s.start.total_seconds() + shift, s.end.total_seconds() + shift, s.content)
        for s in srt.parse(path.read_text(encoding="utf-8"))
    ]


def to_srt(cues: list[Cue]) -> str:
    return srt.compose(
        [
            srt.Subtitle(k, timedelta(seconds=c.start), timedelta(seconds=c.end), cue_text(c.text))
            for k, c in enumerate(cues, start=1)
        ],
        reindex=False,
    )


def _vtt_time(seconds: float) -> str:
    ms = round(seconds * 1000)
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def cue_text(text: str) -> str:
    """A cue's lines as a subtitle file may hold them: no blank line (it ends a cue) and no
    ``-->`` (it makes a WebVTT timing line)."""
    lines = (line.strip().replace("-->", "→") for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def to_vtt(cues: list[Cue]) -> str:
    blocks = [
        f"{k}\n{_vtt_time(c.start)} --> {_vtt_time(c.end)}\n{cue_text(c.text)}"
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
    return "".join(f"{chapter_stamp(start, long)} {title}\n" for start, title in chapters)
