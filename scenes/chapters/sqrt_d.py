"""Pitfall 2 (seeds 000, 002): why divide by sqrt(d)? Unscaled softmax saturates as d grows.

Render alone with ``manim -ql scenes/chapters/sqrt_d.py SqrtD``.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Brace,
    Circumscribe,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    GrowFromCenter,
    Indicate,
    MathTex,
    ReplacementTransform,
    VGroup,
    Write,
)

from scenes.kit import style
from scenes.kit.base import LectureScene
from scenes.kit.numbers import Spoken, phrase
from scenes.kit.vectors import WeightBars

SRC = "pitfalls.sqrt_d"


class SqrtD(LectureScene):
    """d from 4 to 512: one draw's weights without and with sqrt(d), and the mean curves."""

    scene_key = "sqrt_d"
    reads = ("pitfalls.sqrt_d", "tokens.it_cat")

    def construct(self) -> None:
        self.probe = self.data.sqrt_d
        title = self.make_title()
        self.title = title
        dot = MathTex(r"q \cdot k = q_1 k_1 + q_2 k_2 + \cdots + q_d k_d", font_size=56)
        formula = MathTex(r"\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d}}\right)V", font_size=96)
        style.place(formula)
        style.place(dot, UP)
        self.add(title)  # the title at once: no frame is only a title being written
        self.say(
            "intro",
            FadeIn(formula),
            beats={
                "rote": [Circumscribe(formula, color=style.HIGHLIGHT)],
                "reason": [ReplacementTransform(formula, dot)],
            },
        )
        self._spread(dot)
        self.axes = self._axes()
        shown = self._draw(0)
        style.place(VGroup(shown, self.axes).arrange(RIGHT, buff=style.WIDE_BUFF * 1.5))
        self.say("sweep_start", FadeIn(shown), FadeIn(self.axes), d=self.probe.dims[0].d)
        curves = VGroup()
        for k in range(1, len(self.probe.dims)):
            new = self._draw(k).move_to(shown, aligned_edge=LEFT + UP)
            self.play(ReplacementTransform(shown, new), *self._extend(curves, k), run_time=0.9)
            self.wait(0.4)
            shown = new
        curves.add(self._curve_names())
        first, last = self.probe.dims[0], self.probe.dims[-1]
        self.say(
            "means",
            FadeIn(curves[-1]),
            draws=self.probe.draws,
            d0=first.d,
            d1=last.d,
            u0=self._mean_max(0, "unscaled"),
            u1=self._mean_max(-1, "unscaled"),
            s0=self._mean_max(0, "scaled"),
            s1=self._mean_max(-1, "scaled"),
        )
        self.say("noise", Indicate(shown, scale_factor=1.03, color=style.HIGHLIGHT))
        self.play(FadeOut(VGroup(shown, self.axes, curves)))
        self._it_cat()
        self._knob()

    def _curve_names(self) -> VGroup:
        last = self.probe.dims[-1]
        names = VGroup()
        for attr, kind, colour, side in (
            ("mean_max_unscaled", "unscaled", style.WITHOUT, DOWN),  # between the two curves
            ("mean_max_scaled", "scaled", style.WITH, UP),
        ):
            point = self.axes.axes.c2p(math.log2(last.d), getattr(last, attr))
            names.add(
                style.text(self.words[kind], style.SMALL_SIZE, colour)
                .next_to(point, side, buff=style.ITEM_BUFF)
                .align_to(point, RIGHT)
            )
        return names

    def _spread(self, dot: MathTex) -> None:
        """The measured spread of q.k next to sqrt(d), and after the division."""
        last = len(self.probe.dims) - 1  # every other width, down from the widest
        rows = [(k, r) for k, r in enumerate(self.probe.dims) if k % 2 == last % 2]
        size = style.BODY_SIZE
        cells = [
            [
                self.number(f"{SRC}.dims[{k}].d", 0, size),
                self.number(f"{SRC}.dims[{k}].spread_unscaled", 1, size),
                self.number(f"{SRC}.dims[{k}].sqrt_d", 1, size),
                self.number(f"{SRC}.dims[{k}].spread_scaled", 2, size),
            ]
            for k, r in rows
        ]
        heads = [
            style.text(self.words[f"col_{c}"], style.LABEL_SIZE, style.MUTED) for c in range(4)
        ]
        table = VGroup(*heads, *(c for row in cells for c in row))
        table.arrange_in_grid(len(rows) + 1, 4, buff=(style.WIDE_BUFF * 1.5, style.GROUP_BUFF))
        table.next_to(dot, DOWN, buff=style.SECTION_BUFF)
        columns = [VGroup(heads[c], *(row[c] for row in cells)) for c in range(4)]
        self.say(
            "random_walk",
            Indicate(dot, color=style.HIGHLIGHT),
            beats={
                "more": [FadeIn(columns[0])],
                "column": [FadeIn(columns[1], lag_ratio=0.2)],
            },
        )
        self.say(
            "spread_say",
            Circumscribe(VGroup(cells[0][1], cells[-1][1]), color=style.HIGHLIGHT),
            beats={"root": [FadeIn(columns[2], lag_ratio=0.2)]},
            d0=cells[0][0],
            s0=cells[0][1],
            d1=cells[-1][0],
            s1=cells[-1][1],
        )
        self.say("divided", FadeIn(columns[3], lag_ratio=0.2))
        self.play(FadeOut(VGroup(dot, table)))

    def _knob(self) -> None:
        """The office arrow's length, the temperature T and sqrt(d): one knob."""
        items = VGroup(
            *(style.text(self.words[f"knob_{k}"], style.BODY_SIZE) for k in range(3))
        ).arrange(DOWN, buff=style.GROUP_BUFF, aligned_edge=LEFT)
        brace = Brace(items, RIGHT, color=style.MUTED)
        result = style.text(self.words["knob_result"], style.BODY_SIZE, style.RESULT)
        result.next_to(brace, RIGHT, buff=style.ITEM_BUFF)
        last = len(self.probe.dims) - 1
        slope = {
            kind: self.number(f"{SRC}.dims[{last}].mean_slope_{kind}", 2)
            for kind in ("unscaled", "scaled")
        }
        widest = self.number(f"{SRC}.dims[{last}].d", 0)
        gradient = VGroup(
            MathTex(r"\frac{\partial w_j}{\partial s_j} = w_j\,(1 - w_j)", font_size=48),
            phrase(
                self.words["slope_line"],
                style.BODY_SIZE,
                d=widest,
                u=slope["unscaled"],
                s=slope["scaled"],
            ),
        ).arrange(DOWN, buff=style.ITEM_BUFF)
        harms = VGroup(
            style.text(self.words["harm_one"], style.BODY_SIZE),
            style.text(self.words["harm_two"], style.BODY_SIZE),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.ITEM_BUFF)
        picture = VGroup(VGroup(items, brace, result), harms, gradient).arrange(
            DOWN, buff=style.GROUP_BUFF
        )
        style.place(picture)
        self.say(
            "knob",
            beats={
                "arrow": [FadeIn(items[0], shift=RIGHT * style.ITEM_BUFF)],
                "temp": [FadeIn(items[1], shift=RIGHT * style.ITEM_BUFF)],
                "root": [FadeIn(items[2], shift=RIGHT * style.ITEM_BUFF)],
                "knob": [GrowFromCenter(brace)],
                "sharp": [FadeIn(result, shift=RIGHT * style.ITEM_BUFF)],
            },
        )
        self.say(
            "why",
            Circumscribe(result, color=style.HIGHLIGHT),
            beats={
                "one": [FadeIn(harms[0], shift=UP * style.ITEM_BUFF)],
                "two": [FadeIn(harms[1], shift=UP * style.ITEM_BUFF), Write(gradient)],
                "back": [Circumscribe(items[2], color=style.HIGHLIGHT)],
            },
            d1=widest,
            u1=self._mean_max(-1, "unscaled"),
            g1=slope["unscaled"],
            g1s=slope["scaled"],
        )

    def _mean_max(self, k: int, kind: str) -> Spoken:
        """The mean largest weight at the k-th width, as the narration says it."""
        k %= len(self.probe.dims)
        return self.spoken(f"{SRC}.dims[{k}].mean_max_{kind}", 2)

    def _axes(self) -> VGroup:
        dims = [row.d for row in self.probe.dims]
        axes = style.muted_axes(
            [math.log2(dims[0]), math.log2(dims[-1]), 1], [0, 1, 0.25], 5.5, 3.8
        )
        ticks = VGroup(
            *(
                self.number(f"{SRC}.dims[{k}].d", 0, color=style.MUTED).next_to(
                    axes.c2p(math.log2(d), 0), DOWN
                )
                for k, d in enumerate(dims)
            ),
            *(
                style.tick_label(f"{w:g}").next_to(axes.c2p(math.log2(dims[0]), w), LEFT)
                for w in (0, 0.5, 1)
            ),
        )
        x_name = style.text(self.words["x_axis"], style.SMALL_SIZE, style.MUTED)
        x_name.next_to(ticks, DOWN, buff=style.ITEM_BUFF)
        draws = self.number(f"{SRC}.draws", 0)
        y_name = phrase(self.words["y_axis"], style.SMALL_SIZE, style.MUTED, draws=draws)
        y_name.next_to(axes, UP, buff=style.ITEM_BUFF).align_to(axes, LEFT)
        group = VGroup(axes, ticks, x_name, y_name)
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
            d=self.number(f"{SRC}.dims[{k}].d", 0),
        )
        return VGroup(d, blocks).arrange(DOWN, buff=style.ROW_BUFF, aligned_edge=LEFT)

    def _it_cat(self) -> None:
        c = self.data.it_cat
        it, cat = c.query_index, c.referent
        weight = {
            kind: self.number(f"tokens.it_cat.{kind}.weights[{it}][{cat}]", 2)
            for kind in ("scaled", "unscaled")
        }
        lines = VGroup(
            phrase(self.template("with_line"), style.BODY_SIZE, style.WITH, w=weight["scaled"]),
            phrase(
                self.template("without_line"), style.BODY_SIZE, style.WITHOUT, w=weight["unscaled"]
            ),
        ).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        style.place(lines)
        self.say(
            "it_cat",
            FadeIn(lines[0]),
            beats={"without": [FadeIn(lines[1])]},
            w=weight["scaled"],
            u=weight["unscaled"],
        )
        self.play(FadeOut(lines))
