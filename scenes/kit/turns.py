"""Animations one after another, each new object drawn only from its own turn (:class:`InTurn`).

Manim's ``Succession`` sets every animation up when it starts, and an animation that brings
an object onto the stage (``FadeIn``, ``Create``, ``Write``, ``TransformFromCopy``) puts it
there then, whole, so what a later step brings stands finished from the first frame, before
its words. :class:`InTurn` keeps each such object invisible until its own step begins.
"""

from __future__ import annotations

from manim import Animation, AnimationGroup, Mobject, Succession, TransformFromCopy


class InTurn(Succession):
    """A ``Succession`` whose later steps bring their objects only when each begins."""

    def begin(self) -> None:
        self.waiting = [[(m, m.copy()) for m in brought(a)] for a in self.animations]
        for pairs in self.waiting[1:]:
            for m, _ in pairs:
                m.set_opacity(0)
        super().begin()

    def update_active_animation(self, index: int) -> None:
        if 0 < index < len(self.animations):
            for m, kept in self.waiting[index]:
                m.become(kept)
        super().update_active_animation(index)


def brought(animation: Animation) -> list[Mobject]:
    """The objects an animation brings onto the stage (not those already on it)."""
    if isinstance(animation, AnimationGroup):
        return [m for a in animation.animations for m in brought(a)]
    if animation.is_introducer() or isinstance(animation, TransformFromCopy):
        return [animation.mobject]
    return []
