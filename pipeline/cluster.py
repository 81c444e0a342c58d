"""Render scenes on a Dask cluster: the jobs of :mod:`pipeline.jobs`, each sent to a worker
with what it needs, its segment's files brought back as bytes.

``render.py --cluster tcp://host:8786`` sends each stale scene to a Dask scheduler's
workers (``dask scheduler``, ``dask worker``); ``--cluster local:N`` starts a LocalCluster of
N worker processes here. What stays with the client: the segment records (it alone decides
what is stale), the installing (:meth:`pipeline.segments.Segments.install`'s atomic writes,
as a local run's), the mixing of a voice into the segment, and the caches of its output folder.

What travels with a job (:class:`Shipped`), since a worker shares no file system with the
client: the data file, the lecture file (its own words), the locale folders in use, the plan
(rewritten to the worker's checkout; a chapter of an instructor's own travels as its file),
the settings, the scene's recordings, and the voice clips its last render used. What comes
back (:class:`Returned`): the video, its subtitles and lines, and the clips the worker made.

A worker needs the same checkout and set-up as the client (``make setup``) and nothing else:
:func:`project_code` is compared with every worker's before anything is sent, and again by
each job on the worker that runs it. A worker killed mid-scene loses its job to another
(the scheduler's ``allowed-failures``); nothing of a job is installed until its bytes have
all come back. Imports Dask only here, and only when a run uses a cluster.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from common.atomic import atomic_path
from common.closure import FRAME_PACKAGES, ROOT, package_versions, project_digest
from common.files import LinesFile, OwnFileError, inside
from common.processes import PARENT_PID
from common.settings import Settings
from pipeline.jobs import Job, JobResult, drop_damaged, essential_lines, worker_env
from pipeline.options import LOCAL
from syllabus.plan import DEFAULT_PLAN, Chapter, load_plan
from syllabus.presets import Preset

CONNECT_SECONDS = 10  # for the scheduler to answer
WORKER_SECONDS = 60  # for a first worker to join it
POLL_SECONDS = 0.5  # how often a job on a worker asks whether it is still wanted
SATURATION = "DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION"
TOPIC = "attention-lecture-start"  # the workers' "this job starts here" events


class ClusterError(Exception):
    """The cluster cannot take the run (no scheduler, no worker, a worker of other code):
    one line, exit code 2."""


class ClusterLost(KeyboardInterrupt):
    """The scheduler went away mid-run: the run ends as Ctrl-C ends it (finished segments
    are kept, the next run resumes)."""


class WorkerCodeError(RuntimeError):
    """A job reached a worker whose code differs from the client's."""


def project_code() -> dict[str, str]:
    """What a worker must share with the client for its frames to be the client's: the
    digest of the project's code and tables as they are on disk now (what the job's scene
    process will import, even if the worker started before a ``git pull``), the Python,
    and the packages that draw, encode and speak."""
    return {"project code": project_digest()[:16], **package_versions(packages())}


def packages() -> tuple[str, ...]:
    """What a segment is made with besides the project's code: what draws and encodes a
    frame, and what speaks a line (the phonemisers and the model's runtime)."""
    from voice.engines.kokoro import G2P_PACKAGES

    return (*FRAME_PACKAGES, *G2P_PACKAGES)


def difference(theirs: dict[str, str], ours: dict[str, str]) -> str | None:
    """The first thing in which a worker's :func:`project_code` differs from ours, in words."""
    for what, value in ours.items():
        if theirs.get(what) != value:
            return f"its {what} is {theirs.get(what, 'missing')}, this checkout's {value}"
    return None


@dataclass(frozen=True)
class Shipped:
    """One job as it travels: the scene, and every file it reads, by its place in the job's
    own folder on the worker (the settings' paths are relative to that folder)."""

    name: str
    class_name: str
    scene: str  # "project:<path in the checkout>" or "job:<path in the job's folder>"
    plan: tuple[tuple[str, str, str, str | None], ...] | None  # None: the project's own
    preset: Preset
    settings: Settings
    files: dict[str, bytes]
    code: dict[str, str]
    key: str = ""  # the job's name in the cluster: "<scene> <language>"


@dataclass
class Returned:
    """What a job sends back: how it went, and the files it made."""

    ok: bool
    seconds: float
    output: str
    worker: str
    video: bytes | None = None
    subtitles: bytes | None = None
    lines: bytes | None = None
    clips: dict[str, bytes] = field(default_factory=dict)  # the voice clips it made


def _read(path: Path) -> bytes:
    return Path(path).read_bytes()


def _place(chapter: Chapter, k: int, files: dict[str, bytes]) -> str:
    """Where a chapter's scene file is on the worker: the project's in its checkout, any
    other (an instructor's own) sent along."""
    if chapter.in_project:
        return f"project:{chapter.file.relative_to(ROOT)}"
    name = f"chapters/{k}/{chapter.file.name}"
    files[name] = _read(chapter.file)
    return f"job:{name}"


def pack(
    job: Job, previous_lines: Path | None = None, code: dict[str, str] | None = None
) -> Shipped:
    """A job, with what its worker needs and cannot assume; ``previous_lines``: the lines
    of this scene's last segment, whose voice clips (if the client still has them) are sent
    so that the worker says nothing twice; ``code``: this checkout's :func:`project_code`
    (made once per run)."""
    made = Settings.from_env(job.env)
    files: dict[str, bytes] = {"data.json": _read(made.data)}
    shipped = replace(made, data=Path("data.json"), cache=None)
    plan = None
    if made.plan is not None and made.plan.resolve() != DEFAULT_PLAN.resolve():
        plan = tuple(
            (c.name, _place(c, k, files), c.class_name, c.part)
            for k, c in enumerate(load_plan(made.plan))
        )
        shipped = replace(shipped, plan=Path("plan.toml"))
    else:
        shipped = replace(shipped, plan=None)
    locales = []
    for k, folder in enumerate(made.locales):
        for table in sorted(folder.glob("*.toml")):
            files[f"locales/{k}/{table.name}"] = _read(table)
        locales.append(Path(f"locales/{k}"))
    shipped = replace(shipped, locales=tuple(locales))
    if made.words is not None:
        files["lecture.toml"] = _read(made.words)
        shipped = replace(shipped, words=Path("lecture.toml"))
    voice = made.voice
    if voice is not None:
        from voice.clips import FORMATS, cached  # numpy: with a voice only

        narration = None
        if voice.narration:
            key = job.chapter.scene_key or job.chapter.name
            takes = Path(voice.narration) / key
            for take in sorted(takes.glob("*")) if takes.is_dir() else ():
                if take.suffix in FORMATS and take.is_file():
                    files[f"narration/{key}/{take.name}"] = _read(take)
            narration = "narration"
        for name in _clips_used(previous_lines):
            clip = Path(voice.cache) / name
            if cached(clip):
                files[f"voice/{name}"] = _read(clip)
        shipped = replace(shipped, voice=replace(voice, narration=narration, cache="voice"))
    if plan is None:  # the project's own plan: the scene is in the worker's checkout
        scene = _place(job.chapter, 0, files)
    else:
        scene = next(place for name, place, _, _ in plan if name == job.chapter.name)
    return Shipped(
        job.chapter.name,
        job.chapter.class_name,
        scene,
        plan,
        job.preset,
        shipped,
        files,
        code or project_code(),
        job.key(),
    )


def _clips_used(lines: Path | None) -> list[str]:
    """The voice clips a segment's lines name: each line's clip and its cues' clips."""
    if lines is None or not lines.is_file():
        return []
    try:
        said = LinesFile.read(lines).lines
    except OwnFileError:
        return []
    names = [Path(line.clip).name for line in said if line.clip]
    return list(dict.fromkeys(names + [part for line in said for part in line.parts or ()]))


# ---- on the worker ----------------------------------------------------------------------


_DROPPED: list[Path] = []  # the formula cache this worker process has checked
JOB_PREFIX = "lecture-job-"  # a job's folder on a worker: lecture-job-<worker pid>-<random>


def _worker_cache() -> Path:
    """The worker's own formula cache, shared by its jobs and runs (named by content, so it
    never goes stale). Once per worker process, its damaged entries are dropped, and so are
    the job folders of workers that died (``kill -9`` leaves them)."""
    folder = Path(tempfile.gettempdir()) / f"attention-lecture-{os.getuid()}" / "render-cache"
    if not _DROPPED:
        drop_damaged(folder)
        _DROPPED.append(folder)
        for left in Path(tempfile.gettempdir()).glob(f"{JOB_PREFIX}*-*"):
            pid = left.name.removeprefix(JOB_PREFIX).split("-")[0]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists() and left.is_dir():
                shutil.rmtree(left, ignore_errors=True)
    return folder


def _plan_toml(plan: tuple[tuple[str, str, str, str | None], ...], folder: Path) -> str:
    """A plan of the worker's own paths (TOML's basic strings take JSON's escapes)."""
    import json

    text = ""
    for name, place, class_name, part in plan:
        file = _local(place, folder)
        text += f"[[chapter]]\nscene = {json.dumps(name)}\nfile = {json.dumps(str(file))}\n"
        text += f"class = {json.dumps(class_name)}\n"
        text += f"part = {json.dumps(part)}\n\n" if part else "\n"
    return text


def _local(place: str, folder: Path) -> Path:
    where, _, path = place.partition(":")
    return inside(ROOT if where == "project" else folder, path)


def _settled(shipped: Settings, folder: Path) -> Settings:
    """The shipped settings with their paths in the job's folder on this worker."""
    voice = shipped.voice
    if voice is not None:
        narration = str(folder / voice.narration) if voice.narration else None
        voice = replace(voice, narration=narration, cache=str(folder / voice.cache))
    return replace(
        shipped,
        data=folder / shipped.data,
        plan=folder / shipped.plan if shipped.plan else None,
        locales=tuple(folder / p for p in shipped.locales),
        words=folder / shipped.words if shipped.words else None,
        cache=_worker_cache(),
        voice=voice,
    )


def _unwanted() -> bool:
    """Whether the job running in this thread was given up by its client (Ctrl-C, or the
    client is gone): its scene is then stopped."""
    from distributed import get_worker

    try:
        worker = get_worker()
        task = worker.state.tasks.get(worker.get_current_task())
    except (ValueError, AttributeError, KeyError):
        return False
    return task is None or task.state in ("cancelled", "released", "forgotten")


def render_shipped(job: Shipped) -> Returned:
    """Render one shipped job here, on a worker, in a folder of its own that is removed
    after: the scene in a ``scenes.worker`` process (the local runner's command), its files
    read back as bytes."""
    from distributed import get_worker

    from voice.clips import cached

    here = get_worker().address
    name = str(get_worker().name)
    start = time.perf_counter()
    differs = difference(project_code(), job.code)
    if differs:  # a worker that joined after the client's check
        worker = here if name == here else f"{name} ({here})"
        raise WorkerCodeError(f"worker {worker} runs other code than the client: {differs}")
    with contextlib.suppress(ValueError):
        get_worker().log_event(TOPIC, {"key": job.key, "worker": here})
    folder = Path(tempfile.mkdtemp(prefix=f"{JOB_PREFIX}{os.getpid()}-"))
    try:
        for name, content in job.files.items():
            path = inside(folder, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        if job.plan is not None:
            (folder / "plan.toml").write_text(_plan_toml(job.plan, folder), encoding="utf-8")
        made = _settled(job.settings, folder)
        chapter = Chapter(job.name, _local(job.scene, folder), job.class_name)
        local = Job(chapter, job.preset, folder / "media", worker_env(made))
        ok, output = _run_here(local, folder / "output.txt")
        seconds = time.perf_counter() - start
        video = local.video() if ok else None
        if video is None:
            return Returned(False, seconds, output, here)
        sent = {name.removeprefix("voice/") for name in job.files if name.startswith("voice/")}
        voice = folder / "voice"
        clips = {
            p.name: p.read_bytes()
            for p in (sorted(voice.glob("*.wav")) if voice.is_dir() else ())
            if p.name not in sent and cached(p)
        }
        subtitles, lines = video.with_suffix(".srt"), LinesFile.beside(video)
        return Returned(
            True,
            seconds,
            output,
            here,
            video.read_bytes(),
            subtitles.read_bytes() if subtitles.is_file() else None,
            lines.read_bytes() if lines.is_file() else None,
            clips,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run_here(job: Job, log: Path) -> tuple[bool, str]:
    """The scene's process, stopped (with what it started) when the client gives the job up;
    it dies with this worker too (:data:`PARENT_PID`)."""
    with log.open("w+", encoding="utf-8", errors="replace") as output:
        process = subprocess.Popen(
            job.command(),
            env={**job.env, PARENT_PID: str(os.getpid())},
            stdout=output,
            stderr=subprocess.STDOUT,
            text=True,
            process_group=0,
        )
        while True:
            try:
                process.wait(timeout=POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                if _unwanted():
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                    break
        output.seek(0)
        return process.returncode == 0, output.read()


# ---- back on the client -----------------------------------------------------------------


def unpack(job: Job, returned: Returned) -> None:
    """Put what a worker sent back where a local run's worker leaves it (``job.media_dir``),
    its voice clips into the client's voice cache, and each line's clip path the client's."""
    from voice.clips import cached, make_room, open_cache

    voice = Settings.from_env(job.env).voice
    cache = Path(voice.cache) if voice is not None else None
    for name, content in returned.clips.items():
        if cache is not None and not cached(inside(open_cache(cache), name)):
            with atomic_path(make_room(inside(cache, name))) as tmp:
                tmp.write_bytes(content)
    video = job.media_dir / "videos" / "cluster" / f"{job.chapter.class_name}.mp4"
    video.parent.mkdir(parents=True, exist_ok=True)
    video.write_bytes(returned.video or b"")
    if returned.subtitles is not None:
        video.with_suffix(".srt").write_bytes(returned.subtitles)
    if returned.lines is not None:
        lines = LinesFile.beside(video)
        lines.write_bytes(returned.lines)
        if cache is not None:  # each clip where it now is, in the client's cache
            said = LinesFile.read(lines).lines
            moved = [
                line.model_copy(update={"clip": str(cache / Path(line.clip).name)})
                if line.clip
                else line
                for line in said
            ]
            LinesFile(lines=moved).write(lines)


def _client_error(address: str, err: BaseException) -> ClusterError:
    said = " ".join(str(err).split()) or type(err).__name__
    return ClusterError(f"--cluster {address}: no Dask scheduler answers there ({said})")


def identify(address: str, seconds: float) -> None:
    """Refuse, in one line, an address where no Dask scheduler answers within ``seconds``,
    before a :class:`distributed.Client` is made for it. Dask waits for ever on the handshake
    of a server that accepts and never answers, reads a server of another protocol's bytes
    as a message's length (and tries to allocate it), and raises what it meets, not one
    error; asking the scheduler who it is, within one deadline, turns each into a line."""
    import asyncio

    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import get_backend
    from distributed.security import Security

    scheme, _ = parse_address(address)
    unusable = f"--cluster {address}: Dask cannot use {scheme}:// here"
    try:
        get_backend(scheme).get_connector()
    except (ValueError, TypeError, ImportError) as err:  # ucx:// without its package
        said = " ".join(str(err).split())
        raise ClusterError(f"{unusable} (its transport is not installed: {said})") from None
    if scheme == "inproc":
        raise ClusterError(f"{unusable}: it reaches only a scheduler inside this process")
    try:
        args = Security().get_connection_args("client")  # what a Client would use
    except (OSError, ValueError) as err:  # Dask's TLS settings name files it cannot use
        raise ClusterError(f"{unusable}: Dask's TLS settings cannot be used ({err})") from None
    if scheme in ("tls", "wss") and args["ssl_context"] is None:
        raise ClusterError(
            f"{unusable}: no TLS certificates (set distributed.comm.tls.ca-file, "
            ".client.cert and .client.key in Dask's configuration)"
        )
    try:
        answer = asyncio.run(asyncio.wait_for(_identity(address, seconds, args), seconds))
    except TimeoutError:
        raise ClusterError(
            f"--cluster {address}: nothing answered as a Dask scheduler there in {seconds:g} s "
            "(is dask scheduler running, and is this its address?)"
        ) from None
    except OSError as err:  # refused, unreachable, closed: Dask's CommClosedError is one
        raise _client_error(address, err) from None
    except Exception:  # its bytes are no Dask message (what Dask made of them is no help)
        raise ClusterError(
            f"--cluster {address}: what answers there does not speak Dask's protocol: "
            "give a Dask scheduler's address (dask scheduler listens on 8786)"
        ) from None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        raise ClusterError(
            f"--cluster {address}: a Dask {kind or 'server'} answers there, not a scheduler: "
            "give the scheduler's address (dask scheduler listens on 8786)"
        )


async def _identity(address: str, seconds: float, args: dict[str, Any]) -> Any:
    """What the server at ``address`` says it is."""
    from distributed.comm import connect

    comm = await connect(address, timeout=seconds, **args)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


class ClusterRunner:
    """Runs jobs on a Dask cluster, as :class:`pipeline.jobs.Runner` runs them here: the same
    callbacks, the same results (each job's files in its media folder), longest first."""

    def __init__(
        self, address: str, lines_of: Callable[[Job], Path | None] = lambda job: None
    ) -> None:
        self.address = address
        self.lines_of = lines_of  # the lines of a job's last segment (its clips are sent)
        self._stack = contextlib.ExitStack()
        self.client: Any = None

    def __enter__(self) -> ClusterRunner:
        try:
            return self._connect()
        except BaseException:  # Ctrl-C in the wait too: nothing of the cluster stays behind
            self._stack.close()
            raise

    def _connect(self) -> ClusterRunner:
        # A LocalCluster's scheduler gives each worker thread one scene at a time and queues
        # the rest in priority order: longest first across the cluster, as the local pool
        # runs them. (Dask's default, 1.1, hands each worker a spare: the last scenes then
        # wait behind another on a busy worker while a free one idles.) Read by Dask from
        # the environment when it is first imported; a setting of one's own wins.
        os.environ.setdefault(SATURATION, "1.0")
        from distributed import Client, LocalCluster

        # Dask's own log (a lost connection's traceback, a worker restarted) is not this
        # run's: what matters of it reaches the run's lines, as a local run's would.
        for name in ("distributed", "tornado"):
            quiet = logging.getLogger(name)
            self._stack.callback(quiet.setLevel, quiet.level)
            quiet.setLevel(logging.CRITICAL)

        try:
            if self.address.startswith(LOCAL):  # render.py checked the N
                cluster = self._stack.enter_context(
                    LocalCluster(
                        n_workers=int(self.address.removeprefix(LOCAL)),
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=logging.ERROR,
                    )
                )
                target: Any = cluster
            else:
                identify(self.address, CONNECT_SECONDS)
                target = self.address
            # Made in two steps so that a Client whose start fails is still in hand, and
            # closed: left to the garbage collector, its __del__ waits 20 s to close and
            # prints "Exception ignored in Client.__del__" after the run's one line.
            client = Client.__new__(Client)
            try:
                client.__init__(target, timeout=CONNECT_SECONDS, set_as_default=False)
            except BaseException:
                with contextlib.suppress(Exception):
                    client.close()
                raise
            self.client = self._stack.enter_context(client)
        except (OSError, ValueError, TypeError) as err:
            raise _client_error(self.address, err) from None
        try:
            self.client.wait_for_workers(1, timeout=WORKER_SECONDS)
        except (OSError, TimeoutError):
            raise ClusterError(
                f"--cluster {self.address}: no worker joined the scheduler in "
                f"{WORKER_SECONDS} s (start some: dask worker {self.address})"
            ) from None
        self.check_workers()
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()

    @property
    def slots(self) -> int:
        """How many scenes the cluster renders at once: its workers' threads."""
        return sum(self.client.nthreads().values())

    def check_workers(self) -> None:
        """Refuse the run if any worker's code differs from this checkout's, naming it."""
        ours = project_code()
        workers = self.client.scheduler_info(n_workers=-1)["workers"]
        for address, theirs in sorted(self.client.run(project_code, on_error="return").items()):
            name = str(workers.get(address, {}).get("name", address))
            worker = address if name == address else f"{name} ({address})"
            if isinstance(theirs, BaseException):  # not this project's Python, say
                raise ClusterError(
                    f"--cluster {self.address}: worker {worker} cannot import this project "
                    f"({type(theirs).__name__}: {theirs}): start it with this checkout's "
                    ".venv/bin/dask worker, after make setup"
                )
            differs = difference(theirs, ours)
            if differs:
                raise ClusterError(
                    f"--cluster {self.address}: worker {worker} runs other code than this "
                    f"checkout ({differs}): give it the same checkout and run make setup there"
                )

    def run(
        self,
        jobs: Iterable[Job],
        on_start: Callable[[Job], None],
        on_end: Callable[[JobResult], None],
    ) -> list[JobResult]:
        from distributed import as_completed

        jobs = list(jobs)
        by_key: dict[str, Job] = {}
        futures = {}
        run = uuid.uuid4().hex[:8]

        def started(event: tuple[float, dict]) -> None:
            job = by_key.get(event[1].get("key", ""))
            if job is not None:
                on_start(job)

        self.client.subscribe_topic(TOPIC, started)
        code = project_code()
        for k, job in enumerate(jobs):  # the first submitted is the first to run
            shipped = pack(job, self.lines_of(job), code)
            shipped = replace(shipped, key=f"{job.key()} {run}")
            by_key[shipped.key] = job
            with warnings.catch_warnings():  # a job with long recordings is a large task
                warnings.filterwarnings("ignore", "Sending large graph", UserWarning)
                future = self.client.submit(
                    render_shipped,
                    shipped,
                    key=f"render {shipped.key}",
                    priority=len(jobs) - k,
                    pure=False,
                )
            futures[future] = job
        results: list[JobResult] = []
        try:
            for future in as_completed(futures, loop=self.client.loop):
                job = futures[future]
                result = self._result(job, future)
                on_end(result)
                results.append(result)
                future.release()
        except KeyboardInterrupt:
            self.client.cancel(list(futures))
            raise
        finally:
            with contextlib.suppress(Exception):
                self.client.unsubscribe_topic(TOPIC)
        return results

    def _result(self, job: Job, future: Any) -> JobResult:
        """A finished future as a local run's result: its files in the job's media folder."""
        from distributed import KilledWorker
        from distributed.client import FutureCancelledError

        try:
            returned: Returned = future.result()
        except KilledWorker:
            said = "KilledWorker: every worker that took this scene died while rendering it"
            return JobResult(job, False, 0.0, said, [said])
        except FutureCancelledError:
            raise ClusterLost(f"lost the Dask scheduler at {self.address} mid-run") from None
        except Exception as err:
            if future.status != "error":  # no answer at all: the scheduler is gone
                raise ClusterLost(f"lost the Dask scheduler at {self.address} mid-run") from None
            said = f"{type(err).__name__}: {err}"  # raised in the job, on its worker
            return JobResult(job, False, 0.0, said, [" ".join(said.split())])
        if not returned.ok:
            output = returned.output + f"\n(on worker {returned.worker})"
            error = essential_lines(returned.output) or ["manim wrote no video"]
            return JobResult(job, False, returned.seconds, output, error)
        shutil.rmtree(job.media_dir, ignore_errors=True)
        unpack(job, returned)
        return JobResult(job, True, returned.seconds, returned.output)
