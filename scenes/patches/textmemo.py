"""Each text made once per process: later texts of the same words are copies of the first.

A chapter makes the same text many times: the same number in every cell of a matrix, the
same word in every row, the same label in both languages' dry runs. Manim makes each one
from the start: it hashes the text's settings, reads its SVG file (Pango wrote it, named by
that hash), parses it (``Text`` even asks Manim's cache of parsed SVGs not to help,
``use_svg_cache=False``), styles it, closes every glyph's outline point by point in Python
and scales it. Everything ``Text.__init__`` does depends on its arguments alone, the class
and Manim's default colour (the theme's), so :func:`install` keeps the first text made from
each such recipe and makes the next one a copy of it (:meth:`Mobject.copy`): the attributes
``Text.__init__`` sets are taken from the copy, those a subclass set before it (a
:class:`~scenes.kit.numbers.ShownNumber`'s value and source) stay the instance's own. What is
kept is a copy made when it was first built, so what a chapter does to its text after never
reaches the next one.

A text whose arguments cannot be told apart by their ``repr`` (an object with no value of its
own in it) is made as Manim makes it. Manim's cache of parsed SVGs is used for texts too (a
caller that says ``use_svg_cache=False`` still gets its way). The frames are the same: the
golden-frame and determinism tests render through it.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from manim import Text, VMobject

_own = Text.__init__  # Manim's own
_made: dict[str, tuple[Text, list[str]]] = {}  # recipe -> (first text, attributes its init set)
_ANONYMOUS = re.compile(r" at 0x[0-9a-f]+>")  # a repr that names an object, not its value


def _recipe(self: Text, args: tuple, kwargs: dict[str, Any]) -> str | None:
    """Everything a text is made from, as one string; None when an argument hides its value."""
    recipe = repr((type(self), VMobject().color, args, sorted(kwargs.items())))
    return None if _ANONYMOUS.search(recipe) else recipe


@functools.wraps(_own)
def _init(self: Text, *args: Any, use_svg_cache: bool = True, **kwargs: Any) -> None:
    kwargs["use_svg_cache"] = use_svg_cache
    recipe = _recipe(self, args, kwargs)
    made = _made.get(recipe) if recipe is not None else None
    if made is None:
        before = dict(self.__dict__)  # what a subclass set before calling up
        _own(self, *args, **kwargs)
        if recipe is not None:
            now = self.__dict__
            set_here = [k for k, v in now.items() if k not in before or before[k] is not v]
            _made[recipe] = (self.copy(), set_here)
        return
    first, set_here = made
    copy = first.copy()
    for key in set_here:
        self.__dict__[key] = copy.__dict__[key]


def install() -> None:
    """Make each text once per process, and copy it after."""
    Text.__init__ = _init
