"""Emphasis that never hides: the part a line names is outlined, one part at a time.

Manim's ``Indicate`` scales a group and floods it with one colour, so a row of numbers grows
over its neighbours and cannot be read while it is named (issue 44's "emphasis that
hides"). Chapters outline instead: a frame runs round the named part and is gone, the
numbers under it untouched. Several parts named together are outlined in turn, so there is
one focal point at a time. ``tests/test_rooms.py`` keeps ``Indicate`` out of the chapters.
"""

from __future__ import annotations

from manim import Animation, Circumscribe, LaggedStart, ManimColor, Mobject

from scenes.kit import style

TURN = 0.6  # lag between two parts outlined in turn: the next starts as the last fades


def outline(*parts: Mobject, colour: ManimColor | None = None) -> Animation:
    """A frame run round each part in turn (in ``colour``, the highlight by default); the
    parts themselves keep their size, colour and place."""
    frames = [
        Circumscribe(part, color=colour or style.HIGHLIGHT, buff=style.HUG_BUFF) for part in parts
    ]
    return frames[0] if len(frames) == 1 else LaggedStart(*frames, lag_ratio=TURN)
