"""Sums drawn as vectors: a weighted sum as scaled arrows laid tip to tail on a plane of two
of the vectors' dimensions (:class:`TipToTail`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    Animation,
    AnimationGroup,
    Arrow,
    Axes,
    Dot,
    FadeIn,
    GrowArrow,
    LaggedStart,
    ManimColor,
    Transform,
    VGroup,
)

from scenes.kit import style
from scenes.kit.numbers import Ref, ShownNumber

ON_PLANE = 1e-3  # a term shorter than this on the plane is drawn as a dot
SUM_WIDTH = 8  # the sum's stroke: thicker than its terms'


class TipToTail(VGroup):
    """A weighted sum ``Σ w_j v_j`` on a plane of two of the vectors' dimensions: each
    vector an arrow from the origin, shrunk by its weight, then the shrunk arrows laid tip to
    tail, and the sum drawn from the origin to where the last one ends.

    A term with nothing on the plane (both its entries 0 there) is a dot at the origin
    labelled by its share and its name, so no term of the sum is silently left out.

    Parameters
    ----------
    plane
        The axes to draw on (already placed); its x axis shows dimension ``dims[0]``, its
        y axis ``dims[1]``.
    vectors
        The vectors ``v_j``, as read from the data file (any width).
    weights
        The weight ``w_j`` of each, as read from the data file.
    source
        Data-file path of ``weights``; a dot's share shows ``source[j]``.
    names
        What each vector is called (``v(我)``), written by a dot.
    dims
        The two dimensions the plane shows: across, then up.
    colour
        The terms' colour (the Value's: :data:`scenes.kit.style.VALUE`).

    Examples
    --------
    .. manim:: TipToTailExample
        :save_last_frame:

        class TipToTailExample(Scene):
            def construct(self):
                plane = style.muted_axes([0, 1.5, 0.5], [0, 1.5, 0.5], 4, 4)
                v = [[1, 0, 0, 0.2], [0, 1, 0, 0], [0, 0.5, 1, 0]]
                sums = TipToTail(plane, v, [0.2, 0.5, 0.3], "w", ["a", "b", "c"], (1, 2))
                self.add(plane, sums.chain, sums.total, sums.dots)
    """

    def __init__(
        self,
        plane: Axes,
        vectors: Sequence[Sequence[float]],
        weights: Sequence[float],
        source: str,
        names: Sequence[str],
        dims: tuple[int, int] = (0, 1),
        colour: ManimColor | None = None,
    ) -> None:
        super().__init__()
        self.plane = plane
        self.colour = colour or style.VALUE
        across, up = dims
        points = [np.array([v[across], v[up]], dtype=float) for v in vectors]
        self.flat = [bool(np.linalg.norm(p) < ON_PLANE) for p in points]
        self.arrows = VGroup()  # the vectors as they are
        self.scaled = VGroup()  # each shrunk by its weight, from the origin
        self.chain = VGroup()  # the shrunk ones, tip to tail
        self.dots = VGroup()  # the terms with nothing on the plane
        self.on_plane: list[int] = []  # the terms drawn as arrows, in order
        reach = np.zeros(2)
        for j, (p, w, flat) in enumerate(zip(points, weights, self.flat, strict=True)):
            if flat:
                dot = Dot(self._at(0, 0), radius=0.07, color=self.colour)
                share = ShownNumber(w, 2, Ref(f"{source}[{j}]"), style.SMALL_SIZE, self.colour)
                label = VGroup(share, style.text(f"× {names[j]}", style.SMALL_SIZE, self.colour))
                label.arrange(RIGHT, buff=style.TIGHT_BUFF * 2)
                label.next_to(dot, DOWN, buff=style.ITEM_BUFF)  # under the origin
                self.dots.add(VGroup(dot, label))
                continue
            self.on_plane.append(j)
            self.arrows.add(self._arrow((0, 0), p))
            self.scaled.add(self._arrow((0, 0), w * p))
            self.chain.add(self._arrow(reach, reach + w * p))
            reach = reach + w * p
        self.reach = reach
        self.total = self._arrow((0, 0), reach, style.RESULT, SUM_WIDTH)
        self.add(self.arrows)

    def _at(self, x: float, y: float) -> np.ndarray:
        return self.plane.c2p(x, y)

    def _arrow(
        self,
        start: Sequence[float],
        end: Sequence[float],
        colour: ManimColor | None = None,
        width: float = 6,
    ) -> Arrow:
        return Arrow(
            self._at(*start),
            self._at(*end),
            buff=0,
            color=colour or self.colour,
            stroke_width=width,
            max_tip_length_to_length_ratio=0.35,
        )

    def get_arrow(self, j: int) -> Arrow | None:
        """Term ``j``'s arrow as it is now (None for a term drawn as a dot)."""
        return None if self.flat[j] else self.arrows[self.on_plane.index(j)]

    def get_dot(self, j: int) -> VGroup | None:
        """Term ``j``'s dot and its label (None for a term drawn as an arrow)."""
        if not self.flat[j]:
            return None
        return self.dots[sum(self.flat[:j])]

    def get_tip(self) -> np.ndarray:
        """Where the sum ends, in the frame."""
        return self._at(*self.reach)

    def get_parts(self) -> VGroup:
        """Everything drawn so far or to be drawn: the arrows, the dots and the sum (the
        dots and the sum join the scene only when their animations play)."""
        return VGroup(self.arrows, self.dots, self.total)

    def draw_vectors(self) -> Animation:
        """Every vector grows from the origin, one after another."""
        return LaggedStart(*(GrowArrow(a) for a in self.arrows), lag_ratio=0.3)

    def scale_term(self, j: int) -> Animation:
        """Term ``j`` shrinks to its weight times itself (a dot: its share is written)."""
        if self.flat[j]:
            return FadeIn(self.get_dot(j))
        k = self.on_plane.index(j)
        return Transform(self.arrows[k], self.scaled[k].copy())

    def lay_tip_to_tail(self) -> Animation:
        """Each shrunk term slides so that it starts where the one before ends."""
        return AnimationGroup(
            *(Transform(a, c.copy()) for a, c in zip(self.arrows, self.chain, strict=True))
        )

    def draw_sum(self) -> Animation:
        """The sum grows from the origin to the last term's tip."""
        return GrowArrow(self.total)
