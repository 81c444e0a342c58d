"""The lecture's themes: every colour that depends on the background, per theme. Imports no
Manim, so the lecture file can be checked without it.

``dark`` is for screens and dark rooms; ``light`` for projectors in lit rooms, where a dark
background washes out. In both, every colour used for text (words, Q/K/V labels, the
highlight) reads against the background at WCAG AA (4.5:1, tested), and each colour keeps
its one meaning: Q, K and V keep their hues, yellow-to-gold only frames what is spoken of,
weights are brightness on a neutral ramp from the background towards the text colour. The
task colours (Okabe-Ito, colour-blind safe) are fills the same in both themes, each with
its shape and letter (:data:`scenes.kit.style.TASK_COLOURS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from common.defaults import default


@dataclass(frozen=True)
class Theme:
    """The colours of one theme, as hex strings.

    Attributes
    ----------
    background, foreground, muted
        The frame, text and secondary text (axes, captions, what is set aside).
    highlight
        A frame or pointer on what the narration speaks of.
    query, key, value
        Q, K and V.
    query_hue
        What the narration calls the Query's colour: a key of the locale's
        ``[colour_names]`` (the office chapter's "this blue arrow").
    plain_cell
        A table cell that is not a heat map.
    heat
        The weight ramp, from weight 0 (near the background) to 1 (near the text colour).
    lines_in_text_colour
        Whether Manim's lines, shapes and LaTeX are drawn in ``foreground`` unless told
        otherwise (False: Manim's own white, which reads on a dark background).
    """

    background: str
    foreground: str
    muted: str
    highlight: str
    query: str
    key: str
    value: str
    query_hue: str
    plain_cell: str
    heat: tuple[str, str, str, str]
    lines_in_text_colour: bool

    def text_colours(self) -> dict[str, str]:
        """The colours drawn as text: each must read against the background."""
        names = ("foreground", "muted", "highlight", "query", "key", "value")
        return {name: getattr(self, name) for name in names}


THEMES: dict[str, Theme] = {
    "dark": Theme(
        background="#111318",
        foreground="#EDEDED",
        muted="#9AA0A6",
        highlight="#F0E442",  # Okabe-Ito yellow
        query="#56B4E9",  # sky blue
        key="#E69F00",  # orange
        value="#CC79A7",  # reddish purple
        query_hue="blue",
        plain_cell="#2A2F3A",
        heat=("#1B1F2A", "#4A505C", "#A3A9B3", "#FFFFFF"),
        lines_in_text_colour=False,
    ),
    "light": Theme(
        background="#FAFAF7",
        foreground="#1A1A1A",
        muted="#5F6368",
        highlight="#8A6D00",  # dark gold: yellow's role, readable on white
        query="#1C6DA0",  # the sky blue, darkened to read on white
        key="#A65A00",  # the orange, darkened
        value="#A3407F",  # the reddish purple, darkened
        query_hue="blue",
        plain_cell="#E6E8EC",
        heat=("#EEEEEA", "#C2C6CC", "#6E747E", "#111111"),
        lines_in_text_colour=True,
    ),
}
DEFAULT_THEME = default("theme")  # the built-in lecture file's

# The colours a colour task may use, by name: (fill, shape). A task colour never means a
# role: each stays at least MIN_ROLE_DELTA_E (CIELAB) from Q, K and V in every theme, which
# rules out Okabe-Ito's vermillion (beside the Key orange) and blue (beside the Query blue).
# Red is a true red, blue an ultramarine and purple a violet (away from the Value's reddish
# purple); green is Okabe-Ito's bluish green and yellow Paul Tol's sand. Every pair also
# stays apart under protanopia, deuteranopia and tritanopia (tests/test_themes.py), and each
# colour has its own shape and letter, so colour is never the only cue.
MIN_ROLE_DELTA_E = 35.0
TASK_PALETTE: dict[str, tuple[str, str]] = {
    "red": ("#E0303A", "circle"),
    "green": ("#009E73", "square"),
    "blue": ("#3050E0", "triangle"),
    "purple": ("#7A3CC0", "diamond"),
    "yellow": ("#DDCC77", "hexagon"),
}


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two hex colours (1 to 21)."""

    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)
