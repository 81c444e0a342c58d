"""Softmax (seeds 002, 003): one row of scores becomes shares of one; then temperature T.

Render alone with ``manim -ql scenes/softmax.py Softmax``.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    FadeIn,
    FadeOut,
    ReplacementTransform,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import LectureScene
from scenes.components import AttentionGrid, WeightBars
from scenes.numbers import Ref, ShownNumber, Spoken, Sum, phrase

EAT = "tokens.eat_apple"
IT = "tokens.it_cat"


class Softmax(LectureScene):
    """exp, the sum, the division: a row that sums to 1; then the T knob on it -> cat."""

    scene_key = "softmax"
    reads = ("tokens.eat_apple", "tokens.it_cat")

    def construct(self) -> None:
        self.title = self.make_title()
        self.say("intro", Write(self.title))
        self._one_row()
        self._temperature()

    # --- one row -----------------------------------------------------------------------
    def _row(self, values, source: str, heat: bool, headers: bool = False) -> AttentionGrid:
        tokens = self.data.eat_apple.tokens[: self.data.eat_apple.short]
        cols = [style.text(t, style.LABEL_SIZE, style.KEY) for t in tokens] if headers else None
        return AttentionGrid([values], source, col_headers=cols, cell_size=0.9, heat=heat)

    def _one_row(self) -> None:
        ex = self.data.eat_apple
        row = ex.last_row
        scores = self._row(row.scores[0], f"{EAT}.last_row.scores", heat=False, headers=True)
        exps = self._row(row.exps[0], f"{EAT}.last_row.exps", heat=False)
        weights = self._row(row.weights[0], f"{EAT}.last_row.weights", heat=True)
        labels = [
            style.text(self.words[f"{k}_label"], style.LABEL_SIZE)
            for k in ("scores", "exp", "shares")
        ]
        rows = VGroup(scores, exps, weights).arrange(
            DOWN, buff=style.GROUP_BUFF, aligned_edge=RIGHT
        )
        rows.next_to(self.title, DOWN, buff=style.GROUP_BUFF).shift(LEFT * 1.5)
        for label, grid in zip(labels, rows, strict=True):
            label.next_to(grid.cells, LEFT, buff=style.GROUP_BUFF)
        exp_sum = ShownNumber(sum(row.exps[0]), 2, Sum(f"{EAT}.last_row.exps[0]"))
        total = phrase(self.words["total"], total=exp_sum)
        total.next_to(exps, RIGHT, buff=style.GROUP_BUFF)
        weight_sum = ShownNumber(sum(row.weights[0]), 2, Sum(f"{EAT}.last_row.weights[0]"))
        one = phrase(self.words["total"], total=weight_sum)
        one.next_to(weights, RIGHT, buff=style.GROUP_BUFF)
        top = row.weights[0].index(max(row.weights[0]))
        self.say("scores", FadeIn(scores), FadeIn(labels[0]), token=ex.tokens[ex.query_index])
        self.say("exp", FadeIn(exps), FadeIn(labels[1]))
        self.say("sum", FadeIn(total), total=exp_sum)
        top_share = Spoken(row.weights[0][top], 2, Ref(f"{EAT}.last_row.weights[0][{top}]"))
        self.say("divide", FadeIn(weights), FadeIn(labels[2]), token=ex.tokens[top], top=top_share)
        self.say("one", FadeIn(one))
        whole = AttentionGrid(
            ex.short_full.weights,
            f"{EAT}.short_full.weights",
            row_headers=[style.text(t, style.LABEL_SIZE, style.QUERY) for t in ex.tokens[:3]],
            col_headers=[style.text(t, style.LABEL_SIZE, style.KEY) for t in ex.tokens[:3]],
            cell_size=0.9,
        ).next_to(self.title, DOWN, buff=style.GROUP_BUFF)
        self.play(FadeOut(VGroup(rows, *labels, total, one)))
        self.say("map", FadeIn(whole))
        self.play(FadeOut(whole))

    # --- temperature -------------------------------------------------------------------
    def _bars(self, k: int) -> VGroup:
        c = self.data.it_cat
        it = c.query_index
        temp = c.temperatures[k]
        source = f"{IT}.temperatures[{k}].weights[{it}]"
        labels = [style.text(t, style.LABEL_SIZE, style.KEY) for t in c.tokens]
        bars = WeightBars(labels, temp.weights[it], source, length=4.0)
        shown_t = ShownNumber(temp.t, 2, Ref(f"{IT}.temperatures[{k}].t"))
        t = phrase(self.words["t_line"], style.BODY_SIZE, t=shown_t)
        total = phrase(
            self.words["total"], total=ShownNumber(sum(temp.weights[it]), 2, Sum(source))
        )
        side = VGroup(t, total).arrange(DOWN, aligned_edge=LEFT, buff=style.GROUP_BUFF)
        group = VGroup(bars, side.next_to(bars, RIGHT, buff=style.WIDE_BUFF))
        return group.next_to(self.title, DOWN, buff=style.SECTION_BUFF)

    def _it_cat(self, k: int) -> Spoken:
        """The it -> cat weight at the k-th temperature, as the narration says it."""
        c = self.data.it_cat
        it, cat = c.query_index, c.index("cat")
        weight = c.temperatures[k].weights[it][cat]
        return Spoken(weight, 2, Ref(f"{IT}.temperatures[{k}].weights[{it}][{cat}]"))

    def _temperature(self) -> None:
        c = self.data.it_cat
        temps = [t.t for t in c.temperatures]
        words = {0: "t_low", temps.index(1.0): "t_mid", len(temps) - 1: "t_high"}
        sentence = style.text(" ".join(c.tokens), style.BODY_SIZE, style.MUTED)
        sentence.next_to(self.title, DOWN, buff=style.ITEM_BUFF)
        shown = self._bars(0)
        self.say("t_intro", FadeIn(sentence), sentence=" ".join(c.tokens))
        self.play(FadeOut(sentence))
        self.say(words[0], FadeIn(shown), w=self._it_cat(0))
        for k in range(1, len(temps)):
            new = self._bars(k)
            w = self._it_cat(k)
            if k in words:
                self.say(words[k], ReplacementTransform(shown, new), w=w)
            else:
                self.play(ReplacementTransform(shown, new), run_time=1.2)
                self.wait(0.6)
            shown = new
        self.say("t_sum")
