"""The narration script's lines: each chapter dry-run by the gates, every line it says.

``render.py --narration-script`` asks for them (pipeline/narration.py writes the script);
a dry run draws no frame, so this takes seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from common.files import ScriptLine
from scenes.gates.run import load_scene, run_gates
from syllabus.plan import Chapter
from voice.clips import recording_name


def collect_lines(
    chapters: list[Chapter],
    lang: str,
    data_file: Path,
    media: Path,
    lecture: Mapping[str, Any] | None = None,
) -> list[ScriptLine]:
    """Every line the chapters say in ``lang``, in order, with its recording's name, as a
    render with the settings ``lecture`` (its plan, chapters and theme) will say them."""
    entries, seen = [], set()
    for chapter in chapters:
        report = run_gates(load_scene(chapter), lang, data_file, media, **(lecture or {}))
        for line in report.lines:
            name = recording_name(chapter.scene_key, line["index"], line["key"])
            if name not in seen:  # a variant of a scene says its lines again: one take
                seen.add(name)
                entries.append(ScriptLine(scene=chapter.name, file=name, text=line["text"]))
    return entries
