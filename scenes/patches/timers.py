"""The profile's timers in a render worker (:mod:`common.timers`): put around Manim's parts
when the settings' ``profile`` names a folder, and the shares written there as the worker
ends, ``<folder>/<lang>-<scene>.json``.

They wrap whatever is installed (after the other patches: :func:`scenes.patches.install`
puts them in last), so the work they time is the render's own: the frame writer
(:func:`scenes.patches.fastframes._write_frame`, or Manim's), its colour conversion
(:func:`scenes.patches.fastframes.to_picture`), Manim's drawing and animation loop, its texts
and formulas. A frame written with ``repeat > 1`` is a hold, one with 1 a frame that moves;
a segment encoder's start and flush count as what it encoded. The voice engine is timed
where a line gets its clip (:meth:`scenes.kit.base.LectureScene.say`).
"""

from __future__ import annotations

import atexit
import functools
from pathlib import Path
from typing import Any

from manim import MarkupText, MathTex, Scene, SingleStringMathTex, Tex, Text, config
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from common import timers
from scenes.patches import fastframes


def _wrap(cls: Any, name: str, share: str) -> None:
    """Charge the CPU time inside ``cls.name`` to ``share``."""
    original = getattr(cls, name)

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with timers.timed(share):
            return original(*args, **kwargs)

    setattr(cls, name, wrapper)


def _wrap_encoder() -> None:
    """Time the frames by kind, and each segment encoder's start and flush as its kind."""
    write_frame, init, finish = (
        VideoSegmentEncoder.write_frame,
        VideoSegmentEncoder.__init__,
        VideoSegmentEncoder.finish,
    )

    def timed_write_frame(self: VideoSegmentEncoder, pixels: Any, *, repeat: int = 1) -> None:
        share = timers.HOLDS if repeat > 1 else timers.MOVING
        self._profile_share = share
        timers.count("held" if repeat > 1 else "moving", repeat)
        if repeat > 1:
            timers.count("holds", 1)
        with timers.timed(share):
            write_frame(self, pixels, repeat=repeat)

    def timed_init(self: VideoSegmentEncoder, *args: Any, **kwargs: Any) -> None:
        before = timers.charged(timers.ENCODER_START)
        with timers.timed(timers.ENCODER_START):
            init(self, *args, **kwargs)
        self._profile_start = timers.charged(timers.ENCODER_START) - before

    def timed_finish(self: VideoSegmentEncoder) -> None:
        share = getattr(self, "_profile_share", timers.MOVING)
        with timers.timed(share):
            finish(self)
        # once, though a second finish() does nothing
        timers.settle(timers.ENCODER_START, self.__dict__.pop("_profile_start", 0.0), share)

    VideoSegmentEncoder.write_frame = timed_write_frame
    VideoSegmentEncoder.__init__ = timed_init
    VideoSegmentEncoder.finish = timed_finish


def install(folder: Path, lang: str) -> None:
    """Time this worker's render and write its shares into ``folder`` when it ends."""
    timers.start()
    _wrap(CairoRenderer, "play", "per-frame Python")
    for name in ("update_frame", "get_frame"):
        _wrap(CairoRenderer, name, "drawing")
    for cls in (Text, MarkupText, MathTex, Tex, SingleStringMathTex):
        _wrap(cls, "__init__", "LaTeX and Text")
    _wrap(fastframes, "to_picture", "colour conversion")
    _wrap_encoder()
    scenes: list[str] = []
    render = Scene.render

    def timed_render(self: Scene, *args: Any, **kwargs: Any) -> Any:
        scenes.append(type(self).__module__.rsplit(".", 1)[-1])  # a chapter's file: its name
        with timers.timed("scene build"):
            return render(self, *args, **kwargs)

    Scene.render = timed_render
    atexit.register(lambda: scenes and _write(folder, lang, scenes[0]))


def _write(folder: Path, lang: str, scene: str) -> None:
    timers.write(timers.profile_file(folder, lang, scene), timers.report(config.frame_rate))
