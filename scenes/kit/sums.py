"""Sums drawn as vectors: a weighted sum as scaled arrows laid tip to tail on a plane of two
of the vectors' dimensions (:class:`TipToTail`), and a weighted sum of numbers as shrunk bars
laid end to end on a number line (:class:`SumLine`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Arrow,
    Axes,
    Dot,
    FadeIn,
    GrowArrow,
    GrowFromEdge,
    LaggedStart,
    Line,
    ManimColor,
    NumberLine,
    Rectangle,
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
        self.weights, self.source, self.names = list(weights), source, list(names)
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
                label = self.share(j).next_to(dot, DOWN, buff=style.ITEM_BUFF)  # under the origin
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

    def share(self, j: int, size: float = style.SMALL_SIZE) -> VGroup:
        """Term ``j``'s weight and name, ``0.54 × v(吃)`` (the weight read from the data
        file), unplaced."""
        number = ShownNumber(self.weights[j], 2, Ref(f"{self.source}[{j}]"), size, self.colour)
        label = VGroup(number, style.text(f"× {self.names[j]}", size, self.colour))
        return label.arrange(RIGHT, buff=style.TIGHT_BUFF * 2)

    def term_label(self, j: int, laid: bool = False, size: float = style.SMALL_SIZE) -> VGroup:
        """Term ``j``'s weight and name (:meth:`share`) beside its shrunk arrow: from the
        origin, or (``laid``) where it lies in the chain; under an arrow that runs more
        across than up, right of one that runs more up (a term drawn as a dot: its own
        label, a copy)."""
        if self.flat[j]:
            return self.get_dot(j)[1].copy()
        k = self.on_plane.index(j)
        arrow = (self.chain if laid else self.scaled)[k]
        run = arrow.get_end() - arrow.get_start()
        side = DOWN if abs(run[0]) >= abs(run[1]) else RIGHT
        return self.share(j, size).next_to(arrow, side, buff=style.HUG_BUFF)

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


ROW_FILL = 0.8  # a bar's height, as a share of the rows' pitch


class SumLine(VGroup):
    """A weighted sum of numbers ``Σ w_j v_j`` on a number line: each number a faint track
    from 0 as long as itself (to the left when negative), one row each (the first at the
    top), its term ``w_j v_j`` a bar on its row that starts where the row above ended, so the
    terms lie end to end and the last ends at the sum (with weights adding up to 1, the
    weighted average), marked down to the line.

    Parameters
    ----------
    axis
        The number line (already placed); the rows stand above it.
    values
        The numbers ``v_j``, as read from the data file.
    weights
        Their weights ``w_j``, as read from the data file.
    pitch
        From one row to the next.
    colour
        The terms' colour (the Value's: :data:`scenes.kit.style.VALUE`).

    Examples
    --------
    .. manim:: SumLineExample
        :save_last_frame:

        class SumLineExample(Scene):
            def construct(self):
                axis = NumberLine(x_range=[0, 10, 1], length=6, include_tip=False)
                sums = SumLine(axis, [5, 1, 3, 7, 10], [0.56, 0.01, 0.1, 0.04, 0.29])
                self.add(axis, sums.tracks, sums.terms, sums.end)
    """

    def __init__(
        self,
        axis: NumberLine,
        values: Sequence[float],
        weights: Sequence[float],
        pitch: float = 0.3,
        colour: ManimColor | None = None,
    ) -> None:
        super().__init__()
        self.axis = axis
        colour = colour or style.VALUE
        n = len(values)
        self.tracks, self.terms = VGroup(), VGroup()
        reach = 0.0
        for j, (v, w) in enumerate(zip(values, weights, strict=True)):
            y = (n - j) * pitch
            track = self._bar(0.0, v, y, pitch).set_fill(colour, opacity=0.15)
            self.tracks.add(track.set_stroke(colour, width=1, opacity=0.6))
            term = self._bar(reach, reach + w * v, y, pitch).set_fill(colour, opacity=1)
            self.terms.add(term.set_stroke(width=0))
            reach += w * v
        self.reach = reach
        top = axis.n2p(reach) + UP * (n * pitch + pitch * ROW_FILL / 2)
        self.end = Line(axis.n2p(reach), top).set_stroke(style.RESULT, width=4)
        self.add(self.tracks)

    def _bar(self, start: float, end: float, y: float, pitch: float) -> Rectangle:
        left, right = self.axis.n2p(start), self.axis.n2p(end)
        bar = Rectangle(width=max(abs(right[0] - left[0]), 0.001), height=pitch * ROW_FILL)
        return bar.move_to((left + right) / 2 + UP * y)

    def get_track(self, j: int) -> Rectangle:
        """Row ``j``'s track: 0 to ``v_j``."""
        return self.tracks[j]

    def get_term(self, j: int) -> Rectangle:
        """Row ``j``'s term ``w_j v_j``, starting where the terms above it end."""
        return self.terms[j]

    def get_end(self) -> np.ndarray:
        """The sum's point on the number line."""
        return self.axis.n2p(self.reach)

    def draw_tracks(self) -> Animation:
        """The tracks grow from 0, one after another."""
        return LaggedStart(*(GrowFromEdge(t, LEFT) for t in self.tracks), lag_ratio=0.3)

    def lay_terms(self) -> Animation:
        """Each term grows in its row, one after another, each where the last ended."""
        return LaggedStart(*(GrowFromEdge(t, LEFT) for t in self.terms), lag_ratio=0.5)
