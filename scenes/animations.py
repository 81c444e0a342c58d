"""Animations the lecture needs that Manim's own do more expensively."""

from __future__ import annotations

from typing import Any

from manim import Animation, Mobject, VMobject


class SetOpacity(Animation):
    """Fade a large group to one opacity without copying it.

    ``group.animate.set_opacity(x)`` deep-copies the group to interpolate from (seconds for
    a heat map of glyphs); this keeps only each piece's starting opacities.

    Parameters
    ----------
    mobject
        The group whose pieces (fill and stroke) fade.
    opacity
        The opacity every piece ends at.
    """

    def __init__(self, mobject: Mobject, opacity: float, **kwargs: Any) -> None:
        self.target_opacity = opacity
        self._starts: list[tuple[VMobject, float, float]] = []
        super().__init__(mobject, **kwargs)

    def create_starting_mobject(self) -> Mobject:
        return Mobject()  # nothing to copy: begin() keeps the starting opacities

    def begin(self) -> None:
        self._starts = [
            (m, m.get_fill_opacity(), m.get_stroke_opacity())
            for m in self.mobject.get_family()
            if isinstance(m, VMobject) and len(m.points)
        ]
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        t = self.rate_func(alpha)
        for m, fill, stroke in self._starts:
            m.set_fill(opacity=fill + (self.target_opacity - fill) * t, family=False)
            m.set_stroke(opacity=stroke + (self.target_opacity - stroke) * t, family=False)
