"""What a segment was made from, so that an unchanged segment is never rendered again.

A segment's record holds hashes of the scene's source and every project module it imports,
of the parts of the data file it reads, and of the words it shows, with the language, the
size, the frame rate and the versions of the packages that draw and encode a frame. A
segment whose record matches what it would be made from now is current.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from common.atomic import write_json_atomic
from common.closure import FRAME_PACKAGES, code_digest, file_digest, package_versions
from model.datafile import in_language, resolve
from syllabus.locale import locale_table, shared_tables
from syllabus.plan import Chapter
from syllabus.presets import Preset
from syllabus.themes import DEFAULT_THEME

RECORD_VERSION = 3
PAGE_ONLY = ("page", "lab")  # shared tables no segment shows: the assembly's inputs hold them
MANIFEST = "lecture.json"  # beside lecture.mp4: what the lecture's files are and were made from
PIPELINE = Path(__file__).resolve().parent
# The code that joins segments into a lecture (and the page template it fills): a change to
# any of it assembles again.
ASSEMBLY = PIPELINE / "assemble.py"
ASSEMBLY_EXTRA = (PIPELINE / "viewer.html", PIPELINE / "lab.js")
# What turns a line into sound and mixes a segment's clips: in a voiced segment's record.
MIXER = PIPELINE / "soundtrack.py"


VOICE = MIXER.parent.parent / "voice"  # every module of it: a line's words become its sound


def voice_code() -> str:
    """The digest of the mixer and of the whole voice (clips, speech: what a line sounds
    like and how long it lasts), which a silent segment's record leaves out."""
    return code_digest(MIXER, *sorted(VOICE.rglob("*.py")))


# The files an assembly writes besides lecture.mp4 (stills/ are named in the page's data).
ASSEMBLED = ("lecture.mp4", "lecture.srt", "lecture.vtt", "chapters.txt", "index.html")
ASSEMBLED += ("lecture.data.js", "lab.js", "tf.min.js")


def sources_hash(scene_file: Path) -> str:
    """The scene's code: its file and every project module it imports, less the voice
    (a voiced segment's record names the voice's own code; a silent one does not need it)."""
    return code_digest(scene_file, skip=("voice",))


def _digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def data_hash(chapter: Chapter, data: dict[str, Any], lang: str) -> str:
    """Hash of the data-file parts the chapter's class reads in ``lang`` (its own walkthrough
    sentence, if it has one), and the colour names."""
    view = in_language(data, lang)
    parts = {path: resolve(view, path) for path in chapter.reads}
    parts["config.colours"] = data["config"]["colours"]
    return _digest(parts)


def words_hash(chapter: Chapter, lang: str) -> str:
    """Hash of the words a scene reads: its own locale table, the other chapters' tables its
    class declares (``tables``: what it may read of them), and every shared table of the
    language.

    Shared tables (colours, subtitle rules, the language's meta) are every table that is
    not a scene's, so a new one is covered without being listed here.
    """
    table = locale_table(lang)
    own = table.get(chapter.scene_key) if chapter.scene_key else None
    others = {name: table.get(name) for name in chapter.tables}
    shared = {k: v for k, v in shared_tables(lang).items() if k not in PAGE_ONLY}
    return _digest({"scene": own, "tables": others, "shared": shared})


class Shape(BaseModel):
    """A record's shape, declared once: frozen, and no key it does not know."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class VoiceOrigin(Shape):
    """What a voiced segment's narration is made from: the synthesiser's identity (its
    engine first; None for recordings alone), each recording's hash by file name, the pause
    after each line and the digest of the voice's code (:func:`voice_code`)."""

    voice: list[str] | None
    recordings: dict[str, str]
    pause: float
    code: str


class MadeFrom(Shape):
    """Every input of a segment's render: a segment whose record holds these is current."""

    record_version: int = RECORD_VERSION
    scene: str
    class_name: str = Field(alias="class")
    scene_key: str | None
    lang: str
    theme: str
    width: int
    height: int
    fps: float
    encoder: list[str]
    packages: dict[str, str]  # Python's version and each frame package's
    sources: str
    data: str
    words: str
    contents: dict[str, Any]
    voice: VoiceOrigin | None  # None: a silent segment


class SegmentRecord(MadeFrom):
    """A segment's ``.json``: what it was made from, and its files as they were installed
    (size and modification time; a file cut short or replaced since makes it stale)."""

    files: dict[str, list[int] | None]

    def made_from(self) -> MadeFrom:
        return MadeFrom.model_validate(self.model_dump(exclude={"files"}))


def expected_record(
    chapter: Chapter,
    data: dict[str, Any],
    lang: str,
    preset: Preset,
    encoder: tuple[str, ...],
    theme: str = DEFAULT_THEME,
    voice: VoiceOrigin | None = None,
) -> MadeFrom:
    """The record a segment made now would carry: every input of its render (``voice``:
    what its narration is made from, None when silent)."""
    return MadeFrom(
        scene=chapter.name,
        class_name=chapter.class_name,
        scene_key=chapter.scene_key,
        lang=lang,
        theme=theme,
        width=preset.width,
        height=preset.height,
        fps=preset.fps,
        encoder=list(encoder),
        packages=package_versions(FRAME_PACKAGES),
        sources=sources_hash(chapter.file),
        data=data_hash(chapter, data, lang),
        words=words_hash(chapter, lang),
        contents={"part": chapter.part, "parts": list(chapter.parts)},
        voice=voice,
    )


def installed_files(video: Path, *others: Path) -> dict[str, list[int] | None]:
    """Size and modification time of a segment's files as installed, kept in its record:
    a segment cut short or replaced since is then not current (reads no video)."""
    return {path.name: _stat(path) for path in (video, *others)}


def read_record(path: Path) -> SegmentRecord | None:
    """A segment's record, or None when it is missing, damaged or of another shape."""
    try:
        return SegmentRecord.model_validate_json(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None


def write_record(path: Path, record: SegmentRecord) -> None:
    write_json_atomic(path, record.model_dump(mode="json", by_alias=True))


def _stat(path: Path) -> list[int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]


def lecture_inputs(
    segments: list[tuple[str, Path, Path, Path]],
    lang: str,
    title: str,
    lab: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What a lecture is assembled from: each chapter's title, its segment's record (the
    segment's every input) and its video and subtitle files as they are on disk, the
    language, the title, and the assembling code. ``segments``: (title, video, subtitles,
    record) per chapter, and the page's words. Reads no video: a no-op run stays well under
    a second. ``lab``: what the page's lab reads (its numbers and words), by digest."""
    return {
        "lang": lang,
        "title": title,
        "page": {table: locale_table(lang).get(table) for table in PAGE_ONLY},  # its words
        "lab": None if lab is None else _digest(lab),
        "code": code_digest(ASSEMBLY, extra=ASSEMBLY_EXTRA),
        "segments": [
            {
                "title": name,
                "record": file_digest(record).hex(),
                "video": _stat(video),
                "subtitles": _stat(subtitles),
            }
            for name, video, subtitles, record in segments
        ],
    }


def assembled_files(out_dir: Path) -> dict[str, list[int] | None]:
    """Size and modification time of each file an assembly wrote."""
    return {name: _stat(out_dir / name) for name in ASSEMBLED}


def lecture_is_current(out_dir: Path, inputs: dict[str, Any]) -> bool:
    """True when the lecture in ``out_dir`` was assembled from ``inputs`` and its files are
    the ones that assembly wrote (none missing, none replaced since)."""
    try:
        manifest = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    files = assembled_files(out_dir)
    return (
        isinstance(manifest, dict)
        and manifest.get("made_from") == inputs
        and manifest.get("written") == files
        and None not in files.values()
    )
