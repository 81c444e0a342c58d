"""Render the lecture: data file -> scenes (in parallel, unchanged ones skipped) -> lecture.

    python render.py                      # the whole lecture, at high quality (1080p30)
    python render.py --quality low        # a quick look (480p15)
    python render.py --scenes attention_map --lang en
    python render.py --list               # chapters and whether their segments are current

Writes into out/ (or --out): data.json, segments/<scene>.mp4 (+ .srt, + .json record of
what it was made from), and lecture.mp4 with chapters and a subtitle track, lecture.srt,
lecture.vtt and chapters.txt. Every file is written under a temporary name and renamed
when whole; a killed run leaves the previous files intact and the next run resumes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from common.atomic import copy_atomic, write_json_atomic
from common.closure import file_digest
from common.defaults import DEFAULT_LECTURE
from common.files import LinesFile, OutsideFolderError, inside
from common.settings import Settings, VoiceSettings, settings, tempsettings
from model.config import ConfigError, LectureConfig
from model.datafile import is_current
from pipeline.cluster import LOCAL, ClusterError, ClusterLost
from pipeline.jobs import ENCODER_OPTIONS, Job, RenderTimes, Runner, drop_damaged, worker_env
from pipeline.lock import FolderInUseError, FolderLock
from pipeline.records import (
    ASSEMBLED,
    MANIFEST,
    expected_record,
    installed_files,
    lecture_inputs,
    lecture_is_current,
    read_record,
    voice_code,
    write_record,
)
from syllabus.lecture_file import VOICES, LectureFile, LectureFileError, load_lecture
from syllabus.locale import LocaleError, Words, available_languages, language
from syllabus.plan import DEFAULT_PLAN, Chapter, PlanError, load_plan
from syllabus.presets import PRESETS, Preset

DATA_NAME = "data.json"
VOICE_CACHE = "voice-cache"  # synthesised and normalised lines, shared by every run into --out
RENDER_CACHE = ".cache"  # formulas' and texts' SVGs, shared by the workers and every run


class UsageError(Exception):
    """A bad flag or value: one line, exit code 2."""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP: stop like Ctrl-C, with exit code 128 + the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, _frame: object) -> None:
    raise Terminated(signum)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage + error
        raise UsageError(message)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = _Parser(prog="render.py", description="Render the self-attention lecture.")
    parser.add_argument(
        "--quality",
        choices=list(PRESETS),
        help="low 480p15, medium 720p30, high 1080p30, production 1080p60, 4k 2160p60 "
        "(default: the lecture file's)",
    )
    parser.add_argument("--fps", type=float, help="override the preset's frame rate")
    parser.add_argument("--scenes", help="comma-separated scene names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the chapters and exit")
    parser.add_argument("--out", type=Path, default=Path("out"), help="output folder")
    parser.add_argument("--config", type=Path, help="the lecture file (default: the built-in one)")
    parser.add_argument(
        "--print-config", action="store_true", help="print the built-in lecture file and exit"
    )
    parser.add_argument(
        "--plan", type=Path, default=DEFAULT_PLAN, help="the scenes a lecture file chooses from"
    )
    parser.add_argument(
        "--lang", help="language(s), comma-separated: zh-TW,en (default: the lecture file's)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="scenes rendered at once (default: the number of cores)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="render on a Dask cluster: a scheduler's address (tcp://host:8786), or local:N "
        "for N worker processes here (--jobs is then the cluster's)",
    )
    parser.add_argument("--force", action="store_true", help="render every scene again")
    parser.add_argument(
        "--wait", action="store_true", help="wait while another run uses the output folder"
    )
    parser.add_argument("--verbose", action="store_true", help="show Manim's own output")
    parser.add_argument(
        "--voice",
        choices=list(VOICES),
        help="kokoro: a natural neural voice; espeak: a quick robotic draft; none: silent, "
        "timed for reading (default: the lecture file's 'voice'); with --narration, the "
        "voice says only the lines not recorded",
    )
    parser.add_argument(
        "--narration",
        type=Path,
        help="a folder of recordings, <scene>/<nn>-<key>.wav|flac|mp3 (one folder per language "
        "for several: the lecture file's first language in the folder itself, each other in "
        "<folder>/<language>/, as the lecture in --out)",
    )
    parser.add_argument(
        "--narration-script",
        action="store_true",
        help="write every line to record (script.txt, script.html, narration.json) into the "
        "--narration folder (default: <out>/narration) and exit",
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="record the lines of the --narration folder's script in the browser, one at a "
        "time (a page on http://127.0.0.1:PORT), until Ctrl-C",
    )
    parser.add_argument("--port", type=int, default=8765, help="the recorder's port")
    args = parser.parse_args(argv)
    if args.lang is not None:  # checked with the lecture file, which may add languages
        args.langs = [lang.strip() for lang in args.lang.split(",") if lang.strip()]
        if not args.langs:
            raise UsageError(
                f"unknown language '{args.lang}' (allowed: {', '.join(available_languages())})"
            )
    if args.cluster is not None:
        check_cluster(args.cluster)
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.fps is not None and not 1 <= args.fps <= 120:
        raise UsageError(f"--fps must be between 1 and 120, got {args.fps:g}")
    return args


def check_cluster(address: str) -> None:
    """``--cluster`` is a scheduler's address or ``local:N`` (checked before anything runs;
    whether a scheduler answers there is known when the run connects)."""
    count = address.removeprefix(LOCAL) if address.startswith(LOCAL) else None
    if count is not None and (not count.isdigit() or int(count) < 1):
        raise UsageError(f"--cluster {address}: give local:N, N worker processes here (N >= 1)")
    if count is None and not re.fullmatch(r"(?:[a-z]+://)?(?:[\w.\-]+|\[[\w:.]+\]):\d+", address):
        raise UsageError(
            f"--cluster {address}: give a Dask scheduler's address, tcp://HOST:PORT "
            "(dask scheduler listens on 8786), or local:N"
        )


def apply_lecture(args: argparse.Namespace, lecture: LectureFile) -> None:
    """Fill what the flags left open from the lecture file: languages, quality, preset."""
    args.langs = list(lecture.languages)  # the file's, or --lang's (load_lecture took them)
    args.quality = args.quality or lecture.quality
    args.preset = PRESETS[args.quality].with_fps(args.fps)
    args.theme = lecture.theme
    args.voice_forced = args.voice is not None  # --voice: every chapter, whatever the file says
    args.voice = args.voice or lecture.voice
    args.voices = lecture.voices
    args.chapter_voices = {} if args.voice_forced else dict(lecture.chapter_voices)
    args.first = lecture.first  # its lecture is in --out itself, every other in --out/<lang>


def select(
    chapters: tuple[Chapter, ...], names: str | None, planned: Sequence[str] = ()
) -> list[Chapter]:
    """The chapters ``--scenes`` names; ``planned``: every chapter of the plan, so that one
    the lecture file's ``chapters`` leaves out is named as such."""
    if not names:
        return list(chapters)
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    known = [c.name for c in chapters]
    unknown = [n for n in wanted if n not in known]
    if unknown and unknown[0] in planned:
        raise UsageError(
            f"scene '{unknown[0]}' is not in this lecture: add it to 'chapters' in the lecture "
            f"file (it has: {', '.join(known)})"
        )
    if unknown:
        raise UsageError(f"unknown scene '{unknown[0]}' (allowed: {', '.join(known)})")
    return [c for c in chapters if c.name in wanted]


def check_writable(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as err:
        raise UsageError(f"output folder {folder} is not writable ({err.strerror})") from None


def ensure_data(config: LectureConfig, path: Path) -> None:
    """Train and write the data file unless a current one is there."""
    if is_current(path, config):
        return
    print(f"data: training the model -> {path}", flush=True)
    from model.lab import build  # torch is imported only when training

    data = build(config)
    write_json_atomic(path, data)
    tr = data["training"]
    print(
        f"data: {tr['steps']} steps in {tr['train_ms']:.0f} ms, val MSE "
        f"{tr['val_mse']:.5f} (always-0 baseline {tr['baseline_mse']:.4f})"
    )


class Segments:
    """out/segments: one MP4, .srt and record per scene, installed atomically."""

    def __init__(
        self,
        out: Path,
        data: dict | None,
        lang: str,
        preset: Preset,
        theme: str,
        voice_of: Callable[[Chapter], VoiceSettings | None] | None = None,
    ) -> None:
        self.dir = out / "segments"
        self.work = out / ".work"
        self.data, self.lang, self.preset, self.theme = data, lang, preset, theme
        self.voice_of = voice_of or (lambda chapter: None)  # each chapter's voice (None: silent)
        self._expected: dict[str, dict] = {}

    def paths(self, chapter: Chapter) -> tuple[Path, Path, Path]:
        base = self.dir / chapter.name
        return base.with_suffix(".mp4"), base.with_suffix(".srt"), base.with_suffix(".json")

    def expected(self, chapter: Chapter) -> dict:
        """The record a segment made now would carry (hashing sources once per run)."""
        if chapter.name not in self._expected:
            self._expected[chapter.name] = expected_record(
                chapter,
                self.data,
                self.lang,
                self.preset,
                ENCODER_OPTIONS,
                self.theme,
                voice_record(self.voice_of(chapter), chapter),
            )
        return self._expected[chapter.name]

    def state(self, chapter: Chapter) -> str:
        video, subtitles, record_path = self.paths(chapter)
        record = read_record(record_path) if video.is_file() else None
        if record is None:
            return "missing"
        files = record.pop("files", None)  # the segment's files as they were installed
        if files != installed_files(video, subtitles, LinesFile.beside(video)):
            return "stale"  # cut short, replaced or removed since
        return "current" if record == self.expected(chapter) else "stale"

    def install(self, chapter: Chapter, video: Path, rendered: Path) -> None:
        """Copy a finished render (``video``, with the subtitles Manim wrote beside the
        ``rendered`` file) into place; the record goes last."""
        self.dir.mkdir(parents=True, exist_ok=True)
        target, subtitles, record = self.paths(chapter)
        record.unlink(missing_ok=True)  # until the new record lands, the segment is stale
        if rendered.with_suffix(".srt").is_file():
            copy_atomic(rendered.with_suffix(".srt"), subtitles)
        else:
            subtitles.unlink(missing_ok=True)
        copy_atomic(video, target)
        lines = LinesFile.beside(rendered)  # where each narrated line starts and ends
        if lines.is_file():
            copy_atomic(lines, LinesFile.beside(target))
        else:
            LinesFile.beside(target).unlink(missing_ok=True)
        installed = installed_files(target, subtitles, LinesFile.beside(target))
        write_record(record, {**self.expected(chapter), "files": installed})

    def clean_leftovers(self) -> None:
        for folder in (self.dir, self.dir.parent):
            for tmp in folder.glob(".*.tmp") if folder.is_dir() else ():
                tmp.unlink(missing_ok=True)


DISK_FULL = ("No space left on device", "[Errno 28]", "ENOSPC", "Disk quota exceeded")
LEAST_FREE = 64 * 2**20  # bytes: with less free, a failed scene is taken for a full disk


def disk_full(out: Path, outputs: list[str]) -> str | None:
    """The one line to print when scenes failed because the disk of ``out`` is full (their
    output says so, or hardly any space is left); None otherwise."""
    if not outputs:
        return None
    free = shutil.disk_usage(out).free
    said = any(sign in output for output in outputs for sign in DISK_FULL)
    if not said and free >= LEAST_FREE:
        return None
    return (
        f"the disk of {out} is full ({free / 2**20:.0f} MiB free): {len(outputs)} scene(s) "
        "could not be written; free some space and run again (finished segments are kept)"
    )


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = round(width * done / total) if total else width
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"


def voice_record(voice: VoiceSettings | None, chapter: Chapter) -> dict | None:
    """What a chapter's narration is made from: the synthesiser's identity (its engine,
    voice, speed, model and voice file, code and phonemisers; None for recordings only), and
    each recording's hash."""
    if voice is None:
        return None
    from voice.clips import FORMATS, LINE_PAUSE

    takes = {}
    if voice.narration:
        folder = Path(voice.narration) / (chapter.scene_key or chapter.name)
        for path in sorted(folder.glob("*")) if folder.is_dir() else ():
            if path.suffix in FORMATS and path.is_file():  # never a pipe or a folder
                takes[path.name] = file_digest(path).hex()
    from voice.clips import engine_for

    engine = engine_for(voice)  # what a cue's sound depends on: voice, speed, model, code
    said = [engine.name, *engine.identity()] if engine is not None else None
    return {"voice": said, "recordings": takes, "pause": LINE_PAUSE, "code": voice_code()}


def mode_of(args: argparse.Namespace, chapter: Chapter) -> str:
    """How a chapter is voiced: the lecture file's ``chapter_voices``, else its ``voice``
    (``--voice`` overrides both): recorded, kokoro, espeak or none."""
    return args.chapter_voices.get(chapter.name, args.voice)


def voice_for(
    args: argparse.Namespace, lang: str, chapter: Chapter | None = None
) -> VoiceSettings | None:
    """The voice settings of one chapter's render in one language (None: silent).

    ``voice = "none"`` with recordings uses the recordings alone; a chapter's own "none" is
    silent, its own "recorded" uses its recordings alone, and a synthesiser says the lines
    not recorded."""
    mode = mode_of(args, chapter) if chapter is not None else args.voice
    if chapter is not None and chapter.name in args.chapter_voices and mode == "none":
        return None  # a chapter of its own silence: its recordings are not used
    if mode == "none" and not args.narration:
        return None
    cache = str((args.out / VOICE_CACHE).resolve())
    folder = narration_folder(args, lang)
    if mode == "kokoro":
        choice = args.voices[lang]
        return VoiceSettings("kokoro", choice.name, choice.speed, folder, cache)
    meta = language(lang)  # espeak's voice is the locale's; "none": recordings only
    engine = "espeak" if mode == "espeak" else None
    return VoiceSettings(engine, meta.voice, float(meta.voice_speed), folder, cache)


def voices_in(args: argparse.Namespace, lang: str) -> Callable[[Chapter], VoiceSettings | None]:
    """Each chapter's voice settings in ``lang``."""
    return lambda chapter: voice_for(args, lang, chapter)


def uses(args: argparse.Namespace, mode: str) -> bool:
    """Whether any chapter of the lecture is voiced by ``mode``."""
    return args.voice == mode or mode in args.chapter_voices.values()


def check_voices(args: argparse.Namespace) -> None:
    """Each language rendered with Kokoro has a voice, one that set-up keeps."""
    if not uses(args, "kokoro"):
        return
    from voice.kokoro import voice_hashes

    source = f"lecture file {args.config or DEFAULT_LECTURE}"
    for lang in args.langs:
        if lang not in args.voices:
            raise UsageError(
                f"{source}: no Kokoro voice for '{lang}': add [voices.{lang}] with a name "
                "(one of voice/kokoro-voices.sha256) and a speed, or render with --voice "
                "espeak or none"
            )
        name = args.voices[lang].name
        if name not in voice_hashes():
            raise UsageError(
                f"{source}: 'voices.{lang}.name' is '{name}' "
                f"(allowed: {', '.join(sorted(voice_hashes()))})"
            )


def check_voice_files(args: argparse.Namespace) -> None:
    """Before anything renders: the Kokoro model and each language's voice file are there
    and whole (one line naming a missing or damaged one, and the command that fixes it)."""
    if not uses(args, "kokoro"):
        return
    from voice.kokoro import KokoroError, check_model, check_voice

    try:
        check_model()
        for lang in args.langs:
            check_voice(args.voices[lang].name)
    except KokoroError as err:
        raise UsageError(str(err)) from None


def check_page_library() -> None:
    """Before anything renders: the page's TensorFlow.js is there and whole (the lab
    trains with it), else one line naming it and the command that installs it."""
    from pipeline.vendor import VendorError, library

    try:
        library()
    except VendorError as err:
        raise UsageError(str(err)) from None


def narration_folder(args: argparse.Namespace, lang: str) -> str | None:
    """A language's recordings, laid out as its lecture is: the lecture file's first
    language in ``--narration`` itself, every other in ``--narration/<lang>``."""
    if args.narration is None:
        return None
    folder = args.narration if lang == args.first else inside(args.narration, lang)
    return str(folder.resolve())


def check_narration(args: argparse.Namespace, selected: list[Chapter]) -> None:
    """Before anything renders: every recording readable and usable, and the missing ones
    listed (said by the chapter's voice; in a chapter of recordings only, an error)."""
    recorded = [c.name for c in selected if mode_of(args, c) == "recorded"]
    if recorded and args.narration is None:
        raise UsageError(
            f"lecture file {args.config or DEFAULT_LECTURE}: 'chapter_voices.{recorded[0]}' is "
            "'recorded': render with --narration FOLDER (its recordings)"
        )
    voiced = [c for c in selected if voice_for(args, args.langs[0], c) is not None]
    by_key = {key: c for c in voiced for key in (c.name, c.scene_key) if key}
    for lang in args.langs:
        folder = narration_folder(args, lang)
        if folder is None:
            continue
        if not Path(folder).is_dir():
            raise UsageError(f"--narration {folder}: no such folder")
        from pipeline.narration import check_folder
        from voice.clips import VoiceError

        try:
            missing = check_folder(Path(folder), set(by_key))
        except VoiceError as err:
            raise UsageError(str(err)) from None
        unsaid = [m for m in missing if mode_of(args, by_key[m.split("/")[0]]) in UNSAID]
        if unsaid:
            shown = ", ".join(f"{name}.wav" for name in unsaid[:6])
            raise UsageError(
                f"{folder}: {len(unsaid)} recording(s) missing: {shown}"
                + (" ..." if len(unsaid) > 6 else "")
                + " (record them, or render with --voice kokoro or espeak to say them)"
            )
        if missing:
            shown = ", ".join(missing[:6]) + (" ..." if len(missing) > 6 else "")
            said = ", ".join(sorted({mode_of(args, by_key[m.split("/")[0]]) for m in missing}))
            print(f"voice: {len(missing)} line(s) not recorded yet, said by {said}: {shown}")


UNSAID = ("none", "recorded")  # a chapter voiced so says no line that is not recorded


def record(args: argparse.Namespace) -> int:
    """Serve the recorder for the --narration folder (its script) until Ctrl-C."""
    from pipeline.recorder import serve
    from voice.clips import VoiceError

    if args.narration is None:
        raise UsageError("--record needs --narration FOLDER (write its script first)")
    lang = args.langs[0]
    folder = Path(narration_folder(args, lang) or args.narration)
    try:
        server = serve(folder, lang, args.port)
    except VoiceError as err:
        raise UsageError(str(err)) from None
    except OSError as err:  # the port is taken
        raise UsageError(f"--port {args.port}: {err.strerror}") from None
    print(f"record: open http://127.0.0.1:{server.server_port}/ (Ctrl-C ends)", flush=True)
    with server:
        server.serve_forever()
    return 0


def lecture_settings(
    args: argparse.Namespace,
    lang: str,
    chapters: tuple[Chapter, ...],
    voice: VoiceSettings | None = None,
) -> Settings:
    """What a scene of this lecture is rendered with in ``lang``: the one place a worker's
    settings are made, for the render and for the narration script's dry run alike."""
    return Settings(
        lang=lang,
        theme=args.theme,
        data=(args.out / DATA_NAME).resolve(),
        plan=args.plan.resolve(),
        chapters=tuple(c.name for c in chapters),
        locales=settings().locales,  # the environment's and the lecture file's folders
        words=settings().words,  # the lecture file's own words
        cache=(args.out / RENDER_CACHE).resolve(),
        voice=voice,
    )


def write_narration_script(
    args: argparse.Namespace,
    config: LectureConfig,
    chapters: tuple[Chapter, ...],
    selected: list[Chapter],
) -> int:
    """Dry-run the chapters with the lecture's own settings (its plan, chapters and theme,
    exactly as the render's workers get them) and write the lines to record."""
    from pipeline.narration import write_script
    from scenes.gates.script import collect_lines  # imports Manim

    data_path = args.out / DATA_NAME
    ensure_data(config, data_path)
    for lang in args.langs:
        folder = Path(narration_folder(args, lang) or lang_out(args, lang) / "narration")
        media = args.out / ".work" / "narration-script"
        made = lecture_settings(args, lang, chapters)
        lecture = {"plan": made.plan, "chapters": made.chapters, "theme": made.theme}
        entries = collect_lines(
            selected,
            lang,
            data_path,
            media,
            lecture | {"locales": made.locales, "words": made.words},
        )
        shutil.rmtree(media, ignore_errors=True)
        for path in write_script(folder, lang, entries):
            print(f"  {path}")
        print(f"narration: {len(entries)} lines to record in {lang}")
    return 0


def lang_out(args: argparse.Namespace, lang: str) -> Path:
    """Where a language's lecture goes, however many render: the lecture file's first
    language in ``--out`` itself, every other in ``--out/<lang>`` (so adding a language, or
    rendering one alone, never moves another)."""
    return args.out if lang == args.first else inside(args.out, lang)


LANGUAGE_FILES = ("segments", "stills", *ASSEMBLED, MANIFEST)  # a language's part of --out


def settle_layout(args: argparse.Namespace) -> None:
    """Move a language's rendered files to where :func:`lang_out` puts them, when an earlier
    layout left them elsewhere (``--out/<lang>`` for the first language, ``--out`` for
    another), so that nothing renders again and nothing stale stays behind."""

    def language_in(folder: Path) -> str | None:  # whose segments a folder holds
        records = sorted((folder / "segments").glob("*.json"))
        said = read_record(records[0]) if records else None
        return said.get("lang") if said else None

    # A language moves once its place is free: the first language of a file whose languages
    # were swapped leaves out/ for out/<lang> before the new first one moves into out/.
    waiting = [lang for lang in args.langs if language_in(lang_out(args, lang)) != lang]
    while waiting:
        moved = False
        for lang in list(waiting):
            target = lang_out(args, lang)
            sources = [s for s in (args.out, args.out / lang) if s != target]
            source = next((s for s in sources if language_in(s) == lang), None)
            if source is None:  # nothing of it rendered anywhere: it renders in place
                waiting.remove(lang)
                continue
            if language_in(target) is not None:  # another language's, not yet moved away
                continue
            target.mkdir(parents=True, exist_ok=True)
            for name in LANGUAGE_FILES:
                if (source / name).exists() and not (target / name).exists():
                    os.replace(source / name, target / name)
            if source != args.out and not any(source.iterdir()):
                source.rmdir()  # out/<lang> emptied: nothing stale stays behind
            print(f"render: moved the {lang} lecture from {source} to {target}")
            waiting.remove(lang)
            moved = True
        if not moved:  # a place held by a language this run does not render: left as it is
            break


def rerun_hint(args: argparse.Namespace, chapter: Chapter) -> str:
    """The command that renders one chapter alone, into the same lecture."""
    command = [sys.executable, "render.py", "--scenes", chapter.name, "--quality", args.quality]
    command += ["--out", str(args.out), "--plan", str(args.plan), "--lang", ",".join(args.langs)]
    if args.config:
        command += ["--config", str(args.config)]
    if args.fps:
        command += ["--fps", f"{args.fps:g}"]
    return shlex.join([*command, "--verbose"])


def render(
    args: argparse.Namespace,
    config: LectureConfig,
    chapters: tuple[Chapter, ...],
    selected: list[Chapter],
) -> int:
    """Render what is stale among ``selected`` in every language (all scenes of all languages
    spread over the workers), then assemble each language whose chapters are all current."""
    start = time.perf_counter()
    data_path = args.out / DATA_NAME
    ensure_data(config, data_path)
    data = json.loads(data_path.read_text())
    # Every input is hashed here, once, before anything renders: an edit made during the
    # render makes the segment stale next time instead of being recorded as rendered.
    settle_layout(args)
    languages = {}
    for lang in args.langs:
        segments = Segments(
            lang_out(args, lang), data, lang, args.preset, args.theme, voices_in(args, lang)
        )
        segments.clean_leftovers()
        states = {c.name: segments.state(c) for c in chapters}
        todo = [c for c in selected if args.force or states[c.name] != "current"]
        languages[lang] = (segments, todo)
    total = sum(len(todo) for _, todo in languages.values())
    several = len(args.langs) > 1
    jobs, owner = [], {}
    for lang, (segments, todo) in languages.items():
        for chapter in todo:
            env = worker_env(lecture_settings(args, lang, chapters, segments.voice_of(chapter)))
            job = Job(chapter, args.preset, segments.work / chapter.name, env)
            jobs.append(job)
            owner[id(job)] = (segments, f" [{lang}]" if several else "")
    done, failed = 0, []

    def started(job: Job) -> None:
        print(f"  start  {job.chapter.name}{owner[id(job)][1]}", flush=True)

    def ended(result) -> None:
        nonlocal done
        done += 1
        segments, tag = owner[id(result.job)]
        name = f"{result.job.chapter.name}{tag}"
        if args.verbose:
            print(result.output)
        if result.ok:
            rendered = video = result.job.video()
            if segments.voice_of(result.job.chapter) is not None:
                from pipeline.soundtrack import add_narration  # av, numpy: with a voice only

                video = add_narration(rendered)  # the lines' clips, mixed into an AAC track
            segments.install(result.job.chapter, video, rendered)
            shutil.rmtree(result.job.media_dir, ignore_errors=True)
            print(f"  done   {name} ({result.seconds:.1f} s)  {_bar(done, len(jobs))}", flush=True)
        else:
            failed.append(result)
            print(f"  FAILED {name} ({result.seconds:.1f} s)  {_bar(done, len(jobs))}", flush=True)

    def last_lines(job: Job) -> Path:  # a cluster's worker is sent the clips they name
        return LinesFile.beside(owner[id(job)][0].paths(job.chapter)[0])

    with _runner(args, bool(jobs), last_lines) as runner:
        print(
            f"render: {total} to render, {len(selected) * len(args.langs) - total} unchanged, "
            f"{args.preset}, {min(runner.slots, max(total, 1))} at once"
            + (f" on {args.cluster}" if args.cluster else "")
            + (f", in {', '.join(args.langs)}" if several else "")
        )
        for lang, (_, todo) in languages.items():
            tag = f" [{lang}]" if several else ""
            for chapter in selected:
                if chapter not in todo:
                    print(f"  skip   {chapter.name}{tag} (unchanged)")
        if jobs:  # a damaged cache is as good as none (a run with nothing to render reads none)
            drop_damaged(args.out / RENDER_CACHE)
        times = RenderTimes.in_folder(args.out / RENDER_CACHE)
        try:
            times.record(runner.run(times.longest_first(jobs), started, ended))
        finally:
            for segments, _ in languages.values():  # ours alone: the folder is locked
                shutil.rmtree(segments.work, ignore_errors=True)
    # A cluster's scenes fail on the workers' disks, and each failure names its worker.
    full = None if args.cluster else disk_full(args.out, [result.output for result in failed])
    if full:
        raise UsageError(full)  # one line, exit 2: no scene is wrong, the disk is
    for result in failed:
        chapter = result.job.chapter
        print(
            f"render.py: error: scene {chapter.name}{owner[id(result.job)][1]} failed:",
            file=sys.stderr,
        )
        for line in result.error:
            print(f"    {line}", file=sys.stderr)
        print(f"  re-run it alone: {rerun_hint(args, chapter)}", file=sys.stderr)
    if failed:
        return 1
    for lang, (segments, _) in languages.items():
        status = _assemble(args, lang, segments, chapters)
        if status:
            return status
    rendered = sum(len(todo) for _, todo in languages.values())
    print(
        f"render: {len(chapters)} chapters, {rendered} rendered, "
        f"{len(selected) * len(args.langs) - rendered} skipped, "
        f"in {time.perf_counter() - start:.1f} s"
    )
    return 0


def _runner(
    args: argparse.Namespace, needed: bool, last_lines: Callable[[Job], Path]
) -> contextlib.AbstractContextManager:
    """What renders the jobs: this machine's pool of ``--jobs`` workers, or the Dask cluster
    of ``--cluster`` (connected to, and its workers' code checked, only when there is work)."""
    if args.cluster is None or not needed:
        return contextlib.nullcontext(Runner(args.jobs))
    from pipeline.cluster import ClusterRunner

    return ClusterRunner(args.cluster, last_lines)


def _assemble(
    args: argparse.Namespace, lang: str, segments: Segments, chapters: tuple[Chapter, ...]
) -> int:
    """Join one language's segments into its lecture.mp4 (when all are current, and
    unless the lecture there was assembled from these very segments)."""
    missing = [c.name for c in chapters if segments.state(c) != "current"]
    where = f" [{lang}]" if len(args.langs) > 1 else ""
    if missing:
        print(
            f"render: lecture.mp4{where} not assembled: segments not current: {', '.join(missing)}"
        )
        return 0
    # The lecture's name, whichever chapter opens it: one line in the MP4, the page's title.
    title = " ".join(Words("page", lang)["lecture"].split())
    out_dir = lang_out(args, lang)
    from pipeline.lab import lab_data

    lab = lab_data(json.loads((args.out / DATA_NAME).read_text(encoding="utf-8")), lang)
    made_from = lecture_inputs(
        [(c.title(lang), *segments.paths(c)) for c in chapters], lang, title, lab
    )
    if lecture_is_current(out_dir, made_from):
        print(f"render: lecture{where} unchanged: {out_dir / 'lecture.mp4'}")
        return 0
    from pipeline.assemble import AssemblyError, SegmentFile, assemble

    files = [SegmentFile(c.title(lang), *segments.paths(c)[:2]) for c in chapters]
    try:
        lecture = assemble(files, out_dir, lang, title, made_from, lab)
    except AssemblyError as err:
        print(f"render.py: error: {err}", file=sys.stderr)
        return 1
    print(f"render: lecture{where} {lecture.duration:.1f} s, {len(chapters)} chapters")
    for path in (lecture.video, lecture.page, lecture.srt, lecture.vtt, lecture.chapters):
        print(f"  {path}")
    return 0


def list_chapters(args: argparse.Namespace, config: LectureConfig, chapters: tuple[Chapter, ...]):
    """What a render would do: each chapter current, stale or missing, in each language."""
    data_path = args.out / DATA_NAME
    data = None
    if is_current(data_path, config):
        data = json.loads(data_path.read_text(encoding="utf-8"))
    else:
        print(f"data: {data_path} is missing or was made otherwise: a render re-makes it first")
    for lang in args.langs:
        if len(args.langs) > 1:
            print(f"[{lang}] {lang_out(args, lang)}")
        voices = voices_in(args, lang)  # a segment voiced otherwise is stale
        segments = Segments(lang_out(args, lang), data, lang, args.preset, args.theme, voices)
        for k, chapter in enumerate(chapters, start=1):
            if data is not None:
                state = segments.state(chapter)
            else:  # the data will change: a segment there is stale
                state = "stale" if segments.paths(chapter)[0].is_file() else "missing"
            print(f"{k:2d}. {chapter.name:20} {state:8} {chapter.title(lang)}")


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        if args.print_config:
            print(DEFAULT_LECTURE.read_text(encoding="utf-8"), end="")
            return 0
        lecture = load_lecture(args.config, args.plan, args.langs if args.lang else None)
        with tempsettings(**lecture.overlay):  # the lecture file's own words, in force
            return _run(args, lecture)
    except (
        UsageError,
        ConfigError,
        PlanError,
        LocaleError,
        FolderInUseError,
        LectureFileError,
        OutsideFolderError,
        ClusterError,
    ) as err:
        print(f"render.py: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # a full disk, a read-only folder
        where = f"{err.filename}: " if err.filename else ""
        print(f"render.py: error: cannot write: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    except ClusterLost as err:  # as Ctrl-C: what is whole is kept, the next run resumes
        print(f"render.py: error: {err}; finished segments are kept", file=sys.stderr)
        return 1
    except KeyboardInterrupt as err:
        signum = getattr(err, "signum", signal.SIGINT)
        print("render.py: interrupted; finished segments are kept", file=sys.stderr)
        return 128 + signum


def _run(args: argparse.Namespace, lecture: LectureFile) -> int:
    """What main does once the lecture file is loaded (its own words in force)."""
    apply_lecture(args, lecture)
    check_voices(args)
    chapters = lecture.chapters
    planned = [c.name for c in load_plan(args.plan)] if args.scenes else []
    selected = select(chapters, args.scenes, planned)
    if args.list:
        list_chapters(args, lecture.config, chapters)
        return 0
    if (args.out / DATA_NAME).is_dir():  # a file renames over a pipe, never a folder
        raise UsageError(
            f"{args.out / DATA_NAME} is a folder: remove it (the data file goes there)"
        )
    if args.record:
        return record(args)
    if args.narration_script:
        check_writable(args.out)
        with FolderLock(args.out, wait=args.wait):
            return write_narration_script(args, lecture.config, chapters, selected)
    check_narration(args, selected)  # every check before the output folder is made
    check_voice_files(args)
    check_page_library()
    check_writable(args.out)
    with FolderLock(args.out, wait=args.wait):
        return render(args, lecture.config, chapters, selected)


if __name__ == "__main__":
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `render.py --list | head` ends quietly
    sys.exit(main())
