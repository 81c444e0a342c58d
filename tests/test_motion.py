"""The stills measure (scenes/gates/motion.py) on videos whose motion is known."""

from __future__ import annotations

from pathlib import Path

import av
import numpy as np

from scenes.gates.motion import measure

FPS = 10


def _encode(path: Path, frames: list[np.ndarray], lossless: bool = False) -> Path:
    """An H.264 video of the given RGB frames, FPS a second (lossless: every level kept)."""
    height, width = frames[0].shape[:2]
    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=FPS, options={"crf": "0"} if lossless else {})
        stream.width, stream.height = width, height
        stream.pix_fmt = "yuv444p" if lossless else "yuv420p"
        for k, image in enumerate(frames):
            frame = av.VideoFrame.from_ndarray(image, format="rgb24")
            frame.pts = k
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return path


def _video(path: Path, moving: list[bool]) -> Path:
    """A 64x36 grey video, one frame a second tenth; a frame moves where ``moving`` says."""
    frames, shade = [], 40
    for move in moving:
        shade = (shade + 60) % 200 if move else shade
        frames.append(np.full((36, 64, 3), shade, np.uint8))
    return _encode(path, frames)


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


def _drawn(path: Path, frames: list[np.ndarray]) -> Path:
    """A 160x96 lossless video of the given RGB frames (so 20x12 once shrunk 8 times)."""
    return _encode(path, frames, lossless=True)


def test_the_picture_measure_counts_stills_fades_and_empty_frames(tmp_path: Path) -> None:
    from scenes.gates.picture import measure as picture

    background = np.full((96, 160, 3), 17, np.uint8)  # the dark theme's #111318, roughly
    drawn = background.copy()
    drawn[40:60, 40:120] = 230  # a shape in the middle band: 13 % of it
    title_only = background.copy()
    title_only[0:8] = 230  # only in the title band: the picture is empty
    # 1 s empty (title only), 4 s of a shape that never moves, 2 s moving every frame.
    frames = [title_only] * FPS + [drawn] * (4 * FPS)
    frames += [np.roll(drawn, 2 * k, axis=1) for k in range(1, 2 * FPS + 1)]
    p = picture(_drawn(tmp_path / "p.mp4", frames), "#111318")
    assert p.frames == 7 * FPS
    assert p.near_empty_seconds == 0.5  # the first 0.5 s are the opening, not counted
    assert p.long_stills == (4.0,)  # the shape's 4 s; the 1 s title is too short
    assert p.long_still_starts == (1.0,)  # it begins on the shape's first frame
    # 9 still frames after the first, 39 in the shape's run (its first frame changed).
    assert p.still_frames == (FPS - 1) + (4 * FPS - 1)
