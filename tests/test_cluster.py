"""render.py --cluster: the scenes as Dask tasks, on a real LocalCluster of worker processes."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from distributed import LocalCluster

from common.closure import PROJECT_PACKAGES
from common.files import LinesFile, NarratedLine
from common.settings import Settings, VoiceSettings
from pipeline.cluster import _plan_toml, _settled, pack
from pipeline.jobs import Job, worker_env
from scenes.gates.video import compare_videos, read_video
from syllabus.plan import load_plan
from syllabus.presets import PRESETS
from voice.clips import write_wav

ROOT = Path(__file__).resolve().parent.parent
SCENES = Path(__file__).parent / "lecture_scenes"
pytestmark = [pytest.mark.render, pytest.mark.xdist_group("cluster")]

# Three chapters: a lecture scene (data, locale tables, LaTeX), two plain Manim scenes; and
# one that fails on every try.
PLAN = f"""
[[chapter]]
scene = "template"
file = "{ROOT / "scenes" / "chapters" / "template.py"}"
class = "TemplateScene"

[[chapter]]
scene = "first"
file = "{SCENES / "first.py"}"
class = "First"

[[chapter]]
scene = "second"
file = "{SCENES / "second.py"}"
class = "Second"

[[chapter]]
scene = "broken"
file = "{SCENES / "broken.py"}"
class = "Broken"
"""
RENDERED = ("template", "first", "second")


def _command(plan: Path, out: Path, *args: str) -> list[str]:
    return [
        sys.executable,
        str(ROOT / "render.py"),
        *("--voice", "none", "--quality", "low", "--plan", str(plan), "--out", str(out)),
        *args,
    ]


def _out(folder: Path, data_file: Path) -> Path:
    folder.mkdir()
    shutil.copy(data_file, folder / "data.json")  # current: no training
    return folder


def _parent(pid: str) -> int:
    """The parent of a process (its fourth field in /proc/<pid>/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def _kill_the_worker_rendering(scene_class: str, seconds: float = 20) -> int:
    """Kill -9 the Dask worker process whose scene process renders ``scene_class`` (in a
    job's folder on a worker: no other test's render)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pattern = f"scenes.worker.*lecture-job-.* {scene_class}$"
        found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
        found = found.stdout.split()
        if found:
            worker = _parent(found[0])
            subprocess.run(["kill", "-9", str(worker)], check=True)
            return worker
        time.sleep(0.05)
    raise AssertionError(f"no scene process rendered {scene_class} in {seconds} s")


def test_a_cluster_renders_the_local_frames_though_a_worker_dies(
    tmp_path: Path, data_file: Path
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN, encoding="utf-8")
    local = _out(tmp_path / "local", data_file)
    scenes = ("--scenes", ",".join(RENDERED))
    here = subprocess.run(_command(plan, local, *scenes), capture_output=True, text=True)
    assert here.returncode == 0, here.stderr[-2000:]
    out = _out(tmp_path / "cluster", data_file)
    run = subprocess.Popen(
        _command(plan, out, "--cluster", "local:2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    said = []
    for line in run.stdout:  # killed as soon as the lecture scene is rendering
        said.append(line)
        if "start  template" in line:
            killed = _kill_the_worker_rendering("TemplateScene")
            break
    said += run.stdout.readlines()
    errors = run.stderr.read()
    assert run.wait(timeout=300) == 1, errors[-2000:]
    text = "".join(said)
    assert "4 to render, 0 unchanged, 480p15, 2 at once on local:2" in text
    assert text.count("start  template") == 2, text  # once on the killed worker, again elsewhere
    assert not Path(f"/proc/{killed}").exists()
    # The scene that fails on every try is reported as a local run reports it.
    assert "scene broken failed:" in errors and "deliberately broken scene" in errors
    assert errors.count("re-run it alone:") == 1 and "--scenes broken" in errors
    for name in RENDERED:  # frame for frame the local pool's, subtitles and lines too
        segment = Path("segments") / f"{name}.mp4"
        assert read_video(out / segment, hashes=False).frames > 0
        assert compare_videos(local / segment, out / segment) == [], name
        for other in (segment.with_suffix(".srt"), segment.with_suffix(".lines.json")):
            assert (out / other).is_file() == (local / other).is_file(), other
            if (local / other).is_file():  # a lecture scene's lines; a plain scene has none
                assert (out / other).read_bytes() == (local / other).read_bytes(), other
    assert not list(out.rglob("*.tmp")) and not (out / ".work").exists()
    # The next run skips what is whole, as a local run does, and connects to no cluster.
    again = subprocess.run(
        _command(plan, out, "--cluster", "local:2", "--scenes", ",".join(RENDERED)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert "0 to render, 3 unchanged" in again.stdout


def _worker(address: str, name: str, checkout: Path = ROOT) -> subprocess.Popen:
    """``dask worker ADDRESS`` started from a checkout (its code before the installed one)."""
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "2",
         "--name", name, "--no-dashboard"],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def test_a_scheduler_refuses_other_code_and_its_loss_ends_the_run(
    tmp_path: Path, data_file: Path
) -> None:
    """A scheduler's address (``tcp://``), as on several machines: a worker started from a
    checkout whose code differs (one scene-kit line) is named, in one line, before anything
    is sent; then, with a worker of this checkout, the scheduler goes away mid-run: the run
    ends with one line, and what was finished is whole and current for the next run."""
    other = tmp_path / "other-checkout"
    for name in PROJECT_PACKAGES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, other / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source.with_suffix(".py"), other / f"{name}.py")
    with (other / "scenes" / "kit" / "base.py").open("a", encoding="utf-8") as changed:
        changed.write("# an edit this checkout has and the client has not\n")
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN, encoding="utf-8")
    out = _out(tmp_path / "out", data_file)
    cluster = LocalCluster(
        n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=None
    )
    workers = [_worker(cluster.scheduler_address, "lab-42", other)]
    try:
        command = _command(plan, out, "--cluster", cluster.scheduler_address)
        refused = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert refused.returncode == 2
        line = refused.stderr.strip()
        assert "\n" not in line and "worker lab-42 (tcp://" in line, line
        assert "runs other code than this checkout (its project code is" in line, line
        assert not (out / "segments").exists()
        workers[0].kill()
        workers.append(_worker(cluster.scheduler_address, "ours"))
        run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for said in run.stdout:
            if said.startswith("  done   "):  # one segment whole, others under way
                cluster.close()
                break
        errors = run.stderr.read()
        assert run.wait(timeout=60) == 1, errors[-2000:]
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
        cluster.close()
    assert errors.strip().endswith(
        f"lost the Dask scheduler at {cluster.scheduler_address} mid-run; finished segments "
        "are kept"
    ), errors
    listed = subprocess.run(_command(plan, out, "--list"), capture_output=True, text=True)
    states = dict(re.findall(r"^\s*\d+\. (\w+)\s+(\w+)", listed.stdout, re.M))
    assert "missing" in states.values() and "current" in states.values(), listed.stdout
    for name, state in states.items():  # what was installed is whole, nothing else is there
        video = out / "segments" / f"{name}.mp4"
        assert (state == "current") == video.exists(), name
        assert state != "current" or read_video(video, hashes=False).frames > 0
    assert not list(out.rglob("*.tmp")) and not (out / ".work").exists()


def test_a_job_travels_with_every_file_it_reads_and_settles_on_the_worker(
    tmp_path: Path, data_file: Path
) -> None:
    """What :func:`pack` sends (the client's files, by their place in the job's folder) and
    how the worker lays it out again: nothing of the client's paths is left."""
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN, encoding="utf-8")
    chapters = load_plan(plan)
    locales, takes, cache = tmp_path / "mine", tmp_path / "takes", tmp_path / "voice-cache"
    locales.mkdir()
    (locales / "en.toml").write_text('[page]\nlecture = "Mine"\n', encoding="utf-8")
    (takes / "template").mkdir(parents=True)
    (takes / "template" / "01-intro.wav").write_bytes(b"RIFF a take")
    (takes / "template" / "notes.txt").write_text("not a recording", encoding="utf-8")
    words = tmp_path / "lecture.toml"
    words.write_text('[words.en.page]\nlecture = "Ours"\n', encoding="utf-8")
    for name in ("espeak-line-a.wav", "espeak-cue-b.wav", "espeak-cue-c.wav"):
        write_wav(cache / name, np.zeros(2400, np.float32))
    last = tmp_path / "template.lines.json"  # the last segment's lines: clips a, b, c, gone
    said = [NarratedLine(index=1, key="intro", text="x", start=0, end=1,
                         clip=str(cache / "espeak-line-a.wav"), parts=["espeak-cue-b.wav",
                         "espeak-cue-c.wav", "espeak-cue-gone.wav"])]  # fmt: skip
    LinesFile(lines=said).write(last)
    voice = VoiceSettings("espeak", "en-us", 170.0, str(takes), str(cache))
    made = Settings(lang="en", data=data_file, plan=plan, chapters=("template", "first"),
                    locales=(locales,), words=words, cache=tmp_path / "c", voice=voice)  # fmt: skip
    job = Job(chapters[0], PRESETS["low"], tmp_path / "media", worker_env(made))
    assert job.env["PYTHONHASHSEED"] == "0"  # every scene process hashes alike, anywhere
    shipped = pack(job, last)
    assert set(shipped.files) == {
        "data.json", "lecture.toml", "locales/0/en.toml", "narration/template/01-intro.wav",
        "voice/espeak-line-a.wav", "voice/espeak-cue-b.wav", "voice/espeak-cue-c.wav",
        *(f"chapters/{k}/{n}.py" for k, n in ((1, "first"), (2, "second"), (3, "broken"))),
    }  # fmt: skip
    assert shipped.files["data.json"] == data_file.read_bytes()
    assert shipped.scene == "project:scenes/chapters/template.py"  # the worker's own checkout
    assert [entry[1] for entry in shipped.plan][1] == "job:chapters/1/first.py"
    folder = tmp_path / "worker"  # as the worker writes it
    for name, content in shipped.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)
    (folder / "plan.toml").write_text(_plan_toml(shipped.plan, folder), encoding="utf-8")
    there = _settled(shipped.settings, folder)
    assert there.data == folder / "data.json" and there.words == folder / "lecture.toml"
    assert there.locales == (folder / "locales" / "0",) and there.chapters == made.chapters
    assert there.voice.narration == str(folder / "narration")
    assert there.voice.cache == str(folder / "voice")
    moved = load_plan(there.plan)
    assert [(c.name, c.class_name, c.part) for c in moved] == [
        (c.name, c.class_name, c.part) for c in chapters
    ]
    assert moved[0].file == chapters[0].file  # the project's scene: the same checkout's
    assert moved[1].file == folder / "chapters" / "1" / "first.py"
    assert moved[1].file.read_bytes() == chapters[1].file.read_bytes()
    assert str(tmp_path) not in repr(there).replace(str(folder), "")
