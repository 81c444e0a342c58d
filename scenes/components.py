"""Reusable pictures of the lecture: colour markers, token strips, the attention grid."""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circle,
    Square,
    Triangle,
    VGroup,
    VMobject,
)

from scenes import style
from scenes.numbers import Ordinal, Ref, ShownNumber


class ColourMarker(VGroup):
    """A task colour drawn as a filled shape with its letter, so colour is never the only cue.

    Parameters
    ----------
    colour
        How to draw the colour (fill and shape), from :func:`scenes.style.task_colour`.
    letter
        The colour's short name, written on the shape (``"紅"``, ``"R"``...).
    size
        Width of the shape.

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
        self.letter.move_to(
            self.shape.get_center_of_mass() if colour.shape == "triangle" else self.shape
        )
        self.add(self.shape, self.letter)

    @staticmethod
    def _build_shape(colour: style.TaskColour, size: float) -> VMobject:
        if colour.shape == "circle":
            shape: VMobject = Circle(radius=size / 2)
        elif colour.shape == "square":
            shape = Square(side_length=size * 0.9)
        else:
            shape = Triangle().scale_to_fit_width(size * 1.15)
        return shape.set_fill(colour.fill, opacity=1).set_stroke(style.FOREGROUND, width=1.5)


class AttentionGrid(VGroup):
    """An n x m heat map of attention weights with each weight written in its cell.

    Rows are queries (the position that looks), columns are keys (the position looked
    at); this orientation holds in every scene of the lecture.

    Parameters
    ----------
    weights
        Row-major weights in [0, 1], as read from the data file.
    source
        Data-file path of ``weights``, recorded on every number shown.
    row_headers, col_headers
        Optional mobjects placed left of each row and above each column.
    cell_size
        Side of one cell.
    decimals
        Digits shown after the decimal point.

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
        weights: Sequence[Sequence[float]],
        source: str = "",
        row_headers: Sequence[VMobject] | None = None,
        col_headers: Sequence[VMobject] | None = None,
        cell_size: float = style.CELL_SIZE,
        decimals: int = 2,
    ) -> None:
        super().__init__()
        self.weights = [list(row) for row in weights]
        self.n_rows, self.n_cols = len(self.weights), len(self.weights[0])
        self.cells = self._build_cells(cell_size)
        self.numbers = self._build_numbers(source, decimals)
        self.row_headers = self._build_headers(row_headers, LEFT)
        self.col_headers = self._build_headers(col_headers, UP)
        self.add(self.cells, self.numbers, self.row_headers, self.col_headers)

    def _build_cells(self, cell_size: float) -> VGroup:
        cells = VGroup(
            *(
                Square(side_length=cell_size)
                .set_fill(style.heat(w), opacity=1)
                .set_stroke(style.BACKGROUND, width=2)
                for row in self.weights
                for w in row
            )
        )
        return cells.arrange_in_grid(self.n_rows, self.n_cols, buff=0)

    def _build_numbers(self, source: str, decimals: int) -> VGroup:
        numbers = VGroup()
        for i, row in enumerate(self.weights):
            for j, w in enumerate(row):
                ink = style.MUTED if w < 0.05 else style.ink_on(style.heat(w))
                number = ShownNumber(
                    w, decimals, Ref(f"{source}[{i}][{j}]"), style.CELL_TEXT_SIZE, ink
                )
                number.scale_to_fit_width(min(number.width, self.get_cell(i, j).width * 0.74))
                numbers.add(number.move_to(self.get_cell(i, j)))
        return numbers

    def _build_headers(self, headers: Sequence[VMobject] | None, side) -> VGroup:
        group = VGroup()
        for k, header in enumerate(headers or ()):
            cell = self.get_cell(k, 0) if side is LEFT else self.get_cell(0, k)
            group.add(header.next_to(cell, side, buff=style.ITEM_BUFF))
        return group

    def get_cell(self, i: int, j: int) -> Square:
        """The cell of query ``i`` and key ``j``."""
        return self.cells[i * self.n_cols + j]

    def get_number(self, i: int, j: int) -> ShownNumber:
        """The number written in cell (i, j)."""
        return self.numbers[i * self.n_cols + j]

    def get_row(self, i: int) -> VGroup:
        """Cells and numbers of query row ``i``."""
        cols = range(self.n_cols)
        return VGroup(*(self.get_cell(i, j) for j in cols), *(self.get_number(i, j) for j in cols))

    def get_rows_block(self) -> VGroup:
        """The cells alone, as one block (for framing and layout)."""
        return self.cells


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
    """

    def __init__(
        self, markers: Sequence[VMobject], values: Sequence[float], source: str = ""
    ) -> None:
        super().__init__()
        self.columns = VGroup(
            *(
                VGroup(
                    ShownNumber(k + 1, 0, Ordinal(), color=style.MUTED),
                    marker,
                    ShownNumber(v, 2, Ref(f"{source}[{k}]")),
                ).arrange(DOWN, buff=style.ITEM_BUFF)
                for k, (marker, v) in enumerate(zip(markers, values, strict=True))
            )
        ).arrange(RIGHT, buff=style.ITEM_BUFF * 1.1, aligned_edge=UP)
        self.add(self.columns)

    def get_column(self, k: int) -> VGroup:
        """Index, marker and number of position ``k``."""
        return self.columns[k]
