"""Plots of a function the narration reads values off: softmax's slope w (1 − w) with the
weights it is read at (:class:`SlopePlot`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Dot, Line, ManimColor, MathTex, Mobject, VGroup

from scenes.kit import style


class SlopePlot(VGroup):
    """softmax's slope w (1 − w) against the weight w (how much a weight can still move
    with its own score), with points read off it: each a dot with its value, and a height
    from the axis up to it (the slope drawn as a length).

    Parameters
    ----------
    points
        One ``(w, slope, label, colour, side)`` per point: where it sits, its value as a
        mobject (a number read from the data file), its colour and the side the label takes.

    Examples
    --------
    .. manim:: SlopePlotExample
        :save_last_frame:

        class SlopePlotExample(Scene):
            def construct(self):
                label = style.tick_label("0.22")
                plot = SlopePlot([(0.37, 0.22, label, style.WITH, UP)])
                self.add(plot)
    """

    def __init__(
        self, points: Sequence[tuple[float, float, Mobject, ManimColor, np.ndarray]]
    ) -> None:
        super().__init__()
        axes = style.muted_axes([0, 1, 0.5], [0, 0.25, 0.25], 3.2, 2.4)
        formula = MathTex(r"\frac{\partial w}{\partial s} = w\,(1 - w)", font_size=40)
        formula.next_to(axes, UP, buff=style.ITEM_BUFF)
        ticks = VGroup(
            *(style.tick_label(f"{x:g}").next_to(axes.c2p(x, 0), DOWN) for x in (0, 0.5, 1)),
            style.tick_label("0.25").next_to(axes.c2p(0, 0.25), LEFT),
            style.tick_label("w").next_to(axes.x_axis, RIGHT, buff=style.ITEM_BUFF),
        )
        self.frame = VGroup(formula, axes, ticks)
        self.curve = axes.plot(lambda w: w * (1 - w), x_range=[0, 1], color=style.FOREGROUND)
        self.dots, self.heights = VGroup(), VGroup()
        for w, slope, label, colour, side in points:
            at = axes.c2p(w, slope)
            self.dots.add(VGroup(Dot(at, color=colour, radius=0.08), label.next_to(at, side)))
            self.heights.add(Line(axes.c2p(w, 0), at).set_stroke(colour, width=6))
        self.add(self.frame, self.curve, self.dots, self.heights)
