"""One run of the lecture, from its :class:`~pipeline.options.Run` to lecture.mp4: the data
file, the stale segments rendered on the workers (every language's at once), then each
language's lecture assembled. Also the run's other actions: the chapter list, the narration
script, the recorder and the lecture's server.

The driver of the pipeline: it alone imports the torch side (training, inside
:func:`ensure_data`) and the gates (the narration script's dry run, inside
:func:`write_narration_script`), each only when needed, as render.py did.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common.atomic import write_json_atomic
from common.settings import Settings, VoiceSettings, settings
from common.timers import parent_share, profile_file
from model.config import LectureConfig
from model.datafile import is_current
from pipeline.checks import check_page_library, check_writable, disk_full
from pipeline.jobs import Job, JobResult, RenderTimes, Runner, drop_damaged, worker_env
from pipeline.layout import settle_layout
from pipeline.lecture import assemble_language
from pipeline.lock import FolderLock
from pipeline.options import Run, UsageError
from pipeline.segments import Segments
from pipeline.voicing import (
    check_narration,
    check_voice_files,
    check_voices,
    open_voice_cache,
    voice_record,
)
from pipeline.voicing import voices_in as voices_of
from syllabus.plan import Chapter


def run(r: Run) -> int:
    """Carry out the run (its lecture file's own words already in force): 0 when done."""
    if r.flags.action == "serve":  # what is there: no voice, no data file, no render
        return serve(r)
    check_voices(r)
    if r.flags.action == "list":
        list_chapters(r)
        return 0
    if r.data_path.is_dir():  # a file renames over a pipe, never a folder
        raise UsageError(f"{r.data_path} is a folder: remove it (the data file goes there)")
    if r.flags.action == "record":
        return record(r)
    if r.flags.action == "script":
        check_writable(r.out)
        with FolderLock(r.out, wait=r.flags.wait):
            return write_narration_script(r)
    check_narration(r)  # every check before the output folder is made
    check_voice_files(r)
    check_page_library()
    check_writable(r.out)
    with FolderLock(r.out, wait=r.flags.wait):
        return render(r)


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


def segments_of(r: Run, lang: str, data: dict[str, Any] | None) -> Segments:
    """One language's segments, each chapter voiced as the run says."""
    return Segments(
        r.lang_out(lang), data, lang, r.preset, r.theme, voices_of(r, lang), voice_record
    )


def lecture_settings(r: Run, lang: str, voice: VoiceSettings | None = None) -> Settings:
    """What a scene of this lecture is rendered with in ``lang``: the one place a worker's
    settings are made, for the render and for the narration script's dry run alike."""
    return Settings(
        lang=lang,
        theme=r.theme,
        data=r.data_path.resolve(),
        plan=r.plan.resolve(),
        chapters=tuple(c.name for c in r.chapters),
        locales=settings().locales,  # the environment's and the lecture file's folders
        words=settings().words,  # the lecture file's own words
        cache=r.render_cache.resolve(),
        voice=voice,
        profile=profile_folder(r),
    )


def profile_folder(r: Run) -> Path | None:
    """Where the run's CPU time is profiled (:mod:`common.timers`): this machine's workers
    only (a cluster's would write on their own machines)."""
    folder = settings().profile
    return None if folder is None or r.flags.cluster else folder.resolve()


@dataclass
class Progress:
    """The run's jobs, each language's segments, and what has ended so far."""

    r: Run
    segments: dict[str, Segments]
    todo: dict[str, list[Chapter]]
    jobs: list[Job] = field(default_factory=list)
    done: int = 0
    failed: list[JobResult] = field(default_factory=list)

    @property
    def unchanged(self) -> int:
        return len(self.r.selected) * len(self.r.langs) - len(self.jobs)

    def name(self, job: Job) -> str:
        return f"{job.chapter.name}{self.r.tag(job.lang)}"

    def started(self, job: Job) -> None:
        print(f"  start  {self.name(job)}", flush=True)

    def ended(self, result: JobResult) -> None:
        """Install a finished segment (its narration mixed in), or note its failure."""
        self.done += 1
        job = result.job
        if self.r.flags.verbose:
            print(result.output)
        bar = _bar(self.done, len(self.jobs))
        if not result.ok:
            self.failed.append(result)
            print(f"  FAILED {self.name(job)} ({result.seconds:.1f} s)  {bar}", flush=True)
            return
        segments = self.segments[job.lang]
        rendered = video = job.video()
        if segments.voice_of(job.chapter) is not None:
            from pipeline.soundtrack import add_narration  # av, numpy: with a voice only

            with parent_share("mixing", self.profiles(job.lang, [job.chapter])):
                video = add_narration(rendered)  # the lines' clips, mixed into an AAC track
        segments.install(job.chapter, video, rendered)
        shutil.rmtree(job.media_dir, ignore_errors=True)
        print(f"  done   {self.name(job)} ({result.seconds:.1f} s)  {bar}", flush=True)

    def profiles(self, lang: str, chapters: list[Chapter]) -> list[Path]:
        """The chapters' profile files (:mod:`common.timers`), when a profile is asked for."""
        folder = profile_folder(self.r)
        return [] if folder is None else [profile_file(folder, lang, c.name) for c in chapters]

    def last_lines(self, job: Job) -> Path:
        """The lines file of a job's segment as last installed (a cluster's worker is sent
        the clips it names)."""
        return self.segments[job.lang].lines(job.chapter)


def plan_jobs(r: Run, data: dict[str, Any]) -> Progress:
    """What is stale among the selected chapters in every language, as jobs. Every input is
    hashed here, once, before anything renders."""
    segments, todo = {}, {}
    for lang in r.langs:
        segments[lang] = made = segments_of(r, lang, data)
        made.clean_leftovers()
        states = {c.name: made.state(c) for c in r.chapters}
        todo[lang] = [c for c in r.selected if r.flags.force or states[c.name] != "current"]
    progress = Progress(r, segments, todo)
    for lang, chapters in todo.items():
        for chapter in chapters:
            env = worker_env(lecture_settings(r, lang, segments[lang].voice_of(chapter)))
            work = segments[lang].work / chapter.name
            progress.jobs.append(Job(chapter, r.preset, work, env, lang))
    return progress


def render(r: Run) -> int:
    """Render what is stale among the selected chapters in every language (all scenes of all
    languages spread over the workers), then assemble each language whose chapters are all
    current."""
    start = time.perf_counter()
    open_voice_cache(r)  # the lock held: what it removes is this run's
    ensure_data(r.lecture.config, r.data_path)
    data = json.loads(r.data_path.read_text(encoding="utf-8"))
    settle_layout(r)
    progress = plan_jobs(r, data)
    run_jobs(r, progress)
    if progress.failed:
        report_failures(r, progress.failed)
        return 1
    for lang in r.langs:
        chapters = progress.profiles(lang, list(r.chapters))
        with parent_share("assembly", chapters):
            status = assemble_language(r, lang, progress.segments[lang])
        if status:
            return status
    print(
        f"render: {len(r.chapters)} chapters, {len(progress.jobs)} rendered, "
        f"{progress.unchanged} skipped, in {time.perf_counter() - start:.1f} s"
    )
    return 0


def run_jobs(r: Run, progress: Progress) -> None:
    """Render the jobs on this machine's pool or the cluster, printing each start and end."""
    jobs = progress.jobs
    with runner_for(r, bool(jobs), progress.last_lines) as runner:
        print(
            f"render: {len(jobs)} to render, {progress.unchanged} unchanged, "
            f"{r.preset}, {min(runner.slots, max(len(jobs), 1))} at once"
            + (f" on {r.flags.cluster}" if r.flags.cluster else "")
            + (f", in {', '.join(r.langs)}" if r.several else "")
        )
        for lang, todo in progress.todo.items():
            for chapter in r.selected:
                if chapter not in todo:
                    print(f"  skip   {chapter.name}{r.tag(lang)} (unchanged)")
        if jobs:  # a damaged cache is as good as none (a run with nothing to render reads none)
            drop_damaged(r.render_cache)
        times = RenderTimes.in_folder(r.render_cache)
        try:
            times.record(runner.run(times.longest_first(jobs), progress.started, progress.ended))
        finally:
            for segments in progress.segments.values():  # ours alone: the folder is locked
                shutil.rmtree(segments.work, ignore_errors=True)


def runner_for(
    r: Run, needed: bool, last_lines: Callable[[Job], Path]
) -> contextlib.AbstractContextManager:
    """What renders the jobs: this machine's pool of ``--jobs`` workers, or the Dask cluster
    of ``--cluster`` (connected to, and its workers' code checked, only when there is work)."""
    if r.flags.cluster is None or not needed:
        return contextlib.nullcontext(Runner(r.flags.jobs))
    from pipeline.cluster import ClusterRunner

    return ClusterRunner(r.flags.cluster, last_lines)


def report_failures(r: Run, failed: list[JobResult]) -> None:
    """Each failed scene, its essential lines and the command that re-runs it alone; a
    full disk is one line instead (no scene is wrong, the disk is)."""
    # A cluster's scenes fail on the workers' disks, and each failure names its worker.
    full = None if r.flags.cluster else disk_full(r.out, [result.output for result in failed])
    if full:
        raise UsageError(full)
    for result in failed:
        chapter = result.job.chapter
        where = f"{chapter.name}{r.tag(result.job.lang)}"
        print(f"render.py: error: scene {where} failed:", file=sys.stderr)
        for line in result.error:
            print(f"    {line}", file=sys.stderr)
        print(f"  re-run it alone: {rerun_hint(r, chapter)}", file=sys.stderr)


def rerun_hint(r: Run, chapter: Chapter) -> str:
    """The command that renders one chapter alone, into the same lecture."""
    command = [sys.executable, "render.py", "--scenes", chapter.name, "--quality", r.quality]
    command += ["--out", str(r.out), "--plan", str(r.plan), "--lang", ",".join(r.langs)]
    if r.flags.config:
        command += ["--config", str(r.flags.config)]
    if r.flags.fps:
        command += ["--fps", f"{r.flags.fps:g}"]
    return shlex.join([*command, "--verbose"])


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = round(width * done / total) if total else width
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"


def list_chapters(r: Run) -> None:
    """What a render would do: each chapter current, stale or missing, in each language."""
    data = None
    if is_current(r.data_path, r.lecture.config):
        data = json.loads(r.data_path.read_text(encoding="utf-8"))
    else:
        print(f"data: {r.data_path} is missing or was made otherwise: a render re-makes it first")
    for lang in r.langs:
        if r.several:
            print(f"[{lang}] {r.lang_out(lang)}")
        segments = segments_of(r, lang, data)  # a segment voiced otherwise is stale
        for k, chapter in enumerate(r.chapters, start=1):
            if data is not None:
                state = segments.state(chapter)
            else:  # the data will change: a segment there is stale
                state = "stale" if segments.paths(chapter)[0].is_file() else "missing"
            print(f"{k:2d}. {chapter.name:20} {state:8} {chapter.title(lang)}")


def record(r: Run) -> int:
    """Serve the recorder for the --narration folder (its script) until Ctrl-C."""
    from pipeline.recorder import serve
    from voice.clips import VoiceError

    if r.flags.narration is None:
        raise UsageError("--record needs --narration FOLDER (write its script first)")
    folder = r.narration_folder(r.langs[0]) or r.flags.narration
    try:
        server = serve(folder, r.langs[0], r.flags.port)
    except VoiceError as err:
        raise UsageError(str(err)) from None
    except OSError as err:  # the port is taken
        raise UsageError(f"--port {r.flags.port}: {err.strerror}") from None
    print(f"record: open {server.url} (Ctrl-C ends)", flush=True)
    with server:
        server.serve_forever()
    return 0


def serve(r: Run) -> int:
    """Serve the lecture folder of the run's first language, as rendered, until Ctrl-C."""
    from pipeline.serve import ServeError, make_server, serve_until_stopped

    folder = r.lang_out(r.langs[0])
    try:
        server = make_server(folder, r.flags.port)
    except ServeError as err:
        raise UsageError(f"--serve: {err}") from None
    return serve_until_stopped(server, folder)


def write_narration_script(r: Run) -> int:
    """Dry-run the chapters with the lecture's own settings (its plan, chapters and theme,
    exactly as the render's workers get them) and write the lines to record."""
    from pipeline.narration import write_script
    from scenes.gates.script import collect_lines  # imports Manim

    ensure_data(r.lecture.config, r.data_path)
    for lang in r.langs:
        folder = r.narration_folder(lang) or r.lang_out(lang) / "narration"
        media = r.out / ".work" / "narration-script"
        made = lecture_settings(r, lang)
        lecture = {"plan": made.plan, "chapters": made.chapters, "theme": made.theme}
        words = {"locales": made.locales, "words": made.words}
        entries = collect_lines(list(r.selected), lang, r.data_path, media, lecture | words)
        shutil.rmtree(media, ignore_errors=True)
        for path in write_script(folder, lang, entries):
            print(f"  {path}")
        print(f"narration: {len(entries)} lines to record in {lang}")
    return 0
