"""Diagrams: the loss curve (:class:`LossPlot`), the office of the analogy
(:class:`OfficeRoom`), points dropped onto a line to read their dot products
(:class:`Shadows`), attention's formula (:class:`AttentionFormula`), a residual
path's ⊕ (:class:`SumNode`), a stack of Transformer layers (:class:`TransformerLayers`) and
a browser's window around a picture of the lecture's page (:class:`BrowserWindow`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Circle,
    DashedLine,
    Dot,
    Line,
    ManimColor,
    MathTex,
    Mobject,
    RoundedRectangle,
    SurroundingRectangle,
    VGroup,
    VMobject,
)

from scenes.kit import style
from scenes.kit.numbers import Ref, ShownNumber, format_number, phrase


class LossPlot(VGroup):
    """A training run's loss against its step, the loss on a log scale (it falls by orders of
    magnitude): muted axes with a tick at each decade, and the curve.

    Parameters
    ----------
    losses
        The loss after each step, as read from the data file.
    steps_source
        Data-file path of the number of steps (written at the end of the step axis).
    step_label
        The step axis's name ("步", "step").
    points
        How many points of the curve are drawn (every k-th step).
    also
        Further losses the axis must hold (a baseline, a validation loss: see :meth:`mark`).
    room
        Decades added under the lowest loss: room for a label under a level near it.

    Examples
    --------
    .. manim:: LossPlotExample
        :save_last_frame:

        class LossPlotExample(Scene):
            def construct(self):
                losses = [0.4 * 0.97**k + 1e-4 for k in range(300)]
                self.add(LossPlot(losses, "training.steps", "step"))
    """

    def __init__(
        self,
        losses: Sequence[float],
        steps_source: str,
        step_label: str,
        points: int = 200,
        width: float = 6.5,
        height: float = 4.6,
        also: Sequence[float] = (),
        room: int = 0,
    ) -> None:
        super().__init__()
        low = math.floor(math.log10(min(*losses, *also))) - room
        high = math.ceil(math.log10(max(*losses, *also)))
        self.low = low
        self.axes = style.muted_axes(
            [0, len(losses), max(len(losses) // 4, 1)],
            [0, high - low, 1],  # decades above the lowest one
            width,
            height,
        )
        self.ticks = VGroup(
            *(
                style.tick_label(format_number(10.0**e, 0, "power")).next_to(
                    self.axes.c2p(0, e - low), LEFT, buff=style.ITEM_BUFF
                )
                for e in range(low, high + 1)
            )
        )
        steps = ShownNumber(len(losses), 0, Ref(steps_source), color=style.MUTED)
        steps.next_to(self.axes.c2p(len(losses), 0), DOWN, buff=style.ITEM_BUFF)
        x_name = style.text(step_label, style.SMALL_SIZE, style.MUTED)
        x_name.next_to(self.axes.x_axis, DOWN, buff=style.ITEM_BUFF)
        y_name = style.text("loss", style.SMALL_SIZE, style.MUTED)
        y_name.next_to(self.ticks, UP, buff=style.ITEM_BUFF)
        self.steps = len(losses)
        self.frame = VGroup(self.axes, self.ticks, steps, x_name, y_name)
        step = max(len(losses) // points, 1)
        xs = list(range(0, len(losses), step))
        self.curve = self.axes.plot_line_graph(
            xs,
            [math.log10(losses[x]) - low for x in xs],
            add_vertex_dots=False,
            line_color=style.FOREGROUND,
            stroke_width=3,
        )
        self.add(self.frame, self.curve)

    def get_end(self) -> np.ndarray:
        """Where the curve ends: the last step's loss."""
        return self.curve["line_graph"].get_end()

    def get_path(self) -> VMobject:
        """The curve's line, from the first step to the last (a path to move along)."""
        return self.curve["line_graph"]

    def pieces(self, split: float) -> tuple[VMobject, VMobject]:
        """The curve in two: its first ``split`` share, then the rest (drawn at two times)."""
        line = self.get_path()
        return line.copy().pointwise_become_partial(
            line, 0, split
        ), line.copy().pointwise_become_partial(line, split, 1)

    def get_start(self) -> np.ndarray:
        """Where the curve starts: the first step's loss."""
        return self.curve["line_graph"].get_start()

    def level(self, loss: float) -> float:
        """The height (frame y) of ``loss`` on the plot's log axis."""
        return float(self.axes.c2p(0, math.log10(loss) - self.low)[1])

    def mark(self, loss: float, label: Mobject, color: ManimColor | None = None) -> VGroup:
        """A dashed level across the plot at ``loss`` (a baseline, a validation loss), with
        ``label`` over its right end (move it as the plot needs): where the curve's tail stands
        against it is seen."""
        left, right = self.axes.c2p(0, 0)[0], self.axes.c2p(self.steps, 0)[0]
        y = self.level(loss)
        line = DashedLine([left, y, 0], [right, y, 0], color=color or style.FOREGROUND)
        label.next_to(line, UP, buff=style.ITEM_BUFF).align_to(line, RIGHT)
        return VGroup(line, label)


ROOM_WIDTH, ROOM_HEIGHT = 6.2, 5.4  # the office as drawn, before it is scaled to fit
QUERY_UNIT = 0.55  # scene units per unit of the office's Query (shorter, to stay in the room)
MIN_LABEL_SCALE = 0.8  # a name set smaller to fit the room: LABEL_SIZE x 0.8 is still legible


class OfficeRoom(VGroup):
    """Seed 000's office: colleagues standing at their Keys (dots, in the Key colour) and
    holding their Values (days, in the Value colour), inside the room's walls.

    Parameters
    ----------
    names
        Each colleague's name, as the language says it.
    keys
        Each colleague's 2-D Key, as read from the data file.
    values
        Each colleague's Value in days, as read from the data file (``source.values[j]``).
    days
        The words around a Value, with ``{n}`` for the number ("{n} 天", "{n} days").
    source
        Data-file path of the office.

    Examples
    --------
    .. manim:: OfficeRoomExample
        :save_last_frame:

        class OfficeRoomExample(Scene):
            def construct(self):
                self.add(OfficeRoom(["Chen", "Ade"], [[2, 0.4], [-1.6, 1.2]], [5, 1], "{n} days"))
    """

    def __init__(
        self,
        names: Sequence[str],
        keys: Sequence[Sequence[float]],
        values: Sequence[float],
        days: str,
        source: str = "office",
        unit: float = 1.25,
    ) -> None:
        super().__init__()
        self.unit = unit
        self.room = RoundedRectangle(corner_radius=0.2, width=ROOM_WIDTH, height=ROOM_HEIGHT)
        self.room.set_stroke(style.MUTED, width=2)
        self.people = VGroup(
            *(
                self._build_person(name, key, value, days, f"{source}.values[{j}]")
                for j, (name, key, value) in enumerate(zip(names, keys, values, strict=True))
            )
        )
        self.add(self.room, self.people)

    def _build_person(
        self, name: str, key: Sequence[float], value: float, days: str, source: str
    ) -> VGroup:
        dot = Dot(self.point(key), color=style.KEY)
        label = style.text(name, style.LABEL_SIZE, style.KEY).next_to(dot, UP, buff=style.HUG_BUFF)
        held = phrase(days, style.SMALL_SIZE, style.VALUE, n=ShownNumber(value, 0, Ref(source)))
        held.next_to(dot, DOWN, buff=style.HUG_BUFF)
        top, bottom = self.room.get_top()[1], self.room.get_bottom()[1]
        if label.get_top()[1] > top - style.ITEM_BUFF:  # no room above: beside the dot
            label.next_to(dot, LEFT, buff=style.HUG_BUFF)
        if held.get_bottom()[1] < bottom + style.ITEM_BUFF:
            held.next_to(dot, RIGHT, buff=style.HUG_BUFF)
        for part in (label, held):
            self._keep_inside(part)
        return VGroup(dot, label, held)

    def _keep_inside(self, label: VMobject) -> None:
        """Slide a label sideways so that it stays inside the room's walls (a name longer
        than the room is first set smaller, down to the smallest legible size)."""
        left = self.room.get_left()[0] + style.ITEM_BUFF
        right = self.room.get_right()[0] - style.ITEM_BUFF
        if label.width > right - left:
            label.scale(max((right - left) / label.width, MIN_LABEL_SCALE), about_edge=LEFT)
        label.shift(
            RIGHT * (max(left - label.get_left()[0], 0) - max(label.get_right()[0] - right, 0))
        )

    def offset(self, vector: Sequence[float], unit: float | None = None) -> np.ndarray:
        """A 2-D vector (a Key, a Query) as drawn on the floor now, at the room's current
        scale: the arrow from the room's centre to :meth:`point` once the room is fitted."""
        scale = (self.unit if unit is None else unit) * self.room.width / ROOM_WIDTH
        return scale * (vector[0] * RIGHT + vector[1] * UP)

    def point(self, key: Sequence[float], unit: float | None = None) -> np.ndarray:
        """The floor's point for a Key (or, with another ``unit``, for a Query)."""
        scale = self.unit if unit is None else unit
        return self.room.get_center() + scale * (key[0] * RIGHT + key[1] * UP)


SHADOW_FOOT = 0.06  # radius of a shadow's foot on the line
ON_LINE = 1e-3  # a point nearer the line than this has no drop drawn


class Shadows(VGroup):
    """Points dropped onto a line through an origin: for each, a dashed drop square to the
    line and its foot (its shadow), with a label beside the foot on the side away from the
    point. Along a direction ``u``, point ``p``'s foot is ``(p · u) u`` from the origin, so
    the feet stand in the order of the dot products, those behind the origin negative.

    Parameters
    ----------
    origin
        Where the line passes (where the arrow it follows starts), in the frame.
    direction
        The line's direction (any length), in the frame.
    points
        The points to drop, in the frame.
    labels
        One mobject per point (its score), set beside its foot.
    reach
        How far the line is drawn each side of the origin.
    colour
        The feet's colour (the highlight by default).
    avoid
        Mobjects a label must not cover (the points' own names): a label goes to the first
        free place of: away from its point, on its point's side, along the line, then
        diagonally; close to the foot first, then a little further.
    within
        A mobject (a room's walls) the labels stay inside, when given.

    Examples
    --------
    .. manim:: ShadowsExample
        :save_last_frame:

        class ShadowsExample(Scene):
            def construct(self):
                points = [2 * RIGHT + UP, -1.5 * RIGHT + UP, 0.5 * RIGHT - 1.5 * UP]
                labels = [style.text(t, style.SMALL_SIZE) for t in ("2.0", "-1.5", "0.5")]
                self.add(*(Dot(p, color=style.KEY) for p in points))
                self.add(Shadows(ORIGIN, RIGHT, points, labels, reach=3))
    """

    def __init__(
        self,
        origin: np.ndarray,
        direction: np.ndarray,
        points: Sequence[np.ndarray],
        labels: Sequence[Mobject],
        reach: float,
        colour: ManimColor | None = None,
        avoid: Sequence[Mobject] = (),
        within: Mobject | None = None,
    ) -> None:
        super().__init__()
        taken = list(avoid)
        origin = np.asarray(origin, dtype=float)
        u = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
        across = np.array([-u[1], u[0], 0.0])  # the line's normal, to its left
        self.line = DashedLine(origin - reach * u, origin + reach * u, color=style.MUTED)
        self.line.set_stroke(width=2, opacity=0.7)
        self.drops, self.feet, self.labels = VGroup(), VGroup(), VGroup()
        for point, label in zip(points, labels, strict=True):
            point = np.asarray(point, dtype=float)
            foot = origin + np.dot(point - origin, u) * u
            off = foot - point
            side = off / np.linalg.norm(off) if np.linalg.norm(off) > ON_LINE else across
            drop = DashedLine(point, foot, color=style.MUTED, dash_length=0.08)
            self.drops.add(drop if np.linalg.norm(off) > ON_LINE else VGroup())
            self.feet.add(Dot(foot, radius=SHADOW_FOOT, color=colour or style.HIGHLIGHT))
            ways = (side, -side, u, -u, side + u, side - u, -side + u, -side - u)
            for buff, way in (
                (b, w) for b in (style.HUG_BUFF, style.GROUP_BUFF, style.WIDE_BUFF) for w in ways
            ):
                label.next_to(foot, way, buff=buff)
                inside = within is None or _inside(label, within)
                if inside and not any(_covers(label, other) for other in taken):
                    break
            else:
                label.next_to(foot, side, buff=style.HUG_BUFF)
            taken.append(label)
            self.labels.add(label)
        self.add(self.line, self.drops, self.feet, self.labels)

    def get_line(self) -> DashedLine:
        return self.line

    def get_drop(self, j: int) -> VMobject:
        """Point ``j``'s dashed drop (empty when it stands on the line)."""
        return self.drops[j]

    def get_foot(self, j: int) -> Dot:
        return self.feet[j]

    def get_label(self, j: int) -> Mobject:
        return self.labels[j]


def _covers(a: Mobject, b: Mobject, pad: float = style.TIGHT_BUFF) -> bool:
    """Whether two mobjects' boxes (grown by ``pad``) meet."""
    (ax0, ay0, _), (ax1, ay1, _) = a.get_corner(DOWN + LEFT), a.get_corner(UP + RIGHT)
    (bx0, by0, _), (bx1, by1, _) = b.get_corner(DOWN + LEFT), b.get_corner(UP + RIGHT)
    return ax0 < bx1 + pad and bx0 < ax1 + pad and ay0 < by1 + pad and by0 < ay1 + pad


def _inside(a: Mobject, b: Mobject) -> bool:
    """Whether ``a``'s box lies within ``b``'s."""
    (ax0, ay0, _), (ax1, ay1, _) = a.get_corner(DOWN + LEFT), a.get_corner(UP + RIGHT)
    (bx0, by0, _), (bx1, by1, _) = b.get_corner(DOWN + LEFT), b.get_corner(UP + RIGHT)
    return bx0 <= ax0 and ax1 <= bx1 and by0 <= ay0 and ay1 <= by1


class AttentionFormula(VGroup):
    """Attention in two lines, each symbol in the colour of its role: the three projections
    ``Q = X W_Q, K = X W_K, V = X W_V`` and ``softmax(QKᵀ/√d) V``, with getters for the pieces
    a narration names in turn.

    Examples
    --------
    .. manim:: AttentionFormulaExample
        :save_last_frame:

        class AttentionFormulaExample(Scene):
            def construct(self):
                self.add(AttentionFormula())
    """

    def __init__(self, projection_size: float = 56, attention_size: float = 72) -> None:
        super().__init__()
        self.projections = MathTex(
            "Q",
            "= X W_Q,",
            r"\quad K",
            "= X W_K,",
            r"\quad V",
            "= X W_V",
            font_size=projection_size,
        )
        for part, colour in zip(
            self.projections[::2], (style.QUERY, style.KEY, style.VALUE), strict=True
        ):
            part.set_color(colour)
        self.attention = MathTex(
            r"\mathrm{softmax}",
            r"\Big(",
            "{Q",
            r"K^{\top}",
            r"\over",
            r"\sqrt{d}}",
            r"\Big)",
            "V",
            font_size=attention_size,
        )
        self.attention[2].set_color(style.QUERY)
        self.attention[3].set_color(style.KEY)
        self.attention[7].set_color(style.VALUE)
        self.add(VGroup(self.projections, self.attention).arrange(DOWN, buff=style.WIDE_BUFF))

    def get_scores(self) -> VGroup:
        """``Q Kᵀ``."""
        return self.attention[2:4]

    def get_scale(self) -> VGroup:
        """The fraction bar and ``√d``."""
        return self.attention[4:6]

    def get_softmax(self) -> VGroup:
        """``softmax(`` and ``)``."""
        return VGroup(self.attention[0:2], self.attention[6])

    def get_values(self) -> VMobject:
        """The ``V`` the weights average."""
        return self.attention[7]


class SumNode(VGroup):
    """The ⊕ where a residual path joins the main line: a circle with a plus in it.

    Examples
    --------
    .. manim:: SumNodeExample
        :save_last_frame:

        class SumNodeExample(Scene):
            def construct(self):
                self.add(SumNode().scale(4))
    """

    def __init__(self, radius: float = style.SUM_NODE, color: ManimColor | None = None) -> None:
        super().__init__()
        ink = color or style.MUTED
        arm = radius * 0.6
        self.add(
            Circle(radius=radius).set_stroke(ink, 3),
            Line(LEFT * arm, RIGHT * arm).set_stroke(ink, 3),
            Line(DOWN * arm, UP * arm).set_stroke(ink, 3),
        )


class TransformerLayers(VGroup):
    """A stack of Transformer layers as the original paper draws one, bottom to top.

    The front card is one layer: ``attention``, a ⊕, ``ffn``, a ⊕, on one straight main
    line. Each sublayer's residual path leaves the main line just below it, runs up its left
    side in right angles and joins the line again at the ⊕ above it, where ``norm_label``
    (one per ⊕) says what happens there. ``behind`` more cards are stacked behind it, up
    and to the right; they are filled, so no line runs across them: the main line enters
    the front card at its bottom and leaves the last card at its top.

    Parameters
    ----------
    attention, ffn
        The two sublayers, as boxes (a box and what it holds).
    norm_labels
        The label beside each ⊕, two of them.
    attention_label
        The attention sublayer's name, set beside it.
    behind
        How many cards are drawn behind the front one.

    Examples
    --------
    .. manim:: TransformerLayersExample
        :save_last_frame:

        class TransformerLayersExample(Scene):
            def construct(self):
                boxes = [Rectangle(width=4, height=0.8) for _ in "ab"]
                labels = [Text("add, norm", font_size=20) for _ in "ab"]
                self.add(TransformerLayers(*boxes, labels, Text("attention", font_size=24)))
    """

    def __init__(
        self,
        attention: VMobject,
        ffn: VMobject,
        norm_labels: Sequence[VMobject],
        attention_label: VMobject,
        behind: int = 2,
    ) -> None:
        super().__init__()
        self.sublayers = VGroup(attention, ffn)
        self.nodes = VGroup(SumNode(), SumNode())
        column = VGroup(attention, self.nodes[0], ffn, self.nodes[1])
        column.arrange(UP, buff=style.ROW_BUFF)
        x = attention.get_center()[0]
        self.norm_labels = VGroup(
            *(
                label.next_to(node, RIGHT, buff=style.ITEM_BUFF)
                for label, node in zip(norm_labels, self.nodes, strict=True)
            )
        )
        self.attention_label = attention_label.next_to(attention, RIGHT, buff=style.ITEM_BUFF)
        side = min(attention.get_left()[0], ffn.get_left()[0]) - style.GROUP_BUFF
        self.residuals, branches = VGroup(), VGroup()
        for node, below in (  # each residual leaves the main line halfway below its sublayer
            (self.nodes[0], attention.get_bottom()[1] - style.ROW_BUFF / 2),
            (self.nodes[1], (self.nodes[0].get_top()[1] + ffn.get_bottom()[1]) / 2),
        ):
            join = node.get_left()
            corners = [[x, below, 0], [side, below, 0], [side, join[1], 0]]
            path = VMobject().set_points_as_corners(corners).set_stroke(style.MUTED, 3)
            tip = Arrow(
                [side, join[1], 0],
                join,
                buff=0,
                color=style.MUTED,
                stroke_width=3,
                tip_length=style.SUM_NODE,  # as long as the radius of the ⊕ it points at
            )
            self.residuals.add(VGroup(path, tip))
            branches.add(Dot([x, below, 0], radius=0.05, color=style.MUTED))
        self.branches = branches
        inside = VGroup(column, self.attention_label, self.norm_labels, self.residuals, branches)
        self.card = SurroundingRectangle(inside, buff=style.ITEM_BUFF, corner_radius=0.1)
        self.card.set_stroke(style.MUTED, 2).set_fill(style.BACKGROUND, opacity=1)
        self.card.set_z_index(-1)  # filled: what the layer holds is drawn over it
        bottom, top = self.card.get_bottom()[1], self.card.get_top()[1]
        self.main_line = VGroup(
            Arrow([x, bottom, 0], attention.get_bottom(), buff=0, color=style.MUTED),
            Arrow(attention.get_top(), self.nodes[0].get_bottom(), buff=0, color=style.MUTED),
            Arrow(self.nodes[0].get_top(), ffn.get_bottom(), buff=0, color=style.MUTED),
            Arrow(ffn.get_top(), self.nodes[1].get_bottom(), buff=0, color=style.MUTED),
            Line(self.nodes[1].get_top(), [x, top, 0]).set_stroke(style.MUTED, 3),
        )
        self.cards_behind = VGroup(
            *(
                self.card.copy().set_stroke(opacity=0.6).shift(style.STACK_STEP * k)
                for k in range(behind, 0, -1)
            )
        )
        self.cards_behind.set_z_index(-2)
        self.add(self.cards_behind, self.card, column, self.attention_label, self.norm_labels)
        self.add(self.residuals)
        self.add(branches, self.main_line)

    def entry(self) -> np.ndarray:
        """Where the main line enters the first layer (the middle of the front card's bottom)."""
        return np.array([self.main_line[0].get_start()[0], self.card.get_bottom()[1], 0.0])

    def exit(self) -> np.ndarray:
        """Where the main line leaves the last layer (the top of the hindmost card)."""
        last = self.cards_behind[0] if len(self.cards_behind) else self.card
        shift = last.get_center() - self.card.get_center()
        return np.array([self.entry()[0] + shift[0], last.get_top()[1], 0.0])


class BrowserWindow(VGroup):
    """A browser's window, its address bar naming the lecture's page, around ``content``
    (a picture of what the page lets a viewer try).

    Parameters
    ----------
    content
        What the window shows, scaled to fit inside it.
    address
        The address bar's words (the page's file name).
    width
        The window's width; its height follows the content's proportions.

    Examples
    --------
    .. manim:: BrowserWindowExample
        :save_last_frame:

        class BrowserWindowExample(Scene):
            def construct(self):
                grid = VGroup(*(Square(0.5) for _ in range(9))).arrange_in_grid(3, 3, buff=0.1)
                self.add(BrowserWindow(grid, "the lecture's page", width=5))
    """

    def __init__(self, content: VMobject, address: str, width: float = 5.0) -> None:
        bar_height = 0.45
        inner = content.copy().scale_to_fit_width(width - 2 * style.GROUP_BUFF)
        height = inner.height + bar_height + 2 * style.GROUP_BUFF
        frame = RoundedRectangle(corner_radius=0.15, width=width, height=height)
        frame.set_stroke(style.MUTED, 3)
        rule = Line(frame.get_left(), frame.get_right(), color=style.MUTED, stroke_width=2)
        rule.shift(UP * (height / 2 - bar_height))
        dots = VGroup(*(Dot(radius=0.06, color=style.MUTED) for _ in range(3)))
        dots.arrange(RIGHT, buff=style.ITEM_BUFF / 2)
        dots.move_to(rule).shift(UP * bar_height / 2).align_to(frame, LEFT).shift(
            RIGHT * style.GROUP_BUFF
        )
        name = style.text(address, style.LABEL_SIZE, style.MUTED)
        name.next_to(dots, RIGHT, buff=style.GROUP_BUFF)
        inner.next_to(rule, DOWN, buff=style.GROUP_BUFF)
        super().__init__(frame, rule, dots, name, inner)
        self.frame, self.address, self.content = frame, name, inner

    def get_content(self) -> VMobject:
        """The content, as placed inside the window."""
        return self.content
