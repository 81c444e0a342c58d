"""A faster ``Mobject.get_family``: the same list, in the same order.

Manim lists a mobject's family (itself, then each submobject's family, depth first) through
nested generators, one per level, so every member is handed up through each generator above
it, and a set of the members on the path is kept by the mobjects' own hashes; then it drops
repeats, keeping each one's last place. Adding a mobject to a scene asks for the family of
everything on it, and so does every animation's set-up and every box: profiled on the gates'
dry runs of six chapters, the family lists were an eighth of the time.

:func:`get_family` walks the same tree with one plain recursive function (a member already
on the path from the top is skipped, as Manim's guard against cycles does; a leaf, having
no submobjects, cannot be one), and drops repeats the same way only when there are any.
``tests/test_speed.py`` checks it against Manim's own on trees with shared and repeated
members, a cycle and a text's glyphs.
"""

from __future__ import annotations

from manim import Mobject
from manim.utils.iterables import remove_list_redundancies

_own = Mobject.get_family  # Manim's own


def _walk(mobject: Mobject, found: list[Mobject], path: set[int]) -> None:
    path.add(id(mobject))
    found.append(mobject)
    for sub in mobject.submobjects:
        if not sub.submobjects:
            found.append(sub)
        elif id(sub) not in path:  # a cycle: Manim's own skips it too
            _walk(sub, found, path)
    path.discard(id(mobject))


def get_family(self: Mobject, recurse: bool = True) -> list[Mobject]:
    """Manim's ``get_family``: the mobject, then its submobjects' families in order, each
    member once, at its last place."""
    found: list[Mobject] = []
    _walk(self, found, set())
    if len({id(m) for m in found}) == len(found):
        return found
    return remove_list_redundancies(found)


def install() -> None:
    """Make :meth:`Mobject.get_family` the faster walk."""
    Mobject.get_family = get_family
