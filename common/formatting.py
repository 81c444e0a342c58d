"""How the lecture writes a number, on screen, in the narration and on the page: one rule,
with no Manim, so the page writer and the gates format exactly as the scenes do."""

from __future__ import annotations

import math
from typing import Literal

__all__ = ["Notation", "format_number"]

Notation = Literal["fixed", "grouped", "scientific", "power", "auto"]

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def format_number(value: float, decimals: int = 2, notation: Notation = "fixed") -> str:
    """The text of a number as the lecture prints it (no "-0.00"; see ShownNumber's notation)."""
    if notation == "auto":  # fixed, unless that leaves fewer than two significant digits
        small = value != 0 and abs(value) < 10 ** (1 - decimals)
        return format_number(value, 1, "scientific") if small else format_number(value, decimals)
    if notation == "scientific":
        if value == 0:  # exactly nothing: "0", not "0.0×10⁰"
            return "0"
        mantissa, exponent = f"{value:.{decimals}e}".split("e")
        return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    if notation == "power":  # an exact power of ten, as an axis labels it
        return f"10{str(round(math.log10(value))).translate(_SUPERSCRIPT)}"
    if notation == "grouped":
        return f"{value:,.{decimals}f}"
    shown = f"{value:.{decimals}f}"
    return shown[1:] if shown.startswith("-") and float(shown) == 0 else shown
