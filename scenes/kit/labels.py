"""Text and tokens: a task colour's marker (:class:`ColourMarker`), the sequence of
positions (:class:`TokenStrip`), words in boxes (:class:`WordBoxes`), the lecture's
parts (:class:`ContentsList`) and a vertical axis's label (:func:`vertical_label`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Circle,
    ManimColor,
    RegularPolygon,
    RoundedRectangle,
    Square,
    SurroundingRectangle,
    Triangle,
    VGroup,
    VMobject,
)

from scenes.kit import style
from scenes.kit.numbers import Ordinal, Ref, ShownNumber


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


TRIANGLE_ROOM = 0.46  # a letter's room: the square inscribed in a triangle, by its side
LEAST_LETTER_SCALE = 0.95  # a marker's letter set smaller than this is no longer legible


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

    def frame(self, k: int) -> SurroundingRectangle:
        """A highlight frame around part ``k``, as wide as the longest item."""
        frame = SurroundingRectangle(self.items[k], color=style.HIGHLIGHT, buff=style.HUG_BUFF)
        frame.stretch_to_fit_width(self.items.width + 2 * style.HUG_BUFF)
        return frame.align_to(self.items, LEFT).shift(LEFT * style.HUG_BUFF)

    def dim_except(self, k: int) -> VGroup:
        """The other parts, to be dimmed while part ``k`` is spoken of."""
        return VGroup(*(item for j, item in enumerate(self.items) if j != k))


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
