"""out/segments: one MP4, .srt, lines file and record per scene, installed atomically, and
whether each is current (its record holds what it would be made from now)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from common.atomic import copy_atomic
from common.files import LinesFile
from common.settings import VoiceSettings
from pipeline.jobs import ENCODER_OPTIONS
from pipeline.records import (
    MadeFrom,
    SegmentRecord,
    VoiceOrigin,
    expected_record,
    installed_files,
    read_record,
    write_record,
)
from syllabus.plan import Chapter
from syllabus.presets import Preset

State = Literal["current", "stale", "missing"]
VoiceOf = Callable[[Chapter], VoiceSettings | None]  # each chapter's voice (None: silent)
Origin = Callable[[VoiceSettings | None, Chapter], VoiceOrigin | None]  # what it is said from


class Segments:
    """One language's segments: where each lives, whether it is current, and installing a
    finished render. Every input is hashed once, on first asking, so an edit made during
    the render makes the segment stale next time instead of being recorded as rendered."""

    def __init__(
        self,
        out: Path,
        data: dict[str, Any] | None,
        lang: str,
        preset: Preset,
        theme: str,
        voice_of: VoiceOf | None = None,
        origin: Origin | None = None,
    ) -> None:
        self.dir = out / "segments"
        self.work = out / ".work"
        self.data, self.lang, self.preset, self.theme = data, lang, preset, theme
        self.voice_of: VoiceOf = voice_of or (lambda chapter: None)
        self._origin: Origin = origin or (lambda voice, chapter: None)
        self._expected: dict[str, MadeFrom] = {}

    def paths(self, chapter: Chapter) -> tuple[Path, Path, Path]:
        """The segment's video, subtitles and record."""
        base = self.dir / chapter.name
        return base.with_suffix(".mp4"), base.with_suffix(".srt"), base.with_suffix(".json")

    def lines(self, chapter: Chapter) -> Path:
        """Where each narrated line of the segment starts and ends (beside its video)."""
        return LinesFile.beside(self.paths(chapter)[0])

    def expected(self, chapter: Chapter) -> MadeFrom:
        """The record a segment made now would carry (hashing sources once per run)."""
        if chapter.name not in self._expected:
            self._expected[chapter.name] = expected_record(
                chapter,
                self.data or {},
                self.lang,
                self.preset,
                ENCODER_OPTIONS,
                self.theme,
                self._origin(self.voice_of(chapter), chapter),
            )
        return self._expected[chapter.name]

    def state(self, chapter: Chapter) -> State:
        expected = self.expected(chapter)  # hashed now, before any render: also when missing
        video, subtitles, record_path = self.paths(chapter)
        record = read_record(record_path) if video.is_file() else None
        if record is None:
            return "missing"
        if record.files != installed_files(video, subtitles, self.lines(chapter)):
            return "stale"  # cut short, replaced or removed since
        return "current" if record.made_from() == expected else "stale"

    def install(self, chapter: Chapter, video: Path, rendered: Path) -> None:
        """Copy a finished render (``video``, with the subtitles Manim wrote beside the
        ``rendered`` file) into place; the record goes last."""
        self.dir.mkdir(parents=True, exist_ok=True)
        target, subtitles, record = self.paths(chapter)
        record.unlink(missing_ok=True)  # until the new record lands, the segment is stale
        for made, into in (
            (rendered.with_suffix(".srt"), subtitles),
            (LinesFile.beside(rendered), self.lines(chapter)),  # each narrated line's times
        ):
            if made.is_file():
                copy_atomic(made, into)
            else:
                into.unlink(missing_ok=True)
        copy_atomic(video, target)
        installed = installed_files(target, subtitles, self.lines(chapter))
        made_from = self.expected(chapter).model_dump(by_alias=True)
        write_record(record, SegmentRecord.model_validate({**made_from, "files": installed}))

    def clean_leftovers(self) -> None:
        for folder in (self.dir, self.dir.parent):
            for tmp in folder.glob(".*.tmp") if folder.is_dir() else ():
                tmp.unlink(missing_ok=True)
