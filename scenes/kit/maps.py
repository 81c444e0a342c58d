"""Maps and tables: the attention map (:class:`AttentionGrid`; between words,
:func:`word_grid`; their scores, shaded, :func:`score_table`), a matrix written out
(:class:`LabelledMatrix`), a wide table as a heat image (:class:`WideTable`), and labels kept
apart over narrow columns (:func:`fit_column_labels`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    ManimColor,
    MathTex,
    Rectangle,
    Square,
    SurroundingRectangle,
    UpdateFromAlphaFunc,
    VGroup,
    VMobject,
    interpolate_color,
)

from scenes.kit import style
from scenes.kit.numbers import Ref, ShownNumber


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

    def __init__(  # noqa: PLR0913 (options by keyword, as Manim's Table takes them)
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

    def colour_of(self, w: float) -> ManimColor:
        """The colour the value ``w`` has on this grid (on its own value range)."""
        return self._fill(w)

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

    def block_groups(self, colours: Sequence[int], stroke_width: float = 3) -> VGroup:
        """The same frames as :meth:`block_frames`, one group per colour (in order of first
        appearance), for a chapter to draw each block in its own colour or in turn."""
        return VGroup(
            *(
                VGroup(
                    *(
                        SurroundingRectangle(self.get_cell(i, j), buff=0, stroke_width=stroke_width)
                        for i in range(self.n_rows)
                        for j in range(self.n_cols)
                        if colours[i] == colours[j] == c
                    )
                )
                for c in dict.fromkeys(colours)
            )
        )

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


def word_grid(
    values: Sequence[Sequence[float | None]],
    source: str,
    words: Sequence[str],
    cell_size: float,
    heat: bool,
    header_size: float = style.LABEL_SIZE,
    text_size: float = style.CELL_TEXT_SIZE,
    value_range: tuple[float, float] = (0.0, 1.0),
) -> AttentionGrid:
    """A table between the words of a sentence, as every chapter draws one: a row per word
    looking (in the Query colour), a column per word looked at (in the Key colour). Being
    built the same way, one chapter's last table can be rebuilt at once by the next. Scores are
    shaded over ``value_range`` (weights over 0 to 1)."""
    return AttentionGrid(
        values,
        source,
        row_headers=[style.text(w, header_size, style.QUERY) for w in words],
        col_headers=[style.text(w, header_size, style.KEY) for w in words],
        cell_size=cell_size,
        heat=heat,
        text_size=text_size,
        value_range=value_range,
    )


def score_table(
    scores: Sequence[Sequence[float]], source: str, words: Sequence[str], cell_size: float
) -> AttentionGrid:
    """The scores q·k/√d between a sentence's words as the scoring chapter ends on them and the
    softmax chapter picks them up: each cell shaded by its score over the table's own range
    (the highest brightest), every number written at full strength (a score of 0 is a score,
    not a share too small to matter)."""
    grid = word_grid(
        scores,
        source,
        words,
        cell_size,
        heat=True,
        text_size=style.LABEL_SIZE,
        value_range=(min(map(min, scores)), max(map(max, scores))),
    )
    grid.numbers.set_opacity(1)
    return grid


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
        A mobject above each column and before each row (dimension names, tokens); none
        above the columns when the matrix's meaning is its numbers alone.
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
        col_headers: Sequence[VMobject] = (),
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
        above = self.grid.col_headers if col_headers else self.grid.cells
        self.name.next_to(above, UP, buff=style.ITEM_BUFF)
        self.body = VGroup(self.grid.cells, self.grid.numbers)
        self.heads = VGroup(self.grid.col_headers, self.name)
        self.add(self.grid, self.name)


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
