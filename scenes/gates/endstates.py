"""The gates' dry run takes each transform straight to where it ends.

The gates read the picture after every animation, never between, and a dry run skips to each
animation's end (``skip_animations``). Manim's ``Transform`` still prepares every frame it
would draw when it begins: a copy of where the mobject starts, and the mobject and a copy of
its target aligned point for point (every curve split until both have as many), work a
dry run then throws away. Profiled on the sqrt_d chapter's gate run it was a third of the time.

Inside :func:`end_states_only` a plain transform (``Transform`` or a subclass that changes
only its target: ``ReplacementTransform``, ``ApplyMethod``, ``MoveToTarget``, ``FadeOut``,
``.animate``, ``TransformFromCopy`` …) whose rate function ends at 1 aligns nothing when it
begins, and copies its start only where something goes back to it, and its target only where
the two differ in shape (a copy keeps the target whole while parts are added to match).
Interpolated to 1 (again in ``finish``, after ``.animate`` has applied its methods once
more) the mobject takes the target's family, points, colours, strokes and opacities, as the
full transform leaves it (the curves not split to match: the gates read where parts are, not
how many points draw them); interpolated to 0 (``FadeOut``'s clean-up puts back what it
removed; ``TransformFromCopy`` runs backwards: the two that keep their start) it becomes its
start. A ``FadeIn`` ends where its mobject is when it begins, and a ``FadeOut`` puts its
mobject back as it began once it has removed it (before the gates read), so they copy
nothing and change nothing. A frame in between is drawn as Manim does where the start was kept, and
skipped elsewhere (the gates read the picture after each animation, and every animation ends
at 1). Any other rate function (``there_and_back``, as ``Indicate`` uses), and any
transform that draws its own frames (``FadeTransform``, a subclass with its own ``begin``)
does what Manim does.
The original methods are back when the block ends, so a render in the same process is
untouched. tests/test_speed.py plays each kind both ways and compares the pictures.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from manim import Animation, FadeIn, FadeOut, Mobject, Transform

_begin = Transform.begin  # Manim's own (Transform's interpolation is Animation's)
_interpolate_mobject = Animation.interpolate_mobject


def _own_frames(kind: type) -> bool:
    """Does this kind of transform draw its frames Manim's own way?"""
    return (
        kind.begin is _lazy_begin
        and kind.interpolate_mobject is _lazy_interpolate
        and kind.interpolate_submobject is Transform.interpolate_submobject
        and kind.get_all_families_zipped is Transform.get_all_families_zipped
    )


def _plain(animation: Transform) -> bool:
    """Does this transform start from where its mobject is, and end at its target?"""
    kind = type(animation)
    return _own_frames(kind) and kind.create_starting_mobject is Animation.create_starting_mobject


def _plain_fade(animation: Transform) -> bool:
    """Is this a ``FadeIn`` (it ends where its mobject already is) or a ``FadeOut`` (it
    removes its mobject and puts it back as it began), as Manim makes them?"""
    kind = type(animation)
    if not _own_frames(kind):
        return False
    if isinstance(animation, FadeIn):
        own = FadeIn.create_target, FadeIn.create_starting_mobject
        return (kind.create_target, kind.create_starting_mobject) == own
    return (
        isinstance(animation, FadeOut)
        and kind.create_target is FadeOut.create_target
        and kind.create_starting_mobject is Animation.create_starting_mobject
        and kind.clean_up_from_scene is FadeOut.clean_up_from_scene
    )


def _same_tree(a: Mobject, b: Mobject) -> bool:
    """Have ``a`` and ``b`` the same family tree (nothing for ``align_data`` to add)?"""
    return (
        len(a.submobjects) == len(b.submobjects)
        and a.has_points() == b.has_points()
        and all(_same_tree(x, y) for x, y in zip(a.submobjects, b.submobjects, strict=True))
    )


def _align_families(mobject: Mobject, target: Mobject) -> None:
    """Give ``mobject`` and ``target`` the same family tree, as Manim's ``align_data`` does,
    but split no curve at any depth: a transform's end takes the target's points whole, and
    the gates read where the parts are, not how many points draw them (Manim skips the
    points only at the top, and the splitting below was a fifth of a gate run)."""
    mobject.null_point_align(target)
    mobject.align_submobjects(target)
    for part, goal in zip(mobject.submobjects, target.submobjects, strict=True):
        _align_families(part, goal)


def _become(mobject: Mobject, target: Mobject) -> None:
    """``mobject`` takes ``target``'s points and style, as a transform leaves it at its end
    (Manim's ``become``, but a group without a style of its own keeps none, as in a
    transform, which colours only what has points)."""
    _align_families(mobject, target)
    for part, goal in zip(mobject.get_family(), target.get_family(), strict=True):
        part.points = np.array(goal.points)
        if type(part).interpolate_color is not Mobject.interpolate_color:
            part.interpolate_color(part, goal, 1)


def _lazy_begin(self: Transform) -> None:
    unchanged = _plain_fade(self)
    if self.rate_func(1.0) != 1 or not (_plain(self) or unchanged):
        _begin(self)
        return
    self._lazy = True
    if self.suspend_mobject_updating:
        self.mobject.suspend_updating()
    if unchanged:  # it ends as its mobject is now (FadeOut: once it is put back, removed)
        self.target_mobject = self.mobject
        self.target_copy = self.starting_mobject = Mobject()  # stand-ins: never read
        self._kept_start = False
        self._ends_unchanged = True
        return
    self._ends_unchanged = False
    self.target_mobject = self.create_target()
    # Its end is a copy of the target only where becoming it would add parts to the target
    # (a group of another shape): elsewhere the target is read, never changed.
    same = _same_tree(self.mobject, self.target_mobject)
    self.target_copy = self.target_mobject if same else self.target_mobject.copy()
    # Where it began, kept only where it is wanted again: FadeOut (a remover) puts back what
    # it removed as it was, and TransformFromCopy (its own interpolate) ends at its start,
    # over whatever else moved it meanwhile. Elsewhere a stand-in: nothing goes back to it.
    again = self.remover or type(self).interpolate is not Animation.interpolate
    self.starting_mobject = self.mobject.copy() if again else Mobject()
    self._kept_start = again


def _lazy_interpolate(self: Transform, alpha: float) -> None:
    if not getattr(self, "_lazy", False):
        _interpolate_mobject(self, alpha)
        return
    if alpha == 1:  # again in finish(), after `.animate`'s own last touch
        if not self._ends_unchanged:
            _become(self.mobject, self.target_copy)
        return
    if alpha == 0:  # as it began (FadeOut's clean-up, TransformFromCopy's end)
        if self._kept_start:
            _become(self.mobject, self.starting_mobject)
        return  # else it is where it began: only begin() asks for 0 there
    if not self._kept_start:  # a frame between its ends no gate reads: its end comes at 1
        return
    # A frame between its ends: prepare it as Manim does, then draw it.
    self._lazy = False
    if self.target_copy is self.target_mobject:  # Manim's alignment splits the target's
        self.target_copy = self.target_mobject.copy()  # curves: leave the target whole
    self.mobject.align_data(self.target_copy)
    self.starting_mobject.align_data(self.target_copy)
    _interpolate_mobject(self, alpha)


@contextmanager
def end_states_only() -> Iterator[None]:
    """Within the block, plain transforms skip the frames between their ends."""
    Transform.begin = _lazy_begin
    Transform.interpolate_mobject = _lazy_interpolate
    try:
        yield
    finally:
        Transform.begin = _begin
        del Transform.interpolate_mobject  # Animation's again
