"""Each text parsed once per process: Manim's own cache of parsed SVGs, used for texts too.

Manim keeps every SVG it has parsed (``SVG_HASH_TO_MOB_MAP``, keyed by the SVG's file and
how its paths are read) and hands out copies, but ``Text`` asks it not to
(``use_svg_cache=False``), so each of the hundreds of labels, numbers and words a chapter
makes was parsed from its SVG again: the same number in every cell of a matrix, the same
word in every row. A text's SVG file is named by a hash of everything it draws (its string,
font, size, weight, slant, colour, line spacing and the styles of its ranges), so the copy
Manim hands out is the same text, point for point; what ``Text`` does after (colouring its
ranges, its characters) is done to the copy, never to what the cache keeps.

:func:`install` makes ``use_svg_cache=True`` the default of ``Text``; a caller that says
otherwise still gets its way. The frames are the same: the golden-frame and determinism
tests render through it.
"""

from __future__ import annotations

import functools
from typing import Any

from manim import Text

_own = Text.__init__  # Manim's own


@functools.wraps(_own)
def _init(self: Text, *args: Any, use_svg_cache: bool = True, **kwargs: Any) -> None:
    _own(self, *args, use_svg_cache=use_svg_cache, **kwargs)


def install() -> None:
    """Parse each text's SVG once per process."""
    Text.__init__ = _init
