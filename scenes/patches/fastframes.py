"""Frames drawn and encoded without needless work: outlines traced once, frames not copied,
one colour conversion for a whole hold.

Drawing: Manim's camera traces every visible outline into Cairo point by point, in Python,
on every frame, although most outlines on screen have not changed since the last frame (a
fade changes only the opacity, a colour change only the colour, and a table being filled in
leaves its other cells where they were). :func:`install` keeps the traced path of each
outline, keyed by its exact points and the camera's frame, and replays it with one Cairo
call when the same outline is drawn again (measured: about 60% of outlines in the qkv
chapter, about a quarter less drawing time). The same points give the same path, so the
frame is the same: measured, identical frame hashes.

Encoding: Manim hands each frame to :meth:`VideoSegmentEncoder.write_frame` as an RGBA array
it gives up ("the caller must not mutate or reuse pixels"), with ``repeat`` the number of
frames it lasts (a static wait, most often a hold while a narrated line is read). Manim's
own method copies the array into a new PyAV frame once per repeated frame
(``VideoFrame.from_ndarray``: about 11 ms at 1080p) and lets the encoder convert it to YUV
4:2:0 once per repeated frame again (about 4 ms). :func:`install` replaces it with one that
wraps the array without a copy (``VideoFrame.from_numpy_buffer``) and, for a hold, converts
it once and hands the same YUV picture to x264 for every frame of the hold. The bytes x264
receives are the same, so the video is the same, bit for bit (measured: identical frame
hashes).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import av
import cairo
import numpy as np
from manim import VMobject
from manim.camera.camera import Camera
from manim.scene.video_segment_encoder import VideoSegmentEncoder
from manim.typing import RGBAPixelArray

_trace = Camera.set_cairo_context_path  # Manim's own, point by point
_PATHS_KEPT = 256 * 2**20  # bytes of outline points remembered before starting afresh
_paths: dict[tuple, cairo.Path] = {}
_kept = [0]


def _set_cairo_context_path(self: Camera, ctx: cairo.Context, vmobject: VMobject) -> Camera:
    points = vmobject.points
    if len(points) == 0:
        return _trace(self, ctx, vmobject)
    frame = (self.frame_center.tobytes(), self.frame_width, self.frame_height, id(ctx))
    key = (points.tobytes(), frame)
    path = _paths.get(key)
    if path is None:
        _trace(self, ctx, vmobject)
        if _kept[0] > _PATHS_KEPT:
            _paths.clear()
            _kept[0] = 0
        _paths[key] = ctx.copy_path()
        _kept[0] += points.nbytes
    else:
        ctx.new_path()
        ctx.append_path(path)
    return self


def to_picture(pixels: RGBAPixelArray, pixel_format: str) -> av.VideoFrame:
    """The encoder's picture of an RGBA frame: wrapped without a copy, converted once."""
    return av.VideoFrame.from_numpy_buffer(pixels, format="rgba").reformat(format=pixel_format)


def same_pixels(a: RGBAPixelArray, b: RGBAPixelArray) -> bool:
    """Whether two frames are the same picture (compared 8 bytes at a time: about 0.5 ms at
    1080p, against 10 to 15 ms for x264 to encode the frame again)."""
    return a is b or np.array_equal(a.reshape(-1).view(np.uint64), b.reshape(-1).view(np.uint64))


@dataclass
class _Held:
    """The picture waiting to be encoded: it lasts until a different one arrives."""

    pixels: RGBAPixelArray
    pts: int  # its first frame
    frames: int  # how many frames it lasts so far


class _Lasting:
    """One encoder's state: the picture held back, and each encoded picture's length."""

    def __init__(self) -> None:
        self.held: _Held | None = None
        self.frames: dict[int, int] = {}  # pts -> frames the picture lasts


def _lasting(encoder: VideoSegmentEncoder) -> _Lasting:
    state = encoder.__dict__.get("_lasting")
    if state is None:
        state = encoder.__dict__["_lasting"] = _Lasting()
    return state


def _mux(encoder: VideoSegmentEncoder, packets: list[av.Packet]) -> None:
    lengths = _lasting(encoder).frames
    for packet in packets:
        packet.duration = lengths.pop(packet.pts)  # in frames: the encoder's time base
        encoder._container.mux(packet)


def _encode_held(encoder: VideoSegmentEncoder) -> None:
    """Encode the held picture once, lasting all its frames."""
    state = _lasting(encoder)
    held, state.held = state.held, None
    if held is None:
        return
    rate = encoder.spec.frame_rate
    picture = to_picture(held.pixels, encoder.spec.pixel_format)
    picture.pts, picture.time_base = held.pts, Fraction(rate.denominator, rate.numerator)
    picture.duration = held.frames
    state.frames[held.pts] = held.frames
    _mux(encoder, encoder._stream.encode(picture))


def _write_frame(self: VideoSegmentEncoder, pixels: RGBAPixelArray, *, repeat: int = 1) -> None:
    self._validate_frame(pixels, repeat)
    try:
        state = _lasting(self)
        if state.held is not None and same_pixels(state.held.pixels, pixels):
            state.held.frames += repeat  # the same picture, lasting longer
        else:
            _encode_held(self)
            state.held = _Held(pixels, self._next_pts, repeat)
        self._next_pts += repeat
    except BaseException as error:
        raise self._operation_error("encode", error) from error


def _finish(self: VideoSegmentEncoder) -> None:
    if self._closed:
        return
    try:
        _encode_held(self)
        _mux(self, self._stream.encode())  # the encoder's last pictures
    except BaseException as error:
        self.abort()
        raise self._operation_error("finish", error) from error
    self._closed = True
    try:
        self._container.close()
    except BaseException as error:
        raise self._operation_error("finish", error) from error


_MANIMS_OWN = (
    Camera.set_cairo_context_path,
    VideoSegmentEncoder.write_frame,
    VideoSegmentEncoder.finish,
)


def install() -> None:
    """Make every frame Manim draws and encodes take the fast way."""
    Camera.set_cairo_context_path = _set_cairo_context_path
    VideoSegmentEncoder.write_frame = _write_frame
    VideoSegmentEncoder.finish = _finish


def uninstall() -> None:
    """Manim's own way again (to compare the two)."""
    (
        Camera.set_cairo_context_path,
        VideoSegmentEncoder.write_frame,
        VideoSegmentEncoder.finish,
    ) = _MANIMS_OWN
    _paths.clear()
