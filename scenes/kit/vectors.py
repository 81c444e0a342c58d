"""Vectors and arrows: a vector written out (:class:`NumberVector`), weights as bars
(:class:`WeightBars`), weights as the parts of one bar (:class:`ShareBar`), scores as bars
and through exp as towers (:class:`ExpBars`), one word's
attention as arrows (:class:`LookingArrows`), an ordinary network that takes one vector of
a fixed length (:class:`FixedInputNetwork`) and one vector through several matrices
(:class:`Fork`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    PI,
    RIGHT,
    UP,
    Arc,
    Arrow,
    CurvedArrow,
    Line,
    ManimColor,
    Rectangle,
    Square,
    SurroundingRectangle,
    VGroup,
    VMobject,
)

from scenes.kit import style
from scenes.kit.numbers import Ref, ShownNumber

NETWORK_HEIGHT = 0.9  # the box of a network that takes a fixed-length vector
NETWORK_ARROW = 0.5  # the arrow from its input into it
FORK_GAP = 0.6  # between a fork's input, its matrices and their outputs


def _bracket(height: float, side: int) -> VMobject:
    """A square bracket of ``height``; ``side`` -1 opens right (left bracket), 1 opens left."""
    w = 0.08 * side
    corners = [[-w, height / 2, 0], [0, height / 2, 0], [0, -height / 2, 0], [-w, -height / 2, 0]]
    return VMobject().set_points_as_corners(corners).set_stroke(style.FOREGROUND, width=2)


class NumberVector(VGroup):
    """A vector written out: its entries in brackets, with a coloured label before them.

    Parameters
    ----------
    values
        The entries, as read from the data file.
    source
        Data-file path of the vector; entry ``i`` is ``source[i]``.
    label
        What the vector is called (``"q₃"``...), drawn in ``color``.
    color
        The vector's role colour (:data:`scenes.kit.style.QUERY`, ``KEY`` or ``VALUE``).
    decimals
        Digits shown after the decimal point.
    size
        The entries' font size.
    column
        Stand the entries one above the other (a column vector) instead of in a row.

    Examples
    --------
    .. manim:: NumberVectorExample
        :save_last_frame:

        class NumberVectorExample(Scene):
            def construct(self):
                self.add(NumberVector([0.5, 2.0, 0.8, 0.0], "q", "q", style.QUERY))
    """

    def __init__(
        self,
        values: Sequence[float],
        source: str,
        label: str = "",
        color: ManimColor | None = None,
        decimals: int = 2,
        size: float = style.SMALL_SIZE,
        column: bool = False,
    ) -> None:
        super().__init__()
        color = color or style.FOREGROUND
        self.entries = VGroup(
            *(ShownNumber(v, decimals, Ref(f"{source}[{i}]"), size) for i, v in enumerate(values))
        )
        if column:  # the decimal points one under the other
            self.entries.arrange(DOWN, buff=0.12, aligned_edge=RIGHT)
        else:
            self.entries.arrange(RIGHT, buff=0.22)
        height = self.entries.height + 0.2
        self.brackets = VGroup(
            _bracket(height, -1).next_to(self.entries, LEFT, buff=0.1),
            _bracket(height, 1).next_to(self.entries, RIGHT, buff=0.1),
        ).set_color(color)
        self.add(self.entries, self.brackets)
        self.label = style.text(label, style.LABEL_SIZE, color) if label else VGroup()
        if label:
            self.add(self.label.next_to(self.brackets[0], LEFT, buff=style.ITEM_BUFF))

    def get_entry(self, i: int) -> ShownNumber:
        return self.entries[i]


EXP_BAR_SHARE = 0.6  # a score's bar: this share of the step between bars
EXP_BAR_FLOOR = 1e-3  # the least height a bar or tower is drawn with (a score of 0, exp ≈ 0)
BAR_HEIGHT = 0.34


class WeightBars(VGroup):
    """Weights as horizontal bars: a label, a bar as long as the weight, the weight written.

    Parameters
    ----------
    labels
        One mobject per bar (a name, a token), placed left of it.
    weights
        The weights in [0, 1], as read from the data file.
    source
        Data-file path of the weights; bar ``j`` shows ``source[j]``.
    length
        Length of a bar of weight 1.
    color
        Fill of the bars (weights are :data:`scenes.kit.style.WEIGHT`).
    bar_height
        Height of one bar.

    Examples
    --------
    .. manim:: WeightBarsExample
        :save_last_frame:

        class WeightBarsExample(Scene):
            def construct(self):
                self.add(WeightBars([style.text("a"), style.text("b")], [0.25, 0.75], "w"))
    """

    def __init__(
        self,
        labels: Sequence[VMobject],
        weights: Sequence[float],
        source: str,
        length: float = 3.0,
        color: ManimColor | None = None,
        bar_height: float = BAR_HEIGHT,
    ) -> None:
        super().__init__()
        color = color or style.WEIGHT
        self.rows = VGroup()
        pitch = bar_height + style.ITEM_BUFF
        for j, (label, w) in enumerate(zip(labels, weights, strict=True)):
            track = Rectangle(width=length, height=bar_height).set_stroke(style.MUTED, width=1)
            track.shift(DOWN * pitch * j)
            bar = Rectangle(width=max(w * length, 0.001), height=bar_height)
            bar.set_stroke(width=0).set_fill(color, opacity=1)
            bar.move_to(track).align_to(track, LEFT)
            number = ShownNumber(w, 2, Ref(f"{source}[{j}]"))
            number.next_to(track, RIGHT, buff=style.ITEM_BUFF)
            label.next_to(track, LEFT, buff=style.ITEM_BUFF)
            self.rows.add(VGroup(label, track, bar, number))
        self.add(self.rows)


class ShareBar(VGroup):
    """Values as the parts of one bar of a fixed length, laid end to end: each part as long as
    its share of the values' total, so the parts always fill the whole bar (softmax's total
    of 1, however the shares move).

    Parameters
    ----------
    values
        The values to share the bar (weights, or exps before they are divided by their sum),
        as read from the data file; none negative, at least one positive.
    length
        Length of the whole bar.
    height
        Height of the bar.
    fills
        One colour per part, one colour for all, or ``None``: each part in the heat of its
        share (the colour its cell of an attention map has).
    edge
        Colour of the thin line between parts (the background by default, so parts read as
        cuts of one bar).

    Examples
    --------
    .. manim:: ShareBarExample
        :save_last_frame:

        class ShareBarExample(Scene):
            def construct(self):
                self.add(ShareBar([1.0, 2.7, 7.4], length=6))
    """

    def __init__(
        self,
        values: Sequence[float],
        length: float,
        height: float = BAR_HEIGHT,
        fills: Sequence[ManimColor] | ManimColor | None = None,
        edge: ManimColor | None = None,
        edge_width: float = 3,
    ) -> None:
        super().__init__()
        total = sum(values)
        if total <= 0 or min(values) < 0:
            raise ValueError(f"a share bar needs values >= 0 with a positive total: {values}")
        self.shares = [v / total for v in values]
        if fills is None:
            colours = [style.heat(share) for share in self.shares]
        elif isinstance(fills, Sequence) and not isinstance(fills, str):
            colours = list(fills)
        else:
            colours = [fills] * len(values)
        for share, colour in zip(self.shares, colours, strict=True):
            part = Rectangle(width=max(share * length, 1e-3), height=height)
            part.set_fill(colour, opacity=1).set_stroke(edge or style.BACKGROUND, edge_width)
            self.add(part)
        self.arrange(RIGHT, buff=0)

    def get_part(self, j: int) -> Rectangle:
        """Part ``j`` (value ``j``'s share)."""
        return self.submobjects[j]


class ExpBars(VGroup):
    """Scores as signed bars on a zero line, and the same scores through exp as towers:
    softmax's numerators before the division. No exp is negative, so the towers stand on a
    floor at the lowest bar's foot; the highest score's tower reaches the picture's top, and
    every other tower is e^(s − max) times as tall, so a score 1 lower stands 1/e as tall,
    equal scores stand as equal towers, and scores several units lower shrink to nothing.
    Laid end to end and divided by their total, the towers are the weights (a
    :class:`ShareBar` of the exps).

    Parameters
    ----------
    scores
        One row of scores, as read from the data file.
    step
        From one bar's centre to the next (the width of the cells they stand under).
    height
        From the lowest bar's foot to the highest bar's top.
    fills
        One colour per bar, or one for all (the foreground's by default).

    Examples
    --------
    .. manim:: ExpBarsExample
        :save_last_frame:

        class ExpBarsExample(Scene):
            def construct(self):
                bars = ExpBars([2.0, -1.0, 2.0, 0.5], step=1.0, height=4)
                towers = bars.get_towers().next_to(bars, RIGHT, buff=1)
                self.add(bars, towers)
    """

    def __init__(
        self,
        scores: Sequence[float],
        step: float,
        height: float,
        fills: Sequence[ManimColor] | ManimColor | None = None,
    ) -> None:
        super().__init__()
        fills = style.FOREGROUND if fills is None else fills
        top, low = max(scores), min(0.0, *scores)
        if top <= 0:
            raise ValueError(f"exp bars need a positive highest score to scale by: {scores}")
        unit = height / (top - low)
        colours = (
            list(fills)
            if isinstance(fills, Sequence) and not isinstance(fills, str)
            else [fills] * len(scores)
        )
        width = step * EXP_BAR_SHARE
        self.baseline = Line(LEFT * step / 2, RIGHT * (step * (len(scores) - 0.5)))
        self.baseline.set_stroke(style.MUTED, 2)
        self.bars = VGroup()
        self.towers = VGroup()
        for k, (score, colour) in enumerate(zip(scores, colours, strict=True)):
            x = RIGHT * step * k
            bar = Rectangle(width=width, height=max(abs(score) * unit, EXP_BAR_FLOOR))
            bar.move_to(x, DOWN if score >= 0 else UP)
            tower = Rectangle(
                width=width, height=max(math.exp(score - top) * height, EXP_BAR_FLOOR)
            )
            tower.move_to(x + DOWN * -low * unit, DOWN)
            for shape in (bar, tower):
                shape.set_fill(colour, opacity=1).set_stroke(width=0)
            self.bars.add(bar)
            self.towers.add(tower)
        self.floor = self.baseline.copy().shift(DOWN * -low * unit)
        # the towers and their floor travel and scale with the bars, unseen until asked for
        self.add(self.baseline, self.bars, VGroup(self.floor, self.towers).set_opacity(0))

    def get_baseline(self) -> Line:
        """The scores' zero."""
        return self.baseline

    def get_floor(self) -> Line:
        """The towers' zero, under the lowest bar (a new line where it stands now)."""
        return self.floor.copy().set_stroke(opacity=1)

    def get_bars(self) -> VGroup:
        """The scores, each a bar up (positive) or down (negative) from the baseline."""
        return self.bars

    def get_towers(self) -> VGroup:
        """The exps, each a tower up from the floor under its score's bar: new shapes where
        the bars stand now (a bar becomes its tower by a transform)."""
        return VGroup(*(tower.copy().set_fill(opacity=1) for tower in self.towers))


class LookingArrows(VGroup):
    """How one word spreads its attention: an arrow from it to each word, as thick as the
    weight, with the weight written on it (a loop when it looks at itself).

    Parameters
    ----------
    words
        The sentence's words, already laid out in a row.
    looker
        Index of the word that looks.
    weights
        Its weights over ``words``, as read from the data file.
    source
        Data-file path of ``weights``; arrow ``j`` shows ``source[j]``.

    Examples
    --------
    .. manim:: LookingArrowsExample
        :save_last_frame:

        class LookingArrowsExample(Scene):
            def construct(self):
                words = VGroup(*(style.text(w) for w in "ABC")).arrange(RIGHT, buff=1.5)
                self.add(words, LookingArrows(words, 2, [0.2, 0.5, 0.3], "w"))
    """

    def __init__(
        self,
        words: Sequence[VMobject],
        looker: int,
        weights: Sequence[float],
        source: str,
        decimals: int = 2,
    ) -> None:
        super().__init__()
        self.arrows = VGroup()
        self.numbers = VGroup()
        start = words[looker].get_top() + UP * style.ITEM_BUFF
        for j, (word, w) in enumerate(zip(words, weights, strict=True)):
            arrow = self._build_arrow(start, word, j == looker, w)
            number = ShownNumber(w, decimals, Ref(f"{source}[{j}]"), style.LABEL_SIZE)
            if j == looker:
                number.next_to(arrow, RIGHT, buff=style.ITEM_BUFF)
            else:
                number.next_to(arrow.tip, LEFT, buff=style.ITEM_BUFF)  # beside its arrowhead
            # a patch of background keeps a number legible where another arrow passes
            number.add_background_rectangle(color=style.BACKGROUND, opacity=1, buff=0.04)
            self.arrows.add(arrow)
            self.numbers.add(number)
        self.add(self.arrows, self.numbers)

    @staticmethod
    def _build_arrow(start, word: VMobject, itself: bool, weight: float) -> VMobject:
        width = 2 + 14 * weight
        if itself:
            loop = Arc(radius=0.32, start_angle=-PI / 3, angle=-5 * PI / 3)
            loop.next_to(word, UP, buff=style.ITEM_BUFF).add_tip(tip_length=0.18)
            return loop.set_stroke(style.WEIGHT, width=width).set_fill(style.WEIGHT)
        end = word.get_top() + UP * style.ITEM_BUFF
        # counter-clockwise bulges up when going left: every arrow arches over the words
        arrow = CurvedArrow(start, end, angle=PI / 2.2 if end[0] < start[0] else -PI / 2.2)
        return arrow.set_stroke(style.WEIGHT, width=width).set_fill(style.WEIGHT)


class FixedInputNetwork(VGroup):
    """An ordinary network that takes one vector of a fixed length: a socket of ``slots``
    empty squares, an arrow down from it, and the network's box under the arrow.

    A vector fits when its numbers land on the slots (:meth:`get_slots`); a longer one runs
    out of the socket's right end, where nothing takes it.

    Parameters
    ----------
    slots
        How many numbers the network's input takes.
    label
        The network's name, in the lecture's language.
    slot
        Side of one number's square.

    Examples
    --------
    .. manim:: FixedInputNetworkExample
        :save_last_frame:

        class FixedInputNetworkExample(Scene):
            def construct(self):
                self.add(FixedInputNetwork(12, "network"))
    """

    def __init__(self, slots: int, label: str, slot: float = 0.38) -> None:
        super().__init__()
        self.slots = VGroup(*(Square(slot).set_stroke(style.MUTED, 1.5) for _ in range(slots)))
        self.slots.arrange(RIGHT, buff=0)
        self.socket = SurroundingRectangle(self.slots, color=style.MUTED, buff=style.TIGHT_BUFF)
        name = style.text(label, style.LABEL_SIZE, style.MUTED)
        self.box = VGroup(
            Rectangle(
                width=max(name.width + 2 * style.GROUP_BUFF, self.slots.width * 0.4),
                height=NETWORK_HEIGHT,
            ).set_stroke(style.MUTED, 2),
            name,
        )
        self.feed = Arrow(UP * NETWORK_ARROW, ORIGIN, buff=0, color=style.MUTED)
        self.feed.next_to(self.socket, DOWN, buff=style.TIGHT_BUFF)
        self.box.next_to(self.feed, DOWN, buff=style.TIGHT_BUFF)
        self.add(self.slots, self.socket, self.feed, self.box)

    def get_slots(self) -> VGroup:
        """The input's squares, left to right: where a vector's numbers land."""
        return self.slots

    def get_socket(self) -> VMobject:
        """The frame round the slots: the input's fixed length."""
        return self.socket

    def get_box(self) -> VGroup:
        """The network itself: its box and its name."""
        return self.box

    def get_feed(self) -> Arrow:
        """The arrow from the input into the network."""
        return self.feed


class Fork(VGroup):
    """One input through several matrices: an arrow from the input to each matrix (framed in
    its name's colour) and one from the matrix to what it makes, as k = x W_K and v = x W_V
    are made from the same x.

    Parameters
    ----------
    source
        The input (x).
    branches
        Per matrix: its name and its output, each a mobject in the colour they share.

    Examples
    --------
    .. manim:: ForkExample
        :save_last_frame:

        class ForkExample(Scene):
            def construct(self):
                k = (MathTex("W_K", color=style.KEY), MathTex("k", color=style.KEY))
                v = (MathTex("W_V", color=style.VALUE), MathTex("v", color=style.VALUE))
                self.add(Fork(MathTex("x"), [k, v]).scale(2))
    """

    def __init__(self, source: VMobject, branches: Sequence[tuple[VMobject, VMobject]]) -> None:
        super().__init__()
        self.source = source
        self.matrices = VGroup()
        self.outputs = VGroup()
        rows = VGroup()
        for name, output in branches:
            frame = SurroundingRectangle(name, buff=style.ITEM_BUFF, corner_radius=0.08)
            frame.set_stroke(name.get_color(), 2)
            self.matrices.add(VGroup(frame, name))
            self.outputs.add(output)
            rows.add(VGroup(self.matrices[-1], output).arrange(RIGHT, buff=FORK_GAP))
        rows.arrange(DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT)
        rows.next_to(source, RIGHT, buff=FORK_GAP * 1.5)
        self.inputs = VGroup(
            *(
                Arrow(source.get_right(), m.get_left(), buff=style.HUG_BUFF, color=style.MUTED)
                for m in self.matrices
            )
        )
        self.passes = VGroup(
            *(
                Arrow(m.get_right(), o.get_left(), buff=style.HUG_BUFF, color=m[1].get_color())
                for m, o in zip(self.matrices, self.outputs, strict=True)
            )
        )
        self.add(source, self.inputs, self.matrices, self.passes, self.outputs)
