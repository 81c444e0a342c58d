"""The lecture's look, in one place: palette, fonts, sizes and spacing.

Colours come from the Okabe-Ito palette, which stays distinguishable for the common
kinds of colour blindness. Colour is never the only cue: each task colour also has a
shape and a letter (see :data:`TASK_COLOURS`), and Q, K and V are always labelled.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import numpy as np
from manim import (
    RIGHT,
    UP,
    Arc,
    Arrow,
    Axes,
    Line,
    ManimColor,
    MathTex,
    Mobject,
    Polygon,
    Rectangle,
    SurroundingRectangle,
    Tex,
    Text,
    VGroup,
    VMobject,
    config,
    interpolate_color,
)

from syllabus.themes import TASK_PALETTE, THEMES

# --- palette ---------------------------------------------------------------------------
# The colours that depend on the background come from the theme in force (syllabus/themes.py,
# chosen by the lecture file's `theme`; render.py passes it to each scene in its settings).
# :func:`use_theme` sets them; every scene calls it with its settings' theme (LectureScene's
# setup); nothing does on import, so they are undefined until a theme is chosen.
DIMMED = 0.3  # opacity of what is not being spoken of
FAINT = 0.35  # opacity of a weight too small to matter (it shows as 0.00)
# Manim draws lines, shapes and LaTeX in white unless told otherwise: a theme may draw them in
# its text colour instead (the light theme does; see Theme.lines_in_text_colour).
_DRAWN = (VMobject, Line, Arrow, Arc, Rectangle, Polygon, MathTex, Tex)


def use_theme(name: str) -> None:
    """Make ``name`` the theme of every colour below (and of Manim's default stroke)."""
    global THEME_NAME, BACKGROUND, FOREGROUND, MUTED, HIGHLIGHT, QUERY, KEY, VALUE
    global PLAIN_CELL, HEAT_STOPS, WEIGHT, RESULT, WITHOUT, WITH
    if name not in THEMES:
        raise ValueError(f"unknown theme '{name}' (allowed: {', '.join(THEMES)})")
    theme = THEMES[name]
    THEME_NAME = name
    BACKGROUND = ManimColor(theme.background)
    FOREGROUND = ManimColor(theme.foreground)
    MUTED = ManimColor(theme.muted)
    HIGHLIGHT = ManimColor(theme.highlight)  # only a frame or pointer on what is spoken of
    # Q, K and V keep these colours across the whole lecture.
    QUERY = ManimColor(theme.query)  # sky blue
    KEY = ManimColor(theme.key)  # orange
    VALUE = ManimColor(theme.value)  # reddish purple
    PLAIN_CELL = ManimColor(theme.plain_cell)  # a table cell that is not a heat map
    # Attention weights are brightness, never a hue: a neutral ramp from the background to
    # the text colour, so no cell reads as a task colour or as Q, K or V. Bars of weight use
    # its top.
    HEAT_STOPS = tuple(ManimColor(c) for c in theme.heat)
    WEIGHT = HEAT_STOPS[-1]
    # Results (an answer, a model's output, a new vector) are white, boxed and labelled.
    RESULT = FOREGROUND
    # The two sides of a comparison (no projection / projection, no sqrt(d) / sqrt(d)):
    # grey and dashed without the fix, white with it; always labelled as well.
    WITHOUT, WITH = MUTED, FOREGROUND
    for kind in _DRAWN:
        kind.set_default()  # Manim's own first: defaults would stack
        if theme.lines_in_text_colour:
            kind.set_default(color=FOREGROUND)
    # A frame drawn round what is spoken of is the highlight, never Manim's own yellow
    # (which does not read on the light theme's white).
    SurroundingRectangle.set_default()
    SurroundingRectangle.set_default(color=HIGHLIGHT)


@dataclass(frozen=True)
class TaskColour:
    """How one colour of the colour task is drawn: fill, shape and letter."""

    fill: ManimColor
    shape: str  # "circle", "square", "triangle", "diamond" or "hexagon"


TASK_COLOURS: dict[str, TaskColour] = {
    name: TaskColour(ManimColor(fill), shape) for name, (fill, shape) in TASK_PALETTE.items()
}


def task_colour(name: str) -> TaskColour:
    """The drawing of a task colour (the lecture file allows only these names)."""
    return TASK_COLOURS[name]


def heat(weight: float) -> ManimColor:
    """Colour of a heat-map cell for a weight in [0, 1]."""
    # A gamma below 1 lifts small weights, so a share of 1/8 is visibly lit.
    w = min(max(weight, 0.0), 1.0) ** 0.6 * (len(HEAT_STOPS) - 1)
    i = min(int(w), len(HEAT_STOPS) - 2)
    return interpolate_color(HEAT_STOPS[i], HEAT_STOPS[i + 1], w - i)


def ink_on(fill: ManimColor) -> ManimColor:
    """Near-black or near-white, whichever reads better on ``fill`` (in any theme)."""
    r, g, b = fill.to_rgb()
    return ManimColor("#111111") if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else LIGHT_INK


LIGHT_INK = ManimColor("#EDEDED")


# --- type ------------------------------------------------------------------------------
FONT = "Noto Sans CJK TC"  # Chinese and Latin text alike
TITLE_SIZE = 40
BODY_SIZE = 30
LABEL_SIZE = 24
SMALL_SIZE = 20  # digits about 29 px high at 1080p
CELL_TEXT_SIZE = 18  # numbers in heat-map cells: digits about 26 px high at 1080p
MARKER_TEXT_SIZE = 17  # the letter on a colour marker: CJK about 29 px, Latin capitals 22 px

# --- spacing ---------------------------------------------------------------------------
EDGE_BUFF = 0.4  # from the frame's edge
GROUP_BUFF = 0.5  # between blocks of content
ITEM_BUFF = 0.2  # between items of one block
TIGHT_BUFF = 0.05  # a frame drawn around a cell or a row of a grid
HUG_BUFF = 0.1  # a frame or label hugging its object (a box around a word, a name by a dot)
ROW_BUFF = 0.35  # between the rows of a list or a column of steps
SECTION_BUFF = 0.75  # between the parts of one picture (the title and what is below it)
WIDE_BUFF = 1.0  # between pictures side by side
CELL_SIZE = 0.54  # heat-map cell side
MARKER_SIZE = 0.46  # width of a colour marker
HEADER_MARKER = 0.34  # a colour marker heading a row or a column of a map
LETTERED_MARKER = 0.2  # a smaller colour marker is its shape alone (the letter won't fit)
REFERENCE_POSITIONS = 8  # maps are sized for this many positions and shrink for more
SYMBOL_SIZE = 64  # a formula's symbol standing for a picture (q, X + PE)
SUM_NODE = 0.16  # radius of the ⊕ where a residual path joins the main line
STACK_STEP = np.array([0.15, 0.15, 0.0])  # from one stacked card to the one behind it
WIDE_IMAGE = 7.0  # width of a table drawn as a heat image (the wide positional table)
CURVE_HEIGHT = 1.3  # a small plot under a picture (one row of a table as a curve)
MIN_NUMBER_CELL = 0.45  # a map cell smaller than this is read by brightness, unwritten


# --- the layout grid ---------------------------------------------------------------------
# Every chapter lays out in the same grid: the title band at the top, the subtitle band at
# the bottom (players draw soft subtitles there, over the picture), and the content area
# between them, which pictures fill (the layout gate checks both bands).
TITLE_BAND = 1.15  # frame units from the top edge kept for the title
SUBTITLE_BAND = 1.3  # frame units from the bottom edge kept clear for two subtitle lines


def content_area() -> tuple[float, float, float, float]:
    """Left, bottom, right and top of the content area, in frame units."""
    half_w, half_h = config.frame_width / 2, config.frame_height / 2
    return -half_w + EDGE_BUFF, -half_h + SUBTITLE_BAND, half_w - EDGE_BUFF, half_h - TITLE_BAND


def place(mobject: Mobject, aligned: np.ndarray | None = None, grow: float = 1.0) -> Mobject:
    """Centre ``mobject`` in the content area (or align its ``aligned`` edge to the area's),
    scaled down if it does not fit; ``grow`` above 1 lets a small picture be enlarged, by up
    to that much, to fill the area."""
    left, bottom, right, top = content_area()
    scale = min(grow, (right - left) / mobject.width, (top - bottom) / mobject.height)
    mobject.scale(scale)
    centre = np.array([(left + right) / 2, (bottom + top) / 2, 0.0])
    mobject.move_to(centre)
    if aligned is not None:
        edge = np.array([left if aligned[0] < 0 else right, top if aligned[1] > 0 else bottom, 0])
        mobject.shift((edge - mobject.get_critical_point(aligned)) * np.abs(np.sign(aligned)))
    return mobject


# Symbols written in a line of text and set in LaTeX: "√d" as one glyph whose bar covers
# the d, W_Q as W with a subscript Q; each with the glyph that sits on the words' baseline
# (the d under the root, the W).
MATH_IN_TEXT = {"√d": (r"\sqrt{d}", -1), **{f"W_{r}": (f"W_{r}", 0) for r in "QKVO"}}
_MATH = re.compile("(" + "|".join(map(re.escape, MATH_IN_TEXT)) + ")")
MATH_SCALE = 1.3  # LaTeX beside the font's glyphs at the same size looks small


def gap(boundary: str, size: float) -> float:
    """Space between two parts of one line of text (words and a number, or a formula): a
    word space where the line has one.

    A Traditional Chinese font centres full-width punctuation in its square and a part's
    box holds only its ink, so beside a number "，" needs back the half square it lost
    (else "步，1133" prints as "步 ,1133").
    """
    if not boundary:
        return 0.04
    if boundary.isspace():
        return 0.14
    wide = unicodedata.east_asian_width(boundary) in ("W", "F")
    if unicodedata.category(boundary).startswith("P") and wide:
        return 0.4 * _em(size)
    return 0.04


@cache
def _em(size: float) -> float:
    """Width of one full-width character at font ``size``."""
    return Text("中", font=FONT, font_size=size).width


def text(content: str, size: float = BODY_SIZE, color: ManimColor | None = None) -> Text | VGroup:
    """Text in the lecture's font (in the theme's text colour unless told); the symbols of
    :data:`MATH_IN_TEXT` in it are set in LaTeX, on the words' baseline."""
    ink = color or FOREGROUND
    pieces = _MATH.split(content)  # words, a symbol, words, a symbol... (words may be "")
    if len(pieces) == 1:
        return Text(content, font=FONT, font_size=size, color=ink)
    parts, gaps = VGroup(), []
    for k, piece in enumerate(pieces):
        if k % 2:  # a symbol
            if parts:
                gaps.append(gap(pieces[k - 1][-1:], size))
            tex, on_baseline = MATH_IN_TEXT[piece]
            symbol = MathTex(tex, font_size=size * MATH_SCALE, color=ink)
            symbol.on_baseline = symbol[0][on_baseline]
            parts.add(symbol)
        elif piece.strip():
            if parts:
                gaps.append(gap(piece[:1], size))
            parts.add(Text(piece.strip(), font=FONT, font_size=size, color=ink))
    parts.arrange(RIGHT, buff=0)
    for (left, right), buff in zip(pairwise(parts), gaps, strict=True):
        right.next_to(left, RIGHT, buff=buff)
    words = [part for part in parts if isinstance(part, Text)]
    baseline = _baseline(words[0]) if words else parts.get_bottom()[1]
    for part in parts:
        if isinstance(part, MathTex):
            part.shift(UP * (baseline - part.on_baseline.get_bottom()[1]))
    return parts


def _baseline(words: Text) -> float:
    """Where a line of text sits: the bottom of its first glyph that has no descender."""
    glyphs = zip((c for c in words.original_text if not c.isspace()), words, strict=False)
    sitting = [glyph for c, glyph in glyphs if c not in DESCENDERS]
    return (sitting[0] if sitting else words).get_bottom()[1]


DESCENDERS = set("gjpqy,;()[]{}，；（）「」")  # glyphs that reach below the line


def tick_label(content: str, size: float = SMALL_SIZE) -> Text:
    """A label on a scale (an axis tick, a decade): sans, muted, and marked as a scale mark,
    not a measured number (the numbers gate lets it through)."""
    label = text(content, size, MUTED)
    label.gate_not_measured = True
    return label


def name_text(content: str, size: float = BODY_SIZE, color: ManimColor | None = None) -> Text:
    """Text whose digits are part of a name or a date (AlphaFold 2, a paper's year), not a
    measured number: the numbers gate lets it through."""
    label = text(content, size, color)
    label.gate_not_measured = True
    return label


def muted_axes(
    x_range: list[float],
    y_range: list[float],
    x_length: float,
    y_length: float,
    **axis_config: object,
) -> Axes:
    """Plot axes in the lecture's muted colour, without arrow tips.

    Extra keyword arguments go to the y axis. Write tick numbers with :func:`tick_label`
    (sans, like every other text), not Manim's LaTeX numbers.
    """
    return Axes(
        x_range=x_range,
        y_range=y_range,
        x_length=x_length,
        y_length=y_length,
        axis_config={"color": MUTED, "include_tip": False},
        y_axis_config=axis_config,
    )
