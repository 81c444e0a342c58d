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


def test_a_beat_is_drawn_out_to_its_words() -> None:
    """A beat plays in its run_time when the picture then waits at most HOLD; longer words
    draw it out (to at most STRETCH), never past its window, shared by steps in turn."""
    from scenes.kit.base import HOLD, STRETCH, _paced

    assert _paced(1.0, 2.5) == 1.0  # 1.5 s of wait: short enough
    assert _paced(1.0, 0.5) == 0.5  # never past the window
    assert _paced(1.0, 5.0) == 5.0 - HOLD  # the wait cut to HOLD
    assert _paced(1.0, 20.0) == STRETCH  # drawn out no further
    assert _paced(1.0, 8.0, steps=2) == (8.0 - HOLD) / 2  # two groups share the window
    assert _paced(2.0, 3.0) == 2.0  # a longer run_time of the scene's own is kept
