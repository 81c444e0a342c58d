"""Quality gates every scene must pass: layout, subtitles and the numbers on screen.

A scene is run under Manim's dry run with its ``play`` and ``wait`` wrapped, so after every
animation the gates look at what is on screen:

* **layout**: every visible mobject lies inside the frame with a safe margin and above the
  subtitle band (:data:`scenes.kit.style.SUBTITLE_BAND`); no two visible texts overlap (unless
  one is marked with :func:`allow_overlap`); no text is under :data:`MIN_TEXT_PX` pixels
  high at 1080p; at its fullest the picture spans at least :data:`MIN_SPAN` of the content
  area's width and height (no chapter drawn in one corner);
* **beats**: every narrated line comes with its own animation (a picture that stands still
  while a line is read is a defect);
* **subtitles**: each cue fits the language's lines, is read at the language's speed,
  stays 0.83-7 s, never overlaps the next and lies within the scene;
* **numbers**: every :class:`~scenes.kit.numbers.ShownNumber` equals the data-file value its
  source names, to the displayed precision, and no plain text spells a measured number.

Run on one scene: ``python -m scenes.gates attention_map`` (``--lang en``, ``--data FILE``).
The pixel, video-file and determinism gates live in the test suite (tests/test_gates.py).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from manim import (
    DecimalNumber,
    MarkupText,
    MathTex,
    Mobject,
    Paragraph,
    Scene,
    SingleStringMathTex,
    Tex,
    Text,
    VMobject,
    config,
    tempconfig,
)

from common.settings import settings as process_settings
from common.settings import tempsettings
from model.datafile import in_language
from scenes import patches
from scenes.gates.endstates import end_states_only
from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.numbers import Ordinal, ShownNumber, Spoken, format_number
from scenes.kit.planner import BEAT_MARK
from scenes.kit.seams import missing_share, picture_leaves, seam
from scenes.kit.subtitles import limits_for, line_width, visible_length
from scenes.patches import texcache
from syllabus.locale import LOCALE_DIR, colour_name
from syllabus.plan import Chapter
from syllabus.themes import TASK_PALETTE

CHAPTER_SECONDS = (20, 120)  # a chapter's length, silent
FRAME_MARGIN = 0.08  # scene units (about 11 px at 1080p) kept clear at every edge
MIN_TEXT_PX = 20.0  # height of a digit (cap height) at the text's size, in pixels at 1080p
CAP_HEIGHT = 0.0106  # scene units of a digit's height per point of font size (Noto Sans CJK)
MIN_SPAN = 0.7  # of the content area's width and height, at the scene's fullest moment
SEAM_MISSING = 0.02  # the share of a seam's drawn parts a chapter's first or last frame may lack
OVERLAP_TOLERANCE = 0.01  # scene units two texts' boxes may share (touching is fine)
TEXT_TYPES = (Text, MarkupText, Paragraph, MathTex, Tex, SingleStringMathTex, DecimalNumber)
_MEASURED_NUMBER = re.compile(r"\d+[.,]\d+|\d{2,}")


def allow_overlap(mobject: Mobject) -> Mobject:
    """Mark a text as intentionally drawn over another text (the layout gate allows it)."""
    mobject.gate_overlap_ok = True
    return mobject


@dataclass(frozen=True)
class Problem:
    """One failed check, in one line: gate, scene, where and what."""

    gate: str
    scene: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"[{self.gate}] {self.scene} {self.where}: {self.message}"


@dataclass
class GateReport:
    """What the gates saw in one dry run of one scene in one language."""

    scene: str
    lang: str
    problems: list[Problem] = field(default_factory=list)
    numbers: dict[int, ShownNumber | Spoken] = field(default_factory=dict)
    captions: list[Any] = field(default_factory=list)
    duration: float = 0.0
    animations: int = 0
    fullest: float = 0.0  # the most of the content area the picture has filled
    lines: list[dict] = field(default_factory=list)  # each narrated line: index, key, text
    first: np.ndarray | None = None  # the drawn parts of the first frame (seams.picture_leaves)
    last: np.ndarray | None = None  # and of the last

    def add(self, problems: Iterable[Problem]) -> None:
        """Record problems; one already seen after an earlier animation is not repeated."""
        seen = {(p.gate, p.message) for p in self.problems}
        self.problems += [p for p in problems if (p.gate, p.message) not in seen]

    def listing(self) -> list[str]:
        """Every number shown, with where it came from."""
        return [f"{n.text:>8}  {n.source}" for n in self.numbers.values()]


def _visible(m: Mobject) -> bool:
    if not isinstance(m, VMobject) or len(m.points) == 0:
        return False
    fill = m.get_fill_opacity() if m.fill_rgbas is not None and len(m.fill_rgbas) else 0
    stroke = m.get_stroke_opacity() if m.stroke_width > 0 else 0
    return fill > 0.01 or stroke > 0.01


_memo: list[dict] = []  # while one picture is checked: what its checks share, by mobject


@contextmanager
def _one_picture() -> Iterator[None]:
    """The checks of one picture work out each mobject's visible leaves and box once (the
    layout, span and typed-number checks each walked every family again: a sixth of a gate
    run); nothing is kept after, since the next animation moves things."""
    _memo.append({})
    try:
        yield
    finally:
        _memo.pop()


def _remembered(kind: str, m: Mobject, work: Callable[[Mobject], Any]) -> Any:
    if not _memo:
        return work(m)
    key = (kind, id(m))
    if key not in _memo[-1]:
        _memo[-1][key] = work(m)
    return _memo[-1][key]


def _leaves(m: Mobject) -> list[Mobject]:
    """The visible leaves of a mobject's family."""
    return _remembered("leaves", m, lambda m: [x for x in m.get_family() if _visible(x)])


def _describe(m: Mobject) -> str:
    text = getattr(m, "text", None) or getattr(m, "tex_string", None)
    return f"{type(m).__name__}({text!r})" if text else type(m).__name__


def _texts(mobjects: Iterable[Mobject]) -> list[Mobject]:
    """Outermost text mobjects with at least one visible glyph."""
    found: list[Mobject] = []
    seen: set[int] = set()

    def walk(m: Mobject) -> None:
        if isinstance(m, TEXT_TYPES):
            if id(m) not in seen and _leaves(m):
                seen.add(id(m))
                found.append(m)
            return
        for sub in m.submobjects:
            walk(sub)

    for m in mobjects:
        walk(m)
    return found


def _on_screen_texts(scene: Scene) -> list[Mobject]:
    """The outermost visible texts of the picture on screen."""
    return _remembered("texts", scene, lambda scene: _texts(scene.mobjects))


def _box(m: Mobject) -> tuple[float, float, float, float]:
    """The box of a mobject's visible points (every point of every visible leaf)."""
    return _remembered("box", m, _work_out_box)


def _work_out_box(m: Mobject) -> tuple[float, float, float, float]:
    blocks = [leaf.points[:, :2] for leaf in _leaves(m) if len(leaf.points)]
    if not blocks:
        raise ValueError(f"{_describe(m)} has no visible point")
    points = np.concatenate(blocks)
    (left, bottom), (right, top) = points.min(axis=0), points.max(axis=0)
    return float(left), float(bottom), float(right), float(top)


def check_layout(scene: Scene, name: str, index: int) -> list[Problem]:
    """Frame, overlap and size checks on what is on screen now."""
    where = f"after animation {index}"
    problems: list[Problem] = []
    half_w = config.frame_width / 2 - FRAME_MARGIN
    half_h = config.frame_height / 2 - FRAME_MARGIN
    band = -config.frame_height / 2 + style.SUBTITLE_BAND
    for top in scene.mobjects:
        if not _leaves(top):
            continue
        left, bottom, right, top_y = _box(top)
        if bottom < band - FRAME_MARGIN and not bottom < -half_h:
            problems.append(
                Problem(
                    "layout",
                    name,
                    where,
                    f"{_describe(top)} reaches into the subtitle band (bottom y {bottom:.2f}, "
                    f"the band starts at {band:.2f})",
                )
            )
        if left < -half_w or right > half_w or bottom < -half_h or top_y > half_h:
            culprits = [t for t in _texts([top]) if _outside(t, half_w, half_h)] or [top]
            problems.append(
                Problem(
                    "layout",
                    name,
                    where,
                    f"{_describe(culprits[0])} leaves the frame "
                    f"(box x {left:.2f}..{right:.2f}, y {bottom:.2f}..{top_y:.2f})",
                )
            )
    texts = _on_screen_texts(scene)
    px_per_unit = 1080 / config.frame_height
    for t in texts:
        tallest = _cap_height(t) * px_per_unit
        if tallest < MIN_TEXT_PX:
            problems.append(
                Problem(
                    "layout",
                    name,
                    where,
                    f"{_describe(t)} is {tallest:.0f} px high at "
                    f"1080p (at least {MIN_TEXT_PX:.0f})",
                )
            )
    for a, b in _overlapping(texts):
        problems.append(Problem("layout", name, where, f"{_describe(a)} overlaps {_describe(b)}"))
    return problems


def _overlapping(texts: list[Mobject]) -> list[tuple[Mobject, Mobject]]:
    """Every pair of texts whose boxes overlap (neither marked with :func:`allow_overlap`),
    in the order the texts are drawn. A sweep from left to right: a text is compared only
    with those that begin before it ends, not with all of them (a gate run checks a few
    hundred numbers after each of a hundred animations)."""
    boxes = [
        (k, t, _box(t)) for k, t in enumerate(texts) if not getattr(t, "gate_overlap_ok", False)
    ]
    boxes.sort(key=lambda item: item[2][0])
    pairs = []
    for i, (k, a, box_a) in enumerate(boxes):
        for m, b, box_b in boxes[i + 1 :]:
            if box_b[0] >= box_a[2] - OVERLAP_TOLERANCE:
                break  # this one and every later one begin after ``a`` ends
            if _overlap(box_a, box_b):
                pairs.append((k, a, m, b) if k < m else (m, b, k, a))
    return [(a, b) for _, a, _, b in sorted(pairs, key=lambda pair: (pair[0], pair[2]))]


def _cap_height(t: Mobject) -> float:
    """A digit's height at the text's current size ("=" and "." are short by design)."""
    size = getattr(t, "font_size", None)
    if size:
        return size * CAP_HEIGHT
    return max(leaf.height for leaf in _leaves(t))


def _outside(m: Mobject, half_w: float, half_h: float) -> bool:
    left, bottom, right, top = _box(m)
    return left < -half_w or right > half_w or bottom < -half_h or top > half_h


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width > OVERLAP_TOLERANCE and height > OVERLAP_TOLERANCE


def check_subtitles(captions: list[Any], duration: float, name: str, lang: str) -> list[Problem]:
    """Lines, reading speed, on-screen time, order and range of every cue."""
    lim = limits_for(lang)
    problems: list[Problem] = []
    previous_end = 0.0
    for k, cue in enumerate(captions, start=1):
        start, end = cue.start.total_seconds(), cue.end.total_seconds()
        where = f"cue {k} ({start:.2f}-{end:.2f} s)"

        def fail(message: str, where: str = where) -> None:
            problems.append(Problem("subtitles", name, where, message))

        lines = cue.content.split("\n")
        if len(lines) > lim.max_lines:
            fail(f"has {len(lines)} lines (at most {lim.max_lines})")
        for line in lines:
            if (width := line_width(line, lang)) > lim.chars_per_line:
                fail(f"line {line!r} is {width:g} characters wide (at most {lim.chars_per_line})")
        shown = end - start
        if not lim.min_seconds - 1e-6 <= shown <= lim.max_seconds + 1e-6:
            fail(f"is on screen {shown:.2f} s (allowed {lim.min_seconds}-{lim.max_seconds} s)")
        elif visible_length(cue.content, lang) / shown > lim.chars_per_second + 1e-6:
            speed = visible_length(cue.content, lang) / shown
            fail(f"needs {speed:.1f} characters/s (at most {lim.chars_per_second:g})")
        if start < previous_end - 1e-6:
            fail(f"starts before the previous cue ends ({previous_end:.2f} s)")
        if end > duration + 1e-6:
            fail(f"ends after the scene ({duration:.2f} s)")
        previous_end = end
    if not captions:
        problems.append(Problem("subtitles", name, "whole scene", "has no subtitles"))
    return problems


def check_numbers(numbers: Iterable[ShownNumber | Spoken], data: Any, name: str) -> list[Problem]:
    """Each shown number equals the data-file value of its source, as displayed."""
    problems: list[Problem] = []
    for number in numbers:
        if isinstance(number.source, Ordinal):
            continue
        try:
            expected = number.source.value(data)
        except (KeyError, IndexError, TypeError, ValueError):
            problems.append(Problem("numbers", name, str(number.source), "is not in the data file"))
            continue
        shown = format_number(expected, number.decimals, number.notation)
        if number.text != shown or abs(number.value - expected) > 1e-9:
            problems.append(
                Problem(
                    "numbers",
                    name,
                    str(number.source),
                    f"shows {number.text}, the data file says {shown}",
                )
            )
    return problems


def check_length(seconds: float, name: str) -> list[Problem]:
    """A chapter lasts :data:`CHAPTER_SECONDS` (read silently; a voice makes it longer):
    shorter is a fragment, longer a chapter to split."""
    least, most = CHAPTER_SECONDS
    if least <= seconds <= most:
        return []
    return [Problem("length", name, "the chapter", f"lasts {seconds:.0f} s ({least}-{most} s)")]


def check_colour_words(
    lines: Iterable[dict], colours: Sequence[str], lang: str, name: str
) -> list[Problem]:
    """A scene that shows the colour task names only the lecture's own colours (its
    ``[task] colours``): a colour of the palette it does not use is never said."""
    unused = {colour_name(c, lang): c for c in TASK_PALETTE if c not in colours}
    return [
        Problem(
            "words",
            name,
            f"line {line['index']} ({line['key']})",
            f"names the colour '{word}' ({colour}), which 'task.colours' does not hold",
        )
        for line in lines
        for word, colour in unused.items()
        if re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", line["text"])
    ]


def check_typed_numbers(scene: Scene, name: str, index: int) -> list[Problem]:
    """Plain texts must not spell measured numbers: those go through ShownNumber."""
    return [
        Problem(
            "numbers",
            name,
            f"after animation {index}",
            f"{_describe(t)} writes a number that is not a ShownNumber",
        )
        for t in _on_screen_texts(scene)
        if not isinstance(t, ShownNumber | MathTex | SingleStringMathTex)
        and not getattr(t, "gate_not_measured", False)
        and _MEASURED_NUMBER.search(getattr(t, "text", "") or "")
    ]


def _span(scene: Scene) -> float:
    """How much of the content area the picture (all but the title) fills now: the smaller
    of its width's and its height's share."""
    boxes = [_box(m) for m in scene.mobjects if not getattr(m, "gate_title", False) and _leaves(m)]
    if not boxes:
        return 0.0
    left, bottom, right, top = style.content_area()
    width = max(b[2] for b in boxes) - min(b[0] for b in boxes)
    height = max(b[3] for b in boxes) - min(b[1] for b in boxes)
    return min(width / (right - left), height / (top - bottom))


def check_span(fullest: float, name: str) -> list[Problem]:
    """At its fullest, the picture fills most of the content area's width and height."""
    if fullest >= MIN_SPAN - 1e-6:
        return []
    message = (
        f"fills at most {fullest:.0%} of the content area's width or height "
        f"(at least {MIN_SPAN:.0%}): use the frame"
    )
    return [Problem("layout", name, "whole scene", message)]


def check_seams(scene: Scene, report: GateReport) -> list[Problem]:
    """A chapter that opens on a seam shows its picture on its first frame and nothing else
    but the title; one that ends on a seam shows exactly its picture on its last frame."""
    problems = []
    for attribute, frame, which in (
        ("opens_on", report.first, "first"),
        ("ends_on", report.last, "last"),
    ):
        name = getattr(scene, attribute, "")
        if not name or frame is None:
            continue
        wanted = picture_leaves([seam(scene, name)])
        lacks, extra = missing_share(wanted, frame), missing_share(frame, wanted)
        if lacks > SEAM_MISSING or extra > SEAM_MISSING:
            message = (
                f"{attribute} = {name!r}, but its {which} frame lacks {lacks:.0%} of that "
                f"picture's drawn parts and shows {extra:.0%} more (at most {SEAM_MISSING:.0%})"
            )
            problems.append(Problem("seams", report.scene, f"{which} frame", message))
    return problems


def check_beats(
    beatless: Iterable[str], name: str, lang: str, unmarked: Iterable[tuple[str, str]] = ()
) -> list[Problem]:
    """Every narrated line has an animation of its own, and the project's own line with
    beats marks where each one starts (an instructor's own sentence may leave them out:
    its beats then play in turn after the line's animations)."""
    own = tomllib.loads((LOCALE_DIR / f"{lang}.toml").read_text(encoding="utf-8"))
    missing = [
        key for table, key in unmarked if not BEAT_MARK.search(own.get(table, {}).get(key, ""))
    ]
    return [
        *(
            Problem("beats", name, f"line '{key}'", "is narrated over a still picture")
            for key in beatless
        ),
        *(
            Problem("beats", name, f"line '{key}'", "has beats but no <marker> for any of them")
            for key in missing
        ),
    ]


def _wrap(scene: Scene, report: GateReport, method: str) -> Callable:
    original = getattr(scene, method)

    def numbers_on_screen() -> None:
        for m in scene.mobjects:
            for sub in m.get_family():
                if isinstance(sub, ShownNumber):
                    report.numbers.setdefault(id(sub), sub)

    def checked(*args: Any, **kwargs: Any) -> None:
        if report.first is None:  # the first frame: what is on screen before anything moves
            report.first = picture_leaves(scene.mobjects)
            numbers_on_screen()  # a seam's numbers may leave in the first animation
        original(*args, **kwargs)
        index = report.animations
        report.animations += 1
        with _one_picture():
            report.add(check_layout(scene, report.scene, index))
            report.fullest = max(report.fullest, _span(scene))
            report.add(check_typed_numbers(scene, report.scene, index))
        numbers_on_screen()

    return checked


def _own_first_frame(construct: Callable[[], None], report: GateReport) -> Callable[[], None]:
    """The chapter's own first frame is what is on screen when its ``construct`` first
    animates: a chapter that begins a part of this lecture shows the contents list before
    it (in ``setup``), and that is not the frame its seam is checked against."""

    def constructed() -> None:
        report.first = None
        construct()

    return constructed


def load_scene(chapter: Chapter) -> type[Scene]:
    """Import a chapter's scene class (the project's by its module name, an instructor's own
    file by its path)."""
    if chapter.in_project:
        module = importlib.import_module(chapter.module)
    else:
        spec = importlib.util.spec_from_file_location(chapter.file.stem, chapter.file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[chapter.file.stem] = module
        spec.loader.exec_module(module)
    return getattr(module, chapter.class_name)


def run_gates(
    scene_class: type[Scene], lang: str, data_file: Path, media_dir: Path, **settings: Any
) -> GateReport:
    """Dry-run one scene in one language and collect every gate's problems (``settings``:
    the lecture's own, as a render's worker gets them: its plan, chapters, theme)."""
    name = scene_class.__name__
    report = GateReport(scene=name, lang=lang)
    patches.install(process_settings())  # the speed-ups, as this process's settings ask
    texcache.install(media_dir / "cache")  # gate runs at once share it safely
    quiet = {"progress_bar": "none", "verbosity": "WARNING"}
    dry = {"dry_run": True, "media_dir": str(media_dir), "quality": "low_quality"}
    with (
        tempsettings(**{**settings, "lang": lang, "data": Path(data_file)}),
        tempconfig({**dry, "disable_caching": True, **quiet}),
    ):
        scene = scene_class(skip_animations=True)  # end states only: fast
        # A dry run writes no frame, so drawing one is wasted: the gates read geometry.
        scene.renderer.update_frame = lambda *args, **kwargs: None
        scene.play = _wrap(scene, report, "play")
        scene.wait = _wrap(scene, report, "wait")
        scene.construct = _own_first_frame(scene.construct, report)
        with end_states_only():  # the gates read end states: no frame between is prepared
            scene.render()
        report.captions = list(scene.renderer.file_writer.subcaptions)
        for number in getattr(scene, "spoken_numbers", ()):  # what the narration says
            report.numbers.setdefault(id(number), number)
        report.duration = scene.renderer.time
        report.last = picture_leaves(scene.mobjects)
        report.add(check_seams(scene, report))
        report.lines = list(getattr(scene, "narration_lines", ()))
    # The file as this language's chapters read it: its own walkthrough sentence in place.
    data = in_language(json.loads(Path(data_file).read_text(encoding="utf-8")), lang)
    report.add(check_subtitles(report.captions, report.duration, name, lang))
    if isinstance(scene, LectureScene):  # a chapter, not a bare test scene
        report.add(check_span(report.fullest, name))
        report.add(check_beats(scene.beatless, name, scene.lang, scene.unmarked))
        if scene.chapter is not None:  # a chapter of the plan (the template is not)
            report.add(check_length(report.duration, name))
    report.add(check_numbers(report.numbers.values(), data, name))
    if any(path.startswith("examples") for path in getattr(scene, "reads", ())):
        report.add(check_colour_words(report.lines, data["config"]["colours"], lang, name))
    return report


def ensure_data(path: Path, lecture: Path | None) -> str | None:
    """The data file the gates read, made as render.py makes it when it is missing (or, with
    ``lecture``, made from another lecture file); training runs in ``python -m model``, so
    the gates import no torch. A data file there is never replaced otherwise: it may be
    another lecture's. An error line, or None."""
    from model.config import ConfigError, LectureConfig
    from model.datafile import DataFileError, LectureData, is_current

    try:
        config = LectureConfig.from_file(lecture) if lecture else None
    except ConfigError as err:
        return str(err)
    if config is not None and is_current(path, config):
        return None
    if config is None and path.is_file():
        try:
            LectureData.from_file(path)
            return None
        except DataFileError:
            pass  # damaged or made by older code: made again below
    print(f"gates: data: training the model -> {path}", flush=True)
    command = [sys.executable, "-m", "model", "--out", str(path)]
    made = subprocess.run([*command, *(["--config", str(lecture)] if lecture else [])])
    return None if made.returncode == 0 else f"{path}: the model could not be trained"


def main(argv: list[str] | None = None) -> int:
    from scenes.kit.base import data_path
    from syllabus.locale import available_languages
    from syllabus.plan import checked

    parser = argparse.ArgumentParser(
        prog="python -m scenes.gates", description=__doc__.split("\n")[0]
    )
    chapters = checked()
    names = [entry.name for entry in chapters]
    parser.add_argument("scenes", nargs="*", help=f"scene names (default: all of {names})")
    parser.add_argument("--lang", default="all", help="a language, or 'all'")
    parser.add_argument(
        "--data",
        type=Path,
        default=data_path(),
        help="data file (default: render.py's, out/data.json; made when missing)",
    )
    parser.add_argument("--config", type=Path, help="the lecture file the data file is made from")
    parser.add_argument("--numbers", action="store_true", help="list every number shown")
    args = parser.parse_args(argv)
    unknown = [s for s in args.scenes if s not in names]
    langs = available_languages() if args.lang == "all" else [args.lang]
    if unknown or not set(langs) <= set(available_languages()):
        bad = unknown[0] if unknown else args.lang
        print(f"gates: error: unknown scene or language '{bad}'", file=sys.stderr)
        return 2
    problem = ensure_data(args.data, args.config)
    if problem:
        print(f"gates: error: {problem}", file=sys.stderr)
        return 2
    lecture: dict = {}
    if args.config:  # its own words, theme and chapters, as render.py would use them
        from syllabus.lecture_file import LectureFileError, load_lecture

        try:
            loaded = load_lecture(args.config)
        except LectureFileError as err:
            print(f"gates: error: {err}", file=sys.stderr)
            return 2
        chapter_names = tuple(c.name for c in loaded.chapters)
        lecture = {**loaded.overlay, "theme": loaded.theme, "chapters": chapter_names}
    with tempsettings(**lecture):
        return _run_all(args, chapters, langs)


def _run_all(args: argparse.Namespace, chapters: Sequence[Chapter], langs: list[str]) -> int:
    """Every asked scene in every asked language, its problems printed; 1 when any has one."""
    failed = 0
    media = Path(os.environ.get("TMPDIR", "/tmp")) / "lecture-gates"
    for entry in chapters:
        if args.scenes and entry.name not in args.scenes:
            continue
        scene_class = load_scene(entry)
        for lang in langs:
            report = run_gates(scene_class, lang, args.data, media)
            state = "ok" if not report.problems else f"{len(report.problems)} problem(s)"
            print(
                f"{entry.name} [{lang}]: {report.animations} animations, "
                f"{len(report.captions)} cues, {len(report.numbers)} numbers, "
                f"{report.duration:.0f} s: {state}"
            )
            for problem in report.problems:
                print(f"  {problem}")
            if args.numbers:
                print("\n".join(f"    {line}" for line in report.listing()))
            failed += bool(report.problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
