"""Pitfall 2 (seeds 000, 002): why divide by sqrt(d)? Unscaled softmax saturates as d grows.

Render alone with ``manim -ql scenes/sqrt_d.py SqrtD``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    ReplacementTransform,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.components import WeightBars
from scenes.numbers import Ref, ShownNumber, Spoken, phrase

SRC = "pitfalls.sqrt_d"


class SqrtD(LectureScene):
    """d from 4 to 512: one draw's weights without and with sqrt(d), and the mean curves."""

    scene_key = "sqrt_d"
    reads = ("pitfalls.sqrt_d", "tokens.it_cat")

    def construct(self) -> None:
        self.probe = self.data.sqrt_d
        title = self.make_title()
        self.title = title
        self.axes = self._axes().to_edge(RIGHT, buff=style.INSET)
        self.axes.next_to(title, DOWN, buff=style.GROUP_BUFF, coor_mask=[0, 1, 0])
        self.say("intro", Write(title))
        self.say("random_walk")
        shown = self._draw(0)
        self.say("sweep_start", FadeIn(shown), FadeIn(self.axes), d=self.probe.dims[0].d)
        curves = VGroup()
        for k in range(1, len(self.probe.dims)):
            new = self._draw(k)
            self.play(ReplacementTransform(shown, new), *self._extend(curves, k), run_time=0.9)
            self.wait(0.4)
            shown = new
        first, last = self.probe.dims[0], self.probe.dims[-1]
        ends = VGroup()
        for attr, kind, colour, side in (
            ("mean_max_unscaled", "unscaled", style.WITHOUT, UP),  # above the rising curve
            ("mean_max_scaled", "scaled", style.WITH, DOWN),
        ):
            point = self.axes.axes.c2p(math.log2(last.d), getattr(last, attr))
            ends.add(
                style.text(self.words[kind], style.SMALL_SIZE, colour)
                .next_to(point, side, buff=style.ITEM_BUFF)
                .align_to(point, RIGHT)
            )
        curves.add(ends)
        self.say(
            "means",
            FadeIn(ends),
            draws=self.probe.draws,
            d0=first.d,
            d1=last.d,
            u0=self._mean_max(0, "unscaled"),
            u1=self._mean_max(-1, "unscaled"),
            s0=self._mean_max(0, "scaled"),
            s1=self._mean_max(-1, "scaled"),
        )
        self.say("noise")
        self.play(FadeOut(VGroup(shown, self.axes, curves)))
        self._it_cat()
        self.say("why")

    def _mean_max(self, k: int, kind: str) -> Spoken:
        """The mean largest weight at the k-th width, as the narration says it."""
        k %= len(self.probe.dims)
        value = getattr(self.probe.dims[k], f"mean_max_{kind}")
        return Spoken(value, 2, Ref(f"{SRC}.dims[{k}].mean_max_{kind}"))

    def _axes(self) -> VGroup:
        dims = [row.d for row in self.probe.dims]
        axes = style.muted_axes(
            [math.log2(dims[0]), math.log2(dims[-1]), 1],
            [0, 1, 0.25],
            5.0,
            3.6,
            numbers_to_include=[0, 0.5, 1],
            font_size=24,
        )
        ticks = VGroup(
            *(
                ShownNumber(d, 0, Ref(f"{SRC}.dims[{k}].d"), color=style.MUTED).next_to(
                    axes.c2p(math.log2(d), 0), DOWN
                )
                for k, d in enumerate(dims)
                if k % 2 == 0
            )
        )
        draws = ShownNumber(self.probe.draws, 0, Ref(f"{SRC}.draws"))
        name = phrase(self.words["axis"], style.SMALL_SIZE, style.MUTED, draws=draws)
        name.next_to(ticks, DOWN, buff=style.ITEM_BUFF)
        group = VGroup(axes, ticks, name)
        group.axes = axes
        return group

    def _extend(self, curves: VGroup, k: int) -> list:
        """Dots and segments of the two mean curves up to width index k."""
        a = self.axes.axes
        rows = self.probe.dims
        added = []
        for attr, colour in (("mean_max_unscaled", style.WITHOUT), ("mean_max_scaled", style.WITH)):
            points = [a.c2p(math.log2(r.d), getattr(r, attr)) for r in rows[k - 1 : k + 1]]
            segment = VGroup(
                Dot(points[0], color=colour, radius=0.05), Dot(points[1], color=colour, radius=0.05)
            )
            line = a.plot_line_graph(
                [math.log2(r.d) for r in rows[k - 1 : k + 1]],
                [getattr(r, attr) for r in rows[k - 1 : k + 1]],
                add_vertex_dots=False,
                line_color=colour,
            )
            curves.add(segment, line)
            added += [FadeIn(segment), Create(line)]
        return added

    def _draw(self, k: int) -> VGroup:
        row = self.probe.dims[k]
        n = self.probe.positions
        blocks = VGroup()
        for kind, colour in (("unscaled", style.WITHOUT), ("scaled", style.WITH)):
            labels = [style.text(str(j + 1), style.SMALL_SIZE, style.MUTED) for j in range(n)]
            bars = WeightBars(
                labels,
                getattr(row, f"example_{kind}"),
                f"{SRC}.dims[{k}].example_{kind}",
                length=1.8,
                color=colour,
            )
            name = style.text(self.words[kind], style.LABEL_SIZE, colour)
            blocks.add(VGroup(name.next_to(bars, UP, buff=style.ITEM_BUFF), bars))
        blocks.arrange(RIGHT, buff=style.GROUP_BUFF, aligned_edge=UP)
        d = phrase(
            self.words["d_line"],
            style.BODY_SIZE,
            d=ShownNumber(row.d, 0, Ref(f"{SRC}.dims[{k}].d")),
        )
        group = VGroup(d, blocks).arrange(DOWN, buff=style.ROW_BUFF, aligned_edge=LEFT)
        return group.next_to(self.title, DOWN, buff=style.GROUP_BUFF).to_edge(
            LEFT, buff=style.INSET
        )

    def _it_cat(self) -> None:
        c = self.data.it_cat
        it, cat = c.query_index, c.index("cat")
        weight = {
            kind: ShownNumber(
                getattr(c, kind).weights[it][cat],
                2,
                Ref(f"tokens.it_cat.{kind}.weights[{it}][{cat}]"),
            )
            for kind in ("scaled", "unscaled")
        }
        lines = VGroup(
            phrase(self.words["with_line"], style.BODY_SIZE, style.WITH, w=weight["scaled"]),
            phrase(
                self.words["without_line"], style.BODY_SIZE, style.WITHOUT, w=weight["unscaled"]
            ),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        lines.next_to(self.title, DOWN, buff=style.WIDE_BUFF)
        self.say("it_cat", FadeIn(lines), w=weight["scaled"], u=weight["unscaled"])
