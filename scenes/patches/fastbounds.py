"""Bounding boxes worked out with numpy: the same numbers as Manim's, without its loops.

Every ``next_to``, ``move_to``, ``arrange``, ``width`` and ``get_center`` asks a mobject for
its box, and every check of the gates asks again. Manim 0.22 answers in Python loops:

- ``VMobject.get_points_defining_boundary`` (corners, edges, centres) builds the list of
  every curve's two anchors with ``zip`` and ``itertools.chain``, point by point, then
  turns it back into an array;
- ``Mobject.reduce_across_dimension`` (width, height) hands a whole column of points to
  Python's ``max`` or ``min``, which compares them one by one.

Profiled on the gates' dry run of every chapter, the two were a sixth of the time. The
versions here take the same points (each curve's start and end anchor, in the same order)
and the same extremes of the same numbers, so every box, and so every frame, is the same:
the golden-frame and determinism tests render through them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from manim import Mobject, VMobject

_own_anchors = VMobject.get_anchors  # Manim's own
_own_boundary = VMobject.get_points_defining_boundary
_own_reduce = Mobject.reduce_across_dimension
_NUMPY = {max: np.max, min: np.min}  # Python's reducer, and numpy's with the same result


def _anchors(m: Mobject) -> np.ndarray | list:
    """A VMobject's start and end anchors, interleaved, as Manim's ``get_anchors`` orders
    them (a subclass with anchors of its own keeps them)."""
    points = m.points
    step = getattr(m, "n_points_per_cubic_curve", None)
    if type(m).get_anchors is not _own_anchors or step is None or len(points) == 1:
        return m.get_anchors()
    starts, ends = points[::step], points[step - 1 :: step]
    if len(starts) != len(ends):  # a curve cut short: Manim's own says so
        return m.get_anchors()
    both = np.empty((2 * len(starts), points.shape[1]), dtype=points.dtype)
    both[0::2], both[1::2] = starts, ends
    return both


def get_points_defining_boundary(self: VMobject) -> np.ndarray:
    """Every curve's anchors, over the whole family (Manim's own, as one array)."""
    parts = [a for a in map(_anchors, self.get_family()) if len(a)]
    if not parts:
        return np.array(())
    return np.concatenate([np.asarray(a) for a in parts])


def reduce_across_dimension(
    self: Mobject, reduce_func: Callable[[Iterable[float]], float], dim: int
) -> float | None:
    """The largest or smallest coordinate along ``dim`` over the family's points (None when
    it has none), as Manim's own; a reducer other than ``max`` or ``min`` goes to it."""
    reduce = _NUMPY.get(reduce_func)
    if reduce is None:
        return _own_reduce(self, reduce_func, dim)
    columns = [m.points[:, dim] for m in self.get_family() if len(m.points)]
    return reduce(np.concatenate(columns)) if columns else None


def install() -> None:
    """Make boxes, widths and heights come from the fast versions."""
    VMobject.get_points_defining_boundary = get_points_defining_boundary
    Mobject.reduce_across_dimension = reduce_across_dimension
