"""One run of the lecture, typed and frozen: the command's flags and the lecture file, in one
object built once (:meth:`Run.build`) and read by every step of :mod:`pipeline.run`.

Nothing after :meth:`Run.build` reads a flag or the lecture file again: what a flag leaves
open, the lecture file fills (languages, quality, theme, voices), and what neither gives is
the built-in lecture file's (``common/default_lecture.toml``, already merged into the loaded
file). A bad combination is a :class:`UsageError`, one line, before anything runs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Literal

from common.defaults import DEFAULT_LECTURE
from common.files import inside, resolved
from common.voices import VoiceKind
from pipeline.serve import MAX_PORT
from syllabus.lecture_file import KokoroChoice, LectureFile
from syllabus.plan import DEFAULT_PLAN, Chapter
from syllabus.presets import PRESETS, Preset

Action = Literal["list", "record", "script", "serve", "render"]
LOCAL = "local:"  # --cluster local:N, a LocalCluster of N worker processes here
# The memory a local worker may take: a Dask worker process and the Manim scene it renders
# at 1080p (its frames, its cached outlines and texts), with room to spare.
WORKER_MEMORY = 2**30
DATA_NAME = "data.json"
VOICE_CACHE = "voice-cache"  # synthesised and normalised lines, shared by every run into out
RENDER_CACHE = ".cache"  # formulas' and texts' SVGs, shared by the workers and every run
RECORD_PORT = 8765  # the recorder's default --port


class UsageError(Exception):
    """A bad flag or value: one line, exit code 2."""


@dataclass(frozen=True)
class Flags:
    """What the command line says (None: the lecture file's, or the default)."""

    out: Path = Path("out")
    config: Path | None = None
    plan: Path = DEFAULT_PLAN
    langs: tuple[str, ...] | None = None
    quality: str | None = None
    fps: float | None = None
    scenes: str | None = None
    jobs: int = 1
    cluster: str | None = None
    voice: VoiceKind | None = None
    narration: Path | None = None
    port: int = RECORD_PORT
    force: bool = False
    wait: bool = False
    verbose: bool = False
    action: Action = "render"

    def __post_init__(self) -> None:
        if self.cluster is not None:
            check_cluster(self.cluster)
        if self.jobs < 1:
            raise UsageError(f"--jobs must be at least 1, got {self.jobs}")
        if self.fps is not None and not 1 <= self.fps <= 120:
            raise UsageError(f"--fps must be between 1 and 120, got {self.fps:g}")
        if not 1 <= self.port <= MAX_PORT:
            raise UsageError(f"--port must be between 1 and {MAX_PORT}, got {self.port}")


def usable_cores() -> int:
    """The cores this process may run on (its affinity, as a container or taskset limits it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def available_memory() -> int:
    """Bytes of memory free for new processes now (Linux's MemAvailable; else free pages)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def local_workers_bound() -> int:
    """The most worker processes ``local:N`` may start here: one a core, and
    :data:`WORKER_MEMORY` of free memory each (at least one)."""
    return max(1, min(usable_cores(), available_memory() // WORKER_MEMORY))


def check_cluster(address: str) -> None:
    """``--cluster`` is a scheduler's address or ``local:N``, N within what this machine
    holds (:func:`local_workers_bound`) (checked before anything runs; whether a scheduler
    answers there is known when the run connects)."""
    count = address.removeprefix(LOCAL) if address.startswith(LOCAL) else None
    if count is not None and (not re.fullmatch(r"[0-9]+", count) or not count.strip("0")):
        raise UsageError(
            f"--cluster {address[:40]}: give local:N, N worker processes here (N >= 1)"
        )
    # never int() of thousands of digits: past nine, the count is past any machine's bound
    if count is not None and (len(count) > 9 or int(count) > local_workers_bound()):
        most = local_workers_bound()
        raise UsageError(
            f"--cluster {address[:40]}: this machine holds at most {most} worker processes "
            f"({usable_cores()} cores, {available_memory() / 2**30:.1f} GiB of memory free, "
            f"{WORKER_MEMORY // 2**30} GiB a worker): give local:{most} or fewer"
        )
    # ASCII only: a host name, or an IPv6 address in brackets, and a port of 1 to 65535
    host = r"(?:[A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\])"
    found = re.fullmatch(rf"(?:[a-z]+://)?{host}:([0-9]{{1,5}})", address)
    if count is None and (found is None or not 1 <= int(found.group(1)) <= MAX_PORT):
        raise UsageError(
            f"--cluster {address}: give a Dask scheduler's address, tcp://HOST:PORT "
            "(dask scheduler listens on 8786), or local:N"
        )


@dataclass(frozen=True)
class Run:
    """Everything one run of the lecture is made with: built once, never changed."""

    flags: Flags
    lecture: LectureFile
    langs: tuple[str, ...]
    quality: str
    preset: Preset
    voice: VoiceKind  # every chapter's voice unless chapter_voices says otherwise
    voices: Mapping[str, KokoroChoice]  # each language's voice of the lecture file's [voices]
    chapter_voices: Mapping[str, VoiceKind] = field(default_factory=dict)
    selected: tuple[Chapter, ...] = ()  # the chapters --scenes names (all by default)

    @classmethod
    def build(cls, flags: Flags, lecture: LectureFile, planned: tuple[str, ...] = ()) -> Run:
        """The run of ``flags`` over ``lecture``; ``planned``: every chapter name of the plan,
        so that one the lecture file leaves out is named as such."""
        quality = flags.quality or lecture.quality
        forced = flags.voice is not None  # --voice: every chapter, whatever the file says
        return cls(
            flags=flags,
            lecture=lecture,
            langs=tuple(lecture.languages),  # the file's, or --lang's (load_lecture took them)
            quality=quality,
            preset=PRESETS[quality].with_fps(flags.fps),
            voice=VoiceKind(flags.voice or lecture.voice),
            voices=MappingProxyType(dict(lecture.voices)),
            chapter_voices=MappingProxyType({} if forced else dict(lecture.chapter_voices)),
            selected=tuple(select(lecture.chapters, flags.scenes, planned)),
        )

    @property
    def out(self) -> Path:
        return self.flags.out

    @property
    def plan(self) -> Path:
        """The scenes the lecture file chooses from."""
        return self.flags.plan

    @property
    def chapters(self) -> tuple[Chapter, ...]:
        return self.lecture.chapters

    @property
    def theme(self) -> str:
        return self.lecture.theme

    @property
    def first(self) -> str:
        """The lecture file's first language: its lecture is in ``out`` itself."""
        return self.lecture.first

    @property
    def several(self) -> bool:
        return len(self.langs) > 1

    @property
    def source(self) -> str:
        """The lecture file, as a message names it."""
        return f"lecture file {self.flags.config or DEFAULT_LECTURE}"

    @property
    def data_path(self) -> Path:
        return self.out / DATA_NAME

    @property
    def render_cache(self) -> Path:
        return self.out / RENDER_CACHE

    @property
    def voice_cache(self) -> Path:
        return self.out / VOICE_CACHE

    def tag(self, lang: str) -> str:
        """`` [en]`` in a line about one language's scene, when several render."""
        return f" [{lang}]" if self.several else ""

    def lang_out(self, lang: str) -> Path:
        """Where a language's lecture goes, however many render: the lecture file's first
        language in ``out`` itself, every other in ``out/<lang>`` (so adding a language, or
        rendering one alone, never moves another)."""
        return self.out if lang == self.first else inside(self.out, lang)

    def narration_folder(self, lang: str) -> Path | None:
        """A language's recordings, laid out as its lecture is: the lecture file's first
        language in ``--narration`` itself, every other in ``--narration/<lang>``."""
        folder = self.flags.narration
        if folder is None:
            return None
        return resolved(
            folder if lang == self.first else inside(folder, lang), "--narration", UsageError
        )


def select(
    chapters: tuple[Chapter, ...], names: str | None, planned: tuple[str, ...] = ()
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
