"""Pitfall 1 (seed 000): why project? Without W_Q and W_K every word looks at itself.

Render alone with ``manim -ql scenes/projection.py WhyProject``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    Line,
    MathTex,
    NumberLine,
    Rectangle,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.components import AttentionGrid
from scenes.numbers import Ref, ShownNumber, phrase

SRC = "pitfalls.projection"
BIN = 0.02  # histogram bin width (share of attention)


class WhyProject(LectureScene):
    """One draw's two maps side by side, then the self-share of all the draws."""

    scene_key = "projection"
    reads = ("pitfalls.projection",)

    def construct(self) -> None:
        self.p = self.data.projection
        self.title = self.make_title()
        self.say("intro", Write(self.title))
        self._maps()
        self._draws()
        wants = style.text(self.words["looks_for"], style.BODY_SIZE, style.QUERY)
        is_ = style.text(self.words["is"], style.BODY_SIZE, style.KEY)
        line = VGroup(wants, style.text("≠", style.TITLE_SIZE), is_).arrange(
            RIGHT, buff=style.ROW_BUFF
        )
        self.say("two_things", FadeIn(line.next_to(self.title, DOWN, buff=style.GROUP_BUFF * 3)))

    def _map(self, kind: str, colour) -> VGroup:
        weights = getattr(self.p.example, kind)
        grid = AttentionGrid(weights, f"{SRC}.example.{kind}", cell_size=0.5)
        name = style.text(self.words[kind], style.LABEL_SIZE, colour)
        formula = MathTex(self.words[f"{kind}_tex"], font_size=30, color=colour)
        head = VGroup(name, formula).arrange(RIGHT, buff=style.ITEM_BUFF)
        return VGroup(head.next_to(grid, UP, buff=style.ITEM_BUFF), grid)

    def _maps(self) -> None:
        plain, projected = self._map("plain", style.WITHOUT), self._map("projected", style.WITH)
        maps = VGroup(plain, projected).arrange(RIGHT, buff=style.WIDE_BUFF)
        maps.next_to(self.title, DOWN, buff=style.GROUP_BUFF)
        self.say("setup", FadeIn(plain), n=self.p.positions, width=self.p.width)
        self.say("diagonal")
        self.say("why")
        self.say("projected_say", FadeIn(projected))
        self.play(FadeOut(maps))

    def _histogram(self, kind: str, colour, line: NumberLine) -> VGroup:
        values = getattr(self.p, kind).values
        counts = [0] * round(1 / BIN)
        for v in values:
            counts[min(int(v / BIN), len(counts) - 1)] += 1
        tallest = max(counts)
        bars = VGroup()
        for b, count in enumerate(counts):
            if count:
                bar = Rectangle(width=line.get_unit_size() * BIN, height=1.4 * count / tallest)
                bar.set_stroke(width=0).set_fill(colour, opacity=0.9)
                bars.add(bar.move_to(line.n2p((b + 0.5) * BIN), DOWN))
        return bars

    def _draws(self) -> None:
        p = self.p
        rows = VGroup()
        for kind, colour in (("plain", style.WITHOUT), ("projected", style.WITH)):
            line = NumberLine(
                x_range=[0, 1, 0.25],
                length=9,
                color=style.MUTED,
                include_numbers=True,
                font_size=24,
            )
            bars = self._histogram(kind, colour, line)
            name = style.text(self.words[kind], style.LABEL_SIZE, colour)
            rows.add(VGroup(line, bars, name.next_to(line, LEFT, buff=style.GROUP_BUFF)))
        rows.arrange(DOWN, buff=style.SECTION_BUFF).next_to(
            self.title, DOWN, buff=style.SECTION_BUFF
        )
        uniform = rows[1][0].n2p(p.uniform_share)
        mark = Line(uniform + UP * 1.6, uniform + DOWN * 0.1, color=style.FOREGROUND)
        mark.set_stroke(width=2)
        uniform_share = ShownNumber(p.uniform_share, 3, Ref(f"{SRC}.uniform_share"))
        even = phrase(self.words["even_line"], style.SMALL_SIZE, w=uniform_share)
        even.next_to(mark, UP, buff=style.TIGHT_BUFF)
        lowest = ShownNumber(p.plain.min, 3, Ref(f"{SRC}.plain.min"))
        plain_min = phrase(self.words["min_line"], style.SMALL_SIZE, style.WITHOUT, v=lowest)
        plain_min.next_to(rows[0][1], UP, buff=style.ITEM_BUFF).align_to(rows[0][0], RIGHT)
        spread = {
            key: ShownNumber(getattr(p.projected, key), 2, Ref(f"{SRC}.projected.{key}"))
            for key in ("min", "max", "mean")
        }
        proj = phrase(
            self.words["range_line"],
            style.SMALL_SIZE,
            style.WITH,
            lo=spread["min"],
            hi=spread["max"],
            mean=spread["mean"],
        )
        proj.next_to(rows[1][0], DOWN, buff=style.GROUP_BUFF)
        self.say("draws", FadeIn(rows[0]), FadeIn(plain_min), draws=p.draws, min=lowest)
        self.say(
            "draws_projected",
            FadeIn(rows[1]),
            FadeIn(proj),
            lo=spread["min"],
            hi=spread["max"],
            mean=spread["mean"],
        )
        self.say("even", FadeIn(mark), FadeIn(even), w=uniform_share)
        self.clear_below_title(self.title)
