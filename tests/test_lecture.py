"""render.py assembles a lecture: parallel segments, skipping, chapters, subtitles, safety."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import av
import pytest
import srt

from pipeline.assemble import manifest_matches
from pipeline.captions import read_srt
from pipeline.lock import FolderInUseError, FolderLock
from scenes.gates.video import check_video, read_video

ROOT = Path(__file__).resolve().parent.parent
SCENES = Path(__file__).parent / "lecture_scenes"
pytestmark = [pytest.mark.render, pytest.mark.xdist_group("lecture")]

PLAN = """
[[chapter]]
scene = "first"
file = "first.py"
class = "First"

[[chapter]]
scene = "second"
file = "second.py"
class = "Second"
{extra}
"""
BROKEN = """
[[chapter]]
scene = "broken"
file = "broken.py"
class = "Broken"
"""


def _project(root: Path, data_file: Path, extra: str = "") -> tuple[Path, Path]:
    """A lecture folder with its own scene files and plan, and an out/ with data."""
    scenes = root / "scenes"
    shutil.copytree(SCENES, scenes)
    (scenes / "plan.toml").write_text(PLAN.format(extra=extra), encoding="utf-8")
    out = root / "out"
    out.mkdir()
    shutil.copy(data_file, out / "data.json")  # current: no training in these tests
    return scenes / "plan.toml", out


def _render(plan: Path, out: Path, *args: str) -> subprocess.CompletedProcess:
    command = [
        sys.executable,
        str(ROOT / "render.py"),
        "--voice",
        "none",
        "--quality",
        "low",
        "--plan",
        str(plan),
        "--out",
        str(out),
        *args,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.fixture(scope="session")
def lecture(tmp_path_factory: pytest.TempPathFactory, data_file: Path) -> tuple[Path, Path]:
    plan, out = _project(tmp_path_factory.mktemp("lecture"), data_file)
    result = _render(plan, out)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 to render" in result.stdout
    return plan, out


def test_lecture_is_the_segments_joined(lecture: tuple[Path, Path]) -> None:
    _, out = lecture
    segments = [read_video(out / "segments" / f"{name}.mp4") for name in ("first", "second")]
    whole = read_video(out / "lecture.mp4")
    assert check_video(out / "lecture.mp4", 854, 480, 15) == []
    assert whole.frames == sum(s.frames for s in segments)
    assert whole.frame_hashes == segments[0].frame_hashes + segments[1].frame_hashes
    assert abs(whole.duration - sum(s.duration for s in segments)) <= 2 / 15
    data = (out / "lecture.mp4").read_bytes()
    assert data.index(b"moov") < data.index(b"mdat"), "+faststart puts the index first"


def test_chapters_and_subtitles(lecture: tuple[Path, Path]) -> None:
    _, out = lecture
    first = read_video(out / "segments" / "first.mp4").duration
    with av.open(str(out / "lecture.mp4")) as container:
        chapters = container.chapters()
        # plain Manim scenes have no locale table: they are titled by their name
        assert [c["metadata"]["title"] for c in chapters] == ["first", "second"]
        starts = [float(c["start"] * c["time_base"]) for c in chapters]
        ends = [float(c["end"] * c["time_base"]) for c in chapters]
        assert starts[0] == 0 and abs(starts[1] - first) <= 1 / 15
        track = container.streams.subtitles[0]
        assert track.codec_context.name == "mov_text"
        texts = [bytes(p)[2:].decode() for p in container.demux(track) if p.size > 2]
    assert texts == ["第一章的字幕", "第二章的第一句", "第二章的第二句"]
    cues = list(srt.parse((out / "lecture.srt").read_text(encoding="utf-8")))
    assert [c.content for c in cues] == texts
    for cue, chapter in zip(cues, (0, 1, 1), strict=True):
        assert starts[chapter] - 1e-3 <= cue.start.total_seconds()
        assert cue.end.total_seconds() <= ends[chapter] + 1e-3
    assert cues[1].start.total_seconds() == pytest.approx(starts[1], abs=1e-3)
    vtt = (out / "lecture.vtt").read_text(encoding="utf-8")
    assert vtt.startswith("WEBVTT\n") and vtt.count(" --> ") == 3
    assert (out / "chapters.txt").read_text(encoding="utf-8") == (
        f"00:00 first\n00:{int(starts[1]):02d} second\n"
    )
    assert read_srt(out / "segments" / "second.srt")[0].text == "第二章的第一句"


def test_second_run_renders_nothing(lecture: tuple[Path, Path]) -> None:
    plan, out = lecture
    listed = _render(plan, out, "--list")
    assert "first                current" in listed.stdout
    before = (out / "lecture.mp4").stat().st_mtime_ns
    result = _render(plan, out)
    assert result.returncode == 0 and "0 to render, 2 unchanged" in result.stdout
    assert "start" not in result.stdout
    assert "lecture unchanged" in result.stdout  # made from these segments: not joined again
    assert (out / "lecture.mp4").stat().st_mtime_ns == before


def test_touching_one_scene_renders_only_it(lecture: tuple[Path, Path]) -> None:
    plan, out = lecture
    second = plan.parent / "second.py"
    second.write_text(second.read_text() + "\n# edited\n")
    assert "second               stale" in _render(plan, out, "--list").stdout
    result = _render(plan, out)
    assert result.returncode == 0, result.stderr
    assert "1 to render, 1 unchanged" in result.stdout
    assert "start  second" in result.stdout and "start  first" not in result.stdout
    assert "lecture unchanged" not in result.stdout and manifest_matches(out)


def test_a_failing_scene_fails_the_run_and_spares_the_others(
    tmp_path: Path, data_file: Path
) -> None:
    plan, out = _project(tmp_path, data_file, extra=BROKEN)
    result = _render(plan, out)
    assert result.returncode == 1
    assert "scene broken failed" in result.stderr
    assert "RuntimeError: deliberately broken scene" in result.stderr
    assert "re-run it alone:" in result.stderr and "--scenes broken" in result.stderr
    hint = result.stderr.split("re-run it alone:")[1]
    assert f"--out {out}" in hint and f"--plan {plan}" in hint and "--lang zh-TW" in hint
    for name in ("first", "second"):
        assert check_video(out / "segments" / f"{name}.mp4", 854, 480, 15) == []
    assert not (out / "lecture.mp4").exists()
    assert not (out / "segments" / "broken.mp4").exists()


def test_a_killed_run_leaves_no_corrupt_file(lecture: tuple[Path, Path]) -> None:
    plan, out = lecture
    before = read_video(out / "lecture.mp4").frame_hashes
    command = [
        sys.executable,
        str(ROOT / "render.py"),
        "--voice",
        "none",
        "--quality",
        "low",
        "--force",
        "--plan",
        str(plan),
        "--out",
        str(out),
    ]
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    while time.time() < deadline and not list((out / ".work").glob("*/videos")):
        time.sleep(0.1)  # kill while the workers are writing video
    workers = _workers_of(process.pid)
    assert workers, "no Manim worker was running"
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.time() + 1.0
    while time.time() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "a worker outlived render.py"
    assert read_video(out / "lecture.mp4").frame_hashes == before
    for video in [*out.glob("*.mp4"), *(out / "segments").glob("*.mp4")]:
        assert check_video(video, 854, 480, 15) == [], video
    result = _render(plan, out)  # and the next run finishes the job
    assert result.returncode == 0, result.stderr
    assert read_video(out / "lecture.mp4").frame_hashes == before


def _workers_of(parent: int) -> list[int]:
    """The pids whose parent is ``parent`` (render.py's Manim workers)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            pids.append(int(stat.parent.name))
    return pids


def _wait_for_workers(parent: int, seconds: float = 60) -> list[int]:
    deadline = time.time() + seconds
    while time.time() < deadline and not _workers_of(parent):
        time.sleep(0.05)
    return _workers_of(parent)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start(plan: Path, out: Path, *args: str) -> subprocess.Popen:
    command = [sys.executable, str(ROOT / "render.py"), "--quality", "low", "--voice", "none"]
    command += ["--plan", str(plan), "--out", str(out), *args]
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


KILL_AFTER = (0.0, 2.5)  # seconds after the four-head trainer starts: as it starts, mid-run


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal")
def test_kill_9_while_training_leaves_no_lock_and_no_child(tmp_path: Path) -> None:
    """No handler runs on ``kill -9``: the kernel's release of the lock must be enough, so no
    child of render.py (the trainer included) may hold a copy of it or outlive render.py."""
    runs = []
    for k, delay in enumerate(KILL_AFTER):
        out = tmp_path / f"out{k}"  # no data file: each run trains
        command = [sys.executable, str(ROOT / "render.py"), "--scenes", "office"]
        command += ["--quality", "low", "--voice", "none", "--out", str(out)]
        process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        runs.append((process, out, delay))
    children: dict[Path, list[int]] = {}
    for process, out, delay in runs:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("data: training")
        _wait_for_workers(process.pid)  # torch is imported, then the trainer is spawned
        time.sleep(delay)
        children[out] = _workers_of(process.pid)
        assert children[out], "the trainer should be running by now"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        process.stdout.close()
    deadline = time.monotonic() + 5  # for the kernel to end the children
    for out, pids in children.items():
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        orphans = [pid for pid in pids if _alive(pid)]
        for pid in orphans:  # leave no trainer running after a failure
            os.kill(pid, signal.SIGKILL)
        assert not orphans, f"{out}: a child outlived render.py"
        try:
            with FolderLock(out):  # not refused: nobody holds the folder
                pass
        except FolderInUseError as err:
            pytest.fail(f"the lock outlived the run killed in {out.name}: {err}")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_holds_no_copy_of_the_lock(tmp_path: Path) -> None:
    with FolderLock(tmp_path) as lock:
        assert lock._handle is not None
        fd = lock._handle.fileno()
        pid = os.fork()
        if pid == 0:  # the child: its descriptor must be another file than the lock
            os._exit(int(os.fstat(fd).st_ino == os.stat(tmp_path / ".lock").st_ino))
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, "the child shares the lock's open file"


def test_sigterm_stops_the_workers_and_cleans_up(lecture: tuple[Path, Path]) -> None:
    plan, out = lecture
    process = _start(plan, out, "--force")
    workers = _wait_for_workers(process.pid)
    assert workers, "no Manim worker was running"
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 143 and "interrupted" in stderr
    assert not [pid for pid in workers if _alive(pid)]
    assert not (out / ".work").exists()
    assert manifest_matches(out)  # the previous lecture, whole


def test_one_run_per_output_folder(lecture: tuple[Path, Path]) -> None:
    plan, out = lecture
    first = _start(plan, out, "--force")
    assert _wait_for_workers(first.pid), "the first run never started a worker"
    second = _render(plan, out)
    assert second.returncode == 2
    assert f"is in use by another render.py (pid {first.pid})" in second.stderr
    assert second.stderr.count("\n") == 1
    waiting = _start(plan, out, "--wait")  # waits for the first, then finds all current
    assert first.wait(timeout=120) == 0 and waiting.wait(timeout=120) == 0
    assert "0 to render" in waiting.communicate()[0]
    assert check_video(out / "lecture.mp4", 854, 480, 15) == []
    assert manifest_matches(out)
    assert not list(out.glob(".*.tmp"))


def test_the_manifest_names_the_set(lecture: tuple[Path, Path]) -> None:
    _, out = lecture
    assert manifest_matches(out)
    chapters = out / "chapters.txt"
    text = chapters.read_text(encoding="utf-8")
    chapters.write_text(text + "99:99 not of this set\n", encoding="utf-8")
    try:
        assert not manifest_matches(out)
    finally:
        chapters.write_text(text, encoding="utf-8")
