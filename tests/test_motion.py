"""The stills measure (scenes/gates/motion.py) on videos whose motion is known."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np

from scenes.gates.motion import measure

FPS = 10


def _video(path: Path, moving: list[bool]) -> Path:
    """A 64x36 grey video, one frame a second tenth; a frame moves where ``moving`` says."""
    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=FPS)
        stream.width, stream.height, stream.pix_fmt = 64, 36, "yuv420p"
        shade = 40
        for k, move in enumerate(moving):
            shade = (shade + 60) % 200 if move else shade
            image = np.full((36, 64, 3), shade, np.uint8)
            frame = av.VideoFrame.from_ndarray(image, format="rgb24")
            frame.pts = k
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return path


def _subtitles(path: Path, spans: list[tuple[float, float]]) -> None:
    def stamp(t: float) -> str:
        return f"00:00:{int(t):02d},{round(t % 1 * 1000):03d}"

    blocks = [f"{k}\n{stamp(a)} --> {stamp(b)}\ncue {k}\n" for k, (a, b) in enumerate(spans, 1)]
    path.write_text("\n".join(blocks), encoding="utf-8")


def test_still_cues_and_long_stills_are_counted(tmp_path: Path) -> None:
    # 10 s: a change every second for 4 s (at 0, 1, 2 and 3 s), then none.
    moving = [k % FPS == 0 for k in range(4 * FPS)] + [False] * (6 * FPS)
    video = _video(tmp_path / "v.mp4", moving)
    _subtitles(video.with_suffix(".srt"), [(0.0, 2.0), (2.0, 4.0), (4.5, 7.0), (7.0, 9.5)])
    m = measure(video)
    assert m.cues == 4 and m.still_cues == (2, 3)  # the last two play over a still picture
    assert abs(m.long_still_seconds - 7.0) < 1e-6  # from the last change at 3 s; not the 1 s ones
    assert abs(m.seconds - 10.0) < 1e-6
    # The same length always moving: nothing still.
    busy = measure(_video(tmp_path / "busy.mp4", [True] * (10 * FPS)), video.with_suffix(".srt"))
    assert busy.still_cues == () and busy.long_still_seconds == 0
