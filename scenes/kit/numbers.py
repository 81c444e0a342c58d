"""Numbers on screen: every one is made here, from a value read from the data file.

A :class:`ShownNumber` remembers the value it shows and a :class:`Source` saying where in
the data file that value comes from, so the quality gates (:mod:`scenes.gates.run`) can list
every number a scene writes and check it against the data file to the displayed precision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from string import Formatter
from typing import Any

from manim import RIGHT, ManimColor, Text, VGroup

from common.formatting import Notation, format_number
from model.datafile import resolve
from scenes.kit import style


@dataclass(frozen=True)
class Ref:
    """The number at ``path`` in the data file."""

    path: str

    def value(self, data: Any) -> float:
        return resolve(data, self.path)

    def __str__(self) -> str:
        return self.path


@dataclass(frozen=True)
class Sum:
    """The sum of the list at ``path`` (a row of weights summing to 1, say)."""

    path: str

    def value(self, data: Any) -> float:
        return sum(resolve(data, self.path))

    def __str__(self) -> str:
        return f"sum({self.path})"


@dataclass(frozen=True)
class Count:
    """How many entries of the list at ``path`` equal ``equals`` (a colour group's size)."""

    path: str
    equals: Any

    def value(self, data: Any) -> float:
        return sum(1 for x in resolve(data, self.path) if x == self.equals)

    def __str__(self) -> str:
        return f"count({self.path} == {self.equals!r})"


@dataclass(frozen=True)
class BinCount:
    """How many entries of the list at ``path`` fall in bin ``index`` of ``bins`` bins of
    ``width`` from 0 (the last bin also takes what lies past its end): a histogram's bar."""

    path: str
    width: float
    index: int
    bins: int

    def value(self, data: Any) -> float:
        values = resolve(data, self.path)
        return sum(1 for x in values if self.bin_of(x, self.width, self.bins) == self.index)

    @staticmethod
    def bin_of(x: float, width: float, bins: int) -> int:
        """The bin ``x`` falls in (the histogram that draws these bars bins the same way)."""
        return min(int(x / width), bins - 1)

    def __str__(self) -> str:
        return f"count({self.path} in bin {self.index} of width {self.width:g})"


@dataclass(frozen=True)
class Length:
    """How many entries the list at ``path`` has (an example's positions)."""

    path: str

    def value(self, data: Any) -> float:
        return len(resolve(data, self.path))

    def __str__(self) -> str:
        return f"len({self.path})"


@dataclass(frozen=True)
class Mean:
    """The mean of the entries ``at`` of the list at ``path`` (a colour group's share)."""

    path: str
    at: tuple[int, ...]

    def value(self, data: Any) -> float:
        row = resolve(data, self.path)
        return sum(row[j] for j in self.at) / len(self.at)

    def __str__(self) -> str:
        return f"mean({self.path}{list(self.at)})"


@dataclass(frozen=True)
class ColumnSum:
    """The sum of column ``column`` of the matrix at ``path``: how much weight one position
    receives from every row (a map's column, which softmax does not make sum to 1)."""

    path: str
    column: int

    def value(self, data: Any) -> float:
        return sum(row[self.column] for row in resolve(data, self.path))

    def __str__(self) -> str:
        return f"sum({self.path}[:][{self.column}])"


@dataclass(frozen=True)
class ColumnTops:
    """How many rows of the matrix at ``path`` have their largest entry in ``column``: how
    many positions look hardest at that one."""

    path: str
    column: int

    def value(self, data: Any) -> float:
        rows = resolve(data, self.path)
        return sum(1 for row in rows if max(range(len(row)), key=row.__getitem__) == self.column)

    def __str__(self) -> str:
        return f"count(argmax({self.path}[i]) == {self.column})"


@dataclass(frozen=True)
class Ratio:
    """Entry ``top`` of the list at ``path`` divided by its entry ``bottom``: how many times
    one value is another (two exps, or the two weights made from them)."""

    path: str
    top: int
    bottom: int

    def value(self, data: Any) -> float:
        row = resolve(data, self.path)
        return row[self.top] / row[self.bottom]

    def __str__(self) -> str:
        return f"{self.path}[{self.top}] / {self.path}[{self.bottom}]"


@dataclass(frozen=True)
class Ordinal:
    """A position label (1, 2, 3...), not a measured value: nothing to check in the data."""

    def value(self, data: Any) -> None:
        return None

    def __str__(self) -> str:
        return "ordinal"


Measured = (  # computed from the data file
    Ref | Sum | Count | BinCount | Length | Mean | Ratio | ColumnSum | ColumnTops
)
Source = Measured | Ordinal


class ShownNumber(Text):
    """A number written with a fixed count of decimals, remembering its source.

    Parameters
    ----------
    value
        The value as read from the data file.
    decimals
        Digits after the decimal point.
    source
        Where the value comes from in the data file.
    size, color
        Font size and colour.
    notation
        ``"fixed"`` (``0.83``), ``"grouped"`` (``13,107,200``, a count of weights),
        ``"scientific"`` (``1.1×10⁻¹⁶``, for differences near
        machine precision), ``"power"`` (``10⁻⁵`` for 1e-5, an axis tick) or ``"auto"``
        (fixed with ``decimals``, unless that shows fewer than two significant digits:
        then scientific, ``5.7×10⁻⁶`` rather than ``0.00001``, for a loss that can be
        either).

    Examples
    --------
    .. manim:: ShownNumberExample
        :save_last_frame:

        class ShownNumberExample(Scene):
            def construct(self):
                self.add(ShownNumber(0.125, 2, Ref("examples.all_same.attention[0][0]")))
    """

    def __init__(
        self,
        value: float,
        decimals: int,
        source: Source,
        size: float = style.SMALL_SIZE,
        color: ManimColor | None = None,
        notation: Notation = "fixed",
    ) -> None:
        self.value = value
        self.decimals = decimals
        self.source = source
        self.notation = notation
        super().__init__(
            format_number(value, decimals, notation),
            font=style.FONT,
            font_size=size,
            color=color or style.FOREGROUND,
        )


@dataclass(frozen=True)
class Spoken:
    """A number the narration says, traced to the data file as a :class:`ShownNumber` is.

    Pass it (or the ShownNumber the screen shows) as a field of ``LectureScene.say``: the
    words get its text, and the numbers gate checks it against its source.
    """

    value: float
    decimals: int
    source: Source
    notation: Notation = "fixed"

    @property
    def text(self) -> str:
        return format_number(self.value, self.decimals, self.notation)


def sum_sign(terms: Sequence[float], total: float, decimals: int) -> str:
    """ "=" when the terms, as shown with ``decimals``, add up to the total as shown; else "≈"
    (0.54 + 0.15 shown beside a total of 0.68 is a rounding difference, and says so)."""
    shown = sum(float(format_number(t, decimals)) for t in terms)
    return "=" if format_number(shown, decimals) == format_number(total, decimals) else "≈"


def phrase(
    template: str,
    size: float = style.LABEL_SIZE,
    color: ManimColor | None = None,
    **numbers: ShownNumber,
) -> VGroup:
    """A line of words with numbers in it: ``phrase("Sum = {total}", total=ShownNumber(..))``.

    The words come from a locale string; each ``{placeholder}`` becomes the given
    :class:`ShownNumber` (sized to match), so every number on the line stays traceable.
    """
    color = color or style.FOREGROUND
    parts = VGroup()
    gaps: list[float] = []
    for literal, field, _, _ in Formatter().parse(template):
        if literal.strip():
            if parts:
                gaps.append(style.gap(literal[:1], size))
            parts.add(style.text(literal.strip(), size, color))
        if field is not None:
            if field not in numbers:
                raise KeyError(f"phrase {template!r} needs a number for '{field}'")
            if parts:
                gaps.append(style.gap(literal[-1:], size))
            # A number may appear twice in one template: each place gets its own copy.
            number = numbers[field]
            number = number.copy() if any(p is number for p in parts) else number
            parts.add(number.set(font_size=size).set_color(color))
    for (left, right), gap in zip(pairwise(parts), gaps, strict=True):
        right.next_to(left, RIGHT, buff=gap)
    return parts
