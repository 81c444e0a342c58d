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
import json
import os
import shlex
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from lecture.jobs import ENCODER_OPTIONS
from lecture.lock import FolderInUseError, FolderLock
from lecture.presets import PRESETS, Preset
from lecture.records import expected_record, read_record, write_record
from model.atomic import copy_atomic, write_json_atomic
from model.config import ConfigError, LectureConfig
from model.datafile import is_current
from scenes.locale import LocaleError, available_languages
from scenes.registry import DEFAULT_PLAN, Chapter, PlanError, load_plan

DATA_NAME = "data.json"


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
        default="high",
        choices=list(PRESETS),
        help="low 480p15, medium 720p30, high 1080p30, production 1080p60, 4k 2160p60",
    )
    parser.add_argument("--fps", type=float, help="override the preset's frame rate")
    parser.add_argument("--scenes", help="comma-separated scene names (default: all)")
    parser.add_argument("--list", action="store_true", help="list the chapters and exit")
    parser.add_argument("--out", type=Path, default=Path("out"), help="output folder")
    parser.add_argument("--config", type=Path, help="TOML file overriding the default config")
    parser.add_argument("--plan", type=Path, default=DEFAULT_PLAN, help="the lecture file")
    parser.add_argument("--lang", default="zh-TW", help="language of words and subtitles")
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="scenes rendered at once (default: the number of cores)",
    )
    parser.add_argument("--force", action="store_true", help="render every scene again")
    parser.add_argument(
        "--wait", action="store_true", help="wait while another run uses the output folder"
    )
    parser.add_argument("--verbose", action="store_true", help="show Manim's own output")
    args = parser.parse_args(argv)
    if args.lang not in available_languages():
        raise UsageError(
            f"unknown language '{args.lang}' (allowed: {', '.join(available_languages())})"
        )
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.fps is not None and not 1 <= args.fps <= 120:
        raise UsageError(f"--fps must be between 1 and 120, got {args.fps:g}")
    args.preset = PRESETS[args.quality].with_fps(args.fps)
    return args


def select(chapters: tuple[Chapter, ...], names: str | None) -> list[Chapter]:
    if not names:
        return list(chapters)
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    known = [c.name for c in chapters]
    unknown = [n for n in wanted if n not in known]
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

    def __init__(self, out: Path, data: dict | None, lang: str, preset: Preset) -> None:
        self.dir = out / "segments"
        self.work = out / ".work"
        self.data, self.lang, self.preset = data, lang, preset
        self._expected: dict[str, dict] = {}

    def paths(self, chapter: Chapter) -> tuple[Path, Path, Path]:
        base = self.dir / chapter.name
        return base.with_suffix(".mp4"), base.with_suffix(".srt"), base.with_suffix(".json")

    def expected(self, chapter: Chapter) -> dict:
        """The record a segment made now would carry (hashing sources once per run)."""
        if chapter.name not in self._expected:
            self._expected[chapter.name] = expected_record(
                chapter, self.data, self.lang, self.preset, ENCODER_OPTIONS
            )
        return self._expected[chapter.name]

    def state(self, chapter: Chapter) -> str:
        video, _, record_path = self.paths(chapter)
        record = read_record(record_path) if video.is_file() else None
        if record is None:
            return "missing"
        return "current" if record == self.expected(chapter) else "stale"

    def install(self, chapter: Chapter, video: Path) -> None:
        """Copy a finished render into place; the record goes last."""
        self.dir.mkdir(parents=True, exist_ok=True)
        target, subtitles, record = self.paths(chapter)
        record.unlink(missing_ok=True)  # until the new record lands, the segment is stale
        if video.with_suffix(".srt").is_file():
            copy_atomic(video.with_suffix(".srt"), subtitles)
        else:
            subtitles.unlink(missing_ok=True)
        copy_atomic(video, target)
        write_record(record, self.expected(chapter))

    def clean_leftovers(self) -> None:
        for folder in (self.dir, self.dir.parent):
            for tmp in folder.glob(".*.tmp") if folder.is_dir() else ():
                tmp.unlink(missing_ok=True)


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = round(width * done / total) if total else width
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"


def rerun_hint(args: argparse.Namespace, chapter: Chapter) -> str:
    """The command that renders one chapter alone, into the same lecture."""
    command = [sys.executable, "render.py", "--scenes", chapter.name, "--quality", args.quality]
    command += ["--out", str(args.out), "--plan", str(args.plan), "--lang", args.lang]
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
    """Render what is stale among ``selected``, then assemble if every chapter is current."""
    from lecture.assemble import AssemblyError, SegmentFile, assemble
    from lecture.jobs import Job, Runner

    start = time.perf_counter()
    data_path = args.out / DATA_NAME
    ensure_data(config, data_path)
    segments = Segments(args.out, json.loads(data_path.read_text()), args.lang, args.preset)
    segments.clean_leftovers()
    # Every input is hashed here, once, before anything renders: an edit made during the
    # render makes the segment stale next time instead of being recorded as rendered.
    states = {c.name: segments.state(c) for c in chapters}
    todo = [c for c in selected if args.force or states[c.name] != "current"]
    skipped = len(selected) - len(todo)
    print(
        f"render: {len(todo)} to render, {skipped} unchanged, {args.preset}, "
        f"{min(args.jobs, max(len(todo), 1))} at once"
    )
    for chapter in selected:
        if chapter not in todo:
            print(f"  skip   {chapter.name} (unchanged)")
    env = {
        **os.environ,
        "LECTURE_DATA": str(data_path.resolve()),
        "LECTURE_LANG": args.lang,
        "LECTURE_PLAN": str(args.plan.resolve()),
    }
    jobs = [Job(c, args.preset, segments.work / c.name, env) for c in todo]
    done, failed = 0, []

    def started(job: Job) -> None:
        print(f"  start  {job.chapter.name}", flush=True)

    def ended(result) -> None:
        nonlocal done
        done += 1
        name = result.job.chapter.name
        if args.verbose:
            print(result.output)
        if result.ok:
            segments.install(result.job.chapter, result.job.video())
            shutil.rmtree(result.job.media_dir, ignore_errors=True)
            print(f"  done   {name} ({result.seconds:.1f} s)  {_bar(done, len(jobs))}", flush=True)
        else:
            failed.append(result)
            print(f"  FAILED {name} ({result.seconds:.1f} s)  {_bar(done, len(jobs))}", flush=True)

    try:
        Runner(args.jobs).run(jobs, started, ended)
    finally:
        shutil.rmtree(segments.work, ignore_errors=True)  # ours alone: the folder is locked
    for result in failed:
        chapter = result.job.chapter
        print(f"render.py: error: scene {chapter.name} failed:", file=sys.stderr)
        for line in result.error:
            print(f"    {line}", file=sys.stderr)
        print(f"  re-run it alone: {rerun_hint(args, chapter)}", file=sys.stderr)
    missing = [c.name for c in chapters if segments.state(c) != "current"]
    if failed or missing:
        if missing and not failed:
            print(f"render: lecture.mp4 not assembled: segments not current: {', '.join(missing)}")
        return 1 if failed else 0
    title = chapters[0].title(args.lang) if chapters else ""
    files = [SegmentFile(c.title(args.lang), *segments.paths(c)[:2]) for c in chapters]
    try:
        lecture = assemble(files, args.out, args.lang, title)
    except AssemblyError as err:
        print(f"render.py: error: {err}", file=sys.stderr)
        return 1
    print(
        f"render: lecture {lecture.duration:.1f} s, {len(chapters)} chapters, "
        f"{len(todo)} rendered, {skipped} skipped, in {time.perf_counter() - start:.1f} s"
    )
    for path in (lecture.video, lecture.srt, lecture.vtt, lecture.chapters, segments.dir):
        print(f"  {path}")
    return 0


def list_chapters(args: argparse.Namespace, config: LectureConfig, chapters: tuple[Chapter, ...]):
    """What a render would do: each chapter current, stale or missing."""
    data_path = args.out / DATA_NAME
    data = None
    if is_current(data_path, config):
        data = json.loads(data_path.read_text(encoding="utf-8"))
    else:
        print(f"data: {data_path} is missing or was made otherwise: a render re-makes it first")
    segments = Segments(args.out, data, args.lang, args.preset)
    for k, chapter in enumerate(chapters, start=1):
        if data is not None:
            state = segments.state(chapter)
        else:  # the data will change: a segment there is stale
            state = "stale" if segments.paths(chapter)[0].is_file() else "missing"
        print(f"{k:2d}. {chapter.name:20} {state:8} {chapter.title(args.lang)}")


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse_args(argv)
        chapters = load_plan(args.plan)
        for chapter in chapters:
            chapter.check(f"lecture file {args.plan}", [args.lang])
        selected = select(chapters, args.scenes)
        config = LectureConfig.from_file(args.config) if args.config else LectureConfig()
        if args.list:
            list_chapters(args, config, chapters)
            return 0
        check_writable(args.out)
        with FolderLock(args.out, wait=args.wait):
            return render(args, config, chapters, selected)
    except (UsageError, ConfigError, PlanError, LocaleError, FolderInUseError) as err:
        print(f"render.py: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # a full disk, a read-only folder
        where = f"{err.filename}: " if err.filename else ""
        print(f"render.py: error: cannot write: {where}{err.strerror or err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as err:
        signum = getattr(err, "signum", signal.SIGINT)
        print("render.py: interrupted; finished segments are kept", file=sys.stderr)
        return 128 + signum


if __name__ == "__main__":
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _terminate)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `render.py --list | head` ends quietly
    sys.exit(main())
