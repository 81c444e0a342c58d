"""render.py end to end, and the gates on the file a viewer gets (video format, determinism)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from scenes.gates.video import check_video, compare_videos, read_video
from syllabus.plan import checked, load_plan

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.xdist_group("render")


def _render(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "render.py"), "--voice", "none", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


# Rendered for real in make test: a short lecture of two chapters (the gates dry-run every
# chapter; `make fresh-check` renders the whole lecture). Between them they draw a heat map,
# LaTeX, arrows and moving numbers (bars, masked cells and the other components have golden
# frames; summary, a third chapter here until the sixteenth pass, took twice scoring's CPU
# time to render at low quality).
SAMPLE = ("template", "scoring")


@pytest.fixture(scope="session")
def sample_plan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lecture file with the sample's chapters, as an instructor would write one."""
    folder = tmp_path_factory.mktemp("plan")
    entries = {c.name: c for c in checked()}
    text = "".join(
        f'[[chapter]]\nscene = "{name}"\n'
        f'file = "{os.path.relpath(entries[name].file, folder)}"\n'
        f'class = "{entries[name].class_name}"\n\n'
        for name in SAMPLE
    )
    (folder / "lecture.toml").write_text(text, encoding="utf-8")
    return folder / "lecture.toml"


@pytest.fixture(scope="session")
def rendered(tmp_path_factory: pytest.TempPathFactory, sample_plan: Path, data_file: Path) -> Path:
    """One real low-quality render of the sample lecture (from this session's data file,
    which is current for the default lecture: render.py does not train again)."""
    out = tmp_path_factory.mktemp("render") / "out"
    out.mkdir()
    shutil.copy(data_file, out / "data.json")
    result = _render("--quality", "low", "--out", str(out), "--plan", str(sample_plan))
    assert result.returncode == 0, result.stderr[-2000:]
    return out


@pytest.mark.render
def test_low_quality_render_end_to_end(rendered: Path, sample_plan: Path, tmp_path: Path) -> None:
    chapters = load_plan(sample_plan)
    for chapter in chapters:
        video = rendered / "segments" / f"{chapter.name}.mp4"
        assert check_video(video, 854, 480, 15) == []
        shortest = 3 if chapter.name == "template" else 20  # a lecture chapter: 20-120 s
        assert shortest <= read_video(video, hashes=False).duration <= 120, chapter.name
    assert check_video(rendered / "lecture.mp4", 854, 480, 15) == []
    with av.open(str(rendered / "lecture.mp4")) as container:
        titles = [c["metadata"]["title"] for c in container.chapters()]
    assert titles == [c.title("zh-TW") for c in chapters]
    srt = (rendered / "segments" / "scoring.srt").read_text(encoding="utf-8")
    assert srt.count(" --> ") >= 5 and "內積" in srt
    assert not [p.name for p in rendered.rglob("*.tmp")]
    listed = _render("--list")
    assert listed.returncode == 0 and "attention_map" in listed.stdout
    _same_config_renders_the_same_frames(rendered, sample_plan, tmp_path)


def _same_config_renders_the_same_frames(rendered: Path, sample_plan: Path, tmp: Path) -> None:
    """The determinism gate on a second render (in the same test as the first, so that one
    test process renders the sample once)."""
    out = tmp / "again"
    out.mkdir()
    shutil.copy(rendered / "data.json", out / "data.json")  # the same data: no second training
    args = ("--quality", "low", "--out", str(out), "--plan", str(sample_plan))
    result = _render(*args, "--scenes", "template")
    assert result.returncode == 0, result.stderr[-2000:]
    segment = Path("segments") / "template.mp4"
    assert compare_videos(rendered / segment, out / segment) == []


def _write_video(path: Path, frames: list[np.ndarray], codec: str, pix_fmt: str) -> None:
    with av.open(str(path), "w") as container:
        stream = container.add_stream(codec, rate=Fraction(15))
        stream.width, stream.height, stream.pix_fmt = 64, 48, pix_fmt
        for array in frames:
            for packet in stream.encode(av.VideoFrame.from_ndarray(array, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def _frames(n: int, changed: int | None = None) -> list[np.ndarray]:
    frames = [np.full((48, 64, 3), 16 * k, dtype=np.uint8) for k in range(n)]
    if changed is not None:
        frames[changed][10:20, 10:20] = 255
    return frames


def test_video_gate_catches_a_file_that_will_not_play_everywhere(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mp4"
    _write_video(bad, _frames(5), "mpeg4", "yuv420p")
    problems = check_video(bad, 64, 48, 30)
    assert any("codec mpeg4, expected h264" in p for p in problems)
    assert any("15.000 frames/s, expected 30" in p for p in problems)
    wide = tmp_path / "wide.mp4"
    _write_video(wide, _frames(5), "libx264", "yuv444p")
    assert any("pixel format yuv444p" in p for p in check_video(wide, 64, 48, 15))
    assert any("size 64x48, expected 854x480" in p for p in check_video(wide, 854, 480, 15))
    broken = tmp_path / "broken.mp4"
    broken.write_bytes(b"not a video")
    assert "cannot be decoded" in check_video(broken, 64, 48, 15)[0]


def test_determinism_gate_names_the_differing_frame(tmp_path: Path) -> None:
    a, b = tmp_path / "a.mp4", tmp_path / "b.mp4"
    _write_video(a, _frames(6), "libx264", "yuv420p")
    _write_video(b, _frames(6, changed=3), "libx264", "yuv420p")
    assert compare_videos(a, a) == []
    assert any("frame 3 differs" in p for p in compare_videos(a, b))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scenes", "nope"], "unknown scene 'nope' (allowed: opening, why, dead_ends, office,"),
        (["--quality", "8k"], "invalid choice: '8k'"),
        (["--lang", "fr"], "unknown language 'fr'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--out", "/proc/forbidden"], "output folder /proc/forbidden is not writable"),
        (["--jobs", "0"], "--jobs must be at least 1, got 0"),
        (["--fps", "500"], "--fps must be between 1 and 120, got 500"),
        (["--plan", "/nonexistent.toml"], "plan /nonexistent.toml not found"),
    ],
)
def test_bad_flags_are_one_line_exit_2(args: list[str], message: str) -> None:
    result = _render(*args, timeout=60)
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.strip().count("\n") == 0
    assert result.stdout == ""


def test_bad_config_is_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[task]\npositions = 99\n")
    out = tmp_path / "out"
    result = _render("--config", str(config), "--out", str(out), timeout=60)
    assert result.returncode == 2 and "'task.positions' must be at most 16" in result.stderr
    assert not (out / "data.json").exists()
