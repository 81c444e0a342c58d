"""Devices the narration feeds and turns: the colour task's model as a box a sequence flows
through (:class:`ModelBox`), and a row of numbers under a strip's columns, its outputs or
its answers (:func:`output_row`)."""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    FadeIn,
    FadeOut,
    Indicate,
    MathTex,
    Mobject,
    RoundedRectangle,
    Succession,
    VGroup,
)

from scenes.kit import style
from scenes.kit.numbers import Ref, ShownNumber

BOX_HEIGHT = 0.95  # the head's and the readout's boxes
ARROW_LENGTH = 0.55  # the flow into the box and out of it


class ModelBox(VGroup):
    """The model of the colour task: a head (its W_Q, W_K, W_V) and then a linear readout,
    side by side in one box as wide as the sequence that flows through it; an arrow in over
    it and an arrow out under it.

    Parameters
    ----------
    width
        The box's width (the strip's that flows through it).
    head_label, readout_label
        The two parts' names, in the lecture's language.

    Examples
    --------
    .. manim:: ModelBoxExample
        :save_last_frame:

        class ModelBoxExample(Scene):
            def construct(self):
                self.add(ModelBox(6.0, "head", "readout"))
    """

    def __init__(self, width: float, head_label: str, readout_label: str) -> None:
        super().__init__()
        self.weights = VGroup(
            *(MathTex(f"W_{r}", color=c) for r, c in zip("QKV", _roles(), strict=True))
        ).arrange(RIGHT, buff=style.ITEM_BUFF)
        head_name = style.text(head_label, style.LABEL_SIZE, style.MUTED)
        readout_name = style.text(readout_label, style.LABEL_SIZE)
        head_inside = VGroup(head_name, self.weights).arrange(RIGHT, buff=style.GROUP_BUFF)
        readout_w = max(readout_name.width + 2 * style.GROUP_BUFF, width * 0.3)
        head_w = max(width - readout_w - style.ITEM_BUFF, head_inside.width + style.GROUP_BUFF)
        self.head = VGroup(
            RoundedRectangle(corner_radius=0.12, width=head_w, height=BOX_HEIGHT), head_inside
        )
        self.readout = VGroup(
            RoundedRectangle(corner_radius=0.12, width=readout_w, height=BOX_HEIGHT),
            readout_name,
        )
        VGroup(self.head, self.readout).arrange(RIGHT, buff=style.ITEM_BUFF)
        body = VGroup(self.head, self.readout)
        self.into = Arrow(UP * ARROW_LENGTH, ORIGIN, buff=0, color=style.MUTED)
        self.into.next_to(body, UP, buff=style.TIGHT_BUFF)
        self.out = Arrow(UP * ARROW_LENGTH, ORIGIN, buff=0, color=style.MUTED)
        self.out.next_to(body, DOWN, buff=style.TIGHT_BUFF)
        self.add(self.into, self.head, self.readout, self.out)

    def get_parameters(self) -> list[Mobject]:
        """What training changes, in the order the narration names it: W_Q, W_K, W_V and
        the readout."""
        return [*self.weights, self.readout]

    def feed(self, strip: Mobject, outputs: Mobject) -> Succession:
        """A sequence (``strip``, standing over the box) flowing through it: the strip's
        copy sinks into the head, the head and the readout light in turn, and ``outputs``
        come out under the box."""
        ghost = strip.copy().set_opacity(0.6)
        return Succession(
            FadeOut(ghost, target_position=self.head[0], scale=0.3),
            AnimationGroup(
                Indicate(self.head, color=style.HIGHLIGHT, scale_factor=1.03),
                Indicate(self.readout, color=style.HIGHLIGHT, scale_factor=1.03),
                lag_ratio=0.5,
            ),
            FadeIn(outputs, shift=DOWN * 0.3, lag_ratio=0.05),
        )


def _roles() -> tuple:
    """The Query's, Key's and Value's colours (read when drawn: the theme may change)."""
    return style.QUERY, style.KEY, style.VALUE


def output_row(
    values: Sequence[float], source: str, columns: Sequence[Mobject], name: str, decimals: int = 2
) -> VGroup:
    """A row of numbers (a model's outputs, or the answers), each under its column of a
    strip, named on the left (``ŷ``, ``y``)."""
    numbers = VGroup(
        *(
            ShownNumber(v, decimals, Ref(f"{source}[{k}]"), style.SMALL_SIZE).match_x(column)
            for k, (v, column) in enumerate(zip(values, columns, strict=True))
        )
    )
    label = MathTex(name, font_size=36, color=style.MUTED)
    label.next_to(numbers, LEFT, buff=style.GROUP_BUFF)
    return VGroup(label, numbers)
