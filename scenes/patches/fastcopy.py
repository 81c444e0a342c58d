"""A faster copy of Manim mobjects, the same copy for every purpose the lecture has.

Every ``Transform`` (and so every ``FadeIn``, ``FadeOut`` and ``ReplacementTransform``)
deep-copies its mobject twice when it begins. Manim's ``Mobject.__deepcopy__`` hands each
attribute to :func:`copy.deepcopy`, which spends most of its time on values that need no
copy: numbers, strings, enum members, colours (``ManimColor`` never changes in place) and
the svgelements path a glyph was drawn from (read once, when the glyph's points are made).
Profiled on the qkv chapter's gate run, copying was 23 of 34 seconds.

:func:`install` replaces it with a copy that keeps those values, copies numeric arrays with
``ndarray.copy`` and lists item by item, and leaves everything else, mobjects above all, to
:func:`copy.deepcopy` with the same memo (a mobject shared by two groups stays shared).
The frames are the same: the golden-frame and determinism tests render through it.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from manim import ManimColor, Mobject
from manim.constants import CapStyleType, LineJointType

_KEPT = frozenset(
    {int, float, bool, str, type(None), np.float64, np.int64, np.bool_}
    | {LineJointType, CapStyleType, ManimColor}
)


def _copy_value(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _KEPT or kind.__module__.startswith("svgelements"):
        return value
    if kind is np.ndarray and value.dtype != object:
        return value.copy()
    if kind is list:
        return [_copy_value(item, memo) for item in value]
    return copy.deepcopy(value, memo)


def _deepcopy(self: Mobject, memo: dict[int, Any]) -> Mobject:
    result = self.__class__.__new__(self.__class__)
    memo[id(self)] = result
    attributes = result.__dict__
    for key, value in self.__dict__.items():
        attributes[key] = _copy_value(value, memo)
    result.original_id = str(id(self))
    return result


def install() -> None:
    """Make :meth:`Mobject.copy` (and ``copy.deepcopy`` of a mobject) use the fast copy."""
    Mobject.__deepcopy__ = _deepcopy
