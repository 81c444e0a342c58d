"""Devices the narration feeds and turns: the colour task's model as a box a sequence flows
through (:class:`ModelBox`), a row of numbers under a strip's columns, its outputs or
its answers (:func:`output_row`), the knob several chapters turn (:class:`Knob`), sums
that wander further the more terms they add (:class:`RandomWalks`), and a dot product as two
arrows, the angle between them and one's shadow on the other (:class:`DotArrows`), and exp as
a curve that stretches the gaps between scores (:class:`ExpCurve`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    PI,
    RIGHT,
    UP,
    AnimationGroup,
    Arc,
    Arrow,
    Brace,
    Circle,
    Create,
    DashedLine,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    Indicate,
    Line,
    ManimColor,
    MathTex,
    Mobject,
    Rotate,
    RoundedRectangle,
    VGroup,
    VMobject,
)

from scenes.kit import style
from scenes.kit.numbers import Ref, ShownNumber
from scenes.kit.turns import InTurn

BOX_HEIGHT = 0.95  # the head's and the readout's boxes
ARROW_LENGTH = 0.55  # the flow into the box and out of it


class ModelBox(VGroup):
    """The model of the colour task: a head (its W_Q, W_K, W_V) and then a linear readout,
    side by side in one box as wide as the sequence that flows through it; an arrow in over
    it and an arrow out under it.

    Parameters
    ----------
    width
        The box's width (the strip's that flows through it).
    head_label, readout_label
        The two parts' names, in the lecture's language.

    Examples
    --------
    .. manim:: ModelBoxExample
        :save_last_frame:

        class ModelBoxExample(Scene):
            def construct(self):
                self.add(ModelBox(6.0, "head", "readout"))
    """

    def __init__(self, width: float, head_label: str, readout_label: str) -> None:
        super().__init__()
        self.weights = VGroup(
            *(MathTex(f"W_{r}", color=c) for r, c in zip("QKV", _roles(), strict=True))
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        head_name = style.text(head_label, style.LABEL_SIZE, style.MUTED)
        readout_name = style.text(readout_label, style.LABEL_SIZE)
        head_inside = VGroup(head_name, self.weights).arrange(RIGHT, buff=style.GROUP_BUFF)
        readout_w = max(readout_name.width + 2 * style.GROUP_BUFF, width * 0.3)
        head_w = max(width - readout_w - style.ITEM_BUFF, head_inside.width + style.GROUP_BUFF)
        self.head = VGroup(
            RoundedRectangle(corner_radius=0.12, width=head_w, height=BOX_HEIGHT), head_inside
        )
        self.readout = VGroup(
            RoundedRectangle(corner_radius=0.12, width=readout_w, height=BOX_HEIGHT),
            readout_name,
        )
        VGroup(self.head, self.readout).arrange(RIGHT, buff=style.ITEM_BUFF)
        body = VGroup(self.head, self.readout)
        self.into = Arrow(UP * ARROW_LENGTH, ORIGIN, buff=0, color=style.MUTED)
        self.into.next_to(body, UP, buff=style.TIGHT_BUFF)
        self.out = Arrow(UP * ARROW_LENGTH, ORIGIN, buff=0, color=style.MUTED)
        self.out.next_to(body, DOWN, buff=style.TIGHT_BUFF)
        self.add(self.into, self.head, self.readout, self.out)

    def get_parameters(self) -> list[Mobject]:
        """What training changes, in the order the narration names it: W_Q, W_K, W_V and
        the readout."""
        return [*self.weights, self.readout]

    def feed(self, strip: Mobject, outputs: Mobject) -> InTurn:
        """A sequence (``strip``, standing over the box) flowing through it: the strip's
        copy sinks into the head, the head and the readout light in turn, and ``outputs``
        come out under the box."""
        ghost = strip.copy().set_opacity(0.6)
        return InTurn(
            FadeOut(ghost, target_position=self.head[0], scale=0.3),
            AnimationGroup(
                Indicate(self.head, color=style.HIGHLIGHT, scale_factor=1.03),
                Indicate(self.readout, color=style.HIGHLIGHT, scale_factor=1.03),
                lag_ratio=0.5,
            ),
            FadeIn(outputs, shift=DOWN * 0.3, lag_ratio=0.05),
        )


def _roles() -> tuple:
    """The Query's, Key's and Value's colours (read when drawn: the theme may change)."""
    return style.QUERY, style.KEY, style.VALUE


def output_row(
    values: Sequence[float], source: str, columns: Sequence[Mobject], name: str, decimals: int = 2
) -> VGroup:
    """A row of numbers (a model's outputs, or the answers), each under its column of a
    strip, named on the left (``ŷ``, ``y``)."""
    numbers = VGroup(
        *(
            ShownNumber(v, decimals, Ref(f"{source}[{k}]"), style.SMALL_SIZE).match_x(column)
            for k, (v, column) in enumerate(zip(values, columns, strict=True))
        )
    )
    label = MathTex(name, font_size=36, color=style.MUTED)
    label.next_to(numbers, LEFT, buff=style.GROUP_BUFF)
    return VGroup(label, numbers)


KNOB_SWEEP = 1.5 * PI  # the dial's travel, from its lowest notch to its highest
ZOOMED = 3  # the walks divided by √t are drawn on an axis of ±3
MIN_ANGLE = 0.05  # radians: an angle smaller than this (a vector with itself) is not marked


class Knob(VGroup):
    """A dial with notches, turned by the narration: one setting that several things set
    (the office arrow's length, the temperature T, d without √d all scale the scores).

    Parameters
    ----------
    notches
        How many positions the dial has (the first at its lower left, the last at its
        lower right, clockwise).
    label
        What it sets, written under it.
    radius
        The dial's radius.
    at
        The notch it starts at.

    Examples
    --------
    .. manim:: KnobExample
        :save_last_frame:

        class KnobExample(Scene):
            def construct(self):
                self.add(Knob(6, "scale", at=2))
    """

    def __init__(self, notches: int, label: str, radius: float = 0.9, at: int = 0) -> None:
        super().__init__()
        self.notches, self.at = notches, at
        self.dial = Circle(radius=radius).set_stroke(style.FOREGROUND, width=3)
        self.track = Arc(
            radius=radius * 1.2,
            start_angle=self._angle(0),
            angle=-KNOB_SWEEP,
            color=style.MUTED,
        )
        self.marks = VGroup(
            *(
                Line(
                    self._on_circle(radius * 1.12, k), self._on_circle(radius * 1.3, k)
                ).set_stroke(style.MUTED, width=3)
                for k in range(notches)
            )
        )
        self.pointer = VGroup(
            Line(ORIGIN, self._on_circle(radius * 0.85, at)).set_stroke(style.HIGHLIGHT, width=6),
            Dot(ORIGIN, radius=0.07, color=style.HIGHLIGHT),
        )
        self.name = style.text(label, style.LABEL_SIZE)
        self.name.next_to(self.marks, DOWN, buff=style.ITEM_BUFF)
        self.add(self.track, self.marks, self.dial, self.pointer, self.name)

    def _angle(self, notch: int) -> float:
        """The direction of a notch: the first at 225°, then clockwise over the sweep."""
        return 1.25 * PI - KNOB_SWEEP * notch / max(self.notches - 1, 1)

    def _on_circle(self, r: float, notch: int) -> np.ndarray:
        a = self._angle(notch)
        return np.array([r * math.cos(a), r * math.sin(a), 0.0])

    def get_centre(self) -> np.ndarray:
        return self.dial.get_center()

    def turn(self, notch: int) -> Rotate:
        """Turn the pointer to ``notch`` (the knob then stands there)."""
        angle = self._angle(notch) - self._angle(self.at)
        self.at = notch
        return Rotate(self.pointer, angle=angle, about_point=self.dial.get_center())


class RandomWalks(VGroup):
    """Sums of random terms, term by term (q·k's products q_i k_i added one at a time):
    each a walk against the count of terms, with the band ±√t that their spread follows and
    their spread at any count of terms as a bar from the lowest to the highest (:meth:`spread`).

    Parameters
    ----------
    walks
        Each walk's running sums, as read from the data file (all of one length).
    terms_source
        Data-file path of the walks' length (written at the end of the terms' axis).
    terms_label
        The terms' axis's name ("d").
    width, height
        The plot's size.

    Examples
    --------
    .. manim:: RandomWalksExample
        :save_last_frame:

        class RandomWalksExample(Scene):
            def construct(self):
                walks = [
                    [math.sqrt(t) * math.sin(t / (9 + 4 * w)) * (1 + w) for t in range(200)]
                    for w in range(4)
                ]
                rw = RandomWalks(walks)
                self.add(rw, rw.band(), rw.divided())
    """

    def __init__(
        self,
        walks: Sequence[Sequence[float]],
        terms_source: str = "",
        terms_label: str = "d",
        width: float = 6.0,
        height: float = 4.2,
    ) -> None:
        super().__init__()
        self.terms = len(walks[0])
        reach = max(max(abs(v) for v in walk) for walk in walks)
        reach = max(reach, 1.2 * math.sqrt(self.terms))  # the band ±√t fits at the end
        self.reach = math.ceil(reach / 10) * 10
        self.axes = style.muted_axes(
            [0, self.terms, self.terms / 4],
            [-self.reach, self.reach, self.reach / 2],
            width,
            height,
        )
        self.walks = VGroup(*(self._line(walk) for walk in walks))
        for k, walk in enumerate(self.walks):
            walk.set_stroke(style.FOREGROUND, width=2, opacity=1 - 0.12 * k)
        self.originals = [list(walk) for walk in walks]
        end = ShownNumber(self.terms, 0, Ref(terms_source), color=style.MUTED)
        end.next_to(self.axes.c2p(self.terms, -self.reach), DOWN, buff=style.ITEM_BUFF)
        name = style.text(terms_label, style.SMALL_SIZE, style.MUTED)
        name.next_to(self.axes.x_axis, DOWN, buff=style.ITEM_BUFF)
        name.next_to(self.axes.c2p(self.terms / 2, -self.reach), DOWN, buff=style.ITEM_BUFF)
        ticks = VGroup(
            *(
                style.tick_label(f"{v:+g}" if v else "0").next_to(
                    self.axes.c2p(0, v), LEFT, buff=style.ITEM_BUFF
                )
                for v in (-self.reach, 0, self.reach)
            )
        )
        self.ticks = ticks
        self.frame = VGroup(self.axes, end, name, ticks)
        self.add(self.frame, self.walks)

    def _line(self, values: Sequence[float]) -> VMobject:
        step = max(len(values) // 256, 1)  # enough points for the eye
        points = [self.axes.c2p(t + 1, values[t]) for t in range(0, len(values), step)]
        return VMobject().set_points_as_corners([self.axes.c2p(0, 0), *points])

    def spread(self, t: float) -> Line:
        """The walks' spread after ``t`` terms: a bar from the lowest of them to the highest
        at that count (it widens as t grows, as the band ±√t does)."""
        k = min(max(round(t), 1), self.terms)
        values = [walk[k - 1] for walk in self.originals]
        bar = Line(self.axes.c2p(k, min(values)), self.axes.c2p(k, max(values)))
        return bar.set_stroke(style.HIGHLIGHT, width=6)

    def band(self) -> VGroup:
        """The curves ±√t: one standard deviation of a sum of t terms of variance 1."""
        curves = VGroup(
            *(
                self.axes.plot(lambda t, s=sign: s * math.sqrt(t), x_range=[0, self.terms])
                for sign in (1, -1)
            )
        )
        return curves.set_stroke(style.HIGHLIGHT, width=3)

    def divided(self) -> VGroup:
        """The same walks, each sum divided by √t, on an axis zoomed to ±:data:`ZOOMED`
        (the walks no longer wander further: their band is ±1 at every t), drawn over the
        walks' places (a target to transform them into, with :meth:`zoomed_ticks`)."""
        zoom = self.reach / ZOOMED
        return VGroup(
            *(
                self._line([zoom * v / math.sqrt(t + 1) for t, v in enumerate(walk)]).match_style(
                    line
                )
                for walk, line in zip(self.originals, self.walks, strict=True)
            )
        )

    def zoomed_ticks(self) -> VGroup:
        """The y axis's labels once zoomed to ±:data:`ZOOMED` (a target for its labels)."""
        return VGroup(
            *(
                style.tick_label(f"{v:+g}" if v else "0").move_to(tick)
                for v, tick in zip((-ZOOMED, 0, ZOOMED), self.ticks, strict=True)
            )
        )

    def flat_band(self) -> VGroup:
        """The band ±1 at every t (after the division, on the zoomed axis)."""
        zoom = self.reach / ZOOMED
        return VGroup(
            *(
                Line(self.axes.c2p(0, s * zoom), self.axes.c2p(self.terms, s * zoom))
                for s in (1, -1)
            )
        ).set_stroke(style.HIGHLIGHT, width=3)


class DotArrows(VGroup):
    """A dot product drawn: two arrows from one point, the angle θ between them, and the
    second's shadow on the first (|b| cos θ, dashed from its tip), so a · b = |a| × shadow:
    it grows with how alike the directions are and with the two lengths. Any two vectors
    lie in one plane, so the picture is exact for vectors of any width: ``a`` along the
    plane's first axis, ``b`` at its angle.

    Parameters
    ----------
    a, b
        The two vectors, as read from the data file (any one width).
    a_label, b_label
        Their names (LaTeX), drawn at their tips.
    a_color, b_color
        Their role colours.
    unit
        Scene units per unit of length.

    Examples
    --------
    .. manim:: DotArrowsExample
        :save_last_frame:

        class DotArrowsExample(Scene):
            def construct(self):
                self.add(DotArrows([0.8, 2.0, 0.8, 0.0], [0.0, 2.0, 0.0, 0.0], "q", "k"))
    """

    def __init__(
        self,
        a: Sequence[float],
        b: Sequence[float],
        a_label: str,
        b_label: str,
        a_color: ManimColor | None = None,
        b_color: ManimColor | None = None,
        unit: float = 1.0,
    ) -> None:
        super().__init__()
        a_len = math.sqrt(sum(x * x for x in a))
        b_len = math.sqrt(sum(x * x for x in b))
        cos = sum(x * y for x, y in zip(a, b, strict=True)) / (a_len * b_len or 1.0)
        theta = math.acos(max(-1.0, min(1.0, cos)))
        tip_b = unit * b_len * np.array([math.cos(theta), math.sin(theta), 0.0])
        self.a = Arrow(ORIGIN, unit * a_len * RIGHT, buff=0, color=a_color or style.QUERY)
        self.b = Arrow(ORIGIN, tip_b, buff=0, color=b_color or style.KEY)
        foot = np.array([tip_b[0], 0.0, 0.0])
        self.drop = DashedLine(tip_b, foot, color=style.MUTED)
        self.shadow = Line(ORIGIN, foot).set_stroke(style.HIGHLIGHT, width=10, opacity=0.8)
        self.angle = Arc(radius=min(0.5, unit * min(a_len, b_len) / 3), angle=theta)
        self.angle.set_stroke(style.HIGHLIGHT, width=3)
        theta_name = MathTex(r"\theta", font_size=32, color=style.HIGHLIGHT)
        theta_name.move_to(self.angle.point_from_proportion(0.5) * 1.6)
        self.angle_group = VGroup(self.angle, theta_name) if theta > MIN_ANGLE else VGroup()
        self.names = VGroup(
            MathTex(a_label, color=self.a.get_color()).next_to(self.a, RIGHT, buff=style.ITEM_BUFF),
            MathTex(b_label, color=self.b.get_color()).next_to(tip_b, UP, buff=style.ITEM_BUFF),
        )
        self.add(self.shadow, self.drop, self.a, self.b, self.angle_group, self.names)

    def get_arrows(self) -> VGroup:
        return VGroup(self.a, self.b, self.names)

    def get_shadow(self) -> VGroup:
        """The dashed drop from b's tip and b's shadow along a."""
        return VGroup(self.drop, self.shadow)


EXP_HEADROOM = 1.0  # the y axis reaches this far above the largest exp


class ExpCurve(VGroup):
    """exp as a curve that stretches the gaps: axes with y = eˣ over a range of scores, each
    score a dot on the x axis that rises to the curve and goes across to its exp on the y
    axis. The curve never reaches the x axis (every exp is positive), and a step of 1 along
    x multiplies the height by e: equal gaps in the scores become equal ratios of the exps.

    Parameters
    ----------
    scores
        One row of scores, as read from the data file.
    exps
        Their exps, as read from the data file (written on the y axis).
    scores_source, exps_source
        Data-file paths of the two rows; entry ``k`` is ``source[k]``.
    x_range
        The scores' axis, (from, to); by default from one below the smallest score (or 0)
        to half a unit past the largest. The curve is drawn as far as the y axis reaches.
    width, height
        The plot's size.

    Examples
    --------
    .. manim:: ExpCurveExample
        :save_last_frame:

        class ExpCurveExample(Scene):
            def construct(self):
                scores = [0.84, 2.0, 1.4]
                exps = [math.exp(s) for s in scores]
                curve = ExpCurve(scores, exps, "s", "e", x_range=(-2, 2.5))
                self.add(curve, *curve.get_rises(), curve.gap_marks(2, 1))
    """

    def __init__(
        self,
        scores: Sequence[float],
        exps: Sequence[float],
        scores_source: str = "",
        exps_source: str = "",
        x_range: tuple[float, float] | None = None,
        width: float = 6.5,
        height: float = 4.2,
    ) -> None:
        super().__init__()
        lo, hi = x_range or (math.floor(min(0.0, *scores)) - 1.0, max(scores) + 0.5)
        self.y_top = math.ceil(max(exps)) + EXP_HEADROOM
        self.axes = style.muted_axes([lo, hi, 1], [0, self.y_top, 1], width, height)
        self.curve = self.axes.plot(math.exp, x_range=[lo, min(hi, math.log(self.y_top))])
        self.curve.set_stroke(style.FOREGROUND, width=4)
        self.formula = MathTex("y = e^{x}", font_size=36)
        self.formula.next_to(self.curve.get_end(), RIGHT, buff=style.ITEM_BUFF)
        self.zero = style.tick_label("0").next_to(self.axes.c2p(0, 0), DOWN + LEFT, buff=0.08)
        self.values = list(scores)
        self.scores = self.marks_on_x(scores, scores_source)
        self.marked = VGroup()  # the last gap :meth:`mark_gap` drew
        self.exps = VGroup(
            *(ShownNumber(e, 2, Ref(f"{exps_source}[{k}]")) for k, e in enumerate(exps))
        )
        self.exp_values = list(exps)
        self.rises: dict[int, VGroup] = {}  # drawn where the axes stand when first asked for
        self.add(self.axes, self.zero, self.curve, self.formula, self.scores)

    def marks_on_x(
        self, values: Sequence[float], source: str, above: bool = False, opacity: float = 1.0
    ) -> VGroup:
        """A dot on the x axis at each value, its number under it (over it, ``above``)."""
        marks = VGroup()
        for k, v in enumerate(values):
            dot = Dot(self.axes.c2p(v, 0), radius=0.07, color=style.FOREGROUND)
            number = ShownNumber(v, 2, Ref(f"{source}[{k}]"))
            number.next_to(dot, UP if above else DOWN, buff=style.ITEM_BUFF)
            marks.add(VGroup(dot, number).set_opacity(opacity))
        return marks

    def _rise(self, score: float, exp: float) -> VGroup:
        """The dashed line up from a score to the curve, its point, and across to the y axis."""
        top = self.axes.c2p(score, math.exp(score))
        up = DashedLine(self.axes.c2p(score, 0), top, color=style.MUTED)
        across = DashedLine(top, self.axes.c2p(0, math.exp(score)), color=style.MUTED)
        return VGroup(up, Dot(top, radius=0.07, color=style.FOREGROUND), across)

    def get_axes(self) -> Mobject:
        return self.axes

    def get_curve(self) -> VMobject:
        return self.curve

    def get_score(self, k: int) -> VGroup:
        """Score ``k``'s dot and number on the x axis."""
        return self.scores[k]

    def get_exp(self, k: int) -> ShownNumber:
        """Score ``k``'s exp, written on the y axis."""
        return self.exps[k]

    def get_rise(self, k: int) -> VGroup:
        """Score ``k``'s way up to the curve (dashed), its point and the way across to the y
        axis (dashed), and its exp written there: made where the axes stand now, on the first
        call (so after the plot has been laid out), the same objects after that."""
        if k not in self.rises:
            exp = self.exps[k].scale_to_fit_height(self.scores[0][1].height)  # as laid out
            exp.next_to(self.axes.c2p(0, self.exp_values[k]), LEFT, buff=style.ITEM_BUFF)
            self.rises[k] = self._rise(self.values[k], math.exp(self.values[k]))
        return VGroup(self.rises[k], self.exps[k])

    def get_rises(self) -> list[VGroup]:
        """Each score's :meth:`get_rise`."""
        return [self.get_rise(k) for k in range(len(self.values))]

    def rise(self, k: int) -> InTurn:
        """Score ``k`` rises to the curve, and its height goes across to the y axis, where
        its exp is written."""
        (up, point, across), _ = self.get_rise(k)
        return InTurn(
            Create(up, run_time=0.4),
            FadeIn(point, run_time=0.1),
            Create(across, run_time=0.3),
            FadeIn(self.exps[k], shift=LEFT * 0.2, run_time=0.2),
        )

    def rise_from(self, x: float) -> VGroup:
        """The dashed line up from ``x`` on the x axis to the curve, and its point (a score
        whose exp is not written, a negative one, say: it still rises above the axis)."""
        up, point, _ = self._rise(x, math.exp(x))
        return VGroup(up, point)

    def step(self, x0: float, label_x: Mobject, label_y: Mobject) -> VGroup:
        """One step along the curve from ``x0`` to ``x0 + 1``: across by 1 under the curve,
        then up to it (the height multiplied by e), each leg labelled."""
        start, corner = self.axes.c2p(x0, math.exp(x0)), self.axes.c2p(x0 + 1, math.exp(x0))
        end = self.axes.c2p(x0 + 1, math.exp(x0 + 1))
        legs = VGroup(Line(start, corner), Line(corner, end)).set_stroke(style.HIGHLIGHT, width=5)
        label_x.next_to(legs[0], DOWN, buff=style.ITEM_BUFF)
        label_y.next_to(legs[1], RIGHT, buff=style.ITEM_BUFF)
        return VGroup(legs, label_x, label_y)

    def gap_marks(self, i: int, j: int, label: Mobject | None = None) -> VGroup:
        """The gap between scores ``i`` and ``j`` marked on the x axis, and the gap between
        their exps on the y axis, with a brace left of the exps and ``label`` beside it (their
        ratio)."""
        xi, xj = self.values[i], self.values[j]
        self.get_rise(i), self.get_rise(j)  # the exps written in their places
        on_x = Line(self.axes.c2p(xi, 0), self.axes.c2p(xj, 0))
        ei, ej = math.exp(xi), math.exp(xj)
        on_y = Line(self.axes.c2p(0, ei), self.axes.c2p(0, ej))
        marks = VGroup(on_x, on_y).set_stroke(style.HIGHLIGHT, width=8)
        brace = Brace(VGroup(on_y, self.exps[i], self.exps[j]), LEFT, buff=style.ITEM_BUFF)
        brace.set_color(style.HIGHLIGHT)
        group = VGroup(marks, brace)
        if label is not None:
            group.add(label.next_to(brace, LEFT, buff=style.ITEM_BUFF))
        return group

    def mark_gap(self, i: int, j: int, label: Mobject | None = None) -> AnimationGroup:
        """Draw :meth:`gap_marks`: the gap on x first, then the one it becomes on y."""
        marks = self.gap_marks(i, j, label)
        self.marked = marks
        return AnimationGroup(
            Create(marks[0][0]),
            AnimationGroup(Create(marks[0][1]), GrowFromCenter(marks[1]), *map(FadeIn, marks[2:])),
            lag_ratio=0.6,
        )
