"""Training (seed 000): the loss curve falling, the time it took, validation vs guessing 0.

Render alone with ``manim -ql scenes/training.py Training``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Circumscribe,
    Create,
    FadeIn,
    Flash,
    Indicate,
    MathTex,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.numbers import Ref, ShownNumber, format_number, phrase

CURVE_POINTS = 250  # points drawn of the loss curve (every k-th step)


class Training(LectureScene):
    """The run that produced the data file, measured."""

    scene_key = "training"
    reads = ("training",)

    def construct(self) -> None:
        tr = self.data.training
        title = self.make_title()
        axes, curve = self._plot(tr.loss_curve)
        n = {  # every number of the chapter, shown and said
            "steps": ShownNumber(tr.steps, 0, Ref("training.steps")),
            "ms": ShownNumber(tr.train_ms, 0, Ref("training.train_ms")),
            "first": ShownNumber(tr.loss_curve[0], 3, Ref("training.loss_curve[0]")),
            "last": ShownNumber(tr.loss_curve[-1], 5, Ref(f"training.loss_curve[{tr.steps - 1}]")),
            "val_size": ShownNumber(tr.val_size, 0, Ref("training.val_size")),
            "val": ShownNumber(tr.val_mse, 5, Ref("training.val_mse")),
            "base": ShownNumber(tr.baseline_mse, 3, Ref("training.baseline_mse")),
        }
        run = phrase(self.words["run_line"], steps=n["steps"], ms=n["ms"])
        first = phrase(self.words["first_line"], loss=n["first"])
        last = phrase(self.words["last_line"], loss=n["last"])
        val = phrase(self.words["val_line"], n=n["val_size"], mse=n["val"])
        base = phrase(self.words["base_line"], style.LABEL_SIZE, style.MUTED, mse=n["base"])
        formula = MathTex(
            r"\text{loss} = \tfrac{1}{n}\sum_i (\hat{y}_i - y_i)^2", font_size=36, color=style.MUTED
        )
        side = VGroup(formula, run, first, last, val, base).arrange(
            DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF
        )
        style.place(VGroup(VGroup(axes, curve), side).arrange(RIGHT, buff=style.WIDE_BUFF))

        self.say("intro", Write(title), FadeIn(axes))
        self.say("loss", Write(formula))
        self.say(
            "curve",
            Create(curve),
            FadeIn(first),
            FadeIn(last),
            run_time=4,
            first=n["first"],
            last=n["last"],
        )
        self.say("run", FadeIn(run), steps=n["steps"], ms=n["ms"])
        self.say("val", FadeIn(val), n=n["val_size"], mse=n["val"])
        self.say("base", FadeIn(base), mse=n["base"])
        self.say("meaning", Circumscribe(val, color=style.HIGHLIGHT), Indicate(base))
        self.say(
            "outro", Flash(curve["line_graph"].get_end(), color=style.HIGHLIGHT, flash_radius=0.4)
        )

    def _plot(self, losses: tuple[float, ...]) -> tuple[VGroup, VGroup]:
        """Loss against step, the loss on a log scale (it falls by orders of magnitude)."""
        low = math.floor(math.log10(min(losses)))
        high = math.ceil(math.log10(max(losses)))
        axes = style.muted_axes(
            [0, len(losses), max(len(losses) // 4, 1)],
            [0, high - low, 1],  # decades above the lowest one
            6.5,
            4.6,
        )
        labels = VGroup(
            *(
                style.tick_label(format_number(10.0**e, 0, "power")).next_to(
                    axes.c2p(0, e - low), LEFT, buff=style.ITEM_BUFF
                )
                for e in range(low, high + 1)
            )
        )
        steps = ShownNumber(len(losses), 0, Ref("training.steps"), color=style.MUTED)
        steps.next_to(axes.c2p(len(losses), 0), DOWN, buff=style.ITEM_BUFF)
        x_name = style.text(self.words["x_axis"], style.SMALL_SIZE, style.MUTED)
        x_name.next_to(axes.x_axis, DOWN, buff=style.ITEM_BUFF)
        y_name = style.text("loss", style.SMALL_SIZE, style.MUTED)
        y_name.next_to(labels, UP, buff=style.ITEM_BUFF)
        step = max(len(losses) // CURVE_POINTS, 1)
        xs = list(range(0, len(losses), step))
        curve = axes.plot_line_graph(
            xs,
            [math.log10(losses[x]) - low for x in xs],
            add_vertex_dots=False,
            line_color=style.FOREGROUND,
            stroke_width=3,
        )
        return VGroup(axes, labels, steps, x_name, y_name), curve
