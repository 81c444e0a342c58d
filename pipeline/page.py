"""The viewers' page: ``index.html`` beside ``lecture.mp4``, from render.py's own run.

The page (``pipeline/viewer.html``) is plain HTML, CSS and JavaScript: the video with its
subtitle track, the chapters with a still of each, the transcript (current line followed,
click to seek, search), keyboard control, and a presenter mode that pauses at the end of
every narrated line. Its data, ``lecture.data.js``, is a script (``window.LECTURE``) rather
than JSON, so that the page works opened from disk (browsers refuse ``fetch`` on file://):
the chapters and their stills, every cue, and every narrated line with where it starts and
ends, taken from the segments' ``.lines.json`` (what each scene's ``say`` recorded).
"""

from __future__ import annotations

import hashlib
import html
from pathlib import Path

import av

from common.atomic import atomic_path, copy_atomic, write_text_atomic
from common.files import LinesFile
from common.text import html_text, script_json
from pipeline.captions import Cue
from pipeline.lab import LAB_FILE
from pipeline.vendor import library
from syllabus.locale import Words, language

TEMPLATE = Path(__file__).with_name("viewer.html")
LAB_SCRIPT = Path(__file__).with_name(LAB_FILE)  # the lab's demos, copied beside the page
STILL_WIDTH = 320
STILL_AT = 0.6  # how far into a chapter its still is taken: past the title, into the picture


def still(video: Path, target: Path) -> None:
    """A small JPEG of ``video`` at :data:`STILL_AT` of its length."""
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        at = container.duration / av.time_base * STILL_AT  # seconds
        container.seek(int(at / stream.time_base), stream=stream)  # the keyframe before it
        picture = None
        for frame in container.decode(stream):
            picture = frame
            if frame.time is not None and frame.time >= at:
                break
        picture = picture.to_image()
    height = round(picture.height * STILL_WIDTH / picture.width)
    with atomic_path(target) as tmp:
        picture.resize((STILL_WIDTH, height)).save(tmp, format="JPEG", quality=80)


def still_name(video: Path) -> str:
    """A still's file name, from its segment as it is on disk: a chapter whose segment did
    not change keeps its still, and re-assembling after one edit takes one new still."""
    info = video.stat()
    made_from = f"{video.name} {info.st_size} {info.st_mtime_ns} {STILL_AT} {STILL_WIDTH}"
    return hashlib.sha256(made_from.encode()).hexdigest()[:16] + ".jpg"


def narrated_lines(lines_files: list[Path], starts: list[float]) -> list[dict]:
    """Every narrated line in lecture time, with its chapter (from 0)."""
    lines = []
    for chapter, (path, start) in enumerate(zip(lines_files, starts, strict=True)):
        if not path.is_file():
            continue
        for line in LinesFile.read(path).lines:
            lines.append(
                {
                    "chapter": chapter,
                    "start": round(start + line.start, 3),
                    "end": round(start + line.end, 3),
                    "text": line.text,
                }
            )
    return lines


def transcript_text(text: str, lang: str) -> str:
    """A cue as the transcript reads it: its lines joined into one, with a space only where
    the language writes one (none between two Chinese characters)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    spaces = language(lang).spaces
    joined = lines[0]
    for line in lines[1:]:
        tight = not spaces and not joined[-1].isascii() and not line[0].isascii()
        joined += ("" if tight else " ") + line
    return joined


def page_html(title: str, lang: str) -> str:
    """``index.html``: the page (:data:`TEMPLATE`) with its title and language."""
    page = TEMPLATE.read_text(encoding="utf-8")
    return page.replace("__TITLE__", html_text(title)).replace("__LANG__", html.escape(lang))


def data_script(data: dict) -> str:
    """``lecture.data.js``: ``data`` as the script that sets ``window.LECTURE``; no text in
    it can end the string or the script it stands in (:func:`common.text.script_json`)."""
    return "window.LECTURE = " + script_json(data) + ";\n"


def page_words(lang: str) -> dict[str, str]:
    """The page's own words in ``lang`` (the locale's ``[page]`` table): its buttons, labels
    and presenter counter, none written into the page itself."""
    return dict(Words("page", lang))


def write_page(  # noqa: PLR0913 (the assembly's one call: what the page shows, by name)
    out_dir: Path,
    lang: str,
    title: str,
    chapters: list[tuple[str, Path]],
    starts: list[float],
    duration: float,
    fps: float,
    cues: list[Cue],
    lab: dict | None = None,
) -> Path:
    """index.html, lecture.data.js, stills/ and the lab (lab.js, tf.min.js) in ``out_dir``;
    ``chapters``: each chapter's title and segment video (its ``.lines.json`` beside it);
    ``lab``: what the lab's demos read (:func:`pipeline.lab.lab_data`; None: no lab)."""
    stills = out_dir / "stills"
    stills.mkdir(exist_ok=True)
    ends = [*starts[1:], duration]
    entries = []
    for (name, video), start, end in zip(chapters, starts, ends, strict=True):
        picture = stills / still_name(video)
        if not picture.is_file():
            still(video, picture)
        entries.append(
            {
                "title": name,
                "scene": video.stem,  # the chapter's name: the lab's demos find theirs by it
                "start": start,
                "end": end,
                "still": f"stills/{picture.name}",
            }
        )
    kept = {entry["still"].removeprefix("stills/") for entry in entries}
    for old in stills.glob("*.jpg"):  # stills of segments since re-rendered
        if old.name not in kept:
            old.unlink(missing_ok=True)
    data = {
        "title": title,
        "lang": lang,
        "duration": duration,
        "fps": fps,
        "chapters": entries,
        "cues": [
            {"start": c.start, "end": c.end, "text": c.text, "said": transcript_text(c.text, lang)}
            for c in cues
        ],
        "lines": narrated_lines([LinesFile.beside(v) for _, v in chapters], starts),
        "ui": page_words(lang),
        "lab": lab,
    }
    write_text_atomic(out_dir / "lecture.data.js", data_script(data))
    if lab is not None:  # the lab's code and its one library, beside the page: no CDN
        copy_atomic(LAB_SCRIPT, out_dir / LAB_FILE)
        tfjs = library()  # checked by its hash: once
        copy_atomic(tfjs, out_dir / tfjs.name)
    write_text_atomic(out_dir / "index.html", page_html(title, lang))
    return out_dir / "index.html"
