"""Seams: the pictures one chapter ends on and the next opens on.

Each chapter is rendered on its own (a segment, cached, redone only when what it reads
changes), yet the lecture should not cut to black between two chapters of one part. So a
chapter declares the picture it ends on (``ends_on``) and the next the picture it opens on
(``opens_on``); when the two names agree, the seam is invisible: both build the picture here,
from the data file and the words, at the same place and size, and the next chapter starts from
it at once. A seam is rebuilt, never carried: no segment reads another's frames.

:func:`seam` builds a seam's picture by name (what the gates compare with a chapter's last and
first frames); each builder is a plain function of the scene, registered in :data:`SEAMS`.
:func:`picture_leaves` and :func:`missing_share` are how two pictures are compared: by the
place, size and colours of their drawn parts, as a viewer would compare two frames.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import numpy as np
from manim import RIGHT, Mobject, VGroup, VMobject

from scenes.kit import style

if TYPE_CHECKING:
    from scenes.kit.base import LectureScene

SeamBuilder = Callable[["LectureScene"], VGroup]
SEAMS: dict[str, SeamBuilder] = {}
# Two drawn parts are the same when their centres, widths and heights agree to this (frame
# units: a 1080p frame is 14.2 units wide, so 0.03 is about 4 pixels) and their colours match.
PLACE_TOLERANCE = 0.03
COLOUR_TOLERANCE = 0.02
MIN_SPAN = 0.05  # frame units: a line's width or height, counted as this much


def seam_builder(builder: SeamBuilder) -> SeamBuilder:
    """Register a seam's builder under its function's name."""
    SEAMS[builder.__name__] = builder
    return builder


def seam(scene: LectureScene, name: str) -> VGroup:
    """The picture of the seam ``name``, built in ``scene`` and placed where both chapters show
    it. An unknown name is refused with the names there are."""
    if name not in SEAMS:
        known = ", ".join(sorted(SEAMS))
        raise KeyError(f"scene {type(scene).__name__}: no seam named {name!r} (seams: {known})")
    return SEAMS[name](scene)


@seam_builder
def score_table(scene: LectureScene) -> VGroup:
    """scoring's last picture, softmax's first: the short sentence's shaded 3 × 3 score table
    with its two axes, at its own size against the right edge of the content area."""
    grid, key_axis, query_axis = scene.score_board()
    board = VGroup(grid, key_axis, query_axis)
    style.place(board, aligned=RIGHT)
    return board


def _drawn(m: Mobject) -> bool:
    if not isinstance(m, VMobject) or m.submobjects or len(m.points) == 0:
        return False
    return m.get_fill_opacity() > 0.01 or (m.get_stroke_opacity() > 0.01 and m.stroke_width > 0)


def picture_leaves(mobjects: Iterable[Mobject]) -> np.ndarray:
    """The drawn parts of a picture, one row each: centre x, y, width, height, fill colour and
    opacity, stroke colour and opacity (a title, marked ``gate_title``, left out). A part in
    several groups on screen is drawn, and counted, once."""
    rows, seen = [], set()
    for top in mobjects:
        if getattr(top, "gate_title", False):
            continue
        for m in top.get_family():
            if _drawn(m) and id(m) not in seen:
                seen.add(id(m))
                fill = m.get_fill_opacity() if m.get_fill_opacity() > 0.01 else 0.0
                stroke = m.get_stroke_opacity() if m.stroke_width > 0 else 0.0
                rows.append(
                    [
                        *m.get_center()[:2],
                        m.width,
                        m.height,
                        *(m.get_fill_color().to_rgb() * (fill > 0)),
                        fill,
                        *(m.get_stroke_color().to_rgb() * (stroke > 0)),
                        stroke,
                    ]
                )
    return np.array(rows, dtype=float).reshape(-1, 12)


def missing_share(wanted: np.ndarray, shown: np.ndarray) -> float:
    """The share of ``wanted``'s drawn parts that ``shown`` has not got (each matched once),
    weighed by the area each part spans (a frame round a row counts as much as the row's
    glyphs, not as one of them): 0 when every part is there."""
    if len(wanted) == 0:
        return 0.0
    free = np.ones(len(shown), dtype=bool)
    tolerance = np.array([PLACE_TOLERANCE] * 4 + [COLOUR_TOLERANCE] * 8)
    # a line's box has no area: it counts as a band MIN_SPAN wide
    area = np.maximum(wanted[:, 2], MIN_SPAN) * np.maximum(wanted[:, 3], MIN_SPAN)
    missing = 0.0
    for row, weight in zip(wanted, area, strict=True):
        close = free & np.all(np.abs(shown - row) <= tolerance, axis=1)
        hits = np.flatnonzero(close)
        if len(hits):
            free[hits[0]] = False
        else:
            missing += weight
    return float(missing / area.sum())
