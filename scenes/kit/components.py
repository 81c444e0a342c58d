"""Reusable pictures of the lecture: colour markers, token strips, the attention grid,
vectors, weight bars and the contents list."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np
from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Animation,
    Arc,
    Arrow,
    Circle,
    CurvedArrow,
    Dot,
    Line,
    ManimColor,
    MathTex,
    Rectangle,
    RegularPolygon,
    RoundedRectangle,
    Square,
    SurroundingRectangle,
    Triangle,
    UpdateFromAlphaFunc,
    VGroup,
    VMobject,
    interpolate_color,
)

from scenes.kit import style
from scenes.kit.numbers import Ordinal, Ref, ShownNumber, format_number, phrase


class ColourMarker(VGroup):
    """A task colour drawn as a filled shape with its letter, so colour is never the only cue.

    Parameters
    ----------
    colour
        How to draw the colour (fill and shape), from :func:`scenes.kit.style.task_colour`.
    letter
        The colour's short name, written on the shape (``"紅"``, ``"R"``...).
    size
        Width of the shape. Below :data:`scenes.kit.style.LETTERED_MARKER` the letter no longer
        fits and is left out: the shape still tells the colour without its hue.

    Examples
    --------
    .. manim:: ColourMarkerExample
        :save_last_frame:

        class ColourMarkerExample(Scene):
            def construct(self):
                self.add(ColourMarker(style.TASK_COLOURS["red"], "R"))
    """

    def __init__(
        self, colour: style.TaskColour, letter: str, size: float = style.MARKER_SIZE
    ) -> None:
        super().__init__()
        self.colour = colour
        self.shape = self._build_shape(colour, size)
        ink = style.ink_on(colour.fill)
        self.letter = style.text(letter, style.MARKER_TEXT_SIZE, ink)
        if colour.shape == "triangle":  # inside the triangle's inscribed square, at its centre
            room = self.shape.width * TRIANGLE_ROOM
            fit = room / max(self.letter.width, self.letter.height)
            self.letter.scale(min(1.0, max(fit, LEAST_LETTER_SCALE)))
            self.letter.move_to(self.shape.get_center_of_mass())
        else:
            self.letter.move_to(self.shape)
        self.add(self.shape)
        if size >= style.LETTERED_MARKER:
            self.add(self.letter)

    @staticmethod
    def _build_shape(colour: style.TaskColour, size: float) -> VMobject:
        if colour.shape == "circle":
            shape: VMobject = Circle(radius=size / 2)
        elif colour.shape == "square":
            shape = Square(side_length=size * 0.9)
        elif colour.shape == "diamond":
            shape = Square(side_length=size * 0.78).rotate(PI / 4)
        elif colour.shape == "hexagon":
            shape = RegularPolygon(6).scale_to_fit_width(size * 1.05)
        else:
            shape = Triangle().scale_to_fit_width(size * 1.22)
        return shape.set_fill(colour.fill, opacity=1).set_stroke(style.FOREGROUND, width=1.5)


def fit_column_labels(labels: VGroup, gap: float = style.ITEM_BUFF) -> VGroup:
    """Keep a left-to-right row of labels over columns from overlapping (long words over
    narrow columns), ``gap`` apart: set them a little smaller when that is enough (down to
    :data:`LEAST_LABEL_SCALE`), else raise every other one by a label's height, shrinking
    any label wider than two columns to fit them."""
    items = list(labels)
    if len(items) < 2 or all(a.get_right()[0] <= b.get_left()[0] for a, b in pairwise(items)):
        return labels  # nothing overlaps: leave them as they are
    pitch = items[1].get_center()[0] - items[0].get_center()[0]
    widest = max(m.width for m in items)
    if (pitch - gap) / widest >= LEAST_LABEL_SCALE:
        for label in items:
            label.scale((pitch - gap) / widest, about_edge=DOWN)
        return labels
    if widest > 2 * pitch - gap:
        for label in items:
            label.scale((2 * pitch - gap) / widest, about_edge=DOWN)
    lift = max(m.height for m in items) + style.TIGHT_BUFF
    for label in items[1::2]:
        label.shift(UP * lift)
    return labels


TRIANGLE_ROOM = 0.46  # a letter's room: the square inscribed in a triangle, by its side
LEAST_LETTER_SCALE = 0.95  # a marker's letter set smaller than this is no longer legible
LEAST_LABEL_SCALE = 0.8  # labels set smaller than this are raised instead (still legible)


class AttentionGrid(VGroup):
    """An n x m heat map of attention weights with each weight written in its cell.

    Rows are queries (the position that looks), columns are keys (the position looked
    at); this orientation holds in every scene of the lecture.

    Parameters
    ----------
    weights
        Row-major weights in [0, 1], as read from the data file (any numbers when
        ``heat`` is off, such as scores before softmax; None for a masked score, whose
        cell is left empty).
    source
        Data-file path of ``weights``, recorded on every number shown.
    row_headers, col_headers
        Optional mobjects placed left of each row and above each column.
    cell_size
        Side of one cell.
    decimals
        Digits shown after the decimal point.
    heat
        Colour each cell by its weight; off, cells are plain (for scores).
    show_numbers
        Write each value in its cell (off for large tables read by colour alone).
    value_range
        The values coloured darkest and brightest (weights: 0 and 1).
    text_size
        Font size of the numbers in the cells.
    first_row
        The row of the data at ``source`` that the grid's first row shows (a grid of one row
        of a map names its numbers by their cells in the whole map).

    Examples
    --------
    .. manim:: AttentionGridExample
        :save_last_frame:

        class AttentionGridExample(Scene):
            def construct(self):
                self.add(AttentionGrid([[0.5, 0.5], [0.1, 0.9]]))
    """

    def __init__(
        self,
        weights: Sequence[Sequence[float | None]],
        source: str = "",
        row_headers: Sequence[VMobject] | None = None,
        col_headers: Sequence[VMobject] | None = None,
        cell_size: float = style.CELL_SIZE,
        decimals: int = 2,
        heat: bool = True,
        show_numbers: bool = True,
        value_range: tuple[float, float] = (0.0, 1.0),
        text_size: float = style.CELL_TEXT_SIZE,
        first_row: int = 0,
    ) -> None:
        super().__init__()
        self.first_row = first_row  # the data's row the grid's first row shows
        self.heat = heat
        self.text_size = text_size
        self.value_range = value_range
        self.weights = [list(row) for row in weights]
        self.n_rows, self.n_cols = len(self.weights), len(self.weights[0])
        self.cells = self._build_cells(cell_size)
        self.numbers = self._build_numbers(source, decimals) if show_numbers else VGroup()
        self.numbers.set_z_index(1)  # above the cells even when the cells fade in later
        self.row_headers = self._build_headers(row_headers, LEFT)
        self.col_headers = self._build_headers(col_headers, UP)
        self.add(self.cells, self.numbers, self.row_headers, self.col_headers)

    def _build_cells(self, cell_size: float) -> VGroup:
        cells = VGroup(
            *(
                Square(side_length=cell_size)
                .set_fill(self._fill(w), opacity=1)
                .set_stroke(style.BACKGROUND, width=2)
                for row in self.weights
                for w in row
            )
        )
        return cells.arrange_in_grid(self.n_rows, self.n_cols, buff=0)

    def _fill(self, w: float | None) -> ManimColor:
        if w is None:  # masked
            return style.PLAIN_CELL
        low, high = self.value_range
        return style.heat((w - low) / (high - low)) if self.heat else style.PLAIN_CELL

    def _build_numbers(self, source: str, decimals: int) -> VGroup:
        numbers = VGroup()
        for i, row in enumerate(self.weights):
            for j, w in enumerate(row):
                if w is None:  # a masked score (minus infinity): nothing is written
                    numbers.add(VGroup().move_to(self.get_cell(i, j)))
                    continue
                ink = self._ink(w, self._fill(w))
                cell = Ref(f"{source}[{self.first_row + i}][{j}]")
                number = ShownNumber(w, decimals, cell, self.text_size, ink)
                if self.heat and round(w, decimals) == 0:
                    number.set_opacity(style.FAINT)  # a share too small to matter recedes
                numbers.add(number.move_to(self.get_cell(i, j)))
        # One size for every number of the grid: the widest one fits its cell.
        widest = max((n.width for n in numbers if n.submobjects), default=0)
        room = self.get_cell(0, 0).width * 0.74
        if widest > room:
            for number in numbers:
                number.scale(room / widest)
        return numbers

    def _build_headers(self, headers: Sequence[VMobject] | None, side) -> VGroup:
        group = VGroup()
        for k, header in enumerate(headers or ()):
            cell = self.get_cell(k, 0) if side is LEFT else self.get_cell(0, k)
            group.add(header.next_to(cell, side, buff=style.ITEM_BUFF))
        return fit_column_labels(group) if side is UP else group

    def get_cell(self, i: int, j: int) -> Square:
        """The cell of query ``i`` and key ``j``."""
        return self.cells[i * self.n_cols + j]

    def block_frames(self, colours: Sequence[int]) -> VGroup:
        """A highlight frame on every cell where a position looks at its own colour (the
        blocks a colour-task map shows), given each position's colour."""
        return VGroup(
            *(
                SurroundingRectangle(self.get_cell(i, j), buff=0, stroke_width=2)
                for i in range(self.n_rows)
                for j in range(self.n_cols)
                if colours[i] == colours[j]
            )
        ).set_color(style.HIGHLIGHT)

    def get_number(self, i: int, j: int) -> ShownNumber:
        """The number written in cell (i, j)."""
        return self.numbers[i * self.n_cols + j]

    def _ink(self, w: float, fill: ManimColor) -> ManimColor:
        """The colour of a weight's number on its cell's ``fill``."""
        return style.MUTED if self.heat and w < 0.05 else style.ink_on(fill)

    def dim_rows(self, keep: int) -> list[Animation]:
        """Every row but ``keep`` receding: each cell's fill blended toward the background
        (a brighter cell stays brighter), each number inked anew to stay readable on it."""
        return self._recolour(keep, style.DIMMED)

    def undim_rows(self) -> list[Animation]:
        """Every row back to its own colours."""
        return self._recolour(None, 1.0)

    def _recolour(self, keep: int | None, strength: float) -> list[Animation]:
        animations = []
        for i, row in enumerate(self.weights):
            if i == keep:
                continue
            for j, w in enumerate(row):
                if w is None:
                    continue
                fill = interpolate_color(style.BACKGROUND, self._fill(w), strength)
                animations.append(self.get_cell(i, j).animate.set_fill(fill, opacity=1))
                if len(self.numbers):
                    animations.append(self.get_number(i, j).animate.set_color(self._ink(w, fill)))
        return animations

    def get_row(self, i: int) -> VGroup:
        """Cells and numbers of query row ``i``."""
        cols = range(self.n_cols)
        numbers = (self.get_number(i, j) for j in cols) if len(self.numbers) else ()
        return VGroup(*(self.get_cell(i, j) for j in cols), *numbers)


class TokenStrip(VGroup):
    """The example sequence: for each position its index, colour marker and number.

    Parameters
    ----------
    markers
        One colour marker per position.
    values
        The number each position carries, from the data file.
    source
        Data-file path of ``values``.
    per_row
        Positions in one row; more wrap onto further rows (a long sequence beside a map).

    Examples
    --------
    .. manim:: TokenStripExample
        :save_last_frame:

        class TokenStripExample(Scene):
            def construct(self):
                red, blue = style.TASK_COLOURS["red"], style.TASK_COLOURS["blue"]
                markers = [ColourMarker(red, "R"), ColourMarker(blue, "B")]
                self.add(TokenStrip(markers, [0.39, -1.21], "values").scale(2))
    """

    def __init__(
        self,
        markers: Sequence[VMobject],
        values: Sequence[float],
        source: str = "",
        per_row: int | None = None,
    ) -> None:
        super().__init__()
        # Every marker in a slot as tall as the tallest (a circle, a square and a triangle
        # differ), so that the numbers under them share one line.
        tallest = max(marker.height for marker in markers)
        self.columns = VGroup(
            *(
                VGroup(
                    ShownNumber(k + 1, 0, Ordinal(), color=style.MUTED),
                    marker,
                    ShownNumber(v, 2, Ref(f"{source}[{k}]")),
                )
                for k, (marker, v) in enumerate(zip(markers, values, strict=True))
            )
        )
        for index, marker, number in self.columns:
            marker.next_to(index, DOWN, buff=style.ITEM_BUFF + (tallest - marker.height) / 2)
            number.next_to(index, DOWN, buff=2 * style.ITEM_BUFF + tallest)
        gap = style.ITEM_BUFF * 1.1
        if per_row is None or per_row >= len(self.columns):
            self.columns.arrange(RIGHT, buff=gap, aligned_edge=UP)
        else:
            rows = math.ceil(len(self.columns) / per_row)
            self.columns.arrange_in_grid(
                rows, per_row, buff=(gap, style.TIGHT_BUFF), cell_alignment=UP
            )
        self.add(self.columns)

    def get_column(self, k: int) -> VGroup:
        """Index, marker and number of position ``k``."""
        return self.columns[k]


def vertical_label(
    words: str, size: float = style.LABEL_SIZE, color: ManimColor | None = None
) -> VGroup:
    """A label for a vertical axis: CJK stacked a character a line, other scripts turned."""
    if all(ord(ch) > 0x2E80 for ch in words):
        chars = (style.text(ch, size, color) for ch in words)
        return VGroup(*chars).arrange(DOWN, buff=0.05)
    return VGroup(style.text(words, size, color)).rotate(PI / 2)


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
    ) -> None:
        super().__init__()
        color = color or style.FOREGROUND
        self.entries = VGroup(
            *(ShownNumber(v, decimals, Ref(f"{source}[{i}]"), size) for i, v in enumerate(values))
        ).arrange(RIGHT, buff=0.22)
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

    def get_number(self, j: int) -> ShownNumber:
        return self.rows[j][3]

    def get_row(self, j: int) -> VGroup:
        return self.rows[j]


class ContentsList(VGroup):
    """The lecture's parts, numbered, under a heading; one part can be highlighted.

    Parameters
    ----------
    heading
        The list's heading ("Today").
    items
        One heading per part, in lecture order.
    size
        Font size of the items.

    Examples
    --------
    .. manim:: ContentsListExample
        :save_last_frame:

        class ContentsListExample(Scene):
            def construct(self):
                contents = ContentsList("Today", ["Why", "How", "Pitfalls"])
                self.add(contents, contents.frame(1))
    """

    def __init__(self, heading: str, items: Sequence[str], size: float = style.BODY_SIZE) -> None:
        super().__init__()
        self.heading = style.text(heading, style.TITLE_SIZE)
        self.items = VGroup(
            *(
                VGroup(
                    ShownNumber(k + 1, 0, Ordinal(), size, style.MUTED),
                    style.text(item, size),
                ).arrange(RIGHT, buff=style.GROUP_BUFF)
                for k, item in enumerate(items)
            )
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF * 1.5)
        self.add(VGroup(self.heading, self.items).arrange(DOWN, buff=style.GROUP_BUFF))

    def get_item(self, k: int) -> VGroup:
        """Number and heading of part ``k`` (from 0)."""
        return self.items[k]

    def frame(self, k: int) -> SurroundingRectangle:
        """A highlight frame around part ``k``, as wide as the longest item."""
        frame = SurroundingRectangle(self.items[k], color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        frame.stretch_to_fit_width(self.items.width + 2 * style.HUG_BUFF)
        return frame.align_to(self.items, LEFT).shift(LEFT * style.HUG_BUFF)

    def dim_except(self, k: int) -> VGroup:
        """The other parts, to be dimmed while part ``k`` is spoken of."""
        return VGroup(*(item for j, item in enumerate(self.items) if j != k))


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
        self, words: Sequence[VMobject], looker: int, weights: Sequence[float], source: str
    ) -> None:
        super().__init__()
        self.arrows = VGroup()
        self.numbers = VGroup()
        start = words[looker].get_top() + UP * style.ITEM_BUFF
        for j, (word, w) in enumerate(zip(words, weights, strict=True)):
            arrow = self._build_arrow(start, word, j == looker, w)
            number = ShownNumber(w, 2, Ref(f"{source}[{j}]"), style.LABEL_SIZE)
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

    def get_arrow(self, j: int) -> VMobject:
        return self.arrows[j]

    def get_number(self, j: int) -> ShownNumber:
        return self.numbers[j]


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
    ) -> None:
        super().__init__()
        low = math.floor(math.log10(min(losses)))
        high = math.ceil(math.log10(max(losses)))
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
        self.room = RoundedRectangle(corner_radius=0.2, width=6.2, height=5.4)
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

    def point(self, key: Sequence[float], unit: float | None = None) -> np.ndarray:
        """The floor's point for a Key (or, with another ``unit``, for a Query)."""
        scale = self.unit if unit is None else unit
        return self.room.get_center() + scale * (key[0] * RIGHT + key[1] * UP)

    def get_person(self, j: int) -> VGroup:
        """Dot, name and Value of colleague ``j``."""
        return self.people[j]


class LabelledMatrix(VGroup):
    """A matrix written out: its numbers in plain cells outlined in its role's colour, its
    name above, and headers naming its columns (and, if given, its rows).

    Parameters
    ----------
    values
        The matrix, row by row, as read from the data file.
    source
        Data-file path of ``values``.
    name
        The matrix's name, in TeX (``"W_Q"``).
    colour
        Its role's colour (:data:`scenes.kit.style.QUERY`, ``KEY``, ``VALUE``...).
    col_headers, row_headers
        A mobject above each column and before each row (dimension names, tokens).
    cell_size, decimals
        Side of a cell; digits after the decimal point.

    Examples
    --------
    .. manim:: LabelledMatrixExample
        :save_last_frame:

        class LabelledMatrixExample(Scene):
            def construct(self):
                dims = [style.text(d, style.SMALL_SIZE, style.MUTED) for d in ("a", "b")]
                self.add(LabelledMatrix([[0, 1], [2, 0.5]], "w", "W_Q", style.QUERY, dims))
    """

    def __init__(
        self,
        values: Sequence[Sequence[float]],
        source: str,
        name: str,
        colour: ManimColor,
        col_headers: Sequence[VMobject],
        row_headers: Sequence[VMobject] | None = None,
        cell_size: float = 0.62,
        decimals: int = 1,
    ) -> None:
        super().__init__()
        self.name = MathTex(name, font_size=40, color=colour)
        self.grid = AttentionGrid(
            values,
            source,
            row_headers=row_headers,
            col_headers=col_headers,
            cell_size=cell_size,
            decimals=decimals,
            heat=False,
        )
        self.grid.cells.set_stroke(colour, width=2)
        self.name.next_to(self.grid.col_headers, UP, buff=style.ITEM_BUFF)
        self.body = VGroup(self.grid.cells, self.grid.numbers)
        self.heads = VGroup(self.grid.col_headers, self.name)
        self.add(self.grid, self.name)


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


class WordBoxes(VGroup):
    """Words (tokens) in a row, each in its own rounded box: a sentence cut into tokens.

    Parameters
    ----------
    words
        The tokens, in order.
    size
        Their font size.
    color
        The boxes' colour (the theme's muted one unless told).

    Examples
    --------
    .. manim:: WordBoxesExample
        :save_last_frame:

        class WordBoxesExample(Scene):
            def construct(self):
                self.add(WordBoxes(["The", "cat", "was", "scared"], 36))
    """

    def __init__(
        self,
        words: Sequence[str],
        size: float = style.SMALL_SIZE,
        color: ManimColor | None = None,
    ) -> None:
        super().__init__()
        for word in words:
            label = style.name_text(word, size)
            box = RoundedRectangle(
                corner_radius=0.06,
                width=label.width + 2 * style.HUG_BUFF,
                height=max(label.height, style.text("Ag", size).height) + 2 * style.HUG_BUFF,
            ).set_stroke(color or style.MUTED, 2)
            self.add(VGroup(box, label.move_to(box)))
        self.arrange(RIGHT, buff=style.TIGHT_BUFF * 2)


class WideTable(VGroup):
    """A wide sin/cos positional table as a heat image, and one position's row as a curve.

    A row per position, a column per dimension, a square each (−1 dark, 1 bright): the
    fast columns on the left, the slow ones on the right. One row is framed, and drawn
    below the image as two curves over its frequencies, fast to slow (its sin columns and
    its cos columns); :meth:`scan` moves the frame down every row, the curves changing shape
    with it (the seed's slider).

    Parameters
    ----------
    table
        Positions × dimensions, values in [−1, 1], from the data file.
    label
        What the image is, set above it.
    speeds
        The words under its left and right halves ("fast", "slow").
    axis
        What the curves run along, set under their axes.
    position
        The row framed first.
    width
        The image's width; its height keeps one square per value.

    Examples
    --------
    .. manim:: WideTableExample
        :save_last_frame:

        class WideTableExample(Scene):
            def construct(self):
                table = [[math.sin(p / 2**c) for c in range(16)] for p in range(8)]
                label, axis = Text("sin", font_size=24), Text("column", font_size=20)
                self.add(WideTable(table, label, ("fast", "slow"), axis, 3))
    """

    def __init__(
        self,
        table: Sequence[Sequence[float]],
        label: VMobject,
        speeds: tuple[str, str],
        axis: VMobject,
        position: int = 0,
        width: float = style.WIDE_IMAGE,
    ) -> None:
        super().__init__()
        self.table = [list(row) for row in table]
        rows, cols = len(self.table), len(self.table[0])
        side = width / cols
        self.image = VGroup(
            *(
                Square(side).set_fill(style.heat((x + 1) / 2), opacity=1)
                for row in self.table
                for x in row
            )
        ).arrange_in_grid(rows, cols, buff=0)
        for square in self.image:  # an outline of its own fill: no seams between squares
            square.set_stroke(square.get_fill_color(), width=1)
        self.label = label.next_to(self.image, UP, buff=style.ITEM_BUFF)
        half = Rectangle(
            width=width / 2 - style.TIGHT_BUFF, height=self.image.height + 2 * style.TIGHT_BUFF
        ).set_stroke(style.FOREGROUND, 3)
        self.fast = half.copy().align_to(self.image, LEFT).match_y(self.image)
        self.slow = half.copy().align_to(self.image, RIGHT).match_y(self.image)
        self.speeds = VGroup(
            *(
                style.text(word, style.LABEL_SIZE).next_to(frame, DOWN, buff=style.HUG_BUFF)
                for word, frame in zip(speeds, (self.fast, self.slow), strict=True)
            )
        )
        pairs = cols // 2  # the sin and the cos of one frequency share a pair of columns
        self.axes = style.muted_axes(
            [0, pairs - 1, pairs // 4], [-1, 1, 1], width, style.CURVE_HEIGHT
        )
        self.axes.next_to(self.speeds, DOWN, buff=style.ITEM_BUFF)
        self.axis = axis.next_to(self.axes, DOWN, buff=style.HUG_BUFF)
        self.row = Rectangle(width=width, height=self.image.height / rows)
        self.row.set_stroke(style.HIGHLIGHT, 3)
        self.curve = VGroup(  # the row's sin columns, and its cos columns
            VMobject().set_stroke(style.HIGHLIGHT, 3), VMobject().set_stroke(style.FOREGROUND, 2)
        )
        self._show(position)
        self.add(self.image, self.label, self.axes, self.axis, self.row, self.curve)
        self.add(self.fast, self.slow, self.speeds)

    def _show(self, position: int) -> None:
        """Frame row ``position`` and draw it as the curve."""
        rows = len(self.table)
        pitch = self.image.height / rows
        self.row.move_to(self.image.get_top() + DOWN * pitch * (position + 0.5))
        self.row.match_x(self.image)
        row = self.table[position]
        for first, line in enumerate(self.curve):  # columns 0, 2, 4... (sin); 1, 3, 5... (cos)
            line.set_points_as_corners([self.axes.c2p(i, x) for i, x in enumerate(row[first::2])])

    def scan(self) -> Animation:
        """The frame going down every row, from the first to the last, the curve following."""
        rows = len(self.table)

        def step(group: VGroup, alpha: float) -> None:
            self._show(min(int(alpha * rows), rows - 1))

        return UpdateFromAlphaFunc(VGroup(self.row, self.curve), step)
