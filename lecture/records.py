"""What a segment was made from, so that an unchanged segment is never rendered again.

A segment's record holds hashes of the scene's source and every project module it imports,
of the parts of the data file it reads, and of its locale strings, with the language, the
size, the frame rate and the Manim version. A segment whose record matches what it would
be made from now is current.
"""

from __future__ import annotations

import ast
import hashlib
import json
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

from lecture.presets import Preset
from model.atomic import write_json_atomic
from model.datafile import resolve
from scenes.declarations import ROOT, module_file
from scenes.locale import locale_table, shared_tables
from scenes.registry import Chapter
from scenes.themes import DEFAULT_THEME

RECORD_VERSION = 2
MANIFEST = "lecture.json"  # beside lecture.mp4: what the lecture's files are and were made from
# The code that joins segments into a lecture: a change to any of it assembles again.
ASSEMBLY_CODE = tuple(
    ROOT / "lecture" / name
    for name in ("assemble.py", "captions.py", "page.py", "soundtrack.py", "viewer.html")
)
# The files an assembly writes besides lecture.mp4 (stills/ are named in the page's data).
ASSEMBLED = ("lecture.mp4", "lecture.srt", "lecture.vtt", "chapters.txt", "index.html")
ASSEMBLED += ("lecture.data.js",)


@cache  # one parse per module a run: the chapters share most of theirs
def _imported_modules(source: Path) -> frozenset[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    # importing a.b.c runs a/__init__.py and a/b/__init__.py too
    return frozenset(
        names | {".".join(n.split(".")[:k]) for n in names for k in range(1, n.count(".") + 1)}
    )


@cache
def _imports(source: Path) -> frozenset[Path]:
    """The project modules one module imports directly."""
    return frozenset(p for n in _imported_modules(source) if (p := module_file(n)) is not None)


def scene_sources(scene_file: Path) -> list[Path]:
    """The scene's file and every project module it imports, transitively."""
    seen: set[Path] = set()
    todo = [scene_file.resolve()]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo += _imports(current)
    return sorted(seen)


def _digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


@cache  # read once a run: the chapters share most of their modules
def _file_digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


def sources_hash(scene_file: Path) -> str:
    digest = hashlib.sha256()
    for path in scene_sources(scene_file):
        digest.update(str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path).encode())
        digest.update(_file_digest(path))
    return digest.hexdigest()


def data_hash(chapter: Chapter, data: dict[str, Any]) -> str:
    """Hash of the data-file parts the chapter's class reads, and the colour names."""
    parts = {path: resolve(data, path) for path in chapter.reads}
    parts["config.colours"] = data["config"]["colours"]
    return _digest(parts)


def words_hash(chapter: Chapter, lang: str) -> str:
    """Hash of the scene's own locale table and every shared table of the language.

    Shared tables (colours, subtitle rules, the language's meta) are every table that is
    not a scene's, so a new one is covered without being listed here.
    """
    table = locale_table(lang)
    own = table.get(chapter.scene_key) if chapter.scene_key else None
    return _digest({"scene": own, "shared": shared_tables(lang)})


def expected_record(
    chapter: Chapter,
    data: dict[str, Any],
    lang: str,
    preset: Preset,
    encoder: tuple[str, ...],
    theme: str = DEFAULT_THEME,
    voice: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The record a segment made now would carry: every input of its render (``voice``:
    what its narration is made from, None when silent)."""
    return {
        "record_version": RECORD_VERSION,
        "scene": chapter.name,
        "class": chapter.class_name,
        "scene_key": chapter.scene_key,
        "lang": lang,
        "theme": theme,
        "width": preset.width,
        "height": preset.height,
        "fps": preset.fps,
        "encoder": list(encoder),
        "manim": version("manim"),
        "sources": sources_hash(chapter.file),
        "data": data_hash(chapter, data),
        "words": words_hash(chapter, lang),
        "contents": {"part": chapter.part, "parts": list(chapter.parts)},
        "voice": voice,
    }


def read_record(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_record(path: Path, record: dict[str, Any]) -> None:
    write_json_atomic(path, record)


def _stat(path: Path) -> list[int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]


def lecture_inputs(
    segments: list[tuple[str, Path, Path, Path]], lang: str, title: str
) -> dict[str, Any]:
    """What a lecture is assembled from: each chapter's title, its segment's record (the
    segment's every input) and its video and subtitle files as they are on disk, the
    language, the title, and the assembling code. ``segments``: (title, video, subtitles,
    record) per chapter. Reads no video: a no-op run stays well under a second."""
    return {
        "lang": lang,
        "title": title,
        "code": {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in ASSEMBLY_CODE},
        "segments": [
            {
                "title": name,
                "record": hashlib.sha256(record.read_bytes()).hexdigest(),
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
    except (OSError, ValueError):
        return False
    files = assembled_files(out_dir)
    return (
        isinstance(manifest, dict)
        and manifest.get("made_from") == inputs
        and manifest.get("written") == files
        and None not in files.values()
    )
