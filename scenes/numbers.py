"""Numbers on screen: every one is made here, from a value read from the data file.

A :class:`ShownNumber` remembers the value it shows and where it came from, so a test
can list every number a scene writes and check it against the data file.
"""

from __future__ import annotations

from itertools import pairwise
from string import Formatter

from manim import RIGHT, ManimColor, Text, VGroup

from scenes import style


class ShownNumber(Text):
    """A number written with a fixed count of decimals, remembering its source value.

    Parameters
    ----------
    value
        The value as read from the data file.
    decimals
        Digits after the decimal point.
    source
        Where the value came from, such as ``"examples.mixed.attention[2][5]"``.
    """

    def __init__(
        self,
        value: float,
        decimals: int = 2,
        source: str = "",
        size: float = style.SMALL_SIZE,
        color: ManimColor = style.FOREGROUND,
    ) -> None:
        self.value = value
        self.decimals = decimals
        self.source = source
        super().__init__(
            format_number(value, decimals), font=style.FONT, font_size=size, color=color
        )


def format_number(value: float, decimals: int = 2) -> str:
    """The text of a number as the lecture prints it (no "-0.00")."""
    shown = f"{value:.{decimals}f}"
    return shown[1:] if shown.startswith("-") and float(shown) == 0 else shown


def phrase(
    template: str,
    size: float = style.LABEL_SIZE,
    color: ManimColor = style.FOREGROUND,
    **numbers: ShownNumber,
) -> VGroup:
    """A line of words with numbers in it: ``phrase("Sum = {total}", total=ShownNumber(..))``.

    The words come from a locale string; each ``{placeholder}`` becomes the given
    :class:`ShownNumber` (sized to match), so every number on the line stays traceable.
    """
    parts = VGroup()
    gaps: list[float] = []
    for literal, field, _, _ in Formatter().parse(template):
        if literal.strip():
            if parts:
                gaps.append(_gap(literal[:1]))
            parts.add(Text(literal.strip(), font=style.FONT, font_size=size, color=color))
        if field is not None:
            if field not in numbers:
                raise KeyError(f"phrase {template!r} needs a number for '{field}'")
            if parts:
                gaps.append(_gap(literal[-1:]))
            # A number may appear twice in one template: each place gets its own copy.
            number = numbers[field]
            number = number.copy() if any(p is number for p in parts) else number
            parts.add(number.set(font_size=size).set_color(color))
    for (left, right), gap in zip(pairwise(parts), gaps, strict=True):
        right.next_to(left, RIGHT, buff=gap)
    return parts


def _gap(boundary: str) -> float:
    """Space between parts of a phrase: a word space where the template has one."""
    return 0.14 if boundary.isspace() else 0.04
