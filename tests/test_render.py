"""render.py end to end: a real low-quality render whose MP4 decodes, and clean errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import av
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _render(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "render.py"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


@pytest.mark.render
def test_low_quality_render_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = _render("--quality", "low", "--out", str(out), "--scenes", "attention_map")
    assert result.returncode == 0, result.stderr[-2000:]
    video = out / "attention_map.mp4"
    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        assert stream.codec_context.name == "h264"
        assert stream.codec_context.pix_fmt == "yuv420p"
        assert (stream.width, stream.height) == (854, 480)
        assert abs(float(stream.average_rate) - 15) < 0.01
        frames = sum(1 for _ in container.decode(video=0))
    duration = frames / 15
    assert 20 < duration < 120
    srt = (out / "attention_map.srt").read_text(encoding="utf-8")
    assert srt.count(" --> ") >= 5 and "注意力" in srt
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]

    again = _render("--quality", "low", "--out", str(out), "--list")
    assert again.returncode == 0 and "attention_map" in again.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scenes", "nope"], "unknown scene 'nope' (allowed: attention_map)"),
        (["--quality", "8k"], "invalid choice: '8k'"),
        (["--lang", "fr"], "unknown language 'fr'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--out", "/proc/forbidden"], "output folder /proc/forbidden is not writable"),
    ],
)
def test_bad_flags_are_one_line_exit_2(args: list[str], message: str, tmp_path: Path) -> None:
    result = _render(*args, timeout=60)
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.strip().count("\n") == 0
    assert result.stdout == ""


def test_bad_config_is_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("positions = 99\n")
    out = tmp_path / "out"
    result = _render("--config", str(config), "--out", str(out), timeout=60)
    assert result.returncode == 2 and "'positions' must be between 2 and 16" in result.stderr
    assert not (out / "data.json").exists()
