"""One language's lecture assembled from its segments, once all of them are current (and
unless the lecture there was assembled from these very segments)."""

from __future__ import annotations

import json
import sys

from pipeline.options import Run
from pipeline.records import lecture_inputs, lecture_is_current
from pipeline.segments import Segments
from syllabus.locale import Words


def assemble_language(r: Run, lang: str, segments: Segments) -> int:
    """Join one language's segments into its lecture.mp4, its page and side files: 0 when
    done, or when there is nothing to do; 1 when the segments cannot be joined."""
    missing = [c.name for c in r.chapters if segments.state(c) != "current"]
    where = r.tag(lang)
    if missing:
        print(
            f"render: lecture.mp4{where} not assembled: segments not current: {', '.join(missing)}"
        )
        return 0
    # The lecture's name, whichever chapter opens it: one line in the MP4, the page's title.
    title = " ".join(Words("page", lang)["lecture"].split())
    out_dir = r.lang_out(lang)
    from pipeline.lab import lab_data

    lab = lab_data(json.loads(r.data_path.read_text(encoding="utf-8")), lang)
    made_from = lecture_inputs(
        [(c.title(lang), *segments.paths(c)) for c in r.chapters], lang, title, lab
    )
    if lecture_is_current(out_dir, made_from):
        print(f"render: lecture{where} unchanged: {out_dir / 'lecture.mp4'}")
        return 0
    from pipeline.assemble import AssemblyError, SegmentFile, assemble

    files = [SegmentFile(c.title(lang), *segments.paths(c)[:2]) for c in r.chapters]
    try:
        lecture = assemble(files, out_dir, lang, title, made_from, lab)
    except AssemblyError as err:
        print(f"render.py: error: {err}", file=sys.stderr)
        return 1
    print(f"render: lecture{where} {lecture.duration:.1f} s, {len(r.chapters)} chapters")
    for path in (lecture.video, lecture.page, lecture.srt, lecture.vtt, lecture.chapters):
        print(f"  {path}")
    return 0
